//! The tree below the root: negamax with PVS, and everything a node decides before and
//! while it searches its moves (table cut-offs, mate distance, reverse futility, null
//! move, ProbCut, singular extensions, late move reductions and pruning). At depth 0 it
//! hands over to `quiescence`.

use super::history::HISTORY_MAX;
use super::movepick::pick_next;
use super::tt::{Bound, TtHit, score_from_tt, score_to_tt};
use super::worker::{INFINITY, Worker};
use crate::core::{
    Evaluator, Game, MATE_BOUND, MAX_PLY, MoveList, Outcome, Score, mate_in, mated_in,
};

/// Late move reductions by depth and move number: about ln(depth) * ln(moves) / 2, the
/// shape most engines found; deeper and later means more likely irrelevant.
static REDUCTIONS: once_cell::sync::Lazy<[[i32; 64]; 64]> = once_cell::sync::Lazy::new(|| {
    std::array::from_fn(|depth| {
        std::array::from_fn(|moves| {
            if depth == 0 || moves == 0 {
                0
            } else {
                (0.5 + (depth as f64).ln() * (moves as f64).ln() / 2.0) as i32
            }
        })
    })
});
/// The least depth at which the table's move is tested for a singular extension: the
/// test is a search of half the depth, worth its cost only on deep nodes.
const SINGULAR_DEPTH: i32 = 7;
/// The least depth at which ProbCut is tried, and how much shallower its searches are.
const PROBCUT_DEPTH: i32 = 5;
const PROBCUT_REDUCTION: i32 = 4;

impl<'a, G: Game, E: Evaluator<G>> Worker<'a, G, E> {
    /// Searches the position after a move, from the mover's team's view.
    #[inline]
    pub(super) fn child(
        &mut self,
        alpha: Score,
        beta: Score,
        depth: i32,
        ply: usize,
        same_team: bool,
        pv_node: bool,
    ) -> Score {
        if same_team {
            self.negamax(alpha, beta, depth, ply, pv_node)
        } else {
            -self.negamax(-beta, -alpha, depth, ply, pv_node)
        }
    }

    pub(super) fn outcome_score(&self, outcome: Outcome, ply: usize) -> Score {
        match outcome {
            Outcome::Draw => 0,
            Outcome::Win(team) if team == self.pos.team_to_move() => mate_in(ply),
            Outcome::Win(_) => mated_in(ply),
        }
    }

    fn negamax(
        &mut self,
        mut alpha: Score,
        mut beta: Score,
        depth: i32,
        ply: usize,
        pv_node: bool,
    ) -> Score {
        if depth <= 0 {
            return self.quiescence(alpha, beta, ply);
        }
        if let Some(score) = self.enter_node(ply) {
            return score;
        }
        // Mate distance pruning: no line from here beats a mate already in hand.
        alpha = alpha.max(mated_in(ply));
        beta = beta.min(mate_in(ply + 1));
        if alpha >= beta {
            return alpha;
        }

        let key = self.pos.hash();
        let hit = self.shared.tt.probe(key);
        let tt_move = hit.and_then(|h| h.move_code);
        // A search that leaves a move out is a test, not a search of the node: it neither
        // takes the table's word nor leaves its own there, and prunes nothing by the
        // static evaluation (which does not know the move is missing).
        let excluded = self.excluded[ply];
        if let Some(hit) = hit
            && !pv_node
            && excluded.is_none()
            && hit.depth >= depth
            && let Some(score) = tt_cutoff(hit, ply, alpha, beta)
        {
            return score;
        }

        // Without a move from the table this node was never searched well: search it a
        // ply shallower now, and let the next iteration find the move (internal iterative
        // reduction).
        let depth = if depth >= 4 && tt_move.is_none() && excluded.is_none() {
            depth - 1
        } else {
            depth
        };
        let team = self.pos.team_to_move();
        let in_check = self.pos.in_check();
        // A mate on the board settles the node before any pruning or search.
        if !in_check
            && excluded.is_none()
            && let Some(mv) = self.pos.mate_in_one()
        {
            if pv_node {
                self.pv[ply].push(mv);
            }
            let score = mate_in(ply + 1);
            let code = Some(G::move_index(mv) as u32);
            let stored = score_to_tt(score, ply);
            self.shared.tt.store(key, code, stored, depth, Bound::Exact);
            return score;
        }
        let static_eval = if in_check {
            -INFINITY
        } else {
            self.static_eval(key)
        };
        let margin = |depth| self.eval.futility_margin(depth);
        if !pv_node && !in_check && excluded.is_none() && beta.abs() < MATE_BOUND {
            // Reverse futility: so far above beta that a shallow search will not fall back.
            if depth <= 6
                && let Some(margin) = margin(depth)
                && static_eval - margin >= beta
            {
                return static_eval - margin;
            }
            // Null move: if passing still fails high, a real move will too (not twice in a
            // row, and only where the game can pass: never in check).
            let after_null = ply > 0 && self.null_made[ply - 1];
            if depth >= 3
                && static_eval >= beta
                && !after_null
                && let Some(undo) = self.pos.make_null_move()
            {
                self.eval.make(&mut self.eval_state, &self.pos, None);
                let reduction = 3 + depth / 6;
                let same = self.pos.team_to_move() == team;
                self.null_made[ply] = true;
                self.played[ply] = None;
                let value = self.child(beta - 1, beta, depth - 1 - reduction, ply + 1, same, false);
                self.null_made[ply] = false;
                self.pos.unmake_null_move(undo);
                self.eval.unmake(&mut self.eval_state);
                if self.stopped {
                    return 0;
                }
                if value >= beta {
                    return if value >= MATE_BOUND { beta } else { value };
                }
            }
            // ProbCut: a capture that clears beta by a margin in a search four plies
            // shallower will almost always clear beta in the full one. Only captures whose
            // exchange alone could get there are tried, and not when the table already
            // says a search nearly as deep stayed below.
            if depth >= PROBCUT_DEPTH
                && let Some(unit) = margin(1)
            {
                let probcut_beta = beta + 2 * unit;
                let below = hit.is_some_and(|hit| {
                    hit.depth > depth - PROBCUT_REDUCTION
                        && score_from_tt(hit.score, ply) < probcut_beta
                });
                if !below && let Some(value) = self.probcut(probcut_beta, static_eval, depth, ply) {
                    return value;
                }
            }
        }

        let mut moves = MoveList::new();
        self.pos.legal_moves(&mut moves);
        if moves.is_empty() {
            return self.outcome_score(self.pos.no_move_outcome(), ply);
        }
        if let Some(mv) = excluded {
            moves.retain(|&m| m != mv);
            if moves.is_empty() {
                return alpha;
            }
        }
        let mut order = MoveList::new();
        self.score_moves(&moves, &mut order, tt_move, ply);
        // Singular extension: when the table's move held above a score that no other
        // move reaches in a search of half the depth, it is the only move here, and it is
        // searched a ply deeper. When the others reach beta even without it, the node
        // fails high at once (multi-cut).
        let mut singular = None;
        if let Some(hit) = hit
            && let Some(code) = tt_move
            && ply > 0
            && depth >= SINGULAR_DEPTH
            && excluded.is_none()
            && hit.bound != Bound::Upper
            && hit.depth >= depth - 3
            && let Some(unit) = margin(1)
        {
            let tt_score = score_from_tt(hit.score, ply);
            let mv = moves
                .iter()
                .copied()
                .find(|&m| G::move_index(m) as u32 == code);
            if let Some(mv) = mv
                && tt_score.abs() < MATE_BOUND
            {
                let singular_beta = tt_score - unit * depth / 45;
                self.excluded[ply] = Some(mv);
                let value = self.negamax(
                    singular_beta - 1,
                    singular_beta,
                    (depth - 1) / 2,
                    ply,
                    false,
                );
                self.excluded[ply] = None;
                if self.stopped {
                    return 0;
                }
                if value < singular_beta {
                    singular = Some(mv);
                } else if singular_beta >= beta {
                    return singular_beta;
                }
            }
        }
        let futile = !pv_node
            && !in_check
            && depth <= 3
            && margin(depth).is_some_and(|m| static_eval + m <= alpha);
        let prune_late = !pv_node && !in_check && depth <= 3 && margin(depth).is_some();

        let player = self.pos.side_to_move();
        let original_alpha = alpha;
        let mut best = -INFINITY;
        let mut best_move = None;
        for i in 0..moves.len() {
            pick_next(&mut moves, &mut order, i);
            let mv = moves[i];
            let quiet = !self.pos.is_capture(mv);
            // Futility: a quiet move cannot lift a hopeless static score to alpha; and at
            // shallow depth, after enough quiet tries, the rest are not worth a look (late
            // move pruning), for games whose evaluation supports futility at all. Checks
            // are exempt; the rest go before they are made.
            let late = prune_late && i as i32 > 3 + depth * depth;
            if (futile || late) && quiet && i > 0 && best > -MATE_BOUND && !self.pos.gives_check(mv)
            {
                continue;
            }
            // What the move risks in the exchange on its square: wanted for the pruning
            // below and, with drops, to tell a check that threatens from one that does not.
            let shallow = i > 0 && !in_check && depth <= 6;
            let exchange = if G::DROPS || shallow {
                self.eval.exchange(&self.pos, mv)
            } else {
                None
            };
            // At shallow depth a move that loses more in the exchange on its square than
            // the remaining plies could win back is not searched: two margins for a
            // capture or a check, which may win something back at once, a smaller floor
            // growing with the square of the depth for a quiet move (never below two
            // margins at depth 6 or less).
            let exchange_margin = if shallow && best > -MATE_BOUND {
                exchange.zip(margin(depth))
            } else {
                None
            };
            if exchange_margin.is_some_and(|(exchange, m)| exchange < -2 * m) {
                continue;
            }
            if quiet
                && exchange_margin.is_some_and(|(exchange, m)| exchange < -m * depth / 3)
                && !self.pos.gives_check(mv)
            {
                continue;
            }
            let piece_to = self.pos.piece_to(mv);
            self.played[ply] = Some((mv, piece_to as u32));
            let undo = self.play(mv);
            let gives_check = self.pos.in_check();
            let same = self.pos.team_to_move() == team;
            // Checks are searched one ply deeper, so that mates and perpetuals are seen;
            // never beyond twice the iteration's depth, so check sequences cannot explode.
            let threat = gives_check && check_is_threat::<G>(exchange);
            let extend = (threat || singular == Some(mv)) && ply < 2 * self.root_depth;
            let depth = depth + extend as i32;
            let value = if i == 0 {
                self.child(alpha, beta, depth - 1, ply + 1, same, pv_node)
            } else {
                // Late quiet moves are searched shallower first (LMR), every non-first
                // move with a null window (PVS); both re-searched when they surprise.
                let reduction = if depth >= 3 && i >= 3 && quiet && !gives_check && !in_check {
                    let history =
                        self.histories.history[player * G::MOVE_INDEX_SIZE + G::move_index(mv)];
                    let continuation = self.continuation_score(ply, piece_to);
                    let r = REDUCTIONS[(depth as usize).min(63)][i.min(63)]
                        - pv_node as i32
                        - (2 * history + continuation) / HISTORY_MAX;
                    r.clamp(1, depth - 2)
                } else {
                    0
                };
                let mut v = self.child(
                    alpha,
                    alpha + 1,
                    depth - 1 - reduction,
                    ply + 1,
                    same,
                    false,
                );
                if v > alpha && reduction > 0 {
                    v = self.child(alpha, alpha + 1, depth - 1, ply + 1, same, false);
                }
                if v > alpha && v < beta && pv_node {
                    v = self.child(alpha, beta, depth - 1, ply + 1, same, true);
                }
                v
            };
            self.take_back(mv, undo);
            if self.stopped {
                return 0;
            }
            if value > best {
                best = value;
                best_move = Some(mv);
                if value > alpha {
                    alpha = value;
                    if pv_node {
                        let (head, tail) = self.pv.split_at_mut(ply + 1);
                        head[ply].clear();
                        head[ply].push(mv);
                        head[ply].extend_from_slice(&tail[0]);
                    }
                    if value >= beta {
                        if quiet {
                            self.reward_quiet(mv, player, depth, ply, &moves[..i]);
                        }
                        break;
                    }
                }
            }
        }
        if excluded.is_some() {
            return best;
        }
        let bound = bound_of(best, original_alpha, beta);
        self.shared.tt.store(
            key,
            best_move.map(|mv| G::move_index(mv) as u32),
            score_to_tt(best, ply),
            depth,
            bound,
        );
        best
    }

    /// The first capture at the node at `ply` that holds `probcut_beta` in quiescence and
    /// then in a search four plies shallower than `depth`, with that search's score
    /// (left in the table as a lower bound).
    fn probcut(
        &mut self,
        probcut_beta: Score,
        static_eval: Score,
        depth: i32,
        ply: usize,
    ) -> Option<Score> {
        let team = self.pos.team_to_move();
        let mut captures = MoveList::new();
        self.eval.noisy_moves(&self.pos, &mut captures);
        for &mv in captures.iter() {
            if self
                .eval
                .exchange(&self.pos, mv)
                .is_none_or(|gain| static_eval + gain < probcut_beta)
            {
                continue;
            }
            self.played[ply] = Some((mv, self.pos.piece_to(mv) as u32));
            let undo = self.play(mv);
            let same = self.pos.team_to_move() == team;
            let mut value = self.quiescence_child(probcut_beta - 1, probcut_beta, ply + 1, same);
            if value >= probcut_beta {
                let reduced = depth - PROBCUT_REDUCTION;
                value = self.child(
                    probcut_beta - 1,
                    probcut_beta,
                    reduced,
                    ply + 1,
                    same,
                    false,
                );
            }
            self.take_back(mv, undo);
            if self.stopped {
                return Some(0);
            }
            if value >= probcut_beta {
                let code = Some(G::move_index(mv) as u32);
                let stored = score_to_tt(value, ply);
                let key = self.pos.hash();
                self.shared.tt.store(
                    key,
                    code,
                    stored,
                    depth - PROBCUT_REDUCTION + 1,
                    Bound::Lower,
                );
                return Some(value);
            }
        }
        None
    }

    /// What every node does first: count it, poll the limits, and settle it at once when
    /// the game is over here or the line is as deep as the tables go.
    pub(super) fn enter_node(&mut self, ply: usize) -> Option<Score> {
        self.nodes += 1;
        self.pv[ply].clear();
        self.seldepth = self.seldepth.max(ply);
        if self.should_stop() {
            return Some(0);
        }
        if let Some(outcome) = self.pos.outcome() {
            return Some(self.outcome_score(outcome, ply));
        }
        (ply >= MAX_PLY - 1).then(|| self.eval.evaluate_with(&self.pos, &mut self.eval_state))
    }
}

/// Whether a check, whose exchange on its square comes to `exchange`, is a threat worth
/// searching deeper. In chess one that gives material away is a sacrifice to see
/// through; with drops (shogi) checks are within reach almost anywhere, and one that
/// loses its piece is mostly nothing.
fn check_is_threat<G: Game>(exchange: Option<Score>) -> bool {
    !G::DROPS || exchange.is_none_or(|value| value >= 0)
}

/// What a node's best score says about its true value, given the window it was searched in.
pub(super) fn bound_of(best: Score, alpha: Score, beta: Score) -> Bound {
    if best >= beta {
        Bound::Lower
    } else if best > alpha {
        Bound::Exact
    } else {
        Bound::Upper
    }
}

/// The stored score, if its bound settles the window `alpha..beta` by itself.
pub(super) fn tt_cutoff(hit: TtHit, ply: usize, alpha: Score, beta: Score) -> Option<Score> {
    let score = score_from_tt(hit.score, ply);
    let usable = match hit.bound {
        Bound::Exact => true,
        Bound::Lower => score >= beta,
        Bound::Upper => score <= alpha,
    };
    usable.then_some(score)
}

#[cfg(test)]
mod tests {
    use super::super::worker::tests::with_chess_worker;
    use super::*;
    use crate::games::chess;
    use crate::search::Limits;

    #[test]
    fn a_search_that_leaves_a_move_out_neither_plays_it_nor_leaves_a_trace() {
        // White's rook takes a loose queen; after any other move Black keeps a queen
        // against a rook.
        let pos = chess::Position::from_notation("3q3k/8/8/8/8/8/8/3RK3 w - - 0 1").unwrap();
        let take = pos.parse_move("d1d8").unwrap();
        with_chess_worker(&pos, Limits::default(), |worker, tt| {
            let wide = MATE_BOUND - 1;
            worker.excluded[1] = Some(take);
            let without = worker.negamax(-wide, wide, 3, 1, false);
            worker.excluded[1] = None;
            assert!(without < -300, "the queen stays on the board: {without}");
            assert!(
                tt.probe(pos.hash()).is_none(),
                "a test of the other moves is no result for the node"
            );
            let with = worker.negamax(-wide, wide, 3, 1, false);
            assert!(with > 300, "the rook takes the queen: {with}");
            let stored = tt
                .probe(pos.hash())
                .expect("a search of the node is stored");
            assert_eq!(
                stored.move_code,
                Some(chess::Position::move_index(take) as u32)
            );
        });
    }

    #[test]
    fn probcut_tries_only_captures_that_could_clear_its_bound() {
        // As above: the rook takes a loose queen and is a rook up after it.
        let pos = chess::Position::from_notation("3q3k/8/8/8/8/8/8/3RK3 w - - 0 1").unwrap();
        let take = pos.parse_move("d1d8").unwrap();
        with_chess_worker(&pos, Limits::default(), |worker, tt| {
            let static_eval = worker.static_eval(pos.hash());
            assert!(static_eval < -300, "a queen against a rook: {static_eval}");
            // Not even the queen's capture gets this far above the position.
            assert_eq!(worker.probcut(2000, static_eval, 6, 0), None);
            assert_eq!(worker.nodes, 0, "nothing was searched");
            let value = worker.probcut(200, static_eval, 6, 0);
            assert!(value.is_some_and(|v| v >= 200), "{value:?}");
            let stored = tt.probe(pos.hash()).expect("a lower bound is left");
            assert_eq!(stored.bound, Bound::Lower);
            assert_eq!(stored.depth, 6 - PROBCUT_REDUCTION + 1);
            assert_eq!(
                stored.move_code,
                Some(chess::Position::move_index(take) as u32)
            );
        });
    }

    #[test]
    fn only_drops_keep_a_losing_check_from_being_searched_deeper() {
        use crate::games::shogi;
        assert!(check_is_threat::<chess::Position>(Some(-300)));
        assert!(check_is_threat::<chess::Position>(Some(0)));
        assert!(!check_is_threat::<shogi::Position>(Some(-300)));
        assert!(check_is_threat::<shogi::Position>(Some(0)));
        assert!(check_is_threat::<shogi::Position>(None));
    }
}

//! Quiescence: below the last full ply, captures alone (every evasion in check) until
//! the position is quiet enough for its static evaluation to be believed.

use super::movepick::pick_next;
use super::negamax::{bound_of, tt_cutoff};
use super::tt::score_to_tt;
use super::worker::{INFINITY, Worker};
use crate::core::{Evaluator, Game, MoveList, Score, mate_in};

impl<'a, G: Game, E: Evaluator<G>> Worker<'a, G, E> {
    /// The quiescence value of the root for the side to move: only the captures that
    /// follow are searched.
    pub(super) fn quiesce(&mut self) -> Score {
        self.quiescence(-INFINITY, INFINITY, 0)
    }

    #[inline]
    pub(super) fn quiescence_child(
        &mut self,
        alpha: Score,
        beta: Score,
        ply: usize,
        same: bool,
    ) -> Score {
        if same {
            self.quiescence(alpha, beta, ply)
        } else {
            -self.quiescence(-beta, -alpha, ply)
        }
    }

    pub(super) fn quiescence(&mut self, mut alpha: Score, beta: Score, ply: usize) -> Score {
        if let Some(score) = self.enter_node(ply) {
            return score;
        }
        let key = self.pos.hash();
        if let Some(score) = self
            .shared
            .tt
            .probe(key)
            .and_then(|hit| tt_cutoff(hit, ply, alpha, beta))
        {
            return score;
        }
        let original_alpha = alpha;
        // In check there is no standing pat: every evasion is searched, and none is mate.
        let in_check = self.pos.in_check();
        let mut moves = MoveList::new();
        let mut best = if in_check {
            self.pos.legal_moves(&mut moves);
            if moves.is_empty() {
                return self.outcome_score(self.pos.no_move_outcome(), ply);
            }
            -INFINITY
        } else {
            let stand_pat = self.static_eval(key);
            if stand_pat >= beta {
                return stand_pat;
            }
            // Nor in front of a mate, which captures alone would not see (above beta it
            // would fail high all the same).
            if self.pos.mate_in_one().is_some() {
                return mate_in(ply + 1);
            }
            alpha = alpha.max(stand_pat);
            self.eval.noisy_moves(&self.pos, &mut moves);
            moves.retain(|&mv| self.eval.good_capture(&self.pos, mv));
            stand_pat
        };
        let mut order = MoveList::new();
        for &mv in moves.iter() {
            let key = if self.pos.is_capture(mv) {
                (1 << 20) + self.eval.capture_order(&self.pos, mv)
            } else {
                0
            };
            order.push(key);
        }
        let team = self.pos.team_to_move();
        let mut best_move = None;
        for i in 0..moves.len() {
            pick_next(&mut moves, &mut order, i);
            let mv = moves[i];
            let undo = self.play(mv);
            let same = self.pos.team_to_move() == team;
            let value = self.quiescence_child(alpha, beta, ply + 1, same);
            self.take_back(mv, undo);
            if self.stopped {
                return 0;
            }
            if value > best {
                best = value;
                best_move = Some(mv);
                if value > alpha {
                    alpha = value;
                    if value >= beta {
                        break;
                    }
                }
            }
        }
        let bound = bound_of(best, original_alpha, beta);
        let code = best_move.map(|mv| G::move_index(mv) as u32);
        self.shared
            .tt
            .store(key, code, score_to_tt(best, ply), 0, bound);
        best
    }
}

//! One search thread's state: the position and the evaluation's state moved along with
//! it, the root moves, the per-ply stacks (line played, killers, PV, exclusions), the
//! evaluation cache and the limits it polls. The search itself is spread over the files
//! beside this one, each an `impl Worker` block of its own: `root` (iterative deepening
//! and the root), `negamax` and `quiescence` (the tree below it), `movepick` (ordering)
//! and `history` (what is learnt about moves).
//!
//! Scores are from the view of the team to move. A child whose mover is on the same team
//! (a Junqi partner after an elimination, say) is searched without negating the window.

use super::Shared;
use super::history::Histories;
use super::movepick::sort_tail;
use super::time::Stability;
use crate::core::{Evaluator, Game, MATE, MAX_PLY, MoveList, Score};
use std::sync::atomic::Ordering;

/// Beyond every score: the bounds of the widest window.
pub(super) const INFINITY: Score = MATE + 1;
/// Entries in each thread's cache of static evaluations (a power of two).
const EVAL_CACHE: usize = 1 << 16;
/// The score an empty eval-cache slot holds; no evaluation returns it.
const NO_EVAL: Score = Score::MIN;

/// A root move and what the iterations so far found under it.
pub(super) struct RootMove<M> {
    pub(super) mv: M,
    pub(super) score: Score,
    pub(super) previous: Score,
    pub(super) seldepth: usize,
    pub(super) pv: Vec<M>,
    /// The nodes searched under this move so far in this search, every iteration's.
    pub(super) nodes: u64,
}

impl<M: Copy> RootMove<M> {
    /// A move not yet searched.
    pub(super) fn new(mv: M) -> Self {
        RootMove {
            mv,
            score: -INFINITY,
            previous: -INFINITY,
            seldepth: 0,
            pv: vec![mv],
            nodes: 0,
        }
    }

    /// The last iteration's score, or the one before when the last was cut short before
    /// it reached this move.
    pub(super) fn settled_score(&self) -> Score {
        if self.score == -INFINITY {
            self.previous
        } else {
            self.score
        }
    }
}

/// One search thread: the main thread (id 0) or a helper.
pub(super) struct Worker<'a, G: Game, E: Evaluator<G>> {
    pub(super) id: usize,
    pub(super) pos: G,
    pub(super) eval: &'a E,
    /// The evaluation's own state, moved along with `pos`.
    pub(super) eval_state: E::State,
    pub(super) shared: &'a Shared<'a, G::Move>,
    pub(super) root_moves: Vec<RootMove<G::Move>>,
    pub(super) nodes: u64,
    pub(super) seldepth: usize,
    pub(super) stopped: bool,
    pub(super) killers: Vec<[Option<G::Move>; 2]>,
    pub(super) histories: &'a mut Histories<G>,
    /// The move made at each ply of the current line and its [`Game::piece_to`] (`None`
    /// for a null move).
    pub(super) played: [Option<(G::Move, u32)>; MAX_PLY + 1],
    /// Triangular PV table: `pv[ply]` is the best line found from `ply` on.
    pub(super) pv: Vec<Vec<G::Move>>,
    /// The depth of the current iteration.
    pub(super) root_depth: usize,
    /// Whether the move made at each ply of the current line was a null move.
    pub(super) null_made: [bool; MAX_PLY + 1],
    /// The move a singular-extension test leaves out at each ply, while it searches
    /// the others.
    pub(super) excluded: [Option<G::Move>; MAX_PLY + 1],
    /// Static evaluations by position key. Every iteration of the deepening revisits the
    /// nodes of the last, and evaluating is the dearest step of a node, so remembering
    /// them pays; the key is the full 64-bit hash, as in the transposition table.
    pub(super) eval_cache: Vec<(u64, Score)>,
    /// How settled the answer is, which scales the main thread's soft limit.
    pub(super) stability: Stability<G::Move>,
}

/// A worker's per-ply stacks and its evaluation cache (a megabyte and a hundred and thirty
/// vectors), which the search over worlds hands from one world's worker to the next
/// rather than allocating them for every world's short search. The cache stays valid
/// from one search to the next: it is keyed by the full hash.
pub(super) struct Buffers<M> {
    killers: Vec<[Option<M>; 2]>,
    pv: Vec<Vec<M>>,
    eval_cache: Vec<(u64, Score)>,
}

impl<M> Default for Buffers<M> {
    fn default() -> Self {
        Buffers {
            killers: Vec::new(),
            pv: Vec::new(),
            eval_cache: Vec::new(),
        }
    }
}

impl<'a, G: Game, E: Evaluator<G>> Worker<'a, G, E> {
    /// A worker that searches with `buffers` (an earlier worker's, or empty ones): the
    /// killers and lines are cleared, the evaluation cache kept.
    pub(super) fn new(
        id: usize,
        pos: G,
        eval: &'a E,
        shared: &'a Shared<'a, G::Move>,
        histories: &'a mut Histories<G>,
        moves: &MoveList<G::Move>,
        buffers: Buffers<G::Move>,
    ) -> Self {
        let Buffers {
            mut killers,
            mut pv,
            mut eval_cache,
        } = buffers;
        killers.clear();
        killers.resize(MAX_PLY + 1, [None; 2]);
        pv.iter_mut().for_each(Vec::clear);
        pv.resize_with(MAX_PLY + 1, || Vec::with_capacity(MAX_PLY));
        eval_cache.resize(EVAL_CACHE, (0, NO_EVAL));
        Worker {
            id,
            eval_state: eval.new_state(&pos),
            pos,
            eval,
            shared,
            root_moves: moves.iter().map(|&mv| RootMove::new(mv)).collect(),
            nodes: 0,
            seldepth: 0,
            stopped: false,
            killers,
            histories,
            played: [None; MAX_PLY + 1],
            pv,
            null_made: [false; MAX_PLY + 1],
            excluded: [None; MAX_PLY + 1],
            root_depth: 1,
            eval_cache,
            stability: Stability::default(),
        }
    }

    /// Puts the worker on a new root, `pos` with its legal `moves`, keeping its history,
    /// killers and evaluation cache. The search over worlds searches every root move of a
    /// world in turn: a fresh worker's tables (a megabyte of evaluation cache alone) cost
    /// more than such a shallow search, and what was learnt in one world stays true in it.
    /// The moves are put in the order any node tries them ([`Worker::score_moves`]): the
    /// reply that refutes a root move is most often a capture, and found first it lets
    /// the quiet replies after it fail low at once (at depth 1, the seat after them stands
    /// pat). The verdicts are those of the order generated, with about a quarter more
    /// worlds a second (lab/benchmarks.md).
    pub(super) fn rebase(&mut self, pos: G, moves: &MoveList<G::Move>) {
        self.eval_state = self.eval.new_state(&pos);
        self.pos = pos;
        let (mut ordered, mut keys) = (MoveList::new(), MoveList::new());
        for &mv in moves.iter() {
            ordered.push(mv);
        }
        self.score_moves(moves, &mut keys, None, 0);
        sort_tail(&mut ordered, &mut keys, 0);
        self.root_moves.clear();
        self.root_moves
            .extend(ordered.iter().map(|&mv| RootMove::new(mv)));
        self.nodes = 0;
        self.seldepth = 0;
        self.stopped = false;
        self.root_depth = 1;
        self.stability = Stability::default();
        self.publish_nodes();
    }

    /// Ends the worker, handing its buffers on to the next.
    pub(super) fn into_buffers(self) -> Buffers<G::Move> {
        Buffers {
            killers: self.killers,
            pv: self.pv,
            eval_cache: self.eval_cache,
        }
    }

    pub(super) fn nodes(&self) -> u64 {
        self.nodes
    }

    /// The static evaluation of the current position, whose hash is `key`.
    pub(super) fn static_eval(&mut self, key: u64) -> Score {
        let slot = key as usize & (EVAL_CACHE - 1);
        let (cached_key, score) = self.eval_cache[slot];
        if cached_key == key && score != NO_EVAL {
            return score;
        }
        let score = self.eval.evaluate_with(&self.pos, &mut self.eval_state);
        self.eval_cache[slot] = (key, score);
        score
    }

    /// Makes `mv`, and tells the evaluation first.
    #[inline]
    pub(super) fn play(&mut self, mv: G::Move) -> G::Undo {
        self.eval.make(&mut self.eval_state, &self.pos, Some(mv));
        let undo = self.pos.make_move(mv);
        self.shared.tt.prefetch(self.pos.hash());
        undo
    }

    /// Takes back `mv`, the last move [`Worker::play`]ed.
    #[inline]
    pub(super) fn take_back(&mut self, mv: G::Move, undo: G::Undo) {
        self.pos.unmake_move(mv, undo);
        self.eval.unmake(&mut self.eval_state);
    }

    /// Polls the clock, the node limit and the stop switches every 1024 nodes.
    pub(super) fn should_stop(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        let limits = self.shared.limits;
        if self.id == 0
            && let Some(max) = limits.nodes
            && self.nodes >= max
        {
            self.stopped = true;
            return true;
        }
        if self.nodes & 1023 != 0 {
            return false;
        }
        self.publish_nodes();
        let shared = self.shared;
        let control = shared.control;
        // Every thread minds the node limit: a helper that waited for the main thread to
        // notice could overshoot it by as much as the main thread was kept off the CPU.
        self.stopped = control.is_stopped()
            || shared.abort.load(Ordering::Relaxed)
            || limits.nodes.is_some_and(|max| shared.total_nodes() >= max)
            || (self.id == 0
                && ((!limits.infinite
                    && limits
                        .depth
                        .is_some_and(|d| shared.deepest_depth.load(Ordering::Relaxed) >= d))
                    || (!control.is_pondering()
                        && shared
                            .budget
                            .hard
                            .is_some_and(|hard| control.elapsed() >= hard))));
        self.stopped
    }

    pub(super) fn publish_nodes(&self) {
        self.shared.nodes[self.id].store(self.nodes, Ordering::Relaxed);
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::games::chess;
    use crate::search::{Control, Limits, TimeBudget, TranspositionTable};

    /// Runs `test` on a single chess worker at `pos`, under `limits` and no clock, with a
    /// table of its own, which it also gets to look into.
    pub(in crate::search) fn with_chess_worker(
        pos: &chess::Position,
        limits: Limits,
        test: impl FnOnce(&mut Worker<chess::Position, chess::HandEval>, &TranspositionTable),
    ) {
        let mut moves = MoveList::new();
        pos.legal_moves(&mut moves);
        let (control, tt) = (Control::default(), TranspositionTable::new(1));
        let unlimited = TimeBudget {
            soft: None,
            hard: None,
        };
        let shared = Shared::new(&control, &tt, &limits, unlimited, 1, 1);
        let mut histories = Histories::default();
        let mut worker = Worker::new(
            0,
            pos.clone(),
            &chess::HandEval,
            &shared,
            &mut histories,
            &moves,
            Buffers::default(),
        );
        test(&mut worker, &tt);
    }

    /// A new root's moves come in the order a node tries them: every legal move, the
    /// captures that do not lose material first, the most valuable victim first.
    #[test]
    fn a_new_root_searches_its_good_captures_first() {
        let start = chess::Position::start_position();
        let pos = chess::Position::from_notation(
            "rnb1kbnr/ppp1pppp/8/3q4/4P3/2N5/PPPP1PPP/R1BQKBNR w KQkq - 0 3",
        )
        .unwrap();
        with_chess_worker(&start, Limits::default(), |worker, _| {
            let mut moves = MoveList::new();
            pos.legal_moves(&mut moves);
            worker.rebase(pos.clone(), &moves);
            let eval = chess::HandEval;
            let order: Vec<Score> = worker
                .root_moves
                .iter()
                .map(|rm| rm.mv)
                .take_while(|&mv| pos.is_capture(mv) && eval.good_capture(&pos, mv))
                .map(|mv| eval.capture_order(&pos, mv))
                .collect();
            assert!(order.len() >= 2, "{order:?}");
            assert!(order.windows(2).all(|w| w[0] >= w[1]), "{order:?}");
            assert!(order[0] > order[order.len() - 1], "{order:?}");
            let mut got: Vec<_> = worker.root_moves.iter().map(|rm| rm.mv).collect();
            let mut all = moves.as_slice().to_vec();
            got.sort_by_key(|&mv| chess::Position::move_index(mv));
            all.sort_by_key(|&mv| chess::Position::move_index(mv));
            assert_eq!(got, all);
        });
    }
}

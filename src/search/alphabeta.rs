//! One search thread: iterative deepening, the root, negamax with PVS, quiescence, and
//! the move-ordering state (killers, countermoves, history) that belongs to a single thread.
//!
//! Scores are from the view of the team to move. A child whose mover is on the same team
//! (a Junqi partner after an elimination, say) is searched without negating the window.

use super::time::Stability;
use super::tt::{Bound, TtHit, score_from_tt, score_to_tt};
use super::{Report, ReportFn, SearchResult, Shared, Skill};
use crate::core::{
    Evaluator, Game, MATE, MATE_BOUND, MAX_PLY, MoveList, Outcome, Score, mate_in, mated_in,
};
use std::sync::atomic::Ordering;

const INFINITY: Score = MATE + 1;
/// Half-width of the first aspiration window.
const ASPIRATION: Score = 25;
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
/// How long a search runs before an aspiration failure gets an `info` line of its own:
/// the short searches of fast games would flood the GUI.
const REPORT_BOUNDS_AFTER: std::time::Duration = std::time::Duration::from_secs(1);
/// The least depth at which the table's move is tested for a singular extension: the
/// test is a search of half the depth, worth its cost only on deep nodes.
const SINGULAR_DEPTH: i32 = 7;
/// The least depth at which ProbCut is tried, and how much shallower its searches are.
const PROBCUT_DEPTH: i32 = 5;
const PROBCUT_REDUCTION: i32 = 4;
/// History scores stay within this magnitude (the "gravity" update keeps them bounded).
const HISTORY_MAX: i32 = 1 << 14;
/// Entries in each thread's cache of static evaluations (a power of two).
const EVAL_CACHE: usize = 1 << 16;
/// The score an empty eval-cache slot holds; no evaluation returns it.
const NO_EVAL: Score = Score::MIN;

struct RootMove<M> {
    mv: M,
    score: Score,
    previous: Score,
    seldepth: usize,
    pv: Vec<M>,
    /// The nodes searched under this move so far in this search, every iteration's.
    nodes: u64,
}

impl<M: Copy> RootMove<M> {
    /// A move not yet searched.
    fn new(mv: M) -> Self {
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
    fn settled_score(&self) -> Score {
        if self.score == -INFINITY {
            self.previous
        } else {
            self.score
        }
    }
}

/// What a search thread learns about moves rather than positions: which quiet moves cut
/// off, and which refuted the opponent's last move. That stays true from one move of a
/// game to the next, so the engine keeps it between searches, as it keeps the
/// transposition table, and a new game starts it afresh.
pub struct Histories<G: Game> {
    /// The quiet move that last refuted each move (by `move_index` of the refuted move).
    countermoves: Vec<Option<G::Move>>,
    /// Indexed by `player * G::MOVE_INDEX_SIZE + G::move_index(mv)`.
    history: Vec<i32>,
    /// Continuation histories: how a quiet move did after the move one or two plies
    /// before it, a table for each distance, by `earlier * G::PIECE_TO_SIZE + later` of
    /// their [`Game::piece_to`] indexes.
    continuation: Vec<i16>,
}

impl<G: Game> Default for Histories<G> {
    fn default() -> Self {
        Histories {
            countermoves: vec![None; G::MOVE_INDEX_SIZE],
            history: vec![0; 4 * G::MOVE_INDEX_SIZE],
            continuation: vec![0; 2 * G::PIECE_TO_SIZE * G::PIECE_TO_SIZE],
        }
    }
}

pub(super) struct Worker<'a, G: Game, E: Evaluator<G>> {
    id: usize,
    pos: G,
    eval: &'a E,
    /// The evaluation's own state, moved along with `pos`.
    eval_state: E::State,
    shared: &'a Shared<'a, G::Move>,
    root_moves: Vec<RootMove<G::Move>>,
    nodes: u64,
    seldepth: usize,
    stopped: bool,
    killers: Vec<[Option<G::Move>; 2]>,
    histories: &'a mut Histories<G>,
    /// The move made at each ply of the current line and its [`Game::piece_to`] (`None`
    /// for a null move).
    played: [Option<(G::Move, u32)>; MAX_PLY + 1],
    /// Triangular PV table: `pv[ply]` is the best line found from `ply` on.
    pv: Vec<Vec<G::Move>>,
    /// The depth of the current iteration.
    root_depth: usize,
    /// Whether the move made at each ply of the current line was a null move.
    null_made: [bool; MAX_PLY + 1],
    /// The move a singular-extension test leaves out at each ply, while it searches
    /// the others.
    excluded: [Option<G::Move>; MAX_PLY + 1],
    /// Static evaluations by position key. Every iteration of the deepening revisits the
    /// nodes of the last, and evaluating is the dearest step of a node, so remembering
    /// them pays; the key is the full 64-bit hash, as in the transposition table.
    eval_cache: Vec<(u64, Score)>,
    /// How settled the answer is, which scales the main thread's soft limit.
    stability: Stability<G::Move>,
}

impl<'a, G: Game, E: Evaluator<G>> Worker<'a, G, E> {
    pub fn new(
        id: usize,
        pos: G,
        eval: &'a E,
        shared: &'a Shared<'a, G::Move>,
        histories: &'a mut Histories<G>,
        moves: &MoveList<G::Move>,
    ) -> Self {
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
            killers: vec![[None; 2]; MAX_PLY + 1],
            histories,
            played: [None; MAX_PLY + 1],
            pv: (0..=MAX_PLY).map(|_| Vec::with_capacity(MAX_PLY)).collect(),
            null_made: [false; MAX_PLY + 1],
            excluded: [None; MAX_PLY + 1],
            root_depth: 1,
            eval_cache: vec![(0, NO_EVAL); EVAL_CACHE],
            stability: Stability::default(),
        }
    }

    /// Puts the worker on a new root, `pos` with its legal `moves`, keeping its history,
    /// killers and evaluation cache. The search over worlds searches every root move of a
    /// world in turn: a fresh worker's tables (a megabyte of evaluation cache alone) cost
    /// more than such a shallow search, and what was learnt in one world stays true in it.
    pub(super) fn rebase(&mut self, pos: G, moves: &MoveList<G::Move>) {
        self.eval_state = self.eval.new_state(&pos);
        self.pos = pos;
        self.root_moves.clear();
        self.root_moves
            .extend(moves.iter().map(|&mv| RootMove::new(mv)));
        self.nodes = 0;
        self.seldepth = 0;
        self.stopped = false;
        self.root_depth = 1;
        self.stability = Stability::default();
        self.publish_nodes();
    }

    /// The quiescence value of the root for the side to move: only the captures that
    /// follow are searched.
    pub(super) fn quiesce(&mut self) -> Score {
        self.quiescence(-INFINITY, INFINITY, 0)
    }

    pub(super) fn nodes(&self) -> u64 {
        self.nodes
    }

    /// The static evaluation of the current position, whose hash is `key`.
    fn static_eval(&mut self, key: u64) -> Score {
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
    fn play(&mut self, mv: G::Move) -> G::Undo {
        self.eval.make(&mut self.eval_state, &self.pos, Some(mv));
        let undo = self.pos.make_move(mv);
        self.shared.tt.prefetch(self.pos.hash());
        undo
    }

    /// Takes back `mv`, the last move [`Worker::play`]ed.
    #[inline]
    fn take_back(&mut self, mv: G::Move, undo: G::Undo) {
        self.pos.unmake_move(mv, undo);
        self.eval.unmake(&mut self.eval_state);
    }

    /// Iterative deepening. Only the main thread (id 0) reports and applies the limits;
    /// helpers search one ply deeper on odd ids so that the threads spread over depths.
    pub fn iterate(
        &mut self,
        mut report: Option<&mut ReportFn<'_, G::Move>>,
    ) -> SearchResult<G::Move> {
        let limits = self.shared.limits;
        let max_depth = limits
            .depth
            .map_or(MAX_PLY as u32 - 1, |d| d.clamp(1, MAX_PLY as u32 - 1));
        let mut completed = 0;
        let mut reported_best = None;
        let mut depth = 1 + (self.id % 2) as u32;
        while depth <= max_depth {
            for rm in &mut self.root_moves {
                rm.previous = rm.score;
            }
            for pv_index in 0..self.shared.multipv {
                self.seldepth = 0;
                self.aspiration(depth as i32, pv_index, report.as_deref_mut());
                self.root_moves[..=pv_index].sort_by_key(|rm| std::cmp::Reverse(rm.score));
                if self.stopped {
                    break;
                }
            }
            if self.stopped {
                break;
            }
            completed = depth;
            if self.id != 0 && self.shared.multipv == 1 {
                self.shared.offer(self.report(depth, 0));
            }
            if let Some(report) = report.as_mut() {
                for index in 0..self.shared.multipv {
                    report(&self.report(depth, index));
                }
                reported_best = Some(self.root_moves[0].mv);
            }
            if self.id == 0 && self.iteration_ends_search(depth) {
                break;
            }
            // Helpers skip every other depth, so they run ahead of the main thread and
            // fill the shared table with deeper results than it has.
            depth += if self.id > 0 && depth >= 4 { 2 } else { 1 };
        }
        self.publish_nodes();
        if self.id == 0
            && let Some(skill) = self.shared.skill
        {
            return self.line_result(self.weakened_choice(skill), completed);
        }
        // A helper that got deeper than the main thread has the better answer.
        if self.id == 0
            && let Some(deeper) = self.shared.deeper_than(completed)
        {
            if let Some(report) = report.as_mut() {
                report(&Report {
                    nodes: self.shared.total_nodes(),
                    time: self.shared.control.elapsed(),
                    ..deeper.clone()
                });
            }
            return SearchResult {
                best: deeper.pv.first().copied(),
                ponder: deeper.pv.get(1).copied(),
                score: deeper.score,
                depth: deeper.depth,
                nodes: self.nodes,
            };
        }
        // An interrupted iteration may still have found a better move: say so before it
        // becomes the `bestmove`. The moves not yet searched might be better still, so its
        // score is a lower bound.
        if let Some(report) = report.as_mut()
            && reported_best != Some(self.root_moves[0].mv)
        {
            report(&Report {
                bound: Some(Bound::Lower),
                ..self.report(completed.max(1), 0)
            });
        }
        self.line_result(0, completed)
    }

    /// The answer of a search that plays root line `index`, `depth` its last completed
    /// iteration.
    fn line_result(&self, index: usize, depth: u32) -> SearchResult<G::Move> {
        let line = &self.root_moves[index];
        SearchResult {
            best: Some(line.mv),
            ponder: line.pv.get(1).copied(),
            score: line.settled_score(),
            depth,
            nodes: self.nodes,
        }
    }

    /// The root line a weakened search plays, among its best few ([`Skill::choose`]); a
    /// line whose iteration was cut short is never chosen.
    fn weakened_choice(&self, skill: Skill) -> usize {
        let lines = self.shared.multipv.min(self.root_moves.len());
        skill.choose(
            self.root_moves[..lines]
                .iter()
                .map(|line| (line.score != -INFINITY).then_some(line.score)),
        )
    }

    /// Whether the main thread should not start another iteration.
    fn iteration_ends_search(&mut self, depth: u32) -> bool {
        let shared = self.shared;
        let limits = shared.limits;
        if let Some(mate) = limits.mate {
            let score = self.root_moves[0].score;
            if score >= mate_in((2 * mate as usize).saturating_sub(1)) {
                return true;
            }
        }
        if shared.control.is_pondering() || limits.infinite {
            return false;
        }
        if limits
            .depth
            .is_some_and(|d| shared.deepest_depth.load(Ordering::Relaxed) >= d)
        {
            return true;
        }
        if let Some(nodes) = limits.nodes
            && shared.total_nodes() >= nodes
        {
            return true;
        }
        // With a single legal move under a clock, thinking cannot change the answer.
        let clock_only = limits.depth.is_none() && limits.movetime.is_none();
        if clock_only && self.root_moves.len() == 1 && depth >= 1 && shared.budget.soft.is_some() {
            return true;
        }
        let Some(soft) = shared.budget.soft else {
            return false;
        };
        // A soft limit as far as the hard one leaves nothing to scale: the time is to be
        // spent (byoyomi).
        if !clock_only || shared.budget.hard == Some(soft) {
            return shared.control.elapsed() >= soft;
        }
        let best = &self.root_moves[0];
        let percent = self
            .stability
            .percent(best.mv, best.score, depth, best.nodes, self.nodes);
        shared.control.elapsed() >= shared.budget.scaled(soft, percent)
    }

    fn report(&self, depth: u32, index: usize) -> Report<G::Move> {
        let rm = &self.root_moves[index];
        let score = rm.settled_score();
        Report {
            depth,
            seldepth: rm.seldepth.max(depth as usize) as u32,
            multipv: index + 1,
            score: score.clamp(-MATE, MATE),
            bound: None,
            nodes: self.shared.total_nodes().max(self.nodes),
            time: self.shared.control.elapsed(),
            hashfull: self.shared.tt.hashfull(),
            pv: rm.pv.clone(),
            worlds: None,
        }
    }

    /// Searches the root for `pv_index` with a window around the previous score, widening
    /// it on failure. A failure in a long search is reported as the bound it is, so a GUI
    /// sees at once which way the score is going.
    fn aspiration(
        &mut self,
        depth: i32,
        pv_index: usize,
        mut report: Option<&mut ReportFn<'_, G::Move>>,
    ) {
        let previous = self.root_moves[pv_index].previous;
        let mut delta = ASPIRATION;
        let (mut alpha, mut beta) = if depth >= 4 && previous.abs() < MATE - MAX_PLY as Score {
            (
                (previous - delta).max(-INFINITY),
                (previous + delta).min(INFINITY),
            )
        } else {
            (-INFINITY, INFINITY)
        };
        loop {
            let score = self.root(depth, alpha, beta, pv_index);
            self.root_moves[pv_index..].sort_by_key(|rm| std::cmp::Reverse(rm.score));
            if self.stopped {
                return;
            }
            let failed_low = score <= alpha && alpha > -INFINITY;
            let failed_high = score >= beta && beta < INFINITY;
            if (failed_low || failed_high)
                && let Some(report) = report.as_mut()
                && self.shared.control.elapsed() >= REPORT_BOUNDS_AFTER
            {
                report(&Report {
                    bound: Some(if failed_low {
                        Bound::Upper
                    } else {
                        Bound::Lower
                    }),
                    ..self.report(depth as u32, pv_index)
                });
            }
            if failed_low {
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INFINITY);
            } else if failed_high {
                beta = (score + delta).min(INFINITY);
            } else {
                return;
            }
            delta += delta;
        }
    }

    fn root(&mut self, depth: i32, mut alpha: Score, beta: Score, pv_index: usize) -> Score {
        self.root_depth = depth as usize;
        let mut best = -INFINITY;
        let team = self.pos.team_to_move();
        self.nodes += 1;
        for i in pv_index..self.root_moves.len() {
            let mv = self.root_moves[i].mv;
            self.played[0] = Some((mv, self.pos.piece_to(mv) as u32));
            let nodes_before = self.nodes;
            let undo = self.play(mv);
            let same = self.pos.team_to_move() == team;
            let value = if i == pv_index {
                self.child(alpha, beta, depth - 1, 1, same, true)
            } else {
                let v = self.child(alpha, alpha + 1, depth - 1, 1, same, false);
                if v > alpha && v < beta {
                    self.child(alpha, beta, depth - 1, 1, same, true)
                } else {
                    v
                }
            };
            self.take_back(mv, undo);
            self.root_moves[i].nodes += self.nodes - nodes_before;
            if self.stopped {
                return best;
            }
            let rm = &mut self.root_moves[i];
            if i == pv_index || value > alpha {
                rm.score = value;
                rm.seldepth = self.seldepth;
                rm.pv.clear();
                rm.pv.push(mv);
                rm.pv.extend_from_slice(&self.pv[1]);
                best = best.max(value);
                if value > alpha {
                    alpha = value;
                }
                if value >= beta {
                    break;
                }
            } else {
                rm.score = -INFINITY;
            }
        }
        best
    }

    /// Searches the position after a move, from the mover's team's view.
    #[inline]
    fn child(
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

    #[inline]
    fn quiescence_child(&mut self, alpha: Score, beta: Score, ply: usize, same: bool) -> Score {
        if same {
            self.quiescence(alpha, beta, ply)
        } else {
            -self.quiescence(-beta, -alpha, ply)
        }
    }

    fn outcome_score(&self, outcome: Outcome, ply: usize) -> Score {
        match outcome {
            Outcome::Draw => 0,
            Outcome::Win(team) if team == self.pos.team_to_move() => mate_in(ply),
            Outcome::Win(_) => mated_in(ply),
        }
    }

    /// Polls the clock, the node limit and the stop switches every 1024 nodes.
    fn should_stop(&mut self) -> bool {
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

    fn publish_nodes(&self) {
        self.shared.nodes[self.id].store(self.nodes, Ordering::Relaxed);
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
    fn enter_node(&mut self, ply: usize) -> Option<Score> {
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

    fn quiescence(&mut self, mut alpha: Score, beta: Score, ply: usize) -> Score {
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

    /// The move that led to the node at `ply`, if it was a real move.
    fn previous_move(&self, ply: usize) -> Option<G::Move> {
        ply.checked_sub(1)
            .and_then(|p| self.played[p])
            .map(|(mv, _)| mv)
    }

    /// Ordering keys: the TT move, winning and even captures, killers, the countermove,
    /// history, then losing captures.
    fn score_moves(
        &self,
        moves: &MoveList<G::Move>,
        order: &mut MoveList<i32>,
        tt_move: Option<u32>,
        ply: usize,
    ) {
        let player = self.pos.side_to_move();
        let killers = self.killers[ply];
        let counter = self
            .previous_move(ply)
            .and_then(|prev| self.histories.countermoves[G::move_index(prev)]);
        for &mv in moves.iter() {
            let index = G::move_index(mv);
            let key = if tt_move == Some(index as u32) {
                1 << 30
            } else if self.pos.is_capture(mv) {
                // Captures that lose material (by the evaluator's exchange test) go last.
                let base = if self.eval.good_capture(&self.pos, mv) {
                    1 << 28
                } else {
                    -(1 << 24)
                };
                base + self.eval.capture_order(&self.pos, mv)
            } else if killers[0] == Some(mv) {
                (1 << 27) + 1
            } else if killers[1] == Some(mv) {
                1 << 27
            } else if counter == Some(mv) {
                1 << 26
            } else {
                self.histories.history[player * G::MOVE_INDEX_SIZE + index]
                    + self.continuation_score(ply, self.pos.piece_to(mv))
            };
            order.push(key);
        }
    }

    /// A quiet move refuted the opponent: remember it as a killer and raise its history,
    /// lowering the quiet moves tried before it.
    fn reward_quiet(
        &mut self,
        mv: G::Move,
        player: usize,
        depth: i32,
        ply: usize,
        tried: &[G::Move],
    ) {
        let killers = &mut self.killers[ply];
        if killers[0] != Some(mv) {
            killers[1] = killers[0];
            killers[0] = Some(mv);
        }
        if let Some(prev) = self.previous_move(ply) {
            self.histories.countermoves[G::move_index(prev)] = Some(mv);
        }
        let bonus = (16 * depth * depth).min(HISTORY_MAX / 2);
        let base = player * G::MOVE_INDEX_SIZE;
        update_history(&mut self.histories.history[base + G::move_index(mv)], bonus);
        self.update_continuation(ply, self.pos.piece_to(mv), bonus);
        for &other in tried {
            if !self.pos.is_capture(other) {
                update_history(
                    &mut self.histories.history[base + G::move_index(other)],
                    -bonus,
                );
                self.update_continuation(ply, self.pos.piece_to(other), -bonus);
            }
        }
    }

    /// Where the continuation histories of the moves one and two plies before `ply` begin,
    /// where those were real moves. Each distance has its table: piece_to indexes are
    /// seen from the mover's side, so "their knight to f6, then ..." one ply back and "our
    /// knight to f3, then ..." two plies back have the same index.
    fn continuation_rows(&self, ply: usize) -> [Option<usize>; 2] {
        let size = G::PIECE_TO_SIZE;
        let row = |back: usize| {
            let (_, earlier) = self.played[ply.checked_sub(back)?]?;
            let earlier = earlier as usize;
            Some((back - 1) * size * size + earlier * size)
        };
        if size == 0 {
            [None; 2]
        } else {
            [row(1), row(2)]
        }
    }

    /// How a move to `piece_to` did after the moves one and two plies back.
    fn continuation_score(&self, ply: usize, piece_to: usize) -> i32 {
        self.continuation_rows(ply)
            .into_iter()
            .flatten()
            .map(|row| i32::from(self.histories.continuation[row + piece_to]))
            .sum()
    }

    fn update_continuation(&mut self, ply: usize, piece_to: usize, bonus: i32) {
        for row in self.continuation_rows(ply).into_iter().flatten() {
            let entry = &mut self.histories.continuation[row + piece_to];
            let mut value = i32::from(*entry);
            update_history(&mut value, bonus);
            *entry = value as i16;
        }
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
fn bound_of(best: Score, alpha: Score, beta: Score) -> Bound {
    if best >= beta {
        Bound::Lower
    } else if best > alpha {
        Bound::Exact
    } else {
        Bound::Upper
    }
}

/// The stored score, if its bound settles the window `alpha..beta` by itself.
fn tt_cutoff(hit: TtHit, ply: usize, alpha: Score, beta: Score) -> Option<Score> {
    let score = score_from_tt(hit.score, ply);
    let usable = match hit.bound {
        Bound::Exact => true,
        Bound::Lower => score >= beta,
        Bound::Upper => score <= alpha,
    };
    usable.then_some(score)
}

/// History "gravity": the closer to the bound, the smaller the step, so values stay bounded
/// and recent evidence weighs more.
fn update_history(entry: &mut i32, bonus: i32) {
    *entry += bonus - *entry * bonus.abs() / HISTORY_MAX;
}

/// How many moves are picked one at a time before the rest are sorted outright. The
/// table move, good captures and killers come first and most cut-offs happen among them,
/// where picking the best remaining move is cheapest; a node that gets past them usually
/// searches everything, and then one sort beats a scan per move (quadratic in shogi's
/// hundred-odd moves, a fifth of the search time before).
const PICKED_ONE_BY_ONE: usize = 4;

/// Brings the best-keyed remaining move to position `i`: a selection step for the first
/// few, one sort of the rest when `i` reaches [`PICKED_ONE_BY_ONE`].
fn pick_next<M: Copy>(moves: &mut MoveList<M>, keys: &mut MoveList<i32>, i: usize) {
    if i > PICKED_ONE_BY_ONE {
        return;
    }
    if i == PICKED_ONE_BY_ONE {
        sort_tail(moves, keys, i);
        return;
    }
    let mut best = i;
    for j in i + 1..moves.len() {
        if keys[j] > keys[best] {
            best = j;
        }
    }
    if best != i {
        moves.swap(i, best);
        keys.swap(i, best);
    }
}

/// Sorts `moves[from..]` by key, highest first, ties in their present order; on the
/// stack, without allocating.
fn sort_tail<M: Copy>(moves: &mut MoveList<M>, keys: &mut MoveList<i32>, from: usize) {
    let mut order: MoveList<(i32, u32)> = MoveList::new();
    for j in from..moves.len() {
        order.push((keys[j], j as u32));
    }
    order
        .as_mut_slice()
        .sort_unstable_by_key(|&(key, index)| (std::cmp::Reverse(key), index));
    let before: MoveList<M> = {
        let mut copy = MoveList::new();
        for j in from..moves.len() {
            copy.push(moves[j]);
        }
        copy
    };
    for (k, &(key, index)) in order.iter().enumerate() {
        moves[from + k] = before[index as usize - from];
        keys[from + k] = key;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::games::chess;
    use crate::search::{Control, Limits, TimeBudget, TranspositionTable};

    /// Runs `test` on a single chess worker at `pos`, under `limits` and no clock, with a
    /// table of its own, which it also gets to look into.
    fn with_chess_worker(
        pos: &chess::Position,
        limits: Limits,
        test: impl FnOnce(&mut Worker<chess::Position, chess::Eval>, &TranspositionTable),
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
            &chess::Eval,
            &shared,
            &mut histories,
            &moves,
        );
        test(&mut worker, &tt);
    }

    #[test]
    fn root_moves_count_the_nodes_searched_under_them() {
        let limits = Limits {
            depth: Some(6),
            ..Limits::default()
        };
        with_chess_worker(&chess::Position::start_position(), limits, |worker, _| {
            worker.iterate(None);
            let under: Vec<u64> = worker.root_moves.iter().map(|rm| rm.nodes).collect();
            let total: u64 = under.iter().sum();
            // Every node lies under one root move but the root itself, once per search of
            // it (an iteration, or a window of one).
            assert!(total < worker.nodes && worker.nodes - total < 50);
            assert!(under.iter().all(|&n| n > 0), "every move was searched");
        });
    }

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

    #[test]
    fn picking_yields_every_move_best_key_first() {
        for len in [0, 1, 3, PICKED_ONE_BY_ONE + 1, 40, 200] {
            let mut moves: MoveList<u32> = MoveList::new();
            let mut keys = MoveList::new();
            let mut rng = 0x2545_f491_u32;
            for m in 0..len as u32 {
                rng = rng.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
                moves.push(m);
                keys.push((rng >> 24) as i32 % 17 - 8);
            }
            let expected: Vec<(i32, u32)> =
                keys.iter().copied().zip(moves.iter().copied()).collect();
            for i in 0..len {
                pick_next(&mut moves, &mut keys, i);
                assert!(i == 0 || keys[i] <= keys[i - 1], "len {len} at {i}");
            }
            let mut got: Vec<(i32, u32)> =
                keys.iter().copied().zip(moves.iter().copied()).collect();
            let mut expected = expected;
            got.sort();
            expected.sort();
            assert_eq!(
                got, expected,
                "len {len}: the same moves with the same keys"
            );
        }
    }
}

//! The one search every game uses: iterative deepening over a negamax alpha-beta (PVS,
//! aspiration windows, quiescence) that maximises for the *team* to move, run on several
//! threads that share a lock-free transposition table (Lazy SMP).
//!
//! The search never prints: it hands [`Report`]s to a callback and returns a
//! [`SearchResult`]; the protocol layer decides what the user sees.
//!
//! One file per job, as Stockfish splits its search: this file is the entry points and
//! what the threads share; `worker` is one thread's state, `root` its iterative
//! deepening, `negamax` and `quiescence` the tree below the root, `movepick` the order
//! moves are tried in, `history` what a thread learns about moves between searches,
//! `time` every decision about time, `skill` the weakened play for people, `tt` the
//! shared table and `worlds` the search under hidden information.

mod history;
mod movepick;
mod negamax;
mod quiescence;
mod root;
mod skill;
pub mod time;
pub mod tt;
mod worker;
mod worlds;

use crate::core::{Evaluator, Game, MATE_BOUND, MoveList, Score};
pub use history::Histories;
use skill::SKILL_CANDIDATES;
pub use skill::{FULL_SKILL, Skill};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::time::{Duration, Instant};
pub use time::{Lateness, Limits, TimeBudget, TimeSettings};
pub use tt::{Bound, TranspositionTable};
use worker::{Buffers, Worker};
pub use worlds::search as search_worlds;

/// Shared switches between the protocol thread and a running search.
pub struct Control {
    stop: AtomicBool,
    pondering: AtomicBool,
    start: Mutex<Instant>,
}

impl Default for Control {
    fn default() -> Self {
        Control {
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(false),
            start: Mutex::new(Instant::now()),
        }
    }
}

impl Control {
    /// Arms the switches for a new search that started at `start`.
    pub fn reset(&self, pondering: bool, start: Instant) {
        self.stop.store(false, Ordering::SeqCst);
        self.pondering.store(pondering, Ordering::SeqCst);
        *self.start.lock().unwrap_or_else(|e| e.into_inner()) = start;
    }

    /// Asks the search to return as soon as possible (`stop`).
    pub fn stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
    }

    pub fn is_stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// The stop switch itself, for work that polls it in a hot loop (perft).
    pub fn stop_flag(&self) -> &AtomicBool {
        &self.stop
    }

    /// The opponent played the expected move: the ponder search becomes a normal timed
    /// search whose clock starts now. `false`, changing nothing, when no search is
    /// pondering: a stray `ponderhit` must not restart a timed search's clock.
    pub fn ponderhit(&self) -> bool {
        let mut start = self.start.lock().unwrap_or_else(|e| e.into_inner());
        if !self.pondering.load(Ordering::SeqCst) {
            return false;
        }
        *start = Instant::now();
        self.pondering.store(false, Ordering::SeqCst);
        true
    }

    pub fn is_pondering(&self) -> bool {
        self.pondering.load(Ordering::Relaxed)
    }

    /// Time since the search (or its ponderhit) started.
    pub fn elapsed(&self) -> Duration {
        self.start
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .elapsed()
    }
}

/// Settings of a search that come from engine options rather than from `go`.
#[derive(Clone, Copy, Debug)]
pub struct SearchParams {
    pub threads: usize,
    pub multipv: usize,
    pub time: TimeSettings,
    /// Worlds to search per move under hidden information at most (the `Worlds` option);
    /// 0 for as many as the time allows, or [`worlds::UNTIMED_WORLDS`] when `go` gives no
    /// time.
    pub worlds: usize,
    /// Below full strength, for people to play against (`Skill Level`, or `UCI_Elo` with
    /// `UCI_LimitStrength`); `None` at full.
    pub skill: Option<Skill>,
}

impl Default for SearchParams {
    fn default() -> Self {
        SearchParams {
            threads: 1,
            multipv: 1,
            time: TimeSettings::default(),
            worlds: 0,
            skill: None,
        }
    }
}

/// One `info` line's worth of progress.
#[derive(Clone, Debug)]
pub struct Report<M> {
    pub depth: u32,
    pub seldepth: u32,
    /// 1-based rank among the `MultiPV` lines.
    pub multipv: usize,
    /// From the view of the team to move at the root.
    pub score: Score,
    /// Set when the score is only a bound: an aspiration window failed, or the iteration
    /// was cut short after its best move changed.
    pub bound: Option<Bound>,
    pub nodes: u64,
    pub time: Duration,
    pub hashfull: u32,
    pub pv: Vec<M>,
    /// Under hidden information: what the worlds searched so far say.
    pub worlds: Option<WorldsReport>,
}

/// What a search over worlds reports beside the score.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WorldsReport {
    /// Worlds searched.
    pub searched: usize,
    /// How many independent worlds the chosen move's win probabilities are worth: fewer
    /// than those searched when the worlds come from a chain that moves in small steps.
    pub independent: f64,
    /// The chosen move's win probability over the worlds.
    pub win_probability: f64,
}

impl<M> Report<M> {
    /// Nodes per second, from nodes and time.
    pub fn nps(&self) -> u64 {
        let micros = self.time.as_micros().max(1) as u64;
        self.nodes.saturating_mul(1_000_000) / micros
    }
}

/// The callback that receives the main thread's progress reports.
pub type ReportFn<'a, M> = dyn FnMut(&Report<M>) + 'a;

/// What a finished search decided.
#[derive(Clone, Debug)]
pub struct SearchResult<M> {
    /// `None` only when the root has no legal move.
    pub best: Option<M>,
    /// The expected reply, for pondering.
    pub ponder: Option<M>,
    pub score: Score,
    /// The last completed iteration.
    pub depth: u32,
    pub nodes: u64,
}

/// Everything the threads of one search share.
pub(crate) struct Shared<'a, M> {
    pub control: &'a Control,
    pub tt: &'a TranspositionTable,
    pub limits: &'a Limits,
    pub budget: TimeBudget,
    pub multipv: usize,
    /// Set by the main thread when it is done, so helpers stop too.
    pub abort: AtomicBool,
    /// Per-thread node counters, published every few thousand nodes.
    pub nodes: Vec<AtomicU64>,
    /// The deepest iteration a helper thread completed, as it would be reported; the main
    /// thread adopts it when it is deeper than its own.
    pub deepest: Mutex<Option<Report<M>>>,
    /// That iteration's depth, readable without the lock.
    pub deepest_depth: AtomicU32,
    /// Set when the search plays below full strength.
    pub skill: Option<Skill>,
}

impl<'a, M> Shared<'a, M> {
    /// What `threads` threads searching under `limits` and `budget` share.
    pub fn new(
        control: &'a Control,
        tt: &'a TranspositionTable,
        limits: &'a Limits,
        budget: TimeBudget,
        multipv: usize,
        threads: usize,
    ) -> Self {
        Shared {
            control,
            tt,
            limits,
            budget,
            multipv,
            abort: AtomicBool::new(false),
            nodes: (0..threads).map(|_| AtomicU64::new(0)).collect(),
            deepest: Mutex::new(None),
            deepest_depth: AtomicU32::new(0),
            skill: None,
        }
    }
}

impl<M: Clone> Shared<'_, M> {
    /// Offers a helper's completed iteration.
    pub fn offer(&self, report: Report<M>) {
        let mut deepest = self.deepest.lock().unwrap_or_else(|e| e.into_inner());
        if deepest.as_ref().is_none_or(|d| d.depth < report.depth) {
            self.deepest_depth.store(report.depth, Ordering::Relaxed);
            *deepest = Some(report);
        }
    }

    /// The helpers' deepest completed iteration, if deeper than `depth`.
    pub fn deeper_than(&self, depth: u32) -> Option<Report<M>> {
        let deepest = self.deepest.lock().unwrap_or_else(|e| e.into_inner());
        deepest.as_ref().filter(|d| d.depth > depth).cloned()
    }

    pub fn total_nodes(&self) -> u64 {
        self.nodes.iter().map(|n| n.load(Ordering::Relaxed)).sum()
    }
}

/// Searches `root` within `limits` and returns the best move. Blocks until the search is
/// over, which for `infinite` and `ponder` searches means until `control.stop()` (or
/// `ponderhit` followed by the time running out). `histories` holds each thread's, kept
/// from the searches before (made as the threads need them).
#[allow(clippy::too_many_arguments)]
pub fn search<G: Game, E: Evaluator<G>>(
    root: &G,
    eval: &E,
    tt: &TranspositionTable,
    histories: &mut Vec<Histories<G>>,
    control: &Control,
    limits: &Limits,
    params: &SearchParams,
    searchmoves: &[G::Move],
    report: &mut ReportFn<'_, G::Move>,
) -> SearchResult<G::Move> {
    tt.new_search();
    let mut moves = MoveList::new();
    root.legal_moves(&mut moves);
    if !searchmoves.is_empty() {
        moves.retain(|mv| searchmoves.contains(mv));
    }
    let threads = params.threads.max(1);
    // A weakened search stops shallow and keeps a few lines to choose among.
    let skill = params.skill;
    let weakened;
    let (limits, multipv) = match skill {
        Some(skill) => {
            weakened = Limits {
                depth: Some(limits.depth.map_or(skill.depth, |d| d.min(skill.depth))),
                ..limits.clone()
            };
            (&weakened, params.multipv.max(SKILL_CANDIDATES))
        }
        None => (limits, params.multipv),
    };
    let mut shared = Shared::new(
        control,
        tt,
        limits,
        TimeBudget::new(limits, root.side_to_move(), params.time),
        multipv.clamp(1, moves.len().max(1)),
        threads,
    );
    shared.skill = skill;
    if moves.is_empty() {
        wait_for_stop(control, limits);
        return SearchResult {
            best: None,
            ponder: None,
            score: 0,
            depth: 0,
            nodes: 0,
        };
    }
    histories.resize_with(threads, Histories::default);
    let (main_histories, helper_histories) =
        histories.split_first_mut().expect("one thread at least");
    let result = std::thread::scope(|scope| {
        for (id, histories) in (1..).zip(helper_histories) {
            let shared = &shared;
            let moves = &moves;
            let builder = std::thread::Builder::new().stack_size(16 << 20);
            let spawned = builder.spawn_scoped(scope, move || {
                Worker::new(
                    id,
                    root.clone(),
                    eval,
                    shared,
                    histories,
                    moves,
                    Buffers::default(),
                )
                .iterate(None);
            });
            if let Err(err) = spawned {
                log::warn!("could not start search thread {id}: {err}");
            }
        }
        let mut main = Worker::new(
            0,
            root.clone(),
            eval,
            &shared,
            main_histories,
            &moves,
            Buffers::default(),
        );
        let result = main.iterate(Some(report));
        shared.abort.store(true, Ordering::SeqCst);
        result
    });
    // Under `go infinite` or `go ponder` the answer must wait for `stop` (or ponderhit).
    wait_for_stop(control, limits);
    SearchResult {
        nodes: shared.total_nodes(),
        ..result
    }
}

/// A fixed-depth search without clocks or caps, as `bench` and tests run it: with one
/// thread and a cleared table its node count is deterministic (it starts with empty
/// histories).
pub fn search_to_depth<G: Game, E: Evaluator<G>>(
    root: &G,
    eval: &E,
    tt: &TranspositionTable,
    depth: u32,
    threads: usize,
) -> SearchResult<G::Move> {
    let control = Control::default();
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let params = SearchParams {
        threads,
        time: TimeSettings {
            move_time_limit: 0,
            move_overhead: 0,
        },
        ..SearchParams::default()
    };
    let mut histories = Vec::new();
    search(
        root,
        eval,
        tt,
        &mut histories,
        &control,
        &limits,
        &params,
        &[],
        &mut |_| {},
    )
}

/// Answers with a line an oracle proved instead of searching: one report, then, under
/// `go infinite` or `go ponder`, the wait for `stop` that every answer owes the protocol.
pub fn known_line<M: Copy>(
    pv: Vec<M>,
    score: Score,
    control: &Control,
    limits: &Limits,
    report: &mut ReportFn<'_, M>,
) -> SearchResult<M> {
    let depth = pv.len() as u32;
    report(&Report {
        depth,
        seldepth: depth,
        multipv: 1,
        score,
        bound: None,
        nodes: 0,
        time: control.elapsed(),
        hashfull: 0,
        pv: pv.clone(),
        worlds: None,
    });
    wait_for_stop(control, limits);
    SearchResult {
        best: pv.first().copied(),
        ponder: pv.get(1).copied(),
        score,
        depth,
        nodes: 0,
    }
}

/// Blocks while an answer must wait: under `go infinite` or while pondering, until `stop`
/// (or `ponderhit` ends the pondering).
pub fn wait_for_stop(control: &Control, limits: &Limits) {
    while !control.is_stopped() && (limits.infinite || control.is_pondering()) {
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// Whether a score means a forced win or loss.
pub fn is_mate_score(score: Score) -> bool {
    score.abs() > MATE_BOUND
}

#[cfg(test)]
mod tests;

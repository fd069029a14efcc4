//! Search under hidden information: Perfect-Information Monte Carlo. Worlds (complete
//! positions consistent with what the player to move has observed) are drawn one a
//! thread at a time, every root move still in contention is searched as an open game in
//! every world, and the moves are compared by their win probability averaged over the
//! worlds with the worlds' weights. A move that the worlds so far say cannot be chosen
//! any more is dropped ([`Tallies::contenders`]), so the time goes to more worlds for
//! the others: a world's search costs about the same for every root move. Before the
//! first full world a cheap screen, a few worlds searched at depth 0, keeps only the
//! moves worth a full search ([`SCREEN_WORLDS`]).
//!
//! Root moves are the same in every world ([`Hidden::sample`] promises it), so each world
//! scores all of them. Scores become win probabilities, measured from the world's median
//! move, before they are averaged: a world in which a flag falls must not outweigh all
//! the others, as a raw score would. The move played is the best mean less [`CAUTION`]
//! standard errors. When worlds come cheap (few pieces left), a timed search goes one ply
//! deeper once enough of them are done, and again, as long as the deeper worlds can still
//! be many ([`DEEPEN_AFTER`]). Worlds are searched in parallel on the `Threads` option's
//! threads, each world on one thread. `docs/design/junqi-dark.md` §6 describes this
//! search as the Junqi dark game uses it.

use super::history::Histories;
use super::worker::{Buffers, Worker};
use super::{
    Control, Limits, Report, ReportFn, SKILL_CANDIDATES, SearchParams, SearchResult, Shared, Skill,
    TimeBudget, TranspositionTable, WorldsReport, wait_for_stop,
};
use crate::core::{Evaluator, Game, Hidden, MATE, MATE_BOUND, MoveList, Outcome, Score};
use rayon::prelude::*;
use std::sync::Mutex;
use std::time::Duration;

/// Plies searched below each root move in a world when `go` names no depth (then
/// quiescence), until the worlds come cheap enough to go deeper ([`DEEPEN_AFTER`]): the
/// next seat's reply; `go depth 0` searches the captures alone. Shallow and many worlds
/// beats deep and few when each world is only a guess: at 200 ms a move,
/// depth 1 against depth 2 (which searched a world or two a move in the middle game)
/// scored 76%; depth 0, with five times the worlds, did not gain (lab/benchmarks.md).
pub const WORLD_DEPTH: u32 = 1;

/// Worlds a move searches when neither `go` nor the `Worlds` option says how many.
pub const UNTIMED_WORLDS: usize = 64;

/// Worlds searched at one depth before a timed search may go one ply deeper. When a
/// position has few pieces, a world costs little and this many come early in the move's
/// time; the plans that decide such positions (a chase of the last piece that can move,
/// a ride round to a flag) are longer than one reply, and the time left is better spent
/// on deeper worlds than on more of the same. Head to head at 200 ms, dark seat mode:
/// 55.8% over 320 games against the build that stayed at one ply. Sooner (32 worlds and a
/// third of the time left) gained at 200 ms but lost at 1000 ms, where it took middle-game
/// moves to depth 2 with some 30 worlds instead of depth 1 with hundreds
/// (lab/benchmarks.md).
const DEEPEN_AFTER: usize = 48;

/// The share of the time left that the worlds at one depth may have taken for the search
/// to go deeper: at a quarter, the next depth (a few times dearer a world) still gets
/// about as many worlds.
const DEEPEN_SHARE: u32 = 4;

/// Worlds (effectively) a deeper depth must have searched for its verdict to replace the
/// one of the depth before: fewer say less than the shallower many.
const DEEP_ENOUGH: f64 = 16.0;

/// The deepest a world is searched below its root move.
const MAX_WORLD_DEPTH: u32 = 12;

/// Worlds searched between progress reports, per thread.
const REPORT_PER_THREAD: usize = 4;

/// Worlds (effectively) a root move is searched in before it may be dropped. With fewer,
/// the spread of its values says nothing.
const PRUNE_AFTER: f64 = 2.0;

/// Moves kept however far behind the worlds put them: the estimates of two or three
/// worlds are rough, and the worlds still to come may reorder the leaders.
const MIN_CONTENDERS: usize = 3;

/// Worlds in which every root move is first searched at depth 0 (its captures only),
/// before any full search; only the moves these worlds rank best ([`Tallies::screened`])
/// are searched further. Early in the middle game a full world searches every one of
/// fifty to seventy root moves, so at 200 ms a move only a handful of worlds were done.
/// Depth 0 leaves the next seat fewer replies than depth 1, so a move it finds bad is
/// rarely better searched deeper: in 19 middle-game positions of two matches, the move
/// 64 full worlds chose ranked in the first six of eight worlds at depth 0 in 18, and
/// 20th in the other.
const SCREEN_WORLDS: usize = 8;

/// Moves a screen keeps at most ([`SCREEN_WORLDS`]).
const SCREEN_KEEP: usize = 12;

/// Nodes one root move's search may spend in one world (about 40 ms at Junqi's half a
/// million nodes a second): a combat-heavy world must not eat the time of many others.
/// `stop` and the time limits are polled within the search, as in any search.
const NODES_PER_MOVE: u64 = 20_000;

/// The tables of workers whose world is done, for the next worlds' workers: a world's
/// search is short, and allocating them anew for each cost some 6% of the worlds a timed
/// move searched (lab/benchmarks.md).
type Spare<G> = Mutex<Vec<(Histories<G>, Buffers<<G as Game>::Move>)>>;

/// The win probability of a score from the view of the team it is for.
fn win_probability(score: Score) -> f64 {
    1.0 / (1.0 + 10f64.powf(-f64::from(score) / 400.0))
}

/// What one world says of each root move: the win probability of its score measured from
/// the world's median move. Against the median rather than from zero, because a world
/// far from even (a seat about to fall, a flag about to be taken) would put every move's
/// probability near 0 or 1 and say nothing about which is better; a win probability at
/// all, so that a world in which a flag falls counts for one world, not for all.
fn relative_values(scores: &[Score]) -> Vec<f64> {
    let mut sorted = scores.to_vec();
    sorted.sort_unstable();
    let median = sorted[sorted.len() / 2];
    scores
        .iter()
        .map(|&s| win_probability(s.saturating_sub(median)))
        .collect()
}

/// The score whose win probability is `p`, for `info` lines.
fn score_of(p: f64) -> Score {
    let p = p.clamp(1e-6, 1.0 - 1e-6);
    let score = -400.0 * (1.0 / p - 1.0).log10();
    (score.round() as Score).clamp(-(MATE_BOUND - 1), MATE_BOUND - 1)
}

/// How many standard errors a root move's estimate is marked down by when moves are
/// compared. The best of many noisy means is biased towards the moves whose value varies
/// most from world to world (attacks on hidden pieces: won in some worlds, lost in
/// others, and pieces left where some worlds' enemy takes them), so with few worlds the
/// plain maximum picks gambles. Against the greedy baseline at 200 ms, 2 against 1 scored
/// 96.2% against 87.5% in team mode and 87.5% against 88.8% in seat mode (40 games each);
/// head to head in seat mode, 3 against 2 scored 45.8% over 120 games (lab/benchmarks.md).
const CAUTION: f64 = 2.0;

/// The spread of a move's value from world to world assumed before the worlds show it,
/// and how many worlds that assumption counts for. Two or three worlds that happen to
/// agree (or one world drawn twice by the sampler's chain) measure no spread at all, and
/// the moves behind would be dropped at once: in a match at 200 ms the capture that saved
/// the flag from an engineer beside it was dropped after two worlds, 0.04 behind a move
/// that both had rated well, and the flag fell.
const PRIOR_WORLDS: f64 = 4.0;
const PRIOR_SPREAD: f64 = 0.2;

/// What the worlds said of the root moves so far.
struct Tallies {
    /// Sum of the worlds' weights.
    weight: f64,
    /// Sum of their squares: with `weight`, the effective number of worlds.
    weight_squares: f64,
    moves: Vec<Tally>,
}

/// What the worlds said of one root move so far: weighted sums, and its win
/// probabilities in the order of the worlds.
#[derive(Clone, Default)]
struct Tally {
    /// The move's values against the world's median move.
    value: f64,
    /// The values' squares. The values are measured from each world's median move, so
    /// their spread is the move's own, not the world's being good or bad for us.
    squares: f64,
    /// Its win probabilities, for `info`.
    probability: f64,
    /// Its win probabilities world by world, for [`independent_worlds`]: not the values,
    /// whose median move shifts as moves are dropped, which would read as runs.
    probabilities: Vec<f64>,
}

/// How many independent draws a sequence of worlds' values is worth, by batch
/// means: the spread of the means of √n consecutive values against what independent
/// values would give. Worlds drawn by a Markov chain follow one another closely, so
/// their values come in runs and count for fewer than their number.
fn independent_worlds(values: &[f64]) -> f64 {
    let n = values.len();
    let size = (n as f64).sqrt() as usize;
    let batches = n / size.max(1);
    if batches < 4 {
        return n as f64;
    }
    let used = &values[..batches * size];
    let mean = used.iter().sum::<f64>() / used.len() as f64;
    let spread = used.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (used.len() - 1) as f64;
    let batch_spread = used
        .chunks(size)
        .map(|b| (b.iter().sum::<f64>() / size as f64 - mean).powi(2))
        .sum::<f64>()
        / (batches - 1) as f64;
    if batch_spread <= 0.0 {
        return n as f64;
    }
    (n as f64 * spread / (size as f64 * batch_spread)).min(n as f64)
}

impl Tallies {
    fn new(moves: usize) -> Tallies {
        Tallies {
            weight: 0.0,
            weight_squares: 0.0,
            moves: vec![Tally::default(); moves],
        }
    }

    /// Adds one world's scores of the root moves, with the world's weight.
    fn add_world(&mut self, weight: f64, scores: &[Score]) {
        self.weight += weight;
        self.weight_squares += weight * weight;
        let values = relative_values(scores);
        for ((tally, value), &score) in self.moves.iter_mut().zip(values).zip(scores) {
            tally.value += weight * value;
            tally.squares += weight * value * value;
            let probability = win_probability(score);
            tally.probability += weight * probability;
            tally.probabilities.push(probability);
        }
    }

    /// A weighted sum over the worlds as a weighted mean.
    fn average(&self, sum: f64) -> f64 {
        if self.weight > 0.0 {
            sum / self.weight
        } else {
            0.0
        }
    }

    fn mean(&self, m: usize) -> f64 {
        self.average(self.moves[m].value)
    }

    fn win_probability(&self, m: usize) -> f64 {
        self.average(self.moves[m].probability)
    }

    /// The effective number of worlds, `(Σw)²/Σw²`.
    fn effective_worlds(&self) -> f64 {
        if self.weight_squares > 0.0 {
            self.weight * self.weight / self.weight_squares
        } else {
            0.0
        }
    }

    /// How many independent worlds move `m`'s win probability is worth: [`independent_worlds`],
    /// scaled by the share of the worlds their weights leave effective.
    fn independent(&self, m: usize) -> f64 {
        let probabilities = &self.moves[m].probabilities;
        if probabilities.is_empty() {
            return 0.0;
        }
        independent_worlds(probabilities) * self.effective_worlds() / probabilities.len() as f64
    }

    /// [`CAUTION`] standard errors of move `m`'s mean, its spread from world to world
    /// taken with [`PRIOR_WORLDS`] worlds of [`PRIOR_SPREAD`].
    fn margin(&self, m: usize) -> f64 {
        let (mean, effective) = (self.mean(m), self.effective_worlds());
        if effective <= 1.0 {
            return 0.0;
        }
        let seen = (self.average(self.moves[m].squares) - mean * mean).max(0.0);
        let variance = (effective * seen + PRIOR_WORLDS * PRIOR_SPREAD * PRIOR_SPREAD)
            / (effective + PRIOR_WORLDS);
        CAUTION * (variance / effective).sqrt()
    }

    /// Move `m`'s mean less its margin: what it is worth at least, as far as the worlds
    /// can tell.
    fn cautious(&self, m: usize) -> f64 {
        self.mean(m) - self.margin(m)
    }

    /// Move `m`'s mean plus its margin: what it may yet turn out to be worth, by which
    /// moves are kept ([`Tallies::contenders`], [`Tallies::screened`]).
    fn hope(&self, m: usize) -> f64 {
        self.mean(m) + self.margin(m)
    }

    /// The root move to play: the best by [`Tallies::cautious`].
    fn choice(&self) -> usize {
        (0..self.moves.len())
            .map(|m| (m, self.cautious(m)))
            .max_by(|a, b| a.1.total_cmp(&b.1))
            .map_or(0, |(m, _)| m)
    }

    /// The move a weakened search plays: one of the [`SKILL_CANDIDATES`] best by
    /// [`Tallies::cautious`], by [`Skill::choose`] on their values as scores.
    fn weakened_choice(&self, skill: Skill) -> usize {
        let mut ranked: Vec<(usize, f64)> = (0..self.moves.len())
            .map(|m| (m, self.cautious(m)))
            .collect();
        ranked.sort_by(|a, b| b.1.total_cmp(&a.1));
        ranked.truncate(SKILL_CANDIDATES);
        let pick = skill.choose(ranked.iter().map(|&(_, value)| Some(score_of(value))));
        ranked.get(pick).map_or(0, |&(m, _)| m)
    }

    /// Which moves may still be chosen: those whose mean plus their margin reaches the
    /// choice's cautious value, and the [`MIN_CONTENDERS`] most hopeful in any case. The
    /// others are dropped, and the worlds still to come are spent on the contenders
    /// alone; every contender has then been searched in the same worlds, so their
    /// comparison stays paired.
    fn contenders(&self) -> Vec<bool> {
        let effective = self.effective_worlds();
        if effective < PRUNE_AFTER {
            return vec![true; self.moves.len()];
        }
        let hopeful: Vec<f64> = (0..self.moves.len()).map(|m| self.hope(m)).collect();
        let mut ranked = hopeful.clone();
        ranked.sort_unstable_by(|a, b| b.total_cmp(a));
        let bar = self
            .cautious(self.choice())
            .min(ranked[(MIN_CONTENDERS - 1).min(ranked.len() - 1)]);
        hopeful.iter().map(|&h| h >= bar).collect()
    }

    /// Which moves a screen at depth 0 keeps for the full search: the contenders, at most
    /// [`SCREEN_KEEP`] of them, the most hopeful.
    fn screened(&self) -> Vec<bool> {
        let mut keep = self.contenders();
        let mut hopeful: Vec<(usize, f64)> = (0..self.moves.len())
            .filter(|&m| keep[m])
            .map(|m| (m, self.hope(m)))
            .collect();
        hopeful.sort_by(|a, b| b.1.total_cmp(&a.1));
        for &(m, _) in hopeful.iter().skip(SCREEN_KEEP) {
            keep[m] = false;
        }
        keep
    }

    /// Keeps the moves `keep` marks, in order.
    fn retain(&mut self, keep: &[bool]) {
        retain_marked(&mut self.moves, keep);
    }
}

/// Keeps the items `keep` marks, in order.
fn retain_marked<T>(items: &mut Vec<T>, keep: &[bool]) {
    let mut marks = keep.iter();
    items.retain(|_| marks.next().copied().unwrap_or(false));
}

/// One world's verdict on every root move: the score of each for the team to move at the
/// root (a decided game as a mate score), and the nodes spent; `None` if time or `stop`
/// cut it short. Each root move's search polls `control` and the `hard` limit as any
/// search does, every thousand nodes or so, so that a loaded machine, which may run it
/// several times slower, still answers within a few milliseconds of the limit.
#[allow(clippy::too_many_arguments)]
fn search_world<G: Game, E: Evaluator<G>>(
    world: &G,
    moves: &[G::Move],
    eval: &E,
    tt: &TranspositionTable,
    depth: u32,
    control: &Control,
    hard: Option<Duration>,
    out_of_time: &(dyn Fn() -> bool + Sync),
    spare: &Spare<G>,
) -> Option<(Vec<Score>, u64)> {
    let team = world.team_to_move();
    let mut scores = Vec::with_capacity(moves.len());
    let mut nodes = 0;
    let limits = Limits {
        depth: Some(depth.max(1)),
        nodes: Some(NODES_PER_MOVE),
        ..Limits::default()
    };
    let budget = TimeBudget { soft: None, hard };
    let shared = Shared::new(control, tt, &limits, budget, 1, 1);
    let reused = spare.lock().ok().and_then(|mut spare| spare.pop());
    let (mut histories, buffers) = match reused {
        Some((mut histories, buffers)) => {
            histories.clear();
            (histories, buffers)
        }
        None => Default::default(),
    };
    // One worker for the whole world, moved from root move to root move.
    let mut worker = Worker::new(
        0,
        world.clone(),
        eval,
        &shared,
        &mut histories,
        &MoveList::new(),
        buffers,
    );
    let mut replies = MoveList::new();
    for &mv in moves {
        if out_of_time() {
            break;
        }
        let mut child = world.clone();
        child.make_move(mv);
        let score = match child.result() {
            Some(Outcome::Win(winner)) if winner == team => MATE,
            Some(Outcome::Win(_)) => -MATE,
            Some(Outcome::Draw) => 0,
            None => {
                let same_team = child.team_to_move() == team;
                replies.clear();
                child.legal_moves(&mut replies);
                worker.rebase(child, &replies);
                let score = if depth == 0 {
                    worker.quiesce()
                } else {
                    worker.iterate(None).score
                };
                nodes += worker.nodes();
                if same_team { score } else { -score }
            }
        };
        scores.push(score);
    }
    let buffers = worker.into_buffers();
    if let Ok(mut spare) = spare.lock() {
        spare.push((histories, buffers));
    }
    // A search the limit cut short gave a score of half a search.
    (!out_of_time()).then_some((scores, nodes))
}

/// Searches a root whose player does not see everything, over worlds drawn from
/// `hidden`, within `limits` like any search: until the time budget is spent (a clock or
/// `movetime`), or `params.worlds` worlds without one, or `stop`.
#[allow(clippy::too_many_arguments)]
pub fn search<G: Game, E: Evaluator<G>>(
    root: &G,
    hidden: &dyn Hidden<G>,
    eval: &E,
    tt: &TranspositionTable,
    control: &Control,
    limits: &Limits,
    params: &SearchParams,
    searchmoves: &[G::Move],
    report: &mut ReportFn<'_, G::Move>,
) -> SearchResult<G::Move> {
    let mut legal = MoveList::new();
    root.legal_moves(&mut legal);
    let mut moves = legal.to_vec();
    if !searchmoves.is_empty() {
        moves.retain(|mv| searchmoves.contains(mv));
    }
    if moves.len() <= 1 {
        wait_for_stop(control, limits);
        return SearchResult {
            best: moves.first().copied(),
            ponder: None,
            score: 0,
            depth: 0,
            nodes: 0,
        };
    }
    let threads = params.threads.max(1);
    let budget = TimeBudget::new(limits, root.side_to_move(), params.time);
    let depth = limits.depth.unwrap_or(WORLD_DEPTH);
    let mut depth = params.skill.map_or(depth, |skill| depth.min(skill.depth));
    tt.new_search();
    // Without a clock or `movetime` only the per-move cap bounds the time: then the worlds
    // are counted.
    let timed = limits.gives_time(root.side_to_move());
    // Only a timed search at the default depth goes deeper ([`DEEPEN_AFTER`]).
    let may_deepen =
        timed && limits.depth.is_none() && params.skill.is_none() && params.worlds == 0;
    // Past the hard limit no world is finished; past the soft one no batch is begun.
    let past = |limit: Option<Duration>| {
        !control.is_pondering() && limit.is_some_and(|l| control.elapsed() >= l)
    };
    let out_of_time = || control.is_stopped() || past(budget.hard);
    // One thread searches its worlds itself: handing each batch to a pool thread and back
    // costs two wake-ups a world, and on a loaded machine each may wait for a time slice.
    let pool = (threads > 1)
        .then(|| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .ok()
        })
        .flatten();
    let spare = Spare::<G>::default();
    let mut tallies = Tallies::new(moves.len());
    let (mut worlds, mut nodes, mut seed) = (0usize, 0u64, 0u64);
    let mut best = 0;
    let report_every = threads * REPORT_PER_THREAD;
    let mut reported = 0;
    let mut send =
        |tallies: &Tallies, mv: G::Move, best: usize, worlds: usize, nodes: u64, depth| {
            let probability = tallies.win_probability(best);
            report(&Report {
                depth,
                seldepth: depth,
                multipv: 1,
                score: score_of(probability),
                bound: None,
                nodes,
                time: control.elapsed(),
                hashfull: tt.hashfull(),
                pv: vec![mv],
                worlds: Some(WorldsReport {
                    searched: worlds,
                    independent: tallies.independent(best),
                    win_probability: probability,
                }),
            });
        };
    // The longest a batch's worlds took to draw: drawing cannot be cut short, so a batch
    // is not begun when its draw could run past the hard limit. The longest, not the
    // last: a chain's steps differ in cost (Junqi's take a fresh draw one step in four).
    let mut drawing = Duration::ZERO;
    // Worlds searched at depth 0 (the captures that follow each move) before any full
    // search, and what they say: see [`SCREEN_WORLDS`]. They also give the move played if
    // time runs out before a full world is done (on a loaded machine at 200 ms a move the
    // first full world may not finish, and the first move generated once left the flag to
    // an engineer beside it).
    let mut screen = Tallies::new(moves.len());
    let mut screened = 0;
    // The verdict of the depth before the current one, once the search went deeper: its
    // moves, tallies and worlds.
    let mut shallower: Option<(Vec<G::Move>, Tallies, usize)> = None;
    // When the first world at the current depth began: the drawing of worlds starts
    // slowly late in a game (the belief built anew), and that is not the depth's cost.
    let mut depth_began = None;
    loop {
        let enough = if limits.infinite || control.is_pondering() {
            false
        } else if params.worlds > 0 && worlds >= params.worlds {
            true
        } else if timed {
            past(budget.soft) || past(budget.hard.map(|hard| hard.saturating_sub(drawing)))
        } else {
            worlds >= UNTIMED_WORLDS
        };
        let decided = worlds > 0 || shallower.is_some();
        if decided && (enough || out_of_time() || limits.nodes.is_some_and(|n| nodes >= n)) {
            break;
        }
        if out_of_time() {
            break;
        }
        // One world a thread at a time, so that the moves dropped after it are not
        // searched again.
        let mut size = threads;
        if params.worlds > 0 {
            size = size.min(params.worlds - worlds);
        }
        let started = control.elapsed();
        let batch = hidden.sample(size, seed);
        drawing = drawing.max(control.elapsed().saturating_sub(started));
        seed += 1;
        if batch.is_empty() {
            log::warn!("no world is consistent with what was observed");
            break;
        }
        let search = |world: &G, depth: u32| {
            search_world(
                world,
                &moves,
                eval,
                tt,
                depth,
                control,
                budget.hard,
                &out_of_time,
                &spare,
            )
        };
        let screening = depth > 0 && screened < SCREEN_WORLDS;
        if !screening && depth_began.is_none() {
            depth_began = Some(control.elapsed());
        }
        let world_depth = if screening { 0 } else { depth };
        let work = |(world, weight): &(G, f64)| search(world, world_depth).map(|r| (*weight, r));
        let done: Vec<_> = match &pool {
            Some(pool) => pool.install(|| batch.par_iter().map(work).collect()),
            None => batch.iter().map(work).collect(),
        };
        for (weight, (scores, spent)) in done.into_iter().flatten() {
            nodes += spent;
            if screening {
                screened += 1;
                screen.add_world(weight, &scores);
            } else {
                worlds += 1;
                tallies.add_world(weight, &scores);
            }
        }
        if screening {
            if screened >= SCREEN_WORLDS {
                let keep = screen.screened();
                log::debug!(
                    "screened in {screened} worlds: {} of {} moves kept",
                    keep.iter().filter(|&&k| k).count(),
                    moves.len()
                );
                retain_marked(&mut moves, &keep);
                screen.retain(&keep);
                tallies.retain(&keep);
            }
            continue;
        }
        if worlds == 0 {
            continue;
        }
        let keep = tallies.contenders();
        retain_marked(&mut moves, &keep);
        tallies.retain(&keep);
        best = tallies.choice();
        if may_deepen && depth < MAX_WORLD_DEPTH && worlds >= DEEPEN_AFTER {
            let now = control.elapsed();
            let left = budget
                .soft
                .map_or(Duration::ZERO, |soft| soft.saturating_sub(now));
            let spent = now.saturating_sub(depth_began.unwrap_or(now));
            if spent * DEEPEN_SHARE <= left {
                log::debug!("{worlds} worlds at depth {depth} by {now:?}: one ply deeper");
                let done = std::mem::replace(&mut tallies, Tallies::new(moves.len()));
                shallower = Some((moves.clone(), done, worlds));
                depth += 1;
                depth_began = None;
                (worlds, reported) = (0, 0);
                continue;
            }
        }
        if worlds < reported + report_every {
            continue;
        }
        reported = worlds;
        log::debug!(
            "worlds {worlds}, effectively {:.1}, {} moves left",
            tallies.effective_worlds(),
            moves.len()
        );
        send(&tallies, moves[best], best, worlds, nodes, depth);
    }
    if let Some((m, t, w)) = shallower.filter(|_| tallies.effective_worlds() < DEEP_ENOUGH) {
        log::debug!(
            "{worlds} worlds at depth {depth}: the verdict of depth {}",
            depth - 1
        );
        (moves, tallies, worlds, reported) = (m, t, w, 0);
        depth -= 1;
        best = tallies.choice();
    }
    if worlds == 0 {
        best = if screened > 0 { screen.choice() } else { 0 };
    } else if let Some(skill) = params.skill {
        best = tallies.weakened_choice(skill);
    }
    if reported < worlds {
        send(&tallies, moves[best], best, worlds, nodes, depth);
    }
    if log::log_enabled!(log::Level::Debug) {
        for (m, &mv) in moves.iter().enumerate() {
            log::debug!(
                "{}: value {:.3} margin {:.3} win probability {:.3}",
                root.move_name(mv),
                tallies.mean(m),
                tallies.margin(m),
                tallies.win_probability(m)
            );
        }
    }
    wait_for_stop(control, limits);
    SearchResult {
        best: Some(moves[best]),
        ponder: None,
        score: score_of(tallies.win_probability(best)),
        depth,
        nodes,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::StdRng;
    use rand::{RngExt, SeedableRng};

    #[test]
    fn worlds_in_runs_count_for_fewer() {
        let mut rng = StdRng::seed_from_u64(5);
        let draws: Vec<f64> = (0..4000).map(|_| rng.random::<f64>()).collect();
        let free = independent_worlds(&draws);
        assert!(free > 2500.0, "independent draws: {free:.0}");
        // Each value repeated ten times, as a chain that stays put for ten steps.
        let runs: Vec<f64> = draws[..400].iter().flat_map(|&v| [v; 10]).collect();
        let sticky = independent_worlds(&runs);
        assert!((250.0..600.0).contains(&sticky), "runs of ten: {sticky:.0}");
        // Too few for batches: taken at their number.
        assert_eq!(independent_worlds(&draws[..10]), 10.0);
    }

    /// A world searched with the tables an earlier world's worker left gets what it gets
    /// with fresh ones: nothing learnt in one world leaks into the next.
    #[test]
    fn a_world_searched_with_spare_tables_is_searched_as_with_fresh_ones() {
        use crate::games::chess;
        let worlds = [
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
            "r2qkb1r/ppp2ppp/2np1n2/4p3/2B1P1b1/2NP1N2/PPP2PPP/R1BQK2R w KQkq - 1 6",
        ]
        .map(|fen| chess::Position::from_notation(fen).unwrap());
        let control = Control::default();
        let search = |world: &chess::Position, spare: &Spare<chess::Position>| {
            let mut moves = MoveList::new();
            world.legal_moves(&mut moves);
            let tt = TranspositionTable::new(1);
            search_world(
                world,
                &moves,
                &chess::HandEval,
                &tt,
                3,
                &control,
                None,
                &|| false,
                spare,
            )
        };
        let fresh = search(&worlds[0], &Spare::default());
        let spare = Spare::default();
        search(&worlds[1], &spare);
        assert_eq!(spare.lock().unwrap().len(), 1);
        assert_eq!(search(&worlds[0], &spare), fresh);
    }

    #[test]
    fn scores_and_probabilities_convert_both_ways() {
        assert!((win_probability(0) - 0.5).abs() < 1e-12);
        assert!(win_probability(400) > 0.9 && win_probability(-400) < 0.1);
        for score in [-1200, -400, -37, 0, 1, 250, 900] {
            assert!(
                (score_of(win_probability(score)) - score).abs() <= 1,
                "{score}"
            );
        }
        assert!(win_probability(crate::core::MATE) > 0.999_999);
    }

    /// Tallies of root moves over worlds that each give every move a score.
    fn tally(worlds: &[Vec<Score>]) -> Tallies {
        let mut tallies = Tallies::new(worlds[0].len());
        for scores in worlds {
            tallies.add_world(1.0, scores);
        }
        tallies
    }

    /// `Skill Level` in the dark game: a weak player picks among the near-best moves at
    /// random, never one a piece worse; a strong one the best.
    #[test]
    fn a_weakened_choice_varies_among_near_moves_but_never_takes_a_bad_one() {
        let worlds: Vec<Vec<Score>> = (0..30).map(|i| vec![60 + i % 3, 40, 20, -900]).collect();
        let tallies = tally(&worlds);
        assert_eq!(tallies.choice(), 0);
        let mut picked = [0; 4];
        for seed in 0..300 {
            let skill = Skill::at_level(0.0, seed).unwrap();
            picked[tallies.weakened_choice(skill)] += 1;
        }
        assert_eq!(picked[3], 0, "{picked:?}");
        assert!(picked[1] > 0 && picked[2] > 0, "{picked:?}");
        assert!(picked[0] > picked[2], "{picked:?}");
        for seed in 0..50 {
            let skill = Skill::at_level(19.9, seed).unwrap();
            assert_eq!(tallies.weakened_choice(skill), 0);
        }
    }

    #[test]
    fn a_lost_world_still_tells_the_moves_apart() {
        // Every move loses by far, one by less: from zero all would be near 0.
        let tallies = tally(&[vec![-2400, -2300, -2400, -2450]]);
        assert!(tallies.mean(1) > 0.6, "{}", tallies.mean(1));
        assert!(tallies.win_probability(1) < 0.001);
        assert_eq!(tallies.choice(), 1);
    }

    #[test]
    fn a_gamble_must_beat_a_steady_move_by_more_than_its_noise() {
        // Move 1 is better on average over the worlds but swings from world to world (an
        // attack on a hidden piece); move 0 is steady.
        let worlds: Vec<Vec<Score>> = (0..8)
            .map(|w| vec![-20, if w % 2 == 0 { 500 } else { -300 }, -60])
            .collect();
        let tallies = tally(&worlds);
        assert!(tallies.mean(1) > tallies.mean(0));
        assert_eq!(tallies.effective_worlds(), 8.0);
        assert_eq!(tallies.choice(), 0);
        // With many worlds the noise shrinks and the better average wins.
        let many = tally(
            &worlds
                .iter()
                .cycle()
                .take(1000)
                .cloned()
                .collect::<Vec<_>>(),
        );
        assert_eq!(many.effective_worlds(), 1000.0);
        assert_eq!(many.choice(), 1);
    }

    #[test]
    fn only_moves_that_could_still_be_chosen_are_kept() {
        // Moves 3 and 4 are far behind in every world, move 1 a little behind and noisy,
        // move 2 steadily behind by a little more than its noise.
        let worlds: Vec<Vec<Score>> = (0..32)
            .map(|w| vec![0, if w % 2 == 0 { 40 } else { -50 }, -40, -500, -600])
            .collect();
        // One world says nothing of the spread: every move is kept.
        assert_eq!(tally(&worlds[..1]).contenders(), [true; 5]);
        let mut tallies = tally(&worlds);
        assert_eq!(tallies.choice(), 0);
        assert!(tallies.mean(2) + tallies.margin(2) < tallies.cautious(0));
        // Move 2 could not be chosen, but the three most hopeful stay.
        let keep = tallies.contenders();
        assert_eq!(keep, [true, true, true, false, false]);
        tallies.retain(&keep);
        assert_eq!(tallies.moves.len(), 3);
        assert_eq!(tallies.choice(), 0);
    }

    #[test]
    fn a_screen_keeps_the_most_hopeful_contenders_and_no_more() {
        // Twenty quiet moves a little apart, and two that lose a piece in every world.
        let worlds: Vec<Vec<Score>> = (0..8)
            .map(|w| {
                let mut scores: Vec<Score> = (0..20).map(|m| -3 * m + (w % 3)).collect();
                scores.extend([-600, -700]);
                scores
            })
            .collect();
        let tallies = tally(&worlds);
        let keep = tallies.screened();
        let kept: Vec<usize> = (0..keep.len()).filter(|&m| keep[m]).collect();
        assert_eq!(kept, (0..SCREEN_KEEP).collect::<Vec<_>>());
        // Never a move the contenders' rule drops; with few moves, what that rule keeps
        // (the three most hopeful at least).
        let contenders = tallies.contenders();
        assert!((0..keep.len()).all(|m| !keep[m] || contenders[m]));
        let few = tally(&worlds.iter().map(|w| w[18..].to_vec()).collect::<Vec<_>>());
        assert_eq!(few.screened(), few.contenders());
        assert_eq!(few.screened(), [true, true, true, false]);
    }

    /// Two worlds that agree (or one drawn twice) show no spread; a move a little behind
    /// in both is not dropped on their word, one far behind is.
    #[test]
    fn two_worlds_that_agree_drop_only_moves_far_behind() {
        let world = vec![400, 330, 0, -100, -200, -2000];
        let tallies = tally(&[world.clone(), world]);
        assert_eq!(tallies.choice(), 0);
        assert_eq!(
            tallies.contenders(),
            [true, true, true, false, false, false]
        );
    }
}

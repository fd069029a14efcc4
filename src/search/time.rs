//! Time management: turning `go` parameters into a soft limit (do not start another
//! iteration) and a hard limit (abort mid-iteration), both under the per-move cap that the
//! rules impose (`MoveTimeLimit`, one minute by default) whatever the clock says.
//! The soft limit then stretches or shrinks with how settled the answer is (`Stability`):
//! all of the search's time policy lives here, the search only asks.

use crate::core::Score;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// What `go` asked for, in protocol-neutral form. Clocks are indexed by player.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Remaining time per player, milliseconds.
    pub time: [Option<u64>; 4],
    /// Increment per player, milliseconds.
    pub inc: [Option<u64>; 4],
    /// Moves to the next time control.
    pub movestogo: Option<u32>,
    /// Fixed time for this move, milliseconds.
    pub movetime: Option<u64>,
    /// USI byoyomi, milliseconds, added to the clock of the player to move.
    pub byoyomi: Option<u64>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// Search for a mate in this many moves.
    pub mate: Option<u32>,
    /// Search until `stop`, ignoring the per-move cap.
    pub infinite: bool,
    /// Think on the opponent's time until `ponderhit` or `stop`.
    pub ponder: bool,
    /// When the `go` line was read, if known: the move's time counts from then, not from
    /// when the engine got to it.
    pub received: Option<Instant>,
}

impl Limits {
    /// Whether the clock (rather than depth/nodes/movetime alone) governs this search.
    fn has_clock(&self, player: usize) -> bool {
        self.time.get(player).copied().flatten().is_some()
    }

    /// Whether `go` said how long `player` may think (a clock, byoyomi or `movetime`)
    /// rather than only how far (depth, nodes) or until `stop`.
    pub fn gives_time(&self, player: usize) -> bool {
        self.movetime.is_some() || self.has_clock(player) || self.byoyomi.is_some()
    }
}

/// Settings that shape every search's time use.
#[derive(Clone, Copy, Debug)]
pub struct TimeSettings {
    /// The per-move cap, milliseconds (option `MoveTimeLimit`); 0 means no cap.
    pub move_time_limit: u64,
    /// Time lost to I/O per move, milliseconds (option `Move Overhead`).
    pub move_overhead: u64,
}

impl Default for TimeSettings {
    fn default() -> Self {
        TimeSettings {
            move_time_limit: 60_000,
            move_overhead: 30,
        }
    }
}

/// The limits of one search, measured from its start (or from `ponderhit`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeBudget {
    /// Do not start a new iteration after this.
    pub soft: Option<Duration>,
    /// Stop searching at once after this.
    pub hard: Option<Duration>,
}

/// Moves a clock is assumed to have to last when the protocol gives no `movestogo`.
const DEFAULT_MOVES_TO_GO: u64 = 30;

impl TimeBudget {
    /// The per-move cap in milliseconds: `MoveTimeLimit` less the overhead kept back for
    /// I/O; `None` when the limit is off.
    pub fn cap(settings: TimeSettings) -> Option<u64> {
        (settings.move_time_limit > 0).then(|| {
            settings
                .move_time_limit
                .saturating_sub(settings.move_overhead)
                .max(1)
        })
    }

    /// The budget for `player` under `limits`.
    pub fn new(limits: &Limits, player: usize, settings: TimeSettings) -> TimeBudget {
        if limits.infinite {
            return TimeBudget {
                soft: None,
                hard: None,
            };
        }
        let overhead = settings.move_overhead;
        let cap = TimeBudget::cap(settings);
        let mut soft: Option<u64> = None;
        let mut hard: Option<u64> = None;
        if let Some(movetime) = limits.movetime {
            let t = movetime.saturating_sub(overhead).max(1);
            soft = Some(t);
            hard = Some(t);
        } else if limits.has_clock(player) || limits.byoyomi.is_some() {
            let remaining = limits.time.get(player).copied().flatten().unwrap_or(0);
            let inc = limits.inc.get(player).copied().flatten().unwrap_or(0);
            let byoyomi = limits.byoyomi.unwrap_or(0);
            let mtg = limits
                .movestogo
                .map_or(DEFAULT_MOVES_TO_GO, |m| m.clamp(1, 100) as u64);
            // Never plan to leave less than the overhead on the clock; byoyomi is spent
            // afresh every move, so it counts in full.
            let usable = remaining.saturating_sub(overhead);
            let target = usable / mtg + inc * 3 / 4 + byoyomi.saturating_sub(overhead);
            let ceiling =
                (usable / 2).max(usable.min(inc * 9 / 10)) + byoyomi.saturating_sub(overhead);
            let ceiling = if mtg == 1 {
                usable.saturating_sub(usable / 20) + byoyomi.saturating_sub(overhead)
            } else {
                ceiling
            };
            let ceiling = ceiling.max(1);
            let hard_ms = (target * 3).clamp(1, ceiling);
            // Once the main time is (next to) gone, byoyomi left unused is simply lost:
            // then the soft limit is the hard one, and the search thinks to it every move.
            let byoyomi_only = byoyomi > overhead && usable / mtg < byoyomi / 10;
            soft = Some(if byoyomi_only {
                hard_ms
            } else {
                (target * 6 / 10).clamp(1, ceiling)
            });
            hard = Some(hard_ms);
        }
        if let Some(cap) = cap {
            soft = Some(soft.map_or(cap, |s| s.min(cap)));
            hard = Some(hard.map_or(cap, |h| h.min(cap)));
        }
        TimeBudget {
            soft: soft.map(Duration::from_millis),
            hard: hard.map(Duration::from_millis),
        }
    }

    /// The soft limit `soft` stretched or shrunk to `percent` of itself (what
    /// [`Stability::percent`] answers), never beyond the hard limit.
    pub(super) fn scaled(&self, soft: Duration, percent: u32) -> Duration {
        let scaled = soft * percent / 100;
        self.hard.map_or(scaled, |hard| scaled.min(hard))
    }
}

/// How late the engine's own answers have been: how far past its hard limit each search
/// ended, counted from the `go` line being read. A loaded machine can hold a finished
/// search back (a thread waiting for a time slice, a world that cannot be cut short), and
/// `Move Overhead` alone does not know it: the lateness of one answer is kept back on the
/// next, as more overhead, and forgotten by halves on the answers that come in time. A
/// steady delay of d settles at d more overhead, so the answers land where they should.
#[derive(Debug, Default)]
pub struct Lateness {
    /// The overhead to add to `Move Overhead`, milliseconds.
    extra: AtomicU64,
}

impl Lateness {
    /// The milliseconds to keep back on the next search, besides `Move Overhead`.
    pub fn extra(&self) -> u64 {
        self.extra.load(Ordering::Relaxed)
    }

    /// Takes in a search that answered `elapsed` after its start under the hard limit
    /// `hard` (which already kept [`Lateness::extra`] back). No more than half the hard
    /// limit is kept back, so one stall never leaves the next move without time.
    pub fn record(&self, elapsed: Duration, hard: Duration) {
        let late = elapsed.saturating_sub(hard).min(hard / 2).as_millis() as u64;
        let extra = late.max(self.extra() / 2);
        if late > 0 {
            log::debug!("answered {late} ms past the hard limit: {extra} ms more kept back");
        }
        self.extra.store(extra, Ordering::Relaxed);
    }

    /// `settings` with the lateness kept back as more `Move Overhead`.
    pub fn settings(&self, settings: TimeSettings) -> TimeSettings {
        TimeSettings {
            move_overhead: settings.move_overhead + self.extra(),
            ..settings
        }
    }
}

/// How settled the search's answer is: the best move after the last completed iteration,
/// how many iterations in a row it has stayed best, and its score. The main thread spends
/// more of its budget when the answer is still changing or falling, less when it has
/// settled.
#[derive(Clone, Copy, Debug)]
pub(super) struct Stability<M> {
    best: Option<M>,
    stable: u32,
    score: Score,
}

impl<M> Default for Stability<M> {
    fn default() -> Self {
        Stability {
            best: None,
            stable: 0,
            score: 0,
        }
    }
}

impl<M: Copy + PartialEq> Stability<M> {
    /// Takes in a completed iteration (at `depth`) whose `best` move scored `score` and
    /// took `best_nodes` of the search's `nodes`, and answers the percent of the soft
    /// budget to spend.
    pub(super) fn percent(
        &mut self,
        best: M,
        score: Score,
        depth: u32,
        best_nodes: u64,
        nodes: u64,
    ) -> u32 {
        let stable = if self.best == Some(best) {
            self.stable + 1
        } else {
            0
        };
        // Percent of the soft budget: a best move that just changed needs confirming, one
        // that has held for several iterations does not; a falling score needs a remedy.
        let mut percent = match stable {
            0 => 170,
            1 => 125,
            2 => 100,
            _ => 70,
        };
        if self.best.is_some() && score < self.score - 30 {
            percent += 40;
        }
        if depth >= 5 {
            percent = percent * share_scale(best_nodes, nodes) / 100;
        }
        *self = Stability {
            best: Some(best),
            stable,
            score,
        };
        percent
    }
}

/// Percent of the time budget to spend by the share of the search's `nodes` the best
/// move took: the larger its share, the fewer the rivals that came near it. Half the
/// budget at 95% or more, the whole at 70%, half as much again at 45% or less.
fn share_scale(best_nodes: u64, nodes: u64) -> u32 {
    let share = (best_nodes * 100 / nodes.max(1)).min(100) as u32;
    (240 - 2 * share).clamp(50, 150)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_best_move_that_took_most_of_the_search_needs_less_time() {
        assert_eq!(share_scale(96, 100), 50);
        assert_eq!(share_scale(70, 100), 100);
        assert_eq!(share_scale(40, 100), 150);
        assert_eq!(share_scale(0, 0), 150);
        assert_eq!(share_scale(200, 100), 50, "more than all is all");
        let scales: Vec<u32> = (0..=100).map(|share| share_scale(share, 100)).collect();
        assert!(
            scales.windows(2).all(|w| w[1] <= w[0]),
            "never more for a larger share"
        );
    }

    fn ms(budget: TimeBudget) -> (Option<u128>, Option<u128>) {
        (
            budget.soft.map(|d| d.as_millis()),
            budget.hard.map(|d| d.as_millis()),
        )
    }

    #[test]
    fn byoyomi_alone_is_spent_in_full() {
        let mut limits = Limits {
            byoyomi: Some(1000),
            ..Limits::default()
        };
        limits.time = [Some(0), Some(0), None, None];
        let settings = TimeSettings::default();
        assert_eq!(
            ms(TimeBudget::new(&limits, 0, settings)),
            (Some(970), Some(970))
        );
        // With main time left, the soft limit stops well short of the hard one.
        limits.time[0] = Some(300_000);
        let (soft, hard) = ms(TimeBudget::new(&limits, 0, settings));
        assert!(soft.unwrap() < hard.unwrap());
    }

    #[test]
    fn the_cap_beats_a_long_clock() {
        let mut limits = Limits::default();
        limits.time[0] = Some(3_600_000);
        let settings = TimeSettings {
            move_time_limit: 1500,
            move_overhead: 30,
        };
        let (soft, hard) = ms(TimeBudget::new(&limits, 0, settings));
        assert!(soft.unwrap() <= 1470 && hard.unwrap() <= 1470);
    }

    #[test]
    fn a_late_answer_is_kept_back_on_the_next_and_forgotten_by_halves() {
        let lateness = Lateness::default();
        let ms = Duration::from_millis;
        let movetime = Limits {
            movetime: Some(1000),
            ..Limits::default()
        };
        let hard = |lateness: &Lateness| {
            let settings = lateness.settings(TimeSettings::default());
            TimeBudget::new(&movetime, 0, settings).hard.unwrap()
        };
        assert_eq!(hard(&lateness), ms(970));
        lateness.record(ms(1210), hard(&lateness));
        assert_eq!(lateness.extra(), 240);
        assert_eq!(hard(&lateness), ms(730));
        // In time: half is forgotten.
        lateness.record(ms(700), hard(&lateness));
        assert_eq!((lateness.extra(), hard(&lateness)), (120, ms(850)));
        // A steady delay of 40 ms settles at 40 ms more overhead.
        for _ in 0..10 {
            let h = hard(&lateness);
            lateness.record(h + ms(40), h);
        }
        assert_eq!((lateness.extra(), hard(&lateness)), (40, ms(930)));
        // One stall keeps back at most half the time.
        lateness.record(ms(60_000), ms(930));
        assert_eq!(lateness.extra(), 465);
    }

    #[test]
    fn movetime_is_exact_minus_overhead() {
        let limits = Limits {
            movetime: Some(1000),
            ..Limits::default()
        };
        let budget = TimeBudget::new(&limits, 1, TimeSettings::default());
        assert_eq!(ms(budget), (Some(970), Some(970)));
    }

    #[test]
    fn infinite_has_no_limit_and_depth_only_has_the_cap() {
        let infinite = Limits {
            infinite: true,
            ..Limits::default()
        };
        assert_eq!(
            TimeBudget::new(&infinite, 0, TimeSettings::default()),
            TimeBudget {
                soft: None,
                hard: None
            }
        );
        let depth = Limits {
            depth: Some(5),
            ..Limits::default()
        };
        let (_, hard) = ms(TimeBudget::new(&depth, 0, TimeSettings::default()));
        assert_eq!(hard, Some(59_970));
    }

    #[test]
    fn the_clock_of_the_mover_is_used_and_never_overdrawn() {
        let mut limits = Limits::default();
        limits.time[0] = Some(100);
        limits.time[1] = Some(600_000);
        let (soft, hard) = ms(TimeBudget::new(&limits, 0, TimeSettings::default()));
        assert!(hard.unwrap() <= 35, "hard {hard:?}");
        assert!(soft.unwrap() <= hard.unwrap());
        let (_, hard_other) = ms(TimeBudget::new(&limits, 1, TimeSettings::default()));
        assert!(hard_other.unwrap() > 10_000);
    }
}

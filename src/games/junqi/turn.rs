//! Turn order and elimination, written once for the open [`Position`](super::Position) and
//! the dark game's [`InfoState`](super::dark::InfoState) (`docs/rules/junqi.md` §1 and §7).
//!
//! Both keep a seat to move, a set of eliminated seats, the no-combat counter and pass
//! counts under the same [`Rules`]; they differ only in how a seat's pieces leave the
//! board and in what they can tell of a seat without a legal move. [`Turns`] asks each for
//! those few things and does the rest: passing the turn on, turn-start eliminations, the
//! draw and team-out checks. It is generic (no dynamic dispatch, no allocation), as
//! `Position::play` sits on the search's hot path.

use super::position::team;

/// Default of the `NoCombatDrawPlies` rule option.
pub const DEFAULT_DRAW_PLIES: u16 = 50;
/// Default of the `MaxPasses` rule option.
pub const DEFAULT_MAX_PASSES: u8 = 5;

/// The rule options a game is played under: `NoCombatDrawPlies` and `MaxPasses`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    /// Plies without a piece leaving the board before a draw (0 = off).
    pub draw_plies: u16,
    /// The pass or timeout that eliminates its seat (0 = never).
    pub max_passes: u8,
}

impl Default for Rules {
    fn default() -> Rules {
        Rules {
            draw_plies: DEFAULT_DRAW_PLIES,
            max_passes: DEFAULT_MAX_PASSES,
        }
    }
}

impl Rules {
    /// Whether `quiet` plies without a piece leaving the board draw the game.
    #[inline]
    pub fn drawn(self, quiet: u16) -> bool {
        self.draw_plies > 0 && quiet >= self.draw_plies
    }

    /// Whether a seat's `passes`-th pass or timeout eliminates it.
    #[inline]
    pub fn last_pass(self, passes: u8) -> bool {
        self.max_passes > 0 && passes >= self.max_passes
    }
}

/// Whether `seat` is in the set `out` (bit per eliminated seat).
#[inline]
pub fn is_out(out: u8, seat: usize) -> bool {
    out & (1 << seat) != 0
}

/// Whether both seats of `team` are in `out`.
#[inline]
pub fn team_out(out: u8, team: usize) -> bool {
    let mask = 0b0101 << team;
    out & mask == mask
}

/// Whether a whole team is out: the game is over by elimination.
#[inline]
pub fn any_team_out(out: u8) -> bool {
    team_out(out, 0) || team_out(out, 1)
}

/// The first seat after `seat` in turn order that is not in `out` (`seat` itself if all
/// others are out).
#[inline]
pub fn next_live(out: u8, seat: usize) -> usize {
    (1..=4)
        .map(|k| (seat + k) % 4)
        .find(|&s| !is_out(out, s))
        .unwrap_or(seat)
}

/// The winning team when `out` holds a whole team; both out (possible when one ply
/// eliminates the last seats of both): the team of `last_mover`.
#[inline]
pub fn winner(out: u8, last_mover: usize) -> Option<usize> {
    match (team_out(out, 0), team_out(out, 1)) {
        (true, true) => Some(team(last_mover)),
        (true, false) => Some(1),
        (false, true) => Some(0),
        (false, false) => None,
    }
}

/// A game state with a seat to move, eliminations and the counters: the rules of turn
/// order and elimination over it. The required methods are the state's own business; the
/// provided ones are the rule.
pub(super) trait Turns {
    /// Bit per eliminated seat.
    fn out(&self) -> u8;
    /// The rule options.
    fn rules(&self) -> Rules;
    /// The no-combat counter.
    fn quiet(&self) -> u16;
    fn set_quiet(&mut self, quiet: u16);
    /// The seat to move.
    fn side(&self) -> usize;
    /// Gives the turn to `seat`.
    fn set_side(&mut self, seat: usize);
    /// One more pass or timeout of `seat`; returns its count so far.
    fn add_pass(&mut self, seat: usize) -> u8;
    /// Whether the state knows that `seat` has no legal move (eliminated at the start of
    /// its turn).
    fn stuck(&self, seat: usize) -> bool;
    /// Removes every piece of `seat` and marks it out; returns whether any piece left
    /// the board.
    fn eliminate(&mut self, seat: usize) -> bool;

    /// Whether the no-combat counter has drawn the game.
    #[inline]
    fn drawn(&self) -> bool {
        self.rules().drawn(self.quiet())
    }

    /// Eliminates `seat` outside a ply's own combat (resignation aside: a turn-start
    /// elimination or a forfeit): its pieces leaving reset the no-combat counter.
    #[inline]
    fn remove_seat(&mut self, seat: usize) {
        if self.eliminate(seat) {
            self.set_quiet(0);
        }
    }

    /// A referee's forfeit of a seat still in a game not over (`out:<seat>`,
    /// `docs/rules/junqi.md` §7): `seat` is eliminated at once, whoever is to move; not a
    /// ply, no pass counted. If it was to move, the turn passes on with the usual
    /// turn-start eliminations; if the forfeit ends the game, the turn stays with
    /// `last_mover`.
    #[inline]
    fn forfeit(&mut self, seat: usize, last_mover: usize) {
        self.remove_seat(seat);
        if any_team_out(self.out()) || self.side() == seat {
            self.next_turn(seat, last_mover);
        }
    }

    /// A pass or timeout of `seat`: returns whether a piece left the board (its
    /// `MaxPasses`-th eliminates it).
    #[inline]
    fn pass(&mut self, seat: usize) -> bool {
        let passes = self.add_pass(seat);
        self.rules().last_pass(passes) && self.eliminate(seat)
    }

    /// After the ply of `mover` (whether a piece left the board with it): the no-combat
    /// counter, then the turn passes on.
    #[inline]
    fn end_ply(&mut self, mover: usize, removed: bool) {
        let quiet = if removed {
            0
        } else {
            self.quiet().saturating_add(1)
        };
        self.set_quiet(quiet);
        self.next_turn(mover, mover);
    }

    /// Passes the turn on to the first live seat after `after` (the seat that just moved,
    /// or one just eliminated on its turn), eliminating at the start of its turn a seat
    /// without a legal move (not a ply; repeated, stopping as soon as a team is out). On a
    /// finished game the turn stays with `mover`, the seat of the last ply. The draw is
    /// decided before any turn-start elimination.
    #[inline]
    fn next_turn(&mut self, after: usize, mover: usize) {
        if any_team_out(self.out()) {
            self.set_side(mover);
            return;
        }
        let mut seat = next_live(self.out(), after);
        if !self.drawn() {
            while self.stuck(seat) {
                self.remove_seat(seat);
                if any_team_out(self.out()) {
                    seat = mover;
                    break;
                }
                seat = next_live(self.out(), seat);
            }
        }
        self.set_side(seat);
    }

    /// Gives the first turn to `seat` (or the next live seat), applying turn-start
    /// eliminations unless the game is already over: for a freshly set-up game. Returns
    /// the seat counted as having moved last (the one before the first to move).
    fn settle(&mut self, seat: usize) -> usize {
        let start = if is_out(self.out(), seat) {
            next_live(self.out(), seat)
        } else {
            seat
        };
        self.set_side(start);
        // Eliminate as if the seat before it had just moved.
        let before = (start + 3) % 4;
        if !any_team_out(self.out()) && self.stuck(start) {
            self.next_turn(before, before);
        }
        before
    }
}

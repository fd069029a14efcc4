//! The dark game (暗棋): what a seat may know when it sees only some lineups, and open
//! worlds consistent with it for the open-game search to play on.
//!
//! - `info`: [`InfoState`], rebuilt from a `setup` with hidden seats and the referee's
//!   annotated record: the public board, counters, eliminations, public flags, and every
//!   check the rules allow (a record impossible under the rules and the given ranks is a
//!   [`InfoError`] naming the ply and token). Its parts are in `info/`: `setup`, `replay`,
//!   `errors`.
//! - `infer`: [`Belief`], a 12-bit rank domain per piece narrowed by deployment, movement,
//!   every combat outcome (`docs/design/junqi-dark.md` §3, derived from the combat rule
//!   itself) and the per-seat counts as a global cardinality constraint, propagated to a
//!   fixpoint. Its parts are in `infer/`: `combat`, `matching`, `net`, `complete`.
//! - `evidence`: soft evidence ([`Evidence`]): pieces that never moved, as per-piece
//!   log-weights; lineup families (the engine's habits or a uniform draw) and mines
//!   beside the flag, terms of the worlds' target; never a hard exclusion.
//! - `hidden`: [`Knowledge`], the state and its sampler as the search sees them: worlds
//!   drawn with their weights, kept beside the position the protocol holds.
//! - `sample`: [`Sampler`], complete rank assignments drawn without failure or retry, each
//!   with an importance weight toward the target; [`InfoState::world`] turns one into an
//!   open [`Position`](super::Position).
//!
//! Pieces are named by [`PieceId`], `(seat, deployment slot)`, stable for the whole game.
//!
//! # Glossary
//!
//! The nouns overlap; each means one thing here:
//!
//! - [`Info`]: what the engine is shown, a mode (`open`, `double-open`, `dark`), the
//!   `Info` rule option; not a state.
//! - [`InfoState`]: what one seat knows, rebuilt from the setup and the annotated record:
//!   the public board, counters, eliminations and its [`Belief`].
//! - [`Belief`]: the hard facts about ranks (a [`Domain`] per piece, combat pairs, "had a
//!   legal move" clauses, per-seat counts), propagated; never wrong, possibly loose.
//! - [`Evidence`]: soft evidence (lineup families, pieces that sat still, mines beside
//!   the flag); it tilts the odds of worlds and never excludes one.
//! - [`Knowledge`]: an [`InfoState`] with its [`Sampler`] and [`Evidence`], kept beside
//!   the [`Position`](super::Position) the protocol holds ([`crate::core::Told`]): what the
//!   search asks for worlds.
//! - `Hidden`: the search's trait for hidden information
//!   ([`crate::core::Hidden`]), which [`Knowledge`] implements (module `hidden`).
//! - [`Domain`]: a set of ranks a piece may still have (12 bits).
//! - [`PieceId`]: a piece for the whole game, `25 * seat + lineup place`.
//! - [`Assignment`]: a rank for every piece, indexed by [`PieceId`].
//! - [`Sample`]: one drawn [`Assignment`] with its importance weight.
//! - world: an open [`Position`](super::Position) consistent with an [`InfoState`], built
//!   from an [`Assignment`] by [`InfoState::world`]; the search plays on worlds.
//! - [`Rules`]: the rule options (`NoCombatDrawPlies`, `MaxPasses`), the same struct the
//!   open position keeps (module `turn` of the parent).
//!
//! ```
//! use qiyi::games::junqi::dark::{Info, InfoState, PieceId, Rules};
//! use qiyi::games::junqi::DEFAULT_LINEUP as L;
//!
//! // S sees only its own lineup. Its marshal rides g6-g7 into the centre; E, N, W pass.
//! let setup = format!("setup S:{L} E:- N:- W:-");
//! let state = InfoState::parse(&setup, "g6g7=m pass pass pass", Rules::default(), Info::Dark)
//!     .unwrap();
//! assert_eq!(state.side_to_move(), 0);
//! assert_eq!(state.domain(PieceId::new(0, 0)).to_string(), "{a}");
//! // A combat report onto an empty station is refused, naming the ply.
//! let error = InfoState::parse(&setup, "g6g7=w", Rules::default(), Info::Dark).unwrap_err();
//! assert!(error.to_string().starts_with("ply 1 'g6g7=w'"), "{error}");
//! ```

mod evidence;
mod hidden;
mod infer;
mod info;
mod sample;

pub use super::turn::Rules;
pub use evidence::Evidence;
pub use hidden::Knowledge;
pub use infer::{Belief, Combat, Contradiction};
pub use info::{InfoError, InfoState, Reject};
pub use sample::{Assignment, Chain, Sample, Sampler};

use super::board::{CAMP_SLOTS, SEAT_NAMES};
use super::position::{BOMB, FLAG, MINE, RANKS};
use std::fmt;
use std::str::FromStr;

/// What the engine may see (`setoption name Info value open|double-open|dark`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Info {
    /// Every lineup is given; plies may be plain or annotated.
    Open,
    /// The engine's seat and its partner's (a process playing both partners).
    DoubleOpen,
    /// The engine's own seat only (the standard online game).
    Dark,
}

impl FromStr for Info {
    type Err = String;

    fn from_str(text: &str) -> Result<Info, String> {
        match text {
            "open" => Ok(Info::Open),
            "double-open" => Ok(Info::DoubleOpen),
            "dark" => Ok(Info::Dark),
            _ => Err(format!(
                "unknown Info '{text}': expected open, double-open or dark"
            )),
        }
    }
}

impl fmt::Display for Info {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Info::Open => "open",
            Info::DoubleOpen => "double-open",
            Info::Dark => "dark",
        })
    }
}

/// Pieces in a game: 25 per seat, dead ones included.
pub const PIECES: usize = 100;
/// Pieces per seat.
pub const SEAT_PIECES: usize = 25;

/// The 25 non-camp slots in lineup order: piece `k` of a seat starts on `LINEUP_SLOTS[k]`.
pub const LINEUP_SLOTS: [u8; SEAT_PIECES] = {
    let mut slots = [0u8; SEAT_PIECES];
    let (mut slot, mut k) = (0, 0);
    while slot < 30 {
        let mut camp = false;
        let mut c = 0;
        while c < CAMP_SLOTS.len() {
            camp |= CAMP_SLOTS[c] == slot;
            c += 1;
        }
        if !camp {
            slots[k] = slot as u8;
            k += 1;
        }
        slot += 1;
    }
    slots
};

/// A piece, `25 * seat + k` where `k` is its place in the lineup (its deployment slot is
/// `LINEUP_SLOTS[k]`). Stable for the whole game, so facts learnt about a piece follow it
/// whatever it does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PieceId(pub u8);

impl PieceId {
    /// The piece deployed as the `k`-th letter of `seat`'s lineup.
    pub fn new(seat: usize, k: usize) -> PieceId {
        PieceId((seat * SEAT_PIECES + k) as u8)
    }

    /// Index into per-piece tables.
    #[inline]
    pub fn index(self) -> usize {
        usize::from(self.0)
    }

    /// The owner.
    #[inline]
    pub fn seat(self) -> usize {
        self.index() / SEAT_PIECES
    }

    /// Place in the lineup, 0..25.
    #[inline]
    pub fn k(self) -> usize {
        self.index() % SEAT_PIECES
    }

    /// Deployment slot, 0..30.
    #[inline]
    pub fn slot(self) -> usize {
        usize::from(LINEUP_SLOTS[self.k()])
    }

    /// The station it was deployed on.
    #[inline]
    pub fn start_station(self) -> usize {
        30 * self.seat() + self.slot()
    }
}

impl fmt::Display for PieceId {
    /// `E's piece from q5`: the owner and the deployment station, which never change.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}'s piece from {}",
            SEAT_NAMES[self.seat()],
            super::board::name(self.start_station())
        )
    }
}

/// A set of ranks, bit `r` for rank `r` (0..12 = letters `a`..`l`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Domain(pub u16);

impl Domain {
    /// Every rank.
    pub const ALL: Domain = Domain((1 << RANKS) - 1);
    /// Ranks that can ever move: all but mines and flags.
    pub const MOVERS: Domain = Domain(Self::ALL.0 & !(1 << MINE) & !(1 << FLAG));

    /// The single rank `r`.
    #[inline]
    pub const fn only(r: u8) -> Domain {
        Domain(1 << r)
    }

    /// Every rank but `r`.
    #[inline]
    pub const fn not(r: u8) -> Domain {
        Domain(Self::ALL.0 & !(1 << r))
    }

    /// What deployment allows on a slot: no bomb in row 0, no mine before row 4, the
    /// flag only in an HQ.
    pub fn deployable(slot: usize) -> Domain {
        let mut d = Self::ALL.0;
        if slot < 5 {
            d &= !(1 << BOMB);
        }
        if slot < 20 {
            d &= !(1 << MINE);
        }
        if slot != 26 && slot != 28 {
            d &= !(1 << FLAG);
        }
        Domain(d)
    }

    /// Whether rank `r` is still possible.
    #[inline]
    pub fn contains(self, r: u8) -> bool {
        self.0 & (1 << r) != 0
    }

    /// How many ranks are possible.
    #[inline]
    pub fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// No rank left: a contradiction.
    #[inline]
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The rank, when only one is left.
    #[inline]
    pub fn single(self) -> Option<u8> {
        (self.0.count_ones() == 1).then(|| self.0.trailing_zeros() as u8)
    }

    /// The ranks in increasing order (marshal first).
    #[inline]
    pub fn ranks(self) -> impl Iterator<Item = u8> {
        let mut bits = self.0;
        std::iter::from_fn(move || {
            (bits != 0).then(|| {
                let r = bits.trailing_zeros() as u8;
                bits &= bits - 1;
                r
            })
        })
    }
}

impl fmt::Display for Domain {
    /// The rank letters in braces, like `{a,k}`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let letters: Vec<String> = self
            .ranks()
            .map(|r| char::from(b'a' + r).to_string())
            .collect();
        write!(f, "{{{}}}", letters.join(","))
    }
}

#[cfg(test)]
mod tests;

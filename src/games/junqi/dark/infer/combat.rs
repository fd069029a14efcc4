//! A combat's constraint between its two pieces' ranks, derived from the combat rule
//! ([`survivor`]); the "had a legal move" clause; and why no assignment fits.

use super::super::{Domain, PIECES, PieceId, SEAT_PIECES};
use crate::games::junqi::Clash;
use crate::games::junqi::position::{FLAG, MARSHAL, RANKS, survivor};

/// What the record says of one combat, for the constraint between its two pieces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Combat {
    pub attacker: PieceId,
    pub defender: PieceId,
    /// `=w`, `=l` or `=b` (never `=m`, which is no combat).
    pub clash: Clash,
    /// `#`: the defender was a flag.
    pub flag_taken: bool,
    /// Whether the attacker was removed and was its seat's marshal: `Some(true)` when the
    /// ply made that seat's flag public, `Some(false)` when it did not although the flag
    /// stayed on the board, `None` when nothing is known (the seat went out in the ply).
    pub attacker_marshal: Option<bool>,
    /// The same for the defender.
    pub defender_marshal: Option<bool>,
}

impl Combat {
    /// For each attacker rank, the defender ranks that give this combat's report.
    pub fn table(&self) -> [u16; RANKS] {
        let mut table = [0u16; RANKS];
        for ra in 0..RANKS as u8 {
            if !Domain::MOVERS.contains(ra) {
                continue;
            }
            for rd in 0..RANKS as u8 {
                // Seat bits tell the two pieces apart when their ranks are equal.
                let (att, def) = (ra, 0x10 | rd);
                let winner = survivor(att, def);
                let clash = if winner == att {
                    Clash::Won
                } else if winner == def {
                    Clash::Lost
                } else {
                    Clash::Both
                };
                let marshal_fits = |fact: Option<bool>, removed: bool, rank: u8| {
                    fact.is_none_or(|died| died == (removed && rank == MARSHAL))
                };
                if clash == self.clash
                    && (rd == FLAG) == self.flag_taken
                    && marshal_fits(self.attacker_marshal, winner != att, ra)
                    && marshal_fits(self.defender_marshal, winner != def, rd)
                {
                    table[usize::from(ra)] |= 1 << rd;
                }
            }
        }
        table
    }
}

/// A combat's constraint, both ways: `forward[ra]` holds the defender ranks allowed with
/// attacker rank `ra`, `backward[rd]` the attacker ranks allowed with defender rank `rd`
/// (16 entries, the last four empty, so that any bit index of a `u16` is in range).
#[derive(Clone, Debug)]
pub(in super::super) struct Pair {
    pub(in super::super) attacker: u8,
    pub(in super::super) defender: u8,
    pub(super) forward: [u16; 16],
    pub(super) backward: [u16; 16],
}

impl Pair {
    pub(super) fn new(combat: &Combat) -> Pair {
        let mut forward = [0u16; 16];
        forward[..RANKS].copy_from_slice(&combat.table());
        let mut backward = [0u16; 16];
        for (ra, &ds) in forward.iter().enumerate() {
            for rd in Domain(ds).ranks() {
                backward[usize::from(rd)] |= 1 << ra;
            }
        }
        Pair {
            attacker: combat.attacker.0,
            defender: combat.defender.0,
            forward,
            backward,
        }
    }

    /// Whether the pair allows these two ranks.
    #[inline]
    pub(in super::super) fn allows(&self, ra: u8, rd: u8) -> bool {
        self.forward[usize::from(ra)] & (1 << rd) != 0
    }
}

/// A seat was given the turn, so it had a legal move: at least one of `pieces` (bit `k`
/// for the seat's `k`-th piece: those then on the board, outside an HQ, with somewhere to
/// go) is a piece that moves.
#[derive(Clone, Copy, Debug)]
pub(in super::super) struct Clause {
    pub(super) seat: u8,
    pub(super) pieces: u32,
}

impl Clause {
    /// The clause's pieces as indices into per-piece tables.
    pub(in super::super) fn members(self) -> impl Iterator<Item = usize> {
        let base = usize::from(self.seat) * SEAT_PIECES;
        (0..SEAT_PIECES)
            .filter(move |k| self.pieces & (1 << k) != 0)
            .map(move |k| base + k)
    }

    /// The clause's pieces as a set.
    pub(super) fn set(self) -> Pieces {
        Pieces::from(self.pieces) << (usize::from(self.seat) * SEAT_PIECES)
    }

    /// Whether some member is surely a mover, so the clause can narrow nothing.
    pub(super) fn satisfied(self, dom: &[u16; PIECES]) -> bool {
        self.members().any(|i| dom[i] & !Domain::MOVERS.0 == 0)
    }
}

/// The union of `table[r]` over the ranks `r` in `set`.
#[inline]
pub(super) fn support(set: u16, table: &[u16; 16]) -> u16 {
    let mut bits = set;
    let mut out = 0;
    while bits != 0 {
        out |= table[bits.trailing_zeros() as usize & 15];
        bits &= bits - 1;
    }
    out
}

/// A set of pieces, bit `i` for piece `i` (100 of 128 bits).
pub(in super::super) type Pieces = u128;

/// The seats (bit per seat) with a piece in `pieces`.
#[inline]
pub(super) fn seats_of(pieces: Pieces) -> u8 {
    (0..4).fold(0, |set, seat| {
        if (pieces >> (seat * SEAT_PIECES)) & ((1 << SEAT_PIECES) - 1) != 0 {
            set | 1 << seat
        } else {
            set
        }
    })
}

/// Why no rank assignment fits the facts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Contradiction {
    /// This piece has no rank left.
    Empty(PieceId),
    /// This seat's pieces cannot make up the counts 1a 1b 2c … 1l.
    Counts(usize),
    /// This seat was given the turn, yet none of its pieces that had somewhere to go can
    /// move.
    Stuck(usize),
    /// No attacker rank in the first set gives the reported outcome against any defender
    /// rank in the second.
    Outcome(Domain, Domain),
    /// Each seat fits on its own, but no assignment fits the combats between hidden
    /// pieces of different seats together (found by the sampler's exact search).
    NoAssignment,
}

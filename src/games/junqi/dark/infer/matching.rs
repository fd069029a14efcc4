//! The per-seat counts as a matching with capacities (`docs/design/junqi-dark.md` §4.2):
//! one complete assignment of a seat's pieces to ranks, repaired piece by piece, and the
//! rank graph whose alternating cycles say which ranks each piece may switch to.

use super::super::{Domain, SEAT_PIECES};
use super::NONE;
use crate::games::junqi::position::RANKS;

/// One complete assignment of a seat's pieces to ranks within their domains and the
/// counts: `rank[k]` per piece (or [`NONE`] while being repaired), and per rank the set
/// of pieces holding it (bit `k`), whose size is the rank's load.
#[derive(Clone, Copy, Debug)]
pub(in super::super) struct Matching {
    pub(in super::super) rank: [u8; SEAT_PIECES],
    holders: [u32; RANKS],
}

impl Matching {
    pub(super) const EMPTY: Matching = Matching {
        rank: [NONE; SEAT_PIECES],
        holders: [0; RANKS],
    };

    /// Gives unmatched piece `p` a rank, moving others along an augmenting path over
    /// ranks (breadth-first, at most 12 nodes); false when none exists.
    pub(in super::super) fn augment(
        &mut self,
        dom: &[u16],
        counts: &[u8; RANKS],
        p: usize,
    ) -> bool {
        // `via[r]`: the piece that moves into rank r on the path; `from[r]`: the rank it
        // leaves (NONE for p itself).
        let mut via = [NONE; RANKS];
        let mut from = [NONE; RANKS];
        let mut queue = [0u8; RANKS];
        let (mut head, mut tail) = (0, 0);
        let mut seen = dom[p];
        for r in Domain(dom[p]).ranks() {
            via[usize::from(r)] = p as u8;
            queue[tail] = r;
            tail += 1;
        }
        while head < tail {
            let r = usize::from(queue[head]);
            head += 1;
            if self.holders[r].count_ones() < u32::from(counts[r]) {
                let mut r = r;
                loop {
                    let q = usize::from(via[r]);
                    self.rank[q] = r as u8;
                    self.holders[r] |= 1 << q;
                    if from[r] == NONE {
                        return true;
                    }
                    r = usize::from(from[r]);
                    self.holders[r] &= !(1 << q);
                }
            }
            let mut holders = self.holders[r];
            while holders != 0 {
                let q = holders.trailing_zeros() as usize;
                holders &= holders - 1;
                let new = dom[q] & !seen;
                seen |= new;
                for r2 in Domain(new).ranks() {
                    via[usize::from(r2)] = q as u8;
                    from[usize::from(r2)] = r as u8;
                    queue[tail] = r2;
                    tail += 1;
                }
            }
        }
        false
    }

    /// Drops piece `p`'s rank (its domain no longer has it).
    #[inline]
    pub(in super::super) fn release(&mut self, p: usize) {
        let r = self.rank[p];
        if r != NONE {
            self.holders[usize::from(r)] &= !(1 << p);
            self.rank[p] = NONE;
        }
    }

    /// `moves[x]`: the ranks some piece matched to `x` may take instead.
    #[inline]
    pub(in super::super) fn moves(&self, dom: &[u16]) -> [u16; RANKS] {
        let mut moves = [0u16; RANKS];
        for (q, &d) in dom.iter().enumerate() {
            moves[usize::from(self.rank[q])] |= d;
        }
        moves
    }
}

/// The ranks from which `target` is reachable in the rank graph `moves` (`target`
/// included): the ranks a piece matched to `target` may switch to.
#[inline]
pub(in super::super) fn reaching(moves: &[u16; RANKS], target: u8) -> u16 {
    let mut set = 1u16 << target;
    loop {
        let mut grown = set;
        for (r, &m) in moves.iter().enumerate() {
            if m & set != 0 {
                grown |= 1 << r;
            }
        }
        if grown == set {
            return set;
        }
        set = grown;
    }
}

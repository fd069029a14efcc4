//! The propagation network: every piece's domain and each seat's matching, narrowed by
//! the combat pairs, the clauses and the counts to a fixpoint.

use super::super::{Domain, PIECES, PieceId, SEAT_PIECES};
use super::combat::{Contradiction, Pieces, seats_of, support};
use super::matching::Matching;
use super::{Facts, NONE};
use crate::games::junqi::position::RANKS;

/// Domains of all 100 pieces and each seat's matching: the state propagation works on,
/// small enough to copy per trial in the sampler.
#[derive(Clone, Debug)]
pub(in super::super) struct Net {
    pub(in super::super) dom: [u16; PIECES],
    pub(in super::super) matching: [Matching; 4],
}

impl Net {
    /// Global cardinality filtering of one seat: repairs the matching, then keeps of each
    /// domain the ranks on an alternating cycle through the piece's matched rank. Returns
    /// the pieces whose domain shrank.
    pub(in super::super) fn filter_counts(
        &mut self,
        seat: usize,
        counts: &[u8; RANKS],
    ) -> Result<Pieces, Contradiction> {
        let base = seat * SEAT_PIECES;
        let dom = &mut self.dom[base..base + SEAT_PIECES];
        let matching = &mut self.matching[seat];
        for (q, &d) in dom.iter().enumerate() {
            let r = matching.rank[q];
            if r != NONE && d & (1 << r) == 0 {
                matching.release(q);
            }
        }
        for q in 0..SEAT_PIECES {
            if matching.rank[q] == NONE && !matching.augment(dom, counts, q) {
                return Err(Contradiction::Counts(seat));
            }
        }
        // reach[x]: the ranks reachable from x (x included), by Warshall on bitsets.
        let moves = matching.moves(dom);
        let mut reach = [0u16; RANKS];
        for r in 0..RANKS {
            reach[r] = moves[r] | 1 << r;
        }
        for k in 0..RANKS {
            let via = reach[k];
            for set in reach.iter_mut() {
                *set |= via & 0u16.wrapping_sub((*set >> k) & 1);
            }
        }
        // into[t]: the ranks from which t is reachable (the transpose).
        let mut into = [0u16; RANKS];
        for (t, from) in into.iter_mut().enumerate() {
            for (r, &set) in reach.iter().enumerate() {
                *from |= ((set >> t) & 1) << r;
            }
        }
        let mut changed: Pieces = 0;
        for (q, d) in dom.iter_mut().enumerate() {
            let kept = *d & into[usize::from(matching.rank[q])];
            if kept != *d {
                changed |= 1 << (base + q);
            }
            *d = kept;
        }
        Ok(changed)
    }

    /// Propagation to a fixpoint after the domains of `touched` narrowed: arc consistency
    /// of the pairs and unit propagation of the clauses that involve a narrowed piece,
    /// and count filtering of every seat with a narrowed piece, until nothing narrows.
    pub(in super::super) fn propagate(
        &mut self,
        facts: &Facts,
        touched: Pieces,
    ) -> Result<(), Contradiction> {
        let mut pending = touched;
        let mut dirty = seats_of(touched);
        loop {
            while pending != 0 {
                let mut narrowed: Pieces = 0;
                for &clause in &facts.clauses {
                    if clause.set() & pending == 0 || clause.satisfied(&self.dom) {
                        continue;
                    }
                    let mut candidates = clause
                        .members()
                        .filter(|&i| self.dom[i] & Domain::MOVERS.0 != 0);
                    match (candidates.next(), candidates.next()) {
                        (None, _) => return Err(Contradiction::Stuck(usize::from(clause.seat))),
                        (Some(i), None) => {
                            self.dom[i] &= Domain::MOVERS.0;
                            narrowed |= 1 << i;
                        }
                        _ => {}
                    }
                }
                for pair in &facts.pairs {
                    let (a, d) = (usize::from(pair.attacker), usize::from(pair.defender));
                    if (pending >> a | pending >> d) & 1 == 0 {
                        continue;
                    }
                    let (da, dd) = (self.dom[a], self.dom[d]);
                    let nd = dd & support(da, &pair.forward);
                    let na = da & support(nd, &pair.backward);
                    if nd == 0 {
                        return Err(Contradiction::Empty(PieceId(d as u8)));
                    }
                    if na == 0 {
                        return Err(Contradiction::Empty(PieceId(a as u8)));
                    }
                    if nd != dd {
                        self.dom[d] = nd;
                        narrowed |= 1 << d;
                    }
                    if na != da {
                        self.dom[a] = na;
                        narrowed |= 1 << a;
                    }
                }
                dirty |= seats_of(narrowed);
                pending = narrowed;
            }
            let mut narrowed: Pieces = 0;
            for (seat, seat_counts) in facts.counts.iter().enumerate() {
                if dirty & (1 << seat) != 0 {
                    narrowed |= self.filter_counts(seat, seat_counts)?;
                }
            }
            if narrowed == 0 {
                return Ok(());
            }
            dirty = 0;
            pending = narrowed;
        }
    }
}

impl Net {
    /// The rank of each fixed piece (`u8::MAX` for the others).
    pub(in super::super) fn fixed(&self) -> [u8; PIECES] {
        let mut ranks = [NONE; PIECES];
        for (rank, &d) in ranks.iter_mut().zip(self.dom.iter()) {
            if let Some(r) = Domain(d).single() {
                *rank = r;
            }
        }
        ranks
    }
}

impl Net {
    /// Whether `seat`'s pieces make up `counts` with each piece of `held` (bit `k` for its
    /// `k`-th piece) given its rank in `ranks` and the others within their domains.
    pub(in super::super) fn counts_fit(
        &self,
        seat: usize,
        held: u32,
        ranks: &[u8; PIECES],
        counts: &[u8; RANKS],
    ) -> bool {
        let base = seat * SEAT_PIECES;
        let mut dom = [0u16; SEAT_PIECES];
        dom.copy_from_slice(&self.dom[base..base + SEAT_PIECES]);
        let mut matching = self.matching[seat];
        for (k, d) in dom.iter_mut().enumerate() {
            if held & (1 << k) != 0 {
                *d = 1 << ranks[base + k];
                if *d & (1 << matching.rank[k]) == 0 {
                    matching.release(k);
                }
            }
        }
        (0..SEAT_PIECES).all(|k| matching.rank[k] != NONE || matching.augment(&dom, counts, k))
    }
}

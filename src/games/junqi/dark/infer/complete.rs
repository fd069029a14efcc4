//! Exact completion: the pieces the counts alone do not settle, and a depth-first search
//! for a complete rank assignment that meets every pair, clause and count.

use super::super::{Domain, PIECES, SEAT_PIECES};
use super::combat::{Clause, Pair};
use super::net::Net;
use super::{Facts, NONE};

/// The part of `facts` that per-seat counts alone do not settle in `net`: the pairs whose
/// two pieces are both open, the clauses not yet satisfied, and their open pieces,
/// tightest domain first.
pub(in super::super) fn coupled(net: &Net, facts: &Facts) -> (Facts, Vec<u8>) {
    let open = |p: usize| net.dom[p].count_ones() > 1;
    let pairs: Vec<Pair> = facts
        .pairs
        .iter()
        .filter(|pair| open(usize::from(pair.attacker)) && open(usize::from(pair.defender)))
        .cloned()
        .collect();
    let clauses: Vec<Clause> = facts
        .clauses
        .iter()
        .filter(|c| !c.satisfied(&net.dom))
        .copied()
        .collect();
    let mut pieces: Vec<u8> = pairs
        .iter()
        .flat_map(|pair| [pair.attacker, pair.defender])
        .chain(
            clauses
                .iter()
                .flat_map(|c| c.members())
                .filter(|&i| open(i))
                .map(|i| i as u8),
        )
        .collect();
    pieces.sort_unstable();
    pieces.dedup();
    pieces.sort_by_key(|&p| (net.dom[usize::from(p)].count_ones(), p));
    let coupled = Facts {
        pairs,
        clauses,
        counts: facts.counts,
    };
    (coupled, pieces)
}

/// A completion of the coupled pieces `order` from `net` (returned with every other
/// fixed piece), or `None`. First a guess, checked directly: each piece keeps the rank
/// `prefer` gives it (a former completion) if its domain still has it, else its first rank.
/// Then a depth-first search, propagating after each choice and trying the preferred rank
/// first. Once every coupled piece is fixed and propagation holds, no combat or clause
/// joins two open pieces, and each seat's complete matching extends the assignment to the
/// rest: so this decides exactly whether any assignment fits, unless the search runs out
/// of `budget` (choices tried, counted down) first and gives `None` unproven.
pub(in super::super) fn complete(
    net: &Net,
    facts: &Facts,
    order: &[u8],
    prefer: Option<&[u8; PIECES]>,
    budget: &mut u64,
) -> Option<[u8; PIECES]> {
    let mut guess = net.fixed();
    for &p in order {
        let (p, d) = (usize::from(p), net.dom[usize::from(p)]);
        let wanted = prefer.map_or(NONE, |ranks| ranks[p]);
        guess[p] = if wanted != NONE && d & (1 << wanted) != 0 {
            wanted
        } else {
            d.trailing_zeros() as u8
        };
    }
    if fits(net, facts, order, &guess) {
        return Some(guess);
    }
    search(net, facts, order, &guess, budget)
}

/// The depth-first search of [`complete`], trying `prefer`'s rank of each piece first.
fn search(
    net: &Net,
    facts: &Facts,
    order: &[u8],
    prefer: &[u8; PIECES],
    budget: &mut u64,
) -> Option<[u8; PIECES]> {
    let Some(i) = order
        .iter()
        .position(|&p| net.dom[usize::from(p)].count_ones() > 1)
    else {
        return Some(net.fixed());
    };
    let p = usize::from(order[i]);
    let first = prefer[p];
    let ordered = (net.dom[p] & (1 << first) != 0)
        .then_some(first)
        .into_iter()
        .chain(Domain(net.dom[p]).ranks().filter(|&r| r != first));
    for r in ordered {
        if *budget == 0 {
            return None;
        }
        *budget -= 1;
        let mut trial = net.clone();
        trial.dom[p] = 1 << r;
        if trial.propagate(facts, 1 << p).is_ok()
            && let Some(found) = complete(&trial, facts, &order[i + 1..], Some(prefer), budget)
        {
            return Some(found);
        }
    }
    None
}

/// Whether `ranks`, a rank within its domain for each piece of `order` (and the fixed
/// ones), meets every pair and clause of `facts`, and each seat's other pieces can still
/// make up its counts (a matching with the pieces of `order` held to their ranks).
pub(in super::super) fn fits(net: &Net, facts: &Facts, order: &[u8], ranks: &[u8; PIECES]) -> bool {
    let pairs_hold = facts.pairs.iter().all(|pair| {
        pair.allows(
            ranks[usize::from(pair.attacker)],
            ranks[usize::from(pair.defender)],
        )
    });
    let clauses_hold = facts
        .clauses
        .iter()
        .all(|c| c.members().any(|q| Domain::MOVERS.contains(ranks[q])));
    if !pairs_hold || !clauses_hold {
        return false;
    }
    let mut held = [0u32; 4];
    for &p in order {
        held[usize::from(p) / SEAT_PIECES] |= 1 << (usize::from(p) % SEAT_PIECES);
    }
    (0..4)
        .all(|seat| held[seat] == 0 || net.counts_fit(seat, held[seat], ranks, &facts.counts[seat]))
}

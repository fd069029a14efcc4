//! Exact inference over hidden ranks (`docs/design/junqi-dark.md` §3 and §4.2): a 12-bit
//! domain per piece, a binary constraint per combat, and the per-seat counts as a global
//! cardinality constraint, propagated to a fixpoint.
//!
//! - A combat's constraint is the table of `(attacker rank, defender rank)` pairs whose
//!   outcome under the combat rule ([`survivor`]) is the reported one, with the flag taken
//!   or not, and a removed piece being its seat's marshal exactly when the referee made
//!   that seat's flag public. Deriving the table from the rule keeps the combat rule in
//!   one place (the tests check the table against the design's worked examples, §3.3).
//! - The counts (1a 1b 2c 2d 2e 2f 3g 3h 3i 3j 2k 1l over the 25 pieces of a seat, dead
//!   ones included) are filtered Régin-style: one complete assignment of pieces to ranks
//!   (a matching with capacities) is kept; as every capacity is used, a piece may take
//!   rank `r` exactly when `r` reaches the piece's matched rank in the graph "rank `x` →
//!   rank `y` when a piece matched to `x` may be `y`" (an alternating cycle). With 12
//!   ranks that is a bitset closure.
//!
//! Propagation is sound (it never removes a rank some consistent assignment uses) but not
//! complete across seats: combats couple seats in pairs. The sampler restores exactness.

use super::{Domain, PIECES, PieceId, SEAT_PIECES};
use crate::games::junqi::Clash;
use crate::games::junqi::position::{COUNTS, FLAG, MARSHAL, RANKS, survivor};

/// No rank / no piece in the byte-sized tables.
const NONE: u8 = u8::MAX;

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
pub(super) struct Pair {
    pub(super) attacker: u8,
    pub(super) defender: u8,
    forward: [u16; 16],
    backward: [u16; 16],
}

impl Pair {
    fn new(combat: &Combat) -> Pair {
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
    pub(super) fn allows(&self, ra: u8, rd: u8) -> bool {
        self.forward[usize::from(ra)] & (1 << rd) != 0
    }
}

/// A seat was given the turn, so it had a legal move: at least one of `pieces` (bit `k`
/// for the seat's `k`-th piece: those then on the board, outside an HQ, with somewhere to
/// go) is a piece that moves.
#[derive(Clone, Copy, Debug)]
pub(super) struct Clause {
    seat: u8,
    pieces: u32,
}

impl Clause {
    /// The clause's pieces as indices into per-piece tables.
    pub(super) fn members(self) -> impl Iterator<Item = usize> {
        let base = usize::from(self.seat) * SEAT_PIECES;
        (0..SEAT_PIECES)
            .filter(move |k| self.pieces & (1 << k) != 0)
            .map(move |k| base + k)
    }

    /// The clause's pieces as a set.
    fn set(self) -> Pieces {
        Pieces::from(self.pieces) << (usize::from(self.seat) * SEAT_PIECES)
    }

    /// Whether some member is surely a mover, so the clause can narrow nothing.
    fn satisfied(self, dom: &[u16; PIECES]) -> bool {
        self.members().any(|i| dom[i] & !Domain::MOVERS.0 == 0)
    }
}

/// The union of `table[r]` over the ranks `r` in `set`.
#[inline]
fn support(set: u16, table: &[u16; 16]) -> u16 {
    let mut bits = set;
    let mut out = 0;
    while bits != 0 {
        out |= table[bits.trailing_zeros() as usize & 15];
        bits &= bits - 1;
    }
    out
}

/// A set of pieces, bit `i` for piece `i` (100 of 128 bits).
pub(super) type Pieces = u128;

/// The seats (bit per seat) with a piece in `pieces`.
#[inline]
fn seats_of(pieces: Pieces) -> u8 {
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

/// One complete assignment of a seat's pieces to ranks within their domains and the
/// counts: `rank[k]` per piece (or [`NONE`] while being repaired), and per rank the set
/// of pieces holding it (bit `k`), whose size is the rank's load.
#[derive(Clone, Copy, Debug)]
pub(super) struct Matching {
    pub(super) rank: [u8; SEAT_PIECES],
    holders: [u32; RANKS],
}

impl Matching {
    const EMPTY: Matching = Matching {
        rank: [NONE; SEAT_PIECES],
        holders: [0; RANKS],
    };

    /// Gives unmatched piece `p` a rank, moving others along an augmenting path over
    /// ranks (breadth-first, at most 12 nodes); false when none exists.
    pub(super) fn augment(&mut self, dom: &[u16], counts: &[u8; RANKS], p: usize) -> bool {
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
    pub(super) fn release(&mut self, p: usize) {
        let r = self.rank[p];
        if r != NONE {
            self.holders[usize::from(r)] &= !(1 << p);
            self.rank[p] = NONE;
        }
    }

    /// `moves[x]`: the ranks some piece matched to `x` may take instead.
    #[inline]
    pub(super) fn moves(&self, dom: &[u16]) -> [u16; RANKS] {
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
pub(super) fn reaching(moves: &[u16; RANKS], target: u8) -> u16 {
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

/// Domains of all 100 pieces and each seat's matching: the state propagation works on,
/// small enough to copy per trial in the sampler.
#[derive(Clone, Debug)]
pub(super) struct Net {
    pub(super) dom: [u16; PIECES],
    pub(super) matching: [Matching; 4],
}

impl Net {
    /// Global cardinality filtering of one seat: repairs the matching, then keeps of each
    /// domain the ranks on an alternating cycle through the piece's matched rank. Returns
    /// the pieces whose domain shrank.
    pub(super) fn filter_counts(
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
    pub(super) fn propagate(
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
    pub(super) fn fixed(&self) -> [u8; PIECES] {
        let mut ranks = [NONE; PIECES];
        for (rank, &d) in ranks.iter_mut().zip(self.dom.iter()) {
            if let Some(r) = Domain(d).single() {
                *rank = r;
            }
        }
        ranks
    }
}

/// The part of `facts` that per-seat counts alone do not settle in `net`: the pairs whose
/// two pieces are both open, the clauses not yet satisfied, and their open pieces,
/// tightest domain first.
pub(super) fn coupled(net: &Net, facts: &Facts) -> (Facts, Vec<u8>) {
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
pub(super) fn complete(
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
pub(super) fn fits(net: &Net, facts: &Facts, order: &[u8], ranks: &[u8; PIECES]) -> bool {
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

impl Net {
    /// Whether `seat`'s pieces make up `counts` with each piece of `held` (bit `k` for its
    /// `k`-th piece) given its rank in `ranks` and the others within their domains.
    pub(super) fn counts_fit(
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

/// The hard facts beyond the domains: combat pairs, "had a legal move" clauses and the
/// per-seat counts (zero for a seat absent from the setup, whose pieces do not exist).
#[derive(Clone, Debug)]
pub(super) struct Facts {
    /// Combat constraints that can still narrow a domain (both sides not yet fixed).
    pub(super) pairs: Vec<Pair>,
    /// "Had a legal move" clauses not yet satisfied.
    pub(super) clauses: Vec<Clause>,
    pub(super) counts: [[u8; RANKS]; 4],
}

/// What is known of every piece's rank: the hard facts, propagated on demand.
#[derive(Clone, Debug)]
pub struct Belief {
    pub(super) net: Net,
    pub(super) facts: Facts,
    /// Pieces narrowed, or given a new pair or clause, since the last propagation.
    touched: Pieces,
}

impl Belief {
    /// Deployment rules only, for the seats in `present` (bit per seat); the pieces of
    /// other seats do not exist and keep empty domains.
    pub fn new(present: u8) -> Belief {
        let mut dom = [0u16; PIECES];
        let mut counts = [[0u8; RANKS]; 4];
        let mut touched: Pieces = 0;
        for seat in (0..4).filter(|s| present & (1 << s) != 0) {
            counts[seat] = COUNTS;
            for k in 0..SEAT_PIECES {
                let p = PieceId::new(seat, k);
                dom[p.index()] = Domain::deployable(p.slot()).0;
                touched |= 1 << p.index();
            }
        }
        Belief {
            net: Net {
                dom,
                matching: [Matching::EMPTY; 4],
            },
            facts: Facts {
                pairs: Vec::new(),
                clauses: Vec::new(),
                counts,
            },
            touched,
        }
    }

    /// Whether the piece's seat was in the setup.
    pub fn exists(&self, p: PieceId) -> bool {
        self.facts.counts[p.seat()] != [0; RANKS]
    }

    /// The ranks `p` may still have.
    #[inline]
    pub fn domain(&self, p: PieceId) -> Domain {
        Domain(self.net.dom[p.index()])
    }

    /// Keeps only the ranks of `keep` for `p` (no propagation yet).
    pub fn restrict(&mut self, p: PieceId, keep: Domain) -> Result<(), Contradiction> {
        let d = self.net.dom[p.index()];
        let kept = d & keep.0;
        if kept == 0 {
            return Err(Contradiction::Empty(p));
        }
        if kept != d {
            self.net.dom[p.index()] = kept;
            self.touched |= 1 << p.index();
        }
        Ok(())
    }

    /// Adds a combat's constraint; fails at once when no pair of ranks in the current
    /// domains gives its outcome.
    pub fn add_combat(&mut self, combat: &Combat) -> Result<(), Contradiction> {
        let pair = Pair::new(combat);
        let (a, d) = (combat.attacker, combat.defender);
        let (da, dd) = (self.domain(a), self.domain(d));
        if support(da.0, &pair.forward) & dd.0 == 0 {
            return Err(Contradiction::Outcome(da, dd));
        }
        self.facts.pairs.push(pair);
        self.touched |= 1 << a.index() | 1 << d.index();
        Ok(())
    }

    /// Adds that `seat`, given the turn, had a legal move: one of `pieces` (bit `k` for
    /// its `k`-th piece) moves.
    pub fn add_mover_clause(&mut self, seat: usize, pieces: u32) -> Result<(), Contradiction> {
        if pieces == 0 {
            return Err(Contradiction::Stuck(seat));
        }
        let clause = Clause {
            seat: seat as u8,
            pieces,
        };
        self.facts.clauses.push(clause);
        self.touched |= clause.set();
        Ok(())
    }

    /// Propagates every fact to a fixpoint and drops the pairs whose two pieces are fixed
    /// (they can narrow nothing more). While combats still join open pieces of different
    /// seats, where propagation is not complete, a search then decides whether any
    /// assignment fits at all: a belief that propagates is always satisfiable.
    pub fn propagate(&mut self) -> Result<(), Contradiction> {
        if self.touched == 0 {
            return Ok(());
        }
        self.net.propagate(&self.facts, self.touched)?;
        self.touched = 0;
        let dom = &self.net.dom;
        self.facts.pairs.retain(|pair| {
            dom[usize::from(pair.attacker)].count_ones() > 1
                || dom[usize::from(pair.defender)].count_ones() > 1
        });
        self.facts.clauses.retain(|c| !c.satisfied(dom));
        let (coupled, order) = coupled(&self.net, &self.facts);
        // Deciding a record's consistency exactly is worth any search.
        let mut unlimited = u64::MAX;
        if !order.is_empty()
            && complete(&self.net, &coupled, &order, None, &mut unlimited).is_none()
        {
            return Err(Contradiction::NoAssignment);
        }
        Ok(())
    }

    /// Whether a complete assignment (a rank per existing piece) meets every hard fact:
    /// domains, combat pairs, clauses and counts.
    pub fn admits(&self, ranks: &[u8; PIECES]) -> bool {
        let mut counts = [[0u8; RANKS]; 4];
        for (i, &r) in ranks.iter().enumerate() {
            let p = PieceId(i as u8);
            if !self.exists(p) {
                continue;
            }
            if usize::from(r) >= RANKS || !self.domain(p).contains(r) {
                return false;
            }
            counts[p.seat()][usize::from(r)] += 1;
        }
        counts == self.facts.counts
            && self.facts.pairs.iter().all(|pair| {
                pair.allows(
                    ranks[usize::from(pair.attacker)],
                    ranks[usize::from(pair.defender)],
                )
            })
            && self
                .facts
                .clauses
                .iter()
                .all(|c| c.members().any(|i| Domain::MOVERS.contains(ranks[i])))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::junqi::position::MINE;

    /// Ranks from letters, as a domain.
    fn ranks(letters: &str) -> u16 {
        letters.bytes().fold(0, |d, b| d | 1 << (b - b'a'))
    }

    fn combat(clash: Clash) -> Combat {
        Combat {
            attacker: PieceId(0),
            defender: PieceId(25),
            clash,
            flag_taken: false,
            attacker_marshal: None,
            defender_marshal: None,
        }
    }

    /// The defender ranks a known attacker rank allows.
    fn defenders(c: &Combat, attacker: char) -> u16 {
        c.table()[usize::from(attacker as u8 - b'a')]
    }

    /// The attacker ranks a known defender rank allows.
    fn attackers(c: &Combat, defender: char) -> u16 {
        let rd = defender as u8 - b'a';
        let table = c.table();
        (0..RANKS).fold(0, |s, ra| {
            if table[ra] & (1 << rd) != 0 {
                s | 1 << ra
            } else {
                s
            }
        })
    }

    #[test]
    fn the_table_reproduces_the_design_worked_examples() {
        let won = combat(Clash::Won);
        let lost = combat(Clash::Lost);
        let both = combat(Clash::Both);
        // Our colonel e defends.
        assert_eq!(attackers(&won, 'e'), ranks("abcd"), "not a bomb");
        assert_eq!(attackers(&lost, 'e'), ranks("fghi"));
        assert_eq!(attackers(&both, 'e'), ranks("ek"));
        // Our colonel attacks.
        assert_eq!(defenders(&won, 'e'), ranks("fghi"), "not a mine");
        assert_eq!(defenders(&lost, 'e'), ranks("abcdj"));
        assert_eq!(defenders(&both, 'e'), ranks("ek"));
        // Our engineer attacks.
        assert_eq!(defenders(&won, 'i'), ranks("j"));
        assert_eq!(defenders(&lost, 'i'), ranks("abcdefgh"));
        assert_eq!(defenders(&both, 'i'), ranks("ik"));
        // Our marshal attacks: =w is b..i; =l is a mine and publishes our flag.
        assert_eq!(defenders(&won, 'a'), ranks("bcdefghi"));
        assert_eq!(defenders(&lost, 'a'), ranks("j"));
        assert_eq!(defenders(&both, 'a'), ranks("ak"));
        let lost_silent = Combat {
            attacker_marshal: Some(false),
            ..lost
        };
        assert_eq!(defenders(&lost_silent, 'a'), 0, "=l without +sq");
        // Our bomb: always =b, never =w or =l, and =b against all but the flag.
        assert_eq!(defenders(&won, 'k'), 0);
        assert_eq!(defenders(&lost, 'k'), 0);
        assert_eq!(defenders(&both, 'k'), ranks("abcdefghijk"));
        let bomb_on_flag = Combat {
            flag_taken: true,
            ..both
        };
        assert_eq!(defenders(&bomb_on_flag, 'k'), ranks("l"));
        // Mines and flags never attack.
        for clash in [Clash::Won, Clash::Lost, Clash::Both] {
            let table = combat(clash).table();
            assert_eq!(table[usize::from(MINE)], 0);
            assert_eq!(table[usize::from(FLAG)], 0);
        }
        // =w: the defender is b-i or j, and a mine only to an engineer.
        let all_def = (0..RANKS).fold(0, |s, r| s | won.table()[r]);
        assert_eq!(all_def, ranks("bcdefghij"));
        assert_eq!(attackers(&won, 'j'), ranks("i"));
        // =l: the defender is a-h or j.
        let all_def = (0..RANKS).fold(0, |s, r| s | lost.table()[r]);
        assert_eq!(all_def, ranks("abcdefghj"));
        // New +sq for the defender's seat after =b: the attacker is a or k.
        let marshal_dies = Combat {
            defender_marshal: Some(true),
            ..both
        };
        assert_eq!(attackers(&marshal_dies, 'a'), ranks("ak"));
        assert_eq!(defenders(&marshal_dies, 'e'), 0);
    }

    /// A belief where seat S is known but for the pieces `hidden` (lineup places).
    fn mostly_known(lineup: &str, hidden: &[usize]) -> Belief {
        let mut belief = Belief::new(0b0001);
        for (k, ch) in lineup.bytes().enumerate() {
            if !hidden.contains(&k) {
                belief
                    .restrict(PieceId::new(0, k), Domain::only(ch - b'a'))
                    .unwrap();
            }
        }
        belief
    }

    #[test]
    fn counts_close_the_domains_of_the_rest() {
        let lineup = crate::games::junqi::DEFAULT_LINEUP;
        // The marshal (place 0) and a lieutenant (place 13: 'h') hidden: each can only
        // be what the other is not, and both keep {a, h}.
        let mut belief = mostly_known(lineup, &[0, 13]);
        belief.propagate().unwrap();
        assert_eq!(belief.domain(PieceId(0)).0, ranks("ah"));
        assert_eq!(belief.domain(PieceId(13)).0, ranks("ah"));
        // Telling one closes the other.
        belief.restrict(PieceId(13), Domain::not(MARSHAL)).unwrap();
        belief.propagate().unwrap();
        assert_eq!(belief.domain(PieceId(0)).single(), Some(MARSHAL));
        // The marshal, a brigadier and a captain hidden (places 0-2) but said to be
        // generals or major generals, of which the known pieces already hold every one.
        let mut belief = mostly_known(lineup, &[0, 1, 2]);
        for k in 0..3 {
            belief.restrict(PieceId(k), Domain(ranks("bc"))).unwrap();
        }
        assert_eq!(belief.propagate(), Err(Contradiction::Counts(0)));
    }

    #[test]
    fn a_hall_set_is_found() {
        // All of S hidden; three pieces known to be in {c, d} and a fourth in {c, d}:
        // four pieces for the two c and two d, so nobody else is c or d.
        let mut belief = Belief::new(0b0001);
        for k in [0, 1, 2, 3] {
            belief.restrict(PieceId(k), Domain(ranks("cd"))).unwrap();
        }
        belief.propagate().unwrap();
        for k in 4..25 {
            let d = belief.domain(PieceId(k));
            assert!(!d.contains(2) && !d.contains(3), "{k}: {d}");
        }
        // So a fifth piece in {c, d} is one too many.
        assert_eq!(
            belief.restrict(PieceId(4), Domain(ranks("cd"))),
            Err(Contradiction::Empty(PieceId(4)))
        );
    }

    /// A `=b` combat between two pieces (equal officers, or a bomb).
    fn both_removed(attacker: PieceId, defender: PieceId) -> Combat {
        Combat {
            attacker,
            defender,
            ..combat(Clash::Both)
        }
    }

    #[test]
    fn a_search_finds_what_propagation_cannot() {
        // S's and E's lineup places 4 and 15 (a major general and a brigadier each)
        // hidden; every other piece known. Three `=b` combats say S4 = E4, S15 = E15 and
        // S4 = E15: each pair and each seat's counts fit on their own, the whole does not.
        let lineup = crate::games::junqi::DEFAULT_LINEUP;
        let mut belief = Belief::new(0b0011);
        for seat in 0..2 {
            for (k, ch) in lineup.bytes().enumerate() {
                let keep = if k == 4 || k == 15 {
                    Domain(ranks("cd"))
                } else {
                    Domain::only(ch - b'a')
                };
                belief.restrict(PieceId::new(seat, k), keep).unwrap();
            }
        }
        let (s4, s15, e4, e15) = (PieceId(4), PieceId(15), PieceId(29), PieceId(40));
        belief.add_combat(&both_removed(s4, e4)).unwrap();
        belief.add_combat(&both_removed(s15, e15)).unwrap();
        let mut consistent = belief.clone();
        consistent.propagate().unwrap();
        assert_eq!(consistent.domain(s4).0, ranks("cd"));
        belief.add_combat(&both_removed(s4, e15)).unwrap();
        assert_eq!(belief.propagate(), Err(Contradiction::NoAssignment));
    }

    #[test]
    fn a_seat_given_the_turn_has_a_piece_that_moves() {
        // S's back pieces on slots 21, 22 and 23 (mine, lieutenant, mine in the default
        // lineup) hidden: they are the lieutenant and two mines in some order. If only the
        // one on slot 21 could have moved, it is the lieutenant and the others are mines.
        let lineup = crate::games::junqi::DEFAULT_LINEUP;
        let mut belief = mostly_known(lineup, &[16, 17, 18]);
        belief.propagate().unwrap();
        assert_eq!(belief.domain(PieceId(17)).0, ranks("hj"));
        belief.add_mover_clause(0, 1 << 16).unwrap();
        belief.propagate().unwrap();
        assert_eq!(belief.domain(PieceId(16)).single(), Some(7));
        assert_eq!(belief.domain(PieceId(17)).single(), Some(MINE));
        assert_eq!(belief.domain(PieceId(18)).single(), Some(MINE));
        // A clause on pieces that are all mines cannot hold.
        let mut belief = mostly_known(lineup, &[]);
        belief.add_mover_clause(0, 1 << 16 | 1 << 18).unwrap();
        assert_eq!(belief.propagate(), Err(Contradiction::Stuck(0)));
    }

    #[test]
    fn the_flag_is_one_of_the_two_hq_pieces() {
        let mut belief = Belief::new(0b0001);
        belief.propagate().unwrap();
        // Lineup places 21 and 23 are slots 26 and 28.
        let hq = [PieceId(21), PieceId(23)];
        for p in hq {
            assert!(belief.domain(p).contains(FLAG));
        }
        belief.restrict(hq[0], Domain::not(FLAG)).unwrap();
        belief.propagate().unwrap();
        assert_eq!(belief.domain(hq[1]).single(), Some(FLAG));
    }
}

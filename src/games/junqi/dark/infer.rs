//! Exact inference over hidden ranks (`docs/design/junqi-dark.md` §3 and §4.2): a 12-bit
//! domain per piece, a binary constraint per combat, and the per-seat counts as a global
//! cardinality constraint, propagated to a fixpoint.
//!
//! - A combat's constraint is the table of `(attacker rank, defender rank)` pairs whose
//!   outcome under the combat rule (`position::survivor`) is the reported one, with the
//!   flag taken or not, and a removed piece being its seat's marshal exactly when the
//!   referee made that seat's flag public. Deriving the table from the rule keeps the combat rule in
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
//!
//! This file holds the facts and [`Belief`], their owner; the parts are in `infer/`:
//! `combat` (a combat's pair table, clauses, contradictions), `matching` (the counts as a
//! matching), `net` (domains and propagation) and `complete` (the exact search).

mod combat;
mod complete;
mod matching;
mod net;

use combat::support;
pub(super) use combat::{Clause, Pair, Pieces};
pub use combat::{Combat, Contradiction};
pub(super) use complete::{complete, coupled};
use matching::Matching;
pub(super) use matching::reaching;
pub(super) use net::Net;

use super::{Domain, PIECES, PieceId, SEAT_PIECES};
use crate::games::junqi::position::{COUNTS, RANKS};

/// No rank / no piece in the byte-sized tables.
const NONE: u8 = u8::MAX;

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
    use crate::games::junqi::Clash;
    use crate::games::junqi::position::MINE;
    use crate::games::junqi::position::{FLAG, MARSHAL};

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

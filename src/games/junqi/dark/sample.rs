//! Complete rank assignments (worlds) consistent with every hard fact, drawn without
//! failure or retry, each with an importance weight toward the target
//! `π(x) ∝ F(x) · exp(β · mines beside the flags) · Π_p exp(loglik[p][x_p])` over
//! consistent `x` (`docs/design/junqi-dark.md` §5; `F` is the lineup families' factor,
//! [`Families`], the second [`flag_mines`]).
//!
//! The draw fixes one piece at a time and only ever offers it ranks with which the rest
//! can still be completed, so it never backtracks:
//! 1. **Coupled pieces** first: hidden pieces joined by a combat to another hidden piece
//!    of another seat (enemy against partner in the dark game), and the pieces of a seat
//!    that must hold a mover because the seat was given the turn. A rank is offered when
//!    some completion of all coupled pieces has it. A completion is kept as a witness
//!    along the draw: the witness with this piece's rank changed, and at most one more
//!    piece changed to make up, is checked directly (pairs, clauses, seat counts); only
//!    when that fails does a depth-first search with propagation, tried first along the
//!    witness, decide.
//! 2. **The rest**, one seat at a time: only per-seat counts and domains bind them, and a
//!    rank is offered exactly when it lies on an alternating cycle through the piece's
//!    rank in the seat's current complete matching (see `infer`).
//!
//! The proposal weighs a rank by how many of it the seat has left unplaced times
//! `exp(loglik + tilt)` (the families' lean toward the habits);
//! `log_weight = ln π(x) − ln q(x)` corrects the difference to π (self-normalised
//! importance sampling; [`Sampler::draw`] turns weighted draws into equally weighted
//! worlds).

use super::evidence::{FLAG_PLACES, Families, flag_mines};
use super::infer::{Belief, Contradiction, Facts, Net, Pieces, complete, coupled, reaching};
use super::{Domain, InfoState, PIECES, PieceId, SEAT_PIECES};
use crate::games::junqi::position::RANKS;
use rand::rngs::StdRng;
use rand::{Rng, RngExt, SeedableRng};

/// Choices the completion searches of one draw may try, all together. Proving that no
/// completion has a rank can take a search exponential in the coupled pieces (a long game
/// has dozens); a rank not proven possible within the budget is not offered. The draw
/// still succeeds (a piece's rank in the current witness is always offered) and every
/// world still meets every hard fact; only worlds that need such a rank are never drawn.
const SEARCH_BUDGET: u64 = 2_000;

/// Swaps tried per open piece in [`Sampler::shuffle`].
const SWAPS_PER_PIECE: usize = 4;

/// Steps of a chain ([`Sampler::draw`]) per fresh draw offered to it. A fresh draw and
/// the weight of the state it is weighed against cost a walk each, three quarters of the
/// engine's time late in a game, and late in a game fewer than one in a hundred is
/// taken: the chain moves by its swaps.
const FRESH_EVERY: usize = 4;

/// Fresh draws offered to a new chain before its first world.
const BURN_IN: usize = 16;

/// A rank per piece, indexed by [`PieceId`](super::PieceId) (`u8::MAX` for pieces of a
/// seat absent from the setup).
pub type Assignment = [u8; PIECES];

/// One drawn world and its importance weight (natural log, up to a constant shared by all
/// samples of one sampler).
#[derive(Clone, Debug)]
pub struct Sample {
    pub ranks: Assignment,
    pub log_weight: f64,
}

/// The state of a chain of worlds ([`Sampler::draw`]), kept from one batch of worlds to
/// the next.
#[derive(Clone, Debug)]
pub struct Chain {
    state: Sample,
    /// Whether swaps have moved `state` since its weight was found: only a fresh draw
    /// needs the weight, so it is found again then.
    stale: bool,
    steps: usize,
}

/// Draws [`Sample`]s for one belief.
#[derive(Clone, Debug)]
pub struct Sampler {
    /// The belief's domains and matchings at their fixpoint.
    base: Net,
    /// The pairs and clauses among open pieces, and the counts.
    coupling: Facts,
    /// The open pieces of `coupling`, tightest domain first.
    coupled: Vec<u8>,
    /// Per seat, bit `k` when its `k`-th piece is coupled.
    coupled_mask: [u32; 4],
    /// The other pieces not fixed in `base`, by seat, tightest domain first.
    rest: Vec<u8>,
    /// The open pieces (coupled and rest), by seat.
    open: Vec<u8>,
    /// Per seat, the range of `open` holding its pieces.
    open_of_seat: [(usize, usize); 4],
    /// One consistent assignment of every piece fixed or coupled.
    witness: Assignment,
    loglik: Box<[[f64; RANKS]; PIECES]>,
    /// `exp(loglik + tilt)`: the proposal's weights.
    weight: Box<[[f64; RANKS]; PIECES]>,
    /// The lineup families' factor of the target.
    families: Families,
    /// The log-weight per mine on the flag's approaches ([`flag_mines`]): a term of the
    /// target that ties pieces together, so the walk's proposal leaves it to the
    /// importance weight and the swaps' acceptance.
    flag_mines: f64,
}

/// Per seat, the ranks not yet taken by a fixed piece.
fn ranks_left(net: &Net, counts: &[[u8; RANKS]; 4]) -> [[u8; RANKS]; 4] {
    let mut left = *counts;
    for (i, &d) in net.dom.iter().enumerate() {
        if let Some(r) = Domain(d).single() {
            let slot = &mut left[i / SEAT_PIECES][usize::from(r)];
            *slot = slot.saturating_sub(1);
        }
    }
    left
}

/// Index drawn with probability proportional to `weights`.
fn draw(rng: &mut (impl Rng + ?Sized), weights: &[f64; RANKS], total: f64) -> usize {
    let mut x = rng.random::<f64>() * total;
    let mut last = 0;
    for (r, &w) in weights.iter().enumerate() {
        if w > 0.0 {
            if x < w {
                return r;
            }
            x -= w;
            last = r;
        }
    }
    last
}

/// What [`Sampler::walk`] gives for a world it could not have drawn (one that needs a
/// rank [`SEARCH_BUDGET`] kept from being offered): weight zero, which sends a chain away
/// from it at its next step.
fn unreachable_world(follow: Option<&Assignment>) -> Sample {
    Sample {
        ranks: follow.copied().unwrap_or([u8::MAX; PIECES]),
        log_weight: f64::NEG_INFINITY,
    }
}

impl Sampler {
    /// A sampler for `belief` with soft evidence `loglik` (see [`InfoState::loglik`]),
    /// `flag_mines` per mine on the flag's approaches ([`Evidence::flag_mines`]) and the
    /// lineup `families`. Fails only when no assignment fits the belief at all.
    pub fn new(
        belief: &Belief,
        loglik: &[[f32; RANKS]; PIECES],
        flag_mines: f32,
        families: Families,
    ) -> Result<Sampler, Contradiction> {
        let all: Pieces = (0..PIECES)
            .filter(|&i| belief.exists(PieceId(i as u8)))
            .fold(0, |set, i| set | 1 << i);
        let mut base = belief.net.clone();
        base.propagate(&belief.facts, all)?;
        let (coupling, coupled) = coupled(&base, &belief.facts);
        let mut coupled_mask = [0u32; 4];
        for &p in &coupled {
            coupled_mask[usize::from(p) / SEAT_PIECES] |= 1 << (usize::from(p) % SEAT_PIECES);
        }
        let mut rest: Vec<u8> = (0..PIECES as u8)
            .filter(|&p| base.dom[usize::from(p)].count_ones() > 1 && !coupled.contains(&p))
            .collect();
        rest.sort_by_key(|&p| {
            let d = base.dom[usize::from(p)].count_ones();
            (usize::from(p) / SEAT_PIECES, d, p)
        });
        // The record was found consistent, so a completion exists and is worth any search.
        let mut unlimited = u64::MAX;
        let witness = complete(&base, &coupling, &coupled, None, &mut unlimited)
            .ok_or(Contradiction::NoAssignment)?;
        let mut log = Box::new([[0f64; RANKS]; PIECES]);
        let mut weight = Box::new([[0f64; RANKS]; PIECES]);
        for p in 0..PIECES {
            for r in 0..RANKS {
                log[p][r] = f64::from(loglik[p][r]);
                weight[p][r] = (log[p][r] + families.tilt[p][r]).exp();
            }
        }
        let mut open: Vec<u8> = coupled.iter().chain(&rest).copied().collect();
        open.sort_unstable();
        let mut open_of_seat = [(0, 0); 4];
        for (seat, range) in open_of_seat.iter_mut().enumerate() {
            let start = open.partition_point(|&p| usize::from(p) / SEAT_PIECES < seat);
            let end = open.partition_point(|&p| usize::from(p) / SEAT_PIECES <= seat);
            *range = (start, end);
        }
        Ok(Sampler {
            base,
            coupling,
            coupled,
            coupled_mask,
            rest,
            open,
            open_of_seat,
            witness,
            loglik: log,
            weight,
            families,
            flag_mines: f64::from(flag_mines),
        })
    }

    /// How many pieces each draw decides (the others are fixed by the facts).
    pub fn open_pieces(&self) -> usize {
        self.coupled.len() + self.rest.len()
    }

    /// How many of them are coupled across seats by combats or clauses.
    pub fn coupled_pieces(&self) -> usize {
        self.coupled.len()
    }

    /// Whether `ranks` still completes the coupled pieces from `net` when it differs from
    /// a completion only in the pieces of `changed` (at most two): only their pairs,
    /// clauses and seats' counts can break.
    fn still_holds(&self, net: &Net, ranks: &Assignment, changed: &[usize]) -> bool {
        self.links_hold(ranks, changed)
            && changed.iter().all(|&q| {
                let seat = q / SEAT_PIECES;
                net.counts_fit(
                    seat,
                    self.coupled_mask[seat],
                    ranks,
                    &self.coupling.counts[seat],
                )
            })
    }

    /// Whether the pairs and clauses that involve the pieces of `changed` hold in `ranks`.
    fn links_hold(&self, ranks: &Assignment, changed: &[usize]) -> bool {
        let involved = |q: usize| changed.contains(&q);
        let pairs_hold = self.coupling.pairs.iter().all(|pair| {
            let (a, d) = (usize::from(pair.attacker), usize::from(pair.defender));
            !(involved(a) || involved(d)) || pair.allows(ranks[a], ranks[d])
        });
        pairs_hold
            && self.coupling.clauses.iter().all(|c| {
                !c.members().any(involved) || c.members().any(|q| Domain::MOVERS.contains(ranks[q]))
            })
    }

    /// A completion of the coupled pieces from `net` with piece `p` given rank `r`, made
    /// from `witness` (a completion) by changing `p` and at most one more piece: a piece
    /// of `p`'s seat holding `r` takes `p`'s old rank (for the counts), or a combat partner
    /// of `p` takes another rank (for the pair). Each candidate is checked exactly; `None`
    /// leaves the question to the search.
    fn repair(&self, net: &Net, witness: &Assignment, p: usize, r: u8) -> Option<Assignment> {
        let mut ranks = *witness;
        ranks[p] = r;
        if self.still_holds(net, &ranks, &[p]) {
            return Some(ranks);
        }
        let old = witness[p];
        let seat = p / SEAT_PIECES;
        for &q in &self.coupled {
            let q = usize::from(q);
            if q != p && q / SEAT_PIECES == seat && witness[q] == r && net.dom[q] & (1 << old) != 0
            {
                ranks[q] = old;
                if self.still_holds(net, &ranks, &[p, q]) {
                    return Some(ranks);
                }
                ranks[q] = r;
            }
        }
        for pair in &self.coupling.pairs {
            let (a, d) = (usize::from(pair.attacker), usize::from(pair.defender));
            let q = match (a == p, d == p) {
                (true, _) => d,
                (_, true) => a,
                _ => continue,
            };
            let kept = ranks[q];
            for s in Domain(net.dom[q]).ranks().filter(|&s| s != kept) {
                ranks[q] = s;
                if self.still_holds(net, &ranks, &[p, q]) {
                    return Some(ranks);
                }
            }
            ranks[q] = kept;
        }
        None
    }

    /// A new chain of worlds: a first draw, then [`BURN_IN`] fresh draws offered to it.
    pub fn chain(&self, rng: &mut (impl Rng + ?Sized)) -> Chain {
        let mut chain = Chain {
            state: self.sample(rng),
            stale: false,
            steps: 0,
        };
        self.draw(&mut chain, BURN_IN * FRESH_EVERY, rng);
        chain
    }

    /// A chain that goes on from `earlier`'s world (a chain of an earlier belief in the
    /// same game, whose pieces are the same), if that world meets every hard fact of this
    /// belief: a world the chain could be in, so it needs no burn-in.
    pub fn resume(&self, earlier: &Chain) -> Option<Chain> {
        let ranks = &earlier.state.ranks;
        // A seat the earlier setup left out has no ranks to go on from.
        if self
            .open
            .iter()
            .any(|&p| usize::from(ranks[usize::from(p)]) >= RANKS)
        {
            return None;
        }
        // The walk does not draw when it follows a world; its generator goes unused.
        let mut unused = StdRng::seed_from_u64(0);
        let state = self.walk(&mut unused, Some(ranks));
        state.log_weight.is_finite().then_some(Chain {
            state,
            stale: false,
            steps: 0,
        })
    }

    /// The next `count` worlds of a Markov chain whose stationary law is π: they are
    /// equally weighted. Every step is a [`Sampler::shuffle`]; every [`FRESH_EVERY`]-th
    /// begins with an independent Metropolis–Hastings move (a fresh draw replaces the
    /// state with probability `min(1, w(new) / w(state))`, `w` the importance weight).
    /// Importance weights alone left a search late in a game a third of its worlds'
    /// worth, the few heavy worlds counting for all; the chain's worlds count alike.
    pub fn draw(
        &self,
        chain: &mut Chain,
        count: usize,
        rng: &mut (impl Rng + ?Sized),
    ) -> Vec<Assignment> {
        (0..count)
            .map(|_| {
                if chain.steps.is_multiple_of(FRESH_EVERY) {
                    let state = &mut chain.state;
                    if chain.stale {
                        state.log_weight = self.walk(rng, Some(&state.ranks)).log_weight;
                        chain.stale = false;
                    }
                    let fresh = self.sample(rng);
                    if rng.random::<f64>().ln() < fresh.log_weight - state.log_weight {
                        *state = fresh;
                    }
                }
                chain.steps += 1;
                chain.stale |= self.shuffle(&mut chain.state.ranks, rng);
                chain.state.ranks
            })
            .collect()
    }

    /// Moves `ranks` along a Markov chain that leaves the target π unchanged: swaps of
    /// two open pieces of one seat (so the counts hold), kept when both domains and every
    /// pair and clause of the two still hold, with Metropolis' acceptance of the change in
    /// soft evidence. [`SWAPS_PER_PIECE`] tries per open piece. Says whether any was kept.
    pub fn shuffle(&self, ranks: &mut Assignment, rng: &mut (impl Rng + ?Sized)) -> bool {
        let open = &self.open;
        let mut moved = false;
        if open.len() < 2 {
            return moved;
        }
        let families = &self.families;
        let mut habit_sum = [0.0; 4];
        for (seat, sum) in habit_sum.iter_mut().enumerate() {
            if families.weighs(seat) {
                *sum = families.habit_sum(ranks, seat);
            }
        }
        for _ in 0..open.len() * SWAPS_PER_PIECE {
            let p = usize::from(open[rng.random_range(0..open.len())]);
            let seat = p / SEAT_PIECES;
            let (start, end) = self.open_of_seat[seat];
            if end - start < 2 {
                continue;
            }
            let q = usize::from(open[rng.random_range(start..end)]);
            let (rp, rq) = (ranks[p], ranks[q]);
            if rp == rq || self.base.dom[p] & (1 << rq) == 0 || self.base.dom[q] & (1 << rp) == 0 {
                continue;
            }
            let log = &self.loglik;
            let (rpi, rqi) = (usize::from(rp), usize::from(rq));
            let mut change = log[p][rqi] + log[q][rpi] - log[p][rpi] - log[q][rqi];
            let mut new_sum = habit_sum[seat];
            if families.weighs(seat) {
                let habit = &families.habit;
                new_sum += habit[p][rqi] + habit[q][rpi] - habit[p][rpi] - habit[q][rqi];
                change += families.seat_term(new_sum) - families.seat_term(habit_sum[seat]);
            }
            let joint = self.flag_mines != 0.0
                && (FLAG_PLACES >> (p % SEAT_PIECES) | FLAG_PLACES >> (q % SEAT_PIECES)) & 1 != 0;
            let before = if joint { flag_mines(ranks, seat) } else { 0 };
            ranks[p] = rq;
            ranks[q] = rp;
            if joint {
                let after = flag_mines(ranks, seat);
                change += self.flag_mines * (f64::from(after) - f64::from(before));
            }
            if change < 0.0 && rng.random::<f64>() >= change.exp() {
                ranks[p] = rp;
                ranks[q] = rq;
                continue;
            }
            if self.links_hold(ranks, &[p, q]) {
                moved = true;
                habit_sum[seat] = new_sum;
            } else {
                ranks[p] = rp;
                ranks[q] = rq;
            }
        }
        moved
    }

    /// Draws one world.
    pub fn sample(&self, rng: &mut (impl Rng + ?Sized)) -> Sample {
        self.walk(rng, None)
    }

    /// Draws one world, or with `follow` retraces the draw of that world to find its
    /// weight: the same offers, each piece given `follow`'s rank.
    fn walk(&self, rng: &mut (impl Rng + ?Sized), follow: Option<&Assignment>) -> Sample {
        let counts = &self.coupling.counts;
        let mut net = self.base.clone();
        let mut log_q = 0.0;
        let mut weights = [0f64; RANKS];
        // Coupled pieces: a rank is offered when some completion of the coupled pieces
        // has it: the witness with this piece changed, else one found by search.
        let mut witness = self.witness;
        let mut witnesses = [[0u8; PIECES]; RANKS];
        let mut budget = SEARCH_BUDGET;
        for &p in &self.coupled {
            let p = usize::from(p);
            if net.dom[p].count_ones() == 1 {
                continue;
            }
            let seat = p / SEAT_PIECES;
            let left = ranks_left(&net, counts)[seat];
            let mut total = 0.0;
            for r in 0..RANKS as u8 {
                let ri = usize::from(r);
                weights[ri] = 0.0;
                if net.dom[p] & (1 << r) == 0 {
                    continue;
                }
                let completion = self.repair(&net, &witness, p, r).or_else(|| {
                    let mut trial = net.clone();
                    trial.dom[p] = 1 << r;
                    trial.propagate(&self.coupling, 1 << p).ok().and_then(|()| {
                        complete(
                            &trial,
                            &self.coupling,
                            &self.coupled,
                            Some(&witness),
                            &mut budget,
                        )
                    })
                });
                if let Some(found) = completion {
                    witnesses[ri] = found;
                    weights[ri] = f64::from(left[ri]) * self.weight[p][ri];
                    total += weights[ri];
                }
            }
            let r = follow.map_or_else(|| draw(rng, &weights, total), |x| usize::from(x[p]));
            if weights[r] == 0.0 {
                return unreachable_world(follow);
            }
            log_q += (weights[r] / total).ln();
            witness = witnesses[r];
            net.dom[p] = 1 << r;
            net.propagate(&self.coupling, 1 << p)
                .expect("a rank with a completion propagates");
        }
        // The rest: feasible ranks from the seat's matching.
        let mut left = ranks_left(&net, counts);
        for &p in &self.rest {
            let p = usize::from(p);
            if net.dom[p].count_ones() == 1 {
                continue;
            }
            let (seat, k) = (p / SEAT_PIECES, p % SEAT_PIECES);
            let base = seat * SEAT_PIECES;
            let dom = &mut net.dom[base..base + SEAT_PIECES];
            let matching = &mut net.matching[seat];
            let feasible = dom[k] & reaching(&matching.moves(dom), matching.rank[k]);
            let mut total = 0.0;
            for r in 0..RANKS {
                weights[r] = if feasible & (1 << r) != 0 {
                    f64::from(left[seat][r]) * self.weight[p][r]
                } else {
                    0.0
                };
                total += weights[r];
            }
            let r = follow.map_or_else(|| draw(rng, &weights, total), |x| usize::from(x[p]));
            if weights[r] == 0.0 {
                return unreachable_world(follow);
            }
            log_q += (weights[r] / total).ln();
            left[seat][r] -= 1;
            dom[k] = 1 << r;
            if usize::from(matching.rank[k]) != r {
                matching.release(k);
                let repaired = matching.augment(dom, &counts[seat], k);
                debug_assert!(repaired, "a feasible rank keeps the matching complete");
            }
        }
        let ranks = net.fixed();
        let log_pi: f64 = self
            .coupled
            .iter()
            .chain(&self.rest)
            .map(|&p| self.loglik[usize::from(p)][usize::from(ranks[usize::from(p)])])
            .sum::<f64>()
            + self.flag_mines * f64::from((0..4).map(|seat| flag_mines(&ranks, seat)).sum::<u32>())
            + self.families.log_prior(&ranks);
        Sample {
            ranks,
            log_weight: log_pi - log_q,
        }
    }
}

impl InfoState {
    /// A sampler for this state's belief with the given soft evidence.
    pub fn sampler(&self, evidence: &super::Evidence) -> Sampler {
        let families = self.families(evidence);
        Sampler::new(
            self.belief(),
            &self.loglik(evidence),
            evidence.flag_mines,
            families,
        )
        .expect("a state that was built has a consistent assignment")
    }
}

//! Soft evidence about hidden ranks: weights that make some consistent worlds likelier
//! than others, never a hard exclusion (`docs/design/junqi-dark.md` §4.3: only hard facts
//! prune). Each kind has a weight in [`Evidence`].
//!
//! - **Lineup families** ([`Families`]): a seat's lineup either follows the engine's own
//!   habits or was drawn uniformly from the legal lineups, with prior probability
//!   `habits` for the first. The habit family puts a rank on a slot as often as the
//!   engine's `go deploy` does (mixed with [`SMOOTHING`] of a uniform choice), its
//!   lineups weighed in proportion to the product of those shares over the legal ones.
//!   The mixture is a factor of each world's weight, per seat
//!   `α·h(x)/Z_h + (1 − α)/N` (`Z_h` the habit family's total over the legal lineups, `N`
//!   their number): a world whose seat breaks the habits is weighed as a uniform lineup,
//!   and what is known of a seat (ranks revealed, pieces that moved) moves the odds of the
//!   two families in every world at once. Habits trusted half per piece instead let their
//!   pull add up over the 25 pieces of lineups that had none of them.
//! - **Stillness**: an unmoved piece that could have stepped off for `t` plies of its
//!   seat is less likely to be a piece that moves: `-stillness * t` for officers and
//!   engineers, half that for bombs (which move less), nothing for mines and flags;
//!   clipped to −4 per rank.
//! - **Mines on the flag's approaches**. Lineups put mines beside the flag, on its
//!   back-row corner and on the station in front of its HQ, and rarely beside the other
//!   HQ; per-slot habits cannot say so, and left the flag's HQ a coin toss all game long.
//!   The sampler's target gains `flag_mines` per mine on those two stations of the HQ
//!   holding the flag ([`flag_mines`]), so pieces seen to move beside one HQ point to the
//!   other.

use super::{Domain, InfoState, LINEUP_SLOTS, PIECES, PieceId, SEAT_PIECES};
use crate::games::junqi::deploy;
use crate::games::junqi::position::{BOMB, COUNTS, FLAG, MINE, RANKS};
use once_cell::sync::Lazy;
use rand::SeedableRng;
use rand::rngs::StdRng;

/// The weights of the kinds of soft evidence.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Evidence {
    /// Prior probability that a seat's lineup follows the engine's habits rather than
    /// being drawn uniformly from the legal lineups (0 = ignore habits).
    pub habits: f32,
    /// Log-weight per ply of stillness taken off the ranks that move (0 = ignore).
    pub stillness: f32,
    /// Log-weight per mine on an approach of the flag's HQ ([`flag_mines`]; 0 = ignore).
    pub flag_mines: f32,
}

impl Evidence {
    /// No soft evidence: every consistent world equally likely.
    pub const NONE: Evidence = Evidence {
        habits: 0.0,
        stillness: 0.0,
        flag_mines: 0.0,
    };
}

impl Default for Evidence {
    /// Even odds between the lineup families; a piece that sat still for 100 of its
    /// seat's plies is e^3 ≈ 20 times likelier to be a mine or flag than an officer,
    /// other things equal; each mine on the approaches of an HQ makes the flag
    /// e^1.5 ≈ 4.5 times likelier there, the weight under which the true ranks of 30
    /// recorded games were likeliest (`lab/benchmarks.md`, the dark game's twenty-first
    /// step).
    fn default() -> Evidence {
        Evidence {
            habits: 0.5,
            stillness: 0.03,
            flag_mines: 1.5,
        }
    }
}

/// The lineup place (`k`) of a slot.
const fn k_of(slot: u8) -> usize {
    let mut k = 0;
    while LINEUP_SLOTS[k] != slot {
        k += 1;
    }
    k
}

/// Each HQ's lineup place with its own approaches: the back-row corner beside it and the
/// station in front. The middle of the back row is beside both HQs and tells them apart no
/// more, so it is left out.
const FLAG_APPROACHES: [(usize, [usize; 2]); 2] = [
    (k_of(26), [k_of(25), k_of(21)]),
    (k_of(28), [k_of(29), k_of(23)]),
];

/// Bit `k` set for the lineup places [`flag_mines`] looks at: a swap that touches none of
/// them leaves it unchanged.
pub(super) const FLAG_PLACES: u32 = {
    let mut mask = 0;
    let mut i = 0;
    while i < 2 {
        mask |= 1 << FLAG_APPROACHES[i].0;
        mask |= 1 << FLAG_APPROACHES[i].1[0];
        mask |= 1 << FLAG_APPROACHES[i].1[1];
        i += 1;
    }
    mask
};

/// Mines of `seat` on the approaches of the HQ that holds its flag in `ranks`, by rank
/// per piece (`ranks[25 * seat + k]`); 0 when its flag is on neither HQ.
pub(super) fn flag_mines(ranks: &[u8], seat: usize) -> u32 {
    let of = |k: usize| ranks[seat * SEAT_PIECES + k];
    FLAG_APPROACHES
        .iter()
        .find(|&&(hq, _)| of(hq) == FLAG)
        .map_or(0, |(_, approaches)| {
            approaches.iter().filter(|&&k| of(k) == MINE).count() as u32
        })
}

/// Clip of the stillness log-weight.
const CLIP: f32 = 4.0;
/// Lineups drawn to estimate the habits.
const LINEUPS: usize = 4000;
/// Share of a uniform choice among a slot's legal ranks in the habit family, so that a
/// rank the engine's lineups never put on a slot weighs against the habits (about ln 0.1
/// per piece) rather than ruling them out.
const SMOOTHING: f64 = 0.1;

/// `SHARES[slot][rank]`: how often the engine's own `go deploy` puts `rank` on `slot`.
static SHARES: Lazy<[[f64; RANKS]; 30]> = Lazy::new(|| {
    let mut rng = StdRng::seed_from_u64(0x6861_6269_7473); // "habits"
    let mut seen = [[0u32; RANKS]; 30];
    for _ in 0..LINEUPS {
        for (k, letter) in deploy(&mut rng).bytes().enumerate() {
            seen[usize::from(LINEUP_SLOTS[k])][usize::from(letter - b'a')] += 1;
        }
    }
    seen.map(|row| row.map(|n| f64::from(n) / LINEUPS as f64))
});

/// `HABITS[slot][rank]`: how the sampler's proposal leans toward the habits,
/// `ln(12 * (p(r|s)/2 + 1/24))`: half and half with a uniform choice, between `ln 0.5`
/// and `ln 6.5`, so that it draws worlds of both families.
static HABITS: Lazy<[[f64; RANKS]; 30]> = Lazy::new(|| {
    SHARES.map(|row| row.map(|p| (RANKS as f64 * (0.5 * p + 0.5 / RANKS as f64)).ln()))
});

/// Per lineup place `k` and rank `r`, `value(slot, r, choices)` where `r` may stand on
/// the place's slot (of `choices` ranks that may), zero elsewhere: the weights
/// [`log_total`] sums over.
fn on_legal_ranks(value: impl Fn(usize, usize, f64) -> f64) -> [[f64; RANKS]; SEAT_PIECES] {
    let mut table = [[0f64; RANKS]; SEAT_PIECES];
    for (k, row) in table.iter_mut().enumerate() {
        let slot = usize::from(LINEUP_SLOTS[k]);
        let legal = Domain::deployable(slot);
        let choices = legal.ranks().count() as f64;
        for r in legal.ranks() {
            let r = usize::from(r);
            row[r] = value(slot, r, choices);
        }
    }
    table
}

/// The habit family's log-share of each rank on each lineup place (−∞ where the rank may
/// not stand), and the log of the family's total over the legal lineups, `ln Z_h`.
static HABIT_FAMILY: Lazy<([[f64; RANKS]; SEAT_PIECES], f64)> = Lazy::new(|| {
    let share = on_legal_ranks(|slot, r, choices| {
        (1.0 - SMOOTHING) * SHARES[slot][r] + SMOOTHING / choices
    });
    let log_share = share.map(|row| row.map(f64::ln));
    (log_share, log_total(&share))
});

/// `ln N`, the log of the number of legal lineups.
static LOG_LINEUPS: Lazy<f64> = Lazy::new(|| log_total(&on_legal_ranks(|_, _, _| 1.0)));

/// `ln Σ_x Π_k w[k][x_k]` over the lineups `x` that hold each rank as often as a seat has
/// it (`w[k][r]` zero where rank `r` may not stand on place `k`): the places filled in
/// lineup order, the state being how many of each rank are placed, about half a million
/// states.
fn log_total(w: &[[f64; RANKS]; SEAT_PIECES]) -> f64 {
    let mut radix = [0usize; RANKS];
    let mut states = 1;
    for (r, step) in radix.iter_mut().enumerate() {
        *step = states;
        states *= usize::from(COUNTS[r]) + 1;
    }
    let mut ways = vec![0f64; states];
    ways[0] = 1.0;
    for s in 0..states - 1 {
        let v = ways[s];
        if v == 0.0 {
            continue;
        }
        let mut placed = [0u8; RANKS];
        let mut rest = s;
        for (r, n) in placed.iter_mut().enumerate() {
            let size = usize::from(COUNTS[r]) + 1;
            *n = (rest % size) as u8;
            rest /= size;
        }
        let k: usize = placed.iter().map(|&n| usize::from(n)).sum();
        for r in 0..RANKS {
            if placed[r] < COUNTS[r] {
                ways[s + radix[r]] += v * w[k][r];
            }
        }
    }
    ways[states - 1].ln()
}

/// `ln(e^a + e^b)`.
fn log_add_exp(a: f64, b: f64) -> f64 {
    let (high, low) = if a > b { (a, b) } else { (b, a) };
    if low == f64::NEG_INFINITY {
        high
    } else {
        high + (low - high).exp().ln_1p()
    }
}

/// The lineup families' factor of the sampler's target (see the module docs): per seat
/// weighed, `ln(α·h(x)/Z_h + (1 − α)/N)`.
#[derive(Clone, Debug)]
pub struct Families {
    /// `ln h(rank | slot)` of each piece under the habit family.
    pub(super) habit: Box<[[f64; RANKS]; PIECES]>,
    /// `ln α − ln Z_h`.
    pub(super) habit_offset: f64,
    /// `ln(1 − α) − ln N`.
    pub(super) uniform_offset: f64,
    /// Bit `seat` for each seat whose lineup is weighed: the others are fixed or absent.
    pub(super) seats: u8,
    /// How the proposal leans toward the habits per piece and rank (added to the
    /// log-weights the proposal draws from; the target does not see it).
    pub(super) tilt: Box<[[f64; RANKS]; PIECES]>,
}

impl Families {
    /// No seat weighed: the factor is 1 in every world.
    pub fn none() -> Families {
        Families {
            habit: Box::new([[0.0; RANKS]; PIECES]),
            habit_offset: f64::NEG_INFINITY,
            uniform_offset: 0.0,
            seats: 0,
            tilt: Box::new([[0.0; RANKS]; PIECES]),
        }
    }

    /// Whether `seat`'s lineup is weighed.
    pub(super) fn weighs(&self, seat: usize) -> bool {
        self.seats >> seat & 1 != 0
    }

    /// `ln h(x)` of `seat`'s lineup in `ranks`, up to `Z_h`.
    pub(super) fn habit_sum(&self, ranks: &[u8], seat: usize) -> f64 {
        let base = seat * SEAT_PIECES;
        (base..base + SEAT_PIECES)
            .map(|p| self.habit[p][usize::from(ranks[p])])
            .sum()
    }

    /// A seat's factor from its [`Families::habit_sum`].
    pub(super) fn seat_term(&self, habit_sum: f64) -> f64 {
        log_add_exp(self.habit_offset + habit_sum, self.uniform_offset)
    }

    /// The log of the whole factor for `ranks`.
    pub(super) fn log_prior(&self, ranks: &[u8]) -> f64 {
        (0..4)
            .filter(|&seat| self.weighs(seat))
            .map(|seat| self.seat_term(self.habit_sum(ranks, seat)))
            .sum()
    }
}

impl InfoState {
    /// Per-piece log-weights of each rank from stillness (zero for pieces that do not
    /// exist). Only their differences between ranks of one piece matter.
    pub fn loglik(&self, evidence: &Evidence) -> Box<[[f32; RANKS]; PIECES]> {
        let mut table = Box::new([[0f32; RANKS]; PIECES]);
        for (i, row) in table.iter_mut().enumerate() {
            let p = PieceId(i as u8);
            if !self.exists(p) || self.has_moved(p) {
                continue;
            }
            let still = evidence.stillness * f32::from(self.still_plies(p));
            for (r, w) in row.iter_mut().enumerate() {
                let moving = match r as u8 {
                    MINE | FLAG => 0.0,
                    BOMB => 0.5 * still,
                    _ => still,
                };
                *w = (-moving).clamp(-CLIP, CLIP);
            }
        }
        table
    }

    /// The lineup families under `evidence`, weighing every seat present whose ranks
    /// are hidden.
    pub fn families(&self, evidence: &Evidence) -> Families {
        let alpha = f64::from(evidence.habits);
        if alpha <= 0.0 {
            return Families::none();
        }
        let (log_share, log_z) = &*HABIT_FAMILY;
        let mut families = Families {
            habit: Box::new([[0.0; RANKS]; PIECES]),
            habit_offset: alpha.ln() - log_z,
            uniform_offset: (1.0 - alpha).ln() - *LOG_LINEUPS,
            seats: 0,
            tilt: Box::new([[0.0; RANKS]; PIECES]),
        };
        for seat in (0..4).filter(|&s| !self.is_known(s)) {
            let p = PieceId::new(seat, 0);
            if !self.exists(p) {
                continue;
            }
            families.seats |= 1 << seat;
            for (k, shares) in log_share.iter().enumerate() {
                let p = PieceId::new(seat, k);
                families.habit[p.index()] = *shares;
                families.tilt[p.index()] = HABITS[p.slot()];
            }
        }
        families
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::junqi::dark::{Info, Rules};

    #[test]
    fn habits_favour_the_flag_in_an_hq_and_stay_soft() {
        let hq = &HABITS[26];
        assert!(hq[usize::from(FLAG)] > 1.0, "{hq:?}");
        for row in HABITS.iter() {
            for &w in row {
                assert!((0.5f64.ln() - 1e-9..=6.5f64.ln() + 1e-9).contains(&w));
            }
        }
    }

    #[test]
    fn lineups_are_counted_exactly_and_the_engines_fit_its_habits() {
        // The flag on one of two HQs, three mines on the other nine stations of the last
        // two rows, two bombs on the other sixteen stations behind the front row, and the
        // other nineteen pieces anywhere left: 19! / (2!^4 3!^3) ways.
        let choose = |n: f64, k: f64| -> f64 {
            (0..k as u32)
                .map(|i| (n - f64::from(i)) / (f64::from(i) + 1.0))
                .product()
        };
        let rest: f64 = (1..=19).map(f64::from).product::<f64>() / (16.0 * 216.0);
        let expected = 2.0 * choose(9.0, 3.0) * choose(16.0, 2.0) * rest;
        assert!(
            (*LOG_LINEUPS - expected.ln()).abs() < 1e-9,
            "{} {}",
            *LOG_LINEUPS,
            expected.ln()
        );
        // The engine's own lineups are far likelier under the habit family than drawn
        // uniformly.
        let mut rng = StdRng::seed_from_u64(1);
        let (log_share, log_z) = &*HABIT_FAMILY;
        for _ in 0..20 {
            let lineup = deploy(&mut rng);
            let habit: f64 = lineup
                .bytes()
                .enumerate()
                .map(|(k, letter)| log_share[k][usize::from(letter - b'a')])
                .sum();
            assert!(
                habit - log_z > 5.0 - *LOG_LINEUPS,
                "{lineup}: {}",
                habit - log_z
            );
        }
    }

    #[test]
    fn a_lineup_that_breaks_the_habits_weighs_as_a_uniform_one() {
        use crate::games::junqi::notation::parse_lineup;
        use rand::RngExt;
        let l = crate::games::junqi::DEFAULT_LINEUP;
        let state = InfoState::parse(
            &format!("setup S:{l} E:- N:{l} W:-"),
            "",
            Rules::default(),
            Info::DoubleOpen,
        )
        .unwrap();
        let families = state.families(&Evidence::default());
        assert_eq!(families.seats, 0b1010, "E and W hidden, S and N given");
        let uniform = 0.5f64.ln() - *LOG_LINEUPS;
        let (_, log_z) = &*HABIT_FAMILY;
        // E's lineup: the engine's own, then one that breaks its habits.
        let weigh = |lineup: &[u8]| {
            let mut ranks = [0u8; PIECES];
            for (k, &letter) in lineup.iter().enumerate() {
                ranks[SEAT_PIECES + k] = letter - b'a';
            }
            let habit = families.habit_sum(&ranks, 1);
            (habit - log_z, families.seat_term(habit))
        };
        let mut rng = StdRng::seed_from_u64(2);
        let own = deploy(&mut rng).into_bytes();
        let (fit, term) = weigh(&own);
        assert!(term > uniform + 4.0, "{term} against {uniform}");
        assert!((term - (0.5f64.ln() + fit).max(uniform)).abs() < 0.02);
        // Legal swaps that fit the habits worse, from the engine's own lineup.
        let mut worst = own.clone();
        for _ in 0..2000 {
            let (a, b) = (
                rng.random_range(0..SEAT_PIECES),
                rng.random_range(0..SEAT_PIECES),
            );
            let mut next = worst.clone();
            next.swap(a, b);
            let legal = parse_lineup(0, std::str::from_utf8(&next).unwrap()).is_ok();
            if legal && weigh(&next).0 < weigh(&worst).0 {
                worst = next;
            }
        }
        let (fit, term) = weigh(&worst);
        assert!(fit < -*LOG_LINEUPS - 5.0, "{fit}");
        assert!((term - uniform).abs() < 0.01, "{term} against {uniform}");
    }

    #[test]
    fn flag_mines_counts_the_mines_beside_the_flags_hq_only() {
        // The default lineup: the flag on slot 26 with a mine in front (slot 21) and a
        // major on the corner (slot 25); a mine in front of the other HQ (slot 23).
        let mut ranks = [u8::MAX; PIECES];
        for (k, letter) in crate::games::junqi::DEFAULT_LINEUP.bytes().enumerate() {
            ranks[SEAT_PIECES + k] = letter - b'a';
        }
        assert_eq!(flag_mines(&ranks, 1), 1);
        assert_eq!(flag_mines(&ranks, 0), 0, "a seat with no ranks");
        // The flag moved to the other HQ: the mine in front of it counts instead.
        let (hq, other) = (SEAT_PIECES + k_of(26), SEAT_PIECES + k_of(28));
        ranks.swap(hq, other);
        assert_eq!(flag_mines(&ranks, 1), 1);
        ranks[SEAT_PIECES + k_of(29)] = MINE;
        assert_eq!(flag_mines(&ranks, 1), 2);
        assert_eq!(FLAG_PLACES.count_ones(), 6);
    }

    #[test]
    fn stillness_weighs_against_movers_only() {
        let l = crate::games::junqi::DEFAULT_LINEUP;
        // S moves one piece back and forth; E passes. E's unmoved pieces gather stillness.
        let moves = "g6g7=m pass k12k11=m pass g7g6=m pass k11k12=m pass";
        let state = InfoState::parse(
            &format!("setup S:{l} E:- N:{l} W:-"),
            moves,
            Rules::default(),
            Info::DoubleOpen,
        )
        .unwrap();
        // E's front-row corner l7 can always go over the arc onto S's k6.
        let front = PieceId::new(1, 0);
        assert_eq!(state.still_plies(front), 2);
        let w = state.loglik(&Evidence {
            habits: 0.0,
            stillness: 1.0,
            flag_mines: 0.0,
        });
        let row = w[front.index()];
        assert_eq!(row[0], -2.0);
        assert_eq!(row[usize::from(BOMB)], -1.0);
        assert_eq!(row[usize::from(MINE)], 0.0);
        assert!(
            state
                .loglik(&Evidence::NONE)
                .iter()
                .flatten()
                .all(|&w| w == 0.0)
        );
    }
}

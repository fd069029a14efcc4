//! Soft evidence about hidden ranks: per-piece log-weights `loglik[piece][rank]` that make
//! some consistent worlds likelier than others, never a hard exclusion
//! (`docs/design/junqi-dark.md` §4.3: only hard facts prune).
//!
//! Two sources, each with a weight in [`Evidence`]:
//! - **Deployment habits**: how often a rank stands on a slot in lineups, estimated once
//!   from the engine's own `go deploy` ([`deploy`]), mixed half and half with a uniform
//!   choice so that an opponent with other habits is never ruled out: the log-weight of
//!   rank `r` on slot `s` is `ln(12 * (p(r|s)/2 + 1/24))`, between `ln 0.5` and `ln 6.5`.
//! - **Stillness**: an unmoved piece that could have stepped off for `t` plies of its
//!   seat is less likely to be a piece that moves: `-stillness * t` for officers and
//!   engineers, half that for bombs (which move less), nothing for mines and flags.
//!
//! The sum is clipped to ±4 per rank.
//!
//! A third kind ties pieces together and so is not per piece: **mines on the flag's
//! approaches**. Lineups put mines beside the flag, on its back-row corner and on the
//! station in front of its HQ, and rarely beside the other HQ; per-slot habits cannot say
//! so, and left the flag's HQ a coin toss all game long. The sampler's target gains
//! `flag_mines` per mine on those two stations of the HQ holding the flag
//! ([`flag_mines`]), so pieces seen to move beside one HQ point to the other.

use super::{InfoState, LINEUP_SLOTS, PIECES, PieceId, SEAT_PIECES};
use crate::games::junqi::deploy;
use crate::games::junqi::position::{BOMB, FLAG, MINE, RANKS};
use once_cell::sync::Lazy;
use rand::SeedableRng;
use rand::rngs::StdRng;

/// The weights of the two kinds of soft evidence.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Evidence {
    /// Multiplies the deployment-habit log-weights (0 = ignore habits).
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
    /// Habits at full weight; a piece that sat still for 100 of its seat's plies is
    /// e^3 ≈ 20 times likelier to be a mine or flag than an officer, other things equal;
    /// each mine on the approaches of an HQ makes the flag e^1.5 ≈ 4.5 times likelier
    /// there, the weight under which the true ranks of 30 recorded games were likeliest
    /// (`lab/benchmarks.md`, the dark game's twenty-first step).
    fn default() -> Evidence {
        Evidence {
            habits: 1.0,
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

/// Clip of every log-weight.
const CLIP: f32 = 4.0;
/// Lineups drawn to estimate the habits.
const LINEUPS: usize = 4000;

/// `HABITS[slot][rank]`: the deployment-habit log-weight (see the module docs).
static HABITS: Lazy<[[f32; RANKS]; 30]> = Lazy::new(|| {
    let mut rng = StdRng::seed_from_u64(0x6861_6269_7473); // "habits"
    let mut seen = [[0u32; RANKS]; 30];
    for _ in 0..LINEUPS {
        for (k, letter) in deploy(&mut rng).bytes().enumerate() {
            seen[usize::from(LINEUP_SLOTS[k])][usize::from(letter - b'a')] += 1;
        }
    }
    let mut table = [[0f32; RANKS]; 30];
    for (slot, row) in table.iter_mut().enumerate() {
        for (r, w) in row.iter_mut().enumerate() {
            let p = seen[slot][r] as f32 / LINEUPS as f32;
            *w = (RANKS as f32 * (0.5 * p + 0.5 / RANKS as f32)).ln();
        }
    }
    table
});

impl InfoState {
    /// Per-piece log-weights of each rank under `evidence` (zero for pieces that do not
    /// exist). Only their differences between ranks of one piece matter.
    pub fn loglik(&self, evidence: &Evidence) -> Box<[[f32; RANKS]; PIECES]> {
        let mut table = Box::new([[0f32; RANKS]; PIECES]);
        for (i, row) in table.iter_mut().enumerate() {
            let p = PieceId(i as u8);
            if !self.exists(p) {
                continue;
            }
            let habits = &HABITS[p.slot()];
            let still = if self.has_moved(p) {
                0.0
            } else {
                evidence.stillness * f32::from(self.still_plies(p))
            };
            for (r, w) in row.iter_mut().enumerate() {
                let moving = match r as u8 {
                    MINE | FLAG => 0.0,
                    BOMB => 0.5 * still,
                    _ => still,
                };
                *w = (evidence.habits * habits[r] - moving).clamp(-CLIP, CLIP);
            }
        }
        table
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
                assert!((0.5f32.ln() - 1e-6..=6.5f32.ln() + 1e-6).contains(&w));
            }
        }
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

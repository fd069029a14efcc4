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

use super::{InfoState, LINEUP_SLOTS, PIECES, PieceId};
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
}

impl Evidence {
    /// No soft evidence: every consistent world equally likely.
    pub const NONE: Evidence = Evidence {
        habits: 0.0,
        stillness: 0.0,
    };
}

impl Default for Evidence {
    /// Habits at full weight; a piece that sat still for 100 of its seat's plies is
    /// e^3 ≈ 20 times likelier to be a mine or flag than an officer, other things equal.
    fn default() -> Evidence {
        Evidence {
            habits: 1.0,
            stillness: 0.03,
        }
    }
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

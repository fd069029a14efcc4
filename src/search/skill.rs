//! Playing below full strength, for people: `Skill Level` (or `UCI_Elo`) becomes a
//! shallow search that picks at random among its best few lines, within a margin of the
//! best.

use crate::core::Score;

/// The strength a person asked for: the search stops at a shallow depth and picks at
/// random among its best few lines, within a margin of the best, so that it errs the
/// way a weaker player does (a pawn here and there), never by giving away a piece or a
/// mate it has seen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Skill {
    /// The deepest iteration.
    pub depth: u32,
    /// How far below the best line a chosen line may score, and the spread of the random
    /// bonus each line draws, in centipawns.
    pub weakness: Score,
    /// Seeds the random choice; a new one every move.
    pub seed: u64,
}

/// The `Skill Level` that is full strength.
pub const FULL_SKILL: u8 = 20;
/// Lines a weakened search chooses among.
pub(super) const SKILL_CANDIDATES: usize = 4;
/// Centipawns of randomness, and of the widest loss it may choose, per level below full.
const SKILL_STEP: f64 = 10.0;

impl Skill {
    /// The weakening at `level` on `Skill Level`'s scale, 0 to [`FULL_SKILL`]; `None` at
    /// full strength. A whole level `l` stops at depth `l + 1` with a weakness of
    /// 10 cp × (20 − `l`). A fractional level (what `UCI_Elo` maps to) lies between its
    /// two neighbours: the weakness in proportion, and the depth of the level above on
    /// that fraction of the moves (level 4.3 searches 6 plies on 30% of the moves, 5 on
    /// the rest), so that strength grows smoothly with the level instead of in steps of
    /// a ply. `seed` draws that depth and then the choice of line.
    pub fn at_level(level: f64, seed: u64) -> Option<Skill> {
        use rand::{RngExt, SeedableRng};
        let full = f64::from(FULL_SKILL);
        if level.is_nan() || level >= full {
            return None;
        }
        let level = level.max(0.0);
        let whole = level.floor();
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        let deeper = rng.random::<f64>() < level - whole;
        Some(Skill {
            depth: 1 + whole as u32 + u32::from(deeper),
            weakness: ((full - level) * SKILL_STEP).round() as Score,
            seed: rng.random(),
        })
    }

    /// Which of a few candidate moves to play, given each one's score (`None` for one
    /// that may not be chosen, such as a line whose iteration was cut short): each draws
    /// a random bonus of up to [`Skill::weakness`] and the highest total wins. So a move
    /// more than that below the best (a piece or a seen mate thrown away) never does.
    pub(crate) fn choose(self, scores: impl IntoIterator<Item = Option<Score>>) -> usize {
        use rand::{RngExt, SeedableRng};
        let mut rng = rand::rngs::StdRng::seed_from_u64(self.seed);
        let mut chosen = 0;
        let mut top = Score::MIN;
        for (index, score) in scores.into_iter().enumerate() {
            let Some(score) = score else { continue };
            let value = score + rng.random_range(0..=self.weakness);
            if value > top {
                top = value;
                chosen = index;
            }
        }
        chosen
    }
}

//! `UCI_Elo` for chess: which `Skill Level` plays at a given Elo on Stockfish 15.1's own
//! `UCI_Elo` scale at 10+0.1 (`docs/strength.md` has every match behind these numbers).
//!
//! The search weakens itself the same way at every level ([`crate::search::Skill`]): it
//! stops at depth `level + 1` and picks among its best four lines with a random bonus of
//! up to 10 cp × (20 − level), a fractional level lying between its neighbours. What is
//! left to measure is the Elo each level plays at. Matches against Stockfish put it on a
//! curve that climbs [`ELO_PER_LEVEL`] from level 0, less [`ELO_LOST_PER_LEVEL`] for each
//! level already climbed: a deeper search gains less per ply, and at 10+0.1 the clock,
//! not the level, caps the depth of the upper levels, which then gain only by choosing
//! less at random. This module inverts that curve.

use crate::core::EloScale;

/// The Elo of `Skill Level` 0 (depth 1, a random bonus of up to 200 cp).
const ELO_AT_LEVEL_0: f64 = 1280.0;
/// What the first level adds.
const ELO_PER_LEVEL: f64 = 89.0;
/// How much less each further level adds.
const ELO_LOST_PER_LEVEL: f64 = 5.6;

/// The calibrated scale. Its lowest Elo is Stockfish's lowest. Its highest is where the
/// curve still climbs: it tops out near 1990 at level 16, and level 17.8 measured 1980,
/// far short of Stockfish's highest, 2850 (which even the full-strength search lost 5 games
/// of 5 to at 10+0.1).
pub const SCALE: EloScale = EloScale {
    min: 1350,
    max: 1900,
    level: level_for_elo,
};

/// The Elo `level` plays at: `ELO_AT_LEVEL_0 + a·level − b·level²/2` with `a` =
/// [`ELO_PER_LEVEL`] and `b` = [`ELO_LOST_PER_LEVEL`].
pub fn elo_at_level(level: f64) -> f64 {
    ELO_AT_LEVEL_0 + ELO_PER_LEVEL * level - ELO_LOST_PER_LEVEL * level * level / 2.0
}

/// The `Skill Level`, fractional, that plays at `elo`: [`elo_at_level`] inverted on its
/// rising side (the root of the quadratic nearer 0), 0 below level 0's Elo.
pub fn level_for_elo(elo: i64) -> f64 {
    let (a, b) = (ELO_PER_LEVEL, ELO_LOST_PER_LEVEL / 2.0);
    let climb = (elo as f64 - ELO_AT_LEVEL_0).max(0.0);
    // b·l² − a·l + climb = 0; past the top of the curve, its top.
    let discriminant = (a * a - 4.0 * b * climb).max(0.0);
    (a - discriminant.sqrt()) / (2.0 * b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_rise_with_elo_and_invert_the_curve() {
        let mut last = -1.0;
        for elo in SCALE.min..=SCALE.max {
            let level = level_for_elo(elo);
            assert!(level > last, "{elo}: {level} after {last}");
            assert!((elo_at_level(level) - elo as f64).abs() < 1e-6, "{elo}");
            last = level;
        }
        assert!(level_for_elo(SCALE.min) > 0.0 && level_for_elo(SCALE.max) < 20.0);
        assert_eq!(level_for_elo(1000), 0.0);
    }
}

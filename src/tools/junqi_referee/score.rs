//! The match's running score, the Elo difference it suggests, and the final table.

use super::Config;
use super::game::{Faults, GameReport};
use std::fmt;

/// Engine A's results so far, and both engines' faults.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// Engine A's score in each game (1, ½, 0), for the variance.
    scores: Vec<f64>,
    /// Engine A's faults, then B's.
    pub faults: [Faults; 2],
}

impl Tally {
    pub fn add(&mut self, report: &GameReport) {
        let score = report.score_a();
        if score > 0.75 {
            self.wins += 1;
        } else if score < 0.25 {
            self.losses += 1;
        } else {
            self.draws += 1;
        }
        self.scores.push(score);
        for (total, game) in self.faults.iter_mut().zip(&report.faults) {
            total.add(game);
        }
    }

    /// Points of A and of B.
    pub fn points(&self) -> (f64, f64) {
        let a: f64 = self.scores.iter().sum();
        (a, self.scores.len() as f64 - a)
    }

    /// The final table: results, score, Elo, faults per engine.
    pub fn table(&self, config: &Config) -> String {
        let games = self.scores.len();
        let (a, _) = self.points();
        let mut text = format!(
            "\n{games} games, info {}, {}: A {} wins, {} draws, {} losses; score {a}/{games} = {:.1}%\n",
            config.info,
            config.seating(),
            self.wins,
            self.draws,
            self.losses,
            100.0 * a / games.max(1) as f64
        );
        if let Some(elo) = Elo::estimate(&self.scores) {
            text.push_str(&format!("Elo A - B: {elo}\n"));
        }
        text.push_str("engine   illegal  timeouts  crashes  bad-lineups  slowest-ms  mean-ms\n");
        for (name, f) in ["A", "B"].iter().zip(&self.faults) {
            text.push_str(&format!(
                "{name:<6} {:>9} {:>9} {:>8} {:>12} {:>11} {:>8}\n",
                f.illegal,
                f.timeouts,
                f.crashes,
                f.bad_lineups,
                f.slowest_ms,
                f.mean_ms()
            ));
        }
        text
    }
}

/// An Elo difference with the half-width of its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Elo {
    pub diff: f64,
    pub error: f64,
    /// Every game was won (or lost): no finite estimate, only the bound `diff` that a
    /// score half a game short of it gives.
    pub one_sided: bool,
}

/// The Elo difference of an expected score.
fn elo_of(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

impl Elo {
    /// From per-game scores: the mean's Elo, with the interval of the mean ± 1.96 standard
    /// errors (the per-game variance over the games). A score of 0% or 100% has no finite
    /// Elo; its bound is the Elo of the score with one more game drawn. `None` without
    /// games.
    pub fn estimate(scores: &[f64]) -> Option<Elo> {
        if scores.is_empty() {
            return None;
        }
        let n = scores.len() as f64;
        let total = scores.iter().sum::<f64>();
        let mean = total / n;
        if mean <= 0.0 || mean >= 1.0 {
            return Some(Elo {
                diff: elo_of((total + 0.5) / (n + 1.0)),
                error: 0.0,
                one_sided: true,
            });
        }
        let variance = scores.iter().map(|s| (s - mean).powi(2)).sum::<f64>() / n;
        let margin = 1.96 * (variance / n).sqrt();
        // An interval reaching 0% or 100% is cut half a game inside it.
        let inside = 0.5 / n;
        let clamp = |p: f64| p.clamp(inside, 1.0 - inside);
        let (low, high) = (elo_of(clamp(mean - margin)), elo_of(clamp(mean + margin)));
        Some(Elo {
            diff: elo_of(mean),
            error: (high - low) / 2.0,
            one_sided: false,
        })
    }
}

impl fmt::Display for Elo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.one_sided {
            let bound = if self.diff > 0.0 { ">=" } else { "<=" };
            write!(f, "{bound} {:+.0} (every game went one way)", self.diff)
        } else {
            // Never "-0" for an even score.
            let diff = if self.diff.abs() < 0.5 {
                0.0
            } else {
                self.diff
            };
            write!(f, "{diff:+.0} +/- {:.0} (95%)", self.error)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_from_scores() {
        assert_eq!(Elo::estimate(&[]), None);
        // Even: 0 Elo; the error bar grows with the spread of the results.
        let even = Elo::estimate(&[1.0, 0.0, 1.0, 0.0]).unwrap();
        assert!(even.diff.abs() < 1e-9 && !even.one_sided);
        let drawn = Elo::estimate(&[0.5; 4]).unwrap();
        assert!(drawn.diff.abs() < 1e-9 && drawn.error.abs() < 1e-9);
        assert!(even.error > 100.0, "{even:?}");
        // 75%: +191 Elo.
        let ahead = Elo::estimate(&[1.0, 1.0, 1.0, 0.0]).unwrap();
        assert!((ahead.diff - 190.85).abs() < 0.1, "{ahead:?}");
        assert!(ahead.error > 0.0 && ahead.error.is_finite());
        // 100% and 0%: finite, one-sided, symmetric.
        let all = Elo::estimate(&[1.0; 10]).unwrap();
        let none = Elo::estimate(&[0.0; 10]).unwrap();
        assert!(all.one_sided && none.one_sided);
        assert!(all.diff.is_finite() && all.diff > 400.0, "{all:?}");
        assert!((all.diff + none.diff).abs() < 1e-9);
        assert_eq!(all.to_string(), ">= +529 (every game went one way)");
        assert_eq!(
            Elo::estimate(&[0.0]).unwrap().to_string(),
            "<= -191 (every game went one way)"
        );
        assert_eq!(even.to_string(), format!("+0 +/- {:.0} (95%)", even.error));
        assert_eq!(
            ahead.to_string(),
            format!("+191 +/- {:.0} (95%)", ahead.error)
        );
    }
}

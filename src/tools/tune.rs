//! Texel tuning: fits every evaluation weight to the results of real games.
//!
//! Each training position carries the result of the game it came from (1, ½ or 0 for
//! the first player: White, sente), and optionally a strong engine's score of it,
//! blended in by `lambda`. The evaluation, squashed by a logistic curve, predicts that
//! target; the tuner minimises the mean squared error of the prediction over all
//! positions by gradient descent (Adam), all weights at once. Because the evaluation is
//! linear in its weights (see `core::linear`), a position is reduced once to its term
//! counts, and an epoch is a sparse dot product per position. The curve's steepness is
//! fitted first, with the weights as they are, and then held: it fixes the scale, so the
//! pawn stays near its starting value.
//!
//! Positions should be quiet (no capture or check pending), since a static evaluation
//! cannot see an exchange in progress; `tools/chess_games.py` and
//! `tools/shogi_games.py` write such positions from Stockfish and Fairy-Stockfish
//! self-play. One position in ten is held out to report the error on data the fit has
//! not seen, and a second file (`--check`) may stand for positions of another kind.
//!
//! The tuner is written once over [`Tunable`] (`core::tunable`, which the games implement);
//! a game takes part by making its evaluation linear (`core::linear`) and naming its groups
//! of terms.

use crate::core::Game;
use crate::core::tunable::{Tunable, as_floats, weights_source};
use anyhow::{Context, bail};
use rayon::prelude::*;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::Instant;

/// The `qiyi tune` run (its command line, the game aside): data file, epochs, and where
/// to write the new weights. Its `///` lines are `qiyi tune --help`, its `//` lines notes
/// for the reader.
#[derive(clap::Args)]
pub struct Tuning {
    /// `<FEN or SFEN> | <result> [| <score>]` lines, the result 1, 0.5 or 0 for the
    /// first player (White, sente) and the score in centipawns from its view.
    #[arg(long)]
    pub data: PathBuf,
    #[arg(long, default_value_t = 1000)]
    pub epochs: usize,
    /// Adam's step size in centipawns.
    #[arg(long, default_value_t = 1.0)]
    pub rate: f64,
    /// Penalty per squared centipawn of distance from the current weights.
    // Terms the data says little about (a queen on a rare square) stay near where they
    // were instead of wandering off to fit a handful of positions.
    #[arg(long, default_value_t = 1e-8)]
    pub l2: f64,
    /// Share of the game result in the target; the rest is the data's engine score.
    // The score counts as an expected result; lines without one use the result alone.
    #[arg(long, default_value_t = 0.5)]
    pub lambda: f64,
    /// Where to write the weights; standard output when absent.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Lines in the same form never trained on, whose error is reported beside the
    /// held-out error (positions of another kind, such as games against another engine).
    // Self-play never reaches qiyi's games against another engine, and its held-out
    // tenth cannot stand for them.
    #[arg(long)]
    pub check: Option<PathBuf>,
}

/// The expected result of a centipawn score from a reference engine, on the usual
/// logistic scale (400 centipawns per factor of ten in odds).
fn expected_result(centipawns: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-centipawns / 400.0))
}

/// Parses `<FEN or SFEN> | <result> [| <score>]` into the position and its target.
fn parse_line<G: Game>(line: &str, lambda: f64) -> Option<(G, f64)> {
    let mut fields = line.split('|').map(str::trim);
    let pos = G::from_notation(fields.next()?).ok()?;
    let result: f64 = fields.next()?.parse().ok()?;
    if !(0.0..=1.0).contains(&result) {
        return None;
    }
    let target = match fields.next() {
        Some(score) => {
            let score: f64 = score.parse().ok()?;
            lambda * result + (1.0 - lambda) * expected_result(score)
        }
        None => result,
    };
    fields.next().is_none().then_some((pos, target))
}

/// A position reduced to what the fit needs.
struct Sample {
    /// The position's nonzero term counts: `(term, count)` from the first player's view.
    counts: Vec<(u16, i16)>,
    /// Middlegame share of the blend, with any scaling already applied.
    mg: f64,
    /// Endgame share, likewise.
    eg: f64,
    /// The target for the first player: the game's result, or its blend with a reference
    /// score.
    result: f64,
}

impl Sample {
    fn eval(&self, weights: &[[f64; 2]]) -> f64 {
        let (mut mg, mut eg) = (0.0, 0.0);
        for &(term, count) in &self.counts {
            let w = weights[usize::from(term)];
            mg += w[0] * f64::from(count);
            eg += w[1] * f64::from(count);
        }
        mg * self.mg + eg * self.eg
    }
}

fn sigmoid(k: f64, eval: f64) -> f64 {
    1.0 / (1.0 + (-k * eval).exp())
}

fn mean_error(samples: &[Sample], weights: &[[f64; 2]], k: f64) -> f64 {
    let sum: f64 = samples
        .par_iter()
        .map(|s| (s.result - sigmoid(k, s.eval(weights))).powi(2))
        .sum();
    sum / samples.len().max(1) as f64
}

/// Reads the data file's lines into samples.
fn load<G: Tunable>(data: &PathBuf, lambda: f64) -> anyhow::Result<Vec<Sample>> {
    let text =
        std::fs::read_to_string(data).with_context(|| format!("reading {}", data.display()))?;
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    let samples: Vec<Sample> = lines
        .par_iter()
        .filter_map(|line| {
            let (pos, target) = parse_line::<G>(line, lambda)?;
            Some(sample(&pos, target))
        })
        .collect();
    if samples.len() < lines.len() {
        log::warn!(
            "{} of {} lines were not '<position> | <result> [| <score>]'",
            lines.len() - samples.len(),
            lines.len()
        );
    }
    if samples.is_empty() {
        bail!("no positions in {}", data.display());
    }
    Ok(samples)
}

fn sample<G: Tunable>(pos: &G, result: f64) -> Sample {
    let (trace, mg, eg) = pos.trace();
    let counts = trace
        .0
        .iter()
        .enumerate()
        .filter(|&(_, &c)| c != 0)
        .map(|(t, &c)| (t as u16, c as i16))
        .collect();
    Sample {
        counts,
        mg,
        eg,
        result,
    }
}

/// The logistic steepness that best fits the current weights (ternary search).
fn fit_k(samples: &[Sample], weights: &[[f64; 2]]) -> f64 {
    let (mut lo, mut hi) = (0.0005f64, 0.05f64);
    for _ in 0..60 {
        let a = lo + (hi - lo) / 3.0;
        let b = hi - (hi - lo) / 3.0;
        if mean_error(samples, weights, a) < mean_error(samples, weights, b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

/// The mean error's gradient with respect to every weight (mg, eg).
fn gradient(samples: &[Sample], weights: &[[f64; 2]], k: f64) -> Vec<[f64; 2]> {
    let scale = 2.0 * k / samples.len().max(1) as f64;
    let mut grad = samples
        .par_chunks(4096)
        .map(|chunk| {
            let mut grad = vec![[0.0; 2]; weights.len()];
            for s in chunk {
                let p = sigmoid(k, s.eval(weights));
                let g = (p - s.result) * p * (1.0 - p);
                for &(term, count) in &s.counts {
                    let c = g * f64::from(count);
                    let slot = &mut grad[usize::from(term)];
                    slot[0] += c * s.mg;
                    slot[1] += c * s.eg;
                }
            }
            grad
        })
        .reduce(
            || vec![[0.0; 2]; weights.len()],
            |mut a, b| {
                for (x, y) in a.iter_mut().zip(b) {
                    x[0] += y[0];
                    x[1] += y[1];
                }
                a
            },
        );
    for g in &mut grad {
        g[0] *= scale;
        g[1] *= scale;
    }
    grad
}

impl Tuning {
    pub fn run<G: Tunable>(&self) -> anyhow::Result<()> {
        let start = Instant::now();
        let mut samples = load::<G>(&self.data, self.lambda)?;
        // Hold out every tenth block of 500 lines: a game's positions lie together in the
        // file, so the held-out positions come mostly from games the fit has not seen.
        let mut held_out = Vec::new();
        let mut index = 0;
        samples.retain_mut(|s| {
            index += 1;
            if (index / 500) % 10 == 9 {
                held_out.push(Sample {
                    counts: std::mem::take(&mut s.counts),
                    ..*s
                });
                false
            } else {
                true
            }
        });
        eprintln!(
            "{} training and {} held-out positions loaded in {:.1} s",
            samples.len(),
            held_out.len(),
            start.elapsed().as_secs_f64()
        );
        let check = match &self.check {
            Some(path) => load::<G>(path, self.lambda)?,
            None => Vec::new(),
        };
        let unseen = |weights: &[[f64; 2]], k| {
            let mut text = format!("held out {:.6}", mean_error(&held_out, weights, k));
            if !check.is_empty() {
                write!(text, ", check {:.6}", mean_error(&check, weights, k)).unwrap();
            }
            text
        };
        let mut weights = as_floats(G::WEIGHTS);
        let prior = weights.clone();
        let k = fit_k(&samples, &weights);
        eprintln!(
            "K = {k:.6}; error {:.6} ({})",
            mean_error(&samples, &weights, k),
            unseen(&weights, k)
        );
        // Adam, full batch.
        let (beta1, beta2, epsilon) = (0.9, 0.999, 1e-8);
        let mut m = vec![[0.0f64; 2]; weights.len()];
        let mut v = vec![[0.0f64; 2]; weights.len()];
        for epoch in 1..=self.epochs {
            let grad = gradient(&samples, &weights, k);
            for i in 0..weights.len() {
                for j in 0..2 {
                    let g = grad[i][j] + 2.0 * self.l2 * (weights[i][j] - prior[i][j]);
                    m[i][j] = beta1 * m[i][j] + (1.0 - beta1) * g;
                    v[i][j] = beta2 * v[i][j] + (1.0 - beta2) * g * g;
                    let m_hat = m[i][j] / (1.0 - beta1.powi(epoch as i32));
                    let v_hat = v[i][j] / (1.0 - beta2.powi(epoch as i32));
                    weights[i][j] -= self.rate * m_hat / (v_hat.sqrt() + epsilon);
                }
            }
            if epoch % 100 == 0 || epoch == self.epochs {
                eprintln!(
                    "epoch {epoch}: error {:.6} ({}), {:.0} s",
                    mean_error(&samples, &weights, k),
                    unseen(&weights, k),
                    start.elapsed().as_secs_f64()
                );
            }
        }
        let source = weights_source::<G>(&weights);
        match &self.out {
            Some(path) => std::fs::write(path, source)
                .with_context(|| format!("writing {}", path.display()))?,
            None => print!("{source}"),
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::chess::Position;

    #[test]
    fn descent_moves_the_weights_towards_the_results() {
        // White wins every game in which it has an extra knight; the knight's value must
        // rise under tuning.
        let pos = Position::from_notation("4k3/pppp4/8/8/8/8/PPPP4/1N2K3 w - - 0 1").unwrap();
        let samples = vec![sample(&pos, 1.0)];
        let mut weights = as_floats(Position::WEIGHTS);
        let k = 0.004;
        let before = mean_error(&samples, &weights, k);
        let grad = gradient(&samples, &weights, k);
        let sections = Position::sections();
        assert_eq!(sections[0].0, "material");
        let knight = 1;
        assert!(grad[knight][0] < 0.0 && grad[knight][1] < 0.0);
        for (w, g) in weights.iter_mut().zip(&grad) {
            w[0] -= 1e3 * g[0] / k;
            w[1] -= 1e3 * g[1] / k;
        }
        assert!(mean_error(&samples, &weights, k) < before);
    }

    #[test]
    fn lines_parse_with_and_without_a_score() {
        let fen = "4k3/8/8/8/8/8/8/3QK3 w - - 0 1";
        let parse = |line: &str, lambda| parse_line::<Position>(line, lambda);
        let (_, target) = parse(&format!("{fen} | 1"), 0.5).unwrap();
        assert_eq!(target, 1.0);
        let (_, target) = parse(&format!("{fen} | 1 | 0"), 0.5).unwrap();
        assert!((target - 0.75).abs() < 1e-12);
        let (_, target) = parse(&format!("{fen} | 0 | -400"), 0.0).unwrap();
        assert!((target - 1.0 / 11.0).abs() < 1e-12);
        for bad in [
            fen.to_string(),
            format!("{fen} | 2"),
            format!("{fen} | 1 | x"),
            format!("{fen} | 1 | 0 | 0"),
            "8/8/8 w - - 0 1 | 1".to_string(),
        ] {
            assert!(parse(&bad, 0.5).is_none(), "{bad}");
        }
    }
}

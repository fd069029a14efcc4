//! `qiyi train`: fits a game's network ([`super`]) to `qiyi datagen`'s positions, in
//! floating point with Adam, then quantizes it to the file the engine reads.
//!
//! The target of a position is its game result blended with its search score
//! (`lambda` of the result), both as the side to move's expected score; the network's
//! output, in centipawns, becomes an expected score on the game's logistic scale
//! ([`Features::ODDS_SCALE`] centipawns per factor ten in odds), and the loss is the
//! squared difference. Gradients of a batch are summed over the threads' shares of it.
//!
//! One file per job: `data` reads the lines into samples, `float` is the network in
//! floating point with its gradient and Adam's step, `quantize` turns it into the
//! engine's integers and back. This file holds the run: its settings, the loss, the loop
//! over the epochs and what it reports.

mod data;
mod float;
mod quantize;

use super::{BLOCK, Features, MAX_HIDDEN, Network, SCALE};
use anyhow::Context;
use data::{Sample, parse};
use float::{Float, adam};
use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rayon::prelude::*;
use std::path::PathBuf;
use std::time::Instant;

/// Share of the data, its last lines, held out to measure the fit.
const HELD_OUT: usize = 20;

/// Settings of a training run (the `qiyi train` command line, the game aside).
#[derive(Clone, Debug, clap::Args)]
pub struct Training {
    /// `<position> | <result> | <score>` lines (what `datagen` writes).
    #[arg(long)]
    pub data: PathBuf,
    #[arg(long)]
    pub out: PathBuf,
    #[arg(long, default_value_t = 10)]
    pub epochs: usize,
    /// Positions per step.
    #[arg(long, default_value_t = 4096)]
    pub batch: usize,
    /// Adam's step size at the start; it falls along a half cosine to a hundredth of
    /// this by the last step, so that the last epochs settle the weights instead of
    /// leaving them scattered by steps as large as the first.
    #[arg(long, default_value_t = 0.001)]
    pub rate: f32,
    /// Share of the game result in the target; the rest is the search score. Results are
    /// noisy labels: on a few hundred thousand positions a network fitted to half results
    /// won none of 40 games at fixed nodes, one fitted to scores alone five (docs/nnue.md).
    #[arg(long, default_value_t = 0.0)]
    pub lambda: f32,
    /// Centipawns per factor of ten in the odds of winning, which turns scores into the
    /// expected scores the loss compares; by default the game's own
    /// ([`Features::ODDS_SCALE`]: chess 400, shogi 1000). Where the scale is steeper than
    /// the game's, every position beyond a few hundred centipawns counts as won and the
    /// fit learns nothing of how far beyond.
    #[arg(long)]
    pub scale: Option<f32>,
    /// Seeds the initial weights and the order of the positions.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Hidden units per view: a multiple of 16, at most 256. More fit more data, but each
    /// costs the search speed.
    #[arg(long, default_value_t = 128)]
    pub hidden: usize,
    /// A network file to start from instead of random weights, of `--hidden` units. The
    /// training data do not outlive a session here, but a network does: a network
    /// trained on earlier data goes on learning from new data.
    #[arg(long)]
    pub init: Option<PathBuf>,
}

/// The logistic curve from centipawns to expected scores.
#[derive(Clone, Copy)]
struct Logistic {
    /// Natural-log odds per centipawn.
    slope: f32,
}

impl Logistic {
    /// The curve with `scale` centipawns per factor ten in odds.
    const fn new(scale: f32) -> Logistic {
        Logistic {
            slope: std::f32::consts::LN_10 / scale,
        }
    }

    fn expected_score(self, centipawns: f32) -> f32 {
        1.0 / (1.0 + (-centipawns * self.slope).exp())
    }

    /// Mean loss over `samples` of the scores `score` gives them (the floating-point
    /// network's, or the quantized one's as the engine evaluates).
    fn mean_loss(self, samples: &[Sample], score: impl Fn(&Sample) -> f32 + Sync) -> f32 {
        let total: f32 = samples
            .par_iter()
            .map(|s| (self.expected_score(score(s)) - s.target).powi(2))
            .sum();
        total / samples.len().max(1) as f32
    }
}

impl Training {
    /// Trains `G`'s network, writes it, and returns its held-out loss.
    pub fn run<G: Features>(&self) -> anyhow::Result<f32> {
        if self.batch == 0 || self.epochs == 0 {
            anyhow::bail!("--batch and --epochs must be at least 1");
        }
        if self.hidden == 0 || !self.hidden.is_multiple_of(BLOCK) || self.hidden > MAX_HIDDEN {
            anyhow::bail!("--hidden must be a multiple of {BLOCK} up to {MAX_HIDDEN}");
        }
        let init = self
            .init
            .as_ref()
            .map(|path| self.init_network::<G>(path))
            .transpose()?;
        let scale = self.scale.unwrap_or(G::ODDS_SCALE);
        if !scale.is_finite() || scale <= 0.0 {
            anyhow::bail!("--scale must be a positive number of centipawns");
        }
        let logistic = Logistic::new(scale);
        let start = Instant::now();
        let text = std::fs::read_to_string(&self.data)
            .with_context(|| format!("reading {}", self.data.display()))?;
        let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
        let parsed: Vec<Vec<Sample>> = lines
            .par_iter()
            .map(|l| parse::<G>(l, self.lambda, logistic))
            .collect();
        let unparsed = parsed.iter().filter(|s| s.is_empty()).count();
        if unparsed > 0 {
            log::warn!("{unparsed} of {} lines did not parse", lines.len());
        }
        let mut groups: Vec<Vec<Sample>> = parsed.into_iter().filter(|s| !s.is_empty()).collect();
        if groups.len() < 2 * HELD_OUT {
            anyhow::bail!("{} positions are too few to train on", groups.len());
        }
        // Held out: the last lines, whole games as `datagen` writes them, each position
        // with its mirror image. A game's positions are so alike that a random twentieth
        // of the lines measured memory more than fit: a shogi network's loss on it was
        // 0.022 where on games it never saw it was 0.047 (docs/nnue.md).
        let held: Vec<Sample> = groups
            .split_off(groups.len() - groups.len() / HELD_OUT)
            .into_iter()
            .flatten()
            .collect();
        let mut rng = StdRng::seed_from_u64(self.seed);
        let trained = groups.len();
        let mut samples: Vec<Sample> = groups.into_iter().flatten().collect();
        eprintln!(
            "train: {} positions ({trained} lines, {} mirror images), {} held out, read in \
             {:.1} s",
            samples.len(),
            samples.len() - trained,
            held.len(),
            start.elapsed().as_secs_f64()
        );
        let mut net = init.unwrap_or_else(|| Float::random::<G>(&mut rng, self.hidden));
        let zero = || Float::zero(G::INPUTS, self.hidden);
        let (mut m, mut v) = (zero(), zero());
        let mut step = 0;
        let steps = (self.epochs * samples.len().div_ceil(self.batch)) as f32;
        // The floating-point network's held-out loss after the latest epoch; after the
        // last it is the written network's, so it is not computed again.
        let mut held_loss = 0.0;
        for epoch in 1..=self.epochs {
            samples.shuffle(&mut rng);
            let mut total = 0.0;
            for batch in samples.chunks(self.batch) {
                let share = batch.len().div_ceil(rayon::current_num_threads());
                let (grad, loss) = batch
                    .par_chunks(share.max(1))
                    .map(|part| {
                        let mut grad = zero();
                        let loss: f32 = part
                            .iter()
                            .map(|s| net.backward(s, &mut grad, logistic))
                            .sum();
                        (grad, loss)
                    })
                    .reduce(
                        || (zero(), 0.0),
                        |(mut a, la), (b, lb)| {
                            a.add(&b);
                            (a, la + lb)
                        },
                    );
                total += loss;
                let progress = step as f32 / steps;
                step += 1;
                let rate = self.rate
                    * (0.01 + 0.99 * 0.5 * (1.0 + (std::f32::consts::PI * progress).cos()));
                adam(&mut net, &grad, &mut m, &mut v, step, rate, batch.len());
            }
            held_loss = logistic.mean_loss(&held, |s| net.forward(s).0 * SCALE as f32);
            eprintln!(
                "train: epoch {epoch}: loss {:.6}, held out {held_loss:.6}, {:.0} s",
                total / samples.len() as f32,
                start.elapsed().as_secs_f64()
            );
        }
        let network = net.quantize();
        std::fs::write(&self.out, network.to_bytes())
            .with_context(|| format!("writing {}", self.out.display()))?;
        let quantized = logistic.mean_loss(&held, |s| quantized_score(&network, s));
        eprintln!(
            "train: wrote {}; held-out loss {:.6} in floating point, {:.6} quantized; \
             mean error {:.0} cp from the search score within 300 cp of even",
            self.out.display(),
            held_loss,
            quantized,
            mean_error(&network, &held)
        );
        Ok(quantized)
    }

    /// The `--init` network, read before the data so that a wrong file fails at once.
    fn init_network<G: Features>(&self, path: &std::path::Path) -> anyhow::Result<Float> {
        let bytes = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
        let network = Network::from_bytes(&bytes, G::INPUTS)
            .with_context(|| format!("reading {}", path.display()))?;
        if network.hidden != self.hidden {
            anyhow::bail!(
                "{} has {} hidden units: pass --hidden {}",
                path.display(),
                network.hidden,
                network.hidden
            );
        }
        Ok(Float::from_network(&network))
    }
}

/// The quantized network's score of a sample, as the engine evaluates it.
fn quantized_score(network: &Network, sample: &Sample) -> f32 {
    let view = |v: usize| network.sum(sample.views[v].iter().map(|&f| usize::from(f)));
    network.output(&[view(0), view(1)], 0) as f32
}

/// How far, on average, the quantized network's score is from the search score on the
/// held-out positions within 300 centipawns of even: the range where games are decided,
/// and where the loss, dominated by the lopsided positions, says little.
fn mean_error(network: &Network, held: &[Sample]) -> f32 {
    let (total, count) = held
        .par_iter()
        .filter(|s| s.score.abs() < 300.0)
        .map(|s| ((quantized_score(network, s) - s.score).abs(), 1))
        .reduce(|| (0.0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
    total / count.max(1) as f32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{Game, MoveList};
    use crate::games::chess::Position;
    use rand::RngExt;

    /// Material from White's view, pawn 100 … queen 900.
    fn material(pos: &Position) -> i32 {
        const VALUE: [i32; 7] = [0, 100, 300, 300, 500, 900, 0];
        pos.occupants()
            .map(|(code, _)| {
                let value = VALUE[usize::from(code & 7)];
                if code >> 3 == 0 { value } else { -value }
            })
            .sum()
    }

    /// The mean error counts positions within 300 centipawns of even only, and reads
    /// each score from the side to move's view.
    #[test]
    fn the_mean_error_is_over_the_balanced_positions_from_the_movers_view() {
        let silent = Float::zero(Position::INPUTS, 128).quantize();
        let fen = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R";
        let samples: Vec<Sample> = [
            format!("{fen} w KQkq - 4 4 | 1 | 100"),
            format!("{fen} b KQkq - 4 4 | 0 | -200"),
            format!("{fen} w KQkq - 4 4 | 1 | 900"),
        ]
        .iter()
        .flat_map(|line| parse::<Position>(line, 0.0, Logistic::new(Position::ODDS_SCALE)))
        .collect();
        assert_eq!(samples[1].score, 200.0);
        assert_eq!(mean_error(&silent, &samples), 150.0);
    }

    /// Trained on random positions labelled with their material alone, the network
    /// learns that a queen more is better, from both sides' view.
    #[test]
    fn a_network_trained_on_material_prefers_the_side_a_queen_up() {
        let dir = std::env::temp_dir().join(format!("qiyi-train-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let data = dir.join("material.txt");
        let mut rng = StdRng::seed_from_u64(9);
        let mut text = String::new();
        let mut moves = MoveList::new();
        for _ in 0..120 {
            let mut pos = Position::start_position();
            for _ in 0..60 {
                moves.clear();
                pos.legal_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                let captures: Vec<_> = moves
                    .iter()
                    .copied()
                    .filter(|&m| pos.is_capture(m))
                    .collect();
                let mv = if !captures.is_empty() && rng.random_bool(0.7) {
                    captures[rng.random_range(0..captures.len())]
                } else {
                    moves[rng.random_range(0..moves.len())]
                };
                pos.make_move(mv);
                let score = material(&pos);
                let result = match score.signum() {
                    1 => "1",
                    -1 => "0",
                    _ => "0.5",
                };
                text.push_str(&format!("{} | {result} | {score}\n", pos.to_notation()));
            }
        }
        std::fs::write(&data, &text).unwrap();
        let training = Training {
            data,
            out: dir.join("material.nnue"),
            epochs: 20,
            batch: 256,
            rate: 0.003,
            lambda: 0.0,
            scale: None,
            seed: 1,
            hidden: 32,
            init: None,
        };
        let loss = training.run::<Position>().unwrap();
        assert!(loss < 0.02, "held-out loss {loss}");
        let bytes = std::fs::read(&training.out).unwrap();
        let network = Network::from_bytes(&bytes, Position::INPUTS).unwrap();
        let eval = |fen: &str| network.evaluate(&Position::from_notation(fen).unwrap());
        let even = eval("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        let white_up = eval("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        let black_up = eval("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR w KQkq - 0 1");
        assert!(white_up > even + 300, "{white_up} against {even}");
        assert!(black_up < even - 300, "{black_up} against {even}");

        // Started from that network and never moved (a step size of nought), training
        // writes the same network back; at the wrong size it stops before reading data.
        let again = Training {
            out: dir.join("again.nnue"),
            epochs: 1,
            rate: 0.0,
            init: Some(training.out.clone()),
            ..training.clone()
        };
        again.run::<Position>().unwrap();
        let bytes = std::fs::read(&again.out).unwrap();
        assert_eq!(
            Network::from_bytes(&bytes, Position::INPUTS).unwrap(),
            network
        );
        let wrong = Training {
            hidden: 64,
            data: dir.join("missing.txt"),
            ..again
        };
        let error = wrong.run::<Position>().unwrap_err().to_string();
        assert!(error.contains("--hidden 32"), "{error}");

        // The held-out positions are the last twentieth of the lines: followed by a
        // nineteenth as many lines again with their labels turned round, the data train
        // a network that the held-out lines find wrong.
        let lines: Vec<&str> = text.lines().collect();
        let mut turned = text.clone();
        for line in &lines[..lines.len() / 19] {
            let fields: Vec<&str> = line.split(" | ").collect();
            let score: i32 = fields[2].parse().unwrap();
            let result = 1.0 - fields[1].parse::<f32>().unwrap();
            turned.push_str(&format!("{} | {result} | {}\n", fields[0], -score));
        }
        std::fs::write(dir.join("turned.txt"), turned).unwrap();
        let turned = Training {
            data: dir.join("turned.txt"),
            out: dir.join("turned.nnue"),
            ..training
        };
        let loss = turned.run::<Position>().unwrap();
        assert!(loss > 0.1, "held-out loss {loss}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}

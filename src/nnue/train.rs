//! `qiyi train`: fits a game's network ([`super`]) to `qiyi datagen`'s positions, in
//! floating point with Adam, then quantizes it to the file the engine reads.
//!
//! The target of a position is its game result blended with its search score
//! (`lambda` of the result), both as the side to move's expected score; the network's
//! output, in centipawns, becomes an expected score on the game's logistic scale
//! ([`Features::ODDS_SCALE`] centipawns per factor ten in odds), and the loss is the
//! squared difference. Gradients of a batch are summed over the threads' shares of it.

use super::{BLOCK, Features, MAX_HIDDEN, Network, QA, QB, SCALE, max_output_weight};
use anyhow::Context;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rayon::prelude::*;
use std::path::PathBuf;
use std::time::Instant;

/// The feature transformer's weights stay within this, so that 32 of them and a bias,
/// times [`QA`], still fit an `i16`.
const WEIGHT_CLIP: f32 = 1.98;
/// Share of the data, its last lines, held out to measure the fit.
const HELD_OUT: usize = 20;
const BETA1: f32 = 0.9;
const BETA2: f32 = 0.999;
const EPSILON: f32 = 1e-8;

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

/// A position as the network sees it.
struct Sample {
    /// Inputs from the side to move's view, then the other side's.
    views: [Vec<u16>; 2],
    /// The search score from the side to move's view, in centipawns.
    score: f32,
    /// The side to move's expected score.
    target: f32,
}

/// The network in floating point, and Adam's moments of the same shape.
#[derive(Clone)]
struct Float {
    hidden: usize,
    feature_weights: Vec<f32>,
    feature_bias: Vec<f32>,
    output_weights: Vec<f32>,
    direct_weights: Vec<f32>,
    output_bias: f32,
}

impl Float {
    fn zero(inputs: usize, hidden: usize) -> Float {
        Float {
            hidden,
            feature_weights: vec![0.0; inputs * hidden],
            feature_bias: vec![0.0; hidden],
            output_weights: vec![0.0; 2 * hidden],
            direct_weights: vec![0.0; inputs],
            output_bias: 0.0,
        }
    }

    /// Small random weights, and direct weights that start as the game's material.
    fn random<G: Features>(rng: &mut StdRng, hidden: usize) -> Float {
        let mut net = Float::zero(G::INPUTS, hidden);
        for (f, w) in net.direct_weights.iter_mut().enumerate() {
            *w = G::material(f) / SCALE as f32;
        }
        net.feature_weights
            .iter_mut()
            .for_each(|w| *w = rng.random_range(-0.1..0.1));
        net.output_weights
            .iter_mut()
            .for_each(|w| *w = rng.random_range(-0.1..0.1));
        net
    }

    /// The network a quantized one stands for: quantizing it again gives back `network`.
    fn from_network(network: &Network) -> Float {
        let scaled = |ws: &[i16], scale: i32| -> Vec<f32> {
            ws.iter().map(|&w| f32::from(w) / scale as f32).collect()
        };
        let both = (QA * QB) as f32;
        Float {
            hidden: network.hidden,
            feature_weights: scaled(&network.feature_weights, QA),
            feature_bias: scaled(&network.feature_bias, QA),
            output_weights: scaled(&network.output_weights, QB),
            direct_weights: network
                .direct_weights
                .iter()
                .map(|&w| w as f32 / both)
                .collect(),
            output_bias: network.output_bias as f32 / both,
        }
    }

    fn add(&mut self, other: &Float) {
        let pairs = self
            .feature_weights
            .iter_mut()
            .zip(&other.feature_weights)
            .chain(self.feature_bias.iter_mut().zip(&other.feature_bias))
            .chain(self.output_weights.iter_mut().zip(&other.output_weights))
            .chain(self.direct_weights.iter_mut().zip(&other.direct_weights));
        for (a, b) in pairs {
            *a += b;
        }
        self.output_bias += other.output_bias;
    }

    /// The output (in units of [`SCALE`] centipawns) and the hidden sums of both views.
    /// (The first `hidden` of each view's sums are the network's.)
    fn forward(&self, sample: &Sample) -> (f32, [[f32; MAX_HIDDEN]; 2]) {
        let h = self.hidden;
        let mut sums = [[0f32; MAX_HIDDEN]; 2];
        let mut out = self.output_bias;
        for (v, sum) in sums.iter_mut().enumerate() {
            let sum = &mut sum[..h];
            sum.copy_from_slice(&self.feature_bias);
            for &f in &sample.views[v] {
                let row = &self.feature_weights[usize::from(f) * h..][..h];
                sum.iter_mut().zip(row).for_each(|(s, w)| *s += w);
            }
            let weights = &self.output_weights[v * h..][..h];
            out += sum
                .iter()
                .zip(weights)
                .map(|(s, w)| s.clamp(0.0, 1.0) * w)
                .sum::<f32>();
            let direct: f32 = sample.views[v]
                .iter()
                .map(|&f| self.direct_weights[usize::from(f)])
                .sum();
            out += DIRECT_SIGN[v] * direct;
        }
        (out, sums)
    }

    /// Adds the sample's loss gradient to `grad`; returns the loss.
    fn backward(&self, sample: &Sample, grad: &mut Float, logistic: Logistic) -> f32 {
        let (out, sums) = self.forward(sample);
        let p = logistic.expected_score(out * SCALE as f32);
        let loss = (p - sample.target).powi(2);
        let g = 2.0 * (p - sample.target) * p * (1.0 - p) * SCALE as f32 * logistic.slope;
        grad.output_bias += g;
        let h = self.hidden;
        for (v, sum) in sums.iter().enumerate() {
            let weights = &self.output_weights[v * h..][..h];
            let mut inner = [0f32; MAX_HIDDEN];
            let inner = &mut inner[..h];
            for i in 0..h {
                grad.output_weights[v * h + i] += g * sum[i].clamp(0.0, 1.0);
                if sum[i] > 0.0 && sum[i] < 1.0 {
                    inner[i] = g * weights[i];
                }
            }
            grad.feature_bias
                .iter_mut()
                .zip(inner.iter())
                .for_each(|(b, d)| *b += d);
            for &f in &sample.views[v] {
                let row = &mut grad.feature_weights[usize::from(f) * h..][..h];
                row.iter_mut().zip(inner.iter()).for_each(|(w, d)| *w += d);
                grad.direct_weights[usize::from(f)] += g * DIRECT_SIGN[v];
            }
        }
        loss
    }

    /// The integer network the engine runs.
    fn quantize(&self) -> Network {
        let round = |v: f32, scale: i32, limit: i16| {
            (v * scale as f32)
                .round()
                .clamp(-f32::from(limit), f32::from(limit)) as i16
        };
        let output_limit = max_output_weight(self.hidden);
        Network {
            hidden: self.hidden,
            feature_weights: self
                .feature_weights
                .iter()
                .map(|&w| round(w, QA, i16::MAX))
                .collect(),
            feature_bias: self
                .feature_bias
                .iter()
                .map(|&w| round(w, QA, i16::MAX))
                .collect(),
            output_weights: self
                .output_weights
                .iter()
                .map(|&w| round(w, QB, output_limit))
                .collect(),
            direct_weights: self
                .direct_weights
                .iter()
                .map(|&w| (w * (QA * QB) as f32).round() as i32)
                .collect(),
            output_bias: (self.output_bias * (QA * QB) as f32).round() as i32,
        }
    }
}

/// How each view's direct weights count in the output: half the side to move's sum less
/// half the other side's, as [`Network::output`] adds them.
const DIRECT_SIGN: [f32; 2] = [0.5, -0.5];

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

/// One `<position> | <result> | <score>` line as samples: the position, and its mirror
/// image from left to right when nothing (a castling right) breaks the symmetry. Empty
/// when the line does not parse.
fn parse<G: Features>(line: &str, lambda: f32, logistic: Logistic) -> Vec<Sample> {
    parse_one::<G>(line, lambda, logistic).map_or_else(Vec::new, |(sample, symmetric)| {
        let mirror = symmetric.then(|| Sample {
            views: sample.views.clone().map(|view| {
                view.into_iter()
                    .map(|f| G::mirrored(usize::from(f)) as u16)
                    .collect()
            }),
            ..sample
        });
        std::iter::once(sample).chain(mirror).collect()
    })
}

/// One line's sample, and whether its position may be mirrored.
fn parse_one<G: Features>(line: &str, lambda: f32, logistic: Logistic) -> Option<(Sample, bool)> {
    let mut fields = line.split('|').map(str::trim);
    let pos = G::from_notation(fields.next()?).ok()?;
    let result: f32 = fields.next()?.parse().ok()?;
    let score: f32 = fields.next()?.parse().ok()?;
    if !(0.0..=1.0).contains(&result) || fields.next().is_some() {
        return None;
    }
    let first = lambda * result + (1.0 - lambda) * logistic.expected_score(score);
    let side = pos.side_to_move();
    let context = pos.context();
    let view = |v: usize| {
        pos.occupants()
            .flat_map(|p| G::inputs(v, p, context))
            .map(|f| f as u16)
            .collect()
    };
    let sample = Sample {
        views: [view(side), view(side ^ 1)],
        score: if side == 0 { score } else { -score },
        target: if side == 0 { first } else { 1.0 - first },
    };
    Some((sample, pos.mirrorable()))
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
            "train: {} positions ({trained} lines and their mirror images), {} held out, \
             read in {:.1} s",
            samples.len(),
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

/// One Adam step from a batch's summed gradient.
fn adam(
    net: &mut Float,
    grad: &Float,
    m: &mut Float,
    v: &mut Float,
    step: i32,
    rate: f32,
    n: usize,
) {
    let scale = 1.0 / n as f32;
    let (c1, c2) = (1.0 - BETA1.powi(step), 1.0 - BETA2.powi(step));
    let update = |w: &mut f32, g: f32, m: &mut f32, v: &mut f32, clip: f32| {
        let g = g * scale;
        *m = BETA1 * *m + (1.0 - BETA1) * g;
        *v = BETA2 * *v + (1.0 - BETA2) * g * g;
        *w -= rate * (*m / c1) / ((*v / c2).sqrt() + EPSILON);
        *w = w.clamp(-clip, clip);
    };
    let groups = [
        (
            &mut net.feature_weights,
            &grad.feature_weights,
            &mut m.feature_weights,
            &mut v.feature_weights,
            WEIGHT_CLIP,
        ),
        (
            &mut net.feature_bias,
            &grad.feature_bias,
            &mut m.feature_bias,
            &mut v.feature_bias,
            WEIGHT_CLIP,
        ),
        (
            &mut net.output_weights,
            &grad.output_weights,
            &mut m.output_weights,
            &mut v.output_weights,
            f32::MAX,
        ),
        (
            &mut net.direct_weights,
            &grad.direct_weights,
            &mut m.direct_weights,
            &mut v.direct_weights,
            f32::MAX,
        ),
    ];
    for (w, g, m, v, clip) in groups {
        w.par_iter_mut()
            .zip(g.par_iter())
            .zip(m.par_iter_mut().zip(v.par_iter_mut()))
            .for_each(|((w, &g), (m, v))| update(w, g, m, v, clip));
    }
    update(
        &mut net.output_bias,
        grad.output_bias,
        &mut m.output_bias,
        &mut v.output_bias,
        f32::MAX,
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{Game, MoveList};
    use crate::games::chess::Position;

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

    /// A quantized network read back into floating point quantizes to itself, so that
    /// training from a network file starts where that network stands.
    #[test]
    fn a_network_read_back_quantizes_to_itself() {
        let mut rng = StdRng::seed_from_u64(3);
        let mut float = Float::random::<Position>(&mut rng, 32);
        float
            .feature_bias
            .iter_mut()
            .for_each(|b| *b = rng.random_range(-1.9..1.9));
        float.output_bias = rng.random_range(-2.0..2.0);
        let network = float.quantize();
        assert_eq!(Float::from_network(&network).quantize(), network);
    }

    const CHESS: Logistic = Logistic::new(Position::ODDS_SCALE);

    /// A score of `--scale` centipawns is a target of ten to one in odds, from the
    /// mover's view, whichever side it is given for.
    #[test]
    fn the_scale_is_the_score_of_ten_to_one_odds() {
        let fen = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R";
        for scale in [400.0, 1200.0] {
            let logistic = Logistic::new(scale);
            let white =
                parse::<Position>(&format!("{fen} w KQkq - 4 4 | 1 | {scale}"), 0.0, logistic);
            let black =
                parse::<Position>(&format!("{fen} b KQkq - 4 4 | 1 | {scale}"), 0.0, logistic);
            assert!(
                (white[0].target - 10.0 / 11.0).abs() < 1e-5,
                "{}",
                white[0].target
            );
            assert!(
                (black[0].target - 1.0 / 11.0).abs() < 1e-5,
                "{}",
                black[0].target
            );
        }
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
        .flat_map(|line| parse::<Position>(line, 0.0, CHESS))
        .collect();
        assert_eq!(samples[1].score, 200.0);
        assert_eq!(mean_error(&silent, &samples), 150.0);
    }

    /// A position without castling rights comes with its mirror image, whose inputs are
    /// those of the position with every rank read right to left; one with a castling
    /// right comes alone.
    #[test]
    fn positions_without_castling_rights_are_mirrored() {
        let expand = |fen: &str| -> String {
            fen.split('/')
                .map(|rank| {
                    let squares: String = rank
                        .chars()
                        .map(|c| match c.to_digit(10) {
                            Some(n) => "1".repeat(n as usize),
                            None => c.to_string(),
                        })
                        .collect();
                    squares.chars().rev().collect::<String>()
                })
                .collect::<Vec<_>>()
                .join("/")
        };
        let board = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R";
        let samples = parse::<Position>(&format!("{board} b - - 0 9 | 0.5 | 35"), 0.0, CHESS);
        assert_eq!(samples.len(), 2);
        let mirror = parse::<Position>(
            &format!("{} b - - 0 9 | 0.5 | 35", expand(board)),
            0.0,
            CHESS,
        );
        let sorted = |sample: &Sample| {
            sample.views.clone().map(|mut view| {
                view.sort_unstable();
                view
            })
        };
        assert_eq!(sorted(&samples[1]), sorted(&mirror[0]));
        assert_ne!(sorted(&samples[0]), sorted(&mirror[0]));
        assert_eq!(
            (samples[1].score, samples[1].target),
            (samples[0].score, samples[0].target)
        );
        assert_eq!(
            parse::<Position>(&format!("{board} b K - 0 9 | 0.5 | 35"), 0.0, CHESS).len(),
            1
        );
        assert!(parse::<Position>("not a position | 1 | 0", 0.0, CHESS).is_empty());
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

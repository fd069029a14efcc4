//! The network in floating point, as training fits it: its output, the gradient of a
//! sample's loss by backpropagation, and Adam's step, which keeps the feature
//! transformer's weights within what quantization can hold.

use super::Logistic;
use super::data::Sample;
use crate::nnue::{Features, MAX_HIDDEN, SCALE};
use rand::RngExt;
use rand::rngs::StdRng;
use rayon::prelude::*;

/// The feature transformer's weights stay within this, so that 32 of them and a bias,
/// times [`QA`](crate::nnue::QA), still fit an `i16`.
const WEIGHT_CLIP: f32 = 1.98;
const BETA1: f32 = 0.9;
const BETA2: f32 = 0.999;
const EPSILON: f32 = 1e-8;

/// The network in floating point, and Adam's moments of the same shape.
#[derive(Clone)]
pub(super) struct Float {
    pub(super) hidden: usize,
    pub(super) feature_weights: Vec<f32>,
    pub(super) feature_bias: Vec<f32>,
    pub(super) output_weights: Vec<f32>,
    pub(super) direct_weights: Vec<f32>,
    pub(super) output_bias: f32,
}

impl Float {
    pub(super) fn zero(inputs: usize, hidden: usize) -> Float {
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
    pub(super) fn random<G: Features>(rng: &mut StdRng, hidden: usize) -> Float {
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

    pub(super) fn add(&mut self, other: &Float) {
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
    pub(super) fn forward(&self, sample: &Sample) -> (f32, [[f32; MAX_HIDDEN]; 2]) {
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
    pub(super) fn backward(&self, sample: &Sample, grad: &mut Float, logistic: Logistic) -> f32 {
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
}

/// How each view's direct weights count in the output: half the side to move's sum less
/// half the other side's, as [`Network::output`](crate::nnue::Network::output) adds them.
const DIRECT_SIGN: [f32; 2] = [0.5, -0.5];

/// One Adam step from a batch's summed gradient.
pub(super) fn adam(
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

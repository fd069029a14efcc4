//! Between the trainer's floating-point network and the engine's integers: quantizing
//! it for the network file, and reading a network file back as floats, so that training
//! can go on from it (`--init`).

use super::float::Float;
use crate::nnue::{Network, QA, QB, max_output_weight};

impl Float {
    /// The network a quantized one stands for: quantizing it again gives back `network`.
    pub(super) fn from_network(network: &Network) -> Float {
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

    /// The integer network the engine runs.
    pub(super) fn quantize(&self) -> Network {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::chess::Position;
    use rand::rngs::StdRng;
    use rand::{RngExt, SeedableRng};

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
}

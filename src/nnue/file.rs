//! The network file: a header naming the format and the hidden size, then the weights in
//! little-endian integers. What `EvalFile` reads and `qiyi train` writes.

use super::network::{BLOCK, MAX_HIDDEN, Network, max_output_weight};

/// What a network file starts with; the hidden size follows. The second format: the first
/// scaled its output weights by 64.
const MAGIC: &[u8; 8] = b"QIYINN02";

impl Network {
    /// Reads a network file of `inputs` inputs per view: [`MAGIC`], the hidden size as a
    /// little-endian `u32`, then the feature weights, feature biases and output weights as
    /// little-endian `i16`, and the direct weights and the output bias as `i32`.
    pub fn from_bytes(bytes: &[u8], inputs: usize) -> anyhow::Result<Network> {
        let body = bytes.strip_prefix(MAGIC.as_slice()).ok_or_else(|| {
            anyhow::anyhow!("not a qiyi network file of this format (no QIYINN02 header)")
        })?;
        let (size, body) = body
            .split_first_chunk::<4>()
            .ok_or_else(|| anyhow::anyhow!("network file cut short"))?;
        let hidden = u32::from_le_bytes(*size) as usize;
        if hidden == 0 || !hidden.is_multiple_of(BLOCK) || hidden > MAX_HIDDEN {
            anyhow::bail!(
                "network has {hidden} hidden units; this build reads multiples of {BLOCK} \
                 up to {MAX_HIDDEN}"
            );
        }
        let shorts = inputs * hidden + hidden + 2 * hidden;
        let size = 2 * shorts + 4 * (inputs + 1);
        if body.len() != size {
            anyhow::bail!(
                "network file has {} bytes after its header, not {size} (a network of \
                 another game?)",
                body.len()
            );
        }
        let (short_bytes, int_bytes) = body.split_at(2 * shorts);
        let mut shorts = short_bytes
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]));
        let mut take = |n: usize| shorts.by_ref().take(n).collect::<Vec<i16>>();
        let feature_weights = take(inputs * hidden);
        let feature_bias = take(hidden);
        let output_weights = take(2 * hidden);
        let limit = max_output_weight(hidden);
        if output_weights.iter().any(|w| w.abs() > limit) {
            anyhow::bail!("network has output weights beyond ±{limit}, which could overflow");
        }
        let mut ints: Vec<i32> = int_bytes
            .chunks_exact(4)
            .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        let output_bias = ints.pop().unwrap_or_default();
        Ok(Network {
            hidden,
            feature_weights,
            feature_bias,
            output_weights,
            direct_weights: ints,
            output_bias,
        })
    }

    /// The file [`Network::from_bytes`] reads.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = MAGIC.to_vec();
        bytes.extend_from_slice(&(self.hidden as u32).to_le_bytes());
        for v in self
            .feature_weights
            .iter()
            .chain(&self.feature_bias)
            .chain(&self.output_weights)
        {
            bytes.extend_from_slice(&v.to_le_bytes());
        }
        for v in self.direct_weights.iter().chain([&self.output_bias]) {
            bytes.extend_from_slice(&v.to_le_bytes());
        }
        bytes
    }
}

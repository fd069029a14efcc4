//! The quantized network and its arithmetic: sums of the feature transformer's rows for
//! each view, a move's step from one sum to the next, and the output from both views.
//! Sizes and scales are here; the file that holds a network is `file`'s.

use super::{Features, Piece};
use crate::core::Score;

/// The most hidden units per view a network may have. Each ply's sums have room for this
/// many, and a network uses the first of them: the size is the file's, not the build's, so
/// that a larger network needs no other binary and a game no size of its own.
pub const MAX_HIDDEN: usize = 256;
/// Hidden units come in whole blocks of this many, which the loops over them take at a
/// time so that the compiler vectorizes them whatever the size.
pub const BLOCK: usize = 16;
/// The block a move's update takes at a time when the size allows: as many units as
/// SSE2's sixteen registers hold. Measured with the 128-unit network (callgrind, the
/// evaluation's own instructions): blocks of 64 ran 4% more, and a whole row per size
/// matched by size (128, 256) 26% more, spilling the sums to the stack between rows.
const WIDE_BLOCK: usize = 128;
/// Scale of the feature transformer's weights and biases, and the clip of its output.
pub const QA: i32 = 255;
/// Scale of the output weights. A trained network's output weights are mostly below
/// 0.2, where 64 steps to the unit lost a tenth of each. The output sums both views'
/// clipped activations times these weights in an `i32`; the trainer keeps the weights
/// within [`max_output_weight`] so that it cannot overflow.
pub const QB: i32 = 1024;

/// The largest quantized output weight of a network of `hidden` units per view: `2 ·
/// hidden` activations of at most [`QA`] times it stay within an `i32`.
pub fn max_output_weight(hidden: usize) -> i16 {
    (i32::MAX as usize / (2 * hidden * QA as usize)).min(i16::MAX as usize) as i16
}

/// Centipawns per unit of the network's output.
pub const SCALE: i32 = 400;

/// A quantized network.
#[derive(Clone, Debug, PartialEq)]
pub struct Network {
    /// Hidden units per view: a whole number of [`BLOCK`]s, at most [`MAX_HIDDEN`].
    pub hidden: usize,
    /// `INPUTS` rows of `hidden` weights.
    pub feature_weights: Vec<i16>,
    pub feature_bias: Vec<i16>,
    /// The side to move's `hidden` weights, then the other side's.
    pub output_weights: Vec<i16>,
    /// One weight per input, added straight to the output, scaled by `QA * QB`.
    pub direct_weights: Vec<i32>,
    pub output_bias: i32,
}

/// One view's sums: the hidden units' (the network's first `hidden` of them) and the
/// direct weights'.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sum {
    pub hidden: [i16; MAX_HIDDEN],
    pub direct: i32,
}

impl Sum {
    pub(super) const ZERO: Sum = Sum {
        hidden: [0; MAX_HIDDEN],
        direct: 0,
    };
}

impl Network {
    /// One view's sum of the biases and the rows of `inputs`.
    pub fn sum(&self, inputs: impl IntoIterator<Item = usize>) -> Sum {
        let mut sum = Sum::ZERO;
        sum.hidden[..self.hidden].copy_from_slice(&self.feature_bias);
        for f in inputs {
            self.add(&mut sum, f);
        }
        sum
    }

    /// Both views' sums over the whole position.
    pub fn refresh<G: Features>(&self, pos: &G) -> [Sum; 2] {
        self.sums::<G, _>(|| pos.occupants(), pos.context())
    }

    /// Both views' sums over the pieces `pieces` lists, in `context`.
    pub(super) fn sums<G: Features, I: Iterator<Item = Piece>>(
        &self,
        pieces: impl Fn() -> I,
        context: G::Context,
    ) -> [Sum; 2] {
        [0, 1].map(|view| self.sum(pieces().flat_map(|piece| G::inputs(view, piece, context))))
    }

    /// Adds one input's row in place: a shogi king's moves refresh the sums, so this is
    /// not a root-only path.
    #[inline]
    fn add(&self, sum: &mut Sum, feature: usize) {
        let h = self.hidden;
        let row = &self.feature_weights[feature * h..][..h];
        for (acc, &w) in sum.hidden[..h].iter_mut().zip(row) {
            *acc = acc.wrapping_add(w);
        }
        sum.direct += self.direct_weights[feature];
    }

    /// `to` becomes `from` less the rows of the `removed` inputs and plus those of the
    /// `added`: one move's step, a block of units at a time, each block kept in
    /// registers across the rows.
    #[inline(always)]
    pub(super) fn advance(&self, from: &Sum, to: &mut Sum, removed: &[usize], added: &[usize]) {
        if self.hidden.is_multiple_of(WIDE_BLOCK) {
            self.advance_blocks::<WIDE_BLOCK>(from, to, removed, added);
        } else {
            self.advance_blocks::<BLOCK>(from, to, removed, added);
        }
        let direct =
            |features: &[usize]| -> i32 { features.iter().map(|&f| self.direct_weights[f]).sum() };
        to.direct = from.direct - direct(removed) + direct(added);
    }

    /// [`Network::advance`]'s hidden units, `N` of them at a time.
    #[inline(always)]
    fn advance_blocks<const N: usize>(
        &self,
        from: &Sum,
        to: &mut Sum,
        removed: &[usize],
        added: &[usize],
    ) {
        let h = self.hidden;
        for start in (0..h).step_by(N) {
            let mut acc: [i16; N] = from.hidden[start..][..N].try_into().expect("N units");
            let row = |f: usize| -> &[i16; N] {
                self.feature_weights[f * h + start..][..N]
                    .try_into()
                    .expect("N weights")
            };
            for &f in removed {
                let row = row(f);
                for k in 0..N {
                    acc[k] = acc[k].wrapping_sub(row[k]);
                }
            }
            for &f in added {
                let row = row(f);
                for k in 0..N {
                    acc[k] = acc[k].wrapping_add(row[k]);
                }
            }
            to.hidden[start..][..N].copy_from_slice(&acc);
        }
    }

    /// The score from the view of `side`, the side to move's view, given both views' sums.
    pub fn output(&self, sums: &[Sum; 2], side: usize) -> Score {
        let (us, them) = (&sums[side], &sums[side ^ 1]);
        let h = self.hidden;
        let (ours, theirs) = self.output_weights.split_at(h);
        let clip = |v: i16| i32::from(v).clamp(0, QA);
        let mut total = 0i32;
        let blocks = us.hidden[..h]
            .chunks_exact(BLOCK)
            .zip(ours.chunks_exact(BLOCK))
            .zip(
                them.hidden[..h]
                    .chunks_exact(BLOCK)
                    .zip(theirs.chunks_exact(BLOCK)),
            );
        for ((a, wa), (b, wb)) in blocks {
            for k in 0..BLOCK {
                total += clip(a[k]) * i32::from(wa[k]) + clip(b[k]) * i32::from(wb[k]);
            }
        }
        let direct = (i64::from(us.direct) - i64::from(them.direct)) / 2;
        ((i64::from(total) + direct + i64::from(self.output_bias)) * i64::from(SCALE)
            / i64::from(QA * QB)) as Score
    }

    /// The score of `pos` from the side to move's view, from the whole position.
    pub fn evaluate<G: Features>(&self, pos: &G) -> Score {
        self.output(&self.refresh(pos), pos.view_to_move())
    }
}

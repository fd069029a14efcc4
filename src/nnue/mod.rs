//! Efficiently updatable neural networks (NNUE), for any game that names its inputs
//! ([`Features`]): each piece where it stands (or, in shogi, each piece in hand) is one
//! input per view, colour relative to the side whose view it is (Junqi: a view per team,
//! seats counted from the team's), into hidden units per view (as many as the network
//! file says, up to [`MAX_HIDDEN`]), clipped ReLU, then one output from both views, the
//! side to move's first.
//! Beside the hidden units each input has a weight added straight to the output (as
//! Stockfish's PSQT weights): half the side to move's sum of them less half the other
//! side's. That linear part learns material and piece placement from far fewer positions
//! than the hidden units need, leaving them the rest. Quantized to integers as the
//! inference runs it: the feature transformer in `i16` scaled by [`QA`], the output
//! weights by [`QB`], the direct weights in `i32` by both.
//!
//! The search does not add up every input at every node: each thread's [`Accumulators`]
//! keeps one pair of sums per ply and learns of each move's few added and removed inputs,
//! applied lazily when a position is evaluated.
//!
//! One file per job: `features` is what a game declares (its inputs, a move's changes),
//! `network` the quantized network and its arithmetic, `file` the network file,
//! `accumulator` the search's incremental sums, `evaluator` the adapter that makes a
//! network a game's evaluation, and `train` the trainer behind `qiyi train`.

mod accumulator;
mod evaluator;
mod features;
mod file;
mod network;
pub mod train;

pub use accumulator::Accumulators;
pub use evaluator::NetworkEval;
pub use features::{Change, Features, Inputs, Piece};
pub use network::{BLOCK, MAX_HIDDEN, Network, QA, QB, SCALE, Sum, max_output_weight};

#[cfg(test)]
pub(crate) mod tests;

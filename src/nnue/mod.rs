//! Efficiently updatable neural networks (NNUE), for any game that names its inputs
//! ([`Features`]): each piece where it stands (or, in shogi, each piece in hand) is one
//! input per view, colour relative to the side whose view it is, into hidden units per
//! view (as many as the network file says, up to [`MAX_HIDDEN`]), clipped ReLU, then one
//! output from both views, the side to move's first.
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

pub mod train;

use crate::core::{
    EloScale, Evaluator, Game, MATE_BOUND, MAX_PLY, MoveList, OptionKind, OptionSpec, Score,
};
use std::marker::PhantomData;
use std::sync::Arc;

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

/// What a network file starts with; the hidden size follows. The second format: the first
/// scaled its output weights by 64.
const MAGIC: &[u8; 8] = b"QIYINN02";

/// A piece as a game's inputs name it: a game's own piece code and where it stands (for
/// shogi's pieces in hand, a marked code and the count), small enough to keep a move's
/// changes in a few bytes.
pub type Piece = (u8, u8);

/// The most inputs one piece has in one view.
const MAX_PIECE_INPUTS: usize = 3;

/// One piece's inputs in one view, the first `len` of `list`.
#[derive(Clone, Copy, Debug, Default)]
pub struct Inputs {
    list: [usize; MAX_PIECE_INPUTS],
    len: u8,
}

impl Inputs {
    pub fn one(input: usize) -> Inputs {
        let mut inputs = Inputs::default();
        inputs.push(input);
        inputs
    }

    #[inline]
    pub fn push(&mut self, input: usize) {
        self.list[usize::from(self.len)] = input;
        self.len += 1;
    }
}

impl IntoIterator for Inputs {
    type Item = usize;
    type IntoIter = std::iter::Take<std::array::IntoIter<usize, MAX_PIECE_INPUTS>>;

    fn into_iter(self) -> Self::IntoIter {
        self.list.into_iter().take(usize::from(self.len))
    }
}

/// What a game tells the network: its inputs, and what a move changes in them.
pub trait Features: Game {
    /// Inputs per view.
    const INPUTS: usize;
    /// Centipawns of search score per factor of ten in the odds of winning: the scale on
    /// which training turns scores into expected scores. Shogi's scores run far wider
    /// than chess's (its +1000 wins three games in four), and on chess's scale a shogi
    /// network learns nothing of positions beyond a few hundred centipawns.
    const ODDS_SCALE: f32;
    /// What a piece's inputs depend on besides the piece: in shogi the two kings' squares,
    /// since a gold beside its own king is worth another thing than a gold anywhere; in
    /// chess nothing.
    type Context: Copy;
    /// This position's context.
    fn context(&self) -> Self::Context;
    /// The inputs of `piece` seen by `view` (a player) in `context`.
    fn inputs(view: usize, piece: Piece, context: Self::Context) -> Inputs;
    /// Every piece of the position, as [`Features::inputs`] reads them.
    fn occupants(&self) -> impl Iterator<Item = Piece> + '_;
    /// The pieces `mv`, about to be made here, takes away and puts down, and whether it
    /// changes the context.
    fn change(&self, mv: Self::Move) -> Change;
    /// Whether the position may be mirrored from left to right without changing its
    /// value (chess: when no castling right is left), to double the training data.
    fn mirrorable(&self) -> bool;
    /// The input of the same piece on the square mirrored from left to right.
    fn mirrored(feature: usize) -> usize;
    /// An input's worth in centipawns to the side whose view it is, where training
    /// starts its direct weight: the piece's material value, negative for the other
    /// side's pieces.
    fn material(feature: usize) -> f32;
    /// The network built into the binary, and the name `EvalFile` gives it; `None` while
    /// the hand-written evaluation plays better.
    fn built_in() -> Option<(&'static str, Arc<Network>)>;
}

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
    const ZERO: Sum = Sum {
        hidden: [0; MAX_HIDDEN],
        direct: 0,
    };
}

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
    fn sums<G: Features, I: Iterator<Item = Piece>>(
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
    fn advance(&self, from: &Sum, to: &mut Sum, removed: &[usize], added: &[usize]) {
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

    /// The score from the view of `side`, the side to move, given both views' sums.
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
        self.output(&self.refresh(pos), pos.side_to_move())
    }
}

/// The pieces one move takes away and puts down: in chess a capture, a castling or a
/// promotion, in shogi a capture (the victim goes to the hand) or a drop, change at most
/// two of each. A move that changes the context (a shogi king's) changes every piece's
/// inputs: the sums after it come from the whole position.
#[derive(Clone, Copy, Debug, Default)]
pub struct Change {
    added: [Piece; 2],
    removed: [Piece; 2],
    adds: u8,
    removes: u8,
    new_context: bool,
}

impl Change {
    pub fn change_context(&mut self) {
        self.new_context = true;
    }

    pub fn add(&mut self, piece: Piece) {
        self.added[usize::from(self.adds)] = piece;
        self.adds += 1;
    }

    pub fn remove(&mut self, piece: Piece) {
        self.removed[usize::from(self.removes)] = piece;
        self.removes += 1;
    }

    fn added(&self) -> &[Piece] {
        &self.added[..usize::from(self.adds)]
    }

    fn removed(&self) -> &[Piece] {
        &self.removed[..usize::from(self.removes)]
    }
}

/// One ply's sums, and whether they are up to date with the moves that led to it.
#[derive(Clone)]
struct Ply {
    sums: [Sum; 2],
    /// The move that led here; `None` for the root or a null move.
    change: Option<Change>,
    fresh: bool,
}

/// A search thread's sums, one per ply of the current line: a move pushes what it
/// changes, and the sums are brought up to date only when a position is evaluated, from
/// the nearest ply that is.
#[derive(Clone)]
pub struct Accumulators<G> {
    /// The plies of the current line are the first `len`; those beyond are kept for
    /// their room, so that a push writes a move's change and not a copy of the sums.
    plies: Vec<Ply>,
    len: usize,
    /// Room for the pieces of a position a refresh adds up, kept between refreshes.
    pieces: Vec<Piece>,
    game: PhantomData<fn(&G)>,
}

impl<G: Features> Accumulators<G> {
    pub fn new(network: &Network, root: &G) -> Accumulators<G> {
        let mut plies = Vec::with_capacity(MAX_PLY + 2);
        plies.push(Ply {
            sums: network.refresh(root),
            change: None,
            fresh: true,
        });
        Accumulators {
            plies,
            len: 1,
            pieces: Vec::new(),
            game: PhantomData,
        }
    }

    /// `mv` is about to be played in `pos` (`None`: a null move was played).
    #[inline]
    pub fn push(&mut self, pos: &G, mv: Option<G::Move>) {
        let change = mv.map(|mv| pos.change(mv));
        if self.len == self.plies.len() {
            self.plies.push(Ply {
                sums: [Sum::ZERO; 2],
                change,
                fresh: false,
            });
        } else {
            let ply = &mut self.plies[self.len];
            ply.change = change;
            ply.fresh = false;
        }
        self.len += 1;
    }

    #[inline]
    pub fn pop(&mut self) {
        if self.len > 1 {
            self.len -= 1;
        }
    }

    /// The score of `pos`, the position the pushed moves led to, from its side to move.
    pub fn evaluate(&mut self, network: &Network, pos: &G) -> Score {
        let last = self.len - 1;
        let mut start = last;
        let mut new_context = None;
        while !self.plies[start].fresh {
            let change = self.plies[start].change;
            if new_context.is_none() && change.is_some_and(|c| c.new_context) {
                new_context = Some(start);
            }
            start -= 1;
        }
        if let Some(ply) = new_context {
            // Refreshed at the move that changed the context, not here, so that the
            // other moves from there go on from it.
            self.refresh_ply(network, pos, ply);
            start = ply;
        }
        let context = pos.context();
        for i in start + 1..=last {
            let (before, after) = self.plies.split_at_mut(i);
            let (from, ply) = (&before[i - 1].sums, &mut after[0]);
            let change = ply.change.unwrap_or_default();
            let (removed, added) = (change.removed(), change.added());
            for (view, (to, from)) in ply.sums.iter_mut().zip(from).enumerate() {
                let features = |pieces: &[Piece]| {
                    let mut features = [0; 2 * MAX_PIECE_INPUTS];
                    let mut len = 0;
                    for &piece in pieces {
                        for f in G::inputs(view, piece, context) {
                            features[len] = f;
                            len += 1;
                        }
                    }
                    (features, len)
                };
                let ((out, outs), (into, ins)) = (features(removed), features(added));
                network.advance(from, to, &out[..outs], &into[..ins]);
            }
            ply.fresh = true;
        }
        network.output(&self.plies[last].sums, pos.side_to_move())
    }

    /// Brings `ply`'s sums up to date from the whole position there: the pieces of
    /// `pos`, the position at the line's end, with the moves since `ply` taken back
    /// (each puts back what it took away and takes away what it put down). No move
    /// after `ply` changes the context, so `pos`'s is `ply`'s.
    fn refresh_ply(&mut self, network: &Network, pos: &G, ply: usize) {
        self.pieces.clear();
        self.pieces.extend(pos.occupants());
        for later in self.plies[ply + 1..self.len].iter().rev() {
            let Some(change) = later.change else { continue };
            for added in change.added() {
                if let Some(at) = self.pieces.iter().position(|p| p == added) {
                    self.pieces.swap_remove(at);
                }
            }
            self.pieces.extend_from_slice(change.removed());
        }
        let ply = &mut self.plies[ply];
        let pieces = &self.pieces;
        ply.sums = network.sums::<G, _>(|| pieces.iter().copied(), pos.context());
        ply.fresh = true;
    }
}

/// The option that names a network file.
const EVAL_FILE: &str = "EvalFile";
/// What `EvalFile` says when no network is loaded.
const NO_FILE: &str = "<empty>";

/// A game's evaluation: the network `EvalFile` names (by default the built-in one, if the
/// game has one), or the hand-written `H` when `EvalFile` is empty. Quiescence, move
/// ordering, pruning margins and the win/draw/loss model are the hand-written
/// evaluation's either way.
pub struct Evaluation<G, H> {
    network: Option<Arc<Network>>,
    hand_written: H,
    game: PhantomData<fn(&G)>,
}

impl<G, H: Clone> Clone for Evaluation<G, H> {
    fn clone(&self) -> Self {
        Evaluation {
            network: self.network.clone(),
            hand_written: self.hand_written.clone(),
            game: PhantomData,
        }
    }
}

impl<G: Features, H: Default> Default for Evaluation<G, H> {
    /// The built-in network, or the hand-written evaluation for a game without one.
    fn default() -> Self {
        Evaluation {
            network: G::built_in().map(|(_, network)| network),
            hand_written: H::default(),
            game: PhantomData,
        }
    }
}

impl<G: Features, H: Default> Evaluation<G, H> {
    /// The engine's evaluation with `network`.
    pub fn with_network(network: Network) -> Self {
        Evaluation {
            network: Some(Arc::new(network)),
            hand_written: H::default(),
            game: PhantomData,
        }
    }

    /// The hand-written evaluation alone.
    pub fn hand_written() -> Self {
        Evaluation {
            network: None,
            hand_written: H::default(),
            game: PhantomData,
        }
    }

    /// The network played with, if any.
    pub fn network(&self) -> Option<&Arc<Network>> {
        self.network.as_ref()
    }
}

/// A network's score kept clear of the mate scores.
fn bounded(score: Score) -> Score {
    score.clamp(-(MATE_BOUND - 1), MATE_BOUND - 1)
}

impl<G, H> Evaluator<G> for Evaluation<G, H>
where
    G: Features,
    H: Evaluator<G, State = ()> + Clone + Default,
{
    type State = Option<Accumulators<G>>;

    fn new_state(&self, root: &G) -> Self::State {
        self.network
            .as_ref()
            .map(|network| Accumulators::new(network, root))
    }

    #[inline]
    fn make(&self, state: &mut Self::State, pos: &G, mv: Option<G::Move>) {
        if let Some(acc) = state {
            acc.push(pos, mv);
        }
    }

    #[inline]
    fn unmake(&self, state: &mut Self::State) {
        if let Some(acc) = state {
            acc.pop();
        }
    }

    fn evaluate(&self, pos: &G) -> Score {
        match &self.network {
            Some(network) => bounded(network.evaluate(pos)),
            None => self.hand_written.evaluate(pos),
        }
    }

    fn evaluate_with(&self, pos: &G, state: &mut Self::State) -> Score {
        match (&self.network, state) {
            (Some(network), Some(acc)) => bounded(acc.evaluate(network, pos)),
            _ => self.evaluate(pos),
        }
    }

    fn noisy_moves(&self, pos: &G, moves: &mut MoveList<G::Move>) {
        self.hand_written.noisy_moves(pos, moves)
    }

    fn exchange(&self, pos: &G, mv: G::Move) -> Option<Score> {
        self.hand_written.exchange(pos, mv)
    }

    fn futility_margin(&self, depth: i32) -> Option<Score> {
        self.hand_written.futility_margin(depth)
    }

    fn capture_order(&self, pos: &G, mv: G::Move) -> Score {
        self.hand_written.capture_order(pos, mv)
    }

    fn options(&self) -> Vec<OptionSpec> {
        vec![OptionSpec {
            name: EVAL_FILE,
            kind: OptionKind::Text {
                default: G::built_in().map_or(NO_FILE, |(name, _)| name),
            },
        }]
    }

    /// The model is fitted to games of the hand-written evaluation; a network's scores are
    /// read by it too until one is fitted to its own games.
    fn win_draw_loss(&self, pos: &G, score: Score) -> Option<[u32; 3]> {
        self.hand_written.win_draw_loss(pos, score)
    }

    /// Measured with the hand-written evaluation, which [`Evaluator::strength_limited`]
    /// therefore plays with.
    fn elo_scale(&self) -> Option<EloScale> {
        self.hand_written.elo_scale()
    }

    fn strength_limited(&self) -> Option<Self> {
        self.network.is_some().then(Self::hand_written)
    }

    fn configured(&self, name: &str, value: &str) -> Result<Self, String> {
        if name != EVAL_FILE {
            return Err(format!(
                "the evaluation has no option {}",
                crate::core::quote(name)
            ));
        }
        let path = value.trim();
        if path.is_empty() || path == NO_FILE {
            return Ok(Self::hand_written());
        }
        if let Some((name, _)) = G::built_in()
            && path == name
            && !std::path::Path::new(path).exists()
        {
            return Ok(Self::default());
        }
        // The whole path, unlike other echoed tokens: it is what the user must correct.
        let bytes = std::fs::read(path).map_err(|e| format!("EvalFile '{path}': {e}"))?;
        let network = Network::from_bytes(&bytes, G::INPUTS)
            .map_err(|e| format!("EvalFile '{path}': {e}"))?;
        Ok(Self::with_network(network))
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use rand::rngs::StdRng;
    use rand::{RngExt, SeedableRng};

    /// A network of small random weights for a game of `inputs` inputs, with `hidden`
    /// units per view.
    pub(crate) fn random_network(seed: u64, inputs: usize, hidden: usize) -> Network {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut draw =
            |n: usize, range: i16| (0..n).map(|_| rng.random_range(-range..=range)).collect();
        let feature_weights = draw(inputs * hidden, 40);
        let feature_bias = draw(hidden, 60);
        let output_weights = draw(2 * hidden, 60);
        let direct_weights = (0..inputs)
            .map(|_| rng.random_range(-90_000..=90_000))
            .collect();
        Network {
            hidden,
            feature_weights,
            feature_bias,
            output_weights,
            direct_weights,
            output_bias: 1234,
        }
    }

    /// Letters of one case in the other: the colours of FEN and SFEN pieces swapped.
    pub(crate) fn swap_case(text: &str) -> String {
        text.chars()
            .map(|c| {
                if c.is_ascii_uppercase() {
                    c.to_ascii_lowercase()
                } else {
                    c.to_ascii_uppercase()
                }
            })
            .collect()
    }

    /// `a` and `b` are one position and the same turned round with the colours swapped:
    /// the same to the side to move, so the network scores them alike (and not as the
    /// start position, lest a network that scores everything alike pass).
    pub(crate) fn check_turned_positions_agree<G: Features>(network: &Network, a: &str, b: &str) {
        let (a, b) = (G::from_notation(a).unwrap(), G::from_notation(b).unwrap());
        assert_ne!(a.to_notation(), b.to_notation());
        assert_eq!(network.evaluate(&a), network.evaluate(&b));
        assert_ne!(network.evaluate(&a), network.evaluate(&G::start_position()));
    }

    /// An evaluation with a network that checks at every evaluation that the search's
    /// accumulators agree with a refresh from the whole position.
    struct Checked<E>(E);

    impl<G, H> Evaluator<G> for Checked<Evaluation<G, H>>
    where
        G: Features,
        H: Evaluator<G, State = ()> + Clone + Default,
    {
        type State = Option<Accumulators<G>>;
        fn new_state(&self, root: &G) -> Self::State {
            self.0.new_state(root)
        }
        fn make(&self, state: &mut Self::State, pos: &G, mv: Option<G::Move>) {
            self.0.make(state, pos, mv);
        }
        fn unmake(&self, state: &mut Self::State) {
            self.0.unmake(state);
        }
        fn evaluate(&self, pos: &G) -> Score {
            self.0.evaluate(pos)
        }
        fn evaluate_with(&self, pos: &G, state: &mut Self::State) -> Score {
            let score = self.0.evaluate_with(pos, state);
            assert_eq!(score, self.0.evaluate(pos), "{}", pos.to_notation());
            score
        }
    }

    /// Searches from `pos` on one and two threads, null moves and all, checking the
    /// accumulators at every evaluation.
    pub(crate) fn check_search_keeps_accumulators<G, H>(eval: Evaluation<G, H>, pos: &G)
    where
        G: Features,
        H: Evaluator<G, State = ()> + Clone + Default,
    {
        assert!(eval.network().is_some());
        let checked = Checked(eval);
        for threads in [1, 2] {
            let tt = crate::search::TranspositionTable::new(4);
            let result = crate::search::search_to_depth(pos, &checked, &tt, 6, threads);
            assert!(result.best.is_some());
        }
    }

    /// Along random games (captures, promotions, drops, castling first, half the time),
    /// the lazily updated sums give what a refresh from the whole position gives, at
    /// every ply and after every move is taken back. Returns how many positions it checked.
    pub(crate) fn check_updates_along_random_games<G: Features>(
        network: &Network,
        starts: &[&str],
        special: impl Fn(&G, G::Move) -> bool,
        seed: u64,
    ) -> usize {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut moves = MoveList::new();
        let mut checked = 0;
        let mut check = |acc: &mut Accumulators<G>, pos: &G| {
            assert_eq!(
                acc.evaluate(network, pos),
                network.evaluate(pos),
                "{}",
                pos.to_notation()
            );
            checked += 1;
        };
        for game in 0..60 {
            let mut pos = G::from_notation(starts[game % starts.len()]).unwrap();
            let mut acc = Accumulators::new(network, &pos);
            let mut line = Vec::new();
            for _ in 0..80 {
                moves.clear();
                pos.legal_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                let mv = moves
                    .iter()
                    .copied()
                    .find(|&m| rng.random_bool(0.5) && special(&pos, m))
                    .unwrap_or(moves[rng.random_range(0..moves.len())]);
                acc.push(&pos, Some(mv));
                line.push((mv, pos.make_move(mv)));
                // Evaluate only now and then, so that several plies are brought up at once.
                if rng.random_bool(0.4) {
                    check(&mut acc, &pos);
                }
            }
            while let Some((mv, undo)) = line.pop() {
                pos.unmake_move(mv, undo);
                acc.pop();
                if rng.random_bool(0.2) {
                    check(&mut acc, &pos);
                }
            }
        }
        checked
    }

    #[test]
    fn a_network_file_reads_back_and_bad_files_are_refused() {
        for hidden in [BLOCK, 128, MAX_HIDDEN] {
            let network = random_network(1, 100, hidden);
            assert_eq!(
                Network::from_bytes(&network.to_bytes(), 100).unwrap(),
                network
            );
        }
        let network = random_network(1, 100, 128);
        let bytes = network.to_bytes();
        assert!(Network::from_bytes(&bytes[..bytes.len() - 1], 100).is_err());
        let error = Network::from_bytes(&bytes, 101).unwrap_err().to_string();
        assert!(error.contains("another game"), "{error}");
        assert!(Network::from_bytes(b"NOTANETWORK", 100).is_err());
        for size in [0, 100, 2 * MAX_HIDDEN] {
            let mut other_size = bytes.clone();
            other_size[8..12].copy_from_slice(&(size as u32).to_le_bytes());
            let error = Network::from_bytes(&other_size, 100)
                .unwrap_err()
                .to_string();
            assert!(error.contains(&format!("{size} hidden units")), "{error}");
        }
        // Output weights whose sum could overflow.
        let mut loud = random_network(1, 100, MAX_HIDDEN);
        loud.output_weights[3] = max_output_weight(MAX_HIDDEN) + 1;
        let error = Network::from_bytes(&loud.to_bytes(), 100)
            .unwrap_err()
            .to_string();
        assert!(error.contains("output weights"), "{error}");
    }

    /// The output of the largest network with every unit at its clip and every output
    /// weight at its limit is the exact sum, not a wrapped one.
    #[test]
    fn the_largest_output_does_not_overflow() {
        let hidden = MAX_HIDDEN;
        let limit = max_output_weight(hidden);
        let network = Network {
            hidden,
            feature_weights: Vec::new(),
            feature_bias: Vec::new(),
            output_weights: vec![limit; 2 * hidden],
            direct_weights: Vec::new(),
            output_bias: 0,
        };
        let mut full = Sum::ZERO;
        full.hidden.fill(QA as i16);
        let expected = 2 * hidden as i64 * i64::from(QA) * i64::from(limit) * i64::from(SCALE)
            / i64::from(QA * QB);
        assert_eq!(i64::from(network.output(&[full, full], 0)), expected);
    }
}

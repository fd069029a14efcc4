//! An efficiently updatable neural network (NNUE) for chess: 768 inputs (colour relative
//! to the side whose view it is, piece kind, square mirrored for Black) into [`HIDDEN`]
//! units per view, clipped ReLU, then one output from both views, the side to move's
//! first. Beside the hidden units each input has a weight added straight to the output
//! (as Stockfish's PSQT weights): half the side to move's sum of them less half the
//! other side's. That linear part learns material and piece placement from far fewer
//! positions than the hidden units need, leaving them the rest. Quantized to integers
//! as the inference runs it: the feature transformer in `i16` scaled by [`QA`], the
//! output weights by [`QB`], the direct weights in `i32` by both.
//!
//! The search does not add up 32 features at every node: each thread's [`Accumulators`]
//! keeps one pair of sums per ply and learns of each move's few added and removed
//! features, applied lazily when a position is evaluated.

use super::board::{EMPTY, Move};
use super::{Eval, Position};
use crate::core::{
    EloScale, Evaluator, MATE_BOUND, MoveList, OptionKind, OptionSpec, Score, quote,
};
use once_cell::sync::Lazy;
use std::sync::Arc;

/// Hidden units per view.
pub const HIDDEN: usize = 128;
/// Inputs per view: two colours, six kinds, 64 squares.
pub const INPUTS: usize = 768;
/// Scale of the feature transformer's weights and biases, and the clip of its output.
pub const QA: i32 = 255;
/// Scale of the output weights. A trained network's output weights are mostly below
/// 0.2, where 64 steps to the unit lost a tenth of each; at 1024 the sum of 256 clipped
/// activations times `i16` weights still fits an `i32` (256 · 255 · 32767 < 2^31).
pub const QB: i32 = 1024;
/// Centipawns per unit of the network's output.
pub const SCALE: i32 = 400;

/// What a network file starts with; the hidden size follows. The second format: the first
/// scaled its output weights by 64.
const MAGIC: &[u8; 8] = b"QIYINN02";

/// A quantized network.
#[derive(Clone, Debug, PartialEq)]
pub struct Network {
    /// `INPUTS` rows of `HIDDEN` weights.
    pub feature_weights: Vec<i16>,
    pub feature_bias: Vec<i16>,
    /// The side to move's `HIDDEN` weights, then the other side's.
    pub output_weights: Vec<i16>,
    /// One weight per input, added straight to the output, scaled by `QA * QB`.
    pub direct_weights: Vec<i32>,
    pub output_bias: i32,
}

/// One view's sums: the hidden units' and the direct weights'.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sum {
    pub hidden: [i16; HIDDEN],
    pub direct: i32,
}

impl Sum {
    const ZERO: Sum = Sum {
        hidden: [0; HIDDEN],
        direct: 0,
    };
}

/// The input of a piece code on a 0x88 square, seen by `view` (0 White, 1 Black).
#[inline]
pub fn feature(view: usize, code: u8, square: u8) -> usize {
    let own = usize::from(code >> 3) == view;
    let kind = usize::from(code & 7) - 1;
    let mut index = usize::from(square >> 4) * 8 + usize::from(square & 7);
    if view == 1 {
        index ^= 56;
    }
    usize::from(!own) * 384 + kind * 64 + index
}

/// The input of the same piece on the square mirrored from left to right (files a-h
/// swapped): the square's file is its index's low three bits.
#[inline]
pub fn mirrored(feature: u16) -> u16 {
    feature ^ 7
}

/// The inputs of every piece of `pos` for `view`.
pub fn features(pos: &Position, view: usize) -> impl Iterator<Item = usize> + '_ {
    (0u8..128)
        .filter(|&sq| sq & 0x88 == 0 && pos.board[usize::from(sq)] != EMPTY)
        .map(move |sq| feature(view, pos.board[usize::from(sq)], sq))
}

impl Network {
    /// Reads a network file: [`MAGIC`], the hidden size as a little-endian `u32`, then the
    /// feature weights, feature biases and output weights as little-endian `i16`, and the
    /// direct weights and the output bias as `i32`.
    pub fn from_bytes(bytes: &[u8]) -> anyhow::Result<Network> {
        let body = bytes.strip_prefix(MAGIC.as_slice()).ok_or_else(|| {
            anyhow::anyhow!("not a qiyi network file of this format (no QIYINN02 header)")
        })?;
        let (size, body) = body
            .split_first_chunk::<4>()
            .ok_or_else(|| anyhow::anyhow!("network file cut short"))?;
        let hidden = u32::from_le_bytes(*size) as usize;
        if hidden != HIDDEN {
            anyhow::bail!("network has {hidden} hidden units; this build reads {HIDDEN}");
        }
        let shorts = INPUTS * HIDDEN + HIDDEN + 2 * HIDDEN;
        let size = 2 * shorts + 4 * (INPUTS + 1);
        if body.len() != size {
            anyhow::bail!(
                "network file has {} bytes after its header, not {size}",
                body.len()
            );
        }
        let (short_bytes, int_bytes) = body.split_at(2 * shorts);
        let mut shorts = short_bytes
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]));
        let mut take = |n: usize| shorts.by_ref().take(n).collect::<Vec<i16>>();
        let feature_weights = take(INPUTS * HIDDEN);
        let feature_bias = take(HIDDEN);
        let output_weights = take(2 * HIDDEN);
        let mut ints: Vec<i32> = int_bytes
            .chunks_exact(4)
            .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        let output_bias = ints.pop().unwrap_or_default();
        Ok(Network {
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
        bytes.extend_from_slice(&(HIDDEN as u32).to_le_bytes());
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
        sum.hidden.copy_from_slice(&self.feature_bias);
        for f in inputs {
            self.add(&mut sum, f);
        }
        sum
    }

    /// Both views' sums over the whole board.
    pub fn refresh(&self, pos: &Position) -> [Sum; 2] {
        [self.sum(features(pos, 0)), self.sum(features(pos, 1))]
    }

    #[inline]
    fn add(&self, sum: &mut Sum, feature: usize) {
        let row = &self.feature_weights[feature * HIDDEN..(feature + 1) * HIDDEN];
        for (s, w) in sum.hidden.iter_mut().zip(row) {
            *s = s.wrapping_add(*w);
        }
        sum.direct += self.direct_weights[feature];
    }

    #[inline]
    fn remove(&self, sum: &mut Sum, feature: usize) {
        let row = &self.feature_weights[feature * HIDDEN..(feature + 1) * HIDDEN];
        for (s, w) in sum.hidden.iter_mut().zip(row) {
            *s = s.wrapping_sub(*w);
        }
        sum.direct -= self.direct_weights[feature];
    }

    /// The score from the view of `side`, the side to move, given both views' sums.
    pub fn output(&self, sums: &[Sum; 2], side: usize) -> Score {
        let (us, them) = (&sums[side], &sums[side ^ 1]);
        let (ours, theirs) = self.output_weights.split_at(HIDDEN);
        let clip = |v: i16| i32::from(v).clamp(0, QA);
        let mut total = 0i32;
        for i in 0..HIDDEN {
            total += clip(us.hidden[i]) * i32::from(ours[i])
                + clip(them.hidden[i]) * i32::from(theirs[i]);
        }
        let direct = (i64::from(us.direct) - i64::from(them.direct)) / 2;
        ((i64::from(total) + direct + i64::from(self.output_bias)) * i64::from(SCALE)
            / i64::from(QA * QB)) as Score
    }

    /// The score of `pos` from the side to move's view, from the whole board.
    pub fn evaluate(&self, pos: &Position) -> Score {
        self.output(&self.refresh(pos), pos.side.index())
    }
}

/// The inputs one move adds and removes, for both views: a capture, a castling or a
/// promotion changes at most two pieces' squares and removes at most one.
#[derive(Clone, Copy, Debug, Default)]
struct Change {
    added: [(u8, u8); 2],
    removed: [(u8, u8); 2],
    adds: u8,
    removes: u8,
}

impl Change {
    fn add(&mut self, code: u8, square: u8) {
        self.added[usize::from(self.adds)] = (code, square);
        self.adds += 1;
    }

    fn remove(&mut self, code: u8, square: u8) {
        self.removed[usize::from(self.removes)] = (code, square);
        self.removes += 1;
    }

    /// What `mv`, about to be played in `pos`, changes.
    fn of(pos: &Position, mv: Move) -> Change {
        let mut change = Change::default();
        let (from, to) = (mv.from().0, mv.to().0);
        let code = pos.board[usize::from(from)];
        if mv.is_castling() {
            let (king_to, rook_to) = super::board::castling_targets(from, to);
            let rook = pos.board[usize::from(to)];
            change.remove(code, from);
            change.remove(rook, to);
            change.add(code, king_to);
            change.add(rook, rook_to);
            return change;
        }
        let victim_square = if mv.is_en_passant() {
            if code >> 3 == 0 { to - 16 } else { to + 16 }
        } else {
            to
        };
        let victim = pos.board[usize::from(victim_square)];
        change.remove(code, from);
        if victim != EMPTY {
            change.remove(victim, victim_square);
        }
        let arrived = match mv.promotion() {
            Some(piece) => (code & 8) | piece as u8,
            None => code,
        };
        change.add(arrived, to);
        change
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
pub struct Accumulators {
    /// The plies of the current line are the first `len`; those beyond are kept for
    /// their room, so that a push writes a move's change and not a copy of the sums.
    plies: Vec<Ply>,
    len: usize,
}

impl Accumulators {
    pub fn new(network: &Network, root: &Position) -> Accumulators {
        let mut plies = Vec::with_capacity(crate::search::MAX_PLY + 2);
        plies.push(Ply {
            sums: network.refresh(root),
            change: None,
            fresh: true,
        });
        Accumulators { plies, len: 1 }
    }

    /// `mv` is about to be played in `pos` (`None`: a null move was played).
    #[inline]
    pub fn push(&mut self, pos: &Position, mv: Option<Move>) {
        let change = mv.map(|mv| Change::of(pos, mv));
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
    pub fn evaluate(&mut self, network: &Network, pos: &Position) -> Score {
        let last = self.len - 1;
        let mut start = last;
        while !self.plies[start].fresh {
            start -= 1;
        }
        for i in start + 1..=last {
            let mut sums = self.plies[i - 1].sums;
            if let Some(change) = self.plies[i].change {
                for (view, sum) in sums.iter_mut().enumerate() {
                    for &(code, sq) in &change.removed[..usize::from(change.removes)] {
                        network.remove(sum, feature(view, code, sq));
                    }
                    for &(code, sq) in &change.added[..usize::from(change.adds)] {
                        network.add(sum, feature(view, code, sq));
                    }
                }
            }
            self.plies[i].sums = sums;
            self.plies[i].fresh = true;
        }
        network.output(&self.plies[last].sums, pos.side.index())
    }
}

/// The option that names a network file.
const EVAL_FILE: &str = "EvalFile";

/// The name of the network built into the binary: `EvalFile`'s default, which loads the
/// built-in network unless a file of that name exists (as Stockfish does). How it was
/// made, and the match that took it, are in docs/nnue.md.
pub const EMBEDDED_NAME: &str = "qiyi-chess-gen2.nnue";

/// The built-in network, read once.
static EMBEDDED: Lazy<Arc<Network>> = Lazy::new(|| {
    let bytes = include_bytes!("qiyi-chess-gen2.nnue");
    Arc::new(Network::from_bytes(bytes).expect("the built-in network reads"))
});

/// The evaluation the engine plays chess with: the network `EvalFile` names (by default
/// the built-in one), or the hand-written [`Eval`] when `EvalFile` is empty. Quiescence,
/// move ordering and pruning margins are the hand-written evaluation's either way.
#[derive(Clone)]
pub struct Evaluation {
    network: Option<Arc<Network>>,
}

impl Default for Evaluation {
    /// The built-in network.
    fn default() -> Evaluation {
        Evaluation {
            network: Some(EMBEDDED.clone()),
        }
    }
}

impl Evaluation {
    /// The engine's evaluation with `network`.
    pub fn with_network(network: Network) -> Evaluation {
        Evaluation {
            network: Some(Arc::new(network)),
        }
    }

    /// The hand-written evaluation alone.
    pub fn hand_written() -> Evaluation {
        Evaluation { network: None }
    }
}

/// A network's score kept clear of the mate scores.
fn bounded(score: Score) -> Score {
    score.clamp(-(MATE_BOUND - 1), MATE_BOUND - 1)
}

impl Evaluator<Position> for Evaluation {
    type State = Option<Accumulators>;

    fn new_state(&self, root: &Position) -> Self::State {
        self.network
            .as_ref()
            .map(|network| Accumulators::new(network, root))
    }

    #[inline]
    fn make(&self, state: &mut Self::State, pos: &Position, mv: Option<Move>) {
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

    fn evaluate(&self, pos: &Position) -> Score {
        match &self.network {
            Some(network) => bounded(network.evaluate(pos)),
            None => Eval.evaluate(pos),
        }
    }

    fn evaluate_with(&self, pos: &Position, state: &mut Self::State) -> Score {
        match (&self.network, state) {
            (Some(network), Some(acc)) => bounded(acc.evaluate(network, pos)),
            _ => self.evaluate(pos),
        }
    }

    fn noisy_moves(&self, pos: &Position, moves: &mut MoveList<Move>) {
        Eval.noisy_moves(pos, moves)
    }

    fn good_capture(&self, pos: &Position, mv: Move) -> bool {
        Eval.good_capture(pos, mv)
    }

    fn futility_margin(&self, depth: i32) -> Option<Score> {
        Evaluator::<Position>::futility_margin(&Eval, depth)
    }

    fn capture_order(&self, pos: &Position, mv: Move) -> Score {
        Eval.capture_order(pos, mv)
    }

    fn options(&self) -> Vec<OptionSpec> {
        vec![OptionSpec {
            name: EVAL_FILE,
            kind: OptionKind::Text {
                default: EMBEDDED_NAME,
            },
        }]
    }

    /// The model is fitted to games of the hand-written evaluation; a network's scores are
    /// read by it too until one is fitted to its own games.
    fn win_draw_loss(&self, pos: &Position, score: Score) -> Option<[u32; 3]> {
        Some(super::wdl::win_draw_loss(pos, score))
    }

    /// Measured with the hand-written evaluation, which [`Evaluator::strength_limited`]
    /// therefore plays with.
    fn elo_scale(&self) -> Option<EloScale> {
        Some(super::strength::SCALE)
    }

    fn strength_limited(&self) -> Option<Evaluation> {
        self.network.is_some().then(Evaluation::hand_written)
    }

    fn configured(&self, name: &str, value: &str) -> Result<Evaluation, String> {
        if name != EVAL_FILE {
            return Err(format!(
                "the chess evaluation has no option {}",
                quote(name)
            ));
        }
        let path = value.trim();
        if path.is_empty() || path == "<empty>" {
            return Ok(Evaluation::hand_written());
        }
        if path == EMBEDDED_NAME && !std::path::Path::new(path).exists() {
            return Ok(Evaluation::default());
        }
        // The whole path, unlike other echoed tokens: it is what the user must correct.
        let bytes = std::fs::read(path).map_err(|e| format!("EvalFile '{path}': {e}"))?;
        let network = Network::from_bytes(&bytes).map_err(|e| format!("EvalFile '{path}': {e}"))?;
        Ok(Evaluation::with_network(network))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{Game, MoveList};
    use rand::rngs::StdRng;
    use rand::{RngExt, SeedableRng};

    /// A network of small random weights.
    fn random_network(seed: u64) -> Network {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut draw =
            |n: usize, range: i16| (0..n).map(|_| rng.random_range(-range..=range)).collect();
        let feature_weights = draw(INPUTS * HIDDEN, 40);
        let feature_bias = draw(HIDDEN, 60);
        let output_weights = draw(2 * HIDDEN, 60);
        let direct_weights = (0..INPUTS)
            .map(|_| rng.random_range(-90_000..=90_000))
            .collect();
        Network {
            feature_weights,
            feature_bias,
            output_weights,
            direct_weights,
            output_bias: 1234,
        }
    }

    /// The engine's evaluation with a network, checking at every evaluation that the
    /// search's accumulators agree with a refresh from the whole board.
    struct Checked(Evaluation);

    impl Evaluator<Position> for Checked {
        type State = Option<Accumulators>;
        fn new_state(&self, root: &Position) -> Self::State {
            self.0.new_state(root)
        }
        fn make(&self, state: &mut Self::State, pos: &Position, mv: Option<Move>) {
            self.0.make(state, pos, mv);
        }
        fn unmake(&self, state: &mut Self::State) {
            self.0.unmake(state);
        }
        fn evaluate(&self, pos: &Position) -> Score {
            self.0.evaluate(pos)
        }
        fn evaluate_with(&self, pos: &Position, state: &mut Self::State) -> Score {
            let score = self.0.evaluate_with(pos, state);
            assert_eq!(score, self.0.evaluate(pos), "{}", pos.to_notation());
            score
        }
    }

    #[test]
    fn a_search_with_null_moves_keeps_the_accumulators_right() {
        let checked = Checked(Evaluation::with_network(random_network(5)));
        let pos = Position::from_notation(
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        )
        .unwrap();
        for threads in [1, 2] {
            let tt = crate::search::TranspositionTable::new(4);
            let result = crate::search::search_to_depth(&pos, &checked, &tt, 6, threads);
            assert!(result.best.is_some());
        }
        // The hand-written evaluation when no network is loaded, and back to it.
        let plain = Evaluation::hand_written();
        assert_eq!(plain.evaluate(&pos), Eval.evaluate(&pos));
        assert!(plain.configured("EvalFile", "/no/such/file.nnue").is_err());
        let back = checked.0.configured("EvalFile", "<empty>").unwrap();
        assert!(back.network.is_none());
    }

    #[test]
    fn a_network_file_reads_back_and_bad_files_are_refused() {
        let network = random_network(1);
        let bytes = network.to_bytes();
        assert_eq!(Network::from_bytes(&bytes).unwrap(), network);
        assert!(Network::from_bytes(&bytes[..bytes.len() - 1]).is_err());
        assert!(Network::from_bytes(b"NOTANETWORK").is_err());
        let mut other_size = bytes.clone();
        other_size[8] = 64;
        let error = Network::from_bytes(&other_size).unwrap_err().to_string();
        assert!(error.contains("64 hidden units"), "{error}");
    }

    /// The built-in network reads, is what the engine plays with, and knows that a queen
    /// up is better for the side that has it; strength limiting sets it aside.
    #[test]
    fn the_built_in_network_plays_and_counts_material() {
        let built_in = Evaluation::default();
        let eval = |fen: &str| built_in.evaluate(&Position::from_notation(fen).unwrap());
        let even = eval("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        assert!(even.abs() < 100, "{even}");
        let queen_up = eval("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        assert!(queen_up > even + 500, "{queen_up}");
        let queen_down = eval("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1");
        assert!(queen_down < even - 500, "{queen_down}");
        let limited = built_in
            .strength_limited()
            .expect("the hand-written evaluation");
        assert!(limited.network.is_none());
        assert!(Evaluation::hand_written().strength_limited().is_none());
        let named = built_in.configured("EvalFile", EMBEDDED_NAME).unwrap();
        assert!(Arc::ptr_eq(
            named.network.as_ref().unwrap(),
            built_in.network.as_ref().unwrap()
        ));
    }

    #[test]
    fn both_views_of_a_mirrored_position_agree() {
        let network = random_network(2);
        let fen = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w - - 4 4";
        let fields: Vec<&str> = fen.split(' ').collect();
        let ranks: Vec<String> = fields[0]
            .split('/')
            .rev()
            .map(|rank| {
                rank.chars()
                    .map(|c| {
                        if c.is_ascii_uppercase() {
                            c.to_ascii_lowercase()
                        } else {
                            c.to_ascii_uppercase()
                        }
                    })
                    .collect()
            })
            .collect();
        let mirrored = format!("{} b - - 4 4", ranks.join("/"));
        let (pos, mirrored) = (
            Position::from_notation(fen).unwrap(),
            Position::from_notation(&mirrored).unwrap(),
        );
        assert_eq!(network.evaluate(&pos), network.evaluate(&mirrored));
        assert_ne!(
            network.evaluate(&pos),
            network.evaluate(&Position::start_position())
        );
    }

    /// Along random games full of captures, castling, en passant and promotions, the
    /// lazily updated sums give what a refresh from the whole board gives, at every ply
    /// and after every move is taken back.
    #[test]
    fn updated_sums_equal_a_refresh_along_random_games() {
        let network = random_network(3);
        let mut rng = StdRng::seed_from_u64(4);
        let starts = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            // Chess960 castling: king and rook on each other's squares, a king that stays.
            "rk5r/pp4pp/8/8/8/8/PP4PP/RK5R w HAha - 0 1",
            "1r4kr/p6p/8/8/8/8/P6P/1R4KR w HBhb - 0 1",
        ];
        let mut moves = MoveList::new();
        let checked = std::cell::Cell::new(0);
        let check = |acc: &mut Accumulators, pos: &Position| {
            let refreshed = network.evaluate(pos);
            assert_eq!(
                acc.evaluate(&network, pos),
                refreshed,
                "{}",
                pos.to_notation()
            );
            checked.set(checked.get() + 1);
        };
        for game in 0..60 {
            let mut pos = Position::from_notation(starts[game % starts.len()]).unwrap();
            let mut acc = Accumulators::new(&network, &pos);
            let mut line = Vec::new();
            for _ in 0..80 {
                moves.clear();
                pos.legal_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                // Captures, promotions and castling first, half the time.
                let mv = moves
                    .iter()
                    .copied()
                    .find(|&m| {
                        rng.random_bool(0.5)
                            && (pos.is_capture(m) || m.promotion().is_some() || m.is_castling())
                    })
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
        assert!(checked.get() > 1000, "{}", checked.get());
    }
}

//! What a game tells the network: the inputs each piece sets in each view ([`Features`]),
//! and what a move changes in them ([`Change`]), small enough for the accumulators to
//! keep one per ply.

use super::Network;
use crate::core::Game;
use std::sync::Arc;

/// A piece as a game's inputs name it: a game's own piece code and where it stands (for
/// shogi's pieces in hand, a marked code and the count), small enough to keep a move's
/// changes in a few bytes.
pub type Piece = (u8, u8);

/// The most inputs one piece has in one view.
pub(super) const MAX_PIECE_INPUTS: usize = 3;

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
    /// The view whose sums come first in the output, the side to move's: in chess and
    /// shogi the player to move, in Junqi its team (a view per team, not per seat).
    fn view_to_move(&self) -> usize {
        self.side_to_move()
    }
    /// The inputs of `piece` seen by `view` (a player; in Junqi a team) in `context`.
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
    pub(super) new_context: bool,
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

    pub(super) fn added(&self) -> &[Piece] {
        &self.added[..usize::from(self.adds)]
    }

    pub(super) fn removed(&self) -> &[Piece] {
        &self.removed[..usize::from(self.removes)]
    }
}

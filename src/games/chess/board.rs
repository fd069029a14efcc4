//! The position: a 0x88 mailbox with piece lists, the state the rules need (castling
//! rights, en-passant square, clocks), the incremental Zobrist key and the key history
//! for repetitions; make/unmake of moves and the attack queries built on the tables.

use super::tables::{self, ATTACK, DIRECTION, diff, on_board};
use super::types::{
    CASTLE, Color, DOUBLE_PUSH, EN_PASSANT, Move, PROMOTION, Piece, Square, castling_targets,
};
use super::zobrist;

/// Castling-rights bits.
pub const WHITE_KINGSIDE: u8 = 1;
pub const WHITE_QUEENSIDE: u8 = 2;
pub const BLACK_KINGSIDE: u8 = 4;
pub const BLACK_QUEENSIDE: u8 = 8;

/// The index (0..4) of a castling-rights bit, for per-right arrays.
#[inline(always)]
pub(super) fn right_index(bit: u8) -> usize {
    bit.trailing_zeros() as usize
}

/// One castling right's rook, and the squares its castling needs empty and unattacked,
/// for a king and rook at home.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct CastlingPath {
    /// The rook's square: in standard chess a corner, in Chess960 wherever the start
    /// position put it.
    pub(super) rook: u8,
    /// Every square the king or rook crosses or lands on, but their own two.
    pub(super) empty: [u8; 8],
    pub(super) empties: u8,
    /// The squares the king crosses or lands on, its start left out (castling is only
    /// generated out of check) unless it stays there and its rook is lifted.
    pub(super) king_path: [u8; 8],
    pub(super) king_steps: u8,
    /// Whether the rook stands between the king's path and a square beyond it on the
    /// first rank (it is not in its corner), so that it must be lifted from the board
    /// before attacks on the path are asked.
    pub(super) lift_rook: bool,
}

impl CastlingPath {
    fn new(king: u8, rook: u8) -> CastlingPath {
        let mut path = CastlingPath {
            rook,
            lift_rook: !matches!(rook & 7, 0 | 7),
            ..CastlingPath::default()
        };
        let (king_to, rook_to) = castling_targets(king, rook);
        let low = king.min(rook).min(king_to).min(rook_to);
        let high = king.max(rook).max(king_to).max(rook_to);
        for sq in (low..=high).filter(|&sq| sq != king && sq != rook) {
            path.empty[usize::from(path.empties)] = sq;
            path.empties += 1;
        }
        let mut sq = king;
        while sq != king_to {
            sq = if king_to > king { sq + 1 } else { sq - 1 };
            path.king_path[usize::from(path.king_steps)] = sq;
            path.king_steps += 1;
        }
        if king_to == king && path.lift_rook {
            // A king that stays put may stand in check once its rook has gone.
            path.king_path[0] = king;
            path.king_steps = 1;
        }
        path
    }
}

/// Board code of an empty square.
pub(super) const EMPTY: u8 = 0;
/// Marks "no en-passant square".
pub(super) const NO_SQUARE: u8 = 0xFF;

/// The board's piece code: kind in the low three bits, bit 3 set for Black.
#[inline(always)]
pub(super) const fn piece_code(color: Color, piece: Piece) -> u8 {
    (color as u8) << 3 | piece as u8
}

/// Everything `make_move` destroys, for `unmake_move` (16 bytes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Undo {
    key: u64,
    halfmove: u16,
    /// Piece code of the captured piece, or `EMPTY`.
    captured: u8,
    /// Where the captured piece stood in its list, so that unmaking restores list order.
    captured_slot: u8,
    /// Where a promoting pawn stood in the pawn list.
    pawn_slot: u8,
    castling: u8,
    ep: u8,
}

/// A chess position.
///
/// Piece lists keep, per colour and kind, the squares of the pieces, so that generation
/// and evaluation visit pieces rather than squares; `slot` maps a square back to its list
/// index so a capture removes a piece in O(1). Unmaking restores the lists in their
/// original order, so a make/unmake pair leaves the position equal field by field.
#[derive(Clone, Debug)]
pub struct Position {
    pub(super) board: [u8; 128],
    pub(super) slot: [u8; 128],
    /// `lists[colour][kind]`, kinds 1..=6 (index 0 unused); 16 slots fit any FEN we accept.
    pub(super) lists: [[[Square; 16]; 7]; 2],
    pub(super) counts: [[u8; 7]; 2],
    pub(super) side: Color,
    pub(super) castling: u8,
    /// The en-passant target square, or `NO_SQUARE`. It is only set when a pawn of the
    /// side to move stands beside the double-pushed pawn, so the key distinguishes
    /// positions only when a capture is at least pseudo-legal.
    pub(super) ep: u8,
    pub(super) halfmove: u16,
    pub(super) fullmove: u16,
    pub(super) key: u64,
    /// Each castling right's rook and what castling with it asks of the board, by
    /// [`right_index`], worked out once from the home squares so that generation only
    /// reads it; meaningful for the rights the position was given.
    pub(super) castling_paths: [CastlingPath; 4],
    /// The rights that survive a move from or to each square: a king or castling rook
    /// leaving home, or a castling rook captured there.
    pub(super) castling_kept: [u8; 128],
    /// Each right's Zobrist key, which depends on its rook's file (see
    /// `zobrist::CASTLING_RIGHT`).
    pub(super) castling_keys: [u64; 4],
    /// `UCI_Chess960`: castling is named king takes rook and FENs print Shredder-FEN
    /// castling fields. A convention of notation, which the rules never read.
    pub(super) chess960: bool,
    /// Keys of the positions before each move played (and null move), oldest first.
    pub(super) history: Vec<u64>,
}

/// Positions are equal when everything the rules and notation see is equal; the history
/// (how the position was reached) is not compared.
impl PartialEq for Position {
    fn eq(&self, other: &Position) -> bool {
        self.board == other.board
            && self.side == other.side
            && self.castling == other.castling
            && (0..4).all(|i| {
                self.castling & 1 << i == 0
                    || self.castling_paths[i].rook == other.castling_paths[i].rook
            })
            && self.chess960 == other.chess960
            && self.ep == other.ep
            && self.halfmove == other.halfmove
            && self.fullmove == other.fullmove
            && self.key == other.key
    }
}

impl Eq for Position {}

/// Room reserved in the key history so that games and searches rarely reallocate.
const HISTORY_CAPACITY: usize = 1024;

impl Position {
    /// An empty board, White to move; filled by the FEN reader.
    pub(super) fn empty() -> Position {
        Position {
            board: [EMPTY; 128],
            slot: [0; 128],
            lists: [[[Square(0); 16]; 7]; 2],
            counts: [[0; 7]; 2],
            side: Color::White,
            castling: 0,
            ep: NO_SQUARE,
            halfmove: 0,
            fullmove: 1,
            key: 0,
            castling_paths: [CastlingPath::default(); 4],
            castling_kept: [15; 128],
            castling_keys: [0; 4],
            chess960: false,
            history: Vec::with_capacity(HISTORY_CAPACITY),
        }
    }

    // ----- Queries for evaluation and search -----

    /// The side to move.
    #[inline(always)]
    pub fn side(&self) -> Color {
        self.side
    }

    /// What stands on a square.
    #[inline(always)]
    pub fn piece_at(&self, sq: Square) -> Option<(Color, Piece)> {
        let code = self.board[usize::from(sq.0 & 0x77)];
        (code != EMPTY).then(|| {
            (
                Color::from_index(usize::from(code >> 3)),
                Piece::from_kind(code & 7),
            )
        })
    }

    /// The squares of one colour's pieces of one kind, in no particular order.
    #[inline(always)]
    pub fn pieces(&self, color: Color, piece: Piece) -> &[Square] {
        let c = color.index();
        let k = piece as usize;
        &self.lists[c][k][..usize::from(self.counts[c][k])]
    }

    /// How many pieces of a kind a colour has.
    #[inline(always)]
    pub fn count(&self, color: Color, piece: Piece) -> usize {
        usize::from(self.counts[color.index()][piece as usize])
    }

    /// Where a side's king stands.
    #[inline(always)]
    pub fn king_square(&self, color: Color) -> Square {
        self.lists[color.index()][Piece::King as usize][0]
    }

    /// The castling rights as a set of the `WHITE_KINGSIDE`.. `BLACK_QUEENSIDE` bits.
    #[inline(always)]
    pub fn castling_rights(&self) -> u8 {
        self.castling
    }

    /// Whether `color` still has the right to castle on the given wing.
    pub fn can_castle(&self, color: Color, kingside: bool) -> bool {
        let bit = match (color, kingside) {
            (Color::White, true) => WHITE_KINGSIDE,
            (Color::White, false) => WHITE_QUEENSIDE,
            (Color::Black, true) => BLACK_KINGSIDE,
            (Color::Black, false) => BLACK_QUEENSIDE,
        };
        self.castling & bit != 0
    }

    /// The en-passant target square, set only when a pawn stands ready to capture there
    /// (the capture may still be illegal because of a pin).
    #[inline(always)]
    pub fn en_passant(&self) -> Option<Square> {
        (self.ep != NO_SQUARE).then_some(Square(self.ep))
    }

    /// Plies since the last capture or pawn move (the 50-move rule counts to 100).
    #[inline(always)]
    pub fn halfmove_clock(&self) -> u32 {
        u32::from(self.halfmove)
    }

    /// The move number, starting at 1 and incremented after Black's move.
    #[inline(always)]
    pub fn fullmove_number(&self) -> u32 {
        u32::from(self.fullmove)
    }

    /// The Zobrist key, maintained incrementally.
    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// Whether any piece of `by` attacks `sq` (the king counts as a blocker).
    pub fn is_attacked(&self, sq: Square, by: Color) -> bool {
        self.attacked(sq.0, by.index())
    }

    // ----- Piece placement -----

    #[inline(always)]
    pub(super) fn put(&mut self, sq: u8, code: u8) {
        let (c, k) = (usize::from(code >> 3), usize::from(code & 7));
        let n = self.counts[c][k];
        self.lists[c][k][usize::from(n)] = Square(sq);
        self.counts[c][k] = n + 1;
        self.slot[usize::from(sq)] = n;
        self.board[usize::from(sq)] = code;
    }

    /// Removes the piece on `sq` by moving the last piece of its list into its slot;
    /// returns the slot it had.
    #[inline(always)]
    fn take(&mut self, sq: u8) -> u8 {
        let code = self.board[usize::from(sq)];
        let (c, k) = (usize::from(code >> 3), usize::from(code & 7));
        let slot = self.slot[usize::from(sq)];
        let last = self.counts[c][k] - 1;
        let moved = self.lists[c][k][usize::from(last)];
        self.lists[c][k][usize::from(slot)] = moved;
        self.slot[usize::from(moved.0)] = slot;
        self.counts[c][k] = last;
        self.board[usize::from(sq)] = EMPTY;
        slot
    }

    /// Undoes `take`: the piece returns to `slot`, the piece that filled it to the end.
    #[inline(always)]
    fn restore(&mut self, sq: u8, code: u8, slot: u8) {
        let (c, k) = (usize::from(code >> 3), usize::from(code & 7));
        let n = self.counts[c][k];
        if slot < n {
            let displaced = self.lists[c][k][usize::from(slot)];
            self.lists[c][k][usize::from(n)] = displaced;
            self.slot[usize::from(displaced.0)] = n;
        }
        self.lists[c][k][usize::from(slot)] = Square(sq);
        self.slot[usize::from(sq)] = slot;
        self.counts[c][k] = n + 1;
        self.board[usize::from(sq)] = code;
    }

    #[inline(always)]
    fn shift(&mut self, from: u8, to: u8) {
        let code = self.board[usize::from(from)];
        let slot = self.slot[usize::from(from)];
        self.lists[usize::from(code >> 3)][usize::from(code & 7)][usize::from(slot)] = Square(to);
        self.slot[usize::from(to)] = slot;
        self.board[usize::from(to)] = code;
        self.board[usize::from(from)] = EMPTY;
    }

    /// Moves a castling king and rook. Both leave before either arrives, since in
    /// Chess960 one may land where the other stood; list order is kept, as by `shift`.
    #[inline(always)]
    fn castle_pieces(&mut self, king_from: u8, king_to: u8, rook_from: u8, rook_to: u8) {
        let (king, rook) = (
            self.board[usize::from(king_from)],
            self.board[usize::from(rook_from)],
        );
        let (king_slot, rook_slot) = (
            self.slot[usize::from(king_from)],
            self.slot[usize::from(rook_from)],
        );
        self.board[usize::from(king_from)] = EMPTY;
        self.board[usize::from(rook_from)] = EMPTY;
        for (sq, code, slot) in [(king_to, king, king_slot), (rook_to, rook, rook_slot)] {
            self.board[usize::from(sq)] = code;
            self.slot[usize::from(sq)] = slot;
            self.lists[usize::from(code >> 3)][usize::from(code & 7)][usize::from(slot)] =
                Square(sq);
        }
    }

    /// The key computed from scratch; the incremental key must always equal it.
    pub(super) fn compute_key(&self) -> u64 {
        let mut key = 0;
        for sq in 0..128u8 {
            let code = self.board[usize::from(sq)];
            if on_board(sq) && code != EMPTY {
                key ^= zobrist::PIECE_SQUARE[usize::from(code)][usize::from(sq)];
            }
        }
        key ^= self.castling_key(self.castling);
        if self.ep != NO_SQUARE {
            key ^= zobrist::EN_PASSANT[usize::from(self.ep & 7)];
        }
        if self.side == Color::Black {
            key ^= zobrist::BLACK_TO_MOVE;
        }
        key
    }

    /// Gives the castling right `bit` with the rook on `rook` to a position being read,
    /// its king where it stands, with what follows from them: the squares whose moves
    /// end the right, the right's key (added once the whole key is computed) and its path.
    pub(super) fn grant_castling(&mut self, bit: u8, rook: u8) {
        let i = right_index(bit);
        let king = self.king_square(Color::from_index(i / 2)).0;
        let both = 3 << (2 * (i / 2));
        self.castling |= bit;
        self.castling_kept[usize::from(king)] &= !both;
        self.castling_kept[usize::from(rook)] &= !bit;
        self.castling_keys[i] = zobrist::CASTLING_RIGHT[i][usize::from(rook & 7)];
        self.castling_paths[i] = CastlingPath::new(king, rook);
    }

    /// The xor of the keys of a set of castling rights.
    #[inline(always)]
    pub(super) fn castling_key(&self, rights: u8) -> u64 {
        let mut key = 0;
        for (i, &right_key) in self.castling_keys.iter().enumerate() {
            if rights & (1 << i) != 0 {
                key ^= right_key;
            }
        }
        key
    }

    /// Whether a pawn of `color` stands beside `sq` on its rank, ready to take en passant
    /// behind it.
    #[inline(always)]
    pub(super) fn ep_capturer_beside(&self, sq: u8, color: Color) -> bool {
        let pawn = piece_code(color, Piece::Pawn);
        (on_board(sq.wrapping_add(1)) && self.board[usize::from(sq + 1)] == pawn)
            || (on_board(sq.wrapping_sub(1)) && self.board[usize::from(sq.wrapping_sub(1))] == pawn)
    }

    // ----- Make / unmake -----

    /// Plays a legal move.
    #[inline]
    pub fn play(&mut self, mv: Move) -> Undo {
        let from = mv.from().0;
        let to = mv.to().0;
        let kind = mv.kind();
        let us = self.side;
        let mut undo = self.save_state();
        let mut key = self.key ^ zobrist::BLACK_TO_MOVE;
        if self.ep != NO_SQUARE {
            key ^= zobrist::EN_PASSANT[usize::from(self.ep & 7)];
            self.ep = NO_SQUARE;
        }
        let code = self.board[usize::from(from)];
        let mut reset_clock = code & 7 == Piece::Pawn as u8;
        match kind {
            CASTLE => {
                let (king_to, rook_to) = castling_targets(from, to);
                let rook = self.board[usize::from(to)];
                self.castle_pieces(from, king_to, to, rook_to);
                key ^= zobrist::PIECE_SQUARE[usize::from(code)][usize::from(from)]
                    ^ zobrist::PIECE_SQUARE[usize::from(code)][usize::from(king_to)]
                    ^ zobrist::PIECE_SQUARE[usize::from(rook)][usize::from(to)]
                    ^ zobrist::PIECE_SQUARE[usize::from(rook)][usize::from(rook_to)];
            }
            EN_PASSANT => {
                let victim_sq = if us == Color::White { to - 16 } else { to + 16 };
                let victim = self.board[usize::from(victim_sq)];
                undo.captured = victim;
                undo.captured_slot = self.take(victim_sq);
                self.shift(from, to);
                key ^= zobrist::PIECE_SQUARE[usize::from(victim)][usize::from(victim_sq)]
                    ^ zobrist::PIECE_SQUARE[usize::from(code)][usize::from(from)]
                    ^ zobrist::PIECE_SQUARE[usize::from(code)][usize::from(to)];
            }
            _ => {
                let victim = self.board[usize::from(to)];
                if victim != EMPTY {
                    undo.captured = victim;
                    undo.captured_slot = self.take(to);
                    key ^= zobrist::PIECE_SQUARE[usize::from(victim)][usize::from(to)];
                    reset_clock = true;
                }
                key ^= zobrist::PIECE_SQUARE[usize::from(code)][usize::from(from)];
                if kind >= PROMOTION {
                    undo.pawn_slot = self.take(from);
                    let promoted = (code & 8) | ((kind - PROMOTION) as u8 + 2);
                    self.put(to, promoted);
                    key ^= zobrist::PIECE_SQUARE[usize::from(promoted)][usize::from(to)];
                } else {
                    self.shift(from, to);
                    key ^= zobrist::PIECE_SQUARE[usize::from(code)][usize::from(to)];
                    if kind == DOUBLE_PUSH {
                        let ep = (from + to) / 2;
                        if self.ep_capturer_beside(to, us.flip()) {
                            self.ep = ep;
                            key ^= zobrist::EN_PASSANT[usize::from(ep & 7)];
                        }
                    }
                }
            }
        }
        let castling = self.castling
            & self.castling_kept[usize::from(from)]
            & self.castling_kept[usize::from(to)];
        if castling != self.castling {
            key ^= self.castling_key(self.castling ^ castling);
            self.castling = castling;
        }
        // Clocks read from a FEN may sit at u16::MAX; they must not overflow. The halfmove
        // clock comes back from `Undo`, the move number is wrapped back by `take_back`.
        self.halfmove = if reset_clock {
            0
        } else {
            self.halfmove.saturating_add(1)
        };
        self.fullmove = self.fullmove.wrapping_add(us as u16);
        self.side = us.flip();
        self.key = key;
        undo
    }

    /// Takes back `mv`, which must be the last move played.
    #[inline]
    pub fn take_back(&mut self, mv: Move, undo: Undo) {
        let from = mv.from().0;
        let to = mv.to().0;
        let kind = mv.kind();
        let us = self.side.flip();
        self.side = us;
        self.fullmove = self.fullmove.wrapping_sub(us as u16);
        match kind {
            CASTLE => {
                let (king_to, rook_to) = castling_targets(from, to);
                self.castle_pieces(king_to, from, rook_to, to);
            }
            EN_PASSANT => {
                self.shift(to, from);
                let victim_sq = if us == Color::White { to - 16 } else { to + 16 };
                self.restore(victim_sq, undo.captured, undo.captured_slot);
            }
            _ => {
                if kind >= PROMOTION {
                    self.take(to);
                    self.restore(from, piece_code(us, Piece::Pawn), undo.pawn_slot);
                } else {
                    self.shift(to, from);
                }
                if undo.captured != EMPTY {
                    self.restore(to, undo.captured, undo.captured_slot);
                }
            }
        }
        self.castling = undo.castling;
        self.ep = undo.ep;
        self.halfmove = undo.halfmove;
        self.key = undo.key;
        self.history.pop();
    }

    /// Records the position about to be left in the history and returns what undoing
    /// the move (or the pass) restores; a capture adds its victim afterwards.
    #[inline(always)]
    fn save_state(&mut self) -> Undo {
        self.history.push(self.key);
        Undo {
            key: self.key,
            halfmove: self.halfmove,
            captured: EMPTY,
            captured_slot: 0,
            pawn_slot: 0,
            castling: self.castling,
            ep: self.ep,
        }
    }

    /// Passes the turn (for null-move pruning). The halfmove clock restarts so that
    /// repetition detection never looks across a null move, which is not a real move.
    pub fn play_null(&mut self) -> Undo {
        let undo = self.save_state();
        self.key ^= zobrist::BLACK_TO_MOVE;
        if self.ep != NO_SQUARE {
            self.key ^= zobrist::EN_PASSANT[usize::from(self.ep & 7)];
            self.ep = NO_SQUARE;
        }
        self.halfmove = 0;
        self.side = self.side.flip();
        undo
    }

    /// Takes back `play_null`.
    pub fn take_back_null(&mut self, undo: Undo) {
        self.side = self.side.flip();
        self.ep = undo.ep;
        self.halfmove = undo.halfmove;
        self.key = undo.key;
        self.history.pop();
    }

    // ----- Attacks -----

    /// Whether side `by` attacks `sq`.
    #[inline]
    pub(super) fn attacked(&self, sq: u8, by: usize) -> bool {
        self.attacked_on(&self.board, sq, by)
    }

    /// Whether side `by` attacks `sq` on `board`, which may differ from `self.board` by
    /// a hypothetical move that captures nothing but pawns (en passant); pieces are
    /// still found through the lists, pawns and blockers through `board`.
    #[inline]
    pub(super) fn attacked_on(&self, board: &[u8; 128], sq: u8, by: usize) -> bool {
        // Pawns: look where an attacking pawn would stand.
        let pawn = (by as u8) << 3 | Piece::Pawn as u8;
        let behind = if by == 0 {
            sq.wrapping_sub(16)
        } else {
            sq.wrapping_add(16)
        };
        for p in [behind.wrapping_sub(1), behind.wrapping_add(1)] {
            if on_board(p) && board[usize::from(p)] == pawn {
                return true;
            }
        }
        let lists = &self.lists[by];
        let counts = &self.counts[by];
        for &n in &lists[Piece::Knight as usize][..usize::from(counts[Piece::Knight as usize])] {
            if ATTACK[diff(n.0, sq)] & tables::KNIGHT != 0 {
                return true;
            }
        }
        if ATTACK[diff(lists[Piece::King as usize][0].0, sq)] & tables::KING != 0 {
            return true;
        }
        for (kind, mask) in [
            (Piece::Bishop, tables::BISHOP),
            (Piece::Rook, tables::ROOK),
            (Piece::Queen, tables::QUEEN),
        ] {
            for &s in &lists[kind as usize][..usize::from(counts[kind as usize])] {
                if slides_to(board, s.0, sq, mask) {
                    return true;
                }
            }
        }
        false
    }
}

/// Whether a slider of the kind bits `mask` on `from` reaches `to` through empty squares
/// of `board`: the attack table says whether the two squares line up at all, the
/// direction table gives the step to walk.
#[inline(always)]
pub(super) fn slides_to(board: &[u8; 128], from: u8, to: u8, mask: u8) -> bool {
    let d = diff(from, to);
    if ATTACK[d] & mask == 0 {
        return false;
    }
    let step = DIRECTION[d] as u8;
    let mut sq = from.wrapping_add(step);
    while sq != to {
        if board[usize::from(sq)] != EMPTY {
            return false;
        }
        sq = sq.wrapping_add(step);
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{Game, MoveList};

    /// Deterministic choices for random walks (splitmix64).
    struct Rng(u64);

    impl Rng {
        fn below(&mut self, n: usize) -> usize {
            self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            ((z ^ (z >> 31)) % n as u64) as usize
        }
    }

    /// Everything, piece lists and their order included.
    fn snapshot(pos: &Position) -> String {
        let lists: Vec<&[Square]> = [Color::White, Color::Black]
            .iter()
            .flat_map(|&c| Piece::ALL.map(|k| pos.pieces(c, k)))
            .collect();
        format!(
            "{:?} {:?} {:?}",
            lists,
            pos.history,
            (0..128u8)
                .filter(|&sq| on_board(sq) && pos.board[usize::from(sq)] != EMPTY)
                .map(|sq| pos.slot[usize::from(sq)])
                .collect::<Vec<_>>()
        )
    }

    /// The lists agree with the board.
    fn check_lists(pos: &Position) {
        let mut seen = 0;
        for c in 0..2 {
            for k in 1..7 {
                for i in 0..usize::from(pos.counts[c][k]) {
                    let sq = pos.lists[c][k][i].0;
                    assert_eq!(pos.board[usize::from(sq)], (c as u8) << 3 | k as u8);
                    assert_eq!(usize::from(pos.slot[usize::from(sq)]), i);
                    seen += 1;
                }
            }
        }
        let occupied = (0..128u8)
            .filter(|&sq| on_board(sq) && pos.board[usize::from(sq)] != EMPTY)
            .count();
        assert_eq!(seen, occupied);
    }

    const WALK_STARTS: [&str; 9] = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N w - - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        // Chess960: king and rook landing on each other's squares, a king that stays put,
        // rooks beside the king, double Fischer random.
        "1r4kr/8/8/8/8/8/8/1R4KR w HBhb - 0 1",
        "rk5r/8/8/8/8/8/8/RK5R w HAha - 0 1",
        "2rkr3/8/8/8/8/8/8/2RKR3 w ECec - 0 1",
        "nrkbbqnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKQRNB w FAhb - 0 1",
    ];

    #[test]
    fn make_unmake_restores_everything_and_keys_stay_exact() {
        let mut rng = Rng(7);
        for fen in WALK_STARTS {
            for _ in 0..40 {
                let mut pos = Position::from_notation(fen).unwrap();
                let mut played = Vec::new();
                for _ in 0..80 {
                    let mut moves = MoveList::new();
                    pos.legal_moves(&mut moves);
                    if moves.is_empty() {
                        break;
                    }
                    // Every move, made and unmade, restores the position exactly.
                    let before = (pos.clone(), snapshot(&pos));
                    for &mv in moves.iter() {
                        let check = pos.gives_check(mv);
                        let undo = pos.make_move(mv);
                        assert_eq!(pos.checked(), check, "check by {mv} in {}", before.0.fen());
                        assert_eq!(pos.key, pos.compute_key(), "{mv} from {}", before.0.fen());
                        check_lists(&pos);
                        pos.unmake_move(mv, undo);
                        assert_eq!(pos, before.0, "{mv}");
                        assert_eq!(snapshot(&pos), before.1, "{mv}");
                    }
                    let mv = moves[rng.below(moves.len())];
                    if rng.below(8) == 0
                        && let Some(undo) = pos.make_null_move()
                    {
                        assert_eq!(pos.key, pos.compute_key());
                        pos.unmake_null_move(undo);
                        assert_eq!(pos, before.0);
                    }
                    played.push((mv, pos.make_move(mv), before.0));
                }
                while let Some((mv, undo, before)) = played.pop() {
                    pos.unmake_move(mv, undo);
                    assert_eq!(pos, before);
                }
                assert!(pos.history.is_empty());
            }
        }
    }

    #[test]
    fn attack_queries() {
        let pos = Position::from_notation("4k3/8/8/3p4/8/5N2/8/R3K3 w Q - 0 1").unwrap();
        let sq = |s: &str| Square::parse(s).unwrap();
        assert!(pos.is_attacked(sq("e4"), Color::Black)); // pawn d5
        assert!(!pos.is_attacked(sq("d4"), Color::Black));
        assert!(pos.is_attacked(sq("d4"), Color::White)); // knight f3
        assert!(pos.is_attacked(sq("a8"), Color::White)); // rook a1 up the file
        assert!(pos.is_attacked(sq("d1"), Color::White)); // rook and king
        assert!(
            !pos.is_attacked(sq("f1"), Color::White) || pos.king_square(Color::White) == sq("e1")
        );
        assert!(pos.is_attacked(sq("d7"), Color::Black)); // king
        assert_eq!(pos.pieces(Color::White, Piece::Rook), &[sq("a1")]);
        assert_eq!(pos.piece_at(sq("d5")), Some((Color::Black, Piece::Pawn)));
        assert_eq!(pos.piece_at(sq("d4")), None);
        assert!(pos.can_castle(Color::White, false));
        assert!(!pos.can_castle(Color::White, true));
    }
}

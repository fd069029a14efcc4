//! The basic types of chess: sides, kinds of piece, squares and moves, as FEN and UCI
//! write them, and where castling takes king and rook. They know nothing of a position;
//! the position (`board`) and everything built on it are written in them.

use std::fmt;

/// A side. Its index (White 0, Black 1) is the `Game` player number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Color {
    White = 0,
    Black = 1,
}

impl Color {
    /// The other side.
    #[inline(always)]
    pub fn flip(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// 0 for White, 1 for Black: indexes per-colour arrays.
    #[inline(always)]
    pub fn index(self) -> usize {
        self as usize
    }

    #[inline(always)]
    pub(super) fn from_index(index: usize) -> Color {
        if index == 0 {
            Color::White
        } else {
            Color::Black
        }
    }
}

/// A kind of piece, without colour. The discriminants are the low three bits of the
/// board's piece codes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Piece {
    Pawn = 1,
    Knight = 2,
    Bishop = 3,
    Rook = 4,
    Queen = 5,
    King = 6,
}

impl Piece {
    /// All kinds, pawn first.
    pub const ALL: [Piece; 6] = [
        Piece::Pawn,
        Piece::Knight,
        Piece::Bishop,
        Piece::Rook,
        Piece::Queen,
        Piece::King,
    ];

    #[inline(always)]
    pub(super) fn from_kind(kind: u8) -> Piece {
        match kind {
            1 => Piece::Pawn,
            2 => Piece::Knight,
            3 => Piece::Bishop,
            4 => Piece::Rook,
            5 => Piece::Queen,
            _ => Piece::King,
        }
    }

    /// The lower-case FEN letter.
    pub fn letter(self) -> char {
        b" pnbrqk"[self as usize] as char
    }

    /// The kind named by a FEN letter of either case.
    pub fn from_letter(letter: char) -> Option<Piece> {
        Some(match letter.to_ascii_lowercase() {
            'p' => Piece::Pawn,
            'n' => Piece::Knight,
            'b' => Piece::Bishop,
            'r' => Piece::Rook,
            'q' => Piece::Queen,
            'k' => Piece::King,
            _ => return None,
        })
    }
}

/// A square of the 0x88 board: `rank * 16 + file`, a1 = 0, h8 = 0x77. The representation
/// is public because evaluation tables may want to index by it directly.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(transparent)]
pub struct Square(pub u8);

impl Square {
    /// The square on `file` (0 = a) and `rank` (0 = rank 1); `None` off the board.
    pub fn new(file: u8, rank: u8) -> Option<Square> {
        (file < 8 && rank < 8).then_some(Square(rank * 16 + file))
    }

    /// 0 = a-file .. 7 = h-file.
    #[inline(always)]
    pub fn file(self) -> u8 {
        self.0 & 7
    }

    /// 0 = rank 1 .. 7 = rank 8.
    #[inline(always)]
    pub fn rank(self) -> u8 {
        self.0 >> 4
    }

    /// The dense index 0..64 (a1 = 0, h8 = 63), for 64-entry tables.
    #[inline(always)]
    pub fn index(self) -> usize {
        usize::from((self.0 + (self.0 & 7)) >> 1)
    }

    /// The square of a dense index 0..64.
    #[inline(always)]
    pub fn from_index(index: usize) -> Square {
        let i = index as u8 & 63;
        Square(i + (i & !7))
    }

    /// Parses "e4"; `None` for anything else.
    pub fn parse(text: &str) -> Option<Square> {
        match text.as_bytes() {
            [f @ b'a'..=b'h', r @ b'1'..=b'8'] => Square::new(f - b'a', r - b'1'),
            _ => None,
        }
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}",
            (b'a' + self.file()) as char,
            (b'1' + self.rank()) as char
        )
    }
}

/// A move packed in 16 bits:
///
/// ```text
/// bits 0..6   from square, dense index 0..64
/// bits 6..12  to square, dense index 0..64
/// bits 12..16 kind: 0 plain (including captures), 1 double pawn push, 2 castling
///             (from is the king's square, to its rook's: king takes rook, which
///             names every Chess960 castling apart from the king's other moves),
///             3 en passant, 4..8 promotion to N, B, R, Q
/// ```
///
/// Whether a plain move captures is read from the board, not stored, which keeps moves
/// equal across positions that differ only in what stands on the target.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move(pub(super) u16);

pub(super) const PLAIN: u16 = 0;
pub(super) const DOUBLE_PUSH: u16 = 1;
pub(super) const CASTLE: u16 = 2;
pub(super) const EN_PASSANT: u16 = 3;
/// `PROMOTION + n` promotes to knight (0), bishop (1), rook (2) or queen (3).
pub(super) const PROMOTION: u16 = 4;

impl Move {
    #[inline(always)]
    pub(super) fn new(from: u8, to: u8, kind: u16) -> Move {
        let from = u16::from((from + (from & 7)) >> 1);
        let to = u16::from((to + (to & 7)) >> 1);
        Move(from | to << 6 | kind << 12)
    }

    #[inline(always)]
    pub fn from(self) -> Square {
        Square::from_index(usize::from(self.0 & 63))
    }

    #[inline(always)]
    pub fn to(self) -> Square {
        Square::from_index(usize::from(self.0 >> 6 & 63))
    }

    #[inline(always)]
    pub(super) fn kind(self) -> u16 {
        self.0 >> 12
    }

    /// The piece a pawn promotes to.
    #[inline(always)]
    pub fn promotion(self) -> Option<Piece> {
        let kind = self.kind();
        (kind >= PROMOTION).then(|| Piece::from_kind((kind - PROMOTION) as u8 + 2))
    }

    pub fn is_castling(self) -> bool {
        self.kind() == CASTLE
    }

    pub fn is_en_passant(self) -> bool {
        self.kind() == EN_PASSANT
    }

    pub fn is_double_push(self) -> bool {
        self.kind() == DOUBLE_PUSH
    }

    /// The destination standard UCI names: the king's square for castling from the
    /// standard squares (`e1g1`), `to` for every other move, Chess960's castling included.
    #[inline(always)]
    pub fn named_to(self) -> Square {
        let (from, to) = (self.from(), self.to());
        if self.is_castling() && from.file() == 4 && matches!(to.file(), 0 | 7) {
            Square(castling_targets(from.0, to.0).0)
        } else {
            to
        }
    }

    /// The packed bits (see the type docs).
    pub fn bits(self) -> u16 {
        self.0
    }
}

/// Long algebraic notation as UCI uses it: `e2e4`, `e7e8q`, castling as `e1g1` from the
/// standard squares. Any other castling (Chess960's) is written king takes rook, `b1a1`,
/// since its king's destination could also be a plain king move; under `UCI_Chess960`
/// every castling is (`Game::move_name`).
impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from(), self.named_to())?;
        if let Some(piece) = self.promotion() {
            write!(f, "{}", piece.letter())?;
        }
        Ok(())
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Where a king castling from `king_from` with the rook on `rook_from` and that rook
/// land: the g and f files on the rook's wing towards h, the c and d files towards a, in
/// Chess960 as in chess.
#[inline(always)]
pub(super) fn castling_targets(king_from: u8, rook_from: u8) -> (u8, u8) {
    let rank = king_from & 0x70;
    if rook_from > king_from {
        (rank + 6, rank + 5)
    } else {
        (rank + 2, rank + 3)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::chess::tables::on_board;

    #[test]
    fn squares_convert_between_0x88_and_dense_indices() {
        for i in 0..64 {
            let sq = Square::from_index(i);
            assert!(on_board(sq.0));
            assert_eq!(sq.index(), i);
            assert_eq!(Square::parse(&sq.to_string()), Some(sq));
        }
        assert_eq!(Square::parse("e4"), Some(Square(0x34)));
        assert_eq!(Square::parse("i1"), None);
        assert_eq!(Square::parse("e"), None);
    }
}

//! The basic types of shogi: sides, squares and moves, as USI writes them. They know
//! nothing of a position; the position (`board`) and everything built on it are written
//! in them.

use super::tables::{DENSE, ON_BOARD};
use std::fmt;

/// A side. Its index (sente 0, gote 1) is the `Game` player number; SFEN writes `b` and `w`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Color {
    /// Black, the first player.
    Sente = 0,
    /// White, the second player.
    Gote = 1,
}

impl Color {
    /// 0 for sente, 1 for gote: indexes per-colour arrays.
    #[inline(always)]
    pub fn index(self) -> usize {
        self as usize
    }

    /// The other side.
    #[inline(always)]
    pub fn flip(self) -> Color {
        Color::from_index(self.index() ^ 1)
    }

    /// The colour of an index; anything but 0 is gote.
    #[inline(always)]
    pub fn from_index(index: usize) -> Color {
        if index == 0 {
            Color::Sente
        } else {
            Color::Gote
        }
    }
}

/// A square of the mailbox (see `tables`). The representation is public so evaluation
/// tables can index by it; only the 81 squares [`Square::is_valid`] accepts are the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(transparent)]
pub struct Square(pub u8);

impl Square {
    /// The square of a file (1..=9) and rank (0 = a ..= 8 = i).
    pub fn new(file: u8, rank: u8) -> Option<Square> {
        ((1..=9).contains(&file) && rank < 9).then(|| Square(super::tables::square(9 - file, rank)))
    }

    /// Whether the index is one of the 81 board squares.
    #[inline(always)]
    pub fn is_valid(self) -> bool {
        ON_BOARD[usize::from(self.0)]
    }

    /// 1..=9, as USI writes it.
    #[inline(always)]
    pub fn file(self) -> u8 {
        9 - super::tables::COL[usize::from(self.0)]
    }

    /// 0 = rank a (gote's back rank) ..= 8 = rank i.
    #[inline(always)]
    pub fn rank(self) -> u8 {
        super::tables::ROW[usize::from(self.0)]
    }

    /// cshogi's index: `(file - 1) * 9 + rank`.
    #[inline(always)]
    pub fn dense(self) -> usize {
        usize::from(DENSE[usize::from(self.0)])
    }

    /// Parses "7g"; `None` for anything else.
    pub fn parse(text: &str) -> Option<Square> {
        match text.as_bytes() {
            [f @ b'1'..=b'9', r @ b'a'..=b'i'] => Square::new(f - b'0', r - b'a'),
            _ => None,
        }
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file(), (b'a' + self.rank()) as char)
    }
}

/// A move packed in 32 bits:
///
/// ```text
/// bits 0..8   destination square (mailbox index)
/// bits 8..16  origin square (mailbox index), or for a drop the dropped kind 1..=7;
///             no board square is below 35, so the two never meet
/// bit 16      promotion
/// ```
///
/// Whether a move captures is read from the board, not stored, so that the same move is
/// equal in positions that differ in what stands on the target.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move(u32);

const PROMOTE: u32 = 1 << 16;

impl Move {
    #[inline(always)]
    pub(super) fn new(from: u8, to: u8, promote: bool) -> Move {
        Move(u32::from(to) | u32::from(from) << 8 | if promote { PROMOTE } else { 0 })
    }

    #[inline(always)]
    pub(super) fn drop(kind: u8, to: u8) -> Move {
        Move(u32::from(to) | u32::from(kind) << 8)
    }

    #[inline(always)]
    pub fn to(self) -> Square {
        Square(self.0 as u8)
    }

    /// The origin square; meaningless for a drop.
    #[inline(always)]
    pub fn from(self) -> Square {
        Square((self.0 >> 8) as u8)
    }

    #[inline(always)]
    pub fn is_drop(self) -> bool {
        (self.0 >> 8) as u8 <= 7
    }

    /// The kind a drop puts on the board.
    #[inline(always)]
    pub fn drop_kind(self) -> u8 {
        (self.0 >> 8) as u8
    }

    #[inline(always)]
    pub fn is_promotion(self) -> bool {
        self.0 & PROMOTE != 0
    }

    /// A dense index below `1 << 15`: cshogi square of the destination, then the origin's
    /// cshogi square or `81 + kind` for a drop, then the promotion bit.
    #[inline(always)]
    pub fn index(self) -> usize {
        let from = if self.is_drop() {
            81 + usize::from(self.drop_kind())
        } else {
            self.from().dense()
        };
        self.to().dense() | from << 7 | usize::from(self.is_promotion()) << 14
    }
}

/// USI notation: `7g7f`, `8h2b+`, `P*5e`.
impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_drop() {
            let letter = b" PLNSBRG"[usize::from(self.drop_kind())] as char;
            write!(f, "{letter}*{}", self.to())
        } else {
            write!(f, "{}{}", self.from(), self.to())?;
            if self.is_promotion() {
                f.write_str("+")?;
            }
            Ok(())
        }
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_parse_print_and_index_like_cshogi() {
        for file in 1..=9 {
            for rank in 0..9 {
                let sq = Square::new(file, rank).unwrap();
                assert!(sq.is_valid());
                assert_eq!(Square::parse(&sq.to_string()), Some(sq));
                assert_eq!(sq.dense(), usize::from(file - 1) * 9 + usize::from(rank));
            }
        }
        assert_eq!(Square::parse("0a"), None);
        assert_eq!(Square::parse("1j"), None);
        assert_eq!(Square::parse("5"), None);
    }
}

//! SFEN: reading (strictly, with an error naming the bad field and token) and printing.
//!
//! Accepted: `<board> <side> <hands> [<move number>]`, the move number defaulting to 1.
//! Refused, beyond malformed text: more than one king a side (no king at all is allowed,
//! as tsume problems have none for the attacker), more pieces of a kind than the set has
//! (board and hands together), a piece that could never move again (pawn or lance on the
//! last rank, knight on the last two), two unpromoted pawns of a side on one file (nifu),
//! and the side not to move in check. The same positions cshogi can play from, minus the
//! ones that no game can reach.
//!
//! Printing follows cshogi: hands in the order R B G S N L P, sente's first.

use super::board::{EMPTY, Position, piece};
use super::tables::{COL, KING, KNIGHT, LANCE, PAWN, SQUARES, relative_row, square};
use super::types::Square;
use std::fmt;

/// The start position.
pub const START_SFEN: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";

/// Piece letters by kind 1..=7; promoted kinds print `+` and the base letter.
const LETTERS: &[u8; 9] = b" PLNSBRGK";

/// Hand pieces in the order SFEN prints them: rook, bishop, gold, silver, knight, lance,
/// pawn.
const HAND_ORDER: [u8; 7] = [6, 5, 7, 4, 3, 2, 1];

/// How many pieces of each kind (1..=8, both colours, board and hands) the set has.
const SET: [u8; 9] = [0, 18, 4, 4, 4, 2, 2, 4, 2];

/// Why an SFEN was refused. Every message names the field and the offending token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SfenError {
    /// Not 3 or 4 whitespace-separated fields.
    FieldCount(usize),
    /// The board field does not have 9 ranks separated by `/`.
    RankCount(String),
    /// A rank that does not describe exactly 9 squares (rank letter, its text).
    RankLength(char, String),
    /// A character that is not a piece letter, `+` or a digit 1..9.
    PieceChar(char),
    /// A `+` before a piece that does not promote (gold, king) or before nothing.
    BadPromotion(String),
    /// A side with more than one king (side, count).
    KingCount(char, usize),
    /// More pieces of a kind than the set has (its letter, the count found, the set's).
    TooMany(char, usize, u8),
    /// A piece that could never move again (its letter, its square).
    DeadPiece(char, Square),
    /// Two unpromoted pawns of one side on one file (the side, the file).
    Nifu(char, u8),
    /// The side-to-move field is not `b` or `w`.
    SideToMove(String),
    /// The hands field is not `-` or counted piece letters, each letter once.
    Hands(String),
    /// The move number is not a number 1..=2^31.
    MoveNumber(String),
    /// The side that just moved left its king in check.
    OpponentInCheck(char),
}

impl fmt::Display for SfenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SfenError::FieldCount(n) => write!(
                f,
                "SFEN has {n} fields; expected board, side to move, hands and an optional move number"
            ),
            SfenError::RankCount(text) => write!(
                f,
                "SFEN board '{text}' does not have 9 ranks separated by '/'"
            ),
            SfenError::RankLength(rank, text) => {
                write!(
                    f,
                    "SFEN board: rank {rank} '{text}' does not have 9 squares"
                )
            }
            SfenError::PieceChar(c) => {
                write!(f, "SFEN board: '{c}' is not a piece letter, '+' or 1..9")
            }
            SfenError::BadPromotion(text) => {
                write!(f, "SFEN board: '{text}' is not a piece that promotes")
            }
            SfenError::KingCount(side, n) => write!(
                f,
                "SFEN board: side {side} has {n} kings; at most one is allowed"
            ),
            SfenError::TooMany(letter, n, set) => write!(
                f,
                "SFEN: {n} pieces of kind {letter} on the board and in hand; the set has {set}"
            ),
            SfenError::DeadPiece(letter, sq) => write!(
                f,
                "SFEN board: '{letter}' on {sq} could never move (dead piece)"
            ),
            SfenError::Nifu(side, file) => write!(
                f,
                "SFEN board: side {side} has two unpromoted pawns on file {file} (nifu)"
            ),
            SfenError::SideToMove(text) => {
                write!(f, "SFEN side to move '{text}' is not 'b' or 'w'")
            }
            SfenError::Hands(text) => write!(
                f,
                "SFEN hands '{text}' is not '-' or counted piece letters among RBGSNLP rbgsnlp, each once"
            ),
            SfenError::MoveNumber(text) => {
                write!(f, "SFEN move number '{text}' is not a number 1..2147483648")
            }
            SfenError::OpponentInCheck(side) => write!(
                f,
                "SFEN side to move: side {side} is not to move but its king is in check"
            ),
        }
    }
}

impl std::error::Error for SfenError {}

/// The side letter SFEN uses for a colour index.
fn side_letter(color: usize) -> char {
    if color == 0 { 'b' } else { 'w' }
}

impl Position {
    /// Reads an SFEN (see the module docs for what is refused).
    pub fn from_sfen(text: &str) -> Result<Position, SfenError> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        if fields.len() != 3 && fields.len() != 4 {
            return Err(SfenError::FieldCount(fields.len()));
        }
        let mut pos = Position::empty();
        read_board(&mut pos, fields[0])?;
        pos.side = match fields[1] {
            "b" => 0,
            "w" => 1,
            other => return Err(SfenError::SideToMove(other.to_string())),
        };
        read_hands(&mut pos, fields[2])?;
        if let Some(&number) = fields.get(3) {
            pos.move_number = number
                .parse::<u32>()
                .ok()
                .filter(|n| (1..=1 << 31).contains(n))
                .ok_or_else(|| SfenError::MoveNumber(number.to_string()))?;
        }
        check_material(&pos)?;
        let them = pos.side ^ 1;
        if let Some(k) = pos.king(them)
            && pos.attacked(k, pos.side, 0, 0)
        {
            return Err(SfenError::OpponentInCheck(side_letter(them)));
        }
        pos.key = pos.compute_key();
        pos.seen[super::board::seen_slot(pos.key)] = 1;
        pos.checked = pos.compute_checked();
        Ok(pos)
    }

    /// The SFEN of the position.
    pub fn sfen(&self) -> String {
        let mut out = String::new();
        for row in 0..9u8 {
            let mut empty = 0;
            for col in 0..9u8 {
                let code = self.board[usize::from(square(col, row))];
                if code == EMPTY {
                    empty += 1;
                    continue;
                }
                if empty > 0 {
                    out.push((b'0' + empty) as char);
                    empty = 0;
                }
                out.push_str(&piece_text(code));
            }
            if empty > 0 {
                out.push((b'0' + empty) as char);
            }
            if row < 8 {
                out.push('/');
            }
        }
        out.push(' ');
        out.push(side_letter(self.side));
        out.push(' ');
        let mut hands = String::new();
        for color in 0..2 {
            for kind in HAND_ORDER {
                let n = self.hands[color][usize::from(kind)];
                if n > 1 {
                    hands.push_str(&n.to_string());
                }
                if n > 0 {
                    let letter = LETTERS[usize::from(kind)] as char;
                    hands.push(if color == 0 {
                        letter
                    } else {
                        letter.to_ascii_lowercase()
                    });
                }
            }
        }
        out.push_str(if hands.is_empty() { "-" } else { &hands });
        out.push_str(&format!(" {}", self.move_number));
        out
    }
}

/// A board code as SFEN writes it: `P`, `+p`, `K`...
pub(super) fn piece_text(code: u8) -> String {
    let kind = code & 15;
    let base = if kind > KING { kind - 8 } else { kind };
    let letter = LETTERS[usize::from(base)] as char;
    let letter = if code >> 5 == 0 {
        letter
    } else {
        letter.to_ascii_lowercase()
    };
    if kind > KING {
        format!("+{letter}")
    } else {
        letter.to_string()
    }
}

/// The colour and kind of a piece letter.
fn letter_piece(letter: char) -> Option<(usize, u8)> {
    let kind = LETTERS[1..]
        .iter()
        .position(|&l| l as char == letter.to_ascii_uppercase())? as u8
        + 1;
    Some((usize::from(letter.is_ascii_lowercase()), kind))
}

fn read_board(pos: &mut Position, text: &str) -> Result<(), SfenError> {
    let ranks: Vec<&str> = text.split('/').collect();
    if ranks.len() != 9 {
        return Err(SfenError::RankCount(text.to_string()));
    }
    let mut kings = [0usize; 2];
    let mut on_board = [0usize; 9];
    let mut pawn_files = [[false; 9]; 2];
    for (row, rank) in ranks.iter().enumerate() {
        let rank_letter = (b'a' + row as u8) as char;
        let too_long = || SfenError::RankLength(rank_letter, rank.to_string());
        let mut col = 0u8;
        let mut chars = rank.chars();
        while let Some(c) = chars.next() {
            if let Some(d) = c.to_digit(10).filter(|d| (1..=9).contains(d)) {
                col += d as u8;
                if col > 9 {
                    return Err(too_long());
                }
                continue;
            }
            let promoted = c == '+';
            let letter = if promoted {
                let next = chars.next();
                next.ok_or_else(|| SfenError::BadPromotion("+".into()))?
            } else {
                c
            };
            let (color, mut kind) = letter_piece(letter).ok_or(SfenError::PieceChar(letter))?;
            if promoted {
                if kind >= super::tables::GOLD {
                    return Err(SfenError::BadPromotion(format!("+{letter}")));
                }
                kind += 8;
            }
            if col >= 9 {
                return Err(too_long());
            }
            let sq = square(col, row as u8);
            let dead_row = match kind {
                PAWN | LANCE => 0,
                KNIGHT => 1,
                _ => -1,
            };
            if i32::from(relative_row(color, sq)) <= dead_row {
                return Err(SfenError::DeadPiece(letter, Square(sq)));
            }
            if kind == PAWN {
                let file = &mut pawn_files[color][usize::from(COL[usize::from(sq)])];
                if *file {
                    return Err(SfenError::Nifu(side_letter(color), Square(sq).file()));
                }
                *file = true;
            }
            if kind == KING {
                kings[color] += 1;
                if kings[color] > 1 {
                    return Err(SfenError::KingCount(side_letter(color), kings[color]));
                }
            }
            // Checked here, not only with the hands later, so no piece list overflows.
            let base = usize::from(if kind > KING { kind - 8 } else { kind });
            on_board[base] += 1;
            if on_board[base] > usize::from(SET[base]) {
                return Err(SfenError::TooMany(
                    LETTERS[base] as char,
                    on_board[base],
                    SET[base],
                ));
            }
            pos.put(sq, piece(color, kind));
            col += 1;
        }
        if col != 9 {
            return Err(too_long());
        }
    }
    Ok(())
}

fn read_hands(pos: &mut Position, text: &str) -> Result<(), SfenError> {
    if text == "-" {
        return Ok(());
    }
    let bad = || SfenError::Hands(text.to_string());
    let mut count: Option<u32> = None;
    for c in text.chars() {
        if let Some(d) = c.to_digit(10) {
            let n = count.unwrap_or(0) * 10 + d;
            if (count.is_none() && d == 0) || n > 18 {
                return Err(bad());
            }
            count = Some(n);
            continue;
        }
        let (color, kind) = letter_piece(c).filter(|&(_, k)| k < KING).ok_or_else(bad)?;
        let hand = &mut pos.hands[color][usize::from(kind)];
        if *hand > 0 {
            return Err(bad());
        }
        *hand = count.take().unwrap_or(1) as u8;
    }
    if count.is_some() {
        return Err(bad());
    }
    Ok(())
}

/// No more pieces of a kind than the set has, board and hands together.
fn check_material(pos: &Position) -> Result<(), SfenError> {
    let mut total = [0usize; 9];
    for &sq in &SQUARES {
        let code = pos.board[usize::from(sq)];
        if code != EMPTY {
            let kind = code & 15;
            total[usize::from(if kind > KING { kind - 8 } else { kind })] += 1;
        }
    }
    for hand in &pos.hands {
        for (count, &held) in total.iter_mut().zip(hand).skip(1) {
            *count += usize::from(held);
        }
    }
    for kind in 1..SET.len() {
        if total[kind] > usize::from(SET[kind]) {
            return Err(SfenError::TooMany(
                LETTERS[kind] as char,
                total[kind],
                SET[kind],
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips() {
        for sfen in [
            START_SFEN,
            "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
            "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1",
            "4k4/9/9/9/9/9/9/9/9 b R 1",
            "8k/9/9/9/9/9/9/9/K8 w 3L2Prbgsnl 125",
            "+l+n+s+b+r+p2k/9/9/9/9/9/9/9/K8 b - 9",
        ] {
            let pos = Position::from_sfen(sfen).unwrap_or_else(|e| panic!("{sfen}: {e}"));
            assert_eq!(pos.sfen(), sfen);
        }
        // The move number is optional.
        let pos =
            Position::from_sfen("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -");
        assert_eq!(pos.unwrap().sfen(), START_SFEN);
        // Hand letters in any order print in the standard order.
        let pos = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b pP2L 1").unwrap();
        assert_eq!(pos.sfen(), "4k4/9/9/9/9/9/9/9/4K4 b 2LPp 1");
    }

    #[test]
    fn errors_name_the_field_and_token() {
        for (sfen, needle) in [
            ("", "0 fields"),
            ("4k4/9/9/9/9/9/9/9/4K4 b", "2 fields"),
            ("4k4/9/9/9/9/9/9/9/4K4 b - 1 x", "5 fields"),
            ("4k4/9/9/9/9/9/9/4K4 b - 1", "9 ranks"),
            ("4k4/9/9/9/9/9/9/8/4K4 b - 1", "rank h '8'"),
            ("4k5/9/9/9/9/9/9/9/4K4 b - 1", "rank a '4k5'"),
            ("4k3G1/9/9/9/9/9/9/9/4K4 b - 1", "rank a '4k3G1'"),
            ("4k4/9/9/9/9/9/9/9/4X4 b - 1", "'X'"),
            ("4k4/9/9/9/9/9/9/9/3+GK4 b - 1", "'+G'"),
            ("4k4/9/9/9/9/9/9/9/3+K4 b - 1", "'+K'"),
            ("4k4/9/9/9/9/9/9/9/4K3+ b - 1", "'+'"),
            ("4k4/9/9/9/9/9/9/9/3KK4 b - 1", "2 kings"),
            ("P3k4/9/9/9/9/9/9/9/4K4 b - 1", "'P' on 9a"),
            ("4k4/N8/9/9/9/9/9/9/4K4 b - 1", "'N' on 9b"),
            ("4k4/9/9/9/9/9/9/9/l3K4 b - 1", "'l' on 9i"),
            ("4k4/9/9/9/9/9/9/1n7/4K4 b - 1", "'n' on 8h"),
            ("4k4/9/9/4P4/4P4/9/9/9/4K4 b - 1", "file 5 (nifu)"),
            ("4k4/9/9/9/9/9/9/9/4K4 x - 1", "'x'"),
            ("4k4/9/9/9/9/9/9/9/4K4 b 19P 1", "'19P'"),
            ("4k4/9/9/9/9/9/9/9/4K4 b 0P 1", "'0P'"),
            ("4k4/9/9/9/9/9/9/9/4K4 b PP 1", "'PP'"),
            ("4k4/9/9/9/9/9/9/9/4K4 b P2 1", "'P2'"),
            ("4k4/9/9/9/9/9/9/9/4K4 b K 1", "'K'"),
            ("4k4/9/9/9/9/9/9/9/4K4 b +P 1", "'+P'"),
            ("4k4/9/9/9/9/9/9/9/4K4 b 3R 1", "kind R"),
            ("4k4/9/9/9/9/9/9/9/4K4 b 10P9p 1", "19 pieces of kind P"),
            (
                "+P+P+P+P+P+P+P+P+P/+P+P+P+P+P+P+P+P+P/+P+P5k/9/9/9/9/9/4K4 b - 1",
                "19 pieces of kind P",
            ),
            ("4k4/LLLLLLLLL/9/9/9/9/9/9/4K4 w - 1", "5 pieces of kind L"),
            ("4k4/9/9/9/9/9/9/9/4K4 b - 0", "move number '0'"),
            ("4k4/9/9/9/9/9/9/9/4K4 b - x", "move number 'x'"),
            ("4k4/4P4/9/9/9/9/9/9/4K4 b - 1", "side w is not to move"),
        ] {
            let err = Position::from_sfen(sfen)
                .err()
                .unwrap_or_else(|| panic!("{sfen:?} was accepted"))
                .to_string();
            assert!(err.contains(needle), "{sfen:?}: {err}");
        }
    }

    #[test]
    fn tokins_do_not_count_for_nifu_and_promoted_pieces_are_never_dead() {
        assert!(Position::from_sfen("4k4/9/9/4+P4/4P4/9/9/9/4K4 b - 1").is_ok());
        assert!(Position::from_sfen("+P+L+N1k4/+N8/9/9/9/9/9/9/4K4 b - 1").is_ok());
    }
}

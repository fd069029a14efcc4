//! FEN: reading (strictly, with an error naming the bad field and token) and printing.
//!
//! Accepted: the six standard fields, or the first four (clocks then default to `0 1`).
//! Rejected: anything malformed, a side without exactly one king, pawns on the first or
//! last rank, more than 16 pieces a side, the side not to move in check, castling rights
//! without their king on its first rank and a rook of its colour there on that wing, and
//! an en-passant square that is not on the third/sixth rank behind a pawn that could just
//! have made a double push.
//!
//! Castling fields may be standard (`KQkq`), X-FEN (`K`/`Q` for the outermost rook on that
//! wing, a file letter such as `B` for another) or Shredder-FEN (file letters only,
//! `HAha`), so Chess960 positions read whatever the option says. They print as X-FEN,
//! which is standard FEN for standard castling, or as Shredder-FEN under `UCI_Chess960`,
//! as Stockfish prints them and python-chess sends them.
//!
//! An en-passant square that is consistent but that no pawn could capture onto is
//! accepted and dropped, the same rule `make_move` follows; the printed FEN shows the
//! square only when an en-passant capture is legal (as Stockfish and python-chess do).

use super::board::{
    BLACK_KINGSIDE, BLACK_QUEENSIDE, EMPTY, NO_SQUARE, Position, WHITE_KINGSIDE, WHITE_QUEENSIDE,
    piece_code, right_index,
};
use super::types::{Color, Piece, Square};
use std::fmt;

/// Why a FEN was refused. Every message names the field and the offending token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    /// Not 4 or 6 whitespace-separated fields.
    FieldCount(usize),
    /// The placement field does not have 8 ranks separated by `/`.
    RankCount(String),
    /// A rank that does not describe exactly 8 squares (rank number 8..1, its text).
    RankLength(u8, String),
    /// A character that is neither a piece letter nor a digit 1..8.
    PieceChar(char),
    /// A side has no king or several (side, count).
    KingCount(Color, usize),
    /// A pawn on the first or last rank.
    PawnOnBackRank(Square),
    /// A side with more than 16 pieces.
    TooManyPieces(Color),
    /// The side-to-move field is not `w` or `b`.
    SideToMove(String),
    /// The castling field is not `-` or distinct rights among `KQkq` and files `A-Ha-h`.
    Castling(String),
    /// A castling right without its king on its first rank and a rook of its colour
    /// there on that wing.
    CastlingWithoutPieces(char),
    /// The en-passant field is not `-` or a square.
    EnPassant(String),
    /// An en-passant square that no double push by the side that just moved explains.
    EnPassantImpossible(String),
    /// The halfmove clock is not a number 0..=65535.
    HalfmoveClock(String),
    /// The fullmove number is not a number 1..=65535.
    FullmoveNumber(String),
    /// The side that just moved left its king in check.
    OpponentInCheck(Color),
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::FieldCount(n) => write!(
                f,
                "FEN has {n} fields; expected 6 (placement, side, castling, en passant, halfmove clock, fullmove number) or the first 4"
            ),
            FenError::RankCount(text) => {
                write!(
                    f,
                    "FEN placement '{text}' does not have 8 ranks separated by '/'"
                )
            }
            FenError::RankLength(rank, text) => {
                write!(
                    f,
                    "FEN placement: rank {rank} '{text}' does not have 8 squares"
                )
            }
            FenError::PieceChar(c) => {
                write!(f, "FEN placement: '{c}' is not a piece letter or 1..8")
            }
            FenError::KingCount(color, n) => {
                write!(
                    f,
                    "FEN placement: {color:?} has {n} kings; expected exactly one"
                )
            }
            FenError::PawnOnBackRank(sq) => write!(f, "FEN placement: pawn on {sq}, a back rank"),
            FenError::TooManyPieces(color) => {
                write!(f, "FEN placement: {color:?} has more than 16 pieces")
            }
            FenError::SideToMove(text) => {
                write!(f, "FEN side to move '{text}' is not 'w' or 'b'")
            }
            FenError::Castling(text) => write!(
                f,
                "FEN castling '{text}' is not '-' or distinct rights among K, Q, k, q and files A-H, a-h"
            ),
            FenError::CastlingWithoutPieces(c) => write!(
                f,
                "FEN castling right '{c}' needs its king on its first rank and a rook there on that wing"
            ),
            FenError::EnPassant(text) => {
                write!(f, "FEN en passant '{text}' is not '-' or a square")
            }
            FenError::EnPassantImpossible(text) => write!(
                f,
                "FEN en passant '{text}' does not follow a double pawn push by the side that just moved"
            ),
            FenError::HalfmoveClock(text) => {
                write!(f, "FEN halfmove clock '{text}' is not a number 0..65535")
            }
            FenError::FullmoveNumber(text) => {
                write!(f, "FEN fullmove number '{text}' is not a number 1..65535")
            }
            FenError::OpponentInCheck(color) => write!(
                f,
                "FEN side to move: {color:?} is not to move but its king is in check"
            ),
        }
    }
}

impl std::error::Error for FenError {}

/// The standard starting position.
pub const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// The castling rights in the order a FEN lists them, with their colour and wing.
const RIGHTS: [(u8, Color, bool); 4] = [
    (WHITE_KINGSIDE, Color::White, true),
    (WHITE_QUEENSIDE, Color::White, false),
    (BLACK_KINGSIDE, Color::Black, true),
    (BLACK_QUEENSIDE, Color::Black, false),
];

/// The right and rook square one castling letter names, if its king stands on its first
/// rank with a rook of its colour on the named file or, for `K`/`Q`, outermost on that
/// wing.
fn castling_right(pos: &Position, c: char) -> Option<(u8, u8)> {
    let color = if c.is_ascii_uppercase() {
        Color::White
    } else {
        Color::Black
    };
    let rank = if color == Color::White { 0x00 } else { 0x70 };
    let king = pos.king_square(color).0;
    if king & 0x70 != rank {
        return None;
    }
    let rook = piece_code(color, Piece::Rook);
    let rook_file = match c.to_ascii_lowercase() {
        'k' => ((king & 7) + 1..8)
            .rev()
            .find(|&f| pos.board[usize::from(rank + f)] == rook)?,
        'q' => (0..king & 7).find(|&f| pos.board[usize::from(rank + f)] == rook)?,
        letter @ 'a'..='h' => letter as u8 - b'a',
        _ => return None,
    };
    if pos.board[usize::from(rank + rook_file)] != rook || rook_file == king & 7 {
        return None;
    }
    let kingside = rook_file > king & 7;
    let &(bit, ..) = RIGHTS
        .iter()
        .find(|&&(_, right_color, wing)| right_color == color && wing == kingside)?;
    Some((bit, rank + rook_file))
}

impl Position {
    /// Reads a FEN (see the module docs for what is refused).
    pub fn from_fen(text: &str) -> Result<Position, FenError> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        if fields.len() != 4 && fields.len() != 6 {
            return Err(FenError::FieldCount(fields.len()));
        }
        let mut pos = Position::empty();
        read_placement(&mut pos, fields[0])?;

        pos.side = match fields[1] {
            "w" => Color::White,
            "b" => Color::Black,
            other => return Err(FenError::SideToMove(other.to_string())),
        };

        if fields[2] != "-" {
            for c in fields[2].chars() {
                if !matches!(c.to_ascii_lowercase(), 'a'..='h' | 'k' | 'q') {
                    return Err(FenError::Castling(fields[2].to_string()));
                }
                let (bit, rook) =
                    castling_right(&pos, c).ok_or(FenError::CastlingWithoutPieces(c))?;
                if pos.castling & bit != 0 {
                    return Err(FenError::Castling(fields[2].to_string()));
                }
                pos.grant_castling(bit, rook);
            }
        }

        if fields[3] != "-" {
            let Some(ep) = Square::parse(fields[3]) else {
                return Err(FenError::EnPassant(fields[3].to_string()));
            };
            // The pawn that just moved stands in front of the square (seen from its
            // side) and the square behind it, where it came from, is empty.
            let (rank, pawn_sq, origin) = match pos.side {
                Color::White => (5, ep.0.wrapping_sub(16), ep.0.wrapping_add(16)),
                Color::Black => (2, ep.0.wrapping_add(16), ep.0.wrapping_sub(16)),
            };
            let mover = pos.side.flip();
            if ep.rank() != rank
                || pos.board[usize::from(ep.0)] != EMPTY
                || pos.board[usize::from(origin)] != EMPTY
                || pos.board[usize::from(pawn_sq)] != piece_code(mover, Piece::Pawn)
            {
                return Err(FenError::EnPassantImpossible(fields[3].to_string()));
            }
            if pos.ep_capturer_beside(pawn_sq, pos.side) {
                pos.ep = ep.0;
            }
        }

        if fields.len() == 6 {
            pos.halfmove = fields[4]
                .parse()
                .map_err(|_| FenError::HalfmoveClock(fields[4].to_string()))?;
            pos.fullmove = match fields[5].parse() {
                Ok(n) if n >= 1 => n,
                _ => return Err(FenError::FullmoveNumber(fields[5].to_string())),
            };
        }

        let them = pos.side.flip();
        if pos.attacked(pos.king_square(them).0, pos.side.index()) {
            return Err(FenError::OpponentInCheck(them));
        }
        pos.key = pos.compute_key();
        Ok(pos)
    }

    /// The FEN, with the en-passant square only when an en-passant capture is legal.
    pub fn fen(&self) -> String {
        let mut out = String::with_capacity(90);
        for rank in (0..8u8).rev() {
            let mut gap = 0;
            for file in 0..8u8 {
                let sq = rank * 16 + file;
                let code = self.board[usize::from(sq)];
                if code == EMPTY {
                    gap += 1;
                    continue;
                }
                if gap > 0 {
                    out.push((b'0' + gap) as char);
                    gap = 0;
                }
                out.push(piece_char(code));
            }
            if gap > 0 {
                out.push((b'0' + gap) as char);
            }
            if rank > 0 {
                out.push('/');
            }
        }
        out.push_str(if self.side == Color::White {
            " w "
        } else {
            " b "
        });
        if self.castling == 0 {
            out.push('-');
        }
        for &(bit, color, kingside) in &RIGHTS {
            if self.castling & bit == 0 {
                continue;
            }
            let rook = self.castling_paths[right_index(bit)].rook;
            let case = |c: char| {
                if color == Color::White {
                    c.to_ascii_uppercase()
                } else {
                    c
                }
            };
            let outermost = case(if kingside { 'k' } else { 'q' });
            out.push(
                if !self.chess960 && castling_right(self, outermost) == Some((bit, rook)) {
                    outermost
                } else {
                    case((b'a' + (rook & 7)) as char)
                },
            );
        }
        match self.legal_en_passant() {
            Some(sq) => out.push_str(&format!(" {sq}")),
            None => out.push_str(" -"),
        }
        out.push_str(&format!(" {} {}", self.halfmove, self.fullmove));
        out
    }

    /// The en-passant square if an en-passant capture is legal.
    fn legal_en_passant(&self) -> Option<Square> {
        if self.ep == NO_SQUARE {
            return None;
        }
        let mut moves = crate::core::MoveList::new();
        self.generate_legal(&mut moves);
        moves
            .iter()
            .any(|mv| mv.is_en_passant())
            .then_some(Square(self.ep))
    }
}

/// The FEN letter of a board code.
pub(super) fn piece_char(code: u8) -> char {
    let letter = b" pnbrqk"[usize::from(code & 7)] as char;
    if code >> 3 == 0 {
        letter.to_ascii_uppercase()
    } else {
        letter
    }
}

fn read_placement(pos: &mut Position, text: &str) -> Result<(), FenError> {
    let ranks: Vec<&str> = text.split('/').collect();
    if ranks.len() != 8 {
        return Err(FenError::RankCount(text.to_string()));
    }
    let mut kings = [0usize; 2];
    let mut totals = [0usize; 2];
    for (i, rank_text) in ranks.iter().enumerate() {
        let rank = 7 - i as u8;
        let mut file = 0u8;
        for c in rank_text.chars() {
            if let Some(skip) = c.to_digit(10).filter(|d| (1..=8).contains(d)) {
                file += skip as u8;
                if file > 8 {
                    return Err(FenError::RankLength(rank + 1, rank_text.to_string()));
                }
                continue;
            }
            let Some(piece) = Piece::from_letter(c).filter(|_| c.is_ascii_alphabetic()) else {
                return Err(FenError::PieceChar(c));
            };
            if file >= 8 {
                return Err(FenError::RankLength(rank + 1, rank_text.to_string()));
            }
            let color = if c.is_ascii_uppercase() {
                Color::White
            } else {
                Color::Black
            };
            let sq = rank * 16 + file;
            if piece == Piece::Pawn && (rank == 0 || rank == 7) {
                return Err(FenError::PawnOnBackRank(Square(sq)));
            }
            if piece == Piece::King {
                kings[color.index()] += 1;
            }
            totals[color.index()] += 1;
            if totals[color.index()] > 16 {
                return Err(FenError::TooManyPieces(color));
            }
            if piece != Piece::King || kings[color.index()] == 1 {
                pos.put(sq, piece_code(color, piece));
            }
            file += 1;
        }
        if file != 8 {
            return Err(FenError::RankLength(rank + 1, rank_text.to_string()));
        }
    }
    for color in [Color::White, Color::Black] {
        if kings[color.index()] != 1 {
            return Err(FenError::KingCount(color, kings[color.index()]));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips() {
        for fen in [
            START_FEN,
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            "8/8/1k6/2b5/2pP4/8/5K2/8 b - d3 0 1",
            "4k3/8/8/8/8/8/8/4K2R b K - 99 120",
        ] {
            assert_eq!(Position::from_fen(fen).unwrap().fen(), fen);
        }
    }

    /// Standard, X-FEN and Shredder-FEN castling fields name the same rights; X-FEN
    /// prints unless `UCI_Chess960` asks for Shredder-FEN.
    #[test]
    fn chess960_castling_fields() {
        use crate::core::Game;
        for (fens, xfen, shredder) in [
            (
                &["rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"][..],
                "KQkq",
                "HAha",
            ),
            (
                &[
                    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
                    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9",
                ],
                "KQkq",
                "HFhf",
            ),
            // Two rooks on one wing: the inner one castles, so X-FEN names its file.
            (
                &[
                    "rk4rr/8/8/8/8/8/8/RK4RR w GAga - 0 1",
                    "rk4rr/8/8/8/8/8/8/RK4RR w GQgq - 0 1",
                ],
                "GQgq",
                "GAga",
            ),
            // Double Fischer random: each side its own files.
            (
                &[
                    "nrkbbqnr/8/8/8/8/8/8/RNBKQRNB w FAhb - 0 1",
                    "nrkbbqnr/8/8/8/8/8/8/RNBKQRNB w KQkq - 0 1",
                ],
                "KQkq",
                "FAhb",
            ),
        ] {
            let board = fens[0].split(' ').next().unwrap();
            let mut positions = fens.iter().map(|fen| Position::from_fen(fen).unwrap());
            let first = positions.next().unwrap();
            for other in positions {
                assert_eq!(other, first, "{fens:?}");
            }
            let mut pos = first;
            let castling = |pos: &Position| pos.fen().split(' ').nth(2).unwrap().to_string();
            assert_eq!(castling(&pos), xfen, "{board}");
            pos.set_rule_option("UCI_Chess960", "true").unwrap();
            assert_eq!(castling(&pos), shredder, "{board}");
        }
    }

    #[test]
    fn four_fields_default_the_clocks() {
        let pos = Position::from_fen("4k3/8/8/8/8/8/8/4K2R w K -").unwrap();
        assert_eq!(pos.fen(), "4k3/8/8/8/8/8/8/4K2R w K - 0 1");
    }

    #[test]
    fn en_passant_is_printed_only_when_a_capture_is_legal() {
        // No black pawn can take on e3.
        let after_e4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1";
        assert_eq!(
            Position::from_fen(after_e4).unwrap().fen(),
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
        );
        // The c4 pawn could take on d3 but is pinned along the rank by the rook on h4.
        let pinned = "8/8/8/8/k1pP3R/8/8/3K4 b - d3 0 1";
        assert_eq!(
            Position::from_fen(pinned).unwrap().fen(),
            "8/8/8/8/k1pP3R/8/8/3K4 b - - 0 1"
        );
    }

    #[test]
    fn invalid_fens_name_the_bad_field() {
        let cases = [
            ("", "0 fields"),
            ("8/8/8/8/8/8/8/8 w - - 0", "5 fields"),
            ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", "8 ranks"),
            (
                "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                "'9'",
            ),
            (
                "rnbqkbnr/pppppppp/7/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                "rank 6 '7'",
            ),
            (
                "rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                "rank 7",
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1",
                "'X'",
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w kq - 0 1",
                "White has 0 kings",
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKKNR w kq - 0 1",
                "White has 2 kings",
            ),
            ("4k3/8/8/8/8/8/8/P3K3 w - - 0 1", "pawn on a1"),
            ("4k2p/8/8/8/8/8/8/4K3 w - - 0 1", "pawn on h8"),
            (
                "QQQQkQQQ/QQQQQQQQ/8/8/8/8/8/Q3K3 w - - 0 1",
                "White has more than 16",
            ),
            ("4k3/8/8/8/8/8/8/4K3 x - - 0 1", "side to move 'x'"),
            ("4k3/8/8/8/8/8/8/4K3 W - - 0 1", "side to move 'W'"),
            ("r3k2r/8/8/8/8/8/8/R3K2R w KQkx - 0 1", "castling 'KQkx'"),
            ("r3k2r/8/8/8/8/8/8/R3K2R w KK - 0 1", "castling 'KK'"),
            ("r3k2r/8/8/8/8/8/8/R3K3 w K - 0 1", "castling right 'K'"),
            ("r3k2r/8/8/8/8/8/4K3/R6R w Q - 0 1", "castling right 'Q'"),
            ("4k2r/8/8/8/8/8/8/R3K2R w q - 0 1", "castling right 'q'"),
            ("r3k2r/8/8/8/8/8/8/R3K2R w C - 0 1", "castling right 'C'"),
            ("r3k2r/8/8/8/8/8/8/R3K2R w E - 0 1", "castling right 'E'"),
            ("r3k2r/8/8/8/8/8/8/R3K2R w g - 0 1", "castling right 'g'"),
            ("r3k2r/8/8/8/8/8/8/R3K2R w KH - 0 1", "castling 'KH'"),
            ("r3k2r/8/8/8/8/8/8/R3K2R w I - 0 1", "castling 'I'"),
            ("4k3/8/8/8/8/8/8/4K3 w - e9 0 1", "en passant 'e9'"),
            ("4k3/8/8/8/8/8/8/4K3 w - e3 0 1", "en passant 'e3'"),
            ("4k3/8/8/8/8/8/8/4K3 w - e6 0 1", "en passant 'e6'"),
            ("4k3/8/8/3pP3/8/8/8/4K3 w - e6 0 1", "en passant 'e6'"),
            ("4k3/8/8/8/8/8/8/4K3 w - - x 1", "halfmove clock 'x'"),
            ("4k3/8/8/8/8/8/8/4K3 w - - -1 1", "halfmove clock '-1'"),
            ("4k3/8/8/8/8/8/8/4K3 w - - 0 0", "fullmove number '0'"),
            ("4k3/8/8/8/8/8/8/4K3 w - - 0 y", "fullmove number 'y'"),
            (
                "4k3/8/8/8/8/8/8/4R1K1 w - - 0 1",
                "Black is not to move but its king is in check",
            ),
            ("4k3/8/8/8/8/8/8/4K2\u{d7} w - - 0 1", "'\u{d7}'"),
        ];
        for (fen, needle) in cases {
            let err = Position::from_fen(fen).expect_err(fen).to_string();
            assert!(err.contains(needle), "{fen:?}: {err}");
        }
    }

    #[test]
    fn garbage_never_panics() {
        let pieces = [
            "k", "K", "p", "P", "8", "1", "/", " ", "-", "w", "b", "e3", "KQ", "0", "é", "9",
        ];
        let mut state = 12345u64;
        for _ in 0..5000 {
            let mut text = String::new();
            for _ in 0..(state % 40) {
                state = state
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                text.push_str(pieces[(state >> 33) as usize % pieces.len()]);
            }
            let _ = Position::from_fen(&text);
        }
    }
}

//! Static exchange evaluation (SEE): what a capture wins or loses once both sides have
//! recaptured on its square with their least valuable attackers, each free to stop. The
//! search uses it to order captures and to skip losing ones in quiescence.

use super::board::{EMPTY, Position, slides_to};
use super::tables::{self, ATTACK, diff, on_board};
use super::types::{Color, Move, Piece};
use crate::core::settle_exchange;

/// Values for exchanges (SEE) and capture ordering.
pub(super) const SEE_VALUE: [i32; 7] = [0, 100, 320, 330, 500, 950, 20_000];

/// The kind standing on a 0x88 square of `board`, if any.
pub(super) fn kind_at(board: &[u8; 128], sq: u8) -> Option<(usize, usize)> {
    let code = board[usize::from(sq)];
    (code != EMPTY).then(|| (usize::from(code >> 3), usize::from(code & 7)))
}

/// The least valuable piece of `side` attacking `to` on `board` (pieces already taken off
/// `board` by the exchange do not count; sliders see through the vacated squares).
fn least_attacker(pos: &Position, board: &[u8; 128], to: u8, side: Color) -> Option<(u8, usize)> {
    let code = |piece: Piece| (side as u8) << 3 | piece as u8;
    let pawn_from = if side == Color::White {
        to.wrapping_sub(16)
    } else {
        to.wrapping_add(16)
    };
    for p in [pawn_from.wrapping_sub(1), pawn_from.wrapping_add(1)] {
        if on_board(p) && board[usize::from(p)] == code(Piece::Pawn) {
            return Some((p, Piece::Pawn as usize));
        }
    }
    for (piece, mask) in [
        (Piece::Knight, tables::KNIGHT),
        (Piece::Bishop, tables::BISHOP),
        (Piece::Rook, tables::ROOK),
        (Piece::Queen, tables::QUEEN),
        (Piece::King, tables::KING),
    ] {
        for &sq in pos.pieces(side, piece) {
            if board[usize::from(sq.0)] != code(piece) {
                continue;
            }
            let reaches = match piece {
                Piece::Knight | Piece::King => ATTACK[diff(sq.0, to)] & mask != 0,
                _ => slides_to(board, sq.0, to, mask),
            };
            if reaches {
                return Some((sq.0, piece as usize));
            }
        }
    }
    None
}

/// Static exchange evaluation: the material balance of the capture sequence on the move's
/// target square, each side recapturing with its least valuable attacker and free to stop.
pub fn see(pos: &Position, mv: Move) -> i32 {
    if mv.is_en_passant() || mv.is_castling() {
        return 0;
    }
    let (from, to) = (mv.from().0, mv.to().0);
    let mut board = pos.board;
    let mut gain = [0i32; 33];
    gain[0] = kind_at(&board, to).map_or(0, |(_, k)| SEE_VALUE[k]);
    let mut on_square = kind_at(&board, from).map_or(0, |(_, k)| SEE_VALUE[k]);
    if let Some(promoted) = mv.promotion() {
        gain[0] += SEE_VALUE[promoted as usize] - SEE_VALUE[Piece::Pawn as usize];
        on_square = SEE_VALUE[promoted as usize];
    }
    board[usize::from(from)] = EMPTY;
    let mut side = pos.side().flip();
    let mut depth = 0;
    while let Some((sq, kind)) = least_attacker(pos, &board, to, side) {
        // A king may only recapture when the other side has nothing left to answer with.
        if kind == Piece::King as usize {
            let mut after = board;
            after[usize::from(sq)] = EMPTY;
            if least_attacker(pos, &after, to, side.flip()).is_some() {
                break;
            }
        }
        depth += 1;
        gain[depth] = on_square - gain[depth - 1];
        on_square = SEE_VALUE[kind];
        board[usize::from(sq)] = EMPTY;
        side = side.flip();
        if depth == 32 {
            break;
        }
    }
    settle_exchange(&mut gain, depth)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Game;

    fn see_of(fen: &str, mv: &str) -> i32 {
        let pos = Position::from_notation(fen).unwrap();
        see(&pos, pos.parse_move(mv).unwrap())
    }

    #[test]
    fn see_counts_the_whole_exchange() {
        // Pawn takes a defended knight: the knight is won, the pawn lost.
        assert_eq!(
            see_of("4k3/8/3p4/4n3/3P4/8/8/4K3 w - - 0 1", "d4e5"),
            320 - 100
        );
        // Rook takes a pawn defended by a pawn: loses the rook for a pawn.
        assert_eq!(
            see_of("4k3/8/3p4/4p3/8/8/8/4R1K1 w - - 0 1", "e1e5"),
            100 - 500
        );
        // Undefended pawn: a clean win.
        assert_eq!(see_of("4k3/8/8/4p3/8/8/8/4R1K1 w - - 0 1", "e1e5"), 100);
        // A pawn defended by one rook, attacked by two doubled rooks (the second seen
        // through the first): the defender cannot recapture profitably, a pawn is won.
        assert_eq!(see_of("4r1k1/8/8/4p3/8/8/4R3/4R1K1 w - - 0 1", "e2e5"), 100);
    }
}

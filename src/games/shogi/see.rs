//! Static exchange evaluation (SEE) for shogi: what a move wins or loses once both sides
//! have recaptured on its square with their least valuable attackers, each free to stop.
//! A captured piece swings the balance twice, leaving one side's board for the other's
//! hand, and a drop risks the piece it puts down. The search uses it to skip moves that
//! give material away; the evaluation orders captures and weighs threats by the same
//! piece values.

use super::board::{EMPTY, Position, is_color, piece};
use super::tables::{
    ATTACK, DIRECTION, KINDS, KING, KNIGHT, SLIDERS, STEPS, attack_index, bit, diff, oriented,
    shift,
};
use super::types::Move;
use crate::core::settle_exchange;

/// Board values by kind for the static exchange evaluation and move ordering.
pub(super) const BOARD: [i32; KINDS] = [
    0, 90, 315, 405, 495, 855, 990, 540, 0, 540, 540, 540, 540, 945, 1395,
];
/// What a capture of each kind swings: the piece leaves the board and joins the hand of
/// the capturer, whose board value the exchange then risks.
pub(super) const EXCHANGE: [i32; KINDS] = [
    0, 195, 665, 850, 1045, 1805, 2090, 1140, 30_000, 630, 980, 1080, 1040, 1800, 2485,
];

/// The least valuable piece of `side` attacking `to` on `board` (a copy of the position's
/// board with exchanged pieces removed): its square and kind.
fn least_attacker(pos: &Position, board: &[u8; 256], to: u8, side: usize) -> Option<(u8, u8)> {
    let mut best: Option<(u8, u8)> = None;
    let mut consider = |sq: u8, kind: u8| {
        if best.is_none_or(|(_, k)| EXCHANGE[usize::from(kind)] < EXCHANGE[usize::from(k)]) {
            best = Some((sq, kind));
        }
    };
    for &step in STEPS[usize::from(KING)] {
        let p = shift(to, step);
        let code = board[usize::from(p)];
        if is_color(code, side) && ATTACK[attack_index(side, p, to)] & bit(code & 15) != 0 {
            consider(p, code & 15);
        }
    }
    let knight = piece(side, KNIGHT);
    for &step in STEPS[usize::from(KNIGHT)] {
        let p = shift(to, -oriented(side, step));
        if board[usize::from(p)] == knight {
            consider(p, KNIGHT);
        }
    }
    for kind in SLIDERS {
        for &s in pos.list(side, kind) {
            if board[usize::from(s)] != piece(side, kind)
                || ATTACK[attack_index(side, s, to)] & bit(kind) == 0
            {
                continue;
            }
            let step = DIRECTION[diff(s, to)];
            let mut sq = shift(s, step);
            while sq != to && board[usize::from(sq)] == EMPTY {
                sq = shift(sq, step);
            }
            if sq == to {
                consider(s, kind);
            }
        }
    }
    best
}

/// Static exchange evaluation of a move: the material balance, in exchange units, of the
/// capture sequence on its target square with each side recapturing with its least
/// valuable piece and free to stop. A drop is a quiet move of a piece from the hand: it
/// scores what it loses where the other side can take it. Quiet moves that no one can
/// take score 0.
pub fn see(pos: &Position, mv: Move) -> i32 {
    let to = mv.to().0;
    let mut board = pos.board;
    let mover = if mv.is_drop() {
        mv.drop_kind()
    } else {
        let from = usize::from(mv.from().0);
        let mover = board[from] & 15;
        board[from] = EMPTY;
        mover
    };
    let victim = board[usize::from(to)];
    let mut gain = [0i32; 40];
    gain[0] = if victim == EMPTY {
        0
    } else {
        EXCHANGE[usize::from(victim & 15)]
    };
    let mut on_square = mover;
    if mv.is_promotion() {
        gain[0] += BOARD[usize::from(mover + 8)] - BOARD[usize::from(mover)];
        on_square = mover + 8;
    }
    let mut side = pos.side ^ 1;
    let mut depth = 0;
    while let Some((sq, kind)) = least_attacker(pos, &board, to, side) {
        // A king may only recapture when the other side has nothing left to answer with.
        if kind == KING {
            let mut after = board;
            after[usize::from(sq)] = EMPTY;
            if least_attacker(pos, &after, to, side ^ 1).is_some() {
                break;
            }
        }
        depth += 1;
        gain[depth] = EXCHANGE[usize::from(on_square)] - gain[depth - 1];
        on_square = kind;
        board[usize::from(sq)] = EMPTY;
        side ^= 1;
        if depth == gain.len() - 1 {
            break;
        }
    }
    settle_exchange(&mut gain, depth)
}

#[cfg(test)]
mod tests {
    use super::super::tables::{GOLD, PAWN, ROOK, SILVER};
    use super::*;
    use crate::core::Game;

    fn see_of(sfen: &str, mv: &str) -> i32 {
        let pos = Position::from_notation(sfen).unwrap();
        see(&pos, pos.parse_move(mv).unwrap())
    }

    #[test]
    fn see_counts_the_whole_exchange() {
        // A pawn takes an undefended silver: wins the silver.
        assert_eq!(
            see_of("4k4/9/9/4s4/4P4/9/9/9/4K4 b - 1", "5e5d"),
            EXCHANGE[usize::from(SILVER)]
        );
        // A rook takes a pawn defended by a gold: loses the rook for a pawn.
        assert_eq!(
            see_of("4k4/9/3g5/4p4/9/9/9/9/4RK3 b - 1", "5i5d"),
            EXCHANGE[usize::from(PAWN)] - EXCHANGE[usize::from(ROOK)]
        );
        // Lance behind rook (x-ray) against one defender: the pawn is won.
        assert_eq!(
            see_of("4k4/9/3g5/4p4/9/9/4R4/4L4/5K3 b - 1", "5g5d"),
            EXCHANGE[usize::from(PAWN)] + EXCHANGE[usize::from(GOLD)] - EXCHANGE[usize::from(ROOK)]
        );
        // A silver dropped in front of a pawn is lost, defended or not: the pawn is worth
        // taking it either way.
        assert_eq!(
            see_of("4k4/9/9/4p4/9/9/9/9/4K4 b S 1", "S*5e"),
            -EXCHANGE[usize::from(SILVER)]
        );
        assert_eq!(
            see_of("4k4/9/9/4p4/9/4G4/9/9/4K4 b S 1", "S*5e"),
            EXCHANGE[usize::from(PAWN)] - EXCHANGE[usize::from(SILVER)]
        );
        // A quiet move and a drop risk nothing here.
        assert_eq!(see_of("4k4/9/9/9/9/9/9/9/4K4 b P 1", "P*5e"), 0);
        assert_eq!(see_of("4k4/9/9/9/9/9/9/9/4K4 b - 1", "5i5h"), 0);
    }
}

//! Shogi evaluation: material (pieces in hand above the same pieces on the board, since a
//! drop can go anywhere), piece-square terms measured against both kings, slider
//! mobility, king safety (enemy control of the squares around the king, defenders beside
//! it, and the drops the enemy hand threatens), plus the static exchange evaluation the
//! search uses to skip losing captures.
//!
//! The piece-square terms are distances rather than 81-entry tables: shogi pieces matter
//! by where they stand relative to the kings (gold and silver guard their own, everything
//! else closes in on the enemy's), and a formula keeps the parameters few enough to read.

use super::board::{EMPTY, Move, Position, is_color, piece};
use super::tables::{
    ATTACK, COL, DIRECTION, GOLD, KINDS, KING, KNIGHT, PAWN, PRO_PAWN, PRO_SILVER, ROW, SILVER,
    SLIDERS, SLIDES, STEPS, attack_index, bit, diff, oriented, relative_row, shift,
};
use crate::core::{Evaluator, MoveList, Score};

/// Board values by kind (1..=14); the king is priceless and counts nothing.
const BOARD: [i32; KINDS] = [
    0, 90, 315, 405, 495, 855, 990, 540, 0, 540, 540, 540, 540, 945, 1395,
];
/// Hand values by kind (1..=7): more than on the board, because a drop goes anywhere.
const HAND: [i32; 8] = [0, 105, 350, 445, 550, 950, 1100, 600];
/// What a capture of each kind swings: the piece leaves the board and joins the hand of
/// the capturer, whose board value the exchange then risks.
const EXCHANGE: [i32; KINDS] = [
    0, 195, 665, 850, 1045, 1805, 2090, 1140, 30_000, 630, 980, 1080, 1040, 1800, 2485,
];

/// Bonus per square of closeness (4 - distance, at least 0) to the own king, by kind.
const GUARD: [i32; KINDS] = [0, 0, 0, 0, 8, 0, 0, 12, 0, 8, 8, 8, 8, 6, 0];
/// Bonus per square of closeness to the enemy king, by kind.
const ATTACK_BONUS: [i32; KINDS] = [0, 2, 4, 6, 10, 6, 6, 10, 0, 12, 12, 12, 12, 14, 16];
/// Bonus per square a slider reaches, by kind.
const MOBILITY: [i32; KINDS] = [0, 0, 2, 0, 0, 5, 4, 0, 0, 0, 0, 0, 0, 5, 4];
/// How much of a threat each kind in the enemy hand is to the king.
const HAND_THREAT: [i32; 8] = [0, 1, 2, 2, 3, 4, 5, 4];
/// King safety: penalty grows with the square of the danger units, up to this.
const KING_DANGER_MAX: i32 = 900;
const TEMPO: i32 = 20;

/// The shogi evaluator.
#[derive(Clone, Copy, Debug, Default)]
pub struct Eval;

/// Distance by the king's move (Chebyshev).
#[inline(always)]
fn distance(a: u8, b: u8) -> i32 {
    let dr = i32::from(ROW[usize::from(a)]) - i32::from(ROW[usize::from(b)]);
    let dc = i32::from(COL[usize::from(a)]) - i32::from(COL[usize::from(b)]);
    dr.abs().max(dc.abs())
}

/// 4 for a neighbour, down to 0 at distance 4 and beyond; next to nothing without a king.
#[inline(always)]
fn closeness(sq: u8, king: Option<u8>) -> i32 {
    king.map_or(0, |k| (4 - distance(sq, k)).max(0))
}

impl Eval {
    /// The score from sente's view.
    fn sente_score(&self, pos: &Position) -> i32 {
        let kings = [pos.king(0), pos.king(1)];
        let mut score = [0i32; 2];
        for color in 0..2 {
            let own = kings[color];
            let enemy = kings[color ^ 1];
            let mut total = 0;
            for kind in 1..KINDS as u8 {
                let k = usize::from(kind);
                for &sq in pos.list(color, kind) {
                    total += BOARD[k]
                        + GUARD[k] * closeness(sq, own)
                        + ATTACK_BONUS[k] * closeness(sq, enemy);
                    if MOBILITY[k] != 0 {
                        total += MOBILITY[k] * slider_reach(pos, color, kind, sq);
                    }
                    if kind == PAWN {
                        // Pawns that have advanced are closer to promoting.
                        total += (6 - i32::from(relative_row(color, sq))).max(0) * 4;
                    }
                }
            }
            for kind in PAWN..=GOLD {
                let n = i32::from(pos.hands[color][usize::from(kind)]);
                // Past the third pawn, more pawns in hand add less.
                total += if kind == PAWN {
                    HAND[1] * n.min(3) + HAND[1] / 2 * (n - 3).max(0)
                } else {
                    HAND[usize::from(kind)] * n
                };
            }
            total -= king_danger(pos, color);
            score[color] = total;
        }
        score[0] - score[1]
    }
}

/// Squares a slider of `color` on `sq` reaches along its slides.
fn slider_reach(pos: &Position, color: usize, kind: u8, sq: u8) -> i32 {
    let mut count = 0;
    for &dir in SLIDES[usize::from(kind)] {
        let dir = oriented(color, dir);
        let mut to = shift(sq, dir);
        loop {
            let code = pos.board[usize::from(to)];
            if code == EMPTY {
                count += 1;
            } else {
                if is_color(code, color ^ 1) {
                    count += 1;
                }
                break;
            }
            to = shift(to, dir);
        }
    }
    count
}

/// How endangered `color`'s king is, as a penalty: enemy control of the squares around
/// it, weighed against the golds and silvers beside it, plus the threat of the drops the
/// enemy holds in hand, squared so that a few attackers cost little and many a lot.
fn king_danger(pos: &Position, color: usize) -> i32 {
    let Some(king) = pos.king(color) else {
        return 0;
    };
    let them = color ^ 1;
    let mut units = 0;
    for &step in STEPS[usize::from(KING)] {
        let sq = shift(king, step);
        let code = pos.board[usize::from(sq)];
        if code == super::board::WALL {
            continue;
        }
        if pos.attacked(sq, them, 0, 0) {
            units += if pos.attacked(sq, color, king, 0) {
                2
            } else {
                3
            };
        } else if code == EMPTY {
            // A hole the enemy may drop into.
            units += 1;
        }
        if is_color(code, color) {
            let kind = code & 15;
            if matches!(kind, GOLD | SILVER | PRO_PAWN..=PRO_SILVER) {
                units -= 2;
            }
        }
    }
    let hand = &pos.hands[them];
    let threat: i32 = (PAWN..=GOLD)
        .map(|k| HAND_THREAT[usize::from(k)] * i32::from(hand[usize::from(k)].min(2)))
        .sum();
    let units = (units + threat / 2).max(0);
    (units * units * 3).min(KING_DANGER_MAX)
}

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
/// valuable piece and free to stop. Drops and quiet moves that no one can take score 0.
pub fn see(pos: &Position, mv: Move) -> i32 {
    if mv.is_drop() {
        return 0;
    }
    let (from, to) = (mv.from().0, mv.to().0);
    let mut board = pos.board;
    let mover = board[usize::from(from)] & 15;
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
    board[usize::from(from)] = EMPTY;
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
    while depth > 0 {
        gain[depth - 1] = -(-gain[depth - 1]).max(gain[depth]);
        depth -= 1;
    }
    gain[0]
}

impl Evaluator<Position> for Eval {
    fn evaluate(&self, pos: &Position) -> Score {
        let sente = self.sente_score(pos);
        TEMPO + if pos.side == 0 { sente } else { -sente }
    }

    /// Captures and promotions.
    fn noisy_moves(&self, pos: &Position, moves: &mut MoveList<Move>) {
        pos.generate_legal(moves);
        moves.retain(|&mv| pos.is_noisy(mv));
    }

    fn good_capture(&self, pos: &Position, mv: Move) -> bool {
        see(pos, mv) >= 0
    }

    /// Most valuable victim first, least valuable attacker breaking ties; promotions count
    /// what they add.
    fn capture_order(&self, pos: &Position, mv: Move) -> Score {
        let victim = pos.board[usize::from(mv.to().0)];
        let victim = if victim == EMPTY {
            0
        } else {
            EXCHANGE[usize::from(victim & 15)]
        };
        let attacker = pos.board[usize::from(mv.from().0)] & 15;
        let promotion = if mv.is_promotion() {
            BOARD[usize::from(attacker + 8)] - BOARD[usize::from(attacker)]
        } else {
            0
        };
        victim * 8 + promotion - BOARD[usize::from(attacker)] / 16
    }

    fn futility_margin(&self, depth: i32) -> Option<Score> {
        Some(150 * depth)
    }
}

#[cfg(test)]
mod tests {
    use super::super::tables::ROOK;
    use super::*;
    use crate::core::Game;

    fn eval(sfen: &str) -> i32 {
        Eval.evaluate(&Position::from_notation(sfen).unwrap())
    }

    fn see_of(sfen: &str, mv: &str) -> i32 {
        let pos = Position::from_notation(sfen).unwrap();
        see(&pos, pos.parse_move(mv).unwrap())
    }

    /// The same position with colours swapped and the board turned round.
    fn mirrored(sfen: &str) -> String {
        let fields: Vec<&str> = sfen.split_whitespace().collect();
        let board: String = fields[0]
            .chars()
            .rev()
            .collect::<String>()
            .split('/')
            .map(|rank| {
                // Reversing moved every '+' behind its letter; put it back in front.
                let mut out = String::new();
                let mut chars = rank.chars().peekable();
                while let Some(c) = chars.next() {
                    if chars.peek() == Some(&'+') {
                        chars.next();
                        out.push('+');
                    }
                    out.push(swap_case(c));
                }
                out
            })
            .collect::<Vec<_>>()
            .join("/");
        let side = if fields[1] == "b" { "w" } else { "b" };
        let hands: String = fields[2].chars().map(swap_case).collect();
        format!("{board} {side} {hands} 1")
    }

    fn swap_case(c: char) -> char {
        if c.is_ascii_uppercase() {
            c.to_ascii_lowercase()
        } else {
            c.to_ascii_uppercase()
        }
    }

    #[test]
    fn colour_mirrored_positions_score_the_same_for_the_side_to_move() {
        for sfen in [
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
            "ln1g3nl/1r1sg1k2/p1pppp1pp/6s2/1p5P1/2P6/PPSPPPP1P/2G3SR1/LN2KG1NL b Bbp 1",
        ] {
            let turned = mirrored(sfen);
            assert_eq!(eval(sfen), eval(&turned), "{sfen} / {turned}");
        }
        assert_eq!(
            eval("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"),
            TEMPO
        );
    }

    #[test]
    fn material_and_king_safety_point_the_right_way() {
        // A rook in hand is worth a lot, and more than the same rook on the board.
        let in_hand = eval("4k4/9/9/9/9/9/9/9/4K4 b R 1");
        assert!(in_hand > 900, "{in_hand}");
        assert!(in_hand > eval("4k4/9/9/9/9/9/9/7R1/4K4 b - 1"));
        // A king wrapped in golds is safer than a bare one facing the same hand.
        let guarded = eval("4k4/9/9/9/9/9/9/3GGG3/4K4 w RBG 1");
        let bare = eval("4k4/9/9/9/9/9/9/9/3GKGG2 w RBG 1");
        assert!(guarded < bare, "{guarded} {bare}");
        // Promoting is worth it.
        assert!(eval("4k4/4+P4/9/9/9/9/9/9/4K4 w - 1") < eval("4k4/9/4P4/9/9/9/9/9/4K4 w - 1"));
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
        // A quiet move and a drop risk nothing here.
        assert_eq!(see_of("4k4/9/9/9/9/9/9/9/4K4 b P 1", "P*5e"), 0);
        assert_eq!(see_of("4k4/9/9/9/9/9/9/9/4K4 b - 1", "5i5h"), 0);
    }
}

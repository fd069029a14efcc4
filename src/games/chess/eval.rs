//! Chess evaluation: a tapered score (middlegame and endgame terms blended by the material
//! left) of material, piece-square terms, mobility, pawn structure, passed pawns, rooks on
//! open files, the bishop pair and king safety; plus the static exchange evaluation (SEE)
//! the search uses to skip losing captures in quiescence.
//!
//! The piece-square terms are formulas (centralisation, advancement, a castled king's
//! corner) rather than 384 hand-typed numbers: fewer parameters, the same shape, and a
//! shape that tuning can later refine.

use super::board::{Color, EMPTY, Move, Piece, Position, Square, slides_to};
use super::tables::{
    self, ATTACK, BISHOP_STEPS, KING_STEPS, KNIGHT_STEPS, ROOK_STEPS, diff, on_board,
};
use crate::core::{Evaluator, MoveList, Score};
use once_cell::sync::Lazy;

/// A middlegame and an endgame value, blended by game phase.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
struct Pair(i32, i32);

impl std::ops::AddAssign for Pair {
    fn add_assign(&mut self, other: Pair) {
        self.0 += other.0;
        self.1 += other.1;
    }
}

impl std::ops::SubAssign for Pair {
    fn sub_assign(&mut self, other: Pair) {
        self.0 -= other.0;
        self.1 -= other.1;
    }
}

impl std::ops::Mul<i32> for Pair {
    type Output = Pair;
    fn mul(self, k: i32) -> Pair {
        Pair(self.0 * k, self.1 * k)
    }
}

/// Material by piece kind (index = `Piece as usize`; 0 unused, the king priceless).
const MATERIAL: [Pair; 7] = [
    Pair(0, 0),
    Pair(82, 104),
    Pair(330, 300),
    Pair(350, 320),
    Pair(470, 530),
    Pair(1000, 960),
    Pair(0, 0),
];
/// Phase contribution by kind: 24 with all pieces on the board, 0 with only kings and pawns.
const PHASE: [i32; 7] = [0, 0, 1, 1, 2, 4, 0];
const MAX_PHASE: i32 = 24;
/// Values for exchanges (SEE) and capture ordering.
const SEE_VALUE: [i32; 7] = [0, 100, 320, 330, 500, 950, 20_000];

/// Mobility per reachable square beyond a typical count, by kind.
const MOBILITY: [Pair; 7] = [
    Pair(0, 0),
    Pair(0, 0),
    Pair(4, 4),
    Pair(5, 5),
    Pair(2, 4),
    Pair(1, 2),
    Pair(0, 0),
];
/// The typical number of reachable squares, subtracted so mobility is centred on zero.
const MOBILITY_BASE: [i32; 7] = [0, 0, 4, 6, 7, 13, 0];
/// Attack units a piece of each kind brings against the enemy king's zone.
const KING_ATTACK_UNITS: [i32; 7] = [0, 0, 2, 2, 3, 5, 0];

const BISHOP_PAIR: Pair = Pair(30, 50);
const DOUBLED: Pair = Pair(-10, -20);
const ISOLATED: Pair = Pair(-12, -14);
const ROOK_OPEN: Pair = Pair(25, 10);
const ROOK_HALF_OPEN: Pair = Pair(12, 6);
const TEMPO: i32 = 12;
/// Passed pawn bonus by rank from the owner's side (index 0 = rank 1).
const PASSED: [Pair; 8] = [
    Pair(0, 0),
    Pair(4, 10),
    Pair(8, 16),
    Pair(14, 28),
    Pair(24, 48),
    Pair(40, 80),
    Pair(60, 120),
    Pair(0, 0),
];

/// Piece-square terms by kind and dense square index, from White's side.
static PST: Lazy<[[Pair; 64]; 7]> =
    Lazy::new(|| std::array::from_fn(|kind| std::array::from_fn(|index| square_term(kind, index))));

/// The piece-square term of a kind on a dense square index, from White's side.
fn square_term(kind: usize, index: usize) -> Pair {
    let (file, rank) = ((index % 8) as i32, (index / 8) as i32);
    // 0 in the corner, 6 in the centre: Manhattan closeness to the four centre squares.
    let centre = 6 - ((2 * file - 7).abs() / 2 + (2 * rank - 7).abs() / 2);
    let central_file = matches!(file, 3 | 4);
    let seventh = rank == 6;
    match kind {
        k if k == Piece::Pawn as usize => {
            let centre_bonus = if central_file && (2..=4).contains(&rank) {
                10
            } else {
                0
            };
            Pair(
                [0, 0, 2, 6, 14, 22, 30, 0][rank as usize] + centre_bonus,
                [0, 0, 4, 10, 20, 34, 50, 0][rank as usize],
            )
        }
        k if k == Piece::Knight as usize => Pair(7 * centre - 24, 6 * centre - 20),
        k if k == Piece::Bishop as usize => {
            let long_diagonal = file == rank || file + rank == 7;
            Pair(3 * centre - 10 + 8 * long_diagonal as i32, 3 * centre - 10)
        }
        k if k == Piece::Rook as usize => Pair(
            20 * seventh as i32 + 5 * central_file as i32,
            15 * seventh as i32,
        ),
        k if k == Piece::Queen as usize => Pair(2 * centre - 8, 4 * centre - 14),
        k if k == Piece::King as usize => {
            let middlegame = match rank {
                0 => [20, 30, 10, 0, 0, 10, 30, 20][file as usize],
                1 => [0, 0, -10, -20, -20, -10, 0, 0][file as usize],
                _ => -30 - 10 * rank,
            };
            Pair(middlegame, 9 * centre - 30)
        }
        _ => Pair(0, 0),
    }
}

/// The dense index of `sq` seen from `color`'s side (Black's ranks mirrored).
#[inline]
fn relative(sq: Square, color: Color) -> usize {
    let index = sq.index();
    if color == Color::White {
        index
    } else {
        index ^ 56
    }
}

/// The chess evaluation.
#[derive(Clone, Copy, Debug, Default)]
pub struct Eval;

/// Pawn facts per side: which files hold pawns, and each file's most advanced and least
/// advanced pawn rank (from White's numbering).
struct PawnFiles {
    count: [[u8; 8]; 2],
    /// Lowest rank of a pawn on the file per side (8 when none).
    lowest: [[u8; 8]; 2],
    /// Highest rank of a pawn on the file per side (255 when none... stored as i8 -1).
    highest: [[i8; 8]; 2],
}

impl PawnFiles {
    fn new(pos: &Position) -> PawnFiles {
        let mut files = PawnFiles {
            count: [[0; 8]; 2],
            lowest: [[8; 8]; 2],
            highest: [[-1; 8]; 2],
        };
        for color in [Color::White, Color::Black] {
            let c = color.index();
            for &sq in pos.pieces(color, Piece::Pawn) {
                let (f, r) = (sq.file() as usize, sq.rank());
                files.count[c][f] += 1;
                files.lowest[c][f] = files.lowest[c][f].min(r);
                files.highest[c][f] = files.highest[c][f].max(r as i8);
            }
        }
        files
    }

    /// Whether a pawn of `color` on `sq` has no enemy pawn ahead on its own or a
    /// neighbouring file.
    fn passed(&self, color: Color, sq: Square) -> bool {
        let (f, r) = (sq.file() as usize, sq.rank() as i8);
        let enemy = color.flip().index();
        (f.saturating_sub(1)..=(f + 1).min(7)).all(|file| {
            if color == Color::White {
                self.highest[enemy][file] <= r
            } else {
                self.lowest[enemy][file] as i8 >= r
            }
        })
    }
}

impl Eval {
    /// The score from White's view.
    fn white_score(&self, pos: &Position) -> i32 {
        let pawns = PawnFiles::new(pos);
        let mut total = Pair(0, 0);
        let mut phase = 0;
        let kings = [pos.king_square(Color::White), pos.king_square(Color::Black)];
        let mut king_attack = [0i32; 2];
        let mut king_attackers = [0i32; 2];
        for color in [Color::White, Color::Black] {
            let c = color.index();
            let enemy = color.flip();
            let mut side = Pair(0, 0);
            for piece in Piece::ALL {
                let kind = piece as usize;
                for &sq in pos.pieces(color, piece) {
                    side += MATERIAL[kind];
                    side += PST[kind][relative(sq, color)];
                    phase += PHASE[kind];
                    if matches!(
                        piece,
                        Piece::Knight | Piece::Bishop | Piece::Rook | Piece::Queen
                    ) {
                        let (reach, zone_hits) =
                            mobility(pos, sq, piece, color, kings[enemy.index()]);
                        side += MOBILITY[kind] * (reach - MOBILITY_BASE[kind]);
                        if zone_hits > 0 {
                            king_attack[enemy.index()] +=
                                KING_ATTACK_UNITS[kind] * zone_hits.min(3);
                            king_attackers[enemy.index()] += 1;
                        }
                    }
                    if piece == Piece::Rook {
                        let f = sq.file() as usize;
                        if pawns.count[c][f] == 0 {
                            side += if pawns.count[enemy.index()][f] == 0 {
                                ROOK_OPEN
                            } else {
                                ROOK_HALF_OPEN
                            };
                        }
                    }
                }
            }
            if pos.count(color, Piece::Bishop) >= 2 {
                side += BISHOP_PAIR;
            }
            side += pawn_structure(pos, &pawns, color, kings);
            side.0 += king_shelter(pos, &pawns, color);
            if c == 0 {
                total += side;
            } else {
                total -= side;
            }
        }
        // King danger grows faster than linearly with the weight of the attack.
        for c in 0..2 {
            if king_attackers[c] >= 2 {
                let units = king_attack[c].min(40);
                let danger = units * units / 2;
                if c == 0 {
                    total.0 -= danger;
                } else {
                    total.0 += danger;
                }
            }
        }
        let phase = phase.min(MAX_PHASE);
        let mut score = (total.0 * phase + total.1 * (MAX_PHASE - phase)) / MAX_PHASE;
        score += if pos.side() == Color::White {
            TEMPO
        } else {
            -TEMPO
        };
        scale_drawish(pos, score)
    }
}

/// Squares a piece reaches (empty or enemy, not guarded by enemy pawns for minor pieces)
/// and how many of its attacked squares lie in the enemy king's zone.
fn mobility(
    pos: &Position,
    sq: Square,
    piece: Piece,
    color: Color,
    enemy_king: Square,
) -> (i32, i32) {
    let board = &pos.board;
    let own = (color as u8) << 3;
    let enemy_pawn = ((color.flip() as u8) << 3) | Piece::Pawn as u8;
    let pawn_guarded = |to: u8| {
        // An enemy pawn attacks `to` from one rank further up the board (for White's
        // pieces) on a neighbouring file.
        let ahead = if color == Color::White {
            to.wrapping_add(16)
        } else {
            to.wrapping_sub(16)
        };
        [ahead.wrapping_sub(1), ahead.wrapping_add(1)]
            .into_iter()
            .any(|p| on_board(p) && board[usize::from(p)] == enemy_pawn)
    };
    let mut reach = 0;
    let mut zone = 0;
    let mut visit = |to: u8| {
        if ATTACK[diff(to, enemy_king.0)] & tables::KING != 0 || to == enemy_king.0 {
            zone += 1;
        }
        let target = board[usize::from(to)];
        if (target == EMPTY || target & 8 != own)
            && !(matches!(piece, Piece::Knight | Piece::Bishop) && pawn_guarded(to))
        {
            reach += 1;
        }
    };
    let from = sq.0;
    match piece {
        Piece::Knight => {
            for step in KNIGHT_STEPS {
                let to = from.wrapping_add(step as u8);
                if on_board(to) {
                    visit(to);
                }
            }
        }
        _ => {
            let steps: &[i8] = match piece {
                Piece::Bishop => &BISHOP_STEPS,
                Piece::Rook => &ROOK_STEPS,
                _ => &KING_STEPS,
            };
            for &step in steps {
                let mut to = from.wrapping_add(step as u8);
                while on_board(to) {
                    visit(to);
                    if board[usize::from(to)] != EMPTY {
                        break;
                    }
                    to = to.wrapping_add(step as u8);
                }
            }
        }
    }
    (reach, zone)
}

/// Doubled, isolated and passed pawns of `color`.
fn pawn_structure(pos: &Position, pawns: &PawnFiles, color: Color, kings: [Square; 2]) -> Pair {
    let c = color.index();
    let mut score = Pair(0, 0);
    for f in 0..8 {
        if pawns.count[c][f] > 1 {
            score += DOUBLED * (pawns.count[c][f] as i32 - 1);
        }
    }
    for &sq in pos.pieces(color, Piece::Pawn) {
        let f = sq.file() as usize;
        let left = f > 0 && pawns.count[c][f - 1] > 0;
        let right = f < 7 && pawns.count[c][f + 1] > 0;
        if !left && !right {
            score += ISOLATED;
        }
        if pawns.passed(color, sq) {
            let rank = relative(sq, color) / 8;
            let mut bonus = PASSED[rank];
            // In the endgame the kings decide passers: ours near, theirs far from the
            // square in front.
            let front = if color == Color::White {
                sq.0.wrapping_add(16)
            } else {
                sq.0.wrapping_sub(16)
            };
            if on_board(front) {
                let distance = |k: Square| {
                    let (a, b) = (k.0, front);
                    ((a & 7) as i32 - (b & 7) as i32)
                        .abs()
                        .max(((a >> 4) as i32 - (b >> 4) as i32).abs())
                };
                bonus.1 +=
                    5 * (distance(kings[color.flip().index()]) - distance(kings[c])) * rank as i32
                        / 3;
                if pos.board[usize::from(front)] != EMPTY {
                    bonus.1 -= bonus.1 / 3;
                }
            }
            score += bonus;
        }
    }
    score
}

/// The pawn shield in front of a king on its first two ranks (middlegame only).
fn king_shelter(pos: &Position, pawns: &PawnFiles, color: Color) -> i32 {
    let king = pos.king_square(color);
    let rank = relative(king, color) / 8;
    if rank > 1 {
        return -20;
    }
    let c = color.index();
    let f = king.file() as usize;
    let mut score = 0;
    for file in f.saturating_sub(1)..=(f + 1).min(7) {
        let shield = pos
            .pieces(color, Piece::Pawn)
            .iter()
            .filter(|sq| sq.file() as usize == file)
            .map(|&sq| relative(sq, color) / 8)
            .min();
        score += match shield {
            Some(1) => 12,
            Some(2) => 6,
            Some(_) => -8,
            None => -16,
        };
        if pawns.count[c][file] == 0 && pawns.count[color.flip().index()][file] == 0 {
            score -= 12;
        }
    }
    score
}

/// Endgames where the side ahead has no pawns and at most a minor piece more are nearly
/// always drawn: say so, so the search does not trade into them expecting a win.
fn scale_drawish(pos: &Position, score: i32) -> i32 {
    let strong = if score > 0 {
        Color::White
    } else {
        Color::Black
    };
    if pos.count(strong, Piece::Pawn) > 0 {
        return score;
    }
    let material = |color: Color| -> i32 {
        [Piece::Knight, Piece::Bishop, Piece::Rook, Piece::Queen]
            .iter()
            .map(|&p| SEE_VALUE[p as usize] * pos.count(color, p) as i32)
            .sum()
    };
    if material(strong) - material(strong.flip()) <= SEE_VALUE[Piece::Bishop as usize] {
        score / 8
    } else {
        score
    }
}

/// The kind standing on a 0x88 square of `board`, if any.
fn kind_at(board: &[u8; 128], sq: u8) -> Option<(usize, usize)> {
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
    while depth > 0 {
        gain[depth - 1] = -(-gain[depth - 1]).max(gain[depth]);
        depth -= 1;
    }
    gain[0]
}

impl Evaluator<Position> for Eval {
    fn evaluate(&self, pos: &Position) -> Score {
        let white = self.white_score(pos);
        if pos.side() == Color::White {
            white
        } else {
            -white
        }
    }

    /// Captures and queen promotions, generated directly rather than filtered from all moves.
    fn noisy_moves(&self, pos: &Position, moves: &mut MoveList<Move>) {
        pos.generate_captures(moves);
    }

    fn good_capture(&self, pos: &Position, mv: Move) -> bool {
        see(pos, mv) >= 0
    }

    fn capture_order(&self, pos: &Position, mv: Move) -> Score {
        let victim = if mv.is_en_passant() {
            Piece::Pawn as usize
        } else {
            kind_at(&pos.board, mv.to().0).map_or(0, |(_, k)| k)
        };
        let attacker = kind_at(&pos.board, mv.from().0).map_or(0, |(_, k)| k);
        let promotion = mv.promotion().map_or(0, |p| SEE_VALUE[p as usize]);
        SEE_VALUE[victim] * 8 - attacker as i32 + promotion
    }

    fn futility_margin(&self, depth: i32) -> Option<Score> {
        Some(90 * depth)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Game;

    fn eval(fen: &str) -> i32 {
        Eval.evaluate(&Position::from_notation(fen).unwrap())
    }

    fn see_of(fen: &str, mv: &str) -> i32 {
        let pos = Position::from_notation(fen).unwrap();
        see(&pos, pos.parse_move(mv).unwrap())
    }

    #[test]
    fn symmetric_positions_score_the_tempo_only() {
        assert_eq!(
            eval("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
            TEMPO
        );
        assert_eq!(
            eval("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1"),
            TEMPO
        );
        // Colour-mirrored positions evaluate the same for the side to move.
        let a = eval("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4");
        let b = eval("rnbqk2r/pppp1ppp/5n2/2b1p3/4P3/2N2N2/PPPP1PPP/R1BQKB1R b KQkq - 4 4");
        assert_eq!(a, b);
    }

    #[test]
    fn material_and_structure_point_the_right_way() {
        // An extra queen is worth a lot.
        assert!(eval("4k3/8/8/8/8/8/8/3QK3 w - - 0 1") > 800);
        // A far advanced passed pawn beats a blocked one.
        assert!(eval("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1") > eval("4k3/8/8/8/8/8/1P6/4K3 w - - 0 1"));
        // King and bishop against king: drawish, scaled right down.
        assert!(eval("4k3/8/8/8/8/8/8/3BK3 w - - 0 1").abs() < 60);
    }

    #[test]
    fn see_counts_the_whole_exchange() {
        // Pawn takes a defended knight: wins the knight for the pawn... not: knight minus pawn.
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
        // Doubled rooks (x-ray) against one defender: the exchange wins a pawn... R takes
        // p, p? no: pawn defended by a rook, attacked by two rooks: +100.
        assert_eq!(see_of("4r1k1/8/8/4p3/8/8/4R3/4R1K1 w - - 0 1", "e2e5"), 100);
    }
}

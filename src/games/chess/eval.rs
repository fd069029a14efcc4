//! Chess evaluation: a tapered score (middlegame and endgame terms blended by the material
//! left) of material, piece-square tables, mobility, pawn structure, passed pawns, threats,
//! rooks on open files, the bishop pair and king safety.
//!
//! Every term is a weight (a middlegame/endgame [`Pair`] in [`WEIGHTS`]) times a count the
//! position yields (see `core::linear`), so `qiyi tune` can fit them all to real games.
//! King danger stays linear by carrying the square of the attack weight as a count of its
//! own.

use super::board::{EMPTY, Position};
use super::see::{SEE_VALUE, kind_at, see};
use super::tables::{
    self, ATTACK, BISHOP_STEPS, KING_STEPS, KNIGHT_STEPS, ROOK_STEPS, diff, on_board,
};
use super::types::{Color, Move, Piece, Square};
use super::weights::WEIGHTS;
use crate::core::linear::{Pair, Sink, Total, Trace};
use crate::core::tunable::{Tunable, sections_from_starts};
use crate::core::{EloScale, Evaluator, MoveList, Score};

/// Where each group of terms starts in [`WEIGHTS`], and how many it has. Piece kinds
/// index from pawn (0) to queen (4) or king (5); ranks and squares are from the owner's
/// side (rank 0 = its first rank).
pub(super) mod terms {
    /// Material, pawn to queen.
    pub const MATERIAL: usize = 0;
    /// Piece-square tables for each kind pawn to king: 32 squares, the board's a-d half,
    /// each file standing for its mirror image too (a for h, b for g, ...). Left-right
    /// symmetry halves the weights the games must pin down.
    pub const PST: usize = MATERIAL + 5;
    /// Mobility tables indexed by the number of squares reached.
    pub const MOBILITY_KNIGHT: usize = PST + 6 * 32;
    pub const MOBILITY_BISHOP: usize = MOBILITY_KNIGHT + 9;
    pub const MOBILITY_ROOK: usize = MOBILITY_BISHOP + 14;
    pub const MOBILITY_QUEEN: usize = MOBILITY_ROOK + 15;
    /// Passed pawns by rank.
    pub const PASSED: usize = MOBILITY_QUEEN + 28;
    /// Per square of distance from the own king to the passer's stop square, by rank.
    pub const PASSED_OWN_KING: usize = PASSED + 8;
    /// Per square of distance from the enemy king to the passer's stop square, by rank.
    pub const PASSED_ENEMY_KING: usize = PASSED_OWN_KING + 8;
    /// A passer whose stop square is occupied, by rank.
    pub const PASSED_BLOCKED: usize = PASSED_ENEMY_KING + 8;
    /// A pawn defended by a pawn, by rank.
    pub const PAWN_SUPPORTED: usize = PASSED_BLOCKED + 8;
    /// A pawn with a pawn beside it, by rank.
    pub const PAWN_PHALANX: usize = PAWN_SUPPORTED + 8;
    /// Per pawn beyond the first on a file.
    pub const DOUBLED: usize = PAWN_PHALANX + 8;
    pub const ISOLATED: usize = DOUBLED + 1;
    pub const ROOK_OPEN: usize = ISOLATED + 1;
    pub const ROOK_HALF_OPEN: usize = ROOK_OPEN + 1;
    pub const BISHOP_PAIR: usize = ROOK_HALF_OPEN + 1;
    /// Enemy pieces (not pawns) attacked by a pawn.
    pub const THREAT_BY_PAWN: usize = BISHOP_PAIR + 1;
    /// Enemy rooks and queens attacked by a knight or bishop.
    pub const THREAT_BY_MINOR: usize = THREAT_BY_PAWN + 1;
    /// Enemy queens attacked by a rook.
    pub const THREAT_BY_ROOK: usize = THREAT_BY_MINOR + 1;
    /// The king's pawn shield, per file in front of a king on its first two ranks: the
    /// nearest own pawn on the second rank, on the third, further up, or none.
    pub const SHELTER: usize = THREAT_BY_ROOK + 1;
    /// A file in front of the king with no pawn of either side.
    pub const KING_OPEN_FILE: usize = SHELTER + 4;
    /// The king has left its first two ranks.
    pub const KING_EXPOSED: usize = KING_OPEN_FILE + 1;
    /// Attack weight against the enemy king's zone (by at least two pieces), then that
    /// weight squared over 8: king danger grows faster than linearly.
    pub const KING_ATTACK: usize = KING_EXPOSED + 1;
    /// The side to move.
    pub const TEMPO: usize = KING_ATTACK + 2;
    /// The number of weights.
    pub const COUNT: usize = TEMPO + 1;
}

/// Phase contribution by kind: 24 with all pieces on the board, 0 with only kings and pawns.
const PHASE: [i32; 7] = [0, 0, 1, 1, 2, 4, 0];
const MAX_PHASE: i32 = 24;
/// Attack units a piece of each kind brings against the enemy king's zone.
const KING_ATTACK_UNITS: [i32; 7] = [0, 0, 2, 2, 3, 5, 0];
/// The attack weight counted at most, so one absurd pile-up does not dominate.
const MAX_KING_ATTACK: i32 = 40;

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

/// The square's index in a half-board table: rank from `color`'s side times 4, plus the
/// file folded onto a-d.
#[inline]
fn half_board(sq: Square, color: Color) -> usize {
    let rank = relative(sq, color) / 8;
    let file = usize::from(sq.file());
    rank * 4 + file.min(7 - file)
}

/// Chebyshev distance between two 0x88 squares.
#[inline]
fn distance(a: u8, b: u8) -> i32 {
    ((a & 7) as i32 - (b & 7) as i32)
        .abs()
        .max(((a >> 4) as i32 - (b >> 4) as i32).abs())
}

/// The square one step forward for `color`.
#[inline]
fn forward(sq: u8, color: Color) -> u8 {
    if color == Color::White {
        sq.wrapping_add(16)
    } else {
        sq.wrapping_sub(16)
    }
}

/// The hand-written chess evaluation, linear in the weights `qiyi tune` fits. The engine
/// plays with [`super::NetworkEval`], which falls back on it and keeps its move ordering
/// and margins.
#[derive(Clone, Copy, Debug, Default)]
pub struct HandEval;

/// Pawn facts per side: which files hold pawns, and each file's most advanced and least
/// advanced pawn rank (from White's numbering).
struct PawnFiles {
    count: [[u8; 8]; 2],
    /// Lowest rank of a pawn on the file per side (8 when none).
    lowest: [[u8; 8]; 2],
    /// Highest rank of a pawn on the file per side (-1 when none).
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

/// Walks every term of `pos` into `sink`; returns the game phase (0..=24).
pub(super) fn terms<S: Sink>(pos: &Position, sink: &mut S) -> i32 {
    use terms::*;
    let pawns = PawnFiles::new(pos);
    let mut phase = 0;
    let kings = [pos.king_square(Color::White), pos.king_square(Color::Black)];
    for color in [Color::White, Color::Black] {
        let c = color.index();
        let enemy = color.flip();
        let mut attack_units = 0;
        let mut attackers = 0;
        for piece in Piece::ALL {
            let kind = piece as usize;
            for &sq in pos.pieces(color, piece) {
                if piece != Piece::King {
                    sink.add(color.index(), MATERIAL + kind - 1, 1);
                }
                sink.add(
                    color.index(),
                    PST + (kind - 1) * 32 + half_board(sq, color),
                    1,
                );
                phase += PHASE[kind];
                if matches!(
                    piece,
                    Piece::Knight | Piece::Bishop | Piece::Rook | Piece::Queen
                ) {
                    let reach = piece_activity(pos, sq, piece, color, kings[enemy.index()], sink);
                    let (table, size) = match piece {
                        Piece::Knight => (MOBILITY_KNIGHT, 9),
                        Piece::Bishop => (MOBILITY_BISHOP, 14),
                        Piece::Rook => (MOBILITY_ROOK, 15),
                        _ => (MOBILITY_QUEEN, 28),
                    };
                    sink.add(color.index(), table + reach.squares.min(size - 1), 1);
                    if reach.zone_hits > 0 {
                        attack_units += KING_ATTACK_UNITS[kind] * reach.zone_hits.min(3);
                        attackers += 1;
                    }
                }
                if piece == Piece::Rook {
                    let f = sq.file() as usize;
                    if pawns.count[c][f] == 0 {
                        let open = pawns.count[enemy.index()][f] == 0;
                        sink.add(
                            color.index(),
                            if open { ROOK_OPEN } else { ROOK_HALF_OPEN },
                            1,
                        );
                    }
                }
            }
        }
        if pos.count(color, Piece::Bishop) >= 2 {
            sink.add(color.index(), BISHOP_PAIR, 1);
        }
        if attackers >= 2 {
            let units = attack_units.min(MAX_KING_ATTACK);
            sink.add(color.index(), KING_ATTACK, units);
            sink.add(color.index(), KING_ATTACK + 1, units * units / 8);
        }
        pawn_structure(pos, &pawns, color, kings, sink);
        king_shelter(pos, &pawns, color, sink);
    }
    sink.add(pos.side().index(), TEMPO, 1);
    phase.min(MAX_PHASE)
}

impl HandEval {
    /// The score from White's view.
    fn white_score(&self, pos: &Position) -> i32 {
        let mut total = Total::new(&WEIGHTS);
        let phase = terms(pos, &mut total);
        let Pair(mg, eg) = total.sum;
        let score = (mg * phase + eg * (MAX_PHASE - phase)) / MAX_PHASE;
        score / drawish_divisor(pos, score)
    }
}

/// What one piece reaches: squares for mobility, hits on the enemy king's zone.
struct Reach {
    squares: usize,
    zone_hits: i32,
}

/// Mobility (squares that are empty or enemy-held, and for minor pieces not guarded by an
/// enemy pawn), hits on the enemy king's zone, and threats on bigger enemy pieces (sent to
/// `sink`) of the piece on `sq`.
fn piece_activity<S: Sink>(
    pos: &Position,
    sq: Square,
    piece: Piece,
    color: Color,
    enemy_king: Square,
    sink: &mut S,
) -> Reach {
    let board = &pos.board;
    let own = (color as u8) << 3;
    let enemy_pawn = ((color.flip() as u8) << 3) | Piece::Pawn as u8;
    let minor = matches!(piece, Piece::Knight | Piece::Bishop);
    let pawn_guarded = |to: u8| {
        // An enemy pawn attacks `to` from one rank further up the board (for White's
        // pieces) on a neighbouring file.
        let ahead = forward(to, color);
        [ahead.wrapping_sub(1), ahead.wrapping_add(1)]
            .into_iter()
            .any(|p| on_board(p) && board[usize::from(p)] == enemy_pawn)
    };
    let mut reach = Reach {
        squares: 0,
        zone_hits: 0,
    };
    let mut visit = |to: u8, sink: &mut S| {
        if ATTACK[diff(to, enemy_king.0)] & tables::KING != 0 || to == enemy_king.0 {
            reach.zone_hits += 1;
        }
        let target = board[usize::from(to)];
        if target != EMPTY && target & 8 != own {
            let victim = target & 7;
            if (minor && (victim == Piece::Rook as u8 || victim == Piece::Queen as u8))
                || (piece == Piece::Rook && victim == Piece::Queen as u8)
            {
                let term = if minor {
                    terms::THREAT_BY_MINOR
                } else {
                    terms::THREAT_BY_ROOK
                };
                sink.add(color.index(), term, 1);
            }
        }
        if (target == EMPTY || target & 8 != own) && !(minor && pawn_guarded(to)) {
            reach.squares += 1;
        }
    };
    let from = sq.0;
    match piece {
        Piece::Knight => {
            for step in KNIGHT_STEPS {
                let to = from.wrapping_add(step as u8);
                if on_board(to) {
                    visit(to, sink);
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
                    visit(to, sink);
                    if board[usize::from(to)] != EMPTY {
                        break;
                    }
                    to = to.wrapping_add(step as u8);
                }
            }
        }
    }
    reach
}

/// Doubled, isolated, supported, side-by-side and passed pawns of `color`, and its pawns'
/// attacks on enemy pieces.
fn pawn_structure<S: Sink>(
    pos: &Position,
    pawns: &PawnFiles,
    color: Color,
    kings: [Square; 2],
    sink: &mut S,
) {
    use terms::*;
    let c = color.index();
    let own_pawn = (color as u8) << 3 | Piece::Pawn as u8;
    let enemy = (color.flip() as u8) << 3;
    for f in 0..8 {
        if pawns.count[c][f] > 1 {
            sink.add(color.index(), DOUBLED, pawns.count[c][f] as i32 - 1);
        }
    }
    for &sq in pos.pieces(color, Piece::Pawn) {
        let f = sq.file() as usize;
        let rank = relative(sq, color) / 8;
        let left = f > 0 && pawns.count[c][f - 1] > 0;
        let right = f < 7 && pawns.count[c][f + 1] > 0;
        if !left && !right {
            sink.add(color.index(), ISOLATED, 1);
        }
        let behind = forward(sq.0, color.flip());
        let front = forward(sq.0, color);
        let is = |p: u8, code: u8| on_board(p) && pos.board[usize::from(p)] == code;
        if is(behind.wrapping_sub(1), own_pawn) || is(behind.wrapping_add(1), own_pawn) {
            sink.add(color.index(), PAWN_SUPPORTED + rank, 1);
        }
        if is(sq.0.wrapping_add(1), own_pawn) {
            // Counted once per pair, from its left pawn.
            sink.add(color.index(), PAWN_PHALANX + rank, 1);
        }
        for target in [front.wrapping_sub(1), front.wrapping_add(1)] {
            if on_board(target) {
                let code = pos.board[usize::from(target)];
                if code != EMPTY && code & 8 == enemy && code & 7 != Piece::Pawn as u8 {
                    sink.add(color.index(), THREAT_BY_PAWN, 1);
                }
            }
        }
        if pawns.passed(color, sq) {
            sink.add(color.index(), PASSED + rank, 1);
            if on_board(front) {
                sink.add(
                    color.index(),
                    PASSED_OWN_KING + rank,
                    distance(kings[c].0, front),
                );
                sink.add(
                    color.index(),
                    PASSED_ENEMY_KING + rank,
                    distance(kings[color.flip().index()].0, front),
                );
                if pos.board[usize::from(front)] != EMPTY {
                    sink.add(color.index(), PASSED_BLOCKED + rank, 1);
                }
            }
        }
    }
}

/// The pawn shield and open files in front of a king on its first two ranks.
fn king_shelter<S: Sink>(pos: &Position, pawns: &PawnFiles, color: Color, sink: &mut S) {
    use terms::*;
    let king = pos.king_square(color);
    if relative(king, color) / 8 > 1 {
        sink.add(color.index(), KING_EXPOSED, 1);
        return;
    }
    let c = color.index();
    let f = king.file() as usize;
    for file in f.saturating_sub(1)..=(f + 1).min(7) {
        // The own pawn nearest the king's side of the board, as a rank from `color`'s side.
        let shield = if pawns.count[c][file] == 0 {
            None
        } else if color == Color::White {
            Some(pawns.lowest[c][file])
        } else {
            Some(7 - pawns.highest[c][file] as u8)
        };
        let term = match shield {
            Some(1) => SHELTER,
            Some(2) => SHELTER + 1,
            Some(_) => SHELTER + 2,
            None => SHELTER + 3,
        };
        sink.add(color.index(), term, 1);
        if pawns.count[c][file] == 0 && pawns.count[color.flip().index()][file] == 0 {
            sink.add(color.index(), KING_OPEN_FILE, 1);
        }
    }
}

/// Endgames where the side ahead has no pawns and at most a minor piece more are nearly
/// always drawn: the score is divided by this, so the search does not trade into them
/// expecting a win.
pub(super) fn drawish_divisor(pos: &Position, score: i32) -> i32 {
    let strong = if score > 0 {
        Color::White
    } else {
        Color::Black
    };
    if pos.count(strong, Piece::Pawn) > 0 {
        return 1;
    }
    let material = |color: Color| -> i32 {
        [Piece::Knight, Piece::Bishop, Piece::Rook, Piece::Queen]
            .iter()
            .map(|&p| SEE_VALUE[p as usize] * pos.count(color, p) as i32)
            .sum()
    };
    if material(strong) - material(strong.flip()) <= SEE_VALUE[Piece::Bishop as usize] {
        8
    } else {
        1
    }
}

impl Evaluator<Position> for HandEval {
    type State = ();

    fn new_state(&self, _: &Position) {}

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

    fn exchange(&self, pos: &Position, mv: Move) -> Option<Score> {
        Some(see(pos, mv))
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

    /// The model is fitted to games of this evaluation; a network's scores are read by
    /// it too until one is fitted to its own games.
    fn win_draw_loss(&self, pos: &Position, score: Score) -> Option<[u32; 3]> {
        Some(super::wdl::win_draw_loss(pos, score))
    }

    /// Measured with this evaluation, which a network's [`Evaluator::strength_limited`]
    /// therefore plays with.
    fn elo_scale(&self) -> Option<EloScale> {
        Some(super::strength::SCALE)
    }
}

impl Tunable for Position {
    const WEIGHTS: &'static [Pair] = &WEIGHTS;

    /// The groups of terms, named, in order: the layout of the weights file.
    fn sections() -> Vec<(&'static str, usize)> {
        use terms::*;
        let starts = [
            ("material", MATERIAL),
            ("pst pawn", PST),
            ("pst knight", PST + 32),
            ("pst bishop", PST + 64),
            ("pst rook", PST + 96),
            ("pst queen", PST + 128),
            ("pst king", PST + 160),
            ("mobility knight", MOBILITY_KNIGHT),
            ("mobility bishop", MOBILITY_BISHOP),
            ("mobility rook", MOBILITY_ROOK),
            ("mobility queen", MOBILITY_QUEEN),
            ("passed", PASSED),
            ("passed own king", PASSED_OWN_KING),
            ("passed enemy king", PASSED_ENEMY_KING),
            ("passed blocked", PASSED_BLOCKED),
            ("pawn supported", PAWN_SUPPORTED),
            ("pawn phalanx", PAWN_PHALANX),
            ("doubled", DOUBLED),
            ("isolated", ISOLATED),
            ("rook open", ROOK_OPEN),
            ("rook half open", ROOK_HALF_OPEN),
            ("bishop pair", BISHOP_PAIR),
            ("threat by pawn", THREAT_BY_PAWN),
            ("threat by minor", THREAT_BY_MINOR),
            ("threat by rook", THREAT_BY_ROOK),
            ("shelter", SHELTER),
            ("king open file", KING_OPEN_FILE),
            ("king exposed", KING_EXPOSED),
            ("king attack", KING_ATTACK),
            ("tempo", TEMPO),
        ];
        sections_from_starts(&starts, COUNT)
    }

    /// The drawish scaling depends on who is ahead; it is taken from the current weights
    /// and folded into the blend shares.
    fn trace(&self) -> (Trace, f64, f64) {
        let mut trace = Trace::new(terms::COUNT);
        let phase = terms(self, &mut trace);
        let Pair(mg, eg) = trace.total(&WEIGHTS);
        let blended = (mg * phase + eg * (MAX_PHASE - phase)) / MAX_PHASE;
        let divisor = f64::from(drawish_divisor(self, blended));
        let (phase, max) = (f64::from(phase), f64::from(MAX_PHASE));
        (trace, phase / max / divisor, (max - phase) / max / divisor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Game;

    fn eval(fen: &str) -> i32 {
        HandEval.evaluate(&Position::from_notation(fen).unwrap())
    }

    #[test]
    fn colour_mirrored_positions_score_the_same_for_the_side_to_move() {
        let tempo = WEIGHTS[terms::TEMPO];
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR";
        assert_eq!(eval(&format!("{start} w KQkq - 0 1")), tempo.0);
        assert_eq!(eval(&format!("{start} b KQkq - 0 1")), tempo.0);
        let a = eval("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4");
        let b = eval("rnbqk2r/pppp1ppp/5n2/2b1p3/4P3/2N2N2/PPPP1PPP/R1BQKB1R b KQkq - 4 4");
        assert_eq!(a, b);
    }

    /// What the search prunes by: a quiet move to a square a pawn holds loses the piece,
    /// and quiescence's test of captures follows the same count.
    #[test]
    fn exchanges_count_quiet_moves_and_judge_captures() {
        let exchange = |fen: &str, mv: &str| {
            let pos = Position::from_notation(fen).unwrap();
            let mv = pos.parse_move(mv).unwrap();
            (HandEval.exchange(&pos, mv), HandEval.good_capture(&pos, mv))
        };
        let pawns = "4k3/8/8/2p1p3/8/8/8/3RK3 w - - 0 1";
        assert_eq!(exchange(pawns, "d1d3").0, Some(0));
        assert_eq!(exchange(pawns, "d1d4").0, Some(-500));
        let defended = "4k3/8/3p4/4p3/8/8/8/4R1K1 w - - 0 1";
        assert_eq!(exchange(defended, "e1e5"), (Some(100 - 500), false));
        let loose = "4k3/8/8/4p3/8/8/8/4R1K1 w - - 0 1";
        assert_eq!(exchange(loose, "e1e5"), (Some(100), true));
    }

    #[test]
    fn material_and_structure_point_the_right_way() {
        // An extra queen is worth a lot.
        assert!(eval("4k3/8/8/8/8/8/8/3QK3 w - - 0 1") > 800);
        // A far advanced passed pawn beats one at home.
        assert!(eval("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1") > eval("4k3/8/8/8/8/8/1P6/4K3 w - - 0 1"));
        // King and bishop against king: drawish, scaled right down.
        assert!(eval("4k3/8/8/8/8/8/8/3BK3 w - - 0 1").abs() < 60);
    }

    #[test]
    fn the_trace_reproduces_the_score() {
        // The tuner sees the evaluation only through the trace: blending the traced counts
        // with the weights must give exactly what play uses.
        for fen in [
            "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "6k1/5ppp/8/8/8/8/2q2PPP/3R2K1 b - - 0 1",
        ] {
            let pos = Position::from_notation(fen).unwrap();
            let (trace, mg, eg) = pos.trace();
            let Pair(a, b) = trace.total(&WEIGHTS);
            let traced = f64::from(a) * mg + f64::from(b) * eg;
            // Play divides in integers, the tuner in floats.
            assert!(
                (traced - f64::from(HandEval.white_score(&pos))).abs() <= 1.0,
                "{traced} {}: {fen}",
                HandEval.white_score(&pos),
            );
        }
    }

    #[test]
    fn the_weights_file_is_what_the_tuner_writes() {
        assert_eq!(
            crate::core::tunable::current_source::<Position>(),
            include_str!("weights.rs")
        );
    }
}

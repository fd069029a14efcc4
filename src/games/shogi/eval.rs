//! Shogi evaluation: material (pieces in hand valued apart from the same pieces on the
//! board, since a drop can go anywhere, with each further piece of a kind worth its own
//! weight), piece-square tables, where each piece stands relative to both kings, slider
//! mobility and the free steps of the short-range pieces, sliders on open files, king
//! danger (enemy control of the squares around the king and the ring beyond them
//! against its guards, the drops the enemy hand threatens, drop checks on undefended
//! squares), control of the enemy camp and threatened pieces, the last three from attack
//! maps made in one pass; tapered between the opening and the fight by how much material
//! has already changed hands. The static exchange evaluation it offers the search is
//! `see`'s.
//!
//! Like the chess evaluation it is linear in its weights (`core::linear`), so `qiyi tune`
//! fits them all: first to Fairy-Stockfish self-play, then to qiyi's own games, half
//! their results and half its own deeper scores (`docs/tuning.md`). The king-relative terms
//! carry most of shogi's positional knowledge: a gold beside its king is a castle, a
//! silver next to the enemy king an attack, wherever on the board that happens.

use super::board::{EMPTY, Position, WALL, is_color};
use super::see::{BOARD, EXCHANGE, see};
use super::tables::{
    ATTACK, BISHOP, COL, DRAGON, E, GOLD, HORSE, KINDS, KING, KNIGHT, LANCE, N, NE, NW, PRO_PAWN,
    PRO_SILVER, ROOK, S, SE, SILVER, SLIDES, STEPS, SW, W, attack_index, bit, oriented,
    relative_row, shift, square,
};
use super::types::Move;
use super::weights::WEIGHTS;
use crate::core::linear::{Pair, Sink, Total, Trace};
use crate::core::tunable::{Tunable, sections_from_starts};
use crate::core::{Evaluator, MoveList, Score};

/// Where each group of terms starts in [`WEIGHTS`]. Kinds are those of `tables` (pawn 1
/// to dragon 14, king 8); rows are counted from the owner's side (0 = the far rank).
pub(super) mod terms {
    /// Material on the board, by kind without the king (see [`slot`](super::slot)).
    pub const MATERIAL: usize = 0;
    /// Material in hand: one weight for the first piece of a kind, one for the second,
    /// and so on up to a cap (`HAND_CAP`), the last standing for every further piece.
    pub const HAND: usize = MATERIAL + 13;
    /// Piece-square tables, pawn to dragon (king included): 81 squares from the owner's
    /// side. Not mirrored: castles and rook placements have a side.
    pub const PST: usize = HAND + 28;
    /// A piece in the 7x7 square around its own king, by kind without the king and by
    /// offset (rows ahead of the king from the owner's view, files to either side):
    /// 28 cells, the king's own cell never used. (A 5x5 square fitted the held-out
    /// positions worse, and so did 9x9.)
    pub const NEAR_OWN_KING: usize = PST + 14 * 81;
    /// The same around the enemy king.
    pub const NEAR_ENEMY_KING: usize = NEAR_OWN_KING + 13 * 28;
    /// Squares a slider reaches, lance (0..=8), bishop and rook (0..=16), horse and
    /// dragon (0..=20).
    pub const MOBILITY_LANCE: usize = NEAR_ENEMY_KING + 13 * 28;
    pub const MOBILITY_BISHOP: usize = MOBILITY_LANCE + 9;
    pub const MOBILITY_ROOK: usize = MOBILITY_BISHOP + 17;
    pub const MOBILITY_HORSE: usize = MOBILITY_ROOK + 17;
    pub const MOBILITY_DRAGON: usize = MOBILITY_HORSE + 21;
    /// King danger, by danger units (see `king_danger`): a table, so the fit finds how
    /// fast danger grows.
    pub const KING_DANGER: usize = MOBILITY_DRAGON + 21;
    /// Each square beside the king, by its enemy attackers (0..=3, more counted as 3)
    /// times four plus its defenders (likewise).
    pub const KING_ZONE: usize = KING_DANGER + super::MAX_DANGER + 1;
    /// Each square two steps from the king (the outer ring of its 5x5 square), likewise.
    pub const KING_RING: usize = KING_ZONE + 16;
    /// Each enemy piece in hand (kinds pawn to gold, at most two counted) facing the king.
    pub const HAND_THREAT: usize = KING_RING + 16;
    /// Attacked and undefended pieces by kind without the king: 13 for the side to move,
    /// 13 for the other.
    pub const HANGING: usize = HAND_THREAT + 7;
    /// Pieces attacked by a less valuable enemy piece, by kind, likewise.
    pub const THREATENED: usize = HANGING + 26;
    /// Short-range drop checks the enemy hand has on undefended squares by the king, by
    /// number (0..=7, more counted as 7).
    pub const SAFE_DROP_CHECKS: usize = THREATENED + 26;
    /// Squares of the enemy camp (its three ranks) where a side's attackers outnumber
    /// the enemy's, by number (0..=15, more counted as 15).
    pub const CAMP_CONTROL: usize = SAFE_DROP_CHECKS + 8;
    /// Lance, rook and dragon on a file without a pawn of their own (the file has been
    /// opened, and a pawn may be dropped on it), then without any.
    pub const OPEN_FILE: usize = CAMP_CONTROL + 16;
    /// Free squares (on the board, not held by their own side) a knight (0..=2), silver
    /// (0..=5) or gold-mover (0..=6) can step to.
    pub const STEP_MOBILITY: usize = OPEN_FILE + 6;
    /// The side to move.
    pub const TEMPO: usize = STEP_MOBILITY + 16;
    /// The number of weights.
    pub const COUNT: usize = TEMPO + 1;
}

/// Weights counted per kind in hand (pawn to gold): further pieces share the last one.
const HAND_CAP: [usize; 8] = [0, 8, 4, 4, 4, 2, 2, 4];
/// Where each kind's hand weights start, after [`terms::HAND`].
const HAND_START: [usize; 8] = [0, 0, 8, 12, 16, 20, 22, 24];
/// The danger units counted at most.
const MAX_DANGER: usize = 47;
/// How far the game has moved from the opening: each piece in hand and each promoted
/// piece brings the endgame weights in, up to [`MAX_PHASE`].
const PHASE_IN_HAND: [i32; 8] = [0, 1, 2, 2, 2, 3, 3, 2];
const PHASE_PROMOTED: i32 = 2;
const MAX_PHASE: i32 = 24;

/// The hand-written shogi evaluation, linear in the weights `qiyi tune` fits. The engine
/// plays with [`super::NetworkEval`], which falls back on it and keeps its move ordering
/// and margins.
#[derive(Clone, Copy, Debug, Default)]
pub struct HandEval;

/// The index of a non-king kind among the 13 that have material and king-relative terms.
#[inline(always)]
fn slot(kind: u8) -> usize {
    usize::from(if kind < KING { kind - 1 } else { kind - 2 })
}

/// The piece-square cell of `sq` for `color`: the square as seen from `color`'s side of
/// the board (turned round for gote).
#[inline(always)]
fn pst_cell(color: usize, sq: u8) -> usize {
    let col = COL[usize::from(sq)];
    let col = if color == 0 { col } else { 8 - col };
    usize::from(relative_row(color, sq)) * 9 + usize::from(col)
}

/// The cell of `sq` in the 7x7 square around `king`, from `color`'s view: `None` outside.
#[inline(always)]
fn king_cell(color: usize, sq: u8, king: u8) -> Option<usize> {
    let ahead = i32::from(relative_row(color, king)) - i32::from(relative_row(color, sq));
    let aside = (i32::from(COL[usize::from(sq)]) - i32::from(COL[usize::from(king)])).abs();
    (ahead.abs() <= 3 && aside <= 3).then(|| ((ahead + 3) * 4 + aside) as usize)
}

/// What each side's pieces (kings left out) attack, square by square of the mailbox.
struct Attacks {
    /// How many pieces attack the square.
    count: [[u8; 256]; 2],
    /// The board value of the least valuable of them (`u16::MAX` for none).
    least: [[u16; 256]; 2],
}

/// Walks every term of `pos` into `sink`; returns the middlegame share of the blend
/// (0..=24).
fn walk<S: Sink>(pos: &Position, sink: &mut S) -> i32 {
    use terms::*;
    let kings = [pos.king(0), pos.king(1)];
    let mut attacks = Attacks {
        count: [[0; 256]; 2],
        least: [[u16::MAX; 256]; 2],
    };
    let mut progress = 0;
    let pawn_files = [pos.pawn_files(0), pos.pawn_files(1)];
    for color in 0..2 {
        let own = kings[color];
        let enemy = kings[color ^ 1];
        for kind in 1..KINDS as u8 {
            let k = usize::from(kind);
            for &sq in pos.list(color, kind) {
                sink.add(color, PST + (k - 1) * 81 + pst_cell(color, sq), 1);
                if kind == KING {
                    continue;
                }
                let s = slot(kind);
                sink.add(color, MATERIAL + s, 1);
                if kind >= PRO_PAWN {
                    progress += PHASE_PROMOTED;
                }
                if let Some(cell) = own.and_then(|king| king_cell(color, sq, king)) {
                    sink.add(color, NEAR_OWN_KING + s * 28 + cell, 1);
                }
                if let Some(cell) = enemy.and_then(|king| king_cell(color, sq, king)) {
                    sink.add(color, NEAR_ENEMY_KING + s * 28 + cell, 1);
                }
                let (reach, free) = mark_attacks(pos, color, kind, sq, &mut attacks);
                let steps = match kind {
                    KNIGHT => Some(0),
                    SILVER => Some(3),
                    GOLD | PRO_PAWN..=PRO_SILVER => Some(9),
                    _ => None,
                };
                if let Some(start) = steps {
                    sink.add(color, STEP_MOBILITY + start + free, 1);
                }
                let mobility = match kind {
                    LANCE => MOBILITY_LANCE,
                    BISHOP => MOBILITY_BISHOP,
                    ROOK => MOBILITY_ROOK,
                    HORSE => MOBILITY_HORSE,
                    DRAGON => MOBILITY_DRAGON,
                    _ => continue,
                };
                sink.add(color, mobility + reach, 1);
                let slider = match kind {
                    LANCE => 0,
                    ROOK => 1,
                    DRAGON => 2,
                    _ => continue,
                };
                let file = 1 << COL[usize::from(sq)];
                if pawn_files[color] & file == 0 {
                    sink.add(color, OPEN_FILE + slider, 1);
                    if pawn_files[color ^ 1] & file == 0 {
                        sink.add(color, OPEN_FILE + 3 + slider, 1);
                    }
                }
            }
        }
        for kind in 1..8u8 {
            let k = usize::from(kind);
            let n = usize::from(pos.hands[color][k]);
            progress += PHASE_IN_HAND[k] * n as i32;
            for i in 0..n {
                sink.add(color, HAND + HAND_START[k] + i.min(HAND_CAP[k] - 1), 1);
            }
        }
    }
    for color in 0..2 {
        king_danger(pos, color, &attacks, sink);
        threats(pos, color, &attacks, sink);
        camp_control(color, &attacks, sink);
    }
    sink.add(pos.side, TEMPO, 1);
    MAX_PHASE - progress.min(MAX_PHASE)
}

/// Marks the squares a piece of `color` on `sq` attacks; returns how many squares its
/// slides reach (empty or enemy-held), its mobility, and how many of its steps land on
/// a free square (on the board, not held by its own side).
#[inline(always)]
fn mark_attacks(
    pos: &Position,
    color: usize,
    kind: u8,
    sq: u8,
    attacks: &mut Attacks,
) -> (usize, usize) {
    let value = BOARD[usize::from(kind)] as u16;
    let (count, least) = (&mut attacks.count[color], &mut attacks.least[color]);
    let mut mark = |to: u8| {
        let to = usize::from(to);
        count[to] += 1;
        least[to] = least[to].min(value);
    };
    let mut free = 0;
    for &step in STEPS[usize::from(kind)] {
        let to = shift(sq, oriented(color, step));
        let code = pos.board[usize::from(to)];
        free += usize::from(code != WALL && !is_color(code, color));
        mark(to);
    }
    let mut reach = 0;
    for &dir in SLIDES[usize::from(kind)] {
        let dir = oriented(color, dir);
        let mut to = shift(sq, dir);
        loop {
            let code = pos.board[usize::from(to)];
            if code == WALL {
                break;
            }
            mark(to);
            if code != EMPTY {
                reach += usize::from(is_color(code, color ^ 1));
                break;
            }
            reach += 1;
            to = shift(to, dir);
        }
    }
    (reach, free)
}

/// How endangered `color`'s king is: enemy control of the squares around it against its
/// own, the golds and silvers beside it, and the drops the enemy holds in hand, summed
/// into danger units whose weight table the fit shapes; and each neighbouring square by
/// how many attackers and defenders it has.
fn king_danger<S: Sink>(pos: &Position, color: usize, attacks: &Attacks, sink: &mut S) {
    let Some(king) = pos.king(color) else {
        return;
    };
    let them = color ^ 1;
    let mut units = 0;
    for &step in STEPS[usize::from(KING)] {
        let sq = shift(king, step);
        let code = pos.board[usize::from(sq)];
        if code == WALL {
            continue;
        }
        let attackers = attacks.count[them][usize::from(sq)];
        let defenders = attacks.count[color][usize::from(sq)];
        sink.add(
            color,
            terms::KING_ZONE + control_cell(attackers, defenders),
            1,
        );
        if attackers > 0 {
            units += if defenders > 0 { 2 } else { 3 };
        } else if code == EMPTY {
            // A hole the enemy may drop into.
            units += 1;
        }
        if is_color(code, color) && matches!(code & 15, GOLD | SILVER | PRO_PAWN..=PRO_SILVER) {
            units -= 2;
        }
    }
    let hand = &pos.hands[them];
    let mut threat = 0;
    for kind in 1..8usize {
        let n = i32::from(hand[kind].min(2));
        if n > 0 {
            sink.add(color, terms::HAND_THREAT + kind - 1, n);
            threat += HAND_THREAT_UNITS[kind] * n;
        }
    }
    for &step in RING_STEPS {
        let sq = usize::from(shift(king, step));
        if pos.board[sq] == WALL {
            continue;
        }
        let cell = control_cell(attacks.count[them][sq], attacks.count[color][sq]);
        sink.add(color, terms::KING_RING + cell, 1);
    }
    let units = (units + threat / 2).clamp(0, MAX_DANGER as i32);
    sink.add(color, terms::KING_DANGER + units as usize, 1);
    let checks = safe_drop_checks(pos, color, king, attacks);
    sink.add(color, terms::SAFE_DROP_CHECKS + checks.min(7), 1);
}

/// Empty squares near `color`'s king, defended by none of its pieces, where a piece the
/// enemy holds in hand would give check if dropped: the short-range drops (knight to
/// rook), which mate far more often than a check from a distance. Pawns are left out, as
/// a pawn drop may not mate.
fn safe_drop_checks(pos: &Position, color: usize, king: u8, attacks: &Attacks) -> usize {
    let them = color ^ 1;
    let hand = &pos.hands[them];
    let mut kinds = 0u16;
    for kind in [KNIGHT, SILVER, GOLD, BISHOP, ROOK] {
        if hand[usize::from(kind)] > 0 {
            kinds |= bit(kind);
        }
    }
    if kinds == 0 {
        return 0;
    }
    let mut checks = 0;
    for &step in DROP_CHECK_STEPS {
        let sq = shift(king, step);
        if pos.board[usize::from(sq)] == EMPTY
            && attacks.count[color][usize::from(sq)] == 0
            && ATTACK[attack_index(them, sq, king)] & kinds != 0
        {
            checks += 1;
        }
    }
    checks
}

/// The squares around a king (neighbours and knight's-jump squares either way) from
/// which a dropped piece can check it at short range.
const DROP_CHECK_STEPS: &[i8] = &[
    N,
    S,
    W,
    E,
    NW,
    NE,
    SW,
    SE,
    2 * N + W,
    2 * N + E,
    2 * S + W,
    2 * S + E,
];

/// `color`'s pieces under threat, by kind, apart for the side to move (which may still
/// save one) and the other (which likely loses one): attacked and undefended (hanging),
/// and attacked by a less valuable enemy piece.
fn threats<S: Sink>(pos: &Position, color: usize, attacks: &Attacks, sink: &mut S) {
    let to_move = if pos.side == color { 0 } else { 13 };
    for kind in 1..KINDS as u8 {
        if kind == KING {
            continue;
        }
        let value = BOARD[usize::from(kind)] as u16;
        for &sq in pos.list(color, kind) {
            let sq = usize::from(sq);
            if attacks.count[color ^ 1][sq] == 0 {
                continue;
            }
            if attacks.count[color][sq] == 0 {
                sink.add(color, terms::HANGING + to_move + slot(kind), 1);
            }
            if attacks.least[color ^ 1][sq] < value {
                sink.add(color, terms::THREATENED + to_move + slot(kind), 1);
            }
        }
    }
}

/// The cell of a square near a king in the zone and ring tables: its enemy attackers
/// (0..=3, more counted as 3) times four plus its defenders (likewise).
#[inline(always)]
fn control_cell(attackers: u8, defenders: u8) -> usize {
    usize::from(attackers.min(3)) * 4 + usize::from(defenders.min(3))
}

/// The sixteen squares two steps from a king; the mailbox's walls (two rows, eight
/// columns) are wide enough that those off the board read as walls.
const RING_STEPS: &[i8] = &[
    2 * N + 2 * W,
    2 * N + W,
    2 * N,
    2 * N + E,
    2 * N + 2 * E,
    N + 2 * W,
    N + 2 * E,
    2 * W,
    2 * E,
    S + 2 * W,
    S + 2 * E,
    2 * S + 2 * W,
    2 * S + W,
    2 * S,
    2 * S + E,
    2 * S + 2 * E,
];

/// How many squares of the enemy camp `color` controls: where its pieces promote and its
/// drops land safely, which the per-square king terms see only next to the king.
fn camp_control<S: Sink>(color: usize, attacks: &Attacks, sink: &mut S) {
    let rows = if color == 0 { 0..3 } else { 6..9 };
    let mut controlled = 0;
    for row in rows {
        for col in 0..9 {
            let sq = usize::from(square(col, row));
            controlled += usize::from(attacks.count[color][sq] > attacks.count[color ^ 1][sq]);
        }
    }
    sink.add(color, terms::CAMP_CONTROL + controlled.min(15), 1);
}

/// Danger units each kind in the enemy hand brings.
const HAND_THREAT_UNITS: [i32; 8] = [0, 1, 2, 2, 3, 4, 5, 4];

impl HandEval {
    /// The score from sente's view.
    fn sente_score(&self, pos: &Position) -> i32 {
        let mut total = Total::new(&WEIGHTS);
        let phase = walk(pos, &mut total);
        let Pair(mg, eg) = total.sum;
        (mg * phase + eg * (MAX_PHASE - phase)) / MAX_PHASE
    }
}

impl Tunable for Position {
    const WEIGHTS: &'static [Pair] = &WEIGHTS;

    fn sections() -> Vec<(&'static str, usize)> {
        use terms::*;
        let mut starts = vec![("material", MATERIAL), ("hand", HAND)];
        const NAMES: [&str; 14] = [
            "pst pawn",
            "pst lance",
            "pst knight",
            "pst silver",
            "pst bishop",
            "pst rook",
            "pst gold",
            "pst king",
            "pst tokin",
            "pst promoted lance",
            "pst promoted knight",
            "pst promoted silver",
            "pst horse",
            "pst dragon",
        ];
        for (i, name) in NAMES.iter().enumerate() {
            starts.push((name, PST + i * 81));
        }
        starts.extend([
            ("near own king", NEAR_OWN_KING),
            ("near enemy king", NEAR_ENEMY_KING),
            ("mobility lance", MOBILITY_LANCE),
            ("mobility bishop", MOBILITY_BISHOP),
            ("mobility rook", MOBILITY_ROOK),
            ("mobility horse", MOBILITY_HORSE),
            ("mobility dragon", MOBILITY_DRAGON),
            ("king danger", KING_DANGER),
            ("king zone", KING_ZONE),
            ("king ring", KING_RING),
            ("hand threat", HAND_THREAT),
            ("hanging", HANGING),
            ("threatened", THREATENED),
            ("safe drop checks", SAFE_DROP_CHECKS),
            ("camp control", CAMP_CONTROL),
            ("open file", OPEN_FILE),
            ("step mobility", STEP_MOBILITY),
            ("tempo", TEMPO),
        ]);
        sections_from_starts(&starts, COUNT)
    }

    fn trace(&self) -> (Trace, f64, f64) {
        let mut trace = Trace::new(terms::COUNT);
        let phase = f64::from(walk(self, &mut trace));
        let max = f64::from(MAX_PHASE);
        (trace, phase / max, (max - phase) / max)
    }
}

impl Evaluator<Position> for HandEval {
    type State = ();

    fn new_state(&self, _: &Position) {}

    fn evaluate(&self, pos: &Position) -> Score {
        let sente = self.sente_score(pos);
        if pos.side == 0 { sente } else { -sente }
    }

    /// Captures and promotions, generated directly: quiescence is most of the nodes, and
    /// drops, the bulk of the legal moves, are never noisy.
    fn noisy_moves(&self, pos: &Position, moves: &mut MoveList<Move>) {
        pos.generate_noisy(moves);
    }

    fn exchange(&self, pos: &Position, mv: Move) -> Option<Score> {
        Some(see(pos, mv))
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
    use super::*;
    use crate::core::Game;

    fn eval(sfen: &str) -> i32 {
        HandEval.evaluate(&Position::from_notation(sfen).unwrap())
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

    /// Each term's count for each side apart (a trace nets them).
    struct Counts([Vec<i32>; 2]);

    impl Sink for Counts {
        fn add(&mut self, side: usize, term: usize, count: i32) {
            self.0[side][term] += count;
        }
    }

    #[test]
    fn ring_camp_open_file_and_step_terms_count_what_they_say() {
        // Sente: king 5i, rook 8h on a file without pawns, knight 1i; gote: king 5e.
        let pos = Position::from_notation("9/9/9/9/4k4/9/9/1R7/4K3N b - 1").unwrap();
        let mut counts = Counts([vec![0; terms::COUNT], vec![0; terms::COUNT]]);
        walk(&pos, &mut counts);
        let [sente, gote] = &counts.0;
        let sum = |side: &Vec<i32>, start: usize, len: usize| -> i32 {
            side[start..start + len].iter().sum()
        };
        // The ring: 9 squares on the board for a king on the back rank, 16 in the centre.
        assert_eq!(sum(sente, terms::KING_RING, 16), 9);
        assert_eq!(sum(gote, terms::KING_RING, 16), 16);
        // The rook's file runs through gote's camp, three squares no gote piece defends.
        assert_eq!(sente[terms::CAMP_CONTROL + 3], 1);
        assert_eq!(gote[terms::CAMP_CONTROL], 1);
        // A rook on a file with no pawn at all counts both ways.
        assert_eq!(sente[terms::OPEN_FILE + 1], 1);
        assert_eq!(sente[terms::OPEN_FILE + 3 + 1], 1);
        // The knight on 1i has one jump on the board (2g); 0g is off it.
        assert_eq!(sente[terms::STEP_MOBILITY + 1], 1);
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
        // The start is symmetric: only the tempo is left.
        assert_eq!(
            eval("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"),
            WEIGHTS[terms::TEMPO].0
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
    fn the_trace_reproduces_the_score() {
        // The tuner sees the evaluation only through the trace: blending the traced counts
        // with the weights must give what play uses.
        for sfen in [
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
            "ln1g3nl/1r1sg1k2/p1pppp1pp/6s2/1p5P1/2P6/PPSPPPP1P/2G3SR1/LN2KG1NL b Bbp 1",
            "8l/1l+R2P3/p2pBG1pp/kps1p4/Nn1P2G2/P1P1P2PP/1PS6/1KSG3+r1/LN2+p3L w Sbgn2p 1",
        ] {
            let pos = Position::from_notation(sfen).unwrap();
            let (trace, mg, eg) = pos.trace();
            let Pair(a, b) = trace.total(&WEIGHTS);
            let traced = f64::from(a) * mg + f64::from(b) * eg;
            let played = f64::from(HandEval.sente_score(&pos));
            assert!((traced - played).abs() <= 1.0, "{traced} {played}: {sfen}");
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

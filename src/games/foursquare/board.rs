//! The position: two 16-bit bitboards, move generation with the capture rule, make/unmake,
//! the end-of-game rules and the hash.
//!
//! Square index = rank * 4 + file with a1 = 0, d1 = 3, a4 = 12, d4 = 15; bit `i` of a
//! bitboard is square `i`. A file's four points are bits `file, file + 4, file + 8,
//! file + 12`; a rank's four points are the nibble at bit `rank * 4`.

use crate::core::{MoveList, Outcome};
use std::fmt;

/// Player index of Black: the side to move in the start position (UGI's player 1).
pub const BLACK: usize = 0;
/// Player index of White (UGI's player 2).
pub const WHITE: usize = 1;

/// The points of file a (bits 0, 4, 8, 12), and of file d: the edges a sideways shift
/// of a bitboard must not wrap across.
const FILE_A: u16 = 0x1111;
const FILE_D: u16 = FILE_A << 3;

/// A step to an adjacent empty point, with the piece it captures.
///
/// The capture is fully determined by the position, so move generation works it out once:
/// `is_capture` is a field test and `unmake` needs nothing beyond the move itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Move {
    /// Square the piece leaves.
    pub from: u8,
    /// Adjacent empty square it steps to.
    pub to: u8,
    /// Square of the enemy piece removed by the move, or [`Move::NO_CAPTURE`].
    pub capture: u8,
}

impl Move {
    /// The `capture` of a move that captures nothing.
    pub const NO_CAPTURE: u8 = u8::MAX;

    /// Whether the move removes an enemy piece.
    #[inline]
    pub fn is_capture(self) -> bool {
        self.capture != Self::NO_CAPTURE
    }
}

impl fmt::Display for Move {
    /// The move as UGI sends it: from-square then to-square, `a4a3`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", SquareName(self.from), SquareName(self.to))
    }
}

/// Prints a square index as `a1`..`d4`.
pub(super) struct SquareName(pub u8);

impl fmt::Display for SquareName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let file = char::from(b'a' + (self.0 & 3));
        let rank = char::from(b'1' + (self.0 >> 2));
        write!(f, "{file}{rank}")
    }
}

/// Reads `a1`..`d4`; `None` for anything else, so that no input can panic.
pub(super) fn parse_square(text: &[u8]) -> Option<u8> {
    match *text {
        [file @ b'a'..=b'd', rank @ b'1'..=b'4'] => Some((rank - b'1') * 4 + (file - b'a')),
        _ => None,
    }
}

/// The capture patterns in the rules' priority order (`docs/rules/foursquare.md` §3), as
/// offsets from the moved piece's square p to the friendly piece and to the captured
/// enemy (+1 = +file, +4 = +rank): along the rank A towards +, A towards −, B with the
/// enemy at +, B with the enemy at −, then the same four along the file.
const PATTERNS: [(i8, i8); 8] = [
    (1, 2),
    (-1, -2),
    (-1, 1),
    (1, -1),
    (4, 8),
    (-4, -8),
    (-4, 4),
    (4, -4),
];

/// Bit p is set when the point `offset` from p — along p's rank for |offset| < 4, along
/// its file for ±4 and ±8 — is on the board and set in `bb`. Shifting the whole bitboard
/// answers the question for all sixteen p at once; the masks stop sideways shifts from
/// wrapping onto the next rank.
#[inline(always)]
pub(super) const fn toward(bb: u16, offset: i8) -> u16 {
    match offset {
        1 => bb >> 1 & !FILE_D,
        2 => bb >> 2 & (FILE_A | FILE_A << 1),
        -1 => bb << 1 & !FILE_A,
        -2 => bb << 2 & (FILE_A << 2 | FILE_D),
        4 => bb >> 4,
        8 => bb >> 8,
        -4 => bb << 4,
        -8 => bb << 8,
        _ => 0,
    }
}

/// A step that ended on `to`, seen backwards from the board after it (`own` holds the
/// moved piece, `enemy` the pieces left): whether it captured nothing, and the empty
/// points where an enemy piece would have been the one it captured. Walking the patterns
/// in the rules' order, a pattern whose enemy point is occupied is the capture (an
/// uncaptured piece there means the step cannot have been quiet, nor captured anything
/// later in the order); one whose enemy point is empty would capture a piece put back
/// there, since the earlier patterns found no enemy. Move generation works captures out
/// for all steps at once; the tablebase needs them one step at a time, backwards.
pub(super) fn step_back(own: u16, enemy: u16, to: u8) -> (bool, u16) {
    let empty = !(own | enemy);
    let mut victims = 0;
    for &(friend, victim) in &PATTERNS {
        if toward(own, friend) >> to & 1 == 0 {
            continue;
        }
        if toward(enemy, victim) >> to & 1 != 0 {
            return (false, victims);
        }
        if toward(empty, victim) >> to & 1 != 0 {
            victims |= 1 << (to as i8 + victim);
        }
    }
    (true, victims)
}

/// Whether `bb` holds at most one piece; cheaper than counting, see [`lane_counts`].
#[inline(always)]
fn at_most_one(bb: u16) -> bool {
    bb & bb.wrapping_sub(1) == 0
}

/// Four bitboards side by side, `a` in the low 16 bits, for [`lane_counts`].
#[inline(always)]
pub(super) fn pack(a: u16, b: u16, c: u16, d: u16) -> u64 {
    u64::from(a) | u64::from(b) << 16 | u64::from(c) << 32 | u64::from(d) << 48
}

/// The number of set bits in each 16-bit lane of `x`, left in its lane. The build targets
/// x86-64 without the POPCNT instruction, where `count_ones` costs a dozen instructions
/// per call; this SWAR count does four bitboards for the price of one.
#[inline(always)]
pub(super) fn lane_counts(x: u64) -> u64 {
    let x = x - (x >> 1 & 0x5555_5555_5555_5555);
    let x = (x & 0x3333_3333_3333_3333) + (x >> 2 & 0x3333_3333_3333_3333);
    let x = (x + (x >> 4)) & 0x0F0F_0F0F_0F0F_0F0F;
    (x + (x >> 8)) & 0x00FF_00FF_00FF_00FF
}

/// One side's steps on one board, with the capture patterns matched for all of them at
/// once.
///
/// `matches[i]` holds the squares p where pattern i would capture with the mover on p,
/// judged on the board before the move. Only one point differs after a step by `d`: the
/// origin p−d, now empty. A pattern that needs a friend there cannot match and is left
/// out for that step; one that needs an enemy there never matched, since the origin held
/// the mover's own piece.
struct Steps {
    own: u16,
    empty: u16,
    matches: [u16; 8],
}

impl Steps {
    #[inline(always)]
    fn new(own: u16, enemy: u16) -> Self {
        // Indexed by constants rather than mapped over PATTERNS so that every shift folds
        // to a constant.
        let pattern = |i: usize| toward(own, PATTERNS[i].0) & toward(enemy, PATTERNS[i].1);
        Steps {
            own,
            empty: !(own | enemy),
            matches: [
                pattern(0),
                pattern(1),
                pattern(2),
                pattern(3),
                pattern(4),
                pattern(5),
                pattern(6),
                pattern(7),
            ],
        }
    }

    /// The empty points a piece reaches by a step of `STEP`.
    #[inline(always)]
    fn targets<const STEP: i8>(&self) -> u16 {
        toward(self.own, -STEP) & self.empty
    }

    /// The points where a step of `STEP` would capture, if a piece can get there; the
    /// loop unrolls to a few ORs.
    #[inline(always)]
    fn capturing<const STEP: i8>(&self) -> u16 {
        let mut capturing = 0;
        for (i, &(friend, _)) in PATTERNS.iter().enumerate() {
            if friend != -STEP {
                capturing |= self.matches[i];
            }
        }
        capturing
    }

    /// The square captured by the step of `STEP` to `to`, a point of `capturing`: the
    /// first pattern in the rules' order that matches.
    #[inline(always)]
    fn victim<const STEP: i8>(&self, to: i8) -> u8 {
        for (i, &(friend, victim)) in PATTERNS.iter().enumerate() {
            if friend != -STEP && self.matches[i] >> to & 1 != 0 {
                return (to + victim) as u8;
            }
        }
        Move::NO_CAPTURE
    }

    /// Calls `f` with every step: up, down, right, then left steps, each by ascending
    /// target.
    #[inline(always)]
    fn for_each(&self, mut f: impl FnMut(Move)) {
        self.for_each_by::<4>(&mut f);
        self.for_each_by::<-4>(&mut f);
        self.for_each_by::<1>(&mut f);
        self.for_each_by::<-1>(&mut f);
    }

    #[inline(always)]
    fn for_each_by<const STEP: i8>(&self, f: &mut impl FnMut(Move)) {
        let capturing = self.capturing::<STEP>();
        let mut targets = self.targets::<STEP>();
        while targets != 0 {
            let to = targets.trailing_zeros() as i8;
            targets &= targets - 1;
            let capture = if capturing >> to & 1 != 0 {
                self.victim::<STEP>(to)
            } else {
                Move::NO_CAPTURE
            };
            f(Move {
                from: (to - STEP) as u8,
                to: to as u8,
                capture,
            });
        }
    }

    /// How many steps there are, and the enemy pieces they capture: the evaluation's
    /// mobility and threats, without visiting the quiet steps one by one.
    fn count_and_victims(&self) -> (u32, u16) {
        let (up, down) = (self.targets::<4>(), self.targets::<-4>());
        let (right, left) = (self.targets::<1>(), self.targets::<-1>());
        let counts = lane_counts(pack(up, down, right, left));
        // Multiplying by 1 in every lane sums the four lanes into the top one.
        let count = (counts.wrapping_mul(0x0001_0001_0001_0001) >> 48) as u32;
        let victims = self.victims_by::<4>(up)
            | self.victims_by::<-4>(down)
            | self.victims_by::<1>(right)
            | self.victims_by::<-1>(left);
        (count, victims)
    }

    /// The enemy pieces captured by steps of `STEP` to `targets`.
    #[inline(always)]
    fn victims_by<const STEP: i8>(&self, targets: u16) -> u16 {
        let mut capturing = targets & self.capturing::<STEP>();
        let mut victims = 0;
        while capturing != 0 {
            let to = capturing.trailing_zeros() as i8;
            capturing &= capturing - 1;
            victims |= 1 << self.victim::<STEP>(to);
        }
        victims
    }
}

/// A FourSquare position with its rule setting.
///
/// `max_plies` lives here rather than in a global because it changes which positions are
/// final, and the search only ever asks the position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    /// Bitboards indexed by player: `[BLACK]`, `[WHITE]`.
    pub(super) pieces: [u16; 2],
    /// The player to move, `BLACK` or `WHITE`.
    pub(super) side: usize,
    /// Plies played, counted from FSN's optional trailing ply count.
    pub(super) ply: u32,
    /// `MaxPlies`: the game is decided by piece count once `ply` reaches it; 0 = off.
    pub(super) max_plies: u32,
}

impl Position {
    /// The pieces of `player` as a bitboard (bit `rank * 4 + file`).
    pub fn pieces(&self, player: usize) -> u16 {
        self.pieces[player]
    }

    /// Plies played so far.
    pub fn ply(&self) -> u32 {
        self.ply
    }

    /// The `MaxPlies` rule in force (0 = off).
    pub fn max_plies(&self) -> u32 {
        self.max_plies
    }

    /// Sets the `MaxPlies` rule; 0 turns it off.
    pub fn set_max_plies(&mut self, max_plies: u32) {
        self.max_plies = max_plies;
    }

    /// Whether the ply limit has been reached.
    #[inline]
    fn out_of_plies(&self) -> bool {
        self.max_plies != 0 && self.ply >= self.max_plies
    }

    /// Whether the rules end the game here (a side down to one piece, or the ply limit).
    /// Cheaper than [`Position::rule_outcome`], for the move generator.
    #[inline]
    fn is_over(&self) -> bool {
        at_most_one(self.pieces[BLACK]) || at_most_one(self.pieces[WHITE]) || self.out_of_plies()
    }

    /// The result fixed by rule: a side with one piece or none has lost (both: draw);
    /// otherwise at the ply limit the side with more pieces wins, equal counts draw.
    pub(super) fn rule_outcome(&self) -> Option<Outcome> {
        let black = self.pieces[BLACK].count_ones();
        let white = self.pieces[WHITE].count_ones();
        match (black <= 1, white <= 1) {
            (true, true) => Some(Outcome::Draw),
            (true, false) => Some(Outcome::Win(WHITE)),
            (false, true) => Some(Outcome::Win(BLACK)),
            (false, false) if self.out_of_plies() => Some(match black.cmp(&white) {
                std::cmp::Ordering::Greater => Outcome::Win(BLACK),
                std::cmp::Ordering::Less => Outcome::Win(WHITE),
                std::cmp::Ordering::Equal => Outcome::Draw,
            }),
            (false, false) => None,
        }
    }

    /// Appends every legal move; none when the game is over by rule.
    #[inline]
    pub(super) fn generate_moves(&self, moves: &mut MoveList<Move>) {
        if self.is_over() {
            return;
        }
        Steps::new(self.pieces[self.side], self.pieces[self.side ^ 1])
            .for_each(|mv| moves.push(mv));
    }

    /// For `player` as if it were to move (the game not being over): how many steps it
    /// has, and the enemy pieces one of them would capture.
    pub(super) fn mobility_and_targets(&self, player: usize) -> (u32, u16) {
        Steps::new(self.pieces[player], self.pieces[player ^ 1]).count_and_victims()
    }

    /// Plays a move from [`Position::generate_moves`].
    #[inline]
    pub(super) fn play(&mut self, mv: Move) {
        self.pieces[self.side] ^= 1 << mv.from | 1 << mv.to;
        if mv.is_capture() {
            self.pieces[self.side ^ 1] ^= 1 << mv.capture;
        }
        self.side ^= 1;
        self.ply += 1;
    }

    /// Takes back the last move played; the move itself says what it captured.
    #[inline]
    pub(super) fn take_back(&mut self, mv: Move) {
        self.side ^= 1;
        self.ply -= 1;
        self.pieces[self.side] ^= 1 << mv.from | 1 << mv.to;
        if mv.is_capture() {
            self.pieces[self.side ^ 1] ^= 1 << mv.capture;
        }
    }

    /// The whole game state fits in 64 bits — 16 + 16 bits of pieces, the side, and the
    /// ply when a ply limit makes it matter — so the key is a bijective mix of it
    /// (splitmix64's finaliser): distinct positions never share a key while `ply < 2^31`.
    pub(super) fn key(&self) -> u64 {
        let ply = if self.max_plies != 0 {
            u64::from(self.ply)
        } else {
            0
        };
        let mut x = u64::from(self.pieces[BLACK])
            | u64::from(self.pieces[WHITE]) << 16
            | (self.side as u64) << 32
            | ply << 33;
        x = (x ^ x >> 30).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        x = (x ^ x >> 27).wrapping_mul(0x94d0_49bb_1331_11eb);
        x ^ x >> 31
    }

    /// The board as a diagram: ranks 4 to 1 top to bottom, then who moves and the FSN.
    pub(super) fn diagram(&self) -> String {
        let mut out = String::new();
        for rank in (0..4u8).rev() {
            out.push(char::from(b'1' + rank));
            out.push_str("  ");
            for file in 0..4u8 {
                let bit = 1u16 << (rank * 4 + file);
                out.push(if self.pieces[BLACK] & bit != 0 {
                    'b'
                } else if self.pieces[WHITE] & bit != 0 {
                    'w'
                } else {
                    '.'
                });
                if file < 3 {
                    out.push_str("---");
                }
            }
            out.push('\n');
            if rank > 0 {
                out.push_str("   |   |   |   |\n");
            }
        }
        out.push_str("   a   b   c   d\n\n");
        let mover = if self.side == BLACK { "Black" } else { "White" };
        out.push_str(&format!(
            "{mover} to move, ply {}; Black {} pieces, White {}\n",
            self.ply,
            self.pieces[BLACK].count_ones(),
            self.pieces[WHITE].count_ones()
        ));
        if self.max_plies != 0 {
            out.push_str(&format!("MaxPlies {}\n", self.max_plies));
        }
        out.push_str(&format!("FSN: {}\n", self.fsn()));
        out
    }
}

#[cfg(test)]
mod tests {
    //! The capture rule against the seed's examples (示例), counter-examples (错误) and
    //! questions (Q), then the priority order. Diagrams in the seed are drawn with White
    //! (○) as the mover; these tests keep that.

    use super::*;
    use crate::core::Game;

    /// Plays `mv` in `fsn` and returns the captured square's name (or `None`) and the FSN
    /// after the move.
    fn play(fsn: &str, mv: &str) -> (Option<String>, String) {
        let mut pos = Position::from_notation(fsn).unwrap();
        let mv = pos.parse_move(mv).unwrap();
        let before = pos.pieces[pos.side ^ 1].count_ones();
        pos.make_move(mv);
        let after = pos.pieces[pos.side].count_ones();
        assert_eq!(
            before - after,
            u32::from(mv.is_capture()),
            "at most one capture, removed at once"
        );
        let captured = mv.is_capture().then(|| SquareName(mv.capture).to_string());
        (captured, pos.to_notation())
    }

    fn captures(fsn: &str, mv: &str) -> Option<String> {
        play(fsn, mv).0
    }

    #[test]
    fn example1_moving_to_the_end_of_the_line() {
        // Before: a2 empty, b2 ○, c2 ●; ○ steps a1→a2 to form ○*-○-●.
        let (captured, after) = play("b2b/4/1wb1/w2w w", "a1a2");
        assert_eq!(captured.as_deref(), Some("c2"));
        assert_eq!(after, "b2b/4/ww2/3w b 1");
    }

    #[test]
    fn example2_moving_into_the_middle() {
        // Before: a2 ○, b2 empty, c2 ●; ○ steps b1→b2 to form ○-○*-●.
        let (captured, after) = play("b2b/4/w1b1/1w1w w", "b1b2");
        assert_eq!(captured.as_deref(), Some("c2"));
        assert_eq!(after, "b2b/4/ww2/3w b 1");
    }

    #[test]
    fn example3_vertical() {
        // File b: b3 ○, b2 empty, b1 ●; ○ steps a2→b2 to form ○ over ○* over ●.
        assert_eq!(captures("b2b/1w2/w3/1b1w w", "a2b2").as_deref(), Some("b1"));
    }

    #[test]
    fn example1_for_black_along_a_file() {
        // The same pattern for Black along a file: ● c4→c3 forms ●*(c3)-●(c2)-○(c1).
        assert_eq!(captures("2b1/4/2b1/w1ww b", "c4c3").as_deref(), Some("c1"));
    }

    #[test]
    fn error1_gap_between_own_pieces() {
        // ○ - empty - ○* - ●: c1→c2 makes the moved piece touch ● with no friend beside it.
        assert_eq!(captures("bb2/4/w2b/2w1 w", "c1c2"), None);
    }

    #[test]
    fn error2_enemy_between_own_pieces() {
        // ○ - ● - ○* - ●
        assert_eq!(captures("b3/4/wb1b/2w1 w", "c1c2"), None);
    }

    #[test]
    fn error3_own_enemy_own_does_not_capture() {
        // ○ - ● - ○*: the sandwiched ● survives ...
        assert_eq!(captures("b2b/4/wb2/2ww w", "c1c2"), None);
        // ... and so does a ● that steps between two ○ itself.
        assert_eq!(captures("b2b/1b2/w1w1/3w b", "b3b2"), None);
    }

    #[test]
    fn error4_passively_formed_pattern() {
        // Before: ○(a2) ○(b2) ●(c2) ●(d2). A steps away to a1: what is left,
        // ○(b2)-●(c2)-●(d2), is no pattern and the mover is not in it.
        assert_eq!(captures("b3/4/wwbb/2w1 w", "a2a1"), None);
    }

    #[test]
    fn own_own_enemy_without_the_moved_piece_does_not_capture() {
        // ○(a2)-○(b2)-●(c2) stands on the board; ○ d1→c1 touches none of it.
        assert_eq!(captures("b2b/4/wwb1/3w w", "d1c1"), None);
    }

    #[test]
    fn stepping_into_the_enemy_pattern_is_safe() {
        // ● steps to c2 next to ○(b2)-○(a2): own–own–enemy from White's side, but only the
        // mover captures, and ● forms nothing.
        assert_eq!(captures("b2b/2b1/ww2/3w b", "c3c2"), None);
    }

    #[test]
    fn error5_two_patterns_capture_only_the_horizontal_one() {
        // The seed's drawing (○ left of and above ○*, ● right of and below it) leaves the
        // moved piece no empty neighbour to come from, so no move reaches it. The nearest
        // reachable shape: ○ b1→b2 forms ○(a2)-○*(b2)-●(c2) along rank 2 and
        // ○*(b2) ○(b3) ●(b4) along file b. Only c2 goes.
        let (captured, after) = play("1b1b/1w2/w1b1/1w1w w", "b1b2");
        assert_eq!(captured.as_deref(), Some("c2"));
        assert_eq!(after, "1b1b/1w2/ww2/3w b 1");
    }

    #[test]
    fn q1_horizontal_beats_vertical_with_pattern_a_both_ways() {
        // ○ a1→a2: ○*(a2)-○(b2)-●(c2) along the rank, ○*(a2)-○(a3)-●(a4) along the file.
        assert_eq!(captures("b2b/w3/1wb1/w3 w", "a1a2").as_deref(), Some("c2"));
    }

    #[test]
    fn q2_moved_piece_first_or_second() {
        assert_eq!(captures("b2b/4/1wb1/w2w w", "a1a2").as_deref(), Some("c2"));
        assert_eq!(captures("b2b/4/w1b1/1w1w w", "b1b2").as_deref(), Some("c2"));
        // The moved piece third (○-○-●* from the enemy's side) is the enemy's own move,
        // which captures nothing: see stepping_into_the_enemy_pattern_is_safe.
    }

    #[test]
    fn q3_pattern_a_beats_pattern_b_on_one_line_plus_side() {
        // ○ b1→b2 between ●(a2) and ○(c2)-●(d2): A towards +file takes d2, and B with the
        // enemy at −file (○(c2)-○*(b2)-●(a2)) would take a2. Only d2 goes.
        let (captured, after) = play("b3/4/b1wb/1w2 w", "b1b2");
        assert_eq!(captured.as_deref(), Some("d2"));
        assert_eq!(after, "b3/4/bww1/4 b 1");
    }

    #[test]
    fn pattern_a_beats_pattern_b_on_one_line_minus_side() {
        // ○ c1→c2 between ●(a2)-○(b2) and ●(d2): A towards −file takes a2 before B with the
        // enemy at +file (○(b2)-○*(c2)-●(d2)) would take d2.
        assert_eq!(captures("b3/4/bw1b/2w1 w", "c1c2").as_deref(), Some("a2"));
    }

    #[test]
    fn pattern_a_beats_pattern_b_along_a_file() {
        // ● a3→b3 between ○(b4) above and ●(b2)-○(b1) below: A towards −rank takes b1 before B with the enemy at +rank (●(b2)-●*(b3)-○(b4)) would take b4.
        assert_eq!(captures("1w2/b3/1b2/1w1w b", "a3b3").as_deref(), Some("b1"));
    }

    #[test]
    fn q4_captured_piece_leaves_at_once() {
        let mut pos = Position::from_notation("b2b/4/1wbb/w3 w").unwrap();
        let mv = pos.parse_move("a1a2").unwrap();
        pos.make_move(mv);
        assert_eq!(pos.pieces[BLACK] & 1 << 6, 0);
        // c2 is free for Black's very next move.
        assert!(pos.parse_move("d2c2").is_ok());
    }

    #[test]
    fn plus_before_minus_is_never_decisive_within_a_line() {
        // The rules order A+ before A− and B+ before B−, but on a line of four points the
        // two A patterns (or the two B patterns) never match at once: A+ needs the moved
        // piece on the first two points and A− on the last two; B+ needs own at p−1 and
        // enemy at p+1 where B− needs the reverse. So only "A before B" and "rank before
        // file" can ever decide a capture; this checks the claim over every line.
        for p in 0..4 {
            for own in 0..16u8 {
                for enemy in 0..16u8 {
                    if own & enemy != 0 || own >> p & 1 == 0 {
                        continue;
                    }
                    let on = |mask: u8, i: isize| (0..4).contains(&i) && mask >> i & 1 == 1;
                    let p = p as isize;
                    let a_plus = on(own, p + 1) && on(enemy, p + 2);
                    let a_minus = on(own, p - 1) && on(enemy, p - 2);
                    let b_plus = on(own, p - 1) && on(enemy, p + 1);
                    let b_minus = on(own, p + 1) && on(enemy, p - 1);
                    assert!(
                        !(a_plus && a_minus || b_plus && b_minus),
                        "p {p} own {own:04b} enemy {enemy:04b}"
                    );
                }
            }
        }
    }

    #[test]
    fn toward_looks_the_given_offset_along_the_line() {
        for p in 0..16i8 {
            for offset in [1, 2, -1, -2, 4, 8, -4, -8] {
                let q = p + offset;
                let on_line = if offset.abs() < 4 {
                    (0..16).contains(&q) && q / 4 == p / 4
                } else {
                    (0..16).contains(&q)
                };
                for bb in [0xFFFFu16, 0] {
                    let expected = on_line && bb != 0;
                    assert_eq!(
                        toward(bb, offset) >> p & 1 == 1,
                        expected,
                        "p {p} offset {offset}"
                    );
                }
                if on_line {
                    assert_eq!(toward(1 << q, offset), 1 << p, "p {p} offset {offset}");
                }
            }
        }
    }

    #[test]
    fn lane_counts_count_each_bitboard() {
        for (a, b, c, d) in [(0, 0xFFFF, 0x8001, 0x0660), (0xF00F, 1, 0x8000, 0x1248)] {
            let counts = lane_counts(pack(a, b, c, d));
            let lanes: Vec<u32> = (0..4)
                .map(|i| (counts >> (16 * i) & 0xFFFF) as u32)
                .collect();
            assert_eq!(
                lanes,
                [
                    a.count_ones(),
                    b.count_ones(),
                    c.count_ones(),
                    d.count_ones()
                ]
            );
        }
        assert!(at_most_one(0) && at_most_one(0x8000) && !at_most_one(0x8001));
    }

    #[test]
    fn squares_read_and_print() {
        assert_eq!(parse_square(b"a1"), Some(0));
        assert_eq!(parse_square(b"d4"), Some(15));
        assert_eq!(parse_square(b"c2"), Some(6));
        assert_eq!(parse_square(b"e1"), None);
        assert_eq!(parse_square(b"a5"), None);
        assert_eq!(parse_square(b"a"), None);
        assert_eq!(SquareName(6).to_string(), "c2");
    }
}

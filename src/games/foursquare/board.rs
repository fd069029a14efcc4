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

/// The points of file a (bits 0, 4, 8, 12); shifted left by `file` for any other file.
const FILE_A: u16 = 0x1111;

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

/// `NEIGHBOURS[sq]`: the points one step up, down, left or right of `sq` — every square a
/// piece on `sq` may step to when it is empty.
static NEIGHBOURS: [u16; 16] = neighbours();

const fn neighbours() -> [u16; 16] {
    let mut table = [0u16; 16];
    let mut sq = 0;
    while sq < 16 {
        let (file, rank) = (sq % 4, sq / 4);
        let mut bits = 0u16;
        if file > 0 {
            bits |= 1 << (sq - 1);
        }
        if file < 3 {
            bits |= 1 << (sq + 1);
        }
        if rank > 0 {
            bits |= 1 << (sq - 4);
        }
        if rank < 3 {
            bits |= 1 << (sq + 4);
        }
        table[sq] = bits;
        sq += 1;
    }
    table
}

/// `LINE_CAPTURE[p][own << 4 | enemy]`: on one line of four points (a rank read by file, or
/// a file read by rank), with the moved piece at index `p` and the mover's and the enemy's
/// pieces as 4-bit masks along the line, the index of the enemy piece captured, or
/// `Move::NO_CAPTURE`.
///
/// Ranks and files are both lines of four points, so one 1 KiB table serves both axes and
/// the capture test is two lookups instead of up to eight pattern checks.
static LINE_CAPTURE: [[u8; 256]; 4] = line_capture();

const fn line_capture() -> [[u8; 256]; 4] {
    let mut table = [[Move::NO_CAPTURE; 256]; 4];
    let mut p = 0;
    while p < 4 {
        let mut index = 0;
        while index < 256 {
            table[p][index] = first_line_capture(p, (index >> 4) as u8, (index & 15) as u8);
            index += 1;
        }
        p += 1;
    }
    table
}

/// The rules' order within one axis: pattern A towards +, A towards −, B with the enemy
/// at +, B with the enemy at −. The first match is the capture.
const fn first_line_capture(p: usize, own: u8, enemy: u8) -> u8 {
    const fn on(mask: u8, i: usize) -> bool {
        mask >> i & 1 == 1
    }
    // A, d = +: moved at p, own at p+1, enemy at p+2.
    if p + 2 < 4 && on(own, p + 1) && on(enemy, p + 2) {
        return (p + 2) as u8;
    }
    // A, d = −: moved at p, own at p−1, enemy at p−2.
    if p >= 2 && on(own, p - 1) && on(enemy, p - 2) {
        return (p - 2) as u8;
    }
    // B, enemy at +: own at p−1, moved at p, enemy at p+1.
    if p >= 1 && p + 1 < 4 && on(own, p - 1) && on(enemy, p + 1) {
        return (p + 1) as u8;
    }
    // B, enemy at −: own at p+1, moved at p, enemy at p−1.
    if p >= 1 && p + 1 < 4 && on(own, p + 1) && on(enemy, p - 1) {
        return (p - 1) as u8;
    }
    Move::NO_CAPTURE
}

/// The four points of `file` as a 4-bit mask indexed by rank. The multiplication moves the
/// bits at 0, 4, 8, 12 to 12, 13, 14, 15; its other partial products land on distinct bits
/// outside 12..16, so nothing carries into the result.
#[inline]
fn file_bits(bb: u16, file: u32) -> usize {
    let spread = u32::from((bb >> file) & FILE_A);
    (spread.wrapping_mul(0x1248) >> 12 & 15) as usize
}

/// The four points of `rank` as a 4-bit mask indexed by file.
#[inline]
fn rank_bits(bb: u16, rank: u32) -> usize {
    usize::from(bb >> (rank * 4) & 15)
}

/// The piece captured by a piece that has just stepped to `to`: `own` already holds it on
/// `to`, `enemy` is the other side. Ranks are checked before files (horizontal beats
/// vertical), each in the order of [`first_line_capture`].
#[inline]
fn capture_after(own: u16, enemy: u16, to: u8) -> u8 {
    let (file, rank) = (u32::from(to & 3), u32::from(to >> 2));
    let along_rank =
        LINE_CAPTURE[file as usize][rank_bits(own, rank) << 4 | rank_bits(enemy, rank)];
    if along_rank != Move::NO_CAPTURE {
        return (rank * 4) as u8 + along_rank;
    }
    let along_file =
        LINE_CAPTURE[rank as usize][file_bits(own, file) << 4 | file_bits(enemy, file)];
    if along_file != Move::NO_CAPTURE {
        return along_file * 4 + file as u8;
    }
    Move::NO_CAPTURE
}

/// Calls `f` with every step of `own`'s pieces, capture included, in order of from-square
/// then to-square. Shared by move generation and the evaluation's threat count so that
/// both always agree with the rules.
#[inline(always)]
fn for_each_move(own: u16, enemy: u16, mut f: impl FnMut(Move)) {
    let empty = !(own | enemy);
    let mut pieces = own;
    while pieces != 0 {
        let from = pieces.trailing_zeros() as u8;
        pieces &= pieces - 1;
        let others = own ^ 1 << from;
        let mut targets = NEIGHBOURS[from as usize] & empty;
        while targets != 0 {
            let to = targets.trailing_zeros() as u8;
            targets &= targets - 1;
            let capture = capture_after(others | 1 << to, enemy, to);
            f(Move { from, to, capture });
        }
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
        self.pieces[BLACK].count_ones() <= 1
            || self.pieces[WHITE].count_ones() <= 1
            || self.out_of_plies()
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
        let own = self.pieces[self.side];
        let enemy = self.pieces[self.side ^ 1];
        for_each_move(own, enemy, |mv| moves.push(mv));
    }

    /// For `player` as if it were to move (the game not being over): how many steps it
    /// has, and the enemy pieces one of them would capture.
    pub(super) fn mobility_and_targets(&self, player: usize) -> (u32, u16) {
        let (mut count, mut targets) = (0, 0u16);
        for_each_move(self.pieces[player], self.pieces[player ^ 1], |mv| {
            count += 1;
            if mv.is_capture() {
                targets |= 1 << mv.capture;
            }
        });
        (count, targets)
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
                    assert!(!(a_plus && a_minus) && !(b_plus && b_minus));
                }
            }
        }
    }

    #[test]
    fn line_table_matches_the_rules_order() {
        // p = 1, own at 2, enemy at 0 and 3: A+ (capture 3) beats B− (capture 0).
        assert_eq!(LINE_CAPTURE[1][0b0110 << 4 | 0b1001], 3);
        // p = 2, own at 1, enemy at 0 and 3: A− (capture 0) beats B+ (capture 3).
        assert_eq!(LINE_CAPTURE[2][0b0110 << 4 | 0b1001], 0);
        // own–enemy–own: nothing.
        assert_eq!(LINE_CAPTURE[0][0b0101 << 4 | 0b0010], Move::NO_CAPTURE);
    }

    #[test]
    fn file_bits_gathers_a_file() {
        for bb in [0u16, 0xFFFF, 0x1248, 0x8421, 0xF0F0, 0x0660] {
            for file in 0..4u32 {
                let slow = (0..4).fold(0, |acc, rank| {
                    acc | usize::from(bb >> (rank * 4 + file) & 1) << rank
                });
                assert_eq!(file_bits(bb, file), slow, "{bb:#06x} file {file}");
            }
        }
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

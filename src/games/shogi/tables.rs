//! Geometry of the padded shogi board, built at compile time.
//!
//! The 9x9 board sits in a 17-column by 13-row mailbox (`square = (row + 2) * 17 + col +
//! 1`, col 0 = file 9 on the left of sente's diagram, row 0 = rank a at the top), stored in
//! 256 bytes so that any `u8` square, however a step wrapped, indexes the board safely.
//!
//! Why 17 columns: two on-board squares differ by `dx` in -8..=8 files, 17 values, so a
//! row stride of 17 is the smallest that makes `from - to` name the pair's geometry
//! uniquely (with 16, "8 files right" and "one rank down, 8 files left" would collide).
//! Then two tables of 289 entries, indexed by `from - to + 144`, replace per-square tables
//! as 0x88 does for chess: [`ATTACK`] says which piece kinds reach the difference on an
//! empty board, [`DIRECTION`] gives the step that walks from `from` to `to`. The 8 spare
//! columns and 2 spare rows above and below are walls, so a king step, a slider's walk or
//! a knight's two-rank jump from any on-board square lands on a wall, never past the array.
//!
//! Pieces are not colour-symmetric (a gold moves back only straight), so [`ATTACK`] is
//! written for sente; a gote piece is its 180-degree turn, and since every shogi piece is
//! left-right symmetric, turning means negating the difference: [`attack_index`] swaps the
//! squares for gote.

/// Row stride of the mailbox.
pub const STRIDE: i32 = 17;

/// Number of distinct differences between on-board squares: 144 each way, plus zero.
pub const DIFFS: usize = 289;

/// Offset that makes `from - to` a non-negative table index.
const CENTER: i32 = 144;

/// One step towards rank a (sente's forward), towards rank i, towards file 9, towards
/// file 1, and the diagonals.
pub const N: i8 = -17;
pub const S: i8 = 17;
pub const W: i8 = -1;
pub const E: i8 = 1;
pub const NW: i8 = -18;
pub const NE: i8 = -16;
pub const SW: i8 = 16;
pub const SE: i8 = 18;

/// Piece kinds, numbered as cshogi numbers them; a promoted kind is the base kind + 8.
pub const PAWN: u8 = 1;
pub const LANCE: u8 = 2;
pub const KNIGHT: u8 = 3;
pub const SILVER: u8 = 4;
pub const BISHOP: u8 = 5;
pub const ROOK: u8 = 6;
pub const GOLD: u8 = 7;
pub const KING: u8 = 8;
pub const PRO_PAWN: u8 = 9;
pub const PRO_LANCE: u8 = 10;
pub const PRO_KNIGHT: u8 = 11;
pub const PRO_SILVER: u8 = 12;
pub const HORSE: u8 = 13;
pub const DRAGON: u8 = 14;
/// One past the last kind: sizes per-kind arrays.
pub const KINDS: usize = 15;

/// The kinds whose reach continues past the first square along some line.
pub const SLIDERS: [u8; 5] = [LANCE, BISHOP, ROOK, HORSE, DRAGON];
/// [`SLIDERS`] as an [`ATTACK`] mask.
pub const SLIDER_MASK: u16 = bit(LANCE) | bit(BISHOP) | bit(ROOK) | bit(HORSE) | bit(DRAGON);

/// The [`ATTACK`] bit of a kind.
#[inline(always)]
pub const fn bit(kind: u8) -> u16 {
    1 << kind
}

const GOLD_STEPS: [i8; 6] = [N, NW, NE, W, E, S];
const KING_STEPS: [i8; 8] = [N, NW, NE, W, E, SW, S, SE];
const DIAGONALS: [i8; 4] = [NW, NE, SW, SE];
const ORTHOGONALS: [i8; 4] = [N, W, E, S];

/// Single steps of each kind for sente (gote negates them); empty for pure sliders.
pub const STEPS: [&[i8]; KINDS] = [
    &[],
    &[N],
    &[],
    &[2 * N + W, 2 * N + E],
    &[N, NW, NE, SW, SE],
    &[],
    &[],
    &GOLD_STEPS,
    &KING_STEPS,
    &GOLD_STEPS,
    &GOLD_STEPS,
    &GOLD_STEPS,
    &GOLD_STEPS,
    &ORTHOGONALS,
    &DIAGONALS,
];

/// Slide directions of each kind for sente (gote negates them).
pub const SLIDES: [&[i8]; KINDS] = [
    &[],
    &[],
    &[N],
    &[],
    &[],
    &DIAGONALS,
    &ORTHOGONALS,
    &[],
    &[],
    &[],
    &[],
    &[],
    &[],
    &DIAGONALS,
    &ORTHOGONALS,
];

/// `ATTACK[from - to + 144]`: bit `k` set when a sente piece of kind `k` on `from` reaches
/// `to` on an empty board. For gote, index with [`attack_index`].
pub const ATTACK: [u16; DIFFS] = build_attack();

/// `DIRECTION[from - to + 144]`: the king step leading from `from` towards `to` along a
/// rank, file or diagonal; 0 when the squares are not on one line (or are equal).
pub const DIRECTION: [i8; DIFFS] = build_direction();

/// Whether a square is on the board (not a wall).
pub const ON_BOARD: [bool; 256] = build_on_board();

/// Rank of a square from sente's side, 0 = rank a; meaningless on walls.
pub const ROW: [u8; 256] = build_coordinate(true);
/// Column of a square, 0 = file 9; meaningless on walls.
pub const COL: [u8; 256] = build_coordinate(false);

/// The 81 on-board squares in cshogi's order (index `(file - 1) * 9 + rank`).
pub const SQUARES: [u8; 81] = build_squares();
/// The cshogi index of each on-board square (walls map to 0).
pub const DENSE: [u8; 256] = build_dense();

/// The mailbox square of a column (0 = file 9) and row (0 = rank a).
#[inline(always)]
pub const fn square(col: u8, row: u8) -> u8 {
    (row + 2) * STRIDE as u8 + col + 1
}

/// The table index of a pair of squares, geometry only.
#[inline(always)]
pub const fn diff(from: u8, to: u8) -> usize {
    (from as i32 - to as i32 + CENTER) as usize
}

/// The [`ATTACK`] index for a piece of `color` (0 sente, 1 gote) on `from` aiming at `to`.
#[inline(always)]
pub const fn attack_index(color: usize, from: u8, to: u8) -> usize {
    if color == 0 {
        diff(from, to)
    } else {
        diff(to, from)
    }
}

/// A sente step turned to `color`'s point of view.
#[inline(always)]
pub const fn oriented(color: usize, step: i8) -> i8 {
    if color == 0 { step } else { -step }
}

/// Rank counted from `color`'s side of the board: 0 is the far rank, where that side's
/// pawns promote; 0..=2 is the promotion zone.
#[inline(always)]
pub const fn relative_row(color: usize, sq: u8) -> u8 {
    let row = ROW[sq as usize];
    if color == 0 { row } else { 8 - row }
}

/// Adds a step to a square; walls absorb every step from the board.
#[inline(always)]
pub const fn shift(sq: u8, step: i8) -> u8 {
    sq.wrapping_add(step as u8)
}

const fn build_on_board() -> [bool; 256] {
    let mut table = [false; 256];
    let mut row = 0;
    while row < 9 {
        let mut col = 0;
        while col < 9 {
            table[square(col, row) as usize] = true;
            col += 1;
        }
        row += 1;
    }
    table
}

const fn build_coordinate(want_row: bool) -> [u8; 256] {
    let mut table = [0u8; 256];
    let mut row = 0;
    while row < 9 {
        let mut col = 0;
        while col < 9 {
            table[square(col, row) as usize] = if want_row { row } else { col };
            col += 1;
        }
        row += 1;
    }
    table
}

const fn build_squares() -> [u8; 81] {
    let mut table = [0u8; 81];
    let mut i = 0;
    while i < 81 {
        let file_index = (i / 9) as u8;
        let row = (i % 9) as u8;
        table[i] = square(8 - file_index, row);
        i += 1;
    }
    table
}

const fn build_dense() -> [u8; 256] {
    let squares = build_squares();
    let mut table = [0u8; 256];
    let mut i = 0;
    while i < 81 {
        table[squares[i] as usize] = i as u8;
        i += 1;
    }
    table
}

/// Marks, for every on-board `from`, the squares a sente `kind` reaches along `steps`,
/// once or (`slide`) repeatedly.
const fn mark(mut table: [u16; DIFFS], kind: u8, steps: &[i8], slide: bool) -> [u16; DIFFS] {
    let on_board = build_on_board();
    let mut from = 0usize;
    while from < 256 {
        if on_board[from] {
            let mut i = 0;
            while i < steps.len() {
                let mut to = shift(from as u8, steps[i]);
                while on_board[to as usize] {
                    table[diff(from as u8, to)] |= bit(kind);
                    if !slide {
                        break;
                    }
                    to = shift(to, steps[i]);
                }
                i += 1;
            }
        }
        from += 1;
    }
    table
}

const fn build_attack() -> [u16; DIFFS] {
    let mut table = [0u16; DIFFS];
    let mut kind = 1;
    while kind < KINDS {
        table = mark(table, kind as u8, STEPS[kind], false);
        table = mark(table, kind as u8, SLIDES[kind], true);
        kind += 1;
    }
    table
}

const fn build_direction() -> [i8; DIFFS] {
    let on_board = build_on_board();
    let mut table = [0i8; DIFFS];
    let mut from = 0usize;
    while from < 256 {
        if on_board[from] {
            let mut i = 0;
            while i < KING_STEPS.len() {
                let step = KING_STEPS[i];
                let mut to = shift(from as u8, step);
                while on_board[to as usize] {
                    table[diff(from as u8, to)] = step;
                    to = shift(to, step);
                }
                i += 1;
            }
        }
        from += 1;
    }
    table
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Mailbox square of a USI name like "7g".
    fn sq(name: &str) -> u8 {
        let b = name.as_bytes();
        square(b'9' - b[0], b[1] - b'a')
    }

    fn reach(color: usize, from: &str, to: &str) -> u16 {
        ATTACK[attack_index(color, sq(from), sq(to))]
    }

    #[test]
    fn differences_are_unique_for_every_pair_of_squares() {
        let mut seen = [None; DIFFS];
        for &a in &SQUARES {
            for &b in &SQUARES {
                let geometry = (
                    i32::from(COL[b as usize]) - i32::from(COL[a as usize]),
                    i32::from(ROW[b as usize]) - i32::from(ROW[a as usize]),
                );
                let slot = &mut seen[diff(a, b)];
                assert!(slot.is_none_or(|g| g == geometry), "{a} {b}");
                *slot = Some(geometry);
            }
        }
    }

    #[test]
    fn every_step_from_the_board_lands_inside_the_array_on_a_wall_or_square() {
        for &from in &SQUARES {
            for kind in 1..KINDS {
                for color in 0..2 {
                    for &step in STEPS[kind].iter().chain(SLIDES[kind]) {
                        let to = i32::from(from) + i32::from(oriented(color, step));
                        assert!((0..256).contains(&to));
                    }
                }
            }
        }
        assert_eq!(ON_BOARD.iter().filter(|&&b| b).count(), 81);
    }

    #[test]
    fn attack_table_spot_checks() {
        assert_eq!(reach(0, "7g", "7f"), ATTACK[diff(sq("5e"), sq("5d"))]);
        let up = reach(0, "5e", "5d");
        for kind in [
            PAWN, LANCE, SILVER, ROOK, GOLD, KING, PRO_PAWN, HORSE, DRAGON,
        ] {
            assert!(up & bit(kind) != 0, "kind {kind}");
        }
        assert_eq!(up & (bit(KNIGHT) | bit(BISHOP)), 0);
        // A gold steps straight back but not diagonally back; a silver the other way.
        assert!(reach(0, "5e", "5f") & bit(GOLD) != 0);
        assert!(reach(0, "5e", "4f") & bit(GOLD) == 0);
        assert!(reach(0, "5e", "4f") & bit(SILVER) != 0);
        // Gote's pieces are turned round.
        assert!(reach(1, "5e", "5f") & bit(PAWN) != 0);
        assert!(reach(1, "5e", "5d") & bit(PAWN) == 0);
        assert_eq!(reach(0, "2i", "3g"), bit(KNIGHT));
        assert_eq!(reach(1, "2a", "1c"), bit(KNIGHT));
        assert_eq!(reach(0, "9i", "9a"), bit(LANCE) | bit(ROOK) | bit(DRAGON));
        assert_eq!(reach(1, "9i", "9a"), bit(ROOK) | bit(DRAGON));
        assert_eq!(reach(0, "9i", "1a"), bit(BISHOP) | bit(HORSE));
        // The horse steps one square orthogonally; the dragon one diagonally.
        assert!(reach(0, "5e", "5c") & bit(HORSE) == 0);
        assert!(reach(0, "5e", "4d") & bit(DRAGON) != 0);
        assert!(reach(0, "5e", "3c") & bit(DRAGON) == 0);
        // 1a -> 9b wraps on a 9-wide board; here it is no line at all.
        assert_eq!(reach(0, "1a", "9b"), 0);
    }

    #[test]
    fn direction_table_walks_from_from_to_to() {
        assert_eq!(DIRECTION[diff(sq("5e"), sq("5a"))], N);
        assert_eq!(DIRECTION[diff(sq("9i"), sq("1a"))], NE);
        assert_eq!(DIRECTION[diff(sq("1a"), sq("9i"))], SW);
        assert_eq!(DIRECTION[diff(sq("1e"), sq("9e"))], W);
        assert_eq!(DIRECTION[diff(sq("2i"), sq("3g"))], 0);
        assert_eq!(DIRECTION[diff(sq("1a"), sq("9b"))], 0);
        let queen_like = bit(ROOK) | bit(BISHOP);
        for (i, &step) in DIRECTION.iter().enumerate() {
            assert_eq!(step != 0, ATTACK[i] & queen_like != 0, "index {i}");
        }
    }

    #[test]
    fn dense_indices_follow_cshogi() {
        assert_eq!(DENSE[sq("1a") as usize], 0);
        assert_eq!(DENSE[sq("5e") as usize], 40);
        assert_eq!(DENSE[sq("7g") as usize], 60);
        assert_eq!(DENSE[sq("9a") as usize], 72);
        assert_eq!(DENSE[sq("9i") as usize], 80);
        for (i, &s) in SQUARES.iter().enumerate() {
            assert_eq!(usize::from(DENSE[s as usize]), i);
        }
    }
}

//! Precomputed tables over the 0x88 board, built at compile time.
//!
//! On a 16x8 board (`square = rank * 16 + file`, a1 = 0, h8 = 0x77) the difference
//! `from - to` of two squares says everything about their geometry: a knight, a king, a
//! slider or a pawn can reach `to` from `from` on an empty board exactly when the
//! difference is one of its offsets (or multiples, for sliders), and the difference never
//! wraps around the board edge because the right half of every rank is off-board. So two
//! tables of 239 entries, indexed by `from - to + 119`, replace per-square tables:
//! [`ATTACK`] says which piece kinds can ever reach the difference, [`DIRECTION`] gives
//! the step that walks from `from` to `to`. Check, pin and attack detection look a piece
//! up in [`ATTACK`] first and walk the board only when the table says the piece lines up.

/// Number of distinct square differences: `0x77 - 0 = 119` each way, plus zero.
pub const DIFFS: usize = 239;

/// Offset that makes `from - to` a non-negative table index.
const CENTER: i32 = 119;

/// Bits of an [`ATTACK`] entry: which piece kinds attack across the difference. Pawns
/// need a bit per colour because they only capture forward.
pub const WHITE_PAWN: u8 = 1;
pub const BLACK_PAWN: u8 = 2;
pub const KNIGHT: u8 = 4;
pub const BISHOP: u8 = 8;
pub const ROOK: u8 = 16;
pub const KING: u8 = 32;
/// A queen moves as a rook or a bishop; it has no bit of its own.
pub const QUEEN: u8 = BISHOP | ROOK;

/// Steps on the 0x88 board: one rank is 16 squares.
pub const KNIGHT_STEPS: [i8; 8] = [33, 31, 18, 14, -14, -18, -31, -33];
pub const BISHOP_STEPS: [i8; 4] = [17, 15, -15, -17];
pub const ROOK_STEPS: [i8; 4] = [16, 1, -1, -16];
pub const KING_STEPS: [i8; 8] = [17, 16, 15, 1, -1, -15, -16, -17];

/// `ATTACK[from - to + 119]`: the bits of the piece kinds that, standing on `from`,
/// attack `to` on an empty board.
pub const ATTACK: [u8; DIFFS] = build_attack();

/// `DIRECTION[from - to + 119]`: the queen step leading from `from` towards `to`, or 0
/// when the two squares are not on one rank, file or diagonal.
pub const DIRECTION: [i8; DIFFS] = build_direction();

/// The table index of a pair of 0x88 squares.
#[inline(always)]
pub const fn diff(from: u8, to: u8) -> usize {
    (from as i32 - to as i32 + CENTER) as usize
}

/// Whether a square index is on the board (the 0x88 test).
#[inline(always)]
pub const fn on_board(sq: u8) -> bool {
    sq & 0x88 == 0
}

/// Every on-board square's reach along `steps`, once (`slide == false`) or repeatedly,
/// marked with `bit`.
const fn mark(mut table: [u8; DIFFS], steps: &[i8], slide: bool, bit: u8) -> [u8; DIFFS] {
    let mut from = 0u8;
    while from < 128 {
        if on_board(from) {
            let mut i = 0;
            while i < steps.len() {
                let mut to = from.wrapping_add(steps[i] as u8);
                while on_board(to) {
                    table[diff(from, to)] |= bit;
                    if !slide {
                        break;
                    }
                    to = to.wrapping_add(steps[i] as u8);
                }
                i += 1;
            }
        }
        from += 1;
    }
    table
}

const fn build_attack() -> [u8; DIFFS] {
    let mut table = [0u8; DIFFS];
    table = mark(table, &[15, 17], false, WHITE_PAWN);
    table = mark(table, &[-15, -17], false, BLACK_PAWN);
    table = mark(table, &KNIGHT_STEPS, false, KNIGHT);
    table = mark(table, &BISHOP_STEPS, true, BISHOP);
    table = mark(table, &ROOK_STEPS, true, ROOK);
    mark(table, &KING_STEPS, false, KING)
}

const fn build_direction() -> [i8; DIFFS] {
    let mut table = [0i8; DIFFS];
    let mut from = 0u8;
    while from < 128 {
        if on_board(from) {
            let mut i = 0;
            while i < KING_STEPS.len() {
                let step = KING_STEPS[i];
                let mut to = from.wrapping_add(step as u8);
                while on_board(to) {
                    table[diff(from, to)] = step;
                    to = to.wrapping_add(step as u8);
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

    /// 0x88 square from a name like "e4".
    fn sq(name: &str) -> u8 {
        let b = name.as_bytes();
        (b[1] - b'1') * 16 + (b[0] - b'a')
    }

    fn attacks(from: &str, to: &str) -> u8 {
        ATTACK[diff(sq(from), sq(to))]
    }

    #[test]
    fn attack_table_spot_checks() {
        assert_eq!(attacks("d4", "e6"), KNIGHT);
        assert_eq!(attacks("g1", "f3"), KNIGHT);
        assert_eq!(attacks("e4", "d5"), WHITE_PAWN | BISHOP | KING);
        assert_eq!(attacks("e4", "f3"), BLACK_PAWN | BISHOP | KING);
        assert_eq!(attacks("e1", "e2"), ROOK | KING);
        assert_eq!(attacks("a1", "h8"), BISHOP);
        assert_eq!(attacks("h8", "a1"), BISHOP);
        assert_eq!(attacks("a1", "a8"), ROOK);
        assert_eq!(attacks("a1", "b3"), KNIGHT);
        assert_eq!(attacks("a1", "c4"), 0);
        assert_eq!(attacks("e4", "e4"), 0);
        // h1 -> a2 is -7 on an 8x8 board, which would look like a diagonal there.
        assert_eq!(attacks("h1", "a2"), 0);
    }

    #[test]
    fn direction_table_walks_from_from_to_to() {
        assert_eq!(DIRECTION[diff(sq("d4"), sq("d5"))], 16);
        assert_eq!(DIRECTION[diff(sq("d4"), sq("d8"))], 16);
        assert_eq!(DIRECTION[diff(sq("h8"), sq("a1"))], -17);
        assert_eq!(DIRECTION[diff(sq("a8"), sq("h1"))], -15);
        assert_eq!(DIRECTION[diff(sq("h3"), sq("a3"))], -1);
        assert_eq!(DIRECTION[diff(sq("g1"), sq("f3"))], 0);
        assert_eq!(DIRECTION[diff(sq("h1"), sq("a2"))], 0);
        // Every direction entry points along a line the queen bits agree with.
        for (i, &step) in DIRECTION.iter().enumerate() {
            assert_eq!(step != 0, ATTACK[i] & QUEEN != 0, "index {i}");
        }
    }
}

//! Zobrist keys, generated at compile time from a fixed-seed splitmix64 so that keys (and
//! thus transposition-table behaviour and bench signatures) are the same on every build.

use crate::core::keys::{splitmix, stream_key};

/// Keys for a piece code (see `board::piece_code`) on a 0x88 square; codes 0, 7, 8 and 15
/// are never used and keep their keys only to make indexing branch-free.
pub const PIECE_SQUARE: [[u64; 128]; 16] = build_piece_square();
/// Keys for each castling right (white kingside, white queenside, black kingside, black
/// queenside) by the file of its rook: Chess960 positions that differ only in which rook
/// may castle must not share a key. A right with its standard rook (h or a file) keeps the
/// key it had before Chess960, so keys of standard chess did not change.
pub const CASTLING_RIGHT: [[u64; 8]; 4] = build_castling_right();
/// Keys for the file of the en-passant square.
pub const EN_PASSANT: [u64; 8] = build_en_passant();
/// Xored in when Black is to move.
pub const BLACK_TO_MOVE: u64 = splitmix(SEED ^ 0xB1AC);

const SEED: u64 = 0x7169_7969_6368_6573; // "qiyiches"

/// The `n`-th key of this game's stream.
const fn key(n: u64) -> u64 {
    stream_key(SEED, n)
}

const fn build_piece_square() -> [[u64; 128]; 16] {
    let mut table = [[0u64; 128]; 16];
    let mut piece = 0;
    while piece < 16 {
        let mut sq = 0;
        while sq < 128 {
            table[piece][sq] = key((piece * 128 + sq) as u64);
            sq += 1;
        }
        piece += 1;
    }
    table
}

const fn build_castling_right() -> [[u64; 8]; 4] {
    let mut table = [[0u64; 8]; 4];
    let mut right = 0;
    while right < 4 {
        let standard_file = if right % 2 == 0 { 7 } else { 0 };
        let mut file = 0;
        while file < 8 {
            table[right][file] = if file == standard_file {
                key(5000 + right as u64)
            } else {
                key(5100 + (right * 8 + file) as u64)
            };
            file += 1;
        }
        right += 1;
    }
    table
}

const fn build_en_passant() -> [u64; 8] {
    let mut table = [0u64; 8];
    let mut file = 0;
    while file < 8 {
        table[file] = key(6000 + file as u64);
        file += 1;
    }
    table
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_distinct_and_non_zero() {
        let mut all: Vec<u64> = PIECE_SQUARE.iter().flatten().copied().collect();
        all.extend(CASTLING_RIGHT.iter().flatten());
        all.extend(EN_PASSANT);
        all.push(BLACK_TO_MOVE);
        assert!(all.iter().all(|&k| k != 0));
        let n = all.len();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), n);
    }
}

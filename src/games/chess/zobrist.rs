//! Zobrist keys, generated at compile time from a fixed-seed splitmix64 so that keys (and
//! thus transposition-table behaviour and bench signatures) are the same on every build.

use crate::core::keys::{splitmix, stream_key};

/// Keys for a piece code (see `board::piece_code`) on a 0x88 square; codes 0, 7, 8 and 15
/// are never used and keep their keys only to make indexing branch-free.
pub const PIECE_SQUARE: [[u64; 128]; 16] = build_piece_square();
/// Keys for each of the 16 castling-rights sets, so a change costs one xor per set.
pub const CASTLING: [u64; 16] = build_castling();
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

/// Set `rights` gets the xor of one key per right it holds, so that
/// `CASTLING[a] ^ CASTLING[b]` updates from set `a` to set `b`.
const fn build_castling() -> [u64; 16] {
    let singles = [key(5000), key(5001), key(5002), key(5003)];
    let mut table = [0u64; 16];
    let mut rights = 0;
    while rights < 16 {
        let mut bit = 0;
        while bit < 4 {
            if rights & (1 << bit) != 0 {
                table[rights] ^= singles[bit];
            }
            bit += 1;
        }
        rights += 1;
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
        all.extend(&CASTLING[1..]);
        all.extend(EN_PASSANT);
        all.push(BLACK_TO_MOVE);
        assert!(all.iter().all(|&k| k != 0));
        let n = all.len();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), n);
        assert_eq!(CASTLING[0], 0);
    }
}

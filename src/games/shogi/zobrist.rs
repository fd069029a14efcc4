//! Zobrist keys, generated at compile time from a fixed-seed splitmix64 so that keys (and
//! with them transposition-table behaviour and bench signatures) are the same on every
//! build.
//!
//! The key covers exactly what sennichite compares: the board, both hands and the side to
//! move. A hand of `n` pieces of a kind holds the keys of levels `1..=n`, so taking or
//! giving one piece costs one xor.

use crate::core::keys::{splitmix, stream_key};

/// Keys per piece (`colour * 16 + kind`) and cshogi square index.
pub static PIECE_SQUARE: [[u64; 81]; 32] = build_piece_square();
/// `HAND[colour][kind][n]`: xored in when that colour's hand reaches `n` of that kind.
pub static HAND: [[[u64; 19]; 8]; 2] = build_hand();
/// Xored in when gote is to move.
pub const GOTE_TO_MOVE: u64 = splitmix(SEED ^ 0x6072);

const SEED: u64 = 0x7169_7969_7368_6f67; // "qiyishog"

/// The `n`-th key of this game's stream.
const fn key(n: u64) -> u64 {
    stream_key(SEED, n)
}

const fn build_piece_square() -> [[u64; 81]; 32] {
    let mut table = [[0u64; 81]; 32];
    let mut piece = 0;
    while piece < 32 {
        let mut sq = 0;
        while sq < 81 {
            table[piece][sq] = key((piece * 81 + sq) as u64);
            sq += 1;
        }
        piece += 1;
    }
    table
}

const fn build_hand() -> [[[u64; 19]; 8]; 2] {
    let mut table = [[[0u64; 19]; 8]; 2];
    let mut color = 0;
    while color < 2 {
        let mut kind = 1;
        while kind < 8 {
            let mut n = 1;
            while n < 19 {
                table[color][kind][n] = key(10_000 + (color * 8 * 19 + kind * 19 + n) as u64);
                n += 1;
            }
            kind += 1;
        }
        color += 1;
    }
    table
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_distinct_and_non_zero() {
        let mut all: Vec<u64> = PIECE_SQUARE.iter().flatten().copied().collect();
        for color in HAND {
            for kind in &color[1..] {
                all.extend(&kind[1..]);
            }
        }
        all.push(GOTE_TO_MOVE);
        assert!(all.iter().all(|&k| k != 0));
        let n = all.len();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), n);
    }
}

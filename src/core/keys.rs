//! Fixed-seed hash keys, computed at compile time: a game's Zobrist tables are the
//! splitmix64 stream of its own seed, so keys are the same in every build and run.

/// The splitmix64 output for state `x`: a bijective mix with good avalanche.
pub const fn splitmix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The `n`-th key of the stream seeded with `seed`.
pub const fn stream_key(seed: u64, n: u64) -> u64 {
    splitmix(seed.wrapping_add(n.wrapping_mul(0x9E37_79B9_7F4A_7C15)))
}

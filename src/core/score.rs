//! Scores: centipawn-like integers from the view of the team to move, with mates encoded
//! as distance from a large constant so that shorter mates compare better.

/// A search score.
pub type Score = i32;

/// The score of delivering mate (winning) at the root itself; a win in `n` plies is `MATE - n`.
pub const MATE: Score = 32_000;

/// Scores beyond this magnitude are wins or losses found by search, not evaluations.
pub const MATE_BOUND: Score = MATE - 1_000;

/// Deepest iteration and deepest ply (search plus quiescence) ever searched. Here rather
/// than in the search because what keeps a stack per ply (an evaluation's accumulators)
/// sizes it by the same bound, and mate scores count plies up to it.
pub const MAX_PLY: usize = 128;

/// The score of a win `ply` plies from the root.
#[inline]
pub fn mate_in(ply: usize) -> Score {
    MATE - ply as Score
}

/// The score of a loss `ply` plies from the root.
#[inline]
pub fn mated_in(ply: usize) -> Score {
    -MATE + ply as Score
}

/// The value of a capture sequence on one square, from the swap list of a static exchange
/// evaluation: `gain[d]` is what the side to capture at depth `d` has won if the exchange
/// stops there, `depth` the last capture made. Either side may stop capturing when going
/// on loses, so the list is folded back from the end. Chess's and shogi's static exchange
/// evaluations differ in how they find the next attacker, not in this.
pub fn settle_exchange(gain: &mut [Score], mut depth: usize) -> Score {
    while depth > 0 {
        gain[depth - 1] = -(-gain[depth - 1]).max(gain[depth]);
        depth -= 1;
    }
    gain[0]
}

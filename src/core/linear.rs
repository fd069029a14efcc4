//! Evaluations that are linear in their weights: every term is a weight times a count the
//! position yields. That is what lets `qiyi tune` fit all weights at once to real games
//! (Texel's method): the evaluation walks the position once through a [`Sink`], which
//! either adds the weighted terms up (play, [`Total`]) or records the counts (tuning,
//! [`Trace`]), so the two can never disagree.

/// A middlegame and an endgame value, blended by game phase.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub struct Pair(pub i32, pub i32);

impl std::ops::AddAssign for Pair {
    fn add_assign(&mut self, other: Pair) {
        self.0 += other.0;
        self.1 += other.1;
    }
}

impl std::ops::Mul<i32> for Pair {
    type Output = Pair;
    fn mul(self, k: i32) -> Pair {
        Pair(self.0 * k, self.1 * k)
    }
}

/// Receives an evaluation's terms: `count` times the weight `term`, for player `side`
/// (0 moves first: White, sente).
pub trait Sink {
    fn add(&mut self, side: usize, term: usize, count: i32);
}

/// Adds the weighted terms up, from the first player's view.
pub struct Total {
    weights: &'static [Pair],
    pub sum: Pair,
}

impl Total {
    pub fn new(weights: &'static [Pair]) -> Total {
        Total {
            weights,
            sum: Pair(0, 0),
        }
    }
}

impl Sink for Total {
    #[inline(always)]
    fn add(&mut self, side: usize, term: usize, count: i32) {
        let signed = if side == 0 { count } else { -count };
        self.sum += self.weights[term] * signed;
    }
}

/// Records the count of each term, from the first player's view, for tuning.
pub struct Trace(pub Vec<i32>);

impl Trace {
    pub fn new(terms: usize) -> Trace {
        Trace(vec![0; terms])
    }

    /// The traced counts weighed by `weights`, unblended.
    pub fn total(&self, weights: &[Pair]) -> Pair {
        let mut sum = Pair(0, 0);
        for (w, &count) in weights.iter().zip(&self.0) {
            sum += *w * count;
        }
        sum
    }
}

impl Sink for Trace {
    fn add(&mut self, side: usize, term: usize, count: i32) {
        self.0[term] += if side == 0 { count } else { -count };
    }
}

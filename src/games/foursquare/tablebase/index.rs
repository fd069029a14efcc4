//! A dense index of every position the table holds: the mover's pieces and the other
//! side's, each 2 to 4 of them, on disjoint squares.
//!
//! The rules treat both colours alike (no direction belongs to a colour), so a position is
//! the same game whichever colour moves; only the pieces of the side to move (`mover`) and
//! of the other side (`other`) matter. That halves the table: 2,200,380 entries serve
//! 4,400,760 coloured positions.
//!
//! Layout: nine blocks, one per (mover count, other count), in the order (2,2), (2,3),
//! (2,4), (3,2), ... (4,4). Within a block the index is
//! `rank(mover) * C(16 - m, o) + rank(other squeezed)`, where `rank` is the colexicographic
//! rank of a k-subset (combinatorial number system: the sum of `C(square, i + 1)` over its
//! squares in ascending order) and "squeezed" renumbers the other side's squares over the
//! 16 - m points the mover leaves free.

/// The fewest and most pieces a side has in a position the table holds: with one piece a
/// side has lost, and nobody starts with more than four.
pub const MIN_PIECES: u32 = 2;
pub const MAX_PIECES: u32 = 4;

/// `BINOMIAL[n][k]` = C(n, k) for the subsets of up to 16 points the index counts.
const BINOMIAL: [[u32; 5]; 17] = {
    let mut table = [[0u32; 5]; 17];
    let mut n = 0;
    while n <= 16 {
        table[n][0] = 1;
        let mut k = 1;
        while k <= 4 {
            table[n][k] = if n == 0 {
                0
            } else {
                table[n - 1][k - 1] + table[n - 1][k]
            };
            k += 1;
        }
        n += 1;
    }
    table
};

/// `OFFSETS[m][o]`: where the block of positions with `m` mover and `o` other pieces
/// starts; `OFFSETS[4][5]` (one past the last block) is the table's size.
const OFFSETS: [[u32; 6]; 5] = {
    let mut offsets = [[0u32; 6]; 5];
    let mut next = 0;
    let mut m = MIN_PIECES as usize;
    while m <= MAX_PIECES as usize {
        let mut o = MIN_PIECES as usize;
        while o <= MAX_PIECES as usize {
            offsets[m][o] = next;
            next += BINOMIAL[16][m] * BINOMIAL[16 - m][o];
            o += 1;
        }
        offsets[m][o] = next;
        m += 1;
    }
    offsets
};

/// Number of entries: 2,200,380.
pub const SIZE: usize = OFFSETS[MAX_PIECES as usize][MAX_PIECES as usize + 1] as usize;

/// Colexicographic rank of the set `bits` among the subsets of its size.
#[inline]
fn rank(mut bits: u16) -> u32 {
    let mut rank = 0;
    let mut i = 1;
    while bits != 0 {
        rank += BINOMIAL[bits.trailing_zeros() as usize][i];
        bits &= bits - 1;
        i += 1;
    }
    rank
}

/// The `k`-subset of colexicographic rank `rank`: the inverse of [`rank`], greedily from
/// the highest element down.
fn unrank(mut rank: u32, k: usize) -> u16 {
    let mut bits = 0;
    let mut top = 16;
    for i in (1..=k).rev() {
        top -= 1;
        while BINOMIAL[top][i] > rank {
            top -= 1;
        }
        rank -= BINOMIAL[top][i];
        bits |= 1 << top;
    }
    bits
}

/// Renumbers the squares of `bits` over the points outside `taken`, keeping their order.
#[inline]
fn squeeze(mut bits: u16, taken: u16) -> u16 {
    let mut squeezed = 0;
    while bits != 0 {
        let square = bits.trailing_zeros();
        let below = (taken & ((1u16 << square) - 1)).count_ones();
        squeezed |= 1 << (square - below);
        bits &= bits - 1;
    }
    squeezed
}

/// The inverse of [`squeeze`]: spreads `bits` back over the points outside `taken`.
fn spread(bits: u16, taken: u16) -> u16 {
    let mut spread = 0;
    let mut free = !taken;
    let mut i = 0;
    while free != 0 {
        let square = free.trailing_zeros();
        if bits >> i & 1 != 0 {
            spread |= 1 << square;
        }
        free &= free - 1;
        i += 1;
    }
    spread
}

/// The entry of the position where the side to move has `mover` and the other side
/// `other` (disjoint, 2 to 4 pieces each).
#[inline]
pub fn index(mover: u16, other: u16) -> usize {
    let m = mover.count_ones() as usize;
    let o = other.count_ones() as usize;
    debug_assert!(mover & other == 0);
    debug_assert!((2..=4).contains(&m) && (2..=4).contains(&o));
    (OFFSETS[m][o] + rank(mover) * BINOMIAL[16 - m][o] + rank(squeeze(other, mover))) as usize
}

/// The pieces `(mover, other)` of entry `index < SIZE`.
pub fn position(index: usize) -> (u16, u16) {
    let index = index as u32;
    for m in MIN_PIECES as usize..=MAX_PIECES as usize {
        for o in MIN_PIECES as usize..=MAX_PIECES as usize {
            if index < OFFSETS[m][o + 1] {
                let within = index - OFFSETS[m][o];
                let others = BINOMIAL[16 - m][o];
                let mover = unrank(within / others, m);
                let other = spread(unrank(within % others, o), mover);
                return (mover, other);
            }
        }
    }
    panic!("tablebase index {index} out of range");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn size_counts_every_pair_of_piece_sets() {
        let sets = |size: u32, points: u32| {
            (0u32..1 << points)
                .filter(|b| b.count_ones() == size)
                .count()
        };
        let expected: usize = (2..=4)
            .flat_map(|m| (2..=4).map(move |o| sets(m, 16) * sets(o, 16 - m)))
            .sum();
        assert_eq!(SIZE, expected);
        assert_eq!(SIZE, 2_200_380);
    }

    /// Every entry maps to a valid pair of piece sets and back, and the pairs are all
    /// distinct (a bijection, since the counts agree).
    #[test]
    fn rank_and_unrank_round_trip_over_the_whole_table() {
        let mut seen = vec![false; SIZE];
        for i in 0..SIZE {
            let (mover, other) = position(i);
            assert_eq!(mover & other, 0, "{i}");
            assert!((2..=4).contains(&mover.count_ones()), "{i}");
            assert!((2..=4).contains(&other.count_ones()), "{i}");
            let back = index(mover, other);
            assert_eq!(back, i, "{mover:#06x} {other:#06x}");
            assert!(!seen[back]);
            seen[back] = true;
        }
    }

    #[test]
    fn subset_ranks_are_dense_and_ordered() {
        for k in 1..=4 {
            let mut previous = None;
            for bits in (0..=u16::MAX).filter(|b| b.count_ones() == k) {
                let r = rank(bits);
                assert_eq!(unrank(r, k as usize), bits);
                // Increasing masks are the colexicographic order: ranks count up by one.
                assert_eq!(r, previous.map_or(0, |p| p + 1));
                previous = Some(r);
            }
        }
    }

    #[test]
    fn squeeze_and_spread_are_inverse() {
        let taken = 0b1010_0000_0110_0001u16;
        for bits in 0..=u16::MAX {
            if bits & taken == 0 {
                assert_eq!(spread(squeeze(bits, taken), taken), bits);
            }
        }
    }
}

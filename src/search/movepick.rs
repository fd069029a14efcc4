//! Move ordering: the keys a node's moves are searched by (the table's move, good
//! captures, killers, the countermove, history, bad captures last), and the picking that
//! brings them out best first without sorting more than a node searches.

use super::worker::Worker;
use crate::core::{Evaluator, Game, MoveList};

impl<'a, G: Game, E: Evaluator<G>> Worker<'a, G, E> {
    /// Ordering keys: the TT move, winning and even captures, killers, the countermove,
    /// history, then losing captures.
    pub(super) fn score_moves(
        &self,
        moves: &MoveList<G::Move>,
        order: &mut MoveList<i32>,
        tt_move: Option<u32>,
        ply: usize,
    ) {
        let player = self.pos.side_to_move();
        let killers = self.killers[ply];
        let counter = self
            .previous_move(ply)
            .and_then(|prev| self.histories.countermoves[G::move_index(prev)]);
        for &mv in moves.iter() {
            let index = G::move_index(mv);
            let key = if tt_move == Some(index as u32) {
                1 << 30
            } else if self.pos.is_capture(mv) {
                // Captures that lose material (by the evaluator's exchange test) go last.
                let base = if self.eval.good_capture(&self.pos, mv) {
                    1 << 28
                } else {
                    -(1 << 24)
                };
                base + self.eval.capture_order(&self.pos, mv)
            } else if killers[0] == Some(mv) {
                (1 << 27) + 1
            } else if killers[1] == Some(mv) {
                1 << 27
            } else if counter == Some(mv) {
                1 << 26
            } else {
                self.histories.history[player * G::MOVE_INDEX_SIZE + index]
                    + self.continuation_score(ply, self.pos.piece_to(mv))
            };
            order.push(key);
        }
    }
}

/// How many moves are picked one at a time before the rest are sorted outright. The
/// table move, good captures and killers come first and most cut-offs happen among them,
/// where picking the best remaining move is cheapest; a node that gets past them usually
/// searches everything, and then one sort beats a scan per move (quadratic in shogi's
/// hundred-odd moves, a fifth of the search time before).
const PICKED_ONE_BY_ONE: usize = 4;

/// Brings the best-keyed remaining move to position `i`: a selection step for the first
/// few, one sort of the rest when `i` reaches [`PICKED_ONE_BY_ONE`].
pub(super) fn pick_next<M: Copy>(moves: &mut MoveList<M>, keys: &mut MoveList<i32>, i: usize) {
    if i > PICKED_ONE_BY_ONE {
        return;
    }
    if i == PICKED_ONE_BY_ONE {
        sort_tail(moves, keys, i);
        return;
    }
    let mut best = i;
    for j in i + 1..moves.len() {
        if keys[j] > keys[best] {
            best = j;
        }
    }
    if best != i {
        moves.swap(i, best);
        keys.swap(i, best);
    }
}

/// Sorts `moves[from..]` by key, highest first, ties in their present order; on the
/// stack, without allocating.
pub(super) fn sort_tail<M: Copy>(moves: &mut MoveList<M>, keys: &mut MoveList<i32>, from: usize) {
    let mut order: MoveList<(i32, u32)> = MoveList::new();
    for j in from..moves.len() {
        order.push((keys[j], j as u32));
    }
    order
        .as_mut_slice()
        .sort_unstable_by_key(|&(key, index)| (std::cmp::Reverse(key), index));
    let before: MoveList<M> = {
        let mut copy = MoveList::new();
        for j in from..moves.len() {
            copy.push(moves[j]);
        }
        copy
    };
    for (k, &(key, index)) in order.iter().enumerate() {
        moves[from + k] = before[index as usize - from];
        keys[from + k] = key;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn picking_yields_every_move_best_key_first() {
        for len in [0, 1, 3, PICKED_ONE_BY_ONE + 1, 40, 200] {
            let mut moves: MoveList<u32> = MoveList::new();
            let mut keys = MoveList::new();
            let mut rng = 0x2545_f491_u32;
            for m in 0..len as u32 {
                rng = rng.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
                moves.push(m);
                keys.push((rng >> 24) as i32 % 17 - 8);
            }
            let expected: Vec<(i32, u32)> =
                keys.iter().copied().zip(moves.iter().copied()).collect();
            for i in 0..len {
                pick_next(&mut moves, &mut keys, i);
                assert!(i == 0 || keys[i] <= keys[i - 1], "len {len} at {i}");
            }
            let mut got: Vec<(i32, u32)> =
                keys.iter().copied().zip(moves.iter().copied()).collect();
            let mut expected = expected;
            got.sort();
            expected.sort();
            assert_eq!(
                got, expected,
                "len {len}: the same moves with the same keys"
            );
        }
    }
}

//! Retrograde analysis: every entry's value worked out backwards from the ends of the game,
//! one distance at a time.
//!
//! Level 0 holds the positions whose mover has no step (a loss on the spot). Level 1
//! holds their predecessors, plus the positions where a capture leaves the other side a
//! single piece (those ends are not entries: the game is over). From then on a lost level
//! makes every unsettled predecessor a win one ply longer, and a won level counts down
//! each predecessor's unsettled moves: the predecessor whose last move is settled this way
//! has only moves into wins for the other side, the longest of them at this level, so it
//! is lost one ply later. Going level by level gives the winner the shortest distance and
//! the loser the longest; whatever is never settled can be played forever, a draw.
//!
//! Within a level the entries are independent, so rayon splits the level; atomics keep
//! the shared counters and values consistent, and the levels follow one another.

use super::super::board::step_back;
use super::index::{self, MAX_PIECES, MIN_PIECES, SIZE};
use super::{Value, mover_position};
use crate::core::MoveList;
use rayon::prelude::*;
use std::sync::atomic::{AtomicU8, Ordering::Relaxed};

/// The points one step from each square.
const NEIGHBOURS: [u16; 16] = {
    let mut table = [0u16; 16];
    let mut square = 0;
    while square < 16 {
        let (file, rank) = (square % 4, square / 4);
        if file > 0 {
            table[square] |= 1 << (square - 1);
        }
        if file < 3 {
            table[square] |= 1 << (square + 1);
        }
        if rank > 0 {
            table[square] |= 1 << (square - 4);
        }
        if rank < 3 {
            table[square] |= 1 << (square + 4);
        }
        square += 1;
    }
    table
};

/// Calls `f` with every position one move before `(mover, other)`, where `other` has just
/// moved, as `(mover, other)` of that position: each of its pieces stepped back, with or
/// without an enemy piece restored that the step captured. [`step_back`] keeps only the
/// candidates whose step, played forwards, captures exactly what was restored (nothing,
/// or that piece), so the edges found backwards are the legal moves, each once.
pub(super) fn for_each_predecessor(mover: u16, other: u16, mut f: impl FnMut(u16, u16)) {
    let empty = !(mover | other);
    let can_restore = mover.count_ones() < MAX_PIECES;
    let mut arrived = other;
    while arrived != 0 {
        let to = arrived.trailing_zeros() as u8;
        arrived &= arrived - 1;
        // Nothing here depends on where the piece came from: that point is empty after
        // the step, as it is here.
        let (quiet, victims) = step_back(other, mover, to);
        let victims = if can_restore { victims } else { 0 };
        let mut origins = NEIGHBOURS[usize::from(to)] & empty;
        while origins != 0 {
            let from = origins.trailing_zeros();
            origins &= origins - 1;
            let before = other ^ (1 << from | 1 << to);
            if quiet {
                f(before, mover);
            }
            let mut restored = victims & !(1 << from);
            while restored != 0 {
                let victim = restored & restored.wrapping_neg();
                restored &= restored - 1;
                f(before, mover | victim);
            }
        }
    }
}

/// A position in a level of the analysis: `mover | other << 16`, so that going backwards
/// needs no unranking.
fn pack(mover: u16, other: u16) -> u32 {
    u32::from(mover) | u32::from(other) << 16
}

fn unpack(packed: u32) -> (u16, u16) {
    (packed as u16, (packed >> 16) as u16)
}

/// Solves every entry; returns them encoded as [`Value::encode`] does.
pub(super) fn solve() -> Vec<u8> {
    let values: Vec<AtomicU8> = (0..SIZE).map(|_| AtomicU8::new(0)).collect();
    // Moves of each entry not yet known to lose: when it reaches zero, the entry is lost.
    let unsettled: Vec<AtomicU8> = (0..SIZE).map(|_| AtomicU8::new(0)).collect();

    let (stuck, finishing) = (0..SIZE)
        .into_par_iter()
        .with_min_len(1 << 12)
        .fold(
            || (Vec::new(), Vec::new()),
            |(mut stuck, mut finishing), entry| {
                let (mover, other) = index::position(entry);
                let mut moves = MoveList::new();
                mover_position(mover, other).generate_moves(&mut moves);
                if moves.is_empty() {
                    values[entry].store(Value::Loss(0).encode(), Relaxed);
                    stuck.push(pack(mover, other));
                } else if other.count_ones() == MIN_PIECES && moves.iter().any(|m| m.is_capture()) {
                    values[entry].store(Value::Win(1).encode(), Relaxed);
                    finishing.push(pack(mover, other));
                } else {
                    unsettled[entry].store(moves.len() as u8, Relaxed);
                }
                (stuck, finishing)
            },
        )
        .reduce(
            || (Vec::new(), Vec::new()),
            |(mut a, mut b), (c, d)| {
                a.extend(c);
                b.extend(d);
                (a, b)
            },
        );

    let mut level = stuck;
    let mut finishing = Some(finishing);
    let mut distance = 0u32;
    while !level.is_empty() || finishing.is_some() {
        let lost = distance.is_multiple_of(2);
        let parent = if lost {
            Value::Win(distance + 1)
        } else {
            Value::Loss(distance + 1)
        }
        .encode();
        let mut next: Vec<u32> = level
            .par_iter()
            .with_min_len(1 << 8)
            .fold(Vec::new, |mut next, &packed| {
                let (mover, other) = unpack(packed);
                for_each_predecessor(mover, other, |before_mover, before_other| {
                    let before = index::index(before_mover, before_other);
                    let settled = if lost {
                        values[before]
                            .compare_exchange(0, parent, Relaxed, Relaxed)
                            .is_ok()
                    } else if values[before].load(Relaxed) == 0
                        && unsettled[before].fetch_sub(1, Relaxed) == 1
                    {
                        values[before].store(parent, Relaxed);
                        true
                    } else {
                        false
                    };
                    if settled {
                        next.push(pack(before_mover, before_other));
                    }
                });
                next
            })
            .reduce(Vec::new, |mut a, b| {
                a.extend(b);
                a
            });
        next.extend(finishing.take().unwrap_or_default());
        level = next;
        distance += 1;
    }
    values.into_iter().map(AtomicU8::into_inner).collect()
}

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

use super::super::board::{Move, capture_at};
use super::index::{self, MAX_PIECES, MIN_PIECES, SIZE};
use super::{Value, mover_position};
use crate::core::MoveList;
use rayon::prelude::*;
use std::sync::atomic::{AtomicU8, Ordering::Relaxed};

/// The points one step from each square.
const NEIGHBOURS: [u16; 16] = squares_within(1);
/// The points one or two steps from each square along its rank or file: where a step to
/// that square can capture.
const IN_REACH: [u16; 16] = squares_within(2);

const fn squares_within(reach: i32) -> [u16; 16] {
    let mut table = [0u16; 16];
    let mut square = 0;
    while square < 16 {
        let (file, rank) = ((square % 4) as i32, (square / 4) as i32);
        let mut d = 1;
        while d <= reach {
            let mut i = 0;
            while i < 4 {
                let (f, r) = match i {
                    0 => (file + d, rank),
                    1 => (file - d, rank),
                    2 => (file, rank + d),
                    _ => (file, rank - d),
                };
                if f >= 0 && f < 4 && r >= 0 && r < 4 {
                    table[square] |= 1 << (r * 4 + f);
                }
                i += 1;
            }
            d += 1;
        }
        square += 1;
    }
    table
}

/// Calls `f` with the entry of every position one move before `(mover, other)`, where
/// `other` has just moved: each of its pieces stepped back, with or without an enemy
/// piece restored that the step captured. A candidate counts only when the step played
/// forwards captures exactly what was restored (nothing, or that piece), so the edges
/// found backwards are the legal moves, each once.
pub(super) fn for_each_predecessor(mover: u16, other: u16, mut f: impl FnMut(usize)) {
    let empty = !(mover | other);
    let can_restore = mover.count_ones() < MAX_PIECES;
    let mut arrived = other;
    while arrived != 0 {
        let to = arrived.trailing_zeros() as u8;
        arrived &= arrived - 1;
        // Neither test depends on where the piece came from: the origin is empty after
        // the step, as it is here.
        let quiet = capture_at(other, mover, to) == Move::NO_CAPTURE;
        let mut victims = 0u16;
        if can_restore {
            let mut candidates = IN_REACH[usize::from(to)] & empty;
            while candidates != 0 {
                let victim = candidates.trailing_zeros() as u8;
                candidates &= candidates - 1;
                if capture_at(other, mover | 1 << victim, to) == victim {
                    victims |= 1 << victim;
                }
            }
        }
        let mut origins = NEIGHBOURS[usize::from(to)] & empty;
        while origins != 0 {
            let from = origins.trailing_zeros();
            origins &= origins - 1;
            let before = other ^ (1 << from | 1 << to);
            if quiet {
                f(index::index(before, mover));
            }
            let mut restored = victims & !(1 << from);
            while restored != 0 {
                let victim = restored & restored.wrapping_neg();
                restored &= restored - 1;
                f(index::index(before, mover | victim));
            }
        }
    }
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
                    stuck.push(entry as u32);
                } else if other.count_ones() == MIN_PIECES && moves.iter().any(|m| m.is_capture()) {
                    values[entry].store(Value::Win(1).encode(), Relaxed);
                    finishing.push(entry as u32);
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
            .fold(Vec::new, |mut next, &entry| {
                let (mover, other) = index::position(entry as usize);
                for_each_predecessor(mover, other, |before| {
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
                        next.push(before as u32);
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

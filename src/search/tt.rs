//! The transposition table, shared without locks by every search thread (Lazy SMP).
//!
//! Each entry is two `AtomicU64`s: the packed data and `key ^ data`. A reader accepts an
//! entry only when `stored_key ^ data == key`, so an entry torn by two threads writing at
//! once reads as a miss instead of as another position's data (the "xor trick" of Hyatt
//! and Mann). Entries come in buckets of two: one kept by depth, one always replaced.

use crate::core::{MATE_BOUND, Score};
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

/// What a stored score means relative to the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true value is at least the score (a beta cut-off).
    Lower,
    /// The true value is at most the score (every move failed low).
    Upper,
    /// The score is exact (a PV node).
    Exact,
}

/// A decoded entry.
#[derive(Clone, Copy, Debug)]
pub struct TtHit {
    /// The best or refuting move's `Game::move_index`, if one was found.
    pub move_code: Option<u32>,
    /// Score, with mate distances counted from the node that stored it.
    pub score: Score,
    pub depth: i32,
    pub bound: Bound,
}

#[derive(Default)]
struct Entry {
    key_xor_data: AtomicU64,
    data: AtomicU64,
}

// Packed data layout (64 bits):
//   bits  0..24  move code + 1 (0 = no move)
//   bits 24..40  score as i16
//   bits 40..48  depth as u8 (depth + 1 so that quiescence's depth 0 entries differ from empty)
//   bits 48..50  bound (1 lower, 2 upper, 3 exact; 0 = empty slot)
//   bits 50..56  generation (search counter mod 64), for ageing out stale entries
const MOVE_BITS: u64 = (1 << 24) - 1;

fn pack(move_code: Option<u32>, score: Score, depth: i32, bound: Bound, generation: u8) -> u64 {
    let mv = move_code.map_or(0, |c| (c as u64 + 1) & MOVE_BITS);
    let score = (score.clamp(i16::MIN as Score, i16::MAX as Score) as i16 as u16) as u64;
    let depth = (depth + 1).clamp(0, 255) as u64;
    let bound = match bound {
        Bound::Lower => 1,
        Bound::Upper => 2,
        Bound::Exact => 3,
    };
    mv | score << 24 | depth << 40 | bound << 48 | ((generation & 63) as u64) << 50
}

fn unpack(data: u64) -> Option<TtHit> {
    let bound = match (data >> 48) & 3 {
        1 => Bound::Lower,
        2 => Bound::Upper,
        3 => Bound::Exact,
        _ => return None,
    };
    let mv = data & MOVE_BITS;
    Some(TtHit {
        move_code: (mv != 0).then(|| (mv - 1) as u32),
        score: ((data >> 24) & 0xFFFF) as u16 as i16 as Score,
        depth: ((data >> 40) & 0xFF) as i32 - 1,
        bound,
    })
}

fn generation_of(data: u64) -> u8 {
    ((data >> 50) & 63) as u8
}

/// Two entries, aligned to their size so that a bucket never straddles two cache lines:
/// a probe costs at most one miss.
#[derive(Default)]
#[repr(align(32))]
struct Bucket([Entry; 2]);

/// A table's memory from [`TranspositionTable::try_reserve`], not yet filled.
pub struct Reserved {
    buckets: Vec<Bucket>,
    count: usize,
}

impl Reserved {
    /// Fills the reserved memory with empty buckets: the table.
    pub fn build(mut self) -> TranspositionTable {
        self.buckets.resize_with(self.count, Bucket::default);
        TranspositionTable {
            buckets: self.buckets,
            generation: AtomicU8::new(0),
        }
    }
}

/// The shared table. Sized in MB by the `Hash` option.
pub struct TranspositionTable {
    buckets: Vec<Bucket>,
    generation: AtomicU8,
}

const BUCKET_BYTES: usize = std::mem::size_of::<Bucket>();

impl TranspositionTable {
    /// A table of about `mb` megabytes (at least one bucket). Panics if the memory cannot
    /// be had; [`TranspositionTable::try_new`] is for sizes a user asked for.
    pub fn new(mb: usize) -> Self {
        Self::try_new(mb).expect("memory for the transposition table")
    }

    /// A table of about `mb` megabytes, or an error when the memory cannot be had (a `Hash`
    /// value larger than the machine must not bring the engine down).
    pub fn try_new(mb: usize) -> Result<Self, String> {
        Self::try_reserve(mb).map(Reserved::build)
    }

    /// The memory of a table of about `mb` megabytes, reserved but not yet written: the
    /// quick half of [`TranspositionTable::try_new`], so the protocol can refuse a size
    /// before it disturbs a running search, and stop that search before the slow half.
    pub fn try_reserve(mb: usize) -> Result<Reserved, String> {
        let count = (mb.max(1).saturating_mul(1024 * 1024) / BUCKET_BYTES).max(1);
        let mut buckets = Vec::new();
        buckets
            .try_reserve_exact(count)
            .map_err(|_| format!("cannot allocate {mb} MB for the hash table"))?;
        Ok(Reserved { buckets, count })
    }

    /// Forgets every entry (`ucinewgame`, `Clear Hash`, a fresh bench position).
    pub fn clear(&self) {
        for entry in self.buckets.iter().flat_map(|b| &b.0) {
            entry.data.store(0, Ordering::Relaxed);
            entry.key_xor_data.store(0, Ordering::Relaxed);
        }
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Starts a new search: older entries become preferred victims.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    fn bucket(&self, key: u64) -> &[Entry; 2] {
        let index = ((key as u128) * (self.buckets.len() as u128)) >> 64;
        &self.buckets[index as usize].0
    }

    /// Asks the processor to fetch `key`'s bucket now, so that the probe which follows a
    /// little later (after a move is made) finds it in the cache.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let bucket: *const [Entry; 2] = self.bucket(key);
            // SAFETY: a prefetch is only a hint; it neither reads nor writes memory as the
            // program sees it, and the address is that of a live bucket anyway.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(bucket.cast::<i8>()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The entry stored for `key`, if any.
    pub fn probe(&self, key: u64) -> Option<TtHit> {
        self.bucket(key).iter().find_map(|entry| {
            let data = entry.data.load(Ordering::Relaxed);
            let check = entry.key_xor_data.load(Ordering::Relaxed);
            if check ^ data == key {
                unpack(data)
            } else {
                None
            }
        })
    }

    /// Stores a search result. The first slot of a bucket keeps the deepest current entry,
    /// the second takes whatever the first refused.
    pub fn store(&self, key: u64, move_code: Option<u32>, score: Score, depth: i32, bound: Bound) {
        let generation = self.generation.load(Ordering::Relaxed) & 63;
        let [first, second] = self.bucket(key);
        let old = first.data.load(Ordering::Relaxed);
        let same_key = first.key_xor_data.load(Ordering::Relaxed) ^ old == key;
        let keep_first = match unpack(old) {
            None => false,
            Some(hit) => {
                !same_key
                    && generation_of(old) == generation
                    && hit.depth > depth
                    && bound != Bound::Exact
            }
        };
        let slot = if keep_first { second } else { first };
        // Keep the old move when the new result has none for the same position.
        let move_code = move_code.or_else(|| {
            let data = slot.data.load(Ordering::Relaxed);
            let same = slot.key_xor_data.load(Ordering::Relaxed) ^ data == key;
            if same {
                unpack(data).and_then(|hit| hit.move_code)
            } else {
                None
            }
        });
        let data = pack(move_code, score, depth, bound, generation);
        slot.data.store(data, Ordering::Relaxed);
        slot.key_xor_data.store(key ^ data, Ordering::Relaxed);
    }

    /// Permille of a sample of entries written by the current search (UCI `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let generation = self.generation.load(Ordering::Relaxed) & 63;
        let sample = self.buckets.len().min(500);
        let used = self.buckets[..sample]
            .iter()
            .flat_map(|b| &b.0)
            .filter(|e| {
                let data = e.data.load(Ordering::Relaxed);
                unpack(data).is_some() && generation_of(data) == generation
            })
            .count();
        (used * 1000 / (2 * sample)) as u32
    }
}

/// Mate scores are stored relative to the node, not the root, so that a transposition
/// reached at another ply reads the right distance.
pub fn score_to_tt(score: Score, ply: usize) -> Score {
    if score > MATE_BOUND {
        score + ply as Score
    } else if score < -MATE_BOUND {
        score - ply as Score
    } else {
        score
    }
}

/// The inverse of [`score_to_tt`].
pub fn score_from_tt(score: Score, ply: usize) -> Score {
    if score > MATE_BOUND {
        score - ply as Score
    } else if score < -MATE_BOUND {
        score + ply as Score
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_and_probe_round_trip() {
        let tt = TranspositionTable::new(1);
        let key = 0x1234_5678_9abc_def0;
        assert!(tt.probe(key).is_none());
        tt.store(key, Some(77), -1234, 9, Bound::Lower);
        let hit = tt.probe(key).expect("stored entry");
        assert_eq!(hit.move_code, Some(77));
        assert_eq!(hit.score, -1234);
        assert_eq!(hit.depth, 9);
        assert_eq!(hit.bound, Bound::Lower);
        assert!(tt.probe(key ^ 1).is_none());
        tt.clear();
        assert!(tt.probe(key).is_none());
    }

    #[test]
    fn quiescence_depth_and_empty_moves_survive_packing() {
        let tt = TranspositionTable::new(1);
        tt.store(42, None, 0, 0, Bound::Exact);
        let hit = tt.probe(42).expect("stored entry");
        assert_eq!(
            (hit.move_code, hit.depth, hit.bound),
            (None, 0, Bound::Exact)
        );
    }

    #[test]
    fn mate_scores_are_node_relative() {
        let at_root = crate::core::mate_in(7);
        assert_eq!(score_from_tt(score_to_tt(at_root, 3), 3), at_root);
        assert_eq!(score_to_tt(at_root, 3), crate::core::mate_in(4));
    }
}

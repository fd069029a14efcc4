//! The dark game as the engine plays it. [`Knowledge`] is what the seat to move knows
//! (the information state and a sampler of its worlds). It hangs on the position the
//! protocol keeps, so the generic search plays on worlds drawn from it
//! ([`crate::core::Hidden`]) and never on ranks it was not told.

use super::{Evidence, InfoState, Sampler};
use crate::core::Hidden;
use crate::games::junqi::Position;
use crate::games::junqi::board::{SEAT_NAMES, STATIONS, name};
use crate::games::junqi::position::{RANKS, rank_of};
use rand::SeedableRng;
use rand::rngs::StdRng;

/// Salt of the sampler's seeds, so that the worlds of one `go` differ from batch to batch
/// but repeat from run to run.
const SEED: u64 = 0x6461_726b_776f_726c; // "darkworl"

/// What the seat to move knows, and how to draw worlds from it.
#[derive(Debug)]
pub struct Knowledge {
    state: InfoState,
    sampler: Sampler,
    /// The log-weight all weights are taken relative to, the same for every batch of
    /// one `go`: the search sums weights over batches, so each batch may not be scaled
    /// on its own.
    reference: f64,
}

impl Knowledge {
    pub fn new(state: InfoState, evidence: &Evidence) -> Knowledge {
        let sampler = state.sampler(evidence);
        let reference = sampler.sample(&mut StdRng::seed_from_u64(SEED)).log_weight;
        Knowledge {
            state,
            sampler,
            reference,
        }
    }

    pub fn state(&self) -> &InfoState {
        &self.state
    }

    /// A world for the protocol's own use (legal moves, queries, `d`): the public facts
    /// and the moves of the seats the engine was given are the same in every world.
    pub fn representative(&self) -> Position {
        let mut rng = StdRng::seed_from_u64(SEED);
        self.state.world(&self.sampler.sample(&mut rng).ranks)
    }

    /// Whether the rank of the piece on `station` is certain: one of the engine's own, or
    /// a hidden one the record has pinned down (a public flag, say).
    pub fn knows_rank(&self, station: usize) -> bool {
        self.state
            .occupant(station)
            .is_none_or(|piece| self.state.domain(piece).single().is_some())
    }

    /// What `d` adds in the dark game: for every hidden piece on the board, the ranks it
    /// may have and how likely each is over a sample of worlds (those of 0.5% or more,
    /// likeliest first).
    pub fn describe(&self) -> String {
        const WORLDS: usize = 256;
        let worlds = self.sample(WORLDS, u64::MAX);
        let total: f64 = worlds.iter().map(|(_, w)| w).sum();
        let mut text = format!("hidden pieces (possible ranks; odds over {WORLDS} worlds):\n");
        for station in 0..STATIONS {
            let Some(piece) = self.state.occupant(station) else {
                continue;
            };
            if self.state.is_known(piece.seat()) {
                continue;
            }
            let mut odds = [0.0; RANKS];
            for (world, weight) in &worlds {
                odds[usize::from(rank_of(world.piece(station)))] += weight / total.max(1e-300);
            }
            let mut likely: Vec<usize> = (0..RANKS).filter(|&r| odds[r] >= 0.005).collect();
            likely.sort_by(|&a, &b| odds[b].total_cmp(&odds[a]));
            let likely: Vec<String> = likely
                .iter()
                .map(|&r| format!("{}{:.0}%", char::from(b'a' + r as u8), 100.0 * odds[r]))
                .collect();
            text.push_str(&format!(
                "  {} {} {} {}\n",
                name(station),
                SEAT_NAMES[piece.seat()],
                self.state.domain(piece),
                likely.join(" ")
            ));
        }
        text
    }
}

impl Hidden<Position> for Knowledge {
    fn sample(&self, count: usize, seed: u64) -> Vec<(Position, f64)> {
        let mut rng = StdRng::seed_from_u64(SEED ^ seed.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        // Importance weights on one scale for all batches (the search normalises them).
        (0..count)
            .map(|_| {
                let s = self.sampler.sample(&mut rng);
                let weight = (s.log_weight - self.reference).clamp(-700.0, 700.0).exp();
                (self.state.world(&s.ranks), weight)
            })
            .collect()
    }

    fn knows_mover(&self) -> bool {
        self.state.is_known(self.state.side_to_move())
    }
}

//! The dark game as the engine plays it. [`Knowledge`] is what the seat to move knows
//! (the information state and a sampler of its worlds). The protocol keeps it beside the
//! position it was told ([`crate::core::Told`]), so the generic search plays on worlds
//! drawn from it ([`crate::core::Hidden`]) and never on ranks it was not told.

use super::{Chain, Evidence, InfoState, Sampler};
use crate::core::Hidden;
use crate::games::junqi::Position;
use crate::games::junqi::board::{SEAT_NAMES, STATIONS, name};
use crate::games::junqi::notation::diagram;
use crate::games::junqi::position::{RANKS, rank_of};
use rand::SeedableRng;
use rand::rngs::StdRng;
use std::any::Any;
use std::sync::Mutex;

/// Salt of the sampler's seeds, so that the worlds of one `go` differ from batch to batch
/// but repeat from run to run (the same commands give the same worlds).
const SEED: u64 = 0x6461_726b_776f_726c; // "darkworl"

/// What the seat to move knows, and how to draw worlds from it.
#[derive(Debug)]
pub struct Knowledge {
    state: InfoState,
    sampler: Sampler,
    /// The state of the sampler's chain ([`Sampler::draw`]), carried from one batch of
    /// worlds to the next; `None` until the first is asked for.
    chain: Mutex<Option<Chain>>,
}

impl Knowledge {
    pub fn new(state: InfoState, evidence: &Evidence) -> Knowledge {
        let sampler = state.sampler(evidence);
        Knowledge {
            state,
            sampler,
            chain: Mutex::new(None),
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
    fn knows_rank(&self, station: usize) -> bool {
        self.state
            .occupant(station)
            .is_none_or(|piece| self.state.domain(piece).single().is_some())
    }

    /// What `d` adds in the dark game: for every hidden piece on the board, the ranks it
    /// may have and how likely each is over a sample of worlds (those of 0.5% or more,
    /// likeliest first).
    pub fn describe(&self) -> String {
        const WORLDS: usize = 256;
        // A chain of its own, so that `d` shows the same odds each time it is asked.
        let mut rng = StdRng::seed_from_u64(SEED);
        let mut chain = self.sampler.chain(&mut rng);
        let worlds: Vec<Position> = self
            .sampler
            .draw(&mut chain, WORLDS, &mut rng)
            .iter()
            .map(|ranks| self.state.world(ranks))
            .collect();
        let mut text = format!("hidden pieces (possible ranks; odds over {WORLDS} worlds):\n");
        for station in 0..STATIONS {
            let Some(piece) = self.state.occupant(station) else {
                continue;
            };
            if self.state.is_known(piece.seat()) {
                continue;
            }
            let mut odds = [0.0; RANKS];
            for world in &worlds {
                odds[usize::from(rank_of(world.piece(station)))] += 1.0 / WORLDS as f64;
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
        let mut chain = self
            .chain
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let state = chain.get_or_insert_with(|| self.sampler.chain(&mut rng));
        self.sampler
            .draw(state, count, &mut rng)
            .iter()
            .map(|ranks| (self.state.world(ranks), 1.0))
            .collect()
    }

    /// The chain's state: the next position's worlds go on from its world.
    fn handover(&self) -> Option<Box<dyn Any + Send>> {
        let chain = self.chain.lock().unwrap_or_else(|e| e.into_inner());
        chain.clone().map(|c| Box::new(c) as Box<dyn Any + Send>)
    }

    /// Goes on from the earlier chain's world when it still meets every hard fact (a
    /// combat since may have ruled it out): its burn-in is already done.
    fn take_over(&self, earlier: Box<dyn Any + Send>) {
        let Ok(earlier) = earlier.downcast::<Chain>() else {
            return;
        };
        match self.sampler.resume(&earlier) {
            Some(resumed) => {
                log::debug!("the chain of worlds goes on from the position before");
                *self.chain.lock().unwrap_or_else(|e| e.into_inner()) = Some(resumed);
            }
            None => log::debug!("the record rules out the chain's world: a new chain"),
        }
    }

    fn knows_mover(&self) -> bool {
        self.state.is_known(self.state.side_to_move())
    }

    /// The public board with the ranks the engine knows, then what is known of every
    /// hidden piece.
    fn display(&self) -> String {
        diagram(&self.representative(), &|station| self.knows_rank(station)) + &self.describe()
    }
}

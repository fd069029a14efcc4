//! What a search thread learns about moves rather than positions, and keeps from one
//! search to the next: the history of quiet moves, the countermoves, the continuation
//! histories, and the killers' update when a quiet move refutes the opponent.

use super::worker::Worker;
use crate::core::{Evaluator, Game};

/// History scores stay within this magnitude (the "gravity" update keeps them bounded).
pub(super) const HISTORY_MAX: i32 = 1 << 14;

/// What a search thread learns about moves rather than positions: which quiet moves cut
/// off, and which refuted the opponent's last move. That stays true from one move of a
/// game to the next, so the engine keeps it between searches, as it keeps the
/// transposition table, and a new game starts it afresh.
pub struct Histories<G: Game> {
    /// The quiet move that last refuted each move (by `move_index` of the refuted move).
    pub(super) countermoves: Vec<Option<G::Move>>,
    /// Indexed by `player * G::MOVE_INDEX_SIZE + G::move_index(mv)`.
    pub(super) history: Vec<i32>,
    /// Continuation histories: how a quiet move did after the move one or two plies
    /// before it, a table for each distance, by `earlier * G::PIECE_TO_SIZE + later` of
    /// their [`Game::piece_to`] indexes.
    pub(super) continuation: Vec<i16>,
}

impl<G: Game> Default for Histories<G> {
    fn default() -> Self {
        Histories {
            countermoves: vec![None; G::MOVE_INDEX_SIZE],
            history: vec![0; 4 * G::MOVE_INDEX_SIZE],
            continuation: vec![0; 2 * G::PIECE_TO_SIZE * G::PIECE_TO_SIZE],
        }
    }
}

impl<G: Game> Histories<G> {
    /// Forgets everything learnt, keeping the tables.
    pub(super) fn clear(&mut self) {
        self.countermoves.fill(None);
        self.history.fill(0);
        self.continuation.fill(0);
    }
}

impl<'a, G: Game, E: Evaluator<G>> Worker<'a, G, E> {
    /// The move that led to the node at `ply`, if it was a real move.
    pub(super) fn previous_move(&self, ply: usize) -> Option<G::Move> {
        ply.checked_sub(1)
            .and_then(|p| self.played[p])
            .map(|(mv, _)| mv)
    }

    /// A quiet move refuted the opponent: remember it as a killer and raise its history,
    /// lowering the quiet moves tried before it.
    pub(super) fn reward_quiet(
        &mut self,
        mv: G::Move,
        player: usize,
        depth: i32,
        ply: usize,
        tried: &[G::Move],
    ) {
        let killers = &mut self.killers[ply];
        if killers[0] != Some(mv) {
            killers[1] = killers[0];
            killers[0] = Some(mv);
        }
        if let Some(prev) = self.previous_move(ply) {
            self.histories.countermoves[G::move_index(prev)] = Some(mv);
        }
        let bonus = (16 * depth * depth).min(HISTORY_MAX / 2);
        let base = player * G::MOVE_INDEX_SIZE;
        update_history(&mut self.histories.history[base + G::move_index(mv)], bonus);
        self.update_continuation(ply, self.pos.piece_to(mv), bonus);
        for &other in tried {
            if !self.pos.is_capture(other) {
                update_history(
                    &mut self.histories.history[base + G::move_index(other)],
                    -bonus,
                );
                self.update_continuation(ply, self.pos.piece_to(other), -bonus);
            }
        }
    }

    /// Where the continuation histories of the moves one and two plies before `ply` begin,
    /// where those were real moves. Each distance has its table: piece_to indexes are
    /// seen from the mover's side, so "their knight to f6, then ..." one ply back and "our
    /// knight to f3, then ..." two plies back have the same index.
    fn continuation_rows(&self, ply: usize) -> [Option<usize>; 2] {
        let size = G::PIECE_TO_SIZE;
        let row = |back: usize| {
            let (_, earlier) = self.played[ply.checked_sub(back)?]?;
            let earlier = earlier as usize;
            Some((back - 1) * size * size + earlier * size)
        };
        if size == 0 {
            [None; 2]
        } else {
            [row(1), row(2)]
        }
    }

    /// How a move to `piece_to` did after the moves one and two plies back.
    pub(super) fn continuation_score(&self, ply: usize, piece_to: usize) -> i32 {
        self.continuation_rows(ply)
            .into_iter()
            .flatten()
            .map(|row| i32::from(self.histories.continuation[row + piece_to]))
            .sum()
    }

    fn update_continuation(&mut self, ply: usize, piece_to: usize, bonus: i32) {
        for row in self.continuation_rows(ply).into_iter().flatten() {
            let entry = &mut self.histories.continuation[row + piece_to];
            let mut value = i32::from(*entry);
            update_history(&mut value, bonus);
            *entry = value as i16;
        }
    }
}

/// History "gravity": the closer to the bound, the smaller the step, so values stay bounded
/// and recent evidence weighs more.
fn update_history(entry: &mut i32, bonus: i32) {
    *entry += bonus - *entry * bonus.abs() / HISTORY_MAX;
}

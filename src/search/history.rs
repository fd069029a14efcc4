//! What a search thread learns about moves that stays true from one search to the next
//! of the same game: which quiet moves have refuted, and which reply answered a move.
//!
//! The positions of consecutive moves of a game are alike, so what the last search
//! learnt orders the next one's moves well from its first node; a thread that started
//! every search from empty tables would spend its first thousands of nodes relearning
//! it, most of a fast game's budget. The engine keeps one [`Histories`] per search thread
//! between searches and forgets them when a new game starts.

use crate::core::Game;

/// History scores stay within this magnitude (the "gravity" update keeps them bounded).
pub(super) const HISTORY_MAX: i32 = 1 << 14;

/// One search thread's move-ordering tables.
pub struct Histories<G: Game> {
    /// Indexed by `player * G::MOVE_INDEX_SIZE + G::move_index(mv)`.
    quiet: Vec<i32>,
    /// The quiet move that last refuted each move (by `move_index` of the refuted move).
    countermoves: Vec<Option<G::Move>>,
}

impl<G: Game> Default for Histories<G> {
    fn default() -> Self {
        Histories {
            quiet: vec![0; 4 * G::MOVE_INDEX_SIZE],
            countermoves: vec![None; G::MOVE_INDEX_SIZE],
        }
    }
}

impl<G: Game> Histories<G> {
    /// What quiet move `mv` of `player` has been worth.
    #[inline]
    pub(super) fn quiet(&self, player: usize, mv: G::Move) -> i32 {
        self.quiet[player * G::MOVE_INDEX_SIZE + G::move_index(mv)]
    }

    /// Moves the quiet history of `mv` by `bonus` (negative for a move that failed).
    pub(super) fn update_quiet(&mut self, player: usize, mv: G::Move, bonus: i32) {
        update(
            &mut self.quiet[player * G::MOVE_INDEX_SIZE + G::move_index(mv)],
            bonus,
        );
    }

    /// The reply that last refuted `previous`.
    #[inline]
    pub(super) fn countermove(&self, previous: G::Move) -> Option<G::Move> {
        self.countermoves[G::move_index(previous)]
    }

    pub(super) fn set_countermove(&mut self, previous: G::Move, reply: G::Move) {
        self.countermoves[G::move_index(previous)] = Some(reply);
    }
}

/// History "gravity": the closer to the bound, the smaller the step, so values stay
/// bounded and recent evidence weighs more.
fn update(entry: &mut i32, bonus: i32) {
    *entry += bonus - *entry * bonus.abs() / HISTORY_MAX;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::chess::Position;

    #[test]
    fn quiet_scores_stay_bounded_and_follow_recent_evidence() {
        let pos = Position::start_position();
        let mut moves = crate::core::MoveList::new();
        pos.legal_moves(&mut moves);
        let (a, b) = (moves[0], moves[1]);
        let mut histories = Histories::<Position>::default();
        for _ in 0..1000 {
            histories.update_quiet(0, a, HISTORY_MAX / 2);
        }
        let high = histories.quiet(0, a);
        assert!(high > HISTORY_MAX / 2 && high <= HISTORY_MAX, "{high}");
        assert_eq!(histories.quiet(1, a), 0, "the other player's table moved");
        assert_eq!(histories.quiet(0, b), 0, "another move's entry moved");
        histories.update_quiet(0, a, -HISTORY_MAX / 2);
        assert!(
            histories.quiet(0, a) < high / 2 + 1,
            "a failure barely counted"
        );
    }
}

//! Exact knowledge of positions (a solved game, an endgame table) that the engine consults
//! at the root before it searches. The search stays generic: it never sees the oracle,
//! only the line it proved or the moves it allows.

use super::{Game, OptionSpec, Score};

/// What an oracle says about a root position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict<M> {
    /// Perfect play is known: play the first move of `pv`. `score` is exact, from the side
    /// to move's view (a mate score, or 0 for a draw), and `pv` is the line.
    Play { score: Score, pv: Vec<M> },
    /// The oracle knows which moves keep the position's value but not which of them is best
    /// under the rules that decide drawn games (piece count at the time limit, say): the
    /// search chooses, among these only.
    SearchAmong(Vec<M>),
}

/// A source of [`Verdict`]s, with the engine options that control it.
pub trait Oracle<G: Game>: Send {
    /// Options the oracle adds to the engine's, declared after the handshake.
    fn options(&self) -> Vec<OptionSpec>;
    /// Applies one of [`Oracle::options`], its value already checked against the declaration.
    fn set_option(&mut self, name: &str, value: &str);
    /// Starts getting ready (loading or building what it knows) without waiting for it.
    fn prepare(&self);
    /// Blocks until ready, for `isready`.
    fn wait_ready(&self);
    /// The verdict on `pos` with the root moves limited to `searchmoves` (all when empty);
    /// `None` when the oracle does not know, is switched off or is not ready yet.
    fn probe(&self, pos: &G, searchmoves: &[G::Move]) -> Option<Verdict<G::Move>>;
}

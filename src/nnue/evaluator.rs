//! The adapter that makes a network a game's [`Evaluator`]: the network `EvalFile` names,
//! or the hand-written evaluation, which also keeps answering everything a network does
//! not (move ordering, margins, the win/draw/loss model).

use super::accumulator::Accumulators;
use super::{Features, Network};
use crate::core::{EloScale, Evaluator, MATE_BOUND, MoveList, OptionKind, OptionSpec, Score};
use std::marker::PhantomData;
use std::sync::Arc;

/// The option that names a network file.
const EVAL_FILE: &str = "EvalFile";
/// What `EvalFile` says when no network is loaded.
const NO_FILE: &str = "<empty>";

/// A game's evaluation: the network `EvalFile` names (by default the built-in one, if the
/// game has one), or the hand-written `H` when `EvalFile` is empty. Quiescence, move
/// ordering, pruning margins and the win/draw/loss model are the hand-written
/// evaluation's either way.
pub struct NetworkEval<G, H> {
    network: Option<Arc<Network>>,
    hand_written: H,
    game: PhantomData<fn(&G)>,
}

impl<G, H: Clone> Clone for NetworkEval<G, H> {
    fn clone(&self) -> Self {
        NetworkEval {
            network: self.network.clone(),
            hand_written: self.hand_written.clone(),
            game: PhantomData,
        }
    }
}

impl<G: Features, H: Default> Default for NetworkEval<G, H> {
    /// The built-in network, or the hand-written evaluation for a game without one.
    fn default() -> Self {
        NetworkEval {
            network: G::built_in().map(|(_, network)| network),
            hand_written: H::default(),
            game: PhantomData,
        }
    }
}

impl<G: Features, H: Default> NetworkEval<G, H> {
    /// The engine's evaluation with `network`.
    pub fn with_network(network: Network) -> Self {
        NetworkEval {
            network: Some(Arc::new(network)),
            hand_written: H::default(),
            game: PhantomData,
        }
    }

    /// The hand-written evaluation alone.
    pub fn hand_written() -> Self {
        NetworkEval {
            network: None,
            hand_written: H::default(),
            game: PhantomData,
        }
    }

    /// The network played with, if any.
    pub fn network(&self) -> Option<&Arc<Network>> {
        self.network.as_ref()
    }
}

/// A network's score kept clear of the mate scores.
fn bounded(score: Score) -> Score {
    score.clamp(-(MATE_BOUND - 1), MATE_BOUND - 1)
}

impl<G, H> Evaluator<G> for NetworkEval<G, H>
where
    G: Features,
    H: Evaluator<G, State = ()> + Clone + Default,
{
    type State = Option<Accumulators<G>>;

    fn new_state(&self, root: &G) -> Self::State {
        self.network
            .as_ref()
            .map(|network| Accumulators::new(network, root))
    }

    #[inline]
    fn make(&self, state: &mut Self::State, pos: &G, mv: Option<G::Move>) {
        if let Some(acc) = state {
            acc.push(pos, mv);
        }
    }

    #[inline]
    fn unmake(&self, state: &mut Self::State) {
        if let Some(acc) = state {
            acc.pop();
        }
    }

    fn evaluate(&self, pos: &G) -> Score {
        match &self.network {
            Some(network) => bounded(network.evaluate(pos)),
            None => self.hand_written.evaluate(pos),
        }
    }

    fn evaluate_with(&self, pos: &G, state: &mut Self::State) -> Score {
        match (&self.network, state) {
            (Some(network), Some(acc)) => bounded(acc.evaluate(network, pos)),
            _ => self.evaluate(pos),
        }
    }

    fn noisy_moves(&self, pos: &G, moves: &mut MoveList<G::Move>) {
        self.hand_written.noisy_moves(pos, moves)
    }

    fn exchange(&self, pos: &G, mv: G::Move) -> Option<Score> {
        self.hand_written.exchange(pos, mv)
    }

    fn good_capture(&self, pos: &G, mv: G::Move) -> bool {
        self.hand_written.good_capture(pos, mv)
    }

    fn futility_margin(&self, depth: i32) -> Option<Score> {
        self.hand_written.futility_margin(depth)
    }

    fn capture_order(&self, pos: &G, mv: G::Move) -> Score {
        self.hand_written.capture_order(pos, mv)
    }

    fn options(&self) -> Vec<OptionSpec> {
        vec![OptionSpec {
            name: EVAL_FILE,
            kind: OptionKind::Text {
                default: G::built_in().map_or(NO_FILE, |(name, _)| name),
            },
        }]
    }

    /// The model is fitted to games of the hand-written evaluation; a network's scores are
    /// read by it too until one is fitted to its own games.
    fn win_draw_loss(&self, pos: &G, score: Score) -> Option<[u32; 3]> {
        self.hand_written.win_draw_loss(pos, score)
    }

    /// Measured with the hand-written evaluation, which [`Evaluator::strength_limited`]
    /// therefore plays with.
    fn elo_scale(&self) -> Option<EloScale> {
        self.hand_written.elo_scale()
    }

    fn strength_limited(&self) -> Option<Self> {
        self.network.is_some().then(Self::hand_written)
    }

    fn configured(&self, name: &str, value: &str) -> Result<Self, String> {
        if name != EVAL_FILE {
            return Err(format!(
                "the evaluation has no option {}",
                crate::core::quote(name)
            ));
        }
        let path = value.trim();
        if path.is_empty() || path == NO_FILE {
            return Ok(Self::hand_written());
        }
        if let Some((name, _)) = G::built_in()
            && path == name
            && !std::path::Path::new(path).exists()
        {
            return Ok(Self::default());
        }
        // The whole path, unlike other echoed tokens: it is what the user must correct.
        let bytes = std::fs::read(path).map_err(|e| format!("EvalFile '{path}': {e}"))?;
        let network = Network::from_bytes(&bytes, G::INPUTS)
            .map_err(|e| format!("EvalFile '{path}': {e}"))?;
        Ok(Self::with_network(network))
    }
}

//! Checks of the network code, and helpers the games' network tests share.

use super::*;
use crate::core::{Evaluator, MoveList, Score};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

/// A network of small random weights for a game of `inputs` inputs, with `hidden`
/// units per view.
pub(crate) fn random_network(seed: u64, inputs: usize, hidden: usize) -> Network {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut draw =
        |n: usize, range: i16| (0..n).map(|_| rng.random_range(-range..=range)).collect();
    let feature_weights = draw(inputs * hidden, 40);
    let feature_bias = draw(hidden, 60);
    let output_weights = draw(2 * hidden, 60);
    let direct_weights = (0..inputs)
        .map(|_| rng.random_range(-90_000..=90_000))
        .collect();
    Network {
        hidden,
        feature_weights,
        feature_bias,
        output_weights,
        direct_weights,
        output_bias: 1234,
    }
}

/// Letters of one case in the other: the colours of FEN and SFEN pieces swapped.
pub(crate) fn swap_case(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_ascii_uppercase() {
                c.to_ascii_lowercase()
            } else {
                c.to_ascii_uppercase()
            }
        })
        .collect()
}

/// `a` and `b` are one position and the same turned round with the colours swapped:
/// the same to the side to move, so the network scores them alike (and not as the
/// start position, lest a network that scores everything alike pass).
pub(crate) fn check_turned_positions_agree<G: Features>(network: &Network, a: &str, b: &str) {
    let (a, b) = (G::from_notation(a).unwrap(), G::from_notation(b).unwrap());
    assert_ne!(a.to_notation(), b.to_notation());
    assert_eq!(network.evaluate(&a), network.evaluate(&b));
    assert_ne!(network.evaluate(&a), network.evaluate(&G::start_position()));
}

/// An evaluation with a network that checks at every evaluation that the search's
/// accumulators agree with a refresh from the whole position.
struct Checked<E>(E);

impl<G, H> Evaluator<G> for Checked<NetworkEval<G, H>>
where
    G: Features,
    H: Evaluator<G, State = ()> + Clone + Default,
{
    type State = Option<Accumulators<G>>;
    fn new_state(&self, root: &G) -> Self::State {
        self.0.new_state(root)
    }
    fn make(&self, state: &mut Self::State, pos: &G, mv: Option<G::Move>) {
        self.0.make(state, pos, mv);
    }
    fn unmake(&self, state: &mut Self::State) {
        self.0.unmake(state);
    }
    fn evaluate(&self, pos: &G) -> Score {
        self.0.evaluate(pos)
    }
    fn evaluate_with(&self, pos: &G, state: &mut Self::State) -> Score {
        let score = self.0.evaluate_with(pos, state);
        assert_eq!(score, self.0.evaluate(pos), "{}", pos.to_notation());
        score
    }
}

/// Searches from `pos` on one and two threads, null moves and all, checking the
/// accumulators at every evaluation: to depth 6 in a release build, to depth 3 in an
/// unoptimised one (`cargo test --lib`, the quick loop), where depth 6 takes minutes.
pub(crate) fn check_search_keeps_accumulators<G, H>(eval: NetworkEval<G, H>, pos: &G)
where
    G: Features,
    H: Evaluator<G, State = ()> + Clone + Default,
{
    let depth = if cfg!(debug_assertions) { 3 } else { 6 };
    assert!(eval.network().is_some());
    let checked = Checked(eval);
    for threads in [1, 2] {
        let tt = crate::search::TranspositionTable::new(4);
        let result = crate::search::search_to_depth(pos, &checked, &tt, depth, threads);
        assert!(result.best.is_some());
    }
}

/// Along random games (captures, promotions, drops, castling first, half the time),
/// the lazily updated sums give what a refresh from the whole position gives, at
/// every ply and after every move is taken back. Returns how many positions it checked.
pub(crate) fn check_updates_along_random_games<G: Features>(
    network: &Network,
    starts: &[&str],
    special: impl Fn(&G, G::Move) -> bool,
    seed: u64,
) -> usize {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut moves = MoveList::new();
    let mut checked = 0;
    let mut check = |acc: &mut Accumulators<G>, pos: &G| {
        assert_eq!(
            acc.evaluate(network, pos),
            network.evaluate(pos),
            "{}",
            pos.to_notation()
        );
        checked += 1;
    };
    for game in 0..60 {
        let mut pos = G::from_notation(starts[game % starts.len()]).unwrap();
        let mut acc = Accumulators::new(network, &pos);
        let mut line = Vec::new();
        for _ in 0..80 {
            moves.clear();
            pos.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            let mv = moves
                .iter()
                .copied()
                .find(|&m| rng.random_bool(0.5) && special(&pos, m))
                .unwrap_or(moves[rng.random_range(0..moves.len())]);
            acc.push(&pos, Some(mv));
            line.push((mv, pos.make_move(mv)));
            // Evaluate only now and then, so that several plies are brought up at once.
            if rng.random_bool(0.4) {
                check(&mut acc, &pos);
            }
        }
        while let Some((mv, undo)) = line.pop() {
            pos.unmake_move(mv, undo);
            acc.pop();
            if rng.random_bool(0.2) {
                check(&mut acc, &pos);
            }
        }
    }
    checked
}

#[test]
fn a_network_file_reads_back_and_bad_files_are_refused() {
    for hidden in [BLOCK, 128, MAX_HIDDEN] {
        let network = random_network(1, 100, hidden);
        assert_eq!(
            Network::from_bytes(&network.to_bytes(), 100).unwrap(),
            network
        );
    }
    let network = random_network(1, 100, 128);
    let bytes = network.to_bytes();
    assert!(Network::from_bytes(&bytes[..bytes.len() - 1], 100).is_err());
    let error = Network::from_bytes(&bytes, 101).unwrap_err().to_string();
    assert!(error.contains("another game"), "{error}");
    assert!(Network::from_bytes(b"NOTANETWORK", 100).is_err());
    for size in [0, 100, 2 * MAX_HIDDEN] {
        let mut other_size = bytes.clone();
        other_size[8..12].copy_from_slice(&(size as u32).to_le_bytes());
        let error = Network::from_bytes(&other_size, 100)
            .unwrap_err()
            .to_string();
        assert!(error.contains(&format!("{size} hidden units")), "{error}");
    }
    // Output weights whose sum could overflow.
    let mut loud = random_network(1, 100, MAX_HIDDEN);
    loud.output_weights[3] = max_output_weight(MAX_HIDDEN) + 1;
    let error = Network::from_bytes(&loud.to_bytes(), 100)
        .unwrap_err()
        .to_string();
    assert!(error.contains("output weights"), "{error}");
}

/// The output of the largest network with every unit at its clip and every output
/// weight at its limit is the exact sum, not a wrapped one.
#[test]
fn the_largest_output_does_not_overflow() {
    let hidden = MAX_HIDDEN;
    let limit = max_output_weight(hidden);
    let network = Network {
        hidden,
        feature_weights: Vec::new(),
        feature_bias: Vec::new(),
        output_weights: vec![limit; 2 * hidden],
        direct_weights: Vec::new(),
        output_bias: 0,
    };
    let mut full = Sum::ZERO;
    full.hidden.fill(QA as i16);
    let expected = 2 * hidden as i64 * i64::from(QA) * i64::from(limit) * i64::from(SCALE)
        / i64::from(QA * QB);
    assert_eq!(i64::from(network.output(&[full, full], 0)), expected);
}

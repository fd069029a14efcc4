//! The search finds the forced wins it should: on random FourSquare positions, every win or
//! loss within a few plies that plain minimax proves is found by the search with the exact
//! distance, and the move it picks keeps the win.

use crate::common::minimax::{Proven, minimax};
use qiyi::core::{Game, MATE, MoveList, Score};
use qiyi::games::foursquare::{Eval, Position};
use qiyi::search::{self, Control, Limits, SearchParams, TranspositionTable};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

fn random_position(rng: &mut StdRng) -> Position {
    let mut pos = Position::start_position();
    let plies = rng.random_range(4..40);
    for _ in 0..plies {
        let mut moves = MoveList::new();
        pos.legal_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        let mv = moves[rng.random_range(0..moves.len())];
        pos.make_move(mv);
    }
    pos
}

#[test]
fn proven_short_wins_and_losses_are_found_exactly() {
    let mut rng = StdRng::seed_from_u64(20261122);
    let tt = TranspositionTable::new(8);
    let control = Control::default();
    let params = SearchParams::default();
    let mut checked = 0;
    for _ in 0..3000 {
        let mut pos = random_position(&mut rng);
        if pos.result().is_some() {
            continue;
        }
        let Some(value) = minimax(&mut pos, 5) else {
            continue;
        };
        tt.clear();
        control.reset(false, std::time::Instant::now());
        let limits = Limits {
            depth: Some(7),
            ..Limits::default()
        };
        let result = search::search(
            &pos,
            &Eval,
            &tt,
            &mut Vec::new(),
            &control,
            &limits,
            &params,
            &[],
            &mut |_| {},
        );
        let expected = match value {
            Proven::Win(n) => MATE - n as Score,
            Proven::Loss(n) => -MATE + n as Score,
        };
        assert_eq!(
            result.score,
            expected,
            "{}: minimax says {value:?}",
            pos.to_notation()
        );
        if let Proven::Win(n) = value {
            let mut after = pos;
            after.make_move(result.best.unwrap());
            let reply = minimax(&mut after, n - 1);
            assert_eq!(
                reply,
                Some(Proven::Loss(n - 1)),
                "{}: {:?} throws the win away",
                pos.to_notation(),
                result.best
            );
        }
        checked += 1;
        if checked >= 150 {
            break;
        }
    }
    assert!(checked >= 100, "only {checked} decided positions sampled");
}

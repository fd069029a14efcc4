//! The search finds the forced wins it should: on random FourSquare positions, every win or
//! loss within a few plies that plain minimax proves is found by the search with the exact
//! distance, and the move it picks keeps the win.

use qiyi::core::{Game, MATE, MoveList, Outcome};
use qiyi::games::foursquare::{Eval, Position};
use qiyi::search::{self, Control, Limits, SearchParams, TranspositionTable};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

/// A game value proven by minimax, from the side to move's view, with the number of
/// plies until the game ends (the winner hurrying, the loser delaying).
#[derive(Clone, Copy, Debug, PartialEq)]
enum Value {
    Win(i32),
    Loss(i32),
}

/// Plain minimax without pruning; `None` when undecided within `depth` plies (or drawn).
fn minimax(pos: &mut Position, depth: u32) -> Option<Value> {
    if let Some(outcome) = pos.result() {
        return match outcome {
            Outcome::Draw => None,
            Outcome::Win(team) if team == pos.team_to_move() => Some(Value::Win(0)),
            Outcome::Win(_) => Some(Value::Loss(0)),
        };
    }
    if depth == 0 {
        return None;
    }
    let mut moves = MoveList::new();
    pos.legal_moves(&mut moves);
    let mut fastest_win: Option<i32> = None;
    let mut slowest_loss = Some(0);
    for &mv in moves.iter() {
        pos.make_move(mv);
        let child = minimax(pos, depth - 1);
        pos.unmake_move(mv, ());
        match child {
            Some(Value::Loss(n)) => fastest_win = Some(fastest_win.map_or(n + 1, |w| w.min(n + 1))),
            Some(Value::Win(n)) => slowest_loss = slowest_loss.map(|l: i32| l.max(n + 1)),
            None => slowest_loss = None,
        }
    }
    fastest_win
        .map(Value::Win)
        .or(slowest_loss.map(Value::Loss))
}

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
        control.reset(false);
        let limits = Limits {
            depth: Some(7),
            ..Limits::default()
        };
        let result = search::search(
            &pos,
            &Eval,
            &tt,
            &control,
            &limits,
            &params,
            &[],
            &mut |_| {},
        );
        let expected = match value {
            Value::Win(n) => MATE - n,
            Value::Loss(n) => -MATE + n,
        };
        assert_eq!(
            result.score,
            expected,
            "{}: minimax says {value:?}",
            pos.to_notation()
        );
        if let Value::Win(n) = value {
            let mut after = pos;
            after.make_move(result.best.unwrap());
            let reply = minimax(&mut after, n as u32 - 1);
            assert_eq!(
                reply,
                Some(Value::Loss(n - 1)),
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

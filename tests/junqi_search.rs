//! The generic search with the Junqi evaluation: it answers from the start position at
//! once with a legal move, and it takes a flag that stands open to capture.

use qiyi::core::{Game, MATE_BOUND, MoveList};
use qiyi::games::junqi::{Eval, Move, Position};
use qiyi::search::{self, SearchResult, TranspositionTable};
use std::time::{Duration, Instant};

fn search_to(pos: &Position, depth: u32) -> SearchResult<Move> {
    search::search_to_depth(pos, &Eval, &TranspositionTable::new(16), depth, 1)
}

fn is_legal(pos: &Position, mv: Move) -> bool {
    let mut moves = MoveList::new();
    pos.legal_moves(&mut moves);
    moves.iter().any(|&m| m == mv)
}

#[test]
fn start_position_answers_a_legal_move_quickly() {
    let pos = Position::start_position();
    for depth in [2, 3] {
        let started = Instant::now();
        let result = search_to(&pos, depth);
        let took = started.elapsed();
        let best = result.best.expect("a move from the start position");
        assert!(is_legal(&pos, best), "{best} at depth {depth}");
        assert!(result.score.abs() < MATE_BOUND, "{}", result.score);
        assert!(
            took < Duration::from_secs(10),
            "depth {depth} took {took:?}"
        );
    }
}

#[test]
fn a_flag_capture_that_ends_the_game_is_played_as_a_win() {
    // W is out; S's lieutenant stands beside E's flag (q8) on q9. Taking it removes the
    // last seat of E+W.
    let pos = Position::from_notation("26l2h/26lSh1a/26l2h/30/9 S 0 0,0,0,0 W -").unwrap();
    let result = search_to(&pos, 3);
    assert_eq!(result.best.map(|m| m.to_string()), Some("q9q8".to_string()));
    assert!(result.score > MATE_BOUND, "{}", result.score);
}

#[test]
fn a_flag_capture_that_eliminates_one_seat_is_played_and_scored_well() {
    // All four seats live; S's lieutenant on q9 beside E's flag on q8, while E's marshal
    // waits on its back row.
    let pos = Position::from_notation("26l2h/26lSh1a/26l2h/26l2h/9 S 0 0,0,0,0 - -").unwrap();
    let result = search_to(&pos, 3);
    assert_eq!(result.best.map(|m| m.to_string()), Some("q9q8".to_string()));
    assert!(result.score > 1000, "{}", result.score);
}

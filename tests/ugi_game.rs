//! Whole games over UGI, run the way the cutegames match runner runs them: two engine
//! processes, `position startpos moves ...` before every `go`, `query p1turn|gameover|result`
//! asked of both after every move, and their answers compared. Also: the engine against a
//! random mover, which it must beat.

use crate::common::Engine;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

fn query(engine: &mut Engine, what: &str) -> String {
    engine.ask(&format!("query {what}"), "response")["response ".len()..].to_string()
}

fn new_player() -> Engine {
    let mut engine = Engine::ugi();
    engine.send("setoption name MaxPlies value 150");
    engine.send("uginewgame");
    engine
}

/// Plays one game; `random_side` (0 = player 1) moves at random when given. Returns the
/// result as both engines report it.
fn play(random_side: Option<usize>, seed: u64) -> String {
    let mut players = [new_player(), new_player()];
    let mut rng = StdRng::seed_from_u64(seed);
    let mut moves: Vec<String> = Vec::new();
    loop {
        let position = if moves.is_empty() {
            "position startpos".to_string()
        } else {
            format!("position startpos moves {}", moves.join(" "))
        };
        for p in players.iter_mut() {
            p.send(&position);
        }
        let over: Vec<String> = players.iter_mut().map(|p| query(p, "gameover")).collect();
        assert_eq!(
            over[0], over[1],
            "engines disagree on gameover after {moves:?}"
        );
        if over[0] == "true" {
            let results: Vec<String> = players.iter_mut().map(|p| query(p, "result")).collect();
            assert_eq!(results[0], results[1]);
            eprintln!(
                "{} after {} plies: {}",
                results[0],
                moves.len(),
                moves.join(" ")
            );
            return results[0].clone();
        }
        let p1turn = query(&mut players[0], "p1turn");
        assert_eq!(p1turn, query(&mut players[1], "p1turn"));
        let side = if p1turn == "true" { 0 } else { 1 };
        let legal = players[side].legal_moves();
        assert!(
            !legal.is_empty(),
            "not over but no legal move after {moves:?}"
        );
        let mv = if random_side == Some(side) {
            legal[rng.random_range(0..legal.len())].clone()
        } else {
            let answer = players[side].ask("go movetime 100", "bestmove");
            let mv = answer["bestmove ".len()..].to_string();
            assert!(legal.contains(&mv), "illegal {mv} after {moves:?}");
            mv
        };
        moves.push(mv);
        assert!(moves.len() <= 150, "MaxPlies did not end the game");
    }
}

#[test]
fn engine_against_itself_ends_with_an_agreed_result() {
    let result = play(None, 1);
    assert!(
        ["p1win", "p2win", "draw"].contains(&result.as_str()),
        "{result}"
    );
}

#[test]
fn engine_beats_a_random_mover_with_either_colour() {
    for (game, random_side) in [(0, 1), (1, 0), (2, 1), (3, 0)] {
        let result = play(Some(random_side), game);
        let engine_wins = if random_side == 1 { "p1win" } else { "p2win" };
        assert_eq!(
            result, engine_wins,
            "game {game}: random side {random_side}"
        );
    }
}

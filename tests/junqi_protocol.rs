//! Junqi over UGI against the real binary: handshake, setup and moves, the four-seat
//! queries, perft, deployment, searches and stop, bad input; and whole games, one engine
//! per team, that end with an agreed result, including against a random mover.

use crate::common;

use crate::common::{Engine, SLACK};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use std::time::{Duration, Instant};

const SECOND: Duration = Duration::from_secs(1);

fn junqi() -> Engine {
    let mut engine = Engine::start(&["--game", "junqi"]);
    engine.send("ugi");
    let lines = engine.until("ugiok", 10 * SECOND);
    for option in ["NoCombatDrawPlies", "MaxPasses", "Hash", "Threads"] {
        let declared = format!("option name {option} type");
        assert!(
            lines.iter().any(|l| l.starts_with(&declared)),
            "{option}: {lines:#?}"
        );
    }
    engine.ask("isready", "readyok");
    engine
}

fn query(engine: &mut Engine, what: &str) -> String {
    engine.ask(&format!("query {what}"), "response")["response ".len()..].to_string()
}

#[test]
fn handshake_queries_perft_and_deploy() {
    let mut engine = junqi();
    engine.send("position startpos");
    assert_eq!(query(&mut engine, "turn"), "S");
    assert_eq!(query(&mut engine, "p1turn"), "true");
    assert_eq!(query(&mut engine, "gameover"), "false");
    assert_eq!(query(&mut engine, "result"), "none");
    engine.send("go perft 3");
    let lines = engine.until("Nodes searched", 30 * SECOND);
    assert_eq!(lines.last().unwrap(), "Nodes searched: 68219");
    assert_eq!(lines.iter().filter(|l| l.contains(": ")).count(), 41 + 1);

    // One ply later it is East's turn, player 2's team.
    let first = engine.legal_moves()[0].clone();
    engine.send(&format!("position startpos moves {first}"));
    assert_eq!(query(&mut engine, "turn"), "E");
    assert_eq!(query(&mut engine, "p1turn"), "false");

    // A deployment is a valid lineup: it sets up a game the engine accepts.
    for _ in 0..5 {
        let deploy = engine.ask("go deploy", "deploy");
        let lineup = &deploy["deploy ".len()..];
        assert_eq!(lineup.len(), 25, "{deploy}");
        engine.send(&format!(
            "position setup S:{lineup} E:{lineup} N:{lineup} W:{lineup}"
        ));
        assert_eq!(query(&mut engine, "gameover"), "false");
        assert_eq!(query(&mut engine, "turn"), "S");
    }
}

#[test]
fn searches_stop_and_bad_input_keeps_the_position() {
    let mut engine = junqi();
    engine.send("position startpos");
    let legal = engine.legal_moves();
    let best = engine.ask("go depth 2", "bestmove");
    let fields: Vec<&str> = best.split_whitespace().collect();
    assert_eq!(fields.len(), 2, "{best}");
    assert!(legal.contains(&fields[1].to_string()), "{best}");

    let start = Instant::now();
    engine.send("go movetime 500");
    engine.until("bestmove", 5 * SECOND);
    assert!(
        start.elapsed() < Duration::from_millis(500) + SLACK,
        "{:?}",
        start.elapsed()
    );

    engine.send("go infinite");
    // The search is running once it reports.
    engine.until("info depth", 10 * SECOND);
    let start = Instant::now();
    engine.send("stop");
    engine.until("bestmove", 5 * SECOND);
    assert!(start.elapsed() < SLACK, "{:?}", start.elapsed());

    let before = engine.legal_moves();
    for bad in [
        "position setup S:adgicegebigckhfdjhjkfljhi",
        "position setup S:aaaaaaaaaaaaaaaaaaaaaaaaa E:- N:- W:-",
        "position setup S:ldgicegebigckhfdjhjkfajhi E:0 N:0 W:0",
        "position startpos moves i1i9",
        "position startpos moves zz",
        "position fen nonsense",
        "setoption name NoCombatDrawPlies value -1",
        "setoption name MaxPasses value many",
        "go sinc",
        "query nothing",
        // Recorded plies, never moves the engine may choose.
        "go depth 1 searchmoves pass",
        "go depth 1 searchmoves timeout",
        "go depth 1 searchmoves resign",
        "go depth 1 searchmoves k6k7 pass",
    ] {
        let error = engine.ask(bad, "info string error");
        assert!(error.len() < 300, "{error}");
        // Nothing ran: no bestmove follows the error.
        engine.send("isready");
        let lines = engine.until("readyok", 5 * SECOND);
        assert_eq!(lines, ["readyok"], "{bad}");
    }
    assert_eq!(query(&mut engine, "gameover"), "false");
    assert_eq!(
        engine.legal_moves(),
        before,
        "position changed by rejected commands"
    );
}

/// Plays one game: `engines[team]` answers for both seats of its team; a team in
/// `random` moves at random. Returns the result both engines report.
fn play(random: Option<usize>, seed: u64) -> String {
    let mut engines = [junqi(), junqi()];
    for engine in engines.iter_mut() {
        engine.send("setoption name NoCombatDrawPlies value 40");
        engine.send("uginewgame");
    }
    let mut rng = StdRng::seed_from_u64(seed);
    let mut moves: Vec<String> = Vec::new();
    loop {
        let position = format!("position startpos moves {}", moves.join(" "));
        for engine in engines.iter_mut() {
            engine.send(position.trim_end());
        }
        let over: Vec<String> = engines.iter_mut().map(|e| query(e, "gameover")).collect();
        assert_eq!(over[0], over[1], "gameover disagrees after {moves:?}");
        if over[0] == "true" {
            let results: Vec<String> = engines.iter_mut().map(|e| query(e, "result")).collect();
            assert_eq!(results[0], results[1]);
            eprintln!("{} after {} plies", results[0], moves.len());
            return results[0].clone();
        }
        let team = if query(&mut engines[0], "p1turn") == "true" {
            0
        } else {
            1
        };
        let legal = engines[team].legal_moves();
        assert!(!legal.is_empty(), "no move in a live game after {moves:?}");
        let mv = if random == Some(team) {
            legal[rng.random_range(0..legal.len())].clone()
        } else {
            let answer = engines[team].ask("go movetime 60", "bestmove");
            let mv = answer["bestmove ".len()..].to_string();
            assert!(legal.contains(&mv), "illegal {mv} after {moves:?}");
            mv
        };
        moves.push(mv);
        assert!(moves.len() < 2000, "game without end");
    }
}

#[test]
fn one_engine_per_team_plays_to_an_agreed_result() {
    let result = play(None, 7);
    assert!(
        ["p1win", "p2win", "draw"].contains(&result.as_str()),
        "{result}"
    );
}

#[test]
fn the_engine_beats_a_random_mover_with_either_team() {
    assert_eq!(play(Some(1), 1), "p1win");
    assert_eq!(play(Some(0), 2), "p2win");
}

#[test]
fn open_info_accepts_the_referees_reports_and_checks_them() {
    let mut engine = junqi();
    engine.send("setoption name Info value open");
    let mut reports = 0;
    for seed in 0..6 {
        let game = common::junqi::random_game(seed, 120);
        let (record, last) = game.steps.last().unwrap();
        let fen = qiyi::core::Game::to_notation(last);
        reports += record
            .iter()
            .filter(|t| t.contains("=w") || t.contains("=b"))
            .count();
        engine.send(&common::junqi::open_command(&game, record));
        engine.send("d");
        let lines = engine.until("position: ", 10 * SECOND);
        assert!(!lines.iter().any(|l| l.contains("error")), "{lines:?}");
        assert_eq!(lines.last().unwrap(), &format!("position: {fen}"));
        // A report changed to another is refused, and the position stays.
        let Some(i) = record.iter().position(|t| t.contains("=w")) else {
            continue;
        };
        let mut wrong = record.clone();
        wrong[i] = wrong[i].replace("=w", "=l");
        let error = engine.ask(
            &common::junqi::open_command(&game, &wrong),
            "info string error",
        );
        assert!(error.contains(&format!("move {}", i + 1)), "{error}");
        engine.send("d");
        let lines = engine.until("position: ", 10 * SECOND);
        assert_eq!(lines.last().unwrap(), &format!("position: {fen}"));
    }
    assert!(reports > 20, "{reports} combats");
    // A referee's forfeit: E is out at once, and the turn goes from S to N.
    engine.send("position startpos moves k6k7=m out:E");
    assert_eq!(query(&mut engine, "turn"), "N");
    engine.send("position startpos moves k6k7 out:E out:E");
    assert_eq!(query(&mut engine, "turn"), "N");
}

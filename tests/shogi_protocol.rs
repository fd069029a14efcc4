//! USI sessions against the real binary: `go perft` in Stockfish's form, positions with
//! their move history (sennichite), and malformed or illegal input, each answered by one
//! error line that leaves the position as it was.

use crate::common::{Engine, SLACK};
use std::time::Duration;

const SECOND: Duration = Duration::from_secs(1);

fn usi() -> Engine {
    let mut engine = Engine::start(&[]);
    engine.send("usi");
    engine.until("usiok", 10 * SECOND);
    engine.ask("isready", "readyok");
    engine
}

/// The SFEN from the `d` diagram, read through its last line.
fn sfen(engine: &mut Engine) -> String {
    engine.send("d");
    let lines = engine.until("Checkers:", 10 * SECOND);
    let line = lines.iter().find(|l| l.starts_with("Sfen: ")).unwrap();
    line["Sfen: ".len()..].to_string()
}

#[test]
fn go_perft_prints_moves_counts_and_the_total() {
    let mut engine = usi();
    engine.send("position startpos");
    engine.send("go perft 3");
    let lines = engine.until("Nodes searched", 10 * SECOND);
    let counts: Vec<(&str, u64)> = lines
        .iter()
        .filter_map(|l| l.split_once(": "))
        .filter(|(mv, _)| *mv != "Nodes searched")
        .map(|(mv, n)| (mv, n.parse().unwrap()))
        .collect();
    assert_eq!(counts.len(), 30);
    assert_eq!(counts.iter().map(|(_, n)| n).sum::<u64>(), 25470);
    assert!(counts.contains(&("7g7f", 1110)), "{counts:?}");
    assert_eq!(lines.last().unwrap(), "Nodes searched: 25470");
    // The same count from a drop-rich position, through two threads.
    engine.send("setoption name Threads value 2");
    engine.send(
        "position sfen l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
    );
    engine.send("go perft 3");
    let lines = engine.until("Nodes searched", 30 * SECOND);
    assert_eq!(lines.last().unwrap(), "Nodes searched: 4809015");
}

#[test]
fn the_move_history_carries_sennichite() {
    let mut engine = usi();
    // Sente's rook has checked on every move; 1i2i now would let gote repeat the start
    // for the fourth time, and sente, who gave every check, would lose. Only the move
    // history says so.
    let checks = "2i1i 1a2a 1i2i 2a1a 2i1i 1a2a 1i2i 2a1a 2i1i 1a2a";
    engine.send(&format!(
        "position sfen 8k/9/9/9/9/9/9/9/4K2R1 b G 1 moves {checks}"
    ));
    engine.send("go depth 4");
    let answer = engine.until("bestmove", 30 * SECOND).pop().unwrap();
    assert!(
        answer.starts_with("bestmove ") && !answer.starts_with("bestmove 1i2i"),
        "{answer}"
    );
    assert_eq!(sfen(&mut engine), "7k1/9/9/9/9/9/9/9/4K3R b G 11");
}

/// Every malformed or illegal command gets exactly one error line and leaves the position.
#[test]
fn bad_input_battery() {
    let mut engine = usi();
    engine.send("position startpos moves 7g7f 3c3d");
    let before = sfen(&mut engine);
    let bad = [
        "position sfen",
        "position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1 b - 1",
        "position sfen 4k4/9/9/9/9/9/9/9/4K4 x - 1",
        "position sfen 4k4/9/9/9/9/9/9/9/4K4 b 19P 1",
        "position sfen P3k4/9/9/9/9/9/9/9/4K4 b - 1",
        "position sfen 4k4/9/9/4P4/4P4/9/9/9/4K4 b - 1",
        "position sfen 4k4/4P4/9/9/9/9/9/9/4K4 b - 1",
        "position sfen +P+P+P+P+P+P+P+P+P/+P+P+P+P+P+P+P+P+P/+P+P5k/9/9/9/9/9/4K4 b - 1",
        "position startpos moves 7g7f 7g7f",
        "position startpos moves 7g7e",
        "position startpos moves P*5e",
        "position startpos moves 7g7f+",
        "position startpos moves 7g",
        "position startpos moves ７g7f",
        "go mate",
        "go mate soon",
        "go perft x",
        "go btime x",
        "setoption name USI_Hash value 0",
        "setoption name Nonsense value 1",
    ];
    for line in bad {
        engine.send(line);
        let answer = engine.next_line(5 * SECOND).unwrap_or_default();
        assert!(
            answer.starts_with("info string error: "),
            "{line}: {answer}"
        );
        assert_eq!(engine.ask("isready", "readyok"), "readyok", "{line}");
        assert_eq!(sfen(&mut engine), before, "{line} changed the position");
    }
}

#[test]
fn a_timed_go_mate_is_held_to_the_move_time_limit() {
    // Found by tools/fuzz_protocol.py: `go mate 5000` ran its five seconds whatever
    // `MoveTimeLimit` said; only `go mate infinite` may (as `go infinite` may).
    let mut engine = usi();
    engine.send("setoption name MoveTimeLimit value 300");
    engine.send(
        "position sfen l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
    );
    engine.ask("isready", "readyok");
    let start = std::time::Instant::now();
    engine.send("go mate 5000");
    let answer = engine.until("checkmate", 10 * SECOND).pop().unwrap();
    let took = start.elapsed();
    assert_eq!(answer, "checkmate timeout");
    // Held to the limit, not the five seconds asked.
    assert!(took < Duration::from_millis(300) + SLACK, "{took:?}");
    // Under the limit the time asked for is kept.
    engine.send("setoption name MoveTimeLimit value 60000");
    let start = std::time::Instant::now();
    engine.send("go mate 500");
    assert_eq!(
        engine.until("checkmate", 10 * SECOND).pop().unwrap(),
        "checkmate timeout"
    );
    assert!(start.elapsed() >= Duration::from_millis(450));
}

//! The game result the protocol reports for chess follows the rules, not the search:
//! `tests/chess_result_oracle.py` plays repetition-rich games with python-chess and
//! prints its verdict (`outcome(claim_draw=True)`) for every position; the engine, asked
//! over UGI with `query result` and `query gameover`, must agree on each. (The search
//! scores a position repeated once as a draw; the protocol must not report that.)
//!
//! Needs `python3` with python-chess (`pip install chess`), like the other chess oracles.

use crate::common::Engine;
use std::process::Command;
use std::time::Duration;

fn oracle() -> String {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/chess_result_oracle.py");
    let output = Command::new("python3")
        .arg(script)
        .output()
        .unwrap_or_else(|e| {
            panic!("cannot run python3 for the chess result oracle ({e}); `pip install chess`")
        });
    assert!(
        output.status.success(),
        "the chess result oracle failed ({}); is python-chess installed?\n{}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).expect("oracle output is UTF-8")
}

#[test]
fn query_result_agrees_with_python_chess() {
    let text = oracle();
    let mut engine = Engine::start(&["--game", "chess"]);
    engine.send("ugi");
    engine.until("ugiok", Duration::from_secs(10));
    let mut cases = 0;
    let mut draws = 0;
    for line in text.lines() {
        let case = line.strip_prefix("CASE ").expect(line);
        let mut parts = case.split('|');
        let (fen, moves, expected) = (
            parts.next().unwrap(),
            parts.next().unwrap(),
            parts.next().unwrap(),
        );
        let command = if moves.is_empty() {
            format!("position fen {fen}")
        } else {
            format!("position fen {fen} moves {moves}")
        };
        engine.send(&command);
        engine.send("query result");
        let lines = engine.until("response", Duration::from_secs(10));
        assert_eq!(lines.len(), 1, "{command}: {lines:?}");
        let result = &lines[0];
        assert_eq!(*result, format!("response {expected}"), "{command}");
        let over = engine.ask("query gameover", "response");
        assert_eq!(
            over,
            format!("response {}", expected != "none"),
            "{command}"
        );
        cases += 1;
        draws += usize::from(expected == "draw");
    }
    // The oracle's games must reach both kinds of position in numbers.
    assert!(cases > 2000 && draws > 500, "{cases} cases, {draws} draws");
    // The example: a position seen twice is not the end of the game.
    engine.send("position startpos moves g1f3 g8f6 f3g1 f6g8");
    assert_eq!(engine.ask("query gameover", "response"), "response false");
    assert_eq!(engine.ask("query result", "response"), "response none");
}

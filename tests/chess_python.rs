//! Differential test against python-chess: `tests/chess_oracle.py` plays seeded random
//! games with python-chess's own move generation and prints positions with their legal
//! moves and perft(2)/perft(3); this test reads every position back through our FEN
//! reader and demands the same legal moves, the same counts and the same FEN.
//!
//! The test needs `python3` with python-chess (`pip install chess`); without them it
//! fails with a message saying so, rather than passing silently.

use qiyi::core::{Game, MoveList};
use qiyi::games::chess::Position;
use std::process::Command;

struct Case {
    fen: String,
    moves: Vec<String>,
    perft2: u64,
    perft3: u64,
}

fn run_oracle() -> String {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/chess_oracle.py");
    let output = Command::new("python3")
        .arg(script)
        .output()
        .unwrap_or_else(|e| panic!("cannot run python3 for the chess oracle ({e}); install Python 3 and `pip install chess`"));
    assert!(
        output.status.success(),
        "the chess oracle failed ({}); is python-chess installed (`pip install chess`)?\n{}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).expect("oracle output is UTF-8")
}

fn parse(text: &str) -> Vec<Case> {
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines.len() % 3,
        0,
        "oracle output is FEN/MOVES/PERFT triples"
    );
    lines
        .chunks(3)
        .map(|chunk| {
            let fen = chunk[0].strip_prefix("FEN ").expect(chunk[0]).to_string();
            let moves = chunk[1]
                .strip_prefix("MOVES")
                .expect(chunk[1])
                .split_whitespace()
                .map(str::to_string)
                .collect();
            let counts: Vec<u64> = chunk[2]
                .strip_prefix("PERFT ")
                .expect(chunk[2])
                .split_whitespace()
                .map(|n| n.parse().expect(chunk[2]))
                .collect();
            Case {
                fen,
                moves,
                perft2: counts[0],
                perft3: counts[1],
            }
        })
        .collect()
}

#[test]
fn legal_moves_perft_and_fen_agree_with_python_chess() {
    let cases = parse(&run_oracle());
    assert!(cases.len() >= 300, "only {} oracle positions", cases.len());
    let mut en_passant = 0;
    let mut castling = 0;
    let mut promotions = 0;
    let mut checks = 0;
    for case in &cases {
        let mut pos =
            Position::from_notation(&case.fen).unwrap_or_else(|e| panic!("{}: {e}", case.fen));
        assert_eq!(pos.to_notation(), case.fen, "FEN printed back");
        let mut list = MoveList::new();
        pos.legal_moves(&mut list);
        let mut ours: Vec<String> = list.iter().map(|&m| pos.move_name(m)).collect();
        ours.sort();
        assert_eq!(ours, case.moves, "legal moves of {}", case.fen);
        if !case.moves.is_empty() {
            assert_eq!(
                qiyi::perft::perft(&mut pos, 2),
                case.perft2,
                "perft 2 of {}",
                case.fen
            );
            assert_eq!(
                qiyi::perft::perft(&mut pos, 3),
                case.perft3,
                "perft 3 of {}",
                case.fen
            );
        }
        en_passant += list.iter().filter(|m| m.is_en_passant()).count();
        castling += list.iter().filter(|m| m.is_castling()).count();
        promotions += list.iter().filter(|m| m.promotion().is_some()).count();
        checks += usize::from(pos.in_check());
    }
    // The sample really exercises the special rules.
    assert!(
        en_passant > 0 && castling > 0 && promotions > 0 && checks > 0,
        "ep {en_passant}, castling {castling}, promotions {promotions}, checks {checks}"
    );
}

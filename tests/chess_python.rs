//! Differential test against python-chess: `tests/chess_oracle.py` plays seeded random
//! games with python-chess's own move generation and prints positions with their legal
//! moves and perft(2)/perft(3); this test reads every position back through our FEN
//! reader and demands the same legal moves, the same counts and the same FEN. The same
//! again from Chess960 and double Fischer random starts, under `UCI_Chess960`.
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

fn run_oracle(args: &[&str]) -> String {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/chess_oracle.py");
    let output = Command::new("python3")
        .arg(script)
        .args(args)
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

/// How often the sample exercised each special rule.
#[derive(Default)]
struct Seen {
    en_passant: usize,
    castling: usize,
    promotions: usize,
    checks: usize,
}

/// Demands python-chess's legal moves and perft(2), perft(3) of `pos`.
fn check_moves_and_counts(pos: &mut Position, case: &Case, seen: &mut Seen) {
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    let mut ours: Vec<String> = list.iter().map(|&m| pos.move_name(m)).collect();
    ours.sort();
    assert_eq!(ours, case.moves, "legal moves of {}", case.fen);
    if !case.moves.is_empty() {
        assert_eq!(
            qiyi::perft::perft(pos, 2),
            case.perft2,
            "perft 2 of {}",
            case.fen
        );
        assert_eq!(
            qiyi::perft::perft(pos, 3),
            case.perft3,
            "perft 3 of {}",
            case.fen
        );
    }
    seen.en_passant += list.iter().filter(|m| m.is_en_passant()).count();
    seen.castling += list.iter().filter(|m| m.is_castling()).count();
    seen.promotions += list.iter().filter(|m| m.promotion().is_some()).count();
    seen.checks += usize::from(pos.in_check());
}

#[test]
fn legal_moves_perft_and_fen_agree_with_python_chess() {
    let cases = parse(&run_oracle(&[]));
    assert!(cases.len() >= 300, "only {} oracle positions", cases.len());
    let mut seen = Seen::default();
    for case in &cases {
        let mut pos =
            Position::from_notation(&case.fen).unwrap_or_else(|e| panic!("{}: {e}", case.fen));
        assert_eq!(pos.to_notation(), case.fen, "FEN printed back");
        check_moves_and_counts(&mut pos, case, &mut seen);
    }
    // The sample really exercises the special rules.
    assert!(
        seen.en_passant > 0 && seen.castling > 0 && seen.promotions > 0 && seen.checks > 0,
        "ep {}, castling {}, promotions {}, checks {}",
        seen.en_passant,
        seen.castling,
        seen.promotions,
        seen.checks
    );
}

/// Chess960 and double Fischer random: the Shredder-FEN and the X-FEN both read, both
/// print back (Shredder-FEN under `UCI_Chess960`, X-FEN without), and castling is named
/// king takes rook.
#[test]
fn chess960_moves_perft_and_fens_agree_with_python_chess() {
    let cases = parse(&run_oracle(&["--chess960"]));
    assert!(cases.len() >= 250, "only {} oracle positions", cases.len());
    let mut seen = Seen::default();
    let mut unmoved_kings = 0;
    for case in &cases {
        let (shredder, xfen) = case.fen.split_once(" | ").expect("Shredder-FEN | X-FEN");
        let mut pos =
            Position::from_notation(shredder).unwrap_or_else(|e| panic!("{shredder}: {e}"));
        let from_xfen = Position::from_notation(xfen).unwrap_or_else(|e| panic!("{xfen}: {e}"));
        assert_eq!(pos, from_xfen, "{shredder} and {xfen} differ");
        assert_eq!(pos.to_notation(), xfen, "X-FEN printed back");
        assert!(pos.set_rule_option("UCI_Chess960", "true").unwrap());
        assert_eq!(pos.to_notation(), shredder, "Shredder-FEN printed back");
        check_moves_and_counts(&mut pos, case, &mut seen);
        let mut list = MoveList::new();
        pos.legal_moves(&mut list);
        unmoved_kings += list
            .iter()
            .filter(|m| {
                m.is_castling() && {
                    let name = pos.move_name(**m);
                    let king_to = if name.as_bytes()[2] > name.as_bytes()[0] {
                        b'g'
                    } else {
                        b'c'
                    };
                    name.as_bytes()[0] == king_to
                }
            })
            .count();
    }
    // Promotions and en passant are the standard sample's; this one is for castling.
    assert!(
        seen.castling >= 100 && seen.checks > 0,
        "castling {}, checks {}",
        seen.castling,
        seen.checks
    );
    // Castlings where the king stays on its square, the case a rook's move can expose.
    assert!(unmoved_kings > 0, "no castling with the king staying put");
}

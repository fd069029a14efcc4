//! Differential test against cshogi: `tests/shogi_oracle.py` samples positions from
//! biased random playouts and from sparse positions built for the pawn-drop mate rule,
//! with cshogi's own move generation, and prints each with its legal moves, the SFEN
//! after every one of them and perft(2); this test reads every position back through our
//! SFEN reader and demands the same legal moves, the same SFENs, the same count and the
//! same check status.
//!
//! The test needs `python3` with cshogi (`pip install cshogi`); without them it fails
//! with a message saying so, rather than passing silently.

use qiyi::core::{Game, MoveList};
use qiyi::games::shogi::Position;
use std::process::Command;

struct Case {
    sfen: String,
    moves: Vec<String>,
    after: Vec<String>,
    perft2: u64,
    check: bool,
    uchifuzume: bool,
}

fn run_oracle() -> String {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/shogi_oracle.py");
    let output = Command::new("python3")
        .arg(script)
        .output()
        .unwrap_or_else(|e| {
            panic!("cannot run python3 for the shogi oracle ({e}); install Python 3 and `pip install cshogi`")
        });
    assert!(
        output.status.success(),
        "the shogi oracle failed ({}); is cshogi installed (`pip install cshogi`)?\n{}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).expect("oracle output is UTF-8")
}

fn field<'a>(line: &'a str, name: &str) -> &'a str {
    line.strip_prefix(name)
        .unwrap_or_else(|| panic!("expected {name}: {line}"))
        .trim_start()
}

fn parse(text: &str) -> Vec<Case> {
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines.len() % 5,
        0,
        "oracle output comes in groups of 5 lines"
    );
    lines
        .chunks(5)
        .map(|chunk| {
            let words = |line: &str| -> Vec<String> {
                line.split_whitespace().map(str::to_string).collect()
            };
            let flags: Vec<&str> = field(chunk[4], "FLAGS").split_whitespace().collect();
            let after = field(chunk[2], "AFTER");
            Case {
                sfen: field(chunk[0], "SFEN").to_string(),
                moves: words(field(chunk[1], "MOVES")),
                after: if after.is_empty() {
                    Vec::new()
                } else {
                    after.split('|').map(str::to_string).collect()
                },
                perft2: field(chunk[3], "PERFT").parse().expect(chunk[3]),
                check: flags[0] == "1",
                uchifuzume: flags[1] == "1",
            }
        })
        .collect()
}

#[test]
fn legal_moves_sfens_and_perft_agree_with_cshogi() {
    let cases = parse(&run_oracle());
    assert!(cases.len() >= 400, "only {} oracle positions", cases.len());
    let (mut drops, mut promotions, mut checks, mut uchifuzume, mut moves_seen) = (0, 0, 0, 0, 0);
    for case in &cases {
        let mut pos =
            Position::from_notation(&case.sfen).unwrap_or_else(|e| panic!("{}: {e}", case.sfen));
        assert_eq!(pos.to_notation(), case.sfen, "SFEN printed back");
        assert_eq!(pos.in_check(), case.check, "check status of {}", case.sfen);
        let mut list = MoveList::new();
        pos.legal_moves(&mut list);
        let mut ours: Vec<(String, _)> = list.iter().map(|&m| (pos.move_name(m), m)).collect();
        ours.sort_by(|a, b| a.0.cmp(&b.0));
        let names: Vec<&String> = ours.iter().map(|(name, _)| name).collect();
        let theirs: Vec<&String> = case.moves.iter().collect();
        assert_eq!(names, theirs, "legal moves of {}", case.sfen);
        assert_eq!(case.after.len(), ours.len(), "{}", case.sfen);
        for ((name, mv), expected) in ours.iter().zip(&case.after) {
            let undo = pos.make_move(*mv);
            assert_eq!(&pos.to_notation(), expected, "{name} from {}", case.sfen);
            // The position printed is the position read: same key.
            let read = Position::from_notation(expected).unwrap();
            assert_eq!(pos.hash(), read.hash(), "{name} from {}", case.sfen);
            pos.unmake_move(*mv, undo);
            drops += usize::from(name.contains('*'));
            promotions += usize::from(name.ends_with('+'));
        }
        moves_seen += ours.len();
        if !case.moves.is_empty() {
            assert_eq!(
                qiyi::perft::perft(&mut pos, 2),
                case.perft2,
                "perft 2 of {}",
                case.sfen
            );
        }
        checks += usize::from(case.check);
        uchifuzume += usize::from(case.uchifuzume);
    }
    // The sample really exercises the rules.
    assert!(
        drops > 10_000 && promotions > 500 && checks > 100 && uchifuzume >= 50,
        "drops {drops}, promotions {promotions}, checks {checks}, uchifuzume {uchifuzume} in {moves_seen} moves"
    );
}

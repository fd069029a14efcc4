//! The FourSquare bench positions must stay playable: a bench over a finished game or a
//! mistyped line would measure nothing.

use qiyi::core::{Game, MoveList};
use qiyi::games::foursquare::Position;

#[test]
fn bench_positions_parse_and_have_moves() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/bench_positions/foursquare.txt"
    );
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .collect();
    assert!(
        (12..=16).contains(&lines.len()),
        "{} positions",
        lines.len()
    );
    for fsn in lines {
        let pos = Position::from_notation(fsn).unwrap_or_else(|e| panic!("{fsn}: {e}"));
        assert_eq!(pos.result(), None, "{fsn} is already decided");
        let mut moves = MoveList::new();
        pos.legal_moves(&mut moves);
        assert!(!moves.is_empty(), "{fsn}");
    }
}

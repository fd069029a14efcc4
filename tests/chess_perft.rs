//! Chess perft against the published counts in `tests/perft/chess.perft`.
//!
//! Every count up to a node budget is checked: small ones on one thread with
//! `qiyi::perft::perft`, big ones with `qiyi::perft::divide` on two threads, so that the
//! whole suite stays well under a minute in a release build. Counts beyond the budget stay
//! in the file as data for manual runs (`qiyi perft`).

use crate::common;

use qiyi::core::Game;
use qiyi::games::chess::Position;

fn load_suites() -> Vec<common::PerftSuite> {
    common::load_perft_suite("chess")
}

/// Largest count checked; an unoptimised build checks far less.
const NODE_BUDGET: u64 = if cfg!(debug_assertions) {
    200_000
} else {
    200_000_000
};

#[test]
fn perft_matches_the_published_counts() {
    let suites = load_suites();
    assert!(suites.len() >= 100, "the perft suite is incomplete");
    let checked = common::check_perft_counts::<Position>(&suites, NODE_BUDGET);
    assert!(checked >= 400, "only {checked} counts checked");
}

/// The published Chess960 suite (`tests/perft/chess960.perft`): all 960 positions to
/// depth 4 (2 in a debug build), and one in 40 to depth 5 as well.
#[test]
fn chess960_perft_matches_the_published_counts() {
    let suites = common::load_perft_suite("chess960");
    assert_eq!(suites.len(), 960, "the Chess960 suite is incomplete");
    let shallow = if cfg!(debug_assertions) { 2 } else { 4 };
    let selected: Vec<common::PerftSuite> = suites
        .iter()
        .enumerate()
        .map(|(i, suite)| common::PerftSuite {
            position: suite.position.clone(),
            counts: suite
                .counts
                .iter()
                .copied()
                .filter(|&(depth, _)| {
                    depth <= shallow || (depth == 5 && i % 40 == 0 && shallow == 4)
                })
                .collect(),
        })
        .collect();
    let checked = common::check_perft_counts::<Position>(&selected, u64::MAX);
    let deep = if shallow == 4 { 24 } else { 0 };
    assert_eq!(checked, 960 * shallow as usize + deep);
}

#[test]
fn suite_has_the_standard_positions_at_their_standard_depths() {
    let suites = load_suites();
    let deepest = |prefix: &str| {
        suites
            .iter()
            .filter(|s| s.position.starts_with(prefix))
            .map(|s| s.counts.last().unwrap().0)
            .max()
            .unwrap_or_else(|| panic!("{prefix} missing"))
    };
    assert!(deepest("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w") >= 6);
    assert!(deepest("r3k2r/p1ppqpb1/") >= 5);
    assert!(deepest("8/2p5/3p4/KP5r/") >= 7);
    assert!(deepest("r3k2r/Pppp1ppp/") >= 6);
    assert!(deepest("rnbq1k1r/pp1Pbppp/") >= 5);
    assert!(deepest("r4rk1/1pp1qppp/") >= 5);
}

#[test]
fn bench_positions_are_valid_and_playable() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/bench_positions/chess.epd");
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let fens: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .collect();
    assert!(fens.len() >= 25, "only {} bench positions", fens.len());
    for fen in fens {
        let pos = Position::from_notation(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert_eq!(pos.result(), None, "{fen} is over");
    }
}

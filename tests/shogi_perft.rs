//! Shogi perft against the counts in `tests/perft/shogi.perft` (published counts and rule
//! probes, every one recounted with cshogi).
//!
//! Every count up to a node budget is checked: small ones on one thread with
//! `qiyi::perft::perft`, big ones with `qiyi::perft::divide` on two threads.

use crate::common;

use qiyi::core::Game;
use qiyi::games::shogi::Position;

/// Largest count checked; an unoptimised build checks far less.
const NODE_BUDGET: u64 = if cfg!(debug_assertions) {
    200_000
} else {
    60_000_000
};

#[test]
fn perft_matches_the_cshogi_verified_counts() {
    let suites = common::load_perft_suite("shogi");
    assert!(suites.len() >= 20, "the perft suite is incomplete");
    let checked = common::check_perft_counts::<Position>(&suites, NODE_BUDGET);
    assert!(checked >= 40, "only {checked} counts checked");
}

#[test]
fn suite_has_the_published_positions_at_their_published_depths() {
    let suites = common::load_perft_suite("shogi");
    let deepest = |prefix: &str| {
        suites
            .iter()
            .filter(|s| s.position.starts_with(prefix))
            .map(|s| s.counts.last().unwrap().0)
            .max()
            .unwrap_or_else(|| panic!("{prefix} missing"))
    };
    assert!(deepest("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b") >= 5);
    assert!(deepest("l6nl/5+P1gk/") >= 3);
    assert!(deepest("R8/2K1S1SSk/") >= 2);
}

#[test]
fn bench_positions_are_valid_and_playable() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/bench_positions/shogi.sfen");
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let sfens: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .collect();
    assert!(sfens.len() >= 12, "only {} bench positions", sfens.len());
    for sfen in sfens {
        let pos = Position::from_notation(sfen).unwrap_or_else(|e| panic!("{sfen}: {e}"));
        assert_eq!(pos.result(), None, "{sfen} is over");
    }
}

//! `UCI_LimitStrength` and `UCI_Elo` through the protocol, as a GUI sets them: declared by
//! chess alone, bad values refused with one error line and the old value kept, a limited
//! search stopped at its level's depth without giving a piece away, and `UCI_Elo` of no
//! effect while `UCI_LimitStrength` is off. Depths, not times, are checked, so a loaded
//! machine changes nothing.

use crate::common::Engine;
use qiyi::games::chess::strength::SCALE;
use std::time::Duration;

/// The black queen on g4 is attacked by the pawn on f3.
const QUEEN_ATTACKED: &str =
    "position fen rnb1kbnr/pppp1ppp/8/4p3/4P1q1/5P2/PPPP2PP/RNBQKBNR b KQkq - 0 3";

/// `go depth <depth>` from `position`: the deepest `info depth` and the best move.
fn search(engine: &mut Engine, position: &str, depth: u32) -> (u32, String) {
    engine.send(position);
    engine.send(&format!("go depth {depth}"));
    let lines = engine.until("bestmove", Duration::from_secs(60));
    let deepest = lines
        .iter()
        .filter_map(|l| l.strip_prefix("info depth "))
        .filter_map(|rest| rest.split(' ').next()?.parse::<u32>().ok())
        .max()
        .expect("info lines");
    let best = lines.last().unwrap().split(' ').nth(1).unwrap().to_string();
    (deepest, best)
}

/// The deepest a search at `elo` may go: its level's depth, or one more on a fraction of
/// the moves.
fn depth_cap(elo: i64) -> u32 {
    1 + (SCALE.level)(elo).ceil() as u32
}

#[test]
fn chess_declares_the_elo_options_and_shogi_does_not() {
    let (_, lines) = Engine::uci_chess();
    assert!(
        lines.contains(&"option name UCI_LimitStrength type check default false".to_string()),
        "{lines:#?}"
    );
    let elo = format!(
        "option name UCI_Elo type spin default {} min {} max {}",
        SCALE.min, SCALE.min, SCALE.max
    );
    assert!(lines.contains(&elo), "{lines:#?}");
    // The scale is one a search can play: the lowest Elo is a weakened search, the whole
    // range within the levels of `Skill Level`.
    assert!((0.0..20.0).contains(&(SCALE.level)(SCALE.min)));
    assert!((SCALE.level)(SCALE.max) <= 20.0);

    let mut shogi = Engine::start(&["--game", "shogi"]);
    shogi.send("usi");
    let lines = shogi.until("usiok", Duration::from_secs(10));
    assert!(!lines.iter().any(|l| l.contains("UCI_Elo")), "{lines:#?}");
}

#[test]
fn bad_elo_values_are_refused_and_the_old_value_kept() {
    let (mut engine, _) = Engine::uci_chess();
    let lines = engine.settle(&[
        "setoption name UCI_LimitStrength value true",
        &format!("setoption name UCI_Elo value {}", SCALE.min),
    ]);
    assert!(!lines.iter().any(|l| l.contains("error")), "{lines:#?}");
    let bad = [
        format!("setoption name UCI_Elo value {}", SCALE.max + 1),
        format!("setoption name UCI_Elo value {}", SCALE.min - 1),
        "setoption name UCI_Elo value strong".to_string(),
        "setoption name UCI_LimitStrength value maybe".to_string(),
    ];
    for line in &bad {
        let lines = engine.settle(&[line]);
        let errors: Vec<_> = lines
            .iter()
            .filter(|l| l.starts_with("info string error: "))
            .collect();
        assert_eq!(errors.len(), 1, "{line}: {lines:#?}");
        assert!(errors[0].contains("UCI_"), "{errors:?}");
    }
    // Still limited, still at the lowest Elo: the search stops at that level's depth.
    let (depth, _) = search(&mut engine, "position startpos", 12);
    assert!(depth <= depth_cap(SCALE.min), "depth {depth}");
}

#[test]
fn a_limited_search_stops_shallow_and_never_hangs_a_piece() {
    let (mut engine, _) = Engine::uci_chess();
    // `Skill Level` at full strength changes nothing: `UCI_Elo` overrides it.
    engine.settle(&[
        "setoption name Skill Level value 20",
        "setoption name UCI_LimitStrength value true",
        &format!("setoption name UCI_Elo value {}", SCALE.min),
    ]);
    for _ in 0..10 {
        let (depth, best) = search(&mut engine, QUEEN_ATTACKED, 12);
        assert!(depth <= depth_cap(SCALE.min), "depth {depth}");
        assert!(best.starts_with("g4"), "{best} leaves the queen en prise");
    }
    // Higher up the scale, deeper (a level near 4 here, which searches in a moment).
    let high = SCALE.min + (SCALE.max - SCALE.min) / 4;
    engine.settle(&[&format!("setoption name UCI_Elo value {high}")]);
    let (depth, best) = search(&mut engine, QUEEN_ATTACKED, 30);
    assert!(depth > depth_cap(SCALE.min), "depth {depth}");
    assert!(depth <= depth_cap(high), "depth {depth}");
    assert!(best.starts_with("g4"), "{best}");
}

#[test]
fn uci_elo_does_nothing_without_uci_limitstrength() {
    let (mut engine, _) = Engine::uci_chess();
    engine.settle(&[
        "setoption name UCI_LimitStrength value true",
        &format!("setoption name UCI_Elo value {}", SCALE.min),
        "setoption name UCI_LimitStrength value false",
    ]);
    let (depth, _) = search(&mut engine, "position startpos", 7);
    assert_eq!(depth, 7);
    // And the full-strength search answers with one line, not the limited search's four.
    engine.send("position startpos");
    engine.send("go depth 5");
    let lines = engine.until("bestmove", Duration::from_secs(60));
    assert!(
        !lines.iter().any(|l| l.contains(" multipv 2 ")),
        "{lines:#?}"
    );
}

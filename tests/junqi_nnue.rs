//! The Junqi network pipeline as a user runs it: `qiyi datagen --game junqi` writes
//! positions, `qiyi train --game junqi` fits a network to them, and the engine plays with
//! it once `EvalFile` names it, in the open game and in the dark one (where every world
//! is evaluated by it). Out of the box Junqi evaluates by hand.

use crate::common::{Engine, TinyNetwork, engine_without_network, tiny_network};
use std::time::Duration;

const SECOND: Duration = Duration::from_secs(1);

/// The score of `go depth 1` in the start position, with a cleared table.
fn shallow_score(engine: &mut Engine) -> String {
    engine.score_at_depth_1("uginewgame", "startpos")
}

#[test]
fn a_junqi_network_trained_on_datagen_positions_plays_through_eval_file() {
    let TinyNetwork { dir, net, .. } = tiny_network("junqi");
    let mut engine = engine_without_network("junqi", "ugi");
    let hand_written = shallow_score(&mut engine);

    engine.settle(&[&format!("setoption name EvalFile value {net}")]);
    assert_ne!(
        shallow_score(&mut engine),
        hand_written,
        "the network is not used"
    );

    // The dark game searches its worlds with the network too, and answers in time.
    engine.settle(&["setoption name Info value dark"]);
    let position = include_str!("data/junqi_dark_long_game.txt");
    engine.send(position.trim());
    engine.send("go movetime 200");
    let lines = engine.until("bestmove", 5 * SECOND);
    let best = lines.last().unwrap();
    assert!(
        best.starts_with("bestmove ") && best != "bestmove resign",
        "{lines:#?}"
    );

    engine.settle(&[
        "setoption name Info value open",
        "setoption name EvalFile value <empty>",
    ]);
    assert_eq!(shallow_score(&mut engine), hand_written);
    let _ = std::fs::remove_dir_all(&dir);
}

//! The network pipeline as a user runs it: `qiyi datagen` writes positions, `qiyi train`
//! fits a network to them, and the engine plays with it once `EvalFile` names it; a file
//! that does not read is refused with one error line and the engine goes on as before.
//! Out of the box the engine plays with its built-in network, an empty `EvalFile` selects
//! the hand-written evaluation, and `UCI_LimitStrength` plays with the hand-written one,
//! which its Elo scale was measured with.

use crate::common::{Engine, TinyNetwork, tiny_network};
use qiyi::games::chess::nnue::EMBEDDED_NAME;
use std::time::Duration;

/// The score of `go depth 1` from the start position, with a cleared table.
fn shallow_score(engine: &mut Engine) -> String {
    score_at_depth_1(engine, "startpos")
}

fn score_at_depth_1(engine: &mut Engine, position: &str) -> String {
    engine.score_at_depth_1("ucinewgame", position)
}

#[test]
fn a_network_trained_on_datagen_positions_plays_through_eval_file() {
    let TinyNetwork { dir, net, .. } = tiny_network("chess");

    let (mut engine, declared) = Engine::uci_chess();
    assert!(
        declared
            .iter()
            .any(|l| *l == format!("option name EvalFile type string default {EMBEDDED_NAME}")),
        "{declared:#?}"
    );
    let built_in = shallow_score(&mut engine);
    engine.settle(&["setoption name EvalFile value <empty>"]);
    let hand_written = shallow_score(&mut engine);
    assert_ne!(built_in, hand_written, "the built-in network is not used");

    // Limited strength plays with the hand-written evaluation, whatever is loaded. It
    // also plays a random move among the good ones, so each position has one legal move
    // (White's king must take the queen) and the score is the evaluation's. Two of them,
    // so that a network that happens to score one as the hand-written evaluation does
    // cannot pass for it.
    let forced = [
        "fen rnb1kbnr/pp1ppppp/2p5/8/P1P5/6PP/1P1PPq2/RNBQKBNR w KQkq - 0 6",
        "fen rnb1kbnr/pppppppp/8/8/P1P5/6PP/1P1PPq2/RNBQKBNR w KQkq - 0 6",
    ];
    let scores = |engine: &mut Engine| -> Vec<String> {
        forced
            .iter()
            .map(|position| score_at_depth_1(engine, position))
            .collect()
    };
    let forced_hand_written = scores(&mut engine);
    engine.settle(&[&format!("setoption name EvalFile value {EMBEDDED_NAME}")]);
    let forced_built_in = scores(&mut engine);
    assert_ne!(forced_built_in, forced_hand_written);
    engine.settle(&["setoption name UCI_LimitStrength value true"]);
    assert_eq!(scores(&mut engine), forced_hand_written);
    engine.settle(&["setoption name UCI_LimitStrength value false"]);
    assert_eq!(scores(&mut engine), forced_built_in);
    engine.send("setoption name EvalFile value <empty>");

    engine.send(&format!(
        "setoption name EvalFile value {}",
        dir.join("missing.nnue").display()
    ));
    let error = engine.ask("isready", "info string error");
    assert!(error.contains("missing.nnue"), "{error}");
    engine.until("readyok", Duration::from_secs(10));
    assert_eq!(
        shallow_score(&mut engine),
        hand_written,
        "a refused file changed the evaluation"
    );

    engine.settle(&[&format!("setoption name EvalFile value {net}")]);
    assert_ne!(
        shallow_score(&mut engine),
        hand_written,
        "the network is not used"
    );
    engine.send("position startpos moves e2e4 e7e5");
    engine.send("go depth 6");
    let best = engine
        .until("bestmove", Duration::from_secs(30))
        .pop()
        .unwrap();
    assert_ne!(best, "bestmove (none)");

    engine.settle(&["setoption name EvalFile value <empty>"]);
    assert_eq!(shallow_score(&mut engine), hand_written);
    engine.settle(&[&format!("setoption name EvalFile value {EMBEDDED_NAME}")]);
    assert_eq!(shallow_score(&mut engine), built_in);
    engine.send("quit");
    assert!(engine.exits_within(Duration::from_secs(10)));
}

//! The shogi network pipeline as a user runs it: `qiyi datagen --game shogi` writes
//! positions, `qiyi train --game shogi` fits a network to them, and the engine plays
//! with it once `EvalFile` names it. Out of the box shogi evaluates by hand (no network
//! is built in); a chess network is refused with one error line.

use crate::common::{Engine, TinyNetwork, engine_without_network, run_qiyi, tiny_network};
use std::time::Duration;

/// The score of `go depth 1` after two opening moves, with a cleared table.
fn shallow_score(engine: &mut Engine) -> String {
    engine.score_at_depth_1("usinewgame", "startpos moves 7g7f 3c3d")
}

#[test]
fn a_shogi_network_trained_on_datagen_positions_plays_through_eval_file() {
    let TinyNetwork { dir, data, net } = tiny_network("shogi");
    let chess_net = dir.join("chess.nnue");
    // The same lines do not make a chess network.
    assert!(!run_qiyi(&[
        "train",
        "--data",
        &data,
        "--out",
        chess_net.to_str().unwrap(),
    ]));

    let mut engine = engine_without_network("shogi", "usi");
    let hand_written = shallow_score(&mut engine);

    // A network of the wrong game is refused, and the evaluation kept.
    let chess_built_in = format!(
        "{}/src/games/chess/{}",
        env!("CARGO_MANIFEST_DIR"),
        qiyi::games::chess::nnue::EMBEDDED_NAME
    );
    let lines = engine.settle(&[&format!("setoption name EvalFile value {chess_built_in}")]);
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string error:") && l.contains("another game")),
        "{lines:#?}"
    );
    assert_eq!(shallow_score(&mut engine), hand_written);

    engine.settle(&[&format!("setoption name EvalFile value {net}")]);
    assert_ne!(
        shallow_score(&mut engine),
        hand_written,
        "the network is not used"
    );
    engine.send("position startpos moves 7g7f 3c3d 8h2b+ 3a2b B*4e");
    engine.send("go depth 5");
    let best = engine
        .until("bestmove", Duration::from_secs(30))
        .pop()
        .unwrap();
    assert!(
        best.starts_with("bestmove ") && best != "bestmove resign",
        "{best}"
    );

    engine.settle(&["setoption name EvalFile value <empty>"]);
    assert_eq!(shallow_score(&mut engine), hand_written);
    let _ = std::fs::remove_dir_all(&dir);
}

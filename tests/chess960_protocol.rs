//! Chess960 over UCI as a GUI speaks it: `UCI_Chess960` declared and honoured, castling
//! read and written king takes rook while it is on and king to its square while it is
//! off, Shredder-FENs and X-FENs read either way, and the engine's state kept when a
//! castling move is spelt the other way.

use crate::common::Engine;

fn uci() -> Engine {
    let (engine, lines) = Engine::uci_chess();
    assert!(
        lines
            .iter()
            .any(|l| l == "option name UCI_Chess960 type check default false"),
        "{lines:#?}"
    );
    engine
}

/// The Fen line of `d`.
fn fen(engine: &mut Engine) -> String {
    engine.ask("d", "Fen: ")["Fen: ".len()..].to_string()
}

#[test]
fn castling_is_spelt_by_the_option() {
    let mut engine = uci();
    // The standard start with the kingside cleared: `e1g1` without the option,
    // `e1h1` with it.
    let cleared = "rnbqk2r/pppppppp/8/8/8/8/PPPPPPPP/RNBQK2R w KQkq - 0 1";
    engine.send(&format!("position fen {cleared}"));
    let best = engine.ask("go depth 3 searchmoves e1g1", "bestmove");
    assert_eq!(best.split_whitespace().nth(1), Some("e1g1"), "{best}");
    engine.send(&format!("position fen {cleared} moves e1g1"));
    assert_eq!(
        fen(&mut engine),
        "rnbqk2r/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1RK1 b kq - 1 1"
    );

    engine.send("setoption name UCI_Chess960 value true");
    engine.send(&format!("position fen {cleared}"));
    assert_eq!(
        fen(&mut engine),
        "rnbqk2r/pppppppp/8/8/8/8/PPPPPPPP/RNBQK2R w HAha - 0 1"
    );
    let best = engine.ask("go depth 3 searchmoves e1h1", "bestmove");
    assert_eq!(best.split_whitespace().nth(1), Some("e1h1"), "{best}");
    // The standard spelling is not a move under the option; the position stays.
    let error = engine.ask(
        &format!("position fen {cleared} moves e1g1"),
        "info string error",
    );
    assert!(error.contains("e1g1"), "{error}");
    assert_eq!(
        fen(&mut engine),
        "rnbqk2r/pppppppp/8/8/8/8/PPPPPPPP/RNBQK2R w HAha - 0 1"
    );
    engine.send(&format!("position fen {cleared} moves e1h1 e8h8"));
    assert_eq!(
        fen(&mut engine),
        "rnbq1rk1/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1RK1 w - - 2 2"
    );
}

#[test]
fn a_chess960_game_from_either_fen_castles_king_takes_rook() {
    let mut engine = uci();
    engine.send("setoption name UCI_Chess960 value true");
    engine.send("ucinewgame");
    // The king on g1 castles with the h rook by moving only the rook, and with the b
    // rook to c1. Shredder-FEN and X-FEN name the same position.
    for start in [
        "1r4kr/pppppppp/8/8/8/8/PPPPPPPP/1R4KR w HBhb - 0 1",
        "1r4kr/pppppppp/8/8/8/8/PPPPPPPP/1R4KR w KQkq - 0 1",
    ] {
        engine.send(&format!("position fen {start}"));
        let moves = engine.legal_moves();
        for (castling, after) in [
            ("g1h1", "1r4kr/pppppppp/8/8/8/8/PPPPPPPP/1R3RK1 b hb - 1 1"),
            ("g1b1", "1r4kr/pppppppp/8/8/8/8/PPPPPPPP/2KR3R b hb - 1 1"),
        ] {
            assert!(moves.iter().any(|m| m == castling), "{castling}: {moves:?}");
            engine.send(&format!("position fen {start} moves {castling}"));
            assert_eq!(fen(&mut engine), after, "{castling}");
        }
    }
    // The engine plays a game against itself and each answer is legal where it stands.
    let mut moves: Vec<String> = Vec::new();
    let start = "nrkbbqnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKQRNB w FAhb - 0 1";
    for _ in 0..40 {
        let line = format!("position fen {start} moves {}", moves.join(" "));
        engine.send(&line);
        let legal = engine.legal_moves();
        if legal.is_empty() {
            break;
        }
        let best = engine.ask("go nodes 2000", "bestmove");
        let mv = best.split_whitespace().nth(1).unwrap().to_string();
        assert!(legal.contains(&mv), "{mv} after {line}");
        moves.push(mv);
    }
}

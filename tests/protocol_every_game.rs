//! Protocol promises that hold for every game alike: a stray `ponderhit` changes nothing,
//! `go perft` is a job that `stop`, `quit`, the end of input and a new position end at
//! once, and options may come in any order around `setoption name Game`.

use crate::common::{Engine, SLACK};
use std::time::{Duration, Instant};

/// Each game with its handshake, a perft depth that takes far longer than the waits
/// below, and the options that make its search (not a table) answer.
const GAMES: [(&str, &str, u32, &[&str]); 4] = [
    ("chess", "uci", 7, &[]),
    ("shogi", "usi", 7, &[]),
    ("junqi", "ugi", 7, &[]),
    (
        "foursquare",
        "ugi",
        16,
        &["setoption name Tablebase value false"],
    ),
];

/// Time in which an answer that must come "at once" surely comes, on a loaded machine.
const AT_ONCE: Duration = SLACK;

/// Waits until the engine has taken up the job just started (`go ...`): commands are
/// read in order, so once `isready` is answered the job is running.
fn job_running(engine: &mut Engine) {
    engine.ask("isready", "readyok");
}

fn start(game: &str, hello: &str, setup: &[&str]) -> Engine {
    let mut engine = Engine::start(&["--game", game]);
    engine.send(hello);
    engine.until(&format!("{hello}ok"), Duration::from_secs(10));
    for line in setup {
        engine.send(line);
    }
    engine.ask("isready", "readyok");
    engine
}

#[test]
fn a_ponderhit_without_a_ponder_search_is_refused_and_keeps_the_cap() {
    for (game, hello, _, setup) in GAMES {
        let mut engine = start(game, hello, setup);
        engine.send("setoption name MoveTimeLimit value 300");
        engine.send("position startpos");
        engine.send("go movetime 200");
        let mut errors = 0;
        // How many ponderhits had been sent when the bestmove came.
        let mut bestmove = None;
        for sent in 0..6 {
            // A ponderhit every 150 ms, each within the 200 ms asked: one that restarted
            // the clock would put the bestmove after the last of them.
            for line in engine.lines_within(Duration::from_millis(150)) {
                if line.starts_with("info string error") {
                    errors += 1;
                } else if line.starts_with("bestmove") {
                    bestmove.get_or_insert(sent);
                }
            }
            engine.send("ponderhit");
        }
        engine.send("isready");
        let rest = engine.until("readyok", AT_ONCE);
        errors += rest
            .iter()
            .filter(|l| l.starts_with("info string error"))
            .count();
        let bestmove = bestmove.unwrap_or_else(|| {
            assert!(
                rest.iter().any(|l| l.starts_with("bestmove")),
                "{game}: no bestmove"
            );
            6
        });
        assert_eq!(errors, 6, "{game}: one error per stray ponderhit");
        // 200 ms asked, 300 ms the cap: the sixth ponderhit comes at 900 ms or later.
        assert!(
            bestmove < 6,
            "{game}: bestmove only after all six ponderhits"
        );
        // And the engine still ponders for real when asked to.
        engine.send("setoption name Ponder value true");
        engine.send("go ponder movetime 100");
        engine.none_within("bestmove", Duration::from_millis(300));
        engine.send("ponderhit");
        let lines = engine.until("bestmove", AT_ONCE);
        assert!(
            !lines.iter().any(|l| l.starts_with("info string error")),
            "{game}: {lines:?}"
        );
    }
}

#[test]
fn go_perft_is_stopped_by_stop_position_quit_and_the_end_of_input() {
    for (game, hello, depth, setup) in GAMES {
        let mut engine = start(game, hello, setup);
        engine.send("position startpos");
        engine.send(&format!("go perft {depth}"));
        // `isready` during the job, then `stop`: the job says it stopped, with no count.
        job_running(&mut engine);
        engine.send("stop");
        let lines = engine.until("info string perft stopped", AT_ONCE);
        assert!(
            !lines.iter().any(|l| l.starts_with("Nodes searched")),
            "{game}: {lines:?}"
        );
        assert!(lines.last().unwrap().contains("root moves counted"));
        // The engine is free again: a shallow perft counts as usual.
        engine.send("go perft 1");
        engine.until("Nodes searched", AT_ONCE);

        // A new position ends the job too, and takes effect.
        engine.send(&format!("go perft {depth}"));
        job_running(&mut engine);
        engine.send("position startpos");
        engine.until("info string perft stopped", AT_ONCE);
        engine.ask("isready", "readyok");

        // `quit` during a perft ends the process at once.
        engine.send(&format!("go perft {depth}"));
        job_running(&mut engine);
        engine.send("quit");
        assert!(engine.exits_within(AT_ONCE), "{game}: quit during perft");

        // So does the end of input.
        let mut engine = start(game, hello, setup);
        engine.send(&format!("go perft {depth}"));
        job_running(&mut engine);
        engine.close();
        assert!(engine.exits_within(AT_ONCE), "{game}: EOF during perft");
    }
}

#[test]
fn perft_on_two_threads_is_stopped_too() {
    let mut engine = start("chess", "uci", &[]);
    engine.send("setoption name Threads value 2");
    engine.send("go perft 7");
    job_running(&mut engine);
    engine.send("stop");
    engine.until("info string perft stopped", AT_ONCE);
    engine.send("go perft 3");
    let lines = engine.until("Nodes searched", AT_ONCE);
    assert_eq!(lines.last().unwrap(), "Nodes searched: 8902");
}

#[test]
fn rule_options_sent_before_the_game_apply_to_it() {
    // A match runner's order: options first (one even before the handshake), then the game.
    let mut engine = Engine::start(&[]);
    engine.send("setoption name MaxPasses value 0");
    engine.send("ugi");
    engine.until("ugiok", Duration::from_secs(10));
    let lines = engine.settle(&[
        "setoption name Threads value 2",
        "setoption name NoCombatDrawPlies value 20",
        "setoption name Game value junqi",
    ]);
    assert!(
        !lines.iter().any(|l| l.contains("error")),
        "no option was refused: {lines:?}"
    );
    // Passes remove nothing: with passes unlimited, nineteen leave the game on (by
    // default the fifth pass of each seat would have put S, E and N out), and the
    // twentieth quiet ply draws (by default fifty would be needed).
    let passes = |n: usize| format!("position startpos moves{}", " pass".repeat(n));
    engine.send(&passes(19));
    assert_eq!(engine.ask("query gameover", "response"), "response false");
    assert_eq!(engine.ask("query turn", "response"), "response W");
    engine.send(&passes(20));
    assert_eq!(engine.ask("query result", "response"), "response draw");

    // A bad value for a game not being played is refused all the same.
    engine.send("setoption name MaxPlies value -3");
    engine.until("info string error", Duration::from_secs(10));
    // FourSquare's option, set while Junqi plays, is kept for FourSquare.
    engine.send("setoption name MaxPlies value 2");
    engine.send("setoption name Game value foursquare");
    engine.send("setoption name Tablebase value false");
    engine.send("position startpos moves b4b3 c1c2");
    assert_eq!(engine.ask("query gameover", "response"), "response true");
    // And back: Junqi gets its settings again.
    engine.send("setoption name Game value junqi");
    engine.send(&passes(20));
    assert_eq!(engine.ask("query result", "response"), "response draw");
    // An option no game has is still unknown.
    engine.send("setoption name NoSuchOption value 1");
    let line = engine.until("info string error", Duration::from_secs(10));
    assert!(line.last().unwrap().contains("unknown option"));
}

#[test]
fn a_hash_size_that_cannot_be_had_is_an_error_not_a_panic() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_qiyi"))
        .args([
            "bench",
            "--game",
            "chess",
            "--hash",
            "100000000",
            "--depth",
            "1",
        ])
        .output()
        .expect("qiyi runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(stderr.contains("cannot allocate"), "{stderr}");
    // Over the protocol, the previous table stays and the engine goes on.
    let mut engine = start("chess", "uci", &[]);
    engine.send("setoption name Hash value 65536");
    engine.send("isready");
    let lines = engine.until("readyok", Duration::from_secs(30));
    assert!(
        lines.iter().any(|l| l.contains("cannot allocate")),
        "{lines:?}"
    );
    engine.send("go depth 3");
    engine.until("bestmove", Duration::from_secs(10));
}

#[test]
fn a_refused_hash_size_leaves_the_running_job_alone() {
    // Found by tools/fuzz_protocol.py: the table was refused only after the running
    // search or perft had been stopped, so a rejected command ended the job.
    for (game, hello, depth, setup) in GAMES {
        let mut engine = start(game, hello, setup);
        for job in ["go infinite".to_string(), format!("go perft {depth}")] {
            engine.send(&job);
            job_running(&mut engine);
            engine.send("setoption name Hash value 65536");
            engine.send("isready");
            let lines = engine.until("readyok", Duration::from_secs(30));
            let errors = lines
                .iter()
                .filter(|l| l.starts_with("info string error"))
                .count();
            assert_eq!(errors, 1, "{game} {job}: {lines:?}");
            assert!(
                !lines
                    .iter()
                    .any(|l| l.starts_with("bestmove") || l.starts_with("info string perft")),
                "{game} {job}: the refused option ended the job: {lines:?}"
            );
            // Still running: another job is refused, and `stop` ends this one.
            assert!(
                engine
                    .ask("go depth 1", "info string error")
                    .contains("already running")
            );
            engine.send("stop");
            let end = if job.starts_with("go perft") {
                "info string perft stopped"
            } else {
                "bestmove"
            };
            engine.until(end, AT_ONCE);
        }
    }
}

#[test]
fn an_oracle_option_sent_before_its_game_is_kept_for_it() {
    // Found by tools/fuzz_protocol.py: FourSquare's `Tablebase` was an unknown
    // option until FourSquare was being played, unlike its rule option `MaxPlies`.
    for args in [&[][..], &["--game", "chess"][..]] {
        let mut engine = Engine::start(args);
        engine.send("setoption name Tablebase value false");
        engine.send("setoption name Game value foursquare");
        engine.send("isready");
        let lines = engine.until("readyok", Duration::from_secs(10));
        assert!(
            !lines.iter().any(|l| l.contains("error")),
            "{args:?}: {lines:?}"
        );
        // The table is off: the search counts its depths instead of reading a mate (with
        // the table on, one line says `score mate -12`).
        engine.send("position startpos");
        engine.send("go depth 3");
        let lines = engine.until("bestmove", Duration::from_secs(10));
        let infos: Vec<&String> = lines.iter().filter(|l| l.starts_with("info")).collect();
        assert_eq!(infos.len(), 3, "{args:?}: {lines:?}");
        assert!(
            infos.iter().all(|l| !l.contains(" mate ")),
            "{args:?}: {lines:?}"
        );
        // From another game, a bad value is refused all the same.
        engine.send("setoption name Game value chess");
        assert!(
            engine
                .ask("setoption name Tablebase value maybe", "info string error")
                .contains("true or false")
        );
    }
}

#[test]
fn a_new_hash_size_ends_the_running_search_before_the_table_is_filled() {
    // The table is reserved before the search is disturbed (a size that cannot be had is
    // refused and the search goes on), but filled only once the search has answered: a
    // 2 GB table takes a second or more to fill, and the search must not run on meanwhile.
    let mut engine = start("chess", "uci", &[]);
    engine.send("go infinite");
    engine.until("info depth", Duration::from_secs(10));
    let sent = Instant::now();
    engine.send("setoption name Hash value 2048");
    engine.send("isready");
    engine.until("bestmove", Duration::from_secs(30));
    let stopped = sent.elapsed();
    // `readyok` comes once the table is filled: the search must have answered before the
    // filling began, so sooner than the filling took (measured on the same machine at the
    // same moment, which a fixed bound is not).
    engine.until("readyok", Duration::from_secs(30));
    let filled = sent.elapsed() - stopped;
    assert!(
        stopped < filled,
        "bestmove after {stopped:?}, then the table filled in {filled:?}"
    );
    engine.send("setoption name Hash value 16");
    engine.ask("isready", "readyok");
}

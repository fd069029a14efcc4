//! UGI sessions against the real binary: handshake, positions, queries, searches under
//! every limit, the per-move cap, stop/isready while searching, and bad input.

use crate::common::{Engine, SLACK};
use std::time::{Duration, Instant};

const SECOND: Duration = Duration::from_secs(1);
const MS: Duration = Duration::from_millis(1);

#[test]
fn handshake_declares_options_and_answers_isready() {
    let mut engine = Engine::start(&[]);
    engine.send("ugi");
    let lines = engine.until("ugiok", 10 * SECOND);
    assert!(lines[0].starts_with("id name qiyi"));
    for option in [
        "Hash",
        "Threads",
        "MultiPV",
        "MoveTimeLimit",
        "Move Overhead",
        "MaxPlies",
        "Tablebase",
    ] {
        let declared = format!("option name {option} type");
        assert!(
            lines.iter().any(|l| l.starts_with(&declared)),
            "{option} missing from {lines:#?}"
        );
    }
    assert_eq!(engine.ask("isready", "readyok"), "readyok");
    // A blank line is not the end of input.
    engine.send("");
    assert_eq!(engine.ask("isready", "readyok"), "readyok");
    engine.send("quit");
    assert!(engine.exits_within(5 * SECOND));
}

#[test]
fn end_of_input_quits_even_while_searching() {
    let mut engine = Engine::ugi();
    engine.send("go infinite");
    // The search is running once it reports.
    engine.until("info", 10 * SECOND);
    engine.close();
    assert!(engine.exits_within(5 * SECOND));
}

#[test]
fn queries_follow_the_position() {
    let mut engine = Engine::ugi();
    engine.send("position startpos");
    assert_eq!(engine.ask("query p1turn", "response"), "response true");
    assert_eq!(engine.ask("query gameover", "response"), "response false");
    assert_eq!(engine.ask("query result", "response"), "response none");
    engine.send("position startpos moves a4a3");
    assert_eq!(engine.ask("query p1turn", "response"), "response false");
    // White is down to one piece: Black (player 1) has won.
    engine.send("position fen bbbb/4/4/w3 w");
    assert_eq!(engine.ask("query gameover", "response"), "response true");
    assert_eq!(engine.ask("query result", "response"), "response p1win");
    assert_eq!(engine.ask("go depth 3", "bestmove"), "bestmove (none)");
    // Equal material at the ply limit is a draw.
    engine.send("setoption name MaxPlies value 10");
    engine.send("position fen bbb1/4/4/1www b 10");
    assert_eq!(engine.ask("query result", "response"), "response draw");
}

#[test]
fn a_capture_in_a_moves_list_is_applied() {
    let mut engine = Engine::ugi();
    // White b2a2 lines up a1-a2 against Black's a3 (pattern B upwards): a3 is taken.
    engine.send("position fen bb2/b3/1w2/w3 w moves b2a2");
    assert_eq!(engine.fsn(), "bb2/4/w3/w3 b 1");
}

fn info_fields(line: &str) -> Vec<&str> {
    line.split_whitespace().collect()
}

/// An engine whose search plays, for the tests of the search's limits and reports: with
/// the tablebase FourSquare needs no search at all.
fn searching_engine() -> Engine {
    let mut engine = Engine::ugi();
    engine.send("setoption name Tablebase value false");
    engine
}

#[test]
fn go_depth_reports_every_iteration_and_a_legal_move() {
    let mut engine = searching_engine();
    engine.send("position startpos moves b4b3 c1c2");
    let legal = engine.legal_moves();
    engine.send("go depth 6");
    let lines = engine.until("bestmove", 30 * SECOND);
    let infos: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    assert_eq!(infos.len(), 6, "{lines:#?}");
    for (i, info) in infos.iter().enumerate() {
        let fields = info_fields(info);
        assert_eq!(fields[2], (i + 1).to_string());
        for key in [
            "seldepth", "multipv", "score", "nodes", "nps", "hashfull", "time", "pv",
        ] {
            assert!(fields.contains(&key), "{key} missing in {info}");
        }
    }
    let best = lines.last().unwrap();
    let fields = info_fields(best);
    assert_eq!(fields.len(), 2, "UGI bestmove is two tokens: {best}");
    assert!(
        legal.contains(&fields[1].to_string()),
        "{best} not in {legal:?}"
    );
}

#[test]
fn multipv_gives_distinct_first_moves() {
    let mut engine = searching_engine();
    engine.send("setoption name MultiPV value 3");
    engine.send("position startpos");
    engine.send("go depth 4");
    let lines = engine.until("bestmove", 30 * SECOND);
    let last: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth 4 "))
        .collect();
    assert_eq!(last.len(), 3, "{lines:#?}");
    let mut firsts: Vec<&str> = last
        .iter()
        .map(|l| {
            let f = info_fields(l);
            f[f.iter().position(|&t| t == "pv").unwrap() + 1]
        })
        .collect();
    firsts.sort();
    firsts.dedup();
    assert_eq!(firsts.len(), 3);
}

#[test]
fn movetime_is_kept() {
    let mut engine = searching_engine();
    engine.send("position startpos");
    let start = Instant::now();
    engine.send("go movetime 1000");
    engine.until("bestmove", 5 * SECOND);
    let took = start.elapsed();
    assert!(took < 1000 * MS + SLACK, "took {took:?}");
    assert!(took > 500 * MS, "gave up early: {took:?}");
}

#[test]
fn the_per_move_cap_beats_a_long_clock() {
    let mut engine = Engine::ugi();
    engine.send("setoption name MoveTimeLimit value 1500");
    engine.send("position startpos");
    let start = Instant::now();
    engine.send("go p1time 3600000 p2time 3600000 movestogo 1");
    engine.until("bestmove", 10 * SECOND);
    let took = start.elapsed();
    // An hour on the clock for one move: without the cap the search would run for minutes.
    assert!(took < 1500 * MS + SLACK, "took {took:?}");
}

#[test]
fn clock_search_uses_its_own_clock() {
    let mut engine = Engine::ugi();
    engine.send("position startpos moves a4a3");
    // White (player 2) is to move with 200 ms; Black's hour must not be used.
    let start = Instant::now();
    engine.send("go p1time 3600000 p2time 200 p1inc 0 p2inc 0");
    engine.until("bestmove", 10 * SECOND);
    // With Black's hour the search would run for minutes.
    let took = start.elapsed();
    assert!(took < 200 * MS + SLACK, "took {took:?}");
}

#[test]
fn infinite_waits_for_stop_and_isready_is_answered_meanwhile() {
    let mut engine = searching_engine();
    engine.send("position startpos");
    engine.send("go infinite");
    // The search is running once it reports.
    engine.until("info depth", 10 * SECOND);
    let start = Instant::now();
    engine.send("isready");
    let lines = engine.until("readyok", 5 * SECOND);
    // Not held back until the search ends: that would be never, since nothing stops it.
    assert!(
        start.elapsed() < SLACK,
        "readyok took {:?}",
        start.elapsed()
    );
    assert!(
        !lines.iter().any(|l| l.starts_with("bestmove")),
        "{lines:#?}"
    );
    // Nothing ends an infinite search but stop; rejected commands leave it running.
    engine.send("setoption name Hash value 0");
    engine.send("position fen nonsense b");
    let errors = engine.until("info string error", 5 * SECOND);
    assert!(!errors.iter().any(|l| l.starts_with("bestmove")));
    engine.none_within("bestmove", 700 * MS);
    let start = Instant::now();
    engine.send("stop");
    engine.until("bestmove", 5 * SECOND);
    assert!(start.elapsed() < SLACK, "stop took {:?}", start.elapsed());
    // Infinite depth-limited too: bestmove only after stop.
    engine.send("go infinite depth 2");
    assert!(
        engine
            .next_line(Duration::from_millis(500))
            .is_none_or(|l| !l.starts_with("bestmove")),
        "finished depth must not end go infinite"
    );
    engine.send("stop");
    engine.until("bestmove", 5 * SECOND);
}

#[test]
fn nodes_limit_stops_the_search() {
    let mut engine = searching_engine();
    engine.send("position startpos");
    engine.send("go nodes 5000");
    let lines = engine.until("bestmove", 30 * SECOND);
    let nodes: Vec<u64> = lines
        .iter()
        .filter(|l| l.starts_with("info"))
        .map(|l| {
            let f = info_fields(l);
            f[f.iter().position(|&t| t == "nodes").unwrap() + 1]
                .parse()
                .unwrap()
        })
        .collect();
    assert!(nodes.iter().all(|&n| n <= 5000), "{nodes:?}");
}

#[test]
fn two_threads_search_and_perft_like_one() {
    let mut engine = searching_engine();
    engine.send("position startpos");
    engine.send("go perft 6");
    let one = engine.until("Nodes searched", 30 * SECOND);
    engine.send("setoption name Threads value 2");
    engine.send("go perft 6");
    let two = engine.until("Nodes searched", 30 * SECOND);
    let mut sorted_one: Vec<&String> = one.iter().filter(|l| !l.is_empty()).collect();
    let mut sorted_two: Vec<&String> = two.iter().filter(|l| !l.is_empty()).collect();
    sorted_one.sort();
    sorted_two.sort();
    assert_eq!(sorted_one, sorted_two);
    engine.send("go depth 8");
    let lines = engine.until("bestmove", 30 * SECOND);
    assert!(lines.iter().any(|l| l.starts_with("info depth 8 ")));
}

#[test]
fn handshakes_pick_their_game_and_the_game_option_switches() {
    // usi picks shogi.
    let mut engine = Engine::start(&[]);
    engine.send("usi");
    let lines = engine.until("usiok", 10 * SECOND);
    assert!(
        !lines.iter().any(|l| l.starts_with("info string error")),
        "{lines:#?}"
    );
    engine.send("position startpos moves 7g7f");
    engine.send("d");
    let lines = engine.until("Sfen: ", 10 * SECOND);
    assert_eq!(
        lines.last().unwrap(),
        "Sfen: lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2"
    );
    // The Game option switches to another game.
    engine.send("setoption name Game value foursquare");
    assert_eq!(engine.ask("isready", "readyok"), "readyok");
    assert_eq!(engine.fsn(), "bbbb/4/4/wwww b");

    let mut engine = Engine::start(&["--game", "shogi"]);
    assert_eq!(engine.ask("isready", "readyok"), "readyok");

    // uci picks chess, which answers with a chess position.
    let mut engine = Engine::start(&[]);
    engine.send("uci");
    engine.until("uciok", 10 * SECOND);
    engine.send("position startpos moves e2e4");
    engine.send("d");
    let lines = engine.until("Fen: ", 10 * SECOND);
    let fen = lines.last().unwrap();
    assert_eq!(
        fen,
        "Fen: rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    );
}

/// Every malformed command gets exactly one error line and leaves the position alone.
#[test]
fn bad_input_battery() {
    let mut engine = Engine::ugi();
    engine.send("position fen b1b1/1w2/2b1/w1w1 w 7");
    let before = engine.fsn();
    let mut bad: Vec<String> = vec![
        "xyzzy".into(),
        "position".into(),
        "position fen".into(),
        "position fen bbbb/4/4/wwww".into(),
        "position fen bbbb/4/4/wwww x".into(),
        "position fen bbbbb/4/4/wwww b".into(),
        "position fen bbbb/4/4 b".into(),
        "position fen bbbb/4/4/www5 b".into(),
        "position fen bbbb/4/4/wwwx b".into(),
        "position fen bbbb/4/4/wwww b -1".into(),
        "position fen bbbb/4/4/wwww b 3 4".into(),
        "position fen bbbb/bbbb/4/wwww b".into(),
        "position startpos moves a4a3 a4a3".into(),
        "position startpos moves a4a5".into(),
        "position startpos moves a1a2".into(),
        "position startpos moves e4e3".into(),
        "position startpos moves a4".into(),
        "position startpos moves a4b3".into(),
        "position startpos moves a4a2".into(),
        "position sideways".into(),
        "setoption name Hash value 0".into(),
        "setoption name Hash value lots".into(),
        "setoption name Hash value 65536".into(),
        "setoption name Threads value -1".into(),
        "setoption name MultiPV value 0".into(),
        "setoption name MoveTimeLimit value 0".into(),
        "setoption name MaxPlies value -3".into(),
        "setoption name Game value checkers".into(),
        "setoption name NoSuchOption value 1".into(),
        "setoption value 3".into(),
        "setoption".into(),
        "go depth".into(),
        "go depth -2".into(),
        "go movetime soon".into(),
        "go nodes 1e9".into(),
        "go wtime 1000".into(),
        "go searchmoves d4d3".into(),
        "go perft".into(),
        "go deploy".into(),
        "go perft x".into(),
        "go perft 1 2".into(),
        "query".into(),
        "query everything".into(),
        "isready now".into(),
        "d please".into(),
        "\u{1}\u{2}\u{3}".into(),
        "x".repeat(100_000),
        format!("position fen {}", "b".repeat(100_000)),
    ];
    let mut rng = 0x2545_f491_4f6c_dd1du64;
    while bad.len() < 320 {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        let len = (rng % 60) as usize + 1;
        let junk: String = (0..len)
            .map(|i| {
                let v = (rng.rotate_left(i as u32 * 7) % 94) as u8 + 33;
                v as char
            })
            .collect();
        bad.push(format!("junk{junk}"));
    }
    for line in &bad {
        engine.send(line);
    }
    // Binary junk that is not valid UTF-8.
    engine.send_bytes(b"\xff\xfe\x00\x80garbage\n");
    engine.send("isready");
    let lines = engine.until("readyok", 30 * SECOND);
    let errors = lines
        .iter()
        .filter(|l| l.starts_with("info string error: "))
        .count();
    assert_eq!(
        errors,
        bad.len() + 1,
        "{:#?}",
        &lines[..lines.len().min(20)]
    );
    assert_eq!(lines.len(), errors + 1, "only error lines and readyok");
    assert!(
        lines.iter().all(|l| l.len() < 300),
        "error lines stay short"
    );
    assert_eq!(engine.fsn(), before, "the position is unchanged");
    engine.send("go depth 2");
    let best = engine.until("bestmove", 10 * SECOND).pop().unwrap();
    let legal = engine.legal_moves();
    assert!(legal.contains(&best[9..].to_string()), "{best}");
}

#[test]
fn ponder_waits_for_ponderhit_then_keeps_the_clock() {
    let mut engine = Engine::ugi();
    engine.send("position startpos moves b4b3");
    engine.send("go ponder p1time 1000 p2time 1000");
    // Pondering ignores the clock: no answer on the opponent's time.
    engine.none_within("bestmove", 600 * MS);
    // After ponderhit the clock (about 1 s left) governs: the answer comes, where a ponder
    // search that went on would never give one.
    let start = Instant::now();
    engine.send("ponderhit");
    engine.until("bestmove", 5 * SECOND);
    assert!(start.elapsed() < SLACK, "{:?}", start.elapsed());
}

//! The engine with the FourSquare tablebase, over UGI against the real binary: whole games
//! against the engine without it, moves checked against an independent brute force, the
//! `Tablebase` option, `go` limits with the table, and the cache being distrusted when it
//! should be.

use crate::common;

use crate::common::minimax::{Proven, minimax, random_fsn};
use crate::common::{Engine, SLACK};
use qiyi::core::Game;
use qiyi::games::foursquare::Position;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

const SECOND: Duration = Duration::from_secs(1);

fn player(tablebase: bool) -> Engine {
    let mut engine = Engine::ugi();
    engine.send(&format!("setoption name Tablebase value {tablebase}"));
    engine.send("uginewgame");
    engine.ask("isready", "readyok");
    engine
}

fn query(engine: &mut Engine, what: &str) -> String {
    engine.ask(&format!("query {what}"), "response")["response ".len()..].to_string()
}

fn field<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let fields: Vec<&str> = line.split_whitespace().collect();
    let at = fields.iter().position(|&f| f == key)?;
    fields.get(at + 1).copied()
}

/// Plays a game from `start` between the engine with the table (as player `table_player`,
/// 0 = player 1) and the engine without it, both at 100 ms a move. Returns the result.
fn play(start: &str, table_player: usize) -> String {
    let mut players = [player(table_player == 0), player(table_player == 1)];
    let mut moves: Vec<String> = Vec::new();
    loop {
        let position = format!("position fen {start} moves {}", moves.join(" "));
        for p in players.iter_mut() {
            p.send(position.trim_end());
        }
        if query(&mut players[0], "gameover") == "true" {
            let result = query(&mut players[0], "result");
            assert_eq!(result, query(&mut players[1], "result"));
            eprintln!(
                "{start}, table as p{}: {result} after {moves:?}",
                table_player + 1
            );
            return result;
        }
        let side = if query(&mut players[0], "p1turn") == "true" {
            0
        } else {
            1
        };
        let legal = players[side].legal_moves();
        let answer = players[side].ask("go movetime 100", "bestmove");
        let mv = answer["bestmove ".len()..].to_string();
        assert!(legal.contains(&mv), "illegal {mv} after {moves:?}");
        moves.push(mv);
        assert!(moves.len() <= 200, "no end after {moves:?}");
    }
}

/// Whoever moves first from the start position loses under perfect play (the table says
/// so, see docs/foursquare.md), so the engine with the table wins from both start
/// positions on the second mover's side: as White when Black starts, as Black when White
/// does. (On the first mover's side it loses: at 100 ms a move the search finds the win.)
#[test]
fn the_table_beats_the_search_from_the_start_with_both_colours() {
    assert_eq!(play("bbbb/4/4/wwww b", 1), "p2win");
    assert_eq!(play("bbbb/4/4/wwww w", 0), "p1win");
}

/// Positions that minimax (no table) proves won or lost within a few plies, from a
/// fixed seed.
fn proven_positions(count: usize) -> Vec<(String, Proven)> {
    let mut rng = StdRng::seed_from_u64(2027);
    let (mut wins, mut losses) = (Vec::new(), Vec::new());
    while wins.len() < count || losses.len() < count {
        let fsn = random_fsn(|n| rng.random_range(0..n));
        let mut pos = Position::from_notation(&fsn).unwrap();
        match minimax(&mut pos, 5) {
            Some(Proven::Win(n)) if n >= 3 && wins.len() < count => {
                wins.push((fsn, Proven::Win(n)))
            }
            Some(Proven::Loss(n)) if n >= 2 && losses.len() < count => {
                losses.push((fsn, Proven::Loss(n)))
            }
            _ => {}
        }
    }
    wins.into_iter().chain(losses).collect()
}

/// The table's move keeps the value and is distance-optimal (the quickest win, the
/// slowest loss), with `score mate` counted in moves as the search counts them; all
/// judged by minimax, not by the table.
#[test]
fn bestmove_from_the_table_keeps_the_value_at_the_best_distance() {
    let mut engine = Engine::ugi();
    engine.ask("isready", "readyok");
    for (fsn, proven) in proven_positions(6) {
        engine.send(&format!("position fen {fsn}"));
        engine.send("go movetime 1000");
        let lines = engine.until("bestmove", 5 * SECOND);
        let info = lines
            .iter()
            .rfind(|l| l.starts_with("info depth"))
            .unwrap_or_else(|| panic!("{fsn}: no info in {lines:#?}"));
        let best = lines.last().unwrap()["bestmove ".len()..].to_string();
        let pos = Position::from_notation(&fsn).unwrap();
        let mut after = pos;
        after.make_move(pos.parse_move(&best).unwrap());
        let (plies, expected_child, mate) = match proven {
            Proven::Win(n) => (n, Proven::Loss(n - 1), format!("{}", n.div_ceil(2))),
            Proven::Loss(n) => (n, Proven::Win(n - 1), format!("-{}", n.div_ceil(2))),
        };
        assert_eq!(
            minimax(&mut after, plies - 1),
            Some(expected_child),
            "{fsn}: {best} after {proven:?}"
        );
        assert_eq!(field(info, "mate"), Some(mate.as_str()), "{fsn}: {info}");
        // The line is perfect play to the end: legal, and as long as the value says.
        let pv: Vec<&str> = info.split(" pv ").nth(1).unwrap().split(' ').collect();
        assert_eq!(pv.len() as u32, plies, "{fsn}: {info}");
        assert_eq!(pv[0], best);
        let mut line = pos;
        for mv in pv {
            let mv = line.parse_move(mv).unwrap();
            line.make_move(mv);
        }
        assert!(line.result().is_some(), "{fsn}: {info}");
    }
}

#[test]
fn the_option_switches_between_table_and_search() {
    let mut engine = Engine::ugi();
    engine.ask("isready", "readyok");
    engine.send("position startpos");
    engine.send("go depth 4");
    let lines = engine.until("bestmove", 5 * SECOND);
    let infos: Vec<&String> = lines.iter().filter(|l| l.starts_with("info")).collect();
    assert_eq!(infos.len(), 1, "{lines:#?}");
    assert_eq!(field(infos[0], "mate"), Some("-12"), "{}", infos[0]);
    assert_eq!(field(infos[0], "depth"), Some("24"), "{}", infos[0]);

    engine.send("setoption name Tablebase value false");
    engine.send("go depth 4");
    let lines = engine.until("bestmove", 10 * SECOND);
    let depths: Vec<&str> = lines.iter().filter_map(|l| field(l, "depth")).collect();
    assert_eq!(depths, ["1", "2", "3", "4"], "{lines:#?}");
    assert!(
        lines.iter().all(|l| field(l, "mate").is_none()),
        "{lines:#?}"
    );

    engine.send("setoption name tablebase value TRUE");
    engine.send("go depth 4");
    let lines = engine.until("bestmove", 5 * SECOND);
    assert!(
        lines.iter().any(|l| field(l, "mate") == Some("-12")),
        "{lines:#?}"
    );
    engine.send("setoption name Tablebase value maybe");
    let error = engine.until("info string error", 5 * SECOND).pop().unwrap();
    assert!(error.contains("Tablebase"), "{error}");
}

/// A known line is still an answer to `go`: infinite and ponder wait for stop or
/// ponderhit, movetime is never exceeded.
#[test]
fn go_limits_hold_with_the_table() {
    let mut engine = Engine::ugi();
    engine.ask("isready", "readyok");
    engine.send("position startpos moves a4a3");
    let start = Instant::now();
    engine.send("go movetime 300");
    engine.until("bestmove", 5 * SECOND);
    let took = start.elapsed();
    assert!(took < Duration::from_millis(300) + SLACK, "{took:?}");

    engine.send("go infinite");
    let info = engine.until("info", 5 * SECOND).pop().unwrap();
    assert!(field(&info, "mate").is_some(), "{info}");
    assert!(
        engine.next_line(Duration::from_millis(500)).is_none(),
        "nothing before stop"
    );
    engine.send("stop");
    let best = engine.until("bestmove", 5 * SECOND).pop().unwrap();
    assert_eq!(best.split_whitespace().count(), 2, "{best}");

    engine.send("go ponder p1time 1000 p2time 1000");
    assert!(
        engine
            .next_line(Duration::from_millis(500))
            .is_none_or(|l| !l.starts_with("bestmove")),
        "bestmove while pondering"
    );
    engine.send("ponderhit");
    engine.until("bestmove", 5 * SECOND);
}

/// A fresh directory under the test's scratch space.
fn scratch(name: &str) -> PathBuf {
    let dir = common::test_cache_dir()
        .parent()
        .unwrap()
        .join(format!("{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// An engine using `cache` answers from the table once ready.
fn plays_from_the_table(cache: &Path) {
    let mut engine = Engine::start_with_cache(&[], cache);
    engine.send("ugi");
    engine.until("ugiok", 10 * SECOND);
    engine.ask("isready", "readyok");
    engine.send("position startpos");
    engine.send("go movetime 1000");
    let lines = engine.until("bestmove", 5 * SECOND);
    assert!(
        lines.iter().any(|l| field(l, "mate") == Some("-12")),
        "{lines:#?}"
    );
}

/// A cache file that is damaged, truncated, of another format or not ours is never
/// trusted: the engine solves again, plays from its own table and writes a good file.
#[test]
fn a_bad_cache_file_is_rebuilt() {
    // The engines the other tests start have filled the shared cache.
    plays_from_the_table(&common::test_cache_dir());
    let good_path = common::test_cache_dir()
        .join("qiyi")
        .join("foursquare-tablebase.bin");
    let good = std::fs::read(&good_path).unwrap();
    let mut damaged = good.clone();
    damaged[good.len() / 2] ^= 0x40;
    let mut old_format = good.clone();
    old_format[8] = old_format[8].wrapping_add(1);
    let cases: [(&str, Vec<u8>); 4] = [
        ("damaged", damaged),
        ("truncated", good[..good.len() - 1000].to_vec()),
        ("old-format", old_format),
        ("not-ours", b"hello".to_vec()),
    ];
    for (name, bytes) in cases {
        let cache = scratch(name);
        let file = cache.join("qiyi").join("foursquare-tablebase.bin");
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(&file, bytes).unwrap();
        plays_from_the_table(&cache);
        assert!(
            std::fs::read(&file).unwrap() == good,
            "{name}: not rewritten"
        );
        let _ = std::fs::remove_dir_all(&cache);
    }
}

/// A cache that cannot be written costs a warning on stderr, nothing more.
#[test]
fn an_unwritable_cache_is_no_obstacle() {
    let dir = scratch("unwritable");
    // A file where the cache directory should be.
    let blocked = dir.join("cache");
    std::fs::write(&blocked, b"").unwrap();
    plays_from_the_table(&blocked);
    let _ = std::fs::remove_dir_all(&dir);
}

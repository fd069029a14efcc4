//! The Junqi dark game over UGI against the real binary: positions given as a referee
//! gives them (`-` for the seats the engine may not see, every ply annotated), in
//! `double-open` and `dark`; moves that are always legal in the true position; `d`
//! showing what is known of the hidden pieces; impossible records refused with one error
//! while the previous position stays.

use crate::common::Engine;
use crate::common::junqi::{Played, SEATS, random_game};
use qiyi::core::{Game, MoveList};
use qiyi::games::junqi::Position;
use std::time::Duration;

const SECOND: Duration = Duration::from_secs(1);

/// The `position` command for a process that sees `sees`.
fn command(game: &Played, sees: [bool; 4], tokens: &[String]) -> String {
    let seats: Vec<String> = (0..4)
        .map(|s| {
            let lineup = if sees[s] {
                game.lineups[s].as_str()
            } else {
                "-"
            };
            format!("{}:{lineup}", SEATS[s])
        })
        .collect();
    let mut text = format!("position setup {} first S", seats.join(" "));
    if !tokens.is_empty() {
        text.push_str(" moves ");
        text.push_str(&tokens.join(" "));
    }
    text
}

fn engine(info: &str) -> Engine {
    let mut engine = Engine::start(&["--game", "junqi"]);
    engine.send("ugi");
    engine.until("ugiok", 10 * SECOND);
    engine.send(&format!("setoption name Info value {info}"));
    engine.send("setoption name Threads value 2");
    engine.ask("isready", "readyok");
    engine
}

/// The lines of `d`, which must carry no error.
fn diagram(engine: &mut Engine) -> Vec<String> {
    engine.send("d");
    engine.send("isready");
    let lines = engine.until("readyok", 10 * SECOND);
    assert!(!lines.iter().any(|l| l.contains("error")), "{lines:#?}");
    lines
}

/// The board `d` draws is the true one, with the rank of every piece of a seat the
/// engine does not see shown as `?` (or the true rank, when the record has revealed it),
/// and no line that gives the whole position away.
fn shows_only_what_is_seen(lines: &[String], truth: &Position, sees: [bool; 4]) {
    let is_row = |l: &&String| l.len() > 3 && l.as_bytes()[1].is_ascii_digit();
    let truth_text = truth.display();
    let expected: Vec<&str> = truth_text.lines().take(17).collect();
    let shown: Vec<&String> = lines.iter().filter(is_row).collect();
    assert_eq!(shown.len(), 17, "{lines:#?}");
    let mut question_marks = 0;
    for (row, want) in shown.iter().zip(&expected) {
        assert_eq!((row.len(), &row[..3]), (want.len(), &want[..3]));
        for (cell, true_cell) in row.as_bytes()[3..]
            .chunks(4)
            .zip(want.as_bytes()[3..].chunks(4))
        {
            let Some(seat) = SEATS.iter().position(|&s| s as u8 == cell[0]) else {
                assert_eq!(cell, true_cell, "{row}\n{want}");
                continue;
            };
            assert_eq!(cell[0], true_cell[0], "{row}\n{want}");
            if cell[1] == b'?' {
                assert!(!sees[seat], "{row}: a rank of {} hidden", SEATS[seat]);
                question_marks += 1;
            } else {
                assert_eq!(cell[1], true_cell[1], "{row}\n{want}");
            }
        }
    }
    assert!(question_marks > 0 || sees.iter().all(|&s| s), "{lines:#?}");
    assert!(!lines.iter().any(|l| l.starts_with("position: ")));
}

#[test]
fn dark_and_double_open_moves_are_legal_in_the_true_position() {
    for (info, sees) in [
        ("dark", [true, false, false, false]),
        ("dark", [false, false, true, false]),
        ("double-open", [true, false, true, false]),
        ("double-open", [false, true, false, true]),
    ] {
        let mut engine = engine(info);
        let mut searched = 0;
        for seed in 0..3 {
            let game = random_game(seed, 160);
            for (tokens, truth) in game.steps.iter().step_by(7) {
                let seat = truth.side_to_move();
                if truth.result().is_some() {
                    continue;
                }
                engine.send(&command(&game, sees, tokens));
                if !sees[seat] {
                    // Never a move for a seat the engine was not given.
                    let error = engine.ask("go movetime 50", "info string error");
                    assert!(error.contains("not given"), "{error}");
                    continue;
                }
                let answer = engine.ask("go movetime 60", "bestmove");
                let mv = answer.split_whitespace().nth(1).unwrap();
                let mut legal = MoveList::new();
                truth.legal_moves(&mut legal);
                let names: Vec<String> = legal.iter().map(|&m| truth.move_name(m)).collect();
                assert!(
                    names.iter().any(|n| n == mv),
                    "{info}: {mv} not in {names:?}"
                );
                searched += 1;
                let lines = diagram(&mut engine);
                let hidden = sees.iter().filter(|&&s| !s).count();
                assert!(hidden == 0 || lines.iter().any(|l| l.starts_with("hidden pieces")));
                shows_only_what_is_seen(&lines, truth, sees);
            }
        }
        assert!(searched >= 10, "{info}: {searched} searches");
    }
}

#[test]
fn impossible_records_are_refused_and_the_position_stays() {
    let mut engine = engine("dark");
    let game = random_game(11, 120);
    let (tokens, _) = &game.steps[game.steps.len() / 2];
    let sees = [true, false, false, false];
    let good = command(&game, sees, tokens);
    engine.send(&good);
    let before = diagram(&mut engine);
    let own_move = tokens
        .iter()
        .position(|t| t.ends_with("=m"))
        .expect("a quiet ply in the record");
    let mut bad_records: Vec<Vec<String>> = Vec::new();
    // A move onto an empty station reported as a combat.
    let mut wrong = tokens.clone();
    wrong[own_move] = wrong[own_move].replace("=m", "=w");
    bad_records.push(wrong);
    // A ply without its report.
    let mut bare = tokens.clone();
    bare[own_move] = bare[own_move].trim_end_matches("=m").to_string();
    bad_records.push(bare);
    // A ply by the wrong seat (two plies swapped), a station that is no station, garbage.
    let mut swapped = tokens.clone();
    swapped.swap(0, 1);
    bad_records.push(swapped);
    bad_records.push([tokens.clone(), vec!["z9z10=m".into()]].concat());
    bad_records.push([tokens.clone(), vec!["i6i7=q".into()]].concat());
    for record in bad_records {
        let line = command(&game, sees, &record);
        engine.send(&line);
        engine.send("isready");
        let lines = engine.until("readyok", 10 * SECOND);
        let errors = lines
            .iter()
            .filter(|l| l.starts_with("info string error"))
            .count();
        assert_eq!(errors, 1, "{line}: {lines:#?}");
        assert_eq!(
            diagram(&mut engine),
            before,
            "the position changed after {line}"
        );
    }
    // A setup that gives no lineup leaves the engine nothing to play: refused too.
    let line = command(&game, [false; 4], &[]);
    let error = engine.ask(&line, "info string error");
    assert!(error.contains("no lineup"), "{error}");
    assert_eq!(diagram(&mut engine), before);
}

#[test]
fn a_position_that_gives_every_rank_is_open_in_any_mode() {
    for info in ["dark", "double-open"] {
        let mut engine = engine(info);
        let game = random_game(3, 40);
        let (tokens, truth) = game.steps.last().unwrap();
        // Every lineup given: the open game, plain plies or annotated ones alike.
        let plain: Vec<String> = tokens
            .iter()
            .filter(|t| !t.starts_with("out:"))
            .map(|t| t.split('=').next().unwrap().to_string())
            .collect();
        for record in [tokens.clone(), plain] {
            engine.send(&command(&game, [true; 4], &record));
            let lines = diagram(&mut engine);
            let expected = format!("position: {}", truth.to_notation());
            assert!(lines.contains(&expected), "{info}: {lines:#?}");
            assert!(!lines.iter().any(|l| l.starts_with("hidden pieces")));
        }
    }
}

/// An engine in the dark game at ply 30 of a random game, seeing the mover's lineup alone.
fn dark_engine_mid_game() -> Engine {
    let mut engine = engine("dark");
    let game = random_game(5, 30);
    let (tokens, truth) = game.steps.last().unwrap();
    let mut sees = [false; 4];
    sees[truth.side_to_move()] = true;
    engine.send(&command(&game, sees, tokens));
    engine
}

/// The last `info` line that counts the worlds, among a search's lines.
fn last_worlds_line(lines: &[String]) -> &String {
    lines
        .iter()
        .rev()
        .find(|l| l.contains(" worlds "))
        .expect("an info line with the worlds")
}

#[test]
fn the_worlds_option_bounds_the_worlds_a_move_searches() {
    let mut engine = dark_engine_mid_game();
    for worlds in [1, 6] {
        engine.send(&format!("setoption name Worlds value {worlds}"));
        // Long enough that only the option can end the search early.
        engine.send("go movetime 20000");
        let lines = engine.until("bestmove", 15 * SECOND);
        let last = last_worlds_line(&lines);
        assert!(last.contains(&format!(" worlds {worlds} ")), "{last}");
    }
    // Depth 0 searches the captures alone below each root move; without a clock the
    // worlds are counted (64 by default), not run to MoveTimeLimit.
    engine.send("setoption name Worlds value 0");
    engine.send("go depth 0");
    let lines = engine.until("bestmove", 15 * SECOND);
    let last = last_worlds_line(&lines);
    assert!(
        last.starts_with("info depth 0 ") && last.contains(" worlds 64 "),
        "{last}"
    );
    let error = engine.ask("setoption name Worlds value -1", "info string error");
    assert!(error.contains("Worlds"), "{error}");
}

/// `Skill Level` reaches the search over worlds: level 0 stops each world at depth 1.
#[test]
fn skill_level_weakens_the_dark_search_too() {
    let mut engine = dark_engine_mid_game();
    engine.send("setoption name Worlds value 2");
    for (level, depth) in [(20, 2), (0, 1)] {
        engine.send(&format!("setoption name Skill Level value {level}"));
        engine.send("go depth 2");
        let lines = engine.until("bestmove", 15 * SECOND);
        let last = last_worlds_line(&lines);
        assert!(
            last.starts_with(&format!("info depth {depth} ")),
            "{level}: {last}"
        );
    }
}

/// A dark engine's move in `position` (a `position` command) within `movetime` ms: the
/// engine, and its lines up to `bestmove`, which must come within five seconds.
fn dark_move(position: &str, movetime: u32) -> (Engine, Vec<String>) {
    let mut engine = engine("dark");
    engine.send(position.trim());
    engine.send(&format!("go movetime {movetime}"));
    let lines = engine.until("bestmove", 5 * SECOND);
    (engine, lines)
}

/// Late in a long dark game dozens of hidden pieces are joined by combats, and a sampler
/// that must prove which ranks can be completed can search for minutes (it once did, and
/// the seat forfeited its game). A move must come within its time, and `d` soon.
#[test]
fn a_long_dark_game_is_answered_in_time() {
    let (mut engine, lines) = dark_move(include_str!("data/junqi_dark_long_game.txt"), 200);
    assert!(
        lines.last().is_some_and(|l| l.starts_with("bestmove ")),
        "{lines:#?}"
    );
    engine.send("d");
    engine.send("isready");
    let lines = engine.until("readyok", 10 * SECOND);
    assert!(
        lines.iter().any(|l| l.starts_with("hidden pieces")),
        "{lines:#?}"
    );
}

/// With few pieces left a world costs little, and the plan that decides the game is
/// longer than one reply: a timed search goes on to deeper worlds. At depth 1 the engine
/// let this won game (a flag four of its moves away) run into the no-combat draw. Two
/// seconds, not one: beside a match and a whole test run, one second once ended at depth 2
/// (its 48 worlds there took 175 ms, more than a quarter of the time left).
#[test]
fn a_timed_search_with_few_pieces_left_goes_deeper() {
    let (_engine, lines) = dark_move(include_str!("data/junqi_dark_endgame.txt"), 2000);
    let last = lines.iter().rev().find(|l| l.starts_with("info depth "));
    let depth: u32 = last
        .and_then(|l| l.split_whitespace().nth(2))
        .and_then(|d| d.parse().ok())
        .unwrap_or(0);
    assert!(depth >= 3, "{lines:#?}");
}

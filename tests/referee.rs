//! `qiyi referee` end to end: short qiyi-against-qiyi matches in seat and team mode whose
//! records replay through the engine, and the forfeits (illegal move, timeout, crash, bad
//! deployment, an engine that will not quit) against the fake engine
//! `tests/referee_fake.sh`, which also shows what each seat was told in the dark game.

use crate::common;

use crate::common::Engine;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The engine under test, as a referee command line.
fn qiyi() -> String {
    format!("'{}' --game junqi", env!("CARGO_BIN_EXE_qiyi"))
}

/// The fake engine logging into `logs`, deploying `lineup`, answering `answers`.
fn fake(logs: &Path, lineup: &str, answers: &str) -> String {
    format!(
        "sh '{}/tests/referee_fake.sh' '{}' {lineup} {answers}",
        env!("CARGO_MANIFEST_DIR"),
        logs.display()
    )
}

/// A fresh directory for one test's files.
fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("referee")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// What a finished match left: its stdout and the record file.
struct Match {
    stdout: String,
    record: String,
}

impl Match {
    /// The `#` header lines and `position` lines of the record, in pairs.
    fn games(&self) -> Vec<(&str, &str)> {
        let lines: Vec<&str> = self.record.lines().collect();
        assert_eq!(lines.len() % 2, 0, "{}", self.record);
        lines
            .chunks(2)
            .map(|pair| {
                assert!(pair[0].starts_with("# game "), "{}", pair[0]);
                assert!(pair[1].starts_with("position setup S:"), "{}", pair[1]);
                (pair[0], pair[1])
            })
            .collect()
    }

    /// The moves list of game `i` (0-based), as tokens.
    fn moves(&self, i: usize) -> Vec<&str> {
        let (_, position) = self.games()[i];
        position
            .split_once(" moves ")
            .map_or(Vec::new(), |(_, moves)| moves.split(' ').collect())
    }

    /// The row of an engine in the final table: illegal, timeouts, crashes, bad
    /// lineups, then its slowest move in milliseconds.
    fn row(&self, engine: &str) -> Vec<u64> {
        let row = self
            .stdout
            .lines()
            .rev()
            .find(|l| l.split_whitespace().next() == Some(engine))
            .unwrap_or_else(|| panic!("no faults row for {engine}: {}", self.stdout));
        row.split_whitespace()
            .skip(1)
            .map(|n| n.parse().unwrap())
            .collect()
    }

    /// The faults of an engine: illegal, timeouts, crashes, bad lineups.
    fn faults(&self, engine: &str) -> Vec<u64> {
        self.row(engine)[..4].to_vec()
    }
}

/// Runs `qiyi referee` with `args` and a record file in `dir`; it must succeed within
/// `limit`.
fn referee(dir: &Path, args: &[&str], limit: Duration) -> Match {
    let record = dir.join("record.txt");
    let mut child = Command::new(env!("CARGO_BIN_EXE_qiyi"))
        .arg("referee")
        .args(args)
        .arg("--out")
        .arg(&record)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("qiyi starts");
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > limit {
            let _ = child.kill();
            panic!("the match took longer than {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let output = child.wait_with_output().unwrap();
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert!(output.status.success(), "{stdout}");
    eprintln!("{stdout}");
    Match {
        stdout,
        record: std::fs::read_to_string(&record).unwrap_or_default(),
    }
}

/// One game of qiyi (A) against the fake engine (B) deploying the default lineup and
/// answering `answers`, seed 1, with `args` added: the match and the fake's logs.
fn against_fake(name: &str, answers: &str, args: &[&str]) -> (Match, PathBuf) {
    let dir = scratch(name);
    let logs = scratch(&format!("{name}-logs"));
    let (a, b) = (
        qiyi(),
        fake(&logs, qiyi::games::junqi::DEFAULT_LINEUP, answers),
    );
    let mut all = vec![
        "--engine", &a, "--engine", &b, "--games", "1", "--seed", "1",
    ];
    all.extend_from_slice(args);
    (referee(&dir, &all, Duration::from_secs(60)), logs)
}

/// The engine's answer to `query result` for a header: `A wins (A S+N)` → `p1win`.
fn expected_result(header: &str) -> &'static str {
    let a_team = if header.contains("(A S+N)") { 0 } else { 1 };
    if header.contains("; A wins") {
        ["p1win", "p2win"][a_team]
    } else if header.contains("; B wins") {
        ["p2win", "p1win"][a_team]
    } else {
        assert!(header.contains("; draw"), "{header}");
        "draw"
    }
}

/// Feeds every recorded game to a fresh engine with the header's rule options: the
/// position is accepted, the game is over with the recorded result, and `d` prints it.
fn replays(game: &Match) {
    for (header, position) in game.games() {
        let mut engine = Engine::start_with_cache(&["--game", "junqi"], &common::test_cache_dir());
        engine.send("ugi");
        engine.until("ugiok", Duration::from_secs(10));
        let rules = header
            .split_once("; rules ")
            .expect("rules in the header")
            .1;
        for rule in rules.split_whitespace() {
            let (name, value) = rule.split_once('=').unwrap();
            engine.send(&format!("setoption name {name} value {value}"));
        }
        engine.send(position);
        let over = engine.ask("query gameover", "");
        assert_eq!(over, "response true", "{header}");
        let result = engine.ask("query result", "");
        assert_eq!(result, format!("response {}", expected_result(header)));
        engine.send("d");
        let diagram = engine.until("position: ", Duration::from_secs(10));
        assert!(
            diagram.iter().all(|l| !l.starts_with("info string error")),
            "{diagram:#?}"
        );
    }
}

/// Short games of qiyi against itself: 20 ms a move, a generous margin, and the
/// no-combat draw after 20 plies.
const QUICK: [&str; 6] = ["--movetime", "20", "--margin", "1000", "--draw-plies", "20"];

/// The `--info` modes qiyi plays.
const QIYI_INFO_MODES: [&str; 3] = ["open", "double-open", "dark"];

#[test]
fn matches_of_qiyi_against_itself_finish_and_replay() {
    let matches = QIYI_INFO_MODES
        .iter()
        .flat_map(|&info| [(info, "--seats", "1"), (info, "--teams", "2")]);
    for (info, mode, concurrency) in matches {
        let dir = scratch(&format!("{info}{mode}"));
        let (a, b) = (qiyi(), qiyi());
        let mut args = vec![
            "--engine",
            &a,
            "--engine",
            &b,
            "--info",
            info,
            mode,
            "--games",
            "2",
            "--concurrency",
            concurrency,
            "--seed",
            "5",
        ];
        args.extend(QUICK);
        let game = referee(&dir, &args, Duration::from_secs(120));
        assert!(game.stdout.contains("game 1/2: "), "{}", game.stdout);
        assert!(game.stdout.contains("game 2/2: "), "{}", game.stdout);
        let summary = format!("2 games, info {info}");
        assert!(game.stdout.contains(&summary), "{}", game.stdout);
        assert!(game.stdout.contains("Elo A - B: "), "{}", game.stdout);
        assert_eq!(game.faults("A"), [0, 0, 0, 0]);
        assert_eq!(game.faults("B"), [0, 0, 0, 0]);
        // Every move came within movetime + margin, and the slowest is reported.
        for engine in ["A", "B"] {
            let slowest = game.row(engine)[4];
            assert!((1..1020).contains(&slowest), "{engine}: {}", game.stdout);
        }
        let games = game.games();
        assert_eq!(games.len(), 2);
        // The pair swaps the teams and keeps the lineups; open plies are plain, the others
        // annotated.
        let setup = |position: &str| position.split(" first ").next().unwrap().to_string();
        assert_eq!(setup(games[0].1), setup(games[1].1));
        assert_ne!(
            games[0].0.contains("(A S+N)"),
            games[1].0.contains("(A S+N)")
        );
        for i in 0..2 {
            let moves = game.moves(i);
            let plain = moves.iter().all(|m| !m.contains('='));
            assert_eq!(plain, info == "open", "{moves:?}");
        }
        replays(&game);
    }
}

/// The baselines of the dark-game matches (`tools/junqi_baseline.py`) as a referee's
/// engines: the advancing player on lineups drawn uniformly and the greedy one on qiyi's
/// finish their games with no fault (a bad lineup would be one).
#[test]
fn the_baseline_players_finish_dark_games() {
    let dir = scratch("baselines");
    let tool = format!("{}/tools/junqi_baseline.py", env!("CARGO_MANIFEST_DIR"));
    let player = |policy: &str, deploy: &str| {
        format!(
            "python3 '{tool}' --qiyi '{}' --policy {policy} --deploy {deploy} --seed 3",
            env!("CARGO_BIN_EXE_qiyi")
        )
    };
    let (a, b) = (player("advance", "uniform"), player("greedy", "engine"));
    let mut args = vec!["--engine", &a, "--engine", &b];
    args.extend("--info dark --seats --lineups engine --games 2 --seed 3".split(' '));
    args.extend(QUICK);
    let game = referee(&dir, &args, Duration::from_secs(120));
    assert!(
        game.stdout.contains("2 games, info dark"),
        "{}",
        game.stdout
    );
    assert_eq!(game.faults("A"), [0, 0, 0, 0]);
    assert_eq!(game.faults("B"), [0, 0, 0, 0]);
    // Every seat of every game is a fresh player: a seed behind the uniform lineups would
    // deal the same one each time.
    let mut dealt: Vec<&str> = (game.games().iter())
        .flat_map(|(_, position)| lineups(position))
        .collect();
    dealt.sort();
    dealt.dedup();
    assert_eq!(dealt.len(), 8, "{}", game.record);
    replays(&game);
}

#[test]
fn open_game_forfeits_illegal_moves_silence_and_crashes() {
    let (game, _) = against_fake(
        "illegal",
        "i1i9",
        &["--movetime", "20", "--max-passes", "2"],
    );
    // E and W each pass twice (their second pass puts them out): A wins.
    assert!(game.stdout.contains("game 1/1: A wins"), "{}", game.stdout);
    assert_eq!(game.faults("B"), [4, 0, 0, 0]);
    assert_eq!(game.faults("A"), [0, 0, 0, 0]);
    let moves = game.moves(0);
    let passes: Vec<usize> = (0..moves.len()).filter(|&i| moves[i] == "pass").collect();
    assert_eq!(passes.len(), 4, "{moves:?}");
    assert!(
        passes.iter().all(|i| i % 2 == 1),
        "passes at E's and W's turns: {moves:?}"
    );
    assert!(game.games()[0].0.contains("E MaxPasses"), "{}", game.record);
    replays(&game);

    // A margin long enough that qiyi, at 20 ms a move on a loaded machine, is never
    // late: only the silent engine may time out.
    let (game, silent_logs) = against_fake(
        "silent",
        "silent",
        &[
            "--teams",
            "--movetime",
            "20",
            "--margin",
            "500",
            "--max-passes",
            "2",
        ],
    );
    assert!(game.stdout.contains("game 1/1: A wins"), "{}", game.stdout);
    assert_eq!(game.faults("B"), [0, 4, 0, 0]);
    let moves = game.moves(0);
    assert_eq!(
        moves.iter().filter(|&&m| m == "timeout").count(),
        4,
        "{moves:?}"
    );
    // The silent engine was told to stop after each timeout.
    let stops: usize = logs_of(&silent_logs)
        .iter()
        .map(|log| log.lines().filter(|&l| l == "stop").count())
        .sum();
    assert!(stops >= 4, "{stops} stops");
    replays(&game);

    // B's processes die at their first turn: E and W are out, each at its turn, written
    // as the `resign` an open engine reads; the others play on.
    let (game, _) = against_fake("crash", "crash", &["--movetime", "20"]);
    assert!(game.stdout.contains("game 1/1: A wins"), "{}", game.stdout);
    assert_eq!(game.faults("B"), [0, 0, 2, 0]);
    let moves = game.moves(0);
    assert_eq!(moves.len(), 4, "{moves:?}");
    assert_eq!((moves[1], moves[3]), ("resign", "resign"), "{moves:?}");
    assert!(
        game.games()[0].0.contains("E crashed, W crashed"),
        "{}",
        game.record
    );
    replays(&game);
}

#[test]
fn seat_clocks_run_down_and_an_empty_clock_times_out() {
    let (game, logs) = against_fake(
        "clock",
        "silent",
        &[
            "--teams",
            "--tc",
            "2+0.1",
            "--margin",
            "300",
            "--max-passes",
            "2",
        ],
    );
    assert!(game.stdout.contains("tc 2+0.1"), "{}", game.stdout);
    assert!(game.stdout.contains("game 1/1: A wins"), "{}", game.stdout);
    assert_eq!(game.faults("B"), [0, 4, 0, 0]);
    assert_eq!(game.faults("A"), [0, 0, 0, 0]);
    // What the silent E+W process was told: every seat's clock; E's, emptied by its
    // timeout, holds its increment alone at its next turn, S's ran down by what S took
    // and gained its increment.
    let log = logs_of(&logs).concat();
    let goes: Vec<Vec<u64>> = log
        .lines()
        .filter(|l| l.starts_with("go stime"))
        .map(|l| {
            l.split_whitespace()
                .skip(1)
                .collect::<Vec<_>>()
                .chunks(2)
                .map(|pair| pair[1].parse().unwrap())
                .collect()
        })
        .collect();
    assert_eq!(goes.len(), 4, "{log}");
    assert_eq!(
        goes[0][1..],
        [2000, 2000, 2000, 100, 100, 100, 100],
        "{log}"
    );
    assert!(goes[0][0] > 100 && goes[0][0] <= 2100, "{log}");
    assert_eq!(goes[2][1], 100, "E's clock after its timeout: {log}");
    replays(&game);
}

/// The logs the fake engines wrote into `dir`.
fn logs_of(dir: &Path) -> Vec<String> {
    let mut logs: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| std::fs::read_to_string(entry.unwrap().path()).unwrap())
        .collect();
    logs.sort();
    logs
}

/// The lineups a `position` line gives, S, E, N, W.
fn lineups(position: &str) -> Vec<&str> {
    position
        .split_whitespace()
        .filter_map(|t| t.split_once(':'))
        .filter(|(seat, _)| seat.len() == 1)
        .map(|(_, lineup)| lineup)
        .collect()
}

#[test]
fn in_the_dark_each_seat_sees_its_own_lineup_and_a_crash_puts_a_seat_out() {
    let dir = scratch("dark");
    let (logs_a, logs_b) = (scratch("dark-logs-a"), scratch("dark-logs-b"));
    let lineup = qiyi::games::junqi::DEFAULT_LINEUP;
    // A's S rides k6k7 then passes (A's N tries k6k7 too: illegal, a pass); B passes
    // once per seat, then crashes.
    let game = referee(
        &dir,
        &[
            "--engine",
            &fake(&logs_a, lineup, "k6k7 pass"),
            "--engine",
            &fake(&logs_b, lineup, "pass crash"),
            "--info",
            "dark",
            "--games",
            "1",
            "--movetime",
            "50",
            "--seed",
            "3",
        ],
        Duration::from_secs(60),
    );
    assert!(game.stdout.contains("game 1/1: A wins"), "{}", game.stdout);
    assert_eq!(
        game.moves(0),
        [
            "k6k7=m", "pass", "pass", "pass", "pass", "out:E", "pass", "out:W"
        ]
    );
    assert!(
        game.games()[0].0.contains("E crashed, W crashed"),
        "{}",
        game.record
    );
    assert_eq!(game.faults("A"), [1, 0, 0, 0]);
    assert_eq!(game.faults("B"), [0, 0, 2, 0]);
    let all = lineups(game.games()[0].1);

    // Four processes, one per seat; each told `Info dark` and only its own lineup.
    let logs: Vec<String> = logs_of(&logs_a)
        .into_iter()
        .chain(logs_of(&logs_b))
        .collect();
    assert_eq!(logs.len(), 4);
    let mut seen_seats = Vec::new();
    for log in &logs {
        assert!(log.contains("setoption name Info value dark\n"), "{log}");
        assert!(log.contains("setoption name MaxPasses value 5\n"), "{log}");
        let positions: Vec<&str> = log.lines().filter(|l| l.starts_with("position")).collect();
        assert!(!positions.is_empty(), "{log}");
        let visible = |position: &str| -> Vec<usize> {
            let given = lineups(position);
            (0..4).filter(|&s| given[s] != "-").collect()
        };
        let seat = visible(positions[0]);
        assert_eq!(seat.len(), 1, "{}", positions[0]);
        for position in &positions {
            assert_eq!(visible(position), seat, "{position}");
            for other in (0..4).filter(|&s| s != seat[0]) {
                assert!(!position.contains(all[other]), "{position}");
            }
        }
        seen_seats.push(seat[0]);
        // Everyone after S's first ply is told its report.
        if seat[0] != 0 {
            assert!(positions[0].contains(" moves k6k7=m"), "{}", positions[0]);
        }
    }
    seen_seats.sort();
    assert_eq!(seen_seats, [0, 1, 2, 3]);
    // N's last position shows E's forfeit as out:E.
    let north = logs
        .iter()
        .find(|log| log.contains(" N:") && !log.contains(" N:-"))
        .unwrap();
    assert!(north.contains("pass pass pass pass out:E"), "{north}");
}

#[test]
fn engine_lineups_are_used_bad_ones_replaced_and_stubborn_engines_killed() {
    let dir = scratch("deploy");
    let logs = scratch("deploy-logs");
    let game = referee(
        &dir,
        &[
            "--engine",
            &qiyi(),
            "--engine",
            &fake(&logs, "nonsense", "--stubborn resign"),
            "--lineups",
            "engine",
            "--teams",
            "--games",
            "2",
            "--movetime",
            "50",
            "--seed",
            "9",
        ],
        Duration::from_secs(60),
    );
    // B resigns both of its seats at once in each game; its two lineups per game were
    // replaced.
    assert!(game.stdout.contains("game 1/2: A wins"), "{}", game.stdout);
    assert!(game.stdout.contains("game 2/2: A wins"), "{}", game.stdout);
    assert_eq!(game.faults("B"), [0, 0, 0, 4]);
    assert_eq!(game.faults("A"), [0, 0, 0, 0]);
    for (i, (header, position)) in game.games().into_iter().enumerate() {
        assert!(game.moves(i).contains(&"resign"), "{position}");
        assert!(header.contains("resigned"), "{header}");
        for lineup in lineups(position) {
            assert!(
                qiyi::games::junqi::parse_lineup(0, lineup).is_ok(),
                "{lineup}"
            );
        }
    }
    // qiyi deployed: its lineups differ between the two games (a fresh draw each time).
    let a_lineups = |i: usize| {
        let (header, position) = game.games()[i];
        let given = lineups(position);
        if header.contains("(A S+N)") {
            (given[0].to_string(), given[2].to_string())
        } else {
            (given[1].to_string(), given[3].to_string())
        }
    };
    assert_ne!(a_lineups(0), a_lineups(1));
    replays(&game);

    // The stubborn fake ignored quit and the end of input: it was killed.
    for log in logs_of(&logs) {
        assert!(log.contains("go deploy"), "{log}");
        let pid = log.lines().next().unwrap().strip_prefix("pid ").unwrap();
        assert!(
            !Path::new(&format!("/proc/{pid}")).exists(),
            "fake engine {pid} outlived its game"
        );
    }
}

#[test]
fn games_from_recorded_positions_go_on_from_them() {
    // A finished dark game; its first ten plies are the start, its whole record a game
    // already over (left out), and a `#` line is skipped.
    let dir = scratch("from");
    let (a, b) = (qiyi(), qiyi());
    let mut dark = vec![
        "--engine", &a, "--engine", &b, "--info", "dark", "--seed", "9",
    ];
    dark.extend(QUICK);
    let first_dir = dir.join("first");
    std::fs::create_dir_all(&first_dir).unwrap();
    let mut args = dark.to_vec();
    args.extend(["--games", "1"]);
    let first = referee(&first_dir, &args, Duration::from_secs(60));
    let (header, whole) = first.games()[0];
    let prefix: Vec<&str> = first.moves(0)[..10].to_vec();
    let (setup, _) = whole.split_once(" moves ").unwrap();
    let start = format!("{setup} moves {}", prefix.join(" "));
    let file = dir.join("starts.txt");
    std::fs::write(&file, format!("{header}\n{whole}\n{start}\n")).unwrap();

    let mut args = dark.to_vec();
    args.extend(["--games", "2", "--from", file.to_str().unwrap()]);
    let game = referee(&dir, &args, Duration::from_secs(120));
    assert!(game.stdout.contains("(1 positions)"), "{}", game.stdout);
    assert_eq!(game.faults("A"), [0, 0, 0, 0]);
    assert_eq!(game.faults("B"), [0, 0, 0, 0]);
    for (i, (_, position)) in game.games().iter().enumerate() {
        assert!(position.starts_with(&start), "{position}");
        assert!(game.moves(i).len() > prefix.len(), "{position}");
    }
    replays(&game);

    // A start with an impossible ply (the tenth again, its piece gone) is one error
    // naming its line; nothing is played.
    let again = prefix[9].split('=').next().unwrap();
    let bad = dir.join("bad.txt");
    std::fs::write(&bad, format!("{start} {again}\n")).unwrap();
    let refused = || {
        let output = Command::new(env!("CARGO_BIN_EXE_qiyi"))
            .args(["referee", "--engine", &a, "--engine", &b, "--from"])
            .arg(&bad)
            .output()
            .unwrap();
        assert!(!output.status.success());
        String::from_utf8_lossy(&output.stderr).into_owned()
    };
    let stderr = refused();
    assert!(stderr.contains("bad.txt line 1"), "{stderr}");
    assert!(stderr.contains("ply 11"), "{stderr}");

    // So is a report the lineups do not give: a move to an empty station told as a win.
    let quiet = prefix.iter().position(|p| p.ends_with("=m")).unwrap();
    let mut wrong = prefix.clone();
    let won = wrong[quiet].replace("=m", "=w");
    wrong[quiet] = &won;
    std::fs::write(&bad, format!("{setup} moves {}\n", wrong.join(" "))).unwrap();
    let stderr = refused();
    assert!(stderr.contains(&format!("ply {}", quiet + 1)), "{stderr}");
    assert!(stderr.contains("the lineups give"), "{stderr}");
}

//! Drives the real `qiyi` binary over stdin/stdout, as a GUI or match runner would.

#![allow(dead_code)]

pub mod junqi;
pub mod minimax;

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::OnceLock;
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// What a loaded machine may add to an answer that should come at once, or to a time
/// limit the engine keeps: generous, because the tests prove behaviour (an answer that
/// comes, a limit that is kept), not speed, which is the benchmarks' business.
pub const SLACK: Duration = Duration::from_secs(3);

pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

/// Runs `qiyi` with `args` (a subcommand such as `datagen` or `train`), its stderr
/// silenced; whether it succeeded.
pub fn run_qiyi(args: &[&str]) -> bool {
    Command::new(env!("CARGO_BIN_EXE_qiyi"))
        .args(args)
        .stderr(Stdio::null())
        .status()
        .expect("qiyi runs")
        .success()
}

/// The files of [`tiny_network`]'s run, as strings for command lines.
pub struct TinyNetwork {
    pub dir: PathBuf,
    pub data: String,
    pub net: String,
}

/// The network pipeline's smallest run for `game`, as a user runs it: `qiyi datagen` for
/// eight short games, then `qiyi train` on their positions, in a fresh directory of the
/// tests' own; both must succeed.
pub fn tiny_network(game: &str) -> TinyNetwork {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("{game}-nnue"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let data = dir.join("data.txt").to_str().unwrap().to_string();
    let net = dir.join("net.nnue").to_str().unwrap().to_string();
    let datagen = [
        "datagen",
        "--game",
        game,
        "--games",
        "8",
        "--nodes",
        "400",
        "--max-plies",
        "80",
        "--threads",
        "2",
        "--out",
        &data,
    ];
    assert!(run_qiyi(&datagen), "qiyi {datagen:?}");
    let train = [
        "train", "--game", game, "--data", &data, "--out", &net, "--epochs", "3", "--batch", "256",
    ];
    assert!(run_qiyi(&train), "qiyi {train:?}");
    TinyNetwork { dir, data, net }
}

/// An engine of `game` after its handshake (`usi`, `ugi`), which must declare `EvalFile`
/// empty by default: no network is built in, the hand-written evaluation plays.
pub fn engine_without_network(game: &str, handshake: &str) -> Engine {
    let mut engine = Engine::start(&["--game", game]);
    engine.send(handshake);
    let declared = engine.until(&format!("{handshake}ok"), Duration::from_secs(10));
    assert!(
        declared
            .iter()
            .any(|l| l == "option name EvalFile type string default <empty>"),
        "{declared:#?}"
    );
    engine.ask("isready", "readyok");
    engine
}

/// The cache directory the test engines use, so that tests never touch the user's own
/// (`$XDG_CACHE_HOME`, where the FourSquare tablebase is cached).
pub fn test_cache_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("xdg-cache")
}

/// Fills the test cache with the FourSquare tablebase once per test binary, so that the
/// engines the tests start load it instead of each solving the game at the same time.
fn warm_tablebase_cache() {
    static WARM: OnceLock<()> = OnceLock::new();
    WARM.get_or_init(|| {
        let mut engine = Engine::start_with_cache(&["--game", "foursquare"], &test_cache_dir());
        engine.send("isready");
        engine.until("readyok", Duration::from_secs(300));
        engine.send("quit");
        engine.exits_within(Duration::from_secs(10));
    });
}

impl Engine {
    pub fn start(args: &[&str]) -> Engine {
        warm_tablebase_cache();
        Engine::start_with_cache(args, &test_cache_dir())
    }

    /// Starts the engine with `cache` as its `XDG_CACHE_HOME`.
    pub fn start_with_cache(args: &[&str], cache: &Path) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_qiyi"))
            .args(args)
            .env("XDG_CACHE_HOME", cache)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("qiyi starts");
        let stdout = child.stdout.take().unwrap();
        let (sender, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        Engine {
            child,
            stdin,
            lines,
        }
    }

    pub fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(line.as_bytes()).unwrap();
        stdin.write_all(b"\n").unwrap();
        stdin.flush().unwrap();
    }

    pub fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).unwrap();
        stdin.flush().unwrap();
    }

    /// Closes stdin (end of input).
    pub fn close(&mut self) {
        self.stdin = None;
    }

    /// The next line, or `None` after `timeout`.
    pub fn next_line(&mut self, timeout: Duration) -> Option<String> {
        match self.lines.recv_timeout(timeout) {
            Ok(line) => Some(line),
            Err(RecvTimeoutError::Timeout) | Err(RecvTimeoutError::Disconnected) => None,
        }
    }

    /// Every line the engine prints during `window` (a wait that paces a test, or watches
    /// for something that must not happen, in place of a sleep).
    pub fn lines_within(&mut self, window: Duration) -> Vec<String> {
        let deadline = Instant::now() + window;
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return seen;
            }
            match self.lines.recv_timeout(left) {
                Ok(line) => seen.push(line),
                // Timed out, or the engine's output has ended (it exited).
                Err(_) => return seen,
            }
        }
    }

    /// Watches the output for `window` and panics if a line starting with `prefix` comes
    /// (a `bestmove` before `stop`, say); the lines seen.
    pub fn none_within(&mut self, prefix: &str, window: Duration) -> Vec<String> {
        let seen = self.lines_within(window);
        assert!(
            !seen.iter().any(|l| l.starts_with(prefix)),
            "'{prefix}' within {window:?}: {seen:#?}"
        );
        seen
    }

    /// Lines up to and including the first that starts with `prefix`; panics after `timeout`.
    pub fn until(&mut self, prefix: &str, timeout: Duration) -> Vec<String> {
        let deadline = Instant::now() + timeout;
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.next_line(left) {
                Some(line) => {
                    let done = line.starts_with(prefix);
                    seen.push(line);
                    if done {
                        return seen;
                    }
                }
                None => panic!("no '{prefix}' within {timeout:?}; saw {seen:#?}"),
            }
        }
    }

    /// Sends `line` and returns the answer line that starts with `prefix`.
    pub fn ask(&mut self, line: &str, prefix: &str) -> String {
        self.send(line);
        self.until(prefix, Duration::from_secs(10)).pop().unwrap()
    }

    /// Sends `lines`, then `isready`: every line the engine printed up to `readyok` (an
    /// option's error, say).
    pub fn settle(&mut self, lines: &[&str]) -> Vec<String> {
        for line in lines {
            self.send(line);
        }
        self.send("isready");
        self.until("readyok", Duration::from_secs(10))
    }

    /// The score of `go depth 1` from `position` (`startpos ...` or `fen ...`/`sfen ...`)
    /// after `new_game` (`ucinewgame`, `usinewgame`) has cleared the table: at depth 1 it
    /// is the evaluation's, which tells which evaluation the engine plays with.
    pub fn score_at_depth_1(&mut self, new_game: &str, position: &str) -> String {
        self.send(new_game);
        self.send(&format!("position {position}"));
        self.send("go depth 1");
        let lines = self.until("bestmove", Duration::from_secs(10));
        let info = lines
            .iter()
            .rev()
            .find(|l| l.contains(" score "))
            .expect("an info line");
        info.split(" score ")
            .nth(1)
            .unwrap()
            .split(" nodes")
            .next()
            .unwrap()
            .to_string()
    }

    /// Chess over UCI: the handshake's lines (the options it declares), then `isready`.
    pub fn uci_chess() -> (Engine, Vec<String>) {
        let mut engine = Engine::start(&["--game", "chess"]);
        engine.send("uci");
        let lines = engine.until("uciok", Duration::from_secs(10));
        engine.ask("isready", "readyok");
        (engine, lines)
    }

    /// `ugi` handshake plus `isready`.
    pub fn ugi() -> Engine {
        let mut engine = Engine::start(&[]);
        engine.send("ugi");
        engine.until("ugiok", Duration::from_secs(10));
        engine.ask("isready", "readyok");
        engine
    }

    /// The legal moves of the current position, from `go perft 1`.
    pub fn legal_moves(&mut self) -> Vec<String> {
        self.send("go perft 1");
        let lines = self.until("Nodes searched", Duration::from_secs(10));
        lines
            .iter()
            .filter_map(|l| l.split_once(": ").map(|(mv, _)| mv.to_string()))
            .filter(|mv| mv != "Nodes searched")
            .collect()
    }

    /// The position's FSN as `d` prints it.
    pub fn fsn(&mut self) -> String {
        self.send("d");
        let line = self.until("FSN: ", Duration::from_secs(10)).pop().unwrap();
        line["FSN: ".len()..].to_string()
    }

    /// Waits for the process to exit; `false` if it has not after `timeout`.
    pub fn exits_within(&mut self, timeout: Duration) -> bool {
        let deadline = Instant::now() + timeout;
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return true;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        false
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One line of a perft data file (`tests/perft/<game>.perft`): a position in the game's
/// notation and its published or independently counted leaf counts by depth.
pub struct PerftSuite {
    pub position: String,
    pub counts: Vec<(u32, u64)>,
}

/// Checks every count of `suites` up to `node_budget` nodes: small ones on one thread
/// with `qiyi::perft::perft`, counts of two million and more with `qiyi::perft::divide` on
/// two threads; and that perft leaves each position as it found it. Returns how many
/// counts were checked.
pub fn check_perft_counts<G: qiyi::core::Game + PartialEq + std::fmt::Debug>(
    suites: &[PerftSuite],
    node_budget: u64,
) -> usize {
    const THREADED_FROM: u64 = 2_000_000;
    let mut checked = 0;
    for suite in suites {
        let mut pos =
            G::from_notation(&suite.position).unwrap_or_else(|e| panic!("{}: {e}", suite.position));
        for &(depth, expected) in &suite.counts {
            if expected > node_budget {
                continue;
            }
            let found = if expected >= THREADED_FROM {
                qiyi::perft::divide(&pos, depth, 2)
                    .iter()
                    .map(|&(_, n)| n)
                    .sum()
            } else {
                qiyi::perft::perft(&mut pos, depth)
            };
            assert_eq!(found, expected, "{} depth {depth}", suite.position);
            checked += 1;
        }
        assert_eq!(pos, G::from_notation(&suite.position).unwrap());
    }
    checked
}

/// Reads `tests/perft/<game>.perft`: `<position> ;D1 n ;D2 n ...` per line, `#` comments.
pub fn load_perft_suite(game: &str) -> Vec<PerftSuite> {
    let path = format!("{}/tests/perft/{game}.perft", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .map(|line| {
            let mut parts = line.split(';');
            let position = parts.next().unwrap_or_default().trim().to_string();
            let counts = parts
                .map(|part| {
                    let (depth, count) = part
                        .trim()
                        .split_once(' ')
                        .unwrap_or_else(|| panic!("{line}"));
                    let depth = depth.strip_prefix('D').unwrap_or_else(|| panic!("{line}"));
                    (depth.parse().unwrap(), count.trim().parse().unwrap())
                })
                .collect();
            PerftSuite { position, counts }
        })
        .collect()
}

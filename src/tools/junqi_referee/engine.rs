//! One engine process as the referee (and `qiyi play`) drives it: started from a shell-like
//! command line, spoken to in UGI, UCI or USI, read on its own thread (so every wait has a
//! deadline), and always ended — `quit`, then a kill after a grace period — and reaped, so
//! no zombie is left.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// How long a process may take to answer `ugi` and `isready` before a game.
const STARTUP: Duration = Duration::from_secs(10);
/// How long a process has to exit after `quit` before it is killed.
const GRACE: Duration = Duration::from_secs(1);

/// An engine as the match names it: its command line and the options it is given before
/// every game.
#[derive(Clone, Debug)]
pub struct EngineSpec {
    /// The command line as given, for the table and the record.
    pub command: String,
    program: String,
    args: Vec<String>,
    /// `setoption` pairs, in the order given.
    pub options: Vec<(String, String)>,
}

impl EngineSpec {
    /// Reads a command line and `Name=Value` options.
    pub fn new(command: &str, options: &[String]) -> anyhow::Result<EngineSpec> {
        let mut words = split_command(command)?;
        if words.is_empty() {
            anyhow::bail!("empty engine command '{command}'");
        }
        let program = words.remove(0);
        let options = options
            .iter()
            .map(|text| parse_option(text))
            .collect::<anyhow::Result<_>>()?;
        Ok(EngineSpec {
            command: command.to_string(),
            program,
            args: words,
            options,
        })
    }
}

/// Splits a command line into words as a shell would, without running one: blanks
/// separate words, `'...'` keeps everything literally, `"..."` keeps everything but a
/// backslash before `"` or `\`, and a backslash outside quotes keeps the next character.
/// No variables, globs or pipes.
pub fn split_command(text: &str) -> anyhow::Result<Vec<String>> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => words.extend(word.take()),
            '\'' => {
                let current = word.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => current.push(c),
                        None => anyhow::bail!("unclosed ' in engine command '{text}'"),
                    }
                }
            }
            '"' => {
                let current = word.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c @ ('"' | '\\')) => current.push(c),
                            Some(c) => {
                                current.push('\\');
                                current.push(c);
                            }
                            None => anyhow::bail!("unclosed \" in engine command '{text}'"),
                        },
                        Some(c) => current.push(c),
                        None => anyhow::bail!("unclosed \" in engine command '{text}'"),
                    }
                }
            }
            '\\' => match chars.next() {
                Some(c) => word.get_or_insert_with(String::new).push(c),
                None => anyhow::bail!("a lone \\ ends engine command '{text}'"),
            },
            c => word.get_or_insert_with(String::new).push(c),
        }
    }
    words.extend(word);
    Ok(words)
}

/// `Name=Value` (the name may hold spaces, like `Move Overhead=50`).
fn parse_option(text: &str) -> anyhow::Result<(String, String)> {
    match text.split_once('=') {
        Some((name, value)) if !name.trim().is_empty() => {
            Ok((name.trim().to_string(), value.trim().to_string()))
        }
        _ => anyhow::bail!("bad engine option '{text}': expected Name=Value"),
    }
}

/// How a process answered a request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// The rest of the awaited line after its keyword, e.g. the move of `bestmove i6i7`.
    Given(String),
    /// Nothing by the deadline.
    Late,
    /// The process is gone: its output ended or a write to it failed.
    Gone,
}

/// A running engine process.
pub struct Player {
    /// Who this is in logs, like `A/S+N`.
    label: String,
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// `bestmove` lines still owed for searches stopped after their deadline: the next
    /// ones to arrive answer those, not the current search.
    stale: usize,
    gone: bool,
    /// `info string error` lines since the last [`Player::take_errors`].
    errors: Vec<String>,
    /// How long the last move given in time took, from `position` sent to `bestmove`
    /// read: what the engine's time use looks like from outside, parsing and pipes
    /// included.
    last: Duration,
}

impl Player {
    /// Starts the process; failing to start it at all (no such program) is an error of the
    /// match, not a forfeit.
    pub fn start(spec: &EngineSpec, label: String) -> anyhow::Result<Player> {
        let mut child = Command::new(&spec.program)
            .args(&spec.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| anyhow::anyhow!("cannot start engine '{}': {e}", spec.command))?;
        let stdout = child.stdout.take().expect("stdout is piped");
        let (sender, lines) = channel();
        std::thread::Builder::new()
            .name(format!("{label} out"))
            .spawn(move || {
                let mut reader = BufReader::new(stdout);
                let mut bytes = Vec::new();
                loop {
                    bytes.clear();
                    match reader.read_until(b'\n', &mut bytes) {
                        Ok(0) | Err(_) => break,
                        Ok(_) => {
                            let line = String::from_utf8_lossy(&bytes).trim_end().to_string();
                            if sender.send(line).is_err() {
                                break;
                            }
                        }
                    }
                }
            })?;
        Ok(Player {
            label,
            stdin: child.stdin.take(),
            child,
            lines,
            stale: 0,
            gone: false,
            errors: Vec::new(),
            last: Duration::ZERO,
        })
    }

    pub fn label(&self) -> &str {
        &self.label
    }

    /// Whether the process has been found gone (it is then never spoken to again).
    pub fn is_gone(&self) -> bool {
        self.gone
    }

    /// How long the last move given in time took.
    pub fn last(&self) -> Duration {
        self.last
    }

    /// The `info string error` lines seen since the last call.
    pub fn take_errors(&mut self) -> Vec<String> {
        std::mem::take(&mut self.errors)
    }

    /// Writes one line; `false` (and the process counts as gone) if it cannot be written.
    fn send(&mut self, line: &str) -> bool {
        if self.gone {
            return false;
        }
        log::debug!("{} << {line}", self.label);
        let written = self.stdin.as_mut().is_some_and(|stdin| {
            stdin
                .write_all(line.as_bytes())
                .and_then(|()| stdin.write_all(b"\n"))
                .and_then(|()| stdin.flush())
                .is_ok()
        });
        if !written {
            log::warn!("{}: cannot write to the engine", self.label);
            self.gone = true;
        }
        written
    }

    /// Reads lines until one whose first word is `keyword`, or the deadline; keeps any
    /// `info string error` line seen on the way.
    fn expect(&mut self, keyword: &str, deadline: Instant) -> Answer {
        if self.gone {
            return Answer::Gone;
        }
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    log::debug!("{} >> {line}", self.label);
                    let mut words = line.split_whitespace();
                    if words.next() == Some(keyword) {
                        return Answer::Given(words.collect::<Vec<_>>().join(" "));
                    }
                    if line.starts_with("info string error") {
                        self.errors.push(line);
                    }
                }
                Err(RecvTimeoutError::Timeout) => return Answer::Late,
                Err(RecvTimeoutError::Disconnected) => {
                    log::warn!("{}: the engine's output ended", self.label);
                    self.gone = true;
                    return Answer::Gone;
                }
            }
        }
    }

    /// The handshake before a game in `protocol` (`ugi`, `uci` or `usi`): the protocol's
    /// name, the options, its new-game command, `isready`. `false` if the process is gone
    /// or silent.
    pub fn prepare(&mut self, protocol: &str, options: &[(String, String)]) -> bool {
        let deadline = Instant::now() + STARTUP;
        if !self.send(protocol)
            || self.expect(&format!("{protocol}ok"), deadline) != Answer::Given(String::new())
        {
            self.gone = true;
            return false;
        }
        let ready = self.set_options(options)
            && self.send(&format!("{protocol}newgame"))
            && self.send("isready")
            && matches!(self.expect("readyok", deadline), Answer::Given(_));
        if !ready {
            self.gone = true;
        }
        ready
    }

    /// Sends `setoption` for each pair; `false` if the process is gone.
    pub fn set_options(&mut self, options: &[(String, String)]) -> bool {
        options
            .iter()
            .all(|(name, value)| self.send(&format!("setoption name {name} value {value}")))
    }

    /// Sends `lines`, then `isready`, and returns every line before `readyok` (for
    /// commands answered in free text, like `d`); `None` if the process is gone or silent
    /// within `time`.
    pub fn ask(&mut self, lines: &[String], time: Duration) -> Option<Vec<String>> {
        if self.stale > 0 || !lines.iter().all(|line| self.send(line)) || !self.send("isready") {
            return None;
        }
        let deadline = Instant::now() + time;
        let mut answer = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) if line.trim() == "readyok" => return Some(answer),
                Ok(line) => answer.push(line),
                Err(RecvTimeoutError::Timeout) => return None,
                Err(RecvTimeoutError::Disconnected) => {
                    self.gone = true;
                    return None;
                }
            }
        }
    }

    /// Asks for a lineup (`go deploy`) in `position`; the answer is the lineup.
    pub fn deploy(&mut self, position: &str, time: Duration) -> Answer {
        let deadline = Instant::now() + time;
        if !(self.send(position) && self.send("go deploy")) {
            return Answer::Gone;
        }
        self.expect("deploy", deadline)
    }

    /// Asks for a move: `position`, then `go movetime`; waits `movetime + margin`. A late
    /// engine is sent `stop`, and the answer it owes is drained (or skipped when it comes
    /// later).
    pub fn go(&mut self, position: &str, movetime: u64, margin: u64) -> Answer {
        self.go_with(
            position,
            &format!("go movetime {movetime}"),
            movetime,
            margin,
        )
    }

    /// [`Player::go`] with the `go` line given (USI engines are asked by `byoyomi`),
    /// `movetime` being what it allows.
    pub fn go_with(&mut self, position: &str, go: &str, movetime: u64, margin: u64) -> Answer {
        let sent = Instant::now();
        if !(self.send(position) && self.send(go)) {
            return Answer::Gone;
        }
        let deadline = sent + Duration::from_millis(movetime + margin);
        loop {
            match self.expect("bestmove", deadline) {
                Answer::Given(_) if self.stale > 0 => self.stale -= 1,
                Answer::Late => break,
                answer => {
                    if let Answer::Given(_) = answer {
                        self.last = sent.elapsed();
                    }
                    return answer;
                }
            }
        }
        log::warn!(
            "{}: no bestmove within {movetime} + {margin} ms",
            self.label
        );
        self.stale += 1;
        if self.send("stop") {
            let drain = Instant::now() + Duration::from_millis(margin);
            while self.stale > 0 {
                match self.expect("bestmove", drain) {
                    Answer::Given(_) => self.stale -= 1,
                    _ => break,
                }
            }
        }
        Answer::Late
    }

    /// Sends `quit` to every process, gives them [`GRACE`] to exit together, kills the
    /// rest, and reaps them all.
    pub fn end_all(players: &mut [Player]) {
        for player in players.iter_mut() {
            player.send("quit");
            // Closing stdin is the end of input: a quiet engine that missed `quit` sees it.
            player.stdin = None;
        }
        let deadline = Instant::now() + GRACE;
        for player in players.iter_mut() {
            while Instant::now() < deadline {
                match player.child.try_wait() {
                    Ok(Some(_)) | Err(_) => break,
                    Ok(None) => std::thread::sleep(Duration::from_millis(5)),
                }
            }
            player.reap();
        }
    }

    /// Kills the process unless it has exited, and waits for it.
    fn reap(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            log::info!("{}: killed after quit", self.label);
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
        self.gone = true;
    }
}

impl Drop for Player {
    /// Whatever ended the game (even a panic), the process does not outlive it.
    fn drop(&mut self) {
        self.stdin = None;
        self.reap();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn command_lines_split_like_a_shell() {
        let cases: [(&str, &[&str]); 6] = [
            ("qiyi --game junqi", &["qiyi", "--game", "junqi"]),
            ("  a   b\tc ", &["a", "b", "c"]),
            ("'my engine' --x", &["my engine", "--x"]),
            (r#"run "a \"b\" c\d" e"#, &["run", r#"a "b" c\d"#, "e"]),
            (r"a\ b c''d ''", &["a b", "cd", ""]),
            ("", &[]),
        ];
        for (text, words) in cases {
            assert_eq!(split_command(text).unwrap(), words, "{text}");
        }
        for bad in ["'open", "\"open", "end\\"] {
            let error = split_command(bad).unwrap_err().to_string();
            assert!(error.contains(bad), "{error}");
        }
    }

    /// A `sh` engine from a script without single quotes.
    fn script(text: &str) -> Player {
        let spec = EngineSpec::new(&format!("sh -c '{text}'"), &[]).unwrap();
        Player::start(&spec, "test".into()).unwrap()
    }

    #[test]
    fn a_late_answer_is_skipped_not_taken_for_the_next_move() {
        // The first search answers after 300 ms, the second at once.
        let mut player = script(
            "n=0; while read -r line; do case $line in \
             ugi) echo ugiok;; isready) echo readyok;; quit) exit 0;; \
             go*) n=$((n+1)); if [ $n = 1 ]; then sleep 0.3; echo bestmove first; \
             else echo info depth 1; echo bestmove second; fi;; esac; done",
        );
        assert!(player.prepare("ugi", &[("Hash".into(), "1".into())]));
        assert_eq!(player.go("position startpos", 10, 50), Answer::Late);
        assert_eq!(
            player.go("position startpos", 10, 2000),
            Answer::Given("second".into())
        );
        Player::end_all(std::slice::from_mut(&mut player));
        assert!(player.child.try_wait().unwrap().is_some());
    }

    #[test]
    fn a_dead_engine_is_gone_and_an_unknown_one_an_error() {
        let mut player = script("read -r line; exit 0");
        assert!(!player.prepare("ugi", &[]));
        assert!(player.is_gone());
        assert_eq!(player.go("position startpos", 10, 10), Answer::Gone);
        let missing = EngineSpec::new("/nonexistent/engine --x", &[]).unwrap();
        let error = Player::start(&missing, "test".into()).err().unwrap();
        assert!(error.to_string().contains("/nonexistent/engine"), "{error}");
    }

    #[test]
    fn options_are_name_equals_value() {
        assert_eq!(
            parse_option("Move Overhead=50").unwrap(),
            ("Move Overhead".into(), "50".into())
        );
        assert_eq!(parse_option("Hash=").unwrap(), ("Hash".into(), "".into()));
        for bad in ["Hash", "=5", " =5"] {
            let error = parse_option(bad).unwrap_err().to_string();
            assert!(error.contains(bad), "{error}");
        }
        assert!(EngineSpec::new("   ", &[]).is_err());
        let spec = EngineSpec::new("qiyi --game junqi", &["Threads=1".into()]).unwrap();
        assert_eq!(spec.program, "qiyi");
        assert_eq!(spec.args, ["--game", "junqi"]);
    }
}

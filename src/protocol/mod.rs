//! The one command loop behind UCI, USI and UGI.
//!
//! Input is read on its own thread and handed over line by line, so `stop`, `isready` and
//! `quit` are answered while a search runs. Each line becomes a [`Command`] first; bad input
//! gets one `info string error: ...` line and changes nothing. The first handshake (`uci`,
//! `usi`, `ugi`) picks the dialect and, unless `--game` or `setoption name Game` did, the
//! game.

mod command;
mod dialect;
mod engine;
mod options;
mod parse;

pub use crate::core::quote;
pub use command::{Command, Query, Start};
pub use dialect::{DIALECTS, Dialect, Uci, Ugi, Usi};
pub use engine::Engine;
use options::{engine_options, game_option, own_options};
pub use parse::{ParseError, parse};

use crate::core::{Evaluator, Game, OptionKind, OptionSpec};
use crate::games::{GameKind, WithGame};
use std::io::{BufRead, Write};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// What `help` prints: the commands, for a person who started the engine at a terminal.
pub const HELP: &str = "\
qiyi plays chess (UCI), shogi (USI), Siguo Junqi and FourSquare (UGI) on this terminal.
  uci | usi | ugi              start: picks the protocol and game, lists the options
  setoption name <N> value <V> set an option; Game chooses chess, shogi, junqi, foursquare
  isready                      answered readyok once the engine can take commands
  ucinewgame                   a new game (also usinewgame, uginewgame)
  position startpos|fen <position> [moves <m1> <m2> ...]
                               the position to think about (Junqi: setup ..., shogi: sfen ...)
  go movetime <ms> | depth <d> | nodes <n> | infinite | wtime <ms> btime <ms> ...
                               search; answered bestmove <move>
  go perft <depth>             count the legal move tree below each move
  go deploy                    Junqi: a lineup for the seat to move
  stop                         end the search now
  d                            show the board
  query gameover|p1turn|result|turn
                               UGI's questions, answered response ...
  quit                         leave
Also: qiyi play (a board in the browser), qiyi --help (every subcommand).";

/// Lines longer than this are answered with an error instead of being buffered whole.
const MAX_LINE: usize = 1 << 20;
/// Error lines are cut to this many characters, whatever input they quote.
const MAX_ERROR: usize = 240;

/// The protocol's output: whole lines, flushed at once, from any thread.
#[derive(Clone)]
pub struct Output(Arc<Mutex<Box<dyn Write + Send>>>);

impl Output {
    pub fn new(sink: Box<dyn Write + Send>) -> Self {
        Output(Arc::new(Mutex::new(sink)))
    }

    pub fn stdout() -> Self {
        Output::new(Box::new(std::io::stdout()))
    }

    pub fn line(&self, text: &str) {
        self.lines(std::slice::from_ref(&text.to_string()));
    }

    /// Several lines written together, so no other thread's line lands in between.
    pub fn lines(&self, texts: &[String]) {
        let mut sink = self.0.lock().unwrap_or_else(|e| e.into_inner());
        for text in texts {
            log::debug!(">> {text}");
            // A closed stdout means the GUI is gone; the read side will see EOF and quit.
            let _ = writeln!(sink, "{text}");
        }
        let _ = sink.flush();
    }

    /// The one form every rejected command gets.
    pub fn error(&self, message: &str) {
        let mut message: String = message
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .take(MAX_ERROR + 1)
            .collect();
        if message.chars().count() > MAX_ERROR {
            message = message.chars().take(MAX_ERROR).collect::<String>() + "...";
        }
        self.line(&format!("info string error: {message}"));
    }
}

/// A game's engine as the command loop sees it.
pub trait Session: Send {
    fn kind(&self) -> GameKind;
    fn set_dialect(&mut self, dialect: &'static dyn Dialect);
    /// Every option the engine declares after the handshake (besides `Game`).
    fn options(&self) -> Vec<OptionSpec>;
    /// The declared option a `setoption` name means (case and dialect aliases aside).
    fn option(&self, name: &str) -> Option<OptionSpec>;
    /// Runs one command; `Err` is reported as `info string error` and changed nothing.
    fn handle(&mut self, command: Command) -> Result<(), String>;
}

/// Builds the engine for a game, through [`GameKind::dispatch`].
struct NewSession {
    dialect: &'static dyn Dialect,
    out: Output,
}

impl WithGame for NewSession {
    type Output = Box<dyn Session>;
    fn run<G: Game, E: Evaluator<G>>(self, kind: GameKind, eval: E) -> Box<dyn Session> {
        Box::new(Engine::<G, E>::new(kind, self.dialect, self.out, eval))
    }
}

/// The command loop's state.
struct Loop {
    out: Output,
    /// The game chosen so far (by `--game`, a handshake or `setoption name Game`).
    game: Option<GameKind>,
    /// Whether `--game` or `setoption name Game` chose it, so a handshake must not.
    game_fixed: bool,
    dialect: Option<&'static dyn Dialect>,
    session: Option<Box<dyn Session>>,
    /// Every option set so far (but `Game` and buttons), the latest value of each: a new
    /// game's engine gets those it declares, so the order of `setoption` lines never
    /// matters (match runners send options in no fixed order, the game among them).
    settings: Vec<(String, String)>,
}

impl Loop {
    fn kind(&self) -> GameKind {
        self.game.unwrap_or(GameKind::FourSquare)
    }

    /// Creates the session for the chosen game if there is none yet.
    fn session(&mut self) -> Result<&mut Box<dyn Session>, String> {
        if self.session.is_none() {
            let kind = self
                .game
                .ok_or("no game selected: send uci, usi or ugi first (or start with --game)")?;
            let dialect = self.dialect.unwrap_or_else(|| dialect::native(kind));
            let out = self.out.clone();
            let mut session = kind.dispatch(NewSession { dialect, out })?;
            for (name, value) in &self.settings {
                if session.option(name).is_none() {
                    continue;
                }
                let (name, value) = (name.clone(), value.clone());
                if let Err(e) = session.handle(Command::SetOption { name, value }) {
                    log::warn!("a setting kept for {kind} no longer applies: {e}");
                }
            }
            self.session = Some(session);
        }
        Ok(self.session.as_mut().expect("session created above"))
    }

    /// `setoption` for anything but `Game`. The current game's engine takes what it
    /// declares; an option of another game (a rule option, or its oracle's, such as
    /// FourSquare's `Tablebase`), or before any game is chosen any game's option, is
    /// checked and kept for when that game is chosen.
    fn set_option(&mut self, name: String, value: String) -> Result<(), String> {
        let spec = if self.game.is_some() {
            let session = self.session()?;
            match session.option(&name) {
                Some(spec) => {
                    let command = Command::SetOption {
                        name: name.clone(),
                        value: value.clone(),
                    };
                    session.handle(command)?;
                    Some(spec)
                }
                None => {
                    let current = self.kind();
                    GameKind::ALL
                        .into_iter()
                        .filter(|&kind| kind != current)
                        .flat_map(own_options)
                        .find(|spec| spec.name.eq_ignore_ascii_case(&name))
                }
            }
        } else {
            engine_options()
                .into_iter()
                .chain(GameKind::ALL.into_iter().flat_map(own_options))
                .find(|spec| spec.name.eq_ignore_ascii_case(&name))
        };
        let spec = spec.ok_or_else(|| format!("unknown option {}", quote(&name)))?;
        spec.validate(&value)?;
        if !matches!(spec.kind, OptionKind::Button) {
            self.settings
                .retain(|(known, _)| !known.eq_ignore_ascii_case(&name));
            self.settings.push((name, value));
        }
        Ok(())
    }

    fn hello(&mut self, dialect: &'static dyn Dialect) {
        self.dialect = Some(dialect);
        if !self.game_fixed && self.game != Some(dialect.game()) {
            self.game = Some(dialect.game());
            self.session = None;
        }
        let kind = self.game.unwrap_or(dialect.game());
        let mut lines = vec![
            format!("id name qiyi {}", env!("CARGO_PKG_VERSION")),
            "id author the qiyi developers".to_string(),
        ];
        lines.push(game_option(kind).to_string());
        match self.session() {
            Ok(session) => {
                session.set_dialect(dialect);
                lines.extend(session.options().iter().map(ToString::to_string));
            }
            Err(message) => self.out.error(&message),
        }
        lines.push(dialect.hello_ok().to_string());
        self.out.lines(&lines);
    }

    fn set_game(&mut self, value: &str) -> Result<(), String> {
        let kind = GameKind::from_name(value).ok_or_else(|| {
            let names: Vec<&str> = GameKind::ALL.into_iter().map(GameKind::name).collect();
            format!(
                "unknown game {}; choose one of {}",
                quote(value),
                names.join(", ")
            )
        })?;
        self.game_fixed = true;
        if self.session.as_ref().is_some_and(|s| s.kind() == kind) {
            return Ok(());
        }
        self.game = Some(kind);
        // Dropping the old engine stops its search.
        self.session = None;
        self.session().map(|_| ())
    }

    /// Runs one command; `false` once the loop should end.
    fn execute(&mut self, command: Command) -> Result<bool, String> {
        match command {
            Command::Hello(dialect) => self.hello(dialect),
            Command::SetOption { name, value } if name.eq_ignore_ascii_case("game") => {
                self.set_game(&value)?
            }
            Command::SetOption { name, value } => self.set_option(name, value)?,
            Command::Quit => {
                if let Some(mut session) = self.session.take() {
                    session.handle(Command::Quit)?;
                }
                return Ok(false);
            }
            Command::IsReady if self.session.is_none() && self.game.is_none() => {
                self.out.line("readyok")
            }
            Command::Help => self
                .out
                .lines(&HELP.lines().map(String::from).collect::<Vec<_>>()),
            command => self.session()?.handle(command)?,
        }
        Ok(true)
    }
}

/// Reads stdin on its own thread; `None` marks the end of input. Each line comes with the
/// moment it was read: a move's time counts from its `go` line's, whatever the loop was
/// still doing then (a dark game's `position` takes milliseconds to replay, many more on
/// a loaded machine, and the GUI's clock is running).
fn spawn_reader() -> mpsc::Receiver<Option<(Instant, Result<String, String>)>> {
    let (sender, receiver) = mpsc::channel();
    std::thread::Builder::new()
        .name("stdin".into())
        .spawn(move || {
            let stdin = std::io::stdin();
            let mut input = stdin.lock();
            loop {
                let line = read_line(&mut input).map(|line| (Instant::now(), line));
                let end = line.is_none();
                if sender.send(line).is_err() || end {
                    break;
                }
            }
        })
        .expect("the stdin thread starts");
    receiver
}

/// One line of input, lossily decoded (binary junk becomes replacement characters) and
/// bounded in length. `None` at the end of input.
fn read_line(input: &mut impl BufRead) -> Option<Result<String, String>> {
    let mut bytes = Vec::new();
    let mut too_long = false;
    loop {
        let buffer = match input.fill_buf() {
            Ok(buffer) => buffer,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => return None,
        };
        if buffer.is_empty() {
            if bytes.is_empty() && !too_long {
                return None;
            }
            break;
        }
        let (chunk, done) = match buffer.iter().position(|&b| b == b'\n') {
            Some(i) => (&buffer[..=i], true),
            None => (buffer, false),
        };
        let used = chunk.len();
        if bytes.len() + used <= MAX_LINE {
            bytes.extend_from_slice(chunk);
        } else {
            too_long = true;
        }
        input.consume(used);
        if done {
            break;
        }
    }
    if too_long {
        return Some(Err(format!(
            "input line longer than {MAX_LINE} bytes ignored"
        )));
    }
    Some(Ok(String::from_utf8_lossy(&bytes).into_owned()))
}

/// `command` with the moment its line was read, where it needs it (the clocks of `go` and
/// USI's `go mate`).
fn stamped(mut command: Command, read: Instant) -> Command {
    match &mut command {
        Command::Go { limits, .. } => limits.received = Some(read),
        Command::Mate { received, .. } => *received = Some(read),
        _ => {}
    }
    command
}

/// Runs the protocol loop on stdin/stdout until `quit` or the end of input.
pub fn run(game: Option<GameKind>) {
    // A person at a terminal is told how to begin; a GUI (stdin a pipe) sees nothing.
    if std::io::IsTerminal::is_terminal(&std::io::stdin()) {
        eprintln!(
            "qiyi {}: type uci (chess), usi (shogi) or ugi (FourSquare; then setoption name \
             Game value junqi) to start, help for the commands; `qiyi play` opens a board in \
             the browser.",
            env!("CARGO_PKG_VERSION")
        );
    }
    let out = Output::stdout();
    let input = spawn_reader();
    let mut state = Loop {
        out: out.clone(),
        game,
        game_fixed: game.is_some(),
        dialect: None,
        session: None,
        settings: Vec::new(),
    };
    if game.is_some()
        && let Err(message) = state.session()
    {
        log::error!("{message}");
        out.error(&message);
        state.game = None;
        state.game_fixed = false;
    }
    while let Ok(Some((read, line))) = input.recv() {
        let line = match line {
            Ok(line) => line,
            Err(message) => {
                out.error(&message);
                continue;
            }
        };
        log::debug!("<< {}", line.trim_end());
        let command = match parse(&line, state.kind()) {
            Ok(Some(command)) => stamped(command, read),
            Ok(None) => continue,
            Err(e) => {
                out.error(&e.0);
                continue;
            }
        };
        match state.execute(command) {
            Ok(true) => {}
            Ok(false) => return,
            Err(message) => out.error(&message),
        }
    }
    // End of input: stop any search before leaving.
    let _ = state.execute(Command::Quit);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_lines_are_bounded_and_junk_decoded() {
        let mut data = vec![b'x'; MAX_LINE + 10];
        data.extend_from_slice(b"\n\xff\xfeisready\nlast");
        let mut input = std::io::Cursor::new(data);
        assert!(matches!(read_line(&mut input), Some(Err(_))));
        let junk = read_line(&mut input).unwrap().unwrap();
        assert!(junk.ends_with("isready\n"));
        assert_eq!(read_line(&mut input).unwrap().unwrap(), "last");
        assert!(read_line(&mut input).is_none());
    }

    /// What the engine printed, shared with the test.
    #[derive(Clone, Default)]
    struct Printed(Arc<Mutex<Vec<u8>>>);

    impl Write for Printed {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(bytes);
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    /// Plays `lines` to a fresh engine for `game`, the last stamped as read 4 s ago
    /// (asking for 4 s), and answers how long after it was sent the answer `done` came.
    fn answer_to_a_line_read_long_ago(
        game: GameKind,
        lines: &[&str],
        done: &str,
    ) -> Option<std::time::Duration> {
        use std::time::Duration;
        let printed = Printed::default();
        let mut state = Loop {
            out: Output::new(Box::new(printed.clone())),
            game: Some(game),
            game_fixed: true,
            dialect: None,
            session: None,
            settings: Vec::new(),
        };
        let asked = Duration::from_secs(4);
        let (last, before) = lines.split_last().unwrap();
        for line in before {
            assert!(state.execute(parse(line, game).unwrap().unwrap()).unwrap());
        }
        let read = Instant::now().checked_sub(asked)?; // a machine up for less than that
        let sent = Instant::now();
        let command = parse(last, game).unwrap().unwrap();
        assert!(state.execute(stamped(command, read)).unwrap());
        let answered = || String::from_utf8_lossy(&printed.0.lock().unwrap()).contains(done);
        while !answered() && sent.elapsed() < 2 * asked {
            std::thread::sleep(Duration::from_millis(5));
        }
        assert!(answered());
        Some(sent.elapsed())
    }

    /// A move's time counts from when its `go` line was read: a `go movetime` read as
    /// long ago as its movetime is answered at once.
    #[test]
    fn a_move_is_timed_from_its_go_line_being_read() {
        let took =
            answer_to_a_line_read_long_ago(GameKind::Chess, &["go movetime 4000"], "bestmove");
        assert!(took.is_none_or(|t| t.as_millis() < 2000), "{took:?}");
    }

    /// So does USI's timed mate search, in a position where it finds neither a mate nor
    /// a proof that there is none in seconds.
    #[test]
    fn a_mate_search_is_timed_from_its_line_being_read() {
        let position = "position sfen l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL \
                        w RGgsn5p 1";
        let took = answer_to_a_line_read_long_ago(
            GameKind::Shogi,
            &[position, "go mate 4000"],
            "checkmate timeout",
        );
        assert!(took.is_none_or(|t| t.as_millis() < 2000), "{took:?}");
    }
}

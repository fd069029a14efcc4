//! `qiyi referee`: a match runner for Junqi between two UGI engines given as command lines.
//!
//! - `clock`: the seat clocks of `--tc` and the `go` line that gives them.
//! - `engine`: one engine process — start, handshake, `go` with a deadline, `stop`, `quit`
//!   then kill, reaping.
//! - `game`: one game — lineups, the turn loop with its forfeits, the report and record.
//! - `transcript`: the game as the referee records it, and what each process is told of
//!   it in each `Info` mode.
//! - `score`: the running score, the Elo estimate and the final table.
//! - `start`: `--from`, games begun from recorded positions.
//!
//! This module holds the match: its settings, the game pairs (sides swap every other game
//! with the same lineups), the games run in parallel, the progress lines, the record file.
//! The rules are [`crate::games::junqi::Position`]'s: the referee keeps the open position
//! and writes what each seat may see from it.

mod clock;
mod engine;
mod game;
mod score;
mod start;
mod transcript;

pub use clock::{Clocks, TimeControl};
pub use engine::{Answer, EngineSpec, Player, split_command};
pub use game::{Faults, GameReport, TEAMS, eliminations, legal};
pub use score::{Elo, Tally};
pub use transcript::{Event, Transcript, View};

use crate::core::Game;
use crate::games::junqi::Position;
use rand::SeedableRng;
use rand::rngs::StdRng;
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::channel;

pub use crate::games::junqi::dark::Info;

/// The `Info` a process playing `seats` is told: one that plays both partners of a team
/// knows both their lineups, so in the dark game it is in double-open.
pub fn told(info: Info, seats: &[usize]) -> Info {
    match info {
        Info::Dark if seats.len() > 1 => Info::DoubleOpen,
        info => info,
    }
}

/// The team of a seat (S, N → 0; E, W → 1).
fn team(seat: usize) -> usize {
    seat & 1
}

/// Where the lineups come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Lineups {
    /// Drawn by the referee from the seeded generator; the same four for both games of a
    /// pair.
    Random,
    /// Each seat's engine answers `go deploy`; an invalid or missing lineup is replaced by
    /// a random one.
    Engine,
}

/// The `--help` text after the options: the forfeit policy and the record format.
pub const HELP: &str = "\
Team A plays S+N and B plays E+W in odd-numbered games; the next game swaps the teams and
keeps the four lineups, so each pair of games is fair. S moves first.

Seat mode (--seats, the default) starts four processes per game, one per seat; team mode
(--teams) starts two, each playing both seats of its team. Each process is sent
`setoption name Info value open|double-open|dark`, NoCombatDrawPlies, MaxPasses and its
--option-a/-b, then `uginewgame`, and every turn the whole game: `position setup
S:<lineup|-> E:.. N:.. W:.. first S moves ...` and `go movetime <ms>` (with --tc, every
seat's clock: `go stime .. etime .. ntime .. wtime .. sinc .. einc .. ninc .. winc ..`).
It is given the lineups it may see (`-` for the others): all in open, its team's in
double-open, its own seat's in dark. A team-mode process always knows both of its team's lineups, so in a dark
match it is told (and sees) double-open. Open plies are plain (i6i7); double-open and dark
plies carry the referee's reports (i6i7=m, f7f8=w+h17, k6k7=b#) and out:<seat> tokens.

Forfeits:
  illegal or malformed move  played as `pass` (counts towards MaxPasses)
  no bestmove within movetime (or the seat's clock, --tc) + margin
                             played as `timeout` (counts towards MaxPasses); the engine
                             is sent `stop` and its late answer is ignored; under --tc
                             the seat's clock is then empty but for its increments
  crash, end of output, failed write, no answer to ugi/isready within 10 s
                             each seat of that process is out at its next turn:
                             `out:<seat>` in the record (in open mode `resign`, which
                             the rules treat the same), all its pieces leave, the game
                             goes on for the others
  invalid or late lineup (--lineups engine)
                             replaced by a random one from the seeded generator
With --from FILE each pair starts from the next `position setup ... moves ...` line of
FILE (all four lineups, S first; a record file of --out cut short where the games should
begin): the referee replays its plies, and the engines are told the game from its setup.
Games reaching --max-plies are adjudicated drawn. After each game every process is sent
`quit` and killed if it has not exited within a second.

The record file gets two lines per game: a `#` line (game number, who played which team,
result, reason, plies, mode, rule options) and `position setup S:<l> E:<l> N:<l> W:<l>
first S moves ...` with every lineup and the plies as open-mode engines are told them
(plain) or, in double-open and dark matches, annotated.";

/// The settings of a match (the `qiyi referee` command line).
#[derive(Clone, Debug, clap::Args)]
pub struct Config {
    /// An engine's command line, split as a shell would (quotes and backslashes; no
    /// variables or pipes). Give it twice: engine A, then engine B.
    #[arg(long = "engine", value_name = "COMMAND", required = true)]
    pub engines: Vec<String>,
    /// An option for engine A, sent as `setoption` before every game (repeatable).
    #[arg(long = "option-a", value_name = "NAME=VALUE")]
    pub options_a: Vec<String>,
    /// An option for engine B (repeatable).
    #[arg(long = "option-b", value_name = "NAME=VALUE")]
    pub options_b: Vec<String>,
    /// What each process may see of the others' lineups: open (every lineup, plain
    /// plies), double-open (its team's lineups, annotated plies) or dark (its own seats'
    /// lineups, annotated plies).
    #[arg(long, default_value = "open")]
    pub info: Info,
    /// One process per seat, four per game (the default).
    #[arg(long, conflicts_with = "teams")]
    pub seats: bool,
    /// One process per team, two per game, each playing both seats of its team (in a dark
    /// match it still knows both of its team's lineups: double-open).
    #[arg(long)]
    pub teams: bool,
    /// Who chooses the lineups.
    #[arg(long, value_enum, default_value_t = Lineups::Random)]
    pub lineups: Lineups,
    /// Seed of the lineups; a random one (printed) when absent.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Number of games (an even number gives whole pairs).
    #[arg(long, default_value_t = 2)]
    pub games: usize,
    /// Games played at once, each on its own thread with its own processes.
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// Milliseconds per move (`go movetime`).
    #[arg(long, default_value_t = 1000)]
    pub movetime: u64,
    /// Seat clocks instead of a time a move: BASE+INC in seconds (`60+0.5`). Each seat
    /// starts with BASE and gains INC after each of its moves; every `go` gives all four
    /// clocks (`go stime .. etime .. ntime .. wtime .. sinc .. einc .. ninc .. winc ..`).
    #[arg(long, value_name = "BASE+INC", conflicts_with = "movetime")]
    pub tc: Option<TimeControl>,
    /// Milliseconds allowed beyond the movetime (or the seat's clock) before a `timeout`.
    #[arg(long, default_value_t = 500)]
    pub margin: u64,
    /// NoCombatDrawPlies: plies without a piece leaving the board before a draw (0 = off).
    #[arg(long, default_value_t = 50)]
    pub draw_plies: u16,
    /// MaxPasses: the pass or timeout that eliminates its seat (0 = never).
    #[arg(long, default_value_t = 5)]
    pub max_passes: u8,
    /// Plies after which the referee adjudicates a draw (0 = never).
    #[arg(long, default_value_t = 2000)]
    pub max_plies: usize,
    /// Start each pair of games from the next recorded position of FILE, in turn, instead
    /// of fresh lineups: one `position setup S:<lineup> E:.. N:.. W:.. first S moves ...`
    /// line each (a record file of --out, its lines cut where the games should begin;
    /// games already over are left out).
    #[arg(long, value_name = "FILE", conflicts_with = "lineups")]
    pub from: Option<PathBuf>,
    /// Append every game's record to this file.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
}

impl Config {
    /// `seats` or `teams`, for the record.
    fn seating(&self) -> &'static str {
        if self.teams { "teams" } else { "seats" }
    }

    /// The position of `setup` (`setup S:.. E:.. N:.. W:.. first S`) under the match's
    /// rule options: fresh lineups and `--from` starts begin alike.
    fn position(&self, setup: &str) -> anyhow::Result<Position> {
        let mut pos = Position::from_notation(setup)?;
        pos.set_rule_option("NoCombatDrawPlies", &self.draw_plies.to_string())?;
        pos.set_rule_option("MaxPasses", &self.max_passes.to_string())?;
        Ok(pos)
    }
}

/// Both games of pair `pair` draw from this generator: the same lineups, and the same
/// replacements for invalid ones.
fn pair_rng(seed: u64, pair: usize) -> StdRng {
    StdRng::seed_from_u64(seed ^ (pair as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15))
}

/// Runs the match: the games, a progress line per game and the final table on stdout,
/// the records appended to `--out`.
pub fn run(config: &Config) -> anyhow::Result<()> {
    let [a, b] = config.engines.as_slice() else {
        anyhow::bail!(
            "give exactly two engines (--engine A --engine B), got {}",
            config.engines.len()
        );
    };
    let specs = [
        EngineSpec::new(a, &config.options_a)?,
        EngineSpec::new(b, &config.options_b)?,
    ];
    if config.games == 0 {
        anyhow::bail!("--games 0: nothing to play");
    }
    if config.concurrency == 0 {
        anyhow::bail!("--concurrency 0: no game could run");
    }
    let seed = config.seed.unwrap_or_else(rand::random);
    let starts = match &config.from {
        Some(path) => start::load(path, config)?,
        None => Vec::new(),
    };
    let mut out = match &config.out {
        Some(path) => Some(
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .map_err(|e| anyhow::anyhow!("cannot open record file {}: {e}", path.display()))?,
        ),
        None => None,
    };
    let time = match config.tc {
        Some(tc) => format!("tc {tc}"),
        None => format!("movetime {} ms", config.movetime),
    };
    println!(
        "qiyi referee: {} games, info {}, {}, lineups {}, seed {seed}, {time}",
        config.games,
        config.info,
        config.seating(),
        match config.lineups {
            Lineups::Random => "random",
            Lineups::Engine => "engine",
        },
    );
    if let Some(path) = &config.from {
        println!("from: {} ({} positions)", path.display(), starts.len());
    }
    println!("A: {}", specs[0].command);
    println!("B: {}", specs[1].command);

    let next = AtomicUsize::new(0);
    let abort = AtomicBool::new(false);
    let (sender, results) = channel();
    let mut tally = Tally::default();
    let mut failure = None;
    std::thread::scope(|scope| {
        for _ in 0..config.concurrency.min(config.games) {
            let sender = sender.clone();
            let (next, abort, specs, starts) = (&next, &abort, &specs, &starts);
            scope.spawn(move || {
                while !abort.load(Ordering::SeqCst) {
                    let index = next.fetch_add(1, Ordering::SeqCst);
                    if index >= config.games {
                        break;
                    }
                    let pairing = game::Pairing {
                        number: index + 1,
                        engines: [&specs[0], &specs[1]],
                        a_team: index % 2,
                        rng: pair_rng(seed, index / 2),
                        start: (!starts.is_empty()).then(|| &starts[index / 2 % starts.len()]),
                    };
                    if sender.send(game::play(config, pairing)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(sender);
        for result in results {
            match result {
                Ok(report) => {
                    tally.add(&report);
                    let (a, b) = tally.points();
                    println!(
                        "game {}/{}: {}, {} plies, {}; score A {a} - B {b}",
                        report.number,
                        config.games,
                        report.result_text(),
                        report.plies,
                        report.reason
                    );
                    if let Some(file) = out.as_mut()
                        && let Err(e) = file.write_all(report.record.as_bytes())
                    {
                        log::error!("cannot write the record: {e}");
                    }
                }
                Err(e) => {
                    abort.store(true, Ordering::SeqCst);
                    failure.get_or_insert(e);
                }
            }
        }
    });
    if let Some(e) = failure {
        return Err(e);
    }
    print!("{}", tally.table(config));
    Ok(())
}

//! One engine process on a thread of its own: the table hands it jobs and goes on serving
//! the pages; each answer comes back as an [`Event::Engine`] tagged with the game it was
//! asked in, so an answer to an abandoned game is recognised and dropped.

use super::table::{Event, Table};
use crate::tools::junqi_referee::{Answer, EngineSpec, Player};
use std::sync::mpsc::{Sender, channel};
use std::time::Duration;

/// Milliseconds an engine may answer after its movetime before it forfeits the move, as
/// `qiyi referee`'s default margin.
pub const MARGIN: u64 = 500;

/// What an engine is asked to do.
#[derive(Clone, Debug)]
pub enum Job {
    /// Start a game: the handshake (`protocol` is `uci`, `usi` or `ugi`) with `options`;
    /// a process found gone is started again first.
    NewGame {
        protocol: &'static str,
        options: Vec<(String, String)>,
    },
    /// Options to set before the next search.
    Options(Vec<(String, String)>),
    /// A lineup: `position`, then `go deploy`.
    Deploy { position: String, movetime: u64 },
    /// A move: `position`, then `go` (the dialect's line), allowed `movetime`.
    Go {
        position: String,
        go: String,
        movetime: u64,
    },
    /// Free-text lines answered before `readyok` (the dark game's `d`).
    Ask { lines: Vec<String> },
}

/// What came back.
#[derive(Clone, Debug)]
pub enum Reply {
    /// The handshake's result: `false` when the engine is gone or silent.
    Ready(bool),
    Deploy(Answer),
    Move(Answer),
    Lines(Option<Vec<String>>),
}

/// The table's handle on one engine thread.
pub struct Worker {
    jobs: Sender<(u64, Job)>,
    /// What the page shows for this engine.
    pub label: String,
}

impl Worker {
    /// Starts the thread and the process; `id` tags its replies (a seat, or an odds
    /// engine's number).
    pub fn start(spec: EngineSpec, id: usize, table: Table) -> anyhow::Result<Worker> {
        let label = spec
            .command
            .split_whitespace()
            .next()
            .and_then(|program| program.trim_matches('\'').rsplit('/').next())
            .unwrap_or("engine")
            .to_string();
        let mut player = Player::start(&spec, format!("engine {id}"))?;
        let (jobs, inbox) = channel::<(u64, Job)>();
        std::thread::Builder::new()
            .name(format!("engine {id}"))
            .spawn(move || {
                for (game, job) in inbox {
                    if player.is_gone()
                        && matches!(job, Job::NewGame { .. })
                        && let Ok(fresh) = Player::start(&spec, format!("engine {id}"))
                    {
                        player = fresh;
                    }
                    let reply = match job {
                        Job::NewGame { protocol, options } => {
                            Reply::Ready(player.prepare(protocol, &options))
                        }
                        Job::Options(options) => {
                            player.set_options(&options);
                            continue;
                        }
                        Job::Deploy { position, movetime } => {
                            Reply::Deploy(player.deploy(&position, Duration::from_millis(movetime)))
                        }
                        Job::Go {
                            position,
                            go,
                            movetime,
                        } => Reply::Move(player.go_with(&position, &go, movetime, MARGIN)),
                        Job::Ask { lines } => {
                            Reply::Lines(player.ask(&lines, Duration::from_secs(10)))
                        }
                    };
                    if !table.send(Event::Engine { id, game, reply }) {
                        break;
                    }
                }
                Player::end_all(std::slice::from_mut(&mut player));
            })?;
        Ok(Worker { jobs, label })
    }

    /// Queues a job for game `game`.
    pub fn send(&self, game: u64, job: Job) {
        let _ = self.jobs.send((game, job));
    }
}

//! The table: one thread that owns the game, its seats and engines, and every page's
//! outgoing channel. Everything else (sockets, engine workers, HTTP requests) talks to it
//! through [`Event`]s, so the game is only ever changed in one place and in one order.

use super::judge::{Judge, Phase, Variant, odds_message};
use super::record::record_writer;
use super::socket::{Page, error};
use super::worker::{Job, Reply, Worker};
use crate::tools::junqi_referee::EngineSpec;
use rand::SeedableRng;
use rand::rngs::StdRng;
use serde_json::{Value, json};
use std::path::PathBuf;
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::time::{Duration, Instant};

/// Worker ids from here on are odds engines (below are seats).
const ODDS_ID: usize = 100;

/// What reaches the table.
pub enum Event {
    /// A page opened its socket for `person` (an index into the people's seats).
    Join {
        conn: u64,
        person: usize,
        page: Page,
    },
    Leave {
        conn: u64,
    },
    /// A page's message, as sent.
    Intent {
        conn: u64,
        person: usize,
        text: String,
    },
    /// An engine's reply to a job of game `game`.
    Engine {
        id: usize,
        game: u64,
        reply: Reply,
    },
    /// The record as `person` may see it, for the record link.
    Record {
        person: usize,
        sender: Sender<String>,
    },
}

/// A handle on the table thread.
#[derive(Clone)]
pub struct Table(Sender<Event>);

impl Table {
    /// Hands the table an event; `false` once the table is gone.
    pub fn send(&self, event: Event) -> bool {
        self.0.send(event).is_ok()
    }
}

/// What the command line fixed.
pub struct Settings {
    /// The seat each person plays, by person.
    pub humans: Vec<usize>,
    /// Engine command lines for the engine seats, in seat order (the last fills the rest).
    pub engines: Vec<String>,
    pub movetime: u64,
    /// Seconds per move for people; 0 for none.
    pub clock: u64,
    pub record: PathBuf,
}

/// What the page may change between moves.
#[derive(Clone, Copy, Debug)]
struct Options {
    movetime: u64,
    skill: u8,
    clock: u64,
    odds: bool,
    chess960: bool,
}

/// The table's state.
struct Room {
    judge: Box<dyn Judge>,
    table: Table,
    engines: Vec<String>,
    /// The seat of each person.
    people: Vec<usize>,
    /// One worker per engine seat; `None` for people's seats.
    workers: Vec<Option<Worker>>,
    /// The game a seat's engine is working on a job for.
    busy: Vec<Option<u64>>,
    /// Per person: the dark game's odds engine, and whether it is working.
    odds: Vec<Option<Worker>>,
    odds_busy: Vec<bool>,
    /// The ply count the odds were last asked at, per person.
    odds_asked: Vec<Option<usize>>,
    /// Numbers games, so that an engine's answer to an abandoned one is dropped.
    game: u64,
    options: Options,
    conns: Vec<(u64, usize, Page)>,
    /// What happened since the pages were last sent the state (forfeits, clocks).
    events: Vec<String>,
    /// When the current turn began, and at which ply: a person's clock runs from it.
    turn_start: (usize, Option<usize>, Instant),
    rng: StdRng,
    /// The record file's writer: each text sent replaces the file.
    record: Sender<String>,
}

/// Starts the engines and the table thread.
pub fn start(judge: Box<dyn Judge>, settings: Settings) -> anyhow::Result<Table> {
    let (sender, inbox) = channel();
    let table = Table(sender);
    for command in &settings.engines {
        EngineSpec::new(command, &[])?;
    }
    let seats = judge.seat_names().len();
    let people = settings.humans.len();
    let mut room = Room {
        judge,
        table: table.clone(),
        engines: settings.engines,
        people: settings.humans,
        workers: (0..seats).map(|_| None).collect(),
        busy: vec![None; seats],
        odds: (0..people).map(|_| None).collect(),
        odds_busy: vec![false; people],
        odds_asked: vec![None; people],
        game: 0,
        options: Options {
            movetime: settings.movetime,
            skill: 20,
            clock: settings.clock,
            odds: false,
            chess960: false,
        },
        conns: Vec::new(),
        events: Vec::new(),
        turn_start: (0, None, Instant::now()),
        rng: StdRng::seed_from_u64(rand::random()),
        record: record_writer(settings.record)?,
    };
    room.seat_engines()?;
    room.new_game();
    std::thread::Builder::new()
        .name("table".into())
        .spawn(move || room.run(inbox))?;
    Ok(table)
}

impl Room {
    fn run(mut self, inbox: Receiver<Event>) {
        loop {
            self.dispatch();
            self.note_turn();
            let event = match self.clock_left() {
                Some(left) => inbox.recv_timeout(left),
                None => inbox.recv().map_err(|_| RecvTimeoutError::Disconnected),
            };
            let changed = match event {
                Ok(event) => self.handle(event),
                Err(RecvTimeoutError::Timeout) => self.clock_ran_out(),
                Err(RecvTimeoutError::Disconnected) => break,
            };
            if changed {
                self.after_change();
            }
        }
    }

    /// Starts a worker for every seat no person plays, ending any there were.
    fn seat_engines(&mut self) -> anyhow::Result<()> {
        let mut next = 0;
        for seat in 0..self.workers.len() {
            self.workers[seat] = None;
            self.busy[seat] = None;
            if self.people.contains(&seat) {
                continue;
            }
            let command = &self.engines[next.min(self.engines.len() - 1)];
            next += 1;
            let spec = EngineSpec::new(command, &[])?;
            self.workers[seat] = Some(Worker::start(spec, seat, self.table.clone())?);
        }
        Ok(())
    }

    fn new_game(&mut self) {
        self.game += 1;
        self.busy.iter_mut().for_each(|b| *b = None);
        self.odds_asked.iter_mut().for_each(|a| *a = None);
        let variant = Variant {
            chess960: self.options.chess960,
        };
        self.judge.new_game(variant, &mut self.rng);
        let protocol = self.judge.protocol();
        for seat in 0..self.workers.len() {
            let mut options = self.judge.engine_options(seat);
            options.push(("Skill Level".into(), self.options.skill.to_string()));
            if let Some(worker) = &self.workers[seat] {
                worker.send(self.game, Job::NewGame { protocol, options });
            }
        }
        self.events.clear();
        self.turn_start = (0, None, Instant::now());
        self.write_record();
    }

    /// Gives each engine whose seat has something to do its job.
    fn dispatch(&mut self) {
        for seat in 0..self.workers.len() {
            let Some(worker) = &self.workers[seat] else {
                continue;
            };
            if self.busy[seat] == Some(self.game) {
                continue;
            }
            if let Some(job) = self.judge.request(seat, self.options.movetime) {
                worker.send(self.game, job);
                self.busy[seat] = Some(self.game);
            }
        }
    }

    /// Starts the turn's clock when a new turn has begun.
    fn note_turn(&mut self) {
        let now = (self.judge.plies(), self.judge.turn());
        if (self.turn_start.0, self.turn_start.1) != now {
            self.turn_start = (now.0, now.1, Instant::now());
        }
    }

    /// Time left on a person's clock, when one runs.
    fn clock_left(&self) -> Option<Duration> {
        let seat = self.judge.turn()?;
        if self.options.clock == 0 || !self.people.contains(&seat) {
            return None;
        }
        let limit = Duration::from_secs(self.options.clock);
        Some(limit.saturating_sub(self.turn_start.2.elapsed()))
    }

    fn clock_ran_out(&mut self) -> bool {
        let Some(seat) = self.judge.turn() else {
            return false;
        };
        let event = self.judge.time_out(seat);
        self.events.push(event);
        true
    }

    /// Handles one event; `true` when the game or what pages are shown changed.
    fn handle(&mut self, event: Event) -> bool {
        match event {
            Event::Join { conn, person, page } => {
                let hello = json!({"type": "hello", "game": self.judge.kind().name(),
                                   "geometry": self.judge.geometry()});
                page.send(hello.to_string());
                page.send(self.state(person).to_string());
                self.conns.push((conn, person, page));
                self.odds_asked[person] = None;
                self.ask_odds();
                false
            }
            Event::Leave { conn } => {
                self.conns.retain(|(c, _, _)| *c != conn);
                false
            }
            Event::Intent { conn, person, text } => match self.intent(conn, person, &text) {
                Ok(changed) => changed,
                Err(message) => {
                    self.reply(conn, error(&message));
                    false
                }
            },
            Event::Engine { id, game, reply } if id >= ODDS_ID => {
                let person = id - ODDS_ID;
                if let Some(busy) = self.odds_busy.get_mut(person) {
                    *busy = false;
                }
                if let Reply::Lines(Some(lines)) = reply
                    && game == self.game
                {
                    let odds = odds_message(&lines).to_string();
                    for (_, p, page) in &self.conns {
                        if *p == person {
                            page.send(odds.clone());
                        }
                    }
                }
                self.ask_odds();
                false
            }
            Event::Engine { id, game, reply } => {
                if game != self.game {
                    return false;
                }
                match reply {
                    Reply::Ready(true) | Reply::Lines(_) => false,
                    Reply::Ready(false) => {
                        let name = self.judge.seat_names()[id];
                        self.events
                            .push(format!("{name}'s engine did not start or answer"));
                        true
                    }
                    Reply::Deploy(answer) | Reply::Move(answer) => {
                        if self.busy[id] == Some(game) {
                            self.busy[id] = None;
                        }
                        if let Some(event) = self.judge.answer(id, answer, &mut self.rng) {
                            self.events.push(event);
                        }
                        true
                    }
                }
            }
            Event::Record { person, sender } => {
                let _ = sender.send(self.judge.record(Some(self.people[person])));
                false
            }
        }
    }

    /// Applies a page's message; `Err` is the one error the page is answered with.
    fn intent(&mut self, conn: u64, person: usize, text: &str) -> Result<bool, String> {
        let message: Value = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
        let kind = message
            .get("type")
            .and_then(Value::as_str)
            .ok_or("a message needs a \"type\"")?;
        let seat = self.people[person];
        let string = |field: &str| {
            message
                .get(field)
                .and_then(Value::as_str)
                .ok_or_else(|| format!("'{kind}' needs a string \"{field}\""))
        };
        match kind {
            "move" => self.judge.play(seat, string("move")?)?,
            "lineup" => self.judge.lineup(seat, string("lineup")?)?,
            "random_lineup" => self.judge.random_lineup(seat, &mut self.rng)?,
            "ready" => self.judge.ready(seat)?,
            "resign" => self.judge.resign(seat)?,
            "new_game" => self.restart(person, message.get("seat"))?,
            "options" => self.set_options(&message)?,
            "replay" => {
                let replay = self.judge.replay(string("record")?)?;
                self.reply(conn, replay.to_string());
                return Ok(false);
            }
            other => return Err(format!("unknown message type '{other}'")),
        }
        Ok(true)
    }

    /// A new game, `person` moving to `seat` when given.
    fn restart(&mut self, person: usize, seat: Option<&Value>) -> Result<(), String> {
        if let Some(seat) = seat {
            let names = self.judge.seat_names();
            let seat = seat
                .as_u64()
                .map(|s| s as usize)
                .or_else(|| {
                    seat.as_str()
                        .and_then(|name| names.iter().position(|n| n.eq_ignore_ascii_case(name)))
                })
                .filter(|&s| s < names.len())
                .ok_or_else(|| format!("no seat {seat}; one of {}", names.join(", ")))?;
            if seat != self.people[person] {
                if self.people.contains(&seat) {
                    return Err(format!("{} is another person's seat", names[seat]));
                }
                self.people[person] = seat;
                self.seat_engines().map_err(|e| e.to_string())?;
            }
        }
        self.new_game();
        Ok(())
    }

    fn set_options(&mut self, message: &Value) -> Result<(), String> {
        let mut options = self.options;
        let number =
            |field: &str, range: std::ops::RangeInclusive<u64>| -> Result<Option<u64>, String> {
                match message.get(field) {
                    None => Ok(None),
                    Some(value) => value
                        .as_u64()
                        .filter(|n| range.contains(n))
                        .map(Some)
                        .ok_or_else(|| {
                            format!(
                                "\"{field}\" must be a whole number in {}..={}",
                                range.start(),
                                range.end()
                            )
                        }),
                }
            };
        let flag = |field: &str| -> Result<Option<bool>, String> {
            match message.get(field) {
                None => Ok(None),
                Some(value) => value
                    .as_bool()
                    .map(Some)
                    .ok_or_else(|| format!("\"{field}\" must be true or false")),
            }
        };
        if let Some(ms) = number("movetime", 1..=super::MAX_MOVETIME)? {
            options.movetime = ms;
        }
        if let Some(skill) = number("skill", 0..=20)? {
            options.skill = skill as u8;
        }
        if let Some(clock) = number("clock", 0..=3600)? {
            options.clock = clock;
        }
        if let Some(odds) = flag("odds")? {
            options.odds = odds;
        }
        if let Some(chess960) = flag("chess960")? {
            options.chess960 = chess960;
        }
        if options.skill != self.options.skill {
            for worker in self.workers.iter().flatten() {
                worker.send(
                    self.game,
                    Job::Options(vec![("Skill Level".into(), options.skill.to_string())]),
                );
            }
        }
        self.options = options;
        self.odds_asked.iter_mut().for_each(|a| *a = None);
        Ok(())
    }

    /// Sends the state to every page, writes the record, asks for fresh odds.
    fn after_change(&mut self) {
        self.dispatch();
        self.note_turn();
        self.write_record();
        for (_, person, page) in &self.conns {
            page.send(self.state(*person).to_string());
        }
        // Each event is told once, with the state it changed.
        self.events.clear();
        self.ask_odds();
    }

    fn reply(&self, conn: u64, text: String) {
        if let Some((_, _, page)) = self.conns.iter().find(|(c, _, _)| *c == conn) {
            page.send(text);
        }
    }

    /// Hands the whole record to the writer, so that a server killed at any time leaves
    /// the game.
    fn write_record(&self) {
        let _ = self.record.send(self.judge.record(None));
    }

    /// Asks each person's odds engine about the position, when the panel is on and the
    /// game moved since it last asked.
    fn ask_odds(&mut self) {
        if !self.options.odds {
            return;
        }
        for person in 0..self.people.len() {
            let plies = self.judge.plies();
            if self.odds_busy[person]
                || self.odds_asked[person] == Some(plies)
                || !self.conns.iter().any(|(_, p, _)| *p == person)
            {
                continue;
            }
            let Some(request) = self.judge.odds_request(self.people[person]) else {
                continue;
            };
            if self.odds[person].is_none() {
                // Odds are the qiyi engine's own `d` output, whatever plays the seats.
                let started = super::this_engine(self.judge.kind()).and_then(|command| {
                    Worker::start(
                        EngineSpec::new(&command, &[])?,
                        ODDS_ID + person,
                        self.table.clone(),
                    )
                });
                match started {
                    Ok(worker) => self.odds[person] = Some(worker),
                    Err(e) => {
                        log::warn!("no odds engine: {e}");
                        continue;
                    }
                }
            }
            if let Some(worker) = &self.odds[person] {
                // A new game (or a page that just came) starts the engine's game afresh.
                if self.odds_asked[person].is_none() {
                    worker.send(
                        self.game,
                        Job::NewGame {
                            protocol: self.judge.protocol(),
                            options: request.options,
                        },
                    );
                }
                worker.send(
                    self.game,
                    Job::Ask {
                        lines: request.lines,
                    },
                );
                self.odds_busy[person] = true;
                self.odds_asked[person] = Some(plies);
            }
        }
    }

    /// The `state` message for `person`'s page.
    fn state(&self, person: usize) -> Value {
        let you = self.people[person];
        let names = self.judge.seat_names();
        let seats: Vec<Value> = names
            .iter()
            .enumerate()
            .map(|(seat, name)| {
                let (player, label) = if seat == you {
                    ("you", "you".to_string())
                } else if let Some(worker) = &self.workers[seat] {
                    ("engine", worker.label.clone())
                } else {
                    ("human", "a person".to_string())
                };
                json!({"name": name, "player": player, "label": label,
                       "out": self.judge.is_out(seat)})
            })
            .collect();
        let phase = self.judge.phase();
        let turn = self.judge.turn();
        let result = self.judge.result();
        let view = self.judge.view(you);
        let status = match (phase, turn) {
            (Phase::Deploy, _) if view.deploy.as_ref().is_some_and(|d| d.ready) => {
                "Waiting for the other lineups".to_string()
            }
            (Phase::Deploy, _) => {
                "Deploy your pieces: swap two by clicking them (or take a random lineup), then Ready"
                    .to_string()
            }
            (_, Some(seat)) if seat == you => format!("Your move ({})", names[seat]),
            (_, Some(seat)) => match &self.workers[seat] {
                Some(worker) => format!("{} ({}) is thinking", names[seat], worker.label),
                None => format!("{} (a person) to move", names[seat]),
            },
            _ => result
                .as_ref()
                .map_or_else(String::new, |verdict| verdict.text.clone()),
        };
        let clock = self.clock_left().map_or(Value::Null, |left| {
            Value::from(left.as_secs_f64().ceil() as u64)
        });
        let events: Vec<Value> = self
            .events
            .iter()
            .map(|text| json!({"text": text}))
            .collect();
        let mut state = json!({
            "type": "state",
            "game": self.judge.kind().name(),
            "seats": seats,
            "you": you,
            "phase": phase.name(),
            "turn": turn,
            "status": status,
            "events": events,
            "options": {"movetime": self.options.movetime, "skill": self.options.skill,
                        "clock": self.options.clock, "odds": self.options.odds,
                        "chess960": self.options.chess960},
            "clock": clock,
            "result": result.map(|v| json!({"winner": v.winner, "text": v.text})),
        });
        if let Value::Object(fields) = &mut state {
            fields.extend(view.fields());
        }
        state
    }
}

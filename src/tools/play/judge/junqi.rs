//! Siguo Junqi at the table: four seats, lineups chosen first, and in double-open and dark
//! games each seat shown only the ranks it may know.
//!
//! The judge keeps the open position and the referee's transcript (`crate::tools::junqi_referee`), so
//! engines are told the game exactly as `qiyi referee` tells it, and a page's board is
//! filtered by the same [`View`] an engine's `position` command is.

use super::{Judge, Lineup, OddsRequest, Phase, SeatView, Variant, Verdict, position_line};
use crate::core::{Game, MoveList};
use crate::games::GameKind;
use crate::games::junqi::board::{self, Kind, NO_STATION, SEAT_NAMES, STATIONS, TABLES};
use crate::games::junqi::dark::{Info, LINEUP_SLOTS};
use crate::games::junqi::{
    DEFAULT_LINEUP, EMPTY, Entry, FLAG, Move, Position, Rules, deploy, parse_lineup, rank_of,
    seat_of,
};
use crate::tools::junqi_referee::{
    Answer, Event, TEAMS, Transcript, View, eliminations, legal, told,
};
use crate::tools::play::worker::Job;
use rand::rngs::StdRng;
use serde_json::{Value, json};

/// Seat names as the page shows them.
const SEATS: [&str; 4] = ["S", "E", "N", "W"];
/// Milliseconds an engine has for `go deploy` at least.
const DEPLOY_TIME: u64 = 5000;

/// A Junqi game in progress.
pub struct Junqi {
    info: Info,
    phase: Phase,
    /// Each seat's lineup, once chosen (a person's is a proposal until ready).
    lineups: [Option<String>; 4],
    ready: [bool; 4],
    pos: Position,
    transcript: Transcript,
    /// The seat each event of the transcript belongs to (the mover; the seat forfeited).
    actors: Vec<usize>,
    /// Seats eliminated so far, and why.
    out: Vec<(usize, &'static str)>,
}

impl Junqi {
    pub fn new(info: Info) -> Junqi {
        Junqi {
            info,
            phase: Phase::Deploy,
            lineups: Default::default(),
            ready: [false; 4],
            pos: Position::start_position(),
            transcript: Transcript {
                lineups: Default::default(),
                events: Vec::new(),
            },
            actors: Vec::new(),
            out: Vec::new(),
        }
    }

    /// Once every lineup is final, the game begins.
    fn start_when_ready(&mut self) {
        if self.phase != Phase::Deploy || !self.ready.iter().all(|&r| r) {
            return;
        }
        let lineups: [String; 4] =
            std::array::from_fn(|s| self.lineups[s].clone().unwrap_or_default());
        let setup = format!(
            "setup S:{} E:{} N:{} W:{} first S",
            lineups[0], lineups[1], lineups[2], lineups[3]
        );
        // The game is played under the default rule options, which engines are told.
        let Ok(pos) = Position::from_notation(&setup) else {
            log::error!("checked lineups failed to set up: {setup}");
            return;
        };
        self.pos = pos;
        self.transcript = Transcript {
            lineups,
            events: Vec::new(),
        };
        self.phase = Phase::Play;
    }

    /// Plays `mv` for the seat to move and records it.
    fn apply(&mut self, mv: Move) {
        let seat = self.pos.side_to_move();
        let before = self.pos.clone();
        let event = Event::Ply(self.pos.record(mv));
        self.pos.play(mv);
        self.push(seat, &before, event);
    }

    fn push(&mut self, seat: usize, before: &Position, event: Event) {
        self.out.extend(eliminations(before, &self.pos, &event));
        self.transcript.events.push(event);
        self.actors.push(seat);
        if self.pos.result().is_some() {
            self.phase = Phase::Over;
        }
    }

    fn check_turn(&self, seat: usize) -> Result<(), String> {
        if self.phase != Phase::Play {
            return Err(match self.phase {
                Phase::Deploy => "the game has not started: lineups first".into(),
                _ => "the game is over".into(),
            });
        }
        if self.pos.side_to_move() != seat {
            return Err(format!(
                "it is {}'s turn, not {}'s",
                SEATS[self.pos.side_to_move()],
                SEATS[seat]
            ));
        }
        Ok(())
    }

    fn check_deploy(&self, seat: usize) -> Result<(), String> {
        if self.phase != Phase::Deploy {
            return Err("lineups are chosen before the game starts".into());
        }
        if self.ready[seat] {
            return Err(format!("{}'s lineup is final", SEATS[seat]));
        }
        Ok(())
    }

    /// What `seats` may see: every rank in the open game, a team's in double-open, a
    /// seat's own in the dark game.
    fn seen(&self, seat: usize) -> View {
        View::of(self.info, &[seat])
    }

    /// The board as `view` may see it: every piece with its owner, and its rank where the
    /// view allows or its flag was made public.
    fn pieces(pos: &Position, view: &View) -> Value {
        let mut pieces = Vec::new();
        let mut public = Vec::new();
        for s in 0..STATIONS {
            let piece = pos.piece(s);
            if piece == EMPTY {
                continue;
            }
            let (seat, rank) = (seat_of(piece), rank_of(piece));
            let flag_public = rank == FLAG && pos.is_public(seat);
            if flag_public {
                public.push(board::name(s));
            }
            let shown = view.sees[seat] || flag_public;
            pieces.push(json!({
                "at": board::name(s),
                "seat": seat,
                "rank": if shown { Value::from(char::from(b'a' + rank).to_string()) } else { Value::Null },
            }));
        }
        json!({"pieces": pieces, "public_flags": public})
    }

    /// The plies as a page lists them: every token the referee wrote, with its seat.
    fn moves(&self) -> Vec<Value> {
        let mut moves = Vec::new();
        for (event, &actor) in self.transcript.events.iter().zip(&self.actors) {
            let (Event::Ply(entries) | Event::Forfeit(entries)) = event;
            for entry in entries {
                let seat = match entry {
                    Entry::Out(seat) => *seat,
                    Entry::Ply(_) => actor,
                };
                moves.push(json!({"seat": seat, "text": entry.to_string()}));
            }
        }
        moves
    }

    /// The last ply that moved a piece, with its report.
    fn last(&self) -> Value {
        last_ply(&self.transcript.events)
    }

    fn verdict(&self) -> Option<Verdict> {
        let outcome = self.pos.result()?;
        Some(match outcome {
            crate::core::Outcome::Win(team) => {
                let losers: Vec<String> = self
                    .out
                    .iter()
                    .filter(|&&(seat, _)| seat % 2 != team)
                    .map(|&(seat, cause)| format!("{} {cause}", SEATS[seat]))
                    .collect();
                Verdict {
                    winner: Some(team),
                    text: format!("{} win: {}", TEAMS[team], losers.join(", ")),
                }
            }
            crate::core::Outcome::Draw => Verdict {
                winner: None,
                text: format!(
                    "draw: no piece taken in {} plies",
                    Rules::default().draw_plies
                ),
            },
        })
    }
}

/// `{from, to, report}` of the last ply in `events` that moved a piece.
fn last_ply(events: &[Event]) -> Value {
    events
        .iter()
        .rev()
        .find_map(|event| {
            let Event::Ply(entries) = event else {
                return None;
            };
            entries.iter().find_map(|entry| match entry {
                Entry::Ply(ply) if !ply.mv.is_special() => Some(json!({
                    "from": board::name(usize::from(ply.mv.from)),
                    "to": board::name(usize::from(ply.mv.to)),
                    "report": ply.report.as_ref().map(ToString::to_string),
                })),
                _ => None,
            })
        })
        .unwrap_or(Value::Null)
}

impl Judge for Junqi {
    fn kind(&self) -> GameKind {
        GameKind::Junqi
    }

    fn seat_names(&self) -> &'static [&'static str] {
        &SEATS
    }

    fn protocol(&self) -> &'static str {
        "ugi"
    }

    fn engine_options(&self, seat: usize) -> Vec<(String, String)> {
        vec![
            ("Info".into(), told(self.info, &[seat]).to_string()),
            (
                "NoCombatDrawPlies".into(),
                Rules::default().draw_plies.to_string(),
            ),
            ("MaxPasses".into(), Rules::default().max_passes.to_string()),
        ]
    }

    fn new_game(&mut self, _variant: Variant, rng: &mut StdRng) {
        *self = Junqi::new(self.info);
        // People start from a proposal they can change; engines answer `go deploy`.
        self.lineups = std::array::from_fn(|_| Some(deploy(rng)));
    }

    fn phase(&self) -> Phase {
        self.phase
    }

    fn turn(&self) -> Option<usize> {
        (self.phase == Phase::Play).then(|| self.pos.side_to_move())
    }

    fn is_out(&self, seat: usize) -> bool {
        self.phase != Phase::Deploy && self.pos.is_out(seat)
    }

    fn plies(&self) -> usize {
        self.transcript.events.len()
    }

    fn view(&self, seat: usize) -> SeatView {
        let slots = || {
            LINEUP_SLOTS
                .iter()
                .map(move |&slot| Position::slot_station(seat, usize::from(slot)))
        };
        let board = if self.phase == Phase::Deploy {
            let lineup = self.lineups[seat].clone().unwrap_or_default();
            let pieces: Vec<Value> = slots()
                .zip(lineup.chars())
                .map(|(station, rank)| {
                    json!({"at": board::name(station), "seat": seat, "rank": rank.to_string()})
                })
                .collect();
            json!({"pieces": pieces, "public_flags": []})
        } else {
            Junqi::pieces(&self.pos, &self.seen(seat))
        };
        let mut legal = Vec::new();
        if self.turn() == Some(seat) {
            let mut moves = MoveList::new();
            self.pos.generate_moves(&mut moves);
            legal = moves
                .iter()
                .map(|mv| {
                    json!({"text": mv.to_string(),
                           "from": board::name(usize::from(mv.from)),
                           "to": board::name(usize::from(mv.to))})
                })
                .collect();
        }
        SeatView {
            board,
            moves: self.moves(),
            last: self.last(),
            legal,
            claim: false,
            deploy: (self.phase == Phase::Deploy).then(|| Lineup {
                lineup: self.lineups[seat].clone().unwrap_or_default(),
                slots: slots().map(board::name).collect(),
                ready: self.ready[seat],
            }),
        }
    }

    fn play(&mut self, seat: usize, text: &str) -> Result<(), String> {
        self.check_turn(seat)?;
        let mv = match legal(&self.pos, text) {
            Some(mv) if mv != Move::RESIGN => mv,
            _ => {
                return Err(format!(
                    "'{}' is not a legal move for {} here",
                    crate::core::quote(text).trim_matches('\''),
                    SEATS[seat]
                ));
            }
        };
        self.apply(mv);
        Ok(())
    }

    fn request(&self, seat: usize, movetime: u64) -> Option<Job> {
        let view = self.seen(seat);
        match self.phase {
            Phase::Deploy if !self.ready[seat] => {
                // Seats not yet deployed show the default lineup to whoever may see them.
                let placeholder = Transcript {
                    lineups: std::array::from_fn(|_| DEFAULT_LINEUP.to_string()),
                    events: Vec::new(),
                };
                // A lineup is not a move: it gets a few seconds whatever the move time.
                Some(Job::Deploy {
                    position: placeholder.setup(&view, seat),
                    movetime: movetime.max(DEPLOY_TIME) + crate::tools::play::worker::MARGIN,
                })
            }
            Phase::Play if self.pos.side_to_move() == seat => Some(Job::Go {
                position: self.transcript.position(&view),
                go: format!("go movetime {movetime}"),
                movetime,
            }),
            _ => None,
        }
    }

    fn answer(&mut self, seat: usize, answer: Answer, rng: &mut StdRng) -> Option<String> {
        let name = SEATS[seat];
        match self.phase {
            Phase::Deploy if !self.ready[seat] => {
                let problem = match answer {
                    Answer::Given(text) if parse_lineup(seat, &text).is_ok() => {
                        self.lineups[seat] = Some(text);
                        None
                    }
                    answer => {
                        self.lineups[seat] = Some(deploy(rng));
                        Some(format!(
                            "{name}'s engine gave no valid lineup ({answer:?}); a random one plays"
                        ))
                    }
                };
                self.ready[seat] = true;
                self.start_when_ready();
                problem
            }
            Phase::Play if self.pos.side_to_move() == seat => match answer {
                Answer::Given(text) => match legal(&self.pos, &text) {
                    Some(mv) => {
                        self.apply(mv);
                        None
                    }
                    None => {
                        self.apply(Move::PASS);
                        Some(format!(
                            "{name}'s engine answered '{text}', not a legal move: played as pass"
                        ))
                    }
                },
                Answer::Late => {
                    self.apply(Move::TIMEOUT);
                    Some(format!("{name}'s engine did not answer in time: timeout"))
                }
                Answer::Gone => Some(self.forfeit(seat)),
            },
            _ => None,
        }
    }

    fn forfeit(&mut self, seat: usize) -> String {
        if self.phase == Phase::Deploy {
            // Its lineup plays; it forfeits at its first turn.
            if !self.ready[seat] {
                self.ready[seat] = true;
                self.start_when_ready();
            }
        } else if self.turn() == Some(seat) {
            let before = self.pos.clone();
            let event = Event::forfeit(&mut self.pos);
            self.push(seat, &before, event);
        }
        format!(
            "{}'s engine is gone: {} is out at its turn",
            SEATS[seat], SEATS[seat]
        )
    }

    fn resign(&mut self, seat: usize) -> Result<(), String> {
        self.check_turn(seat)
            .map_err(|e| format!("{e} (a seat resigns at its turn)"))?;
        self.apply(Move::RESIGN);
        Ok(())
    }

    fn time_out(&mut self, seat: usize) -> String {
        if self.turn() == Some(seat) {
            self.apply(Move::TIMEOUT);
        }
        format!("{} ran out of time: timeout", SEATS[seat])
    }

    fn result(&self) -> Option<Verdict> {
        if self.phase == Phase::Deploy {
            return None;
        }
        self.verdict()
    }

    fn record(&self, seat: Option<usize>) -> String {
        if self.phase == Phase::Deploy {
            return "# qiyi play: junqi, lineups being chosen\n".into();
        }
        let view = match seat {
            Some(seat) if self.phase != Phase::Over => self.seen(seat),
            _ => View::record(self.info),
        };
        let result = self
            .verdict()
            .map_or_else(|| "in progress".to_string(), |v| v.text);
        let rules = Rules::default();
        format!(
            "# qiyi play: junqi, info {}; {result}; {} plies; rules NoCombatDrawPlies={} \
             MaxPasses={}\n{}\n",
            self.info,
            self.transcript.events.len(),
            rules.draw_plies,
            rules.max_passes,
            self.transcript.position(&view)
        )
    }

    fn replay(&self, text: &str) -> Result<Value, String> {
        let line = position_line(text)?;
        let (setup, tokens) = match line.split_once(" moves ") {
            Some((setup, moves)) => (setup.trim(), moves.split_whitespace().collect()),
            None => (line.trim(), Vec::new()),
        };
        if setup.split_whitespace().any(|t| t.ends_with(":-")) {
            return Err(
                "this record hides lineups (one seat's view); replay needs the whole record, \
                 which the record link gives once the game is over"
                    .into(),
            );
        }
        let mut pos = Position::from_notation(setup).map_err(|e| e.to_string())?;
        for (name, value) in record_rules(text) {
            pos.set_rule_option(&name, &value)
                .map_err(|e| e.to_string())?;
        }
        let everything = View {
            sees: [true; 4],
            annotated: true,
        };
        let mut events: Vec<Event> = Vec::new();
        let mut moves: Vec<Value> = Vec::new();
        let frame = |pos: &Position, events: &[Event], moves: &[Value]| {
            json!({"board": Junqi::pieces(pos, &everything), "last": last_ply(events),
                   "moves": moves})
        };
        let mut frames = vec![frame(&pos, &events, &moves)];
        for (i, token) in tokens.iter().enumerate() {
            let bad = |why: String| format!("ply {} ('{token}'): {why}", i + 1);
            let entry = Entry::parse(token).map_err(|e| bad(e.to_string()))?;
            let seat = pos.side_to_move();
            match &entry {
                Entry::Ply(ply) => {
                    let mv = ply.mv;
                    let mut generated = MoveList::new();
                    pos.generate_moves(&mut generated);
                    if !mv.is_special() && !generated.iter().any(|&m| m == mv) {
                        return Err(bad("not a legal move here".into()));
                    }
                    let entries = pos.record(mv);
                    pos.play(mv);
                    moves.push(json!({"seat": seat, "text": entries[0].to_string()}));
                    events.push(Event::Ply(entries));
                }
                Entry::Out(out) => {
                    if !pos.is_out(*out) {
                        pos.forfeit(*out);
                    }
                    moves.push(json!({"seat": out, "text": entry.to_string()}));
                    events.push(Event::Forfeit(vec![entry.clone()]));
                }
            }
            frames.push(frame(&pos, &events, &moves));
        }
        Ok(
            json!({"type": "replay", "game": "junqi", "seats": SEATS, "ranks": [0, 1, 2, 3],
                  "frames": frames}),
        )
    }

    fn geometry(&self) -> Value {
        let t = &*TABLES;
        let stations: Vec<Value> = (0..STATIONS)
            .map(|s| {
                let (x, y) = t.xy[s];
                let kind = match t.kind[s] {
                    Kind::Rail => "rail",
                    Kind::Road => "road",
                    Kind::Camp => "camp",
                    Kind::Hq => "hq",
                };
                json!({"name": board::name(s), "x": x, "y": y, "kind": kind,
                       "seat": board::seat_of_station(s)})
            })
            .collect();
        let edges = |table: &dyn Fn(usize) -> Vec<u8>| -> Vec<Value> {
            (0..STATIONS)
                .flat_map(|s| {
                    table(s)
                        .into_iter()
                        .filter(move |&n| n != NO_STATION && usize::from(n) > s)
                        .map(move |n| json!([board::name(s), board::name(usize::from(n))]))
                })
                .collect()
        };
        let rails = edges(&|s| t.rail[s].to_vec());
        let steps = edges(&|s| t.step[s].to_vec());
        json!({"stations": stations, "rails": rails, "steps": steps, "seat_names": SEAT_NAMES})
    }

    fn lineup(&mut self, seat: usize, text: &str) -> Result<(), String> {
        self.check_deploy(seat)?;
        parse_lineup(seat, text).map_err(|e| e.to_string())?;
        self.lineups[seat] = Some(text.to_string());
        Ok(())
    }

    fn random_lineup(&mut self, seat: usize, rng: &mut StdRng) -> Result<(), String> {
        self.check_deploy(seat)?;
        self.lineups[seat] = Some(deploy(rng));
        Ok(())
    }

    fn ready(&mut self, seat: usize) -> Result<(), String> {
        self.check_deploy(seat)?;
        self.ready[seat] = true;
        self.start_when_ready();
        Ok(())
    }

    fn odds_request(&self, seat: usize) -> Option<OddsRequest> {
        if self.info == Info::Open || self.phase == Phase::Deploy {
            return None;
        }
        Some(OddsRequest {
            options: self.engine_options(seat),
            lines: vec![self.transcript.position(&self.seen(seat)), "d".into()],
        })
    }
}

/// The rule options a record's `#` line names (`rules NoCombatDrawPlies=50 MaxPasses=5`).
fn record_rules(text: &str) -> Vec<(String, String)> {
    text.lines()
        .filter(|line| line.starts_with('#'))
        .flat_map(|line| line.split([' ', ';']))
        .filter_map(|word| word.split_once('='))
        .filter(|(name, _)| matches!(*name, "NoCombatDrawPlies" | "MaxPasses"))
        .map(|(name, value)| (name.to_string(), value.to_string()))
        .collect()
}

/// The odds panel's message from the lines `d` printed: `<station> <seat> <ranks>
/// <rank><percent>% ...` below the `hidden pieces` line.
pub fn odds_message(lines: &[String]) -> Value {
    let pieces: Vec<Value> = lines
        .iter()
        .skip_while(|line| !line.starts_with("hidden pieces"))
        .skip(1)
        .filter_map(|line| {
            let words: Vec<&str> = line.split_whitespace().collect();
            let (at, rest) = (words.first()?, words.get(3..)?);
            let odds: Vec<Value> = rest
                .iter()
                .filter_map(|word| {
                    let word = word.strip_suffix('%')?;
                    let (rank, percent) = word.split_at(1);
                    Some(json!([rank, percent.parse::<u32>().ok()?]))
                })
                .collect();
            Some(json!({"at": at, "odds": odds}))
        })
        .collect();
    json!({"type": "odds", "pieces": pieces})
}

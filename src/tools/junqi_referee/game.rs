//! One game of a match: the processes, the lineups, the turn loop with its forfeits, and
//! the report with its record.
//!
//! The referee keeps the open position (every rank known) and is the only judge of the
//! rules: legality by `generate_moves`, plies by `play`, reports by `record`, crashes by
//! `forfeit`. Each process is sent the whole game from the setup every turn, through its
//! [`View`] of the [`Transcript`].

use super::clock::Clocks;
use super::engine::{Answer, EngineSpec, Player};
use super::start::Start;
use super::transcript::{Event, Transcript, View};
use super::{Config, Info, Lineups, team};
use crate::core::{Game, MoveList, Outcome};
use crate::games::junqi::board::SEAT_NAMES;
use crate::games::junqi::{DEFAULT_LINEUP, Entry, Move, Ply, Position, deploy, parse_lineup};
use rand::rngs::StdRng;
use std::time::Duration;

/// The teams by number, as the record names them.
pub const TEAMS: [&str; 2] = ["S+N", "E+W"];

/// What the match hands a game.
pub struct Pairing<'a> {
    /// 1-based game number.
    pub number: usize,
    /// Engines A and B.
    pub engines: [&'a EngineSpec; 2],
    /// The team engine A plays (0: S+N).
    pub a_team: usize,
    /// The pair's generator: the four random lineups first, then replacements for
    /// invalid deployments.
    pub rng: StdRng,
    /// The recorded position to begin from (`--from`), instead of fresh lineups.
    pub start: Option<&'a Start>,
}

/// What one engine did wrong in a game (or a match).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Faults {
    /// Illegal or malformed moves, played as `pass`.
    pub illegal: u32,
    /// Moves not given in time, played as `timeout`.
    pub timeouts: u32,
    /// Processes that died or stopped answering.
    pub crashes: u32,
    /// Deployments replaced by a random lineup.
    pub bad_lineups: u32,
    /// The slowest move given in time, milliseconds from `position` to `bestmove`: not a
    /// fault, but how near one came.
    pub slowest_ms: u64,
    /// Moves given in time, and the milliseconds they took in all: with `--tc`, how much
    /// of its clock an engine spends.
    pub moves: u32,
    pub thinking_ms: u64,
}

impl Faults {
    pub fn add(&mut self, other: &Faults) {
        self.illegal += other.illegal;
        self.timeouts += other.timeouts;
        self.crashes += other.crashes;
        self.bad_lineups += other.bad_lineups;
        self.slowest_ms = self.slowest_ms.max(other.slowest_ms);
        self.moves += other.moves;
        self.thinking_ms += other.thinking_ms;
    }

    /// The mean time of a move given in time, milliseconds.
    pub fn mean_ms(&self) -> u64 {
        self.thinking_ms / u64::from(self.moves.max(1))
    }
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct GameReport {
    pub number: usize,
    /// The team engine A played.
    pub a_team: usize,
    pub outcome: Outcome,
    /// Why it ended, e.g. `N flag taken, S no legal move`.
    pub reason: String,
    pub plies: usize,
    /// Engine A's faults, then B's.
    pub faults: [Faults; 2],
    /// The `#` header line and the `position` line, each ending in a newline.
    pub record: String,
}

impl GameReport {
    /// Engine A's score: 1, ½ or 0.
    pub fn score_a(&self) -> f64 {
        match self.outcome {
            Outcome::Win(t) if t == self.a_team => 1.0,
            Outcome::Win(_) => 0.0,
            Outcome::Draw => 0.5,
        }
    }

    /// `A wins (A S+N)`, `draw (A E+W)`.
    pub fn result_text(&self) -> String {
        let result = match self.outcome {
            Outcome::Win(t) if t == self.a_team => "A wins",
            Outcome::Win(_) => "B wins",
            Outcome::Draw => "draw",
        };
        format!("{result} (A {})", TEAMS[self.a_team])
    }
}

/// An engine's answer as a ply, if it is one: a generated move, `pass` or `resign`.
pub fn legal(pos: &Position, answer: &str) -> Option<Move> {
    let token = answer.split_whitespace().next()?;
    let Ok(Entry::Ply(Ply { mv, report: None })) = Entry::parse(token) else {
        return None;
    };
    (mv == Move::PASS || mv == Move::RESIGN || generated(pos, mv)).then_some(mv)
}

/// Whether `mv` is one of the moves `pos` generates (not `pass`, `timeout` or `resign`).
pub fn generated(pos: &Position, mv: Move) -> bool {
    let mut moves = MoveList::new();
    pos.generate_moves(&mut moves);
    moves.iter().any(|&m| m == mv)
}

/// The processes of a game and who they are.
struct Table {
    players: Vec<Player>,
    /// The seats of each process.
    seats: Vec<Vec<usize>>,
    /// The engine of each process: 0 for A, 1 for B.
    engine: Vec<usize>,
    /// The process of each seat.
    owner: [usize; 4],
    /// Whether each process's crash has been counted.
    counted: Vec<bool>,
    faults: [Faults; 2],
}

impl Table {
    /// Counts a process's crash once, when it is first found gone.
    fn note_crash(&mut self, p: usize) {
        if self.players[p].is_gone() && !self.counted[p] {
            self.counted[p] = true;
            self.faults[self.engine[p]].crashes += 1;
        }
    }

    /// Logs the `info string error` lines a process wrote; in the open game an error about
    /// the `Info` option is expected from engines that know only the open game.
    fn log_errors(&mut self, p: usize, info: Info) {
        for line in self.players[p].take_errors() {
            if info == Info::Open && line.contains("Info") {
                log::debug!("{}: {line}", self.players[p].label());
            } else {
                log::warn!("{}: {line}", self.players[p].label());
            }
        }
    }
}

/// Seats eliminated by an event and why, e.g. `(2, "flag taken")`.
pub fn eliminations(
    before: &Position,
    after: &Position,
    event: &Event,
) -> Vec<(usize, &'static str)> {
    let mover = before.side_to_move();
    let (announced, mv) = match event {
        Event::Ply(entries) | Event::Forfeit(entries) => (
            entries
                .iter()
                .filter_map(|e| match e {
                    Entry::Out(seat) => Some(*seat),
                    Entry::Ply(_) => None,
                })
                .collect::<Vec<_>>(),
            entries.iter().find_map(|e| match e {
                Entry::Ply(ply) => Some(ply.mv),
                Entry::Out(_) => None,
            }),
        ),
    };
    (0..4)
        .filter(|&seat| after.is_out(seat) && !before.is_out(seat))
        .map(|seat| {
            let cause = if !announced.contains(&seat) {
                "flag taken"
            } else if seat != mover {
                "no legal move"
            } else {
                match mv {
                    None => "crashed",
                    Some(Move::RESIGN) => "resigned",
                    Some(Move::PASS | Move::TIMEOUT) => "MaxPasses",
                    Some(_) => "no legal move",
                }
            };
            (seat, cause)
        })
        .collect()
}

/// Plays one game to its end and ends its processes. An engine that cannot be started at
/// all is an error; everything an engine does wrong once running is a forfeit.
pub fn play(config: &Config, mut pairing: Pairing) -> anyhow::Result<GameReport> {
    let seats: Vec<Vec<usize>> = if config.teams {
        vec![vec![0, 2], vec![1, 3]]
    } else {
        (0..4).map(|seat| vec![seat]).collect()
    };
    let engine: Vec<usize> = seats
        .iter()
        .map(|s| usize::from(team(s[0]) != pairing.a_team))
        .collect();
    let mut players = Vec::new();
    for (group, &e) in seats.iter().zip(&engine) {
        let names: Vec<String> = group.iter().map(|&s| SEAT_NAMES[s].to_string()).collect();
        let label = format!(
            "game {} {}/{}",
            pairing.number,
            ["A", "B"][e],
            names.join("+")
        );
        players.push(Player::start(pairing.engines[e], label)?);
    }
    let mut owner = [0; 4];
    for (p, group) in seats.iter().enumerate() {
        for &seat in group {
            owner[seat] = p;
        }
    }
    let views: Vec<View> = seats.iter().map(|s| View::of(config.info, s)).collect();
    let mut table = Table {
        players,
        counted: vec![false; seats.len()],
        seats,
        engine,
        owner,
        faults: [Faults::default(); 2],
    };

    for p in 0..table.players.len() {
        let mut options = vec![
            (
                "Info".to_string(),
                super::told(config.info, &table.seats[p]).to_string(),
            ),
            (
                "NoCombatDrawPlies".to_string(),
                config.draw_plies.to_string(),
            ),
            ("MaxPasses".to_string(), config.max_passes.to_string()),
        ];
        options.extend(pairing.engines[table.engine[p]].options.iter().cloned());
        table.players[p].prepare("ugi", &options);
        table.note_crash(p);
        table.log_errors(p, config.info);
    }

    let (mut pos, mut transcript, mut plies, mut out) = match pairing.start {
        Some(start) => (
            start.pos.clone(),
            Transcript {
                lineups: start.lineups.clone(),
                events: start.events.clone(),
            },
            start.plies,
            start.out.clone(),
        ),
        None => {
            let mut lineups: [String; 4] = std::array::from_fn(|_| deploy(&mut pairing.rng));
            if config.lineups == Lineups::Engine {
                choose_lineups(config, &mut table, &views, &mut lineups, &mut pairing.rng);
            }
            let setup = format!(
                "setup S:{} E:{} N:{} W:{} first S",
                lineups[0], lineups[1], lineups[2], lineups[3]
            );
            let pos = config.position(&setup)?;
            let transcript = Transcript {
                lineups,
                events: Vec::new(),
            };
            (pos, transcript, 0, Vec::new())
        }
    };
    let mut clocks = config.tc.map(Clocks::new);

    let mut adjudicated = false;
    let outcome = loop {
        if let Some(outcome) = pos.result() {
            break outcome;
        }
        if config.max_plies > 0 && plies >= config.max_plies {
            adjudicated = true;
            break Outcome::Draw;
        }
        let seat = pos.side_to_move();
        let p = table.owner[seat];
        let before = pos.clone();
        let event = if table.players[p].is_gone() {
            Event::forfeit(&mut pos)
        } else {
            let position = transcript.position(&views[p]);
            let player = &mut table.players[p];
            let answer = match &clocks {
                Some(clocks) => {
                    player.go_with(&position, &clocks.go(), clocks.left(seat), config.margin)
                }
                None => player.go(&position, config.movetime, config.margin),
            };
            table.log_errors(p, config.info);
            table.note_crash(p);
            let e = table.engine[p];
            let took = match answer {
                Answer::Given(_) => {
                    let took = table.players[p].last();
                    let (faults, ms) = (&mut table.faults[e], took.as_millis() as u64);
                    faults.slowest_ms = faults.slowest_ms.max(ms);
                    faults.moves += 1;
                    faults.thinking_ms += ms;
                    took
                }
                // Late: the whole clock went.
                _ => Duration::MAX,
            };
            if let Some(clocks) = clocks.as_mut() {
                clocks.charge(seat, took);
            }
            let mv = match answer {
                Answer::Given(text) => legal(&pos, &text).unwrap_or_else(|| {
                    log::warn!(
                        "{} (seat {}): illegal move '{text}', played as pass",
                        table.players[p].label(),
                        SEAT_NAMES[seat]
                    );
                    table.faults[e].illegal += 1;
                    Move::PASS
                }),
                Answer::Late => {
                    table.faults[e].timeouts += 1;
                    Move::TIMEOUT
                }
                // Forfeited at once, in the same turn.
                Answer::Gone => continue,
            };
            let entries = pos.record(mv);
            pos.play(mv);
            plies += 1;
            Event::Ply(entries)
        };
        out.extend(eliminations(&before, &pos, &event));
        transcript.events.push(event);
    };
    Player::end_all(&mut table.players);

    let reason = match outcome {
        Outcome::Draw if adjudicated => format!("adjudicated after {plies} plies"),
        Outcome::Draw => format!("no piece taken in {} plies", config.draw_plies),
        Outcome::Win(winner) => {
            let losers: Vec<String> = out
                .iter()
                .filter(|&&(seat, _)| team(seat) != winner)
                .map(|&(seat, cause)| format!("{} {cause}", SEAT_NAMES[seat]))
                .collect();
            losers.join(", ")
        }
    };
    let mut report = GameReport {
        number: pairing.number,
        a_team: pairing.a_team,
        outcome,
        reason,
        plies,
        faults: table.faults,
        record: String::new(),
    };
    report.record = format!(
        "# game {}: A ({}) {}, B ({}) {}; {}; {}; {} plies; info {}, {}; rules \
         NoCombatDrawPlies={} MaxPasses={}\n{}\n",
        report.number,
        pairing.engines[0].command,
        TEAMS[pairing.a_team],
        pairing.engines[1].command,
        TEAMS[1 - pairing.a_team],
        report.result_text(),
        report.reason,
        plies,
        config.info,
        config.seating(),
        config.draw_plies,
        config.max_passes,
        transcript.position(&View::record(config.info))
    );
    Ok(report)
}

/// `--lineups engine`: asks each seat's process for a lineup (`go deploy`, with that seat
/// to move), keeping the random one when the answer is missing or invalid.
fn choose_lineups(
    config: &Config,
    table: &mut Table,
    views: &[View],
    lineups: &mut [String; 4],
    rng: &mut StdRng,
) {
    // Seats not yet deployed show the default lineup to whoever may see them.
    let placeholder = Transcript {
        lineups: std::array::from_fn(|_| DEFAULT_LINEUP.to_string()),
        events: Vec::new(),
    };
    let time = Duration::from_millis(config.movetime + config.margin);
    for seat in 0..4 {
        let p = table.owner[seat];
        if table.players[p].is_gone() {
            continue;
        }
        let answer = table.players[p].deploy(&placeholder.setup(&views[p], seat), time);
        table.note_crash(p);
        table.log_errors(p, config.info);
        match answer {
            Answer::Given(text) if parse_lineup(seat, &text).is_ok() => lineups[seat] = text,
            Answer::Gone => {}
            answer => {
                log::warn!(
                    "{} (seat {}): no valid lineup ({answer:?}); a random one plays",
                    table.players[p].label(),
                    SEAT_NAMES[seat]
                );
                table.faults[table.engine[p]].bad_lineups += 1;
                // A fresh draw, so the replacement does not depend on which seat failed.
                lineups[seat] = deploy(rng);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_are_legal_plies_or_nothing() {
        let pos = Position::start_position();
        assert_eq!(
            legal(&pos, "k6k7").map(|m| m.to_string()),
            Some("k6k7".into())
        );
        assert_eq!(legal(&pos, "pass"), Some(Move::PASS));
        assert_eq!(legal(&pos, "resign"), Some(Move::RESIGN));
        for bad in [
            "", "i1i9", "k6k7=m", "timeout", "out:S", "(none)", "zz", "q8q9",
        ] {
            assert_eq!(legal(&pos, bad), None, "{bad}");
        }
    }

    #[test]
    fn eliminations_name_their_causes() {
        let mut pos = Position::start_position();
        pos.set_rule_option("MaxPasses", "1").unwrap();
        let before = pos.clone();
        let mv = Move::PASS;
        let event = Event::Ply(pos.record(mv));
        pos.play(mv);
        assert_eq!(eliminations(&before, &pos, &event), [(0, "MaxPasses")]);
        let before = pos.clone();
        pos.forfeit(1);
        let event = Event::Forfeit(vec![Entry::Out(1)]);
        assert_eq!(eliminations(&before, &pos, &event), [(1, "crashed")]);
    }
}

//! One game of a match: the processes, the lineups, the turn loop with its forfeits, what
//! each process is told, and the record.
//!
//! The referee keeps the open position (every rank known) and is the only judge of the
//! rules: legality by `generate_moves`, plies by `play`, reports by `record`, crashes by
//! `forfeit`. Each process is sent the whole game from the setup every turn, through its
//! [`View`]: the lineups it may see and, outside the open game, the annotated plies.

use super::engine::{Answer, EngineSpec, Player};
use super::{Config, Info, Lineups};
use crate::core::{Game, MoveList, Outcome};
use crate::games::junqi::board::SEAT_NAMES;
use crate::games::junqi::{DEFAULT_LINEUP, Entry, Move, Ply, Position, deploy, parse_lineup};
use rand::rngs::StdRng;
use std::time::Duration;

/// The teams by number, as the record names them.
pub const TEAMS: [&str; 2] = ["S+N", "E+W"];

/// The team of a seat (S, N → 0; E, W → 1).
fn team(seat: usize) -> usize {
    seat & 1
}

/// One event of the game, as the referee records it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// A ply with what [`Position::record`] says of it: the annotated ply, then `out:`
    /// tokens for eliminations no flag capture shows.
    Ply(Vec<Entry>),
    /// The seat to move forfeited (its engine is gone): `out:` for it, then for any seat
    /// left without a move at the start of its turn. The referee forfeits a seat only at
    /// its turn, so in the open game this is exactly a `resign`.
    Forfeit(Vec<Entry>),
}

impl Event {
    /// Forfeits the seat to move in `pos` (its player is gone) and records it: `out:` for
    /// it and for every seat that leaves with it.
    pub fn forfeit(pos: &mut Position) -> Event {
        let before = pos.clone();
        pos.forfeit(pos.side_to_move());
        Event::Forfeit(
            (0..4)
                .filter(|&s| pos.is_out(s) && !before.is_out(s))
                .map(Entry::Out)
                .collect(),
        )
    }
}

/// What one process may know of the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct View {
    /// The seats whose lineups it is given; `-` for the others.
    pub sees: [bool; 4],
    /// Whether plies carry the referee's reports and `out:` tokens (double-open, dark).
    pub annotated: bool,
}

impl View {
    /// The view of a process playing `seats`: every lineup in open, its team's in
    /// double-open, its own seats' in dark (a whole team's, in team mode).
    pub fn of(info: Info, seats: &[usize]) -> View {
        let sees = std::array::from_fn(|seat| match info {
            Info::Open => true,
            Info::DoubleOpen => seats.iter().any(|&s| team(s) == team(seat)),
            Info::Dark => seats.contains(&seat),
        });
        View {
            sees,
            annotated: info != Info::Open,
        }
    }

    /// Everything, for the record file: all lineups, plies as the mode writes them.
    pub fn record(info: Info) -> View {
        View {
            sees: [true; 4],
            annotated: info != Info::Open,
        }
    }
}

/// The game so far: the four lineups and every event since the setup.
#[derive(Clone, Debug)]
pub struct Transcript {
    pub lineups: [String; 4],
    pub events: Vec<Event>,
}

impl Transcript {
    /// `position setup S:<lineup|-> E:.. N:.. W:.. first <seat>` as `view` may see it.
    pub fn setup(&self, view: &View, first: usize) -> String {
        let seats: Vec<String> = (0..4)
            .map(|seat| {
                let lineup = if view.sees[seat] {
                    self.lineups[seat].as_str()
                } else {
                    "-"
                };
                format!("{}:{lineup}", SEAT_NAMES[seat])
            })
            .collect();
        format!(
            "position setup {} first {}",
            seats.join(" "),
            SEAT_NAMES[first]
        )
    }

    /// The moves list as `view` is told it: plain plies in the open game (every outcome
    /// follows from the ranks; a forfeit is the `resign` it equals), otherwise every
    /// token the referee wrote.
    fn tokens(&self, view: &View) -> Vec<String> {
        let mut tokens = Vec::new();
        for event in &self.events {
            match event {
                Event::Ply(entries) | Event::Forfeit(entries) if view.annotated => {
                    tokens.extend(entries.iter().map(Entry::to_string));
                }
                Event::Ply(entries) => {
                    tokens.extend(entries.iter().find_map(|entry| match entry {
                        Entry::Ply(ply) => Some(ply.mv.to_string()),
                        Entry::Out(_) => None,
                    }))
                }
                Event::Forfeit(_) => tokens.push(Move::RESIGN.to_string()),
            }
        }
        tokens
    }

    /// The whole game as `view` is told it: the `position` command, S first.
    pub fn position(&self, view: &View) -> String {
        let mut text = self.setup(view, 0);
        let tokens = self.tokens(view);
        if !tokens.is_empty() {
            text.push_str(" moves ");
            text.push_str(&tokens.join(" "));
        }
        text
    }
}

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
}

impl Faults {
    pub fn add(&mut self, other: &Faults) {
        self.illegal += other.illegal;
        self.timeouts += other.timeouts;
        self.crashes += other.crashes;
        self.bad_lineups += other.bad_lineups;
        self.slowest_ms = self.slowest_ms.max(other.slowest_ms);
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
    if mv == Move::PASS || mv == Move::RESIGN {
        return Some(mv);
    }
    let mut moves = MoveList::new();
    pos.generate_moves(&mut moves);
    moves.iter().any(|&m| m == mv).then_some(mv)
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

    let mut lineups: [String; 4] = std::array::from_fn(|_| deploy(&mut pairing.rng));
    if config.lineups == Lineups::Engine {
        choose_lineups(config, &mut table, &views, &mut lineups, &mut pairing.rng);
    }
    let setup = format!(
        "setup S:{} E:{} N:{} W:{} first S",
        lineups[0], lineups[1], lineups[2], lineups[3]
    );
    let mut pos = Position::from_notation(&setup)?;
    pos.set_rule_option("NoCombatDrawPlies", &config.draw_plies.to_string())?;
    pos.set_rule_option("MaxPasses", &config.max_passes.to_string())?;
    let mut transcript = Transcript {
        lineups,
        events: Vec::new(),
    };
    let mut plies = 0;
    let mut out: Vec<(usize, &'static str)> = Vec::new();

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
            let answer = table.players[p].go(
                &transcript.position(&views[p]),
                config.movetime,
                config.margin,
            );
            table.log_errors(p, config.info);
            table.note_crash(p);
            let e = table.engine[p];
            let took = table.players[p].slowest().as_millis() as u64;
            table.faults[e].slowest_ms = table.faults[e].slowest_ms.max(took);
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

    const L: &str = DEFAULT_LINEUP;

    /// A short game with distinct lineups: S's major general rides to the centre, E and N
    /// pass, W forfeits at its turn.
    fn transcript() -> Transcript {
        let lineups: [String; 4] = std::array::from_fn(|seat| {
            // Distinct lineups per seat, so a leak would show.
            let mut l: Vec<char> = L.chars().collect();
            l.swap(0, seat + 1);
            l.into_iter().collect()
        });
        let setup = format!(
            "setup S:{} E:{} N:{} W:{} first S",
            lineups[0], lineups[1], lineups[2], lineups[3]
        );
        let mut pos = Position::from_notation(&setup).unwrap();
        let mut events = Vec::new();
        for text in ["k6k7", "pass", "pass"] {
            let mv = pos.parse_move(text).unwrap();
            events.push(Event::Ply(pos.record(mv)));
            pos.play(mv);
        }
        events.push(Event::forfeit(&mut pos));
        Transcript { lineups, events }
    }

    /// The lineups a `position` command gives, by seat (`-` for hidden).
    fn given(position: &str) -> Vec<String> {
        position
            .split_whitespace()
            .filter_map(|t| t.split_once(':'))
            .filter(|(seat, _)| seat.len() == 1)
            .map(|(_, lineup)| lineup.to_string())
            .collect()
    }

    #[test]
    fn each_process_sees_only_what_its_mode_allows() {
        let t = transcript();
        let all: Vec<String> = t.lineups.to_vec();
        let hidden = |seen: [bool; 4]| -> Vec<String> {
            (0..4)
                .map(|s| if seen[s] { all[s].clone() } else { "-".into() })
                .collect()
        };
        let cases: [(Info, &[usize], [bool; 4]); 10] = [
            (Info::Open, &[0], [true; 4]),
            (Info::Open, &[0, 2], [true; 4]),
            (Info::DoubleOpen, &[0], [true, false, true, false]),
            (Info::DoubleOpen, &[1], [false, true, false, true]),
            (Info::DoubleOpen, &[3], [false, true, false, true]),
            (Info::DoubleOpen, &[1, 3], [false, true, false, true]),
            (Info::Dark, &[0], [true, false, false, false]),
            (Info::Dark, &[2], [false, false, true, false]),
            (Info::Dark, &[3], [false, false, false, true]),
            (Info::Dark, &[0, 2], [true, false, true, false]),
        ];
        for (info, seats, seen) in cases {
            let position = t.position(&View::of(info, seats));
            assert_eq!(given(&position), hidden(seen), "{info:?} {seats:?}");
            // No hidden lineup appears anywhere in the command.
            for seat in (0..4).filter(|&s| !seen[s]) {
                assert!(!position.contains(&all[seat]), "{info:?} {seats:?}");
            }
            assert!(position.starts_with("position setup S:"), "{position}");
            assert!(position.contains(" first S moves "), "{position}");
        }
        // In dark team mode the process is told double-open: it knows both partners.
        assert_eq!(super::super::told(Info::Dark, &[0, 2]), Info::DoubleOpen);
        assert_eq!(super::super::told(Info::Dark, &[1]), Info::Dark);
        assert_eq!(super::super::told(Info::Open, &[1, 3]), Info::Open);
    }

    #[test]
    fn open_plies_are_plain_and_hidden_ones_annotated() {
        let t = transcript();
        let moves = |view: View| -> String {
            let position = t.position(&view);
            position.split_once(" moves ").unwrap().1.to_string()
        };
        // The forfeit of W, at its turn, is the resign it equals in the open game.
        assert_eq!(moves(View::of(Info::Open, &[1])), "k6k7 pass pass resign");
        let annotated = "k6k7=m pass pass out:W";
        assert_eq!(moves(View::of(Info::Dark, &[1])), annotated);
        assert_eq!(moves(View::of(Info::DoubleOpen, &[1, 3])), annotated);
        assert_eq!(moves(View::record(Info::Dark)), annotated);
        assert_eq!(given(&t.position(&View::record(Info::Dark))), t.lineups);
        // Before any ply: no moves list at all.
        let empty = Transcript {
            lineups: t.lineups.clone(),
            events: vec![],
        };
        assert!(!empty.position(&View::record(Info::Open)).contains("moves"));
    }

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
        let t = transcript();
        let setup = format!(
            "setup S:{} E:{} N:{} W:{} first S",
            t.lineups[0], t.lineups[1], t.lineups[2], t.lineups[3]
        );
        let mut pos = Position::from_notation(&setup).unwrap();
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

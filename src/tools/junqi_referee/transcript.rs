//! What each process is told of the game. The referee records it as a [`Transcript`]:
//! the four lineups and every [`Event`] since the setup. Each process is sent the whole of
//! it every turn through its [`View`]: the lineups it may see (all in the open game, its
//! team's in double-open, its own seats' in dark) and, outside the open game, the plies
//! with the referee's reports. The record file is the same transcript seen whole.

use super::{Info, team};
use crate::core::Game;
use crate::games::junqi::board::SEAT_NAMES;
use crate::games::junqi::{Entry, Move, Position};

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::junqi::DEFAULT_LINEUP;

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
}

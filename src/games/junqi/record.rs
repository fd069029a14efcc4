//! The referee's record of a game: plies with the report every seat sees in the dark game
//! (`i6i7=m`, `f7f8=w+h17`, `k6k7=b#`), the plies without a piece (`pass`, `timeout`,
//! `resign`) and `out:<seat>` announcements, as `docs/rules/junqi.md` §9.5 and §11
//! write them.
//!
//! The report is all that is public of a ply: from, to and what happened, never a rank. A
//! referee computes it from the open position ([`Position::record`]); an engine that
//! sees only some lineups reads it back ([`Entry::parse`]) to learn what it may of the
//! hidden pieces.

use super::board::{self, STATIONS};
use super::position::{EMPTY, FLAG, Move, Position, rank_of, seat_of, survivor};
use std::fmt;

/// What a ply that moved a piece did, as the referee reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Clash {
    /// `=m`: onto an empty station.
    Moved,
    /// `=w`: the attacker won and stands on the target.
    Won,
    /// `=l`: the attacker was removed; the defender stays.
    Lost,
    /// `=b`: both were removed.
    Both,
}

impl Clash {
    const LETTERS: [(Clash, char); 4] = [
        (Clash::Moved, 'm'),
        (Clash::Won, 'w'),
        (Clash::Lost, 'l'),
        (Clash::Both, 'b'),
    ];

    fn letter(self) -> char {
        Self::LETTERS
            .iter()
            .find(|(c, _)| *c == self)
            .map_or('?', |(_, l)| *l)
    }

    fn from_letter(letter: char) -> Option<Clash> {
        Self::LETTERS
            .iter()
            .find(|(_, l)| *l == letter)
            .map(|(c, _)| *c)
    }
}

/// The public report of a ply that moved a piece.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Report {
    pub clash: Clash,
    /// `#`: the ply took a flag (its seat is out).
    pub flag_taken: bool,
    /// `+<sq>`: stations of flags this ply made public (a marshal was removed) that are
    /// still on the board after it, in station order.
    pub public_flags: Vec<u8>,
}

/// A ply as recorded: the move and, in the annotated form, its report.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Ply {
    pub mv: Move,
    /// `None` for a plain ply (`i6i7`) and always for `pass`, `timeout`, `resign`.
    pub report: Option<Report>,
}

/// One token of a recorded `moves` list.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Entry {
    Ply(Ply),
    /// `out:<seat>`: the seat was eliminated by the ply before it (or by the referee)
    /// without a flag capture showing it.
    Out(usize),
}

impl Entry {
    /// The seats of the `out:` tokens at the start of `entries`, a bit each: after a ply,
    /// the seats that left with it.
    pub fn leading_outs(entries: &[Entry]) -> u8 {
        entries
            .iter()
            .map_while(|e| match e {
                Entry::Out(seat) => Some(1u8 << seat),
                Entry::Ply(_) => None,
            })
            .fold(0, |set, seat| set | seat)
    }

    /// Reads one token: `i6i7`, `i6i7=w+h17`, `k6k7=b#`, `pass`, `timeout`, `resign`,
    /// `out:E`. Only the form is checked here; whether the ply is possible is the
    /// position's business.
    pub fn parse(text: &str) -> anyhow::Result<Entry> {
        if let Some(seat) = text.strip_prefix("out:") {
            let mut chars = seat.chars();
            return match (chars.next(), chars.next()) {
                (Some(c), None) if board::SEAT_NAMES.contains(&c) => Ok(Entry::Out(
                    board::SEAT_NAMES.iter().position(|&s| s == c).unwrap_or(0),
                )),
                _ => {
                    anyhow::bail!("bad elimination '{text}': expected out:S, out:E, out:N or out:W")
                }
            };
        }
        let (mv_text, report) = match text.split_once('=') {
            Some((mv, report)) => (mv, Some(parse_report(report, text)?)),
            None => (text, None),
        };
        let mv = match mv_text {
            "pass" => Move::PASS,
            "timeout" => Move::TIMEOUT,
            "resign" => Move::RESIGN,
            _ => parse_squares(mv_text).ok_or_else(|| {
                anyhow::anyhow!(
                    "malformed ply '{text}': expected two stations like i6i7 (with a report \
                     like =m, =w, =l, =b), or pass, timeout, resign, out:<seat>"
                )
            })?,
        };
        if mv.is_special() && report.is_some() {
            anyhow::bail!("'{text}': {mv_text} carries no report");
        }
        Ok(Entry::Ply(Ply { mv, report }))
    }
}

/// `<from><to>` in algebraic station names.
pub(super) fn parse_squares(text: &str) -> Option<Move> {
    let split = text
        .char_indices()
        .skip(1)
        .find(|&(_, c)| c.is_ascii_lowercase())
        .map(|(i, _)| i)?;
    let from = board::parse_name(&text[..split])?;
    let to = board::parse_name(&text[split..])?;
    Some(Move {
        from: from as u8,
        to: to as u8,
    })
}

/// The part after `=`: a clash letter, then any `+<sq>` and `#` marks.
fn parse_report(text: &str, whole: &str) -> anyhow::Result<Report> {
    let bad = |why: &str| anyhow::anyhow!("bad report in '{whole}': {why}");
    let mut chars = text.chars();
    let clash = chars
        .next()
        .and_then(Clash::from_letter)
        .ok_or_else(|| bad("expected =m, =w, =l or =b"))?;
    let mut report = Report {
        clash,
        flag_taken: false,
        public_flags: Vec::new(),
    };
    let mut rest = chars.as_str();
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix('#') {
            if report.flag_taken {
                return Err(bad("'#' twice"));
            }
            report.flag_taken = true;
            rest = after;
        } else if let Some(after) = rest.strip_prefix('+') {
            let end = after.find(['+', '#']).unwrap_or(after.len());
            let station = board::parse_name(&after[..end])
                .ok_or_else(|| bad("'+' must name a station, like +h17"))?;
            if report.public_flags.contains(&(station as u8)) {
                return Err(bad("the same public flag twice"));
            }
            report.public_flags.push(station as u8);
            rest = &after[end..];
        } else {
            return Err(bad("expected +<station> or # after the outcome"));
        }
    }
    report.public_flags.sort_unstable();
    Ok(report)
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "={}", self.clash.letter())?;
        for &s in &self.public_flags {
            write!(f, "+{}", board::name(usize::from(s)))?;
        }
        if self.flag_taken {
            f.write_str("#")?;
        }
        Ok(())
    }
}

impl fmt::Display for Ply {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.mv)?;
        if let Some(report) = &self.report {
            write!(f, "{report}")?;
        }
        Ok(())
    }
}

impl fmt::Display for Entry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Entry::Ply(ply) => write!(f, "{ply}"),
            Entry::Out(seat) => write!(f, "out:{}", board::SEAT_NAMES[*seat]),
        }
    }
}

impl Position {
    /// What a referee writes for a legal ply here: the annotated ply, then an `out:` for
    /// every seat it eliminates that no flag capture shows (resignation, the last pass,
    /// a seat left without a move at the start of its turn).
    pub fn record(&self, mv: Move) -> Vec<Entry> {
        let mut after = self.clone();
        after.play(mv);
        let defender = if mv.is_special() {
            EMPTY
        } else {
            self.piece(usize::from(mv.to))
        };
        let taken_seat =
            (defender != EMPTY && rank_of(defender) == FLAG).then(|| seat_of(defender));
        let report = (!mv.is_special()).then(|| {
            let attacker = self.piece(usize::from(mv.from));
            // From the ranks, not from the board after: an elimination later in the same
            // ply may clear the target.
            let winner = survivor(attacker, defender);
            let clash = if defender == EMPTY {
                Clash::Moved
            } else if winner == attacker {
                Clash::Won
            } else if winner == defender {
                Clash::Lost
            } else {
                Clash::Both
            };
            let public_flags = (0..STATIONS)
                .filter(|&s| {
                    let p = after.piece(s);
                    p != EMPTY
                        && rank_of(p) == FLAG
                        && after.is_public(seat_of(p))
                        && !self.is_public(seat_of(p))
                })
                .map(|s| s as u8)
                .collect();
            Report {
                clash,
                flag_taken: taken_seat.is_some(),
                public_flags,
            }
        });
        let mut entries = vec![Entry::Ply(Ply { mv, report })];
        entries.extend(
            (0..4)
                .filter(|&seat| {
                    after.is_out(seat) && !self.is_out(seat) && Some(seat) != taken_seat
                })
                .map(Entry::Out),
        );
        entries
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Game;

    #[test]
    fn tokens_round_trip() {
        for text in [
            "i6i7",
            "i6i7=m",
            "f7f8=w",
            "f7f8=l",
            "k6k7=b",
            "k6k7=b#",
            "g6g7=w#",
            "i6i7=b+h1+h17",
            "i6i7=l+q10",
            "pass",
            "timeout",
            "resign",
            "out:S",
            "out:W",
        ] {
            let entry = Entry::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(entry.to_string(), text);
        }
        // Flags are written in station order whatever order they came in.
        let entry = Entry::parse("i6i7=b+h17+h1").unwrap();
        assert_eq!(entry.to_string(), "i6i7=b+h1+h17");
    }

    #[test]
    fn malformed_tokens_are_refused() {
        for bad in [
            "",
            "=m",
            "i6i7=",
            "i6i7=x",
            "i6i7=mm",
            "i6i7=m+",
            "i6i7=m+z9",
            "i6i7=m##",
            "i6i7=b+h1+h1",
            "pass=m",
            "out:",
            "out:X",
            "out:SE",
            "i6",
            "i6i7x",
            "r1i7=m",
        ] {
            assert!(Entry::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn record_reports_what_the_open_position_computes() {
        let mut pos = Position::start_position();
        // S's major general rides to the centre, attacked later by nothing: a plain move.
        let mv = pos.parse_move("k6k7").unwrap();
        assert_eq!(
            pos.record(mv),
            vec![Entry::Ply(Ply {
                mv,
                report: Some(Report {
                    clash: Clash::Moved,
                    flag_taken: false,
                    public_flags: vec![],
                }),
            })]
        );
        pos.make_move(mv);
        // A resignation is recorded plain, with the seat's elimination announced.
        assert_eq!(
            pos.record(Move::RESIGN),
            vec![
                Entry::Ply(Ply {
                    mv: Move::RESIGN,
                    report: None
                }),
                Entry::Out(1)
            ]
        );
    }
}

//! Turning one input line into a [`Command`]. The whole line is checked here, so a
//! malformed command is rejected before it can change anything.

use super::command::{Command, Query, Start};
use super::dialect::{self, DIALECTS};
use crate::core::quote;
use crate::games::GameKind;
use crate::search::Limits;
use std::fmt;

/// Why a line is not a command. The message quotes the offending token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError(pub String);

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

fn error<T>(message: impl Into<String>) -> Result<T, ParseError> {
    Err(ParseError(message.into()))
}

/// Parses a line for `game` (clock names depend on the game's players). `Ok(None)` for a
/// blank line.
pub fn parse(line: &str, game: GameKind) -> Result<Option<Command>, ParseError> {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let Some((&head, rest)) = tokens.split_first() else {
        return Ok(None);
    };
    let no_arguments = |command: Command| {
        if rest.is_empty() {
            Ok(Some(command))
        } else {
            error(format!("{head} takes no arguments, got {}", quote(rest[0])))
        }
    };
    if let Some(&hello) = DIALECTS.iter().find(|d| d.hello() == head) {
        return no_arguments(Command::Hello(hello));
    }
    match head {
        "isready" => no_arguments(Command::IsReady),
        "setoption" => parse_setoption(rest).map(Some),
        "ucinewgame" | "usinewgame" | "uginewgame" => no_arguments(Command::NewGame),
        "position" => parse_position(rest).map(Some),
        "go" => parse_go(rest, game).map(Some),
        "stop" => no_arguments(Command::Stop),
        "ponderhit" => no_arguments(Command::PonderHit),
        "query" => match rest {
            ["gameover"] => Ok(Some(Command::Query(Query::GameOver))),
            ["p1turn"] => Ok(Some(Command::Query(Query::P1Turn))),
            ["result"] => Ok(Some(Command::Query(Query::Result))),
            ["turn"] => Ok(Some(Command::Query(Query::Turn))),
            _ => error("query needs one of gameover, p1turn, result, turn"),
        },
        "gameover" => match rest {
            [] | ["win" | "lose" | "draw"] => Ok(Some(Command::GameOver)),
            _ => error(format!(
                "gameover needs win, lose or draw, got {}",
                quote(rest[0])
            )),
        },
        "d" => no_arguments(Command::Display),
        "help" => no_arguments(Command::Help),
        "quit" => Ok(Some(Command::Quit)),
        _ => error(format!("unknown command {}", quote(head))),
    }
}

fn parse_setoption(rest: &[&str]) -> Result<Command, ParseError> {
    let ["name", rest @ ..] = rest else {
        return error("setoption needs 'name <option> [value <value>]'");
    };
    let split = rest.iter().position(|&t| t == "value");
    let (name, value) = match split {
        Some(i) => (&rest[..i], &rest[i + 1..]),
        None => (rest, &[][..]),
    };
    if name.is_empty() {
        return error("setoption without an option name");
    }
    Ok(Command::SetOption {
        name: name.join(" "),
        value: value.join(" "),
    })
}

fn parse_position(rest: &[&str]) -> Result<Command, ParseError> {
    let split = rest.iter().position(|&t| t == "moves");
    let (spec, moves) = match split {
        Some(i) => (&rest[..i], &rest[i + 1..]),
        None => (rest, &[][..]),
    };
    let start = match spec {
        ["startpos"] => Start::StartPos,
        ["fen" | "sfen", notation @ ..] if !notation.is_empty() => {
            Start::Notation(notation.join(" "))
        }
        // Junqi's lineup form keeps its keyword: `position setup S:... E:...`.
        ["setup", ..] => Start::Notation(spec.join(" ")),
        [] => return error("position needs startpos or a position"),
        [word, ..] => {
            return error(format!(
                "position needs startpos, fen, sfen or setup, got {}",
                quote(word)
            ));
        }
    };
    Ok(Command::Position {
        start,
        moves: moves.iter().map(|m| m.to_string()).collect(),
    })
}

fn number<T: std::str::FromStr>(name: &str, value: Option<&&str>) -> Result<T, ParseError> {
    match value {
        None => error(format!("go {name} needs a number")),
        Some(v) => v
            .parse()
            .or_else(|_| error(format!("go {name} needs a number, got {}", quote(v)))),
    }
}

/// Clock times may be negative in some GUIs when a player is late; they count as zero.
fn milliseconds(name: &str, value: Option<&&str>) -> Result<u64, ParseError> {
    number::<i64>(name, value).map(|ms| ms.max(0) as u64)
}

/// Which players a `go` clock token (`wtime` → `w`, `p1inc` → `p1`) belongs to in `game`.
/// In Junqi `p1`/`p2` are the teams (S+N, E+W), so one clock serves both partners, while
/// `stime`..`wtime` are the seats' own.
fn clock_owners(game: GameKind, owner: &str) -> &'static [usize] {
    match (game, owner) {
        (GameKind::Chess, "w") | (GameKind::Shogi, "b") => &[0],
        (GameKind::Chess, "b") | (GameKind::Shogi, "w") => &[1],
        (GameKind::FourSquare, "p1") => &[0],
        (GameKind::FourSquare, "p2") => &[1],
        (GameKind::Junqi, "p1") => &[0, 2],
        (GameKind::Junqi, "p2") => &[1, 3],
        (GameKind::Junqi, "s") => &[0],
        (GameKind::Junqi, "e") => &[1],
        (GameKind::Junqi, "n") => &[2],
        (GameKind::Junqi, "w") => &[3],
        _ => &[],
    }
}

fn parse_go(rest: &[&str], game: GameKind) -> Result<Command, ParseError> {
    if rest == ["deploy"] {
        return Ok(Command::Deploy);
    }
    // USI's `go mate` is a mate search with a time limit, not a search for a mate in N.
    // The game's own dialect decides, whatever the handshake was, as the clock tokens
    // follow the game.
    if let ["mate", limit @ ..] = rest
        && dialect::native(game).timed_mate_search()
    {
        return match limit {
            ["infinite"] => Ok(Command::Mate {
                time: None,
                received: None,
            }),
            [ms] => milliseconds("mate", Some(ms)).map(|ms| Command::Mate {
                time: Some(ms),
                received: None,
            }),
            _ => error("go mate needs a time in milliseconds or infinite"),
        };
    }
    if let ["perft", depth @ ..] = rest {
        let [depth] = depth else {
            return error("go perft needs exactly one depth");
        };
        return match depth.parse::<u32>() {
            Ok(d) if d <= 64 => Ok(Command::Perft { depth: d }),
            _ => error(format!(
                "go perft needs a depth 0..=64, got {}",
                quote(depth)
            )),
        };
    }
    let mut limits = Limits::default();
    let mut searchmoves = Vec::new();
    let mut i = 0;
    while i < rest.len() {
        let token = rest[i];
        let value = rest.get(i + 1);
        i += 2;
        match token {
            "infinite" => {
                limits.infinite = true;
                i -= 1;
            }
            "ponder" => {
                limits.ponder = true;
                i -= 1;
            }
            "movetime" => limits.movetime = Some(milliseconds(token, value)?),
            "byoyomi" => limits.byoyomi = Some(milliseconds(token, value)?),
            "movestogo" => limits.movestogo = Some(number(token, value)?),
            "depth" => limits.depth = Some(number(token, value)?),
            "nodes" => limits.nodes = Some(number(token, value)?),
            "mate" => limits.mate = Some(number(token, value)?),
            "searchmoves" => {
                searchmoves = rest[i - 1..].iter().map(|m| m.to_string()).collect();
                i = rest.len();
            }
            _ => {
                let clock = token
                    .strip_suffix("time")
                    .map(|owner| (owner, false))
                    .or_else(|| token.strip_suffix("inc").map(|owner| (owner, true)));
                let owners = clock.map_or(&[][..], |(owner, _)| clock_owners(game, owner));
                if owners.is_empty() {
                    return error(format!("go: unknown parameter {}", quote(token)));
                }
                let ms = milliseconds(token, value)?;
                let clocks = if clock.is_some_and(|(_, inc)| inc) {
                    &mut limits.inc
                } else {
                    &mut limits.time
                };
                for &player in owners {
                    clocks[player] = Some(ms);
                }
            }
        }
    }
    Ok(Command::Go {
        limits,
        searchmoves,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ugi(line: &str) -> Result<Option<Command>, ParseError> {
        parse(line, GameKind::FourSquare)
    }

    #[test]
    fn blank_lines_are_not_commands() {
        assert_eq!(ugi("   \t"), Ok(None));
    }

    #[test]
    fn position_keeps_everything_between_fen_and_moves() {
        let command = ugi("position fen bbbb/4/4/wwww b 3 moves a4a3 a1a2").unwrap();
        assert_eq!(
            command,
            Some(Command::Position {
                start: Start::Notation("bbbb/4/4/wwww b 3".into()),
                moves: vec!["a4a3".into(), "a1a2".into()],
            })
        );
        assert!(ugi("position").is_err());
        assert!(ugi("position fen").is_err());
        assert!(ugi("position sideways").is_err());
    }

    #[test]
    fn go_reads_the_players_clocks() {
        let Some(Command::Go { limits, .. }) =
            ugi("go p1time 1000 p2time 2000 p1inc 10 p2inc 20 movestogo 5").unwrap()
        else {
            panic!("not a go command");
        };
        assert_eq!(limits.time[..2], [Some(1000), Some(2000)]);
        assert_eq!(limits.inc[..2], [Some(10), Some(20)]);
        assert_eq!(limits.movestogo, Some(5));
        assert!(ugi("go depth x").is_err());
        assert!(
            ugi("go wtime 100").is_err(),
            "chess clocks are not FourSquare's"
        );
        assert!(ugi("go movetime").is_err());
        assert!(ugi("go sideways 3").is_err());
        assert_eq!(ugi("go perft 3"), Ok(Some(Command::Perft { depth: 3 })));
        assert!(ugi("go perft").is_err());
    }

    #[test]
    fn junqi_team_clocks_serve_both_partners_and_seat_clocks_one() {
        let Some(Command::Go { limits, .. }) =
            parse("go p1time 1000 p2time 2000 wtime 300", GameKind::Junqi).unwrap()
        else {
            panic!("not a go command");
        };
        assert_eq!(limits.time, [Some(1000), Some(2000), Some(1000), Some(300)]);
        assert_eq!(
            parse("go deploy", GameKind::Junqi),
            Ok(Some(Command::Deploy))
        );
    }

    #[test]
    fn usi_go_mate_is_a_timed_mate_search() {
        let usi = |line| parse(line, GameKind::Shogi);
        assert_eq!(
            usi("go mate 1000"),
            Ok(Some(Command::Mate {
                time: Some(1000),
                received: None
            }))
        );
        assert_eq!(
            usi("go mate infinite"),
            Ok(Some(Command::Mate {
                time: None,
                received: None
            }))
        );
        assert!(usi("go mate").is_err());
        assert!(usi("go mate soon").is_err());
        assert!(usi("go mate 10 20").is_err());
        // Elsewhere `go mate N` limits a normal search.
        let Some(Command::Go { limits, .. }) = parse("go mate 3", GameKind::Chess).unwrap() else {
            panic!("not a go command");
        };
        assert_eq!(limits.mate, Some(3));
    }

    #[test]
    fn setoption_names_and_values_may_have_spaces() {
        assert_eq!(
            parse("setoption name Move Overhead value 50", GameKind::Chess),
            Ok(Some(Command::SetOption {
                name: "Move Overhead".into(),
                value: "50".into()
            }))
        );
        assert!(ugi("setoption value 3").is_err());
    }

    #[test]
    fn junk_is_quoted_short_and_printable() {
        let junk = format!("\u{1}\u{7f}{}", "x".repeat(100_000));
        let err = ugi(&junk).unwrap_err();
        assert!(err.0.len() < 100, "{}", err.0);
        assert!(!err.0.chars().any(|c| c.is_control()));
    }
}

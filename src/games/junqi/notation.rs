//! Position notation: the `setup` form of `docs/rules/junqi.md` §9.2, the engine's full
//! form (§9.3 there), and the board diagram.
//!
//! # Full form
//!
//! ```text
//! <S area>/<E area>/<N area>/<W area>/<centre> <turn> <quiet> <passes> <out> <public>
//! ```
//!
//! - An area lists its 30 slots in slot order (the centre: its 9 stations row-major by y
//!   then x, from (-2,-2) to (2,2)). A piece of the area's owner is its rank letter `a`..`l`;
//!   any other seat's piece is that seat's capital then the rank (`Nc`); a run of empty
//!   stations is its length in digits. Centre pieces always carry their seat.
//! - `<turn>`: the seat to move, `S`/`E`/`N`/`W` (on a game over by elimination, the seat
//!   that made the last ply).
//! - `<quiet>`: the no-combat counter; `<passes>`: passes and timeouts per seat, `S,E,N,W`
//!   order, e.g. `0,2,0,0`.
//! - `<out>` and `<public>`: the eliminated seats and the seats whose flag is public, as
//!   seat letters, or `-` for none.
//!
//! The start position is
//! `adgice1g1ebi1gck1h1fdjhjkfljhi/(same for E, N, W)/9 S 0 0,0,0,0 - -`.
//! Rule options (`NoCombatDrawPlies`, `MaxPasses`) are settings, not part of the notation.

use super::board::{self, CAMP_SLOTS, HQ_SLOTS, Kind, SEAT_NAMES, STATIONS, TABLES};
use super::position::{BOMB, COUNTS, EMPTY, FLAG, MINE, Position, RANKS, rank_of, seat_of};
use super::turn::Turns;
use std::fmt;

/// The default lineup of every seat in `startpos`.
pub const DEFAULT_LINEUP: &str = "adgicegebigckhfdjhjkfljhi";

/// English names of the ranks `a`..`l`, for error messages.
const RANK_NAMES: [&str; RANKS] = [
    "marshal",
    "general",
    "major general",
    "brigadier",
    "colonel",
    "major",
    "captain",
    "lieutenant",
    "engineer",
    "mine",
    "bomb",
    "flag",
];

/// Chinese names of the ranks, for the diagram legend.
const RANK_HANZI: [&str; RANKS] = [
    "司令", "军长", "师长", "旅长", "团长", "营长", "连长", "排长", "工兵", "地雷", "炸弹", "军旗",
];

/// Why a `setup` string (or one of its lineups) was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetupError {
    /// The text does not start with `setup`.
    NotSetup,
    /// A token that is neither `<seat>:<lineup>` nor `first <seat>`.
    BadToken(String),
    /// A seat given twice.
    DuplicateSeat(char),
    /// A seat not given at all.
    MissingSeat(char),
    /// `first` without a seat letter after it.
    BadFirst(String),
    /// A lineup that is not 25 letters long.
    Length { seat: char, len: usize },
    /// A character that is not a piece letter `a`..`l`.
    UnknownPiece { seat: char, slot: usize, ch: char },
    /// `x` or `-` in the open game, which needs every rank.
    Hidden { seat: char },
    /// Too many pieces of one rank (reported at the slot of the first extra one).
    TooMany {
        seat: char,
        slot: usize,
        rank: usize,
    },
    /// Too few pieces of one rank.
    TooFew { seat: char, rank: usize, found: u8 },
    /// The flag outside an HQ slot.
    FlagNotInHq { seat: char, slot: usize },
    /// A mine in front of row 4.
    MineTooFar { seat: char, slot: usize },
    /// A bomb in the front row.
    BombInFrontRow { seat: char, slot: usize },
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupError::NotSetup => write!(f, "a setup starts with 'setup'"),
            SetupError::BadToken(t) => {
                write!(
                    f,
                    "bad setup token '{t}': expected <S|E|N|W>:<lineup> or first <seat>"
                )
            }
            SetupError::DuplicateSeat(s) => write!(f, "seat {s} given twice"),
            SetupError::MissingSeat(s) => write!(f, "seat {s} missing: give a lineup or 0"),
            SetupError::BadFirst(t) => write!(f, "first needs a seat S, E, N or W, got '{t}'"),
            SetupError::Length { seat, len } => {
                write!(f, "seat {seat}: a lineup has 25 pieces, got {len}")
            }
            SetupError::UnknownPiece { seat, slot, ch } => {
                write!(
                    f,
                    "seat {seat} slot {slot}: '{ch}' is not a piece letter a..l"
                )
            }
            SetupError::Hidden { seat } => write!(
                f,
                "seat {seat}: a hidden lineup (-) needs 'setoption name Info value dark' (or double-open); unknown pieces (x) in a lineup are not read"
            ),
            SetupError::TooMany { seat, slot, rank } => write!(
                f,
                "seat {seat} slot {slot}: more than {} {} ({})",
                COUNTS[*rank],
                RANK_NAMES[*rank],
                char::from(b'a' + *rank as u8)
            ),
            SetupError::TooFew { seat, rank, found } => write!(
                f,
                "seat {seat}: {found} {} ({}), the lineup needs {}",
                RANK_NAMES[*rank],
                char::from(b'a' + *rank as u8),
                COUNTS[*rank]
            ),
            SetupError::FlagNotInHq { seat, slot } => {
                write!(
                    f,
                    "seat {seat} slot {slot}: the flag must stand in an HQ, slot 26 or 28"
                )
            }
            SetupError::MineTooFar { seat, slot } => {
                write!(
                    f,
                    "seat {seat} slot {slot}: mines only in rows 4-5 (slots 20 and up)"
                )
            }
            SetupError::BombInFrontRow { seat, slot } => {
                write!(
                    f,
                    "seat {seat} slot {slot}: no bomb in the front row (slots 0-4)"
                )
            }
        }
    }
}

impl std::error::Error for SetupError {}

/// The 25 non-camp slots in lineup order.
pub fn lineup_slots() -> impl Iterator<Item = usize> {
    (0..30).filter(|slot| !CAMP_SLOTS.contains(slot))
}

/// Checks a lineup and returns the rank of each slot (camps `None`).
pub fn parse_lineup(seat: usize, text: &str) -> Result<[Option<u8>; 30], SetupError> {
    let name = SEAT_NAMES[seat];
    if text == "-" || text.contains('x') {
        return Err(SetupError::Hidden { seat: name });
    }
    let len = text.chars().count();
    if len != 25 {
        return Err(SetupError::Length { seat: name, len });
    }
    let mut ranks = [None; 30];
    let mut counts = [0u8; RANKS];
    for (slot, ch) in lineup_slots().zip(text.chars()) {
        let rank = match ch {
            'a'..='l' => ch as u8 - b'a',
            _ => {
                return Err(SetupError::UnknownPiece {
                    seat: name,
                    slot,
                    ch,
                });
            }
        };
        let r = usize::from(rank);
        counts[r] += 1;
        if counts[r] > COUNTS[r] {
            return Err(SetupError::TooMany {
                seat: name,
                slot,
                rank: r,
            });
        }
        if rank == FLAG && !HQ_SLOTS.contains(&slot) {
            return Err(SetupError::FlagNotInHq { seat: name, slot });
        }
        if rank == MINE && slot < 20 {
            return Err(SetupError::MineTooFar { seat: name, slot });
        }
        if rank == BOMB && slot < 5 {
            return Err(SetupError::BombInFrontRow { seat: name, slot });
        }
        ranks[slot] = Some(rank);
    }
    // 25 letters within the per-rank maxima that add up to 25 fill every count exactly.
    if let Some(r) = (0..RANKS).find(|&r| counts[r] != COUNTS[r]) {
        return Err(SetupError::TooFew {
            seat: name,
            rank: r,
            found: counts[r],
        });
    }
    Ok(ranks)
}

/// The seat named by one letter `S`, `E`, `N` or `W` (either case).
fn seat_index(text: &str) -> Option<usize> {
    let mut chars = text.chars();
    let c = chars.next()?;
    if chars.next().is_some() {
        return None;
    }
    SEAT_NAMES.iter().position(|&n| n == c.to_ascii_uppercase())
}

/// The fields of `setup S:<lineup> E:.. N:.. W:.. [first <seat>]`: each seat's text after
/// the colon (every seat exactly once, in seat order) and the seat named by `first`.
pub(super) fn setup_fields(text: &str) -> Result<([&str; 4], usize), SetupError> {
    let mut tokens = text.split_whitespace();
    if tokens.next() != Some("setup") {
        return Err(SetupError::NotSetup);
    }
    let mut fields: [Option<&str>; 4] = [None; 4];
    let mut first = 0;
    while let Some(token) = tokens.next() {
        if token == "first" {
            let seat = tokens.next().unwrap_or("");
            first = seat_index(seat).ok_or_else(|| SetupError::BadFirst(seat.to_string()))?;
            continue;
        }
        let Some((seat, lineup)) = token.split_once(':') else {
            return Err(SetupError::BadToken(token.to_string()));
        };
        let seat = seat_index(seat).ok_or_else(|| SetupError::BadToken(token.to_string()))?;
        if fields[seat].is_some() {
            return Err(SetupError::DuplicateSeat(SEAT_NAMES[seat]));
        }
        fields[seat] = Some(lineup);
    }
    let mut seats = [""; 4];
    for (seat, field) in fields.iter().enumerate() {
        seats[seat] = field.ok_or(SetupError::MissingSeat(SEAT_NAMES[seat]))?;
    }
    Ok((seats, first))
}

/// Reads `setup S:<lineup> E:<lineup> N:<lineup> W:<lineup> [first <seat>]`.
pub fn parse_setup(text: &str) -> Result<Position, SetupError> {
    let (fields, first) = setup_fields(text)?;
    let mut pos = Position::empty();
    for (seat, lineup) in fields.iter().enumerate() {
        if *lineup == "0" {
            pos.out |= 1 << seat;
            continue;
        }
        for (slot, rank) in parse_lineup(seat, lineup)?.iter().enumerate() {
            if let Some(rank) = rank {
                pos.board[Position::slot_station(seat, slot)] = (seat as u8) << 4 | rank;
            }
        }
    }
    pos.settle(first);
    pos.hash = pos.compute_hash();
    Ok(pos)
}

/// Reads the full form (see the module docs).
pub fn parse_full(text: &str) -> anyhow::Result<Position> {
    use anyhow::{anyhow, bail};
    let fields: Vec<&str> = text.split_whitespace().collect();
    if fields.len() != 6 {
        bail!(
            "expected 6 fields '<board> <turn> <quiet> <passes> <out> <public>' or 'setup ...', got {} in '{text}'",
            fields.len()
        );
    }
    let areas: Vec<&str> = fields[0].split('/').collect();
    if areas.len() != 5 {
        bail!("board '{}': expected 5 areas S/E/N/W/centre", fields[0]);
    }
    let mut pos = Position::empty();
    for (area, spec) in areas.iter().enumerate() {
        let (base, size) = if area < 4 {
            (30 * area, 30)
        } else {
            (board::CENTRE, 9)
        };
        let owner = (area < 4).then_some(area);
        let area_name = if area < 4 {
            SEAT_NAMES[area].to_string()
        } else {
            "centre".into()
        };
        let mut i = 0;
        let mut chars = spec.chars().peekable();
        while let Some(c) = chars.next() {
            if let Some(d) = c.to_digit(10) {
                let mut run = d as usize;
                while let Some(d) = chars.peek().and_then(|c| c.to_digit(10)) {
                    run = run * 10 + d as usize;
                    chars.next();
                    if run > 30 {
                        break;
                    }
                }
                if run == 0 {
                    bail!("area {area_name}: empty run of 0");
                }
                i += run;
                if i > size {
                    bail!("area {area_name}: more than {size} stations");
                }
                continue;
            }
            let (seat, letter) = match seat_index(&c.to_string()) {
                Some(seat) if c.is_ascii_uppercase() => {
                    let letter = chars
                        .next()
                        .ok_or_else(|| anyhow!("area {area_name}: seat {c} without a piece"))?;
                    (seat, letter)
                }
                _ => (
                    owner.ok_or_else(|| {
                        anyhow!("centre: piece '{c}' needs its seat letter, like S{c}")
                    })?,
                    c,
                ),
            };
            if !('a'..='l').contains(&letter) {
                bail!("area {area_name}: '{letter}' is not a piece letter a..l");
            }
            if i >= size {
                bail!("area {area_name}: more than {size} stations");
            }
            pos.board[base + i] = (seat as u8) << 4 | (letter as u8 - b'a');
            i += 1;
        }
        if i != size {
            bail!("area {area_name}: {i} stations, expected {size}");
        }
    }
    let turn = seat_index(fields[1])
        .filter(|_| fields[1].chars().all(|c| c.is_ascii_uppercase()))
        .ok_or_else(|| anyhow!("turn '{}': expected S, E, N or W", fields[1]))?;
    pos.side = turn as u8;
    pos.quiet = fields[2]
        .parse()
        .map_err(|_| anyhow!("no-combat counter '{}': expected a number", fields[2]))?;
    let passes: Vec<&str> = fields[3].split(',').collect();
    if passes.len() != 4 {
        bail!("passes '{}': expected four counts S,E,N,W", fields[3]);
    }
    for (seat, count) in passes.iter().enumerate() {
        pos.passes[seat] = count
            .parse()
            .map_err(|_| anyhow!("passes '{}': '{count}' is not a count", fields[3]))?;
    }
    pos.out = parse_seat_set(fields[4])
        .ok_or_else(|| anyhow!("out '{}': seat letters or -", fields[4]))?;
    pos.public = parse_seat_set(fields[5])
        .ok_or_else(|| anyhow!("public '{}': seat letters or -", fields[5]))?;
    check_material(&pos)?;
    pos.hash = pos.compute_hash();
    Ok(pos)
}

/// The rules every reachable position keeps: per-rank counts within the lineup's, a live
/// seat still has its flag, an eliminated one has nothing, flags stay in their owner's
/// HQ and mines in their owner's rows 4-5, and an eliminated seat is not to move.
fn check_material(pos: &Position) -> anyhow::Result<()> {
    let mut counts = [[0u8; RANKS]; 4];
    for s in 0..STATIONS {
        let p = pos.board[s];
        if p == EMPTY {
            continue;
        }
        let (seat, rank) = (seat_of(p), rank_of(p));
        counts[seat][usize::from(rank)] += 1;
        let home = board::seat_of_station(s) == Some(seat);
        if rank == FLAG && !(home && TABLES.kind[s] == Kind::Hq) {
            anyhow::bail!(
                "{}: seat {}'s flag can only stand in its own HQ",
                board::name(s),
                SEAT_NAMES[seat]
            );
        }
        if rank == MINE && !(home && s % 30 >= 20) {
            anyhow::bail!(
                "{}: seat {}'s mine can only stand in its rows 4-5",
                board::name(s),
                SEAT_NAMES[seat]
            );
        }
    }
    for seat in 0..4 {
        let name = SEAT_NAMES[seat];
        for rank in 0..RANKS {
            if counts[seat][rank] > COUNTS[rank] {
                anyhow::bail!(
                    "seat {name} has {} {}, at most {}",
                    counts[seat][rank],
                    RANK_NAMES[rank],
                    COUNTS[rank]
                );
            }
        }
        let pieces: u8 = counts[seat].iter().sum();
        if pos.is_out(seat) && pieces > 0 {
            anyhow::bail!("seat {name} is out but still has pieces");
        }
        if !pos.is_out(seat) && counts[seat][usize::from(FLAG)] == 0 {
            anyhow::bail!("seat {name} is live but has no flag");
        }
    }
    if pos.is_out(usize::from(pos.side)) && !(pos.team_out(0) || pos.team_out(1)) {
        anyhow::bail!(
            "seat {} is out and cannot be to move",
            SEAT_NAMES[usize::from(pos.side)]
        );
    }
    Ok(())
}

fn parse_seat_set(text: &str) -> Option<u8> {
    if text == "-" {
        return Some(0);
    }
    let mut set = 0u8;
    for c in text.chars() {
        let seat = SEAT_NAMES.iter().position(|&n| n == c)?;
        if set & (1 << seat) != 0 {
            return None;
        }
        set |= 1 << seat;
    }
    (set != 0).then_some(set)
}

fn seat_set(set: u8) -> String {
    if set == 0 {
        return "-".into();
    }
    (0..4)
        .filter(|s| set & (1 << s) != 0)
        .map(|s| SEAT_NAMES[s])
        .collect()
}

/// Prints the full form.
pub fn full(pos: &Position) -> String {
    let mut board = String::new();
    for area in 0..5 {
        if area > 0 {
            board.push('/');
        }
        let (base, size) = if area < 4 {
            (30 * area, 30)
        } else {
            (board::CENTRE, 9)
        };
        let mut run = 0;
        for s in base..base + size {
            let p = pos.board[s];
            if p == EMPTY {
                run += 1;
                continue;
            }
            if run > 0 {
                board.push_str(&run.to_string());
                run = 0;
            }
            if seat_of(p) != area {
                board.push(SEAT_NAMES[seat_of(p)]);
            }
            board.push(char::from(b'a' + rank_of(p)));
        }
        if run > 0 {
            board.push_str(&run.to_string());
        }
    }
    let passes: Vec<String> = pos.passes.iter().map(u8::to_string).collect();
    format!(
        "{board} {} {} {} {} {}",
        SEAT_NAMES[usize::from(pos.side)],
        pos.quiet,
        passes.join(","),
        seat_set(pos.out),
        seat_set(pos.public)
    )
}

/// A 17x17 diagram: each piece as seat capital + rank letter (`Sa` = S's marshal), or
/// `?` for a rank the viewer was not told (`shown` false for its station); empty rail `+`,
/// road `.`, camp `( )`, HQ `[ ]`; files and ranks in algebraic names.
pub fn diagram(pos: &Position, shown: &dyn Fn(usize) -> bool) -> String {
    let mut out = String::new();
    for y in -8..=8 {
        out.push_str(&format!("{:>2} ", 9 - y));
        for x in -8..=8 {
            let cell = match TABLES.station(x, y) {
                None => "   ".to_string(),
                Some(s) => {
                    let p = pos.board[s];
                    if p != EMPTY {
                        let rank = if shown(s) {
                            char::from(b'a' + rank_of(p))
                        } else {
                            '?'
                        };
                        format!("{}{rank} ", SEAT_NAMES[seat_of(p)])
                    } else {
                        match TABLES.kind[s] {
                            Kind::Rail => " + ",
                            Kind::Road => " . ",
                            Kind::Camp => "( )",
                            Kind::Hq => "[ ]",
                        }
                        .to_string()
                    }
                }
            };
            out.push_str(&cell);
            out.push(' ');
        }
        out.truncate(out.trim_end().len());
        out.push('\n');
    }
    out.push_str("   ");
    for f in 0..17u8 {
        out.push_str(&format!(" {}  ", char::from(b'a' + f)));
    }
    out.truncate(out.trim_end().len());
    out.push('\n');
    let legend: Vec<String> = (0..RANKS)
        .map(|r| format!("{}={}", char::from(b'a' + r as u8), RANK_HANZI[r]))
        .collect();
    out.push_str(&format!("ranks: {}\n", legend.join(" ")));
    out.push_str(&format!(
        "to move: {}  out: {}  public flags: {}  no-combat plies: {}\n",
        SEAT_NAMES[usize::from(pos.side)],
        seat_set(pos.out),
        seat_set(pos.public),
        pos.quiet
    ));
    out
}

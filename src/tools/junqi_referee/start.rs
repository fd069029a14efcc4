//! `--from`: games that start from recorded positions rather than fresh lineups, to test
//! one stage of the game (an endgame to convert, a flag under attack) many times over.
//!
//! Each `position setup S:<lineup> E:.. N:.. W:.. first S [moves ...]` line of the file
//! is one start, its plies plain or annotated as a record of `--out` writes them; other
//! lines (a record's `#` lines, blank lines) are skipped. The referee replays the plies
//! under its own rules, so a start is exactly what a game that had played them would be:
//! the engines are sent the same `position` commands and the record goes on from there.

use super::Config;
use super::game::{eliminations, generated};
use super::transcript::Event;
use crate::core::Game;
use crate::games::junqi::board::SEAT_NAMES;
use crate::games::junqi::{Entry, Move, Position};
use anyhow::{Context, bail};
use std::path::Path;

/// A recorded position to start games from.
#[derive(Clone, Debug)]
pub struct Start {
    pub lineups: [String; 4],
    /// The position after the plies, rule options set.
    pub pos: Position,
    pub events: Vec<Event>,
    pub plies: usize,
    /// Seats the plies eliminated and why, for the game's result line.
    pub out: Vec<(usize, &'static str)>,
}

/// Reads the starts of `path`; a game already over after its plies is left out (a whole
/// record file can be given once its lines are cut short), and a file with no live start
/// is an error.
pub fn load(path: &Path, config: &Config) -> anyhow::Result<Vec<Start>> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read --from file {}", path.display()))?;
    let mut starts = Vec::new();
    let mut over = 0;
    for (n, line) in text.lines().enumerate() {
        let Some(body) = line.trim().strip_prefix("position ") else {
            continue;
        };
        let start =
            parse(body, config).with_context(|| format!("{} line {}", path.display(), n + 1))?;
        if start.pos.result().is_some() {
            over += 1;
        } else {
            starts.push(start);
        }
    }
    if over > 0 {
        log::warn!("--from: {over} positions left out, their games already over");
    }
    if starts.is_empty() {
        bail!("--from {}: no position whose game goes on", path.display());
    }
    Ok(starts)
}

/// One start from `setup ... [moves ...]`.
fn parse(body: &str, config: &Config) -> anyhow::Result<Start> {
    let (setup, moves) = body.split_once(" moves ").unwrap_or((body, ""));
    let mut lineups: [String; 4] = Default::default();
    let mut words = setup.split_whitespace();
    if words.next() != Some("setup") {
        bail!("expected `position setup ...`");
    }
    for word in words {
        if let Some((seat, lineup)) = word.split_once(':')
            && let Some(s) = SEAT_NAMES
                .iter()
                .position(|&name| seat.len() == 1 && seat.starts_with(name))
        {
            lineups[s] = lineup.to_string();
        } else if word != "first" && word != "S" {
            // The transcript always writes S first; a start with another seat first could
            // not be told to the engines the same way.
            bail!("unexpected `{word}` in the setup (only `first S` is supported)");
        }
    }
    if lineups.iter().any(|l| l.is_empty() || l == "-") {
        bail!("a start needs all four lineups");
    }
    let mut pos = config.position(setup)?;
    let (mut events, mut out, mut plies) = (Vec::new(), Vec::new(), 0);
    for token in moves.split_whitespace() {
        let before = pos.clone();
        let event = match Entry::parse(token)? {
            Entry::Ply(_) if pos.result().is_some() => {
                bail!("`{token}` after the end of the game")
            }
            Entry::Ply(ply) => {
                let mv = ply.mv;
                if !matches!(mv, Move::PASS | Move::TIMEOUT | Move::RESIGN) && !generated(&pos, mv)
                {
                    bail!("ply {}: `{token}` is not legal", plies + 1);
                }
                let entries = pos.record(mv);
                // A report must be what the lineups give: another game's plies would
                // otherwise be replayed as if they fitted.
                if ply.report.is_some() && entries[0].to_string() != token {
                    bail!(
                        "ply {}: `{token}`, but the lineups give `{}`",
                        plies + 1,
                        entries[0]
                    );
                }
                pos.play(mv);
                plies += 1;
                Event::Ply(entries)
            }
            // Already out by the ply before: written by the record, nothing to replay.
            Entry::Out(seat) if pos.is_out(seat) => continue,
            // A forfeit happens at the seat's own turn.
            Entry::Out(seat) if seat == pos.side_to_move() => Event::forfeit(&mut pos),
            Entry::Out(seat) => bail!("`{token}`: {} is neither out nor to move", SEAT_NAMES[seat]),
        };
        out.extend(eliminations(&before, &pos, &event));
        events.push(event);
    }
    Ok(Start {
        lineups,
        pos,
        events,
        plies,
        out,
    })
}

//! FourSquare solved: the value of every position under perfect play, from a retrograde
//! analysis of all 4.4 million of them.
//!
//! A value is a win, a loss or a draw for the side to move, with the distance in plies to
//! the end of the game when both sides play best (the winner hurrying, the loser
//! delaying); a draw is a position either side can keep from ever ending. The table
//! knows nothing of the clock: the one-hour limit and its stand-in `MaxPlies` decide a
//! game by piece count, which the table leaves to the engine (see `oracle`).
//!
//! - `index`: the dense numbering of positions.
//! - `solve`: the retrograde analysis.
//! - `cache`: the file format, and the cache that spares the engine the build.
//! - `stats`: what `qiyi solve foursquare` reports.

mod cache;
mod index;
mod solve;
mod stats;

pub(super) use cache::load_or_build;
use stats::Stats;

use super::board::{BLACK, Move, Position};
use crate::core::MoveList;
use std::fmt;
use std::io::Write;
use std::path::Path;
use std::time::Instant;

/// A position's value for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    /// The side to move wins; the game ends after this many plies (odd, or 0 when the other
    /// side is already down to one piece).
    Win(u32),
    /// The side to move loses after this many plies (even; 0: it has no move, or one piece).
    Loss(u32),
    /// Neither side can force an end.
    Draw,
}

impl Value {
    /// One byte per entry: 0 for a draw, otherwise the distance plus one; the parity of the
    /// distance says who wins (odd: the mover). Solving shows every distance is below 255.
    fn encode(self) -> u8 {
        let distance = match self {
            Value::Draw => return 0,
            Value::Win(d) | Value::Loss(d) => d,
        };
        u8::try_from(distance + 1).expect("FourSquare's longest forced win fits in a byte")
    }

    fn decode(byte: u8) -> Value {
        match byte {
            0 => Value::Draw,
            _ if byte.is_multiple_of(2) => Value::Win(u32::from(byte) - 1),
            _ => Value::Loss(u32::from(byte) - 1),
        }
    }

    /// The value for the player who moved into a position of value `self`.
    pub fn before(self) -> Value {
        match self {
            Value::Win(d) => Value::Loss(d + 1),
            Value::Loss(d) => Value::Win(d + 1),
            Value::Draw => Value::Draw,
        }
    }

    /// Plies to the end, for a decided game.
    pub fn distance(self) -> Option<u32> {
        match self {
            Value::Win(d) | Value::Loss(d) => Some(d),
            Value::Draw => None,
        }
    }

    /// How much the side it belongs to likes it: any win over a draw over any loss, the
    /// shortest win and the longest loss first.
    pub fn preference(self) -> i64 {
        match self {
            Value::Win(d) => i64::from(u32::MAX - d),
            Value::Draw => 0,
            Value::Loss(d) => i64::from(d) - i64::from(u32::MAX),
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Win(d) => write!(f, "win in {d} plies"),
            Value::Loss(d) => write!(f, "loss in {d} plies"),
            Value::Draw => write!(f, "draw"),
        }
    }
}

/// The position with `mover` to move against `other`, shown with Black to move.
fn mover_position(mover: u16, other: u16) -> Position {
    Position {
        pieces: [mover, other],
        side: BLACK,
        ply: 0,
        max_plies: 0,
    }
}

/// The solved game: one encoded [`Value`] per entry of [`index`].
pub struct Tablebase {
    entries: Box<[u8]>,
}

impl Tablebase {
    /// Solves the game from scratch: a few seconds on two cores, 2.2 MB of table.
    pub fn solve() -> Tablebase {
        Tablebase {
            entries: solve::solve().into_boxed_slice(),
        }
    }

    /// The value of `pos` for its side to move, whatever its ply count and ply limit.
    pub fn value(&self, pos: &Position) -> Value {
        let mover = pos.pieces[pos.side];
        let other = pos.pieces[pos.side ^ 1];
        match (mover.count_ones() <= 1, other.count_ones() <= 1) {
            (true, true) => Value::Draw,
            (true, false) => Value::Loss(0),
            (false, true) => Value::Win(0),
            (false, false) => self.entry(index::index(mover, other)),
        }
    }

    fn entry(&self, index: usize) -> Value {
        Value::decode(self.entries[index])
    }

    /// Every legal move of `pos` with the value it leads to for the side to move. The ply
    /// limit is ignored, like everywhere in the table.
    pub fn move_values(&self, pos: &Position) -> Vec<(Move, Value)> {
        let mut unlimited = *pos;
        unlimited.max_plies = 0;
        let mut moves = MoveList::new();
        unlimited.generate_moves(&mut moves);
        moves
            .iter()
            .map(|&mv| {
                let mut child = unlimited;
                child.play(mv);
                (mv, self.value(&child).before())
            })
            .collect()
    }

    /// The best move of `pos` (the first in move order among equals) and its value; `None`
    /// when the game is over.
    pub fn best_move(&self, pos: &Position) -> Option<(Move, Value)> {
        self.move_values(pos).into_iter().reduce(|best, next| {
            if next.1.preference() > best.1.preference() {
                next
            } else {
                best
            }
        })
    }

    /// Perfect play from `pos` to the end of the game; empty when it is drawn (the line
    /// would never end) or over.
    pub fn line(&self, pos: &Position) -> Vec<Move> {
        let mut line = Vec::new();
        let mut pos = *pos;
        pos.max_plies = 0;
        if self.value(&pos) == Value::Draw {
            return line;
        }
        while let Some((mv, _)) = self.best_move(&pos) {
            line.push(mv);
            pos.play(mv);
        }
        line
    }

    /// Whether the entry's value is what its moves make it: the best of the values they
    /// lead to (no move: lost). A table where this holds everywhere is the solution, so
    /// the tests check every entry and a loaded cache file a spread of them.
    fn check_entry(&self, entry: usize) -> Result<(), String> {
        let (mover, other) = index::position(entry);
        let pos = mover_position(mover, other);
        let stored = self.entry(entry);
        let best = self
            .move_values(&pos)
            .into_iter()
            .map(|(_, value)| value)
            .max_by_key(|value| value.preference())
            .unwrap_or(Value::Loss(0));
        if stored == best {
            Ok(())
        } else {
            Err(format!(
                "{}: stored {stored}, its moves give {best}",
                pos.fsn()
            ))
        }
    }

    /// The encoded entries, as the cache file stores them.
    fn as_bytes(&self) -> &[u8] {
        &self.entries
    }
}

/// `qiyi solve foursquare [--out FILE]`: solves the game, prints what the table says
/// and writes it to `out` when asked.
pub fn solve_command(out: Option<&Path>) -> anyhow::Result<()> {
    let start = Instant::now();
    let table = Tablebase::solve();
    let time = start.elapsed();
    let mut report = format!(
        "FourSquare solved in {:.2} s on {} threads: {} entries, each a position with either \
         colour to move\n\n{}",
        time.as_secs_f64(),
        rayon::current_num_threads(),
        index::SIZE,
        Stats::new(&table)
    );
    if let Some(path) = out {
        cache::save(&table, path)
            .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))?;
        report.push_str(&format!("\ntable written to {}\n", path.display()));
    }
    // Written in one go, so that a closed pipe is an error rather than a panic.
    std::io::stdout().write_all(report.as_bytes())?;
    Ok(())
}

#[cfg(test)]
pub(super) mod tests;

//! The facts about the solved game that `qiyi solve foursquare` prints: how the values
//! are spread, what the start position is worth, and the longest forced wins, over all
//! positions and over those a game from the start can reach.

use super::super::board::{BLACK, Move, Position, WHITE};
use super::index::{self, MAX_PIECES, MIN_PIECES, SIZE};
use super::{Tablebase, Value, mover_position};
use crate::core::{Game, MoveList};
use std::fmt;

/// Wins, losses and draws for the side to move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub wins: u64,
    pub losses: u64,
    pub draws: u64,
}

impl Tally {
    fn add(&mut self, value: Value, count: u64) {
        match value {
            Value::Win(_) => self.wins += count,
            Value::Loss(_) => self.losses += count,
            Value::Draw => self.draws += count,
        }
    }

    pub fn total(&self) -> u64 {
        self.wins + self.losses + self.draws
    }
}

/// A position with its value and perfect play from it to the end.
#[derive(Clone, Debug)]
pub struct Line {
    pub position: Position,
    pub value: Value,
    pub moves: Vec<Move>,
}

impl Line {
    fn new(table: &Tablebase, position: Position) -> Line {
        Line {
            value: table.value(&position),
            moves: table.line(&position),
            position,
        }
    }
}

impl fmt::Display for Line {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.position.fsn(), self.value)?;
        if !self.moves.is_empty() {
            let moves: Vec<String> = self.moves.iter().map(Move::to_string).collect();
            write!(f, "\n    {}", moves.join(" "))?;
        }
        Ok(())
    }
}

/// Everything `qiyi solve` reports about a table. Positions are counted with their
/// colours: each entry stands for two of them, one per colour to move.
pub struct Stats {
    /// `by_material[m][o]`: positions whose mover has `m` pieces and the other side `o`.
    pub by_material: [[Tally; 5]; 5],
    pub all: Tally,
    /// Positions by distance to the end: `[wins, losses]` at each distance in plies.
    pub by_distance: Vec<[u64; 2]>,
    /// The start position with each side to move.
    pub start: [Line; 2],
    /// Positions a game from either start position can reach.
    pub reachable: Tally,
    /// The longest forced win of all, and of those a game can reach.
    pub longest_win: Line,
    pub longest_reachable_win: Line,
}

impl Stats {
    pub fn new(table: &Tablebase) -> Stats {
        let mut by_material = [[Tally::default(); 5]; 5];
        let mut by_distance = Vec::new();
        let mut longest = (0, 0);
        for entry in 0..SIZE {
            let (mover, other) = index::position(entry);
            let value = table.entry(entry);
            by_material[mover.count_ones() as usize][other.count_ones() as usize].add(value, 2);
            if let Some(distance) = value.distance() {
                let distance = distance as usize;
                if by_distance.len() <= distance {
                    by_distance.resize(distance + 1, [0; 2]);
                }
                by_distance[distance][usize::from(matches!(value, Value::Loss(_)))] += 2;
                if matches!(value, Value::Win(_)) && distance > longest.0 {
                    longest = (distance, entry);
                }
            }
        }
        let mut all = Tally::default();
        for tally in by_material.iter().flatten() {
            all.wins += tally.wins;
            all.losses += tally.losses;
            all.draws += tally.draws;
        }
        let (mover, other) = index::position(longest.1);
        let longest_win = Line::new(table, mover_position(mover, other));
        let start = Position::start_position();
        let mut white_starts = start;
        white_starts.side = WHITE;
        let (reachable, longest_reachable) = reachable(table, &[start, white_starts]);
        Stats {
            by_material,
            all,
            by_distance,
            start: [Line::new(table, start), Line::new(table, white_starts)],
            reachable,
            longest_win,
            longest_reachable_win: Line::new(table, longest_reachable),
        }
    }
}

/// A position's entry and the colour of its mover: a bit of the reachability set.
fn state(pos: &Position) -> usize {
    index::index(pos.pieces[pos.side], pos.pieces[pos.side ^ 1]) * 2 + pos.side
}

/// Walks every position a game from `starts` can reach; returns their values and the
/// reachable position with the longest forced win.
fn reachable(table: &Tablebase, starts: &[Position]) -> (Tally, Position) {
    let mut seen = vec![false; 2 * SIZE];
    let mut queue: Vec<Position> = Vec::new();
    for start in starts {
        if !std::mem::replace(&mut seen[state(start)], true) {
            queue.push(*start);
        }
    }
    let mut tally = Tally::default();
    let mut longest = (0, starts[0]);
    while let Some(pos) = queue.pop() {
        let value = table.value(&pos);
        tally.add(value, 1);
        if let Value::Win(d) = value
            && d > longest.0
        {
            longest = (d, pos);
        }
        let mut moves = MoveList::new();
        pos.generate_moves(&mut moves);
        for &mv in moves.iter() {
            let mut child = pos;
            child.play(mv);
            child.ply = 0;
            // The game is over when a side is down to one piece: not a position to enter.
            if child.pieces[child.side].count_ones() < MIN_PIECES {
                continue;
            }
            if !std::mem::replace(&mut seen[state(&child)], true) {
                queue.push(child);
            }
        }
    }
    (tally, longest.1)
}

impl fmt::Display for Stats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let row = |f: &mut fmt::Formatter<'_>, label: &str, t: &Tally| {
            writeln!(
                f,
                "{label:<14} {:>10} {:>10} {:>10} {:>10}",
                t.wins,
                t.losses,
                t.draws,
                t.total()
            )
        };
        writeln!(
            f,
            "positions by pieces (side to move v other side), value for the side to move:"
        )?;
        writeln!(
            f,
            "{:<14} {:>10} {:>10} {:>10} {:>10}",
            "pieces", "wins", "losses", "draws", "total"
        )?;
        for m in MIN_PIECES as usize..=MAX_PIECES as usize {
            for o in MIN_PIECES as usize..=MAX_PIECES as usize {
                row(f, &format!("{m} v {o}"), &self.by_material[m][o])?;
            }
        }
        row(f, "all", &self.all)?;
        row(f, "reachable", &self.reachable)?;
        writeln!(f)?;
        writeln!(f, "start position, Black to move: {}", self.start[BLACK])?;
        writeln!(f, "start position, White to move: {}", self.start[WHITE])?;
        writeln!(f, "longest forced win: {}", self.longest_win)?;
        writeln!(
            f,
            "longest forced win a game can reach: {}",
            self.longest_reachable_win
        )?;
        writeln!(f)?;
        writeln!(f, "positions by plies to the end (wins / losses):")?;
        for (distance, [wins, losses]) in self.by_distance.iter().enumerate() {
            if wins + losses > 0 {
                writeln!(f, "{distance:>4} {wins:>10} {losses:>10}")?;
            }
        }
        Ok(())
    }
}

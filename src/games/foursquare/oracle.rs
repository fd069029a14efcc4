//! The solved game at the engine's service: the `Tablebase` option, the table loaded once
//! per process in the background, and the verdict on each root position.
//!
//! The table's values ignore the ply count; the verdict does not. Under `MaxPlies` a game
//! that lasts until the limit is decided by piece count, so the table's line is played
//! only when it ends the game before the limit, and otherwise the search (which knows the
//! limit) chooses among the moves that cannot be forced to lose before it. Without a
//! limit that leaves the search a drawn position's drawing moves, where it steers towards
//! a piece-count lead for the one-hour rule.

use super::board::{Move, Position};
use super::tablebase::{self, Tablebase, Value};
use crate::core::{OptionKind, OptionSpec, Oracle, Verdict, mate_in, mated_in};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};

/// The option that switches the table on and off.
const TABLEBASE: &str = "Tablebase";

/// The process's one table, shared by every engine, built or loaded on first demand.
static TABLE: Loader = Loader {
    state: Mutex::new(State::Idle),
    done: Condvar::new(),
};

enum State {
    Idle,
    Loading,
    Ready(Arc<Tablebase>),
}

struct Loader {
    state: Mutex<State>,
    done: Condvar,
}

impl Loader {
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Starts loading on a thread of its own unless that has begun already.
    fn start(&'static self) {
        let mut state = self.lock();
        if !matches!(*state, State::Idle) {
            return;
        }
        *state = State::Loading;
        drop(state);
        let spawned = std::thread::Builder::new()
            .name("tablebase".into())
            .spawn(move || {
                let table = std::panic::catch_unwind(tablebase::load_or_build);
                let mut state = self.lock();
                *state = match table {
                    Ok(table) => State::Ready(Arc::new(table)),
                    Err(_) => {
                        log::error!("building the FourSquare tablebase failed");
                        State::Idle
                    }
                };
                self.done.notify_all();
            });
        if let Err(e) = spawned {
            log::warn!("cannot start loading the FourSquare tablebase: {e}");
            *self.lock() = State::Idle;
            self.done.notify_all();
        }
    }

    fn wait(&self) {
        let mut state = self.lock();
        while matches!(*state, State::Loading) {
            state = self.done.wait(state).unwrap_or_else(|e| e.into_inner());
        }
    }

    fn get(&self) -> Option<Arc<Tablebase>> {
        match &*self.lock() {
            State::Ready(table) => Some(table.clone()),
            _ => None,
        }
    }
}

/// One engine's view of the table: whether its `Tablebase` option is on.
pub struct TablebaseOracle {
    enabled: bool,
}

impl Default for TablebaseOracle {
    fn default() -> Self {
        TablebaseOracle { enabled: true }
    }
}

impl Oracle<Position> for TablebaseOracle {
    fn options(&self) -> Vec<OptionSpec> {
        vec![OptionSpec {
            name: TABLEBASE,
            kind: OptionKind::Check { default: true },
        }]
    }

    fn set_option(&mut self, name: &str, value: &str) {
        if name == TABLEBASE {
            self.enabled = value == "true";
            self.prepare();
        }
    }

    fn prepare(&self) {
        if self.enabled {
            TABLE.start();
        }
    }

    fn wait_ready(&self) {
        if self.enabled {
            TABLE.wait();
        }
    }

    /// Never waits: before the table is ready the search plays.
    fn probe(&self, pos: &Position, searchmoves: &[Move]) -> Option<Verdict<Move>> {
        if !self.enabled {
            return None;
        }
        verdict(&*TABLE.get()?, pos, searchmoves)
    }
}

/// The verdict of `table` on `pos`, its root moves limited to `searchmoves` unless empty.
pub(super) fn verdict(
    table: &Tablebase,
    pos: &Position,
    searchmoves: &[Move],
) -> Option<Verdict<Move>> {
    if pos.rule_outcome().is_some() {
        return None;
    }
    let mut moves = table.move_values(pos);
    if !searchmoves.is_empty() {
        moves.retain(|(mv, _)| searchmoves.contains(mv));
    }
    let &(best, value) = moves.iter().reduce(|best, next| {
        if next.1.preference() > best.1.preference() {
            next
        } else {
            best
        }
    })?;
    // Plies until the limit ends the game by piece count; conservatively, a line that
    // ends exactly at the limit only counts when it is a loss.
    let left = (pos.max_plies() != 0).then(|| pos.max_plies().saturating_sub(pos.ply()));
    let lost_in_time =
        |value: Value| matches!(value, Value::Loss(d) if left.is_none_or(|l| d <= l));
    let score = match value {
        Value::Win(d) if left.is_none_or(|l| d < l) => Some(mate_in(d as usize)),
        Value::Loss(d) if lost_in_time(value) => Some(mated_in(d as usize)),
        _ => None,
    };
    if let Some(score) = score {
        let mut after = *pos;
        after.play(best);
        let mut pv = vec![best];
        pv.extend(table.line(&after));
        return Some(Verdict::Play { score, pv });
    }
    Some(Verdict::SearchAmong(
        moves
            .into_iter()
            .filter(|&(_, value)| !lost_in_time(value))
            .map(|(mv, _)| mv)
            .collect(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Game;
    use crate::games::foursquare::tablebase::tests::table;

    fn pos(fsn: &str) -> Position {
        Position::from_notation(fsn).unwrap()
    }

    /// Positions sampled across the table with the value `wanted` picks.
    fn positions(wanted: impl Fn(Value) -> bool) -> Vec<Position> {
        let mut found = Vec::new();
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        while found.len() < 40 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let black = (state & 0xFFFF) as u16;
            let white = (state >> 16 & 0xFFFF) as u16 & !black;
            if !(2..=4).contains(&black.count_ones()) || !(2..=4).contains(&white.count_ones()) {
                continue;
            }
            let mut p = Position::start_position();
            p.pieces = [black, white];
            p.side = (state >> 40 & 1) as usize;
            if wanted(table().value(&p)) && p.rule_outcome().is_none() {
                found.push(p);
            }
        }
        found
    }

    #[test]
    fn decided_positions_are_played_from_the_table() {
        for p in positions(|v| v.distance().is_some_and(|d| d > 0)) {
            let value = table().value(&p);
            let Some(Verdict::Play { score, pv }) = verdict(table(), &p, &[]) else {
                panic!("{}: no line for a {value}", p.fsn());
            };
            let expected = match value {
                Value::Win(d) => mate_in(d as usize),
                _ => mated_in(value.distance().unwrap() as usize),
            };
            assert_eq!(score, expected, "{}", p.fsn());
            assert_eq!(Some(pv.len() as u32), value.distance(), "{}", p.fsn());
            let mut after = p;
            after.make_move(pv[0]);
            assert_eq!(table().value(&after).before(), value, "{}", p.fsn());
        }
    }

    #[test]
    fn drawn_positions_are_searched_among_the_drawing_moves() {
        for p in positions(|v| v == Value::Draw) {
            let Some(Verdict::SearchAmong(moves)) = verdict(table(), &p, &[]) else {
                panic!("{}: a draw needs a search", p.fsn());
            };
            let drawing: Vec<Move> = table()
                .move_values(&p)
                .into_iter()
                .filter(|&(_, v)| v == Value::Draw)
                .map(|(mv, _)| mv)
                .collect();
            assert_eq!(moves, drawing, "{}", p.fsn());
        }
    }

    #[test]
    fn searchmoves_limit_the_verdict() {
        let start = Position::start_position();
        let values = table().move_values(&start);
        // From the start every move loses; the longest loss among the allowed moves is
        // the one played.
        for &(mv, value) in &values {
            let Some(Verdict::Play { pv, .. }) = verdict(table(), &start, &[mv]) else {
                panic!("{mv}: no line");
            };
            assert_eq!(pv[0], mv);
            assert_eq!(Some(pv.len() as u32), value.distance());
        }
    }

    #[test]
    fn a_ply_limit_before_the_end_of_the_line_hands_over_to_the_search() {
        for mut p in positions(|v| matches!(v, Value::Win(d) if d >= 3)) {
            let value = table().value(&p);
            let d = value.distance().unwrap();
            // The limit falls before the win: the search chooses, among the moves that do
            // not lose before the limit.
            p.ply = 10;
            p.max_plies = 10 + d;
            let Some(Verdict::SearchAmong(moves)) = verdict(table(), &p, &[]) else {
                panic!("{}: the limit cuts the win short", p.fsn());
            };
            for (mv, v) in table().move_values(&p) {
                let lost_in_time = matches!(v, Value::Loss(n) if n <= d);
                assert_eq!(moves.contains(&mv), !lost_in_time, "{}: {mv}", p.fsn());
            }
            // One more ply and the win fits.
            p.max_plies += 1;
            assert!(matches!(
                verdict(table(), &p, &[]),
                Some(Verdict::Play { .. })
            ));
        }
    }

    #[test]
    fn finished_games_get_no_verdict() {
        assert_eq!(verdict(table(), &pos("bbbb/4/4/w3 w"), &[]), None);
        assert_eq!(verdict(table(), &pos("bbw1/ww2/4/4 b"), &[]), None);
        let mut limited = pos("bbbb/4/4/wwww b 20");
        limited.set_max_plies(20);
        assert_eq!(verdict(table(), &limited, &[]), None);
    }
}

//! The FourSquare tablebase against references that share nothing with the solver but
//! the rules (the `Game` trait): plain minimax on positions near the end of the game, and
//! the defining equations of a solved game checked move by move.

use crate::common::minimax::{Proven, minimax, random_fsn};
use qiyi::core::{Game, MoveList};
use qiyi::games::foursquare::Position;
use qiyi::games::foursquare::tablebase::{Tablebase, Value};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use rayon::prelude::*;
use std::sync::OnceLock;

fn table() -> &'static Tablebase {
    static TABLE: OnceLock<Tablebase> = OnceLock::new();
    TABLE.get_or_init(Tablebase::solve)
}

fn random_positions(seed: u64, count: usize) -> Vec<Position> {
    let mut rng = StdRng::seed_from_u64(seed);
    (0..count)
        .map(|_| {
            let fsn = random_fsn(|n| rng.random_range(0..n));
            Position::from_notation(&fsn).unwrap()
        })
        .collect()
}

/// What minimax to `depth` must say about a position the table values `value`.
fn expected_within(value: Value, depth: u32) -> Option<Proven> {
    match value {
        Value::Win(d) if d <= depth => Some(Proven::Win(d)),
        Value::Loss(d) if d <= depth => Some(Proven::Loss(d)),
        _ => None,
    }
}

/// Every sampled position the game decides within five plies has exactly the table's
/// value and distance, and the table claims no such value anywhere else.
#[test]
fn the_table_agrees_with_minimax_near_the_end() {
    const DEPTH: u32 = 5;
    let table = table();
    let positions = random_positions(6, 1500);
    let decided: usize = positions
        .par_iter()
        .map(|pos| {
            let proven = minimax(&mut pos.clone(), DEPTH);
            let value = table.value(pos);
            assert_eq!(
                proven,
                expected_within(value, DEPTH),
                "{}: the table says {value}",
                pos.to_notation()
            );
            usize::from(proven.is_some())
        })
        .sum();
    assert!(decided >= 150, "only {decided} decided positions sampled");
}

/// Positions the table says end within five plies, drawn from the table itself so that
/// every distance is covered: minimax proves each one, distance included.
#[test]
fn short_wins_and_losses_of_the_table_are_proven() {
    const DEPTH: u32 = 5;
    let table = table();
    let mut by_distance = [0usize; DEPTH as usize + 1];
    let positions: Vec<Position> = random_positions(7, 20_000)
        .into_iter()
        .filter(|pos| {
            let Some(d) = table.value(pos).distance().filter(|&d| d <= DEPTH) else {
                return false;
            };
            by_distance[d as usize] += 1;
            by_distance[d as usize] <= 60
        })
        .collect();
    assert!(
        by_distance[1..].iter().all(|&n| n >= 30),
        "distances sampled: {by_distance:?}"
    );
    positions.par_iter().for_each(|pos| {
        let value = table.value(pos);
        assert_eq!(
            minimax(&mut pos.clone(), DEPTH),
            expected_within(value, DEPTH),
            "{}",
            pos.to_notation()
        );
    });
}

/// The equations that define a solved game, at each sampled position: a win in d has a
/// move into a loss in d-1 and none into a shorter loss; a loss in d has only moves into
/// wins, the longest in d-1; a draw has no move into a loss and one into a draw.
#[test]
fn every_sampled_value_is_what_its_moves_make_it() {
    let table = table();
    for pos in random_positions(8, 20_000) {
        let mut moves = MoveList::new();
        pos.legal_moves(&mut moves);
        let children: Vec<Value> = moves
            .iter()
            .map(|&mv| {
                let mut child = pos;
                child.make_move(mv);
                table.value(&child)
            })
            .collect();
        let shortest_loss = children
            .iter()
            .filter_map(|v| match v {
                Value::Loss(d) => Some(*d),
                _ => None,
            })
            .min();
        let any_draw = children.contains(&Value::Draw);
        let longest_win = children
            .iter()
            .filter_map(|v| match v {
                Value::Win(d) => Some(*d),
                _ => None,
            })
            .max();
        let fsn = pos.to_notation();
        match table.value(&pos) {
            Value::Win(d) => assert_eq!(shortest_loss, Some(d - 1), "{fsn}"),
            Value::Loss(0) => assert!(children.is_empty() || pos.result().is_some(), "{fsn}"),
            Value::Loss(d) => {
                assert!(shortest_loss.is_none() && !any_draw, "{fsn}");
                assert_eq!(longest_win, Some(d - 1), "{fsn}");
            }
            Value::Draw => assert!(shortest_loss.is_none() && any_draw, "{fsn}"),
        }
    }
}

/// The start position's line is legal and ends the game as its value says, for either
/// side to move.
#[test]
fn the_start_positions_lines_are_played_out() {
    let table = table();
    for fsn in ["bbbb/4/4/wwww b", "bbbb/4/4/wwww w"] {
        let mut pos = Position::from_notation(fsn).unwrap();
        let value = table.value(&pos);
        let line = table.line(&pos);
        assert_eq!(Some(line.len() as u32), value.distance(), "{fsn}: {value}");
        let mover = pos.team_to_move();
        for mv in line {
            let mv = pos.parse_move(&pos.move_name(mv)).unwrap();
            pos.make_move(mv);
        }
        let winner = match value {
            Value::Win(_) => mover,
            _ => mover ^ 1,
        };
        assert_eq!(
            pos.result(),
            Some(qiyi::core::Outcome::Win(winner)),
            "{fsn}"
        );
    }
}

//! The solver checked against the rules it was built from: the backward step agrees with
//! forward move generation, and the solved table agrees with its own moves everywhere.
//! (`tests/foursquare_tablebase.rs` checks it against an independent brute force.)

use super::solve::for_each_predecessor;
use super::*;
use crate::core::Game;
use crate::games::foursquare::board::step_back;
use std::collections::HashSet;
use std::sync::OnceLock;

/// The solved table, shared by every unit test that needs one.
pub(in crate::games::foursquare) fn table() -> &'static Tablebase {
    static TABLE: OnceLock<Tablebase> = OnceLock::new();
    TABLE.get_or_init(Tablebase::solve)
}

/// Every move of a spread of entries: its entry (when the game goes on), with the parent.
fn forward_edges(stride: usize) -> Vec<(usize, usize)> {
    let mut edges = Vec::new();
    for parent in (0..index::SIZE).step_by(stride) {
        let (mover, other) = index::position(parent);
        let pos = mover_position(mover, other);
        let mut moves = MoveList::new();
        pos.generate_moves(&mut moves);
        for &mv in moves.iter() {
            let mut child = pos;
            child.play(mv);
            let (child_mover, child_other) =
                (child.pieces[child.side], child.pieces[child.side ^ 1]);
            if child_mover.count_ones() >= index::MIN_PIECES {
                edges.push((parent, index::index(child_mover, child_other)));
            }
        }
    }
    edges
}

/// Every move's capture, or its lack of one, is what `step_back` reads from the board
/// after it.
#[test]
fn step_back_agrees_with_move_generation() {
    let mut captures = 0;
    for entry in (0..index::SIZE).step_by(7) {
        let (mover, other) = index::position(entry);
        let mut moves = MoveList::new();
        mover_position(mover, other).generate_moves(&mut moves);
        for mv in moves.iter() {
            let after = mover ^ (1 << mv.from | 1 << mv.to);
            if mv.is_capture() {
                let left = other ^ 1 << mv.capture;
                let (_, victims) = step_back(after, left, mv.to);
                assert!(victims >> mv.capture & 1 != 0, "{mv:?}");
                captures += 1;
            } else {
                assert!(step_back(after, other, mv.to).0, "{mv:?}");
            }
        }
    }
    assert!(captures > 10_000, "{captures}");
}

/// Stepping back finds exactly the moves stepping forward makes: every forward edge is
/// found from its child, and every edge found backwards is a forward move of its parent,
/// found once.
#[test]
fn predecessors_are_exactly_the_moves_leading_here() {
    for (parent, child) in forward_edges(13) {
        let (mover, other) = index::position(child);
        let mut found = 0;
        for_each_predecessor(mover, other, |m, o| {
            found += usize::from(index::index(m, o) == parent)
        });
        assert_eq!(found, 1, "entry {parent} -> {child}");
    }
    for child in (0..index::SIZE).step_by(17) {
        let (mover, other) = index::position(child);
        let mut parents = Vec::new();
        for_each_predecessor(mover, other, |m, o| parents.push(index::index(m, o)));
        let unique: HashSet<usize> = parents.iter().copied().collect();
        assert_eq!(unique.len(), parents.len(), "entry {child}");
        for parent in parents {
            let (p_mover, p_other) = index::position(parent);
            let pos = mover_position(p_mover, p_other);
            let mut moves = MoveList::new();
            pos.generate_moves(&mut moves);
            let leads_here = moves.iter().any(|&mv| {
                let mut after = pos;
                after.play(mv);
                after.pieces[after.side] == mover && after.pieces[after.side ^ 1] == other
            });
            assert!(leads_here, "entry {parent} has no move to {child}");
        }
    }
}

#[test]
fn values_encode_in_one_byte_and_back() {
    for value in [
        Value::Draw,
        Value::Loss(0),
        Value::Win(1),
        Value::Loss(2),
        Value::Win(253),
        Value::Loss(254),
    ] {
        assert_eq!(Value::decode(value.encode()), value);
    }
    assert_eq!(Value::Loss(4).before(), Value::Win(5));
    assert!(Value::Win(3).preference() > Value::Win(5).preference());
    assert!(Value::Win(99).preference() > Value::Draw.preference());
    assert!(Value::Draw.preference() > Value::Loss(40).preference());
    assert!(Value::Loss(40).preference() > Value::Loss(2).preference());
}

/// The Bellman equations hold at every entry. Together with the ends being right, that
/// is the whole proof: by induction on the distance, no entry can be mislabelled.
#[test]
fn every_entry_agrees_with_its_moves() {
    let table = table();
    let wrong: Vec<String> = (0..index::SIZE)
        .filter_map(|entry| table.check_entry(entry).err())
        .take(5)
        .collect();
    assert!(wrong.is_empty(), "{wrong:#?}");
}

#[test]
fn terminal_positions_need_no_entry() {
    let table = table();
    let value = |fsn: &str| table.value(&Position::from_notation(fsn).unwrap());
    assert_eq!(value("b3/4/4/ww2 b"), Value::Loss(0));
    assert_eq!(value("b3/4/4/ww2 w"), Value::Win(0));
    assert_eq!(value("b3/4/4/w3 b"), Value::Draw);
    // Walled in: Black a4, b4 against White a3, b3, c4.
    assert_eq!(value("bbw1/ww2/4/4 b"), Value::Loss(0));
}

/// The line a table gives ends the game in as many plies as it says, with the winner
/// it says, and the ply limit is no part of the value.
#[test]
fn lines_end_the_game_as_the_value_says() {
    let table = table();
    let mut checked = 0;
    for entry in (0..index::SIZE).step_by(997) {
        let (mover, other) = index::position(entry);
        let mut pos = mover_position(mover, other);
        pos.set_max_plies(3);
        let value = table.value(&pos);
        let Some(distance) = value.distance() else {
            assert!(table.line(&pos).is_empty());
            continue;
        };
        let line = table.line(&pos);
        assert_eq!(line.len(), distance as usize, "{}", pos.fsn());
        pos.set_max_plies(0);
        for &mv in &line {
            pos.make_move(mv);
        }
        let winner = if matches!(value, Value::Win(_)) {
            BLACK
        } else {
            BLACK ^ 1
        };
        assert_eq!(
            pos.result(),
            Some(crate::core::Outcome::Win(winner)),
            "{}",
            pos.fsn()
        );
        checked += 1;
    }
    assert!(checked > 100, "{checked}");
}

//! The Junqi network's inputs: 6,192 per view, a view per team. Each piece on the board
//! by its seat counted from the view's front seat (0 the front seat, 2 its partner, 1 and
//! 3 the enemies in turn order), its rank and its station, the board turned so that the
//! front seat sits where S does. The side to move's team faces from the seat to move;
//! the other team from the seat after it, its next to move. So each view sees its own
//! pieces as the same inputs whichever of its seats moves, and the seat to move is known
//! by which view comes first. Every move hands the turn on, and with it turns both
//! views: a position's sums always come from the whole board (fifty-odd pieces), which
//! costs less than the hand-written evaluation's ray walks.

use super::Eval;
use super::board::{STATIONS, TABLES};
use super::eval::static_value;
use super::position::{EMPTY, Move, Position, RANKS, rank_of, seat_of, team};
use crate::nnue::{Change, Features, Inputs, Network, Piece};
use once_cell::sync::Lazy;
use std::sync::Arc;

/// The engine's Junqi evaluation: the hand-written [`Eval`] unless `EvalFile` names a
/// network.
pub type NetworkEval = crate::nnue::NetworkEval<Position, Eval>;

/// Inputs per seat: twelve ranks on 129 stations.
const SEAT_INPUTS: usize = RANKS * STATIONS;

/// `TURNED[front][s]`: station `s` on the board turned so that seat `front` sits where S
/// does (a quarter turn per seat, the centre turning with it).
static TURNED: Lazy<[[u8; STATIONS]; 4]> = Lazy::new(|| {
    let mut turned = [[0u8; STATIONS]; 4];
    for (front, row) in turned.iter_mut().enumerate() {
        for (s, to) in row.iter_mut().enumerate() {
            let (mut x, mut y) = (i32::from(TABLES.xy[s].0), i32::from(TABLES.xy[s].1));
            for _ in 0..front {
                (x, y) = (-y, x);
            }
            *to = TABLES
                .station(x, y)
                .expect("a quarter turn maps the board onto itself") as u8;
        }
    }
    turned
});

/// The seat a view faces from when `side` is to move: the view of `side`'s team from
/// `side`, the other team's from the seat after it.
#[inline]
fn front(view: usize, side: u8) -> usize {
    let side = usize::from(side);
    (side + usize::from(view != team(side))) % 4
}

impl Features for Position {
    const INPUTS: usize = 4 * SEAT_INPUTS;
    /// The scale on which the open search's scores of dark self-play's positions predict
    /// those games' results best (cross-entropy 0.47 against 0.66 at 1,000 and 1.15 at
    /// 400, on 60,000 positions): Junqi's scores run wide, a flag in reach being 3,000.
    const ODDS_SCALE: f32 = 3000.0;

    /// The seat to move.
    type Context = u8;

    fn context(&self) -> u8 {
        self.side
    }

    fn view_to_move(&self) -> usize {
        team(usize::from(self.side))
    }

    /// A piece is its byte (seat and rank) and its station.
    #[inline]
    fn inputs(view: usize, (code, at): Piece, side: u8) -> Inputs {
        let front = front(view, side);
        let seat = (seat_of(code) + 4 - front) % 4;
        let station = usize::from(TURNED[front][usize::from(at)]);
        Inputs::one(seat * SEAT_INPUTS + usize::from(rank_of(code)) * STATIONS + station)
    }

    fn occupants(&self) -> impl Iterator<Item = Piece> + '_ {
        (0..STATIONS)
            .filter(|&s| self.board[s] != EMPTY)
            .map(|s| (self.board[s], s as u8))
    }

    /// Every move turns the views (see the module's docs).
    fn change(&self, _: Move) -> Change {
        let mut change = Change::default();
        change.change_context();
        change
    }

    /// A mirror swaps the enemy that moves next with the one that moves last.
    fn mirrorable(&self) -> bool {
        false
    }

    /// Never asked for: no position is [`Features::mirrorable`].
    fn mirrored(feature: usize) -> usize {
        feature
    }

    /// The fixed values move ordering uses (marshal 1,000 … engineer 80), the flag
    /// nothing; the enemies' negative.
    fn material(feature: usize) -> f32 {
        let seat = feature / SEAT_INPUTS;
        let rank = (feature % SEAT_INPUTS / STATIONS) as u8;
        let value = static_value((seat as u8) << 4 | rank) as f32;
        if team(seat) == 0 { value } else { -value }
    }

    fn built_in() -> Option<(&'static str, Arc<Network>)> {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{Game, MoveList};
    use crate::games::junqi::DEFAULT_LINEUP;

    /// The inputs of both views, the side to move's first, sorted.
    fn views(pos: &Position) -> [Vec<usize>; 2] {
        let first = pos.view_to_move();
        [first, first ^ 1].map(|view| {
            let mut inputs: Vec<usize> = pos
                .occupants()
                .flat_map(|p| Position::inputs(view, p, pos.context()))
                .collect();
            inputs.sort_unstable();
            inputs
        })
    }

    #[test]
    fn a_quarter_turn_four_times_is_no_turn() {
        for s in 0..STATIONS {
            let mut t = s;
            for _ in 0..4 {
                t = usize::from(TURNED[1][t]);
            }
            assert_eq!(t, s);
            assert_eq!(TURNED[0][s] as usize, s);
            assert_eq!(TURNED[2][s], TURNED[1][usize::from(TURNED[1][s])]);
        }
    }

    #[test]
    fn each_seat_to_move_sees_the_same_inputs_when_all_deploy_alike() {
        // With one lineup for all four seats, the board looks the same from every seat:
        // after each seat's first pass the seat to move sees what S saw.
        let setup = format!(
            "setup S:{DEFAULT_LINEUP} E:{DEFAULT_LINEUP} N:{DEFAULT_LINEUP} W:{DEFAULT_LINEUP}"
        );
        let mut pos = Position::from_notation(&setup).unwrap();
        let start = views(&pos);
        for _ in 0..3 {
            pos.make_move(Move::PASS);
            assert_eq!(views(&pos), start);
        }
    }

    /// Along random games full of combats and eliminations, the search's sums (brought up
    /// to date lazily, through take-backs) give what a refresh from the whole board gives.
    #[test]
    fn updated_sums_equal_a_refresh_along_random_games() {
        let network = crate::nnue::tests::random_network(5, Position::INPUTS, 32);
        let start = Position::start_position().to_notation();
        let attack = |pos: &Position, mv: Move| pos.is_attack(mv);
        let checked =
            crate::nnue::tests::check_updates_along_random_games(&network, &[&start], attack, 6);
        assert!(checked > 1000, "{checked}");
    }

    #[test]
    fn a_move_changes_the_movers_input_and_the_views_turn() {
        let mut pos = Position::start_position();
        let mut moves = MoveList::new();
        pos.legal_moves(&mut moves);
        let before = views(&pos);
        pos.make_move(moves[0]);
        let after = views(&pos);
        assert_eq!(after[0].len(), before[0].len());
        assert_ne!(after, before);
        // Every input is a seat's piece on a station: the own seats' material counts
        // for the view, the enemies' against it.
        assert!(after[0].iter().all(|&f| f < Position::INPUTS));
        let marshal_at_home = 0;
        assert_eq!(Position::material(marshal_at_home), 1000.0);
        assert_eq!(Position::material(SEAT_INPUTS + marshal_at_home), -1000.0);
    }
}

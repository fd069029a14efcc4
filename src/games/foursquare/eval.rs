//! Static evaluation of FourSquare positions.
//!
//! Material decides the game (one piece left loses), so it dominates; the rest steers the
//! search towards positions where pieces can be won: who can capture right now, which
//! pieces the opponent could take next, how well pieces cover each other and how free
//! they are to move (a side with no move loses).

use super::board::{Position, lane_counts, pack, toward};
use super::oracle::TablebaseOracle;
use crate::core::{Evaluator, Oracle, Score};

/// One piece: large enough that no positional sum outweighs it.
const PIECE: Score = 1000;
/// Having a capture with the move: that is most of a piece, but quiescence plays the
/// capture itself, so the static bonus is only a tempo's worth. With the move, how many
/// pieces we could take matters little: we take one and the opponent replies.
const CAPTURE_READY: Score = 150;
/// One of our pieces the opponent could capture on its next move: we move first, so a
/// single threat can usually be parried and costs little ...
const ONE_THREAT: Score = 60;
/// ... but two threatened pieces cannot both be saved with one step.
const DOUBLE_THREAT: Score = 450;
/// Per legal step: a side with no step loses, and freedom precedes every capture.
const MOBILITY: Score = 6;
/// Per attack line of a piece blocked by a friendly piece (see [`covered`]).
const COVER: Score = 14;
/// Per piece on the four centre points, from which a piece reaches both halves of the
/// board and takes part in patterns along two lines of each axis.
const CENTRE: Score = 10;

/// b2, c2, b3, c3.
const CENTRE_POINTS: u16 = 0x0660;
/// Files a and b, and ranks 1 and 2: the halves attacked from the + side.
const FILES_AB: u16 = 0x3333;
const RANKS_12: u16 = 0x00FF;

/// The pieces of `own` that a friend covers along their rank, and along their file.
///
/// On a 4x4 board a piece can be captured from one direction per axis only, towards the
/// far side of the board: the enemy needs the two points beyond it (files a/b are attacked
/// from +file, c/d from −file; likewise for ranks). A friend on either point makes that
/// line safe for now.
fn covered(own: u16) -> (u16, u16) {
    let beyond = |d: i8| toward(own, d) | toward(own, 2 * d);
    let rank = FILES_AB & beyond(1) | !FILES_AB & beyond(-1);
    let file = RANKS_12 & beyond(4) | !RANKS_12 & beyond(-4);
    (own & rank, own & file)
}

/// The cost of the opponent threatening `targets` of our pieces.
fn threat_penalty(targets: u16) -> Score {
    if targets == 0 {
        0
    } else if targets & (targets - 1) == 0 {
        ONE_THREAT
    } else {
        DOUBLE_THREAT
    }
}

/// Lane `i` of a [`lane_counts`] result, as a score term.
fn lane(counts: u64, i: u32) -> Score {
    (counts >> (16 * i) & 0xFFFF) as Score
}

/// The FourSquare evaluator: score from the view of the side to move.
///
/// `noisy_moves` keeps the trait's default (the captures): every move already carries
/// its capture, so filtering the legal moves costs next to nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct Eval;

impl Evaluator<Position> for Eval {
    type State = ();

    fn new_state(&self, _: &Position) {}

    fn evaluate(&self, pos: &Position) -> Score {
        let us = pos.side;
        let them = us ^ 1;
        let (own, enemy) = (pos.pieces[us], pos.pieces[them]);
        let (our_moves, our_targets) = pos.mobility_and_targets(us);
        let (their_moves, their_targets) = pos.mobility_and_targets(them);

        let (own_rank, own_file) = covered(own);
        let (enemy_rank, enemy_file) = covered(enemy);
        let pieces = lane_counts(pack(own, enemy, own & CENTRE_POINTS, enemy & CENTRE_POINTS));
        let cover = lane_counts(pack(own_rank, own_file, enemy_rank, enemy_file));

        let material = (lane(pieces, 0) - lane(pieces, 1)) * PIECE;
        let tempo = if our_targets != 0 { CAPTURE_READY } else { 0 };
        let threatened = threat_penalty(their_targets);
        let mobility = (our_moves as Score - their_moves as Score) * MOBILITY;
        let centre = (lane(pieces, 2) - lane(pieces, 3)) * CENTRE;
        let cover = (lane(cover, 0) + lane(cover, 1) - lane(cover, 2) - lane(cover, 3)) * COVER;
        material + tempo - threatened + mobility + cover + centre
    }

    /// The solved game: with it the engine plays perfectly.
    fn oracle(&self) -> Option<Box<dyn Oracle<Position>>> {
        Some(Box::<TablebaseOracle>::default())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{Game, MATE_BOUND};

    fn eval(fsn: &str) -> Score {
        Eval.evaluate(&Position::from_notation(fsn).unwrap())
    }

    #[test]
    fn covered_matches_the_two_points_beyond_each_piece() {
        for own in [
            0xF000u16, 0x000F, 0x0660, 0x1248, 0x8421, 0x9009, 0x0990, 0xFFFF,
        ] {
            let (rank, file) = covered(own);
            for sq in 0..16i32 {
                if own >> sq & 1 == 0 {
                    continue;
                }
                let (f, r) = (sq % 4, sq / 4);
                let df = if f <= 1 { 1 } else { -1 };
                let dr = if r <= 1 { 4 } else { -4 };
                let holds = |q: i32| own >> q & 1 == 1;
                assert_eq!(rank >> sq & 1 == 1, holds(sq + df) || holds(sq + 2 * df));
                assert_eq!(file >> sq & 1 == 1, holds(sq + dr) || holds(sq + 2 * dr));
            }
        }
    }

    #[test]
    fn start_position_is_balanced() {
        assert_eq!(eval("bbbb/4/4/wwww b"), 0);
        assert_eq!(eval("bbbb/4/4/wwww w"), 0);
    }

    #[test]
    fn colour_mirror_is_symmetric() {
        // Swapping colours and flipping ranks gives the same position for the mover.
        assert_eq!(eval("b2b/1w2/w3/1b1w w"), eval("1w1b/b3/1b2/w2w b"));
    }

    #[test]
    fn material_dominates_and_stays_below_mate_scores() {
        let up_one = eval("bbb1/4/4/1ww1 b");
        assert!(up_one > PIECE / 2, "{up_one}");
        assert!(up_one.abs() < MATE_BOUND);
        assert_eq!(eval("bbb1/4/4/1ww1 w"), -up_one);
    }

    #[test]
    fn a_capture_with_the_move_is_better_than_one_against() {
        // White to move can take c2 with a1a2 (pattern A); with Black to move, Black is the
        // one threatened.
        let white_view = eval("b2b/4/1wb1/w2w w");
        let black_view = eval("b2b/4/1wb1/w2w b");
        assert!(white_view > -black_view, "{white_view} vs {black_view}");
    }
}

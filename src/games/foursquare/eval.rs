//! Static evaluation of FourSquare positions.
//!
//! Material decides the game (one piece left loses), so it dominates; the rest steers the
//! search towards positions where pieces can be won: who can capture right now, which
//! pieces the opponent could take next, how well pieces cover each other and how free
//! they are to move (a side with no move loses).

use super::board::Position;
use crate::core::{Evaluator, Score};

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
/// Per attack line of a piece blocked by a friendly piece (see [`ATTACK_LINES`]).
const COVER: Score = 14;
/// Per piece on the four centre points, from which a piece reaches both halves of the
/// board and takes part in patterns along two lines of each axis.
const CENTRE: Score = 10;

/// b2, c2, b3, c3.
const CENTRE_POINTS: u16 = 0x0660;

/// `ATTACK_LINES[sq]`: the two points an enemy must hold to capture a piece on `sq`
/// along its rank, and the two along its file.
///
/// On a 4x4 board a piece can be captured from one direction per axis only: towards the
/// far side of the board (files a/b are attacked from +file, c/d from −file, likewise for
/// ranks). A friendly piece on either of those points makes that line safe for now.
static ATTACK_LINES: [[u16; 2]; 16] = attack_lines();

const fn attack_lines() -> [[u16; 2]; 16] {
    let mut table = [[0u16; 2]; 16];
    let mut sq = 0;
    while sq < 16 {
        let (file, rank) = (sq % 4, sq / 4);
        table[sq][0] = if file <= 1 {
            1 << (sq + 1) | 1 << (sq + 2)
        } else {
            1 << (sq - 1) | 1 << (sq - 2)
        };
        table[sq][1] = if rank <= 1 {
            1 << (sq + 4) | 1 << (sq + 8)
        } else {
            1 << (sq - 4) | 1 << (sq - 8)
        };
        sq += 1;
    }
    table
}

/// Attack lines of `own`'s pieces that hold a piece of `own` and so cannot be completed
/// by the enemy.
fn covered_lines(own: u16) -> i32 {
    let mut count = 0;
    let mut pieces = own;
    while pieces != 0 {
        let sq = pieces.trailing_zeros() as usize;
        pieces &= pieces - 1;
        for line in ATTACK_LINES[sq] {
            count += i32::from(line & own != 0);
        }
    }
    count
}

/// The cost of the opponent threatening `targets` of our pieces.
fn threat_penalty(targets: u16) -> Score {
    match targets.count_ones() {
        0 => 0,
        1 => ONE_THREAT,
        _ => DOUBLE_THREAT,
    }
}

/// The FourSquare evaluator: score from the view of the side to move.
///
/// `noisy_moves` keeps the trait's default (the captures): every move already carries
/// its capture, so filtering the legal moves costs next to nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct Eval;

impl Evaluator<Position> for Eval {
    fn evaluate(&self, pos: &Position) -> Score {
        let us = pos.side;
        let them = us ^ 1;
        let (own, enemy) = (pos.pieces[us], pos.pieces[them]);
        let (our_moves, our_targets) = pos.mobility_and_targets(us);
        let (their_moves, their_targets) = pos.mobility_and_targets(them);

        let material = (own.count_ones() as Score - enemy.count_ones() as Score) * PIECE;
        let tempo = if our_targets != 0 { CAPTURE_READY } else { 0 };
        let threatened = threat_penalty(their_targets);
        let mobility = (our_moves as Score - their_moves as Score) * MOBILITY;
        let cover = (covered_lines(own) - covered_lines(enemy)) * COVER;
        let centre = ((own & CENTRE_POINTS).count_ones() as Score
            - (enemy & CENTRE_POINTS).count_ones() as Score)
            * CENTRE;
        material + tempo - threatened + mobility + cover + centre
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

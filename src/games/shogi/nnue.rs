//! The shogi network's inputs: 6,880 per view. Each piece on the board by colour
//! (relative to the view), kind (fourteen, the king included) and square (rotated for
//! gote); each piece in hand as "the n-th piece of this kind in this hand", so that a
//! capture or a drop changes one input, as a move on the board changes one. And each
//! piece within four files and ranks of a king, by colour, kind and where it stands
//! from that king, once for the view's own king and once for the other: the castle
//! round a king and the attack on it, wherever on the board the king stands, which the
//! hand-written evaluation's king-relative terms showed to carry most of shogi's
//! positional knowledge. A king's move changes those inputs of every piece, so its
//! sums come from the whole position.

use super::HandEval;
use super::board::{EMPTY, Position, base_kind, piece};
use super::tables::{DENSE, GOLD, KINDS, KING, PAWN};
use super::types::Move;
use crate::nnue::{Change, Features, Inputs, Network, Piece};
use std::sync::Arc;

/// The engine's shogi evaluation: the hand-written [`HandEval`] unless `EvalFile` names a
/// network.
pub type NetworkEval = crate::nnue::NetworkEval<Position, HandEval>;

/// Marks a piece code as a piece in hand (board codes stay below `0x40`).
const HAND: u8 = 0x80;
/// Board inputs per colour: fourteen kinds on 81 squares.
const BOARD_SIDE: usize = 14 * 81;
/// The most of each kind (pawn ..= gold, by index) one hand can hold.
const HAND_MAX: [usize; 8] = [0, 18, 4, 4, 4, 2, 2, 4];
/// Where each kind's hand inputs start within one colour's.
const HAND_START: [usize; 8] = [0, 0, 18, 22, 26, 30, 32, 34];
/// Hand inputs per colour.
const HAND_SIDE: usize = 38;
/// Where the king-relative inputs start: those from the view's own king, then those
/// from the other king.
const NEAR: usize = 2 * BOARD_SIDE + 2 * HAND_SIDE;
/// How far from a king, in files and in ranks, a piece has king-relative inputs. On
/// the same data a 7x7 window fitted the held-out positions worse (docs/nnue.md).
const REACH: i32 = 4;
/// The window's width.
const WIDTH: usize = 2 * REACH as usize + 1;
/// The window's cells.
const CELLS: usize = WIDTH * WIDTH;
/// King-relative inputs per king: two colours, fourteen kinds, the window centred on the
/// king (its own cell never used).
const NEAR_SIDE: usize = 2 * 14 * CELLS;
/// The context's mark of a king that is not on the board (a tsume problem's).
const NO_KING: u8 = u8::MAX;

/// A square's cshogi index mirrored from left to right (file f to file 10 - f).
fn mirror_dense(dense: usize) -> usize {
    (8 - dense / 9) * 9 + dense % 9
}

/// The king window's cell of the (view-oriented, cshogi-indexed) square `at`, laid out
/// as the board is (file by file), if `at` is within [`REACH`] of `king` and not the
/// king's own square.
#[inline]
fn window(at: usize, king: usize) -> Option<usize> {
    let files = (at / 9) as i32 - (king / 9) as i32;
    let ranks = (at % 9) as i32 - (king % 9) as i32;
    let near = files.abs() <= REACH && ranks.abs() <= REACH && (files, ranks) != (0, 0);
    near.then(|| (files + REACH) as usize * WIDTH + (ranks + REACH) as usize)
}

/// A window cell mirrored from left to right.
fn mirror_cell(cell: usize) -> usize {
    (WIDTH - 1 - cell / WIDTH) * WIDTH + cell % WIDTH
}

impl Features for Position {
    const INPUTS: usize = NEAR + 2 * NEAR_SIDE;
    /// The scale the matches chose (docs/nnue.md); f4's own games say flatter still.
    const ODDS_SCALE: f32 = 1000.0;

    /// Each colour's king square (cshogi index), or [`NO_KING`].
    type Context = [u8; 2];

    fn context(&self) -> [u8; 2] {
        [0, 1].map(|color| {
            self.king(color)
                .map_or(NO_KING, |sq| DENSE[usize::from(sq)])
        })
    }

    /// A piece on the board is its code and its mailbox square; a piece in hand is its
    /// code marked [`HAND`] and its number in the hand, from 1.
    #[inline]
    fn inputs(view: usize, (code, at): Piece, kings: [u8; 2]) -> Inputs {
        let theirs = usize::from((code >> 5) & 1 != view as u8);
        let kind = usize::from(code & 15);
        if code & HAND != 0 {
            let n = usize::from(at).clamp(1, HAND_MAX[kind]);
            return Inputs::one(2 * BOARD_SIDE + theirs * HAND_SIDE + HAND_START[kind] + n - 1);
        }
        let oriented = |dense: u8| {
            let dense = usize::from(dense);
            if view == 1 { 80 - dense } else { dense }
        };
        let square = oriented(DENSE[usize::from(at)]);
        let piece = theirs * 14 + kind - 1;
        let mut inputs = Inputs::one(piece * 81 + square);
        for (start, king) in [(NEAR, kings[view]), (NEAR + NEAR_SIDE, kings[view ^ 1])] {
            if king == NO_KING {
                continue;
            }
            if let Some(near) = window(square, oriented(king)) {
                inputs.push(start + piece * CELLS + near);
            }
        }
        inputs
    }

    fn occupants(&self) -> impl Iterator<Item = Piece> + '_ {
        let board = (0..2).flat_map(move |color| {
            (1..KINDS as u8).flat_map(move |kind| {
                self.list(color, kind)
                    .iter()
                    .map(move |&sq| (piece(color, kind), sq))
            })
        });
        let hands = (0..2).flat_map(move |color| {
            (PAWN..=GOLD).flat_map(move |kind| {
                (1..=self.hands[color][usize::from(kind)])
                    .map(move |n| (HAND | piece(color, kind), n))
            })
        });
        board.chain(hands)
    }

    #[inline]
    fn change(&self, mv: Move) -> Change {
        let mut change = Change::default();
        let us = self.side;
        let to = mv.to().0;
        if mv.is_drop() {
            let kind = mv.drop_kind();
            let n = self.hands[us][usize::from(kind)];
            change.remove((HAND | piece(us, kind), n));
            change.add((piece(us, kind), to));
            return change;
        }
        let from = mv.from().0;
        let code = self.board[usize::from(from)];
        if code & 15 == KING {
            change.change_context();
        }
        change.remove((code, from));
        let victim = self.board[usize::from(to)];
        if victim != EMPTY {
            change.remove((victim, to));
            let kind = base_kind(victim & 15);
            let n = self.hands[us][usize::from(kind)] + 1;
            change.add((HAND | piece(us, kind), n));
        }
        change.add((if mv.is_promotion() { code + 8 } else { code }, to));
        change
    }

    /// Shogi's rules know no left and right.
    fn mirrorable(&self) -> bool {
        true
    }

    fn mirrored(feature: usize) -> usize {
        if feature < 2 * BOARD_SIDE {
            let square = feature % 81;
            feature - square + mirror_dense(square)
        } else if feature < NEAR {
            feature
        } else {
            let cell = (feature - NEAR) % CELLS;
            feature - cell + mirror_cell(cell)
        }
    }

    /// Pawn 100 … rook 950, promoted minor pieces as a gold, the king nothing, and a
    /// piece in hand as on the board; where a piece stands from a king nothing.
    fn material(feature: usize) -> f32 {
        if feature >= NEAR {
            return 0.0;
        }
        const BOARD: [f32; KINDS] = [
            0.0, 100.0, 300.0, 350.0, 500.0, 800.0, 950.0, 550.0, 0.0, 550.0, 550.0, 550.0, 550.0,
            1050.0, 1200.0,
        ];
        let (theirs, value) = if feature < 2 * BOARD_SIDE {
            (feature >= BOARD_SIDE, BOARD[feature % BOARD_SIDE / 81 + 1])
        } else {
            let hand = feature - 2 * BOARD_SIDE;
            let start = hand % HAND_SIDE;
            let kind = (1..=7).rev().find(|&k| HAND_START[k] <= start).unwrap_or(1);
            (hand >= HAND_SIDE, BOARD[kind])
        };
        if theirs { -value } else { value }
    }

    fn built_in() -> Option<(&'static str, Arc<Network>)> {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{Evaluator, Game};
    use crate::nnue::tests::{
        check_search_keeps_accumulators, check_turned_positions_agree,
        check_updates_along_random_games, random_network, swap_case,
    };

    /// Every input of `pos` in `view`.
    fn inputs_of(pos: &Position, view: usize) -> Vec<usize> {
        let kings = pos.context();
        let mut inputs: Vec<usize> = pos
            .occupants()
            .flat_map(|p| Position::inputs(view, p, kings))
            .collect();
        inputs.sort_unstable();
        inputs
    }

    /// Every input is inside the network, and no two pieces of a position share one.
    /// Each piece on the board within four files and ranks of a king has one more.
    #[test]
    fn inputs_are_distinct_and_in_range() {
        let pos = Position::from_notation(
            "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
        )
        .unwrap();
        // Counted by hand: 30 pieces on the board and 10 in hand; 10 near sente's king
        // on 2i (itself not counted), 11 near gote's on 1b.
        for view in 0..2 {
            let mut inputs = inputs_of(&pos, view);
            assert_eq!(inputs.len(), 40 + 10 + 11);
            assert!(inputs.iter().all(|&f| f < Position::INPUTS));
            inputs.dedup();
            assert_eq!(inputs.len(), 40 + 10 + 11);
        }
    }

    /// A castle is the same to a network wherever on the board it is built: a gold
    /// diagonally in front of its king gives one input whether the king is on 2h or 6h,
    /// another on the king's other side or beside it.
    #[test]
    fn a_castle_is_the_same_input_wherever_it_stands() {
        let near = |sfen: &str| -> Vec<usize> {
            let pos = Position::from_notation(sfen).unwrap();
            inputs_of(&pos, 0)
                .into_iter()
                .filter(|&f| (NEAR..NEAR + NEAR_SIDE).contains(&f))
                .collect()
        };
        let right = near("4k4/9/9/9/9/9/6G2/7K1/9 b - 1");
        let centre = near("4k4/9/9/9/9/9/2G6/3K5/9 b - 1");
        let other_side = near("4k4/9/9/9/9/9/4G4/3K5/9 b - 1");
        let beside = near("4k4/9/9/9/9/9/9/2GK5/9 b - 1");
        assert_eq!(right.len(), 1);
        assert_eq!(right, centre);
        assert_ne!(right, other_side);
        assert_ne!(right, beside);
    }

    /// An SFEN's board as 9 ranks of 9 squares, each a piece (`+P`, `k`) or empty.
    fn squares(board: &str) -> Vec<Vec<String>> {
        board
            .split('/')
            .map(|rank| {
                let mut squares = Vec::new();
                let mut promoted = false;
                for c in rank.chars() {
                    match c {
                        '+' => promoted = true,
                        '1'..='9' => squares.extend((0..c as u8 - b'0').map(|_| String::new())),
                        _ => {
                            squares.push(format!("{}{c}", if promoted { "+" } else { "" }));
                            promoted = false;
                        }
                    }
                }
                squares
            })
            .collect()
    }

    /// The SFEN of a board given as [`squares`].
    fn board(squares: &[Vec<String>]) -> String {
        let ranks: Vec<String> = squares
            .iter()
            .map(|rank| {
                let mut text = String::new();
                let mut empty = 0;
                for sq in rank {
                    if sq.is_empty() {
                        empty += 1;
                        continue;
                    }
                    if empty > 0 {
                        text.push_str(&empty.to_string());
                        empty = 0;
                    }
                    text.push_str(sq);
                }
                if empty > 0 {
                    text.push_str(&empty.to_string());
                }
                text
            })
            .collect();
        ranks.join("/")
    }

    /// The position turned round with the colours swapped, the other side to move:
    /// the same position to the side to move.
    fn turned(sfen: &str) -> String {
        let fields: Vec<&str> = sfen.split(' ').collect();
        let mut squares = squares(fields[0]);
        squares.reverse();
        squares.iter_mut().for_each(|rank| rank.reverse());
        let squares: Vec<Vec<String>> = squares
            .iter()
            .map(|rank| rank.iter().map(|sq| swap_case(sq)).collect())
            .collect();
        let side = if fields[1] == "b" { "w" } else { "b" };
        let hands = if fields[2] == "-" {
            "-".to_string()
        } else {
            swap_case(fields[2])
        };
        format!("{} {side} {hands} {}", board(&squares), fields[3])
    }

    /// The position mirrored from left to right.
    fn mirrored(sfen: &str) -> String {
        let fields: Vec<&str> = sfen.split(' ').collect();
        let mut squares = squares(fields[0]);
        squares.iter_mut().for_each(|rank| rank.reverse());
        format!(
            "{} {} {} {}",
            board(&squares),
            fields[1],
            fields[2],
            fields[3]
        )
    }

    const MIDDLE_GAME: &str =
        "2s1+N2n1/l5k1l/1p1p1p2p/p3p1p2/Pn3sPp1/L1GP3G1/2PRPB1PP/1GB4G1/SPS1K2NL w r2p 92";

    #[test]
    fn both_views_of_a_turned_position_agree() {
        let network = random_network(2, Position::INPUTS, 256);
        check_turned_positions_agree::<Position>(&network, MIDDLE_GAME, &turned(MIDDLE_GAME));
    }

    /// Mirroring an input twice gives it back, and the mirror of a position's inputs
    /// are the inputs of the position with every rank read right to left.
    #[test]
    fn mirrored_inputs_are_those_of_the_mirrored_position() {
        let pos = Position::from_notation(MIDDLE_GAME).unwrap();
        let mirror = Position::from_notation(&mirrored(MIDDLE_GAME)).unwrap();
        for view in 0..2 {
            let sorted = |mut v: Vec<usize>| {
                v.sort_unstable();
                v
            };
            let mirrored: Vec<usize> = inputs_of(&pos, view)
                .into_iter()
                .map(Position::mirrored)
                .collect();
            assert_eq!(sorted(mirrored), inputs_of(&mirror, view));
        }
        assert!((0..Position::INPUTS).all(|f| Position::mirrored(Position::mirrored(f)) == f));
    }

    /// Starting material: a rook in hand and on the board is worth a rook, the other
    /// side's is worth as much against.
    #[test]
    fn material_counts_hands_and_boards_alike() {
        let value = |sfen: &str, view: usize| -> f32 {
            let pos = Position::from_notation(sfen).unwrap();
            inputs_of(&pos, view)
                .into_iter()
                .map(Position::material)
                .sum()
        };
        let start = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
        let rook_taken = "lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b R 1";
        assert_eq!(value(start, 0), 0.0);
        assert_eq!(value(rook_taken, 0), 950.0 * 2.0);
        assert_eq!(value(rook_taken, 1), -950.0 * 2.0);
    }

    /// Along random games full of captures, promotions and drops, the lazily updated
    /// sums give what a refresh from the whole position gives.
    #[test]
    fn updated_sums_equal_a_refresh_along_random_games() {
        let starts = [
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
            MIDDLE_GAME,
            "2s1+N1pn1/5k3/l+B1p1p2l/P2N2r2/4p2pG/L1GP2s2/pPPRP2PP/5P2G/SGSBK2NL b 4P 121",
        ];
        let special =
            |pos: &Position, m: Move| pos.is_capture(m) || m.is_promotion() || m.is_drop();
        let network = random_network(3, Position::INPUTS, 48);
        let checked = check_updates_along_random_games(&network, &starts, special, 4);
        assert!(checked > 1000, "{checked}");
    }

    #[test]
    fn a_search_with_null_moves_keeps_the_accumulators_right() {
        let pos = Position::from_notation(MIDDLE_GAME).unwrap();
        let network = random_network(5, Position::INPUTS, 128);
        check_search_keeps_accumulators(NetworkEval::with_network(network), &pos);
        // Without a network (the default): the hand-written evaluation, and no built-in
        // network to name.
        let plain = NetworkEval::default();
        assert!(plain.network().is_none());
        assert_eq!(plain.evaluate(&pos), HandEval.evaluate(&pos));
        assert!(plain.configured("EvalFile", "/no/such/file.nnue").is_err());
        assert!(
            plain
                .configured("EvalFile", "<empty>")
                .unwrap()
                .network()
                .is_none()
        );
    }
}

//! The evaluation weights (middlegame, endgame), in the order of `eval::terms`.
//!
//! Written by `qiyi tune` (docs/tuning.md) from the results of real games; change them by
//! tuning again, not by hand.

use super::eval::terms;
use crate::core::linear::Pair;

#[rustfmt::skip]
pub(super) static WEIGHTS: [Pair; terms::COUNT] = [
    // material
    Pair(69, 87), Pair(354, 313), Pair(370, 333), Pair(463, 527), Pair(1009, 964),
    // pst pawn
    Pair(0, 0), Pair(0, 0), Pair(0, 0), Pair(0, 0), Pair(-14, -2), Pair(-1, 13), Pair(9, 10), Pair(-15, 11),
    Pair(-8, 6), Pair(-2, 0), Pair(9, 16), Pair(4, 5), Pair(1, 0), Pair(13, 9), Pair(13, 12), Pair(29, -1),
    Pair(11, 3), Pair(8, 9), Pair(16, 20), Pair(26, 14), Pair(26, 23), Pair(27, 38), Pair(14, 23), Pair(26, 41),
    Pair(28, 45), Pair(32, 48), Pair(29, 57), Pair(32, 55), Pair(0, 0), Pair(0, 0), Pair(0, 0), Pair(0, 0),
    // pst knight
    Pair(-23, -20), Pair(-25, -16), Pair(-9, -7), Pair(-2, -2), Pair(-18, -13), Pair(-9, -8), Pair(-1, -3), Pair(0, 2),
    Pair(-15, -16), Pair(-7, 2), Pair(0, 5), Pair(20, 10), Pair(9, -4), Pair(3, 6), Pair(23, 12), Pair(10, 15),
    Pair(2, 1), Pair(15, 11), Pair(20, 16), Pair(14, 16), Pair(-9, -6), Pair(2, -4), Pair(7, 12), Pair(20, 13),
    Pair(-18, -14), Pair(-10, -7), Pair(-7, -3), Pair(3, 3), Pair(-33, -26), Pair(-18, -13), Pair(-11, -10), Pair(-4, -5),
    // pst bishop
    Pair(-2, -10), Pair(-9, -10), Pair(-14, -4), Pair(0, -1), Pair(-8, -5), Pair(15, -3), Pair(-2, 5), Pair(0, 4),
    Pair(8, -1), Pair(1, -5), Pair(8, -1), Pair(12, 6), Pair(-10, 2), Pair(11, 7), Pair(-3, 3), Pair(13, 8),
    Pair(-3, -1), Pair(9, 7), Pair(0, 4), Pair(26, 13), Pair(-5, -5), Pair(4, 2), Pair(14, 3), Pair(9, 7),
    Pair(-12, -9), Pair(4, -4), Pair(1, -2), Pair(0, 0), Pair(-2, -11), Pair(-8, -10), Pair(-5, -6), Pair(-2, -3),
    // pst rook
    Pair(-14, 3), Pair(5, 2), Pair(4, -1), Pair(13, -2), Pair(-8, -6), Pair(-10, -10), Pair(1, -1), Pair(10, 4),
    Pair(-13, -4), Pair(0, 1), Pair(-7, -8), Pair(3, 2), Pair(-9, -4), Pair(0, -2), Pair(-4, -4), Pair(8, 1),
    Pair(2, 0), Pair(0, -4), Pair(5, 3), Pair(11, 2), Pair(-5, 3), Pair(3, 0), Pair(4, -2), Pair(7, 3),
    Pair(18, 18), Pair(23, 15), Pair(21, 14), Pair(27, 18), Pair(5, 6), Pair(4, 8), Pair(2, 2), Pair(7, 1),
    // pst queen
    Pair(-15, -17), Pair(-6, -10), Pair(-6, -8), Pair(-4, -2), Pair(-2, -10), Pair(-2, -10), Pair(-5, -10), Pair(10, -1),
    Pair(1, -5), Pair(2, 0), Pair(-3, -2), Pair(3, 6), Pair(-11, -5), Pair(0, 4), Pair(1, 6), Pair(1, 11),
    Pair(-1, -1), Pair(-8, 2), Pair(-3, 6), Pair(2, 11), Pair(-1, -4), Pair(4, 0), Pair(-1, 3), Pair(1, 6),
    Pair(2, -8), Pair(-8, -7), Pair(1, 2), Pair(1, 5), Pair(-5, -13), Pair(-2, -7), Pair(-3, -5), Pair(-1, 0),
    // pst king
    Pair(18, -37), Pair(25, -13), Pair(1, -15), Pair(-7, -10), Pair(13, -18), Pair(21, -5), Pair(-18, 0), Pair(-25, -1),
    Pair(-49, -8), Pair(-51, -2), Pair(-50, 4), Pair(-50, 9), Pair(-61, -3), Pair(-64, 0), Pair(-61, 9), Pair(-62, 15),
    Pair(-71, -8), Pair(-70, 8), Pair(-70, 14), Pair(-69, 25), Pair(-80, -11), Pair(-79, 4), Pair(-78, 19), Pair(-80, 19),
    Pair(-90, -22), Pair(-88, -9), Pair(-88, 1), Pair(-90, 8), Pair(-100, -32), Pair(-100, -21), Pair(-100, -12), Pair(-100, -4),
    // mobility knight
    Pair(-16, -17), Pair(-14, -17), Pair(-3, -9), Pair(-2, 1), Pair(5, 6), Pair(11, 1), Pair(14, 9), Pair(11, 21),
    Pair(19, 18),
    // mobility bishop
    Pair(-31, -32), Pair(-30, -26), Pair(-10, -19), Pair(-2, -7), Pair(-3, -10), Pair(-1, 7), Pair(3, 5), Pair(-2, 10),
    Pair(7, 8), Pair(15, 15), Pair(21, 17), Pair(24, 20), Pair(29, 27), Pair(34, 33),
    // mobility rook
    Pair(-21, -28), Pair(-14, -24), Pair(-11, -21), Pair(-11, -18), Pair(-6, -11), Pair(-5, -2), Pair(0, -5), Pair(5, 3),
    Pair(0, 3), Pair(2, 12), Pair(7, 14), Pair(11, 22), Pair(8, 19), Pair(11, 23), Pair(16, 10),
    // mobility queen
    Pair(-13, -26), Pair(-15, -24), Pair(-7, -22), Pair(-8, -20), Pair(-7, -18), Pair(-9, -17), Pair(-3, -14), Pair(-4, -13),
    Pair(-3, -12), Pair(-7, -10), Pair(-2, -9), Pair(-2, -5), Pair(-2, -1), Pair(5, 0), Pair(-1, 5), Pair(-3, 8),
    Pair(-3, 4), Pair(7, 9), Pair(10, 15), Pair(7, 15), Pair(8, 15), Pair(9, 15), Pair(8, 17), Pair(10, 20),
    Pair(11, 22), Pair(12, 23), Pair(13, 26), Pair(14, 28),
    // passed
    Pair(0, 0), Pair(2, 12), Pair(7, 19), Pair(14, 36), Pair(26, 54), Pair(42, 84), Pair(61, 124), Pair(0, 0),
    // passed own king
    Pair(0, 0), Pair(6, -4), Pair(-6, 0), Pair(3, -13), Pair(4, -15), Pair(-1, -14), Pair(-6, -13), Pair(0, -12),
    // passed enemy king
    Pair(0, 0), Pair(-6, 2), Pair(-8, -1), Pair(-5, 10), Pair(-1, 15), Pair(1, 20), Pair(4, 20), Pair(0, 12),
    // passed blocked
    Pair(0, 0), Pair(-3, -4), Pair(-3, -7), Pair(-2, -8), Pair(-2, -22), Pair(2, -29), Pair(2, -37), Pair(0, 0),
    // pawn supported
    Pair(0, 0), Pair(0, 0), Pair(10, 9), Pair(7, 10), Pair(19, -1), Pair(7, 15), Pair(2, 6), Pair(0, 0),
    // pawn phalanx
    Pair(0, 0), Pair(10, -5), Pair(3, 1), Pair(19, -1), Pair(5, 14), Pair(2, 4), Pair(0, 1), Pair(0, 0),
    // doubled
    Pair(-7, -25),
    // isolated
    Pair(-9, -11),
    // rook open
    Pair(26, 4),
    // rook half open
    Pair(13, 11),
    // bishop pair
    Pair(30, 45),
    // threat by pawn
    Pair(39, 30),
    // threat by minor
    Pair(31, 17),
    // threat by rook
    Pair(26, 11),
    // shelter
    Pair(5, 5), Pair(0, -4), Pair(-1, -13), Pair(-26, 8),
    // king open file
    Pair(-13, -7),
    // king exposed
    Pair(-18, 3),
    // king attack
    Pair(0, -3), Pair(2, 2),
    // tempo
    Pair(14, 3),
];

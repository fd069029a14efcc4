//! The evaluation weights (middlegame, endgame), in the order of `eval::terms`.
//!
//! Written by `qiyi tune` (docs/tuning.md) from the results of real games; change them by
//! tuning again, not by hand.

use super::eval::{Pair, terms};

#[rustfmt::skip]
pub(super) const WEIGHTS: [Pair; terms::COUNT] = [
    // material
    Pair(75, 88), Pair(344, 311), Pair(357, 323), Pair(459, 522), Pair(1004, 964),
    // pst pawn
    Pair(0, 0), Pair(0, 0), Pair(0, 0), Pair(0, 0), Pair(-6, -3), Pair(-4, 9), Pair(6, 7), Pair(-7, 8),
    Pair(-1, -1), Pair(-5, 5), Pair(7, 8), Pair(14, 9), Pair(6, 8), Pair(5, 9), Pair(12, 10), Pair(24, 3),
    Pair(12, 9), Pair(10, 7), Pair(14, 20), Pair(23, 16), Pair(24, 30), Pair(24, 33), Pair(18, 28), Pair(24, 39),
    Pair(30, 47), Pair(31, 50), Pair(29, 51), Pair(30, 53), Pair(0, 0), Pair(0, 0), Pair(0, 0), Pair(0, 0),
    // pst knight
    Pair(-24, -20), Pair(-22, -14), Pair(-11, -9), Pair(-4, -2), Pair(-19, -14), Pair(-7, -7), Pair(-3, -3), Pair(-3, 3),
    Pair(-10, -11), Pair(0, -1), Pair(3, 7), Pair(14, 9), Pair(5, 0), Pair(4, 6), Pair(18, 14), Pair(10, 16),
    Pair(1, 0), Pair(11, 6), Pair(18, 11), Pair(19, 18), Pair(-10, -7), Pair(-3, -5), Pair(5, 8), Pair(15, 11),
    Pair(-19, -14), Pair(-11, -9), Pair(-5, -2), Pair(3, 3), Pair(-28, -22), Pair(-17, -15), Pair(-10, -8), Pair(-3, -3),
    // pst bishop
    Pair(-2, -11), Pair(-7, -8), Pair(-9, -1), Pair(0, 1), Pair(-7, -6), Pair(11, -2), Pair(-4, 1), Pair(1, -1),
    Pair(1, -2), Pair(0, -4), Pair(6, 0), Pair(10, 8), Pair(-3, -1), Pair(5, 4), Pair(0, 5), Pair(17, 9),
    Pair(-6, -3), Pair(7, 3), Pair(5, 5), Pair(19, 9), Pair(-4, -5), Pair(0, -1), Pair(12, 3), Pair(8, 7),
    Pair(-8, -8), Pair(4, -4), Pair(-1, -3), Pair(2, 1), Pair(-2, -10), Pair(-7, -8), Pair(-4, -5), Pair(-1, -2),
    // pst rook
    Pair(-13, 1), Pair(3, 0), Pair(3, 0), Pair(18, -6), Pair(-4, -2), Pair(-3, -3), Pair(2, -1), Pair(5, 1),
    Pair(-3, -2), Pair(-2, -1), Pair(-3, -4), Pair(2, -3), Pair(-7, -4), Pair(1, 1), Pair(-2, -2), Pair(6, 0),
    Pair(0, 0), Pair(-1, 0), Pair(1, 0), Pair(6, 0), Pair(-2, 2), Pair(0, 1), Pair(2, 0), Pair(5, 3),
    Pair(18, 16), Pair(21, 16), Pair(20, 15), Pair(26, 16), Pair(2, 1), Pair(1, 2), Pair(1, 2), Pair(5, 2),
    // pst queen
    Pair(-12, -16), Pair(-9, -10), Pair(-2, -6), Pair(-4, -2), Pair(-5, -10), Pair(-2, -7), Pair(-2, -5), Pair(13, 3),
    Pair(-4, -6), Pair(0, 0), Pair(-3, 1), Pair(3, 6), Pair(-7, -3), Pair(-1, 2), Pair(2, 5), Pair(5, 11),
    Pair(-2, -2), Pair(-2, 2), Pair(0, 6), Pair(3, 10), Pair(-4, -5), Pair(-1, -2), Pair(0, 3), Pair(1, 5),
    Pair(-4, -9), Pair(-5, -5), Pair(-1, 0), Pair(0, 3), Pair(-7, -13), Pair(-4, -9), Pair(-4, -6), Pair(-2, -2),
    // pst king
    Pair(14, -37), Pair(31, -15), Pair(4, -16), Pair(-5, -7), Pair(7, -21), Pair(11, -4), Pair(-10, -3), Pair(-24, 4),
    Pair(-50, -11), Pair(-50, -3), Pair(-48, 6), Pair(-50, 12), Pair(-59, -1), Pair(-61, 5), Pair(-60, 15), Pair(-61, 17),
    Pair(-70, -4), Pair(-70, 6), Pair(-70, 14), Pair(-69, 25), Pair(-80, -13), Pair(-80, 0), Pair(-79, 10), Pair(-80, 16),
    Pair(-90, -21), Pair(-89, -11), Pair(-90, -3), Pair(-90, 8), Pair(-100, -30), Pair(-100, -21), Pair(-100, -12), Pair(-100, -3),
    // mobility knight
    Pair(-21, -16), Pair(-17, -14), Pair(-6, -8), Pair(-1, -2), Pair(6, 3), Pair(12, 4), Pair(10, 11), Pair(12, 17),
    Pair(18, 18),
    // mobility bishop
    Pair(-31, -32), Pair(-32, -25), Pair(-17, -19), Pair(-7, -13), Pair(-7, -11), Pair(-1, 2), Pair(2, 2), Pair(0, 5),
    Pair(9, 8), Pair(16, 16), Pair(20, 19), Pair(25, 23), Pair(30, 29), Pair(35, 34),
    // mobility rook
    Pair(-21, -28), Pair(-15, -24), Pair(-10, -20), Pair(-8, -18), Pair(-5, -12), Pair(-7, -5), Pair(-2, -6), Pair(3, 0),
    Pair(4, 2), Pair(2, 7), Pair(5, 12), Pair(10, 19), Pair(10, 20), Pair(11, 25), Pair(13, 21),
    // mobility queen
    Pair(-14, -26), Pair(-13, -24), Pair(-8, -22), Pair(-9, -20), Pair(-9, -18), Pair(-11, -17), Pair(-5, -14), Pair(-4, -12),
    Pair(-4, -11), Pair(-5, -9), Pair(-4, -7), Pair(1, -3), Pair(1, -1), Pair(1, 0), Pair(-1, 2), Pair(-2, 5),
    Pair(-2, 4), Pair(6, 9), Pair(7, 12), Pair(8, 14), Pair(8, 15), Pair(8, 16), Pair(9, 18), Pair(10, 20),
    Pair(11, 22), Pair(12, 24), Pair(13, 26), Pair(14, 28),
    // passed
    Pair(0, 0), Pair(2, 10), Pair(7, 16), Pair(14, 31), Pair(25, 49), Pair(42, 81), Pair(60, 121), Pair(0, 0),
    // passed own king
    Pair(0, 0), Pair(3, -2), Pair(-7, -1), Pair(2, -10), Pair(3, -13), Pair(3, -13), Pair(1, -9), Pair(0, -12),
    // passed enemy king
    Pair(0, 0), Pair(-6, 1), Pair(-1, -1), Pair(-4, 9), Pair(3, 12), Pair(0, 16), Pair(4, 12), Pair(0, 12),
    // passed blocked
    Pair(0, 0), Pair(-2, -6), Pair(-1, -6), Pair(-1, -9), Pair(-1, -19), Pair(0, -29), Pair(0, -39), Pair(0, 0),
    // pawn supported
    Pair(0, 0), Pair(0, 0), Pair(5, 5), Pair(7, 4), Pair(7, -3), Pair(3, 7), Pair(1, 2), Pair(0, 0),
    // pawn phalanx
    Pair(0, 0), Pair(5, 1), Pair(-3, -1), Pair(12, -2), Pair(2, 5), Pair(1, 1), Pair(0, 0), Pair(0, 0),
    // doubled
    Pair(-9, -22),
    // isolated
    Pair(-11, -15),
    // rook open
    Pair(31, 6),
    // rook half open
    Pair(18, 14),
    // bishop pair
    Pair(33, 52),
    // threat by pawn
    Pair(40, 31),
    // threat by minor
    Pair(27, 17),
    // threat by rook
    Pair(22, 11),
    // shelter
    Pair(9, 7), Pair(-1, -4), Pair(0, -13), Pair(-24, 4),
    // king open file
    Pair(-12, -1),
    // king exposed
    Pair(-17, 4),
    // king attack
    Pair(0, 0), Pair(2, 0),
    // tempo
    Pair(12, 4),
];

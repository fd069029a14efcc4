//! The evaluation weights (middlegame, endgame), in the order of `eval::terms`.
//!
//! Written by `qiyi tune` (docs/tuning.md) from the results of real games; change them by
//! tuning again, not by hand.

use super::eval::{Pair, terms};

#[rustfmt::skip]
pub(super) const WEIGHTS: [Pair; terms::COUNT] = [
    // material
    Pair(82, 104), Pair(330, 300), Pair(350, 320), Pair(470, 530), Pair(1000, 960),
    // pst pawn
    Pair(0, 0), Pair(0, 0), Pair(0, 0), Pair(0, 0), Pair(0, 0), Pair(0, 0), Pair(0, 0), Pair(0, 0),
    Pair(0, 0), Pair(0, 0), Pair(0, 0), Pair(0, 0), Pair(0, 0), Pair(0, 0), Pair(0, 0), Pair(0, 0),
    Pair(2, 4), Pair(2, 4), Pair(2, 4), Pair(12, 4), Pair(12, 4), Pair(2, 4), Pair(2, 4), Pair(2, 4),
    Pair(6, 10), Pair(6, 10), Pair(6, 10), Pair(16, 10), Pair(16, 10), Pair(6, 10), Pair(6, 10), Pair(6, 10),
    Pair(14, 20), Pair(14, 20), Pair(14, 20), Pair(24, 20), Pair(24, 20), Pair(14, 20), Pair(14, 20), Pair(14, 20),
    Pair(22, 34), Pair(22, 34), Pair(22, 34), Pair(22, 34), Pair(22, 34), Pair(22, 34), Pair(22, 34), Pair(22, 34),
    Pair(30, 50), Pair(30, 50), Pair(30, 50), Pair(30, 50), Pair(30, 50), Pair(30, 50), Pair(30, 50), Pair(30, 50),
    Pair(0, 0), Pair(0, 0), Pair(0, 0), Pair(0, 0), Pair(0, 0), Pair(0, 0), Pair(0, 0), Pair(0, 0),
    // pst knight
    Pair(-24, -20), Pair(-17, -14), Pair(-10, -8), Pair(-3, -2), Pair(-3, -2), Pair(-10, -8), Pair(-17, -14), Pair(-24, -20),
    Pair(-17, -14), Pair(-10, -8), Pair(-3, -2), Pair(4, 4), Pair(4, 4), Pair(-3, -2), Pair(-10, -8), Pair(-17, -14),
    Pair(-10, -8), Pair(-3, -2), Pair(4, 4), Pair(11, 10), Pair(11, 10), Pair(4, 4), Pair(-3, -2), Pair(-10, -8),
    Pair(-3, -2), Pair(4, 4), Pair(11, 10), Pair(18, 16), Pair(18, 16), Pair(11, 10), Pair(4, 4), Pair(-3, -2),
    Pair(-3, -2), Pair(4, 4), Pair(11, 10), Pair(18, 16), Pair(18, 16), Pair(11, 10), Pair(4, 4), Pair(-3, -2),
    Pair(-10, -8), Pair(-3, -2), Pair(4, 4), Pair(11, 10), Pair(11, 10), Pair(4, 4), Pair(-3, -2), Pair(-10, -8),
    Pair(-17, -14), Pair(-10, -8), Pair(-3, -2), Pair(4, 4), Pair(4, 4), Pair(-3, -2), Pair(-10, -8), Pair(-17, -14),
    Pair(-24, -20), Pair(-17, -14), Pair(-10, -8), Pair(-3, -2), Pair(-3, -2), Pair(-10, -8), Pair(-17, -14), Pair(-24, -20),
    // pst bishop
    Pair(-2, -10), Pair(-7, -7), Pair(-4, -4), Pair(-1, -1), Pair(-1, -1), Pair(-4, -4), Pair(-7, -7), Pair(-2, -10),
    Pair(-7, -7), Pair(4, -4), Pair(-1, -1), Pair(2, 2), Pair(2, 2), Pair(-1, -1), Pair(4, -4), Pair(-7, -7),
    Pair(-4, -4), Pair(-1, -1), Pair(10, 2), Pair(5, 5), Pair(5, 5), Pair(10, 2), Pair(-1, -1), Pair(-4, -4),
    Pair(-1, -1), Pair(2, 2), Pair(5, 5), Pair(16, 8), Pair(16, 8), Pair(5, 5), Pair(2, 2), Pair(-1, -1),
    Pair(-1, -1), Pair(2, 2), Pair(5, 5), Pair(16, 8), Pair(16, 8), Pair(5, 5), Pair(2, 2), Pair(-1, -1),
    Pair(-4, -4), Pair(-1, -1), Pair(10, 2), Pair(5, 5), Pair(5, 5), Pair(10, 2), Pair(-1, -1), Pair(-4, -4),
    Pair(-7, -7), Pair(4, -4), Pair(-1, -1), Pair(2, 2), Pair(2, 2), Pair(-1, -1), Pair(4, -4), Pair(-7, -7),
    Pair(-2, -10), Pair(-7, -7), Pair(-4, -4), Pair(-1, -1), Pair(-1, -1), Pair(-4, -4), Pair(-7, -7), Pair(-2, -10),
    // pst rook
    Pair(0, 0), Pair(0, 0), Pair(0, 0), Pair(5, 0), Pair(5, 0), Pair(0, 0), Pair(0, 0), Pair(0, 0),
    Pair(0, 0), Pair(0, 0), Pair(0, 0), Pair(5, 0), Pair(5, 0), Pair(0, 0), Pair(0, 0), Pair(0, 0),
    Pair(0, 0), Pair(0, 0), Pair(0, 0), Pair(5, 0), Pair(5, 0), Pair(0, 0), Pair(0, 0), Pair(0, 0),
    Pair(0, 0), Pair(0, 0), Pair(0, 0), Pair(5, 0), Pair(5, 0), Pair(0, 0), Pair(0, 0), Pair(0, 0),
    Pair(0, 0), Pair(0, 0), Pair(0, 0), Pair(5, 0), Pair(5, 0), Pair(0, 0), Pair(0, 0), Pair(0, 0),
    Pair(0, 0), Pair(0, 0), Pair(0, 0), Pair(5, 0), Pair(5, 0), Pair(0, 0), Pair(0, 0), Pair(0, 0),
    Pair(20, 15), Pair(20, 15), Pair(20, 15), Pair(25, 15), Pair(25, 15), Pair(20, 15), Pair(20, 15), Pair(20, 15),
    Pair(0, 0), Pair(0, 0), Pair(0, 0), Pair(5, 0), Pair(5, 0), Pair(0, 0), Pair(0, 0), Pair(0, 0),
    // pst queen
    Pair(-8, -14), Pair(-6, -10), Pair(-4, -6), Pair(-2, -2), Pair(-2, -2), Pair(-4, -6), Pair(-6, -10), Pair(-8, -14),
    Pair(-6, -10), Pair(-4, -6), Pair(-2, -2), Pair(0, 2), Pair(0, 2), Pair(-2, -2), Pair(-4, -6), Pair(-6, -10),
    Pair(-4, -6), Pair(-2, -2), Pair(0, 2), Pair(2, 6), Pair(2, 6), Pair(0, 2), Pair(-2, -2), Pair(-4, -6),
    Pair(-2, -2), Pair(0, 2), Pair(2, 6), Pair(4, 10), Pair(4, 10), Pair(2, 6), Pair(0, 2), Pair(-2, -2),
    Pair(-2, -2), Pair(0, 2), Pair(2, 6), Pair(4, 10), Pair(4, 10), Pair(2, 6), Pair(0, 2), Pair(-2, -2),
    Pair(-4, -6), Pair(-2, -2), Pair(0, 2), Pair(2, 6), Pair(2, 6), Pair(0, 2), Pair(-2, -2), Pair(-4, -6),
    Pair(-6, -10), Pair(-4, -6), Pair(-2, -2), Pair(0, 2), Pair(0, 2), Pair(-2, -2), Pair(-4, -6), Pair(-6, -10),
    Pair(-8, -14), Pair(-6, -10), Pair(-4, -6), Pair(-2, -2), Pair(-2, -2), Pair(-4, -6), Pair(-6, -10), Pair(-8, -14),
    // pst king
    Pair(20, -30), Pair(30, -21), Pair(10, -12), Pair(0, -3), Pair(0, -3), Pair(10, -12), Pair(30, -21), Pair(20, -30),
    Pair(0, -21), Pair(0, -12), Pair(-10, -3), Pair(-20, 6), Pair(-20, 6), Pair(-10, -3), Pair(0, -12), Pair(0, -21),
    Pair(-50, -12), Pair(-50, -3), Pair(-50, 6), Pair(-50, 15), Pair(-50, 15), Pair(-50, 6), Pair(-50, -3), Pair(-50, -12),
    Pair(-60, -3), Pair(-60, 6), Pair(-60, 15), Pair(-60, 24), Pair(-60, 24), Pair(-60, 15), Pair(-60, 6), Pair(-60, -3),
    Pair(-70, -3), Pair(-70, 6), Pair(-70, 15), Pair(-70, 24), Pair(-70, 24), Pair(-70, 15), Pair(-70, 6), Pair(-70, -3),
    Pair(-80, -12), Pair(-80, -3), Pair(-80, 6), Pair(-80, 15), Pair(-80, 15), Pair(-80, 6), Pair(-80, -3), Pair(-80, -12),
    Pair(-90, -21), Pair(-90, -12), Pair(-90, -3), Pair(-90, 6), Pair(-90, 6), Pair(-90, -3), Pair(-90, -12), Pair(-90, -21),
    Pair(-100, -30), Pair(-100, -21), Pair(-100, -12), Pair(-100, -3), Pair(-100, -3), Pair(-100, -12), Pair(-100, -21), Pair(-100, -30),
    // mobility knight
    Pair(-16, -16), Pair(-12, -12), Pair(-8, -8), Pair(-4, -4), Pair(0, 0), Pair(4, 4), Pair(8, 8), Pair(12, 12),
    Pair(16, 16),
    // mobility bishop
    Pair(-30, -30), Pair(-25, -25), Pair(-20, -20), Pair(-15, -15), Pair(-10, -10), Pair(-5, -5), Pair(0, 0), Pair(5, 5),
    Pair(10, 10), Pair(15, 15), Pair(20, 20), Pair(25, 25), Pair(30, 30), Pair(35, 35),
    // mobility rook
    Pair(-14, -28), Pair(-12, -24), Pair(-10, -20), Pair(-8, -16), Pair(-6, -12), Pair(-4, -8), Pair(-2, -4), Pair(0, 0),
    Pair(2, 4), Pair(4, 8), Pair(6, 12), Pair(8, 16), Pair(10, 20), Pair(12, 24), Pair(14, 28),
    // mobility queen
    Pair(-13, -26), Pair(-12, -24), Pair(-11, -22), Pair(-10, -20), Pair(-9, -18), Pair(-8, -16), Pair(-7, -14), Pair(-6, -12),
    Pair(-5, -10), Pair(-4, -8), Pair(-3, -6), Pair(-2, -4), Pair(-1, -2), Pair(0, 0), Pair(1, 2), Pair(2, 4),
    Pair(3, 6), Pair(4, 8), Pair(5, 10), Pair(6, 12), Pair(7, 14), Pair(8, 16), Pair(9, 18), Pair(10, 20),
    Pair(11, 22), Pair(12, 24), Pair(13, 26), Pair(14, 28),
    // passed
    Pair(0, 0), Pair(4, 10), Pair(8, 16), Pair(14, 28), Pair(24, 48), Pair(40, 80), Pair(60, 120), Pair(0, 0),
    // passed own king
    Pair(0, 0), Pair(0, -2), Pair(0, -3), Pair(0, -5), Pair(0, -7), Pair(0, -8), Pair(0, -10), Pair(0, -12),
    // passed enemy king
    Pair(0, 0), Pair(0, 2), Pair(0, 3), Pair(0, 5), Pair(0, 7), Pair(0, 8), Pair(0, 10), Pair(0, 12),
    // passed blocked
    Pair(0, 0), Pair(0, -4), Pair(0, -6), Pair(0, -10), Pair(0, -16), Pair(0, -27), Pair(0, -40), Pair(0, 0),
    // pawn supported
    Pair(0, 0), Pair(0, 0), Pair(0, 0), Pair(0, 0), Pair(0, 0), Pair(0, 0), Pair(0, 0), Pair(0, 0),
    // pawn phalanx
    Pair(0, 0), Pair(0, 0), Pair(0, 0), Pair(0, 0), Pair(0, 0), Pair(0, 0), Pair(0, 0), Pair(0, 0),
    // doubled
    Pair(-10, -20),
    // isolated
    Pair(-12, -14),
    // rook open
    Pair(25, 10),
    // rook half open
    Pair(12, 6),
    // bishop pair
    Pair(30, 50),
    // threat by pawn
    Pair(40, 30),
    // threat by minor
    Pair(20, 15),
    // threat by rook
    Pair(20, 10),
    // shelter
    Pair(12, 0), Pair(6, 0), Pair(-8, 0), Pair(-16, 0),
    // king open file
    Pair(-12, 0),
    // king exposed
    Pair(-20, 0),
    // king attack
    Pair(0, 0), Pair(4, 0),
    // tempo
    Pair(12, 12),
];

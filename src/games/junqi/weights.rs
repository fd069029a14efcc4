//! The evaluation weights (middlegame, endgame), in the order of `eval::terms`.
//!
//! Written by `qiyi tune` (docs/tuning.md) from the results of real games; change them by
//! tuning again, not by hand.

use super::eval::terms;
use crate::core::linear::Pair;

#[rustfmt::skip]
pub(super) static WEIGHTS: [Pair; terms::COUNT] = [
    // officers, marshal to platoon leader
    Pair(1000, 1000), Pair(700, 700), Pair(420, 420), Pair(280, 280), Pair(190, 190), Pair(130, 130), Pair(90, 90), Pair(60, 60),
    // engineer
    Pair(60, 60),
    // engineer per enemy mine
    Pair(10, 10),
    // engineer per guarded enemy flag
    Pair(25, 25),
    // last engineer
    Pair(40, 40),
    // mine
    Pair(70, 70),
    // bomb
    Pair(120, 120),
    // bomb per thirtieth of the enemy's strongest
    Pair(10, 10),
    // seat
    Pair(1200, 1200),
    // alone
    Pair(1500, 1500),
    // mine beside the flag
    Pair(50, 50),
    // bomb beside the flag
    Pair(35, 35),
    // guard beside the flag
    Pair(15, 15),
    // open square beside the flag
    Pair(-20, -20),
    // rider onto an open rail beside the flag
    Pair(-120, -120),
    // guard beside the rail square before the flag
    Pair(20, 20),
    // public flag
    Pair(-40, -40),
    // intruders by row
    Pair(-4, -4), Pair(-8, -8), Pair(-14, -14), Pair(-22, -22), Pair(-40, -40), Pair(-60, -60),
    // intruders by row, flag public
    Pair(-6, -6), Pair(-12, -12), Pair(-21, -21), Pair(-33, -33), Pair(-60, -60), Pair(-90, -90),
    // camp, own area
    Pair(8, 8),
    // camp, enemy area
    Pair(30, 30),
    // rail mobility
    Pair(2, 2),
    // one, two, three movable pieces left
    Pair(-400, -400), Pair(-160, -160), Pair(-50, -50),
    // threats before the seat moves
    Pair(-16, -16),
    // threat the seat saves
    Pair(-2, -2),
    // second threat
    Pair(-8, -8),
];

//! The command-line tools beside the protocol loop, each a subcommand of `qiyi`: they
//! drive the engine's layers below and nothing below knows them.
//!
//! - `bench`: `qiyi bench`, the node-count signature and speed.
//! - `datagen`: `qiyi datagen`, training positions from self-play.
//! - `tune`: `qiyi tune`, the hand-written evaluations' weights fitted to games.
//! - `junqi_referee`: `qiyi referee`, Junqi matches between engines.
//! - `play`: `qiyi play`, the board in the browser (it drives engines with the referee's
//!   engine driver).
//!
//! `qiyi perft` and `qiyi solve` live with what they count and solve (`crate::perft`, the
//! FourSquare table), `qiyi train` with the networks (`crate::nnue::train`).

pub mod bench;
pub mod datagen;
pub mod junqi_referee;
pub mod play;
pub mod tune;

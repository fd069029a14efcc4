//! qiyi (棋艺): one engine for chess, shogi, Siguo Junqi and FourSquare.
//!
//! Every game implements [`core::Game`] (rules and notation) and [`core::Evaluator`]
//! (static judgement); the search, perft, bench and the protocol loop are written once
//! over those traits.

pub mod bench;
pub mod cli;
pub mod core;
pub mod datagen;
pub mod games;
pub mod nnue;
pub mod perft;
pub mod play;
pub mod protocol;
pub mod referee;
pub mod search;
pub mod tune;

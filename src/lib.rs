//! qiyi (棋艺): one engine for chess, shogi, Siguo Junqi and FourSquare.
//!
//! Every game implements [`core::Game`] (rules and notation) and [`core::Evaluator`]
//! (static judgement); the search, perft, bench and the protocol loop are written once
//! over those traits.
//!
//! The modules are layers that know only what lies below them: `core` ← `search` and
//! `nnue` ← `games` ← `protocol` and the command-line tools (`tools`: `bench`,
//! `datagen`, `tune`, `junqi_referee`, `play`; and `perft`) ← `cli` and `main`; `search` and `nnue` do not know each
//! other. What two layers share (the `Tunable` trait the evaluations implement and the
//! tuner reads, `MAX_PLY`) lives in `core`. Unit tests of `search` and `nnue` are the
//! one exception: they search real games' positions.

pub mod cli;
pub mod core;
pub mod games;
pub mod nnue;
pub mod perft;
pub mod protocol;
pub mod search;
pub mod tools;

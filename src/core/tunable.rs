//! What an evaluation whose weights `qiyi tune` fits provides, and the form of its weights
//! file. Here rather than in the tool because the evaluations implement it and check
//! their `weights.rs` against it: the games must not depend on the tuner, which only
//! reads what they declare.

use super::Game;
use super::linear::{Pair, Trace};
use std::fmt::Write as _;

/// A game whose evaluation `qiyi tune` can fit.
pub trait Tunable: Game {
    /// The weights the evaluation plays with, in the order of its terms.
    const WEIGHTS: &'static [Pair];
    /// The groups of terms, named, in order: the layout of the weights file.
    fn sections() -> Vec<(&'static str, usize)>;
    /// The position's term counts from the first player's view, and the middlegame and
    /// endgame shares of the blend (with any scaling the evaluation applies on top).
    fn trace(&self) -> (Trace, f64, f64);
}

/// [`Tunable::sections`] from where each group starts: a group runs to the next one's
/// start, the last to `count`.
pub fn sections_from_starts(
    starts: &[(&'static str, usize)],
    count: usize,
) -> Vec<(&'static str, usize)> {
    starts
        .iter()
        .enumerate()
        .map(|(i, &(name, start))| {
            let end = starts.get(i + 1).map_or(count, |s| s.1);
            (name, end - start)
        })
        .collect()
}

/// The weights as the floats the tuner fits.
pub fn as_floats(weights: &[Pair]) -> Vec<[f64; 2]> {
    weights
        .iter()
        .map(|p| [f64::from(p.0), f64::from(p.1)])
        .collect()
}

/// The source of the weights `G` plays with, as the tuner writes it: each game's tests
/// check that it is `weights.rs` byte for byte, so that a tuning run's output drops in
/// unchanged and the section names match the layout.
pub fn current_source<G: Tunable>() -> String {
    weights_source::<G>(&as_floats(G::WEIGHTS))
}

/// The weights as the Rust source of `weights.rs`.
pub fn weights_source<G: Tunable>(weights: &[[f64; 2]]) -> String {
    let mut out = String::from(
        "//! The evaluation weights (middlegame, endgame), in the order of `eval::terms`.\n\
         //!\n\
         //! Written by `qiyi tune` (docs/tuning.md) from the results of real games; change them by\n\
         //! tuning again, not by hand.\n\n\
         use super::eval::terms;\n\
         use crate::core::linear::Pair;\n\n\
         #[rustfmt::skip]\n\
         pub(super) static WEIGHTS: [Pair; terms::COUNT] = [\n",
    );
    let rounded: Vec<Pair> = weights
        .iter()
        .map(|w| Pair(w[0].round() as i32, w[1].round() as i32))
        .collect();
    let mut at = 0;
    for (name, len) in G::sections() {
        writeln!(out, "    // {name}").unwrap();
        for row in rounded[at..at + len].chunks(8) {
            let cells: Vec<String> = row
                .iter()
                .map(|p| format!("Pair({}, {}),", p.0, p.1))
                .collect();
            writeln!(out, "    {}", cells.join(" ")).unwrap();
        }
        at += len;
    }
    out.push_str("];\n");
    out
}

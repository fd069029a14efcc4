//! `qiyi bench`: a fixed-depth search of every bench position, printing nodes, time and
//! nodes/second. With one thread the total node count is deterministic, a signature that
//! changes exactly when the search's behaviour changes.

use crate::core::{Evaluator, Game};
use crate::games::{GameKind, WithGame};
use crate::search::{self, TranspositionTable};
use std::time::{Duration, Instant};

/// The bench positions of `kind`, one per line (`#` starts a comment), built into the
/// binary so that `qiyi bench` works from any directory.
pub fn positions(kind: GameKind) -> &'static str {
    match kind {
        GameKind::Chess => include_str!("../../bench_positions/chess.epd"),
        GameKind::Shogi => include_str!("../../bench_positions/shogi.sfen"),
        GameKind::Junqi => include_str!("../../bench_positions/junqi.txt"),
        GameKind::FourSquare => include_str!("../../bench_positions/foursquare.txt"),
    }
}

/// The depth `qiyi bench` searches `kind` to by default: a few seconds in all on one core.
pub fn default_depth(kind: GameKind) -> u32 {
    match kind {
        GameKind::FourSquare => 22,
        GameKind::Shogi => 5,
        GameKind::Junqi => 6,
        _ => 10,
    }
}

/// Totals of one bench run.
#[derive(Clone, Copy, Debug, Default)]
pub struct BenchTotals {
    pub nodes: u64,
    pub time: Duration,
}

impl BenchTotals {
    pub fn nps(&self) -> u64 {
        (self.nodes as f64 / self.time.as_secs_f64().max(1e-9)) as u64
    }
}

/// Bench settings; `depth` `None` means the game's default.
pub struct Bench {
    pub depth: Option<u32>,
    pub threads: usize,
    pub hash_mb: usize,
}

impl WithGame for Bench {
    type Output = anyhow::Result<BenchTotals>;

    fn run<G: Game, E: Evaluator<G>>(self, kind: GameKind, eval: E) -> Self::Output {
        let depth = self.depth.unwrap_or(default_depth(kind));
        let positions: Vec<&str> = positions(kind)
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .collect();
        let tt = TranspositionTable::try_new(self.hash_mb).map_err(anyhow::Error::msg)?;
        let mut totals = BenchTotals::default();
        for (i, text) in positions.iter().enumerate() {
            let pos = G::from_notation(text)
                .map_err(|e| anyhow::anyhow!("bench position {}: {e}", i + 1))?;
            tt.clear();
            let start = Instant::now();
            let result = search::search_to_depth(&pos, &eval, &tt, depth, self.threads);
            let time = start.elapsed();
            totals.nodes += result.nodes;
            totals.time += time;
            println!(
                "{} position {:>2}/{}  nodes {:>10}  time {:>6} ms  nps {:>9}  bestmove {}  score {}  [{}]",
                kind,
                i + 1,
                positions.len(),
                result.nodes,
                time.as_millis(),
                (result.nodes as f64 / time.as_secs_f64().max(1e-9)) as u64,
                result.best.map_or("(none)".into(), |mv| pos.move_name(mv)),
                result.score,
                text
            );
        }
        println!(
            "{kind} bench depth {depth} threads {}: nodes {} time {} ms nps {}",
            self.threads,
            totals.nodes,
            totals.time.as_millis(),
            totals.nps()
        );
        Ok(totals)
    }
}

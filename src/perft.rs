//! Perft: counting the leaves of the legal move tree, the standard correctness check of a
//! move generator. Leaves are bulk-counted (depth 1 returns the number of legal moves) and
//! the root moves are split across threads with rayon.

use crate::core::{Evaluator, Game, MoveList};
use crate::games::{GameKind, WithGame};
use rayon::prelude::*;
use std::time::Instant;

/// Leaf count of the legal move tree `depth` plies deep.
pub fn perft<G: Game>(pos: &mut G, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut moves = MoveList::new();
    pos.legal_moves(&mut moves);
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut nodes = 0;
    for &mv in moves.iter() {
        let undo = pos.make_move(mv);
        nodes += perft(pos, depth - 1);
        pos.unmake_move(mv, undo);
    }
    nodes
}

/// Per-root-move counts, in move generation order, counted on `threads` threads.
///
/// With threads, the work is split two plies deep (each root move's replies are counted
/// in parallel too), so that a few root moves with very different subtrees still keep
/// every core busy.
pub fn divide<G: Game>(pos: &G, depth: u32, threads: usize) -> Vec<(G::Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    let mut moves = MoveList::new();
    pos.legal_moves(&mut moves);
    let roots: Vec<G::Move> = moves.to_vec();
    if threads <= 1 {
        return roots
            .iter()
            .map(|&mv| {
                let mut child = pos.clone();
                child.make_move(mv);
                (mv, perft(&mut child, depth - 1))
            })
            .collect();
    }
    let count = |&mv: &G::Move| {
        let mut child = pos.clone();
        child.make_move(mv);
        if depth < 3 {
            return (mv, perft(&mut child, depth - 1));
        }
        let mut replies = MoveList::new();
        child.legal_moves(&mut replies);
        let nodes = replies
            .to_vec()
            .par_iter()
            .map(|&reply| {
                let mut grandchild = child.clone();
                grandchild.make_move(reply);
                perft(&mut grandchild, depth - 2)
            })
            .sum();
        (mv, nodes)
    };
    match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
        Ok(pool) => pool.install(|| roots.par_iter().map(count).collect()),
        Err(err) => {
            log::warn!("no thread pool ({err}); counting on one thread");
            roots.iter().map(count).collect()
        }
    }
}

/// `qiyi perft`: counts from a position given in the game's notation (or the start),
/// printing the per-move split when asked, then nodes, time and nodes/second.
pub struct PerftRun {
    pub position: Option<String>,
    pub depth: u32,
    pub divide: bool,
    pub threads: usize,
}

impl WithGame for PerftRun {
    type Output = anyhow::Result<u64>;

    fn run<G: Game, E: Evaluator<G>>(self, kind: GameKind, _eval: E) -> Self::Output {
        let pos = match &self.position {
            Some(text) => G::from_notation(text)?,
            None => G::start_position(),
        };
        let start = Instant::now();
        let counts = divide(&pos, self.depth, self.threads);
        let time = start.elapsed();
        let nodes: u64 = if self.depth == 0 {
            1
        } else {
            counts.iter().map(|(_, n)| n).sum()
        };
        if self.divide {
            for (mv, n) in &counts {
                println!("{}: {n}", G::move_name(*mv));
            }
            println!();
        }
        println!("Nodes searched: {nodes}");
        println!(
            "{kind} perft depth {} threads {}: nodes {nodes} time {} ms nps {}",
            self.depth,
            self.threads,
            time.as_millis(),
            (nodes as f64 / time.as_secs_f64().max(1e-9)) as u64
        );
        Ok(nodes)
    }
}

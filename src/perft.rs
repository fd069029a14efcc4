//! Perft: counting the leaves of the legal move tree, the standard correctness check of a
//! move generator. Leaves are bulk-counted (depth 1 returns the number of legal moves) and
//! the root moves are split across threads with rayon.

use crate::core::{Evaluator, Game, MoveList};
use crate::games::{GameKind, WithGame};
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// Leaf count of the legal move tree `depth` plies deep.
pub fn perft<G: Game>(pos: &mut G, depth: u32) -> u64 {
    count(pos, depth, &AtomicBool::new(false))
}

/// [`perft`] that gives up once `stop` is raised (the count is then meaningless). The
/// flag is read at every node above the leaves' parents: a load of a cache line nobody
/// writes, lost among the move generations.
fn count<G: Game>(pos: &mut G, depth: u32, stop: &AtomicBool) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut moves = MoveList::new();
    pos.legal_moves(&mut moves);
    if depth == 1 {
        return moves.len() as u64;
    }
    if stop.load(Ordering::Relaxed) {
        return 0;
    }
    let mut nodes = 0;
    for &mv in moves.iter() {
        let undo = pos.make_move(mv);
        nodes += count(pos, depth - 1, stop);
        pos.unmake_move(mv, undo);
    }
    nodes
}

/// Per-root-move counts, in move generation order, counted on `threads` threads.
pub fn divide<G: Game>(pos: &G, depth: u32, threads: usize) -> Vec<(G::Move, u64)> {
    match divide_until(pos, depth, threads, &AtomicBool::new(false)) {
        Ok(counts) => counts,
        Err(stopped) => unreachable!("nothing raises the flag: {stopped}"),
    }
}

/// How far a [`divide_until`] got before its stop flag was raised.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stopped {
    /// Root moves whose count had finished.
    pub counted: usize,
    /// Root moves in all.
    pub total: usize,
}

impl std::fmt::Display for Stopped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} of {} root moves counted", self.counted, self.total)
    }
}

/// [`divide`] that the protocol can interrupt: once `stop` is raised it returns
/// [`Stopped`] soon, and never a partial count.
///
/// With threads, the work is split two plies deep (each root move's replies are counted
/// in parallel too), so that a few root moves with very different subtrees still keep
/// every core busy.
pub fn divide_until<G: Game>(
    pos: &G,
    depth: u32,
    threads: usize,
    stop: &AtomicBool,
) -> Result<Vec<(G::Move, u64)>, Stopped> {
    if depth == 0 {
        return Ok(Vec::new());
    }
    let mut moves = MoveList::new();
    pos.legal_moves(&mut moves);
    let roots: Vec<G::Move> = moves.to_vec();
    // A root move's count is kept only if the flag was still down when it finished.
    let finished = |mv, nodes| (!stop.load(Ordering::SeqCst)).then_some((mv, nodes));
    let split = |&mv: &G::Move| {
        let mut child = pos.clone();
        child.make_move(mv);
        if threads <= 1 || depth < 3 {
            let nodes = count(&mut child, depth - 1, stop);
            return finished(mv, nodes);
        }
        let mut replies = MoveList::new();
        child.legal_moves(&mut replies);
        let nodes = replies
            .to_vec()
            .par_iter()
            .map(|&reply| {
                let mut grandchild = child.clone();
                grandchild.make_move(reply);
                count(&mut grandchild, depth - 2, stop)
            })
            .sum();
        finished(mv, nodes)
    };
    let counts: Vec<Option<(G::Move, u64)>> = if threads <= 1 {
        roots.iter().map(split).collect()
    } else {
        match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
            Ok(pool) => pool.install(|| roots.par_iter().map(split).collect()),
            Err(err) => {
                log::warn!("no thread pool ({err}); counting on one thread");
                roots.iter().map(split).collect()
            }
        }
    };
    let total = counts.len();
    let done: Vec<(G::Move, u64)> = counts.into_iter().flatten().collect();
    if done.len() < total {
        return Err(Stopped {
            counted: done.len(),
            total,
        });
    }
    Ok(done)
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
                println!("{}: {n}", pos.move_name(*mv));
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

//! Perft: counting the leaves of the legal move tree, the standard correctness check of a
//! move generator. Leaves are bulk-counted (depth 1 returns the number of legal moves) and
//! the root moves are split across threads with rayon.

use crate::core::{Game, MoveList};
use rayon::prelude::*;

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
pub fn divide<G: Game>(pos: &G, depth: u32, threads: usize) -> Vec<(G::Move, u64)> {
    let mut moves = MoveList::new();
    pos.legal_moves(&mut moves);
    let roots: Vec<G::Move> = moves.to_vec();
    if depth == 0 {
        return Vec::new();
    }
    let count = |&mv: &G::Move| {
        let mut child = pos.clone();
        child.make_move(mv);
        (mv, perft(&mut child, depth - 1))
    };
    if threads <= 1 {
        return roots.iter().map(count).collect();
    }
    match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
        Ok(pool) => pool.install(|| roots.par_iter().map(count).collect()),
        Err(err) => {
            log::warn!("no thread pool ({err}); counting on one thread");
            roots.iter().map(count).collect()
        }
    }
}

//! The search's incremental sums: each thread's [`Accumulators`] keeps one pair of sums
//! per ply of the current line, learns of each move's few added and removed inputs, and
//! brings the sums up to date only when a position is evaluated.

use super::features::MAX_PIECE_INPUTS;
use super::{Change, Features, Network, Piece, Sum};
use crate::core::{MAX_PLY, Score};
use std::marker::PhantomData;

/// One ply's sums, and whether they are up to date with the moves that led to it.
#[derive(Clone)]
struct Ply {
    sums: [Sum; 2],
    /// The move that led here; `None` for the root or a null move.
    change: Option<Change>,
    fresh: bool,
}

/// A search thread's sums, one per ply of the current line: a move pushes what it
/// changes, and the sums are brought up to date only when a position is evaluated, from
/// the nearest ply that is.
#[derive(Clone)]
pub struct Accumulators<G> {
    /// The plies of the current line are the first `len`; those beyond are kept for
    /// their room, so that a push writes a move's change and not a copy of the sums.
    plies: Vec<Ply>,
    len: usize,
    /// Room for the pieces of a position a refresh adds up, kept between refreshes.
    pieces: Vec<Piece>,
    game: PhantomData<fn(&G)>,
}

impl<G: Features> Accumulators<G> {
    pub fn new(network: &Network, root: &G) -> Accumulators<G> {
        let mut plies = Vec::with_capacity(MAX_PLY + 2);
        plies.push(Ply {
            sums: network.refresh(root),
            change: None,
            fresh: true,
        });
        Accumulators {
            plies,
            len: 1,
            pieces: Vec::new(),
            game: PhantomData,
        }
    }

    /// `mv` is about to be played in `pos` (`None`: a null move was played).
    #[inline]
    pub fn push(&mut self, pos: &G, mv: Option<G::Move>) {
        let change = mv.map(|mv| pos.change(mv));
        if self.len == self.plies.len() {
            self.plies.push(Ply {
                sums: [Sum::ZERO; 2],
                change,
                fresh: false,
            });
        } else {
            let ply = &mut self.plies[self.len];
            ply.change = change;
            ply.fresh = false;
        }
        self.len += 1;
    }

    #[inline]
    pub fn pop(&mut self) {
        if self.len > 1 {
            self.len -= 1;
        }
    }

    /// The score of `pos`, the position the pushed moves led to, from its side to move.
    pub fn evaluate(&mut self, network: &Network, pos: &G) -> Score {
        let last = self.len - 1;
        let mut start = last;
        let mut new_context = None;
        while !self.plies[start].fresh {
            let change = self.plies[start].change;
            if new_context.is_none() && change.is_some_and(|c| c.new_context) {
                new_context = Some(start);
            }
            start -= 1;
        }
        if let Some(ply) = new_context {
            // Refreshed at the move that changed the context, not here, so that the
            // other moves from there go on from it.
            self.refresh_ply(network, pos, ply);
            start = ply;
        }
        let context = pos.context();
        for i in start + 1..=last {
            let (before, after) = self.plies.split_at_mut(i);
            let (from, ply) = (&before[i - 1].sums, &mut after[0]);
            let change = ply.change.unwrap_or_default();
            let (removed, added) = (change.removed(), change.added());
            for (view, (to, from)) in ply.sums.iter_mut().zip(from).enumerate() {
                let features = |pieces: &[Piece]| {
                    let mut features = [0; 2 * MAX_PIECE_INPUTS];
                    let mut len = 0;
                    for &piece in pieces {
                        for f in G::inputs(view, piece, context) {
                            features[len] = f;
                            len += 1;
                        }
                    }
                    (features, len)
                };
                let ((out, outs), (into, ins)) = (features(removed), features(added));
                network.advance(from, to, &out[..outs], &into[..ins]);
            }
            ply.fresh = true;
        }
        network.output(&self.plies[last].sums, pos.view_to_move())
    }

    /// Brings `ply`'s sums up to date from the whole position there: the pieces of
    /// `pos`, the position at the line's end, with the moves since `ply` taken back
    /// (each puts back what it took away and takes away what it put down). No move
    /// after `ply` changes the context, so `pos`'s is `ply`'s.
    fn refresh_ply(&mut self, network: &Network, pos: &G, ply: usize) {
        self.pieces.clear();
        self.pieces.extend(pos.occupants());
        for later in self.plies[ply + 1..self.len].iter().rev() {
            let Some(change) = later.change else { continue };
            for added in change.added() {
                if let Some(at) = self.pieces.iter().position(|p| p == added) {
                    self.pieces.swap_remove(at);
                }
            }
            self.pieces.extend_from_slice(change.removed());
        }
        let ply = &mut self.plies[ply];
        let pieces = &self.pieces;
        ply.sums = network.sums::<G, _>(|| pieces.iter().copied(), pos.context());
        ply.fresh = true;
    }
}

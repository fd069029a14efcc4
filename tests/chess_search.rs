//! The chess search finds mates at their exact distance (mate distances checked with
//! Stockfish 15.1 when these positions were chosen), and its best move keeps the mate.

use qiyi::core::{Game, mate_in, mated_in};
use qiyi::games::chess::{HandEval, Position};
use qiyi::search::{self, SearchResult, TranspositionTable};

fn search(pos: &Position, depth: u32) -> SearchResult<<Position as Game>::Move> {
    search::search_to_depth(pos, &HandEval, &TranspositionTable::new(16), depth, 1)
}

#[test]
fn mates_are_found_at_their_exact_distance() {
    for (fen, moves) in [
        ("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", 1),
        (
            "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 10",
            2,
        ),
        (
            "r1b1kb1r/pppp1ppp/5q2/4n3/3KP3/2N3PN/PPP4P/R1BQ1B1R b kq - 0 1",
            3,
        ),
        ("2r3k1/p4p2/3Rp2p/1p2P1pK/8/1P4P1/P3Q2P/1q6 b - - 0 1", 3),
    ] {
        let pos = Position::from_notation(fen).unwrap();
        let plies = 2 * moves - 1;
        let result = search(&pos, plies as u32 + 4);
        assert_eq!(result.score, mate_in(plies), "{fen}");
        let mut after = pos.clone();
        after.make_move(result.best.unwrap());
        if plies > 1 {
            let reply = search(&after, plies as u32 + 3);
            assert_eq!(reply.score, mated_in(plies - 1), "{fen}: the mate slipped");
        } else {
            assert!(after.result().is_some(), "{fen}: not mate");
        }
    }
}

#[test]
fn one_thread_search_is_deterministic() {
    let pos = Position::from_notation(
        "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    )
    .unwrap();
    let a = search(&pos, 8);
    let b = search(&pos, 8);
    assert_eq!((a.nodes, a.best, a.score), (b.nodes, b.best, b.score));
}

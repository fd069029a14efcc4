//! The generic search with the shogi evaluation: mates are found at their exact distance
//! (distances checked with cshogi's df-pn), a perpetual check that would lose by
//! sennichite is avoided, a one-thread search is deterministic, and it beats a random
//! mover.

use qiyi::core::{Game, MoveList, Outcome, mate_in, mated_in};
use qiyi::games::shogi::{HandEval, Move, Position};
use qiyi::search::{self, SearchResult, TranspositionTable};

fn search(pos: &Position, depth: u32) -> SearchResult<Move> {
    search::search_to_depth(pos, &HandEval, &TranspositionTable::new(16), depth, 1)
}

fn play(pos: &mut Position, moves: &str) {
    for text in moves.split_whitespace() {
        let mv = pos.parse_move(text).unwrap();
        pos.make_move(mv);
    }
}

#[test]
fn mates_are_found_at_their_exact_distance() {
    for (sfen, plies) in [
        ("4k4/9/4P4/9/9/9/9/9/4K4 b G 1", 1),
        ("8l/7k1/6Ppp/9/9/9/9/9/9 b GS 1", 3),
        ("7nl/7k1/9/7pp/6N2/9/9/9/4K4 b GS 1", 5),
    ] {
        let pos = Position::from_notation(sfen).unwrap();
        let result = search(&pos, plies as u32 + 2);
        assert_eq!(result.score, mate_in(plies), "{sfen}");
        let mut after = pos.clone();
        after.make_move(result.best.unwrap());
        if plies > 1 {
            let reply = search(&after, plies as u32 + 1);
            assert_eq!(reply.score, mated_in(plies - 1), "{sfen}: the mate slipped");
        } else {
            assert_eq!(after.result(), Some(Outcome::Win(0)), "{sfen}: not mate");
        }
    }
}

#[test]
fn a_perpetual_check_that_would_lose_is_avoided() {
    // Sente's rook has checked the shuttling king on every move; one more round of checks
    // would bring the fourth occurrence, and sente, who gave every check, would lose.
    let mut pos = Position::from_notation("8k/9/9/9/9/9/9/9/4K2R1 b G 1").unwrap();
    play(
        &mut pos,
        "2i1i 1a2a 1i2i 2a1a 2i1i 1a2a 1i2i 2a1a 2i1i 1a2a",
    );
    let mut repeat = pos.clone();
    play(&mut repeat, "1i2i 2a1a");
    assert_eq!(repeat.outcome(), Some(Outcome::Win(1)));
    let result = search(&pos, 4);
    assert_ne!(result.best.map(|m| m.to_string()), Some("1i2i".to_string()));
    assert!(result.score > 0, "{}", result.score);
}

#[test]
fn one_thread_search_is_deterministic() {
    let pos = Position::from_notation(
        "ln1g3nl/1r1sg1k2/p1pppp1pp/6s2/1p5P1/2P6/PPSPPPP1P/2G3SR1/LN2KG1NL b Bbp 1",
    )
    .unwrap();
    let a = search(&pos, 5);
    let b = search(&pos, 5);
    assert_eq!((a.nodes, a.best, a.score), (b.nodes, b.best, b.score));
}

#[test]
fn beats_a_random_mover() {
    let depth = if cfg!(debug_assertions) { 2 } else { 3 };
    let mut seed = 0x2545_F491_4F6C_DD1D_u64;
    for game in 0..4 {
        let engine_side = game % 2;
        let mut pos = Position::start_position();
        let mut result = None;
        for _ in 0..400 {
            if let Some(outcome) = pos.result() {
                result = Some(outcome);
                break;
            }
            let mv = if pos.side_to_move() == engine_side {
                search(&pos, depth).best.unwrap()
            } else {
                let mut moves = MoveList::new();
                pos.legal_moves(&mut moves);
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                moves[(seed % moves.len() as u64) as usize]
            };
            pos.make_move(mv);
        }
        assert_eq!(
            result,
            Some(Outcome::Win(engine_side)),
            "game {game} ended {result:?} at {}",
            pos.to_notation()
        );
    }
}

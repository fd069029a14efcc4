//! FourSquare perft against a second, deliberately naive move generator.
//!
//! The reference below shares nothing with the engine: a `[[char; 4]; 4]` board, its own
//! FSN reading, and the capture rule transcribed line by line from the rules text. Two
//! independent readings of the rules agreeing on millions of leaves is the evidence that
//! the engine's bitboards and capture tables say what the rules say. The published counts
//! live in `tests/perft/foursquare.perft`, so they are data that both generators check.

use crate::common;

use qiyi::core::Game;
use qiyi::games::foursquare::Position;

/// `board[rank][file]`, rank 0 = rank 1 and file 0 = file a; 'b', 'w' or '.'.
type Board = [[char; 4]; 4];

#[derive(Clone, Copy)]
struct Naive {
    board: Board,
    to_move: char,
}

fn enemy_of(colour: char) -> char {
    if colour == 'b' { 'w' } else { 'b' }
}

/// Reads `<rows> <side> [ply]` without any help from the engine; the ply does not affect
/// the move tree when no ply limit is set.
fn naive_from_fsn(fsn: &str) -> Naive {
    let fields: Vec<&str> = fsn.split_whitespace().collect();
    let rows: Vec<&str> = fields[0].split('/').collect();
    assert_eq!(rows.len(), 4, "{fsn}");
    let mut board = [['.'; 4]; 4];
    for (i, row) in rows.iter().enumerate() {
        let rank = 3 - i;
        let mut file = 0;
        for ch in row.chars() {
            match ch {
                'b' | 'w' | '.' => {
                    board[rank][file] = ch;
                    file += 1;
                }
                digit => file += digit.to_digit(10).unwrap() as usize,
            }
        }
        assert_eq!(file, 4, "{fsn}");
    }
    let to_move = fields[1].chars().next().unwrap();
    Naive { board, to_move }
}

/// The point `steps` steps from (rank, file) along (d_rank, d_file), if on the board.
fn point(board: &Board, rank: usize, file: usize, d: (i32, i32), steps: i32) -> Option<char> {
    let r = rank as i32 + d.0 * steps;
    let f = file as i32 + d.1 * steps;
    if (0..4).contains(&r) && (0..4).contains(&f) {
        Some(board[r as usize][f as usize])
    } else {
        None
    }
}

/// "After a move, look only at the lines through the piece that just moved (p). In any
/// of the four directions d, the move captures when three consecutive adjacent points on
/// one straight line read own–own–enemy and the moved piece is one of the two own pieces:
/// pattern A: moved at p, own at p+d, enemy at p+2d; pattern B: own at p−d, moved at p,
/// enemy at p+d. ... the full order is: A with d=+file, A with d=−file, B with enemy at
/// +file, B with enemy at −file, then the same four for d=+rank, d=−rank."
fn naive_capture(board: &Board, rank: usize, file: usize) -> Option<(usize, usize)> {
    let own = Some(board[rank][file]);
    let enemy = Some(enemy_of(board[rank][file]));
    let at = |d: (i32, i32), steps: i32| {
        (
            (rank as i32 + d.0 * steps) as usize,
            (file as i32 + d.1 * steps) as usize,
        )
    };
    for plus in [(0, 1), (1, 0)] {
        let minus = (-plus.0, -plus.1);
        // A with d = +, then A with d = −.
        for d in [plus, minus] {
            if point(board, rank, file, d, 1) == own && point(board, rank, file, d, 2) == enemy {
                return Some(at(d, 2));
            }
        }
        // B with the enemy at +, then at −: own at p−d, enemy at p+d.
        for d in [plus, minus] {
            if point(board, rank, file, d, -1) == own && point(board, rank, file, d, 1) == enemy {
                return Some(at(d, 1));
            }
        }
    }
    None
}

/// "A side reduced to one piece loses at once."
fn naive_over(pos: &Naive) -> bool {
    ['b', 'w']
        .iter()
        .any(|&c| pos.board.iter().flatten().filter(|&&p| p == c).count() <= 1)
}

/// "The side to move moves one of its pieces one step up, down, left or right to an
/// adjacent empty point."
fn naive_children(pos: &Naive) -> Vec<Naive> {
    let mut children = Vec::new();
    if naive_over(pos) {
        return children;
    }
    for rank in 0..4 {
        for file in 0..4 {
            if pos.board[rank][file] != pos.to_move {
                continue;
            }
            for d in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                if point(&pos.board, rank, file, d, 1) != Some('.') {
                    continue;
                }
                let (r, f) = ((rank as i32 + d.0) as usize, (file as i32 + d.1) as usize);
                let mut board = pos.board;
                board[rank][file] = '.';
                board[r][f] = pos.to_move;
                if let Some((cr, cf)) = naive_capture(&board, r, f) {
                    board[cr][cf] = '.';
                }
                children.push(Naive {
                    board,
                    to_move: enemy_of(pos.to_move),
                });
            }
        }
    }
    children
}

fn naive_perft(pos: &Naive, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    naive_children(pos)
        .iter()
        .map(|child| naive_perft(child, depth - 1))
        .sum()
}

fn load_suites() -> Vec<common::PerftSuite> {
    common::load_perft_suite("foursquare")
}

#[test]
fn naive_rules_transcription_agrees_with_the_seed_examples() {
    // Example 1 of the seed, the horizontal-beats-vertical case and own–enemy–own, so that
    // the reference is itself checked before it checks the engine.
    let cases = [
        ("b2b/4/1wb1/w2w w", (1, 0), Some((1, 2))),
        ("1b1b/1w2/w1b1/1w1w w", (1, 1), Some((1, 2))),
        ("b2b/4/wb2/2ww w", (1, 2), None),
    ];
    for (fsn, (rank, file), expected) in cases {
        let mut pos = naive_from_fsn(fsn);
        // Play the step into (rank, file) from the point below it.
        pos.board[rank - 1][file] = '.';
        pos.board[rank][file] = pos.to_move;
        assert_eq!(naive_capture(&pos.board, rank, file), expected, "{fsn}");
    }
}

/// The deepest depth checked: the full suite takes a few seconds in a release build, but
/// an unoptimised build would spend minutes in the naive generator.
const DEPTH_LIMIT: u32 = if cfg!(debug_assertions) { 6 } else { 99 };

#[test]
fn perft_matches_the_naive_generator_and_the_data_file() {
    let suites = load_suites();
    assert!(
        suites.len() >= 8,
        "expected start positions and mid-game positions"
    );
    for suite in &suites {
        let mut pos = Position::from_notation(&suite.position).unwrap();
        let naive = naive_from_fsn(&suite.position);
        let counts: Vec<(u32, u64)> = suite
            .counts
            .iter()
            .copied()
            .filter(|&(depth, _)| depth <= DEPTH_LIMIT)
            .collect();
        for &(depth, expected) in &counts {
            assert_eq!(
                qiyi::perft::perft(&mut pos, depth),
                expected,
                "engine: {} depth {depth}",
                suite.position
            );
            assert_eq!(
                naive_perft(&naive, depth),
                expected,
                "naive: {} depth {depth}",
                suite.position
            );
        }
        let &(depth, expected) = counts.last().unwrap();
        let divided: u64 = qiyi::perft::divide(&pos, depth, 2)
            .iter()
            .map(|&(_, n)| n)
            .sum();
        assert_eq!(
            divided, expected,
            "divide on 2 threads: {} depth {depth}",
            suite.position
        );
    }
}

#[test]
fn start_position_is_searched_to_depth_8_from_either_side() {
    let suites = load_suites();
    for fsn in ["bbbb/4/4/wwww b", "bbbb/4/4/wwww w"] {
        let suite = suites
            .iter()
            .find(|s| s.position == fsn)
            .unwrap_or_else(|| panic!("{fsn} missing"));
        assert!(suite.counts.last().unwrap().0 >= 8, "{fsn}");
    }
}

//! The search checked on tiny games whose values brute force can establish: tic-tac-toe,
//! and a take-away game with three seats in two teams, where one team moves twice in a row.

use super::*;
use crate::core::{Evaluator, Game, MoveList, Outcome, mate_in};

#[derive(Clone)]
struct TicTacToe {
    cells: [u8; 9],
    to_move: u8,
}

const LINES: [[usize; 3]; 8] = [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [0, 3, 6],
    [1, 4, 7],
    [2, 5, 8],
    [0, 4, 8],
    [2, 4, 6],
];

impl TicTacToe {
    fn winner(&self) -> Option<u8> {
        LINES.iter().find_map(|l| {
            let c = self.cells[l[0]];
            (c != 0 && c == self.cells[l[1]] && c == self.cells[l[2]]).then(|| c - 1)
        })
    }
}

impl Game for TicTacToe {
    type Move = u8;
    type Undo = ();
    const MOVE_INDEX_SIZE: usize = 9;

    fn start_position() -> Self {
        TicTacToe {
            cells: [0; 9],
            to_move: 0,
        }
    }
    fn from_notation(text: &str) -> anyhow::Result<Self> {
        let mut pos = Self::start_position();
        for (i, c) in text.chars().enumerate().take(9) {
            pos.cells[i] = match c {
                'x' => 1,
                'o' => 2,
                _ => 0,
            };
        }
        let filled = pos.cells.iter().filter(|&&c| c != 0).count();
        pos.to_move = (filled % 2) as u8;
        Ok(pos)
    }
    fn to_notation(&self) -> String {
        self.cells
            .iter()
            .map(|c| ['.', 'x', 'o'][*c as usize])
            .collect()
    }
    fn display(&self) -> String {
        self.to_notation()
    }
    fn side_to_move(&self) -> usize {
        self.to_move as usize
    }
    fn hash(&self) -> u64 {
        self.cells.iter().fold(self.to_move as u64 + 7, |h, &c| {
            h.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ c as u64
        })
    }
    fn legal_moves(&self, moves: &mut MoveList<u8>) {
        if self.winner().is_some() {
            return;
        }
        for i in 0..9 {
            if self.cells[i] == 0 {
                moves.push(i as u8);
            }
        }
    }
    fn make_move(&mut self, mv: u8) {
        self.cells[mv as usize] = self.to_move + 1;
        self.to_move ^= 1;
    }
    fn unmake_move(&mut self, mv: u8, _: ()) {
        self.cells[mv as usize] = 0;
        self.to_move ^= 1;
    }
    fn outcome(&self) -> Option<Outcome> {
        self.winner().map(|w| Outcome::Win(w as usize))
    }
    fn no_move_outcome(&self) -> Outcome {
        Outcome::Draw
    }
    fn is_capture(&self, _: u8) -> bool {
        false
    }
    fn move_index(mv: u8) -> usize {
        mv as usize
    }
    fn move_name(&self, mv: u8) -> String {
        mv.to_string()
    }
}

struct Zero;
impl<G: Game> Evaluator<G> for Zero {
    type State = ();
    fn new_state(&self, _: &G) {}
    fn evaluate(&self, _: &G) -> Score {
        0
    }
}

/// An evaluation whose state is the line of moves from the root: each evaluation checks
/// that the line leads to the position evaluated, so a move the search makes or takes
/// back without telling the evaluation is caught.
#[derive(Default)]
struct LineCheck {
    evaluations: std::sync::atomic::AtomicU64,
}

impl Evaluator<TicTacToe> for LineCheck {
    type State = (TicTacToe, Vec<u8>);
    fn new_state(&self, root: &TicTacToe) -> Self::State {
        (root.clone(), Vec::new())
    }
    fn make(&self, (_, line): &mut Self::State, _: &TicTacToe, mv: Option<u8>) {
        line.push(mv.expect("tic-tac-toe has no null move"));
    }
    fn unmake(&self, (_, line): &mut Self::State) {
        line.pop();
    }
    fn evaluate(&self, _: &TicTacToe) -> Score {
        0
    }
    fn evaluate_with(&self, pos: &TicTacToe, (root, line): &mut Self::State) -> Score {
        let mut replayed = root.clone();
        for &mv in line.iter() {
            replayed.make_move(mv);
        }
        assert_eq!(replayed.cells, pos.cells, "line {line:?}");
        assert_eq!(replayed.to_move, pos.to_move, "line {line:?}");
        self.evaluations
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        0
    }
}

#[test]
fn each_thread_tells_its_evaluation_every_move_it_makes_and_takes_back() {
    let check = LineCheck::default();
    for threads in [1, 2] {
        let result = search_to_depth(
            &TicTacToe::start_position(),
            &check,
            &TranspositionTable::new(1),
            9,
            threads,
        );
        assert_eq!(result.score, 0, "a draw");
    }
    assert!(check.evaluations.into_inner() > 100);
}

/// Seats 0 and 1 form team 0, seat 2 is team 1; turn order 0, 1, 2. Each turn takes 1..=3
/// counters; whoever takes the last counter wins for their team.
#[derive(Clone)]
struct TeamNim {
    pile: u32,
    seat: usize,
}

impl Game for TeamNim {
    type Move = u32;
    type Undo = usize;
    const MOVE_INDEX_SIZE: usize = 4;

    fn start_position() -> Self {
        TeamNim { pile: 10, seat: 0 }
    }
    fn from_notation(_: &str) -> anyhow::Result<Self> {
        Ok(Self::start_position())
    }
    fn to_notation(&self) -> String {
        format!("{} {}", self.pile, self.seat)
    }
    fn display(&self) -> String {
        self.to_notation()
    }
    fn side_to_move(&self) -> usize {
        self.seat
    }
    fn team_of(&self, player: usize) -> usize {
        usize::from(player == 2)
    }
    fn hash(&self) -> u64 {
        (self.pile as u64) << 8 | self.seat as u64
    }
    fn legal_moves(&self, moves: &mut MoveList<u32>) {
        for take in 1..=self.pile.min(3) {
            moves.push(take);
        }
    }
    fn make_move(&mut self, mv: u32) -> usize {
        let seat = self.seat;
        self.pile -= mv;
        self.seat = (self.seat + 1) % 3;
        seat
    }
    fn unmake_move(&mut self, mv: u32, seat: usize) {
        self.pile += mv;
        self.seat = seat;
    }
    fn outcome(&self) -> Option<Outcome> {
        // The previous seat took the last counter.
        (self.pile == 0).then(|| Outcome::Win(self.team_of((self.seat + 2) % 3)))
    }
    fn no_move_outcome(&self) -> Outcome {
        Outcome::Draw
    }
    fn is_capture(&self, _: u32) -> bool {
        false
    }
    fn move_index(mv: u32) -> usize {
        mv as usize
    }
    fn move_name(&self, mv: u32) -> String {
        mv.to_string()
    }
}

/// Which team wins with perfect play, by plain minimax.
fn nim_winner(pos: &mut TeamNim) -> usize {
    if let Some(Outcome::Win(team)) = pos.outcome() {
        return team;
    }
    let team = pos.team_to_move();
    let mut moves = MoveList::new();
    pos.legal_moves(&mut moves);
    let mut result = 1 - team;
    for &mv in moves.iter() {
        let undo = pos.make_move(mv);
        let winner = nim_winner(pos);
        pos.unmake_move(mv, undo);
        if winner == team {
            result = team;
            break;
        }
    }
    result
}

fn run<G: Game>(pos: &G, depth: u32, threads: usize) -> SearchResult<G::Move> {
    search_to_depth(pos, &Zero, &TranspositionTable::new(1), depth, threads)
}

#[test]
fn tictactoe_is_a_draw_and_wins_are_found() {
    let start = TicTacToe::start_position();
    assert_eq!(run(&start, 9, 1).score, 0);
    // x to move wins at once on cell 2.
    let pos = TicTacToe::from_notation("xx.oo....").unwrap();
    let result = run(&pos, 5, 1);
    assert_eq!(result.best, Some(2));
    assert_eq!(result.score, mate_in(1));
    // o to move must block at 2 or lose; with the block it is a draw.
    let pos = TicTacToe::from_notation("xx..o....").unwrap();
    let result = run(&pos, 9, 2);
    assert_eq!((result.best, result.score), (Some(2), 0));
}

#[test]
fn team_search_matches_brute_force_with_consecutive_team_plies() {
    for pile in 1..=14 {
        for seat in 0..3 {
            let mut pos = TeamNim { pile, seat };
            let winner = nim_winner(&mut pos);
            for threads in [1, 2] {
                let result = run(&pos, pile + 2, threads);
                let we_win = winner == pos.team_to_move();
                assert_eq!(
                    result.score > 0,
                    we_win,
                    "pile {pile} seat {seat} threads {threads}: score {}",
                    result.score
                );
                let mut after = pos.clone();
                after.make_move(result.best.unwrap());
                if we_win {
                    assert_eq!(nim_winner(&mut after), winner, "pile {pile} seat {seat}");
                }
            }
        }
    }
}

#[test]
fn one_thread_search_is_deterministic() {
    let pos = TicTacToe::from_notation("x...o....").unwrap();
    let a = run(&pos, 7, 1);
    let b = run(&pos, 7, 1);
    assert_eq!((a.nodes, a.best, a.score), (b.nodes, b.best, b.score));
}

#[test]
fn multipv_reports_distinct_lines_and_stop_is_obeyed() {
    let pos = TicTacToe::start_position();
    let tt = TranspositionTable::new(1);
    let control = Control::default();
    control.reset(false, std::time::Instant::now());
    let limits = Limits {
        depth: Some(4),
        ..Limits::default()
    };
    let params = SearchParams {
        multipv: 3,
        ..SearchParams::default()
    };
    let mut seen = Vec::new();
    search(
        &pos,
        &Zero,
        &tt,
        &mut Vec::new(),
        &control,
        &limits,
        &params,
        &[],
        &mut |r| {
            if r.depth == 4 {
                seen.push((r.multipv, r.pv[0]));
            }
        },
    );
    assert_eq!(seen.iter().map(|s| s.0).collect::<Vec<_>>(), vec![1, 2, 3]);
    let mut firsts: Vec<u8> = seen.iter().map(|s| s.1).collect();
    firsts.dedup();
    assert_eq!(firsts.len(), 3);

    // A stopped infinite search returns at once with a legal move.
    control.reset(false, std::time::Instant::now());
    control.stop();
    let infinite = Limits {
        infinite: true,
        ..Limits::default()
    };
    let result = search(
        &pos,
        &Zero,
        &tt,
        &mut Vec::new(),
        &control,
        &infinite,
        &SearchParams::default(),
        &[],
        &mut |_| {},
    );
    assert!(result.best.is_some_and(|m| m < 9));
}

#[test]
fn a_cut_short_iteration_reports_its_new_best_move_as_a_lower_bound() {
    // Node limits that end the search inside an iteration, over the chess bench positions:
    // where the iteration had already replaced the best move, the last report says so
    // with a lower bound (unsearched moves may still be better).
    use crate::games::chess;
    let mut cut_short = 0;
    let positions = include_str!("../../bench_positions/chess.epd")
        .lines()
        .filter(|line| !line.trim().is_empty() && !line.starts_with('#'));
    for fen in positions {
        let pos = chess::Position::from_notation(fen).unwrap();
        for nodes in (1_000..9_000).step_by(1_000) {
            let tt = TranspositionTable::new(1);
            let limits = Limits {
                nodes: Some(nodes),
                ..Limits::default()
            };
            let mut reports = Vec::new();
            let result = search(
                &pos,
                &chess::HandEval,
                &tt,
                &mut Vec::new(),
                &Control::default(),
                &limits,
                &SearchParams::default(),
                &[],
                &mut |r: &Report<chess::Move>| reports.push((r.bound, r.pv[0])),
            );
            let (bound, first) = *reports.last().unwrap();
            assert_eq!(Some(first), result.best, "{fen}, {nodes} nodes");
            if bound.is_some() {
                assert_eq!(bound, Some(Bound::Lower), "{fen}, {nodes} nodes");
                cut_short += 1;
            }
        }
    }
    assert!(
        cut_short > 0,
        "no search was cut short after a new best move"
    );
}

/// A coin the player to move cannot see; calling it right wins for that player's team.
/// The belief draws heads and tails alike but weighs heads four times as much, so a
/// search that honours the weights calls heads with win probability 0.8.
#[derive(Clone)]
struct Coin {
    heads: bool,
    call: Option<bool>,
}

struct CoinBelief;

impl crate::core::Hidden<Coin> for CoinBelief {
    fn sample(&self, count: usize, seed: u64) -> Vec<(Coin, f64)> {
        (0..count as u64)
            .map(|i| {
                let heads = (seed + i).is_multiple_of(2);
                let world = Coin { heads, call: None };
                (world, if heads { 4.0 } else { 1.0 })
            })
            .collect()
    }
    fn knows_mover(&self) -> bool {
        true
    }
    fn display(&self) -> String {
        "a coin".to_string()
    }
}

impl Game for Coin {
    type Move = u8;
    type Undo = ();
    const MOVE_INDEX_SIZE: usize = 2;

    fn start_position() -> Self {
        Coin {
            heads: true,
            call: None,
        }
    }
    fn from_notation(_: &str) -> anyhow::Result<Self> {
        Ok(Self::start_position())
    }
    fn to_notation(&self) -> String {
        format!("{:?}", self.call)
    }
    fn display(&self) -> String {
        self.to_notation()
    }
    fn side_to_move(&self) -> usize {
        usize::from(self.call.is_some())
    }
    fn hash(&self) -> u64 {
        u64::from(self.heads) * 4 + self.call.map_or(0, |c| 1 + u64::from(c))
    }
    fn legal_moves(&self, moves: &mut MoveList<u8>) {
        if self.call.is_none() {
            moves.push(0);
            moves.push(1);
        }
    }
    fn make_move(&mut self, mv: u8) {
        self.call = Some(mv == 0);
    }
    fn unmake_move(&mut self, _: u8, _: ()) {
        self.call = None;
    }
    fn outcome(&self) -> Option<Outcome> {
        self.call
            .map(|c| Outcome::Win(if c == self.heads { 0 } else { 1 }))
    }
    fn no_move_outcome(&self) -> Outcome {
        Outcome::Draw
    }
    fn is_capture(&self, _: u8) -> bool {
        false
    }
    fn move_index(mv: u8) -> usize {
        mv as usize
    }
    fn move_name(&self, mv: u8) -> String {
        ["heads", "tails"][mv as usize].to_string()
    }
}

#[test]
fn worlds_are_weighed_by_the_belief() {
    let mut last = None;
    let result = search_worlds(
        &Coin::start_position(),
        &CoinBelief,
        &Zero,
        &TranspositionTable::new(1),
        &Control::default(),
        &Limits::default(),
        &SearchParams::default(),
        &[],
        &mut |r| last = r.worlds,
    );
    assert_eq!(result.best, Some(0), "heads, the likelier side");
    let report = last.expect("a report with the worlds");
    let probability = report.win_probability;
    assert!((probability - 0.8).abs() < 1e-9, "{probability}");
    assert_eq!(
        report.searched,
        worlds::UNTIMED_WORLDS,
        "untimed, the default number of worlds"
    );
}

/// A weakened search varies its moves from seed to seed, stops at its level's depth, and
/// never gives away a piece: with the queen attacked by a pawn, every choice at the
/// weakest level moves the queen. At full level it is the ordinary search.
#[test]
fn a_weakened_search_varies_but_never_hangs_a_piece() {
    use crate::games::chess;
    let pos = chess::Position::from_notation(
        "rnb1kbnr/pppp1ppp/8/4p3/4P1q1/5P2/PPPP2PP/RNBQKBNR b KQkq - 0 3",
    )
    .unwrap();
    let queen = pos.parse_move("g4h4").unwrap().from();
    let run = |skill, depth| {
        let params = SearchParams {
            skill,
            ..SearchParams::default()
        };
        let limits = Limits {
            depth,
            ..Limits::default()
        };
        search(
            &pos,
            &chess::HandEval,
            &TranspositionTable::new(1),
            &mut Vec::new(),
            &Control::default(),
            &limits,
            &params,
            &[],
            &mut |_| {},
        )
    };
    let mut chosen = std::collections::HashSet::new();
    for seed in 0..30 {
        let result = run(Skill::at_level(0.0, seed), None);
        let best = result.best.unwrap();
        assert_eq!(best.from(), queen, "seed {seed}: {best:?} leaves the queen");
        assert_eq!(result.depth, 1);
        chosen.insert(best);
    }
    assert!(chosen.len() > 1, "always {chosen:?}");
    assert_eq!(run(Skill::at_level(5.0, 1), None).depth, 6);
    assert_eq!(Skill::at_level(f64::from(FULL_SKILL), 1), None);
}

/// A fractional level (what `UCI_Elo` maps to) lies between its two whole neighbours:
/// level 4.5 searches 5 plies on some moves and 6 on others, and may err by 155 cp,
/// halfway between level 4's 160 and level 5's 150. Below 0 is level 0; full strength
/// and nonsense are no weakening at all.
#[test]
fn a_fractional_level_lies_between_its_neighbours() {
    let depths = |level| -> std::collections::BTreeSet<u32> {
        (0..200)
            .map(|seed| Skill::at_level(level, seed).unwrap().depth)
            .collect()
    };
    assert_eq!(depths(4.5), [5, 6].into());
    assert_eq!(depths(4.0), [5].into());
    assert_eq!(Skill::at_level(4.5, 7).unwrap().weakness, 155);
    assert_eq!(Skill::at_level(-3.0, 7).unwrap().depth, 1);
    assert_eq!(Skill::at_level(-3.0, 7).unwrap().weakness, 200);
    assert_eq!(Skill::at_level(19.99, 7).unwrap().weakness, 0);
    assert_eq!(Skill::at_level(25.0, 7), None);
    assert_eq!(Skill::at_level(f64::NAN, 7), None);
}

#[test]
fn histories_kept_from_one_search_order_the_next() {
    use crate::games::chess;
    let pos = chess::Position::from_notation(
        "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    )
    .unwrap();
    let limits = Limits {
        depth: Some(7),
        ..Limits::default()
    };
    let params = SearchParams {
        threads: 1,
        ..SearchParams::default()
    };
    let nodes = |histories: &mut Vec<Histories<chess::Position>>| {
        let tt = TranspositionTable::new(1);
        search(
            &pos,
            &chess::HandEval,
            &tt,
            histories,
            &Control::default(),
            &limits,
            &params,
            &[],
            &mut |_| {},
        )
        .nodes
    };
    let mut kept = Vec::new();
    let first = nodes(&mut kept);
    assert_eq!(kept.len(), 1, "one thread, one set of histories");
    assert_eq!(
        nodes(&mut Vec::new()),
        first,
        "fresh histories, the same search"
    );
    assert_ne!(
        nodes(&mut kept),
        first,
        "the second search starts from the first's"
    );
}

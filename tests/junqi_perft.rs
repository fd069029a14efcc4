//! Junqi perft against a second, deliberately simple move generator.
//!
//! The reference below shares nothing with the engine: it reads the board from
//! `tests/data/junqi_board.json` (stations, rail edges, step edges: the board listing of
//! `docs/rules/junqi.md` §2) with `serde_json`, reads the engine's full notation on its
//! own, rides rails by walking straight over the JSON graph (taking an arc only where the
//! straight way on would enter the centre), lets engineers breadth-first search the rail
//! graph, and transcribes combat, eliminations and the turn order from the rules text
//! (`docs/rules/junqi.md` §4 to §7). Positions are copied, never unmade. The counts live in `tests/perft/junqi.perft`; both generators must
//! reproduce them.

use crate::common;

use qiyi::core::{Game, MoveList};
use qiyi::games::junqi::Position;
use serde_json::Value;
use std::collections::{BTreeSet, HashMap, VecDeque};
use std::sync::OnceLock;

const SEATS: [char; 4] = ['S', 'E', 'N', 'W'];
const DRAW_PLIES: u32 = 50;

struct Graph {
    xy: Vec<(i32, i32)>,
    kind: Vec<String>,
    alg: Vec<String>,
    rail: Vec<Vec<usize>>,
    step: Vec<Vec<usize>>,
    arc: Vec<Option<usize>>,
    by_xy: HashMap<(i32, i32), usize>,
    /// (seat, slot) → station.
    by_slot: HashMap<(usize, usize), usize>,
}

/// The array `board[key]`.
fn list<'a>(board: &'a Value, key: &str) -> &'a [Value] {
    board[key]
        .as_array()
        .unwrap_or_else(|| panic!("{key} is an array"))
}

/// The string `item[key]`.
fn text<'a>(item: &'a Value, key: &str) -> &'a str {
    item[key]
        .as_str()
        .unwrap_or_else(|| panic!("{key} is a string in {item}"))
}

/// The integer `item[key]`.
fn int(item: &Value, key: &str) -> i64 {
    item[key]
        .as_i64()
        .unwrap_or_else(|| panic!("{key} is an integer in {item}"))
}

fn graph() -> &'static Graph {
    static GRAPH: OnceLock<Graph> = OnceLock::new();
    GRAPH.get_or_init(|| {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/junqi_board.json");
        let file = std::fs::read_to_string(path).expect("tests/data/junqi_board.json");
        let board: Value =
            serde_json::from_str(&file).expect("tests/data/junqi_board.json is valid JSON");
        let stations = list(&board, "stations");
        let n = stations.len();
        let mut g = Graph {
            xy: Vec::new(),
            kind: Vec::new(),
            alg: Vec::new(),
            rail: vec![Vec::new(); n],
            step: vec![Vec::new(); n],
            arc: vec![None; n],
            by_xy: HashMap::new(),
            by_slot: HashMap::new(),
        };
        let mut by_name = HashMap::new();
        for (i, station) in stations.iter().enumerate() {
            let coord = |key| i32::try_from(int(station, key)).unwrap();
            let xy = (coord("x"), coord("y"));
            g.xy.push(xy);
            g.kind.push(text(station, "kind").to_string());
            g.alg.push(text(station, "alg").to_string());
            g.by_xy.insert(xy, i);
            by_name.insert(text(station, "name").to_string(), i);
            // The nine centre stations have a null seat and belong to no one's slots.
            let seat = station["seat"].as_str();
            if let Some(seat) = SEATS
                .iter()
                .position(|c| seat == Some(c.to_string().as_str()))
            {
                let slot = usize::try_from(int(station, "index")).unwrap();
                g.by_slot.insert((seat, slot), i);
            }
        }
        let section = |key: &str| -> Vec<(usize, usize, Option<&str>)> {
            list(&board, key)
                .iter()
                .map(|edge| {
                    let a = by_name[text(edge, "a_name")];
                    let b = by_name[text(edge, "b_name")];
                    (a, b, edge["cls"].as_str())
                })
                .collect()
        };
        for (a, b, cls) in section("rail_edges") {
            g.rail[a].push(b);
            g.rail[b].push(a);
            if cls == Some("arc") {
                g.arc[a] = Some(b);
                g.arc[b] = Some(a);
            }
        }
        for (a, b, _) in section("step_edges") {
            g.step[a].push(b);
            g.step[b].push(a);
        }
        g
    })
}

#[derive(Clone)]
struct Naive {
    /// (seat, rank letter) per station.
    board: Vec<Option<(usize, char)>>,
    side: usize,
    out: [bool; 4],
    quiet: u32,
}

fn team(seat: usize) -> usize {
    seat % 2
}

/// Reads the engine's documented full notation.
fn naive_from(text: &str) -> Naive {
    let g = graph();
    let fields: Vec<&str> = text.split_whitespace().collect();
    let mut board = vec![None; g.xy.len()];
    for (area, spec) in fields[0].split('/').enumerate() {
        let chars: Vec<char> = spec.chars().collect();
        let (mut i, mut k) = (0, 0);
        while k < chars.len() {
            let c = chars[k];
            if c.is_ascii_digit() {
                let mut run = 0;
                while k < chars.len() && chars[k].is_ascii_digit() {
                    run = run * 10 + chars[k].to_digit(10).unwrap() as usize;
                    k += 1;
                }
                i += run;
                continue;
            }
            let (seat, rank) = if c.is_ascii_uppercase() {
                k += 1;
                (SEATS.iter().position(|&s| s == c).unwrap(), chars[k])
            } else {
                (area, c)
            };
            k += 1;
            let station = if area < 4 {
                g.by_slot[&(area, i)]
            } else {
                g.by_xy[&(-2 + 2 * (i as i32 % 3), -2 + 2 * (i as i32 / 3))]
            };
            board[station] = Some((seat, rank));
            i += 1;
        }
    }
    let side = SEATS
        .iter()
        .position(|&s| fields[1].starts_with(s))
        .unwrap();
    let mut out = [false; 4];
    for (seat, o) in out.iter_mut().enumerate() {
        *o = fields[4].contains(SEATS[seat]);
    }
    Naive {
        board,
        side,
        out,
        quiet: fields[2].parse().unwrap(),
    }
}

fn sign(v: i32) -> i32 {
    v.signum()
}

fn is_centre(g: &Graph, s: usize) -> bool {
    g.xy[s].0.abs() <= 2 && g.xy[s].1.abs() <= 2
}

/// The rail neighbour of `s` straight on in direction `d` (not via an arc).
fn straight(g: &Graph, s: usize, d: (i32, i32)) -> Option<usize> {
    g.rail[s].iter().copied().find(|&t| {
        Some(t) != g.arc[s] && (sign(g.xy[t].0 - g.xy[s].0), sign(g.xy[t].1 - g.xy[s].1)) == d
    })
}

/// After crossing an arc into `t`: onward, away from `t`'s centre neighbour.
fn after_arc(g: &Graph, t: usize) -> (i32, i32) {
    let c = g.rail[t]
        .iter()
        .copied()
        .find(|&c| is_centre(g, c))
        .unwrap();
    (sign(g.xy[t].0 - g.xy[c].0), sign(g.xy[t].1 - g.xy[c].1))
}

impl Naive {
    fn live(&self) -> usize {
        (0..4).filter(|&s| !self.out[s]).count()
    }

    fn team_out(&self, t: usize) -> bool {
        self.out[t] && self.out[t + 2]
    }

    fn over(&self) -> bool {
        self.quiet >= DRAW_PLIES || self.team_out(0) || self.team_out(1) || self.live() == 0
    }

    /// Can `seat` end a move on `s`? Empty, or an enemy not sheltered in a camp.
    fn can_land(&self, seat: usize, s: usize) -> bool {
        match self.board[s] {
            None => true,
            Some((owner, _)) => team(owner) != team(seat) && graph().kind[s] != "camp",
        }
    }

    /// Ride on from `s` (just entered) in direction `d`.
    fn walk(&self, seat: usize, mut s: usize, d: (i32, i32), to: &mut BTreeSet<usize>) {
        let g = graph();
        loop {
            if self.board[s].is_some() {
                if self.can_land(seat, s) {
                    to.insert(s);
                }
                return;
            }
            to.insert(s);
            let next = straight(g, s, d);
            if let (Some(t), Some(n)) = (g.arc[s], next)
                && is_centre(g, n)
            {
                self.walk(seat, t, after_arc(g, t), to);
            }
            match next {
                Some(n) => s = n,
                None => return,
            }
        }
    }

    fn moves(&self, seat: usize) -> Vec<(usize, usize)> {
        let g = graph();
        let mut list = Vec::new();
        for from in 0..g.xy.len() {
            let Some((owner, rank)) = self.board[from] else {
                continue;
            };
            if owner != seat || rank == 'l' || rank == 'j' || g.kind[from] == "hq" {
                continue;
            }
            let mut to = BTreeSet::new();
            for &n in &g.step[from] {
                if self.can_land(seat, n) {
                    to.insert(n);
                }
            }
            if g.kind[from] == "rail" && rank == 'i' {
                let mut seen = BTreeSet::from([from]);
                let mut queue = VecDeque::from([from]);
                while let Some(s) = queue.pop_front() {
                    for &n in &g.rail[s] {
                        if !seen.insert(n) {
                            continue;
                        }
                        if self.board[n].is_none() {
                            to.insert(n);
                            queue.push_back(n);
                        } else if self.can_land(seat, n) {
                            to.insert(n);
                        }
                    }
                }
            } else if g.kind[from] == "rail" {
                for &n in &g.rail[from] {
                    if Some(n) == g.arc[from] {
                        self.walk(seat, n, after_arc(g, n), &mut to);
                    } else {
                        let d = (
                            sign(g.xy[n].0 - g.xy[from].0),
                            sign(g.xy[n].1 - g.xy[from].1),
                        );
                        self.walk(seat, n, d, &mut to);
                    }
                }
            }
            list.extend(to.into_iter().map(|t| (from, t)));
        }
        list
    }

    fn eliminate(&mut self, seat: usize) -> bool {
        let mut any = false;
        for p in self.board.iter_mut() {
            if matches!(p, Some((owner, _)) if *owner == seat) {
                *p = None;
                any = true;
            }
        }
        self.out[seat] = true;
        any
    }

    fn play(&self, (from, to): (usize, usize)) -> Naive {
        let mut next = self.clone();
        let mover = self.side;
        let attacker = next.board[from].take().unwrap();
        let mut removed = false;
        match self.board[to] {
            None => next.board[to] = Some(attacker),
            Some(defender) => {
                removed = true;
                let power = |r: char| 9 - (r as i32 - 'a' as i32); // a = 9 .. i = 1
                let (a, d) = (attacker.1, defender.1);
                next.board[to] = if a == 'k' || d == 'k' {
                    None
                } else if d == 'l' {
                    Some(attacker)
                } else if d == 'j' {
                    if a == 'i' {
                        Some(attacker)
                    } else {
                        Some(defender)
                    }
                } else if a == d {
                    None
                } else if power(a) > power(d) {
                    Some(attacker)
                } else {
                    Some(defender)
                };
                if d == 'l' {
                    next.eliminate(defender.0);
                }
            }
        }
        next.quiet = if removed { 0 } else { next.quiet + 1 };
        // Turn order S → E → N → W, skipping the eliminated; turn-start eliminations.
        next.side = mover;
        if next.team_out(0) || next.team_out(1) {
            return next;
        }
        let mut seat = mover;
        loop {
            seat = (seat + 1) % 4;
            if next.out[seat] {
                continue;
            }
            if next.quiet >= DRAW_PLIES || !next.moves(seat).is_empty() {
                next.side = seat;
                return next;
            }
            if next.eliminate(seat) {
                next.quiet = 0;
            }
            if next.team_out(0) || next.team_out(1) {
                return next;
            }
        }
    }

    fn perft(&self, depth: u32) -> u64 {
        if self.over() {
            return 0;
        }
        let moves = self.moves(self.side);
        if depth == 1 {
            return moves.len() as u64;
        }
        moves.iter().map(|&mv| self.play(mv).perft(depth - 1)).sum()
    }
}

fn cases() -> Vec<common::PerftSuite> {
    common::load_perft_suite("junqi")
}

/// The two move sets of one node as names: engine first, naive second.
fn move_sets(pos: &Position, naive: &Naive) -> (BTreeSet<String>, BTreeSet<String>) {
    let g = graph();
    let mut moves = MoveList::new();
    pos.legal_moves(&mut moves);
    let engine = moves.iter().map(|&m| pos.move_name(m)).collect();
    let reference = if naive.over() {
        BTreeSet::new()
    } else {
        naive
            .moves(naive.side)
            .into_iter()
            .map(|(a, b)| format!("{}{}", g.alg[a], g.alg[b]))
            .collect()
    };
    (engine, reference)
}

/// Walks both trees in step to the first node where the move sets differ, for a
/// readable failure instead of two counts.
fn first_difference(pos: &Position, naive: &Naive, depth: u32) -> Option<String> {
    let (engine, reference) = move_sets(pos, naive);
    if engine != reference {
        let only_engine: Vec<_> = engine.difference(&reference).collect();
        let only_naive: Vec<_> = reference.difference(&engine).collect();
        return Some(format!(
            "at {}: engine only {only_engine:?}, naive only {only_naive:?}",
            pos.to_notation()
        ));
    }
    if depth <= 1 {
        return None;
    }
    let g = graph();
    for (a, b) in naive.moves(naive.side) {
        let mut child = pos.clone();
        child.make_move(
            pos.parse_move(&format!("{}{}", g.alg[a], g.alg[b]))
                .unwrap(),
        );
        if let Some(diff) = first_difference(&child, &naive.play((a, b)), depth - 1) {
            return Some(format!("{}{} {diff}", g.alg[a], g.alg[b]));
        }
    }
    None
}

/// The engine's and the naive generator's root moves are the same set.
#[test]
fn root_moves_agree() {
    let g = graph();
    for case in cases() {
        let pos = Position::from_notation(&case.position).unwrap();
        let naive = naive_from(&case.position);
        let mut moves = MoveList::new();
        pos.legal_moves(&mut moves);
        let engine: BTreeSet<String> = moves.iter().map(|&m| pos.move_name(m)).collect();
        let reference: BTreeSet<String> = if naive.over() {
            BTreeSet::new()
        } else {
            naive
                .moves(naive.side)
                .into_iter()
                .map(|(a, b)| format!("{}{}", g.alg[a], g.alg[b]))
                .collect()
        };
        assert_eq!(engine, reference, "{}", case.position);
    }
}

/// Both generators reproduce the recorded counts (the naive one up to depth 3, and 4 where
/// that stays under three million leaves).
#[test]
fn perft_matches_the_data_and_the_naive_generator() {
    for case in cases() {
        let pos = Position::from_notation(&case.position).unwrap();
        let naive = naive_from(&case.position);
        for &(depth, expected) in &case.counts {
            let engine: u64 = qiyi::perft::divide(&pos, depth, 2)
                .iter()
                .map(|&(_, n)| n)
                .sum();
            assert_eq!(engine, expected, "engine D{depth} {}", case.position);
            let naive_depth = depth <= 3 || (depth == 4 && expected <= 3_000_000);
            if naive_depth && naive.perft(depth) != expected {
                let diff = first_difference(&pos, &naive, depth);
                panic!("naive D{depth} differs on {}: {diff:?}", case.position);
            }
        }
    }
}

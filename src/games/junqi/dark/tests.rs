//! The dark game checked against open games whose lineups are all known: random games
//! replayed from every seat's view (inference never excludes the truth, the true world is
//! the real position), constructed games where the facts are strong, a battery of
//! impossible records, the sampler against exact enumeration, and sampled worlds replayed
//! through the open game's referee.

use super::*;
use crate::core::{Game, MoveList};
use crate::games::junqi::board::{self, SEAT_NAMES};
use crate::games::junqi::position::{
    BOMB, ENGINEER, FLAG, MARSHAL, MINE, Move, Position, RANKS, seat_of,
};
use crate::games::junqi::turn::Turns;
use crate::games::junqi::{Clash, DEFAULT_LINEUP, Entry, Ply, deploy};
use evidence::Families;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use std::collections::HashMap;
use std::ops::Add;

/// Games in the random replay test (fewer in a debug build, which is much slower).
const GAMES: usize = if cfg!(debug_assertions) { 16 } else { 320 };

/// A game played in the open with the referee's record.
struct Played {
    lineups: [String; 4],
    first: usize,
    rules: Rules,
    record: Vec<Entry>,
    /// After each ply with its `out:` tokens (or a forfeit): record length, position.
    after: Vec<(usize, Position)>,
}

impl Played {
    /// The setup as a seat sees it: the lineups of `known` (bit per seat), `-` for others.
    fn setup(&self, known: u8) -> String {
        let seats: Vec<String> = (0..4)
            .map(|s| {
                let lineup = if known & (1 << s) != 0 {
                    self.lineups[s].as_str()
                } else {
                    "-"
                };
                format!("{}:{lineup}", SEAT_NAMES[s])
            })
            .collect();
        format!("setup {} first {}", seats.join(" "), SEAT_NAMES[self.first])
    }

    /// Every piece's true rank.
    fn truth(&self) -> Assignment {
        let mut ranks = [u8::MAX; PIECES];
        for (seat, lineup) in self.lineups.iter().enumerate() {
            for (k, letter) in lineup.bytes().enumerate() {
                ranks[PieceId::new(seat, k).index()] = letter - b'a';
            }
        }
        ranks
    }

    fn start(&self) -> Position {
        let mut pos = Position::from_notation(&self.setup(0b1111)).unwrap();
        pos.rules = self.rules;
        pos
    }
}

/// A referee's forfeit in the open game (an `out:` no ply implies), with the last mover
/// the information state keeps.
fn forfeit(pos: &mut Position, seat: usize, last_mover: usize) {
    if !pos.is_out(seat) {
        Turns::forfeit(pos, seat, last_mover);
    }
}

/// A random game: random lineups and first seat, rule options, moves (attacks preferred
/// half the time), passes, timeouts, resignations and the odd forfeit.
fn random_game(rng: &mut StdRng, max_plies: usize, rules: Option<Rules>) -> Played {
    let lineups = [(); 4].map(|()| deploy(rng));
    let rules = rules.unwrap_or_else(|| Rules {
        draw_plies: [50, 0, 14][rng.random_range(0..3)],
        max_passes: [5, 2, 3][rng.random_range(0..3)],
    });
    let mut game = Played {
        lineups,
        first: rng.random_range(0..4),
        rules,
        record: Vec::new(),
        after: Vec::new(),
    };
    let mut pos = game.start();
    let mut last_mover = (game.first + 3) % 4;
    for _ in 0..max_plies {
        if pos.outcome().is_some() {
            break;
        }
        if rng.random_range(0..400) == 0 {
            let live: Vec<usize> = (0..4).filter(|&s| !pos.is_out(s)).collect();
            let seat = live[rng.random_range(0..live.len())];
            game.record.push(Entry::Out(seat));
            forfeit(&mut pos, seat, last_mover);
            game.after.push((game.record.len(), pos.clone()));
            continue;
        }
        let mut moves = MoveList::new();
        pos.legal_moves(&mut moves);
        assert!(!moves.is_empty(), "a live game has a move");
        let mv = match rng.random_range(0..1000) {
            0..15 => Move::PASS,
            15..25 => Move::TIMEOUT,
            25..28 => Move::RESIGN,
            _ => {
                let attacks: Vec<Move> = moves
                    .iter()
                    .copied()
                    .filter(|&m| pos.is_attack(m))
                    .collect();
                if !attacks.is_empty() && rng.random_bool(0.5) {
                    attacks[rng.random_range(0..attacks.len())]
                } else {
                    moves[rng.random_range(0..moves.len())]
                }
            }
        };
        last_mover = pos.side_to_move();
        game.record.extend(pos.record(mv));
        pos.make_move(mv);
        game.after.push((game.record.len(), pos.clone()));
    }
    game
}

/// Every view: the open game, each team's double-open view, each seat's dark view.
const VIEWS: [(Info, u8); 7] = [
    (Info::Open, 0b1111),
    (Info::DoubleOpen, 0b0101),
    (Info::DoubleOpen, 0b1010),
    (Info::Dark, 0b0001),
    (Info::Dark, 0b0010),
    (Info::Dark, 0b0100),
    (Info::Dark, 0b1000),
];

/// A move list as sorted `(from, to)` pairs.
fn move_set(fill: impl Fn(&mut MoveList<Move>)) -> Vec<(u8, u8)> {
    let mut moves = MoveList::new();
    fill(&mut moves);
    let mut set: Vec<(u8, u8)> = moves.iter().map(|m| (m.from, m.to)).collect();
    set.sort_unstable();
    set
}

/// Whether two positions are the same: board, counters, side, eliminations, public flags
/// and passes (the hash covers all but the no-combat counter).
fn same(a: &Position, b: &Position) -> bool {
    a.board == b.board && a.hash() == b.hash() && a.quiet_plies() == b.quiet_plies()
}

/// What must hold of a state built from a true game: every domain holds the true rank,
/// every hard fact admits the truth, the true world is the real position, and the seat to
/// move, when its lineup was given, has the real position's moves.
fn check_truth(
    state: &InfoState,
    truth: &Assignment,
    pos: &Position,
    context: &dyn Fn() -> String,
) {
    for (i, &rank) in truth.iter().enumerate() {
        let p = PieceId(i as u8);
        if state.exists(p) && !state.domain(p).contains(rank) {
            panic!(
                "{}: {p} is {} but its domain is {}",
                context(),
                char::from(b'a' + rank),
                state.domain(p)
            );
        }
    }
    assert!(
        state.belief().admits(truth),
        "{}: the truth is not admitted",
        context()
    );
    let world = state.world(truth);
    if !same(&world, pos) {
        assert_eq!(world.to_notation(), pos.to_notation(), "{}", context());
        panic!("{}: hashes differ", context());
    }
    assert_eq!(state.is_over(), pos.outcome().is_some(), "{}", context());
    if state.is_known(state.side_to_move()) {
        assert_eq!(
            move_set(|m| state.legal_moves(m)),
            move_set(|m| pos.legal_moves(m)),
            "{}",
            context()
        );
    }
    if state.info() == Info::Open {
        let open = state.open_position().expect("open: every rank known");
        assert!(same(&open, pos), "{}", context());
    }
}

#[test]
fn inference_never_excludes_the_truth_in_random_games() {
    let mut rng = StdRng::seed_from_u64(0x6461_726b); // "dark"
    let mut facts = 0usize;
    let mut turn_start = 0;
    for game_no in 0..GAMES {
        let game = random_game(&mut rng, 200, None);
        let truth = game.truth();
        turn_start += game
            .record
            .windows(2)
            .filter(|w| matches!(w, [Entry::Ply(ply), Entry::Out(_)] if !ply.mv.is_special()))
            .count();
        for (info, known) in VIEWS {
            let setup = game.setup(known);
            let mut state = InfoState::new(&setup, &[], game.rules, info).unwrap();
            check_truth(&state, &truth, &game.start(), &|| {
                format!("game {game_no} {info} {setup}")
            });
            let mut done = 0;
            for (ply, (end, pos)) in game.after.iter().enumerate() {
                let tokens = &game.record[done..*end];
                let context = || {
                    let text: Vec<String> =
                        game.record[..*end].iter().map(Entry::to_string).collect();
                    format!(
                        "game {game_no} {info} view {known:04b} after ply {}\n{setup}\nmoves {}",
                        ply + 1,
                        text.join(" ")
                    )
                };
                state
                    .extend(tokens)
                    .unwrap_or_else(|e| panic!("{}\n{e}", context()));
                done = *end;
                check_truth(&state, &truth, pos, &context);
            }
            facts += (0..PIECES)
                .map(|i| PieceId(i as u8))
                .filter(|&p| state.exists(p) && !state.is_known(p.seat()))
                .map(|p| (Domain::deployable(p.slot()).len() - state.domain(p).len()) as usize)
                .sum::<usize>();
            // Built in one go, the state is the same; only a forfeit right after a ply
            // reads, in one go, like an elimination the ply caused, and then a missing
            // `+sq` of that seat says less.
            let whole = InfoState::new(&setup, &game.record, game.rules, info).unwrap();
            let forfeits = game
                .after
                .windows(2)
                .any(|w| w[1].0 - w[0].0 == 1 && matches!(game.record[w[0].0], Entry::Out(_)));
            for i in 0..PIECES {
                let (p, d) = (PieceId(i as u8), whole.domain(PieceId(i as u8)));
                assert_eq!(
                    d.0 & state.domain(p).0,
                    state.domain(p).0,
                    "game {game_no} {p}"
                );
                assert!(forfeits || d == state.domain(p), "game {game_no} {p}");
            }
            assert!(same(&whole.world(&truth), &state.world(&truth)));
        }
    }
    // The referee may leave out the `out:` of a seat whose lineup was given: the state
    // applies the rules itself. Drop every `out:` a ply implies (not the forfeits, which
    // are groups of their own) for the known seats of each view.
    let mut implied = 0;
    let mut rng = StdRng::seed_from_u64(0x006f_7574); // "out"
    for game_no in 0..GAMES / 4 {
        let game = random_game(&mut rng, 200, None);
        let pos = &game.after.last().expect("a game has a ply").1;
        for (info, known) in VIEWS {
            let mut record = Vec::new();
            let mut start = 0;
            for &(end, _) in &game.after {
                let group = &game.record[start..end];
                for (i, entry) in group.iter().enumerate() {
                    match entry {
                        Entry::Out(seat) if i > 0 && known & (1 << seat) != 0 => implied += 1,
                        _ => record.push(entry.clone()),
                    }
                }
                start = end;
            }
            let state = InfoState::new(&game.setup(known), &record, game.rules, info)
                .unwrap_or_else(|e| panic!("game {game_no} {info}: {e}"));
            check_truth(&state, &game.truth(), pos, &|| {
                format!("game {game_no} {info} without implied out:")
            });
        }
    }
    assert!(implied > 0);
    // Seats left without a move at the start of their turn are common in random play.
    assert!(
        turn_start > GAMES / 10,
        "{turn_start} turn-start eliminations"
    );
    // The test means something only if hidden domains do shrink beyond deployment.
    assert!(
        facts > GAMES * 100,
        "only {facts} ranks excluded in {GAMES} games"
    );
}

/// Plays `moves` in the open from the given lineups (first seat `first`) and returns the
/// referee's record; `MaxPasses` off so that seats can wait.
fn referee(lineups: [&str; 4], first: char, moves: &str) -> (String, Vec<Entry>) {
    let text = format!(
        "setup S:{} E:{} N:{} W:{} first {first}",
        lineups[0], lineups[1], lineups[2], lineups[3]
    );
    let mut pos = Position::from_notation(&text).unwrap();
    pos.rules.max_passes = 0;
    let mut record = Vec::new();
    for token in moves.split_whitespace() {
        let mv = pos
            .parse_move(token)
            .unwrap_or_else(|e| panic!("{token}: {e}\n{}", pos.display()));
        record.extend(pos.record(mv));
        pos.make_move(mv);
    }
    (text, record)
}

/// The setup with only the seats of `known` shown.
fn view(setup: &str, known: &str) -> String {
    setup
        .split_whitespace()
        .map(|token| match token.split_once(':') {
            Some((seat, _)) if !known.contains(seat) => format!("{seat}:-"),
            _ => token.to_string(),
        })
        .collect::<Vec<String>>()
        .join(" ")
}

const NO_PASS_LIMIT: Rules = Rules {
    draw_plies: 50,
    max_passes: 0,
};

fn station(name: &str) -> usize {
    board::parse_name(name).unwrap()
}

#[test]
fn a_marshal_lost_to_a_mine_shows_the_mine_and_our_flag() {
    // W's mine on b7 (slot 24, swapped with the bomb of slot 21). W clears the line
    // f7..c7; S's marshal rides g6 over the arc to b7 and loses to the mine.
    let w = "adgicegebigckhfdkhjjfljhi";
    let l = DEFAULT_LINEUP;
    let moves = "f7i7 pass pass pass e7g7 pass pass pass d7e8 pass pass pass c7c8 g6b7";
    let (setup, record) = referee([l, l, l, w], 'W', moves);
    assert_eq!(record.last().unwrap().to_string(), "g6b7=l+h1");
    let state = InfoState::new(&view(&setup, "S"), &record, NO_PASS_LIMIT, Info::Dark).unwrap();
    let mine = PieceId::new(3, 19);
    assert_eq!(state.station_of(mine), Some(station("b7")));
    assert_eq!(state.domain(mine), Domain::only(MINE));
    assert!(state.is_public(0));
    assert!(!state.is_alive(PieceId::new(0, 0)));
    // The four W pieces that moved are not mines or flags.
    for k in [4, 7, 11, 14] {
        let d = state.domain(PieceId::new(3, k));
        assert!(!d.contains(MINE) && !d.contains(FLAG), "{k}: {d}");
    }
}

#[test]
fn a_turning_rail_path_marks_an_engineer() {
    // W's engineer on f8 turns at f7 into the y=2 line once f7 is free.
    let l = DEFAULT_LINEUP;
    let (setup, record) = referee([l, l, l, l], 'W', "f7i7 pass pass pass f8g7");
    let state = InfoState::new(&view(&setup, "S"), &record, NO_PASS_LIMIT, Info::Dark).unwrap();
    assert_eq!(state.domain(PieceId::new(3, 3)), Domain::only(ENGINEER));
    // The straight ride f7-i7 only shows a mover.
    assert_eq!(
        state.domain(PieceId::new(3, 4)),
        Domain(Domain::MOVERS.0 & !(1 << BOMB))
    );
    // The same path by a piece whose rank is known not to be an engineer is refused.
    let setup = format!("setup S:{l} E:- N:- W:-");
    let error = InfoState::parse(
        &setup,
        "k6k7=m pass pass pass k7i7=m pass pass pass k6i7=m",
        NO_PASS_LIMIT,
        Info::Dark,
    );
    assert!(error.is_err());
    let error = InfoState::parse(&setup, "k6i7=m", NO_PASS_LIMIT, Info::Dark)
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("'k6i7=m'") && error.contains("needs one of {i}"),
        "{error}"
    );
}

#[test]
fn a_public_flag_identifies_the_flag_and_the_dead_marshal_by_counting() {
    // S's bomb on g5; W's marshal rides f11-g11, then down the x=-2 line onto it.
    let s = "adgickgebigcehfdjhjkfljhi";
    let l = DEFAULT_LINEUP;
    let moves = "g6g7 pass pass f11g11 g7i7 pass pass g11g5";
    let (setup, record) = referee([s, l, l, l], 'S', moves);
    assert_eq!(record.last().unwrap().to_string(), "g11g5=b+a10");
    let state = InfoState::new(&view(&setup, "S"), &record, NO_PASS_LIMIT, Info::Dark).unwrap();
    let marshal = PieceId::new(3, 0);
    assert_eq!(state.domain(marshal), Domain::only(MARSHAL));
    assert_eq!(state.domain(PieceId::new(3, 21)), Domain::only(FLAG));
    assert!(state.is_public(3));
    // Counting over the dead marshal and the found flag: no other W piece is either.
    for k in 1..SEAT_PIECES {
        let d = state.domain(PieceId::new(3, k));
        assert!(!d.contains(MARSHAL), "{k}: {d}");
        assert!(k == 21 || !d.contains(FLAG), "{k}: {d}");
    }
    // N sees neither S nor W: the pair alone says W's piece was the marshal and, as S's
    // flag stayed hidden, S's piece the bomb that took it.
    let state = InfoState::new(&view(&setup, "N"), &record, NO_PASS_LIMIT, Info::Dark).unwrap();
    assert_eq!(state.domain(marshal), Domain::only(MARSHAL));
    assert_eq!(state.domain(PieceId::new(0, 5)), Domain::only(BOMB));
}

/// Each impossible record, and a word its message must contain. All in S's dark view
/// with default lineups, S first, unless the setup says otherwise.
#[test]
fn impossible_records_are_refused_naming_the_ply_and_token() {
    let l = DEFAULT_LINEUP;
    let bomb_g5 = "adgickgebigcehfdjhjkfljhi";
    let dark = format!("setup S:{l} E:- N:- W:-");
    let bomb_setup = format!("setup S:{bomb_g5} E:- N:- W:-");
    let cases: &[(&str, &str, &str)] = &[
        (&dark, "h5h4=m", "no piece on h5"),
        (&dark, "l7k7=m", "a piece of E, but S is to move"),
        (&dark, "h1h2=m", "stands in an HQ"),
        (&dark, "g6g5=m", "holds a piece of the mover's team"),
        (&dark, "h2h3=m", "has ranks {j}"),
        (&dark, "k6i7=m", "needs one of {i}"),
        (&dark, "g6h3=m", "no piece gets there"),
        (&dark, "g6g7", "needs the referee's report"),
        (&dark, "g6g7=w", "onto an empty station"),
        (&dark, "g6g7=m l7g7=m", "=m onto a station with a piece"),
        (&dark, "g6g7=m l7g7=l#", "'#' needs"),
        (&dark, "g6f7=w#", "gives this report"),
        (&dark, "g6f7=l", "no attacker in {a}"),
        (&dark, "g6f7=w+a10", "gives this report"),
        (&dark, "g6f7=b+h17", "no piece of N left the board"),
        (&dark, "g6f7=b+i9", "no piece stands there"),
        (&dark, "g6f7=b+h1+f8", "cannot be the flag"),
        (&dark, "g6f7=m", "=m onto a station with a piece"),
        (&dark, "g6g7=m+h1", "no piece left the board"),
        (
            &dark,
            "g6g7=m pass pass f7g6=m pass pass pass g6h5=m g5h5=w",
            "h5 is a camp with a piece in it",
        ),
        (&dark, "resign resign resign pass", "the game is over"),
        (&dark, "resign resign resign out:W", "the game is over"),
        (&dark, "pass m8m9=m", "no piece on m8"),
        // E's piece beats our colonel, then loses to our lieutenant: no rank does both.
        (
            &dark,
            "g6g7=m l7k7=m pass pass pass k7k6=w pass pass pass k6k5=l",
            "gives this report",
        ),
        // Our bomb only ever gives =b.
        (
            &bomb_setup,
            "g6g7=m pass pass pass g5g6=m pass pass pass g6f7=w",
            "no attacker in {k}",
        ),
        // A W piece that turned on the rails (an engineer) cannot beat our marshal.
        (
            &dark,
            "pass pass pass f7i7=m pass pass pass f8g7=m g6g7=l",
            "no attacker in {a}",
        ),
        // Four W pieces cannot all be engineers: after three turning paths, counting has
        // already taken the engineer from every other W piece.
        (
            &dark,
            "pass pass pass f7i7=m pass pass pass f8g7=m pass pass pass i7k7=m \
             pass pass pass g7i7=m pass pass pass f9g7=m pass pass pass g7g11=m \
             pass pass pass f10g7=m pass pass pass g7g9=m pass pass pass f11g7=m",
            "has ranks {a,b,c,d,e,f,g,h}; this move needs one of {i}",
        ),
    ];
    for &(setup, moves, needle) in cases {
        let error = match InfoState::parse(setup, moves, NO_PASS_LIMIT, Info::Dark) {
            Ok(_) => panic!("accepted: {moves}"),
            Err(e) => e,
        };
        let text = error.to_string();
        let tokens: Vec<&str> = moves.split_whitespace().collect();
        let InfoError::Record { ply, token, .. } = &error else {
            panic!("{moves}: {text}");
        };
        assert_eq!(token, tokens[ply - 1], "{moves}: {text}");
        assert!(
            text.starts_with(&format!("ply {ply} '{token}': ")),
            "{text}"
        );
        assert!(text.contains(needle), "{moves}: {text}");
    }
}

#[test]
fn malformed_setups_and_tokens_are_refused() {
    let l = DEFAULT_LINEUP;
    let r = Rules::default();
    let cases: &[(&str, Info, &str)] = &[
        ("set S:- E:- N:- W:-", Info::Dark, "setup"),
        ("setup S:- E:- N:-", Info::Dark, "seat W missing"),
        ("setup S:- E:- N:- W:- first X", Info::Dark, "first"),
        (
            &format!("setup S:{l} E:- N:- W:-"),
            Info::Open,
            "seat E is -",
        ),
        (
            &format!("setup S:{l} E:{l} N:- W:-"),
            Info::Dark,
            "seat E is one more",
        ),
        (
            &format!("setup S:{l} E:{l} N:- W:-"),
            Info::DoubleOpen,
            "seat E is of the other team",
        ),
        ("setup S:abc E:- N:- W:-", Info::Dark, "25 pieces"),
    ];
    for &(setup, info, needle) in cases {
        let error = InfoState::parse(setup, "", r, info)
            .unwrap_err()
            .to_string();
        assert!(error.contains(needle), "{setup}: {error}");
    }
    let setup = format!("setup S:{l} E:- N:- W:-");
    let error = InfoState::parse(&setup, "g6g7=m i6i7=x", r, Info::Dark)
        .unwrap_err()
        .to_string();
    assert!(error.starts_with("ply 2 'i6i7=x'"), "{error}");
    assert_eq!("double-open".parse::<Info>(), Ok(Info::DoubleOpen));
    assert!("closed".parse::<Info>().unwrap_err().contains("'closed'"));
}

#[test]
fn open_mode_checks_reports_against_the_open_position() {
    let l = DEFAULT_LINEUP;
    let setup = format!("setup S:{l} E:{l} N:{l} W:{l}");
    // Plain and annotated plies alike.
    let state = InfoState::parse(&setup, "g6g7 l7k7=m", Rules::default(), Info::Open).unwrap();
    let mut pos = Position::from_notation(&setup).unwrap();
    for mv in ["g6g7", "l7k7"] {
        let mv = pos.parse_move(mv).unwrap();
        pos.make_move(mv);
    }
    assert_eq!(
        state.open_position().unwrap().to_notation(),
        pos.to_notation()
    );
    // A wrong report names what the position computes.
    let error = InfoState::parse(&setup, "g6g7=w", Rules::default(), Info::Open)
        .unwrap_err()
        .to_string();
    assert!(error.contains("the open position reports =m"), "{error}");
}

#[test]
fn out_tokens_are_idempotent_and_forfeits_pass_the_turn() {
    let l = DEFAULT_LINEUP;
    let setup = format!("setup S:{l} E:- N:- W:-");
    let r = Rules::default();
    // E forfeits on its turn: the turn passes to N; a repeated out:E changes nothing.
    let state = InfoState::parse(&setup, "g6g7=m out:E out:E", r, Info::Dark).unwrap();
    assert!(state.is_out(1) && state.is_public(1));
    assert_eq!(state.side_to_move(), 2);
    assert_eq!(state.quiet_plies(), 0);
    // W forfeits while E is to move: E keeps the turn.
    let state = InfoState::parse(&setup, "g6g7=m out:W", r, Info::Dark).unwrap();
    assert_eq!(state.side_to_move(), 1);
    // The resigning seat's out: repeats what resign implies.
    let state = InfoState::parse(&setup, "resign out:S", r, Info::Dark).unwrap();
    assert!(state.is_out(0));
    assert_eq!(state.side_to_move(), 1);
}

/// A belief whose pieces are the default lineup's but for `hidden` pieces with the given
/// domains: small enough to enumerate.
fn small_belief(hidden: &[(PieceId, &str)]) -> (Belief, Assignment) {
    let mut truth = [0u8; PIECES];
    let mut belief = Belief::new(0b1111);
    for (i, rank) in truth.iter_mut().enumerate() {
        let p = PieceId(i as u8);
        *rank = DEFAULT_LINEUP.as_bytes()[p.k()] - b'a';
        let keep = match hidden.iter().find(|(h, _)| *h == p) {
            Some((_, letters)) => Domain(letters.bytes().fold(0, |d, b| d | 1 << (b - b'a'))),
            None => Domain::only(*rank),
        };
        belief.restrict(p, keep).unwrap();
    }
    (belief, truth)
}

/// Every assignment of the hidden pieces that the belief admits, by brute force.
fn enumerate(belief: &Belief, truth: &Assignment, hidden: &[PieceId]) -> Vec<Assignment> {
    let mut found = Vec::new();
    let mut ranks = *truth;
    fn walk(
        belief: &Belief,
        hidden: &[PieceId],
        ranks: &mut Assignment,
        found: &mut Vec<Assignment>,
    ) {
        let Some((&p, rest)) = hidden.split_first() else {
            if belief.admits(ranks) {
                found.push(*ranks);
            }
            return;
        };
        for r in belief.domain(p).ranks() {
            ranks[p.index()] = r;
            walk(belief, rest, ranks, found);
        }
    }
    walk(belief, hidden, &mut ranks, &mut found);
    found
}

/// The sampler's weighted frequencies of each hidden piece's rank against the exact
/// posterior over the enumerated assignments (random soft evidence per piece,
/// `flag_mines` per mine on a flag's approaches and the lineup `families`), and so the
/// frequencies of the equally weighted worlds of [`Sampler::draw`].
fn compare_with_enumeration(
    belief: &Belief,
    truth: &Assignment,
    hidden: &[PieceId],
    flag_mines: f32,
    families: Families,
    seed: u64,
) {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut loglik = [[0f32; RANKS]; PIECES];
    for &p in hidden {
        for w in loglik[p.index()].iter_mut() {
            *w = rng.random_range(-1.5..1.5);
        }
    }
    let exact = enumerate(belief, truth, hidden);
    assert!(exact.len() > 1, "a trivial case");
    let weight = |x: &Assignment| {
        hidden
            .iter()
            .map(|p| f64::from(loglik[p.index()][usize::from(x[p.index()])]))
            .chain((0..4).map(|seat| f64::from(flag_mines * evidence::flag_mines(x, seat) as f32)))
            .sum::<f64>()
            .add(families.log_prior(x))
            .exp()
    };
    let total: f64 = exact.iter().map(weight).sum();
    let mut expected: HashMap<(usize, u8), f64> = HashMap::new();
    for x in &exact {
        for p in hidden {
            *expected.entry((p.index(), x[p.index()])).or_default() += weight(x) / total;
        }
    }
    let mut propagated = belief.clone();
    propagated.propagate().unwrap();
    let sampler = Sampler::new(&propagated, &loglik, flag_mines, families.clone()).unwrap();
    let samples: Vec<Sample> = (0..20_000).map(|_| sampler.sample(&mut rng)).collect();
    let max = samples
        .iter()
        .map(|s| s.log_weight)
        .fold(f64::MIN, f64::max);
    let weighted: Vec<(Assignment, f64)> = samples
        .iter()
        .map(|s| (s.ranks, (s.log_weight - max).exp()))
        .collect();
    check_frequencies(
        belief,
        hidden,
        &expected,
        &weighted,
        exact.len(),
        "weighted",
    );
    // Few at a time, as the search asks for them.
    let mut chain = sampler.chain(&mut rng);
    let drawn: Vec<(Assignment, f64)> = (0..5_000)
        .flat_map(|_| sampler.draw(&mut chain, 4, &mut rng))
        .map(|ranks| (ranks, 1.0))
        .collect();
    check_frequencies(belief, hidden, &expected, &drawn, exact.len(), "drawn");
}

/// The frequencies of each hidden piece's rank over weighted `worlds` against `expected`.
fn check_frequencies(
    belief: &Belief,
    hidden: &[PieceId],
    expected: &HashMap<(usize, u8), f64>,
    worlds: &[(Assignment, f64)],
    assignments: usize,
    what: &str,
) {
    let mut got: HashMap<(usize, u8), f64> = HashMap::new();
    let mut sum = 0.0;
    for (ranks, w) in worlds {
        assert!(belief.admits(ranks), "{what}: a world breaks a hard fact");
        sum += w;
        for p in hidden {
            *got.entry((p.index(), ranks[p.index()])).or_default() += w;
        }
    }
    for (key, &p) in expected {
        let q = got.get(key).copied().unwrap_or(0.0) / sum;
        assert!(
            (p - q).abs() < 0.02,
            "{what}: {} = {}: exact {p:.4}, sampled {q:.4} ({assignments} assignments)",
            PieceId(key.0 as u8),
            char::from(b'a' + key.1),
        );
    }
    for key in got.keys() {
        assert!(
            expected.contains_key(key),
            "{what}: sampled an impossible rank"
        );
    }
}

/// Five S pieces (a d g i c of the front row and a back piece) with overlapping domains:
/// only the counts bind them.
fn five_of_one_seat() -> (Vec<PieceId>, Belief, Assignment) {
    let hidden: Vec<PieceId> = [0, 1, 2, 4, 13].map(|k| PieceId::new(0, k)).to_vec();
    let (belief, truth) = small_belief(&[
        (hidden[0], "adgh"),
        (hidden[1], "adgc"),
        (hidden[2], "gah"),
        (hidden[3], "cdh"),
        (hidden[4], "hga"),
    ]);
    (hidden, belief, truth)
}

#[test]
fn the_sampler_matches_exact_enumeration_within_one_seat() {
    let (hidden, belief, truth) = five_of_one_seat();
    compare_with_enumeration(&belief, &truth, &hidden, 0.0, Families::none(), 1);
}

#[test]
fn the_sampler_weighs_lineup_families_as_the_target_says() {
    // The same pieces, with random shares of a habit family over all of S's lineup (the
    // fixed pieces move the family's odds too) and a random lean of the proposal.
    let (hidden, belief, truth) = five_of_one_seat();
    let mut rng = StdRng::seed_from_u64(5);
    let mut families = Families::none();
    for k in 0..SEAT_PIECES {
        let p = PieceId::new(0, k).index();
        for r in 0..RANKS {
            families.habit[p][r] = rng.random_range(-2.0..0.0);
            families.tilt[p][r] = rng.random_range(-1.0..1.0);
        }
    }
    // Offsets that put the two families' terms within reach of each other.
    let typical = families.habit_sum(&truth, 0);
    families.habit_offset = 0.3f64.ln() - typical;
    families.uniform_offset = 0.7f64.ln();
    families.seats = 1;
    compare_with_enumeration(&belief, &truth, &hidden, 0.0, families, 6);
}

#[test]
fn the_sampler_weighs_mines_beside_the_flag_as_the_target_says() {
    // S's two HQs (flag or lieutenant) and the approaches of each (two mines and a
    // major): the flag's side is told only by where the mines are.
    let hidden: Vec<PieceId> = [21, 23, 16, 18, 20].map(|k| PieceId::new(0, k)).to_vec();
    let (belief, truth) = small_belief(&[
        (hidden[0], "lh"),
        (hidden[1], "lh"),
        (hidden[2], "jf"),
        (hidden[3], "jf"),
        (hidden[4], "jf"),
    ]);
    compare_with_enumeration(&belief, &truth, &hidden, 1.5, Families::none(), 4);
}

#[test]
fn a_chain_goes_on_in_a_later_belief_only_from_a_world_it_allows() {
    let (hidden, mut belief, _) = five_of_one_seat();
    belief.propagate().unwrap();
    let sampler = Sampler::new(&belief, &[[0.0; RANKS]; PIECES], 0.0, Families::none()).unwrap();
    let mut rng = StdRng::seed_from_u64(3);
    let mut chain = sampler.chain(&mut rng);
    let world = *sampler.draw(&mut chain, 5, &mut rng).last().unwrap();
    // The same belief, and a later one that still allows the chain's world: it goes on
    // from that world.
    assert!(sampler.resume(&chain).is_some(), "the chain's own belief");
    let p = hidden[0];
    let rank = world[p.index()];
    let mut later = belief.clone();
    later.restrict(p, Domain::only(rank)).unwrap();
    later.propagate().unwrap();
    let narrower = Sampler::new(&later, &[[0.0; RANKS]; PIECES], 0.0, Families::none()).unwrap();
    let mut resumed = narrower
        .resume(&chain)
        .expect("a world the later belief allows");
    for ranks in narrower.draw(&mut resumed, 50, &mut rng) {
        assert!(later.admits(&ranks), "a resumed chain left the belief");
    }
    // A later belief that rules the world out (a combat showed that piece is another
    // rank): the chain starts afresh.
    let other = belief.domain(p).ranks().find(|&r| r != rank).unwrap();
    let mut ruled_out = belief.clone();
    ruled_out.restrict(p, Domain::only(other)).unwrap();
    ruled_out.propagate().unwrap();
    let sampler = Sampler::new(&ruled_out, &[[0.0; RANKS]; PIECES], 0.0, Families::none()).unwrap();
    assert!(sampler.resume(&chain).is_none());
}

#[test]
fn the_sampler_matches_exact_enumeration_across_coupled_seats() {
    // Hidden officers of S and E, joined by combats between them (as enemy and partner
    // pieces are in the dark game), and three S back pieces, two mines and a lieutenant,
    // with a clause that one of two of them moves.
    let s: Vec<PieceId> = [1, 2, 4, 5, 7, 16, 17, 18]
        .map(|k| PieceId::new(0, k))
        .to_vec();
    let e: Vec<PieceId> = [1, 2, 4, 5].map(|k| PieceId::new(1, k)).to_vec();
    let (mut belief, truth) = small_belief(&[
        (s[0], "cdg"),
        (s[1], "dge"),
        (s[2], "ceg"),
        (s[3], "deg"),
        (s[4], "ceg"),
        (s[5], "hj"),
        (s[6], "hj"),
        (s[7], "hj"),
        (e[0], "cde"),
        (e[1], "dg"),
        (e[2], "ceg"),
        (e[3], "de"),
    ]);
    let fight = |attacker: PieceId, defender: PieceId| {
        let (ra, rd) = (truth[attacker.index()], truth[defender.index()]);
        let winner = crate::games::junqi::position::survivor(ra, 0x10 | rd);
        Combat {
            attacker,
            defender,
            clash: if winner == ra {
                Clash::Won
            } else if winner == 0x10 | rd {
                Clash::Lost
            } else {
                Clash::Both
            },
            flag_taken: false,
            attacker_marshal: None,
            defender_marshal: None,
        }
    };
    for (a, d) in [(s[3], e[1]), (e[2], s[0]), (s[1], e[0]), (e[3], s[4])] {
        belief.add_combat(&fight(a, d)).unwrap();
    }
    belief.add_mover_clause(0, 1 << 16 | 1 << 17).unwrap();
    let hidden: Vec<PieceId> = s.iter().chain(&e).copied().collect();
    compare_with_enumeration(&belief, &truth, &hidden, 0.0, Families::none(), 2);
}

/// Replays the record on the open start position of a sampled world: every ply must be
/// legal there and get the same report, and the end must be the sampled world.
fn replay_world(state: &InfoState, record: &[Entry], ranks: &Assignment, context: &str) {
    let mut pos = state.start_position(ranks);
    let mut last_mover = (pos.side_to_move() + 3) % 4;
    for (i, entry) in record.iter().enumerate() {
        match entry {
            Entry::Out(seat) => forfeit(&mut pos, *seat, last_mover),
            Entry::Ply(Ply { mv, .. }) => {
                if !mv.is_special() {
                    let legal = move_set(|m| pos.legal_moves(m));
                    assert!(
                        legal.contains(&(mv.from, mv.to)),
                        "{context}: ply {} {entry} illegal in the world\n{}",
                        i + 1,
                        pos.display()
                    );
                }
                let mut written = pos.record(*mv).swap_remove(0);
                // A seat that leaves with the ply (its `out:` tokens follow) takes its flag
                // with it: the record is silent about that flag whatever the world's
                // marshal did (`info.rs`), so the world's `+sq` for it is not compared.
                let leaving = Entry::leading_outs(&record[i + 1..]);
                if let Entry::Ply(Ply {
                    report: Some(report),
                    ..
                }) = &mut written
                {
                    report
                        .public_flags
                        .retain(|&s| leaving & 1 << seat_of(pos.board[usize::from(s)]) == 0);
                }
                assert_eq!(&written, entry, "{context}: ply {}", i + 1);
                last_mover = pos.side_to_move();
                pos.make_move(*mv);
            }
        }
    }
    assert_eq!(
        pos.to_notation(),
        state.world(ranks).to_notation(),
        "{context}"
    );
}

#[test]
fn sampled_worlds_replay_the_record() {
    let games = if cfg!(debug_assertions) { 4 } else { 40 };
    let mut rng = StdRng::seed_from_u64(0x0077_6f72_6c64); // "world"
    for game_no in 0..games {
        let game = random_game(&mut rng, 160, None);
        for (info, known) in VIEWS.into_iter().skip(1) {
            let setup = game.setup(known);
            let mut state = InfoState::new(&setup, &[], game.rules, info).unwrap();
            let mut done = 0;
            for (ply, (end, _)) in game.after.iter().enumerate() {
                state.extend(&game.record[done..*end]).unwrap();
                done = *end;
                if ply % 40 != 39 && ply + 1 != game.after.len() {
                    continue;
                }
                let sampler = state.sampler(&Evidence::default());
                for _ in 0..3 {
                    let sample = sampler.sample(&mut rng);
                    let context = format!("game {game_no} {info} {known:04b} ply {}", ply + 1);
                    assert!(state.belief().admits(&sample.ranks), "{context}");
                    assert!(sample.log_weight.is_finite(), "{context}");
                    replay_world(&state, &game.record[..done], &sample.ranks, &context);
                    if !state.is_over() {
                        let world = state.world(&sample.ranks);
                        assert!(
                            !move_set(|m| world.legal_moves(m)).is_empty(),
                            "{context}: the seat to move has no move in the world"
                        );
                    }
                }
            }
        }
    }
}

/// Measures what the final report quotes: run with
/// `cargo test --release --lib games::junqi::dark::tests::speed -- --ignored --nocapture`.
#[test]
#[ignore]
fn speed() {
    use std::time::Instant;
    let mut rng = StdRng::seed_from_u64(9);
    let mut games: Vec<Played> = Vec::new();
    let rules = Rules {
        draw_plies: 0,
        max_passes: 0,
    };
    while games.len() < 20 {
        let game = random_game(&mut rng, 200, Some(rules));
        if game.after.len() == 200 {
            games.push(game);
        }
    }
    for (info, known) in [(Info::Dark, 0b0001), (Info::DoubleOpen, 0b0101)] {
        let start = Instant::now();
        let mut states = Vec::new();
        for game in &games {
            states
                .push(InfoState::new(&game.setup(known), &game.record, game.rules, info).unwrap());
        }
        let build = start.elapsed().as_secs_f64() / games.len() as f64;
        let mut draws = 0usize;
        let mut open = 0usize;
        let mut coupled = 0usize;
        let start = Instant::now();
        for state in &states {
            let sampler = state.sampler(&Evidence::default());
            open += sampler.open_pieces();
            coupled += sampler.coupled_pieces();
            for _ in 0..500 {
                std::hint::black_box(sampler.sample(&mut rng));
                draws += 1;
            }
        }
        let rate = draws as f64 / start.elapsed().as_secs_f64();

        println!(
            "{info}: build of a 200-ply record {:.2} ms; {rate:.0} samples/s \
             ({} open pieces, {} coupled, on average)",
            build * 1e3,
            open / states.len(),
            coupled / states.len()
        );
    }
}

/// An evaluator that stops the search at its `limit`-th evaluation: a clock that runs out
/// at a chosen point of the search, the same on every machine.
struct StopAfter {
    calls: std::sync::atomic::AtomicU64,
    limit: u64,
    control: std::sync::Arc<crate::search::Control>,
}

impl crate::core::Evaluator<Position> for StopAfter {
    type State = ();
    fn new_state(&self, _: &Position) {}
    fn evaluate(&self, pos: &Position) -> crate::core::Score {
        let calls = self
            .calls
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed)
            + 1;
        if calls >= self.limit {
            self.control.stop();
        }
        crate::games::junqi::Eval.evaluate(pos)
    }
    fn noisy_moves(&self, pos: &Position, moves: &mut MoveList<Move>) {
        crate::games::junqi::Eval.noisy_moves(pos, moves)
    }
    fn good_capture(&self, pos: &Position, mv: Move) -> bool {
        crate::games::junqi::Eval.good_capture(pos, mv)
    }
    fn capture_order(&self, pos: &Position, mv: Move) -> crate::core::Score {
        crate::games::junqi::Eval.capture_order(pos, mv)
    }
}

/// When time runs out before any world's search finishes, the move is still the one the
/// first world's captures call for, not the first one generated. From a match at 200 ms:
/// E's engineer has cleared the mine at h2 beside S's flag on h1; S must take it (i2h2,
/// its brigadier) or lose the seat, and the engine, out of time, played i5i6.
#[test]
fn out_of_time_before_any_world_the_move_still_saves_the_flag() {
    use crate::search::{Control, Limits, SearchParams, TranspositionTable, search_worlds};
    let record = "g6f7=w l11k12=w i12i9=m f11g12=w f7l7=w k12j12=w i9l9=w g12h12=w l7m8=m \
        m11f11=m l9f9=w e7k9=m g5g11=m o9o10=m f9e10=m k9l11=m g4g9=m m7g3=l k13l11=w c9c8=m \
        g9l9=m n7k6=w l11m10=m c8c9=m g3e7=m k6j6=w m10l10=w c9c10=m l9m10=m j6i6=w l10l8=w \
        e9f9=m k5n7=m i6h6=w k14j13=m b9c8=m g2g6=m n11k15=b h14h13=m c8b9=m g6h6=b+q8 \
        o11h2=w i15i14=m f8f7=m";
    let state = InfoState::parse(
        "setup S:befcehghagfigkikjdicjljhd E:- N:- W:- first S",
        record,
        Rules::default(),
        Info::Dark,
    )
    .unwrap();
    // Each search from a fresh sampler, so that both draw the same first world.
    let knowledge = || Knowledge::new(state.clone(), &Evidence::default());
    let root = knowledge().representative();
    let engineer_takes_flag = root.parse_move("i2h2").unwrap();
    let mut first = MoveList::new();
    root.legal_moves(&mut first);
    assert_ne!(
        first[0], engineer_takes_flag,
        "the test needs another first move"
    );
    let run = |limits: &Limits, params: &SearchParams, limit: u64| {
        let control = std::sync::Arc::new(Control::default());
        let eval = StopAfter {
            calls: 0.into(),
            limit,
            control: control.clone(),
        };
        let result = search_worlds(
            &root,
            &knowledge(),
            &eval,
            &TranspositionTable::new(1),
            &control,
            limits,
            params,
            &[],
            &mut |_| {},
        );
        (result.best, eval.calls.into_inner())
    };
    // What the first world's captures cost: one world at depth 0.
    let one_world = SearchParams {
        worlds: 1,
        ..SearchParams::default()
    };
    let captures = Limits {
        depth: Some(0),
        ..Limits::default()
    };
    let (quick, cost) = run(&captures, &one_world, u64::MAX);
    // Time runs out just after them, inside the first world's full search.
    let (best, _) = run(&Limits::default(), &SearchParams::default(), cost + 1);
    assert_eq!(quick, Some(engineer_takes_flag));
    assert_eq!(best, Some(engineer_takes_flag));
}

//! The edge cases of `docs/rules/junqi.md` (§8 and the rules they refine), one named test
//! each, plus setup validation, notation round trips and make/unmake over random walks.

use super::board::{self, SEAT_NAMES};
use super::notation;
use super::position::{EMPTY, FLAG};
use super::*;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

const L: &str = DEFAULT_LINEUP;

fn station(name: &str) -> usize {
    board::parse_name(name).unwrap_or_else(|| panic!("station {name}"))
}

fn seat(c: char) -> usize {
    SEAT_NAMES.iter().position(|&n| n == c).unwrap()
}

/// A position with the given pieces (`("p7", "Ej")`), `side` to move and seats `out`
/// eliminated. Every live seat without a listed flag gets one in its slot-26 HQ and, if
/// `spares`, a lieutenant on slot 29 so that it is not eliminated for want of a move.
fn build_with(side: char, out: &str, pieces: &[(&str, &str)], spares: bool) -> Position {
    let mut pos = Position::empty();
    for (at, piece) in pieces {
        let mut chars = piece.chars();
        let (s, r) = (
            seat(chars.next().unwrap()),
            chars.next().unwrap() as u8 - b'a',
        );
        pos.board[station(at)] = (s as u8) << 4 | r;
    }
    for c in out.chars() {
        pos.out |= 1 << seat(c);
    }
    for s in 0..4 {
        if pos.is_out(s) {
            continue;
        }
        let has_flag = pos
            .board
            .iter()
            .any(|&p| p != EMPTY && p == (s as u8) << 4 | FLAG);
        if !has_flag {
            pos.board[30 * s + 26] = (s as u8) << 4 | FLAG;
        }
        if spares && pos.board[30 * s + 29] == EMPTY {
            pos.board[30 * s + 29] = (s as u8) << 4 | 7;
        }
    }
    pos.side = seat(side) as u8;
    pos.hash = pos.compute_hash();
    // Through the notation, which also checks the position is well formed.
    Position::from_notation(&pos.to_notation()).unwrap()
}

fn build(side: char, pieces: &[(&str, &str)]) -> Position {
    build_with(side, "", pieces, true)
}

fn names(pos: &Position) -> Vec<String> {
    let mut moves = MoveList::new();
    pos.legal_moves(&mut moves);
    moves.iter().map(|&m| pos.move_name(m)).collect()
}

fn from(pos: &Position, sq: &str) -> Vec<String> {
    let mut v: Vec<String> = names(pos)
        .into_iter()
        .filter(|m| board::parse_name(&m[..m.len() - to_len(m)]) == Some(station(sq)))
        .map(|m| m[m.len() - to_len(&m)..].to_string())
        .collect();
    v.sort();
    v
}

/// Length of the destination part of a move name.
fn to_len(m: &str) -> usize {
    let i = m
        .char_indices()
        .skip(1)
        .find(|&(_, c)| c.is_ascii_lowercase())
        .unwrap()
        .0;
    m.len() - i
}

fn play(pos: &mut Position, mv: &str) {
    let mv = pos.parse_move(mv).unwrap_or_else(|e| panic!("{e}"));
    pos.make_move(mv);
}

fn at(pos: &Position, sq: &str) -> String {
    let p = pos.piece(station(sq));
    if p == EMPTY {
        ".".into()
    } else {
        format!(
            "{}{}",
            SEAT_NAMES[usize::from(p >> 4)],
            char::from(b'a' + (p & 15))
        )
    }
}

fn start_setup(extra: &str) -> String {
    format!("setup S:{L} E:{L} N:{L} W:{L}{extra}")
}

#[test]
fn start_position_counts_and_notation() {
    let start = Position::start_position();
    assert_eq!(
        start.to_notation(),
        "adgice1g1ebi1gck1h1fdjhjkfljhi/adgice1g1ebi1gck1h1fdjhjkfljhi/\
         adgice1g1ebi1gck1h1fdjhjkfljhi/adgice1g1ebi1gck1h1fdjhjkfljhi/9 S 0 0,0,0,0 - -"
    );
    assert_eq!(
        Position::from_notation("startpos").unwrap().hash(),
        start.hash()
    );
    assert_eq!(
        Position::from_notation(&start_setup("")).unwrap().hash(),
        start.hash()
    );
    assert_eq!(names(&start).len(), 41);
    assert_eq!(start.team_of(0), 0);
    assert_eq!(start.team_of(2), 0);
    assert_eq!(start.team_of(1), 1);
    assert_eq!(start.team_of(3), 1);
    let seats: Vec<String> = (0..4).map(Position::player_name).collect();
    assert_eq!(seats, ["S", "E", "N", "W"]);
    assert!(start.display().contains("position: adgice1g1e"));
}

#[test]
fn hq_pieces_can_be_attacked_and_the_winner_is_frozen() {
    // E's captain stands in S's HQ h1 (S's flag is in j1); S's colonel attacks it.
    let mut pos = build('E', &[("h1", "Eg"), ("j1", "Sl"), ("h2", "Se")]);
    assert!(from(&pos, "h1").is_empty(), "a piece in an HQ never moves");
    pos.side = 0;
    pos.hash = pos.compute_hash();
    assert!(from(&pos, "h2").contains(&"h1".to_string()));
    play(&mut pos, "h2h1");
    assert_eq!(at(&pos, "h1"), "Se");
    let mut again = pos.clone();
    again.side = 0;
    assert!(
        from(&again, "h1").is_empty(),
        "the winner is frozen in the HQ"
    );
    // Any piece may enter an empty HQ, own or enemy, and is then frozen.
    let pos = build('S', &[("h2", "Se")]);
    let to = from(&pos, "h2");
    assert!(!to.contains(&"h1".to_string()), "own flag in h1");
    let pos = build('S', &[("p10", "Sa")]);
    assert!(
        from(&pos, "p10").contains(&"q10".to_string()),
        "enemy's empty HQ"
    );
}

#[test]
fn occupied_camps_can_be_neither_entered_nor_attacked() {
    // h4 is a road station between camps h5, i4 and h3; S's marshal sits in h5.
    let pos = build('E', &[("h5", "Sa"), ("h4", "Eb")]);
    assert_eq!(from(&pos, "h4"), ["g4", "h3", "i4"]);
    let pos = build('E', &[("h4", "Eb")]);
    assert_eq!(
        from(&pos, "h4"),
        ["g4", "h3", "h5", "i4"],
        "empty camps are open"
    );
    // Camps join diagonally: from the camp i4 to h5, j5, h3, j3 and the four orthogonals.
    let pos = build('E', &[("i4", "Eb")]);
    assert_eq!(
        from(&pos, "i4"),
        ["h3", "h4", "h5", "i3", "i5", "j3", "j4", "j5"]
    );
    // A camp's occupant attacks out of it normally.
    let pos = build('S', &[("h5", "Sa"), ("g5", "Eb")]);
    assert!(from(&pos, "h5").contains(&"g5".to_string()));
}

#[test]
fn front_row_ride_does_not_cross_an_arc() {
    let pos = build('S', &[("h6", "Se")]);
    let to = from(&pos, "h6");
    assert!(to.contains(&"k6".to_string()));
    assert!(!to.contains(&"l7".to_string()), "{to:?}");
    assert!(!to.contains(&"i7".to_string()), "no turn at i6");
}

#[test]
fn a_piece_on_the_corner_takes_the_arc() {
    let pos = build('S', &[("k6", "Se")]);
    let to = from(&pos, "k6");
    for sq in [
        "l7", "m7", "p7", "k7", "k9", "k11", "k12", "k16", "g6", "k2",
    ] {
        assert!(to.contains(&sq.to_string()), "{sq} in {to:?}");
    }
    assert!(!to.contains(&"l6".to_string()) && !to.contains(&"l8".to_string()));
    // The whole L-curve from the fourth row: k2 .. k6, arc, l7 .. p7; not E's front row.
    let pos = build('S', &[("k2", "Se")]);
    let to = from(&pos, "k2");
    assert!(to.contains(&"p7".to_string()) && !to.contains(&"k17".to_string()));
    assert!(!to.contains(&"l8".to_string()), "{to:?}");
    // Never turns in the centre.
    let pos = build('S', &[("i6", "Se")]);
    let to = from(&pos, "i6");
    assert!(to.contains(&"i11".to_string()) && to.contains(&"i12".to_string()));
    assert!(!to.contains(&"g9".to_string()) && !to.contains(&"k9".to_string()));
}

#[test]
fn engineers_turn_anywhere_on_empty_rails() {
    let pos = build('S', &[("h6", "Si"), ("k9", "Ea")]);
    let to = from(&pos, "h6");
    for sq in ["l7", "p7", "g11", "f11", "k9", "i12"] {
        assert!(to.contains(&sq.to_string()), "{sq} in {to:?}");
    }
    // Blocked by a partner: N's piece at i7 keeps the engineer at i6 out of the centre.
    let pos = build(
        'S',
        &[("i6", "Si"), ("i7", "Na"), ("h6", "Sb"), ("j6", "Sc")],
    );
    assert_eq!(
        from(&pos, "i6"),
        ["h5", "i5", "j5"],
        "steps only, to i5 and the camps"
    );
}

#[test]
fn flags_and_mines_never_move() {
    let pos = build('S', &[("h2", "Sj")]);
    assert!(from(&pos, "h2").is_empty());
    assert!(from(&pos, "h1").is_empty());
}

/// S attacks from o7 to p7 (E's slot 20) and reports what stands there, and whether the
/// pieces are gone. `limit` keeps the counters small.
fn fight(att: &str, def: &str) -> (Position, String) {
    let mut pos = build('S', &[("o7", att), ("p7", def)]);
    play(&mut pos, "o7p7");
    let standing = at(&pos, "p7");
    (pos, standing)
}

#[test]
fn combat_bombs_remove_both() {
    for (att, def) in [
        ("Sk", "Ee"),
        ("Se", "Ek"),
        ("Sk", "Ej"),
        ("Sk", "Ek"),
        ("Sa", "Ek"),
    ] {
        let (pos, standing) = fight(att, def);
        assert_eq!(standing, ".", "{att} on {def}");
        assert_eq!(at(&pos, "o7"), ".");
        assert_eq!(pos.quiet_plies(), 0);
    }
    let (pos, _) = fight("Sa", "Ek");
    assert!(pos.is_public(0), "a marshal removed makes its flag public");
}

#[test]
fn combat_mines_stop_all_but_engineers() {
    let (_, standing) = fight("Si", "Ej");
    assert_eq!(standing, "Si", "engineer removes the mine and moves in");
    let (pos, standing) = fight("Sa", "Ej");
    assert_eq!(standing, "Ej", "marshal removed by the mine");
    assert_eq!(at(&pos, "o7"), ".");
    assert!(pos.is_public(0));
    assert!(!pos.is_public(1));
}

#[test]
fn combat_ranks() {
    assert_eq!(fight("Sc", "Ec").1, ".", "equal ranks: both removed");
    assert_eq!(fight("Sc", "Ed").1, "Sc");
    assert_eq!(fight("Sd", "Ec").1, "Ec");
    assert_eq!(fight("Si", "Eh").1, "Eh");
    let (pos, standing) = fight("Sa", "Ea");
    assert_eq!(standing, ".");
    assert!(pos.is_public(0) && pos.is_public(1));
}

#[test]
fn flag_capture_eliminates_the_seat() {
    let mut pos = build(
        'S',
        &[("p8", "Sh"), ("q8", "El"), ("k13", "Ea"), ("m9", "Eb")],
    );
    play(&mut pos, "p8q8");
    assert!(pos.is_out(1));
    assert_eq!(at(&pos, "q8"), "Sh");
    assert_eq!(at(&pos, "m9"), ".");
    assert!(
        pos.is_public(1),
        "the marshal left with the elimination: flag public"
    );
    assert_eq!(pos.side_to_move(), 2, "E is skipped");
    assert_eq!(pos.quiet_plies(), 0);
    // A bomb on the flag: both removed, the seat still eliminated.
    let mut pos = build('S', &[("p8", "Sk"), ("q8", "El")]);
    play(&mut pos, "p8q8");
    assert!(pos.is_out(1));
    assert_eq!(at(&pos, "q8"), ".");
}

#[test]
fn a_team_out_wins_for_the_other_team() {
    let mut pos = build_with('S', "W", &[("p8", "Sh"), ("q8", "El")], true);
    play(&mut pos, "p8q8");
    assert_eq!(pos.outcome(), Some(Outcome::Win(0)));
    assert!(names(&pos).is_empty());
    assert_eq!(
        pos.side_to_move(),
        0,
        "a finished game keeps the last mover"
    );
}

#[test]
fn both_teams_out_in_one_ply_the_mover_team_wins() {
    // Not reachable under turn-start elimination (it stops at the first team out), but
    // the rule stands: the notation keeps the last mover in the turn field.
    let pos = Position::from_notation("30/30/30/30/9 E 0 0,0,0,0 SENW -").unwrap();
    assert_eq!(pos.outcome(), Some(Outcome::Win(1)));
    let pos = Position::from_notation("30/30/30/30/9 N 0 0,0,0,0 SENW -").unwrap();
    assert_eq!(pos.outcome(), Some(Outcome::Win(0)));
}

#[test]
fn no_combat_counter_resets_on_removals_and_draws() {
    let mut pos = build(
        'S',
        &[("g6", "Sd"), ("l7", "Ed"), ("k12", "Nd"), ("f11", "Wd")],
    );
    pos.set_rule_option("NoCombatDrawPlies", "6").unwrap();
    for mv in ["g6g5", "l7m7", "k12k13", "f11e11"] {
        play(&mut pos, mv);
    }
    assert_eq!(pos.quiet_plies(), 4);
    // A removal by elimination resets it: S resigns (4 → 0).
    play(&mut pos, "resign");
    assert_eq!(pos.quiet_plies(), 0);
    assert!(pos.is_out(0));
    for mv in ["m7l7", "k13k12", "e11f11", "l7m7", "k12k13"] {
        assert_eq!(pos.outcome(), None);
        play(&mut pos, mv);
    }
    assert_eq!(pos.quiet_plies(), 5);
    play(&mut pos, "f11e11");
    assert_eq!(pos.outcome(), Some(Outcome::Draw));
    assert!(names(&pos).is_empty());
    // 0 turns the rule off.
    pos.set_rule_option("NoCombatDrawPlies", "0").unwrap();
    assert_eq!(pos.outcome(), None);
    assert!(pos.set_rule_option("nocombatdrawplies", "x").is_err());
    assert!(!pos.set_rule_option("Hash", "1").unwrap());
}

#[test]
fn the_draw_comes_before_turn_start_elimination() {
    // E has only its flag: no move at the start of its turn.
    let pieces = [("g6", "Sd"), ("k12", "Nd"), ("f11", "Wd")];
    let mut pos = build_with('S', "", &pieces, false);
    pos.quiet = 2;
    pos.hash = pos.compute_hash();
    let mut drawn = pos.clone();
    drawn.set_rule_option("NoCombatDrawPlies", "3").unwrap();
    play(&mut drawn, "g6g5");
    assert_eq!(drawn.outcome(), Some(Outcome::Draw));
    assert!(!drawn.is_out(1), "drawn before E's elimination");
    play(&mut pos, "g6g5");
    assert!(pos.is_out(1), "E had no move at the start of its turn");
    assert_eq!(pos.quiet_plies(), 0, "its pieces left: counter reset");
    assert_eq!(pos.side_to_move(), 2);
}

#[test]
fn turn_start_elimination_repeats_and_stops_when_a_team_is_out() {
    // E and N have only flags; W has a move. After S's ply, E and N go out, W moves.
    let mut pos = build_with('S', "", &[("g6", "Sd"), ("f11", "Wd")], false);
    play(&mut pos, "g6g5");
    assert!(pos.is_out(1) && pos.is_out(2));
    assert_eq!(pos.side_to_move(), 3);
    assert_eq!(pos.outcome(), None);
    // Undo restores both eliminations.
    let start = build_with('S', "", &[("g6", "Sd"), ("f11", "Wd")], false);
    let mut again = start.clone();
    let undo = again.make_move(again.parse_move("g6g5").unwrap());
    again.unmake_move(
        Move {
            from: station("g6") as u8,
            to: station("g5") as u8,
        },
        undo,
    );
    assert_eq!(again.to_notation(), start.to_notation());
    assert_eq!(again.hash(), start.hash());
    // W is out already: E's turn-start elimination ends the game, N is not touched.
    let mut pos = build_with('S', "W", &[("g6", "Sd")], false);
    play(&mut pos, "g6g5");
    assert!(pos.is_out(1));
    assert!(!pos.is_out(2), "stops as soon as a team is out");
    assert_eq!(pos.outcome(), Some(Outcome::Win(0)));
}

#[test]
fn passes_count_towards_max_passes_and_are_never_generated() {
    let mut pos = Position::start_position();
    assert!(
        names(&pos)
            .iter()
            .all(|m| !["pass", "timeout", "resign"].contains(&m.as_str()))
    );
    pos.set_rule_option("MaxPasses", "2").unwrap();
    play(&mut pos, "pass");
    assert_eq!(pos.passes(0), 1);
    assert_eq!(pos.side_to_move(), 1);
    assert_eq!(pos.quiet_plies(), 1);
    for mv in ["timeout", "pass", "pass"] {
        play(&mut pos, mv);
    }
    assert!(!pos.is_out(0));
    play(&mut pos, "timeout");
    assert!(pos.is_out(0), "the second pass/timeout eliminates S");
    assert!(pos.is_public(0), "its marshal left: flag public");
    assert_eq!(pos.quiet_plies(), 0);
    assert_eq!(pos.side_to_move(), 1);
    let round = Position::from_notation(&pos.to_notation()).unwrap();
    assert_eq!(round.hash(), pos.hash());
    assert_eq!(round.passes(1), 1);
    // MaxPasses 0: passes never eliminate.
    let mut pos = Position::start_position();
    pos.set_rule_option("MaxPasses", "0").unwrap();
    for _ in 0..12 {
        play(&mut pos, "pass");
    }
    assert_eq!(pos.out, 0);
}

#[test]
fn setup_first_seat_rules() {
    let pos = Position::from_notation(&start_setup(" first N")).unwrap();
    assert_eq!(pos.side_to_move(), 2);
    let pos = Position::from_notation(&format!("setup S:{L} E:0 N:{L} W:{L} first E")).unwrap();
    assert_eq!(
        pos.side_to_move(),
        2,
        "first names an eliminated seat: next live seat"
    );
    assert!(pos.is_out(1));
    let pos = Position::from_notation(&format!("setup S:{L} E:0 N:{L} W:0")).unwrap();
    assert_eq!(
        pos.outcome(),
        Some(Outcome::Win(0)),
        "a whole team 0: finished"
    );
    assert!(names(&pos).is_empty());
    let pos = Position::from_notation(&format!("setup W:{L} N:{L} E:{L} S:{L}")).unwrap();
    assert_eq!(
        pos.hash(),
        Position::start_position().hash(),
        "any seat order"
    );
    assert_eq!(pos.quiet_plies(), 0);
}

#[test]
fn a_marshal_removed_with_its_seat_still_makes_the_flag_public() {
    let mut pos = Position::start_position();
    play(&mut pos, "resign");
    assert!(pos.is_out(0) && pos.is_public(0));
    assert!(pos.to_notation().ends_with(" S S"));
}

#[test]
fn setup_errors_name_the_rule_and_slot() {
    let err = |lineup: &str| notation::parse_lineup(0, lineup).unwrap_err().to_string();
    // Flag (l) at slot 25 instead of 26: swap the first two of the back row.
    let msg = err("adgicegebigckhfdjhjklfjhi");
    assert!(msg.contains("slot 25") && msg.contains("HQ"), "{msg}");
    // A mine in slot 19.
    let msg = err("adgicegebigckhjdfhjkfljhi");
    assert!(msg.contains("slot 19") && msg.contains("mine"), "{msg}");
    // A bomb in the front row.
    let msg = err("kdgicegebigcahfdjhjkfljhi");
    assert!(msg.contains("slot 0") && msg.contains("bomb"), "{msg}");
    // Counts: two marshals (slot of the second), a missing rank.
    let msg = err("adgicegebigckhfdjhjkfljha");
    assert!(msg.contains("slot 29") && msg.contains("marshal"), "{msg}");
    let msg = err("adgicegebigckhfdjhjkfljhh");
    assert!(msg.contains("lieutenant"), "{msg}");
    let msg = err("adgicegebigckhfdjhjkfljh");
    assert!(msg.contains("25 pieces"), "{msg}");
    let msg = err("adgicegebigckhfdjhjkfljhz");
    assert!(msg.contains("slot 29") && msg.contains("'z'"), "{msg}");
    assert!(err("-").contains("unknown"));
    assert!(err("xdgicegebigckhfdjhjkfljhi").contains("unknown"));
    assert_eq!(
        notation::parse_lineup(0, "adgicegebigckhfdjhjkfljhm"),
        Err(SetupError::UnknownPiece {
            seat: 'S',
            slot: 29,
            ch: 'm'
        })
    );
    for (text, needle) in [
        (format!("setup S:{L} E:{L} N:{L}"), "seat W missing"),
        (format!("setup S:{L} S:{L} E:{L} N:{L} W:{L}"), "twice"),
        (format!("setup S:{L} E:{L} N:{L} W:{L} first"), "first"),
        (format!("setup S:{L} E:{L} N:{L} W:{L} first Q"), "first"),
        (
            format!("setup S:{L} E:{L} N:{L} W:{L} X:{L}"),
            "bad setup token",
        ),
        (
            format!("setup S:{L} E:{L} N:{L} W:{L} junk"),
            "bad setup token",
        ),
        (
            format!("setup S:{L} E:{L} N:{L} W:k{}", &L[1..]),
            "seat W slot 0",
        ),
    ] {
        let msg = Position::from_notation(&text).unwrap_err().to_string();
        assert!(msg.contains(needle), "{text}: {msg}");
    }
}

#[test]
fn malformed_notation_and_moves_never_panic() {
    let start = Position::start_position();
    let full = start.to_notation();
    let mut inputs: Vec<String> = vec![
        "".into(),
        "setup".into(),
        "setup S:".into(),
        "startpos moves".into(),
        "30/30/30/30/9 S 0 0,0,0,0 - -".into(),
        "30/30/30/30/9 S 0 0,0,0,0 S -".into(),
        "a/b/c/d/e S 0 0,0,0,0 - -".into(),
        "99999999999999999999/30/30/30/9 S 0 0,0,0,0 - -".into(),
        "军棋/30/30/30/9 S 0 0,0,0,0 - -".into(),
        full.replace(" S 0", " X 0"),
        full.replace("9 S", "Sa8 S"),
        full.replace("9 S", "a8 S"),
        full.replace("9 S", "S 8 S"),
        full.replace("0,0,0,0", "0,0,0"),
        full.replace("0,0,0,0", "0,0,0,999"),
        full.replace(" - -", " SS -"),
        full.replace(" - -", " - Q"),
        full.replace("/9 S", "/9S S"),
        full.replacen("fljhi", "fljhl", 1),
        full.replacen("djhjk", "djhjj", 1),
    ];
    for cut in 0..full.len() {
        if full.is_char_boundary(cut) {
            inputs.push(full[..cut].to_string());
        }
    }
    for text in &inputs {
        let _ = Position::from_notation(text);
    }
    for text in &inputs[..19] {
        assert!(Position::from_notation(text).is_err(), "{text}");
    }
    for mv in [
        "", "i6", "i6i7x", "z1z2", "i0i1", "i6 i7", "工兵", "i6工", "a1a1", "h1h2", "passx", "Pass",
    ] {
        let err = start.parse_move(mv).unwrap_err().to_string();
        assert!(
            err.contains("malformed") || err.contains("illegal"),
            "{mv}: {err}"
        );
    }
    assert!(
        start.parse_move("g6g5").is_err(),
        "g5 holds S's own colonel"
    );
}

#[test]
fn random_walks_round_trip_unmake_restores_and_attacks_are_the_captures() {
    let mut rng = StdRng::seed_from_u64(0x6a75_6e71);
    for game in 0..60 {
        let mut pos = Position::start_position();
        pos.set_rule_option("MaxPasses", "2").unwrap();
        let mut history: Vec<(Move, Undo, String, u64)> = Vec::new();
        for _ in 0..300 {
            if pos.outcome().is_some() {
                break;
            }
            let mut moves = MoveList::new();
            pos.legal_moves(&mut moves);
            let mut attacks = MoveList::new();
            pos.generate_attacks(&mut attacks);
            let expected: Vec<Move> = moves
                .iter()
                .copied()
                .filter(|&m| pos.is_attack(m))
                .collect();
            assert_eq!(
                attacks.to_vec(),
                expected,
                "attacks of {}",
                pos.to_notation()
            );
            let mv = match rng.random_range(0..100) {
                0 if game % 3 == 0 => Move::RESIGN,
                1..=2 => Move::PASS,
                _ => moves[rng.random_range(0..moves.len())],
            };
            let name = pos.move_name(mv);
            assert_eq!(pos.parse_move(&name).unwrap(), mv);
            let before = pos.to_notation();
            let hash = pos.hash();
            let undo = pos.make_move(mv);
            assert_eq!(
                pos.hash(),
                pos.compute_hash(),
                "incremental hash after {name}"
            );
            let text = pos.to_notation();
            let mut back = Position::from_notation(&text).unwrap();
            back.set_rule_option("MaxPasses", "2").unwrap();
            assert_eq!(back.to_notation(), text);
            assert_eq!(back.hash(), pos.hash());
            history.push((mv, undo, before, hash));
        }
        while let Some((mv, undo, before, hash)) = history.pop() {
            pos.unmake_move(mv, undo);
            assert_eq!(pos.to_notation(), before);
            assert_eq!(pos.hash(), hash);
            assert_eq!(pos.hash(), pos.compute_hash());
        }
        assert_eq!(pos.to_notation(), Position::start_position().to_notation());
    }
}

#[test]
fn a_piece_in_the_centre_counts_as_a_move_at_turn_start() {
    // Centre stations have rail neighbours only; E's lone major at i9 keeps E alive.
    let mut pos = build_with('S', "", &[("g6", "Sd"), ("i9", "Ef"), ("f11", "Wd")], false);
    play(&mut pos, "g6g5");
    assert!(!pos.is_out(1));
    assert_eq!(pos.side_to_move(), 1);
    assert!(!from(&pos, "i9").is_empty());
}

#[test]
fn a_forfeit_eliminates_any_seat_and_passes_the_turn_only_from_the_mover() {
    let pieces = [("g6", "Sd"), ("l7", "Ed"), ("k12", "Nd"), ("f11", "Wd")];
    let mut pos = build('S', &pieces);
    play(&mut pos, "g6g5");
    assert_eq!(pos.quiet_plies(), 1);
    // N is not to move: it leaves, E keeps the turn, the counter restarts.
    pos.forfeit(seat('N'));
    assert!(pos.is_out(seat('N')));
    assert_eq!(at(&pos, "k12"), ".");
    assert_eq!(pos.side_to_move(), seat('E'));
    assert_eq!(pos.quiet_plies(), 0);
    assert_eq!(pos.passes(seat('N')), 0, "a forfeit is not a pass");
    assert_eq!(pos.hash(), pos.compute_hash());
    // Again: nothing changes.
    let before = pos.to_notation();
    pos.forfeit(seat('N'));
    assert_eq!(pos.to_notation(), before);
    // E is to move: the turn passes to W (N is out), and S's team is not out yet.
    pos.forfeit(seat('E'));
    assert_eq!(pos.side_to_move(), seat('W'));
    assert_eq!(pos.outcome(), None);
    assert_eq!(pos.hash(), pos.compute_hash());
    // S, not to move, is the last of its team: E+W win.
    pos.forfeit(seat('S'));
    assert_eq!(pos.outcome(), Some(Outcome::Win(1)));
    // After the end of the game a forfeit changes nothing.
    let over = pos.to_notation();
    pos.forfeit(seat('W'));
    assert_eq!(pos.to_notation(), over);

    // The mover's forfeit leaves the next seat without a move: it goes out at the start
    // of its turn, as after a ply.
    let mut pos = build_with(
        'S',
        "",
        &[("g6", "Sd"), ("k12", "Nd"), ("f11", "Wd")],
        false,
    );
    pos.forfeit(seat('S'));
    assert!(
        pos.is_out(seat('E')),
        "E had no move at the start of its turn"
    );
    assert_eq!(pos.side_to_move(), seat('N'));
    assert_eq!(
        Position::from_notation(&pos.to_notation()).unwrap().hash(),
        pos.hash()
    );
}

/// An open record reads `out:` as the dark game's does: idempotent for a seat already
/// out, an error naming the ply for a seat still in a finished game.
#[test]
fn an_out_after_the_end_is_refused_in_the_open_record_too() {
    let read = |plies: &str| {
        let plies: Vec<String> = plies.split_whitespace().map(str::to_string).collect();
        Position::from_record(None, &plies, &[]).map(|told| told.position.to_notation())
    };
    assert_eq!(
        read("resign resign resign out:S").unwrap(),
        read("resign resign resign").unwrap()
    );
    let error = read("resign resign resign out:W").unwrap_err().to_string();
    assert!(error.starts_with("move 4 ('out:W')"), "{error}");
    assert!(error.contains("the game is over"), "{error}");
}

/// What the protocol is told in the dark game weighs its worlds by soft evidence
/// (deployment habits, pieces that sat still), not by the hard facts alone: its odds
/// differ from those of the same knowledge without evidence.
#[test]
fn dark_worlds_are_weighed_by_soft_evidence() {
    let setup = format!("setup S:{DEFAULT_LINEUP} E:- N:- W:-");
    let told = Position::from_dark_record(&setup, &[], &[], dark::Info::Dark).unwrap();
    let knowledge = told.hidden.expect("dark knowledge").display();
    let state = dark::InfoState::parse(&setup, "", Rules::default(), dark::Info::Dark).unwrap();
    let plain = dark::Knowledge::new(state, &dark::Evidence::NONE);
    assert_ne!(knowledge, crate::core::Hidden::display(&plain));
}

//! The rules one by one: each prohibition, the end of the game and the notation of moves.
//! Positions and verdicts were checked against cshogi.

use super::*;

fn pos(sfen: &str) -> Position {
    Position::from_notation(sfen).unwrap_or_else(|e| panic!("{sfen}: {e}"))
}

fn legal(pos: &Position) -> Vec<String> {
    let mut moves = MoveList::new();
    pos.legal_moves(&mut moves);
    let mut names: Vec<String> = moves.iter().map(|&m| m.to_string()).collect();
    names.sort();
    names
}

fn play(pos: &mut Position, moves: &str) {
    for text in moves.split_whitespace() {
        let mv = pos
            .parse_move(text)
            .unwrap_or_else(|e| panic!("{text}: {e}"));
        pos.make_move(mv);
    }
}

fn has(pos: &Position, mv: &str) -> bool {
    legal(pos).iter().any(|m| m == mv)
}

#[test]
fn uchifuzume_a_mating_pawn_drop_is_illegal() {
    // The king on 1a is boxed in by the golds; a pawn on 1b would be guarded by 1c.
    let boxed = pos("8k/6G2/8G/9/9/9/9/9/K8 b P 1");
    assert!(!has(&boxed, "P*1b"));
    // Elsewhere pawn drops are fine.
    assert!(has(&boxed, "P*2b") && has(&boxed, "P*5e"));
}

#[test]
fn uchifuzume_holds_when_the_only_capturer_is_pinned() {
    // The silver on 2a could take a pawn on 1b, but the rook on 9a pins it.
    assert!(!has(&pos("R6sk/9/7G1/9/9/9/9/9/4K4 b P 1"), "P*1b"));
    // Unpinned, the silver takes the pawn: no mate, so the drop is legal.
    assert!(has(&pos("7sk/9/7G1/9/9/9/9/9/R3K4 b P 1"), "P*1b"));
}

#[test]
fn uchifuzume_is_only_about_pawn_drops() {
    // A pawn push that mates is legal, promoted or not.
    let push = pos("R6sk/9/7GP/9/9/9/9/9/4K4 b - 1");
    assert!(has(&push, "1c1b") && has(&push, "1c1b+"));
    let mut mated = push.clone();
    play(&mut mated, "1c1b");
    assert_eq!(mated.result(), Some(Outcome::Win(0)));
    // A gold drop that mates is legal.
    let mut gold = pos("8k/9/8P/9/9/9/9/9/K8 b G 1");
    play(&mut gold, "G*1b");
    assert_eq!(gold.result(), Some(Outcome::Win(0)));
    // A pawn drop check the king can escape is legal.
    assert!(has(&pos("8k/9/8G/9/9/9/9/9/K8 b P 1"), "P*1b"));
}

#[test]
fn nifu_two_unpromoted_pawns_on_a_file_are_illegal() {
    let p = pos("4k4/9/9/9/4P4/9/9/9/4K4 b P 1");
    assert!(!legal(&p).iter().any(|m| m.starts_with("P*5")));
    assert!(has(&p, "P*4d"));
    // A tokin is not a pawn.
    assert!(has(&pos("4k4/9/9/9/4+P4/9/9/9/4K4 b P 1"), "P*5d"));
    // The enemy's pawn on the file does not matter.
    assert!(has(&pos("4k4/4p4/9/9/9/9/9/9/4K4 b P 1"), "P*5d"));
}

#[test]
fn no_piece_may_be_dropped_where_it_could_never_move() {
    let sente = legal(&pos("4k4/9/9/9/9/9/9/9/4K4 b LNP 1"));
    for bad in ["P*1a", "L*9a", "N*2a", "N*2b"] {
        assert!(!sente.contains(&bad.to_string()), "{bad}");
    }
    for good in ["P*1b", "L*9b", "N*2c"] {
        assert!(sente.contains(&good.to_string()), "{good}");
    }
    let gote = legal(&pos("4k4/9/9/9/9/9/9/9/4K4 w lnp 1"));
    for bad in ["P*1i", "L*9i", "N*2i", "N*2h"] {
        assert!(!gote.contains(&bad.to_string()), "{bad}");
    }
    assert!(gote.contains(&"N*2g".to_string()));
}

#[test]
fn promotion_is_forced_onto_the_last_ranks_and_optional_in_the_zone() {
    let p = legal(&pos("4k4/1P7/L8/1N7/9/9/9/9/4K4 b - 1"));
    let expect = |mv: &str, allowed: bool| {
        assert_eq!(p.contains(&mv.to_string()), allowed, "{mv}");
    };
    expect("8b8a", false);
    expect("8b8a+", true);
    expect("9c9a", false);
    expect("9c9a+", true);
    expect("9c9b", true);
    expect("9c9b+", true);
    expect("8d9b", false);
    expect("8d9b+", true);
    // Out of the zone a move may promote too, and far from it none may.
    let bishop = legal(&pos("4k4/9/1B7/9/9/9/9/9/4K4 b - 1"));
    assert!(bishop.contains(&"8c4g+".to_string()) && bishop.contains(&"8c4g".to_string()));
    let silver = legal(&pos("4k4/9/9/9/4S4/9/9/9/4K4 b - 1"));
    assert!(silver.contains(&"5e5d".to_string()) && !silver.contains(&"5e5d+".to_string()));
    // Golds, kings and promoted pieces never promote.
    let gold = legal(&pos("4k4/9/9/4G4/9/9/9/9/4K4 b - 1"));
    assert!(!gold.iter().any(|m| m.ends_with('+')));
}

#[test]
fn drops_never_promote_even_in_the_zone() {
    let p = pos("4k4/9/9/9/9/9/9/9/4K4 b B 1");
    assert!(has(&p, "B*5b"));
    assert!(!legal(&p).iter().any(|m| m.ends_with('+')));
}

#[test]
fn evasions_and_pins() {
    // Double check by the rook on 5e and the knight on 4c: only the king moves.
    let double = pos("4k4/9/5N3/9/4R4/9/9/9/4K4 w - 1");
    assert!(double.in_check());
    assert!(legal(&double).iter().all(|m| m.starts_with("5a")));
    // A single rook check from afar: block by moving or dropping, take, or step aside.
    let single = pos("4k4/9/9/9/4R4/9/9/9/4K4 w gb 1");
    let moves = legal(&single);
    for m in ["G*5b", "G*5c", "G*5d", "B*5d", "5a4b"] {
        assert!(moves.contains(&m.to_string()), "{m}: {moves:?}");
    }
    assert!(!moves.contains(&"G*4d".to_string()));
    assert!(
        !moves.contains(&"5a5b".to_string()),
        "still on the rook's file"
    );
    // A piece pinned by a bishop moves only along the pin line.
    let pinned = pos("4k4/9/9/9/9/9/2b6/3G5/4K4 b - 1");
    let gold: Vec<String> = legal(&pinned)
        .into_iter()
        .filter(|m| m.starts_with("6h"))
        .collect();
    assert_eq!(gold, vec!["6h7g".to_string()]);
    // A lance pins only along its one direction.
    let lance = pos("4l4/9/9/9/9/9/9/4S4/4K4 b - 1");
    let silver: Vec<String> = legal(&lance)
        .into_iter()
        .filter(|m| m.starts_with("5h"))
        .collect();
    assert_eq!(silver, vec!["5h5g".to_string()]);
}

#[test]
fn no_legal_move_loses_in_check_or_not() {
    assert_eq!(Position::start_position().result(), None);
    let mate = pos("4k4/4G4/4P4/9/9/9/9/9/4K4 w - 1");
    assert!(mate.in_check());
    assert_eq!(mate.result(), Some(Outcome::Win(0)));
    // Gote's king is its only piece and every flight is covered, with no check: a loss.
    let stuck = pos("8k/6+R2/9/9/9/9/9/9/4K4 w - 1");
    assert!(!stuck.in_check());
    assert_eq!(stuck.result(), Some(Outcome::Win(0)));
}

#[test]
fn sennichite_draws_on_the_fourth_occurrence() {
    let mut p = Position::start_position();
    play(&mut p, "5i4h 5a4b 4h5i 4b5a 5i4h 5a4b 4h5i 4b5a");
    assert_eq!(p.outcome(), None, "third occurrence");
    play(&mut p, "5i4h 5a4b 4h5i 4b5a");
    assert_eq!(p.outcome(), Some(Outcome::Draw));
    // Hands count: the same board with a different hand is a different position.
    assert_ne!(
        pos("4k4/9/9/9/9/9/9/9/4K4 b P 1").hash(),
        pos("4k4/9/9/9/9/9/9/9/4K4 b p 1").hash()
    );
}

#[test]
fn perpetual_check_loses_for_the_checking_side() {
    // Sente's rook checks on every move; the king shuttles between 1a and 2a.
    let mut p = pos("8k/9/9/9/9/9/9/9/4K2R1 b - 1");
    let cycle = "2i1i 1a2a 1i2i 2a1a";
    play(&mut p, &format!("{cycle} {cycle}"));
    assert_eq!(p.outcome(), None);
    play(&mut p, cycle);
    // Fourth occurrence with sente to move: sente gave every check and loses.
    assert_eq!(p.outcome(), Some(Outcome::Win(1)));
    // One ply on, the checked position occurs for the fourth time with gote to move.
    play(&mut p, "2i1i");
    assert_eq!(p.outcome(), Some(Outcome::Win(1)));
    // A null move breaks the chain: no repetition reaches across it.
    let mut q = pos("8k/9/9/9/9/9/9/9/4K2R1 w - 1");
    let undo = q.make_null_move().unwrap();
    assert_eq!(q.outcome(), None);
    q.unmake_null_move(undo);
}

#[test]
fn the_27_point_declaration() {
    let wins = |sfen: &str| pos(sfen).can_claim_win();
    // 10 pieces in camp (2 big, 8 small) and B G S N L P in hand: 28 points for sente.
    assert!(wins(
        "+B+R2K2+P1/4+P2+P1/+P+P+P+P3+P1/9/9/9/6k2/9/9 b BGSNLPgsnlp 1"
    ));
    assert_eq!(
        pos("+B+R2K2+P1/4+P2+P1/+P+P+P+P3+P1/9/9/9/6k2/9/9 b BGSNLPgsnlp 1").outcome(),
        Some(Outcome::Win(0))
    );
    // 27 points are not enough for sente ...
    assert!(!wins(
        "+B+R2K2+P1/4+P2+P1/+P+P+P+P3+P1/9/9/9/6k2/9/9 b BGSNLgsnl2p 1"
    ));
    // ... but they are for gote.
    assert!(wins(
        "9/9/6K2/9/9/9/1+p3+p+p+p+p/1+p2+p4/1+p2k2+r+b w bgsnlGSNL3P 1"
    ));
    assert!(!wins(
        "9/9/6K2/9/9/9/1+p3+p+p+p+p/1+p2+p4/1+p2k2+r+b w gsnl3pBGSNL 1"
    ));
    // Only the side to move declares.
    assert!(!wins(
        "9/9/6K2/9/9/9/1+p3+p+p+p+p/1+p2+p4/1+p2k2+r+b b bgsnlGSNL3P 1"
    ));
    // Nine pieces in camp are too few, however many points.
    assert!(!wins(
        "+B+R2K2+P1/4+P2+P1/+P+P+P+P5/9/9/9/6k2/9/9 b BGSNL3Pgsnl 1"
    ));
    // The king must be in the camp, and not in check.
    assert!(!wins(
        "+B+R7/4+P2+P1/+P+P+P+P3+P1/4K4/9/9/6k2/9/9 b BGSNLPgsnlp 1"
    ));
    assert!(!wins(
        "+B+R2K2+P1/4+Ps1+P1/+P+P+P+P3+P1/9/9/9/6k2/9/9 b BGNLPgnlp 1"
    ));
    assert!(!Position::start_position().can_claim_win());
}

#[test]
fn parse_move_tells_malformed_from_illegal() {
    let p = Position::start_position();
    assert_eq!(p.parse_move("7g7f").unwrap().to_string(), "7g7f");
    for (text, needle) in [
        ("", "malformed"),
        ("7g", "malformed"),
        ("7g7f++", "malformed"),
        ("7g7f=", "malformed"),
        ("7g0f", "malformed"),
        ("7j7f", "malformed"),
        ("P*5", "malformed"),
        ("K*5e", "malformed"),
        ("p*5e", "malformed"),
        ("P*5e+", "malformed"),
        ("７g7f", "malformed"),
        ("P*é", "malformed"),
        ("7g7e", "illegal"),
        ("7g7f+", "illegal"),
        ("P*5e", "illegal"),
    ] {
        let err = p.parse_move(text).unwrap_err().to_string();
        assert!(
            err.contains(needle) && err.contains(text),
            "{text:?}: {err}"
        );
    }
    let mut q = Position::start_position();
    play(&mut q, "7g7f 3c3d");
    let mv = q.parse_move("8h2b+").unwrap();
    assert!(mv.is_promotion() && !mv.is_drop());
    q.make_move(mv);
    play(&mut q, "3a2b");
    let drop = q.parse_move("B*5e").unwrap();
    assert!(drop.is_drop() && drop.drop_kind() == BISHOP);
}

#[test]
fn captures_and_promotions_are_the_noisy_moves() {
    let mut p = Position::start_position();
    play(&mut p, "7g7f 3c3d");
    let capture = p.parse_move("8h2b+").unwrap();
    assert!(p.is_capture(capture));
    let quiet = p.parse_move("2g2f").unwrap();
    assert!(!p.is_capture(quiet));
    let promotion = pos("4k4/9/9/4P4/9/9/9/9/4K4 b - 1")
        .parse_move("5d5c+")
        .unwrap();
    assert!(pos("4k4/9/9/4P4/9/9/9/9/4K4 b - 1").is_capture(promotion));
    let drop = pos("4k4/9/9/9/9/9/9/9/4K4 b P 1")
        .parse_move("P*5e")
        .unwrap();
    assert!(!pos("4k4/9/9/9/9/9/9/9/4K4 b P 1").is_capture(drop));
}

#[test]
fn display_shows_the_board_sfen_key_and_checkers() {
    let double = pos("4k4/9/5N3/9/4R4/9/9/9/4K4 w - 1");
    let text = double.display();
    assert!(text.contains("|   |   |   |   | k |"), "{text}");
    assert!(text.contains(&format!("Sfen: {}", double.to_notation())));
    assert!(text.contains(&format!("Key: {:016X}", double.hash())));
    assert!(text.contains("Checkers: 5e 4c"), "{text}");
}

#[test]
fn noisy_generation_is_the_legal_captures_and_promotions() {
    let mut rng = 0x5EED_u64;
    for start in [
        START_SFEN,
        "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
        "8l/1l+R2P3/p2pBG1pp/kps1p4/Nn1P2G2/P1P1P2PP/1PS6/1KSG3+r1/LN2+p3L w Sbgn3p 124",
    ] {
        let mut p = pos(start);
        for _ in 0..150 {
            let mut all = MoveList::new();
            p.legal_moves(&mut all);
            if all.is_empty() {
                break;
            }
            let mut expected: Vec<String> = all
                .iter()
                .filter(|&&m| p.in_check() || p.is_capture(m))
                .map(|m| m.to_string())
                .collect();
            let mut noisy = MoveList::new();
            p.generate_noisy(&mut noisy);
            let mut found: Vec<String> = noisy.iter().map(|m| m.to_string()).collect();
            expected.sort();
            found.sort();
            assert_eq!(found, expected, "{}", p.to_notation());
            rng = rng.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            p.make_move(all[(rng >> 33) as usize % all.len()]);
        }
    }
}

/// `EnteringKingRule` picks the declaration: 28 points for sente under CSA's 27-point rule
/// (the default), 31 under the 24-point rule, none at all without one.
#[test]
fn the_entering_king_rule_option() {
    let with = |sfen: &str, rule: &str| {
        let mut p = pos(sfen);
        assert!(p.set_rule_option("EnteringKingRule", rule).unwrap());
        p.can_claim_win()
    };
    let points_28 = "+B+R2K2+P1/4+P2+P1/+P+P+P+P3+P1/9/9/9/6k2/9/9 b BGSNLPgsnlp 1";
    let points_33 = "+B+R2K2+P1/4+P2+P1/+P+P+P+P3+P1/9/9/9/6k2/9/9 b RBGSNLPgsnlp 1";
    assert!(pos(points_28).can_claim_win());
    assert!(with(points_28, "CSARule27"));
    assert!(!with(points_28, "CSARule24"));
    assert!(
        with(points_33, "csarule24"),
        "option values are not case-sensitive"
    );
    assert!(!with(points_33, "NoEnteringKing"));
    assert_eq!(
        {
            let mut p = pos(points_33);
            p.set_rule_option("EnteringKingRule", "NoEnteringKing")
                .unwrap();
            p.outcome()
        },
        None
    );
    let mut p = pos(points_28);
    assert!(p.set_rule_option("EnteringKingRule", "TryRule").is_err());
    assert!(p.can_claim_win(), "a refused value changed the rule");
}

/// `MaxMovesToDraw`: once that many plies are played the game is drawn, unless the last
/// of them mated; 0 is no limit.
#[test]
fn the_max_moves_to_draw_option() {
    let limited = |sfen: &str, max: &str| {
        let mut p = pos(sfen);
        assert!(p.set_rule_option("MaxMovesToDraw", max).unwrap());
        p
    };
    // Move number 11: ten plies have been played.
    let quiet = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 11";
    assert_eq!(limited(quiet, "10").outcome(), Some(Outcome::Draw));
    assert_eq!(limited(quiet, "11").outcome(), None);
    assert_eq!(limited(quiet, "0").outcome(), None);
    // Gote is mated by the tenth ply: the mate stands.
    let mated = "4k4/4G4/4P4/9/9/9/9/9/4K4 w - 11";
    assert_eq!(limited(mated, "10").outcome(), Some(Outcome::Win(0)));
    // No declaration after the end either.
    let declare = "+B+R2K2+P1/4+P2+P1/+P+P+P+P3+P1/9/9/9/6k2/9/9 b BGSNLPgsnlp 11";
    let over = limited(declare, "10");
    assert_eq!(over.outcome(), Some(Outcome::Draw));
    assert!(!over.can_claim_win());
    assert!(pos(quiet).set_rule_option("MaxMovesToDraw", "-1").is_err());
}

//! Static evaluation of Siguo Junqi positions (open game: every rank is known).
//!
//! A seat lives as long as its flag, so the evaluation is built around two questions:
//! how much fighting power each team has (material, with the values of engineers and bombs
//! depending on what the enemy still has), and how close each flag is to being taken (its
//! guards, open rails towards it, enemies inside the seat's area, direct threats). On top
//! come the one-move threats between pieces (who can take what before the victim's seat
//! gets to move), rail mobility, camps and the no-combat draw counter.
//!
//! One evaluation is two passes over the board plus a few short ray walks per piece; it
//! runs at every node of the search, so everything here is table lookups and counting.

use super::board::{CENTRE, Kind, NO_STATION, STATIONS, TABLES, Tables};
use super::position::{
    BOMB, EMPTY, ENGINEER, FLAG, MINE, Move, Position, RANKS, rank_of, seat_of, team,
};
use crate::core::{Evaluator, MATE_BOUND, MoveList, Score};

/// Base value per rank `a`..`l`. Officers roughly double every two ranks: a marshal is
/// the only piece nothing but a bomb (or the other marshal) stops. Engineers and bombs
/// get their value from the enemy's remaining pieces ([`Values`]); mines are worth a
/// little in themselves and more next to their flag ([`FLAG_MINE`]); the flag has no
/// material value because losing it loses the whole seat ([`SEAT`]).
const BASE: [Score; RANKS] = [1000, 700, 420, 280, 190, 130, 90, 60, 70, 70, 0, 0];
/// An engineer's worth before counting enemy mines.
const ENGINEER_BASE: Score = 60;
/// Per enemy mine left: only engineers clear mines without dying.
const ENGINEER_PER_MINE: Score = 10;
/// Per enemy flag with a mine beside it: that flag falls only to an engineer (or a bomb).
const ENGINEER_PER_GUARDED_FLAG: Score = 25;
/// The last engineer of a seat: without one, mined flags are out of reach.
const LAST_ENGINEER: Score = 40;
/// A bomb's worth before the enemy's strongest officer is counted (a third of it added):
/// a bomb trades for anything, so it is worth what it can still trade for.
const BOMB_BASE: Score = 120;
/// Per live seat: losing the flag loses every piece at once and a turn in each round.
const SEAT: Score = 1200;
/// A team down to one seat moves once a round against the enemy's twice.
const ALONE: Score = 1500;
/// What taking a flag is worth in the threat terms (the seat's material comes on top
/// once it is really gone; this is only the weight of the threat).
const FLAG_GAIN: Score = 3000;
/// A mine on a step neighbour of its flag: only engineers and bombs get past it.
const FLAG_MINE: Score = 50;
/// A bomb beside the flag: whatever takes that route dies with it.
const FLAG_BOMB: Score = 35;
/// Any other friendly piece beside the flag blocks the square.
const FLAG_GUARD: Score = 15;
/// An empty square beside the flag is an open approach.
const FLAG_OPEN: Score = 20;
/// Per enemy piece that can ride onto the empty rail square beside a flag next ply: the
/// flag falls the ply after.
const OPEN_RAIL: Score = 120;
/// A public flag (its marshal is dead): the enemy knows where to strike, and in the dark
/// game the bluff of two HQs is gone. The intrusion danger counts half as much again.
const PUBLIC_FLAG: Score = 40;
/// Danger per enemy piece inside a seat's area, by the row it stands on (row 5 holds
/// the HQs).
const INTRUSION: [Score; 6] = [4, 8, 14, 22, 40, 60];
/// A piece in a camp cannot be attacked: a safe post, most useful in enemy territory.
const CAMP_OWN: Score = 8;
const CAMP_ENEMY: Score = 30;
/// Per empty station a movable piece could reach along the rails or by a step.
const MOBILITY: Score = 2;
/// A seat whose turn comes with no piece able to move is out, with everything it still
/// has: the less it has left that can move, the nearer that is. By the number of movable
/// pieces left, one to three (none counts as the whole seat lost).
const FEW_MOVERS: [Score; 3] = [400, 160, 50];
/// The no-combat counter damps the score over the last plies before the draw, so the
/// side that is ahead prefers combat (which resets the counter) to quiet shuffling.
const DRAW_WINDOW: i32 = 30;

/// The values that depend on the enemy's remaining pieces, per team.
#[derive(Clone, Copy, Debug)]
struct Values {
    engineer: [Score; 2],
    bomb: [Score; 2],
}

impl Values {
    /// The value of `piece`, whose seat has `count` pieces of its rank left.
    #[inline]
    fn of(&self, piece: u8, count: u8) -> Score {
        let t = team(seat_of(piece));
        match rank_of(piece) {
            ENGINEER => self.engineer[t] + if count == 1 { LAST_ENGINEER } else { 0 },
            BOMB => self.bomb[t],
            r => BASE[usize::from(r)],
        }
    }
}

/// Fixed values for move ordering and quiescence pruning, where a board scan per move
/// would cost more than the ordering gains: a bomb as if the enemy had its general.
const STATIC: Values = Values {
    engineer: [ENGINEER_BASE + 20; 2],
    bomb: [BOMB_BASE + 300; 2],
};

/// What the attacker wins by attacking: the victim's value if it wins, the difference on
/// a trade (bombs, equal ranks), nothing or less if it dies. Flags count [`FLAG_GAIN`].
#[inline]
fn combat_gain(att: u8, def: u8, att_value: Score, def_value: Score) -> Score {
    let (a, d) = (rank_of(att), rank_of(def));
    if d == FLAG {
        FLAG_GAIN
    } else if a == BOMB || d == BOMB || a == d {
        def_value - att_value
    } else if d == MINE {
        if a == ENGINEER { def_value } else { -att_value }
    } else if a < d {
        def_value
    } else {
        -att_value
    }
}

/// Whether a piece on `s` can move at all (and so attack): not a flag or mine, not in an HQ.
#[inline]
fn can_move(tables: &Tables, piece: u8, s: usize) -> bool {
    let r = rank_of(piece);
    r != FLAG && r != MINE && tables.kind[s] != Kind::Hq
}

/// Calls `hit` with every occupied station first met from `s`: its step neighbours and,
/// on a rail station, the first piece along every ride ray (a station met along two rays
/// may be reported twice; callers keep maxima, not sums). Returns the number of empty
/// stations passed, a cheap measure of mobility. Engineers' turning paths are left out:
/// they matter against mines and flags, which the step and straight approaches cover.
#[inline]
fn scan(tables: &Tables, board: &[u8; STATIONS], s: usize, mut hit: impl FnMut(usize)) -> Score {
    let mut empty = 0;
    for &n in tables.step[s].iter().take_while(|&&n| n != NO_STATION) {
        let n = usize::from(n);
        if board[n] == EMPTY {
            empty += 1;
        } else {
            hit(n);
        }
    }
    if tables.kind[s] == Kind::Rail {
        let (x, y) = tables.xy[s];
        for ray in tables.rays_from(s) {
            // A first station one orthogonal step away was met as a step neighbour;
            // across the centre and the arcs the first rail station is not a step away.
            let first = usize::from(ray[0]);
            let (fx, fy) = tables.xy[first];
            let skip = usize::from((fx - x).abs() + (fy - y).abs() == 1);
            for (i, &c) in ray.iter().enumerate() {
                let c = usize::from(c);
                if board[c] != EMPTY {
                    if i >= skip {
                        hit(c);
                    }
                    break;
                }
                if i >= skip {
                    empty += 1;
                }
            }
        }
    }
    empty
}

/// Threats against one seat, split by whether the attacker moves before the seat does.
#[derive(Clone, Copy, Default)]
struct Threats {
    /// Sum of the best gains against pieces whose attacker moves first, weighted.
    early: Score,
    /// The two best gains against pieces the seat can still save by moving first.
    late: [Score; 2],
}

/// The Junqi evaluator; see the module docs.
#[derive(Clone, Copy, Debug, Default)]
pub struct Eval;

impl Eval {
    /// The evaluation from team 0's (S+N's) view, before the draw damping.
    fn absolute(&self, pos: &Position) -> Score {
        let tables = &*TABLES;
        let board = &pos.board;
        let side = usize::from(pos.side);
        // Plies until each seat moves, up to order: out seats are skipped alike.
        let order = |seat: usize| (seat + 4 - side) % 4;

        // Pass 1: where the pieces are, what each seat has left, where the flags stand.
        let mut occupied = [0u8; 4 * 25];
        let mut n = 0;
        let mut count = [[0u8; RANKS]; 4];
        let mut flag_at = [usize::MAX; 4];
        let mut intruders = [0u8; 4];
        let mut movers = [0u8; 4];
        for (s, &p) in board.iter().enumerate() {
            if p == EMPTY || n == occupied.len() {
                continue;
            }
            occupied[n] = s as u8;
            n += 1;
            let (seat, r) = (seat_of(p) & 3, usize::from(rank_of(p)));
            if r < RANKS {
                count[seat][r] += 1;
            }
            if r == usize::from(FLAG) {
                flag_at[seat] = s;
            }
            movers[seat] += u8::from(can_move(tables, p, s));
            if s < CENTRE && team(s / 30) != team(seat) {
                intruders[s / 30] += 1;
            }
        }
        let mut mines = [0; 2];
        let mut guarded = [0; 2];
        let mut strongest = [Score::from(0u8); 2];
        for seat in 0..4 {
            let t = team(seat);
            mines[t] += Score::from(count[seat][usize::from(MINE)]);
            if let Some(r) = (0..usize::from(ENGINEER)).find(|&r| count[seat][r] > 0) {
                strongest[t] = strongest[t].max(BASE[r]);
            }
            if flag_at[seat] != usize::MAX {
                let mined = tables.step[flag_at[seat]]
                    .iter()
                    .take_while(|&&x| x != NO_STATION)
                    .any(|&x| board[usize::from(x)] == (seat as u8) << 4 | MINE);
                guarded[t] += Score::from(mined);
            }
        }
        let values = Values {
            engineer: [0, 1].map(|t| {
                ENGINEER_BASE
                    + ENGINEER_PER_MINE * mines[1 - t]
                    + ENGINEER_PER_GUARDED_FLAG * guarded[1 - t]
            }),
            bomb: [0, 1].map(|t| BOMB_BASE + strongest[1 - t] / 3),
        };

        // Each piece's value, by station, for the threat look-ups.
        let mut value_at = [0 as Score; STATIONS];
        for &s in &occupied[..n] {
            let p = board[usize::from(s)];
            let have = count[seat_of(p) & 3][usize::from(rank_of(p)).min(RANKS - 1)];
            value_at[usize::from(s)] = values.of(p, have);
        }

        // Pass 2: material, camps, intrusion, mobility and threats, per seat.
        let mut score = [0 as Score; 4];
        let mut danger = [0 as Score; 4];
        let mut threats = [Threats::default(); 4];
        for &s in &occupied[..n] {
            let s = usize::from(s);
            let p = board[s];
            let seat = seat_of(p) & 3;
            let (t, r) = (team(seat), rank_of(p));
            let value = value_at[s];
            score[seat] += value;
            let kind = tables.kind[s];
            if s < CENTRE && team(s / 30) != t {
                danger[s / 30] += INTRUSION[(s % 30) / 5];
                if kind == Kind::Camp {
                    score[seat] += CAMP_ENEMY;
                }
            } else if kind == Kind::Camp {
                score[seat] += CAMP_OWN;
            }
            // A road station behind the front row is reached only by steps from its own
            // area: with no enemy there, nothing can attack it. Nothing attacks a camp,
            // and only rail mobility is counted. Flags are looked at in the flag safety
            // below.
            if r == FLAG || kind == Kind::Camp || (kind != Kind::Rail && intruders[s / 30] == 0) {
                continue;
            }
            // Attackers of this piece, and its own freedom of movement.
            let mut early = 0;
            let mut late = 0;
            let empty = scan(tables, board, s, |h| {
                let q = board[h];
                let qs = seat_of(q) & 3;
                if team(qs) == t || !can_move(tables, q, h) {
                    return;
                }
                let gain = combat_gain(q, p, value_at[h], value);
                if gain <= 0 {
                    return;
                }
                if order(qs) < order(seat) {
                    // The mover's own capture is quiescence's to play; statically it is
                    // only a tempo. Another seat moving first takes half on average.
                    let weighted = if order(qs) == 0 { gain / 4 } else { gain / 2 };
                    early = early.max(weighted);
                } else {
                    late = late.max(gain);
                }
            });
            if kind == Kind::Rail && can_move(tables, p, s) {
                score[seat] += MOBILITY * empty;
            }
            let th = &mut threats[seat];
            th.early += early;
            if late > th.late[0] {
                th.late = [late, th.late[0]];
            } else if late > th.late[1] {
                th.late[1] = late;
            }
        }

        // Flag safety per live seat.
        for seat in 0..4 {
            let f = flag_at[seat];
            if pos.is_out(seat) || f == usize::MAX {
                continue;
            }
            let t = team(seat);
            let mut safety = 0;
            let mut attacked = 0;
            for &x in tables.step[f].iter().take_while(|&&x| x != NO_STATION) {
                let x = usize::from(x);
                let q = board[x];
                if q == EMPTY {
                    safety -= FLAG_OPEN;
                    if tables.kind[x] == Kind::Rail {
                        let mut riders = 0;
                        scan(tables, board, x, |h| {
                            let a = board[h];
                            if team(seat_of(a)) != t && can_move(tables, a, h) {
                                riders += 1;
                            }
                        });
                        safety -= OPEN_RAIL * riders.min(2);
                    }
                } else if team(seat_of(q)) != t {
                    // An attacker beside the flag: if its seat moves first the flag is
                    // as good as gone; otherwise it must be killed at once (a flag
                    // cannot step away).
                    if can_move(tables, q, x) {
                        attacked = attacked.max(if order(seat_of(q)) < order(seat) {
                            FLAG_GAIN / 2
                        } else {
                            FLAG_GAIN / 4
                        });
                    }
                } else {
                    safety += match rank_of(q) {
                        MINE if seat_of(q) == seat => FLAG_MINE,
                        BOMB => FLAG_BOMB,
                        _ => FLAG_GUARD,
                    };
                }
            }
            if pos.is_public(seat) {
                safety -= PUBLIC_FLAG + danger[seat] * 3 / 2;
            } else {
                safety -= danger[seat];
            }
            threats[seat].early += attacked;
            score[seat] += safety + SEAT;
        }

        // A live seat with nothing that can move is out when its turn comes.
        let gone = |seat: usize| pos.is_out(seat) || movers[seat] == 0;
        let mut total = 0;
        for seat in 0..4 {
            if gone(seat) {
                continue;
            }
            let th = &threats[seat];
            // The seat saves its most valuable threatened piece; the second one falls.
            let loss = th.early + th.late[0] / 8 + th.late[1] / 2;
            let few = FEW_MOVERS.get(usize::from(movers[seat]) - 1).copied();
            let own = score[seat] - loss - few.unwrap_or(0);
            total += if team(seat) == 0 { own } else { -own };
        }
        for t in 0..2 {
            let live = (0..2).filter(|k| !gone(t + 2 * k)).count();
            if live == 1 {
                total += if t == 0 { -ALONE } else { ALONE };
            }
        }
        total
    }
}

impl Evaluator<Position> for Eval {
    type State = ();

    fn new_state(&self, _: &Position) {}

    fn evaluate(&self, pos: &Position) -> Score {
        let mut total = self.absolute(pos);
        if team(usize::from(pos.side)) == 1 {
            total = -total;
        }
        if pos.rules.draw_plies > 0 {
            let left = i32::from(pos.rules.draw_plies.saturating_sub(pos.quiet));
            if left < DRAW_WINDOW {
                total = total * (DRAW_WINDOW + left) / (2 * DRAW_WINDOW);
            }
        }
        total.clamp(-(MATE_BOUND - 1), MATE_BOUND - 1)
    }

    /// Attacks: in Junqi every attack removes at least one piece.
    fn noisy_moves(&self, pos: &Position, moves: &mut MoveList<Move>) {
        pos.generate_moves(moves);
        moves.retain(|&mv| pos.is_attack(mv));
    }

    /// Quiescence skips attacks that lose the attacker for nothing (the open game shows
    /// the outcome in advance); trades and wins stay.
    fn good_capture(&self, pos: &Position, mv: Move) -> bool {
        attack_gain(pos, mv) >= 0
    }

    /// Flag captures first, then by what the exchange wins (most valuable victim, least
    /// valuable attacker), losing attacks last.
    fn capture_order(&self, pos: &Position, mv: Move) -> Score {
        if mv.is_special() {
            return 0;
        }
        let def = pos.board[usize::from(mv.to)];
        if def == EMPTY {
            return 0;
        }
        if rank_of(def) == FLAG {
            return 200_000;
        }
        let gain = attack_gain(pos, mv);
        if gain < 0 { gain - 10_000 } else { gain * 8 }
    }
}

/// What the attack `mv` wins by the fixed values (see [`combat_gain`]); 0 for a quiet move.
fn attack_gain(pos: &Position, mv: Move) -> Score {
    if mv.is_special() {
        return 0;
    }
    let (att, def) = (
        pos.board[usize::from(mv.from)],
        pos.board[usize::from(mv.to)],
    );
    if att == EMPTY || def == EMPTY {
        return 0;
    }
    combat_gain(att, def, STATIC.of(att, 2), STATIC.of(def, 2))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Game;
    use crate::games::junqi::DEFAULT_LINEUP;
    use crate::games::junqi::position::MARSHAL;

    fn setup(lineups: [&str; 4], first: char) -> Position {
        let text = format!(
            "setup S:{} E:{} N:{} W:{} first {first}",
            lineups[0], lineups[1], lineups[2], lineups[3]
        );
        Position::from_notation(&text).unwrap()
    }

    #[test]
    fn symmetric_start_scores_about_zero_for_either_team() {
        let l = DEFAULT_LINEUP;
        for first in ['S', 'E', 'N', 'W'] {
            let score = Eval.evaluate(&setup([l; 4], first));
            // Only the mover's tempo (its marshal can take a major general over the arc).
            assert!(score.abs() <= 150, "{first}: {score}");
        }
        let start = Eval.evaluate(&Position::start_position());
        assert!(start.abs() <= 150, "{start}");
    }

    #[test]
    fn a_marshal_up_scores_clearly_better_and_flips_with_the_team_to_move() {
        let l = DEFAULT_LINEUP;
        // E's marshal (its slot 0) is gone.
        let mut pos = setup([l; 4], 'S');
        let e_marshal = 30;
        assert_eq!(rank_of(pos.board[e_marshal]), MARSHAL);
        pos.board[e_marshal] = EMPTY;
        pos.hash = pos.compute_hash();
        let s_view = Eval.evaluate(&pos);
        pos.side = 1;
        let e_view = Eval.evaluate(&pos);
        assert!(s_view > 600, "S to move: {s_view}");
        assert!(e_view < -600, "E to move: {e_view}");
        // Consistent flip: the two views differ only by tempo terms.
        assert!((s_view + e_view).abs() < 300, "{s_view} vs {e_view}");
    }

    #[test]
    fn a_public_flag_and_missing_mines_cost_their_team() {
        let l = DEFAULT_LINEUP;
        let mut pos = setup([l; 4], 'S');
        let base = Eval.evaluate(&pos);
        pos.public |= 1 << 2; // N's flag made public
        let public = Eval.evaluate(&pos);
        assert!(public < base, "{base} -> {public}");
        // S loses the mine beside its flag (slot 27): the flag is less safe and E's
        // engineers lose some of their use, but S is worse off.
        let mut pos = setup([l; 4], 'S');
        assert_eq!(rank_of(pos.board[27]), MINE);
        pos.board[27] = EMPTY;
        let unmined = Eval.evaluate(&pos);
        assert!(unmined < base - FLAG_MINE, "{base} -> {unmined}");
    }

    #[test]
    fn a_seat_left_with_nothing_that_moves_counts_as_lost() {
        // S keeps its flag, its mines and the piece in its other HQ, none of which moves;
        // its partner N is to move, so the scores are S's team's.
        let l = DEFAULT_LINEUP;
        let mut stranded = setup([l; 4], 'N');
        for s in 0..30 {
            let p = stranded.board[s];
            if p != EMPTY && rank_of(p) != FLAG && rank_of(p) != MINE && s != 28 {
                stranded.board[s] = EMPTY;
            }
        }
        let none = Eval.evaluate(&stranded);
        // One lieutenant on S's front row keeps the seat in the game.
        let mut one = stranded.clone();
        one.board[2] = 7;
        let one = Eval.evaluate(&one);
        assert!(one - none > SEAT, "none {none}, one {one}");
        // A second and a third mover are worth more than their material alone.
        let mut three = stranded.clone();
        three.board[0] = 7;
        three.board[2] = 7;
        three.board[4] = 7;
        let three = Eval.evaluate(&three);
        let material = 2 * BASE[7];
        assert!(
            three - one > material + FEW_MOVERS[0] / 2,
            "one {one}, three {three}"
        );
    }

    #[test]
    fn a_flag_under_direct_attack_is_dangerous() {
        // Default lineup: the flag is on slot 26 (h1 for S). Put an E piece right beside it
        // (S's slot 27, i1) in place of S's own piece there.
        let l = DEFAULT_LINEUP;
        let mut pos = setup([l; 4], 'E');
        let quiet = Eval.evaluate(&pos);
        let beside = 27; // S slot 27
        assert_eq!(rank_of(pos.board[26]), FLAG);
        pos.board[beside] = 1 << 4 | 7; // an E lieutenant
        pos.hash = pos.compute_hash();
        let threatened = Eval.evaluate(&pos);
        // E moves next and can take the flag: a big plus for E.
        assert!(threatened - quiet > 1000, "{quiet} -> {threatened}");
        // With S to move (it can kill the attacker first) still clearly bad for S.
        pos.side = 0;
        let s_view = Eval.evaluate(&pos);
        assert!(s_view < -300, "{s_view}");
    }
}
/// Rough cost of one evaluation against one move generation, over positions of a random
/// game: `cargo test --release eval_cost -- --ignored --nocapture`.
#[cfg(test)]
mod cost {
    use super::*;
    use crate::core::Game;
    use rand::rngs::StdRng;
    use rand::{RngExt, SeedableRng};
    use std::hint::black_box;
    use std::time::Instant;

    #[test]
    #[ignore = "timing, for humans"]
    fn eval_cost() {
        let start = Position::start_position();
        let mut rng = StdRng::seed_from_u64(1);
        let mut positions = Vec::new();
        let mut pos = start.clone();
        for _ in 0..200 {
            let mut moves = MoveList::new();
            pos.legal_moves(&mut moves);
            if moves.is_empty() {
                pos = start.clone();
                continue;
            }
            pos.make_move(moves[rng.random_range(0..moves.len())]);
            positions.push(pos.clone());
        }
        let rounds = 5000;
        let calls = (rounds * positions.len()) as u128;
        let timer = Instant::now();
        let mut sum = 0i64;
        for _ in 0..rounds {
            for p in &positions {
                sum += i64::from(Eval.evaluate(black_box(p)));
            }
        }
        println!(
            "evaluate: {} ns ({sum})",
            timer.elapsed().as_nanos() / calls
        );
        let timer = Instant::now();
        let mut total = 0;
        for _ in 0..rounds {
            for p in &positions {
                let mut moves = MoveList::new();
                black_box(p).legal_moves(&mut moves);
                total += moves.len();
            }
        }
        println!(
            "legal_moves: {} ns ({total})",
            timer.elapsed().as_nanos() / calls
        );
    }
}

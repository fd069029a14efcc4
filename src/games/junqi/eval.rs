//! Static evaluation of Siguo Junqi positions (open game: every rank is known).
//!
//! A seat lives as long as its flag, so the evaluation is built around two questions:
//! how much fighting power each team has (material, with the values of engineers and bombs
//! depending on what the enemy still has), and how close each flag is to being taken (its
//! guards, open rails towards it, enemies inside the seat's area, enemies beside it or able
//! to come beside it with nothing of the flag's team to answer them). On top come the
//! one-move threats between pieces (who can take what before the victim's seat
//! gets to move), rail mobility, camps and the no-combat draw counter.
//!
//! Every term is a weight of `weights.rs` times a count (`core::linear`), the weights
//! blended from a full board to an empty one by the pieces left, so that `qiyi tune` can
//! fit them all to game results; what a threat puts at stake and move ordering use fixed
//! values ([`BASE`]), since they are needed before or without a full count.
//!
//! One evaluation is two passes over the board plus a few short ray walks per piece; it
//! runs at every node of the search, so everything here is table lookups and counting.

use super::board::{CENTRE, Kind, NO_STATION, STATIONS, TABLES, Tables};
use super::position::{
    BOMB, EMPTY, ENGINEER, FLAG, MINE, Move, Position, RANKS, engineer_approaches, rank_of,
    seat_of, stations, survivor, team,
};
use super::weights::WEIGHTS;
use crate::core::linear::{Pair, Sink, Total, Trace};
use crate::core::tunable::{Tunable, sections_from_starts};
use crate::core::{Evaluator, MATE_BOUND, MoveList, Score};

/// Fixed values per rank `a`..`l`, for what must not wait for a board scan: move ordering,
/// quiescence pruning and what a threat puts at stake. Officers roughly double every two
/// ranks: a marshal is the only piece nothing but a bomb (or the other marshal) stops.
/// Engineers and bombs get their value from the enemy's remaining pieces ([`Values`]);
/// the flag has no material value because losing it loses the whole seat. The material
/// the evaluation counts is in [`WEIGHTS`], fitted to games.
const BASE: [Score; RANKS] = [1000, 700, 420, 280, 190, 130, 90, 60, 70, 70, 0, 0];
/// An engineer's worth before counting enemy mines, in the threat values.
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
/// What taking a flag is worth in the threat terms (the seat's material comes on top
/// once it is really gone; this is only the weight of the threat).
const FLAG_GAIN: Score = 3000;
/// What a flag counts as at stake when an enemy stands beside it and nothing can remove
/// it in time: less than taking it is worth to the evaluation (the seat, its pieces and a
/// partner left alone: 2700 at least), or the search would leave such a flag standing
/// rather than take it.
const FLAG_LOST: Score = 2000;
/// The no-combat counter damps the score over the last plies before the draw, so the
/// side that is ahead prefers combat (which resets the counter) to quiet shuffling.
const DRAW_WINDOW: i32 = 30;
/// Pieces on the board at the start: the blend goes from the weights' first value (a full
/// board) to their second (an empty one) as pieces leave.
const FULL_BOARD: i32 = 100;

/// The evaluation's terms: each is a weight of [`WEIGHTS`] times a count, per team.
pub(super) mod terms {
    /// Material per officer rank, marshal to platoon leader.
    pub const OFFICER: usize = 0;
    /// Per engineer.
    pub const ENGINEER: usize = OFFICER + 8;
    /// Per engineer and enemy mine left: only engineers clear mines without dying.
    pub const ENGINEER_PER_MINE: usize = ENGINEER + 1;
    /// Per engineer and enemy flag with a mine beside it: such a flag falls only to an
    /// engineer (or a bomb).
    pub const ENGINEER_PER_GUARDED_FLAG: usize = ENGINEER_PER_MINE + 1;
    /// A seat's last engineer: without one, mined flags are out of reach.
    pub const LAST_ENGINEER: usize = ENGINEER_PER_GUARDED_FLAG + 1;
    pub const MINE: usize = LAST_ENGINEER + 1;
    pub const BOMB: usize = MINE + 1;
    /// Per bomb and thirtieth of the fixed value of the enemy's strongest officer: a bomb
    /// trades for anything, so it is worth what it can still trade for.
    pub const BOMB_PER_STRONGEST: usize = BOMB + 1;
    /// Per live seat: losing the flag loses every piece at once and a turn in each round.
    pub const SEAT: usize = BOMB_PER_STRONGEST + 1;
    /// A team down to one seat moves once a round against the enemy's twice.
    pub const ALONE: usize = SEAT + 1;
    /// A mine on a step neighbour of its flag: only engineers and bombs get past it.
    pub const FLAG_MINE: usize = ALONE + 1;
    /// A bomb beside the flag: whatever takes that route dies with it.
    pub const FLAG_BOMB: usize = FLAG_MINE + 1;
    /// Any other friendly piece beside the flag blocks the square.
    pub const FLAG_GUARD: usize = FLAG_BOMB + 1;
    /// An empty square beside the flag is an open approach.
    pub const FLAG_OPEN: usize = FLAG_GUARD + 1;
    /// Per enemy piece (two at most) that can ride onto the empty rail square beside a
    /// flag next ply: the flag falls the ply after.
    pub const OPEN_RAIL: usize = FLAG_OPEN + 1;
    /// Per movable piece of the flag's team on a rail station beside the rail square
    /// before the flag (two at most): while they stand, no engineer rides onto that
    /// square's mine or onto the station beside the back-row corner's, and whatever
    /// takes that square, they reach.
    pub const RAIL_GUARD: usize = OPEN_RAIL + 1;
    /// A public flag (its marshal is dead): the enemy knows where to strike, and in the
    /// dark game the bluff of two HQs is gone.
    pub const PUBLIC_FLAG: usize = RAIL_GUARD + 1;
    /// Per enemy piece inside a seat's area, by the row it stands on (row 5 holds the HQs).
    pub const INTRUSION: usize = PUBLIC_FLAG + 1;
    /// The same when the seat's flag is public.
    pub const INTRUSION_PUBLIC: usize = INTRUSION + 6;
    /// A piece in a camp cannot be attacked: a safe post, most useful in enemy territory.
    pub const CAMP_OWN: usize = INTRUSION_PUBLIC + 6;
    pub const CAMP_ENEMY: usize = CAMP_OWN + 1;
    /// Per empty station a movable piece on a rail could reach along the rails or by a
    /// step.
    pub const MOBILITY: usize = CAMP_ENEMY + 1;
    /// A seat whose turn comes with no piece able to move is out, with everything it still
    /// has: the fewer it has that can move, the nearer that is. By one to three movable
    /// pieces left (none counts as the whole seat lost).
    pub const FEW_MOVERS: usize = MOBILITY + 1;
    /// Per 16 centipawns at stake (by the fixed values) against pieces whose attacker
    /// moves before their seat does, an attacker beside the flag included.
    pub const THREAT_EARLY: usize = FEW_MOVERS + 3;
    /// Per 16 centipawns at stake against the piece the seat can save by moving first, the
    /// most valuable of those threatened.
    pub const THREAT_SAVED: usize = THREAT_EARLY + 1;
    /// The same for the second most valuable: the seat cannot save both.
    pub const THREAT_SECOND: usize = THREAT_SAVED + 1;
    pub const COUNT: usize = THREAT_SECOND + 1;
}

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
        // A first station a step away was met as a step neighbour; across the centre
        // and the arcs the first rail station is not a step away.
        for (ray, step) in tables.rays_and_steps_from(s) {
            let skip = usize::from(step);
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
    /// What an enemy beside the flag puts at stake.
    flag: Score,
    /// The two best gains against pieces the seat can still save by moving first.
    late: [Score; 2],
}

/// The Junqi evaluator; see the module docs.
#[derive(Clone, Copy, Debug, Default)]
pub struct Eval;

/// Walks `pos` once and hands every term of the evaluation, with its count for each
/// team, to `sink` (see `core::linear`); answers the pieces on the board (at most
/// [`FULL_BOARD`]), the blend's phase.
fn terms(pos: &Position, sink: &mut impl Sink) -> i32 {
    let tables = &*TABLES;
    let board = &pos.board;
    let side = usize::from(pos.side);
    // Plies until each seat moves, up to order: out seats are skipped alike.
    let order = |seat: usize| (seat + 4 - side) % 4;

    // Pass 1: where the pieces are, what each seat has left, where the flags stand.
    let mut occupied = [0u8; FULL_BOARD as usize];
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
    // A live seat with nothing that can move is out when its turn comes: none of its
    // terms count.
    let gone = |seat: usize| pos.is_out(seat) || movers[seat] == 0;
    let mut mines = [0; 2];
    let mut guarded = [0; 2];
    let mut strongest = [Score::from(0u8); 2];
    for seat in 0..4 {
        let t = team(seat);
        mines[t] += i32::from(count[seat][usize::from(MINE)]);
        if let Some(r) = (0..usize::from(ENGINEER)).find(|&r| count[seat][r] > 0) {
            strongest[t] = strongest[t].max(BASE[r]);
        }
        if flag_at[seat] != usize::MAX {
            let mined = tables.step[flag_at[seat]]
                .iter()
                .take_while(|&&x| x != NO_STATION)
                .any(|&x| board[usize::from(x)] == (seat as u8) << 4 | MINE);
            guarded[t] += i32::from(mined);
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

    // Material, per live seat.
    for seat in (0..4).filter(|&seat| !gone(seat)) {
        let t = team(seat);
        let have = |r: u8| i32::from(count[seat][usize::from(r)]);
        for r in 0..ENGINEER {
            sink.add(t, terms::OFFICER + usize::from(r), have(r));
        }
        let engineers = have(ENGINEER);
        sink.add(t, terms::ENGINEER, engineers);
        sink.add(t, terms::ENGINEER_PER_MINE, engineers * mines[1 - t]);
        sink.add(
            t,
            terms::ENGINEER_PER_GUARDED_FLAG,
            engineers * guarded[1 - t],
        );
        sink.add(t, terms::LAST_ENGINEER, i32::from(engineers == 1));
        sink.add(t, terms::MINE, have(MINE));
        sink.add(t, terms::BOMB, have(BOMB));
        sink.add(
            t,
            terms::BOMB_PER_STRONGEST,
            have(BOMB) * strongest[1 - t] / 30,
        );
        if let Some(few) = usize::from(movers[seat]).checked_sub(1).filter(|&m| m < 3) {
            sink.add(t, terms::FEW_MOVERS + few, 1);
        }
    }

    // Each piece's value, by station, for the threat look-ups.
    let mut value_at = [0 as Score; STATIONS];
    for &s in &occupied[..n] {
        let p = board[usize::from(s)];
        let have = count[seat_of(p) & 3][usize::from(rank_of(p)).min(RANKS - 1)];
        value_at[usize::from(s)] = values.of(p, have);
    }

    // Pass 2: camps, intrusion, mobility and threats, per seat.
    let mut intrusion = [[0; 6]; 4];
    let mut threats = [Threats::default(); 4];
    for &s in &occupied[..n] {
        let s = usize::from(s);
        let p = board[s];
        let seat = seat_of(p) & 3;
        if gone(seat) {
            continue;
        }
        let (t, r) = (team(seat), rank_of(p));
        let value = value_at[s];
        let kind = tables.kind[s];
        if s < CENTRE && team(s / 30) != t {
            intrusion[s / 30][(s % 30) / 5] += 1;
            if kind == Kind::Camp {
                sink.add(t, terms::CAMP_ENEMY, 1);
            }
        } else if kind == Kind::Camp {
            sink.add(t, terms::CAMP_OWN, 1);
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
                // only a tempo. Another seat moving first takes half on average (the
                // seat after the mover at three quarters lost head to head, at a
                // quarter it did not gain: lab/benchmarks.md, twenty-sixth and
                // thirty-third steps).
                let weighted = if order(qs) == 0 { gain / 4 } else { gain / 2 };
                early = early.max(weighted);
            } else {
                late = late.max(gain);
            }
        });
        if kind == Kind::Rail && can_move(tables, p, s) {
            sink.add(t, terms::MOBILITY, empty);
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
        if gone(seat) || f == usize::MAX {
            continue;
        }
        let t = team(seat);
        sink.add(t, terms::SEAT, 1);
        let (mut guards, mut open, mut riders, mut rail_guards) = ([0; 3], 0, 0, 0);
        for &x in tables.step[f].iter().take_while(|&&x| x != NO_STATION) {
            let x = usize::from(x);
            let q = board[x];
            if tables.kind[x] == Kind::Rail {
                for &y in tables.step[x].iter().take_while(|&&y| y != NO_STATION) {
                    let y = usize::from(y);
                    let g = board[y];
                    rail_guards += i32::from(
                        tables.kind[y] == Kind::Rail
                            && g != EMPTY
                            && team(seat_of(g)) == t
                            && can_move(tables, g, y),
                    );
                }
            }
            let own_mine = q != EMPTY && team(seat_of(q)) == t && rank_of(q) == MINE;
            if q == EMPTY || own_mine {
                // An enemy that can come to this square (only an engineer onto a mine)
                // takes the flag next if nothing of the flag's team reaches the square:
                // almost surely when its seat moves now, a thing to mend otherwise.
                let (mut here, mut covered, mut first) = (0, false, usize::MAX);
                scan(tables, board, x, |h| {
                    let a = board[h];
                    if !can_move(tables, a, h) {
                        return;
                    }
                    if team(seat_of(a)) == t {
                        covered = true;
                    } else if q == EMPTY || rank_of(a) == ENGINEER {
                        here += 1;
                        first = first.min(order(seat_of(a) & 3));
                    }
                });
                if q == EMPTY {
                    open += 1;
                    if tables.kind[x] == Kind::Rail {
                        riders += here.min(2);
                    }
                }
                if !covered && tables.kind[x] == Kind::Rail {
                    for e in stations(&engineer_approaches(board, x, t)) {
                        if rank_of(board[e]) == ENGINEER {
                            first = first.min(order(seat_of(board[e]) & 3));
                        }
                    }
                }
                if !covered && first != usize::MAX {
                    let at_stake = if first == 0 {
                        FLAG_GAIN / 2
                    } else {
                        FLAG_GAIN / 8
                    };
                    threats[seat].flag = threats[seat].flag.max(at_stake);
                }
                if own_mine {
                    guards[0] += 1;
                }
            } else if team(seat_of(q)) != t {
                // An attacker beside the flag must be removed before its seat moves (a
                // flag cannot step away). If no seat of the flag's team that moves
                // first can reach it with a piece that removes it, the flag is gone;
                // otherwise it is at stake, the more so when the attacker's seat moves
                // before the flag's.
                if can_move(tables, q, x) {
                    let before = order(seat_of(q));
                    let mut removable = false;
                    scan(tables, board, x, |h| {
                        let d = board[h];
                        removable |= team(seat_of(d)) == t
                            && order(seat_of(d) & 3) < before
                            && can_move(tables, d, h)
                            && survivor(d, q) != q;
                    });
                    let at_stake = if !removable {
                        FLAG_LOST
                    } else if before < order(seat) {
                        FLAG_GAIN / 2
                    } else {
                        FLAG_GAIN / 4
                    };
                    threats[seat].flag = threats[seat].flag.max(at_stake);
                }
            } else {
                guards[match rank_of(q) {
                    MINE if seat_of(q) == seat => 0,
                    BOMB => 1,
                    _ => 2,
                }] += 1;
            }
        }
        sink.add(t, terms::FLAG_MINE, guards[0]);
        sink.add(t, terms::FLAG_BOMB, guards[1]);
        sink.add(t, terms::FLAG_GUARD, guards[2]);
        sink.add(t, terms::FLAG_OPEN, open);
        sink.add(t, terms::OPEN_RAIL, riders);
        sink.add(t, terms::RAIL_GUARD, rail_guards);
        let public = pos.is_public(seat);
        sink.add(t, terms::PUBLIC_FLAG, i32::from(public));
        let rows = if public {
            terms::INTRUSION_PUBLIC
        } else {
            terms::INTRUSION
        };
        for (row, &k) in intrusion[seat].iter().enumerate() {
            sink.add(t, rows + row, k);
        }
    }

    for seat in (0..4).filter(|&seat| !gone(seat)) {
        let th = &threats[seat];
        let t = team(seat);
        sink.add(t, terms::THREAT_EARLY, (th.early + th.flag) / 16);
        sink.add(t, terms::THREAT_SAVED, th.late[0] / 16);
        sink.add(t, terms::THREAT_SECOND, th.late[1] / 16);
    }
    for t in 0..2 {
        if (0..2).filter(|k| !gone(t + 2 * k)).count() == 1 {
            sink.add(t, terms::ALONE, -1);
        }
    }
    n as i32
}

/// The draw damping as a fraction (numerator over `2 * DRAW_WINDOW`): 1 until the last
/// [`DRAW_WINDOW`] plies before the no-combat draw.
fn draw_damping(pos: &Position) -> i32 {
    if pos.rules.draw_plies > 0 {
        let left = i32::from(pos.rules.draw_plies.saturating_sub(pos.quiet));
        if left < DRAW_WINDOW {
            return DRAW_WINDOW + left;
        }
    }
    2 * DRAW_WINDOW
}

impl Tunable for Position {
    const WEIGHTS: &'static [Pair] = &WEIGHTS;

    fn sections() -> Vec<(&'static str, usize)> {
        let starts = [
            ("officers, marshal to platoon leader", terms::OFFICER),
            ("engineer", terms::ENGINEER),
            ("engineer per enemy mine", terms::ENGINEER_PER_MINE),
            (
                "engineer per guarded enemy flag",
                terms::ENGINEER_PER_GUARDED_FLAG,
            ),
            ("last engineer", terms::LAST_ENGINEER),
            ("mine", terms::MINE),
            ("bomb", terms::BOMB),
            (
                "bomb per thirtieth of the enemy's strongest",
                terms::BOMB_PER_STRONGEST,
            ),
            ("seat", terms::SEAT),
            ("alone", terms::ALONE),
            ("mine beside the flag", terms::FLAG_MINE),
            ("bomb beside the flag", terms::FLAG_BOMB),
            ("guard beside the flag", terms::FLAG_GUARD),
            ("open square beside the flag", terms::FLAG_OPEN),
            ("rider onto an open rail beside the flag", terms::OPEN_RAIL),
            (
                "guard beside the rail square before the flag",
                terms::RAIL_GUARD,
            ),
            ("public flag", terms::PUBLIC_FLAG),
            ("intruders by row", terms::INTRUSION),
            ("intruders by row, flag public", terms::INTRUSION_PUBLIC),
            ("camp, own area", terms::CAMP_OWN),
            ("camp, enemy area", terms::CAMP_ENEMY),
            ("rail mobility", terms::MOBILITY),
            ("one, two, three movable pieces left", terms::FEW_MOVERS),
            ("threats before the seat moves", terms::THREAT_EARLY),
            ("threat the seat saves", terms::THREAT_SAVED),
            ("second threat", terms::THREAT_SECOND),
        ];
        sections_from_starts(&starts, terms::COUNT)
    }

    /// The blend's phase and the draw damping folded into the shares.
    fn trace(&self) -> (Trace, f64, f64) {
        let mut trace = Trace::new(terms::COUNT);
        let phase = f64::from(terms(self, &mut trace));
        let damping = f64::from(draw_damping(self)) / f64::from(2 * DRAW_WINDOW);
        let full = f64::from(FULL_BOARD);
        (
            trace,
            phase / full * damping,
            (full - phase) / full * damping,
        )
    }
}

impl Evaluator<Position> for Eval {
    type State = ();

    fn new_state(&self, _: &Position) {}

    fn evaluate(&self, pos: &Position) -> Score {
        let mut total = Total::new(&WEIGHTS);
        let phase = terms(pos, &mut total);
        let Pair(full, empty) = total.sum;
        let mut score = (full * phase + empty * (FULL_BOARD - phase)) / FULL_BOARD;
        if team(usize::from(pos.side)) == 1 {
            score = -score;
        }
        score = score * draw_damping(pos) / (2 * DRAW_WINDOW);
        score.clamp(-(MATE_BOUND - 1), MATE_BOUND - 1)
    }

    /// Attacks: in Junqi every attack removes at least one piece.
    fn noisy_moves(&self, pos: &Position, moves: &mut MoveList<Move>) {
        pos.generate_attacks(moves);
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

/// A piece's fixed value (the one move ordering uses), where a network's training starts
/// its direct weights.
pub(super) fn static_value(piece: u8) -> Score {
    STATIC.of(piece, 2)
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
        assert!(
            unmined < base - WEIGHTS[terms::FLAG_MINE].0,
            "{base} -> {unmined}"
        );
    }

    #[test]
    fn the_trace_reproduces_the_score() {
        // The tuner sees the evaluation only through the trace: blending the traced counts
        // with the weights must give what play uses, along a random game.
        use rand::rngs::StdRng;
        use rand::{RngExt, SeedableRng};
        let mut rng = StdRng::seed_from_u64(3);
        let mut pos = Position::start_position();
        for _ in 0..300 {
            let mut moves = MoveList::new();
            pos.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            pos.make_move(moves[rng.random_range(0..moves.len())]);
            let (trace, full, empty) = pos.trace();
            let Pair(a, b) = trace.total(&WEIGHTS);
            let traced = f64::from(a) * full + f64::from(b) * empty;
            let mut played = f64::from(Eval.evaluate(&pos));
            if team(usize::from(pos.side)) == 1 {
                played = -played;
            }
            assert!((traced - played).abs() <= 2.0, "{traced} {played}");
        }
    }

    #[test]
    fn the_weights_file_is_what_the_tuner_writes() {
        assert_eq!(
            crate::core::tunable::current_source::<Position>(),
            include_str!("weights.rs")
        );
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
        assert!(
            one - none > WEIGHTS[terms::SEAT].0,
            "none {none}, one {one}"
        );
        // A second and a third mover are worth more than their material alone.
        let mut three = stranded.clone();
        three.board[0] = 7;
        three.board[2] = 7;
        three.board[4] = 7;
        let three = Eval.evaluate(&three);
        let material = 2 * WEIGHTS[terms::OFFICER + 7].0;
        let few = -WEIGHTS[terms::FEW_MOVERS].0;
        assert!(three - one > material + few / 2, "one {one}, three {three}");
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

    #[test]
    fn an_attacker_beside_the_flag_that_nothing_can_reach_takes_it() {
        // An E engineer beside S's flag (S's slot 27, a back-row road station whose only
        // movable neighbour is slot 22), S to move. With S's own lieutenant on slot 22,
        // S removes the engineer before E moves; with N's, the same material for the
        // same team, nothing that moves before E reaches it, and the flag is gone.
        let l = DEFAULT_LINEUP;
        let mut pos = setup([l; 4], 'S');
        pos.board[27] = 1 << 4 | ENGINEER;
        pos.board[22] = 7; // an S lieutenant
        pos.hash = pos.compute_hash();
        let guarded = Eval.evaluate(&pos);
        pos.board[22] = 2 << 4 | 7; // an N lieutenant
        pos.hash = pos.compute_hash();
        let lost = Eval.evaluate(&pos);
        assert!(guarded - lost > FLAG_LOST / 2, "{guarded} -> {lost}");
    }

    #[test]
    fn an_engineer_that_can_ride_onto_an_uncovered_mine_beside_the_flag_threatens_it() {
        // S keeps its front rows, the mine on slot 21 before the flag (slot 26) and
        // nothing behind: nothing of S's reaches slot 21. An E engineer on slot 19 rides
        // 24, 23, 22 onto the mine, turning as only engineers may; the same engineer at
        // home (E's slot 29) reaches nothing.
        let l = DEFAULT_LINEUP;
        let mut home = setup([l; 4], 'E');
        assert_eq!(rank_of(home.board[21]), MINE);
        assert_eq!(rank_of(home.board[59]), ENGINEER);
        for slot in [15, 17, 19, 20, 22, 23, 24, 25, 27, 28, 29] {
            home.board[slot] = EMPTY;
        }
        home.hash = home.compute_hash();
        let mut riding = home.clone();
        riding.board[19] = riding.board[59];
        riding.board[59] = EMPTY;
        riding.hash = riding.compute_hash();
        let (quiet, threatened) = (Eval.evaluate(&home), Eval.evaluate(&riding));
        assert!(
            threatened - quiet > 1000,
            "E to move: {quiet} -> {threatened}"
        );
        home.side = 0;
        riding.side = 0;
        let (quiet, threatened) = (Eval.evaluate(&home), Eval.evaluate(&riding));
        assert!(
            quiet - threatened > 250,
            "S to move: {quiet} -> {threatened}"
        );
    }

    #[test]
    fn pieces_beside_the_rail_square_before_the_flag_guard_it() {
        // Default lineup: S's flag on slot 26, the mine before it on slot 21, a rail
        // station, with the rail stations 20 and 22 beside it.
        let guards = |pos: &Position| pos.trace().0.0[terms::RAIL_GUARD];
        let l = DEFAULT_LINEUP;
        let mut pos = setup([l; 4], 'S');
        assert_eq!(rank_of(pos.board[26]), FLAG);
        assert!(can_move(&TABLES, pos.board[20], 20) && can_move(&TABLES, pos.board[22], 22));
        assert_eq!(guards(&pos), 0, "both teams alike");
        pos.board[20] = EMPTY;
        assert_eq!(guards(&pos), -1);
        pos.board[20] = 2 << 4 | 7; // the partner's lieutenant guards as well
        assert_eq!(guards(&pos), 0);
        pos.board[20] = 1 << 4 | 7; // an enemy's does not
        assert_eq!(guards(&pos), -1);
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

//! The position, move generation and combat; turn order and elimination are the rules of
//! [`super::turn`], applied here with hashing and graves.
//!
//! A piece is one byte, `seat << 4 | rank` (rank 0..12 = letters `a`..`l`), and
//! [`EMPTY`] marks an empty station. Eliminated seats keep a copy of the pieces they
//! lost in `graves`, so an elimination can be taken back without a full position copy
//! in the (copyable) undo record: a seat is eliminated at most once along a line of play.

use super::board::{self, CENTRE, Kind, NO_STATION, STATIONS, TABLES};
use super::turn::{self, Rules, Turns};
use crate::core::{MoveList, Outcome};
use once_cell::sync::Lazy;

/// An empty station in [`Position::board`].
pub const EMPTY: u8 = u8::MAX;

/// Ranks, by notation letter: `a` marshal (司令) … `i` engineer (工兵), then the three
/// special pieces. A lower number is a higher rank among `MARSHAL..=ENGINEER`.
pub const MARSHAL: u8 = 0;
pub const ENGINEER: u8 = 8;
pub const MINE: u8 = 9;
pub const BOMB: u8 = 10;
pub const FLAG: u8 = 11;
/// Number of ranks.
pub const RANKS: usize = 12;
/// How many of each rank a seat deploys.
pub const COUNTS: [u8; RANKS] = [1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 2, 1];

/// Seat of a piece byte.
#[inline]
pub fn seat_of(piece: u8) -> usize {
    usize::from(piece >> 4)
}

/// Rank of a piece byte.
#[inline]
pub fn rank_of(piece: u8) -> u8 {
    piece & 15
}

/// The team of a seat: S, N → 0; E, W → 1.
#[inline]
pub fn team(seat: usize) -> usize {
    seat & 1
}

/// What stands on the target after `attacker` attacks `defender` (piece bytes), or
/// [`EMPTY`] when both are removed: rule 1 bomb, 2 flag, 3 mine, 4 ranks.
#[inline]
pub fn survivor(attacker: u8, defender: u8) -> u8 {
    let (a, d) = (rank_of(attacker), rank_of(defender));
    if a == BOMB || d == BOMB {
        EMPTY
    } else if d == FLAG {
        attacker
    } else if d == MINE {
        if a == ENGINEER { attacker } else { defender }
    } else if a == d {
        EMPTY
    } else if a < d {
        attacker
    } else {
        defender
    }
}

/// A ply: a move `from`→`to` between stations, or one of the three plies without a piece
/// (`from == SPECIAL`, `to` = [`Move::PASS`], [`Move::TIMEOUT`] or [`Move::RESIGN`]).
/// Those are accepted from move lists but never generated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    pub from: u8,
    pub to: u8,
}

impl Move {
    pub const SPECIAL: u8 = u8::MAX;
    pub const PASS: Move = Move {
        from: Move::SPECIAL,
        to: 0,
    };
    pub const TIMEOUT: Move = Move {
        from: Move::SPECIAL,
        to: 1,
    };
    pub const RESIGN: Move = Move {
        from: Move::SPECIAL,
        to: 2,
    };

    /// Whether this is a pass, timeout or resignation.
    #[inline]
    pub fn is_special(self) -> bool {
        self.from == Move::SPECIAL
    }
}

impl std::fmt::Display for Move {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            Move::PASS => f.write_str("pass"),
            Move::TIMEOUT => f.write_str("timeout"),
            Move::RESIGN => f.write_str("resign"),
            Move { from, to } if usize::from(from) < STATIONS && usize::from(to) < STATIONS => {
                write!(
                    f,
                    "{}{}",
                    board::name(usize::from(from)),
                    board::name(usize::from(to))
                )
            }
            _ => f.write_str("0000"),
        }
    }
}

/// What [`Position::play`] destroys, for [`Position::take_back`].
#[derive(Clone, Copy, Debug)]
pub struct Undo {
    moved: u8,
    captured: u8,
    side: u8,
    out: u8,
    public: u8,
    mover_passes: u8,
    quiet: u16,
    hash: u64,
}

/// Zobrist keys from a fixed-seed splitmix64 stream.
struct Keys {
    piece: [[u64; STATIONS]; 64],
    side: [u64; 4],
    out: [u64; 4],
    public: [u64; 4],
    passes: [[u64; 256]; 4],
}

static KEYS: Lazy<Box<Keys>> = Lazy::new(|| {
    let mut state = 0x6a75_6e71_6973_6775_u64; // "junqisgu"
    let mut next = || {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    };
    let mut keys = Box::new(Keys {
        piece: [[0; STATIONS]; 64],
        side: [0; 4],
        out: [0; 4],
        public: [0; 4],
        passes: [[0; 256]; 4],
    });
    for row in keys.piece.iter_mut() {
        row.iter_mut().for_each(|k| *k = next());
    }
    for seat in 0..4 {
        keys.side[seat] = next();
        keys.out[seat] = next();
        keys.public[seat] = next();
        // Zero passes costs nothing, so a position without passes needs no key.
        for count in 1..256 {
            keys.passes[seat][count] = next();
        }
    }
    keys
});

/// A Siguo Junqi position (open game: every rank known).
#[derive(Clone, Debug)]
pub struct Position {
    /// Piece byte per station, or [`EMPTY`].
    pub(super) board: [u8; STATIONS],
    /// The seat to move; on a finished game by elimination, the seat that moved last.
    pub(super) side: u8,
    /// Bit per eliminated seat.
    pub(super) out: u8,
    /// Bit per seat whose flag is public (its marshal was removed).
    pub(super) public: u8,
    /// Consecutive plies (all seats) without a piece leaving the board.
    pub(super) quiet: u16,
    /// Passes and timeouts per seat.
    pub(super) passes: [u8; 4],
    /// Incrementally kept Zobrist key.
    pub(super) hash: u64,
    /// The rule options `NoCombatDrawPlies` and `MaxPasses`.
    pub(super) rules: Rules,
    /// Per seat, the `(station, piece)` pairs removed by its elimination.
    graves: [[(u8, u8); 25]; 4],
    grave_len: [u8; 4],
}

/// A set of stations, for collecting one piece's destinations without duplicates.
pub(super) type StationSet = [u64; 3];

#[inline]
fn set_add(set: &mut StationSet, s: usize) {
    set[s >> 6] |= 1 << (s & 63);
}

/// The stations of the set, in order.
#[inline]
pub(super) fn stations(set: &StationSet) -> Stations {
    Stations { set: *set, word: 0 }
}

/// The iterator of [`stations`]: takes the lowest station off the set each time.
pub(super) struct Stations {
    set: StationSet,
    word: usize,
}

impl Iterator for Stations {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        while self.word < self.set.len() {
            let bits = self.set[self.word];
            if bits != 0 {
                self.set[self.word] = bits & (bits - 1);
                return Some(self.word * 64 + bits.trailing_zeros() as usize);
            }
            self.word += 1;
        }
        None
    }
}

/// Whether station `s` is in the set.
#[inline]
pub(super) fn set_has(set: &StationSet, s: usize) -> bool {
    set[s >> 6] & (1 << (s & 63)) != 0
}

/// Whether a piece of `side_team` may end on `to` of `board`: empty, or an enemy outside a
/// camp. Ranks play no part, so a board whose hidden pieces carry any rank serves.
#[inline]
fn target_ok(board: &[u8; STATIONS], side_team: usize, to: usize) -> bool {
    let p = board[to];
    p == EMPTY || (team(seat_of(p)) != side_team && TABLES.kind[to] != Kind::Camp)
}

/// Every station the piece on `from` of `board` reaches: steps, then rides from a rail
/// station, as an engineer (any path over empty rail stations) or as any other movable
/// piece (one straight line or L-curve). Only occupancy and owners are read, so the dark
/// game asks the same question of a public board whose hidden ranks are placeholders.
#[inline]
pub(super) fn reach(board: &[u8; STATIONS], from: usize, engineer: bool) -> StationSet {
    targets::<false>(board, from, engineer)
}

/// The enemies of `side_team` on rail stations from which an engineer could ride to `to`
/// (over empty rail stations, turning as it likes). A ride is the same path both ways, so
/// they are what an engineer of `side_team` on `to` could attack.
#[inline]
pub(super) fn engineer_approaches(
    board: &[u8; STATIONS],
    to: usize,
    side_team: usize,
) -> StationSet {
    let mut found: StationSet = [0; 3];
    engineer_reach::<true>(board, to, side_team, &mut found);
    found
}

/// The stations of [`reach`], or with `ATTACKS` only those an enemy stands on: quiescence
/// asks for the attacks alone at every node, and most of a piece's destinations are empty.
#[inline]
fn targets<const ATTACKS: bool>(board: &[u8; STATIONS], from: usize, engineer: bool) -> StationSet {
    let tables = &*TABLES;
    let side_team = team(seat_of(board[from]));
    let mut dest: StationSet = [0; 3];
    for &n in tables.step[from].iter().take_while(|&&n| n != NO_STATION) {
        let n = usize::from(n);
        if target_ok(board, side_team, n) && !(ATTACKS && board[n] == EMPTY) {
            set_add(&mut dest, n);
        }
    }
    if tables.kind[from] == Kind::Rail {
        if engineer {
            engineer_reach::<ATTACKS>(board, from, side_team, &mut dest);
        } else {
            ride_reach::<ATTACKS>(board, from, side_team, &mut dest);
        }
    }
    dest
}

/// Straight and curved rides: along each ray over empty stations, ending on the first
/// empty station or enemy piece (rail stations are never camps).
#[inline]
fn ride_reach<const ATTACKS: bool>(
    board: &[u8; STATIONS],
    from: usize,
    side_team: usize,
    dest: &mut StationSet,
) {
    for ray in TABLES.rays_from(from) {
        for &s in ray {
            let s = usize::from(s);
            let p = board[s];
            if p == EMPTY {
                if !ATTACKS {
                    set_add(dest, s);
                }
                continue;
            }
            if team(seat_of(p)) != side_team {
                set_add(dest, s);
            }
            break;
        }
    }
}

/// The engineer's reach: breadth-first over empty rail stations; an enemy on a rail
/// station next to a reached one can be attacked.
#[inline]
fn engineer_reach<const ATTACKS: bool>(
    board: &[u8; STATIONS],
    from: usize,
    side_team: usize,
    dest: &mut StationSet,
) {
    let tables = &*TABLES;
    let mut seen: StationSet = [0; 3];
    set_add(&mut seen, from);
    let mut queue = [0u8; STATIONS];
    let (mut head, mut tail) = (0, 1);
    queue[0] = from as u8;
    while head < tail {
        let s = usize::from(queue[head]);
        head += 1;
        for &n in tables.rail[s].iter().take_while(|&&n| n != NO_STATION) {
            let n = usize::from(n);
            if set_has(&seen, n) {
                continue;
            }
            set_add(&mut seen, n);
            let p = board[n];
            if p == EMPTY {
                if !ATTACKS {
                    set_add(dest, n);
                }
                queue[tail] = n as u8;
                tail += 1;
            } else if team(seat_of(p)) != side_team {
                set_add(dest, n);
            }
        }
    }
}

/// Whether the piece on `from` of `board` has a first station to go to, whatever its rank:
/// every move starts with a step or rail neighbour, so looking one station away suffices.
#[inline]
pub(super) fn has_exit(board: &[u8; STATIONS], from: usize) -> bool {
    let side_team = team(seat_of(board[from]));
    let tables = &*TABLES;
    tables.step[from]
        .iter()
        .chain(tables.rail[from].iter())
        .filter(|&&n| n != NO_STATION)
        .any(|&n| target_ok(board, side_team, usize::from(n)))
}

impl Position {
    /// An empty board, S to move, nobody out, default options.
    pub(super) fn empty() -> Position {
        Position {
            board: [EMPTY; STATIONS],
            side: 0,
            out: 0,
            public: 0,
            quiet: 0,
            passes: [0; 4],
            hash: 0,
            rules: Rules::default(),
            graves: [[(0, 0); 25]; 4],
            grave_len: [0; 4],
        }
    }

    /// The piece on station `s`, or [`EMPTY`].
    pub fn piece(&self, s: usize) -> u8 {
        self.board[s]
    }

    /// Whether a seat has been eliminated.
    pub fn is_out(&self, seat: usize) -> bool {
        turn::is_out(self.out, seat)
    }

    /// Whether a seat's flag has been made public.
    pub fn is_public(&self, seat: usize) -> bool {
        self.public & (1 << seat) != 0
    }

    /// The no-combat counter.
    pub fn quiet_plies(&self) -> u16 {
        self.quiet
    }

    /// Passes and timeouts of a seat so far.
    pub fn passes(&self, seat: usize) -> u8 {
        self.passes[seat]
    }

    /// Whether both seats of a team are out.
    #[inline]
    pub fn team_out(&self, team: usize) -> bool {
        turn::team_out(self.out, team)
    }

    /// The Zobrist key computed from scratch: pieces on stations, the side to move,
    /// eliminated seats, public flags and pass counts. The no-combat counter is left out
    /// (like chess's halfmove clock) so that transpositions still meet.
    pub fn compute_hash(&self) -> u64 {
        let keys = &**KEYS;
        let mut hash = keys.side[usize::from(self.side)];
        for (s, &p) in self.board.iter().enumerate() {
            if p != EMPTY {
                hash ^= keys.piece[usize::from(p)][s];
            }
        }
        for seat in 0..4 {
            if self.is_out(seat) {
                hash ^= keys.out[seat];
            }
            if self.is_public(seat) {
                hash ^= keys.public[seat];
            }
            hash ^= keys.passes[seat][usize::from(self.passes[seat])];
        }
        hash
    }

    /// The result when the game is over by rule: the draw counter first, then a team out
    /// (both out: the team of the seat that moved last, kept in `side`, wins).
    pub fn rule_outcome(&self) -> Option<Outcome> {
        if self.drawn() {
            return Some(Outcome::Draw);
        }
        turn::winner(self.out, usize::from(self.side)).map(Outcome::Win)
    }

    /// Whether the piece on `s` can ever move: not a flag or mine, not in an HQ.
    #[inline]
    fn movable(&self, s: usize) -> bool {
        let rank = rank_of(self.board[s]);
        rank != FLAG && rank != MINE && TABLES.kind[s] != Kind::Hq
    }

    /// Every move of the seat to move (none when the game is over).
    pub fn generate_moves(&self, moves: &mut MoveList<Move>) {
        self.generate::<false>(moves);
    }

    /// The attacks among [`Position::generate_moves`], in the same order.
    pub fn generate_attacks(&self, moves: &mut MoveList<Move>) {
        self.generate::<true>(moves);
    }

    fn generate<const ATTACKS: bool>(&self, moves: &mut MoveList<Move>) {
        if self.rule_outcome().is_some() {
            return;
        }
        let side = usize::from(self.side);
        for from in 0..STATIONS {
            let p = self.board[from];
            if p == EMPTY || seat_of(p) != side || !self.movable(from) {
                continue;
            }
            let dest = targets::<ATTACKS>(&self.board, from, rank_of(p) == ENGINEER);
            for to in stations(&dest) {
                moves.push(Move {
                    from: from as u8,
                    to: to as u8,
                });
            }
        }
    }

    /// Whether `seat` has any legal move, without listing them.
    pub fn has_move(&self, seat: usize) -> bool {
        (0..STATIONS).any(|from| {
            let p = self.board[from];
            p != EMPTY && seat_of(p) == seat && self.movable(from) && has_exit(&self.board, from)
        })
    }

    #[inline]
    fn put(&mut self, s: usize, p: u8) {
        self.board[s] = p;
        self.hash ^= KEYS.piece[usize::from(p)][s];
    }

    #[inline]
    fn lift(&mut self, s: usize) {
        let p = self.board[s];
        self.board[s] = EMPTY;
        self.hash ^= KEYS.piece[usize::from(p)][s];
    }

    /// A piece leaves the board: a marshal's departure makes its seat's flag public.
    #[inline]
    fn on_removed(&mut self, p: u8) {
        if rank_of(p) == MARSHAL {
            self.make_public(seat_of(p));
        }
    }

    fn make_public(&mut self, seat: usize) {
        if !self.is_public(seat) {
            self.public |= 1 << seat;
            self.hash ^= KEYS.public[seat];
        }
    }

    /// Puts an eliminated seat's pieces back (the reverse of [`Turns::eliminate`];
    /// the hash and flags are restored by the caller from the undo record).
    fn revive(&mut self, seat: usize) {
        for i in 0..usize::from(self.grave_len[seat]) {
            let (s, p) = self.graves[seat][i];
            self.board[usize::from(s)] = p;
        }
        self.grave_len[seat] = 0;
    }

    /// Plays a ply (assumed legal, or a special ply while the game is on).
    pub fn play(&mut self, mv: Move) -> Undo {
        let mover = usize::from(self.side);
        let undo = Undo {
            moved: if mv.is_special() {
                EMPTY
            } else {
                self.board[usize::from(mv.from)]
            },
            captured: if mv.is_special() {
                EMPTY
            } else {
                self.board[usize::from(mv.to)]
            },
            side: self.side,
            out: self.out,
            public: self.public,
            mover_passes: self.passes[mover],
            quiet: self.quiet,
            hash: self.hash,
        };
        let removed = match mv {
            Move::PASS | Move::TIMEOUT => self.pass(mover),
            Move::RESIGN => self.eliminate(mover),
            _ => self.resolve(usize::from(mv.from), usize::from(mv.to)),
        };
        self.end_ply(mover, removed);
        undo
    }

    /// Moves the piece and settles any combat; returns whether a piece left the board.
    #[inline]
    fn resolve(&mut self, from: usize, to: usize) -> bool {
        let attacker = self.board[from];
        let defender = self.board[to];
        self.lift(from);
        if defender == EMPTY {
            self.put(to, attacker);
            return false;
        }
        self.lift(to);
        let winner = survivor(attacker, defender);
        if winner != EMPTY {
            self.put(to, winner);
        }
        if winner != attacker {
            self.on_removed(attacker);
        }
        if winner != defender {
            self.on_removed(defender);
        }
        if rank_of(defender) == FLAG {
            self.eliminate(seat_of(defender));
        }
        true
    }

    /// A referee's forfeit (a crashed engine), [`Turns::forfeit`]; it cannot be taken
    /// back. Nothing happens to a seat already out or after the end of the game. The open
    /// position keeps no last mover apart from the seat to move, which a finished game
    /// keeps.
    pub fn forfeit(&mut self, seat: usize) {
        if self.is_out(seat) || self.rule_outcome().is_some() {
            return;
        }
        Turns::forfeit(self, seat, usize::from(self.side));
    }

    /// Takes back [`Position::play`].
    pub fn take_back(&mut self, mv: Move, undo: Undo) {
        let mut revived = self.out & !undo.out;
        while revived != 0 {
            let seat = revived.trailing_zeros() as usize;
            revived &= revived - 1;
            self.revive(seat);
        }
        if !mv.is_special() {
            self.board[usize::from(mv.from)] = undo.moved;
            self.board[usize::from(mv.to)] = undo.captured;
        }
        self.side = undo.side;
        self.passes[usize::from(undo.side)] = undo.mover_passes;
        self.out = undo.out;
        self.public = undo.public;
        self.quiet = undo.quiet;
        self.hash = undo.hash;
    }

    /// Whether a ply attacks a piece.
    #[inline]
    pub fn is_attack(&self, mv: Move) -> bool {
        !mv.is_special() && self.board[usize::from(mv.to)] != EMPTY
    }

    /// Station of the `slot` of `seat`.
    pub fn slot_station(seat: usize, slot: usize) -> usize {
        30 * seat + slot
    }

    /// Whether a station is in the centre.
    pub fn is_centre(s: usize) -> bool {
        s >= CENTRE
    }
}

/// The turn order and elimination rules over the open position: pieces leave into the
/// seat's grave, every change is hashed, and a seat is stuck when it has no legal move.
impl Turns for Position {
    #[inline]
    fn out(&self) -> u8 {
        self.out
    }

    #[inline]
    fn rules(&self) -> Rules {
        self.rules
    }

    #[inline]
    fn quiet(&self) -> u16 {
        self.quiet
    }

    #[inline]
    fn set_quiet(&mut self, quiet: u16) {
        self.quiet = quiet;
    }

    #[inline]
    fn side(&self) -> usize {
        usize::from(self.side)
    }
    #[inline]
    fn set_side(&mut self, seat: usize) {
        let keys = &**KEYS;
        self.hash ^= keys.side[usize::from(self.side)] ^ keys.side[seat];
        self.side = seat as u8;
    }

    #[inline]
    fn add_pass(&mut self, seat: usize) -> u8 {
        let keys = &**KEYS;
        self.hash ^= keys.passes[seat][usize::from(self.passes[seat])];
        self.passes[seat] = self.passes[seat].saturating_add(1);
        self.hash ^= keys.passes[seat][usize::from(self.passes[seat])];
        self.passes[seat]
    }

    #[inline]
    fn stuck(&self, seat: usize) -> bool {
        !self.has_move(seat)
    }

    /// Removes every piece of `seat` (kept in its grave) and marks it out; returns
    /// whether any piece left the board.
    fn eliminate(&mut self, seat: usize) -> bool {
        let mut n = 0;
        for s in 0..STATIONS {
            let p = self.board[s];
            if p != EMPTY && seat_of(p) == seat {
                self.graves[seat][n] = (s as u8, p);
                n += 1;
                self.lift(s);
                self.on_removed(p);
            }
        }
        self.grave_len[seat] = n as u8;
        self.out |= 1 << seat;
        self.hash ^= KEYS.out[seat];
        n > 0
    }
}

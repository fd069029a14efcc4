//! The information state of a seat: a `setup` whose hidden seats are `-`, replayed
//! through the referee's record (`docs/rules/junqi.md` §11; `docs/design/junqi-dark.md`
//! §4.4).
//!
//! It keeps the public board (each station empty or a [`PieceId`]), which pieces moved and
//! which are dead, eliminations, public flags, the no-combat counter, passes and the seat
//! to move, and a [`Belief`] of every piece's rank (exact for the seats whose lineups were
//! given). Every ply is checked against the rules and the given ranks; a record that no
//! rank assignment explains is refused with the ply and token that made it impossible.
//!
//! Turn-start eliminations follow one policy: the state applies one itself only where it
//! can judge the rule exactly, for a seat whose lineup was given (whether or not the
//! referee wrote the `out:`); a hidden seat leaves only by `#`, its `MaxPasses`-th pass,
//! `resign` or the referee's `out:` token. A record that omits the `out:` of a hidden seat
//! then fails at the next ply, which no legal game explains.
//!
//! The `out:` tokens that follow a ply belong to it: a seat that leaves in the same ply
//! takes its flag with it, so the referee's silence about that flag (no `+sq`) says nothing
//! of its marshal. Give a ply and its `out:` tokens in one call.
//!
//! This file holds the state, the open positions built from it and its side of the turn
//! rules ([`Turns`]); the parts are in `info/`: `setup` (reading the `setup`), `replay`
//! (the record, token by token) and `errors` (why a record is refused).

mod errors;
mod replay;
mod setup;

pub use errors::{InfoError, Reject};

use super::infer::Belief;
use super::{Domain, Info, PIECES, PieceId, SEAT_PIECES};
use crate::core::{MoveList, Outcome};
use crate::games::junqi::Entry;
use crate::games::junqi::board::{SEAT_NAMES, STATIONS};
use crate::games::junqi::position::{Move, Position};
use crate::games::junqi::turn::{self, Rules, Turns};

/// "No piece" on a station, "no station" for a piece.
const NONE: u8 = u8::MAX;
/// The rank written on the public board for a piece whose rank is not known: no real rank,
/// so nothing can mistake it for one. Only occupancy and owners are read from it.
const UNKNOWN: u8 = 12;

/// What a seat knows of the game: see the module docs.
#[derive(Clone, Debug)]
pub struct InfoState {
    info: Info,
    rules: Rules,
    /// Bit per seat whose lineup was given.
    known: u8,
    /// Bit per seat that had pieces in the setup (not `0`).
    present: u8,
    /// The first seat of the setup (for the open start position of a world).
    first: u8,
    /// Piece on each station, or [`NONE`].
    at: [u8; STATIONS],
    /// Station of each piece, or [`NONE`] once it left the board (or never existed).
    station: [u8; PIECES],
    /// Whether each piece has moved.
    moved: [bool; PIECES],
    /// Per piece, its seat's plies during which it stood unmoved and could have stepped
    /// off (soft evidence that it cannot move).
    still: [u16; PIECES],
    /// Bit per eliminated seat.
    out: u8,
    /// Bit per seat whose flag is public.
    public: u8,
    quiet: u16,
    passes: [u8; 4],
    side: u8,
    /// The seat of the last ply: it keeps the turn on a game ended by elimination.
    last_mover: u8,
    /// Tokens read so far, to number the next one.
    tokens: usize,
    /// Whether the fact that the seat to move has a legal move is in the belief.
    turn_known_movable: bool,
    belief: Belief,
}

impl InfoState {
    /// Reads the setup and replays the record. Any error leaves nothing built.
    pub fn new(
        setup: &str,
        record: &[Entry],
        rules: Rules,
        info: Info,
    ) -> Result<InfoState, InfoError> {
        let mut state = Self::from_setup(setup, rules, info)?;
        state.read(record)?;
        Ok(state)
    }

    /// [`InfoState::new`] from the text of a `moves` list (tokens separated by spaces).
    pub fn parse(
        setup: &str,
        moves: &str,
        rules: Rules,
        info: Info,
    ) -> Result<InfoState, InfoError> {
        let record = moves
            .split_whitespace()
            .enumerate()
            .map(|(i, token)| {
                Entry::parse(token).map_err(|e| InfoError::Token {
                    ply: i + 1,
                    token: token.to_string(),
                    why: e.to_string(),
                })
            })
            .collect::<Result<Vec<Entry>, InfoError>>()?;
        Self::new(setup, &record, rules, info)
    }

    /// Reads more of the record (a ply with its `out:` tokens at least). On an error the
    /// state is as it was.
    pub fn extend(&mut self, record: &[Entry]) -> Result<(), InfoError> {
        let mut next = self.clone();
        next.read(record)?;
        *self = next;
        Ok(())
    }

    fn place(&mut self, p: PieceId, station: usize) {
        self.at[station] = p.0;
        self.station[p.index()] = station as u8;
    }

    fn kill(&mut self, p: PieceId) {
        let s = usize::from(self.station[p.index()]);
        self.at[s] = NONE;
        self.station[p.index()] = NONE;
    }

    /// Piece bytes as [`Position`] keeps them, with `rank(p)` for each piece on the board.
    fn board_with(&self, rank: impl Fn(PieceId) -> u8) -> [u8; STATIONS] {
        let mut board = [crate::games::junqi::position::EMPTY; STATIONS];
        for (s, &id) in self.at.iter().enumerate() {
            if id != NONE {
                let p = PieceId(id);
                board[s] = (p.seat() as u8) << 4 | rank(p);
            }
        }
        board
    }

    /// The board with every known rank, [`UNKNOWN`] for the others.
    fn public_board(&self) -> [u8; STATIONS] {
        self.board_with(|p| self.belief.domain(p).single().unwrap_or(UNKNOWN))
    }

    /// An open position with this state's board (ranks from `rank`), counters, eliminations,
    /// public flags, side to move and rule options.
    fn position_with(&self, rank: impl Fn(PieceId) -> u8) -> Position {
        let mut pos = Position::empty();
        pos.board = self.board_with(rank);
        pos.side = self.side;
        pos.out = self.out;
        pos.public = self.public;
        pos.quiet = self.quiet;
        pos.passes = self.passes;
        pos.rules = self.rules;
        pos.hash = pos.compute_hash();
        pos
    }

    /// The position with the known ranks: enough for the moves of a seat whose lineup was
    /// given, which never depend on a hidden rank.
    fn public_position(&self) -> Position {
        self.position_with(|p| self.belief.domain(p).single().unwrap_or(UNKNOWN))
    }

    /// The determinization: an open position with this state's public board and counters,
    /// each piece's rank taken from `ranks` (indexed by [`PieceId`]).
    pub fn world(&self, ranks: &[u8; PIECES]) -> Position {
        self.position_with(|p| ranks[p.index()])
    }

    /// The open start position of the same game with the lineups of `ranks`: replaying
    /// the record on it gives the world of `ranks`.
    pub fn start_position(&self, ranks: &[u8; PIECES]) -> Position {
        let lineups: Vec<String> = (0..4)
            .map(|seat| {
                let lineup: String = if self.present & (1 << seat) == 0 {
                    "0".into()
                } else {
                    (0..SEAT_PIECES)
                        .map(|k| char::from(b'a' + ranks[PieceId::new(seat, k).index()]))
                        .collect()
                };
                format!("{}:{lineup}", SEAT_NAMES[seat])
            })
            .collect();
        let text = format!(
            "setup {} first {}",
            lineups.join(" "),
            SEAT_NAMES[usize::from(self.first)]
        );
        let mut pos = crate::games::junqi::notation::parse_setup(&text)
            .unwrap_or_else(|e| panic!("a consistent assignment gives valid lineups: {e}"));
        pos.rules = self.rules;
        pos
    }

    /// Every rank when the belief fixes them all (always in the open game).
    pub fn known_ranks(&self) -> Option<[u8; PIECES]> {
        let mut ranks = [NONE; PIECES];
        for (i, rank) in ranks.iter_mut().enumerate() {
            let p = PieceId(i as u8);
            if self.exists(p) {
                *rank = self.belief.domain(p).single()?;
            }
        }
        Some(ranks)
    }

    /// The open position itself, when every rank is known.
    pub fn open_position(&self) -> Option<Position> {
        self.known_ranks().map(|ranks| self.world(&ranks))
    }

    /// The legal moves of the seat to move when its lineup was given (none otherwise, and
    /// none when the game is over): they depend only on the public board and its ranks.
    pub fn legal_moves(&self, moves: &mut MoveList<Move>) {
        if self.is_known(usize::from(self.side)) {
            self.public_position().generate_moves(moves);
        }
    }

    /// The rule outcome once the game is over: the draw counter, or a team out.
    pub fn outcome(&self) -> Option<Outcome> {
        self.public_position().rule_outcome()
    }

    /// Whether the game is over (no ply may follow).
    pub fn is_over(&self) -> bool {
        self.drawn() || turn::any_team_out(self.out)
    }

    /// What the state was built to see.
    pub fn info(&self) -> Info {
        self.info
    }

    /// The rule options the record was read under (worlds carry them).
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The seat to move (on a game ended by elimination, the seat of the last ply).
    pub fn side_to_move(&self) -> usize {
        usize::from(self.side)
    }

    /// Whether `seat`'s lineup was given.
    pub fn is_known(&self, seat: usize) -> bool {
        self.known & (1 << seat) != 0
    }

    /// Whether `seat` has been eliminated (or was `0` in the setup).
    pub fn is_out(&self, seat: usize) -> bool {
        turn::is_out(self.out, seat)
    }

    /// Whether `seat`'s flag is public (its marshal has left the board).
    pub fn is_public(&self, seat: usize) -> bool {
        self.public & (1 << seat) != 0
    }

    /// The no-combat counter.
    pub fn quiet_plies(&self) -> u16 {
        self.quiet
    }

    /// Passes and timeouts of `seat`.
    pub fn passes(&self, seat: usize) -> u8 {
        self.passes[seat]
    }

    /// The piece on a station.
    pub fn occupant(&self, station: usize) -> Option<PieceId> {
        let id = self.at[station];
        (id != NONE).then_some(PieceId(id))
    }

    /// Where a piece stands, if on the board.
    pub fn station_of(&self, p: PieceId) -> Option<usize> {
        let s = self.station[p.index()];
        (s != NONE).then_some(usize::from(s))
    }

    /// Whether the piece is on the board.
    pub fn is_alive(&self, p: PieceId) -> bool {
        self.station[p.index()] != NONE
    }

    /// Whether the piece's seat was in the setup (not `0`).
    pub fn exists(&self, p: PieceId) -> bool {
        self.present & (1 << p.seat()) != 0
    }

    /// Whether the piece ever moved (so it is no mine or flag).
    pub fn has_moved(&self, p: PieceId) -> bool {
        self.moved[p.index()]
    }

    /// Plies of its seat during which an unmoved piece could have stepped off but stayed.
    pub fn still_plies(&self, p: PieceId) -> u16 {
        self.still[p.index()]
    }

    /// The ranks `p` may have.
    pub fn domain(&self, p: PieceId) -> Domain {
        self.belief.domain(p)
    }

    /// Every hard fact, for the sampler.
    pub fn belief(&self) -> &Belief {
        &self.belief
    }
}

/// The turn order and elimination rules over the information state: only a seat whose
/// lineup was given can be judged stuck (see the module docs), and an eliminated seat's
/// flag is public at once.
impl Turns for InfoState {
    fn out(&self) -> u8 {
        self.out
    }

    fn rules(&self) -> Rules {
        self.rules
    }

    fn quiet(&self) -> u16 {
        self.quiet
    }

    fn set_quiet(&mut self, quiet: u16) {
        self.quiet = quiet;
    }

    /// A new turn: that its seat can move is not in the belief yet.
    fn side(&self) -> usize {
        usize::from(self.side)
    }
    fn set_side(&mut self, seat: usize) {
        self.turn_known_movable = false;
        self.side = seat as u8;
    }

    fn add_pass(&mut self, seat: usize) -> u8 {
        self.passes[seat] = self.passes[seat].saturating_add(1);
        self.passes[seat]
    }

    /// Whether the state knows that `seat` has no legal move: its lineup was given and
    /// none of its pieces can go anywhere.
    fn stuck(&self, seat: usize) -> bool {
        self.known & (1 << seat) != 0 && !self.public_position().has_move(seat)
    }

    /// Removes every piece of `seat`, marks it out and its flag public (its marshal leaves
    /// now if it had not); returns whether any piece left.
    fn eliminate(&mut self, seat: usize) -> bool {
        let mut removed = false;
        for k in 0..SEAT_PIECES {
            let p = PieceId::new(seat, k);
            if self.is_alive(p) {
                self.kill(p);
                removed = true;
            }
        }
        self.out |= 1 << seat;
        self.public |= 1 << seat;
        removed
    }
}

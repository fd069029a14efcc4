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

use super::infer::{Belief, Combat, Contradiction};
use super::{Domain, Info, PIECES, PieceId, SEAT_PIECES};
use crate::core::{MoveList, Outcome};
use crate::games::junqi::board::{Kind, SEAT_NAMES, STATIONS, TABLES, name};
use crate::games::junqi::notation::{parse_lineup, setup_fields};
use crate::games::junqi::position::{
    ENGINEER, FLAG, Move, Position, has_exit, reach, set_has, team,
};
use crate::games::junqi::turn::{self, Rules, Turns};
use crate::games::junqi::{Clash, Entry, Ply, Report, SetupError};
use std::fmt;

/// "No piece" on a station, "no station" for a piece.
const NONE: u8 = u8::MAX;
/// The rank written on the public board for a piece whose rank is not known: no real rank,
/// so nothing can mistake it for one. Only occupancy and owners are read from it.
const UNKNOWN: u8 = 12;

/// Why a token of the record is impossible.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reject {
    /// A ply (or an `out:` that is news) after the game ended.
    Over,
    /// The piece belongs to `seat`, but `to_move` is to move.
    NotToMove { seat: usize, to_move: usize },
    /// No piece stands on the first station.
    NoPiece { station: usize },
    /// The piece stands in an HQ, and nothing leaves an HQ.
    Frozen { station: usize },
    /// The destination holds a piece of the mover's team.
    OntoFriend { station: usize },
    /// The destination is a camp with a piece in it.
    OntoCamp { station: usize },
    /// No piece of any rank goes there: not a step, a straight or curved ride over empty
    /// stations, nor an engineer's rail path.
    Unreachable,
    /// The piece's ranks (`ranks`) do not include any that can make this move (`needs`).
    CannotMove {
        piece: PieceId,
        ranks: Domain,
        needs: Domain,
    },
    /// A board ply without `=m/=w/=l/=b` where reports are all the engine learns.
    MissingReport(Info),
    /// `=w`, `=l` or `=b` onto an empty station.
    ClashOnEmpty,
    /// `=m` onto a piece.
    MovedOntoPiece,
    /// `#` without a defender removed by `=w` or `=b`.
    FlagNotTaken,
    /// A `+sq` that cannot be: its reason.
    PublicFlag { station: usize, why: String },
    /// In the open game, the report is not the one the position computes.
    OpenReport { expected: Report },
    /// No attacker rank in `attacker` gives the report against a defender rank in
    /// `defender`.
    Outcome { attacker: Domain, defender: Domain },
    /// Inference found that no rank assignment explains the record.
    Inconsistent(Contradiction),
}

impl fmt::Display for Reject {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reject::Over => write!(f, "the game is over"),
            Reject::NotToMove { seat, to_move } => write!(
                f,
                "a piece of {}, but {} is to move",
                SEAT_NAMES[*seat], SEAT_NAMES[*to_move]
            ),
            Reject::NoPiece { station } => write!(f, "no piece on {}", name(*station)),
            Reject::Frozen { station } => write!(
                f,
                "the piece on {} stands in an HQ and never moves",
                name(*station)
            ),
            Reject::OntoFriend { station } => {
                write!(f, "{} holds a piece of the mover's team", name(*station))
            }
            Reject::OntoCamp { station } => {
                write!(f, "{} is a camp with a piece in it", name(*station))
            }
            Reject::Unreachable => write!(
                f,
                "no piece gets there: not a step, a straight ride over empty stations, nor an engineer's rail path"
            ),
            Reject::CannotMove {
                piece,
                ranks,
                needs,
            } => write!(
                f,
                "{piece} has ranks {ranks}; this move needs one of {needs}"
            ),
            Reject::MissingReport(info) => write!(
                f,
                "Info {info} needs the referee's report on every board ply (=m, =w, =l or =b)"
            ),
            Reject::ClashOnEmpty => write!(f, "a combat report onto an empty station"),
            Reject::MovedOntoPiece => write!(f, "=m onto a station with a piece"),
            Reject::FlagNotTaken => write!(f, "'#' needs a defender removed by =w or =b"),
            Reject::PublicFlag { station, why } => write!(f, "+{}: {why}", name(*station)),
            Reject::OpenReport { expected } => {
                write!(f, "the open position reports {expected}")
            }
            Reject::Outcome { attacker, defender } => write!(
                f,
                "no attacker in {attacker} against a defender in {defender} gives this report"
            ),
            Reject::Inconsistent(Contradiction::Empty(piece)) => {
                write!(f, "no rank is left for {piece}")
            }
            Reject::Inconsistent(Contradiction::Counts(seat)) => write!(
                f,
                "{}'s pieces can no longer make up its lineup's counts",
                SEAT_NAMES[*seat]
            ),
            Reject::Inconsistent(Contradiction::Outcome(attacker, defender)) => write!(
                f,
                "no attacker in {attacker} against a defender in {defender} fits"
            ),
            Reject::Inconsistent(Contradiction::Stuck(seat)) => write!(
                f,
                "{} has the turn, but none of its pieces can move",
                SEAT_NAMES[*seat]
            ),
            Reject::Inconsistent(Contradiction::NoAssignment) => {
                write!(f, "no rank assignment explains every combat")
            }
        }
    }
}

/// Why an information state could not be built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InfoError {
    /// The `setup` text or one of its lineups.
    Setup(SetupError),
    /// The lineups given do not match the `Info` mode: `seat` is the first offender.
    Visibility { info: Info, seat: usize },
    /// A token that is not a ply, a report or `out:` (number from 1 in the record).
    Token {
        ply: usize,
        token: String,
        why: String,
    },
    /// A token the rules or the given ranks rule out.
    Record {
        ply: usize,
        token: String,
        reason: Reject,
    },
}

impl fmt::Display for InfoError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InfoError::Setup(e) => write!(f, "{e}"),
            InfoError::Visibility { info, seat } => {
                let seat = SEAT_NAMES[*seat];
                match info {
                    Info::Open => write!(f, "Info open needs every lineup; seat {seat} is -"),
                    Info::DoubleOpen => write!(
                        f,
                        "Info double-open gives one team's lineups; seat {seat} is of the other team"
                    ),
                    Info::Dark => write!(
                        f,
                        "Info dark gives one seat's lineup; seat {seat} is one more"
                    ),
                }
            }
            InfoError::Token { ply, token, why } => write!(f, "ply {ply} '{token}': {why}"),
            InfoError::Record { ply, token, reason } => {
                write!(f, "ply {ply} '{token}': {reason}")
            }
        }
    }
}

impl std::error::Error for InfoError {}

impl From<SetupError> for InfoError {
    fn from(e: SetupError) -> InfoError {
        InfoError::Setup(e)
    }
}

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

/// What a `setup` says of one seat.
#[derive(Clone, Copy)]
enum Given {
    /// `-`: a seat whose ranks are hidden.
    Hidden,
    /// `0`: out from the start.
    Out,
    /// Its lineup: the rank of each slot (camps `None`).
    Lineup([Option<u8>; 30]),
}

/// A combat of the ply being read, kept until the turn has passed on and every seat that
/// left with the ply is known.
struct Fight<'a> {
    attacker: PieceId,
    defender: PieceId,
    clash: Clash,
    flag_taken: bool,
    public_flags: &'a [u8],
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

    /// `setup S:<lineup|-|0> E:.. N:.. W:.. [first <seat>]`: `-` hides a seat, `0` is one
    /// out from the start.
    fn from_setup(text: &str, rules: Rules, info: Info) -> Result<InfoState, InfoError> {
        let (fields, first) = setup_fields(text)?;
        let mut seats = [Given::Out; 4];
        for (seat, field) in fields.iter().enumerate() {
            seats[seat] = match *field {
                "-" => Given::Hidden,
                "0" => Given::Out,
                lineup => Given::Lineup(parse_lineup(seat, lineup)?),
            };
        }
        let mut known = 0u8;
        let mut present = 0u8;
        for (seat, given) in seats.iter().enumerate() {
            match given {
                Given::Hidden => present |= 1 << seat,
                Given::Out => {}
                Given::Lineup(_) => {
                    present |= 1 << seat;
                    known |= 1 << seat;
                }
            }
        }
        Self::check_visibility(info, known, present)?;
        let mut state = InfoState {
            info,
            rules,
            known,
            present,
            first: first as u8,
            at: [NONE; STATIONS],
            station: [NONE; PIECES],
            moved: [false; PIECES],
            still: [0; PIECES],
            out: 0b1111 & !present,
            public: 0,
            quiet: 0,
            passes: [0; 4],
            side: first as u8,
            last_mover: first as u8,
            tokens: 0,
            turn_known_movable: false,
            belief: Belief::new(present),
        };
        for (seat, given) in seats.iter().enumerate() {
            if present & (1 << seat) == 0 {
                continue;
            }
            for k in 0..SEAT_PIECES {
                let p = PieceId::new(seat, k);
                state.place(p, p.start_station());
                if let Given::Lineup(ranks) = given {
                    let rank = ranks[p.slot()].expect("a parsed lineup fills every non-camp slot");
                    state
                        .belief
                        .restrict(p, Domain::only(rank))
                        .expect("a parsed lineup keeps the deployment rules");
                }
            }
        }
        state
            .belief
            .propagate()
            .expect("parsed lineups and the deployment rules always fit the counts");
        state.last_mover = state.settle(first) as u8;
        Ok(state)
    }

    /// Open: every live seat given; dark: at most one; double-open: one team at most.
    fn check_visibility(info: Info, known: u8, present: u8) -> Result<(), InfoError> {
        let offender = match info {
            Info::Open => (0..4).find(|&s| present & !known & (1 << s) != 0),
            Info::Dark => (0..4).filter(|&s| known & (1 << s) != 0).nth(1),
            Info::DoubleOpen => {
                let first = (0..4).find(|&s| known & (1 << s) != 0);
                first.and_then(|f| (0..4).find(|&s| known & (1 << s) != 0 && team(s) != team(f)))
            }
        };
        match offender {
            Some(seat) => Err(InfoError::Visibility { info, seat }),
            None => Ok(()),
        }
    }

    fn read(&mut self, record: &[Entry]) -> Result<(), InfoError> {
        for (i, entry) in record.iter().enumerate() {
            let later_outs = record[i + 1..]
                .iter()
                .map_while(|e| match e {
                    Entry::Out(seat) => Some(1u8 << seat),
                    Entry::Ply(_) => None,
                })
                .fold(0, |set, seat| set | seat);
            let result = match entry {
                Entry::Out(seat) => self.read_out(*seat),
                Entry::Ply(ply) => self.read_ply(ply, later_outs),
            };
            self.tokens += 1;
            result.map_err(|reason| InfoError::Record {
                ply: self.tokens,
                token: entry.to_string(),
                reason,
            })?;
        }
        // The record is complete: the seat to move was not eliminated, so it can move.
        self.note_turn().map_err(|reason| InfoError::Record {
            ply: self.tokens,
            token: record.last().map_or_else(String::new, Entry::to_string),
            reason,
        })
    }

    /// Adds to the belief that the seat to move has a legal move, once per turn: one of
    /// its pieces outside an HQ with somewhere to go moves. Only a hidden seat needs it (a
    /// seat whose lineup was given and has no move is eliminated), and only on a turn it
    /// does not spend on a board move, which shows a moving piece by itself.
    fn note_turn(&mut self) -> Result<(), Reject> {
        let seat = usize::from(self.side);
        if self.turn_known_movable || self.is_over() || self.is_known(seat) {
            return Ok(());
        }
        self.turn_known_movable = true;
        let board = self.public_board();
        let mut pieces = 0u32;
        for k in 0..SEAT_PIECES {
            let p = PieceId::new(seat, k);
            let Some(s) = self.station_of(p) else {
                continue;
            };
            if TABLES.kind[s] == Kind::Hq || !has_exit(&board, s) {
                continue;
            }
            if self.belief.domain(p).0 & !Domain::MOVERS.0 == 0 {
                return Ok(());
            }
            pieces |= 1 << k;
        }
        self.belief
            .add_mover_clause(seat, pieces)
            .and_then(|()| self.belief.propagate())
            .map_err(Reject::Inconsistent)
    }

    /// `out:<seat>`: nothing when the seat is out already; else the seat leaves (a
    /// turn-start elimination or a forfeit) and, if it was to move, the turn passes on.
    fn read_out(&mut self, seat: usize) -> Result<(), Reject> {
        if self.is_out(seat) {
            return Ok(());
        }
        if self.is_over() {
            return Err(Reject::Over);
        }
        self.remove_seat(seat);
        if turn::any_team_out(self.out) || usize::from(self.side) == seat {
            self.next_turn(seat, usize::from(self.last_mover));
        }
        Ok(())
    }

    fn read_ply(&mut self, ply: &Ply, later_outs: u8) -> Result<(), Reject> {
        if self.is_over() {
            return Err(Reject::Over);
        }
        if ply.mv.is_special() {
            self.note_turn()?;
        }
        let mover = usize::from(self.side);
        let (out_before, public_before) = (self.out, self.public);
        let open_report;
        let (removed, fight) = match ply.mv {
            Move::PASS | Move::TIMEOUT => {
                self.count_stillness(mover);
                (self.pass(mover), None)
            }
            Move::RESIGN => (self.eliminate(mover), None),
            mv => {
                let checked = self.check_move(mv)?;
                open_report = (self.info == Info::Open).then(|| self.open_report(mv));
                let report = match (&ply.report, &open_report) {
                    (Some(given), Some(expected)) if given != expected => {
                        return Err(Reject::OpenReport {
                            expected: expected.clone(),
                        });
                    }
                    (Some(given), _) => given,
                    (None, Some(expected)) => expected,
                    (None, None) => return Err(Reject::MissingReport(self.info)),
                };
                self.play_move(mv, checked, report)?
            }
        };
        self.last_mover = mover as u8;
        self.end_ply(mover, removed);
        if let Some(fight) = fight {
            let gone = (self.out & !out_before) | later_outs;
            self.learn(&fight, public_before, gone)?;
        }
        self.belief.propagate().map_err(Reject::Inconsistent)
    }

    /// In the open game, what the referee writes for `mv` (a move [`Self::check_move`]
    /// passed, hence legal).
    fn open_report(&self, mv: Move) -> Report {
        let world = self
            .open_position()
            .expect("every rank is given in the open game");
        match world.record(mv).into_iter().next() {
            Some(Entry::Ply(Ply {
                report: Some(report),
                ..
            })) => report,
            _ => unreachable!("Position::record writes a report for every board ply"),
        }
    }

    /// The checks of a board ply that need no report: the mover's piece, the target and the
    /// path. Returns the piece, the defender if any, and the ranks that can make the move.
    fn check_move(&self, mv: Move) -> Result<(PieceId, Option<PieceId>, Domain), Reject> {
        let (from, to) = (usize::from(mv.from), usize::from(mv.to));
        if from >= STATIONS || to >= STATIONS {
            return Err(Reject::Unreachable);
        }
        let mover = usize::from(self.side);
        let Some(piece) = self.occupant(from) else {
            return Err(Reject::NoPiece { station: from });
        };
        if piece.seat() != mover {
            return Err(Reject::NotToMove {
                seat: piece.seat(),
                to_move: mover,
            });
        }
        if TABLES.kind[from] == Kind::Hq {
            return Err(Reject::Frozen { station: from });
        }
        let defender = self.occupant(to);
        if let Some(d) = defender {
            if team(d.seat()) == team(mover) {
                return Err(Reject::OntoFriend { station: to });
            }
            if TABLES.kind[to] == Kind::Camp {
                return Err(Reject::OntoCamp { station: to });
            }
        }
        let board = self.public_board();
        let needs = if set_has(&reach(&board, from, false), to) {
            Domain::MOVERS
        } else if set_has(&reach(&board, from, true), to) {
            Domain::only(ENGINEER)
        } else {
            return Err(Reject::Unreachable);
        };
        let ranks = self.belief.domain(piece);
        if ranks.0 & needs.0 == 0 {
            return Err(Reject::CannotMove {
                piece,
                ranks,
                needs,
            });
        }
        Ok((piece, defender, needs))
    }

    /// A board ply that passed [`Self::check_move`], with its report: the report's own
    /// checks, the mover's facts, the board. Returns whether
    /// a piece left the board, and the combat to learn from once the turn has passed on.
    fn play_move<'a>(
        &mut self,
        mv: Move,
        (piece, defender, needs): (PieceId, Option<PieceId>, Domain),
        report: &'a Report,
    ) -> Result<(bool, Option<Fight<'a>>), Reject> {
        let (from, to) = (usize::from(mv.from), usize::from(mv.to));
        match (defender, report.clash) {
            (None, Clash::Moved) | (Some(_), Clash::Won | Clash::Lost | Clash::Both) => {}
            (None, _) => return Err(Reject::ClashOnEmpty),
            (Some(_), Clash::Moved) => return Err(Reject::MovedOntoPiece),
        }
        if report.flag_taken && !matches!(report.clash, Clash::Won | Clash::Both) {
            return Err(Reject::FlagNotTaken);
        }
        if let (Clash::Moved, Some(&station)) = (report.clash, report.public_flags.first()) {
            return Err(Reject::PublicFlag {
                station: usize::from(station),
                why: "no piece left the board".into(),
            });
        }
        self.count_stillness(piece.seat());
        self.belief
            .restrict(piece, needs)
            .expect("check_move found a rank that moves so");
        self.moved[piece.index()] = true;
        self.at[from] = NONE;
        let Some(defender) = defender else {
            self.place(piece, to);
            return Ok((false, None));
        };
        let (attacker_lost, defender_lost) = losses(report.clash);
        if defender_lost {
            self.kill(defender);
        }
        if attacker_lost {
            self.station[piece.index()] = NONE;
        } else {
            self.place(piece, to);
        }
        if report.flag_taken {
            self.eliminate(defender.seat());
        }
        let fight = Fight {
            attacker: piece,
            defender,
            clash: report.clash,
            flag_taken: report.flag_taken,
            public_flags: &report.public_flags,
        };
        Ok((true, Some(fight)))
    }

    /// The facts of a combat: `+sq` flags (checked), which removed piece was a marshal,
    /// and the outcome's constraint. `gone` holds the seats that left with the ply.
    fn learn(&mut self, fight: &Fight, public_before: u8, gone: u8) -> Result<(), Reject> {
        let (attacker_lost, defender_lost) = losses(fight.clash);
        let mut losers = 0u8;
        if attacker_lost {
            losers |= 1 << fight.attacker.seat();
        }
        if defender_lost {
            losers |= 1 << fight.defender.seat();
        }
        let mut newly_public = 0u8;
        for &station in fight.public_flags {
            let station = usize::from(station);
            let bad = |why: String| Reject::PublicFlag { station, why };
            let Some(flag) = self.occupant(station) else {
                return Err(bad("no piece stands there after the ply".into()));
            };
            let seat = flag.seat();
            let seat_name = SEAT_NAMES[seat];
            if losers & (1 << seat) == 0 {
                return Err(bad(format!("no piece of {seat_name} left the board")));
            }
            if (public_before | newly_public) & (1 << seat) != 0 {
                return Err(bad(format!("{seat_name}'s flag is public already")));
            }
            self.belief
                .restrict(flag, Domain::only(FLAG))
                .map_err(|_| bad(format!("{flag} cannot be the flag")))?;
            newly_public |= 1 << seat;
        }
        let marshal = |seat: usize, lost: bool| {
            if !lost || public_before & (1 << seat) != 0 {
                None
            } else if newly_public & (1 << seat) != 0 {
                Some(true)
            } else if gone & (1 << seat) != 0 {
                None
            } else {
                Some(false)
            }
        };
        let combat = Combat {
            attacker: fight.attacker,
            defender: fight.defender,
            clash: fight.clash,
            flag_taken: fight.flag_taken,
            attacker_marshal: marshal(fight.attacker.seat(), attacker_lost),
            defender_marshal: marshal(fight.defender.seat(), defender_lost),
        };
        self.belief.add_combat(&combat).map_err(|c| match c {
            Contradiction::Outcome(attacker, defender) => Reject::Outcome { attacker, defender },
            other => Reject::Inconsistent(other),
        })?;
        // The removed marshal is now fixed by the pair; the counts keep every other piece
        // of its seat, dead or alive, from being one.
        self.public |= newly_public;
        Ok(())
    }

    /// One more ply of `seat` during which each of its unmoved pieces outside an HQ that
    /// had somewhere to go stayed put.
    fn count_stillness(&mut self, seat: usize) {
        let board = self.public_board();
        for k in 0..SEAT_PIECES {
            let p = PieceId::new(seat, k);
            let s = self.station[p.index()];
            if s != NONE
                && !self.moved[p.index()]
                && TABLES.kind[usize::from(s)] != Kind::Hq
                && has_exit(&board, usize::from(s))
            {
                self.still[p.index()] = self.still[p.index()].saturating_add(1);
            }
        }
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

/// Which of attacker and defender a combat report removes.
fn losses(clash: Clash) -> (bool, bool) {
    match clash {
        Clash::Moved => (false, false),
        Clash::Won => (false, true),
        Clash::Lost => (true, false),
        Clash::Both => (true, true),
    }
}

//! Why a record is refused: [`Reject`] for one impossible token, [`InfoError`] for a
//! state that could not be built (naming the ply and token).

use super::super::infer::Contradiction;
use super::super::{Domain, Info, PieceId};
use crate::games::junqi::board::{SEAT_NAMES, name};
use crate::games::junqi::{Report, SetupError};
use std::fmt;

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

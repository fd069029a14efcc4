//! Reading a `setup` with hidden seats: which lineups are given, whether they match the
//! `Info` mode, and the state before the first ply.

use super::super::infer::Belief;
use super::super::{Domain, Info, PIECES, PieceId, SEAT_PIECES};
use super::{InfoError, InfoState, NONE};
use crate::games::junqi::board::STATIONS;
use crate::games::junqi::notation::{parse_lineup, setup_fields};
use crate::games::junqi::position::team;
use crate::games::junqi::turn::{Rules, Turns};

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

impl InfoState {
    /// `setup S:<lineup|-|0> E:.. N:.. W:.. [first <seat>]`: `-` hides a seat, `0` is one
    /// out from the start.
    pub(super) fn from_setup(text: &str, rules: Rules, info: Info) -> Result<InfoState, InfoError> {
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
}

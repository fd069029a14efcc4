//! Replaying the referee's record on the state: every ply and `out:` token checked
//! against the rules and the given ranks, the public board moved on, and what each
//! combat, pass and turn teaches added to the belief.

use super::super::infer::{Combat, Contradiction};
use super::super::{Domain, Info, PieceId, SEAT_PIECES};
use super::{InfoError, InfoState, NONE, Reject};
use crate::games::junqi::board::{Kind, SEAT_NAMES, STATIONS, TABLES};
use crate::games::junqi::position::{ENGINEER, FLAG, Move, has_exit, reach, set_has, team};
use crate::games::junqi::turn::Turns;
use crate::games::junqi::{Clash, Entry, Ply, Report};

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
    pub(super) fn read(&mut self, record: &[Entry]) -> Result<(), InfoError> {
        for (i, entry) in record.iter().enumerate() {
            let later_outs = Entry::leading_outs(&record[i + 1..]);
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
        self.forfeit(seat, usize::from(self.last_mover));
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

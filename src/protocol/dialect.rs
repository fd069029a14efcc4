//! What differs between UCI, USI and UGI, and nothing else: handshake words, how scores
//! and `bestmove` are written, what `go mate` means, and which game a bare handshake
//! starts.

use crate::core::{MATE, Score};
use crate::games::GameKind;
use crate::search::{Bound, is_mate_score};

/// One UCI-style protocol.
pub trait Dialect: Send + Sync {
    /// The handshake command (`uci`), also the dialect's name.
    fn hello(&self) -> &'static str;
    /// The handshake's last answer (`uciok`).
    fn hello_ok(&self) -> &'static str;
    /// The new-game command (`ucinewgame`).
    fn new_game(&self) -> &'static str;
    /// The game a bare handshake selects.
    fn game(&self) -> GameKind;
    /// How a mate score is counted: UCI and UGI count moves, USI counts plies.
    fn mate_in_plies(&self) -> bool {
        false
    }
    /// `bestmove` for a position without legal moves.
    fn no_move(&self) -> &'static str {
        "(none)"
    }
    /// Whether `bestmove` may carry `ponder <move>` (UGI's is exactly two tokens).
    fn ponder_suffix(&self) -> bool {
        true
    }
    /// Whether `go mate` is a mate search under a time limit (USI's `go mate <ms>` or
    /// `go mate infinite`, answered `checkmate ...`) rather than a search for a mate in
    /// N moves (UCI's and UGI's `go mate <N>`, a limit like `depth`).
    fn timed_mate_search(&self) -> bool {
        false
    }
    /// The `bestmove` word that claims a win instead of moving (USI's `win`, for the
    /// entering-king declaration); `None` where the protocol has no such claim.
    fn claim_win(&self) -> Option<&'static str> {
        None
    }
    /// Option names this dialect spells its own way (USI's `USI_Hash`), mapped to ours.
    fn option_alias(&self, name: &str) -> Option<&'static str> {
        let _ = name;
        None
    }

    /// The `score ...` part of an `info` line. USI writes a mate whose length is not known
    /// (a bound on a mate score) as `mate +` or `mate -`, and has no bound words for it.
    fn score(&self, score: Score, bound: Option<Bound>) -> String {
        if self.mate_in_plies() && is_mate_score(score) && bound.is_some() {
            return if score > 0 { "mate +" } else { "mate -" }.to_string();
        }
        let mut text = if is_mate_score(score) {
            let plies = (MATE - score.abs()) as i64;
            let count = if self.mate_in_plies() {
                plies
            } else {
                (plies + 1) / 2
            };
            if score > 0 {
                format!("mate {count}")
            } else {
                format!("mate -{count}")
            }
        } else {
            format!("cp {score}")
        };
        match bound {
            Some(Bound::Lower) => text.push_str(" lowerbound"),
            Some(Bound::Upper) => text.push_str(" upperbound"),
            _ => {}
        }
        text
    }

    /// The final answer to `go`.
    fn bestmove(&self, best: Option<&str>, ponder: Option<&str>) -> String {
        match (best, ponder) {
            (None, _) => format!("bestmove {}", self.no_move()),
            (Some(best), Some(ponder)) if self.ponder_suffix() => {
                format!("bestmove {best} ponder {ponder}")
            }
            (Some(best), _) => format!("bestmove {best}"),
        }
    }
}

/// Chess's Universal Chess Interface.
pub struct Uci;

impl Dialect for Uci {
    fn hello(&self) -> &'static str {
        "uci"
    }
    fn hello_ok(&self) -> &'static str {
        "uciok"
    }
    fn new_game(&self) -> &'static str {
        "ucinewgame"
    }
    fn game(&self) -> GameKind {
        GameKind::Chess
    }
}

/// Shogi's Universal Shogi Interface: mates in plies, `resign` without a move, `win` to
/// declare.
pub struct Usi;

impl Dialect for Usi {
    fn hello(&self) -> &'static str {
        "usi"
    }
    fn hello_ok(&self) -> &'static str {
        "usiok"
    }
    fn new_game(&self) -> &'static str {
        "usinewgame"
    }
    fn game(&self) -> GameKind {
        GameKind::Shogi
    }
    fn mate_in_plies(&self) -> bool {
        true
    }
    fn no_move(&self) -> &'static str {
        "resign"
    }
    fn timed_mate_search(&self) -> bool {
        true
    }
    fn claim_win(&self) -> Option<&'static str> {
        Some("win")
    }
    fn option_alias(&self, name: &str) -> Option<&'static str> {
        match name.to_ascii_lowercase().as_str() {
            "usi_hash" => Some("Hash"),
            "usi_ponder" => Some("Ponder"),
            // YaneuraOu's name.
            "skilllevel" => Some("Skill Level"),
            _ => None,
        }
    }
}

/// The Universal Game Interface of the cutegames runner: UCI for any game, with `query`
/// and a `bestmove` of exactly two tokens.
pub struct Ugi;

impl Dialect for Ugi {
    fn hello(&self) -> &'static str {
        "ugi"
    }
    fn hello_ok(&self) -> &'static str {
        "ugiok"
    }
    fn new_game(&self) -> &'static str {
        "uginewgame"
    }
    fn game(&self) -> GameKind {
        GameKind::FourSquare
    }
    fn ponder_suffix(&self) -> bool {
        false
    }
}

/// Every dialect, for recognising handshakes.
pub static DIALECTS: [&dyn Dialect; 3] = [&Uci, &Usi, &Ugi];

/// The dialect `kind` speaks natively (chess UCI, shogi USI, the rest UGI): the one a
/// session uses when no handshake said otherwise, and the one whose grammar `go` follows.
pub fn native(kind: GameKind) -> &'static dyn Dialect {
    DIALECTS
        .iter()
        .copied()
        .find(|d| d.game() == kind)
        .unwrap_or(&Ugi)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{mate_in, mated_in};

    #[test]
    fn mates_are_moves_in_uci_and_plies_in_usi() {
        assert_eq!(Uci.score(mate_in(3), None), "mate 2");
        assert_eq!(Uci.score(mated_in(4), None), "mate -2");
        assert_eq!(Usi.score(mate_in(3), None), "mate 3");
        assert_eq!(Ugi.score(-35, Some(Bound::Upper)), "cp -35 upperbound");
        // A bound on a mate: UCI keeps the count and names the bound, USI only the sign.
        assert_eq!(
            Uci.score(mate_in(5), Some(Bound::Lower)),
            "mate 3 lowerbound"
        );
        assert_eq!(Usi.score(mate_in(5), Some(Bound::Lower)), "mate +");
        assert_eq!(Usi.score(mated_in(6), Some(Bound::Upper)), "mate -");
        assert_eq!(Usi.score(40, Some(Bound::Lower)), "cp 40 lowerbound");
    }

    #[test]
    fn ugi_bestmove_is_two_tokens() {
        assert_eq!(Ugi.bestmove(Some("a4a3"), Some("a1a2")), "bestmove a4a3");
        assert_eq!(
            Uci.bestmove(Some("e2e4"), Some("e7e5")),
            "bestmove e2e4 ponder e7e5"
        );
        assert_eq!(Usi.bestmove(None, None), "bestmove resign");
        assert_eq!(Ugi.bestmove(None, None), "bestmove (none)");
    }

    #[test]
    fn only_usi_times_its_mate_search_and_each_game_has_its_dialect() {
        assert!(Usi.timed_mate_search());
        assert!(!Uci.timed_mate_search() && !Ugi.timed_mate_search());
        assert_eq!(native(GameKind::Chess).hello(), "uci");
        assert_eq!(native(GameKind::Shogi).hello(), "usi");
        assert_eq!(native(GameKind::Junqi).hello(), "ugi");
        assert_eq!(native(GameKind::FourSquare).hello(), "ugi");
    }
}

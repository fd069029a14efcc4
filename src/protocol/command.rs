//! The protocol-neutral command set: every dialect's text becomes one of these before
//! anything runs, so the engine never sees protocol text.

use super::Dialect;
use crate::search::Limits;
use std::time::Instant;

/// One command from the GUI or script.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// `uci`/`usi`/`ugi`: pick the dialect (and game), list the options.
    Hello(&'static dyn Dialect),
    /// `isready`: answer `readyok` as soon as the engine can take commands.
    IsReady,
    /// `setoption name N [value V]`.
    SetOption { name: String, value: String },
    /// `ucinewgame`/`usinewgame`/`uginewgame`: forget the previous game.
    NewGame,
    /// `position startpos|<notation> [moves ...]`.
    Position { start: Start, moves: Vec<String> },
    /// `go ...` with search limits.
    Go {
        limits: Limits,
        searchmoves: Vec<String>,
    },
    /// `go mate <ms>|infinite` (USI): a dedicated mate search, answered `checkmate ...`;
    /// `None` searches until `stop`. Its time counts from `received`, when the line was
    /// read, if known.
    Mate {
        time: Option<u64>,
        received: Option<Instant>,
    },
    /// `go deploy` (Junqi): a lineup for the seat to move.
    Deploy,
    /// `go perft D`: count the legal move tree, per root move.
    Perft { depth: u32 },
    /// `stop`: finish the search now and answer `bestmove`.
    Stop,
    /// `ponderhit`: the predicted move was played; the ponder search goes on for real.
    PonderHit,
    /// `query gameover|p1turn|result|turn` (UGI).
    Query(Query),
    /// `gameover win|lose|draw` (USI): the GUI ended the game.
    GameOver,
    /// `d`: print the position for humans.
    Display,
    /// `help`: list the commands, for a person at a terminal.
    Help,
    /// `quit`, or the end of input.
    Quit,
}

/// Where a `position` command starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Start {
    /// The game's initial position.
    StartPos,
    /// A position in the game's notation (everything between the keyword and `moves`).
    Notation(String),
}

/// UGI's questions about the current position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Query {
    /// Is the game over? `response true|false`.
    GameOver,
    /// Is player 1 to move? `response true|false`.
    P1Turn,
    /// `response p1win|p2win|draw|none`.
    Result,
    /// Which seat is to move (Junqi); the player's name.
    Turn,
}

impl PartialEq for &'static dyn Dialect {
    fn eq(&self, other: &Self) -> bool {
        self.hello() == other.hello()
    }
}

impl std::fmt::Debug for &'static dyn Dialect {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.hello())
    }
}

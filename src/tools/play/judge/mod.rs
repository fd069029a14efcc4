//! One game in progress as the table asks about it: whose turn, what a seat may see, what
//! a person or an engine may play, how it ended, the record. The games' rules stay in
//! `crate::games`; a judge only applies them and filters what each seat is shown.
//!
//! - `two_player`: chess, shogi and FourSquare, where every seat sees everything.
//! - `junqi`: four seats, deployment, and the information modes of the dark game.

mod junqi;
mod two_player;

pub use junqi::odds_message;

use super::worker::Job;
use crate::games::GameKind;
use crate::games::junqi::dark::Info;
use crate::tools::junqi_referee::Answer;
use rand::rngs::StdRng;
use serde_json::{Map, Value, json};

/// Where a game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Junqi: lineups are being chosen.
    Deploy,
    Play,
    Over,
}

impl Phase {
    pub fn name(self) -> &'static str {
        match self {
            Phase::Deploy => "deploy",
            Phase::Play => "play",
            Phase::Over => "over",
        }
    }
}

/// How a game ended: the winning team (a seat in two-player games), or `None` for a draw,
/// and why, for people.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    pub winner: Option<usize>,
    pub text: String,
}

/// The settings a new game starts from.
#[derive(Clone, Copy, Debug, Default)]
pub struct Variant {
    /// Chess: a Chess960 start position, drawn at random.
    pub chess960: bool,
}

/// What one seat may see of the game: the game's own fields of the page's `state`
/// message (`docs/play.md`).
pub struct SeatView {
    /// The board as the seat may see it, in the game's own shape.
    pub board: Value,
    /// Every ply so far, `{"seat", "text"}`.
    pub moves: Vec<Value>,
    /// The last ply that moved a piece, or `null`.
    pub last: Value,
    /// The seat's legal moves when it is to move.
    pub legal: Vec<Value>,
    /// Shogi: the entering-king declaration is valid now.
    pub claim: bool,
    /// Junqi, while lineups are chosen: the seat's.
    pub deploy: Option<Lineup>,
}

/// A seat's lineup while lineups are chosen.
pub struct Lineup {
    /// The lineup's letters, in slot order.
    pub lineup: String,
    /// The stations of the slots, in the same order.
    pub slots: Vec<String>,
    /// Whether it is final.
    pub ready: bool,
}

impl SeatView {
    /// The fields, as the `state` message carries them.
    pub fn fields(self) -> Map<String, Value> {
        let deploy = self.deploy.map_or(
            Value::Null,
            |d| json!({"lineup": d.lineup, "slots": d.slots, "ready": d.ready}),
        );
        let Value::Object(fields) = json!({"board": self.board, "moves": self.moves,
            "last": self.last, "legal": self.legal, "claim": self.claim, "deploy": deploy})
        else {
            unreachable!("json! of an object is an object")
        };
        fields
    }

    /// A replay's frame: the board, the last ply and the plies so far.
    pub fn frame(self) -> Value {
        json!({"board": self.board, "last": self.last, "moves": self.moves})
    }
}

/// What the odds engine of a seat is told: its options (its view), then the lines whose
/// answer lists the hidden pieces' odds.
pub struct OddsRequest {
    pub options: Vec<(String, String)>,
    pub lines: Vec<String>,
}

/// One game, as the table drives it. Seats are numbered in the game's turn order.
pub trait Judge: Send {
    fn kind(&self) -> GameKind;
    /// The seats' names, in seat order.
    fn seat_names(&self) -> &'static [&'static str];
    /// `uci`, `usi` or `ugi`: how engine seats are spoken to.
    fn protocol(&self) -> &'static str;
    /// The options an engine playing `seat` is given before a game.
    fn engine_options(&self, seat: usize) -> Vec<(String, String)>;
    /// Starts over.
    fn new_game(&mut self, variant: Variant, rng: &mut StdRng);
    fn phase(&self) -> Phase;
    /// The seat to move while the game is played.
    fn turn(&self) -> Option<usize>;
    /// Whether a seat has left the game (Junqi's eliminations).
    fn is_out(&self, _seat: usize) -> bool {
        false
    }
    /// Plies played so far; a new turn starts whenever it changes.
    fn plies(&self) -> usize;
    /// What `seat` may see of the game.
    fn view(&self, seat: usize) -> SeatView;
    /// A person's move for `seat`.
    fn play(&mut self, seat: usize, text: &str) -> Result<(), String>;
    /// What the engine playing `seat` is to do now, if anything.
    fn request(&self, seat: usize, movetime: u64) -> Option<Job>;
    /// Applies an engine's answer to [`Judge::request`]; what went wrong, for people.
    fn answer(&mut self, seat: usize, answer: Answer, rng: &mut StdRng) -> Option<String>;
    /// The engine playing `seat` is gone: the seat forfeits at its turn.
    fn forfeit(&mut self, seat: usize) -> String;
    /// `seat` gives up.
    fn resign(&mut self, seat: usize) -> Result<(), String>;
    /// A person's clock ran out at `seat`'s turn.
    fn time_out(&mut self, seat: usize) -> String;
    fn result(&self) -> Option<Verdict>;
    /// The record: everything (`None`, or once the game is over), or what `seat` may see.
    fn record(&self, seat: Option<usize>) -> String;
    /// A record read back, as frames for the page's replay.
    fn replay(&self, text: &str) -> Result<Value, String>;
    /// The board's geometry for the page, where it is not a plain grid.
    fn geometry(&self) -> Value {
        Value::Null
    }
    /// Junqi's deployment: a lineup for `seat`.
    fn lineup(&mut self, _seat: usize, _text: &str) -> Result<(), String> {
        Err("this game has no deployment".into())
    }
    /// Junqi's deployment: a random lineup for `seat`.
    fn random_lineup(&mut self, _seat: usize, _rng: &mut StdRng) -> Result<(), String> {
        Err("this game has no deployment".into())
    }
    /// Junqi's deployment: `seat`'s lineup is final.
    fn ready(&mut self, _seat: usize) -> Result<(), String> {
        Err("this game has no deployment".into())
    }
    /// The dark game's odds panel: what makes an engine told only `seat`'s view describe
    /// the hidden pieces.
    fn odds_request(&self, _seat: usize) -> Option<OddsRequest> {
        None
    }
}

/// The judge of a new game of `kind`.
pub fn new(kind: GameKind, info: Info) -> Box<dyn Judge> {
    match kind {
        GameKind::Chess => Box::new(two_player::TwoPlayer::<crate::games::chess::Position>::new(
            &two_player::CHESS,
        )),
        GameKind::Shogi => Box::new(two_player::TwoPlayer::<crate::games::shogi::Position>::new(
            &two_player::SHOGI,
        )),
        GameKind::FourSquare => Box::new(
            two_player::TwoPlayer::<crate::games::foursquare::Position>::new(
                &two_player::FOURSQUARE,
            ),
        ),
        GameKind::Junqi => Box::new(junqi::Junqi::new(info)),
    }
}

/// The `position ...` line of a record: the first one in the text.
fn position_line(text: &str) -> Result<&str, String> {
    text.lines()
        .map(str::trim)
        .find_map(|line| line.strip_prefix("position "))
        .ok_or_else(|| "no 'position ...' line in the record".to_string())
}

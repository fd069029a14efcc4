//! Chess, shogi and FourSquare: two seats, nothing hidden, so every seat is shown the
//! position's own notation and the page draws from it.

use super::{Judge, Phase, SeatView, Variant, Verdict, position_line};
use crate::core::{Game, MoveList, Outcome};
use crate::games::GameKind;
use crate::tools::junqi_referee::Answer;
use crate::tools::play::worker::Job;
use rand::RngExt;
use rand::rngs::StdRng;
use serde_json::{Value, json};

/// What differs between the two-player games at the table.
pub struct Spec {
    kind: GameKind,
    seats: &'static [&'static str],
    protocol: &'static str,
    /// The `position` keyword of a start given by its notation.
    notation_word: &'static str,
    /// The `go` line for a move of `movetime` milliseconds.
    go: fn(u64) -> String,
    /// Why the side without a legal move lost (or drew, when it is not attacked).
    no_move: (&'static str, &'static str),
    /// Why a game ended otherwise by the rules, won or drawn.
    by_rule: (&'static str, &'static str),
}

pub static CHESS: Spec = Spec {
    kind: GameKind::Chess,
    seats: &["white", "black"],
    protocol: "uci",
    notation_word: "fen",
    go: movetime,
    no_move: ("checkmate", "stalemate"),
    by_rule: (
        "by the rules",
        "repetition, fifty moves or insufficient material",
    ),
};

pub static SHOGI: Spec = Spec {
    kind: GameKind::Shogi,
    seats: &["sente", "gote"],
    protocol: "usi",
    notation_word: "sfen",
    go: byoyomi,
    no_move: ("checkmate", "no legal move"),
    by_rule: ("sennichite by perpetual check", "sennichite"),
};

pub static FOURSQUARE: Spec = Spec {
    kind: GameKind::FourSquare,
    seats: &["black", "white"],
    protocol: "ugi",
    notation_word: "fen",
    go: movetime,
    no_move: ("no legal move", "no legal move"),
    by_rule: ("one piece left", "equal pieces"),
};

fn movetime(ms: u64) -> String {
    format!("go movetime {ms}")
}

/// USI engines know no `movetime`; a byoyomi with empty main times asks the same.
fn byoyomi(ms: u64) -> String {
    format!("go btime 0 wtime 0 byoyomi {ms}")
}

/// A two-player game in progress.
pub struct TwoPlayer<G: Game> {
    spec: &'static Spec,
    /// The start in the game's notation.
    start: String,
    /// The seat to move at the start.
    first: usize,
    chess960: bool,
    pos: G,
    /// The plies played, in the game's notation.
    plies: Vec<String>,
    /// The notation before the last ply.
    before: Option<String>,
    /// How the game ended when not by the rules (resignation, time, forfeit, a claim).
    ended: Option<Verdict>,
}

impl<G: Game> TwoPlayer<G> {
    pub fn new(spec: &'static Spec) -> Self {
        let pos = G::start_position();
        TwoPlayer {
            spec,
            start: pos.to_notation(),
            first: pos.side_to_move(),
            chess960: false,
            pos,
            plies: Vec::new(),
            before: None,
            ended: None,
        }
    }

    fn rules(&self) -> Vec<(String, String)> {
        if self.chess960 {
            vec![("UCI_Chess960".into(), "true".into())]
        } else {
            Vec::new()
        }
    }

    fn over(&self) -> bool {
        self.result().is_some()
    }

    /// Plays a legal move given by its name.
    fn make(&mut self, text: &str) -> Result<(), String> {
        let mv = self.pos.parse_move(text).map_err(|e| e.to_string())?;
        self.before = Some(self.pos.to_notation());
        self.plies.push(self.pos.move_name(mv));
        self.pos.make_move(mv);
        Ok(())
    }

    /// The game lost by `seat`.
    fn lost(&mut self, seat: usize, why: &str) {
        self.ended = Some(Verdict {
            winner: Some(1 - seat),
            text: format!(
                "{} wins: {} {why}",
                self.spec.seats[1 - seat],
                self.spec.seats[seat]
            ),
        });
    }

    /// The seat names of `text`'s move, for highlighting: from (absent for a drop), to,
    /// and the promotion or dropped piece.
    fn parts(&self, text: &str) -> Value {
        let (head, tail) = text.split_at(text.len().min(4));
        if self.spec.kind == GameKind::Shogi && text.as_bytes().get(1) == Some(&b'*') {
            return json!({"text": text, "from": null, "drop": &text[..1], "to": &text[2..]});
        }
        let (from, to) = head.split_at(head.len().min(2));
        let mut parts = json!({"text": text, "from": from, "to": to});
        if !tail.is_empty() {
            parts["promotion"] = json!(tail);
        }
        parts
    }
}

impl<G: Game> Judge for TwoPlayer<G> {
    fn kind(&self) -> GameKind {
        self.spec.kind
    }

    fn seat_names(&self) -> &'static [&'static str] {
        self.spec.seats
    }

    fn protocol(&self) -> &'static str {
        self.spec.protocol
    }

    fn engine_options(&self, _seat: usize) -> Vec<(String, String)> {
        if self.spec.kind == GameKind::Chess {
            vec![("UCI_Chess960".into(), self.chess960.to_string())]
        } else {
            Vec::new()
        }
    }

    fn new_game(&mut self, variant: Variant, rng: &mut StdRng) {
        self.chess960 = variant.chess960 && self.spec.kind == GameKind::Chess;
        let start = self
            .chess960
            .then(|| crate::games::chess::chess960_start(rng.random_range(0..960)));
        self.pos = G::start_with_rules(start.as_deref(), &self.rules())
            .unwrap_or_else(|_| G::start_position());
        self.start = self.pos.to_notation();
        self.first = self.pos.side_to_move();
        self.plies.clear();
        self.before = None;
        self.ended = None;
    }

    fn phase(&self) -> Phase {
        if self.over() {
            Phase::Over
        } else {
            Phase::Play
        }
    }

    fn turn(&self) -> Option<usize> {
        (!self.over()).then(|| self.pos.side_to_move())
    }

    fn plies(&self) -> usize {
        self.plies.len()
    }

    fn view(&self, seat: usize) -> SeatView {
        let moves = self
            .plies
            .iter()
            .enumerate()
            .map(|(i, text)| json!({"seat": (i + self.first) % 2, "text": text}))
            .collect();
        let last = self.plies.last().map_or(Value::Null, |text| {
            let parts = self.parts(text);
            json!({"from": parts["from"], "to": parts["to"]})
        });
        let mut legal = Vec::new();
        if self.turn() == Some(seat) {
            let mut moves = MoveList::new();
            self.pos.legal_moves(&mut moves);
            legal = moves
                .iter()
                .map(|&mv| self.parts(&self.pos.move_name(mv)))
                .collect();
        }
        SeatView {
            board: json!({"position": self.pos.to_notation(), "before": self.before,
                          "chess960": self.chess960}),
            moves,
            last,
            legal,
            claim: self.turn() == Some(seat) && self.pos.can_claim_win(),
            deploy: None,
        }
    }

    fn play(&mut self, seat: usize, text: &str) -> Result<(), String> {
        if self.turn() != Some(seat) {
            return Err(format!("it is not {}'s turn", self.spec.seats[seat]));
        }
        if text == "win" {
            if !self.pos.can_claim_win() {
                return Err("the entering-king declaration is not valid here".into());
            }
            self.ended = Some(Verdict {
                winner: Some(seat),
                text: format!(
                    "{} wins by the entering-king declaration",
                    self.spec.seats[seat]
                ),
            });
            return Ok(());
        }
        self.make(text)
    }

    fn request(&self, seat: usize, movetime: u64) -> Option<Job> {
        if self.turn() != Some(seat) {
            return None;
        }
        let mut position = format!("position {} {}", self.spec.notation_word, self.start);
        if !self.plies.is_empty() {
            position.push_str(" moves ");
            position.push_str(&self.plies.join(" "));
        }
        Some(Job::Go {
            position,
            go: (self.spec.go)(movetime),
            movetime,
        })
    }

    fn answer(&mut self, seat: usize, answer: Answer, _rng: &mut StdRng) -> Option<String> {
        if self.turn() != Some(seat) {
            return None;
        }
        let name = self.spec.seats[seat];
        match answer {
            Answer::Given(text) => {
                let text = text.split_whitespace().next().unwrap_or("");
                if text == "resign" {
                    let _ = self.resign(seat);
                    return None;
                }
                match self.play(seat, text) {
                    Ok(()) => None,
                    Err(e) => {
                        self.lost(seat, "played an illegal move");
                        Some(format!(
                            "{name}'s engine answered '{text}': {e}; {name} forfeits"
                        ))
                    }
                }
            }
            Answer::Late => {
                self.lost(seat, "ran out of time");
                Some(format!(
                    "{name}'s engine did not answer in time; {name} forfeits"
                ))
            }
            Answer::Gone => Some(self.forfeit(seat)),
        }
    }

    fn forfeit(&mut self, seat: usize) -> String {
        self.lost(seat, "has no engine (it crashed)");
        format!("{}'s engine is gone; it forfeits", self.spec.seats[seat])
    }

    fn resign(&mut self, seat: usize) -> Result<(), String> {
        if self.over() {
            return Err("the game is over".into());
        }
        self.lost(seat, "resigned");
        Ok(())
    }

    fn time_out(&mut self, seat: usize) -> String {
        self.lost(seat, "ran out of time");
        format!("{} ran out of time", self.spec.seats[seat])
    }

    fn result(&self) -> Option<Verdict> {
        if let Some(verdict) = &self.ended {
            return Some(verdict.clone());
        }
        let outcome = self.pos.result()?;
        let mut moves = MoveList::new();
        self.pos.legal_moves(&mut moves);
        let (won, drawn) = if moves.is_empty() {
            self.spec.no_move
        } else {
            self.spec.by_rule
        };
        Some(match outcome {
            Outcome::Win(seat) => Verdict {
                winner: Some(seat),
                text: format!("{} wins: {won}", self.spec.seats[seat]),
            },
            Outcome::Draw => Verdict {
                winner: None,
                text: format!("draw: {drawn}"),
            },
        })
    }

    fn record(&self, _seat: Option<usize>) -> String {
        let result = self
            .result()
            .map_or_else(|| "in progress".to_string(), |v| v.text);
        let mut text = format!(
            "# qiyi play: {}{}; {result}\nposition {} {}",
            self.spec.kind,
            if self.chess960 { " (Chess960)" } else { "" },
            self.spec.notation_word,
            self.start
        );
        if !self.plies.is_empty() {
            text.push_str(" moves ");
            text.push_str(&self.plies.join(" "));
        }
        text.push('\n');
        text
    }

    fn replay(&self, text: &str) -> Result<Value, String> {
        let line = position_line(text)?;
        let (start, moves) = match line.split_once(" moves ") {
            Some((start, moves)) => (start.trim(), moves.split_whitespace().collect()),
            None => (line.trim().trim_end_matches(" moves"), Vec::new()),
        };
        let start = match start {
            "startpos" => None,
            other => Some(
                other
                    .strip_prefix("fen ")
                    .or_else(|| other.strip_prefix("sfen "))
                    .ok_or_else(|| format!("expected startpos, fen or sfen, not '{other}'"))?,
            ),
        };
        // A Chess960 record castles king-takes-rook; either reading that accepts every
        // move is the record's.
        let mut last_error = String::new();
        let order = if text.contains("Chess960") {
            [true, false]
        } else {
            [false, true]
        };
        for chess960 in order {
            let mut game = TwoPlayer::<G>::new(self.spec);
            game.chess960 = chess960 && self.spec.kind == GameKind::Chess;
            if chess960 && !game.chess960 {
                continue;
            }
            game.pos = match G::start_with_rules(start, &game.rules()) {
                Ok(pos) => pos,
                Err(e) => return Err(e.to_string()),
            };
            game.start = game.pos.to_notation();
            game.first = game.pos.side_to_move();
            let mut frames = vec![game.view(usize::MAX).frame()];
            let mut failed = None;
            for (i, text) in moves.iter().enumerate() {
                if let Err(e) = game.make(text) {
                    failed = Some(format!("ply {} ('{text}'): {e}", i + 1));
                    break;
                }
                frames.push(game.view(usize::MAX).frame());
            }
            match failed {
                None => {
                    return Ok(json!({"type": "replay", "game": self.spec.kind.name(),
                                     "seats": self.spec.seats, "ranks": [0, 1],
                                     "frames": frames}));
                }
                Some(e) => last_error = e,
            }
        }
        Err(last_error)
    }
}

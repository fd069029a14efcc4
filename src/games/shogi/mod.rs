//! Shogi: the standard rules on a padded mailbox, spoken over USI.
//!
//! - `types`: sides, squares and moves, with their USI notation.
//! - `tables`: the 17-column mailbox and its difference-indexed attack and direction tables.
//! - `board`: the position (mailbox, piece lists, hands), make/unmake, attack queries.
//! - `movegen`: fully legal generation from checkers and pins found once per node, with
//!   forced promotion, dead-piece, nifu and uchifuzume rules.
//! - `sfen`: SFEN reading and printing.
//! - `zobrist`: fixed-seed keys for board, hands and side to move.
//! - `eval`: material (hand pieces above board pieces), piece-square terms, king safety.
//! - `see`: static exchange evaluation, drops included.
//! - `mate`: the dedicated mate search behind USI's `go mate`, and the mate-in-one test
//!   the main search makes at every node.
//!
//! The end of the game, beyond checkmate: no legal move loses (stalemate too); the fourth
//! occurrence of a position (board, hands, side to move) is sennichite, a draw unless one
//! side gave check with every move of the repetition, who then loses; a side whose king
//! has entered the enemy camp with enough material may declare a win (option
//! `EnteringKingRule`: the CSA 27-point rule by default, the 24-point rule, or none),
//! which the engine claims with `bestmove win`; and a tournament may end a game drawn
//! after a number of plies (option `MaxMovesToDraw`, as Floodgate's 256).
//!
//! ```
//! use qiyi::core::Game;
//! use qiyi::games::shogi::Position;
//!
//! let mut pos = Position::start_position();
//! for text in ["7g7f", "3c3d", "8h2b+", "3a2b"] {
//!     let mv = pos.parse_move(text).unwrap();
//!     pos.make_move(mv);
//! }
//! assert_eq!(
//!     pos.to_notation(),
//!     "lnsgkg1nl/1r5s1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL b Bb 5"
//! );
//! assert_eq!(qiyi::perft::perft(&mut pos, 1), 77);
//! ```

mod board;
mod eval;
mod mate;
mod movegen;
pub mod nnue;
mod see;
mod sfen;
mod tables;
mod types;
mod weights;
mod zobrist;

pub use board::{EnteringKingRule, Position, Rules, Undo};
pub use eval::HandEval;
pub use nnue::NetworkEval;
pub use sfen::{START_SFEN, SfenError};
pub use tables::{
    BISHOP, DRAGON, GOLD, HORSE, KING, KNIGHT, LANCE, PAWN, PRO_KNIGHT, PRO_LANCE, PRO_PAWN,
    PRO_SILVER, ROOK, SILVER,
};
pub use types::{Color, Move, Square};

use crate::core::{Game, MateAnswer, MoveList, OptionKind, OptionSpec, Outcome, RuleOption};
use board::is_color;
use tables::{SQUARES, relative_row};

/// Occurrences of one position that end the game (sennichite).
const SENNICHITE: usize = 4;

const ENTERING_KING_RULE: &str = "EnteringKingRule";
const MAX_MOVES_TO_DRAW: &str = "MaxMovesToDraw";
/// `EnteringKingRule`'s values, as YaneuraOu spells them.
const ENTERING_KING_RULES: [(&str, EnteringKingRule); 3] = [
    ("NoEnteringKing", EnteringKingRule::None),
    ("CSARule24", EnteringKingRule::Csa24),
    ("CSARule27", EnteringKingRule::Csa27),
];

impl Position {
    /// The sennichite ruling, when the current position (board, hands, side to move) occurs
    /// for the fourth time: the side that gave check with every one of its moves since the
    /// previous occurrence loses; otherwise the game is drawn. Judging the last cycle is
    /// what cshogi and the usual referees do.
    pub fn sennichite(&self) -> Option<Outcome> {
        if self.seen[board::seen_slot(self.key)] < SENNICHITE as u16 {
            return None;
        }
        let n = self.history.len();
        let mut count = 1;
        let mut previous = None;
        let mut j = n;
        while j >= 2 {
            if self.history[j - 1].null || self.history[j - 2].null {
                break;
            }
            j -= 2;
            if self.history[j].key == self.key {
                count += 1;
                previous.get_or_insert(j);
            }
        }
        if count < SENNICHITE {
            return None;
        }
        let start = previous.expect("a repetition has a previous occurrence");
        let checked = |i: usize| {
            if i == n {
                self.checked
            } else {
                self.history[i].checked
            }
        };
        let mover = self.side;
        // Positions with the opponent to move were reached by the mover's moves.
        if (start + 1..n).step_by(2).all(checked) {
            return Some(Outcome::Win(mover ^ 1));
        }
        if (start + 2..=n).step_by(2).all(checked) {
            return Some(Outcome::Win(mover));
        }
        Some(Outcome::Draw)
    }

    /// Whether the side to move may declare a win under the `EnteringKingRule` in force:
    /// its king is in the enemy camp (the far three ranks) and not in check, at least ten
    /// of its other pieces are there too, and those pieces plus its hand count enough
    /// points, rook and bishop (promoted or not) 5 and the rest 1: under CSA's 27-point
    /// rule 28 for sente and 27 for gote, under the 24-point rule 31 for either. That the
    /// declarer still has time on the clock is the GUI's to know.
    pub fn declaration_wins(&self) -> bool {
        let needed = match self.rules.entering_king {
            EnteringKingRule::None => return false,
            EnteringKingRule::Csa24 => 31,
            EnteringKingRule::Csa27 if self.side == 0 => 28,
            EnteringKingRule::Csa27 => 27,
        };
        let us = self.side;
        let Some(king) = self.king(us) else {
            return false;
        };
        if relative_row(us, king) > 2 || self.checked {
            return false;
        }
        let points = |kind: u8| if matches!(kind, BISHOP | ROOK) { 5 } else { 1 };
        let mut pieces = 0;
        let mut total = 0;
        for &sq in &SQUARES {
            let code = self.board[usize::from(sq)];
            let kind = board::base_kind(code & 15);
            if is_color(code, us) && kind != KING && relative_row(us, sq) <= 2 {
                pieces += 1;
                total += points(kind);
            }
        }
        for kind in PAWN..=GOLD {
            total += points(kind) * u32::from(self.hands[us][usize::from(kind)]);
        }
        pieces >= 10 && total >= needed
    }

    /// Whether `MaxMovesToDraw` plies have been played.
    fn out_of_moves(&self) -> bool {
        let max = self.rules.max_moves_to_draw;
        max > 0 && self.move_number > max
    }

    /// A diagram with sente at the bottom, then `Sfen:`, `Key:` and `Checkers:`.
    fn diagram(&self) -> String {
        let line = "+---+---+---+---+---+---+---+---+---+\n";
        let mut out = String::from("  9   8   7   6   5   4   3   2   1\n");
        out.push_str(line);
        for rank in 0..9u8 {
            for file in (1..=9).rev() {
                let sq = Square::new(file, rank).expect("on the board");
                let code = self.board[usize::from(sq.0)];
                let text = if code == board::EMPTY {
                    String::new()
                } else {
                    sfen::piece_text(code)
                };
                out.push_str(&format!("|{text:>2} "));
            }
            out.push_str(&format!("| {}\n{line}", (b'a' + rank) as char));
        }
        out.push_str(&format!("Sfen: {}\n", self.sfen()));
        out.push_str(&format!("Key: {:016X}\n", self.key));
        let checkers: Vec<String> = self
            .checker_squares()
            .iter()
            .map(ToString::to_string)
            .collect();
        out.push_str(&format!("Checkers: {}\n", checkers.join(" ")));
        out
    }
}

impl Game for Position {
    type Move = Move;
    type Undo = Undo;

    /// See [`Move::index`].
    const MOVE_INDEX_SIZE: usize = 1 << 15;
    /// Fourteen kinds moving and seven dropped, on 81 squares turned round for gote.
    const PIECE_TO_SIZE: usize = 21 * 81;
    const DROPS: bool = true;

    fn start_position() -> Self {
        Position::from_sfen(START_SFEN).expect("the start SFEN is valid")
    }

    fn from_notation(text: &str) -> anyhow::Result<Self> {
        Ok(Position::from_sfen(text)?)
    }

    fn to_notation(&self) -> String {
        self.sfen()
    }

    fn display(&self) -> String {
        self.diagram()
    }

    #[inline]
    fn side_to_move(&self) -> usize {
        self.side
    }

    fn player_name(player: usize) -> String {
        if player == 0 { "sente" } else { "gote" }.to_string()
    }

    #[inline]
    fn hash(&self) -> u64 {
        self.key
    }

    #[inline]
    fn legal_moves(&self, moves: &mut MoveList<Move>) {
        self.generate_legal(moves);
    }

    #[inline]
    fn make_move(&mut self, mv: Move) -> Undo {
        self.play(mv)
    }

    #[inline]
    fn unmake_move(&mut self, mv: Move, undo: Undo) {
        self.take_back(mv, undo);
    }

    /// Sennichite (see [`Position::sennichite`]); once `MaxMovesToDraw` plies are played,
    /// a draw, unless the last of them mated (a mate on the last allowed ply still wins);
    /// or a win for the side to move when it may declare one (the engine always does).
    fn outcome(&self) -> Option<Outcome> {
        if let Some(outcome) = self.sennichite() {
            return Some(outcome);
        }
        if self.out_of_moves() {
            let mut moves = MoveList::new();
            self.generate_legal(&mut moves);
            return Some(if moves.is_empty() {
                self.no_move_outcome()
            } else {
                Outcome::Draw
            });
        }
        self.declaration_wins().then_some(Outcome::Win(self.side))
    }

    /// No legal move loses, in check or not.
    fn no_move_outcome(&self) -> Outcome {
        Outcome::Win(self.side ^ 1)
    }

    #[inline]
    fn in_check(&self) -> bool {
        self.checked
    }

    #[inline]
    fn gives_check(&mut self, mv: Move) -> bool {
        Position::gives_check(self, mv)
    }

    fn make_null_move(&mut self) -> Option<Undo> {
        (!self.checked).then(|| self.play_null())
    }

    fn unmake_null_move(&mut self, undo: Undo) {
        self.take_back_null(undo);
    }

    /// Captures and promotions.
    #[inline]
    fn is_capture(&self, mv: Move) -> bool {
        self.is_noisy(mv)
    }

    #[inline]
    fn move_index(mv: Move) -> usize {
        mv.index()
    }

    #[inline]
    fn piece_to(&self, mv: Move) -> usize {
        let kind = if mv.is_drop() {
            13 + mv.drop_kind()
        } else {
            self.piece_at(mv.from()).map_or(0, |(_, kind)| kind - 1)
        };
        let to = mv.to().dense();
        let to = if self.side() == Color::Sente {
            to
        } else {
            80 - to
        };
        usize::from(kind) * 81 + to
    }

    /// Tells a malformed move from an illegal one, which the default cannot.
    fn parse_move(&self, text: &str) -> anyhow::Result<Move> {
        let bytes = text.as_bytes();
        let well_formed = match bytes {
            [b'P' | b'L' | b'N' | b'S' | b'G' | b'B' | b'R', b'*', ..] => {
                text.len() == 4 && Square::parse(&text[2..]).is_some()
            }
            _ => {
                text.is_ascii()
                    && (text.len() == 4 || (text.len() == 5 && text.ends_with('+')))
                    && Square::parse(&text[0..2]).is_some()
                    && Square::parse(&text[2..4]).is_some()
            }
        };
        if !well_formed {
            anyhow::bail!(
                "malformed move '{text}': expected squares with an optional '+', like 7g7f or 8h2b+, or a drop like P*5e"
            );
        }
        let mut moves = MoveList::new();
        self.generate_legal(&mut moves);
        moves
            .iter()
            .copied()
            .find(|mv| mv.to_string() == text)
            .ok_or_else(|| anyhow::anyhow!("illegal move '{text}' in {}", self.sfen()))
    }

    fn move_name(&self, mv: Move) -> String {
        mv.to_string()
    }

    fn can_claim_win(&self) -> bool {
        !self.out_of_moves() && self.declaration_wins()
    }

    const RULE_OPTIONS: &'static [RuleOption<Self>] = &[
        RuleOption {
            spec: OptionSpec {
                name: ENTERING_KING_RULE,
                kind: OptionKind::Combo {
                    default: "CSARule27",
                    vars: &[
                        ENTERING_KING_RULES[0].0,
                        ENTERING_KING_RULES[1].0,
                        ENTERING_KING_RULES[2].0,
                    ],
                },
            },
            apply: |pos, value| {
                pos.rules.entering_king = ENTERING_KING_RULES
                    .iter()
                    .find(|(text, _)| *text == value)
                    .map(|&(_, rule)| rule)
                    .ok_or_else(|| anyhow::anyhow!("{ENTERING_KING_RULE} has no value {value}"))?;
                Ok(())
            },
        },
        RuleOption {
            spec: OptionSpec {
                name: MAX_MOVES_TO_DRAW,
                kind: OptionKind::Spin {
                    default: 0,
                    min: 0,
                    max: 100_000,
                },
            },
            apply: |pos, value| {
                pos.rules.max_moves_to_draw = value.parse()?;
                Ok(())
            },
        },
    ];

    #[inline]
    fn mate_in_one(&mut self) -> Option<Move> {
        Position::mate_in_one(self)
    }

    fn search_mate(&self, stop: &dyn Fn() -> bool) -> MateAnswer<Move> {
        self.mate_search(stop)
    }
}

#[cfg(test)]
mod tests;

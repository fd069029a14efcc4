//! Chess: the standard rules on a 0x88 board.
//!
//! - `tables`: the 239-entry attack and direction tables indexed by square difference.
//! - `board`: the position (mailbox + piece lists), make/unmake, attack queries.
//! - `movegen`: fully legal generation from checkers and pins found once per node.
//! - `fen`: FEN reading and printing.
//! - `zobrist`: fixed-seed keys.
//!
//! Evaluation reads the position through [`Position::pieces`], [`Position::piece_at`],
//! [`Position::king_square`], [`Position::side`], [`Position::castling_rights`],
//! [`Position::en_passant`] and [`Position::key`].
//!
//! ```
//! use qiyi::core::Game;
//! use qiyi::games::chess::Position;
//!
//! let mut pos = Position::start_position();
//! for text in ["e2e4", "d7d5", "e4e5", "f7f5"] {
//!     let mv = pos.parse_move(text).unwrap();
//!     pos.make_move(mv);
//! }
//! assert_eq!(
//!     pos.to_notation(),
//!     "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3"
//! );
//! assert_eq!(qiyi::perft::perft(&mut pos, 1), 31);
//! ```

mod board;
mod fen;
mod movegen;
mod tables;
mod zobrist;

pub use board::{
    BLACK_KINGSIDE, BLACK_QUEENSIDE, Color, Move, Piece, Position, Square, Undo, WHITE_KINGSIDE,
    WHITE_QUEENSIDE,
};
pub use fen::{FenError, START_FEN};

use crate::core::{Game, MoveList, Outcome};

impl Position {
    /// Whether the position is drawn by insufficient material: no pawns, rooks or queens,
    /// and either at most one minor piece on the board or only bishops, all on squares
    /// of one colour (no mate is then possible by any sequence of moves).
    pub fn insufficient_material(&self) -> bool {
        let mut minors = 0;
        let mut bishop_colors = [false; 2];
        for color in [Color::White, Color::Black] {
            for piece in [Piece::Pawn, Piece::Rook, Piece::Queen] {
                if self.count(color, piece) > 0 {
                    return false;
                }
            }
            minors += self.count(color, Piece::Knight) + self.count(color, Piece::Bishop);
            for sq in self.pieces(color, Piece::Bishop) {
                bishop_colors[usize::from((sq.file() + sq.rank()) & 1)] = true;
            }
        }
        let knights =
            self.count(Color::White, Piece::Knight) + self.count(Color::Black, Piece::Knight);
        minors <= 1 || (knights == 0 && !(bishop_colors[0] && bishop_colors[1]))
    }

    /// Whether the current position occurred before with the same side to move since the
    /// last capture, pawn move or null move: a two-fold repetition, which is what the
    /// search needs (a line that repeats once can repeat forever).
    pub fn is_repetition(&self) -> bool {
        let n = self.history.len();
        let reach = usize::from(self.halfmove).min(n);
        (4..=reach)
            .step_by(2)
            .any(|back| self.history[n - back] == self.key)
    }

    /// A diagram like Stockfish's `d`: the board, then `Fen:`, `Key:` and `Checkers:`.
    fn diagram(&self) -> String {
        let line = " +---+---+---+---+---+---+---+---+\n";
        let mut out = String::from(line);
        for rank in (0..8u8).rev() {
            for file in 0..8u8 {
                let code = self.board[usize::from(rank * 16 + file)];
                let c = if code == board::EMPTY {
                    ' '
                } else {
                    fen::piece_char(code)
                };
                out.push_str(&format!(" | {c}"));
            }
            out.push_str(&format!(" | {}\n{line}", rank + 1));
        }
        out.push_str("   a   b   c   d   e   f   g   h\n\n");
        out.push_str(&format!("Fen: {}\n", self.fen()));
        out.push_str(&format!("Key: {:016X}\n", self.key));
        let checkers: Vec<String> = self
            .checker_squares()
            .iter()
            .map(|s| s.to_string())
            .collect();
        out.push_str(&format!("Checkers: {}\n", checkers.join(" ")));
        out
    }
}

impl Game for Position {
    type Move = Move;
    type Undo = Undo;

    /// `promotion * 4096 + from * 64 + to` with promotion 0 (none) or 1..=4 (N, B, R,
    /// Q): castling, en passant and double pushes are known from the squares.
    const MOVE_INDEX_SIZE: usize = 5 * 4096;

    fn start_position() -> Self {
        Position::from_fen(START_FEN).expect("the start FEN is valid")
    }

    fn from_notation(text: &str) -> anyhow::Result<Self> {
        Ok(Position::from_fen(text)?)
    }

    fn to_notation(&self) -> String {
        self.fen()
    }

    fn display(&self) -> String {
        self.diagram()
    }

    #[inline]
    fn side_to_move(&self) -> usize {
        self.side.index()
    }

    fn player_name(player: usize) -> String {
        if player == 0 { "white" } else { "black" }.to_string()
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

    /// Repetition (two-fold, see [`Position::is_repetition`]), insufficient material,
    /// or the 50-move rule unless the 100th quiet ply gave mate (mate takes precedence).
    fn outcome(&self) -> Option<Outcome> {
        if self.is_repetition() || self.insufficient_material() {
            return Some(Outcome::Draw);
        }
        if self.halfmove >= 100 {
            if !self.checked() {
                return Some(Outcome::Draw);
            }
            let mut moves = MoveList::new();
            self.generate_legal(&mut moves);
            if !moves.is_empty() {
                return Some(Outcome::Draw);
            }
        }
        None
    }

    /// Checkmate loses, stalemate draws.
    fn no_move_outcome(&self) -> Outcome {
        if self.checked() {
            Outcome::Win(self.side.flip().index())
        } else {
            Outcome::Draw
        }
    }

    #[inline]
    fn in_check(&self) -> bool {
        self.checked()
    }

    fn make_null_move(&mut self) -> Option<Undo> {
        (!self.checked()).then(|| self.play_null())
    }

    fn unmake_null_move(&mut self, undo: Undo) {
        self.take_back_null(undo);
    }

    /// Captures (en passant included) and queen promotions.
    #[inline]
    fn is_capture(&self, mv: Move) -> bool {
        self.is_noisy(mv)
    }

    #[inline]
    fn move_index(mv: Move) -> usize {
        let promotion = match mv.promotion() {
            Some(piece) => piece as usize - 1,
            None => 0,
        };
        promotion * 4096 + usize::from(mv.bits() & 0xFFF)
    }

    /// Tells a malformed move from an illegal one, which the default cannot.
    fn parse_move(&self, text: &str) -> anyhow::Result<Move> {
        let well_formed = text.is_ascii()
            && (text.len() == 4 || text.len() == 5)
            && Square::parse(&text[0..2]).is_some()
            && Square::parse(&text[2..4]).is_some()
            && (text.len() == 4 || matches!(&text[4..], "q" | "r" | "b" | "n"));
        if !well_formed {
            anyhow::bail!(
                "malformed move '{text}': expected squares and an optional promotion piece, like e2e4 or e7e8q"
            );
        }
        let mut moves = MoveList::new();
        self.generate_legal(&mut moves);
        moves
            .iter()
            .copied()
            .find(|mv| mv.to_string() == text)
            .ok_or_else(|| anyhow::anyhow!("illegal move '{text}' in {}", self.fen()))
    }

    fn move_name(mv: Move) -> String {
        mv.to_string()
    }
}

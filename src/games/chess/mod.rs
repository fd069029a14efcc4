//! Chess: the standard rules and Chess960's castling on a 0x88 board.
//!
//! - `types`: sides, kinds of piece, squares and moves, with their notation.
//! - `tables`: the 239-entry attack and direction tables indexed by square difference.
//! - `board`: the position (mailbox + piece lists), make/unmake, attack queries.
//! - `movegen`: fully legal generation from checkers and pins found once per node.
//! - `fen`: FEN reading and printing.
//! - `zobrist`: fixed-seed keys.
//! - `eval`: the tapered evaluation, linear in the weights of `weights`.
//! - `see`: static exchange evaluation.
//! - `strength`: `UCI_Elo`'s levels, measured against Stockfish.
//! - `weights`: the evaluation weights, fitted by `qiyi tune` (crate::tools::tune).
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
mod chess960;
mod eval;
mod fen;
mod movegen;
pub mod nnue;
mod see;
pub mod strength;
mod tables;
mod types;
mod wdl;
mod weights;
mod zobrist;

pub use board::{BLACK_KINGSIDE, BLACK_QUEENSIDE, Position, Undo, WHITE_KINGSIDE, WHITE_QUEENSIDE};
pub use chess960::chess960_start;
pub use eval::HandEval;
pub use fen::{FenError, START_FEN};
pub use nnue::NetworkEval;
pub use see::see;
pub use types::{Color, Move, Piece, Square};

use crate::core::{Game, MoveList, OptionKind, OptionSpec, Outcome, RuleOption};

/// The option that switches castling notation to Chess960's (the rules need no switch:
/// a position's castling rooks stand where its FEN says).
const CHESS960: &str = "UCI_Chess960";

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
        self.earlier_keys().any(|key| key == self.key)
    }

    /// Keys of the earlier positions with the same side to move that the current one can
    /// repeat: back to the last capture, pawn move or null move, nearest first.
    fn earlier_keys(&self) -> impl Iterator<Item = u64> + '_ {
        let n = self.history.len();
        let reach = usize::from(self.halfmove).min(n);
        (4..=reach)
            .step_by(2)
            .map(move |back| self.history[n - back])
    }

    /// How often the current position has occurred, this time included.
    pub fn occurrences(&self) -> usize {
        1 + self.earlier_keys().filter(|&key| key == self.key).count()
    }

    /// Whether the player to move may claim a draw (FIDE 9.2 and 9.3): the position has
    /// occurred three times or fifty moves passed without a capture or pawn move, either
    /// now or after the move the player announces. `moves` are the legal moves here.
    fn draw_claimable(&self, moves: &MoveList<Move>) -> bool {
        if self.occurrences() >= 3 || (self.halfmove >= 100 && !moves.is_empty()) {
            return true;
        }
        moves.iter().any(|&mv| {
            let mut after = self.clone();
            after.play(mv);
            let mut replies = MoveList::new();
            after.generate_legal(&mut replies);
            after.occurrences() >= 3 || (after.halfmove >= 100 && !replies.is_empty())
        })
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
    /// Q) and `to` as UCI names it ([`Move::named_to`]): castling, en passant and double
    /// pushes are known from the squares.
    const MOVE_INDEX_SIZE: usize = 5 * 4096;
    /// Six kinds on 64 squares, Black's turned over.
    const PIECE_TO_SIZE: usize = 6 * 64;

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

    /// The rules' verdict, which the protocol reports: checkmate and stalemate, then
    /// insufficient material, then any draw the player to move may claim, which ends the
    /// game as engine matches and online play end it. This is python-chess's
    /// `outcome(claim_draw=True)`. The automatic fivefold and seventy-five-move draws
    /// come after those claims, so they need no test of their own. A position repeated
    /// only twice goes on, whatever the search makes of it.
    fn result(&self) -> Option<Outcome> {
        let mut moves = MoveList::new();
        self.generate_legal(&mut moves);
        if moves.is_empty() {
            return Some(self.no_move_outcome());
        }
        (self.insufficient_material() || self.draw_claimable(&moves)).then_some(Outcome::Draw)
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

    #[inline]
    fn gives_check(&mut self, mv: Move) -> bool {
        Position::gives_check(self, mv)
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
        promotion * 4096 + mv.from().index() * 64 + mv.named_to().index()
    }

    #[inline]
    fn piece_to(&self, mv: Move) -> usize {
        let kind = self
            .piece_at(mv.from())
            .map_or(0, |(_, piece)| piece as usize - 1);
        let flip = if self.side() == Color::White { 0 } else { 56 };
        kind * 64 + (mv.to().index() ^ flip)
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
            .find(|&mv| self.move_name(mv) == text)
            .ok_or_else(|| anyhow::anyhow!("illegal move '{text}' in {}", self.fen()))
    }

    /// UCI's long algebraic notation; under `UCI_Chess960` castling is king takes rook
    /// (`e1h1`), as GUIs and python-chess expect of a Chess960 engine.
    fn move_name(&self, mv: Move) -> String {
        if self.chess960 && mv.is_castling() {
            format!("{}{}", mv.from(), mv.to())
        } else {
            mv.to_string()
        }
    }

    const RULE_OPTIONS: &'static [RuleOption<Self>] = &[RuleOption {
        spec: OptionSpec {
            name: CHESS960,
            kind: OptionKind::Check { default: false },
        },
        apply: |pos, value| {
            pos.chess960 = value == "true";
            Ok(())
        },
    }];
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(fen: &str) -> Position {
        Position::from_notation(fen).unwrap()
    }

    fn play(pos: &mut Position, moves: &str) {
        for text in moves.split_whitespace() {
            let mv = pos.parse_move(text).unwrap();
            pos.make_move(mv);
        }
    }

    #[test]
    fn checkmate_loses_and_stalemate_draws() {
        // Fool's mate.
        let mut p = Position::start_position();
        play(&mut p, "f2f3 e7e5 g2g4 d8h4");
        assert!(p.in_check());
        assert_eq!(p.outcome(), None);
        assert_eq!(p.result(), Some(Outcome::Win(1)));
        let stalemate = pos("k7/8/1Q6/8/8/8/8/7K b - - 0 1");
        assert!(!stalemate.in_check());
        assert_eq!(stalemate.result(), Some(Outcome::Draw));
    }

    #[test]
    fn fifty_move_rule_yields_to_mate() {
        let quiet = pos("4k3/8/8/8/8/8/8/R3K3 w - - 100 80");
        assert_eq!(quiet.outcome(), Some(Outcome::Draw));
        assert_eq!(pos("4k3/8/8/8/8/8/8/R3K3 w - - 99 80").outcome(), None);
        // The 100th quiet ply mates: the mate stands.
        let mut mate = pos("6k1/5ppp/8/8/8/8/8/R5K1 w - - 99 80");
        play(&mut mate, "a1a8");
        assert_eq!(mate.outcome(), None);
        assert_eq!(mate.result(), Some(Outcome::Win(0)));
        // In check at 100 but with a way out: drawn.
        let mut check = pos("6k1/6pp/8/8/8/8/8/R5K1 w - - 99 80");
        play(&mut check, "a1a8");
        assert_eq!(check.outcome(), Some(Outcome::Draw));
    }

    #[test]
    fn repetition_is_two_fold_since_the_last_irreversible_move() {
        let mut p = Position::start_position();
        play(&mut p, "g1f3 g8f6 f3g1");
        assert_eq!(p.outcome(), None);
        play(&mut p, "f6g8");
        assert_eq!(p.outcome(), Some(Outcome::Draw));
        // A pawn move in between resets the clock, so older keys no longer count.
        let mut q = Position::start_position();
        play(&mut q, "g1f3 g8f6 f3g1 f6g8 e2e4 e7e5 g1f3 g8f6 f3g1 f6g8");
        assert!(q.is_repetition());
        play(&mut q, "b1c3");
        assert!(!q.is_repetition());
    }

    #[test]
    fn insufficient_material() {
        for (fen, drawn) in [
            ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", true),
            ("4k3/8/8/8/8/8/8/4KN2 w - - 0 1", true),
            ("4k3/8/8/8/8/8/8/4KB2 w - - 0 1", true),
            ("4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1", true),
            ("4k1b1/8/8/8/8/8/8/2B1K3 w - - 0 1", false),
            ("4kn2/8/8/8/8/8/8/4KN2 w - - 0 1", false),
            ("4k3/8/8/8/8/8/8/3NKN2 w - - 0 1", false),
            ("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", false),
            ("4k3/8/8/8/8/8/8/4KR2 w - - 0 1", false),
        ] {
            assert_eq!(pos(fen).insufficient_material(), drawn, "{fen}");
        }
    }

    #[test]
    fn clocks_at_their_limit_do_not_overflow() {
        let mut p = pos("4k3/8/8/8/8/8/8/R3K3 b - - 65535 65535");
        let before = p.clone();
        let mv = p.parse_move("e8d7").unwrap();
        let undo = p.make_move(mv);
        assert_eq!(p.halfmove_clock(), 65535);
        p.unmake_move(mv, undo);
        assert_eq!(p, before);
    }

    #[test]
    fn null_move_passes_the_turn_unless_in_check() {
        let mut p = pos("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3");
        let before = p.clone();
        let undo = p.make_null_move().unwrap();
        assert_eq!(p.side_to_move(), 1);
        assert_eq!(p.en_passant(), None);
        assert_eq!(p.hash(), p.compute_key());
        p.unmake_null_move(undo);
        assert_eq!(p, before);
        let mut checked = pos("4k3/8/8/8/8/8/8/4R1K1 b - - 0 1");
        assert!(checked.make_null_move().is_none());
    }

    #[test]
    fn parse_move_tells_malformed_from_illegal() {
        let p = Position::start_position();
        assert_eq!(p.parse_move("e2e4").unwrap().to_string(), "e2e4");
        for (text, needle) in [
            ("", "malformed"),
            ("e2", "malformed"),
            ("e2e4q", "illegal"),
            ("e2e9", "malformed"),
            ("e2e4x", "malformed"),
            ("E2E4", "malformed"),
            ("e2é4", "malformed"),
            ("兵e2e4", "malformed"),
            ("e2e5", "illegal"),
            ("e1g1", "illegal"),
        ] {
            let err = p.parse_move(text).unwrap_err().to_string();
            assert!(
                err.contains(needle) && err.contains(text),
                "{text:?}: {err}"
            );
        }
        let castle = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        assert!(castle.parse_move("e1g1").unwrap().is_castling());
        assert!(castle.parse_move("e1c1").unwrap().is_castling());
        let promo = pos("7k/1P6/8/8/8/8/8/K7 w - - 0 1");
        for piece in ["q", "r", "b", "n"] {
            let mv = promo.parse_move(&format!("b7b8{piece}")).unwrap();
            assert_eq!(mv.promotion().map(Piece::letter), piece.chars().next());
        }
        assert!(promo.parse_move("b7b8").is_err());
    }

    #[test]
    fn castling_names_follow_the_option() {
        // Standard castling: king to its square, or king takes rook under UCI_Chess960.
        let mut standard = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        let castle = standard.parse_move("e1g1").unwrap();
        assert!(castle.is_castling());
        assert!(standard.parse_move("e1h1").is_err());
        standard.set_rule_option("uci_chess960", "true").unwrap();
        assert_eq!(standard.move_name(castle), "e1h1");
        assert_eq!(standard.parse_move("e1h1").unwrap(), castle);
        assert!(standard.parse_move("e1g1").is_err());
        assert!(standard.set_rule_option("UCI_Chess960", "maybe").is_err());
        assert!(standard.chess960);
        // Chess960 castling is king takes rook either way: `g1f1` is a king move and
        // `g1g1` no move at all.
        let mut chess960 = pos("1r4kr/8/8/8/8/8/8/1R4KR w HBhb - 0 1");
        for text in ["g1h1", "g1b1"] {
            assert!(chess960.parse_move(text).unwrap().is_castling(), "{text}");
        }
        assert!(!chess960.parse_move("g1f1").unwrap().is_castling());
        chess960.set_rule_option("UCI_Chess960", "true").unwrap();
        assert!(chess960.parse_move("g1h1").unwrap().is_castling());
    }

    #[test]
    fn move_indices_are_unique_and_in_range() {
        for fen in [
            "r3k2r/pP1pqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBP1P/R3K2R w KQkq - 0 1",
            // Chess960: castling that takes the king to c1 beside its step to c1, and
            // castling that leaves it on g1.
            "rk5r/8/8/8/8/8/8/RK5R w HAha - 0 1",
            "1r4kr/8/8/8/8/8/8/1R4KR w HBhb - 0 1",
        ] {
            let p = pos(fen);
            let mut moves = MoveList::new();
            p.legal_moves(&mut moves);
            assert!(moves.iter().any(|m| m.is_castling()), "{fen}");
            let mut seen: Vec<usize> = moves.iter().map(|&m| Position::move_index(m)).collect();
            assert!(seen.iter().all(|&i| i < Position::MOVE_INDEX_SIZE));
            seen.sort_unstable();
            seen.dedup();
            assert_eq!(seen.len(), moves.len(), "{fen}");
        }
    }

    #[test]
    fn piece_to_indexes_are_in_range_and_shared_by_both_sides() {
        let white = pos(START_FEN);
        let black = pos("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1");
        let index = |p: &Position, text: &str| p.piece_to(p.parse_move(text).unwrap());
        assert_eq!(index(&white, "g1f3"), index(&black, "g8f6"));
        assert_eq!(index(&white, "e2e4"), index(&black, "e7e5"));
        // A knight and a pawn to the same square differ.
        assert_ne!(index(&white, "g1h3"), index(&white, "h2h3"));
        let p = pos("r3k2r/pP1pqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBP1P/R3K2R w KQkq - 0 1");
        let mut moves = MoveList::new();
        p.legal_moves(&mut moves);
        assert!(
            moves
                .iter()
                .all(|&m| p.piece_to(m) < Position::PIECE_TO_SIZE)
        );
    }

    #[test]
    fn captures_are_the_noisy_legal_moves() {
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
            "8/8/1k6/2b5/2pP4/8/5K2/8 b - d3 0 1",
            "2K2r2/4P3/8/8/8/8/8/3k4 w - - 0 1",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        ] {
            let p = pos(fen);
            let mut all = MoveList::new();
            p.legal_moves(&mut all);
            let mut expected: Vec<Move> = all
                .iter()
                .copied()
                .filter(|&m| p.is_capture(m) && m.promotion().is_none_or(|x| x == Piece::Queen))
                .collect();
            let mut captures = MoveList::new();
            p.generate_captures(&mut captures);
            let mut found = captures.to_vec();
            expected.sort_by_key(|m| m.bits());
            found.sort_by_key(|m| m.bits());
            assert_eq!(found, expected, "{fen}");
            assert!(!found.is_empty(), "{fen}");
        }
    }

    #[test]
    fn display_shows_fen_key_and_checkers() {
        let mut p = Position::start_position();
        play(&mut p, "e2e4 f7f6 d2d4 g7g5 d1h5");
        let text = p.display();
        assert!(
            text.contains(" | r | n | b | q | k | b | n | r | 8"),
            "{text}"
        );
        assert!(text.contains(&format!("Fen: {}", p.to_notation())));
        assert!(text.contains(&format!("Key: {:016X}", p.hash())));
        assert!(text.contains("Checkers: h5"), "{text}");
    }
}

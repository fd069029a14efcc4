//! FourSquare (四子游戏): four pieces a side on the 16 points of a 4x4 grid.
//!
//! Pieces step to an adjacent empty point; a step captures when the moved piece forms
//! own–own–enemy with a neighbour along a rank or file (at most one capture, ranks first);
//! a side left with one piece, or with no step, loses. The rules, FSN and the UGI
//! conventions the code follows are in `docs/rules/foursquare.md`.
//!
//! - `board`: the position as two `u16` bitboards, move generation with the capture
//!   rule worked out at generation time, make/unmake, end of game and hash.
//! - `fsn`: the position notation.
//! - `eval`: the static evaluation.
//! - `tablebase`: the game solved, a value for every position.
//! - `oracle`: the engine's use of it (option `Tablebase`).
//!
//! ```
//! use qiyi::core::Game;
//! use qiyi::games::foursquare::Position;
//!
//! let mut pos = Position::from_notation("b2b/4/1wb1/w2w w").unwrap();
//! let mv = pos.parse_move("a1a2").unwrap();
//! assert!(pos.is_capture(mv));
//! pos.make_move(mv);
//! assert_eq!(pos.to_notation(), "b2b/4/ww2/3w b 1");
//! ```

mod board;
mod eval;
mod fsn;
mod oracle;
pub mod tablebase;

pub use board::{BLACK, Move, Position, WHITE};
pub use eval::Eval;
pub use fsn::FsnError;

use crate::core::{Game, MoveList, OptionKind, OptionSpec, Outcome, RuleOption};

/// The rule option that stands in for the seed's one-hour game limit in engine matches.
const MAX_PLIES: &str = "MaxPlies";

impl Game for Position {
    type Move = Move;
    /// Nothing: the move records its capture, which is all a step destroys.
    type Undo = ();

    /// `from * 16 + to`: unique per legal move since the capture follows from the position.
    const MOVE_INDEX_SIZE: usize = 256;

    fn start_position() -> Self {
        Position {
            pieces: [0xF000, 0x000F],
            side: BLACK,
            ply: 0,
            max_plies: 0,
        }
    }

    fn from_notation(text: &str) -> anyhow::Result<Self> {
        Ok(Position::from_fsn(text)?)
    }

    fn to_notation(&self) -> String {
        self.fsn()
    }

    fn display(&self) -> String {
        self.diagram()
    }

    fn side_to_move(&self) -> usize {
        self.side
    }

    fn hash(&self) -> u64 {
        self.key()
    }

    #[inline]
    fn legal_moves(&self, moves: &mut MoveList<Move>) {
        self.generate_moves(moves);
    }

    #[inline]
    fn make_move(&mut self, mv: Move) {
        self.play(mv);
    }

    #[inline]
    fn unmake_move(&mut self, mv: Move, _undo: ()) {
        self.take_back(mv);
    }

    fn outcome(&self) -> Option<Outcome> {
        self.rule_outcome()
    }

    /// The side to move loses: the project's reading of a blocked position.
    fn no_move_outcome(&self) -> Outcome {
        Outcome::Win(self.side ^ 1)
    }

    #[inline]
    fn is_capture(&self, mv: Move) -> bool {
        mv.is_capture()
    }

    #[inline]
    fn move_index(mv: Move) -> usize {
        usize::from(mv.from) * 16 + usize::from(mv.to)
    }

    /// Tells a malformed move from an illegal one, which the default cannot.
    fn parse_move(&self, text: &str) -> anyhow::Result<Move> {
        let bytes = text.as_bytes();
        let squares = match bytes {
            [a, b, c, d] => board::parse_square(&[*a, *b]).zip(board::parse_square(&[*c, *d])),
            _ => None,
        };
        let Some((from, to)) = squares else {
            anyhow::bail!("malformed move '{text}': expected two squares a1..d4, like a4a3");
        };
        let mut moves = MoveList::new();
        self.generate_moves(&mut moves);
        moves
            .iter()
            .copied()
            .find(|mv| mv.from == from && mv.to == to)
            .ok_or_else(|| anyhow::anyhow!("illegal move '{text}' in {}", self.fsn()))
    }

    fn move_name(&self, mv: Move) -> String {
        mv.to_string()
    }

    const RULE_OPTIONS: &'static [RuleOption<Self>] = &[RuleOption {
        spec: OptionSpec {
            name: MAX_PLIES,
            kind: OptionKind::Spin {
                default: 0,
                min: 0,
                max: 1_000_000,
            },
        },
        apply: |pos, value| {
            pos.max_plies = value.parse()?;
            Ok(())
        },
    }];
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(fsn: &str) -> Position {
        Position::from_notation(fsn).unwrap()
    }

    fn legal(pos: &Position) -> Vec<Move> {
        let mut moves = MoveList::new();
        pos.legal_moves(&mut moves);
        moves.to_vec()
    }

    #[test]
    fn start_position_matches_its_fsn() {
        let start = Position::start_position();
        assert_eq!(start, pos("bbbb/4/4/wwww b"));
        assert_eq!(start.to_notation(), "bbbb/4/4/wwww b");
        assert_eq!(start.side_to_move(), BLACK);
        let names: Vec<String> = legal(&start)
            .into_iter()
            .map(|mv| start.move_name(mv))
            .collect();
        assert_eq!(names, ["a4a3", "b4b3", "c4c3", "d4d3"]);
    }

    #[test]
    fn parse_move_refuses_malformed_and_illegal_moves() {
        let start = Position::start_position();
        assert_eq!(
            start.parse_move("b4b3").unwrap(),
            Move {
                from: 13,
                to: 9,
                capture: Move::NO_CAPTURE
            }
        );
        for (text, needle) in [
            ("", "malformed"),
            ("a4", "malformed"),
            ("a4a3x", "malformed"),
            ("e4e3", "malformed"),
            ("a0a1", "malformed"),
            ("A4A3", "malformed"),
            ("四子a3", "malformed"),
            ("a4a2", "illegal"),
            ("a1a2", "illegal"),
            ("a4b3", "illegal"),
        ] {
            let err = start.parse_move(text).unwrap_err().to_string();
            assert!(
                err.contains(needle) && err.contains(text),
                "{text:?}: {err}"
            );
        }
    }

    #[test]
    fn move_index_is_from_times_16_plus_to() {
        let mv = Move {
            from: 15,
            to: 11,
            capture: Move::NO_CAPTURE,
        };
        assert_eq!(Position::move_index(mv), 251);
        assert_eq!(Position::start_position().move_name(mv), "d4d3");
    }

    #[test]
    fn one_piece_left_loses() {
        let black_lost = pos("b3/4/4/ww2 w");
        assert_eq!(black_lost.outcome(), Some(Outcome::Win(WHITE)));
        assert!(legal(&black_lost).is_empty());
        let white_lost = pos("bb2/4/4/w3 w");
        assert_eq!(white_lost.outcome(), Some(Outcome::Win(BLACK)));
        assert!(legal(&white_lost).is_empty());
        assert_eq!(pos("b3/4/4/w3 b").outcome(), Some(Outcome::Draw));
        assert_eq!(pos("4/4/4/ww2 b").outcome(), Some(Outcome::Win(WHITE)));
    }

    #[test]
    fn capturing_the_second_to_last_piece_ends_the_game() {
        // White a1a2 forms w(a2)-w(b2)-b(c2) and takes c2, Black's second-to-last piece.
        let mut p = pos("3b/4/1wb1/w3 w");
        assert_eq!(p.outcome(), None);
        let mv = p.parse_move("a1a2").unwrap();
        p.make_move(mv);
        assert_eq!(p.outcome(), Some(Outcome::Win(WHITE)));
        assert_eq!(p.result(), Some(Outcome::Win(WHITE)));
        assert!(legal(&p).is_empty());
    }

    #[test]
    fn no_legal_move_loses() {
        // Black a4, b4 are walled in by White a3, b3, c4.
        let p = pos("bbw1/ww2/4/4 b");
        assert_eq!(p.outcome(), None);
        assert!(legal(&p).is_empty());
        assert_eq!(p.no_move_outcome(), Outcome::Win(WHITE));
        assert_eq!(p.result(), Some(Outcome::Win(WHITE)));
        // With White to move the same board is a game in progress.
        assert_eq!(pos("bbw1/ww2/4/4 w").result(), None);
    }

    #[test]
    fn max_plies_decides_by_piece_count() {
        let mut p = pos("bbb1/4/4/1ww1 b 9");
        p.set_rule_option("MaxPlies", "10").unwrap();
        assert_eq!(p.outcome(), None);
        let mv = legal(&p)[0];
        p.make_move(mv);
        assert_eq!(p.outcome(), Some(Outcome::Win(BLACK)));
        assert!(legal(&p).is_empty());
        p.unmake_move(mv, ());
        assert_eq!(p.outcome(), None);

        let mut white_ahead = pos("b2b/4/4/www1 w 30");
        white_ahead.set_max_plies(30);
        assert_eq!(white_ahead.outcome(), Some(Outcome::Win(WHITE)));
        let mut level = pos("b2b/4/4/w2w b 31");
        level.set_max_plies(30);
        assert_eq!(level.outcome(), Some(Outcome::Draw));
        level.set_max_plies(0);
        assert_eq!(level.outcome(), None);
    }

    #[test]
    fn max_plies_option() {
        let specs = Position::rule_options();
        assert_eq!(specs.len(), 1);
        assert_eq!(
            specs[0].to_string(),
            "option name MaxPlies type spin default 0 min 0 max 1000000"
        );
        let mut p = Position::start_position();
        assert!(p.set_rule_option("maxplies", "200").unwrap());
        assert_eq!(p.max_plies(), 200);
        assert!(!p.set_rule_option("Hash", "16").unwrap());
        for bad in ["-1", "1000001", "x", ""] {
            assert!(p.set_rule_option("MaxPlies", bad).is_err(), "{bad:?}");
        }
        assert_eq!(p.max_plies(), 200);
    }

    #[test]
    fn hash_sees_ply_only_under_a_ply_limit() {
        let a = pos("bbbb/4/4/wwww b");
        let b = pos("bbbb/4/4/wwww b 2");
        assert_eq!(a.hash(), b.hash());
        let (mut a, mut b) = (a, b);
        a.set_max_plies(100);
        b.set_max_plies(100);
        assert_ne!(a.hash(), b.hash());
        assert_ne!(pos("bbbb/4/4/wwww b").hash(), pos("bbbb/4/4/wwww w").hash());
    }

    /// Walks the whole tree a few plies deep: every make/unmake pair restores the position
    /// and its hash, every visited position survives an FSN round trip, and finished games
    /// offer no moves.
    fn walk(p: &mut Position, depth: u32, seen: &mut u64) {
        let mut reread = Position::from_notation(&p.to_notation()).unwrap();
        reread.set_max_plies(p.max_plies());
        assert_eq!(reread, *p);
        if p.outcome().is_some() {
            assert!(legal(p).is_empty(), "{}", p.to_notation());
        }
        *seen += 1;
        if depth == 0 {
            return;
        }
        for mv in legal(p) {
            let (before, hash) = (*p, p.hash());
            p.make_move(mv);
            assert_ne!(p.hash(), hash, "{}", p.to_notation());
            walk(p, depth - 1, seen);
            p.unmake_move(mv, ());
            assert_eq!(*p, before);
            assert_eq!(p.hash(), hash);
        }
    }

    #[test]
    fn make_unmake_restores_position_and_hash() {
        for fsn in [
            "bbbb/4/4/wwww b",
            "bbbb/4/4/wwww w",
            "b1b1/1w1b/w2w/1b2 w 12",
        ] {
            let mut seen = 0;
            walk(&mut pos(fsn), 5, &mut seen);
            assert!(seen > 100, "{fsn}: {seen}");
        }
        // Under a ply limit that runs out inside the walk, the ply is part of the hash.
        let mut limited = pos("b1b1/1w1b/w2w/1b2 w 12");
        limited.set_max_plies(15);
        let mut seen = 0;
        walk(&mut limited, 5, &mut seen);
        assert!(seen > 100, "{seen}");
    }

    #[test]
    fn display_shows_board_side_and_fsn() {
        let text = pos("b2b/4/1wb1/w2w w 3").display();
        let expected = "\
4  b---.---.---b
   |   |   |   |
3  .---.---.---.
   |   |   |   |
2  .---w---b---.
   |   |   |   |
1  w---.---.---w
   a   b   c   d

White to move, ply 3; Black 3 pieces, White 3
FSN: b2b/4/1wb1/w2w w 3
";
        assert_eq!(text, expected);
    }
}

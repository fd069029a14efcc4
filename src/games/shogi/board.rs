//! The position: a padded mailbox with piece lists, both hands, the incremental Zobrist
//! key and the history sennichite needs; make/unmake of moves and the attack queries built
//! on the difference tables.

use super::tables::{
    ATTACK, COL, DENSE, DIRECTION, KINDS, KING, KNIGHT, ON_BOARD, PAWN, SLIDERS, STEPS,
    attack_index, bit, diff, oriented, shift,
};
use super::types::{Color, Move, Square};
use super::zobrist;

/// Board code of an empty square.
pub(super) const EMPTY: u8 = 0;
/// Board code of the padding around the board: it carries both owner bits, so a test for
/// "not one of mine" rejects it like an own piece and a slider stops on it.
pub(super) const WALL: u8 = 0x30;

/// The board's piece code: the kind in the low four bits, `0x10` for sente or `0x20` for
/// gote above them. `code >> 4` is then 1 or 2 for pieces, 0 for empty and 3 for walls.
#[inline(always)]
pub(super) const fn piece(color: usize, kind: u8) -> u8 {
    (0x10 << color) | kind
}

/// The owner bit of a colour's codes.
#[inline(always)]
pub(super) const fn owner(color: usize) -> u8 {
    0x10 << color
}

/// Whether `code` is a piece of `color`.
#[inline(always)]
pub(super) const fn is_color(code: u8, color: usize) -> bool {
    (code >> 4) as usize == color + 1
}

/// The kind a captured piece goes back to the hand as.
#[inline(always)]
pub(super) const fn base_kind(kind: u8) -> u8 {
    if kind > KING { kind - 8 } else { kind }
}

/// The Zobrist key of a piece code on a square.
#[inline(always)]
fn piece_key(code: u8, sq: u8) -> u64 {
    let index = usize::from(code >> 5) << 4 | usize::from(code & 15);
    zobrist::PIECE_SQUARE[index][usize::from(DENSE[usize::from(sq)])]
}

/// Everything `make_move` destroys, for `unmake_move`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Undo {
    key: u64,
    checked: bool,
    /// Piece code of the captured piece, or `EMPTY`.
    captured: u8,
    /// Where the captured piece stood in its list, so that unmaking restores list order.
    captured_slot: u8,
    /// Where a promoting piece stood in its list.
    from_slot: u8,
}

/// One earlier position, as sennichite compares it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Entry {
    pub(super) key: u64,
    /// Whether the side to move was in check there (the move before it gave check).
    pub(super) checked: bool,
    /// Whether a null move was made from there: repetitions never reach across one.
    pub(super) null: bool,
}

/// Room reserved in the history so that games and searches rarely reallocate.
const HISTORY_CAPACITY: usize = 512;

/// Most pieces of one kind and colour a position can hold: 18 pawns (or tokins).
pub(super) const LIST_CAPACITY: usize = 18;

/// A shogi position.
///
/// Piece lists keep, per colour and kind, the squares of the pieces, so that generation,
/// attack queries and evaluation visit pieces rather than squares; `slot` maps a square
/// back to its list index so a capture removes a piece in O(1). Unmaking restores the
/// lists in their original order, so a make/unmake pair leaves the position equal field by
/// field.
#[derive(Clone, Debug)]
pub struct Position {
    pub(super) board: [u8; 256],
    pub(super) slot: [u8; 256],
    pub(super) lists: [[[u8; LIST_CAPACITY]; KINDS]; 2],
    pub(super) counts: [[u8; KINDS]; 2],
    /// `hands[colour][kind]` for kinds 1..=7 (pawn .. gold); index 0 unused.
    pub(super) hands: [[u8; 8]; 2],
    pub(super) side: usize,
    /// SFEN's move number: 1 for the first move of a game, +1 every ply.
    pub(super) move_number: u32,
    pub(super) key: u64,
    /// Whether the side to move is in check, kept so the search can ask for free.
    pub(super) checked: bool,
    /// The positions before each move played, oldest first.
    pub(super) history: Vec<Entry>,
    /// How many positions of the line so far (history and the current one) have keys in
    /// each slot of [`SEEN_SLOTS`]: sennichite needs four occurrences, and a slot below
    /// four rules them out without walking back through a long game's history.
    pub(super) seen: [u16; SEEN_SLOTS],
    /// The tournament rules in force (options, not part of the position's notation).
    pub(super) rules: Rules,
}

/// Which entering-king declarations win, under the names YaneuraOu gives them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EnteringKingRule {
    /// No declaration: an entered king must still mate or be mated.
    None,
    /// 31 points or more, for either side.
    Csa24,
    /// CSA's rule: 28 points for sente, 27 for gote.
    Csa27,
}

/// Rules that tournaments set differently, as USI options.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    pub entering_king: EnteringKingRule,
    /// The game is drawn once this many plies have been played (the position's move
    /// number is past it); 0 for no limit.
    pub max_moves_to_draw: u32,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            entering_king: EnteringKingRule::Csa27,
            max_moves_to_draw: 0,
        }
    }
}

/// Slots of [`Position::seen`], a power of two indexed by the key's low bits.
pub(super) const SEEN_SLOTS: usize = 1 << 12;

/// The slot of [`Position::seen`] a key counts in.
#[inline(always)]
pub(super) fn seen_slot(key: u64) -> usize {
    key as usize & (SEEN_SLOTS - 1)
}

/// Positions are equal when everything the rules and notation see is equal; the history
/// (how the position was reached) is not compared.
impl PartialEq for Position {
    fn eq(&self, other: &Position) -> bool {
        self.board == other.board
            && self.hands == other.hands
            && self.side == other.side
            && self.move_number == other.move_number
            && self.key == other.key
            && self.checked == other.checked
    }
}

impl Eq for Position {}

impl Position {
    /// An empty board, sente to move; filled by the SFEN reader.
    pub(super) fn empty() -> Position {
        let mut board = [WALL; 256];
        for (sq, cell) in board.iter_mut().enumerate() {
            if ON_BOARD[sq] {
                *cell = EMPTY;
            }
        }
        Position {
            board,
            slot: [0; 256],
            lists: [[[0; LIST_CAPACITY]; KINDS]; 2],
            counts: [[0; KINDS]; 2],
            hands: [[0; 8]; 2],
            side: 0,
            move_number: 1,
            key: 0,
            checked: false,
            history: Vec::with_capacity(HISTORY_CAPACITY),
            seen: [0; SEEN_SLOTS],
            rules: Rules::default(),
        }
    }

    // ----- Queries for evaluation and search -----

    /// The side to move.
    #[inline(always)]
    pub fn side(&self) -> Color {
        Color::from_index(self.side)
    }

    /// What stands on a square: colour and kind (1..=14, see `tables`).
    #[inline(always)]
    pub fn piece_at(&self, sq: Square) -> Option<(Color, u8)> {
        let code = self.board[usize::from(sq.0)];
        (code != EMPTY && code != WALL)
            .then(|| (Color::from_index(usize::from(code >> 5)), code & 15))
    }

    /// The squares of one colour's pieces of one kind, in no particular order.
    #[inline(always)]
    pub fn pieces(&self, color: Color, kind: u8) -> &[u8] {
        self.list(color.index(), kind)
    }

    #[inline(always)]
    pub(super) fn list(&self, color: usize, kind: u8) -> &[u8] {
        let k = usize::from(kind);
        &self.lists[color][k][..usize::from(self.counts[color][k])]
    }

    /// How many pieces of a kind (1..=7) a colour holds in hand.
    #[inline(always)]
    pub fn in_hand(&self, color: Color, kind: u8) -> u8 {
        self.hands[color.index()][usize::from(kind)]
    }

    /// Where a side's king stands; `None` in a tsume problem without that king.
    #[inline(always)]
    pub fn king_square(&self, color: Color) -> Option<Square> {
        self.king(color.index()).map(Square)
    }

    /// The files (by column bit) holding an unpromoted pawn of `color`: where it may not
    /// drop another (nifu), and which its rooks and lances find closed.
    #[inline(always)]
    pub(super) fn pawn_files(&self, color: usize) -> u16 {
        self.list(color, PAWN)
            .iter()
            .fold(0, |files, &sq| files | 1 << COL[usize::from(sq)])
    }

    #[inline(always)]
    pub(super) fn king(&self, color: usize) -> Option<u8> {
        (self.counts[color][usize::from(KING)] > 0).then(|| self.lists[color][usize::from(KING)][0])
    }

    /// The Zobrist key of board, hands and side to move, maintained incrementally.
    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// The move number SFEN prints.
    pub fn move_number(&self) -> u32 {
        self.move_number
    }

    /// Whether any piece of `by` attacks `sq`.
    pub fn is_attacked(&self, sq: Square, by: Color) -> bool {
        self.attacked(sq.0, by.index(), 0, 0)
    }

    /// The key computed from scratch, to check the incremental one.
    pub(super) fn compute_key(&self) -> u64 {
        let mut key = if self.side == 1 {
            zobrist::GOTE_TO_MOVE
        } else {
            0
        };
        for sq in 0..=255u8 {
            let code = self.board[usize::from(sq)];
            if code != EMPTY && code != WALL {
                key ^= piece_key(code, sq);
            }
        }
        for color in 0..2 {
            for kind in 1..8 {
                for n in 1..=usize::from(self.hands[color][kind]) {
                    key ^= zobrist::HAND[color][kind][n];
                }
            }
        }
        key
    }

    // ----- Piece placement -----

    /// Puts a piece on an empty square, at the end of its list.
    #[inline(always)]
    pub(super) fn put(&mut self, sq: u8, code: u8) {
        let (c, k) = (usize::from(code >> 5), usize::from(code & 15));
        let n = self.counts[c][k];
        self.lists[c][k][usize::from(n)] = sq;
        self.counts[c][k] = n + 1;
        self.slot[usize::from(sq)] = n;
        self.board[usize::from(sq)] = code;
    }

    /// Removes the piece on `sq` by moving the last piece of its list into its slot;
    /// returns the slot it had.
    #[inline(always)]
    fn take(&mut self, sq: u8) -> u8 {
        let code = self.board[usize::from(sq)];
        let (c, k) = (usize::from(code >> 5), usize::from(code & 15));
        let slot = self.slot[usize::from(sq)];
        let last = self.counts[c][k] - 1;
        let moved = self.lists[c][k][usize::from(last)];
        self.lists[c][k][usize::from(slot)] = moved;
        self.slot[usize::from(moved)] = slot;
        self.counts[c][k] = last;
        self.board[usize::from(sq)] = EMPTY;
        slot
    }

    /// Undoes `take`: the piece returns to `slot`, the piece that filled it to the end.
    #[inline(always)]
    fn restore(&mut self, sq: u8, code: u8, slot: u8) {
        let (c, k) = (usize::from(code >> 5), usize::from(code & 15));
        let n = self.counts[c][k];
        if slot < n {
            let displaced = self.lists[c][k][usize::from(slot)];
            self.lists[c][k][usize::from(n)] = displaced;
            self.slot[usize::from(displaced)] = n;
        }
        self.lists[c][k][usize::from(slot)] = sq;
        self.slot[usize::from(sq)] = slot;
        self.counts[c][k] = n + 1;
        self.board[usize::from(sq)] = code;
    }

    /// Moves a piece to an empty square, keeping its list slot.
    #[inline(always)]
    fn relocate(&mut self, from: u8, to: u8) {
        let code = self.board[usize::from(from)];
        let slot = self.slot[usize::from(from)];
        self.lists[usize::from(code >> 5)][usize::from(code & 15)][usize::from(slot)] = to;
        self.slot[usize::from(to)] = slot;
        self.board[usize::from(to)] = code;
        self.board[usize::from(from)] = EMPTY;
    }

    // ----- Make / unmake -----

    /// Plays a legal move.
    #[inline]
    pub fn play(&mut self, mv: Move) -> Undo {
        let us = self.side;
        let to = mv.to().0;
        let mut undo = self.save_state(false);
        let mut key = self.key ^ zobrist::GOTE_TO_MOVE;
        if mv.is_drop() {
            let kind = mv.drop_kind();
            let hand = &mut self.hands[us][usize::from(kind)];
            key ^= zobrist::HAND[us][usize::from(kind)][usize::from(*hand)];
            *hand -= 1;
            let code = piece(us, kind);
            self.put(to, code);
            key ^= piece_key(code, to);
        } else {
            let from = mv.from().0;
            let code = self.board[usize::from(from)];
            let victim = self.board[usize::from(to)];
            if victim != EMPTY {
                undo.captured = victim;
                undo.captured_slot = self.take(to);
                key ^= piece_key(victim, to);
                let kind = usize::from(base_kind(victim & 15));
                let hand = &mut self.hands[us][kind];
                *hand += 1;
                key ^= zobrist::HAND[us][kind][usize::from(*hand)];
            }
            key ^= piece_key(code, from);
            if mv.is_promotion() {
                undo.from_slot = self.take(from);
                let promoted = code + 8;
                self.put(to, promoted);
                key ^= piece_key(promoted, to);
            } else {
                self.relocate(from, to);
                key ^= piece_key(code, to);
            }
        }
        self.side = us ^ 1;
        self.move_number = self.move_number.wrapping_add(1);
        self.key = key;
        self.seen[seen_slot(key)] += 1;
        self.checked = self.compute_checked();
        undo
    }

    /// Takes back `mv`, which must be the last move played.
    #[inline]
    pub fn take_back(&mut self, mv: Move, undo: Undo) {
        let us = self.side ^ 1;
        self.side = us;
        self.move_number = self.move_number.wrapping_sub(1);
        let to = mv.to().0;
        if mv.is_drop() {
            self.take(to);
            self.hands[us][usize::from(mv.drop_kind())] += 1;
        } else {
            let from = mv.from().0;
            if mv.is_promotion() {
                let code = self.board[usize::from(to)] - 8;
                self.take(to);
                self.restore(from, code, undo.from_slot);
            } else {
                self.relocate(to, from);
            }
            if undo.captured != EMPTY {
                self.restore(to, undo.captured, undo.captured_slot);
                self.hands[us][usize::from(base_kind(undo.captured & 15))] -= 1;
            }
        }
        self.seen[seen_slot(self.key)] -= 1;
        self.key = undo.key;
        self.checked = undo.checked;
        self.history.pop();
    }

    /// Records the position about to be left in the history (`null` for a pass) and
    /// returns what undoing the move restores; a capture or promotion adds its own part.
    #[inline(always)]
    fn save_state(&mut self, null: bool) -> Undo {
        self.history.push(Entry {
            key: self.key,
            checked: self.checked,
            null,
        });
        Undo {
            key: self.key,
            checked: self.checked,
            captured: EMPTY,
            captured_slot: 0,
            from_slot: 0,
        }
    }

    /// Passes the turn (for null-move pruning); marked in the history so that repetition
    /// never reaches across it.
    pub fn play_null(&mut self) -> Undo {
        let undo = self.save_state(true);
        self.key ^= zobrist::GOTE_TO_MOVE;
        self.seen[seen_slot(self.key)] += 1;
        self.side ^= 1;
        self.checked = false;
        undo
    }

    /// Takes back `play_null`.
    pub fn take_back_null(&mut self, undo: Undo) {
        self.side ^= 1;
        self.seen[seen_slot(self.key)] -= 1;
        self.key = undo.key;
        self.checked = undo.checked;
        self.history.pop();
    }

    // ----- Attacks -----

    /// Whether the side to move's king is attacked.
    #[inline]
    pub(super) fn compute_checked(&self) -> bool {
        self.king(self.side)
            .is_some_and(|k| self.attacked(k, self.side ^ 1, 0, 0))
    }

    /// Whether side `by` attacks `sq`, on the board as it would be with `vacated` empty
    /// and `filled` occupied (0, a wall, for neither): a king stepping away must not hide
    /// behind itself, and a dropped pawn not yet on the board still blocks lines.
    #[inline]
    pub(super) fn attacked(&self, sq: u8, by: usize, vacated: u8, filled: u8) -> bool {
        self.find_attacker(sq, by, vacated, filled, |_, _| true)
    }

    /// Shows `visit` each piece of `by` that attacks `sq` (on the board as
    /// [`Position::attacked`] sees it), once, as its square and kind, until `visit` answers
    /// true; returns whether it did. The neighbours come first, judged by the attack table
    /// at distance one, then knights, then sliders from further away.
    #[inline]
    pub(super) fn find_attacker(
        &self,
        sq: u8,
        by: usize,
        vacated: u8,
        filled: u8,
        mut visit: impl FnMut(u8, u8) -> bool,
    ) -> bool {
        for &step in STEPS[usize::from(KING)] {
            let p = shift(sq, step);
            let code = self.board[usize::from(p)];
            if is_color(code, by)
                && ATTACK[attack_index(by, p, sq)] & bit(code & 15) != 0
                && visit(p, code & 15)
            {
                return true;
            }
        }
        let knight = piece(by, KNIGHT);
        for &step in STEPS[usize::from(KNIGHT)] {
            let p = shift(sq, -oriented(by, step));
            if self.board[usize::from(p)] == knight && visit(p, KNIGHT) {
                return true;
            }
        }
        for kind in SLIDERS {
            for &s in self.list(by, kind) {
                // A slider next to `sq` was shown with the neighbours.
                if ATTACK[attack_index(by, s, sq)] & bit(kind) != 0
                    && self.clear_between(s, sq, vacated, filled)
                    && shift(s, DIRECTION[diff(s, sq)]) != sq
                    && visit(s, kind)
                {
                    return true;
                }
            }
        }
        false
    }

    /// Whether the squares strictly between two squares on one line are empty, with
    /// `vacated` counted empty and `filled` counted occupied.
    #[inline(always)]
    pub(super) fn clear_between(&self, from: u8, to: u8, vacated: u8, filled: u8) -> bool {
        let step = DIRECTION[diff(from, to)];
        let mut sq = shift(from, step);
        while sq != to {
            if (self.board[usize::from(sq)] != EMPTY && sq != vacated) || sq == filled {
                return false;
            }
            sq = shift(sq, step);
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{Game, MoveList};

    /// Deterministic choices for random walks (splitmix64).
    pub(crate) struct Rng(pub u64);

    impl Rng {
        pub fn below(&mut self, n: usize) -> usize {
            self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            ((z ^ (z >> 31)) % n as u64) as usize
        }
    }

    /// Everything, piece lists and their order included.
    fn snapshot(pos: &Position) -> String {
        let lists: Vec<&[u8]> = (0..2)
            .flat_map(|c| (1..KINDS as u8).map(move |k| (c, k)))
            .map(|(c, k)| pos.list(c, k))
            .collect();
        format!(
            "{lists:?} {:?} {:?} {:?}",
            pos.history,
            pos.hands,
            (0..=255u8)
                .filter(|&sq| ON_BOARD[usize::from(sq)] && pos.board[usize::from(sq)] != EMPTY)
                .map(|sq| pos.slot[usize::from(sq)])
                .collect::<Vec<_>>()
        )
    }

    /// The lists agree with the board.
    fn check_lists(pos: &Position) {
        let mut seen = 0;
        for c in 0..2 {
            for k in 1..KINDS {
                for i in 0..usize::from(pos.counts[c][k]) {
                    let sq = pos.lists[c][k][i];
                    assert_eq!(pos.board[usize::from(sq)], piece(c, k as u8));
                    assert_eq!(usize::from(pos.slot[usize::from(sq)]), i);
                    seen += 1;
                }
            }
        }
        let occupied = (0..256)
            .filter(|&sq| ON_BOARD[sq] && pos.board[sq] != EMPTY)
            .count();
        assert_eq!(seen, occupied);
    }

    const WALK_STARTS: [&str; 4] = [
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
        "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1",
        "ln1g3nl/1r1sg1k2/p1pppp1pp/6s2/1p5P1/2P6/PPSPPPP1P/2G3SR1/LN2KG1NL b Bbp 1",
    ];

    /// The occurrence counts agree with the history and the current key.
    fn check_seen(pos: &Position) {
        let mut expected = [0u16; SEEN_SLOTS];
        for entry in &pos.history {
            expected[seen_slot(entry.key)] += 1;
        }
        expected[seen_slot(pos.key)] += 1;
        assert!(
            pos.seen == expected,
            "occurrence counts after {}",
            pos.sfen()
        );
    }

    #[test]
    fn make_unmake_restores_everything_and_keys_stay_exact() {
        let mut rng = Rng(11);
        for sfen in WALK_STARTS {
            for _ in 0..6 {
                let mut pos = Position::from_notation(sfen).unwrap();
                let mut played = Vec::new();
                for _ in 0..80 {
                    let mut moves = MoveList::new();
                    pos.legal_moves(&mut moves);
                    if moves.is_empty() {
                        break;
                    }
                    let before = (pos.clone(), snapshot(&pos));
                    for &mv in moves.iter() {
                        let undo = pos.make_move(mv);
                        assert_eq!(pos.key, pos.compute_key(), "{mv} from {}", before.0.sfen());
                        assert_eq!(pos.checked, pos.compute_checked());
                        check_lists(&pos);
                        pos.unmake_move(mv, undo);
                        assert_eq!(pos, before.0, "{mv}");
                        assert_eq!(snapshot(&pos), before.1, "{mv}");
                    }
                    if rng.below(8) == 0
                        && let Some(undo) = pos.make_null_move()
                    {
                        assert_eq!(pos.key, pos.compute_key());
                        pos.unmake_null_move(undo);
                        assert_eq!(pos, before.0);
                    }
                    let mv = moves[rng.below(moves.len())];
                    played.push((mv, pos.make_move(mv), before.0));
                    check_seen(&pos);
                }
                while let Some((mv, undo, before)) = played.pop() {
                    pos.unmake_move(mv, undo);
                    assert_eq!(pos, before);
                    assert_eq!(pos.seen, before.seen);
                }
                assert!(pos.history.is_empty());
            }
        }
    }

    #[test]
    fn move_indices_are_unique_and_in_range() {
        for sfen in WALK_STARTS {
            let pos = Position::from_notation(sfen).unwrap();
            let mut moves = MoveList::new();
            pos.legal_moves(&mut moves);
            let mut seen: Vec<usize> = moves.iter().map(|&m| m.index()).collect();
            assert!(seen.iter().all(|&i| i < Position::MOVE_INDEX_SIZE));
            seen.sort_unstable();
            seen.dedup();
            assert_eq!(seen.len(), moves.len(), "{sfen}");
        }
    }

    #[test]
    fn piece_to_indexes_are_in_range_and_shared_by_both_sides() {
        let sente = Position::from_notation(crate::games::shogi::START_SFEN).unwrap();
        let gote = Position::from_notation(
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        )
        .unwrap();
        let index = |p: &Position, text: &str| p.piece_to(p.parse_move(text).unwrap());
        assert_eq!(index(&sente, "7g7f"), index(&gote, "3c3d"));
        assert_eq!(index(&sente, "2h7h"), index(&gote, "8b3b"));
        // A silver and a gold to the same square differ, and so do a move and a drop.
        assert_ne!(index(&sente, "3i3h"), index(&sente, "4i3h"));
        let hands = Position::from_notation("4k4/9/9/9/9/5S3/9/9/4K4 b S 1").unwrap();
        assert_ne!(index(&hands, "S*5e"), index(&hands, "4f5e"));
        for sfen in WALK_STARTS {
            let pos = Position::from_notation(sfen).unwrap();
            let mut moves = MoveList::new();
            pos.legal_moves(&mut moves);
            assert!(
                moves
                    .iter()
                    .all(|&m| pos.piece_to(m) < Position::PIECE_TO_SIZE)
            );
        }
    }

    #[test]
    fn attack_queries() {
        let pos = Position::from_notation("4k4/4p4/9/9/4L4/9/2N6/9/4K4 b - 1").unwrap();
        let sq = |s: &str| Square::parse(s).unwrap();
        assert!(pos.is_attacked(sq("5b"), Color::Sente), "lance up the file");
        assert!(!pos.is_attacked(sq("5a"), Color::Sente), "the pawn blocks");
        assert!(
            !pos.is_attacked(sq("5f"), Color::Sente),
            "lances look forward only"
        );
        assert!(pos.is_attacked(sq("6e"), Color::Sente), "knight from 7g");
        assert!(pos.is_attacked(sq("8e"), Color::Sente), "knight from 7g");
        assert!(!pos.is_attacked(sq("7e"), Color::Sente));
        assert!(pos.is_attacked(sq("4a"), Color::Gote), "king");
        assert!(pos.is_attacked(sq("5c"), Color::Gote), "pawn");
        assert!(!pos.is_attacked(sq("5a"), Color::Gote));
        assert_eq!(
            pos.piece_at(sq("5e")),
            Some((Color::Sente, super::super::tables::LANCE))
        );
        assert_eq!(pos.king_square(Color::Gote), Some(sq("5a")));
    }
}

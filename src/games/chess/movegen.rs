//! Fully legal move generation.
//!
//! Once per node the checkers and pinned pieces are found from the king's square with the
//! attack and direction tables: an enemy slider that the attack table lines up with the
//! king is walked along the direction table's step, and no piece between means check, one
//! piece of ours means a pin. Then every move is generated legal by construction:
//!
//! - in double check only the king moves;
//! - in single check the other pieces may only land on the checker or between it and
//!   the king (`targets`);
//! - a pinned piece moves only along the line through its king (the direction table
//!   again gives that line);
//! - the king never steps onto an attacked square, nor onto the square behind it on a
//!   checking slider's line (which the king itself hides from the attack query);
//! - castling needs empty squares between king and rook and no attack on the king's
//!   start, passage or arrival;
//! - en passant, which removes two pieces from one rank, is the one move checked by
//!   replaying it on a copy of the board and asking whether the king is then attacked.

use super::board::{EMPTY, NO_SQUARE, Position, slides_to};
use super::tables::{
    self, ATTACK, BISHOP_STEPS, DIRECTION, KING_STEPS, KNIGHT_STEPS, ROOK_STEPS, diff, on_board,
};
use super::types::{CASTLE, DOUBLE_PUSH, EN_PASSANT, Move, PLAIN, PROMOTION, Piece};
use crate::core::MoveList;

/// The [`ATTACK`] bits of the piece `code` (colour and kind), its pawn bit by colour.
#[inline(always)]
fn attack_bits(code: u8) -> u8 {
    match code & 7 {
        1 if code >> 3 == 0 => tables::WHITE_PAWN,
        1 => tables::BLACK_PAWN,
        2 => tables::KNIGHT,
        3 => tables::BISHOP,
        4 => tables::ROOK,
        5 => tables::QUEEN,
        6 => tables::KING,
        _ => 0,
    }
}

/// The checks and pins of the side to move, found once per node.
pub(super) struct Threats {
    /// Number of pieces giving check (0, 1 or 2).
    pub(super) count: u32,
    /// The squares (see [`bit`]) a non-king move must land on: the checker and the
    /// squares between a checking slider and the king; all squares when not in check.
    targets: u64,
    /// Our pieces pinned against our king (see [`bit`]).
    pinned: u64,
    /// Squares behind the king on the lines of checking sliders, where the king would
    /// still be in check; `NO_SQUARE` when unused.
    behind: [u8; 2],
}

/// The bit of an on-board 0x88 square in a 64-bit set, by its dense index (a1 = 0,
/// h8 = 63). A 128-bit set indexed by the 0x88 square itself would need no conversion,
/// but variable 128-bit shifts compile to branches: the 64-bit set saves a quarter of
/// perft's instructions (callgrind, perft 5 from the start).
#[inline(always)]
fn bit(sq: u8) -> u64 {
    1u64 << ((sq + (sq & 7)) >> 1)
}

impl Position {
    /// The checkers and pins of the side to move.
    #[inline]
    pub(super) fn threats(&self) -> Threats {
        let us = self.side.index();
        let them = us ^ 1;
        let ksq = self.lists[us][Piece::King as usize][0].0;
        let mut threats = Threats {
            count: 0,
            targets: 0,
            pinned: 0,
            behind: [NO_SQUARE; 2],
        };
        for (kind, mask) in [
            (Piece::Bishop, tables::BISHOP),
            (Piece::Rook, tables::ROOK),
            (Piece::Queen, tables::QUEEN),
        ] {
            let k = kind as usize;
            for &s in &self.lists[them][k][..usize::from(self.counts[them][k])] {
                let d = diff(s.0, ksq);
                if ATTACK[d] & mask == 0 {
                    continue;
                }
                let step = DIRECTION[d] as u8;
                let mut sq = s.0.wrapping_add(step);
                let mut blocker = NO_SQUARE;
                let mut ray = bit(s.0);
                while sq != ksq {
                    if self.board[usize::from(sq)] != EMPTY {
                        if blocker != NO_SQUARE {
                            blocker = ksq;
                            break;
                        }
                        blocker = sq;
                    }
                    ray |= bit(sq);
                    sq = sq.wrapping_add(step);
                }
                if blocker == NO_SQUARE {
                    threats.targets |= ray;
                    threats.behind[(threats.count & 1) as usize] = ksq.wrapping_add(step);
                    threats.count += 1;
                } else if blocker != ksq && usize::from(self.board[usize::from(blocker)] >> 3) == us
                {
                    threats.pinned |= bit(blocker);
                }
            }
        }
        let k = Piece::Knight as usize;
        for &n in &self.lists[them][k][..usize::from(self.counts[them][k])] {
            if ATTACK[diff(n.0, ksq)] & tables::KNIGHT != 0 {
                threats.targets |= bit(n.0);
                threats.count += 1;
            }
        }
        let pawn = (them as u8) << 3 | Piece::Pawn as u8;
        let ahead = if us == 0 {
            ksq.wrapping_add(16)
        } else {
            ksq.wrapping_sub(16)
        };
        for p in [ahead.wrapping_sub(1), ahead.wrapping_add(1)] {
            if on_board(p) && self.board[usize::from(p)] == pawn {
                threats.targets |= bit(p);
                threats.count += 1;
            }
        }
        if threats.count == 0 {
            threats.targets = !0;
        }
        threats
    }

    /// Whether the side to move is in check.
    #[inline]
    pub(super) fn checked(&self) -> bool {
        let us = self.side.index();
        self.attacked(self.lists[us][Piece::King as usize][0].0, us ^ 1)
    }

    /// Whether `mv` checks the enemy king, read from the tables without playing it: the
    /// piece attacks the king from its new square, or leaving its old one opens a line
    /// from a slider of ours. Castling, en passant and promotions move or change more
    /// than one piece, and are rare: they are played and taken back.
    pub(super) fn gives_check(&mut self, mv: Move) -> bool {
        if !matches!(mv.kind(), PLAIN | DOUBLE_PUSH) {
            let undo = self.play(mv);
            let check = self.checked();
            self.take_back(mv, undo);
            return check;
        }
        let (from, to) = (mv.from().0, mv.to().0);
        let us = self.side.index();
        let king = self.lists[us ^ 1][Piece::King as usize][0].0;
        // A king never checks; its move may uncover one, below.
        let mask = attack_bits(self.board[usize::from(from)]) & !tables::KING;
        let d = diff(to, king);
        if ATTACK[d] & mask != 0 {
            if mask & tables::QUEEN == 0 {
                return true;
            }
            // The square the piece leaves may lie between (moving straight away).
            let step = DIRECTION[d] as u8;
            let mut sq = to.wrapping_add(step);
            while sq != king && (sq == from || self.board[usize::from(sq)] == EMPTY) {
                sq = sq.wrapping_add(step);
            }
            if sq == king {
                return true;
            }
        }
        let line = DIRECTION[diff(king, from)];
        if line == 0 || DIRECTION[diff(king, to)] == line {
            return false;
        }
        let step = line as u8;
        let mut sq = king.wrapping_add(step);
        while sq != from {
            if self.board[usize::from(sq)] != EMPTY {
                return false;
            }
            sq = sq.wrapping_add(step);
        }
        sq = sq.wrapping_add(step);
        while on_board(sq) && self.board[usize::from(sq)] == EMPTY {
            sq = sq.wrapping_add(step);
        }
        if !on_board(sq) {
            return false;
        }
        let slider = self.board[usize::from(sq)];
        usize::from(slider >> 3) == us
            && ATTACK[diff(sq, king)] & attack_bits(slider) & tables::QUEEN != 0
    }

    /// The squares of the pieces giving check, for the diagram.
    pub(super) fn checker_squares(&self) -> Vec<super::Square> {
        let us = self.side.index();
        let ksq = self.lists[us][Piece::King as usize][0].0;
        let mut found = Vec::new();
        for sq in 0..128u8 {
            let code = self.board[usize::from(sq)];
            if !on_board(sq) || code == EMPTY || usize::from(code >> 3) == us {
                continue;
            }
            let mask = attack_bits(code);
            let hits = if code & 7 >= 3 && code & 7 <= 5 {
                slides_to(&self.board, sq, ksq, mask)
            } else {
                ATTACK[diff(sq, ksq)] & mask != 0
            };
            if hits {
                found.push(super::Square(sq));
            }
        }
        found
    }

    /// Every legal move.
    #[inline]
    pub fn generate_legal(&self, moves: &mut MoveList<Move>) {
        self.generate::<true>(moves);
    }

    /// The legal captures (en passant included) and queen promotions, for quiescence.
    /// Capturing promotions come as queen promotions only; castling never.
    #[inline]
    pub fn generate_captures(&self, moves: &mut MoveList<Move>) {
        self.generate::<false>(moves);
    }

    /// Generates the legal moves; `QUIET == false` keeps only captures and queen
    /// promotions.
    #[inline]
    fn generate<const QUIET: bool>(&self, moves: &mut MoveList<Move>) {
        let threats = self.threats();
        let us = self.side.index();
        let them = us ^ 1;
        let ksq = self.lists[us][Piece::King as usize][0].0;

        // King moves.
        for step in KING_STEPS {
            let to = ksq.wrapping_add(step as u8);
            if !on_board(to) {
                continue;
            }
            let code = self.board[usize::from(to)];
            if code == EMPTY {
                if !QUIET {
                    continue;
                }
            } else if usize::from(code >> 3) == us {
                continue;
            }
            if to == threats.behind[0] || to == threats.behind[1] || self.attacked(to, them) {
                continue;
            }
            moves.push(Move::new(ksq, to, PLAIN));
        }
        if threats.count >= 2 {
            return;
        }
        if QUIET && threats.count == 0 {
            self.castling_moves(ksq, moves);
        }

        let targets = threats.targets;
        let pinned = threats.pinned;
        self.pawn_moves::<QUIET>(ksq, targets, pinned, moves);

        let k = Piece::Knight as usize;
        for &n in &self.lists[us][k][..usize::from(self.counts[us][k])] {
            let from = n.0;
            if pinned & bit(from) != 0 {
                continue;
            }
            for step in KNIGHT_STEPS {
                let to = from.wrapping_add(step as u8);
                if !on_board(to) || targets & bit(to) == 0 {
                    continue;
                }
                let code = self.board[usize::from(to)];
                if (code == EMPTY && QUIET) || (code != EMPTY && usize::from(code >> 3) == them) {
                    moves.push(Move::new(from, to, PLAIN));
                }
            }
        }

        for (kind, steps) in [(Piece::Bishop, &BISHOP_STEPS), (Piece::Rook, &ROOK_STEPS)] {
            let k = kind as usize;
            for &s in &self.lists[us][k][..usize::from(self.counts[us][k])] {
                self.slider_moves::<QUIET>(s.0, steps, ksq, targets, pinned, moves);
            }
        }
        let k = Piece::Queen as usize;
        for &s in &self.lists[us][k][..usize::from(self.counts[us][k])] {
            self.slider_moves::<QUIET>(s.0, &BISHOP_STEPS, ksq, targets, pinned, moves);
            self.slider_moves::<QUIET>(s.0, &ROOK_STEPS, ksq, targets, pinned, moves);
        }
    }

    /// Moves of a slider on `from` along `steps`; a pinned slider keeps to its pin line.
    #[inline(always)]
    fn slider_moves<const QUIET: bool>(
        &self,
        from: u8,
        steps: &[i8; 4],
        ksq: u8,
        targets: u64,
        pinned: u64,
        moves: &mut MoveList<Move>,
    ) {
        let them = (self.side.index() ^ 1) as u8;
        let pin_line = if pinned & bit(from) != 0 {
            DIRECTION[diff(ksq, from)]
        } else {
            0
        };
        for &step in steps {
            if pin_line != 0 && step != pin_line && step != -pin_line {
                continue;
            }
            let mut to = from.wrapping_add(step as u8);
            while on_board(to) {
                let code = self.board[usize::from(to)];
                if code == EMPTY {
                    if QUIET && targets & bit(to) != 0 {
                        moves.push(Move::new(from, to, PLAIN));
                    }
                } else {
                    if code >> 3 == them && targets & bit(to) != 0 {
                        moves.push(Move::new(from, to, PLAIN));
                    }
                    break;
                }
                to = to.wrapping_add(step as u8);
            }
        }
    }

    #[inline(always)]
    fn pawn_moves<const QUIET: bool>(
        &self,
        ksq: u8,
        targets: u64,
        pinned: u64,
        moves: &mut MoveList<Move>,
    ) {
        let us = self.side.index();
        let them = (us ^ 1) as u8;
        let (up, start_rank, last_rank): (i8, u8, u8) =
            if us == 0 { (16, 1, 7) } else { (-16, 6, 0) };
        let k = Piece::Pawn as usize;
        for &p in &self.lists[us][k][..usize::from(self.counts[us][k])] {
            let from = p.0;
            let pin_line = if pinned & bit(from) != 0 {
                DIRECTION[diff(ksq, from)]
            } else {
                0
            };
            let to = from.wrapping_add(up as u8);
            let promotes = to >> 4 == last_rank;
            if self.board[usize::from(to)] == EMPTY
                && (pin_line == 0 || pin_line == up || pin_line == -up)
            {
                if promotes {
                    if targets & bit(to) != 0 {
                        push_promotions::<QUIET>(from, to, moves);
                    }
                } else if QUIET {
                    if targets & bit(to) != 0 {
                        moves.push(Move::new(from, to, PLAIN));
                    }
                    let two = to.wrapping_add(up as u8);
                    if from >> 4 == start_rank
                        && self.board[usize::from(two)] == EMPTY
                        && targets & bit(two) != 0
                    {
                        moves.push(Move::new(from, two, DOUBLE_PUSH));
                    }
                }
            }
            for side_step in [-1i8, 1] {
                let step = up + side_step;
                if pin_line != 0 && step != pin_line && step != -pin_line {
                    continue;
                }
                let to = from.wrapping_add(step as u8);
                if !on_board(to) || targets & bit(to) == 0 {
                    continue;
                }
                let code = self.board[usize::from(to)];
                if code != EMPTY && code >> 3 == them {
                    if promotes {
                        push_promotions::<QUIET>(from, to, moves);
                    } else {
                        moves.push(Move::new(from, to, PLAIN));
                    }
                }
            }
        }
        if self.ep != NO_SQUARE {
            self.en_passant_moves(ksq, up, moves);
        }
    }

    /// En-passant captures onto `self.ep`, each checked by replaying it on a copy of the
    /// board: it removes two pieces from one rank (the horizontal pin) and may remove a
    /// checking pawn without landing on its square.
    #[cold]
    fn en_passant_moves(&self, ksq: u8, up: i8, moves: &mut MoveList<Move>) {
        let us = self.side.index();
        let to = self.ep;
        let victim = to.wrapping_sub(up as u8);
        let pawn = (us as u8) << 3 | Piece::Pawn as u8;
        for from in [victim.wrapping_sub(1), victim.wrapping_add(1)] {
            if !on_board(from) || self.board[usize::from(from)] != pawn {
                continue;
            }
            let mut board = self.board;
            board[usize::from(from)] = EMPTY;
            board[usize::from(victim)] = EMPTY;
            board[usize::from(to)] = pawn;
            if !self.attacked_on(&board, ksq, us ^ 1) {
                moves.push(Move::new(from, to, EN_PASSANT));
            }
        }
    }

    /// Castling moves, generated only when not in check, by the rules of Chess960, which
    /// include standard chess: every square the king or rook crosses or lands on is
    /// empty but for the two of them, and no square the king crosses or lands on is
    /// attacked. A rook that is not in its corner may stand between the king's path and
    /// an enemy slider on the first rank, so then it is lifted from the board before the
    /// attacks are asked (the king need not be: a slider it hides its path from would
    /// be giving check).
    fn castling_moves(&self, ksq: u8, moves: &mut MoveList<Move>) {
        let us = self.side.index();
        for right in 2 * us..2 * us + 2 {
            if self.castling & 1 << right == 0 {
                continue;
            }
            let path = &self.castling_paths[right];
            if path.empty[..usize::from(path.empties & 7)]
                .iter()
                .any(|&sq| self.board[usize::from(sq)] != EMPTY)
            {
                continue;
            }
            let rook = path.rook;
            let king_path = &path.king_path[..usize::from(path.king_steps & 7)];
            let safe = if path.lift_rook {
                let mut board = self.board;
                board[usize::from(rook)] = EMPTY;
                king_path
                    .iter()
                    .all(|&sq| !self.attacked_on(&board, sq, us ^ 1))
            } else {
                king_path.iter().all(|&sq| !self.attacked(sq, us ^ 1))
            };
            if safe {
                moves.push(Move::new(ksq, rook, CASTLE));
            }
        }
    }

    /// Whether a legal move takes material or promotes to a queen: the moves
    /// `generate_captures` yields, plus capturing underpromotions.
    #[inline]
    pub fn is_noisy(&self, mv: Move) -> bool {
        let kind = mv.kind();
        kind == EN_PASSANT
            || kind == PROMOTION + 3
            || (kind != CASTLE && self.board[usize::from(mv.to().0)] != EMPTY)
    }
}

/// Promotions from `from` to `to`: all four pieces, or only the queen for quiescence.
#[inline(always)]
fn push_promotions<const QUIET: bool>(from: u8, to: u8, moves: &mut MoveList<Move>) {
    moves.push(Move::new(from, to, PROMOTION + 3));
    if QUIET {
        for n in 0..3 {
            moves.push(Move::new(from, to, PROMOTION + n));
        }
    }
}

//! Fully legal move generation.
//!
//! Once per node the checkers and pinned pieces are found from the king's square: the
//! neighbours and the two knight squares are judged by the attack table, and each enemy
//! slider that the attack table lines up with the king is walked along the direction
//! table's step; no piece between means check, one piece of ours means a pin. Then every
//! move is generated legal by construction:
//!
//! - in double check only the king moves;
//! - in single check (evasions) the other pieces may only land on the checker or between
//!   it and the king, and drops only between;
//! - a pinned piece moves only along the line through its king;
//! - the king never steps onto an attacked square, judged with the king lifted off the
//!   board so it cannot hide behind itself on a checking slider's line;
//! - a move to the last rank (pawn, lance) or the last two (knight) must promote, and a
//!   drop may not go where the piece could never move again;
//! - a pawn drop needs a file without an unpromoted pawn of its side (nifu), and must not
//!   give mate (uchifuzume): the one square where a pawn drop checks is tested by asking
//!   whether the king has a flight square or some unpinned piece can take the pawn.

use super::board::{EMPTY, Position, is_color, owner, piece};
use super::tables::{
    ATTACK, DIRECTION, GOLD, KING, KNIGHT, LANCE, N, PAWN, SLIDER_MASK, SLIDERS, SLIDES, SQUARES,
    STEPS, attack_index, bit, diff, oriented, relative_row, shift,
};
use super::types::{Move, Square};
use crate::core::MoveList;

/// A set of mailbox squares, a bit per index.
#[derive(Clone, Copy, Default)]
struct SquareSet([u64; 4]);

impl SquareSet {
    #[inline(always)]
    fn insert(&mut self, sq: u8) {
        self.0[usize::from(sq >> 6)] |= 1 << (sq & 63);
    }

    #[inline(always)]
    fn contains(&self, sq: u8) -> bool {
        self.0[usize::from(sq >> 6)] >> (sq & 63) & 1 != 0
    }
}

/// The checks and pins of the side to move, found once per node.
struct Threats {
    /// Number of pieces giving check.
    count: u32,
    /// In check: the checker and the squares between a checking slider and the king.
    targets: SquareSet,
    /// Our pieces pinned against our king.
    pinned: SquareSet,
}

impl Position {
    /// The checkers and pins of the side to move.
    #[inline]
    fn threats(&self) -> Threats {
        let us = self.side;
        let them = us ^ 1;
        let mut threats = Threats {
            count: 0,
            targets: SquareSet::default(),
            pinned: SquareSet::default(),
        };
        let Some(ksq) = self.king(us) else {
            return threats;
        };
        for &step in STEPS[usize::from(KING)] {
            let p = shift(ksq, step);
            let code = self.board[usize::from(p)];
            if is_color(code, them) && ATTACK[attack_index(them, p, ksq)] & bit(code & 15) != 0 {
                threats.targets.insert(p);
                threats.count += 1;
            }
        }
        let knight = piece(them, KNIGHT);
        for &step in STEPS[usize::from(KNIGHT)] {
            let p = shift(ksq, -oriented(them, step));
            if self.board[usize::from(p)] == knight {
                threats.targets.insert(p);
                threats.count += 1;
            }
        }
        for kind in SLIDERS {
            for &s in self.list(them, kind) {
                if ATTACK[attack_index(them, s, ksq)] & bit(kind) == 0 {
                    continue;
                }
                let step = DIRECTION[diff(s, ksq)];
                let mut sq = shift(s, step);
                if sq == ksq {
                    // A neighbour: counted with the contact checks above.
                    continue;
                }
                let mut blocker = None;
                let mut ray = SquareSet::default();
                ray.insert(s);
                let mut blocked_twice = false;
                while sq != ksq {
                    if self.board[usize::from(sq)] != EMPTY {
                        if blocker.is_some() {
                            blocked_twice = true;
                            break;
                        }
                        blocker = Some(sq);
                    }
                    ray.insert(sq);
                    sq = shift(sq, step);
                }
                match blocker {
                    None => {
                        for (t, r) in threats.targets.0.iter_mut().zip(ray.0) {
                            *t |= r;
                        }
                        threats.count += 1;
                    }
                    Some(b) if !blocked_twice && is_color(self.board[usize::from(b)], us) => {
                        threats.pinned.insert(b);
                    }
                    Some(_) => {}
                }
            }
        }
        threats
    }

    /// The squares of the pieces giving check, for the diagram.
    pub(super) fn checker_squares(&self) -> Vec<Square> {
        let Some(ksq) = self.king(self.side) else {
            return Vec::new();
        };
        let them = self.side ^ 1;
        let mut found: Vec<Square> = SQUARES
            .iter()
            .copied()
            .filter(|&sq| {
                let code = self.board[usize::from(sq)];
                let kind = code & 15;
                is_color(code, them)
                    && ATTACK[attack_index(them, sq, ksq)] & bit(kind) != 0
                    && (SLIDER_MASK & bit(kind) == 0 || self.clear_between(sq, ksq, 0, 0))
            })
            .map(Square)
            .collect();
        found.sort_by_key(|sq| (std::cmp::Reverse(sq.file()), sq.rank()));
        found
    }

    /// Every legal move.
    #[inline]
    pub fn generate_legal(&self, moves: &mut MoveList<Move>) {
        let threats = self.threats();
        match threats.count {
            0 => self.generate::<false, true>(&threats, moves),
            1 => self.generate::<true, true>(&threats, moves),
            _ => self.king_moves::<true>(moves),
        }
    }

    /// The legal captures and promotions, for quiescence; every evasion when in check.
    #[inline]
    pub fn generate_noisy(&self, moves: &mut MoveList<Move>) {
        let threats = self.threats();
        match threats.count {
            0 => self.generate::<false, false>(&threats, moves),
            1 => self.generate::<true, true>(&threats, moves),
            _ => self.king_moves::<true>(moves),
        }
    }

    /// The king's moves: onto any square not held by its own side and not attacked
    /// (`QUIET == false`: captures only).
    #[inline(always)]
    fn king_moves<const QUIET: bool>(&self, moves: &mut MoveList<Move>) {
        let us = self.side;
        let Some(ksq) = self.king(us) else {
            return;
        };
        for &step in STEPS[usize::from(KING)] {
            let to = shift(ksq, step);
            let code = self.board[usize::from(to)];
            if code & owner(us) == 0
                && (QUIET || code != EMPTY)
                && !self.attacked(to, us ^ 1, ksq, 0)
            {
                moves.push(Move::new(ksq, to, false));
            }
        }
    }

    /// Generates the legal moves; `EVASION` restricts non-king moves and drops to the
    /// squares that answer a single check, `QUIET == false` keeps only captures and
    /// promotions (no drops).
    #[inline(always)]
    fn generate<const EVASION: bool, const QUIET: bool>(
        &self,
        threats: &Threats,
        moves: &mut MoveList<Move>,
    ) {
        let us = self.side;
        self.king_moves::<QUIET>(moves);
        let ksq = self.king(us).unwrap_or(0);
        let mine = owner(us);
        for kind in 1..=14u8 {
            if kind == KING {
                continue;
            }
            let steps = STEPS[usize::from(kind)];
            let slides = SLIDES[usize::from(kind)];
            for &from in self.list(us, kind) {
                let pin = if threats.pinned.contains(from) {
                    DIRECTION[diff(ksq, from)]
                } else {
                    0
                };
                for &step in steps {
                    let step = oriented(us, step);
                    if pin != 0 && step != pin && step != -pin {
                        continue;
                    }
                    let to = shift(from, step);
                    let code = self.board[usize::from(to)];
                    if code & mine != 0 || (EVASION && !threats.targets.contains(to)) {
                        continue;
                    }
                    push_with_promotions::<QUIET>(us, kind, from, to, code != EMPTY, moves);
                }
                for &dir in slides {
                    let dir = oriented(us, dir);
                    if pin != 0 && dir != pin && dir != -pin {
                        continue;
                    }
                    let mut to = shift(from, dir);
                    loop {
                        let code = self.board[usize::from(to)];
                        if code & mine != 0 {
                            break;
                        }
                        if !EVASION || threats.targets.contains(to) {
                            push_with_promotions::<QUIET>(us, kind, from, to, code != EMPTY, moves);
                        }
                        if code != EMPTY {
                            break;
                        }
                        to = shift(to, dir);
                    }
                }
            }
        }
        if QUIET {
            self.drops::<EVASION>(threats, moves);
        }
    }

    /// Drops from the hand onto empty squares (in check: between checker and king).
    #[inline(always)]
    fn drops<const EVASION: bool>(&self, threats: &Threats, moves: &mut MoveList<Move>) {
        let us = self.side;
        let hand = &self.hands[us];
        // Silver, bishop, rook and gold go anywhere; pawn, lance and knight need room ahead.
        let mut free = [0u8; 4];
        let mut n_free = 0;
        for kind in 4..=GOLD {
            if hand[usize::from(kind)] > 0 {
                free[n_free] = kind;
                n_free += 1;
            }
        }
        let lance = hand[usize::from(LANCE)] > 0;
        let knight = hand[usize::from(KNIGHT)] > 0;
        let pawn = hand[usize::from(PAWN)] > 0;
        if n_free == 0 && !lance && !knight && !pawn {
            return;
        }
        let pawn_files = if pawn { self.pawn_files(us) } else { 0 };
        // The one square where a pawn drop gives check: in front of the enemy king.
        let mate_test = self.king(us ^ 1).map_or(0, |k| shift(k, -oriented(us, N)));
        for &to in &SQUARES {
            if self.board[usize::from(to)] != EMPTY || (EVASION && !threats.targets.contains(to)) {
                continue;
            }
            for &kind in &free[..n_free] {
                moves.push(Move::drop(kind, to));
            }
            let row = relative_row(us, to);
            if row == 0 {
                continue;
            }
            if lance {
                moves.push(Move::drop(LANCE, to));
            }
            if knight && row >= 2 {
                moves.push(Move::drop(KNIGHT, to));
            }
            if pawn
                && pawn_files & 1 << super::tables::COL[usize::from(to)] == 0
                && !(to == mate_test && self.pawn_drop_mates(to))
            {
                moves.push(Move::drop(PAWN, to));
            }
        }
    }

    /// Whether a pawn dropped on `pawn`, in front of the enemy king, would mate it: no
    /// unpinned piece can take the pawn and the king has nowhere to go (uchifuzume).
    #[cold]
    fn pawn_drop_mates(&self, pawn: u8) -> bool {
        let us = self.side;
        let them = us ^ 1;
        let Some(eksq) = self.king(them) else {
            return false;
        };
        // A capture by a piece other than the king (the king's capture is a flight).
        for &step in STEPS[usize::from(KING)] {
            let p = shift(pawn, step);
            let code = self.board[usize::from(p)];
            if p != eksq
                && is_color(code, them)
                && ATTACK[attack_index(them, p, pawn)] & bit(code & 15) != 0
                && !self.pinned_after_drop(p, them, pawn)
            {
                return false;
            }
        }
        let knight = piece(them, KNIGHT);
        for &step in STEPS[usize::from(KNIGHT)] {
            let p = shift(pawn, -oriented(them, step));
            if self.board[usize::from(p)] == knight && !self.pinned_after_drop(p, them, pawn) {
                return false;
            }
        }
        for kind in SLIDERS {
            for &s in self.list(them, kind) {
                if ATTACK[attack_index(them, s, pawn)] & bit(kind) != 0
                    && self.clear_between(s, pawn, 0, 0)
                    && !self.pinned_after_drop(s, them, pawn)
                {
                    return false;
                }
            }
        }
        // A flight square, the pawn's own included, judged with the pawn on the board.
        for &step in STEPS[usize::from(KING)] {
            let to = shift(eksq, step);
            if self.board[usize::from(to)] & owner(them) == 0 && !self.attacked(to, us, eksq, pawn)
            {
                return false;
            }
        }
        true
    }

    /// Whether `color`'s piece on `p` is pinned against its king once a pawn stands on
    /// `filled`, so that taking that pawn (which lies off the pin line, or the line would
    /// already be blocked) would expose the king.
    fn pinned_after_drop(&self, p: u8, color: usize, filled: u8) -> bool {
        let Some(k) = self.king(color) else {
            return false;
        };
        let step = DIRECTION[diff(k, p)];
        if step == 0 || !self.clear_between(k, p, 0, filled) {
            return false;
        }
        let mut sq = shift(p, step);
        while self.board[usize::from(sq)] == EMPTY && sq != filled {
            sq = shift(sq, step);
        }
        let code = self.board[usize::from(sq)];
        let enemy = color ^ 1;
        sq != filled
            && is_color(code, enemy)
            && SLIDER_MASK & bit(code & 15) != 0
            && ATTACK[attack_index(enemy, sq, k)] & bit(code & 15) != 0
    }

    /// Whether a legal move takes a piece or promotes: the moves quiescence looks at.
    #[inline]
    pub fn is_noisy(&self, mv: Move) -> bool {
        !mv.is_drop() && (mv.is_promotion() || self.board[usize::from(mv.to().0)] != EMPTY)
    }
}

/// A board move of a `kind` piece, with and without promotion as the rules allow: a move
/// into, out of or inside the far three ranks may promote; a pawn or lance reaching the
/// last rank, or a knight the last two, must. `QUIET == false` keeps only promotions and
/// captures.
#[inline(always)]
pub(super) fn push_with_promotions<const QUIET: bool>(
    us: usize,
    kind: u8,
    from: u8,
    to: u8,
    capture: bool,
    moves: &mut MoveList<Move>,
) {
    let plain = QUIET || capture;
    if kind >= GOLD {
        if plain {
            moves.push(Move::new(from, to, false));
        }
        return;
    }
    let row = relative_row(us, to);
    if row <= 2 || relative_row(us, from) <= 2 {
        moves.push(Move::new(from, to, true));
        let forced = match kind {
            PAWN | LANCE => row == 0,
            KNIGHT => row <= 1,
            _ => false,
        };
        if forced {
            return;
        }
    }
    if plain {
        moves.push(Move::new(from, to, false));
    }
}

//! The dedicated mate search behind USI's `go mate` (tsume): the attacker may only play
//! checks (OR nodes: one move that mates suffices), the defender every evasion (AND nodes:
//! every one must still lose). Iterative deepening over odd depths finds the shortest
//! mate; a table remembers the positions shown not to mate (or to survive) within a depth,
//! and those shown so outright, with no branch cut short by the depth limit, which is how
//! an iteration that fails without any cut proves that no mate exists at all.
//!
//! The attacker's checks are tried in order of how few replies they leave, the usual
//! tsume heuristic. Checks are recognised without making the move (`gives_check`).
//!
//! Apart from that search, `mate_in_one` serves the main search at every node: shogi's
//! mates are mostly a piece dropped or moved next to the king, and a quiescence search
//! of captures alone stands pat through them.

use super::board::{EMPTY, Position, WALL, is_color, owner};
use super::movegen::push_with_promotions;
use super::tables::{
    self, ATTACK, BISHOP, DIRECTION, GOLD, KING, KNIGHT, LANCE, ROOK, SILVER, SLIDER_MASK, STEPS,
    attack_index, bit, diff, oriented, shift,
};
use super::types::Move;
use crate::core::{MateAnswer, MoveList};

/// The longest mate searched for, in plies.
const MAX_PLIES: u32 = 99;
/// Entries of the failure table (a power of two).
const TABLE_SIZE: usize = 1 << 18;
/// The depth stored for a failure that holds at any depth.
const FOREVER: u32 = u32::MAX;

impl Position {
    /// Whether a legal move gives check: directly from its target square, or by uncovering
    /// one of the mover's sliders.
    pub(super) fn gives_check(&self, mv: Move) -> bool {
        let us = self.side;
        let Some(king) = self.king(us ^ 1) else {
            return false;
        };
        let to = mv.to().0;
        let (kind, from) = if mv.is_drop() {
            (mv.drop_kind(), 0)
        } else {
            let from = mv.from().0;
            let kind = self.board[usize::from(from)] & 15;
            (kind + if mv.is_promotion() { 8 } else { 0 }, from)
        };
        if ATTACK[attack_index(us, to, king)] & bit(kind) != 0
            && (SLIDER_MASK & bit(kind) == 0 || self.clear_between(to, king, from, 0))
        {
            return true;
        }
        if mv.is_drop() {
            return false;
        }
        let line = DIRECTION[diff(king, from)];
        if line == 0 || DIRECTION[diff(king, to)] == line || !self.clear_between(king, from, 0, 0) {
            return false;
        }
        let mut sq = shift(from, line);
        while self.board[usize::from(sq)] == EMPTY {
            sq = shift(sq, line);
        }
        let code = self.board[usize::from(sq)];
        is_color(code, us)
            && SLIDER_MASK & bit(code & 15) != 0
            && ATTACK[attack_index(us, sq, king)] & bit(code & 15) != 0
    }

    /// A move that mates at once, if the side to move (not in check) has one that lands
    /// next to the enemy king or a knight's jump from it: drops (a pawn drop may not
    /// mate) and board moves, promoting or not. Sound but not complete: checks from a
    /// distance and discovered checks are not tried, as they mate far less often and
    /// this runs at every node. A piece next to the king that nothing of ours guards is
    /// taken, so only guarded contact squares are played out and tested.
    pub(super) fn mate_in_one(&mut self) -> Option<Move> {
        if self.checked {
            return None;
        }
        let us = self.side;
        let them = us ^ 1;
        let king = self.king(them)?;
        let hand = self.hands[us];
        let has_drops = DROPPED_CHECKERS.iter().any(|&k| hand[usize::from(k)] > 0);
        for (i, &step) in MATE_SQUARES.iter().enumerate() {
            let contact = i < STEPS[usize::from(KING)].len();
            let to = shift(king, oriented(them, step));
            let code = self.board[usize::from(to)];
            if code == WALL || code & owner(us) != 0 {
                continue;
            }
            let checks_from_here = ATTACK[attack_index(us, to, king)];
            // Our pieces on `to`'s lines: the movers, and the guards a drop there needs (a
            // board move is judged once played, as its mover may have been the guard).
            let mut movers = MoveList::new();
            self.find_attacker(to, us, 0, 0, |from, kind| {
                movers.push((from, kind));
                false
            });
            if contact && movers.is_empty() {
                continue;
            }
            if code == EMPTY && has_drops {
                for kind in DROPPED_CHECKERS {
                    if hand[usize::from(kind)] > 0
                        && checks_from_here & bit(kind) != 0
                        && self.mates(Move::drop(kind, to), contact.then_some(to))
                    {
                        return Some(Move::drop(kind, to));
                    }
                }
            }
            for &(from, kind) in movers.iter() {
                if kind == KING {
                    continue;
                }
                // The move with and without promotion, as the rules allow.
                let mut choices = MoveList::new();
                push_with_promotions::<true>(us, kind, from, to, code != EMPTY, &mut choices);
                for &mv in choices.iter() {
                    let result = kind + if mv.is_promotion() { 8 } else { 0 };
                    if checks_from_here & bit(result) != 0 && self.mates(mv, contact.then_some(to))
                    {
                        return Some(mv);
                    }
                }
            }
        }
        None
    }

    /// Whether a check (a drop, or a move by a piece that attacks its target) mates: it
    /// is legal (a pinned mover is not), the checker on `contact` is guarded, the
    /// defender has no legal reply, and the position is not the fourth occurrence
    /// (sennichite is judged before the mate).
    fn mates(&mut self, mv: Move, contact: Option<u8>) -> bool {
        let us = self.side;
        let undo = self.play(mv);
        let king = self.king(us ^ 1);
        let mut mates = !self
            .king(us)
            .is_some_and(|k| self.attacked(k, us ^ 1, 0, 0))
            && contact.is_none_or(|to| self.attacked(to, us, king.unwrap_or(0), 0));
        if mates {
            let mut replies = MoveList::new();
            self.generate_legal(&mut replies);
            mates = replies.is_empty() && self.sennichite().is_none();
        }
        self.take_back(mv, undo);
        mates
    }

    /// The mate search for the side to move (see the module docs).
    pub(super) fn mate_search(&self, stop: &dyn Fn() -> bool) -> MateAnswer<Move> {
        let mut solver = Solver {
            pos: self.clone(),
            stop,
            nodes: 0,
            stopped: false,
            cut: false,
            table: vec![(0, 0); TABLE_SIZE],
        };
        let mut depth = 1;
        while depth <= MAX_PLIES {
            solver.cut = false;
            if let Some(line) = solver.attack(depth) {
                return MateAnswer::Mate(line);
            }
            if solver.stopped {
                return MateAnswer::Timeout;
            }
            if !solver.cut {
                return MateAnswer::NoMate;
            }
            depth += 2;
        }
        MateAnswer::Timeout
    }
}

/// Where a checker stands next to the king, from the king's owner's view (sente's steps
/// turned for gote by the caller): the eight neighbours first, then the two squares a
/// knight checks from.
const MATE_SQUARES: [i8; 10] = [
    tables::N,
    tables::NW,
    tables::NE,
    tables::W,
    tables::E,
    tables::SW,
    tables::S,
    tables::SE,
    2 * tables::N + tables::W,
    2 * tables::N + tables::E,
];

/// The kinds whose drop may mate, strongest first (a pawn drop may not).
const DROPPED_CHECKERS: [u8; 6] = [ROOK, BISHOP, GOLD, SILVER, KNIGHT, LANCE];

struct Solver<'a> {
    pos: Position,
    stop: &'a dyn Fn() -> bool,
    nodes: u64,
    stopped: bool,
    /// Set when some line was cut short by the depth limit.
    cut: bool,
    /// Failures by key: the depth within which the position neither mates (attacker to
    /// move) nor is mated (defender to move), or [`FOREVER`].
    table: Vec<(u64, u32)>,
}

impl Solver<'_> {
    /// Counts a node; polls `stop` every 4096 nodes.
    fn poll(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes & 4095 == 0 && (self.stop)() {
            self.stopped = true;
        }
        self.stopped
    }

    /// Whether the table already shows this position failing within `depth`.
    fn known_failure(&mut self, depth: u32) -> bool {
        let key = self.pos.key();
        let (stored, within) = self.table[key as usize & (TABLE_SIZE - 1)];
        if stored != key || within < depth {
            return false;
        }
        // A failure that relied on the depth limit is a cut for this iteration too.
        self.cut |= within != FOREVER;
        true
    }

    fn store_failure(&mut self, depth: u32, outright: bool) {
        let key = self.pos.key();
        self.table[key as usize & (TABLE_SIZE - 1)] = (key, if outright { FOREVER } else { depth });
    }

    /// The attacker to move with `depth` plies left: a mating line, or `None`.
    fn attack(&mut self, depth: u32) -> Option<Vec<Move>> {
        if self.poll() || self.known_failure(depth) {
            return None;
        }
        let outer_cut = std::mem::replace(&mut self.cut, false);
        let found = self.attack_moves(depth);
        if found.is_none() && !self.stopped {
            self.store_failure(depth, !self.cut);
        }
        self.cut |= outer_cut;
        found
    }

    fn attack_moves(&mut self, depth: u32) -> Option<Vec<Move>> {
        let mut moves = MoveList::new();
        self.pos.generate_legal(&mut moves);
        let mut checks: Vec<(usize, Move)> = Vec::new();
        for &mv in moves.iter() {
            if !self.pos.gives_check(mv) {
                continue;
            }
            let undo = self.pos.play(mv);
            let mut replies = MoveList::new();
            self.pos.generate_legal(&mut replies);
            self.pos.take_back(mv, undo);
            if replies.is_empty() {
                return Some(vec![mv]);
            }
            checks.push((replies.len(), mv));
        }
        if depth < 3 {
            self.cut |= !checks.is_empty();
            return None;
        }
        checks.sort_by_key(|&(replies, _)| replies);
        for (_, mv) in checks {
            let undo = self.pos.play(mv);
            let line = self.defend(depth - 1);
            self.pos.take_back(mv, undo);
            if let Some(mut line) = line {
                line.insert(0, mv);
                return Some(line);
            }
            if self.stopped {
                break;
            }
        }
        None
    }

    /// The defender, in check, with `depth` plies left: the longest line by which every
    /// evasion still loses, or `None` when one escapes.
    fn defend(&mut self, depth: u32) -> Option<Vec<Move>> {
        if self.poll() || self.known_failure(depth) {
            return None;
        }
        let outer_cut = std::mem::replace(&mut self.cut, false);
        let mut moves = MoveList::new();
        self.pos.generate_legal(&mut moves);
        let mut longest = Vec::new();
        let mut escaped = false;
        for &mv in moves.iter() {
            let undo = self.pos.play(mv);
            let line = self.attack(depth - 1);
            self.pos.take_back(mv, undo);
            match line {
                Some(line) if line.len() + 1 > longest.len() => {
                    longest = line;
                    longest.insert(0, mv);
                }
                Some(_) => {}
                None => {
                    escaped = true;
                    break;
                }
            }
        }
        if escaped && !self.stopped {
            self.store_failure(depth, !self.cut);
        }
        self.cut |= outer_cut;
        (!escaped).then_some(longest)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Game;

    impl MateAnswer<String> {
        fn to_string_len(&self) -> Option<usize> {
            match self {
                MateAnswer::Mate(line) => Some(line.len()),
                _ => None,
            }
        }
    }

    fn solve(sfen: &str) -> MateAnswer<String> {
        let pos = Position::from_notation(sfen).unwrap();
        match pos.mate_search(&|| false) {
            MateAnswer::Mate(line) => {
                MateAnswer::Mate(line.iter().map(|m| m.to_string()).collect())
            }
            MateAnswer::NoMate => MateAnswer::NoMate,
            MateAnswer::Timeout => MateAnswer::Timeout,
            MateAnswer::Unsupported => MateAnswer::Unsupported,
        }
    }

    #[test]
    fn gives_check_agrees_with_making_the_move() {
        let mut rng = 0x9E37_u64;
        for start in [
            super::super::START_SFEN,
            "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
            "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1",
            "8l/1l+R2P3/p2pBG1pp/kps1p4/Nn1P2G2/P1P1P2PP/1PS6/1KSG3+r1/LN2+p3L w Sbgn3p 124",
        ] {
            let mut pos = Position::from_notation(start).unwrap();
            for _ in 0..100 {
                let mut moves = MoveList::new();
                pos.legal_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                for &mv in moves.iter() {
                    let predicted = pos.gives_check(mv);
                    let undo = pos.make_move(mv);
                    assert_eq!(predicted, pos.in_check(), "{mv} in {}", {
                        pos.unmake_move(mv, undo);
                        pos.to_notation()
                    });
                    pos.unmake_move(mv, undo);
                }
                rng = rng.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                pos.make_move(moves[(rng >> 33) as usize % moves.len()]);
            }
        }
    }

    /// Every legal move that mates, found by playing each and counting the replies.
    fn mating_moves(pos: &mut Position) -> Vec<Move> {
        let mut moves = MoveList::new();
        pos.generate_legal(&mut moves);
        let mut mates = Vec::new();
        for &mv in moves.iter() {
            let undo = pos.play(mv);
            let mut replies = MoveList::new();
            pos.generate_legal(&mut replies);
            if pos.checked && replies.is_empty() && pos.sennichite().is_none() {
                mates.push(mv);
            }
            pos.take_back(mv, undo);
        }
        mates
    }

    #[test]
    fn mate_in_one_is_sound_and_finds_every_contact_mate() {
        // Random games from hand-rich positions, where mates in one abound. A mate that
        // puts the moving piece next to the king or a knight's jump from it, checking
        // from there, must be found; whatever is found must mate.
        let mut rng = 0x5EED_u64;
        let (mut positions_with_contact_mates, mut missed) = (0, 0);
        for start in [
            "4k4/9/9/9/9/9/9/9/4K4 b RBGSNLPrb3g3s3n3l17p 1",
            "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
            "8l/1l+R2P3/p2pBG1pp/kps1p4/Nn1P2G2/P1P1P2PP/1PS6/1KSG3+r1/LN2+p3L w Sbgn3p 124",
            "ln1g3nl/1r1sg1k2/p1pppp1pp/6s2/1p5P1/2P6/PPSPPPP1P/2G3SR1/LN2KG1NL b Bbp 1",
            "3g1k3/9/4P4/9/9/9/9/9/4K4 b GSNL 1",
        ] {
            for _ in 0..30 {
                let mut pos = Position::from_notation(start).unwrap();
                for _ in 0..60 {
                    let mates = mating_moves(&mut pos);
                    let before = pos.sfen();
                    let found = pos.mate_in_one();
                    assert_eq!(pos.sfen(), before, "mate_in_one changed the position");
                    if let Some(mv) = found {
                        assert!(mates.contains(&mv), "{mv} does not mate in {before}");
                    }
                    let king = pos.king(pos.side ^ 1);
                    let contact = mates.iter().any(|&mv| {
                        let to = mv.to().0;
                        let kind = if mv.is_drop() {
                            mv.drop_kind()
                        } else {
                            (pos.board[usize::from(mv.from().0)] & 15)
                                + if mv.is_promotion() { 8 } else { 0 }
                        };
                        let king = king.unwrap();
                        let near = MATE_SQUARES
                            .iter()
                            .any(|&step| shift(king, oriented(pos.side ^ 1, step)) == to);
                        near && ATTACK[attack_index(pos.side, to, king)] & bit(kind) != 0
                    });
                    if !pos.checked && contact {
                        positions_with_contact_mates += 1;
                        assert!(
                            found.is_some(),
                            "a contact mate missed in {before}: {mates:?}"
                        );
                    } else if found.is_none() && !mates.is_empty() {
                        missed += 1;
                    }
                    let mut moves = MoveList::new();
                    pos.generate_legal(&mut moves);
                    if moves.is_empty() || pos.outcome().is_some() {
                        break;
                    }
                    rng = rng.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                    pos.play(moves[(rng >> 33) as usize % moves.len()]);
                }
            }
        }
        assert!(
            positions_with_contact_mates > 100,
            "only {positions_with_contact_mates} positions tested the search"
        );
        // Mates from a distance or by discovery, which it does not look for, are rare.
        assert!(
            missed * 10 < positions_with_contact_mates,
            "{missed} mates missed"
        );
    }

    #[test]
    fn finds_the_shortest_mate_and_proves_there_is_none() {
        // Mate in one with a gold drop.
        assert_eq!(
            solve("4k4/9/4P4/9/9/9/9/9/4K4 b G 1"),
            MateAnswer::Mate(vec!["G*5b".to_string()])
        );
        // A lone pawn cannot mate (and may not drop-mate anyway).
        assert_eq!(solve("4k4/9/9/9/9/9/9/9/4K4 b P 1"), MateAnswer::NoMate);
        // No king to mate.
        assert_eq!(solve("9/9/9/9/9/9/9/9/4K4 b R 1"), MateAnswer::NoMate);
    }

    #[test]
    fn longer_mates_come_with_the_defence_that_lasts_longest() {
        // Mate in three, none in one (cshogi's df-pn: G*3b 2b1b S*2a).
        assert_eq!(
            solve("8l/7k1/6Ppp/9/9/9/9/9/9 b GS 1").to_string_len(),
            Some(3)
        );
        // Mate in five (cshogi's df-pn: S*2c 2b1c 2c1b+ 1c1b G*2c).
        let sfen = "7nl/7k1/9/7pp/6N2/9/9/9/4K4 b GS 1";
        let MateAnswer::Mate(line) = solve(sfen) else {
            panic!("no mate found");
        };
        assert_eq!(line.len(), 5, "{line:?}");
        let mut pos = Position::from_notation(sfen).unwrap();
        for text in &line {
            let mv = pos.parse_move(text).unwrap();
            pos.make_move(mv);
        }
        assert_eq!(pos.result(), Some(crate::core::Outcome::Win(0)), "{line:?}");
    }
}

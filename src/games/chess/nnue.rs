//! The chess network's inputs: 768 per view (colour relative to the side whose view it
//! is, piece kind, square mirrored for Black), and the network built into the binary.

use super::board::EMPTY;
use super::types::Move;
use super::{HandEval, Position};
use crate::nnue::{Change, Features, Inputs, Network, Piece};
use once_cell::sync::Lazy;
use std::sync::Arc;

/// The engine's chess evaluation: the built-in network unless `EvalFile` says otherwise,
/// over [`HandEval`].
pub type NetworkEval = crate::nnue::NetworkEval<Position, HandEval>;

/// The name of the network built into the binary: `EvalFile`'s default, which loads the
/// built-in network unless a file of that name exists (as Stockfish does). How it was
/// made, and the match that took it, are in docs/nnue.md.
pub const EMBEDDED_NAME: &str = "qiyi-chess-gen4.nnue";

/// The built-in network, read once.
static EMBEDDED: Lazy<Arc<Network>> = Lazy::new(|| {
    let bytes = include_bytes!("qiyi-chess-gen4.nnue");
    Arc::new(Network::from_bytes(bytes, Position::INPUTS).expect("the built-in network reads"))
});

impl Features for Position {
    /// Two colours, six kinds, 64 squares.
    const INPUTS: usize = 768;
    const ODDS_SCALE: f32 = 400.0;

    /// A piece's one input is where it stands, whatever else is on the board.
    type Context = ();

    fn context(&self) {}

    /// A piece is its code and its 0x88 square.
    #[inline]
    fn inputs(view: usize, (code, square): Piece, _: ()) -> Inputs {
        let own = usize::from(code >> 3) == view;
        let kind = usize::from(code & 7) - 1;
        let mut index = usize::from(square >> 4) * 8 + usize::from(square & 7);
        if view == 1 {
            index ^= 56;
        }
        Inputs::one(usize::from(!own) * 384 + kind * 64 + index)
    }

    fn occupants(&self) -> impl Iterator<Item = Piece> + '_ {
        (0u8..128)
            .filter(|&sq| sq & 0x88 == 0 && self.board[usize::from(sq)] != EMPTY)
            .map(|sq| (self.board[usize::from(sq)], sq))
    }

    #[inline]
    fn change(&self, mv: Move) -> Change {
        let mut change = Change::default();
        let (from, to) = (mv.from().0, mv.to().0);
        let code = self.board[usize::from(from)];
        if mv.is_castling() {
            let (king_to, rook_to) = super::types::castling_targets(from, to);
            let rook = self.board[usize::from(to)];
            change.remove((code, from));
            change.remove((rook, to));
            change.add((code, king_to));
            change.add((rook, rook_to));
            return change;
        }
        let victim_square = if mv.is_en_passant() {
            if code >> 3 == 0 { to - 16 } else { to + 16 }
        } else {
            to
        };
        let victim = self.board[usize::from(victim_square)];
        change.remove((code, from));
        if victim != EMPTY {
            change.remove((victim, victim_square));
        }
        let arrived = match mv.promotion() {
            Some(piece) => (code & 8) | piece as u8,
            None => code,
        };
        change.add((arrived, to));
        change
    }

    /// Castling rights tie the position to its files.
    fn mirrorable(&self) -> bool {
        self.castling_rights() == 0
    }

    /// The square's file is the input's low three bits.
    fn mirrored(feature: usize) -> usize {
        feature ^ 7
    }

    /// Pawn 100 centipawns, knight and bishop 300, rook 500, queen 900.
    fn material(feature: usize) -> f32 {
        const VALUE: [f32; 6] = [100.0, 300.0, 300.0, 500.0, 900.0, 0.0];
        let value = VALUE[feature / 64 % 6];
        if feature < 384 { value } else { -value }
    }

    fn built_in() -> Option<(&'static str, Arc<Network>)> {
        Some((EMBEDDED_NAME, EMBEDDED.clone()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{Evaluator, Game};
    use crate::nnue::tests::{
        check_search_keeps_accumulators, check_turned_positions_agree,
        check_updates_along_random_games, random_network, swap_case,
    };

    #[test]
    fn a_search_with_null_moves_keeps_the_accumulators_right() {
        let network = random_network(5, Position::INPUTS, 128);
        let pos = Position::from_notation(
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        )
        .unwrap();
        check_search_keeps_accumulators(NetworkEval::with_network(network), &pos);
        // The hand-written evaluation when no network is loaded, and back to it.
        let plain = NetworkEval::hand_written();
        assert_eq!(plain.evaluate(&pos), HandEval.evaluate(&pos));
        assert!(plain.configured("EvalFile", "/no/such/file.nnue").is_err());
        let back = NetworkEval::default()
            .configured("EvalFile", "<empty>")
            .unwrap();
        assert!(back.network().is_none());
    }

    /// The built-in network reads, is what the engine plays with, and knows that a queen
    /// up is better for the side that has it; strength limiting sets it aside.
    #[test]
    fn the_built_in_network_plays_and_counts_material() {
        let built_in = NetworkEval::default();
        let eval = |fen: &str| built_in.evaluate(&Position::from_notation(fen).unwrap());
        let even = eval("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        assert!(even.abs() < 100, "{even}");
        let queen_up = eval("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        assert!(queen_up > even + 500, "{queen_up}");
        let queen_down = eval("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1");
        assert!(queen_down < even - 500, "{queen_down}");
        let limited = built_in
            .strength_limited()
            .expect("the hand-written evaluation");
        assert!(limited.network().is_none());
        assert!(NetworkEval::hand_written().strength_limited().is_none());
        let named = built_in.configured("EvalFile", EMBEDDED_NAME).unwrap();
        assert!(Arc::ptr_eq(
            named.network().unwrap(),
            built_in.network().unwrap()
        ));
        // A network of another game is refused by its size.
        let dir = std::env::temp_dir().join(format!("qiyi-chess-nnue-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let other = dir.join("other.nnue");
        std::fs::write(&other, random_network(1, 100, 128).to_bytes()).unwrap();
        let error = built_in
            .configured("EvalFile", other.to_str().unwrap())
            .err()
            .unwrap();
        assert!(error.contains("another game"), "{error}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn both_views_of_a_mirrored_position_agree() {
        let fen = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w - - 4 4";
        let ranks: Vec<String> = fen
            .split(' ')
            .next()
            .unwrap()
            .split('/')
            .rev()
            .map(swap_case)
            .collect();
        let mirrored = format!("{} b - - 4 4", ranks.join("/"));
        let network = random_network(2, Position::INPUTS, 64);
        check_turned_positions_agree::<Position>(&network, fen, &mirrored);
    }

    /// Along random games full of captures, castling, en passant and promotions, the
    /// lazily updated sums give what a refresh from the whole board gives.
    #[test]
    fn updated_sums_equal_a_refresh_along_random_games() {
        let starts = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            // Chess960 castling: king and rook on each other's squares, a king that stays.
            "rk5r/pp4pp/8/8/8/8/PP4PP/RK5R w HAha - 0 1",
            "1r4kr/p6p/8/8/8/8/P6P/1R4KR w HBhb - 0 1",
        ];
        let special = |pos: &Position, m: Move| {
            pos.is_capture(m) || m.promotion().is_some() || m.is_castling()
        };
        let network = random_network(3, Position::INPUTS, 256);
        let checked = check_updates_along_random_games(&network, &starts, special, 4);
        assert!(checked > 1000, "{checked}");
    }
}

//! One check of the `Game` contract, run on every game through `GameKind::dispatch`: the
//! same walk for all four, where each game used to write its own. From the start and from
//! every bench position, random walks in which every legal move is made and taken back:
//! taking back restores the notation and the hash exactly, the notation of every position
//! reached reads back to the same notation, names of legal moves parse back to the same
//! moves, and a game over has no legal move. (A position read from its notation may hash
//! differently: chess keys an en passant file whenever an enemy pawn stands beside the
//! pawn that double-stepped, while FEN writes it only when the capture is legal.)

use qiyi::core::{Evaluator, Game, MoveList};
use qiyi::games::{GameKind, WithGame};
use qiyi::tools::bench;

/// Deterministic choices (splitmix64), so a failure repeats.
struct Choices(u64);

impl Choices {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) % n as u64) as usize
    }
}

/// The walk for one game.
struct Conformance {
    walks: usize,
    plies: usize,
}

impl WithGame for Conformance {
    type Output = usize;

    fn run<G: Game, E: Evaluator<G>>(self, kind: GameKind, _eval: E) -> usize {
        let mut starts = vec![G::start_position()];
        for line in bench::positions(kind).lines().map(str::trim) {
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let pos = G::from_notation(line).unwrap_or_else(|e| panic!("{kind} {line}: {e}"));
            starts.push(pos);
        }
        let mut choices = Choices(0x5eed ^ kind as u64);
        let mut checked = 0;
        for start in &starts {
            for _ in 0..self.walks {
                let mut pos = start.clone();
                for _ in 0..self.plies {
                    let text = pos.to_notation();
                    let again = G::from_notation(&text)
                        .unwrap_or_else(|e| panic!("{kind}: {text} does not read back: {e}"));
                    assert_eq!(again.to_notation(), text, "{kind}");
                    let key = pos.hash();
                    let mut moves = MoveList::new();
                    pos.legal_moves(&mut moves);
                    if pos.outcome().is_some() || moves.is_empty() {
                        assert!(moves.is_empty() || pos.outcome().is_some(), "{kind}");
                        break;
                    }
                    for &mv in moves.iter() {
                        let name = pos.move_name(mv);
                        let parsed = pos
                            .parse_move(&name)
                            .unwrap_or_else(|e| panic!("{kind}: {name} in {text}: {e}"));
                        assert_eq!(parsed, mv, "{kind}: {name} in {text}");
                        let undo = pos.make_move(mv);
                        pos.unmake_move(mv, undo);
                        assert_eq!(pos.to_notation(), text, "{kind}: {name} taken back");
                        assert_eq!(pos.hash(), key, "{kind}: {name} taken back");
                        checked += 1;
                    }
                    let mv = moves[choices.below(moves.len())];
                    pos.make_move(mv);
                }
            }
        }
        checked
    }
}

#[test]
fn every_game_keeps_the_game_contract_on_random_walks() {
    for kind in GameKind::ALL {
        let checked = kind
            .dispatch(Conformance {
                walks: 4,
                plies: 60,
            })
            .unwrap();
        assert!(checked > 1000, "{kind}: only {checked} moves checked");
    }
}

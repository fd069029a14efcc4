//! Junqi games for the protocol tests: played at random by the library's open position,
//! recorded as a referee records them.

use qiyi::core::{Game, MoveList};
use qiyi::games::junqi::{Position, deploy};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

pub const SEATS: [char; 4] = ['S', 'E', 'N', 'W'];

/// A game played at random (attacks preferred) from random lineups: the lineups, and
/// after each ply the annotated tokens so far and the true position.
pub struct Played {
    pub lineups: Vec<String>,
    pub steps: Vec<(Vec<String>, Position)>,
}

pub fn random_game(seed: u64, plies: usize) -> Played {
    let mut rng = StdRng::seed_from_u64(seed);
    let lineups: Vec<String> = (0..4).map(|_| deploy(&mut rng)).collect();
    let setup: Vec<String> = (0..4)
        .map(|s| format!("{}:{}", SEATS[s], lineups[s]))
        .collect();
    let mut pos = Position::from_notation(&format!("setup {}", setup.join(" "))).unwrap();
    let mut tokens = Vec::new();
    let mut steps = vec![(tokens.clone(), pos.clone())];
    for _ in 0..plies {
        if pos.result().is_some() {
            break;
        }
        let mut moves = MoveList::new();
        pos.legal_moves(&mut moves);
        let attacks: Vec<_> = moves
            .iter()
            .copied()
            .filter(|&m| pos.is_capture(m))
            .collect();
        let mv = if !attacks.is_empty() && rng.random_bool(0.6) {
            attacks[rng.random_range(0..attacks.len())]
        } else {
            moves[rng.random_range(0..moves.len())]
        };
        tokens.extend(pos.record(mv).iter().map(ToString::to_string));
        pos.make_move(mv);
        steps.push((tokens.clone(), pos.clone()));
    }
    Played { lineups, steps }
}

/// The `position` command that gives every lineup of `game` and the plies `tokens`.
pub fn open_command(game: &Played, tokens: &[String]) -> String {
    let seats: Vec<String> = (0..4)
        .map(|s| format!("{}:{}", SEATS[s], game.lineups[s]))
        .collect();
    format!(
        "position setup {} first S moves {}",
        seats.join(" "),
        tokens.join(" ")
    )
}

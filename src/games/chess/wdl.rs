//! The chances of a win, a draw and a loss that a search score stands for (`UCI_ShowWDL`),
//! from a model fitted to qiyi's own games.
//!
//! For the side to move with score `s` and material `m` (pawns 1, minor pieces 3, rooks
//! 5, queens 9, both sides; taken between 10 and 78), the win chance is
//! `1 / (1 + exp((a(m) - s) / b(m)))` and the loss chance the same for `-s`; the draw is
//! the rest. `a` is the score at which a win is as likely as not, `b` how quickly the
//! chances change with the score; both are cubics in `m / 58`, fitted by
//! `tools/fit_wdl.py` to 727,814 positions of `qiyi datagen` self-play (5,000 nodes
//! a move from random 8-ply openings, hand-written evaluation), as
//! lab/benchmarks.md records. Games that fast are rarely drawn (an even start position
//! reads 419/162/419): a fit to games at tournament speed is to replace it.

use super::{Color, Piece, Position};
use crate::core::{MATE_BOUND, Score};

/// Coefficients of `a(x)` and `b(x)`, highest power first.
const A: [f64; 4] = [-415.555, 1158.581, -1045.508, 379.038];
const B: [f64; 4] = [-102.525, 282.751, -158.980, 128.162];

/// Material below and above which the model holds at its value there.
const MATERIAL_RANGE: (u32, u32) = (10, 78);

fn cubic(c: [f64; 4], x: f64) -> f64 {
    ((c[0] * x + c[1]) * x + c[2]) * x + c[3]
}

/// Both sides' material in the model's units.
fn material(pos: &Position) -> u32 {
    [Color::White, Color::Black]
        .into_iter()
        .flat_map(|color| {
            [
                (Piece::Pawn, 1),
                (Piece::Knight, 3),
                (Piece::Bishop, 3),
                (Piece::Rook, 5),
                (Piece::Queen, 9),
            ]
            .map(|(piece, value)| pos.count(color, piece) as u32 * value)
        })
        .sum()
}

/// Win, draw and loss per mille for the side to move in `pos` when the search says
/// `score`; a mate score is a certain result.
pub fn win_draw_loss(pos: &Position, score: Score) -> [u32; 3] {
    if score >= MATE_BOUND {
        return [1000, 0, 0];
    }
    if score <= -MATE_BOUND {
        return [0, 0, 1000];
    }
    let m = material(pos).clamp(MATERIAL_RANGE.0, MATERIAL_RANGE.1);
    let x = f64::from(m) / 58.0;
    let (a, b) = (cubic(A, x), cubic(B, x));
    let s = f64::from(score);
    let win = 1.0 / (1.0 + ((a - s) / b).exp());
    let loss = 1.0 / (1.0 + ((a + s) / b).exp());
    let win = (win * 1000.0).round() as u32;
    let loss = (loss * 1000.0).round() as u32;
    [win, 1000 - win - loss, loss]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{Game, MATE};

    fn pos(fen: &str) -> Position {
        Position::from_notation(fen).unwrap()
    }

    #[test]
    fn chances_sum_to_a_thousand_and_rise_with_the_score() {
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "8/5k2/8/3R4/8/2K5/6r1/8 w - - 0 1",
        ] {
            let p = pos(fen);
            let mut last = [0, 0, 1000];
            for score in (-1500..=1500).step_by(50) {
                let wdl = win_draw_loss(&p, score);
                assert_eq!(wdl.iter().sum::<u32>(), 1000, "{fen} {score}");
                assert!(wdl[0] >= last[0] && wdl[2] <= last[2], "{fen} {score}");
                // The model is symmetric: the other side's view swaps win and loss.
                let other = win_draw_loss(&p, -score);
                assert_eq!((wdl[0], wdl[2]), (other[2], other[0]), "{fen} {score}");
                last = wdl;
            }
        }
    }

    #[test]
    fn even_is_as_likely_won_as_lost_and_a_rook_up_mostly_won() {
        let start = pos("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        let [win, draw, loss] = win_draw_loss(&start, 0);
        assert_eq!(win, loss);
        assert!(draw > 0);
        assert!(win_draw_loss(&start, 500)[0] > 900);
        assert_eq!(win_draw_loss(&start, MATE - 3), [1000, 0, 0]);
        assert_eq!(win_draw_loss(&start, 3 - MATE), [0, 0, 1000]);
    }
}

//! Reading `qiyi datagen`'s lines into samples: each position's inputs from both views,
//! its search score and its target, and the mirror image of every position whose
//! symmetry no castling right breaks.

use super::Logistic;
use crate::nnue::Features;

/// A position as the network sees it.
pub(super) struct Sample {
    /// Inputs from the side to move's view, then the other side's.
    pub(super) views: [Vec<u16>; 2],
    /// The search score from the side to move's view, in centipawns.
    pub(super) score: f32,
    /// The side to move's expected score.
    pub(super) target: f32,
}

/// One `<position> | <result> | <score>` line as samples: the position, and its mirror
/// image from left to right when nothing (a castling right) breaks the symmetry. Empty
/// when the line does not parse.
pub(super) fn parse<G: Features>(line: &str, lambda: f32, logistic: Logistic) -> Vec<Sample> {
    parse_one::<G>(line, lambda, logistic).map_or_else(Vec::new, |(sample, symmetric)| {
        let mirror = symmetric.then(|| Sample {
            views: sample.views.clone().map(|view| {
                view.into_iter()
                    .map(|f| G::mirrored(usize::from(f)) as u16)
                    .collect()
            }),
            ..sample
        });
        std::iter::once(sample).chain(mirror).collect()
    })
}

/// One line's sample, and whether its position may be mirrored.
fn parse_one<G: Features>(line: &str, lambda: f32, logistic: Logistic) -> Option<(Sample, bool)> {
    let mut fields = line.split('|').map(str::trim);
    let pos = G::from_notation(fields.next()?).ok()?;
    let result: f32 = fields.next()?.parse().ok()?;
    let score: f32 = fields.next()?.parse().ok()?;
    if !(0.0..=1.0).contains(&result) || fields.next().is_some() {
        return None;
    }
    let first = lambda * result + (1.0 - lambda) * logistic.expected_score(score);
    let side = pos.view_to_move();
    let context = pos.context();
    let view = |v: usize| {
        pos.occupants()
            .flat_map(|p| G::inputs(v, p, context))
            .map(|f| f as u16)
            .collect()
    };
    let sample = Sample {
        views: [view(side), view(side ^ 1)],
        score: if side == 0 { score } else { -score },
        target: if side == 0 { first } else { 1.0 - first },
    };
    Some((sample, pos.mirrorable()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::chess::Position;

    const CHESS: Logistic = Logistic::new(Position::ODDS_SCALE);

    /// A score of `--scale` centipawns is a target of ten to one in odds, from the
    /// mover's view, whichever side it is given for.
    #[test]
    fn the_scale_is_the_score_of_ten_to_one_odds() {
        let fen = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R";
        for scale in [400.0, 1200.0] {
            let logistic = Logistic::new(scale);
            let white =
                parse::<Position>(&format!("{fen} w KQkq - 4 4 | 1 | {scale}"), 0.0, logistic);
            let black =
                parse::<Position>(&format!("{fen} b KQkq - 4 4 | 1 | {scale}"), 0.0, logistic);
            assert!(
                (white[0].target - 10.0 / 11.0).abs() < 1e-5,
                "{}",
                white[0].target
            );
            assert!(
                (black[0].target - 1.0 / 11.0).abs() < 1e-5,
                "{}",
                black[0].target
            );
        }
    }

    /// A position without castling rights comes with its mirror image, whose inputs are
    /// those of the position with every rank read right to left; one with a castling
    /// right comes alone.
    #[test]
    fn positions_without_castling_rights_are_mirrored() {
        let expand = |fen: &str| -> String {
            fen.split('/')
                .map(|rank| {
                    let squares: String = rank
                        .chars()
                        .map(|c| match c.to_digit(10) {
                            Some(n) => "1".repeat(n as usize),
                            None => c.to_string(),
                        })
                        .collect();
                    squares.chars().rev().collect::<String>()
                })
                .collect::<Vec<_>>()
                .join("/")
        };
        let board = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R";
        let samples = parse::<Position>(&format!("{board} b - - 0 9 | 0.5 | 35"), 0.0, CHESS);
        assert_eq!(samples.len(), 2);
        let mirror = parse::<Position>(
            &format!("{} b - - 0 9 | 0.5 | 35", expand(board)),
            0.0,
            CHESS,
        );
        let sorted = |sample: &Sample| {
            sample.views.clone().map(|mut view| {
                view.sort_unstable();
                view
            })
        };
        assert_eq!(sorted(&samples[1]), sorted(&mirror[0]));
        assert_ne!(sorted(&samples[0]), sorted(&mirror[0]));
        assert_eq!(
            (samples[1].score, samples[1].target),
            (samples[0].score, samples[0].target)
        );
        assert_eq!(
            parse::<Position>(&format!("{board} b K - 0 9 | 0.5 | 35"), 0.0, CHESS).len(),
            1
        );
        assert!(parse::<Position>("not a position | 1 | 0", 0.0, CHESS).is_empty());
    }
}

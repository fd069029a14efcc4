//! The games qiyi plays, each a module of its own, and [`GameKind`], the one place that
//! maps a game's name to its types. Nothing else about a game lives on `GameKind`: the
//! protocol keeps its clock tokens and options, the bench tool its positions and depths.

pub mod chess;
pub mod foursquare;
pub mod junqi;
pub mod shogi;

use crate::core::{Evaluator, Game};

/// Every game qiyi knows, whether or not this build can play it yet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameKind {
    Chess,
    Shogi,
    Junqi,
    FourSquare,
}

impl GameKind {
    pub const ALL: [GameKind; 4] = [
        GameKind::Chess,
        GameKind::Shogi,
        GameKind::Junqi,
        GameKind::FourSquare,
    ];

    /// The name used by `--game` and `setoption name Game`.
    pub fn name(self) -> &'static str {
        match self {
            GameKind::Chess => "chess",
            GameKind::Shogi => "shogi",
            GameKind::Junqi => "junqi",
            GameKind::FourSquare => "foursquare",
        }
    }

    pub fn from_name(name: &str) -> Option<GameKind> {
        GameKind::ALL
            .into_iter()
            .find(|g| g.name().eq_ignore_ascii_case(name))
    }

    /// Runs `task` with this game's position and evaluator types: the one place where a
    /// game's name becomes its types.
    pub fn dispatch<T: WithGame>(self, task: T) -> Result<T::Output, String> {
        match self {
            GameKind::Chess => {
                Ok(task.run::<chess::Position, _>(self, chess::NetworkEval::default()))
            }
            GameKind::Shogi => {
                Ok(task.run::<shogi::Position, _>(self, shogi::NetworkEval::default()))
            }
            GameKind::Junqi => {
                Ok(task.run::<junqi::Position, _>(self, junqi::NetworkEval::default()))
            }
            GameKind::FourSquare => Ok(task.run::<foursquare::Position, _>(self, foursquare::Eval)),
        }
    }
}

/// A piece of work generic over the game, for [`GameKind::dispatch`].
pub trait WithGame {
    type Output;
    fn run<G: Game, E: Evaluator<G>>(self, kind: GameKind, eval: E) -> Self::Output;
}

impl std::fmt::Display for GameKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

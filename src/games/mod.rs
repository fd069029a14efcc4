//! The games qiyi plays, each a module of its own, and [`GameKind`], the one place that
//! maps a game's name to its types.

pub mod chess;
pub mod foursquare;
pub mod junqi;
pub mod shogi;

use crate::core::{Evaluator, Game, OptionKind, OptionSpec};
use once_cell::sync::Lazy;

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

    /// Which players a `go` clock token (`wtime` → `w`, `p1inc` → `p1`) belongs to. In
    /// Junqi `p1`/`p2` are the teams (S+N, E+W), so one clock serves both partners, while
    /// `stime`..`wtime` are the seats' own.
    pub fn clock_owners(self, owner: &str) -> &'static [usize] {
        match (self, owner) {
            (GameKind::Chess, "w") | (GameKind::Shogi, "b") => &[0],
            (GameKind::Chess, "b") | (GameKind::Shogi, "w") => &[1],
            (GameKind::FourSquare, "p1") => &[0],
            (GameKind::FourSquare, "p2") => &[1],
            (GameKind::Junqi, "p1") => &[0, 2],
            (GameKind::Junqi, "p2") => &[1, 3],
            (GameKind::Junqi, "s") => &[0],
            (GameKind::Junqi, "e") => &[1],
            (GameKind::Junqi, "n") => &[2],
            (GameKind::Junqi, "w") => &[3],
            _ => &[],
        }
    }

    /// The `Game` option as the protocol declares it, with `self` as the current value.
    pub fn option(self) -> OptionSpec {
        static VARS: Lazy<Vec<&'static str>> =
            Lazy::new(|| GameKind::ALL.into_iter().map(GameKind::name).collect());
        OptionSpec {
            name: "Game",
            kind: OptionKind::Combo {
                default: self.name(),
                vars: VARS.as_slice(),
            },
        }
    }

    /// The bench positions, one per line (`#` starts a comment), built into the binary so
    /// that `qiyi bench` works from any directory.
    pub fn bench_positions(self) -> &'static str {
        match self {
            GameKind::Chess => include_str!("../../bench_positions/chess.epd"),
            GameKind::Shogi => include_str!("../../bench_positions/shogi.sfen"),
            GameKind::Junqi => include_str!("../../bench_positions/junqi.txt"),
            GameKind::FourSquare => include_str!("../../bench_positions/foursquare.txt"),
        }
    }

    /// The depth `qiyi bench` searches by default: a few seconds in all on one core.
    pub fn bench_depth(self) -> u32 {
        match self {
            GameKind::FourSquare => 22,
            GameKind::Shogi => 5,
            GameKind::Junqi => 6,
            _ => 10,
        }
    }

    /// The options this game declares besides the engine's: those that change its rules
    /// (Junqi's `NoCombatDrawPlies`), its evaluation's (chess's `EvalFile`) and its
    /// oracle's (FourSquare's `Tablebase`), known without an engine for it, so they can be
    /// accepted before the game is chosen.
    pub fn own_options(self) -> Vec<OptionSpec> {
        struct OwnOptions;
        impl WithGame for OwnOptions {
            type Output = Vec<OptionSpec>;
            fn run<G: Game, E: Evaluator<G>>(self, _kind: GameKind, eval: E) -> Self::Output {
                crate::protocol::game_options(&eval, eval.oracle().as_deref())
            }
        }
        self.dispatch(OwnOptions).unwrap_or_default()
    }

    /// Runs `task` with this game's position and evaluator types: the one place where a
    /// game's name becomes its types.
    pub fn dispatch<T: WithGame>(self, task: T) -> Result<T::Output, String> {
        match self {
            GameKind::Chess => {
                Ok(task.run::<chess::Position, _>(self, chess::Evaluation::default()))
            }
            GameKind::Shogi => {
                Ok(task.run::<shogi::Position, _>(self, shogi::Evaluation::default()))
            }
            GameKind::Junqi => Ok(task.run::<junqi::Position, _>(self, junqi::Eval)),
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

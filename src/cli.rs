//! The `qiyi` command line: the protocol loop by default, `perft` and `bench` for
//! correctness and speed figures, `datagen` for training positions from self-play, `train`
//! for the networks, `tune` for the chess, shogi and Junqi evaluations' weights, `solve`
//! for the FourSquare table, `referee` for Junqi matches between engines, `play` for a
//! board in the browser. Dispatch only; the work lives in the modules below. It is part of
//! the library (not `src/main.rs`) so that the unit tests check its definition.

use crate::games::GameKind;
use crate::perft::PerftRun;
use crate::tools::bench::Bench;
use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// The command line.
#[derive(Parser)]
#[command(
    name = "qiyi",
    version,
    about = "qiyi (棋艺): chess, shogi, Siguo Junqi and FourSquare over UCI/USI/UGI"
)]
pub struct Cli {
    /// The game to play; without it the first command decides (uci: chess, usi: shogi,
    /// ugi: foursquare).
    #[arg(long, value_parser = parse_game)]
    game: Option<GameKind>,
    #[command(subcommand)]
    command: Option<Action>,
}

#[derive(Subcommand)]
enum Action {
    /// Count the leaves of the legal move tree (correctness and move generation speed).
    Perft {
        #[arg(long, value_parser = parse_game)]
        game: GameKind,
        /// A position in the game's notation; the start position by default.
        #[arg(long)]
        position: Option<String>,
        #[arg(long)]
        depth: u32,
        /// Print the count below each root move.
        #[arg(long)]
        divide: bool,
        #[arg(long, default_value_t = 1)]
        threads: usize,
    },
    /// Fixed-depth search of the bench positions: nodes, time, nodes/second.
    Bench {
        /// A game, or `all`.
        #[arg(long, default_value = "all")]
        game: String,
        /// Search depth; each game's default when absent.
        #[arg(long)]
        depth: Option<u32>,
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Transposition table size in MB.
        #[arg(long, default_value_t = 16)]
        hash: usize,
    },
    /// Fit a game's evaluation weights to game results (Texel tuning); writes the source
    /// of `src/games/<game>/weights.rs`.
    Tune {
        /// `chess`, `shogi` or `junqi`.
        #[arg(long, value_parser = parse_game, default_value = "chess")]
        game: GameKind,
        #[command(flatten)]
        tuning: crate::tools::tune::Tuning,
    },
    /// Play the engine against itself at a fixed node budget and write training positions,
    /// `<position> | <result> | <score>` lines (what `tune` reads); a stopped run resumes.
    Datagen {
        #[arg(long, value_parser = parse_game, default_value = "chess")]
        game: GameKind,
        #[command(flatten)]
        settings: crate::tools::datagen::Datagen,
    },
    /// Train a game's network (chess, shogi or Junqi) on `datagen` positions and write the
    /// network file the engine's `EvalFile` option reads.
    Train {
        #[arg(long, value_parser = parse_game, default_value = "chess")]
        game: GameKind,
        #[command(flatten)]
        training: crate::nnue::train::Training,
    },
    /// Solve a game outright (FourSquare): print the values of its positions, optionally
    /// write the table.
    Solve {
        #[arg(value_parser = parse_game)]
        game: GameKind,
        /// Write the table to this file (the format the engine caches).
        #[arg(long)]
        out: Option<std::path::PathBuf>,
    },
    /// Play a Junqi match between two UGI engines given as command lines: games in pairs
    /// with sides swapped, forfeits judged by the rules, a record file and an Elo table.
    #[command(after_help = crate::tools::junqi_referee::HELP)]
    Referee(Box<crate::tools::junqi_referee::Config>),
    /// Play in the browser: a local web server with a board for people, engines at the
    /// other seats; prints the URL of each person's seat.
    Play(Box<crate::tools::play::Config>),
}

fn parse_game(name: &str) -> Result<GameKind, String> {
    GameKind::from_name(name).ok_or_else(|| {
        let names: Vec<&str> = GameKind::ALL.iter().map(|g| g.name()).collect();
        format!("unknown game '{name}'; one of {}", names.join(", "))
    })
}

/// Runs the command line: logging set up, the arguments read, the action run.
pub fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let cli = Cli::parse();
    let outcome = match cli.command {
        None => {
            crate::protocol::run(cli.game);
            Ok(())
        }
        Some(Action::Perft {
            game,
            position,
            depth,
            divide,
            threads,
        }) => game
            .dispatch(PerftRun {
                position,
                depth,
                divide,
                threads,
            })
            .map_err(anyhow::Error::msg)
            .and_then(|r| r.map(|_| ())),
        Some(Action::Bench {
            game,
            depth,
            threads,
            hash,
        }) => bench(&game, depth, threads, hash),
        Some(Action::Tune { game, tuning }) => match game {
            GameKind::Chess => tuning.run::<crate::games::chess::Position>(),
            GameKind::Shogi => tuning.run::<crate::games::shogi::Position>(),
            GameKind::Junqi => tuning.run::<crate::games::junqi::Position>(),
            other => Err(anyhow::anyhow!("{other} has no tunable evaluation")),
        },
        Some(Action::Datagen { game, settings }) => game
            .dispatch(settings)
            .map_err(anyhow::Error::msg)
            .and_then(|r| r),
        Some(Action::Train { game, training }) => match game {
            GameKind::Chess => training.run::<crate::games::chess::Position>().map(|_| ()),
            GameKind::Shogi => training.run::<crate::games::shogi::Position>().map(|_| ()),
            GameKind::Junqi => training.run::<crate::games::junqi::Position>().map(|_| ()),
            other => Err(anyhow::anyhow!("{other} has no network")),
        },
        Some(Action::Solve { game, out }) => match game {
            GameKind::FourSquare => {
                crate::games::foursquare::tablebase::solve_command(out.as_deref())
            }
            other => Err(anyhow::anyhow!("{other} is too large to solve")),
        },
        Some(Action::Referee(config)) => crate::tools::junqi_referee::run(&config),
        Some(Action::Play(config)) => crate::tools::play::run(&config),
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

fn bench(game: &str, depth: Option<u32>, threads: usize, hash: usize) -> anyhow::Result<()> {
    let games: Vec<GameKind> = if game == "all" {
        GameKind::ALL.into_iter().collect()
    } else {
        vec![parse_game(game).map_err(anyhow::Error::msg)?]
    };
    let mut nodes = 0;
    let mut time = std::time::Duration::ZERO;
    for kind in games {
        let totals = kind
            .dispatch(Bench {
                depth,
                threads,
                hash_mb: hash,
            })
            .map_err(anyhow::Error::msg)??;
        nodes += totals.nodes;
        time += totals.time;
    }
    // The last line is the one OpenBench's client reads: the nodes are the build's
    // signature, and the speed scales its time controls.
    println!(
        "{nodes} nodes {} nps",
        (nodes as f64 / time.as_secs_f64().max(1e-9)) as u64
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    /// clap checks a command line's definition only in debug builds, when it is used:
    /// this runs those checks on every subcommand (two of them once shared a group name,
    /// so `qiyi datagen --help` panicked in debug builds).
    #[test]
    fn the_command_line_is_well_formed() {
        Cli::command().debug_assert();
    }
}

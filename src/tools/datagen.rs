//! `qiyi datagen`: training positions from the engine's own games, for an evaluation to
//! learn from (the chess network of issue 14; `qiyi tune` reads the same lines).
//!
//! Each game starts from a few random plies (so no two games are alike), from the start
//! position or from one of a file of openings, then the engine plays both sides at a
//! fixed node budget, one thread per game and games in parallel. Openings are how the
//! data reach what self-play from the start never does (in shogi, the castles and rook
//! placements other players build).
//! A position is kept when the search's verdict on it is quiet (not in check, the best
//! move no capture, no mate score): what a static evaluation can learn. The output is one
//! line per position, `<position> | <result> | <score>`, the result 1, 0.5 or 0 for the
//! first player's team and the score in centipawns from its view, as `qiyi tune` reads.
//!
//! Game `i` is played from a seed of its own, so a run can be stopped and taken up again:
//! games are written in batches, and `<out>.progress` records how many games and bytes
//! of the output are complete; a new run with the same settings drops anything after
//! that and goes on from there, giving the same file as an unbroken run.

use crate::core::{Evaluator, Game, MATE_BOUND, MoveList, Outcome, Score, fnv1a};
use crate::games::{GameKind, WithGame};
use crate::search::{self, Control, Limits, SearchParams, TimeSettings, TranspositionTable};
use anyhow::Context;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use rayon::prelude::*;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// A score this far from even, from either side, for [`ADJUDICATE_PLIES`] plies in a row
/// decides the game: the rest of a won game teaches little and costs a lot.
const ADJUDICATE_SCORE: Score = 2000;
const ADJUDICATE_PLIES: usize = 6;

/// Transposition table per game, in MB; it lives through the game.
const HASH_MB: usize = 8;

/// Settings of a run (the `qiyi datagen` command line, the game aside).
#[derive(Clone, Debug, clap::Args)]
// The `datagen` subcommand's own arguments carry the group name `Datagen` already.
#[group(skip)]
pub struct Datagen {
    #[arg(long)]
    pub games: usize,
    /// Nodes searched per move.
    #[arg(long, default_value_t = 5000)]
    pub nodes: u64,
    /// Random plies from the start position (or the opening) before the engine plays.
    #[arg(long, default_value_t = 8)]
    pub random_plies: usize,
    /// Positions to start from, one a line in the game's notation (anything after ` | `
    /// left out, so `datagen`'s own lines serve); each game draws one at random.
    #[arg(long)]
    pub openings: Option<PathBuf>,
    /// Plies after which an undecided game counts as a draw.
    #[arg(long, default_value_t = 400)]
    pub max_plies: usize,
    /// Games played at once, one thread each.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// An option of the evaluation, `NAME=VALUE` as `setoption` would give it (say
    /// `EvalFile=net.nnue`, to play a game with no built-in network on a trained one);
    /// repeatable.
    #[arg(long = "option", value_name = "NAME=VALUE")]
    pub options: Vec<String>,
    /// The output; `<out>.progress` records how much of it is complete.
    #[arg(long)]
    pub out: PathBuf,
}

/// One finished game: its position lines, and how many there are.
struct Played {
    lines: String,
    positions: usize,
}

impl Datagen {
    fn progress_path(&self) -> PathBuf {
        let mut name = self.out.clone().into_os_string();
        name.push(".progress");
        PathBuf::from(name)
    }

    /// What makes the games what they are (all but how many and on how many threads): a
    /// run may only go on from a file made with the same.
    fn settings(&self, kind: GameKind, openings: Option<u64>) -> String {
        let mut settings = format!(
            "{kind}:nodes={}:random-plies={}:max-plies={}:seed={}",
            self.nodes, self.random_plies, self.max_plies, self.seed
        );
        if let Some(digest) = openings {
            settings.push_str(&format!(":openings={digest:016x}"));
        }
        for option in &self.options {
            settings.push(':');
            settings.extend(option.chars().filter(|c| !c.is_whitespace()));
        }
        settings
    }

    /// `eval` with the `--option`s set, or why one cannot be.
    fn configure<G: Game, E: Evaluator<G>>(&self, mut eval: E) -> anyhow::Result<E> {
        for option in &self.options {
            let (name, value) = option
                .split_once('=')
                .ok_or_else(|| anyhow::anyhow!("--option {option}: not NAME=VALUE"))?;
            eval = eval
                .configured(name.trim(), value.trim())
                .map_err(|e| anyhow::anyhow!("--option {option}: {e}"))?;
        }
        Ok(eval)
    }

    /// Games and bytes already complete, from the progress file (none without one).
    fn resume_point(&self, kind: GameKind, openings: Option<u64>) -> anyhow::Result<(usize, u64)> {
        let path = self.progress_path();
        if !path.exists() {
            return Ok((0, 0));
        }
        let text = std::fs::read_to_string(&path)
            .with_context(|| format!("reading {}", path.display()))?;
        let fields: Vec<&str> = text.split_whitespace().collect();
        let (Some(games), Some(bytes), Some(settings)) = (
            fields.first().and_then(|f| f.parse().ok()),
            fields.get(1).and_then(|f| f.parse().ok()),
            fields.get(2),
        ) else {
            anyhow::bail!("{} is not '<games> <bytes> <settings>'", path.display());
        };
        let ours = self.settings(kind, openings);
        if *settings != ours {
            anyhow::bail!(
                "{} was made with {settings}, not {ours}: use another --out or the same settings",
                self.out.display(),
            );
        }
        Ok((games, bytes))
    }

    fn save_progress(
        &self,
        kind: GameKind,
        openings: Option<u64>,
        games: usize,
        bytes: u64,
    ) -> anyhow::Result<()> {
        let path = self.progress_path();
        let text = format!("{games} {bytes} {}\n", self.settings(kind, openings));
        std::fs::write(&path, text).with_context(|| format!("writing {}", path.display()))
    }

    /// The seed of game `index`: the run's seed and the index, well mixed.
    fn game_seed(&self, index: usize) -> u64 {
        self.seed ^ (index as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }

    /// Plays game `index` to its end.
    fn play<G: Game, E: Evaluator<G>>(&self, index: usize, eval: &E, openings: &[G]) -> Played {
        let mut rng = StdRng::seed_from_u64(self.game_seed(index));
        let base = match openings.len() {
            0 => G::start_position(),
            n => openings[rng.random_range(0..n)].clone(),
        };
        let mut pos = opening(&base, &mut rng, self.random_plies);
        let tt = TranspositionTable::new(HASH_MB);
        let control = Control::default();
        let limits = Limits {
            nodes: Some(self.nodes),
            ..Limits::default()
        };
        let params = SearchParams {
            time: TimeSettings {
                move_time_limit: 0,
                move_overhead: 0,
            },
            ..SearchParams::default()
        };
        // The table and the histories live as long as the game, as they do when the engine
        // plays over its protocol: each search starts from what the ones before it learnt,
        // which labels the positions better at the same nodes and spares the cost of
        // clearing and allocating megabytes for a search of a few thousand nodes.
        let mut histories = Vec::new();
        let mut kept: Vec<(String, Score)> = Vec::new();
        let mut decisive = 0;
        let mut plies = 0;
        let result = loop {
            if let Some(outcome) = pos.result() {
                break outcome;
            }
            if plies >= self.max_plies {
                break Outcome::Draw;
            }
            let found = search::search(
                &pos,
                eval,
                &tt,
                &mut histories,
                &control,
                &limits,
                &params,
                &[],
                &mut |_| {},
            );
            let Some(best) = found.best else {
                break pos.no_move_outcome();
            };
            // From the first player's team's view.
            let team = pos.team_to_move();
            let score = if team == 0 { found.score } else { -found.score };
            if found.score.abs() < MATE_BOUND && !pos.in_check() && !pos.is_capture(best) {
                kept.push((pos.to_notation(), score));
            }
            decisive = if found.score.abs() >= ADJUDICATE_SCORE {
                decisive + 1
            } else {
                0
            };
            if decisive >= ADJUDICATE_PLIES {
                break Outcome::Win(if found.score > 0 { team } else { 1 - team });
            }
            pos.make_move(best);
            plies += 1;
        };
        let result = match result {
            Outcome::Win(0) => "1",
            Outcome::Win(_) => "0",
            Outcome::Draw => "0.5",
        };
        let mut lines = String::new();
        for (notation, score) in &kept {
            lines.push_str(&format!("{notation} | {result} | {score}\n"));
        }
        Played {
            lines,
            positions: kept.len(),
        }
    }
}

/// `base` after `plies` random legal plies; drawn again while the game ends or gets stuck
/// on the way (`base` itself is a position with moves, as [`read_openings`] checks).
fn opening<G: Game>(base: &G, rng: &mut StdRng, plies: usize) -> G {
    let mut moves = MoveList::new();
    'draw: loop {
        let mut pos = base.clone();
        for _ in 0..plies {
            if !goes_on(&pos, &mut moves) {
                continue 'draw;
            }
            let mv = moves[rng.random_range(0..moves.len())];
            pos.make_move(mv);
        }
        if goes_on(&pos, &mut moves) {
            return pos;
        }
    }
}

/// Whether a game can go on from `pos`: it is not over and has a legal move (left in
/// `moves`).
fn goes_on<G: Game>(pos: &G, moves: &mut MoveList<G::Move>) -> bool {
    moves.clear();
    pos.legal_moves(moves);
    !moves.is_empty() && pos.result().is_none()
}

/// Reads `path`'s openings: one position a line (blank lines and `#` comments skipped,
/// anything after ` | ` left out); each must have a legal move. Errors name the line.
/// Also a digest of the positions, which the progress file records so that a run goes
/// on only from the same openings.
fn read_openings<G: Game>(path: &Path) -> anyhow::Result<(Vec<G>, u64)> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let mut positions = Vec::new();
    // The positions as read, so that comments and labels do not count.
    let mut read = String::new();
    let mut moves = MoveList::new();
    for (number, line) in text.lines().enumerate() {
        let notation = line.split(" | ").next().unwrap_or("").trim();
        if notation.is_empty() || notation.starts_with('#') {
            continue;
        }
        let at = || format!("{} line {}", path.display(), number + 1);
        let pos = G::from_notation(notation).with_context(at)?;
        if !goes_on(&pos, &mut moves) {
            anyhow::bail!("{}: the game is over in {notation}", at());
        }
        read.push_str(notation);
        read.push('\n');
        positions.push(pos);
    }
    if positions.is_empty() {
        anyhow::bail!("{} holds no position", path.display());
    }
    Ok((positions, fnv1a(read.as_bytes())))
}

/// Opens the output for appending, cut back to `bytes` (a batch the last run did not
/// finish is dropped).
fn open_output(path: &Path, bytes: u64) -> anyhow::Result<File> {
    let file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .with_context(|| format!("opening {}", path.display()))?;
    let length = file.metadata()?.len();
    if length < bytes {
        anyhow::bail!(
            "{} has {length} bytes, fewer than the {bytes} its progress file records",
            path.display()
        );
    }
    file.set_len(bytes)?;
    Ok(file)
}

impl WithGame for Datagen {
    type Output = anyhow::Result<()>;

    fn run<G: Game, E: Evaluator<G>>(self, kind: GameKind, eval: E) -> Self::Output {
        if G::HIDES_INFORMATION {
            log::info!("{kind}: games are played in the open");
        }
        let eval = self.configure(eval)?;
        let (openings, digest) = match &self.openings {
            Some(path) => {
                let (positions, digest) = read_openings::<G>(path)?;
                (positions, Some(digest))
            }
            None => (Vec::new(), None),
        };
        let (mut done, mut bytes) = self.resume_point(kind, digest)?;
        let mut out = open_output(&self.out, bytes)?;
        if done > 0 {
            eprintln!("datagen: {done} games already in {}", self.out.display());
        }
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(self.threads.max(1))
            .build()?;
        // Batches of some games a thread: large enough that the longest game of a batch
        // does not leave the other threads idle for long, small enough to lose little
        // when stopped.
        let batch = 16 * self.threads.max(1);
        let start = Instant::now();
        let mut positions = 0;
        let first = done;
        while done < self.games {
            let end = (done + batch).min(self.games);
            let played: Vec<Played> = pool.install(|| {
                (done..end)
                    .into_par_iter()
                    .map(|i| self.play::<G, E>(i, &eval, &openings))
                    .collect()
            });
            for game in &played {
                out.write_all(game.lines.as_bytes())?;
                bytes += game.lines.len() as u64;
                positions += game.positions;
            }
            out.sync_data()?;
            done = end;
            self.save_progress(kind, digest, done, bytes)?;
            let seconds = start.elapsed().as_secs_f64().max(1e-9);
            eprintln!(
                "datagen: {done}/{} games, {positions} positions this run, {:.1} games/s, {:.0} positions/s",
                self.games,
                (done - first) as f64 / seconds,
                positions as f64 / seconds
            );
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::chess;

    fn settings(dir: &Path, games: usize) -> Datagen {
        Datagen {
            games,
            nodes: 300,
            random_plies: 8,
            openings: None,
            max_plies: 60,
            threads: 2,
            seed: 5,
            options: Vec::new(),
            out: dir.join("data.txt"),
        }
    }

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("qiyi-datagen-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn run(settings: &Datagen) -> String {
        settings
            .clone()
            .run::<chess::Position, _>(GameKind::Chess, chess::HandEval)
            .unwrap();
        std::fs::read_to_string(&settings.out).unwrap()
    }

    #[test]
    fn lines_are_quiet_labelled_positions_of_varied_games() {
        let dir = scratch("lines");
        let text = run(&settings(&dir, 6));
        let mut starts = std::collections::HashSet::new();
        let mut lines = 0;
        for line in text.lines() {
            let fields: Vec<&str> = line.split(" | ").collect();
            assert_eq!(fields.len(), 3, "{line}");
            let pos = chess::Position::from_notation(fields[0]).unwrap();
            assert!(!pos.in_check(), "{line}");
            assert!(["1", "0.5", "0"].contains(&fields[1]), "{line}");
            let score: Score = fields[2].parse().unwrap();
            assert!(score.abs() < MATE_BOUND, "{line}");
            starts.insert(fields[0].to_string());
            lines += 1;
        }
        assert!(lines > 6 * 10, "{lines} positions from 6 games");
        assert_eq!(starts.len(), lines, "a position repeated across games");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_stopped_run_resumes_to_the_same_file() {
        let whole = scratch("whole");
        let expected = run(&settings(&whole, 12));
        // Stopped after 8 games, with half a batch written past the progress mark.
        let parts = scratch("parts");
        run(&settings(&parts, 8));
        let out = settings(&parts, 12).out;
        let mut file = OpenOptions::new().append(true).open(&out).unwrap();
        file.write_all(b"8/8/8/8/8/8/8/8 w - - 0 1 | 0.5 |")
            .unwrap();
        assert_eq!(run(&settings(&parts, 12)), expected);
        // Going on with other settings would mix two kinds of games in one file.
        let other = Datagen {
            nodes: 301,
            ..settings(&parts, 16)
        };
        let error = other
            .run::<chess::Position, _>(GameKind::Chess, chess::HandEval)
            .unwrap_err();
        assert!(error.to_string().contains("nodes=300"), "{error}");
        assert_eq!(std::fs::read_to_string(&out).unwrap(), expected);
        let _ = std::fs::remove_dir_all(&whole);
        let _ = std::fs::remove_dir_all(&parts);
    }

    #[test]
    fn games_start_from_the_openings_and_only_those_go_on() {
        // Full-move numbers from 101 on: no game from the start position gets there in
        // 60 plies, so every line must come from these openings.
        let dir = scratch("openings");
        let book = dir.join("book.txt");
        std::fs::write(
            &book,
            "# two openings\n\
             rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 101\n\
             \n\
             r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 103 | 0.5 | 12\n",
        )
        .unwrap();
        let from_book = Datagen {
            openings: Some(book.clone()),
            random_plies: 2,
            ..settings(&dir, 4)
        };
        let text = run(&from_book);
        assert!(text.lines().count() > 4 * 10, "{text}");
        for line in text.lines() {
            let fen = line.split(" | ").next().unwrap();
            let moves: u32 = fen.rsplit(' ').next().unwrap().parse().unwrap();
            assert!(moves >= 101, "{line}");
        }
        // Going on from other openings would mix two kinds of games in one file.
        std::fs::write(&book, "4k3/8/8/8/8/8/4P3/4K3 w - - 0 101\n").unwrap();
        let other = Datagen {
            games: 8,
            ..from_book.clone()
        };
        let error = other
            .run::<chess::Position, _>(GameKind::Chess, chess::HandEval)
            .unwrap_err();
        assert!(error.to_string().contains("openings="), "{error}");
        // A line that is no position stops the run, naming the line.
        std::fs::write(&book, "4k3/8/8/8/8/8/4P3/4K3 w - - 0 101\nnonsense\n").unwrap();
        let bad = Datagen {
            out: dir.join("bad.txt"),
            ..from_book
        };
        let error = bad
            .run::<chess::Position, _>(GameKind::Chess, chess::HandEval)
            .unwrap_err();
        assert!(format!("{error:#}").contains("line 2"), "{error:#}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn options_set_the_evaluation_and_belong_to_the_settings() {
        // The built-in network told to stand down plays the hand-written evaluation's games.
        let plain = scratch("plain");
        let expected = run(&settings(&plain, 4));
        let emptied = scratch("emptied");
        let with_option = Datagen {
            options: vec!["EvalFile=<empty>".to_string()],
            ..settings(&emptied, 4)
        };
        with_option
            .clone()
            .run::<chess::Position, _>(GameKind::Chess, chess::NetworkEval::default())
            .unwrap();
        assert_eq!(std::fs::read_to_string(&with_option.out).unwrap(), expected);
        // Going on without the option would mix two evaluations' games in one file.
        let error = settings(&emptied, 8)
            .run::<chess::Position, _>(GameKind::Chess, chess::NetworkEval::default())
            .unwrap_err();
        assert!(error.to_string().contains("EvalFile=<empty>"), "{error}");
        // An option the evaluation does not have stops the run before any game.
        let unknown = scratch("unknown");
        let bad = Datagen {
            options: vec!["Contempt=5".to_string()],
            ..settings(&unknown, 4)
        };
        assert!(
            bad.clone()
                .run::<chess::Position, _>(GameKind::Chess, chess::HandEval)
                .is_err()
        );
        assert!(!bad.out.exists(), "no output before the options are good");
        for dir in [plain, emptied, unknown] {
            let _ = std::fs::remove_dir_all(&dir);
        }
    }
}

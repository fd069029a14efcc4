//! The engine facade for one game: it owns the position, the options, the transposition
//! table and the running job (a search or a perft), and turns protocol-neutral commands
//! into work. Output goes through [`Output`], one whole line at a time, so the search
//! thread and the command loop never interleave.

use super::command::{Command, Query, Start};
use super::dialect::Dialect;
use super::options::{engine_options, game_options};
use super::{Output, Session};
use crate::core::{
    Evaluator, Game, Hidden, MateAnswer, MoveList, OptionSpec, Oracle, Outcome, Told, Verdict,
    quote,
};
use crate::games::GameKind;
use crate::perft;
use crate::search::{
    self, Control, FULL_SKILL, Histories, Lateness, Limits, Report, SearchParams, Skill,
    TimeBudget, TranspositionTable,
};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Instant;

/// Stack for the search thread: deep recursion with on-stack move lists.
const SEARCH_STACK: usize = 64 << 20;

/// A game's engine: position, options, table and the job in flight.
pub struct Engine<G: Game, E: Evaluator<G>> {
    kind: GameKind,
    dialect: &'static dyn Dialect,
    out: Output,
    eval: Arc<E>,
    /// What the game knows exactly (FourSquare's solved table), asked before each search.
    oracle: Option<Box<dyn Oracle<G>>>,
    position: G,
    /// What the player to move knows when `position` is only one world of it (Junqi's
    /// dark game): the search plays on worlds drawn from it.
    hidden: Option<Arc<dyn Hidden<G>>>,
    /// Rule options set so far, re-applied to every new position.
    rules: Vec<(String, String)>,
    hash_mb: usize,
    params: SearchParams,
    /// `Skill Level`: [`FULL_SKILL`] or below.
    skill_level: u8,
    /// `UCI_LimitStrength`: play at `UCI_Elo`, whatever `Skill Level` says.
    limit_strength: bool,
    /// `UCI_Elo`, within the evaluation's [`crate::core::EloScale`].
    elo: i64,
    /// `UCI_ShowWDL`: each `info` line gives the chances of a win, draw and loss.
    show_wdl: bool,
    tt: Arc<TranspositionTable>,
    /// Each search thread's move histories, kept from move to move within a game.
    histories: Arc<Mutex<Vec<Histories<G>>>>,
    control: Arc<Control>,
    /// How late the last answers were, kept back on the next searches.
    lateness: Arc<Lateness>,
    job: Option<JoinHandle<()>>,
    /// Set by the job just before it prints its final answer.
    answered: Arc<AtomicBool>,
}

impl<G: Game, E: Evaluator<G>> Engine<G, E> {
    pub fn new(kind: GameKind, dialect: &'static dyn Dialect, out: Output, eval: E) -> Self {
        let oracle = eval.oracle();
        if let Some(oracle) = &oracle {
            oracle.prepare();
        }
        let elo = eval.elo_scale().map_or(0, |scale| scale.min);
        Engine {
            kind,
            dialect,
            out,
            eval: Arc::new(eval),
            oracle,
            position: G::start_position(),
            hidden: None,
            rules: Vec::new(),
            hash_mb: 16,
            params: SearchParams::default(),
            skill_level: FULL_SKILL,
            limit_strength: false,
            elo,
            show_wdl: false,
            tt: Arc::new(TranspositionTable::new(16)),
            histories: Arc::default(),
            control: Arc::new(Control::default()),
            lateness: Arc::default(),
            job: None,
            answered: Arc::new(AtomicBool::new(false)),
        }
    }

    /// Drops what the search threads learnt about moves (a new game, new rules); no search
    /// is running, so the lock is free.
    fn forget_histories(&self) {
        self.histories
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clear();
    }

    /// Whether a search or perft is still running; reaps one that has answered.
    fn busy(&mut self) -> bool {
        if self.answered.load(Ordering::SeqCst) {
            self.wait();
        }
        self.job.is_some()
    }

    /// Stops the running job and waits for it (it prints its own final line).
    fn stop(&mut self) {
        self.control.stop();
        self.wait();
    }

    fn wait(&mut self) {
        if let Some(job) = self.job.take()
            && job.join().is_err()
        {
            log::error!("the search thread panicked");
        }
    }

    fn set_option(&mut self, name: &str, value: &str) -> Result<(), String> {
        let spec = self
            .option(name)
            .ok_or_else(|| format!("unknown option {}", quote(name)))?;
        let value = spec.validate(value)?;
        let number = || value.parse::<u64>().unwrap_or(0);
        let for_oracle = self
            .oracle
            .as_ref()
            .is_some_and(|o| o.options().iter().any(|o| o.name == spec.name));
        // An evaluation with a new setting is built (a network read) before anything is
        // disturbed.
        let configured = if self.eval.options().iter().any(|o| o.name == spec.name) {
            Some(self.eval.configured(spec.name, &value)?)
        } else {
            None
        };
        let rule_position = match spec.name {
            "Hash" | "Threads" | "MultiPV" | "Move Overhead" | "MoveTimeLimit" | "Clear Hash"
            | "Ponder" | "Worlds" | "UCI_ShowWDL" | "Skill Level" | "UCI_LimitStrength"
            | "UCI_Elo" => None,
            _ if for_oracle || configured.is_some() => None,
            rule => {
                let mut pos = self.position.clone();
                pos.set_rule_option(rule, &value)
                    .map_err(|e| e.to_string())?;
                Some(pos)
            }
        };
        // A table the machine cannot give is refused before anything is disturbed; it is
        // only reserved here, and filled once the running job has stopped.
        let table = match spec.name {
            "Hash" if number() as usize != self.hash_mb => {
                Some(TranspositionTable::try_reserve(number() as usize)?)
            }
            _ => None,
        };
        // Valid: only now may the running search be disturbed.
        self.stop();
        if let Some(eval) = configured {
            self.eval = Arc::new(eval);
            return Ok(());
        }
        match spec.name {
            "Hash" => {
                if let Some(table) = table {
                    // The old table goes first, so the two are never both in memory.
                    self.tt = Arc::new(TranspositionTable::new(1));
                    self.tt = Arc::new(table.build());
                    self.hash_mb = number() as usize;
                }
            }
            "Threads" => self.params.threads = number() as usize,
            "MultiPV" => self.params.multipv = number() as usize,
            "Worlds" => self.params.worlds = number() as usize,
            "Move Overhead" => self.params.time.move_overhead = number(),
            "MoveTimeLimit" => self.params.time.move_time_limit = number(),
            "Clear Hash" => self.tt.clear(),
            "Ponder" => {}
            "Skill Level" => self.skill_level = number() as u8,
            "UCI_LimitStrength" => self.limit_strength = value == "true",
            "UCI_Elo" => self.elo = number() as i64,
            "UCI_ShowWDL" => self.show_wdl = value == "true",
            name if for_oracle => {
                if let Some(oracle) = self.oracle.as_mut() {
                    oracle.set_option(name, &value);
                }
            }
            rule => {
                // What the table and the histories hold was learnt under the old rules.
                self.tt.clear();
                self.forget_histories();
                self.position = rule_position.expect("rule options made a position above");
                self.rules.retain(|(n, _)| n != rule);
                self.rules.push((rule.to_string(), value));
            }
        }
        Ok(())
    }

    fn set_position(&mut self, start: Start, moves: &[String]) -> Result<(), String> {
        let start = match &start {
            Start::StartPos => None,
            Start::Notation(text) => Some(text.as_str()),
        };
        let told = G::from_record(start, moves, &self.rules).map_err(|e| e.to_string())?;
        self.stop();
        self.tell(told);
        Ok(())
    }

    fn tell(&mut self, told: Told<G>) {
        if let (Some(earlier), Some(now)) = (&self.hidden, &told.hidden)
            && let Some(carried) = earlier.handover()
        {
            now.take_over(carried);
        }
        self.position = told.position;
        self.hidden = told.hidden;
    }

    fn go(&mut self, limits: Limits, searchmoves: &[String]) -> Result<(), String> {
        if self.hidden.as_ref().is_some_and(|h| !h.knows_mover()) {
            return Err(format!(
                "go: {} is to move, a player this engine was not given",
                G::player_name(self.position.side_to_move())
            ));
        }
        // Only moves the engine may choose: a recorded ply that is no move (Junqi's `pass`)
        // parses, but is not one of them.
        let mut legal = MoveList::new();
        self.position.legal_moves(&mut legal);
        let searchmoves = searchmoves
            .iter()
            .map(|text| match self.position.parse_move(text) {
                Ok(mv) if legal.iter().any(|&m| m == mv) => Ok(mv),
                Ok(_) => Err(format!(
                    "searchmoves: {} is not a move the engine may choose here",
                    quote(text)
                )),
                Err(e) => Err(format!("searchmoves: {e}")),
            })
            .collect::<Result<Vec<_>, _>>()?;
        let verdict = self
            .oracle
            .as_ref()
            .and_then(|oracle| oracle.probe(&self.position, &searchmoves));
        let searchmoves = match &verdict {
            Some(Verdict::SearchAmong(moves)) => moves.clone(),
            _ => searchmoves,
        };
        self.control
            .reset(limits.ponder, limits.received.unwrap_or_else(Instant::now));
        if let Some(claim) = self.dialect.claim_win()
            && self.position.can_claim_win()
        {
            // The claim ends the game; there is nothing to search, only the protocol's
            // timing to respect (a ponder or infinite search answers after stop).
            let (control, dialect) = (self.control.clone(), self.dialect);
            return self.spawn(move || {
                search::wait_for_stop(&control, &limits);
                vec![dialect.bestmove(Some(claim), None)]
            });
        }
        let (pos, hidden) = (self.position.clone(), self.hidden.clone());
        let eval = match self
            .limit_strength
            .then(|| self.eval.strength_limited())
            .flatten()
        {
            Some(limited) => Arc::new(limited),
            None => self.eval.clone(),
        };
        let (tt, histories, control, lateness) = (
            self.tt.clone(),
            self.histories.clone(),
            self.control.clone(),
            self.lateness.clone(),
        );
        let (out, dialect, mut params) = (self.out.clone(), self.dialect, self.params);
        params.time = lateness.settings(params.time);
        params.skill = Skill::at_level(self.strength_level(), rand::random());
        let show_wdl = self.show_wdl;
        self.spawn(move || {
            let mut report = |r: &Report<G::Move>| {
                let wdl = show_wdl
                    .then(|| eval.win_draw_loss(&pos, r.score))
                    .flatten();
                out.line(&info_line(dialect, &pos, r, wdl))
            };
            let result = match verdict {
                Some(Verdict::Play { score, pv }) => {
                    search::known_line(pv, score, &control, &limits, &mut report)
                }
                _ => match hidden {
                    Some(hidden) => search::search_worlds(
                        &pos,
                        &*hidden,
                        &*eval,
                        &tt,
                        &control,
                        &limits,
                        &params,
                        &searchmoves,
                        &mut report,
                    ),
                    None => search::search(
                        &pos,
                        &*eval,
                        &tt,
                        &mut histories.lock().unwrap_or_else(|e| e.into_inner()),
                        &control,
                        &limits,
                        &params,
                        &searchmoves,
                        &mut report,
                    ),
                },
            };
            // A ponder search's time counts from `ponderhit`, if it came at all.
            if !limits.ponder
                && let Some(hard) = TimeBudget::new(&limits, pos.side_to_move(), params.time).hard
            {
                lateness.record(control.elapsed(), hard);
            }
            let best = result.best.map(|mv| pos.move_name(mv));
            let ponder = result.ponder.map(|mv| pos.move_name(mv));
            vec![dialect.bestmove(best.as_deref(), ponder.as_deref())]
        })
    }

    /// The `Skill Level` to play at: `UCI_Elo`'s when `UCI_LimitStrength` is on (as in
    /// Stockfish, it overrides `Skill Level`), else `Skill Level`.
    fn strength_level(&self) -> f64 {
        match self.eval.elo_scale() {
            Some(scale) if self.limit_strength => {
                (scale.level)(self.elo.clamp(scale.min, scale.max))
            }
            _ => f64::from(self.skill_level),
        }
    }

    /// USI's `go mate`: the game's mate search on the job thread, answered with
    /// `checkmate <moves>`, `checkmate nomate`, `checkmate timeout` or
    /// `checkmate notimplemented`. A timed one is held to `MoveTimeLimit` like any search
    /// and timed, like `go`, from its line being read; only `go mate infinite` runs until
    /// `stop`.
    fn mate(&mut self, time: Option<u64>, received: Option<Instant>) -> Result<(), String> {
        self.control
            .reset(false, received.unwrap_or_else(Instant::now));
        let pos = self.position.clone();
        let control = self.control.clone();
        let limit = time
            .map(|ms| match TimeBudget::cap(self.params.time) {
                Some(cap) => ms.min(cap),
                None => ms,
            })
            .map(std::time::Duration::from_millis);
        self.spawn(move || {
            let stop = || control.is_stopped() || limit.is_some_and(|l| control.elapsed() >= l);
            let answer = match pos.search_mate(&stop) {
                MateAnswer::Mate(line) => {
                    let names: Vec<String> = line.into_iter().map(|mv| pos.move_name(mv)).collect();
                    names.join(" ")
                }
                MateAnswer::NoMate => "nomate".into(),
                MateAnswer::Timeout => "timeout".into(),
                MateAnswer::Unsupported => "notimplemented".into(),
            };
            vec![format!("checkmate {answer}")]
        })
    }

    /// `go perft`: the per-move counts and `Nodes searched`, or, when `stop`, `quit` or a
    /// new position interrupts it, only `info string perft stopped: ...` (never a partial
    /// count that could pass for the real one).
    fn perft(&mut self, depth: u32) -> Result<(), String> {
        self.control.reset(false, Instant::now());
        let pos = self.position.clone();
        let threads = self.params.threads;
        let control = self.control.clone();
        self.spawn(move || {
            let start = Instant::now();
            let counts = match perft::divide_until(&pos, depth, threads, control.stop_flag()) {
                Ok(counts) => counts,
                Err(stopped) => return vec![format!("info string perft stopped: {stopped}")],
            };
            let mut lines: Vec<String> = counts
                .iter()
                .map(|(mv, n)| format!("{}: {n}", pos.move_name(*mv)))
                .collect();
            let total: u64 = if depth == 0 {
                1
            } else {
                counts.iter().map(|(_, n)| n).sum()
            };
            lines.push(String::new());
            lines.push(format!("Nodes searched: {total}"));
            lines.push(String::new());
            let seconds = start.elapsed().as_secs_f64();
            log::info!(
                "perft {depth}: {total} nodes in {seconds:.3} s, {:.0} nodes/s",
                total as f64 / seconds.max(1e-9)
            );
            lines
        })
    }

    /// Runs a job on its own thread. The job's final lines (`bestmove`, `Nodes searched`)
    /// are printed after it is marked answered, so a client that reacts to them at once
    /// never finds the engine busy.
    fn spawn(&mut self, work: impl FnOnce() -> Vec<String> + Send + 'static) -> Result<(), String> {
        let answered = Arc::new(AtomicBool::new(false));
        self.answered = answered.clone();
        let out = self.out.clone();
        let job = std::thread::Builder::new()
            .name("search".into())
            .stack_size(SEARCH_STACK)
            .spawn(move || {
                let lines = work();
                answered.store(true, Ordering::SeqCst);
                out.lines(&lines);
            })
            .map_err(|e| format!("cannot start the search thread: {e}"))?;
        self.job = Some(job);
        Ok(())
    }

    fn answer(&self, query: Query) -> String {
        let result = self.position.result();
        let word = match query {
            Query::GameOver => result.is_some().to_string(),
            Query::P1Turn => (self.position.team_to_move() == 0).to_string(),
            Query::Result => match result {
                None => "none".into(),
                Some(Outcome::Draw) => "draw".into(),
                Some(Outcome::Win(team)) => format!("p{}win", team + 1),
            },
            Query::Turn => G::player_name(self.position.side_to_move()),
        };
        format!("response {word}")
    }
}

/// One `info` line, in the order Stockfish prints its fields, except that a bound follows
/// its score at once (`score cp 20 lowerbound wdl ...`), as the UCI grammar writes it.
/// The line's moves are named by the root position `pos`.
fn info_line<G: Game>(
    dialect: &dyn Dialect,
    pos: &G,
    r: &Report<G::Move>,
    wdl: Option<[u32; 3]>,
) -> String {
    let wdl = wdl.map_or(String::new(), |[w, d, l]| format!(" wdl {w} {d} {l}"));
    let mut line = format!(
        "info depth {} seldepth {} multipv {} score {}{wdl} nodes {} nps {} hashfull {} time {}",
        r.depth,
        r.seldepth,
        r.multipv,
        dialect.score(r.score, r.bound),
        r.nodes,
        r.nps(),
        r.hashfull,
        r.time.as_millis()
    );
    if !r.pv.is_empty() {
        line.push_str(" pv");
        for &mv in &r.pv {
            line.push(' ');
            line.push_str(&pos.move_name(mv));
        }
    }
    if let Some(w) = r.worlds {
        line.push_str(&format!(
            " string worlds {} independent {:.0} winprob {:.3}",
            w.searched, w.independent, w.win_probability
        ));
    }
    line
}

impl<G: Game, E: Evaluator<G>> Session for Engine<G, E> {
    fn kind(&self) -> GameKind {
        self.kind
    }

    fn set_dialect(&mut self, dialect: &'static dyn Dialect) {
        self.dialect = dialect;
    }

    fn options(&self) -> Vec<OptionSpec> {
        let mut options = engine_options();
        options.extend(game_options(&*self.eval, self.oracle.as_deref()));
        options
    }

    fn option(&self, name: &str) -> Option<OptionSpec> {
        let name = self.dialect.option_alias(name).unwrap_or(name);
        self.options()
            .into_iter()
            .find(|spec| spec.name.eq_ignore_ascii_case(name))
    }

    fn handle(&mut self, command: Command) -> Result<(), String> {
        // Commands that change the engine's state end a running job first, once they are
        // known to be valid.
        match command {
            Command::IsReady => {
                if let Some(oracle) = &self.oracle {
                    oracle.wait_ready();
                }
                self.out.line("readyok");
            }
            Command::SetOption { name, value } => self.set_option(&name, &value)?,
            Command::NewGame => {
                self.stop();
                self.tt.clear();
                self.forget_histories();
                let told = G::from_record(None, &[], &self.rules).map_err(|e| e.to_string())?;
                self.tell(told);
            }
            Command::Position { start, moves } => self.set_position(start, &moves)?,
            Command::Go { .. } | Command::Perft { .. } | Command::Mate { .. } if self.busy() => {
                return Err("a search is already running; send stop first".into());
            }
            Command::Go {
                limits,
                searchmoves,
            } => self.go(limits, &searchmoves)?,
            Command::Perft { depth } => self.perft(depth)?,
            Command::Mate { time, received } => self.mate(time, received)?,
            Command::Stop | Command::GameOver | Command::Quit => self.stop(),
            Command::PonderHit => {
                if !(self.busy() && self.control.ponderhit()) {
                    return Err("ponderhit without a ponder search (go ponder); ignored".into());
                }
            }
            Command::Deploy => {
                let seed = rand::random::<u64>();
                let lineup = self.position.deploy(seed).map_err(|e| e.to_string())?;
                self.out.line(&format!("deploy {lineup}"));
            }
            Command::Query(query) => self.out.line(&self.answer(query)),
            Command::Display => {
                let text = match &self.hidden {
                    Some(hidden) => hidden.display(),
                    None => self.position.display(),
                };
                self.out
                    .lines(&text.lines().map(str::to_string).collect::<Vec<_>>());
            }
            // The command loop answers these before any engine would.
            Command::Hello(_) | Command::Help => {}
        }
        Ok(())
    }
}

impl<G: Game, E: Evaluator<G>> Drop for Engine<G, E> {
    fn drop(&mut self) {
        self.stop();
    }
}

//! The contract between the games and everything generic: the search, perft, bench and
//! the protocol loop only ever see a game through [`Game`] and [`Evaluator`].
//!
//! The trait is shaped for four games at once: a *player* is a colour or a seat, and the
//! search maximises for the *team* of the player to move, so a four-seat, two-team game
//! (Junqi) with consecutive plies by one team fits the same negamax as chess.

pub mod keys;
pub mod linear;
mod movelist;
mod options;
mod oracle;
mod score;
pub mod tunable;

pub use movelist::MoveList;
pub use options::{OptionKind, OptionSpec, RuleOption};
pub use oracle::{Oracle, Verdict};
pub use score::{MATE, MATE_BOUND, MAX_PLY, Score, mate_in, mated_in, settle_exchange};

use std::any::Any;
use std::fmt::Debug;
use std::sync::Arc;

/// FNV-1a: a small hash that stays the same from build to build (std's hasher need not),
/// for checksums written to files and read back by later runs.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Shortens and cleans a token for quoting in an error line: it must stay one printable line
/// even when the input was binary junk or 100 kB long.
pub fn quote(token: &str) -> String {
    let clean: String = token
        .chars()
        .map(|c| if c.is_control() { '?' } else { c })
        .take(40)
        .collect();
    if token.chars().count() > 40 {
        format!("'{clean}...'")
    } else {
        format!("'{clean}'")
    }
}

/// How `UCI_Elo` becomes a strength the search plays at: a game whose weakened search
/// has been measured against a reference engine of known Elo (chess: Stockfish's own
/// `UCI_Elo`, `docs/strength.md`) offers the Elo levels in `min..=max`.
#[derive(Clone, Copy, Debug)]
pub struct EloScale {
    /// The lowest Elo measured to be within reach.
    pub min: i64,
    /// The highest.
    pub max: i64,
    /// The `Skill Level` (0 to 20, fractional) that plays at an Elo in `min..=max`.
    pub level: fn(i64) -> f64,
}

/// How a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The given team won.
    Win(usize),
    /// Nobody won.
    Draw,
}

/// What a dedicated mate search (USI's `go mate`) concluded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MateAnswer<M> {
    /// A forced mate: the attacker's and defender's moves, from the attacker's first.
    Mate(Vec<M>),
    /// Proven: no sequence of checks mates.
    NoMate,
    /// Stopped (time or `stop`) before either was proven.
    Timeout,
    /// The game has no mate search.
    Unsupported,
}

/// What the player to move knows when it does not see the whole position (Junqi's dark
/// game). The search cannot play on such a position, only on complete positions drawn
/// from what was observed ("worlds"), which it searches as open games.
pub trait Hidden<G>: Send + Sync {
    /// `count` complete positions consistent with every hard fact observed, each with its
    /// weight (with the sampler's bias corrected; relative, on one scale for every call
    /// on the same `self`), drawn from `seed` (and, in Junqi, from the sampler's chain,
    /// which goes on from call to call: the same calls in the same order repeat the same
    /// worlds). In every world the player to move has exactly the legal moves it has here.
    fn sample(&self, count: usize, seed: u64) -> Vec<(G, f64)>;
    /// Whether the engine was told what the player to move needs to choose a move (Junqi:
    /// its lineup); an engine never moves for a player it cannot see.
    fn knows_mover(&self) -> bool;
    /// The board as the player to move sees it, and what it knows of each hidden piece
    /// (the protocol's `d`).
    fn display(&self) -> String;
    /// What the knowledge of a later position in the same game may go on from (Junqi:
    /// the sampler's chain), so that a belief is not rebuilt from nothing every move.
    fn handover(&self) -> Option<Box<dyn Any + Send>> {
        None
    }
    /// Goes on from what the knowledge of the position told before handed over, where
    /// it still fits everything observed since; otherwise starts afresh.
    fn take_over(&self, _earlier: Box<dyn Any + Send>) {}
}

/// What a `position` command tells the engine: a position and, when the player to move
/// does not see all of it, what that player knows, held beside the position (never inside
/// it, so that positions stay plain values the search copies freely).
pub struct Told<G> {
    /// With hidden ranks, one world of what is known: the public facts and the moves of
    /// the player to move are the same in every world, so the protocol's own uses (legal
    /// moves, queries, perft) may read it; the search plays on worlds from `hidden`.
    pub position: G,
    pub hidden: Option<Arc<dyn Hidden<G>>>,
}

impl<G> Told<G> {
    /// A position seen whole.
    pub fn open(position: G) -> Told<G> {
        Told {
            position,
            hidden: None,
        }
    }
}

/// The rules of one game: positions, moves, notation and the end of the game.
///
/// Positions are mutated in place (`make_move`/`unmake_move`) because the search and perft
/// visit millions of nodes a second; everything a move destroys goes into `Undo`.
pub trait Game: Clone + Send + Sync + 'static {
    /// A move; compared by value, so the same move in the same position is always equal.
    type Move: Copy + Eq + Debug + Send + Sync + 'static;
    /// What `make_move` returns so that `unmake_move` can restore the position exactly.
    type Undo: Copy + Send;

    /// Upper bound (exclusive) of [`Game::move_index`]; sizes the history tables.
    const MOVE_INDEX_SIZE: usize;

    /// Upper bound (exclusive) of [`Game::piece_to`]; 0 where the game keeps no
    /// continuation histories.
    const PIECE_TO_SIZE: usize = 0;

    /// Whether pieces come back into play from a hand (shogi's drops), which puts a
    /// check within reach almost anywhere: then a check is only searched deeper when it
    /// keeps its material in the exchange, since most drop checks simply lose the piece.
    const DROPS: bool = false;

    /// Whether some positions of the game hide ranks from the player (Junqi's dark
    /// modes): then the engine declares the options of the search over worlds.
    const HIDES_INFORMATION: bool = false;

    /// The standard initial position.
    fn start_position() -> Self;
    /// Parses the game's position notation (FEN, SFEN, FSN, ...). Errors name the bad field.
    fn from_notation(text: &str) -> anyhow::Result<Self>;
    /// The position a `position` command describes: `start` in the game's notation (the
    /// initial position when `None`) under the rule options set so far, then the recorded
    /// plies in order; errors name the bad field or ply. Games whose records say more than
    /// the moves (Junqi's referee reports, and lineups it may not see in the dark game)
    /// read them their own way, and say what the player to move cannot see.
    fn from_record(
        start: Option<&str>,
        plies: &[String],
        rules: &[(String, String)],
    ) -> anyhow::Result<Told<Self>> {
        let mut pos = Self::start_with_rules(start, rules)?;
        for (i, text) in plies.iter().enumerate() {
            let mv = pos
                .parse_move(text)
                .map_err(|e| anyhow::anyhow!("move {} ({}): {e}", i + 1, quote(text)))?;
            pos.make_move(mv);
        }
        Ok(Told::open(pos))
    }
    /// Where a `position` command starts: `start` in the game's notation (the initial
    /// position when `None`), with the rule options applied.
    fn start_with_rules(start: Option<&str>, rules: &[(String, String)]) -> anyhow::Result<Self> {
        let mut pos = match start {
            Some(text) => Self::from_notation(text)
                .map_err(|e| anyhow::anyhow!("bad position {}: {e}", quote(text)))?,
            None => Self::start_position(),
        };
        for (name, value) in rules {
            pos.set_rule_option(name, value)?;
        }
        Ok(pos)
    }
    /// Prints the position in the notation [`Game::from_notation`] reads back.
    fn to_notation(&self) -> String;
    /// A board diagram for humans (the protocol's `d` command).
    fn display(&self) -> String;

    /// The player to move: a colour index, or a seat.
    fn side_to_move(&self) -> usize;
    /// The team a player belongs to; two-player games have one player per team.
    fn team_of(&self, player: usize) -> usize {
        player
    }
    /// The player's name in `query turn` answers and diagrams.
    fn player_name(player: usize) -> String {
        format!("p{}", player + 1)
    }
    /// The team of the player to move.
    fn team_to_move(&self) -> usize {
        self.team_of(self.side_to_move())
    }
    /// Zobrist-style key of everything that decides the game's future.
    fn hash(&self) -> u64;

    /// Every legal move; empty when the game is over.
    fn legal_moves(&self, moves: &mut MoveList<Self::Move>);
    /// Plays a legal move.
    fn make_move(&mut self, mv: Self::Move) -> Self::Undo;
    /// Takes back the last move played with [`Game::make_move`].
    fn unmake_move(&mut self, mv: Self::Move, undo: Self::Undo);
    /// The result as the *search* scores the position, checked at every node before
    /// generating moves. It may end a line sooner than the rules end the game: chess
    /// scores a position repeated once as a draw, since a line that repeats once can
    /// repeat forever. A position with no legal move and no outcome here ends by
    /// [`Game::no_move_outcome`].
    fn outcome(&self) -> Option<Outcome>;
    /// How the game ends when the side to move has no legal move.
    fn no_move_outcome(&self) -> Outcome;
    /// The result as the *rules* decide it, which the protocol reports (`query gameover`,
    /// `query result`). By default `outcome`, else no legal move: games whose search
    /// ends lines sooner than the rules (chess) override it.
    fn result(&self) -> Option<Outcome> {
        if let Some(outcome) = self.outcome() {
            return Some(outcome);
        }
        let mut moves = MoveList::new();
        self.legal_moves(&mut moves);
        moves.is_empty().then(|| self.no_move_outcome())
    }

    /// Whether the side to move is in check: checks are extended, and never null-moved.
    fn in_check(&self) -> bool {
        false
    }
    /// Whether `mv` gives check, asked before it is made: the search prunes a quiet move
    /// that does not check without making it. Games whose moves can tell this more
    /// cheaply than by making them (shogi) answer directly.
    fn gives_check(&mut self, mv: Self::Move) -> bool {
        let undo = self.make_move(mv);
        let check = self.in_check();
        self.unmake_move(mv, undo);
        check
    }
    /// Passes the turn for null-move pruning, where the game allows it as a search trick
    /// (chess, shogi: not in check); `None` where it does not.
    fn make_null_move(&mut self) -> Option<Self::Undo> {
        None
    }
    /// Takes back [`Game::make_null_move`].
    fn unmake_null_move(&mut self, _undo: Self::Undo) {}

    /// Whether a move wins material; captures are searched first and in quiescence.
    fn is_capture(&self, mv: Self::Move) -> bool;
    /// A dense index `< MOVE_INDEX_SIZE` for history tables, and (as `u32`) a move's code
    /// in the transposition table. Two different legal moves of one position never share it.
    fn move_index(mv: Self::Move) -> usize;
    /// What `mv` moves (or drops) and where, as a dense index `< PIECE_TO_SIZE`, read
    /// before `mv` is made. Continuation histories score a move by what followed the moves
    /// one and two plies before, and "knight to f3" generalises across positions where
    /// "g1f3" as a bare move index does not. Seen from the mover's side, so that both
    /// sides share one table.
    fn piece_to(&self, _mv: Self::Move) -> usize {
        0
    }
    /// Parses a move in the game's notation and checks it is legal here.
    fn parse_move(&self, text: &str) -> anyhow::Result<Self::Move> {
        let mut moves = MoveList::new();
        self.legal_moves(&mut moves);
        moves
            .iter()
            .copied()
            .find(|&mv| self.move_name(mv) == text)
            .ok_or_else(|| anyhow::anyhow!("illegal move '{text}' in {}", self.to_notation()))
    }
    /// The move in the game's notation, as this position's conventions spell it (chess
    /// castles king-takes-rook under `UCI_Chess960`). Those conventions hold for a whole
    /// game, so a line of moves from this position (a principal variation) is named by
    /// it too: a name may depend on them, never on where pieces stand.
    fn move_name(&self, mv: Self::Move) -> String;

    /// Whether the side to move may end the game now by claiming a win instead of moving
    /// (shogi's entering-king declaration); the protocol then answers with the dialect's
    /// claim, USI's `bestmove win`.
    fn can_claim_win(&self) -> bool {
        false
    }

    /// A move by the side to move that mates at once, where the game finds one cheaply
    /// (shogi: a piece dropped or moved next to the king). Sound, not always complete:
    /// a move returned mates, but a mate may go unreported. The search scores such a node
    /// as won without searching it, and quiescence, which looks at captures alone, then
    /// no longer stands pat in front of a mate.
    fn mate_in_one(&mut self) -> Option<Self::Move> {
        None
    }

    /// Searches for a forced mate by the side to move in which every one of its moves
    /// gives check (a tsume), polling `stop` now and then.
    fn search_mate(&self, _stop: &dyn Fn() -> bool) -> MateAnswer<Self::Move> {
        MateAnswer::Unsupported
    }

    /// A starting lineup for the player to move, in the game's notation, for games where
    /// players deploy their own pieces (Junqi's `go deploy`). `seed` varies the lineup.
    fn deploy(&self, _seed: u64) -> anyhow::Result<String> {
        anyhow::bail!("this game has no deployment")
    }

    /// Options that change the rules (e.g. FourSquare's `MaxPlies`), as data: each game
    /// lists them, and declaring, finding and checking one is written once, below.
    const RULE_OPTIONS: &'static [RuleOption<Self>] = &[];

    /// The rule options as the protocol declares them.
    fn rule_options() -> Vec<OptionSpec> {
        Self::RULE_OPTIONS
            .iter()
            .map(|option| option.spec.clone())
            .collect()
    }
    /// Applies a rule option to this position (its name in any case, its value checked
    /// against its declaration). `Ok(false)` means the name is not a rule option of this
    /// game.
    fn set_rule_option(&mut self, name: &str, value: &str) -> anyhow::Result<bool> {
        let Some(option) = Self::RULE_OPTIONS
            .iter()
            .find(|option| option.spec.name.eq_ignore_ascii_case(name))
        else {
            return Ok(false);
        };
        let checked = option.spec.validate(value).map_err(anyhow::Error::msg)?;
        (option.apply)(self, &checked)?;
        Ok(true)
    }
}

/// Static judgement of positions, kept apart from the rules: which moves are noisy enough
/// for quiescence is a search decision, not a rule.
///
/// One evaluator serves every search thread. What an evaluation keeps from node to node
/// (an efficiently updatable network's accumulators) is a [`Evaluator::State`] that each
/// thread owns, told of every move made and taken back, so that an evaluation need not
/// start from the whole board, and the rules code knows nothing of it.
pub trait Evaluator<G: Game>: Send + Sync + 'static {
    /// What one search thread keeps for the evaluation; `()` for an evaluation that reads
    /// the board alone.
    type State: Send;
    /// The state of a search from `root`.
    fn new_state(&self, root: &G) -> Self::State;
    /// `mv` is about to be made in `pos`, or (`None`) a null move has just been made.
    #[inline]
    fn make(&self, _state: &mut Self::State, _pos: &G, _mv: Option<G::Move>) {}
    /// The last move made is being taken back.
    #[inline]
    fn unmake(&self, _state: &mut Self::State) {}
    /// Centipawn-like score from the view of the team to move.
    fn evaluate(&self, pos: &G) -> Score;
    /// [`Evaluator::evaluate`] with the thread's state, whose moves led from the root to
    /// `pos`: what the search calls.
    #[inline]
    fn evaluate_with(&self, pos: &G, _state: &mut Self::State) -> Score {
        self.evaluate(pos)
    }
    /// The moves quiescence search looks at; by default the captures.
    fn noisy_moves(&self, pos: &G, moves: &mut MoveList<G::Move>) {
        pos.legal_moves(moves);
        moves.retain(|&mv| pos.is_capture(mv));
    }
    /// What the move wins or loses once both sides have exchanged on its target square
    /// (static exchange evaluation), where the game has such a count; a quiet move to a
    /// square the opponent holds loses the piece. The search skips moves at shallow depth
    /// that give away more than the remaining depth could win back.
    fn exchange(&self, _pos: &G, _mv: G::Move) -> Option<Score> {
        None
    }
    /// Whether quiescence should look at this capture at all: by default, whether the
    /// exchange on its square does not lose material.
    fn good_capture(&self, pos: &G, mv: G::Move) -> bool {
        self.exchange(pos, mv).is_none_or(|value| value >= 0)
    }
    /// How far below beta (reverse futility) or above alpha (futility) a static evaluation
    /// may be at `depth` before the node or quiet move is pruned; `None` turns both prunings
    /// off, for games whose evaluation says too little about the next few plies.
    fn futility_margin(&self, _depth: i32) -> Option<Score> {
        None
    }
    /// Orders captures among themselves (e.g. most valuable victim first); higher first.
    fn capture_order(&self, _pos: &G, _mv: G::Move) -> Score {
        0
    }
    /// Exact knowledge the engine consults at the root before searching (FourSquare: the
    /// solved game); a fresh one per engine, since each has its own options.
    fn oracle(&self) -> Option<Box<dyn Oracle<G>>> {
        None
    }
    /// The chances of a win, a draw and a loss, per mille, for the side to move in `pos`
    /// when the search says `score`, by a model fitted to the engine's games; `None` for
    /// an evaluation without one, for which the engine offers no `UCI_ShowWDL`.
    fn win_draw_loss(&self, _pos: &G, _score: Score) -> Option<[u32; 3]> {
        None
    }
    /// How `UCI_Elo` maps to a `Skill Level` with this evaluation; `None` where the
    /// weakened search was never measured against a reference of known Elo, for which
    /// the engine offers no `UCI_LimitStrength` and `UCI_Elo`.
    fn elo_scale(&self) -> Option<EloScale> {
        None
    }
    /// The evaluation a search under `UCI_LimitStrength` plays with, when it is not this
    /// one: the one [`Evaluator::elo_scale`] was measured with, so that an Elo asked for
    /// is the Elo played whatever else is loaded (chess: the hand-written evaluation,
    /// whatever network `EvalFile` names).
    fn strength_limited(&self) -> Option<Self>
    where
        Self: Sized,
    {
        None
    }
    /// Options of the evaluation itself (chess: `EvalFile`).
    fn options(&self) -> Vec<OptionSpec> {
        Vec::new()
    }
    /// This evaluation with its option `name` (one of [`Evaluator::options`]) set to
    /// `value`, or why it cannot be (a network file that does not read): built before the
    /// engine disturbs anything, so a refusal changes nothing.
    fn configured(&self, name: &str, _value: &str) -> Result<Self, String>
    where
        Self: Sized,
    {
        Err(format!("the evaluation has no option {}", quote(name)))
    }
}

//! Siguo Junqi (四国军棋): four seats, two teams (S+N against E+W), open game.
//!
//! The rules, board and notation the code follows are in `docs/rules/junqi.md`; the board
//! is a centre-origin 17x17 frame (§2 there). The dark game's inference and search are
//! described in `docs/design/junqi-dark.md`.
//!
//! - `board`: station numbering, kinds, rail adjacency, ride rays, step adjacency.
//! - `position`: pieces, move generation, combat, eliminations, make/unmake, hash.
//! - `notation`: `setup ...` lineups with [`SetupError`], the full form, the diagram.
//! - `eval`: [`Eval`], the static evaluation the search uses, linear in the weights of
//!   `weights` (fitted by `qiyi tune`).
//! - `nnue`: the inputs of a network (`EvalFile`, [`NetworkEval`]), trained by `qiyi
//!   train` in place of the hand-written evaluation.
//! - `deploy`: [`deploy`], random but sensible lineups (布阵) for `go deploy`.
//! - `record`: the referee's annotated plies ([`Entry`]) and how an open position writes them.
//! - `dark`: the dark game's information state, exact rank inference and a sampler of
//!   consistent worlds ([`dark::InfoState`]).
//!
//! ```
//! use qiyi::core::Game;
//! use qiyi::games::junqi::Position;
//!
//! let mut pos = Position::start_position();
//! let mv = pos.parse_move("k6k7").unwrap(); // S's major general rides to the centre
//! pos.make_move(mv);
//! assert_eq!(Position::player_name(pos.side_to_move()), "E");
//! let again = Position::from_notation(&pos.to_notation()).unwrap();
//! assert_eq!(again.hash(), pos.hash());
//! ```

pub mod board;
pub mod dark;
mod deploy;
mod eval;
mod nnue;
mod notation;
mod position;
mod record;
mod turn;
mod weights;

pub use deploy::deploy;
pub use eval::Eval;
pub use nnue::NetworkEval;
pub use notation::{DEFAULT_LINEUP, SetupError, parse_lineup};
pub use position::{EMPTY, FLAG, Move, Position, Undo, rank_of, seat_of};
pub use record::{Clash, Entry, Ply, Report};
pub use turn::Rules;

use crate::core::{Game, MoveList, OptionKind, OptionSpec, Outcome, RuleOption, Told, quote};
use std::sync::Arc;

/// Rule option: plies without a piece leaving the board before a draw (0 = off).
const DRAW_PLIES: &str = "NoCombatDrawPlies";
/// Rule option: the pass or timeout that eliminates its seat (0 = never).
const MAX_PASSES: &str = "MaxPasses";
/// Option: what the engine is told (`docs/rules/junqi.md` §11).
const INFO: &str = "Info";
/// The values of [`INFO`].
const INFO_MODES: [&str; 3] = ["open", "double-open", "dark"];

impl Position {
    /// A `setup` under `Info double-open` or `dark`: `-` for the seats the engine may not
    /// see, every ply annotated: one world of what is known, and the knowledge beside it
    /// for the search.
    fn from_dark_record(
        setup: &str,
        plies: &[String],
        rules: &[(String, String)],
        info: dark::Info,
    ) -> anyhow::Result<Told<Self>> {
        let mut options = Position::empty();
        for (name, value) in rules {
            options.set_rule_option(name, value)?;
        }
        let state = dark::InfoState::parse(setup, &plies.join(" "), options.rules, info)?;
        if !(0..4).any(|seat| state.is_known(seat)) {
            anyhow::bail!(
                "Info {info}: the setup gives no lineup for the engine to play; give its own \
                 seat's (in double-open, its partner's too)"
            );
        }
        // Soft evidence weighs the worlds: deployment habits and pieces that sat still
        // scored 96.2% against the greedy player in dark seat mode, 91.9% without, on
        // the same 80 games' lineups; mines beside the flag then 61.4% head to head over
        // 220 games (lab/benchmarks.md).
        let knowledge = dark::Knowledge::new(state, &dark::Evidence::default());
        Ok(Told {
            position: knowledge.representative(),
            hidden: Some(Arc::new(knowledge)),
        })
    }
}

impl Game for Position {
    type Move = Move;
    type Undo = Undo;

    /// `from * 129 + to` for moves, then pass, timeout, resign.
    const MOVE_INDEX_SIZE: usize = board::STATIONS * board::STATIONS + 3;

    const HIDES_INFORMATION: bool = true;

    fn start_position() -> Self {
        let lineup =
            format!("S:{DEFAULT_LINEUP} E:{DEFAULT_LINEUP} N:{DEFAULT_LINEUP} W:{DEFAULT_LINEUP}");
        notation::parse_setup(&format!("setup {lineup}")).expect("the default lineup is valid")
    }

    /// `startpos`, `setup ...` or the full form (see `notation`).
    fn from_notation(text: &str) -> anyhow::Result<Self> {
        let text = text.trim();
        if text == "startpos" {
            return Ok(Self::start_position());
        }
        if text.split_whitespace().next() == Some("setup") {
            return Ok(notation::parse_setup(text)?);
        }
        notation::parse_full(text)
    }

    /// A `position` command under the `Info` option. In the open game every lineup is
    /// given; plies may carry the referee's reports, which must be what the position
    /// computes, and `out:<seat>` tokens, which repeat an elimination or announce a
    /// referee's forfeit.
    fn from_record(
        start: Option<&str>,
        plies: &[String],
        rules: &[(String, String)],
    ) -> anyhow::Result<Told<Self>> {
        let info: dark::Info = rules
            .iter()
            .find(|(name, _)| name.eq_ignore_ascii_case(INFO))
            .map_or(Ok(dark::Info::Open), |(_, value)| value.parse())
            .map_err(anyhow::Error::msg)?;
        // A position that gives every rank (`startpos`, the full form, a setup without a
        // `-` seat) is an open one, whatever the engine may see.
        let hides = |text: &&str| {
            text.split_whitespace().next() == Some("setup")
                && text.split_whitespace().any(|token| token.ends_with(":-"))
        };
        if let Some(setup) = start.filter(hides)
            && info != dark::Info::Open
        {
            return Self::from_dark_record(setup, plies, rules, info);
        }
        let mut pos = Self::start_with_rules(start, rules)?;
        for (i, text) in plies.iter().enumerate() {
            let bad = |e: anyhow::Error| anyhow::anyhow!("move {} ({}): {e}", i + 1, quote(text));
            match Entry::parse(text).map_err(bad)? {
                // As in the dark game's record: nothing happens after the end.
                Entry::Out(seat) if !pos.is_out(seat) && pos.rule_outcome().is_some() => {
                    return Err(bad(anyhow::anyhow!("the game is over")));
                }
                Entry::Out(seat) => pos.forfeit(seat),
                Entry::Ply(Ply { mv, report }) => {
                    let mv = pos.parse_move(&mv.to_string()).map_err(bad)?;
                    if let Some(report) = report {
                        let expected = pos.record(mv);
                        if expected.first()
                            != Some(&Entry::Ply(Ply {
                                mv,
                                report: Some(report),
                            }))
                        {
                            return Err(bad(anyhow::anyhow!(
                                "the report does not match the position, which gives {}",
                                expected[0]
                            )));
                        }
                    }
                    pos.play(mv);
                }
            }
        }
        Ok(Told::open(pos))
    }

    fn to_notation(&self) -> String {
        notation::full(self)
    }

    /// The board and the position in the full form (the dark game's is
    /// [`dark::Knowledge`]'s).
    fn display(&self) -> String {
        format!(
            "{}position: {}\n",
            notation::diagram(self, &|_| true),
            notation::full(self)
        )
    }

    fn side_to_move(&self) -> usize {
        usize::from(self.side)
    }

    fn team_of(&self, player: usize) -> usize {
        position::team(player)
    }

    fn player_name(player: usize) -> String {
        board::SEAT_NAMES
            .get(player)
            .map_or_else(|| format!("p{}", player + 1), |c| c.to_string())
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    #[inline]
    fn legal_moves(&self, moves: &mut MoveList<Move>) {
        self.generate_moves(moves);
    }

    #[inline]
    fn make_move(&mut self, mv: Move) -> Undo {
        self.play(mv)
    }

    #[inline]
    fn unmake_move(&mut self, mv: Move, undo: Undo) {
        self.take_back(mv, undo);
    }

    fn outcome(&self) -> Option<Outcome> {
        self.rule_outcome()
    }

    /// Unreachable in practice: a seat without a move is eliminated before its turn. Should
    /// it happen, the other team wins.
    fn no_move_outcome(&self) -> Outcome {
        Outcome::Win(1 - self.team_to_move())
    }

    #[inline]
    fn is_capture(&self, mv: Move) -> bool {
        self.is_attack(mv)
    }

    #[inline]
    fn move_index(mv: Move) -> usize {
        if mv.is_special() {
            board::STATIONS * board::STATIONS + usize::from(mv.to)
        } else {
            usize::from(mv.from) * board::STATIONS + usize::from(mv.to)
        }
    }

    /// Accepts `pass`, `timeout` and `resign` (never generated) besides `<from><to>`.
    fn parse_move(&self, text: &str) -> anyhow::Result<Move> {
        let special = match text {
            "pass" => Some(Move::PASS),
            "timeout" => Some(Move::TIMEOUT),
            "resign" => Some(Move::RESIGN),
            _ => None,
        };
        if let Some(mv) = special {
            if self.rule_outcome().is_some() {
                anyhow::bail!("'{text}' after the end of the game");
            }
            return Ok(mv);
        }
        let Some(mv) = record::parse_squares(text) else {
            anyhow::bail!(
                "malformed move '{text}': expected two stations like i6i7, or pass, timeout, resign"
            );
        };
        let mut moves = MoveList::new();
        self.generate_moves(&mut moves);
        if moves.iter().any(|&m| m == mv) {
            Ok(mv)
        } else {
            anyhow::bail!("illegal move '{text}' in {}", self.to_notation())
        }
    }

    fn move_name(&self, mv: Move) -> String {
        mv.to_string()
    }

    /// `go deploy`: a fresh randomised lineup (every seat uses the same slot order).
    fn deploy(&self, seed: u64) -> anyhow::Result<String> {
        use rand::SeedableRng;
        Ok(deploy(&mut rand::rngs::StdRng::seed_from_u64(seed)))
    }

    const RULE_OPTIONS: &'static [RuleOption<Self>] = &[
        RuleOption {
            spec: OptionSpec {
                name: INFO,
                kind: OptionKind::Combo {
                    default: INFO_MODES[0],
                    vars: &INFO_MODES,
                },
            },
            // Read by `from_record`: it decides how positions are given, not how one plays.
            apply: |_, _| Ok(()),
        },
        RuleOption {
            spec: OptionSpec {
                name: DRAW_PLIES,
                kind: OptionKind::Spin {
                    default: turn::DEFAULT_DRAW_PLIES as i64,
                    min: 0,
                    max: u16::MAX as i64,
                },
            },
            apply: |pos, value| {
                pos.rules.draw_plies = value.parse()?;
                Ok(())
            },
        },
        RuleOption {
            spec: OptionSpec {
                name: MAX_PASSES,
                kind: OptionKind::Spin {
                    default: turn::DEFAULT_MAX_PASSES as i64,
                    min: 0,
                    max: u8::MAX as i64,
                },
            },
            apply: |pos, value| {
                pos.rules.max_passes = value.parse()?;
                Ok(())
            },
        },
    ];
}

#[cfg(test)]
mod tests;

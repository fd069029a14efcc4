//! The options the protocol declares: those every game shares (`Hash`, `Threads`,
//! `Skill Level`, ...), those a game brings (its rules', its evaluation's and its
//! oracle's, and the switches its evaluation makes possible) and `Game` itself. The
//! command loop lists them before any engine exists, so that a `setoption` may come
//! before the game is chosen; an engine lists them to check a `setoption` it is sent.

use crate::core::{Evaluator, Game, OptionKind, OptionSpec, Oracle};
use crate::games::{GameKind, WithGame};
use crate::search::FULL_SKILL;
use once_cell::sync::Lazy;

/// The options every game shares.
pub(super) fn engine_options() -> Vec<OptionSpec> {
    let spin = |name, default, min, max| OptionSpec {
        name,
        kind: OptionKind::Spin { default, min, max },
    };
    vec![
        spin("Hash", 16, 1, 65536),
        spin("Threads", 1, 1, 512),
        spin("MultiPV", 1, 1, 500),
        OptionSpec {
            name: "Ponder",
            kind: OptionKind::Check { default: false },
        },
        spin("Move Overhead", 30, 0, 5000),
        spin("MoveTimeLimit", 60_000, 1, 3_600_000),
        spin(
            "Skill Level",
            i64::from(FULL_SKILL),
            0,
            i64::from(FULL_SKILL),
        ),
        OptionSpec {
            name: "Clear Hash",
            kind: OptionKind::Button,
        },
    ]
}

/// The options a game declares besides the shared ones: the search over worlds' when it
/// may hide information, `UCI_ShowWDL` when its evaluation has a model of results,
/// `UCI_LimitStrength` and `UCI_Elo` when its strength is calibrated in Elo, its rule
/// options, its evaluation's and its oracle's.
pub(super) fn game_options<G: Game, E: Evaluator<G>>(
    eval: &E,
    oracle: Option<&dyn Oracle<G>>,
) -> Vec<OptionSpec> {
    let worlds = G::HIDES_INFORMATION.then_some(OptionSpec {
        name: "Worlds",
        kind: OptionKind::Spin {
            default: 0,
            min: 0,
            max: 1_000_000,
        },
    });
    let wdl = eval
        .win_draw_loss(&G::start_position(), 0)
        .map(|_| OptionSpec {
            name: "UCI_ShowWDL",
            kind: OptionKind::Check { default: false },
        });
    let elo = eval.elo_scale().into_iter().flat_map(|scale| {
        [
            OptionSpec {
                name: "UCI_LimitStrength",
                kind: OptionKind::Check { default: false },
            },
            OptionSpec {
                name: "UCI_Elo",
                kind: OptionKind::Spin {
                    default: scale.min,
                    min: scale.min,
                    max: scale.max,
                },
            },
        ]
    });
    worlds
        .into_iter()
        .chain(wdl)
        .chain(elo)
        .chain(G::rule_options())
        .chain(eval.options())
        .chain(oracle.iter().flat_map(|o| o.options()))
        .collect()
}

/// The options `kind` declares besides the engine's: those that change its rules
/// (Junqi's `NoCombatDrawPlies`), its evaluation's (chess's `EvalFile`) and its oracle's
/// (FourSquare's `Tablebase`), known without an engine for it, so they can be accepted
/// before the game is chosen.
pub(super) fn own_options(kind: GameKind) -> Vec<OptionSpec> {
    struct OwnOptions;
    impl WithGame for OwnOptions {
        type Output = Vec<OptionSpec>;
        fn run<G: Game, E: Evaluator<G>>(self, _kind: GameKind, eval: E) -> Self::Output {
            game_options(&eval, eval.oracle().as_deref())
        }
    }
    kind.dispatch(OwnOptions).unwrap_or_default()
}

/// The `Game` option as the protocol declares it, with `kind` as the current value.
pub(super) fn game_option(kind: GameKind) -> OptionSpec {
    static VARS: Lazy<Vec<&'static str>> =
        Lazy::new(|| GameKind::ALL.into_iter().map(GameKind::name).collect());
    OptionSpec {
        name: "Game",
        kind: OptionKind::Combo {
            default: kind.name(),
            vars: VARS.as_slice(),
        },
    }
}

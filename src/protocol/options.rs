//! The engine's options, declared once in [`OPTIONS`]: name, type, default,
//! bounds or values, help, and what each sets. The `ugi` reply, `setoption`
//! parsing and validation, the command line's flags and protocol.md's
//! option table all come from this table.

use super::format::InfoStyle;
use crate::games::GameConfig;
use crate::registry;
use crate::search::SearchSettings;
use crate::search::searcher;
use crate::session::Engine;

/// Everything the options control.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Options {
    pub game: GameConfig,
    pub engine: Engine,
    pub search: SearchSettings,
    pub style: InfoStyle,
}

/// An option's type, with its default and limits.
#[derive(Clone, Copy, Debug)]
pub enum Kind {
    Spin {
        default: i64,
        min: i64,
        max: i64,
    },
    Combo {
        default: &'static str,
        values: fn() -> Vec<&'static str>,
    },
    Check {
        default: bool,
    },
    Text {
        default: &'static str,
    },
}

/// A value that passed its option's validation.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Int(i64),
    /// A combo value in its canonical spelling, or a text.
    Text(String),
    Bool(bool),
}

impl Value {
    fn int(&self) -> i64 {
        match self {
            Value::Int(v) => *v,
            _ => 0,
        }
    }

    fn flag(&self) -> bool {
        matches!(self, Value::Bool(true))
    }

    fn text(&self) -> &str {
        match self {
            Value::Text(t) => t,
            _ => "",
        }
    }
}

/// What a successful `setoption` changed.
#[derive(Debug, PartialEq, Eq, Clone, Copy)]
pub enum Effect {
    /// The game: a new session at the next `isready`, `position`,
    /// `uginewgame` or `go`.
    Game,
    /// The searcher or its memory: prepared again before the next search.
    Engine,
    /// Search settings, read by the next `go`.
    Search,
    /// The learned weights: loaded at the next `isready`, `position`,
    /// `uginewgame` or `go`.
    Weights,
}

pub struct OptionSpec {
    pub name: &'static str,
    pub kind: Kind,
    pub help: &'static str,
    apply: fn(&mut Options, &Value),
}

pub const MAX_HASH_MB: i64 = 65_536;
pub const MAX_THREADS: i64 = 64;

/// Tuning values of 0 keep the game's own setting.
fn tuning(value: &Value) -> Option<i64> {
    Some(value.int()).filter(|&v| v > 0)
}

/// For tunings where 0 is a setting of its own, -1 keeps the game's.
fn tuning_from_zero(value: &Value) -> Option<i64> {
    Some(value.int()).filter(|&v| v >= 0)
}

fn variants() -> Vec<&'static str> {
    registry::all_variants()
}

pub const OPTIONS: &[OptionSpec] = &[
    OptionSpec {
        name: "Game",
        kind: Kind::Combo {
            default: crate::games::DEFAULT_GAME,
            values: registry::names,
        },
        help: "the game to play",
        apply: |o, v| o.game.game = v.text().to_string(),
    },
    OptionSpec {
        name: "Size",
        kind: Kind::Spin {
            default: 0,
            min: 0,
            max: 16,
        },
        help: "board size (0: the game's default)",
        apply: |o, v| o.game.size = v.int() as usize,
    },
    OptionSpec {
        name: "Variant",
        kind: Kind::Combo {
            default: "standard",
            values: variants,
        },
        help: "rules variant (each game lists its own)",
        apply: |o, v| o.game.variant = v.text().to_string(),
    },
    OptionSpec {
        name: "Stones",
        kind: Kind::Spin {
            default: 0,
            min: 0,
            max: 20,
        },
        help: "stones per player in Atoms (0: the default)",
        apply: |o, v| o.game.stones = v.int() as usize,
    },
    OptionSpec {
        name: "Hash",
        kind: Kind::Spin {
            default: 64,
            min: 1,
            max: MAX_HASH_MB,
        },
        help: "search memory in MiB (tree or table; allocated before readyok)",
        apply: |o, v| o.engine.hash_mb = v.int() as usize,
    },
    OptionSpec {
        name: "Proofs",
        kind: Kind::Check { default: true },
        help: "prove the position before a timed search (a share of the move's time; an eighth of Hash, from 8 MiB)",
        apply: |o, v| o.engine.proofs = v.flag(),
    },
    OptionSpec {
        name: "Swindles",
        kind: Kind::Check { default: true },
        help: "in a position proven lost, play the move that leaves the opponent the fewest winning replies (needs Proofs)",
        apply: |o, v| o.search.swindles = v.flag(),
    },
    OptionSpec {
        name: "SwindleModel",
        kind: Kind::Check { default: true },
        help: "in a swindle, first a move whose winning replies a short plain Monte Carlo search (uct-plain's) passes over (needs Swindles)",
        apply: |o, v| o.search.swindle_model = v.flag(),
    },
    OptionSpec {
        name: "LongShots",
        kind: Kind::Check { default: false },
        help: "on a clock, before a proof settles the position and unless the search thinks it wins: of the moves it thinks about as good as its best, one whose reply the swindles' model expects is proven to lose (Hadron; needs Proofs)",
        apply: |o, v| o.search.long_shots = v.flag(),
    },
    OptionSpec {
        name: "Threads",
        kind: Kind::Spin {
            default: 1,
            min: 1,
            max: MAX_THREADS,
        },
        help: "search threads",
        apply: |o, v| o.search.threads = v.int() as usize,
    },
    OptionSpec {
        name: "Seed",
        kind: Kind::Spin {
            default: 0,
            min: 0,
            max: i64::MAX,
        },
        help: "seed of the searchers' random numbers",
        apply: |o, v| o.search.seed = v.int() as u64,
    },
    OptionSpec {
        name: "Search",
        kind: Kind::Combo {
            default: "auto",
            values: searcher::names,
        },
        help: "the searcher (see the searcher table)",
        apply: |o, v| {
            o.engine.searcher = searcher::canonical(v.text()).unwrap_or(searcher::AUTO.name)
        },
    },
    OptionSpec {
        name: "Weights",
        kind: Kind::Text { default: "" },
        help: "learned weights: empty for the built-in ones, none for none, or a weight file",
        apply: |o, v| o.engine.weights = v.text().to_string(),
    },
    OptionSpec {
        name: "MoveOverhead",
        kind: Kind::Spin {
            default: 20,
            min: 0,
            max: 5_000,
        },
        help: "milliseconds kept back from every clock for I/O lag",
        apply: |o, v| o.search.move_overhead_ms = v.int() as u64,
    },
    OptionSpec {
        name: "MultiPV",
        kind: Kind::Spin {
            default: 1,
            min: 1,
            max: 256,
        },
        help: "root moves reported with their own info line (multipv k), best first",
        apply: |o, v| o.search.multipv = v.int() as usize,
    },
    OptionSpec {
        name: "ShowWDL",
        kind: Kind::Check { default: false },
        help: "add 'wdl <win> <draw> <loss>' (permille) to info lines",
        apply: |o, v| o.style.wdl = v.flag(),
    },
    OptionSpec {
        name: "MoveStats",
        kind: Kind::Check { default: false },
        help: "MCTS: one 'info string movestats' line per root move before bestmove",
        apply: |o, v| o.search.move_stats = v.flag(),
    },
    OptionSpec {
        name: "Exploration",
        kind: Kind::Spin {
            default: 0,
            min: 0,
            max: 1_000,
        },
        help: "MCTS exploration constant in hundredths (0: the game's own)",
        apply: |o, v| o.search.tuning.exploration = tuning(v).map(|h| h as f32 / 100.0),
    },
    OptionSpec {
        name: "ExpandAfter",
        kind: Kind::Spin {
            default: 0,
            min: 0,
            max: 1_000,
        },
        help: "MCTS visits before a leaf expands (0: the game's own)",
        apply: |o, v| o.search.tuning.expand_after = tuning(v).map(|n| n as u32),
    },
    OptionSpec {
        name: "WidenAbove",
        kind: Kind::Spin {
            default: 0,
            min: 0,
            max: 10_000,
        },
        help: "MCTS nodes with more moves than this open them best first, a few more with each visit (0: the game's own)",
        apply: |o, v| o.search.tuning.widen_above = tuning(v).map(|n| n as u32),
    },
    OptionSpec {
        name: "FirstPlayUrgency",
        kind: Kind::Spin {
            default: -1,
            min: -1,
            max: 1_000,
        },
        help: "MCTS (UCT) score of an unvisited child in hundredths; 0: every unvisited child before any second visit (-1: the game's own)",
        apply: |o, v| {
            o.search.tuning.first_play_urgency = tuning_from_zero(v).map(|u| u as f32 / 100.0)
        },
    },
    OptionSpec {
        name: "PlayoutCutoff",
        kind: Kind::Spin {
            default: 0,
            min: 0,
            max: 1_000,
        },
        help: "MCTS playout plies before the evaluation scores it, whatever the time (0: the game's own, which can be fewer in timed searches meant to be short, e.g. Tritium 5's 14 instead of 20 at 200 ms or less)",
        apply: |o, v| o.search.tuning.playout_cutoff = tuning(v).map(|n| n as u32),
    },
    OptionSpec {
        name: "PlayoutOracle",
        kind: Kind::Spin {
            default: -1,
            min: -1,
            max: 1_000,
        },
        help: "MCTS playouts ask the game's exact oracle (Hadron: sums of small regions; needs Proofs) every this many plies and end where it decides (0: never; -1: the game's own)",
        apply: |o, v| o.search.tuning.playout_oracle = tuning_from_zero(v).map(|n| n as u32),
    },
    OptionSpec {
        name: "EvalScale",
        kind: Kind::Spin {
            default: 0,
            min: 0,
            max: 100_000,
        },
        help: "evaluation meaning a 73% win chance in cut playouts (0: the game's own)",
        apply: |o, v| o.search.tuning.eval_scale = tuning(v).map(|n| n as f32),
    },
    OptionSpec {
        name: "ValueWeight",
        kind: Kind::Spin {
            default: -1,
            min: -1,
            max: 100,
        },
        help: "MCTS weight of the learned value at leaves in percent, the rest playouts (-1: the game's own)",
        apply: |o, v| o.search.tuning.value_weight = tuning_from_zero(v).map(|w| w as f32 / 100.0),
    },
    OptionSpec {
        name: "PriorTemperature",
        kind: Kind::Spin {
            default: 0,
            min: 0,
            max: 1_000,
        },
        help: "MCTS (PUCT) temperature of the learned priors in hundredths: below 100 the policy's favourites get more of the search (0: the game's own)",
        apply: |o, v| o.search.tuning.prior_temperature = tuning(v).map(|t| t as f32 / 100.0),
    },
    switch(
        "Priors",
        "MCTS selects by PUCT over the learned priors; off: UCT without them (auto: as the game's profile says)",
        |o, v| o.search.tuning.priors = on_off(v.text()),
    ),
    switch(
        "CutoffValue",
        "MCTS scores cut-off playouts by the learned value instead of the game's evaluation (auto: as the game's profile says)",
        |o, v| o.search.tuning.value_at_cutoff = on_off(v.text()),
    ),
    switch(
        "LearnedEval",
        "alpha-beta scores leaves by the learned value (auto: as the game's profile says)",
        |o, v| o.search.tuning.learned_eval = on_off(v.text()),
    ),
    switch(
        "Reductions",
        "alpha-beta searches late moves first at a reduced depth (auto: as the game's profile says)",
        |o, v| o.search.tuning.reductions = on_off(v.text()),
    ),
    OptionSpec {
        name: "Contempt",
        kind: Kind::Spin {
            default: -1,
            min: -1,
            max: 1000,
        },
        help: "alpha-beta scores a draw this many centipawns below level for the side to move at the root, so it plays on rather than repeat (-1: the game's own)",
        apply: |o, v| o.search.tuning.contempt = tuning_from_zero(v).map(|c| c as i32),
    },
];

/// An auto/on/off combo over a setting of the game's profile.
const fn switch(
    name: &'static str,
    help: &'static str,
    apply: fn(&mut Options, &Value),
) -> OptionSpec {
    OptionSpec {
        name,
        kind: Kind::Combo {
            default: "auto",
            values: || vec!["auto", "on", "off"],
        },
        help,
        apply,
    }
}

/// An auto/on/off combo's value: `None` for auto (the game's own).
fn on_off(text: &str) -> Option<bool> {
    match text {
        "on" => Some(true),
        "off" => Some(false),
        _ => None,
    }
}

/// The spec of an option, by name: case-insensitive, spaces ignored
/// (`Move Overhead` is `MoveOverhead`).
pub fn find(name: &str) -> Option<&'static OptionSpec> {
    let key: String = name.chars().filter(|c| !c.is_whitespace()).collect();
    OPTIONS.iter().find(|o| o.name.eq_ignore_ascii_case(&key))
}

impl OptionSpec {
    /// Checks `text` against the option's type and limits.
    pub fn parse(&self, text: &str) -> Result<Value, String> {
        let text = text.trim();
        match self.kind {
            Kind::Spin { min, max, .. } => match text.parse::<i64>() {
                Ok(v) if (min..=max).contains(&v) => Ok(Value::Int(v)),
                _ => Err(format!(
                    "value '{text}' is not a whole number from {min} to {max}"
                )),
            },
            Kind::Combo { values, .. } => values()
                .into_iter()
                .find(|v| v.eq_ignore_ascii_case(text))
                .map(|v| Value::Text(v.to_string()))
                .ok_or_else(|| format!("value '{text}' is not one of: {}", values().join(", "))),
            Kind::Check { .. } => match text.to_ascii_lowercase().as_str() {
                "true" | "on" | "1" => Ok(Value::Bool(true)),
                "false" | "off" | "0" => Ok(Value::Bool(false)),
                _ => Err(format!("value '{text}' is not true or false")),
            },
            Kind::Text { .. } => Ok(Value::Text(text.to_string())),
        }
    }

    /// What changing this option affects.
    pub fn effect(&self) -> Effect {
        match self.name {
            "Game" | "Size" | "Variant" | "Stones" => Effect::Game,
            "Hash" | "Search" | "Proofs" => Effect::Engine,
            "Weights" => Effect::Weights,
            _ => Effect::Search,
        }
    }

    /// The default as text.
    pub fn default_text(&self) -> String {
        match self.kind {
            Kind::Spin { default, .. } => default.to_string(),
            Kind::Combo { default, .. } => default.to_string(),
            Kind::Check { default } => default.to_string(),
            Kind::Text { default } => default.to_string(),
        }
    }

    /// The command-line flag: words in lower case joined by '-', an
    /// acronym one word (`MoveOverhead` is `move-overhead`, `ShowWDL`
    /// `show-wdl`, `MultiPV` `multi-pv`).
    pub fn flag(&self) -> String {
        hyphenated(self.name, true)
    }

    /// The flag's earlier spelling (a '-' before every capital:
    /// `show-w-d-l`), where it differs: still accepted, so that scripts
    /// written for it keep working.
    pub fn old_flag(&self) -> Option<String> {
        let old = hyphenated(self.name, false);
        (old != self.flag()).then_some(old)
    }
}

/// `name` in lower case with a '-' before each capital but the first;
/// with `acronyms_whole`, only before a capital that follows a lower-case
/// letter or a digit (so `WDL` stays one word).
fn hyphenated(name: &str, acronyms_whole: bool) -> String {
    let mut out = String::new();
    let mut previous: Option<char> = None;
    for c in name.chars() {
        let starts_word = previous
            .is_some_and(|p| !acronyms_whole || p.is_ascii_lowercase() || p.is_ascii_digit());
        if c.is_ascii_uppercase() && starts_word {
            out.push('-');
        }
        out.push(c.to_ascii_lowercase());
        previous = Some(c);
    }
    out
}

/// Applies `setoption name <name> value <value>`.
pub fn set(options: &mut Options, name: &str, value: &str) -> Result<Effect, String> {
    let spec = find(name).ok_or_else(|| format!("unknown option '{}'", name.trim()))?;
    let value = spec.parse(value)?;
    (spec.apply)(options, &value);
    Ok(spec.effect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_case_insensitive_and_values_checked() {
        let mut o = Options::default();
        assert_eq!(set(&mut o, "game", "Atoms"), Ok(Effect::Game));
        assert_eq!(o.game.game, "atoms");
        assert_eq!(set(&mut o, "HASH", "16"), Ok(Effect::Engine));
        assert_eq!(o.engine.hash_mb, 16);
        assert!(set(&mut o, "hash", "0").is_err());
        assert!(set(&mut o, "hash", "lots").is_err());
        assert!(set(&mut o, "size", "99").is_err());
        assert!(set(&mut o, "variant", "isotopes").is_ok());
        assert_eq!(o.game.variant, "isotopes");
        assert!(set(&mut o, "variant", "bogus").is_err());
        assert!(set(&mut o, "Move Overhead", "50").is_ok());
        assert_eq!(o.search.move_overhead_ms, 50);
        assert_eq!(set(&mut o, "search", "ALPHABETA"), Ok(Effect::Engine));
        assert_eq!(o.engine.searcher, "alphabeta");
        let err = set(&mut o, "search", "mtcs").unwrap_err();
        assert!(err.contains("uct-plain"), "{err}");
        assert!(
            set(&mut o, "frobnicate", "1")
                .unwrap_err()
                .contains("unknown option")
        );
        assert_eq!(set(&mut o, "exploration", "45"), Ok(Effect::Search));
        assert_eq!(o.search.tuning.exploration, Some(0.45));
        assert!(set(&mut o, "exploration", "0").is_ok());
        assert_eq!(o.search.tuning.exploration, None, "0 is the game's own");
    }

    #[test]
    fn table_limits_cover_every_game() {
        let spin_max = |name: &str| match find(name).unwrap().kind {
            Kind::Spin { max, .. } => max as usize,
            _ => unreachable!(),
        };
        assert_eq!(spin_max("Size"), registry::max_size());
        assert_eq!(spin_max("Stones"), registry::max_stones());
        assert_eq!(find("move overhead").unwrap().flag(), "move-overhead");
        assert_eq!(find("ShowWDL").unwrap().flag(), "show-wdl");
        assert_eq!(find("MultiPV").unwrap().flag(), "multi-pv");
        assert_eq!(
            find("MultiPV").unwrap().old_flag().as_deref(),
            Some("multi-p-v")
        );
        assert_eq!(find("Threads").unwrap().old_flag(), None);
        let resolved = |mut o: Options| {
            o.game = registry::resolve(&o.game).unwrap();
            o
        };
        let defaults = resolved(Options::default());
        for spec in OPTIONS {
            let mut o = Options::default();
            let value = spec.parse(&spec.default_text()).unwrap();
            (spec.apply)(&mut o, &value);
            assert_eq!(
                resolved(o),
                defaults,
                "{}'s default is the engine's",
                spec.name
            );
        }
    }
}

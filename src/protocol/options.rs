//! The UGI options: their `option` lines for `ugi`, and `setoption`.

use crate::registry::{self, GameConfig};
use crate::search::{Algorithm, SearchSettings};

pub const MAX_HASH_MB: usize = 65_536;
pub const MAX_THREADS: usize = 64;
pub const MAX_OVERHEAD_MS: u64 = 5_000;

/// Everything the options control.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Options {
    pub game: GameConfig,
    pub search: SearchSettings,
}

/// Every variant name any registered game knows, in registry order.
fn all_variants() -> Vec<&'static str> {
    let mut names: Vec<&'static str> = Vec::new();
    for entry in registry::GAMES {
        for v in entry.variants {
            if !names.contains(v) {
                names.push(v);
            }
        }
    }
    names
}

fn max_size() -> usize {
    registry::GAMES.iter().map(|g| g.sizes.1).max().unwrap_or(0)
}

fn max_stones() -> usize {
    registry::GAMES
        .iter()
        .filter_map(|g| g.stones.map(|s| s.1))
        .max()
        .unwrap_or(0)
}

fn combo(name: &str, default: &str, values: &[&str]) -> String {
    let vars: Vec<String> = values.iter().map(|v| format!("var {v}")).collect();
    format!(
        "option name {name} type combo default {default} {}",
        vars.join(" ")
    )
}

fn spin(name: &str, default: u64, min: u64, max: u64) -> String {
    format!("option name {name} type spin default {default} min {min} max {max}")
}

/// The `option` lines announced after `ugi`.
pub fn option_lines(options: &Options) -> Vec<String> {
    let defaults = SearchSettings::default();
    vec![
        combo("Game", &options.game.game, &registry::names()),
        spin("Size", 0, 0, max_size() as u64),
        combo("Variant", "standard", &all_variants()),
        spin("Stones", 0, 0, max_stones() as u64),
        spin("Hash", defaults.hash_mb as u64, 1, MAX_HASH_MB as u64),
        spin("Threads", 1, 1, MAX_THREADS as u64),
        spin("Seed", 0, 0, i64::MAX as u64),
        combo("Search", "auto", &Algorithm::NAMES),
        spin(
            "MoveOverhead",
            defaults.move_overhead_ms,
            0,
            MAX_OVERHEAD_MS,
        ),
        // Tuning knobs for MCTS; 0 keeps the game's own setting.
        spin("Exploration", 0, 0, 1000),
        spin("ExpandAfter", 0, 0, 1000),
        spin("PlayoutCutoff", 0, 0, 1000),
        spin("EvalScale", 0, 0, 100_000),
        spin("Rave", 0, 0, 100_000),
        combo("Transpositions", "default", &["default", "on", "off"]),
        "option name Probe type spin default -1 min -1 max 100".to_string(),
    ]
}

/// What a successful `setoption` changed.
#[derive(Debug, PartialEq, Eq)]
pub enum Changed {
    /// Takes effect at the next `uginewgame` or `position`.
    Game,
    /// Search memory must be reallocated.
    Memory,
    Search,
}

fn number(value: &str, min: u64, max: u64) -> Result<u64, String> {
    match value.trim().parse::<u64>() {
        Ok(v) if (min..=max).contains(&v) => Ok(v),
        _ => Err(format!(
            "value '{value}' is not a whole number from {min} to {max}"
        )),
    }
}

/// A tuning value from 0 to `max`, where 0 means "the game's own" (None).
fn override_value(value: &str, max: u64) -> Result<Option<u64>, String> {
    Ok(Some(number(value, 0, max)?).filter(|&v| v > 0))
}

/// Applies `setoption name <name> value <value>`. Names are case-insensitive
/// and may be written with spaces (`Move Overhead`).
pub fn set(options: &mut Options, name: &str, value: &str) -> Result<Changed, String> {
    let key: String = name
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect::<String>()
        .to_ascii_lowercase();
    let value = value.trim();
    let result = match key.as_str() {
        "game" => {
            let entry = registry::find(value)?;
            options.game.game = entry.name.to_string();
            Changed::Game
        }
        "size" => {
            options.game.size = number(value, 0, max_size() as u64)? as usize;
            Changed::Game
        }
        "variant" => {
            let lower = value.to_ascii_lowercase();
            if !lower.is_empty() && !all_variants().contains(&lower.as_str()) {
                return Err(format!(
                    "unknown variant '{value}' (variants: {})",
                    all_variants().join(", ")
                ));
            }
            options.game.variant = lower;
            Changed::Game
        }
        "stones" => {
            options.game.stones = number(value, 0, max_stones() as u64)? as usize;
            Changed::Game
        }
        "hash" => {
            options.search.hash_mb = number(value, 1, MAX_HASH_MB as u64)? as usize;
            Changed::Memory
        }
        "threads" => {
            options.search.threads = number(value, 1, MAX_THREADS as u64)? as usize;
            Changed::Search
        }
        "seed" => {
            options.search.seed = number(value, 0, i64::MAX as u64)?;
            Changed::Search
        }
        "search" => {
            options.search.algorithm = Algorithm::parse(value).ok_or_else(|| {
                format!(
                    "unknown search '{value}' (searches: {})",
                    Algorithm::NAMES.join(", ")
                )
            })?;
            Changed::Search
        }
        "exploration" => {
            let hundredths = override_value(value, 1000)?;
            options.search.tuning.exploration = hundredths.map(|v| v as f32 / 100.0);
            Changed::Search
        }
        "expandafter" => {
            options.search.tuning.expand_after = override_value(value, 1000)?.map(|v| v as u32);
            Changed::Search
        }
        "playoutcutoff" => {
            options.search.tuning.playout_cutoff = override_value(value, 1000)?.map(|v| v as u32);
            Changed::Search
        }
        "evalscale" => {
            options.search.tuning.eval_scale = override_value(value, 100_000)?.map(|v| v as f32);
            Changed::Search
        }
        "rave" => {
            options.search.tuning.rave = override_value(value, 100_000)?.map(|v| v as f32);
            Changed::Search
        }
        "probe" => {
            // -1: the game's own; 0: off; else the percentage of the move.
            options.search.tuning.probe = match value.trim().parse::<i64>() {
                Ok(-1) => None,
                Ok(0) => Some(None),
                Ok(p) if (1..=100).contains(&p) => Some(Some(p as f32 / 100.0)),
                _ => {
                    return Err(format!(
                        "value '{value}' is not a whole number from -1 to 100"
                    ));
                }
            };
            Changed::Search
        }
        "transpositions" => {
            options.search.tuning.transpositions = match value.to_ascii_lowercase().as_str() {
                "default" => None,
                "on" | "true" => Some(true),
                "off" | "false" => Some(false),
                _ => return Err(format!("value '{value}' is not default, on or off")),
            };
            Changed::Search
        }
        "moveoverhead" => {
            options.search.move_overhead_ms = number(value, 0, MAX_OVERHEAD_MS)?;
            Changed::Search
        }
        _ => return Err(format!("unknown option '{name}'")),
    };
    Ok(result)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_case_insensitive_and_values_checked() {
        let mut o = Options::default();
        assert_eq!(set(&mut o, "game", "Atoms"), Ok(Changed::Game));
        assert_eq!(o.game.game, "atoms");
        assert_eq!(set(&mut o, "HASH", "16"), Ok(Changed::Memory));
        assert_eq!(o.search.hash_mb, 16);
        assert!(set(&mut o, "hash", "0").is_err());
        assert!(set(&mut o, "hash", "lots").is_err());
        assert!(set(&mut o, "size", "99").is_err());
        assert!(set(&mut o, "variant", "isotopes").is_ok());
        assert!(set(&mut o, "variant", "bogus").is_err());
        assert!(set(&mut o, "Move Overhead", "50").is_ok());
        assert_eq!(o.search.move_overhead_ms, 50);
        assert!(set(&mut o, "search", "alphabeta").is_ok());
        assert!(
            set(&mut o, "frobnicate", "1")
                .unwrap_err()
                .contains("unknown option")
        );
    }
}

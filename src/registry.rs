//! The game registry: a name plus parameters (`size`, `variant`, `stones`)
//! make a [`Session`]. Adding a game is one file under `games/` and one
//! entry in [`GAMES`].

use crate::games::Game;
use crate::games::atoms::{self, Atoms};
use crate::games::bitboard::Wide;
use crate::games::hadron::{self, Hadron};
use crate::games::ihex::{self, Ihex};
use crate::games::nadraz::{self, Nadraz};
use crate::games::tritium::{self, Tritium};
use crate::search::Profile;
use crate::search::mcts::MctsConfig;
use crate::session::{GameSession, Session};

/// What the user asked for. Zero size/stones and an empty variant mean the
/// game's default.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameConfig {
    pub game: String,
    pub size: usize,
    pub variant: String,
    pub stones: usize,
}

impl Default for GameConfig {
    fn default() -> Self {
        GameConfig {
            game: DEFAULT_GAME.to_string(),
            size: 0,
            variant: String::new(),
            stones: 0,
        }
    }
}

pub const DEFAULT_GAME: &str = "hadron";

/// One registered game.
pub struct GameEntry {
    pub name: &'static str,
    /// Smallest, largest and default board size.
    pub sizes: (usize, usize, usize),
    /// Variant names; the first is the default.
    pub variants: &'static [&'static str],
    /// Smallest, largest and default stones per player, where the game has them.
    pub stones: Option<(usize, usize, usize)>,
    /// The board size a position text describes, if it reads as one.
    pub size_of_text: fn(&str) -> Option<usize>,
    /// What `Search auto` plays in this game (the strongest measured).
    pub auto: Profile,
    /// Makes the session of a resolved configuration.
    build: fn(&GameConfig, Profile) -> Box<dyn Session>,
}

pub const GAMES: &[GameEntry] = &[
    GameEntry {
        name: "hadron",
        sizes: (hadron::MIN_SIZE, hadron::MAX_SIZE, hadron::DEFAULT_SIZE),
        variants: &["standard"],
        stones: None,
        size_of_text: square_size_of_text,
        // Measured: c = 0.5 ahead of 0.7 over 100-game matches; alpha-beta
        // has no useful evaluation here (both sides always share their moves).
        auto: Profile::mcts(MctsConfig::tuned().with_exploration(0.5)),
        build: build_hadron,
    },
    GameEntry {
        name: "atoms",
        sizes: (atoms::MIN_SIZE, atoms::MAX_SIZE, atoms::DEFAULT_SIZE),
        variants: &atoms::Variant::NAMES,
        stones: Some((atoms::MIN_STONES, atoms::MAX_STONES, atoms::DEFAULT_STONES)),
        size_of_text: square_size_of_text,
        // Measured: alpha-beta +298 Elo over plain UCT (bench/RESULTS.md), and
        // +191 over MCTS.
        auto: Profile::alphabeta(),
        build: build_atoms,
    },
    GameEntry {
        name: "tritium",
        sizes: (tritium::MIN_SIZE, tritium::MAX_SIZE, tritium::DEFAULT_SIZE),
        variants: &tritium::Variant::NAMES,
        stones: None,
        size_of_text: tritium_size_of_text,
        // Measured: evaluated playouts cut at 20 plies beat playing to the end.
        auto: Profile::mcts(MctsConfig::tuned().with_cutoff(20, 1000.0)),
        build: build_tritium,
    },
    GameEntry {
        name: "nadraz",
        sizes: (nadraz::MIN_SIZE, nadraz::MAX_SIZE, nadraz::DEFAULT_SIZE),
        variants: &nadraz::Variant::NAMES,
        stones: None,
        size_of_text: nadraz::size_of_text,
        // Measured: c = 0.4 +70 Elo over 0.7 (100 games), 0.2 no better than
        // 0.4; RAVE -70; evaluated playout cutoffs far worse (weak evaluation).
        auto: Profile::mcts(MctsConfig::tuned().with_exploration(0.4)),
        build: build_nadraz,
    },
    GameEntry {
        name: "ihex",
        sizes: (ihex::MIN_SIZE, ihex::MAX_SIZE, ihex::DEFAULT_SIZE),
        variants: &["standard"],
        stones: None,
        size_of_text: ihex::size_of_text,
        // Measured: alpha-beta 20-0 against plain UCT, MCTS +107.
        auto: Profile::alphabeta(),
        build: build_ihex,
    },
];

/// The names of every registered game.
pub fn names() -> Vec<&'static str> {
    GAMES.iter().map(|g| g.name).collect()
}

pub fn find(name: &str) -> Result<&'static GameEntry, String> {
    GAMES
        .iter()
        .find(|g| g.name.eq_ignore_ascii_case(name.trim()))
        .ok_or_else(|| format!("unknown game '{name}' (games: {})", names().join(", ")))
}

/// Every registered game at every size and variant (default stones).
pub fn all_configs() -> Vec<GameConfig> {
    let mut configs = Vec::new();
    for entry in GAMES {
        for size in entry.sizes.0..=entry.sizes.1 {
            for variant in entry.variants {
                configs.push(GameConfig {
                    game: entry.name.to_string(),
                    size,
                    variant: variant.to_string(),
                    stones: 0,
                });
            }
        }
    }
    configs
}

/// Fills in defaults and checks every parameter against the game's ranges.
pub fn resolve(config: &GameConfig) -> Result<GameConfig, String> {
    let entry = find(&config.game)?;
    let (min, max, default) = entry.sizes;
    let size = if config.size == 0 {
        default
    } else {
        config.size
    };
    if !(min..=max).contains(&size) {
        return Err(format!(
            "{}: size {size} is out of range {min}..{max}",
            entry.name
        ));
    }
    let variant = if config.variant.is_empty() {
        entry.variants[0].to_string()
    } else {
        config.variant.to_ascii_lowercase()
    };
    if !entry.variants.contains(&variant.as_str()) {
        return Err(format!(
            "{}: unknown variant '{variant}' (variants: {})",
            entry.name,
            entry.variants.join(", ")
        ));
    }
    let stones = match entry.stones {
        None => 0,
        Some((min, max, default)) => {
            let stones = if config.stones == 0 {
                default
            } else {
                config.stones
            };
            if !(min..=max).contains(&stones) {
                return Err(format!(
                    "{}: stones {stones} is out of range {min}..{max}",
                    entry.name
                ));
            }
            stones
        }
    };
    Ok(GameConfig {
        game: entry.name.to_string(),
        size,
        variant,
        stones,
    })
}

/// A new session at the start position of the configured game.
pub fn create(config: &GameConfig) -> Result<Box<dyn Session>, String> {
    let resolved = resolve(config)?;
    let entry = find(&resolved.game)?;
    Ok((entry.build)(&resolved, entry.auto.clone()))
}

/// Work to do with a configuration's concrete game type (the solver, which
/// is generic over [`Game`] rather than behind [`Session`]).
pub trait GameVisitor {
    type Output;
    /// Called with the start position of the configured game.
    fn visit<G: Game>(self, start: G) -> Self::Output;
}

/// Resolves `config` and hands its start position, as its concrete type,
/// to `visitor` (the same types the sessions use).
pub fn with_game<V: GameVisitor>(config: &GameConfig, visitor: V) -> Result<V::Output, String> {
    let c = resolve(config)?;
    let n = c.size;
    Ok(match c.game.as_str() {
        "hadron" => match n * n {
            0..=64 => visitor.visit(Hadron::<u64>::new(n)),
            65..=128 => visitor.visit(Hadron::<u128>::new(n)),
            _ => visitor.visit(Hadron::<Wide<4>>::new(n)),
        },
        "atoms" => {
            let variant = atoms::Variant::parse(&c.variant).expect("resolved variant");
            visitor.visit(Atoms::new(n, c.stones, variant))
        }
        "tritium" => {
            let variant = tritium::Variant::parse(&c.variant).expect("resolved variant");
            visitor.visit(Tritium::new(n, variant))
        }
        "nadraz" => {
            const SMALL: usize = nadraz::cell_count(6);
            const MEDIUM: usize = nadraz::cell_count(10);
            let variant = nadraz::Variant::parse(&c.variant).expect("resolved variant");
            let cells = nadraz::cell_count(n);
            if cells <= SMALL {
                visitor.visit(Nadraz::<SMALL>::new(n, variant))
            } else if cells <= MEDIUM {
                visitor.visit(Nadraz::<MEDIUM>::new(n, variant))
            } else {
                visitor.visit(Nadraz::<{ nadraz::MAX_CELLS }>::new(n, variant))
            }
        }
        "ihex" => match 3 * n * (n - 1) + 1 {
            0..=64 => visitor.visit(Ihex::<u64>::new(n)),
            65..=128 => visitor.visit(Ihex::<u128>::new(n)),
            129..=192 => visitor.visit(Ihex::<Wide<3>>::new(n)),
            193..=256 => visitor.visit(Ihex::<Wide<4>>::new(n)),
            _ => visitor.visit(Ihex::<Wide<5>>::new(n)),
        },
        other => return Err(format!("no game type for '{other}'")),
    })
}

/// The configuration a position text asks for: `config` with the size the
/// text describes (a position text decides its own board size).
pub fn config_for_text(config: &GameConfig, text: &str) -> GameConfig {
    let mut wanted = config.clone();
    if let Ok(entry) = find(&config.game)
        && let Some(size) = (entry.size_of_text)(text)
    {
        wanted.size = size;
    }
    wanted
}

/// Square boards: the number of `/`-separated ranks in the first field.
fn square_size_of_text(text: &str) -> Option<usize> {
    text.split_whitespace()
        .next()
        .map(|board| board.split('/').count())
}

/// Tritium: the first field has 2n - 1 rows separated by `/`.
fn tritium_size_of_text(text: &str) -> Option<usize> {
    tritium::size_of_text(text)
}

fn build_hadron(config: &GameConfig, auto: Profile) -> Box<dyn Session> {
    let n = config.size;
    let c = config.clone();
    match n * n {
        0..=64 => GameSession::boxed(c, Hadron::<u64>::new(n), auto),
        65..=128 => GameSession::boxed(c, Hadron::<u128>::new(n), auto),
        _ => GameSession::boxed(c, Hadron::<Wide<4>>::new(n), auto),
    }
}

fn build_atoms(config: &GameConfig, auto: Profile) -> Box<dyn Session> {
    let variant = atoms::Variant::parse(&config.variant).expect("resolved variant");
    let game = Atoms::new(config.size, config.stones, variant);
    GameSession::boxed(config.clone(), game, auto)
}

fn build_tritium(config: &GameConfig, auto: Profile) -> Box<dyn Session> {
    let variant = tritium::Variant::parse(&config.variant).expect("resolved variant");
    GameSession::boxed(config.clone(), Tritium::new(config.size, variant), auto)
}

/// Nadraz: the position's arrays are sized for the board, in three steps.
fn build_nadraz(config: &GameConfig, auto: Profile) -> Box<dyn Session> {
    const SMALL: usize = nadraz::cell_count(6);
    const MEDIUM: usize = nadraz::cell_count(10);
    let variant = nadraz::Variant::parse(&config.variant).expect("resolved variant");
    let (c, n) = (config.clone(), config.size);
    let cells = nadraz::cell_count(n);
    if cells <= SMALL {
        GameSession::boxed(c, Nadraz::<SMALL>::new(n, variant), auto)
    } else if cells <= MEDIUM {
        GameSession::boxed(c, Nadraz::<MEDIUM>::new(n, variant), auto)
    } else {
        GameSession::boxed(c, Nadraz::<{ nadraz::MAX_CELLS }>::new(n, variant), auto)
    }
}

/// The narrowest bit set that holds the board's 3n(n-1)+1 cells.
fn build_ihex(config: &GameConfig, auto: Profile) -> Box<dyn Session> {
    let n = config.size;
    let c = config.clone();
    match 3 * n * (n - 1) + 1 {
        0..=64 => GameSession::boxed(c, Ihex::<u64>::new(n), auto),
        65..=128 => GameSession::boxed(c, Ihex::<u128>::new(n), auto),
        129..=192 => GameSession::boxed(c, Ihex::<Wide<3>>::new(n), auto),
        193..=256 => GameSession::boxed(c, Ihex::<Wide<4>>::new(n), auto),
        _ => GameSession::boxed(c, Ihex::<Wide<5>>::new(n), auto),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(game: &str, size: usize, variant: &str, stones: usize) -> GameConfig {
        GameConfig {
            game: game.into(),
            size,
            variant: variant.into(),
            stones,
        }
    }

    #[test]
    fn defaults_and_ranges() {
        let c = resolve(&config("HADRON", 0, "", 0)).unwrap();
        assert_eq!(c, config("hadron", 5, "standard", 0));
        assert!(resolve(&config("hadron", 17, "", 0)).is_err());
        assert!(resolve(&config("hadron", 2, "", 0)).is_err());
        assert!(resolve(&config("hadron", 5, "short", 0)).is_err());
        assert!(
            resolve(&config("chess", 0, "", 0))
                .unwrap_err()
                .contains("unknown game")
        );
        let a = resolve(&config("atoms", 0, "Isotopes", 0)).unwrap();
        assert_eq!(a, config("atoms", 8, "isotopes", 11));
        assert!(resolve(&config("atoms", 8, "", 21)).is_err());
        assert!(resolve(&config("atoms", 13, "", 0)).is_err());
    }

    #[test]
    fn every_size_builds() {
        for entry in GAMES {
            for size in entry.sizes.0..=entry.sizes.1 {
                let session = create(&config(entry.name, size, "", 0)).unwrap();
                assert_eq!(session.config().size, size);
                assert!(session.outcome().is_none());
                assert!(!session.legal_moves().is_empty());
            }
        }
    }
}

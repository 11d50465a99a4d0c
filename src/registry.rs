//! The game registry: a name plus parameters (`size`, `variant`, `stones`)
//! make a game. Adding a game is one file under `games/` and one entry in
//! the [`registry!`] table below.
//!
//! Code that needs a game's concrete type (tools, the solver, sessions)
//! passes a [`GameVisitor`] to [`with_game`]; code that works in move text
//! takes a [`Session`] from [`create`].

use crate::games::Game;
/// (Re-exported: the configuration type lives with the games.)
pub use crate::games::GameConfig;
use crate::games::atoms::{self, Atoms};
use crate::games::bitboard::Wide;
use crate::games::hadron::{self, Hadron};
use crate::games::ihex::{self, Ihex};
use crate::games::nadraz::{self, Nadraz};
use crate::games::tritium::{self, Tritium};
use crate::search::mcts::MctsConfig;
use crate::session::{GameSession, Profile, Profiles, Session};

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
    /// What `Search auto` plays where the configuration has learned
    /// weights (`None`: the weights are not used).
    pub learned: Option<Profile>,
}

/// Code that runs on a game's concrete type.
pub trait GameVisitor {
    type Output;
    /// `game` is the start position of the configuration; `profile` what
    /// `Search auto` means for it.
    fn visit<G: Game>(self, config: &GameConfig, game: G, profile: &Profile) -> Self::Output;
}

/// The table: each game's entry, and the function that builds its start
/// position for a resolved configuration and hands it to a visitor.
macro_rules! registry {
    ($($entry:expr => $build:ident;)*) => {
        pub const GAMES: &[GameEntry] = &[$($entry),*];

        /// Runs `visitor` on the start position of `config` (defaults filled
        /// in, ranges checked).
        pub fn with_game<V: GameVisitor>(config: &GameConfig, visitor: V) -> Result<V::Output, String> {
            let resolved = resolve(config)?;
            let builders: &[fn(&GameConfig, &Profile, V) -> V::Output] = &[$($build::<V>),*];
            let index = GAMES
                .iter()
                .position(|g| g.name == resolved.game)
                .expect("a resolved game is registered");
            Ok(builders[index](&resolved, &GAMES[index].auto, visitor))
        }
    };
}

registry! {
    GameEntry {
        name: "hadron",
        sizes: (hadron::MIN_SIZE, hadron::MAX_SIZE, hadron::DEFAULT_SIZE),
        variants: &["standard"],
        stones: None,
        size_of_text: square_size_of_text,
        // Measured: c = 0.5 ahead of 0.7 over 100-game matches; alpha-beta
        // has no useful evaluation here (both sides always share their moves).
        // Playouts end where the region oracle decides (checked every 4
        // plies): +21 to +96 over not asking at 1 to 8 plies (200 games
        // each), +51 at 4 over 400 games (bench/RESULTS.md, session 28).
        // In searches of at most 200 ms, playouts are decided only where
        // every region has at most 8 cells (leaves 12): 2.4 times the nodes a
        // second, +44.7 over 12 at 100 ms (session 71); on a 10 s + 100 ms
        // clock 8 measured below 12, so longer searches keep 12 (session 72).
        // On a clock, the proofs play the last moves in an instant: sharing
        // the clock over at most 6 moves (the game's estimate is about 17
        // after the opening) measured +56 at 10 s + 100 ms, 4 moves +42
        // (200 games each, session 29). Long shots are allowed here but the
        // `LongShots` option is off by default: +319.0 against `uct-plain`
        // at 10 s + 100 ms, level with +330.2 without (400 games each,
        // session 53).
        auto: Profile::plain(
            "mcts",
            MctsConfig::tuned()
                .with_exploration(0.5)
                .with_playout_oracle(4)
                .with_quick_oracle(200),
        )
            .with_plan_moves(6)
            .with_long_shots(),
        learned: Some(
            Profile::plain(
                "mcts",
                MctsConfig::tuned()
                    .with_exploration(1.0)
                    .with_value_weight(0.3)
                    .with_playout_oracle(4)
                    .with_quick_oracle(200),
            )
            .with_plan_moves(6)
            .with_long_shots(),
        ),
    } => build_hadron;
    GameEntry {
        name: "atoms",
        sizes: (atoms::MIN_SIZE, atoms::MAX_SIZE, atoms::DEFAULT_SIZE),
        variants: &atoms::Variant::NAMES,
        stones: Some((atoms::MIN_STONES, atoms::MAX_STONES, atoms::DEFAULT_STONES)),
        size_of_text: square_size_of_text,
        // Measured: alpha-beta +298 Elo over plain UCT (bench/RESULTS.md), and
        // +191 over MCTS. In-play proofs measured weaker (against v0.1,
        // 400 games each: -12 with them, +6 without). The evaluation scores
        // the atoms that will survive the drop phase's removal (session 32:
        // +57.9 over material alone, 200 games at 100 ms). `Contempt` 50 and
        // 100 measured level against v0.1 (sessions 12-13,
        // and again in session 39, when `auto` already led it by +98): fewer
        // games were drawn by repetition, more by the 100-move rule, and no
        // more were won. Counting the atoms that cannot move (session 42):
        // +33 over not at 100 ms, 200 games. Late-move reductions
        // (session 61): against v0.1 at 10 s + 100 ms, +137.0 ± 19.2 over
        // 400 games with them, +100.9 ± 12.1 over 800 without. Its iterations
        // stopped at a third of a clock move's plan (48% of the clock used), so
        // it aims at 160% of it (session 61, 10 s + 100 ms, 400 games each):
        // +157.7 ± 20.8 over v0.1 (+137.0 without), +384.1 over `uct-plain`
        // (+389.1 without); within noise, no worse, the clock spent as v0.1 does.
        // A draw scored an atom down (contempt 100, session 62, 400 games
        // each): over `uct-plain` +459.6 at 100 ms (+407.3 without) and
        // +389.1 at 10 s + 100 ms (+384.1), over v0.1 +139.0 at 100 ms
        // (+145.1): within noise each, and the 100 ms cell clears +400, so
        // a draw no longer stays at 0. Over v0.1 at 10 s + 100 ms (session
        // 63, 400 games): +130.9 (without: +157.7), more draws an atom down;
        // over `uct-plain` there +398.0 over 800 games (sessions 62 + 63).
        // The drops planned to take half the clock, not a third (the game's
        // moves-left estimate, session 64, 10 s + 100 ms, 400 games each):
        // +436.4 over `uct-plain`, +128.0 (+130.9 before) over v0.1.
        auto: Profile::plain("alphabeta", MctsConfig::tuned())
            .without_proofs()
            .with_reductions()
            .with_clock_stretch(160)
            .with_contempt(100),
        // A learned value as alpha-beta's evaluation (session 9, 4000
        // self-play games): level at equal depth (19-162-19 at depth 6),
        // -14 at 100 ms for its features' cost; so no weights.
        learned: None,
    } => build_atoms;
    GameEntry {
        name: "tritium",
        sizes: (tritium::MIN_SIZE, tritium::MAX_SIZE, tritium::DEFAULT_SIZE),
        variants: &tritium::Variant::NAMES,
        stones: None,
        size_of_text: tritium::size_of_text,
        // Measured: evaluated playouts cut at 20 plies beat playing to the
        // end (and 40 plies: -67; 4 plies: -269). The evaluation's scale
        // (session 19, 100 games each against 1000): 400 +70, 200 +21,
        // 100 +0, 2500 -131. The playouts (`Tritium::playout_move`): the
        // best colour +78, a largest free region +70 more, the better of two
        // cells +53 more (200 games each, 100 ms). Exploration 0.35 against
        // 0.7 +70, 0.2 against 0.35 -4 (session 20, 200 games each); a third
        // cell -7, playout flags half as often -21, a flag whenever a free
        // region has 4 tiles -160 (102 games). Against v0.1 +230 at 100 ms
        // and +308 at 10 s + 100 ms (400 games each). Session 21, level or
        // worse: cut at 30 plies +10, widening above 40 moves +17 (400
        // games), a first-play urgency of 0.8 -67 and of 1.1 +17, leaves
        // expanded at their second visit -21.
        auto: Profile::plain(
            "mcts",
            MctsConfig::tuned()
                .with_cutoff(20, 400.0)
                .with_exploration(0.35),
        ),
        // The learned value scores the cut playouts instead of the
        // evaluation, with everything else as above (session 22,
        // bench/RESULTS.md): weights fitted to self-play of the profile
        // above +67 over it at 100 ms, the next generation (self-play with
        // this profile) +28 more (200 games each); over uct-plain +326 at
        // 100 ms (400 games) and +301 at 10 s + 100 ms (200 games), from
        // +279 and +220. Session 9's weights, from self-play with random
        // playouts, were level there. The priors cost more than they know:
        // +139 at 2000 nodes, -92 at 100 ms (features at every node).
        // Session 23: features of each region's room to grow and of the
        // tiles that would join or merge regions (held-out value loss 0.476
        // to 0.456 on the same data); the built-in fit (two generations)
        // +17 over session 22 (400 games), the three fits tried +49 (800
        // games); +308 over uct-plain at 100 ms (400 games), level with
        // session 22. With session 22's value, cutting at 12 plies lost
        // -155 (86 games) and at 30 was level (+10, 200 games). Session 24:
        // with the value, exploration 0.25 against 0.35 +70, 0.18 against
        // 0.25 -49 (200 games each); weights from self-play at 0.25 -38
        // against the built-in ones, made at 0.35 (README: --exploration 35).
        // Over uct-plain +372 at 100 ms (400 games), +301 at 10 s + 100 ms
        // (200 games). Session 25: features of the free regions the players
        // would flag in turn (held-out value loss 0.4599 to 0.4563 on the
        // same data); +14 over session 24 (400 games, two fits), level; +363
        // over uct-plain at 100 ms (400 games), +338 at 10 s + 100 ms (160
        // games). The priors lost -198 at equal nodes (3000, 132 games).
        // Session 26: +368 over uct-plain at 10 s + 100 ms (400 games);
        // RAVE -70, the value sharpened at the cut (sigmoid of 1.5 x its
        // logit) +7, no proofs before moves +0 (200 games each).
        // Session 27: one flag move per free region in the search
        // (`Game::search_moves`) +38 (200 games), weights retrained with
        // it +35 more (200 games); +407 over uct-plain at 100 ms (400
        // games), +339 at 10 s + 100 ms (314 games). Children tried in
        // order of immediate gain: -42. Session 31: the value with a hidden
        // layer of 16 units, fitted to the same games (held-out value loss
        // 0.4329 to 0.4181), +40 over the linear file at 100 ms (400 games).
        // Session 68: cut at 14 plies +42 over 20 at 100 ms (400 games),
        // +507 over uct-plain there (800 games, from +402), but at 10 s +
        // 100 ms +335 over uct-plain (110 games, SPRT 400/500 H0; 20 had
        // +470 in session 55): kept at 20 until a cut that follows the
        // move's time is measured at both clocks. Session 69: so searches
        // meant to take at most 200 ms (100 ms a move) cut at 14, longer
        // ones (about 320 ms a move at 10 s + 100 ms) at 20: +470 over
        // uct-plain at 100 ms (+494 pooled with session 68's 800 games),
        // +402 at 10 s + 100 ms (+433 pooled with session 55's 400).
        // Session 70: on a clock each move aims at 130% of its share (the
        // profile used 82% of its clock, uct-plain 92%; now 89%): +506 over
        // uct-plain at 10 s + 100 ms (252 games, SPRT 400/500 H1).
        learned: Some(Profile::plain(
            "mcts",
            MctsConfig::tuned()
                .with_cutoff(20, 400.0)
                .with_quick_cutoff(14, 200)
                .with_exploration(0.25)
                .with_cutoff_value(),
        )
        .with_clock_stretch(130)),
    } => build_tritium;
    GameEntry {
        name: "nadraz",
        sizes: (nadraz::MIN_SIZE, nadraz::MAX_SIZE, nadraz::DEFAULT_SIZE),
        variants: &nadraz::Variant::NAMES,
        stones: None,
        size_of_text: nadraz::size_of_text,
        // Measured: c = 0.4 +70 Elo over 0.7 (100 games), 0.2 no better than
        // 0.4; evaluated playout cutoffs far worse (weak evaluation).
        auto: Profile::plain("mcts", MctsConfig::tuned().with_exploration(0.4)),
        // Measured with the embedded Nadraz 10 weights (bench/RESULTS.md):
        // +131 Elo over none at 100 ms (H1 of an SPRT in the normal
        // approximation; the exact LLR of those 25 pairs, 2.54, had not
        // decided); the value alone at leaves (no playouts) lost 3-17 to a
        // 0.3 mix; a 0.6 mix beat 0.3 by +54 (400 games at 100 ms).
        learned: Some(Profile::plain("mcts", MctsConfig::tuned().with_exploration(1.0).with_value_weight(0.6))),
    } => build_nadraz;
    GameEntry {
        name: "ihex",
        sizes: (ihex::MIN_SIZE, ihex::MAX_SIZE, ihex::DEFAULT_SIZE),
        variants: &["standard"],
        stones: None,
        size_of_text: ihex::size_of_text,
        // Measured: alpha-beta 20-0 against plain UCT, MCTS +107.
        auto: Profile::plain("alphabeta", MctsConfig::tuned()),
        learned: None,
    } => build_ihex;
}

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

/// Every variant name any registered game knows, in registry order.
pub fn all_variants() -> Vec<&'static str> {
    let mut names: Vec<&'static str> = Vec::new();
    for v in GAMES.iter().flat_map(|entry| entry.variants) {
        if !names.contains(v) {
            names.push(v);
        }
    }
    names
}

/// The largest board size of any game.
pub fn max_size() -> usize {
    GAMES.iter().map(|g| g.sizes.1).max().unwrap_or(0)
}

/// The largest stone count of any game that has one.
pub fn max_stones() -> usize {
    GAMES
        .iter()
        .filter_map(|g| g.stones.map(|s| s.1))
        .max()
        .unwrap_or(0)
}

/// Every registered game at every size and variant (default stones).
pub fn all_configs() -> Vec<GameConfig> {
    let mut configs = Vec::new();
    for entry in GAMES {
        for size in entry.sizes.0..=entry.sizes.1 {
            for variant in entry.variants {
                configs.push(
                    GameConfig::named(entry.name)
                        .with_size(size)
                        .with_variant(variant),
                );
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

/// Makes the session of a configuration.
struct SessionMaker;

impl GameVisitor for SessionMaker {
    type Output = Box<dyn Session>;
    fn visit<G: Game>(self, config: &GameConfig, game: G, profile: &Profile) -> Box<dyn Session> {
        let profiles = Profiles {
            plain: profile.clone(),
            learned: find(&config.game).ok().and_then(|e| e.learned.clone()),
        };
        Box::new(GameSession::new(config.clone(), game, profiles))
    }
}

/// A new session at the start position of the configured game.
pub fn create(config: &GameConfig) -> Result<Box<dyn Session>, String> {
    with_game(config, SessionMaker)
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

fn build_hadron<V: GameVisitor>(c: &GameConfig, auto: &Profile, v: V) -> V::Output {
    let n = c.size;
    match n * n {
        0..=64 => v.visit(c, Hadron::<u64>::new(n), auto),
        65..=128 => v.visit(c, Hadron::<u128>::new(n), auto),
        _ => v.visit(c, Hadron::<Wide<4>>::new(n), auto),
    }
}

fn build_atoms<V: GameVisitor>(c: &GameConfig, auto: &Profile, v: V) -> V::Output {
    let variant = atoms::Variant::parse(&c.variant).expect("resolved variant");
    v.visit(c, Atoms::new(c.size, c.stones, variant), auto)
}

fn build_tritium<V: GameVisitor>(c: &GameConfig, auto: &Profile, v: V) -> V::Output {
    let variant = tritium::Variant::parse(&c.variant).expect("resolved variant");
    v.visit(c, Tritium::new(c.size, variant), auto)
}

/// Nadraz: the position's arrays are sized for the board, in three steps.
fn build_nadraz<V: GameVisitor>(c: &GameConfig, auto: &Profile, v: V) -> V::Output {
    const SMALL: usize = nadraz::cell_count(6);
    const MEDIUM: usize = nadraz::cell_count(10);
    let variant = nadraz::Variant::parse(&c.variant).expect("resolved variant");
    let (n, cells) = (c.size, nadraz::cell_count(c.size));
    if cells <= SMALL {
        v.visit(c, Nadraz::<SMALL>::new(n, variant), auto)
    } else if cells <= MEDIUM {
        v.visit(c, Nadraz::<MEDIUM>::new(n, variant), auto)
    } else {
        v.visit(c, Nadraz::<{ nadraz::MAX_CELLS }>::new(n, variant), auto)
    }
}

/// The narrowest bit set that holds the board's 3n(n-1)+1 cells.
fn build_ihex<V: GameVisitor>(c: &GameConfig, auto: &Profile, v: V) -> V::Output {
    let n = c.size;
    match 3 * n * (n - 1) + 1 {
        0..=64 => v.visit(c, Ihex::<u64>::new(n), auto),
        65..=128 => v.visit(c, Ihex::<u128>::new(n), auto),
        129..=192 => v.visit(c, Ihex::<Wide<3>>::new(n), auto),
        193..=256 => v.visit(c, Ihex::<Wide<4>>::new(n), auto),
        _ => v.visit(c, Ihex::<Wide<5>>::new(n), auto),
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
    fn every_size_builds_the_game_it_names() {
        for entry in GAMES {
            for size in entry.sizes.0..=entry.sizes.1 {
                let session = create(&config(entry.name, size, "", 0)).unwrap();
                assert_eq!(session.config().size, size);
                assert_eq!(session.config().game, entry.name);
                assert!(session.describe().starts_with(entry.name));
                assert!(session.outcome().is_none());
                assert!(!session.legal_moves().is_empty());
            }
        }
    }
}

//! Openings: reading an openings file, and generating balanced suites.
//!
//! File format, one opening per line (`#` starts a comment, blank lines
//! are skipped):
//!
//! ```text
//! startpos
//! moves d4 c3 e5            # moves from the start position
//! startpos moves d4 c3      # the same, spelled like UGI
//! fen 7/7/7/7/7/7/7 r moves d4
//! 7/7/7/7/7/7/7 b           # a bare position text (optionally "moves ...")
//! ```

use crate::games::{GameRng, random_below};
use crate::registry::{self, GameConfig};
use crate::search::{Limits, Score, SearchSettings};
use crate::session::Session;
use crate::session::{Engine, SearchRun};
use fxhash::FxHashSet;
use rand::SeedableRng;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// A start for one game pair.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// A position text, or None for the start position.
    pub text: Option<String>,
    pub moves: Vec<String>,
}

impl Opening {
    pub fn startpos() -> Opening {
        Opening {
            text: None,
            moves: Vec::new(),
        }
    }

    /// Reads one line of an openings file (without its comment).
    pub fn parse(line: &str) -> Result<Opening, String> {
        let line = line.trim();
        let line = line.strip_prefix("position ").unwrap_or(line).trim();
        // The moves follow the word `moves`; what comes before is the base.
        let words: Vec<&str> = line.split_whitespace().collect();
        let (base, moves) = match words.iter().position(|&w| w == "moves") {
            Some(at) => (words[..at].join(" "), words[at + 1..].to_vec()),
            None => (words.join(" "), Vec::new()),
        };
        let base = base.as_str();
        let text = if base.is_empty() || base.eq_ignore_ascii_case("startpos") {
            None
        } else if let Some(text) = base.strip_prefix("fen ") {
            Some(text.trim().to_string())
        } else {
            Some(base.to_string())
        };
        if text.is_none() && moves.is_empty() && !base.eq_ignore_ascii_case("startpos") {
            return Err("an empty opening (write 'startpos')".into());
        }
        Ok(Opening {
            text,
            moves: moves.into_iter().map(str::to_string).collect(),
        })
    }

    /// The line as written back to a file (and to game records).
    pub fn to_line(&self) -> String {
        match (&self.text, self.moves.is_empty()) {
            (None, true) => "startpos".to_string(),
            (None, false) => format!("moves {}", self.moves.join(" ")),
            (Some(text), true) => format!("fen {text}"),
            (Some(text), false) => format!("fen {text} moves {}", self.moves.join(" ")),
        }
    }

    /// The UGI `position` command for this opening followed by `played`.
    pub fn position_command(&self, played: &[String]) -> String {
        let mut command = match &self.text {
            None => "position startpos".to_string(),
            Some(text) => format!("position fen {text}"),
        };
        if !self.moves.is_empty() || !played.is_empty() {
            command.push_str(" moves");
            for mv in self.moves.iter().chain(played) {
                command.push(' ');
                command.push_str(mv);
            }
        }
        command
    }

    /// The position text a game from this opening starts from (after its
    /// moves), given the session at that point; None for the start
    /// position itself.
    pub fn start_text(&self, session: &dyn Session) -> Option<String> {
        (self.text.is_some() || !self.moves.is_empty()).then(|| session.position_text())
    }

    /// The opening as one position text (what cutegames reads: it sends
    /// each line as `position fen <line>`): the position after the moves,
    /// or `startpos`.
    pub fn to_position_line(&self, config: &GameConfig) -> Result<String, String> {
        let session = self.session(config)?;
        Ok(self
            .start_text(session.as_ref())
            .unwrap_or_else(|| "startpos".to_string()))
    }

    /// A referee session at the end of the opening; an error when the
    /// opening does not fit the game or leaves nothing to play.
    pub fn session(&self, config: &GameConfig) -> Result<Box<dyn Session>, String> {
        let config = match &self.text {
            Some(text) => registry::config_for_text(config, text),
            None => config.clone(),
        };
        let mut session = registry::create(&config)?;
        let moves: Vec<&str> = self.moves.iter().map(String::as_str).collect();
        session.set_position(self.text.as_deref(), &moves)?;
        if let Some(outcome) = session.outcome() {
            return Err(format!(
                "the game is already over after the opening ({})",
                outcome.ugi_word()
            ));
        }
        Ok(session)
    }
}

/// How `quintet openings` writes a suite.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Format {
    /// `moves m1 m2 ...` from the start position.
    Moves,
    /// One position text per line (cutegames' openings files).
    Fen,
}

impl Format {
    pub fn parse(text: &str) -> Result<Format, String> {
        match text {
            "moves" => Ok(Format::Moves),
            "fen" => Ok(Format::Fen),
            _ => Err(format!("--format '{text}': use moves or fen")),
        }
    }

    /// One opening as a line of this format.
    pub fn line(self, opening: &Opening, config: &GameConfig) -> Result<String, String> {
        match self {
            Format::Moves => Ok(opening.to_line()),
            Format::Fen => opening.to_position_line(config),
        }
    }
}

/// Reads and checks an openings file against the game.
pub fn read_file(path: &str, config: &GameConfig) -> Result<Vec<Opening>, String> {
    let content =
        std::fs::read_to_string(path).map_err(|e| format!("cannot read openings '{path}': {e}"))?;
    let mut openings = Vec::new();
    for (index, raw) in content.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let at = |e: String| format!("{path}:{}: {e}: {}", index + 1, raw.trim());
        let opening = Opening::parse(line).map_err(at)?;
        opening.session(config).map_err(at)?;
        openings.push(opening);
    }
    if openings.is_empty() {
        return Err(format!("{path}: no openings in the file"));
    }
    Ok(openings)
}

/// An openings file in another format: its comments are kept, each
/// opening becomes one line of `format`.
pub fn convert_file(path: &str, config: &GameConfig, format: Format) -> Result<String, String> {
    let content =
        std::fs::read_to_string(path).map_err(|e| format!("cannot read openings '{path}': {e}"))?;
    let mut text = format!(
        "# {path} as {} lines: quintet --game {} --size {} openings --from {path} --format {}\n",
        match format {
            Format::Moves => "move",
            Format::Fen => "position text",
        },
        config.game,
        config.size,
        match format {
            Format::Moves => "moves",
            Format::Fen => "fen",
        }
    );
    for (index, raw) in content.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            if raw.trim_start().starts_with('#') {
                text.push_str(raw.trim_end());
                text.push('\n');
            }
            continue;
        }
        let at = |e: String| format!("{path}:{}: {e}: {}", index + 1, raw.trim());
        let opening = Opening::parse(line).map_err(at)?;
        text.push_str(&format.line(&opening, config).map_err(at)?);
        text.push('\n');
    }
    Ok(text)
}

/// How to generate a suite.
#[derive(Clone, Debug)]
pub struct Generator {
    pub count: usize,
    /// Random plies from the start position: uniform in this range.
    pub min_plies: usize,
    pub max_plies: usize,
    /// MCTS playouts of the balance check.
    pub nodes: u64,
    /// Keep a position when the searched win rate of the side to move is
    /// within this distance of 1/2.
    pub balance: f64,
    pub seed: u64,
    /// Random positions tried per wanted opening before giving up.
    pub tries_per_opening: usize,
}

/// What a generation produced.
pub struct Suite {
    pub openings: Vec<Opening>,
    pub tried: usize,
    pub duplicates: usize,
    pub unbalanced: usize,
}

/// The win rate of the side to move that an MCTS score stands for (the
/// inverse of `win_rate_to_cp`); a proven result is 0 or 1.
fn win_rate(score: Score) -> f64 {
    match score {
        Score::Cp(cp) => 1.0 / (1.0 + 10f64.powf(-f64::from(cp) / 400.0)),
        Score::Mate(n) if n > 0 => 1.0,
        Score::Mate(_) => 0.0,
    }
}

/// Generates `count` distinct balanced openings of the game: random plies
/// from the start, kept when a short MCTS search finds the position even.
pub fn generate(config: &GameConfig, generator: &Generator) -> Result<Suite, String> {
    if generator.min_plies > generator.max_plies {
        return Err("openings: the minimum plies exceed the maximum".into());
    }
    let mut session = registry::create(config)?;
    let settings = SearchSettings {
        threads: 1,
        seed: generator.seed,
        move_overhead_ms: 0,
        lag_ms: 0,
        ..SearchSettings::default()
    };
    // The suites were made without learned weights; they stay reproducible.
    session
        .set_weights("none")
        .expect("no weights always loads");
    session.prepare(&Engine {
        searcher: "mcts",
        hash_mb: 16,
        ..Engine::default()
    });
    let limits = Limits {
        nodes: Some(generator.nodes.max(1)),
        ..Limits::default()
    };
    let stop = AtomicBool::new(false);
    let mut rng = GameRng::seed_from_u64(generator.seed);
    let mut seen = FxHashSet::default();
    let mut suite = Suite {
        openings: Vec::new(),
        tried: 0,
        duplicates: 0,
        unbalanced: 0,
    };
    let max_tries = generator.count.max(1) * generator.tries_per_opening.max(1);
    while suite.openings.len() < generator.count && suite.tried < max_tries {
        suite.tried += 1;
        let span = generator.max_plies - generator.min_plies + 1;
        let plies = generator.min_plies + random_below(&mut rng, span);
        session.set_position(None, &[])?;
        let mut moves = Vec::new();
        while moves.len() < plies && session.outcome().is_none() {
            let legal = session.legal_moves();
            let mv = legal[random_below(&mut rng, legal.len())].clone();
            session.play(&mv)?;
            moves.push(mv);
        }
        if session.outcome().is_some() || !seen.insert(session.hash()) {
            suite.duplicates += 1;
            continue;
        }
        session.new_game();
        let run = SearchRun {
            start: Instant::now(),
            stop: &stop,
            progress: &mut |_| {},
        };
        let Some(result) = session.search(&settings, &limits, run) else {
            continue;
        };
        if (win_rate(result.report.score) - 0.5).abs() > generator.balance {
            suite.unbalanced += 1;
            continue;
        }
        suite.openings.push(Opening { text: None, moves });
    }
    if suite.openings.len() < generator.count {
        return Err(format!(
            "openings: found only {} of {} balanced openings in {} tries \
             ({} duplicates, {} unbalanced); widen --balance or change --plies",
            suite.openings.len(),
            generator.count,
            suite.tried,
            suite.duplicates,
            suite.unbalanced
        ));
    }
    Ok(suite)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hadron(size: usize) -> GameConfig {
        GameConfig {
            game: "hadron".into(),
            size,
            variant: String::new(),
            stones: 0,
        }
    }

    #[test]
    fn lines_round_trip() {
        for (line, text, moves) in [
            ("startpos", None, vec![]),
            ("moves c3 d4", None, vec!["c3", "d4"]),
            ("startpos moves c3", None, vec!["c3"]),
            ("position startpos moves c3", None, vec!["c3"]),
            ("fen 5/5/5/5/5 b moves c3", Some("5/5/5/5/5 b"), vec!["c3"]),
            ("5/5/5/5/5 b", Some("5/5/5/5/5 b"), vec![]),
        ] {
            let opening = Opening::parse(line).unwrap();
            assert_eq!(opening.text.as_deref(), text, "{line}");
            assert_eq!(opening.moves, moves, "{line}");
            assert_eq!(Opening::parse(&opening.to_line()).unwrap(), opening);
        }
        let opening = Opening::parse("moves c3").unwrap();
        assert_eq!(
            opening.position_command(&["d4".to_string()]),
            "position startpos moves c3 d4"
        );
        assert_eq!(
            Opening::startpos().position_command(&[]),
            "position startpos"
        );
        assert!(Opening::parse("").is_err());
    }

    #[test]
    fn openings_are_checked_against_the_game() {
        let config = hadron(5);
        assert!(
            Opening::parse("moves c3 a1")
                .unwrap()
                .session(&config)
                .is_ok()
        );
        assert!(
            Opening::parse("moves z9")
                .unwrap()
                .session(&config)
                .is_err()
        );
        assert!(
            Opening::parse("moves c3 c3")
                .unwrap()
                .session(&config)
                .is_err()
        );
        assert!(
            Opening::parse("fen x/y r")
                .unwrap()
                .session(&config)
                .is_err()
        );
    }

    #[test]
    fn position_lines_start_the_same_game_in_every_game() {
        for config in registry::all_configs() {
            let generator = Generator {
                count: 2,
                min_plies: 1,
                max_plies: 3,
                nodes: 20,
                balance: 0.5,
                seed: 3,
                tries_per_opening: 50,
            };
            let suite = generate(&config, &generator).unwrap();
            for opening in suite.openings {
                let line = Format::Fen.line(&opening, &config).unwrap();
                // One position text, no moves: what cutegames sends as
                // `position fen <line>`.
                let read = Opening::parse(&line).unwrap();
                assert!(read.moves.is_empty() && read.text.is_some(), "{line}");
                let (a, b) = (
                    opening.session(&config).unwrap(),
                    read.session(&config).unwrap(),
                );
                assert_eq!(a.position_text(), b.position_text(), "{}", a.describe());
                assert_eq!(a.hash(), b.hash(), "{}", a.describe());
                assert_eq!(a.legal_moves(), b.legal_moves(), "{}", a.describe());
            }
        }
        assert_eq!(
            Format::Fen.line(&Opening::startpos(), &hadron(5)).unwrap(),
            "startpos"
        );
    }

    #[test]
    fn generated_openings_are_distinct_and_playable() {
        let config = hadron(5);
        let generator = Generator {
            count: 8,
            min_plies: 2,
            max_plies: 4,
            nodes: 200,
            balance: 0.5,
            seed: 7,
            tries_per_opening: 50,
        };
        let suite = generate(&config, &generator).unwrap();
        assert_eq!(suite.openings.len(), 8);
        let mut hashes = FxHashSet::default();
        for opening in &suite.openings {
            let session = opening.session(&config).unwrap();
            assert!(hashes.insert(session.hash()));
            assert!((2..=4).contains(&opening.moves.len()));
        }
    }
}

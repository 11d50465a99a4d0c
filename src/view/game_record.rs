//! A game to replay, whatever file it came from (a `quintet match` record
//! today; PGN readers produce the same type): the rules, where it started,
//! the moves with what an engine said about each, and how it ended.

use crate::registry::{self, GameConfig};
use crate::search::Score;
use crate::session::Session;

#[derive(Clone, Debug, PartialEq)]
pub struct ReplayGame {
    pub config: GameConfig,
    /// A heading, e.g. `game 3 (pair 2)`.
    pub title: String,
    /// The players' names by seat (p1 first).
    pub players: [String; 2],
    /// The position text the game started from; `None` is the start position.
    pub start: Option<String>,
    /// Moves of the opening (played before the players took over).
    pub opening: Vec<String>,
    /// The players' moves.
    pub moves: Vec<MoveNote>,
    /// How it ended, e.g. `p1win (rules)`, if known.
    pub result: Option<String>,
    /// The final position text the source claims (checked on replay).
    pub final_text: Option<String>,
}

/// One move and what an engine said about it.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct MoveNote {
    pub text: String,
    /// The score of the position before the move, from the mover's view.
    pub score: Option<Score>,
    /// The move the engine preferred, where it differs or is known.
    pub best: Option<String>,
    /// A judgement of the move (`quintet analyse`), shown beside it.
    pub mark: Option<Mark>,
}

/// A move judged by an analysis: `?` (a mistake) or `??` (a blunder), and
/// why, in words.
#[derive(Clone, Debug, PartialEq)]
pub struct Mark {
    pub symbol: &'static str,
    pub comment: String,
}

impl MoveNote {
    pub fn plain(text: &str) -> MoveNote {
        MoveNote {
            text: text.to_string(),
            ..MoveNote::default()
        }
    }
}

impl ReplayGame {
    pub fn has_scores(&self) -> bool {
        self.moves.iter().any(|m| m.score.is_some())
    }

    /// A session at the game's start (before the opening moves).
    pub fn start_session(&self) -> Result<Box<dyn Session>, String> {
        let config = match &self.start {
            Some(text) => registry::config_for_text(&self.config, text),
            None => self.config.clone(),
        };
        let mut session = registry::create(&config)?;
        session
            .set_position(self.start.as_deref(), &[])
            .map_err(|e| format!("the start position: {e}"))?;
        Ok(session)
    }

    /// Every move, the opening's first.
    pub fn all_moves(&self) -> impl Iterator<Item = &str> {
        self.opening
            .iter()
            .map(String::as_str)
            .chain(self.moves.iter().map(|m| m.text.as_str()))
    }
}

/// A score as a record writes it: `35` (centipawns), `#3` / `#-2` (a
/// proven win / loss in that many moves), `-` (none).
pub fn parse_score(token: &str) -> Result<Option<Score>, String> {
    if token == "-" {
        return Ok(None);
    }
    let bad = || format!("bad score '{token}' (expected N, #N or -)");
    match token.strip_prefix('#') {
        Some(mate) => mate
            .parse()
            .map(|n| Some(Score::Mate(n)))
            .map_err(|_| bad()),
        None => token.parse().map(|n| Some(Score::Cp(n))).map_err(|_| bad()),
    }
}

/// The record token of a score (the inverse of [`parse_score`]).
pub fn format_score(score: Option<Score>) -> String {
    match score {
        None => "-".to_string(),
        Some(Score::Cp(cp)) => cp.to_string(),
        Some(Score::Mate(n)) => format!("#{n}"),
    }
}

/// A score as a person reads it: `+35`, `win in 3`, `loss in 2`.
pub fn describe_score(score: Score) -> String {
    match score {
        Score::Cp(cp) => format!("{cp:+}"),
        Score::Mate(n) if n > 0 => format!("win in {n}"),
        Score::Mate(n) => format!("loss in {}", -n),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_round_trip() {
        for token in ["35", "-120", "#3", "#-2", "-"] {
            assert_eq!(format_score(parse_score(token).unwrap()), token);
        }
        assert!(parse_score("cp").is_err());
        assert!(parse_score("#x").is_err());
    }
}

//! Reads games from a `quintet match` record file (README.md, "Record
//! file"): a `#` header naming the game, then one line of `key=value`
//! fields per game. Besides the match's own fields it reads, when present,
//! `scores` and `best`: one token per move after the opening (a score from
//! the mover's view, see [`parse_score`]; the engine's preferred move, `-`
//! for none).

use super::game_record::{MoveNote, ReplayGame, parse_score};
use crate::matches::openings::Opening;
use crate::matches::record;
use crate::registry::{self, GameConfig};

/// The game numbered `number` (its `game=` field), or the file's first game.
/// The rules come from the header; `fallback` serves a file without one.
pub fn read_game(
    text: &str,
    number: Option<u64>,
    fallback: &GameConfig,
) -> Result<ReplayGame, String> {
    let line = find_line(text, number)?;
    let config = line.config().unwrap_or_else(|| fallback.clone());
    let field = |key: &str| line.field(key);
    game_from_fields(&field, config).map_err(|e| format!("line {}: {e}", line.number))
}

/// One game's line of a record, with the `#` header lines above it.
#[derive(Clone, Debug, PartialEq)]
pub struct RecordLine {
    pub header: Vec<String>,
    pub fields: Vec<(String, String)>,
    /// Its line number in the file (1-based).
    pub number: usize,
}

impl RecordLine {
    pub fn field(&self, key: &str) -> Option<&str> {
        self.fields
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// Sets a field, in its place if present, else at the end.
    pub fn set(&mut self, key: &str, value: String) {
        match self.fields.iter_mut().find(|(k, _)| k == key) {
            Some((_, v)) => *v = value,
            None => self.fields.push((key.to_string(), value)),
        }
    }

    /// The rules the first header line that names a game gives.
    pub fn config(&self) -> Option<GameConfig> {
        self.header
            .iter()
            .find_map(|h| h.strip_prefix('#').and_then(header_config))
    }
}

/// The line of the game numbered `number` (its `game=` field), or the
/// file's first game line.
pub fn find_line(text: &str, number: Option<u64>) -> Result<RecordLine, String> {
    let mut header = Vec::new();
    let mut numbers = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.starts_with('#') {
            header.push(line.to_string());
            continue;
        }
        if line.is_empty() {
            continue;
        }
        let fields = record::parse_line(line).map_err(|e| format!("line {}: {e}", index + 1))?;
        let this = fields
            .iter()
            .find(|(k, _)| k == "game")
            .and_then(|(_, g)| g.parse::<u64>().ok());
        if number.is_some_and(|n| this != Some(n)) {
            numbers.extend(this);
            continue;
        }
        return Ok(RecordLine {
            header,
            fields,
            number: index + 1,
        });
    }
    match number {
        Some(n) => Err(format!(
            "no game {n} in the record (games: {})",
            summarise(&numbers)
        )),
        None => Err("no game in the record".to_string()),
    }
}

fn summarise(numbers: &[u64]) -> String {
    match (numbers.iter().min(), numbers.iter().max()) {
        (Some(a), Some(b)) if a == b => a.to_string(),
        (Some(a), Some(b)) => format!("{a}..{b}"),
        _ => "none".to_string(),
    }
}

fn game_from_fields<'a>(
    field: &impl Fn(&str) -> Option<&'a str>,
    config: GameConfig,
) -> Result<ReplayGame, String> {
    let opening = match field("opening") {
        Some(line) => Opening::parse(line).map_err(|e| format!("opening: {e}"))?,
        None => Opening::startpos(),
    };
    let texts: Vec<&str> = field("moves").unwrap_or("").split_whitespace().collect();
    let tokens = |key: &str| -> Result<Vec<&'a str>, String> {
        let Some(value) = field(key) else {
            return Ok(Vec::new());
        };
        let tokens: Vec<&str> = value.split_whitespace().collect();
        if tokens.len() > texts.len() {
            return Err(format!(
                "{key}: {} entries for {} moves",
                tokens.len(),
                texts.len()
            ));
        }
        Ok(tokens)
    };
    let scores = tokens("scores")?;
    let best = tokens("best")?;
    let mut moves = Vec::new();
    for (i, text) in texts.iter().enumerate() {
        let score = match scores.get(i) {
            Some(token) => parse_score(token).map_err(|e| format!("scores: {e}"))?,
            None => None,
        };
        let best = best.get(i).filter(|&&b| b != "-").map(|b| b.to_string());
        moves.push(MoveNote {
            text: text.to_string(),
            score,
            best,
            mark: None,
        });
    }
    let players = [
        field("p1").unwrap_or("p1").to_string(),
        field("p2").unwrap_or("p2").to_string(),
    ];
    let mut title = match (field("game"), field("pair")) {
        (Some(game), Some(pair)) => format!("game {game} (pair {pair})"),
        (Some(game), None) => format!("game {game}"),
        _ => "game".to_string(),
    };
    title.push_str(&format!(": {} vs {}", players[0], players[1]));
    let result = field("result").map(|r| match field("reason") {
        Some(reason) => format!("{r} ({reason})"),
        None => r.to_string(),
    });
    Ok(ReplayGame {
        config,
        title,
        players,
        start: opening.text,
        opening: opening.moves,
        moves,
        result,
        final_text: field("final").map(str::to_string),
    })
}

/// The game a record header names: the comma-separated part that starts
/// with a registered game's name followed by `key=value` parameters, as
/// `describe` writes them (`atoms size=8 stones=11 variant=standard`).
pub fn header_config(header: &str) -> Option<GameConfig> {
    header.split(',').find_map(|part| {
        let mut words = part.split_whitespace();
        let game = registry::find(words.next()?).ok()?;
        let mut config = GameConfig {
            game: game.name.to_string(),
            ..GameConfig::default()
        };
        for word in words {
            let (key, value) = word.split_once('=')?;
            match key {
                "size" => config.size = value.parse().ok()?,
                "stones" => config.stones = value.parse().ok()?,
                "variant" => config.variant = value.to_string(),
                _ => return None,
            }
        }
        Some(config)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const RECORD: &str = "\
# quintet match: auto vs uct-plain, atoms size=6 stones=4 variant=isotopes, movetime 100 ms, openings startpos (1), 2 games, concurrency 1
game=2 pair=1 p1=uct-plain p2=auto opening=\"moves c3\" result=p2win winner=auto reason=rules plies=2 p1_ms=1 p2_ms=1 moves=\"d4 e5\" scores=\"12 #-3\" best=\"- f6\" final=x
game=1 pair=1 p1=auto p2=uct-plain opening=startpos result=p1win winner=auto reason=rules plies=1 p1_ms=1 p2_ms=1 moves=c3 final=y
";

    #[test]
    fn header_names_the_game() {
        let config = header_config(" quintet match: a vs b, hadron size=7, tc 10+0.1").unwrap();
        assert_eq!((config.game.as_str(), config.size), ("hadron", 7));
        assert!(header_config(" quintet match: a vs b, movetime 100 ms").is_none());
        // An engine called like a game does not count without parameters
        // of the right shape.
        assert!(header_config(" hadron vs b, tc 10").is_none());
    }

    #[test]
    fn games_by_number_with_scores() {
        let game = read_game(RECORD, Some(2), &GameConfig::default()).unwrap();
        assert_eq!(game.config.game, "atoms");
        assert_eq!(game.config.variant, "isotopes");
        assert_eq!((game.config.size, game.config.stones), (6, 4));
        assert_eq!(game.opening, vec!["c3"]);
        assert_eq!(game.moves.len(), 2);
        assert_eq!(game.moves[0].score, Some(crate::search::Score::Cp(12)));
        assert_eq!(game.moves[1].score, Some(crate::search::Score::Mate(-3)));
        assert_eq!(game.moves[0].best, None);
        assert_eq!(game.moves[1].best.as_deref(), Some("f6"));
        assert_eq!(game.players, ["uct-plain".to_string(), "auto".to_string()]);
        assert_eq!(game.result.as_deref(), Some("p2win (rules)"));
        // Without a number, the first line; an unknown number says what exists.
        let first = read_game(RECORD, None, &GameConfig::default()).unwrap();
        assert_eq!(first.title, "game 2 (pair 1): uct-plain vs auto");
        let missing = read_game(RECORD, Some(9), &GameConfig::default()).unwrap_err();
        assert!(missing.contains("games: 1..2"), "{missing}");
    }

    #[test]
    fn malformed_records_are_errors() {
        let fallback = GameConfig::default();
        assert!(read_game("", None, &fallback).is_err());
        let too_many = "game=1 moves=c3 scores=\"1 2\"";
        assert!(
            read_game(too_many, None, &fallback)
                .unwrap_err()
                .contains("2 entries for 1 moves")
        );
        assert!(read_game("game=1 moves=c3 scores=x", None, &fallback).is_err());
        assert!(read_game("game=1 \"unterminated", None, &fallback).is_err());
        // No header: the fallback rules.
        let plain = read_game("game=1 moves=c3", None, &fallback).unwrap();
        assert_eq!(plain.config, fallback);
    }
}

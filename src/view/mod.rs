//! What a person sees: `quintet show` (a board picture), the HTML replay of
//! a recorded game, terminal play against the engine and `quintet analyse`.
//! Pictures are drawn by [`crate::draw`]; nothing here knows a particular
//! game.

pub mod analyse;
pub mod game_record;
pub mod play;
pub mod record_file;
pub mod replay;
pub mod show;

use crate::registry::GameConfig;
use game_record::ReplayGame;
use record_file::RecordLine;
use std::path::Path;

/// `quintet replay`: the game numbered `number` (or the first) of a match
/// record as one HTML page. `rules` gives the rules when the record's
/// header does not.
pub fn replay_file(
    record: &Path,
    number: Option<u64>,
    rules: &GameConfig,
    html: &Path,
) -> Result<(), String> {
    let (game, _) = load_game(record, number, rules)?;
    write_page(&game, html)
}

/// One game of a record file and its line (see [`replay_file`] for
/// `number` and `rules`).
pub fn load_game(
    record: &Path,
    number: Option<u64>,
    rules: &GameConfig,
) -> Result<(ReplayGame, RecordLine), String> {
    let fallback = rules.clone();
    let text = std::fs::read_to_string(record)
        .map_err(|e| format!("cannot read {}: {e}", record.display()))?;
    let game = record_file::read_game(&text, number, &fallback)
        .map_err(|e| format!("{}: {e}", record.display()))?;
    let line =
        record_file::find_line(&text, number).map_err(|e| format!("{}: {e}", record.display()))?;
    Ok((game, line))
}

/// The replay page of a game, written to `html`.
pub fn write_page(game: &ReplayGame, html: &Path) -> Result<(), String> {
    let positions = replay::positions(game).map_err(|e| format!("{}: {e}", game.title))?;
    std::fs::write(html, replay::page(game, &positions))
        .map_err(|e| format!("cannot write {}: {e}", html.display()))
}

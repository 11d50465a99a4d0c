//! What a person sees: `quintet show` (a board picture), the HTML replay of
//! a recorded game, terminal play against the engine and `quintet analyse`.
//! Pictures are drawn by [`crate::draw`]; nothing here knows a particular
//! game.

pub mod game_record;
pub mod play;
pub mod record_file;
pub mod replay;
pub mod show;

use crate::registry::GameConfig;
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
    let fallback = rules.clone();
    let text = std::fs::read_to_string(record)
        .map_err(|e| format!("cannot read {}: {e}", record.display()))?;
    let game = record_file::read_game(&text, number, &fallback)
        .map_err(|e| format!("{}: {e}", record.display()))?;
    let positions = replay::positions(&game).map_err(|e| format!("{}: {e}", game.title))?;
    std::fs::write(html, replay::page(&game, &positions))
        .map_err(|e| format!("cannot write {}: {e}", html.display()))
}

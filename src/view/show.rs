//! `quintet show`: one position as an SVG file, or as text on stdout.

use crate::draw::{svg, terminal};
use crate::registry::{self, GameConfig};
use std::path::Path;

/// Sets up the position (`fen` and/or `moves` from the start) and writes
/// its picture to `svg_file`, or draws it on stdout when there is none.
pub fn show(
    config: &GameConfig,
    fen: Option<&str>,
    moves: &str,
    svg_file: Option<&Path>,
) -> Result<(), String> {
    let config = match fen {
        Some(text) => registry::config_for_text(config, text),
        None => config.clone(),
    };
    let mut session = registry::create(&config)?;
    let moves: Vec<&str> = moves.split_whitespace().collect();
    session.set_position(fen, &moves)?;
    let picture = session.picture();
    match svg_file {
        Some(path) => std::fs::write(path, svg::render(&picture))
            .map_err(|e| format!("cannot write {}: {e}", path.display())),
        None => {
            print!("{}", terminal::draw(&picture, terminal::colour_wanted()));
            Ok(())
        }
    }
}

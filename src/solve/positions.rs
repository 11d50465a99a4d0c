//! Files of solved positions.
use super::command::SolveOptions;
use crate::games::Game;
use anyhow::Result;

#[derive(Clone, Debug, Default)]
pub struct GenerateOptions {}

pub fn generate<G: Game>(_root: &G, _g: &GenerateOptions, _o: &SolveOptions) -> Result<()> {
    Ok(())
}

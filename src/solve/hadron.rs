//! Hadron as a sum of independent regions.
use super::{Budget, Progress, Proof, ProofTable};
use crate::games::Game;

pub fn prove_if_hadron<G: Game>(
    _game: &G,
    _budget: &Budget,
    _table: &ProofTable,
    _progress: Option<&Progress>,
    _threads: usize,
) -> Option<Proof<G::Move>> {
    None
}

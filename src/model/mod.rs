//! Learned game knowledge: models over the features each game describes
//! (`Game::feature_set`), in the manner of Tiltak and of Coulom's
//! move-pattern ratings.
//!
//! - Policy: a move's logit is the sum of the weights of its features; the
//!   priors are the softmax over the legal moves.
//! - Value: the side to move's chance to win is the logistic function of
//!   the value bias plus the weights of the position's features, plus,
//!   where the weights have one, a hidden layer's rectified units over the
//!   same features (`weights::Hidden`).
//!
//! The weights of the configurations we trained are embedded in the binary
//! (`weights/`, see `embedded.rs`); others load from a file (`Weights`
//! option). Search reads a model through [`crate::search::Evaluator`]; the
//! model knows nothing of search beyond that trait.

mod embedded;
pub mod weights;

pub use weights::Weights;

use crate::games::{FeatureRows, Game};
use crate::search::Evaluator;
use std::cell::RefCell;
use std::path::Path;
use std::sync::Arc;

/// A policy and a value over a game's features.
#[derive(Clone, Debug)]
pub struct Model {
    weights: Weights,
}

thread_local! {
    /// Feature buffers, one set per thread (searches share one model).
    static SCRATCH: RefCell<(Vec<u32>, FeatureRows)> = RefCell::new((Vec::new(), FeatureRows::default()));
}

impl Model {
    /// The model of `weights`, once they are checked against `game`.
    pub fn new<G: Game>(weights: Weights, game: &G) -> Result<Model, String> {
        weights.check(game)?;
        Ok(Model { weights })
    }

    pub fn weights(&self) -> &Weights {
        &self.weights
    }

    /// The softmax of the move logits of `rows` into `out`.
    pub fn softmax(&self, rows: &FeatureRows, out: &mut Vec<f32>) {
        out.clear();
        out.extend((0..rows.len()).map(|i| self.weights.move_logit(rows.row(i))));
        softmax_in_place(out);
    }
}

/// Turns logits into probabilities (max-shifted for stability).
pub fn softmax_in_place(values: &mut [f32]) {
    let max = values.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let mut sum = 0.0;
    for v in values.iter_mut() {
        *v = (*v - max).exp();
        sum += *v;
    }
    if sum > 0.0 {
        let inverse = 1.0 / sum;
        values.iter_mut().for_each(|v| *v *= inverse);
    }
}

#[inline]
pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

impl<G: Game> Evaluator<G> for Model {
    fn priors(&self, state: &G, moves: &[G::Move], out: &mut Vec<f32>) {
        SCRATCH.with(|scratch| {
            let rows = &mut scratch.borrow_mut().1;
            state.move_features(moves, rows);
            self.softmax(rows, out);
        });
    }

    fn value(&self, state: &G) -> f32 {
        SCRATCH.with(|scratch| {
            let features = &mut scratch.borrow_mut().0;
            features.clear();
            state.position_features(features);
            sigmoid(self.weights.value_logit(features))
        })
    }
}

/// Where a session's knowledge comes from (the `Weights` option).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// The weights built into the engine for the configuration, if any.
    Embedded,
    /// No learned knowledge.
    Nothing,
    /// A weight file.
    File(String),
}

impl Source {
    /// The `Weights` option's value: empty for the embedded weights,
    /// `none` for none, else a path.
    pub fn parse(option: &str) -> Source {
        let option = option.trim();
        if option.is_empty() || option == "<empty>" || option.eq_ignore_ascii_case("embedded") {
            Source::Embedded
        } else if option.eq_ignore_ascii_case("none") {
            Source::Nothing
        } else {
            Source::File(option.to_string())
        }
    }
}

impl std::fmt::Display for Source {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Source::Embedded => write!(f, "embedded"),
            Source::Nothing => write!(f, "none"),
            Source::File(path) => write!(f, "{path}"),
        }
    }
}

/// The model built into the engine for `game`'s configuration, if any.
pub fn embedded<G: Game>(game: &G) -> Option<Arc<Model>> {
    let bytes = embedded::bytes_for(&game.describe())?;
    let weights = Weights::from_bytes(bytes).ok()?;
    Model::new(weights, game).ok().map(Arc::new)
}

/// The model of `source` for `game`. On an error the caller keeps what it
/// had (the embedded model).
pub fn load<G: Game>(game: &G, source: &Source) -> Result<Option<Arc<Model>>, String> {
    match source {
        Source::Embedded => Ok(embedded(game)),
        Source::Nothing => Ok(None),
        Source::File(path) => {
            let weights = Weights::read(Path::new(path))?;
            Model::new(weights, game)
                .map(|m| Some(Arc::new(m)))
                .map_err(|e| format!("{path}: {e}"))
        }
    }
}

/// Every configuration that has embedded weights (its `describe` text).
pub fn embedded_configurations() -> Vec<&'static str> {
    embedded::configurations()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn softmax_sums_to_one_and_keeps_order() {
        let mut v = vec![1.0, 3.0, 2.0, -50.0];
        softmax_in_place(&mut v);
        assert!((v.iter().sum::<f32>() - 1.0).abs() < 1e-5);
        assert!(v[1] > v[2] && v[2] > v[0] && v[0] > v[3]);
        let mut empty: Vec<f32> = Vec::new();
        softmax_in_place(&mut empty);
    }

    #[test]
    fn sources() {
        assert_eq!(Source::parse(""), Source::Embedded);
        assert_eq!(Source::parse("None"), Source::Nothing);
        assert_eq!(Source::parse(" w.qw "), Source::File("w.qw".into()));
    }
}

//! Learning game knowledge from self-play (`quintet train`): self-play
//! records (`data`), exact values proven for their positions (`exact`),
//! samples made from them (`dataset`), the fit of a
//! policy and a value (`fit`), and the generations that tie them
//! together (`train`). Nothing here knows a particular game: features come
//! from the game through the `Game` trait.

pub mod data;
pub mod dataset;
pub mod exact;
pub mod fit;
pub mod selfplay;
pub mod train;

pub use train::{TrainSettings, run};

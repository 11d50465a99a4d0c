//! Tools over any one game: perft and the consistency self-check.

pub mod perft;
pub mod selfcheck;

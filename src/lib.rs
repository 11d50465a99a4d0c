//! quintet: a UGI engine for Hadron, Tritium, Nadraz, Ihex and Atoms.
//!
//! Layout, every import pointing down: `games` (rules only, one file per
//! game, and the features each describes), `model` (learned weights over
//! those features; it implements search's `Evaluator`), `search` (generic
//! searchers behind one trait), `tools` (perft and
//! the self-check over one game), `session` (a game plus its searcher
//! behind one trait), `registry` (names and parameters to games), `runs`
//! (bench and self-check over registered games), `protocol` (UGI),
//! `matches` (the match runner and opening suites), `learn` (self-play
//! training of the models), and `cli`, which only
//! parses the command line and dispatches.

pub mod cli;
pub mod games;
pub mod learn;
pub mod matches;
pub mod model;
pub mod protocol;
pub mod registry;
pub mod runs;
pub mod search;
pub mod session;
pub mod tools;

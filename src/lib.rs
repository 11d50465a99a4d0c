//! quintet: a UGI engine for Hadron, Tritium, Nadraz, Ihex and Atoms.
//!
//! Layout, every import pointing down: `games` (rules only, one file per
//! game, and the features each describes), `search` (generic searchers
//! behind one trait), `model` (learned weights over the games' features;
//! it implements search's `Evaluator`), `tools` (perft and the self-check
//! over one game), `draw` (pictures of positions as SVG or terminal text),
//! `session` (a game plus its searcher behind one trait), `registry` (names
//! and parameters to games), `runs` (bench and self-check over registered
//! games), `protocol` (UGI), `matches` (the match runner and opening
//! suites), `learn` (self-play training of the models), `solve` (exact
//! solving), `view` (show, HTML replay, terminal play, analysis), and
//! `cli`, which only parses the command line and dispatches.

pub mod cli;
pub mod draw;
pub mod games;
pub mod learn;
pub mod matches;
pub mod model;
pub mod protocol;
pub mod registry;
pub mod runs;
pub mod search;
pub mod session;
pub mod solve;
pub mod tools;
pub mod view;

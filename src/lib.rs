//! quintet: a UGI engine for Hadron, Tritium, Nadraz, Ihex and Atoms.
//!
//! Layout: `games` (rules only, one file per game), `search` (generic
//! searchers), `session` (a game plus its searcher behind one trait),
//! `registry` (names and parameters to sessions), `protocol` (UGI),
//! `perft` and `bench`, `matches` (the match runner and opening suites),
//! `solve` (exact solving);
//! the binary's CLI lives in `cli`.

pub mod bench;
pub mod cli;
pub mod games;
pub mod matches;
pub mod perft;
pub mod protocol;
pub mod registry;
pub mod search;
pub mod selfcheck;
pub mod session;
pub mod solve;

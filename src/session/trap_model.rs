//! The swindle's model of the opponent (the `SwindleModel` option): a
//! short plain Monte Carlo search (the `uct-plain` algorithm: UCB1, random
//! playouts, the most visited reply) from the position after a swindle
//! move. The reply it settles on is the one a Monte Carlo opponent is
//! expected to play; a move whose winning replies it passes over is a trap.
//!
//! Why: the count of winning replies says nothing of how easy they are to
//! find. Against swindles, `uct-plain` at 10 s + 100 ms found a lone
//! winning move in 21 of 29 positions, and in 47 positions where it held a
//! win with one or two winning moves, one seed of its own search at 60 ms
//! agreed with what it did in 169 of 188 tries (bench/RESULTS.md, session
//! 50). Against that opponent this model is the most it can be; what it
//! is worth against others is measured against v0.1.

use crate::games::Game;
use crate::search::searcher::GamePath;
use crate::search::uct_plain::UctPlain;
use crate::search::{Context, Limits, Plugin, Root, SearchSettings, Searcher, Setup};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// The model's search memory (its tree is 3/8 of it): far more than a
/// fraction of a second's iterations need.
const MODEL_HASH_MB: usize = 4;

/// The seed of the model's random playouts (fixed: the same question gets
/// the same answer).
const MODEL_SEED: u64 = 1;

pub struct TrapModel<G: Game> {
    searcher: UctPlain<G>,
    /// Iterations per question when fixed (tests); else the time given.
    nodes: Option<u64>,
}

impl<G: Game> TrapModel<G> {
    /// A model that thinks as long as each question allows.
    pub fn timed() -> Self {
        Self::with(None)
    }

    /// A model that spends `nodes` iterations on each question, whatever
    /// the time (the same answers on any machine).
    pub fn with_nodes(nodes: u64) -> Self {
        Self::with(Some(nodes.max(1)))
    }

    fn with(nodes: Option<u64>) -> Self {
        let mut searcher = UctPlain::new(&Setup::default());
        // A smaller tree than asked for still answers: the warning is moot.
        let _ = searcher.allocate(MODEL_HASH_MB);
        TrapModel { searcher, nodes }
    }

    /// The reply the model expects in `position` (not over, the opponent
    /// to move), thinking until `until`; `None` when there is no time.
    pub fn expected_reply(
        &mut self,
        position: &G,
        until: Instant,
        stop: &AtomicBool,
    ) -> Option<G::Move> {
        let now = Instant::now();
        let limits = match self.nodes {
            Some(nodes) => Limits::nodes(nodes),
            None => Limits::movetime(until.checked_duration_since(now)?.as_millis() as u64),
        };
        if limits.movetime == Some(0) {
            return None;
        }
        let settings = SearchSettings {
            seed: MODEL_SEED,
            move_overhead_ms: 0,
            ..SearchSettings::default()
        };
        let path = GamePath {
            start_key: position.hash(),
            moves: Vec::new(),
        };
        let root = Root {
            position,
            path: &path,
        };
        let mut quiet = |_: &_| {};
        let mut ctx = Context::new(now, stop, &mut quiet);
        Some(
            self.searcher
                .search(&root, &settings, &limits, &mut ctx)
                .best,
        )
    }
}

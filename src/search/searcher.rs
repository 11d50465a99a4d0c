//! The one trait every searcher implements, and the table of searchers the
//! `Search` option (its values, help and validation) comes from. Adding a
//! searcher is one file and one line in [`searchers!`] below.

use super::alphabeta::AlphaBetaConfig;
use super::mcts::MctsConfig;
use super::{Context, Limits, SearchResult, SearchSettings};
use crate::games::{Game, Outcome};
use std::sync::Arc;
use std::time::Instant;

/// Where a search starts: the position, and the game's path to it (the
/// start position's key and the packed moves since), so that a searcher
/// can recognise a position that extends the one it searched last.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GamePath {
    pub start_key: u64,
    pub moves: Vec<u32>,
}

pub struct Root<'a, G: Game> {
    pub position: &'a G,
    pub path: &'a GamePath,
}

/// Knowledge a searcher may consult beyond the rules: move priors and
/// position values (learned weights, see `model`).
pub trait Evaluator<G: Game>: Send + Sync {
    /// Prior probabilities of `moves` in `state` (same order, summing to 1).
    fn priors(&self, state: &G, moves: &[G::Move], out: &mut Vec<f32>);
    /// The side to move's chance to win `state` (not finished).
    fn value(&self, state: &G) -> f32;
}

/// Exact values where they come cheap: a game's solver that decides some
/// positions without search (Hadron's sums of small regions).
pub trait Oracle<G: Game>: Send + Sync {
    /// The value of `state` under perfect play and an upper bound on the
    /// plies left to the end of the game, or `None` when it cannot tell
    /// cheaply or by `deadline` (a timed search's hard limit: none under
    /// a node limit, so that such a search repeats exactly).
    fn decide(&self, state: &G, deadline: Option<Instant>) -> Option<(Outcome, u32)>;

    /// The value of `state` where a playout asks: the same as `decide`,
    /// but an oracle that can do a little less work per call should (a
    /// playout asks many times, and a miss only means it plays on). A
    /// `quick` question comes from a short search, where an oracle that can
    /// decide fewer positions far more cheaply should.
    fn decide_in_playout(
        &self,
        state: &G,
        deadline: Option<Instant>,
        _quick: bool,
    ) -> Option<Outcome> {
        self.decide(state, deadline).map(|(outcome, _)| outcome)
    }
}

/// What a game hands every searcher it builds: its tuned defaults and its
/// knowledge, if any.
pub struct Setup<G: Game> {
    pub mcts: MctsConfig,
    pub evaluator: Option<Arc<dyn Evaluator<G>>>,
    pub oracle: Option<Arc<dyn Oracle<G>>>,
    pub alphabeta: AlphaBetaConfig,
}

impl<G: Game> Clone for Setup<G> {
    fn clone(&self) -> Self {
        Setup {
            mcts: self.mcts.clone(),
            evaluator: self.evaluator.clone(),
            oracle: self.oracle.clone(),
            alphabeta: self.alphabeta.clone(),
        }
    }
}

impl<G: Game> Default for Setup<G> {
    fn default() -> Self {
        Setup {
            mcts: MctsConfig::tuned(),
            evaluator: None,
            oracle: None,
            alphabeta: AlphaBetaConfig::default(),
        }
    }
}

/// A search algorithm over one game. It owns its memory (allocated by
/// `allocate`, never inside `search`) and what it keeps between moves.
pub trait Searcher<G: Game>: Send {
    /// Sizes the search memory to `hash_mb` MiB now. When that much cannot
    /// be had, a smaller size is used and the warning says so.
    fn allocate(&mut self, hash_mb: usize) -> Option<String>;
    /// Bytes of search memory held.
    fn memory_bytes(&self) -> usize;
    /// Forgets what earlier searches learned (a new game starts).
    fn clear(&mut self);
    /// Searches `root` (not finished) within `limits`. Progress goes to
    /// `ctx` at least once a second; the final report comes with the result.
    fn search(
        &mut self,
        root: &Root<G>,
        settings: &SearchSettings,
        limits: &Limits,
        ctx: &mut Context<G::Move>,
    ) -> SearchResult<G::Move>;

    /// The root's moves and their visit counts after the last search, for
    /// searchers that count visits (self-play learns from them); empty
    /// for others.
    fn root_visits(&self) -> Vec<(G::Move, u32)> {
        Vec::new()
    }

    /// Whether the session may prove positions before this searcher
    /// searches them (and take its proof table out of `Hash`). The fixed
    /// baseline says no: it must play exactly as v0.1 did.
    fn takes_proofs(&self) -> bool {
        true
    }
}

/// A searcher the table can build.
pub trait Plugin<G: Game>: Searcher<G> + Sized + 'static {
    fn new(setup: &Setup<G>) -> Self;
}

/// One row of the searcher table.
#[derive(Debug)]
pub struct SearcherInfo {
    pub name: &'static str,
    pub help: &'static str,
}

/// `Search auto`: the searcher each game measured strongest.
pub const AUTO: SearcherInfo = SearcherInfo {
    name: "auto",
    help: "per game, the searcher and settings that measured strongest",
};

/// The searcher table: name, type, help. Generates [`SEARCHERS`] and
/// [`build`].
macro_rules! searchers {
    ($($name:literal => $($ty:ident)::+ : $help:literal;)*) => {
        /// Every searcher that can be chosen by name (`auto` aside).
        pub const SEARCHERS: &[SearcherInfo] = &[$(SearcherInfo { name: $name, help: $help }),*];

        /// A new searcher of the given name (as in [`SEARCHERS`]).
        pub fn build<G: Game>(name: &str, setup: &Setup<G>) -> Option<Box<dyn Searcher<G>>> {
            match name {
                $($name => Some(Box::new(<super::$($ty)::+<G> as Plugin<G>>::new(setup))),)*
                _ => None,
            }
        }
    };
}

searchers! {
    "mcts" => mcts::Mcts: "Monte Carlo tree search: UCT (or PUCT with learned priors), solver, tree reuse, threads";
    "alphabeta" => alphabeta::AlphaBeta: "negamax alpha-beta with iterative deepening, transposition table, captures past the horizon, Lazy SMP threads";
    "uct-plain" => uct_plain::UctPlain: "the fixed baseline: UCB1 (c = sqrt 2), uniform random playouts, robust child, one thread";
    "random" => random::RandomMover: "a uniformly random legal move";
}

/// The names `Search` accepts: `auto` first, then the table.
pub fn names() -> Vec<&'static str> {
    std::iter::once(AUTO.name)
        .chain(SEARCHERS.iter().map(|s| s.name))
        .collect()
}

/// The canonical name of a searcher (case-insensitive), or an error that
/// lists the choices.
pub fn canonical(name: &str) -> Result<&'static str, String> {
    let wanted = name.trim();
    names()
        .into_iter()
        .find(|n| n.eq_ignore_ascii_case(wanted))
        .ok_or_else(|| {
            format!(
                "unknown search '{wanted}' (searches: {})",
                names().join(", ")
            )
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::hadron::Hadron;

    #[test]
    fn every_listed_searcher_builds_and_names_resolve() {
        let setup = Setup::<Hadron<u64>>::default();
        for info in SEARCHERS {
            assert!(build(info.name, &setup).is_some(), "{}", info.name);
            assert_eq!(canonical(&info.name.to_uppercase()), Ok(info.name));
        }
        assert_eq!(canonical("Auto"), Ok("auto"));
        assert!(build("auto", &setup).is_none(), "auto is resolved per game");
        let err = canonical("mtcs").unwrap_err();
        assert!(err.contains("mtcs") && err.contains("uct-plain"), "{err}");
    }
}

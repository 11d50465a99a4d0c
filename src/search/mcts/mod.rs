//! Monte Carlo tree search over any game.
//!
//! - One arena of 24-byte nodes (`tree.rs`), children contiguous, sized by
//!   `Hash`; when it is full the tree stops growing and search continues
//!   from its leaves.
//! - Tree-parallel threads: every thread walks the same tree; statistics
//!   are atomics and a visit is counted on the way down (a virtual loss),
//!   so threads spread out; each thread keeps its own counts and publishes
//!   them in batches.
//! - UCT (every child tried once first, or a first-play urgency), or PUCT
//!   with an evaluator's priors; leaves scored by playouts
//!   (optionally cut off and evaluated by the game or by the evaluator's
//!   value), by the evaluator's value, or both.
//! - MCTS-Solver: proven results propagate up (`score mate N`).
//! - Tree reuse: when the new position extends the last searched path, its
//!   subtree becomes the tree (in place).
//! - Robust child (most visits) as the final choice; early stop on a clock
//!   once the best move can no longer be overtaken.

mod select;
mod tree;
mod worker;

pub use tree::NODE_BYTES;

use super::mate::{self, MateBudget};
use super::searcher::GamePath;
use super::time::TimeManager;
use super::{
    Context, Evaluator, Limits, Oracle, Plugin, Report, Root, RootMove, Score, SearchResult,
    SearchSettings, Searcher, Setup, Tuning, Variation, win_rate_to_cp,
};
use crate::games::{CompactMove, Game, Seat};
use select::{best_child, ranked_children};
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::thread;
use std::time::{Duration, Instant};
use tree::{Proof, RELAXED, State, Tree};
use worker::Worker;

/// A shorter playout cut for short timed searches.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct QuickCutoff {
    pub plies: u32,
    pub up_to_ms: u64,
}

/// Whether a search that should take `target` (`None`: untimed) is a
/// short one, meant to take at most `up_to_ms`.
fn is_quick(target: Option<Duration>, up_to_ms: u64) -> bool {
    target.is_some_and(|target| target.as_millis() <= u128::from(up_to_ms))
}

/// The tunable behaviour of MCTS for one game.
#[derive(Clone, Debug, PartialEq)]
pub struct MctsConfig {
    /// The exploration constant: c in UCT's mean + c * sqrt(ln N / n), or
    /// in PUCT's mean + c * prior * sqrt(N) / (1 + n).
    pub exploration: f32,
    /// Visits a leaf needs before it is expanded (at least 1).
    pub expand_after: u32,
    /// Nodes with more children than this are ordered (by evaluation, or
    /// by prior) and widened progressively (`None`: all open at once).
    pub widen_above: Option<u32>,
    /// End playouts after this many plies and score the position with the
    /// game's evaluation (`None`: play to the end).
    pub playout_cutoff: Option<u32>,
    /// Timed searches whose target time is at most this many milliseconds
    /// cut their playouts at these plies instead (a short search gains
    /// more from many short playouts than from fewer longer ones).
    pub quick_cutoff: Option<QuickCutoff>,
    /// The evaluation that means a 73% (1 / (1 + e^-1)) chance to win.
    pub eval_scale: f32,
    /// With an evaluator: the weight of its value at a leaf (1: value
    /// only, 0: playouts only, between: a mix).
    pub value_weight: f32,
    /// PUCT: an unvisited child counts its parent's mean less this.
    pub first_play_reduction: f32,
    /// PUCT: the priors are the evaluator's raised to 1 / this and
    /// renormalised (a softmax's logits divided by it): below 1 the search
    /// trusts the learned policy's favourites more than it was fitted to.
    pub prior_temperature: f32,
    /// UCT: the score of an unvisited child (first-play urgency); `None`:
    /// every unvisited child before any second visit.
    pub first_play_urgency: Option<f32>,
    /// With an evaluator: select by PUCT over its priors (false: UCT, and
    /// the priors are never computed, which saves their features at every
    /// expansion).
    pub priors: bool,
    /// With an evaluator: cut playouts are scored by its value instead of
    /// the game's evaluation (one position's features per playout).
    pub value_at_cutoff: bool,
    /// With an oracle (proofs during play): playouts ask it every this many
    /// plies and end with its exact value where it decides (`None`: never).
    pub playout_oracle: Option<u32>,
    /// Timed searches meant to take at most this many milliseconds ask the
    /// oracle's quick question from their playouts (fewer positions
    /// decided, each far cheaper: a short search gains more from many
    /// playouts than from exact ends); longer and untimed ones its full one.
    pub quick_oracle_up_to_ms: Option<u64>,
}

impl MctsConfig {
    /// Our default configuration.
    pub const fn tuned() -> Self {
        MctsConfig {
            exploration: 0.7,
            expand_after: 1,
            widen_above: Some(200),
            playout_cutoff: None,
            quick_cutoff: None,
            eval_scale: 100.0,
            value_weight: 1.0,
            first_play_reduction: 0.2,
            prior_temperature: 1.0,
            first_play_urgency: None,
            priors: true,
            value_at_cutoff: false,
            playout_oracle: None,
            quick_oracle_up_to_ms: None,
        }
    }

    /// This configuration with evaluated playouts cut after `plies`.
    pub const fn with_cutoff(mut self, plies: u32, eval_scale: f32) -> Self {
        self.playout_cutoff = Some(plies);
        self.eval_scale = eval_scale;
        self
    }

    /// Timed searches meant to take at most `up_to_ms` cut their playouts
    /// after `plies` instead.
    pub const fn with_quick_cutoff(mut self, plies: u32, up_to_ms: u64) -> Self {
        self.quick_cutoff = Some(QuickCutoff { plies, up_to_ms });
        self
    }

    /// The playout cut for a search that should take `target` (`None`:
    /// untimed, e.g. by nodes, which keeps the usual cut).
    pub fn cutoff_for(&self, target: Option<Duration>) -> Option<u32> {
        match self.quick_cutoff {
            Some(quick) if is_quick(target, quick.up_to_ms) => Some(quick.plies),
            _ => self.playout_cutoff,
        }
    }

    /// Timed searches meant to take at most `up_to_ms` ask the oracle's
    /// quick question from their playouts.
    pub const fn with_quick_oracle(mut self, up_to_ms: u64) -> Self {
        self.quick_oracle_up_to_ms = Some(up_to_ms);
        self
    }

    /// Whether a search that should take `target` (`None`: untimed) asks
    /// the oracle's quick question from its playouts.
    pub fn quick_oracle_for(&self, target: Option<Duration>) -> bool {
        self.quick_oracle_up_to_ms
            .is_some_and(|up_to_ms| is_quick(target, up_to_ms))
    }

    pub const fn with_exploration(mut self, c: f32) -> Self {
        self.exploration = c;
        self
    }

    /// UCT scores an unvisited child `urgency` instead of before all else.
    pub const fn with_first_play_urgency(mut self, urgency: f32) -> Self {
        self.first_play_urgency = Some(urgency);
        self
    }

    /// With an oracle: playouts ask it every `plies` plies.
    pub const fn with_playout_oracle(mut self, plies: u32) -> Self {
        self.playout_oracle = Some(plies);
        self
    }

    /// PUCT: the priors sharpened (below 1) or flattened (above 1).
    pub const fn with_prior_temperature(mut self, temperature: f32) -> Self {
        self.prior_temperature = temperature;
        self
    }

    /// With an evaluator: the learned value's weight at leaves.
    pub const fn with_value_weight(mut self, weight: f32) -> Self {
        self.value_weight = weight;
        self
    }

    /// With an evaluator: its value scores cut playouts, and nothing else
    /// of it is used (UCT without priors, no value mixed in at leaves), so
    /// its features are computed once per playout, never per node.
    pub const fn with_cutoff_value(mut self) -> Self {
        self.priors = false;
        self.value_weight = 0.0;
        self.value_at_cutoff = true;
        self
    }

    /// The configuration with hand-set values over it.
    pub fn tuned_by(&self, tuning: &Tuning) -> Self {
        let mut config = self.clone();
        if let Some(c) = tuning.exploration {
            config.exploration = c;
        }
        if let Some(n) = tuning.expand_after {
            config.expand_after = n.max(1);
        }
        if let Some(above) = tuning.widen_above {
            config.widen_above = Some(above);
        }
        if let Some(cutoff) = tuning.playout_cutoff {
            // A cut set by hand holds whatever the time.
            config.playout_cutoff = (cutoff > 0).then_some(cutoff);
            config.quick_cutoff = None;
        }
        if let Some(urgency) = tuning.first_play_urgency {
            config.first_play_urgency = (urgency > 0.0).then_some(urgency);
        }
        if let Some(scale) = tuning.eval_scale {
            config.eval_scale = scale;
        }
        if let Some(weight) = tuning.value_weight {
            config.value_weight = weight.clamp(0.0, 1.0);
        }
        if let Some(temperature) = tuning.prior_temperature {
            config.prior_temperature = temperature;
        }
        if let Some(priors) = tuning.priors {
            config.priors = priors;
        }
        if let Some(value) = tuning.value_at_cutoff {
            config.value_at_cutoff = value;
        }
        if let Some(plies) = tuning.playout_oracle {
            config.playout_oracle = (plies > 0).then_some(plies);
        }
        config
    }
}

/// Share of `Hash` a re-rooted subtree may pass through on its way to the
/// front of the arena (at most `REROOT_MAX_BYTES`).
const REROOT_SHARE: usize = 8;
const REROOT_MAX_BYTES: usize = 32 << 20;

pub struct Mcts<G: Game> {
    setup: Setup<G>,
    tree: Option<Tree>,
    /// The `Hash` the tree was made for.
    hash_mb: usize,
    /// The path searched last, while the tree holds its search.
    last_path: Option<GamePath>,
}

impl<G: Game> Plugin<G> for Mcts<G> {
    fn new(setup: &Setup<G>) -> Self {
        Mcts {
            setup: setup.clone(),
            tree: None,
            hash_mb: 0,
            last_path: None,
        }
    }
}

/// What every thread of one search shares.
pub(super) struct Shared<'a, G: Game> {
    tree: &'a Tree,
    config: &'a MctsConfig,
    evaluator: Option<&'a dyn Evaluator<G>>,
    /// Decides leaves exactly where that is cheap (they become proven).
    oracle: Option<&'a dyn Oracle<G>>,
    /// A timed search's hard limit, which the oracle must not pass (one
    /// leaf's region values can take longer than a whole move).
    deadline: Option<Instant>,
    /// Playouts ask the oracle its quick question (a short timed search).
    quick_oracle: bool,
    /// Iterations: claimed one by one under a node limit (exact), else
    /// published in batches.
    iterations: AtomicU64,
    depth_sum: AtomicU64,
    max_depth: AtomicU32,
    /// The main thread has finished: helpers end too.
    done: AtomicBool,
    /// The arena had no room for an expansion: stop trying.
    full: AtomicBool,
    node_limit: Option<u64>,
    /// More than one thread: counts must be atomic read-modify-writes.
    threaded: bool,
    /// Root moves reported with their own lines.
    multipv: usize,
    /// Report every root move's statistics.
    move_stats: bool,
}

impl<G: Game> Shared<'_, G> {
    #[inline]
    fn nodes(&self) -> &[tree::Node] {
        self.tree.nodes()
    }

    /// The evaluator whose priors order and select children, if any.
    #[inline]
    fn priors(&self) -> Option<&dyn Evaluator<G>> {
        self.evaluator.filter(|_| self.config.priors)
    }

    /// The evaluator whose value scores cut-off playouts, if any.
    #[inline]
    fn cutoff_value(&self) -> Option<&dyn Evaluator<G>> {
        self.evaluator.filter(|_| self.config.value_at_cutoff)
    }

    /// Visits a leaf needs before it expands: the configured number,
    /// doubled for each quarter of the arena in use, so a long search keeps
    /// growing its tree where it matters instead of filling it early.
    #[inline]
    fn expansion_threshold(&self) -> u32 {
        let quarters = 4 * self.tree.used() / self.tree.capacity().max(1);
        self.config.expand_after.max(1) << quarters.min(3)
    }
}

impl<G: Game> Searcher<G> for Mcts<G> {
    fn allocate(&mut self, hash_mb: usize) -> Option<String> {
        let hash_mb = hash_mb.max(1);
        if self.tree.is_some() && self.hash_mb == hash_mb {
            return None;
        }
        // Free the old arena before the new one exists.
        self.tree = None;
        self.last_path = None;
        let (tree, warning) = Tree::with_bytes(hash_mb << 20, 2);
        self.tree = Some(tree);
        self.hash_mb = hash_mb;
        warning
    }

    fn memory_bytes(&self) -> usize {
        self.tree.as_ref().map_or(0, Tree::bytes)
    }

    fn clear(&mut self) {
        self.last_path = None;
        if let Some(tree) = &self.tree {
            tree.reset_root();
        }
    }

    fn search(
        &mut self,
        root: &Root<G>,
        settings: &SearchSettings,
        limits: &Limits,
        ctx: &mut Context<G::Move>,
    ) -> SearchResult<G::Move> {
        let position = root.position;
        let mut config = self.setup.mcts.tuned_by(&settings.tuning);
        let mut moves = Vec::new();
        position.search_moves(&mut moves);
        // The root's children always fit, even where Hash is tiny.
        if self
            .tree
            .as_ref()
            .is_none_or(|t| t.capacity() < moves.len() + 1)
        {
            self.tree = None;
            self.tree = Some(Tree::with_bytes(tree::NODE_BYTES * (moves.len() + 1), 2).0);
            self.last_path = None;
        }
        let tree = self.tree.as_ref().expect("made above");
        if !reuse(tree, self.last_path.as_ref(), root.path, moves.len()) {
            tree.reset_root();
        }
        self.last_path = Some(root.path.clone());
        let time = ctx.time_plan(limits, position, settings);
        // What the quick settings go by: untimed searches have no target.
        let timed_target = time.target().filter(|_| limits.is_timed());
        config.playout_cutoff = config.cutoff_for(timed_target);
        let threads = settings.threads.max(1);
        let shared = Shared {
            tree,
            config: &config,
            evaluator: self.setup.evaluator.as_deref(),
            oracle: self.setup.oracle.as_deref(),
            deadline: time
                .hard()
                .filter(|_| limits.is_timed())
                .map(|hard| ctx.start + hard),
            quick_oracle: config.quick_oracle_for(timed_target),
            iterations: AtomicU64::new(0),
            depth_sum: AtomicU64::new(0),
            max_depth: AtomicU32::new(0),
            done: AtomicBool::new(false),
            full: AtomicBool::new(false),
            node_limit: limits.nodes,
            threaded: threads > 1,
            multipv: settings.multipv.max(1),
            move_stats: settings.move_stats,
        };
        let mut main = Worker::<G>::new(settings.seed);
        main.expand_root(&shared, position);
        let forced = shared.nodes()[0].child_count.load(RELAXED) == 1 && limits.is_timed();
        if !forced {
            thread::scope(|scope| {
                for i in 1..threads {
                    let shared = &shared;
                    let seed = settings.seed.wrapping_add(i as u64 * 0x9E37_79B9);
                    scope.spawn(move || {
                        let mut worker = Worker::<G>::new(seed);
                        while !shared.done.load(RELAXED) {
                            if !worker.iterate(shared, position) {
                                break;
                            }
                        }
                        worker.publish(shared);
                    });
                }
                lead(&mut main, &shared, position, limits, &time, ctx);
                shared.done.store(true, Ordering::Relaxed);
            });
        }
        let quicker = quicker_win(&shared, position, limits, &time, ctx);
        if limits.infinite {
            ctx.wait_for_stop();
        }
        let mut report = report(&shared, position, ctx);
        let mut best_node = best_child(shared.nodes(), 0, position.side_to_move());
        if let Some((child, plies)) = quicker {
            best_node = child;
            report.score = proof_score(
                Proof::Win(position.side_to_move()),
                plies,
                position.side_to_move(),
            );
            report.pv = line_from(shared.nodes(), position, child);
        }
        let best = G::Move::unpack(shared.nodes()[best_node].mv.load(RELAXED));
        SearchResult { best, report }
    }

    fn root_visits(&self) -> Vec<(G::Move, u32)> {
        let Some(tree) = &self.tree else {
            return Vec::new();
        };
        let nodes = tree.nodes();
        if nodes[0].state() != State::Expanded {
            return Vec::new();
        }
        nodes[0]
            .children()
            .map(|c| {
                let n = &nodes[c];
                (G::Move::unpack(n.mv.load(RELAXED)), n.visits.load(RELAXED))
            })
            .collect()
    }
}

/// Makes the node at the end of `path` (if the tree holds the search of a
/// path it extends) the root. Whether the tree was kept.
fn reuse(tree: &Tree, last: Option<&GamePath>, path: &GamePath, root_moves: usize) -> bool {
    let Some(last) = last else {
        return false;
    };
    if last.start_key != path.start_key || !path.moves.starts_with(&last.moves) {
        return false;
    }
    let nodes = tree.nodes();
    let mut node = 0usize;
    for &mv in &path.moves[last.moves.len()..] {
        if nodes[node].state() != State::Expanded {
            return false;
        }
        match nodes[node]
            .children()
            .find(|&c| nodes[c].mv.load(RELAXED) == mv)
        {
            Some(child) => node = child,
            None => return false,
        }
    }
    // A node without children (never expanded, or cut by an earlier
    // re-rooting, which keeps its proof) cannot be the root: start afresh.
    if nodes[node].state() != State::Expanded {
        return false;
    }
    let budget = (tree.bytes() / REROOT_SHARE).min(REROOT_MAX_BYTES) / tree::NODE_BYTES;
    // The root's own children must come along.
    tree.reroot(node, budget.max(root_moves + 1));
    true
}

/// Playouts a mate search may spend when only a depth bounds the search.
const MATE_NODES_UNBOUNDED: u64 = 1_000_000;

/// On a root proven won: a quicker win than the proof's, if an exhaustive
/// search finds one within what is left of the limits (the solver backs up
/// the first win it proves, not the quickest). The root child to play and
/// its distance in plies.
fn quicker_win<G: Game>(
    shared: &Shared<G>,
    root: &G,
    limits: &Limits,
    time: &TimeManager,
    ctx: &Context<G::Move>,
) -> Option<(usize, u32)> {
    let nodes = shared.nodes();
    let meta = nodes[0].meta();
    if meta.proof() != Proof::Win(root.side_to_move()) || meta.proof_plies() <= 1 {
        return None;
    }
    let budget = MateBudget {
        nodes: match limits.nodes {
            Some(n) => Some(n.saturating_sub(shared.iterations.load(RELAXED))),
            None if !limits.infinite && time.target().is_none() => Some(MATE_NODES_UNBOUNDED),
            None => None,
        },
        deadline: time.target().map(|t| ctx.start + t),
        stop: Some(ctx.stop),
    };
    let (mv, plies) = mate::quickest_win(root, meta.proof_plies() - 1, &budget).win?;
    let child = nodes[0]
        .children()
        .find(|&c| nodes[c].mv.load(RELAXED) == mv.pack())?;
    Some((child, plies))
}

/// The main thread: iterates, watches the limits and reports.
fn lead<G: Game>(
    worker: &mut Worker<G>,
    shared: &Shared<G>,
    root: &G,
    limits: &Limits,
    time: &TimeManager,
    ctx: &mut Context<G::Move>,
) {
    // Look at the clock often enough to answer within ~0.2 ms of a limit,
    // rarely enough that fast playouts do not pay for it.
    let mut check_every = 1u32;
    let mut since_check = 0u32;
    let mut last_check = Duration::ZERO;
    // The plan's clock may have run before this search began (an in-play
    // proof takes its share first): the rate of iterations counts from here.
    let began = ctx.elapsed();
    loop {
        if !worker.iterate(shared, root) {
            break;
        }
        if limits.depth.is_some_and(|d| worker.max_depth() >= d) {
            break;
        }
        since_check += 1;
        if since_check < check_every {
            continue;
        }
        since_check = 0;
        let elapsed = ctx.elapsed();
        let gap = elapsed.saturating_sub(last_check);
        last_check = elapsed;
        if gap < Duration::from_micros(50) {
            check_every = (check_every * 2).min(256);
        } else if gap > Duration::from_micros(200) {
            check_every = (check_every / 2).max(1);
        }
        if ctx.stopped() {
            break;
        }
        if !limits.infinite {
            if time.target().is_some_and(|target| elapsed >= target) {
                break;
            }
            if shared.nodes()[0].proof() != Proof::Unknown {
                break;
            }
            let done = shared.iterations.load(RELAXED) + worker.unpublished() as u64;
            if limits.is_timed()
                && decided(shared, time, elapsed, elapsed.saturating_sub(began), done)
            {
                break;
            }
        }
        if ctx.report_due() {
            worker.publish(shared);
            let report = report(shared, root, ctx);
            ctx.report(&report);
        }
    }
    worker.publish(shared);
}

fn report<G: Game>(shared: &Shared<G>, root: &G, ctx: &Context<G::Move>) -> Report<G::Move> {
    let nodes = shared.nodes();
    let mover = root.side_to_move();
    let root_meta = nodes[0].meta();
    let score = match root_meta.proof() {
        Proof::Unknown => {
            let best = best_child(nodes, 0, mover);
            Score::Cp(win_rate_to_cp(nodes[best].mean() as f64))
        }
        proof => proof_score(proof, root_meta.proof_plies(), mover),
    };
    let ranked = ranked_children(nodes, 0, mover);
    let alternatives = ranked
        .iter()
        .skip(1)
        .take(shared.multipv - 1)
        .map(|&child| Variation {
            score: child_score(nodes, child, mover),
            pv: line_from(nodes, root, child),
        })
        .collect();
    let root_moves = if shared.move_stats {
        ranked
            .iter()
            .map(|&child| {
                let n = &nodes[child];
                let meta = n.meta();
                RootMove {
                    mv: G::Move::unpack(n.mv.load(RELAXED)),
                    visits: n.visits.load(RELAXED) as u64,
                    win_rate: n.mean(),
                    prior: meta.prior(),
                    proven: match meta.proof() {
                        Proof::Unknown => None,
                        proof => Some(proof_score(proof, meta.proof_plies() + 1, mover)),
                    },
                }
            })
            .collect()
    } else {
        Vec::new()
    };
    let iterations = shared.iterations.load(RELAXED);
    Report {
        depth: (shared.depth_sum.load(RELAXED) as f64 / iterations.max(1) as f64).round() as u32,
        seldepth: shared.max_depth.load(RELAXED),
        score,
        nodes: iterations,
        time_ms: ctx.elapsed_ms(),
        pv: ranked
            .first()
            .map_or_else(Vec::new, |&best| line_from(nodes, root, best)),
        hashfull: Some(shared.tree.permille_used()),
        alternatives,
        root_moves,
    }
}

/// A proof seen from `mover`: a mate score in moves (plies to the end,
/// rounded up to `mover`'s moves), or 0 for a draw.
fn proof_score(proof: Proof, plies: u32, mover: Seat) -> Score {
    let moves = ((plies as i32 + 1) / 2).max(1);
    match proof {
        Proof::Win(seat) if seat == mover => Score::Mate(moves),
        Proof::Win(_) => Score::Mate(-moves),
        _ => Score::Cp(0),
    }
}

/// The score of the root move into `child` for `mover`.
fn child_score(nodes: &[tree::Node], child: usize, mover: Seat) -> Score {
    let meta = nodes[child].meta();
    match meta.proof() {
        Proof::Unknown => Score::Cp(win_rate_to_cp(nodes[child].mean() as f64)),
        proof => proof_score(proof, meta.proof_plies() + 1, mover),
    }
}

/// The line that starts with the move into `child` (a child of the root)
/// and follows the best child while it has visits.
fn line_from<G: Game>(nodes: &[tree::Node], root: &G, child: usize) -> Vec<G::Move> {
    let mut state = root.clone();
    let mut pv = Vec::new();
    let mut node = child;
    loop {
        if nodes[node].visits.load(RELAXED) == 0 && !pv.is_empty() {
            break;
        }
        let mv = G::Move::unpack(nodes[node].mv.load(RELAXED));
        pv.push(mv);
        state.play(mv);
        if nodes[node].state() != State::Expanded || pv.len() >= 64 {
            break;
        }
        node = best_child(nodes, node, state.side_to_move());
    }
    pv
}

/// Whether the most visited root move can no longer be overtaken in the
/// time left, at the current rate of iterations (on a clock only: a fixed
/// move time is spent whole). `elapsed` counts from the plan's start,
/// `searched` from this search's, which made `done` iterations.
fn decided<G: Game>(
    shared: &Shared<G>,
    time: &TimeManager,
    elapsed: Duration,
    searched: Duration,
    done: u64,
) -> bool {
    let Some(soft) = time.soft() else {
        return false;
    };
    // Judge the rate only over a tenth of the move's time of searching.
    if searched < soft / 10 || done == 0 {
        return false;
    }
    let nodes = shared.nodes();
    let mut first = 0u32;
    let mut second = 0u32;
    for c in nodes[0].children() {
        let v = nodes[c].visits.load(RELAXED);
        if v > first {
            second = first;
            first = v;
        } else if v > second {
            second = v;
        }
    }
    let rate = done as f64 / searched.as_secs_f64().max(1e-6);
    let remaining = rate * soft.saturating_sub(elapsed).as_secs_f64();
    (first - second) as f64 > remaining
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_timed_searches_take_the_quick_cut_and_others_the_usual_one() {
        let config = MctsConfig::tuned()
            .with_cutoff(20, 400.0)
            .with_quick_cutoff(14, 200);
        let ms = |n| Some(Duration::from_millis(n));
        assert_eq!(config.cutoff_for(ms(90)), Some(14));
        assert_eq!(config.cutoff_for(ms(200)), Some(14));
        assert_eq!(config.cutoff_for(ms(201)), Some(20));
        assert_eq!(config.cutoff_for(ms(5000)), Some(20));
        assert_eq!(config.cutoff_for(None), Some(20));
        let without = MctsConfig::tuned().with_cutoff(20, 400.0);
        assert_eq!(without.cutoff_for(ms(90)), Some(20));
        let by_hand = config.tuned_by(&Tuning {
            playout_cutoff: Some(30),
            ..Tuning::default()
        });
        assert_eq!(by_hand.cutoff_for(ms(90)), Some(30));
    }

    #[test]
    fn short_timed_searches_ask_the_oracle_quick_questions_and_others_full_ones() {
        let config = MctsConfig::tuned().with_quick_oracle(200);
        let ms = |n| Some(Duration::from_millis(n));
        assert!(config.quick_oracle_for(ms(90)));
        assert!(config.quick_oracle_for(ms(200)));
        assert!(!config.quick_oracle_for(ms(201)));
        assert!(!config.quick_oracle_for(None));
        assert!(!MctsConfig::tuned().quick_oracle_for(ms(90)));
    }
}

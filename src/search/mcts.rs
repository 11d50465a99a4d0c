//! Monte Carlo tree search over any game.
//!
//! - One arena of nodes, children contiguous, sized by the `Hash` option
//!   (two halves: the live tree and a spare for re-rooting). When the arena
//!   is full the tree stops growing and search continues from its leaves.
//! - Tree-parallel: every thread walks the same tree; node statistics are
//!   atomics and a visit is counted on the way down (virtual loss), so
//!   threads spread out.
//! - UCT selection with optional progressive widening (huge move lists are
//!   ordered by the game's evaluation and opened a few at a time).
//! - MCTS-Solver: proven results propagate up (reported as `score mate N`).
//! - Tree reuse: when the new position extends the last searched line, the
//!   matching subtree becomes the new root.
//! - Robust child (most visits) as the final choice.

use super::position_stats::PositionStats;
use super::time::{self, Budget};
use super::{Context, Info, Limits, Score, SearchResult, SearchSettings, win_rate_to_cp};
use crate::games::{CompactMove, Game, GameRng, Outcome, Seat, random_below};
use rand::{Rng, SeedableRng};
use std::sync::atomic::{
    AtomicBool, AtomicU8, AtomicU16, AtomicU32, AtomicU64, AtomicUsize, Ordering,
};
use std::thread;
use std::time::Duration;

const RELAXED: Ordering = Ordering::Relaxed;

/// Tunable behaviour of one MCTS flavour.
#[derive(Clone, Debug, PartialEq)]
pub struct MctsConfig {
    /// The UCT exploration constant c in q + c * sqrt(ln N / n).
    pub exploration: f32,
    /// Visits a leaf needs before it is expanded (at least 1).
    pub expand_after: u32,
    /// Propagate proven wins and losses.
    pub solver: bool,
    /// Keep the subtree of the new position between moves.
    pub reuse: bool,
    /// Search with the `Threads` option (else one thread).
    pub parallel: bool,
    /// Nodes with more children than this are ordered by evaluation and
    /// widened progressively (`None`: all children from the start).
    pub widen_above: Option<u32>,
    /// Stop a timed search early once the best move cannot change.
    pub early_stop: bool,
    /// End playouts after this many random plies and score the position
    /// with the game's evaluation (`None`: play to the end).
    pub playout_cutoff: Option<u32>,
    /// The evaluation that means a 73% (1 / (1 + e^-1)) chance to win.
    pub eval_scale: f32,
    /// RAVE: blend all-moves-as-first statistics into a child's value with
    /// weight sqrt(k / (3n + k)) for a child of n visits (`None`: off).
    pub rave: Option<f32>,
    /// Playouts use the game's own playout policy (else uniformly random).
    pub game_playouts: bool,
    /// Share statistics between transpositions (a position table): a
    /// child's value is that of its position, over every path to it.
    pub transpositions: bool,
}

impl MctsConfig {
    /// The fixed baseline: UCB1 with c = sqrt(2), uniform random playouts,
    /// robust child, no reuse, no solver, one thread.
    pub const fn plain() -> Self {
        MctsConfig {
            exploration: std::f32::consts::SQRT_2,
            expand_after: 1,
            solver: false,
            reuse: false,
            parallel: false,
            widen_above: None,
            early_stop: false,
            playout_cutoff: None,
            eval_scale: 100.0,
            rave: None,
            game_playouts: false,
            transpositions: false,
        }
    }

    /// Our default configuration.
    pub const fn tuned() -> Self {
        MctsConfig {
            exploration: 0.7,
            expand_after: 1,
            solver: true,
            reuse: true,
            parallel: true,
            widen_above: Some(200),
            early_stop: true,
            playout_cutoff: None,
            eval_scale: 100.0,
            rave: None,
            game_playouts: true,
            transpositions: false,
        }
    }

    /// This configuration with evaluated playouts cut after `plies`.
    pub const fn with_cutoff(mut self, plies: u32, eval_scale: f32) -> Self {
        self.playout_cutoff = Some(plies);
        self.eval_scale = eval_scale;
        self
    }

    pub const fn with_exploration(mut self, c: f32) -> Self {
        self.exploration = c;
        self
    }

    pub const fn with_rave(mut self, k: f32) -> Self {
        self.rave = Some(k);
        self
    }
}

// Node states.
const UNEXPANDED: u8 = 0;
const EXPANDING: u8 = 1;
const EXPANDED: u8 = 2;
const TERMINAL: u8 = 3;

// Proofs: the outcome the node is known to lead to (0: unknown).
const UNPROVEN: u8 = 0;

/// Score units per reward point: fine enough for evaluated playouts,
/// coarse enough that a u32 sum holds 500 million visits.
const UNIT: u32 = 8;
/// Searches stop growing here so that no score sum can overflow.
const MAX_ITERATIONS: u64 = 400_000_000;

/// What a playout brings back.
#[derive(Copy, Clone, Debug)]
enum Reward {
    Exact(Outcome),
    /// An evaluated position: the first seat's chance to win.
    Estimate(f32),
}

impl Reward {
    /// The score units `seat` earns, rounding estimates at random so that
    /// their expectation is exact.
    fn points(self, seat: Seat, rng: &mut GameRng) -> u32 {
        match self {
            Reward::Exact(outcome) => (UNIT as f32 * outcome.reward_for(seat)) as u32,
            Reward::Estimate(p1) => {
                let p = if seat == Seat::P1 { p1 } else { 1.0 - p1 };
                let scaled = p.clamp(0.0, 1.0) * UNIT as f32;
                let whole = scaled.floor();
                let up = (rng.next_u32() as f32) < (scaled - whole) * u32::MAX as f32;
                whole as u32 + up as u32
            }
        }
    }
}

fn encode(outcome: Outcome) -> u8 {
    match outcome {
        Outcome::Win(Seat::P1) => 1,
        Outcome::Win(Seat::P2) => 2,
        Outcome::Draw => 3,
    }
}

fn decode(code: u8) -> Outcome {
    match code {
        1 => Outcome::Win(Seat::P1),
        2 => Outcome::Win(Seat::P2),
        _ => Outcome::Draw,
    }
}

fn win_code(seat: Seat) -> u8 {
    encode(Outcome::Win(seat))
}

/// One tree node; 40 bytes, every field atomic so threads can share it.
#[derive(Default)]
struct Node {
    /// The packed move that leads here from the parent.
    mv: AtomicU32,
    first_child: AtomicU32,
    child_count: AtomicU32,
    /// Completed and in-flight visits.
    visits: AtomicU32,
    /// The summed reward of the seat that played `mv`, in `UNIT`s per point
    /// (a win scores `UNIT`, a draw half).
    score: AtomicU32,
    state: AtomicU8,
    proof: AtomicU8,
    /// Plies to the end of the game where proven.
    proof_plies: AtomicU16,
    /// RAVE: playouts through the parent where the mover played `mv` later,
    /// and the mover's reward in them (in `UNIT`s).
    amaf_visits: AtomicU32,
    amaf_score: AtomicU32,
    /// The hash of the position after `mv` (0 until first visited), for
    /// the position table.
    key: AtomicU64,
}

impl Node {
    fn reset(&self, mv: u32) {
        self.mv.store(mv, RELAXED);
        self.first_child.store(0, RELAXED);
        self.child_count.store(0, RELAXED);
        self.visits.store(0, RELAXED);
        self.score.store(0, RELAXED);
        self.state.store(UNEXPANDED, RELAXED);
        self.proof.store(UNPROVEN, RELAXED);
        self.proof_plies.store(0, RELAXED);
        self.amaf_visits.store(0, RELAXED);
        self.amaf_score.store(0, RELAXED);
        self.key.store(0, RELAXED);
    }

    fn copy_from(&self, other: &Node) {
        self.mv.store(other.mv.load(RELAXED), RELAXED);
        self.visits.store(other.visits.load(RELAXED), RELAXED);
        self.score.store(other.score.load(RELAXED), RELAXED);
        self.proof.store(other.proof.load(RELAXED), RELAXED);
        self.proof_plies
            .store(other.proof_plies.load(RELAXED), RELAXED);
        let state = other.state.load(RELAXED);
        // A half-made expansion is not copied: the node will expand again.
        let state = if state == EXPANDING {
            UNEXPANDED
        } else {
            state
        };
        self.state.store(state, RELAXED);
        self.first_child.store(0, RELAXED);
        self.child_count.store(0, RELAXED);
    }

    fn children(&self) -> std::ops::Range<usize> {
        let first = self.first_child.load(RELAXED) as usize;
        first..first + self.child_count.load(RELAXED) as usize
    }

    fn mean(&self) -> f32 {
        let visits = self.visits.load(RELAXED);
        if visits == 0 {
            0.5
        } else {
            self.score.load(RELAXED) as f32 / (UNIT as f32 * visits as f32)
        }
    }
}

/// A bump-allocated block of nodes.
struct Arena {
    nodes: Vec<Node>,
    used: AtomicUsize,
}

impl Arena {
    fn new(capacity: usize) -> Self {
        let mut nodes = Vec::with_capacity(capacity);
        nodes.resize_with(capacity, Node::default);
        Arena {
            nodes,
            used: AtomicUsize::new(0),
        }
    }

    /// Reserves `count` consecutive nodes; None when the arena is full.
    fn allocate(&self, count: usize) -> Option<usize> {
        let first = self.used.fetch_add(count, RELAXED);
        if first + count <= self.nodes.len() {
            Some(first)
        } else {
            self.used.fetch_sub(count, RELAXED);
            None
        }
    }

    fn permille_used(&self) -> u32 {
        (self.used.load(RELAXED).min(self.nodes.len()) * 1000 / self.nodes.len().max(1)) as u32
    }
}

/// Where the last search's root stood: the game's base position and the
/// moves from it, to recognise a position that extends it.
#[derive(Default, Clone, PartialEq, Debug)]
pub struct Line {
    pub base_key: u64,
    pub moves: Vec<u32>,
}

pub struct Mcts<G: Game> {
    arena: Arena,
    spare: Arena,
    /// Statistics per position, when the configuration shares them.
    stats: Option<PositionStats>,
    /// Bytes of `Hash` the position table may take.
    stats_bytes: usize,
    /// The line searched last, while the arena holds its tree.
    last_line: Option<Line>,
    _game: std::marker::PhantomData<G>,
}

impl<G: Game> Default for Mcts<G> {
    fn default() -> Self {
        Self::new()
    }
}

/// Shared state of one search's threads.
struct Shared<'a> {
    arena: &'a Arena,
    stats: Option<&'a PositionStats>,
    config: &'a MctsConfig,
    /// Claimed iterations (the `nodes` count).
    iterations: AtomicU64,
    depth_sum: AtomicU64,
    max_depth: AtomicU32,
    done: AtomicBool,
    /// The arena had no room for an expansion: stop trying.
    full: AtomicBool,
    node_limit: Option<u64>,
    /// More than one thread: counts must be atomic read-modify-writes.
    threaded: bool,
}

impl<G: Game> Mcts<G> {
    pub fn new() -> Self {
        Mcts {
            arena: Arena::new(1),
            spare: Arena::new(1),
            stats: None,
            stats_bytes: 0,
            last_line: None,
            _game: std::marker::PhantomData,
        }
    }

    /// Sizes the memory from `Hash`: 3/8 for each arena (the live tree and
    /// the spare for re-rooting), 1/4 for the position table (made on
    /// first use).
    pub fn prepare(&mut self, settings: &SearchSettings) {
        let bytes = settings.hash_mb.max(1) << 20;
        let arena = bytes * 3 / 8 / std::mem::size_of::<Node>();
        if self.arena.nodes.len() != arena {
            self.arena = Arena::new(arena);
            self.spare = Arena::new(arena);
            self.last_line = None;
        }
        if self.stats_bytes != bytes / 4 {
            self.stats_bytes = bytes / 4;
            self.stats = None;
        }
    }

    /// Frees the memory (another searcher is in use).
    pub fn release(&mut self) {
        self.arena = Arena::new(1);
        self.spare = Arena::new(1);
        self.stats = None;
        self.stats_bytes = 0;
        self.last_line = None;
    }

    pub fn clear(&mut self) {
        self.last_line = None;
        self.arena.used.store(0, RELAXED);
        if let Some(stats) = &self.stats {
            stats.clear();
        }
    }

    pub fn search(
        &mut self,
        root: &G,
        line: &Line,
        config: &MctsConfig,
        settings: &SearchSettings,
        limits: &Limits,
        ctx: &mut Context,
    ) -> SearchResult<G::Move> {
        self.prepare(settings);
        // The root's children always fit, even where Hash is tiny.
        let mut moves = Vec::new();
        root.legal_moves(&mut moves);
        if self.arena.nodes.len() < moves.len() + 1 {
            self.arena = Arena::new(moves.len() + 1);
            self.last_line = None;
        }
        let reused = config.reuse && self.reroot(line);
        if !reused {
            self.arena.used.store(1, RELAXED);
            self.arena.nodes[0].reset(0);
        }
        self.last_line = config.reuse.then(|| line.clone());
        let budget = time::budget(
            limits,
            root.side_to_move(),
            settings.move_overhead_ms,
            root.moves_left_estimate(),
        );
        let threads = if config.parallel {
            settings.threads.max(1)
        } else {
            1
        };
        if config.transpositions && self.stats.is_none() {
            self.stats = Some(PositionStats::new((self.stats_bytes >> 20).max(1)));
        }
        let shared = Shared {
            arena: &self.arena,
            stats: self.stats.as_ref().filter(|_| config.transpositions),
            config,
            iterations: AtomicU64::new(0),
            depth_sum: AtomicU64::new(0),
            max_depth: AtomicU32::new(0),
            done: AtomicBool::new(false),
            full: AtomicBool::new(false),
            node_limit: limits.nodes,
            threaded: threads > 1,
        };
        // Expand the root now: a forced move needs no search.
        let mut main = Worker::<G>::new(settings.seed);
        main.expand_root(&shared, root);
        let forced = shared.arena.nodes[0].child_count.load(RELAXED) == 1 && limits.is_timed();
        if !forced {
            thread::scope(|scope| {
                for i in 1..threads {
                    let shared = &shared;
                    let seed = settings.seed.wrapping_add(i as u64 * 0x9E37_79B9);
                    scope.spawn(move || {
                        let mut worker = Worker::<G>::new(seed);
                        while !shared.done.load(RELAXED) {
                            if !worker.iterate(shared, root) {
                                break;
                            }
                        }
                    });
                }
                main.lead(&shared, root, limits, &budget, ctx);
                shared.done.store(true, RELAXED);
            });
        }
        let info = report(&shared, root, ctx);
        (ctx.report)(&info);
        let best_node = best_child(shared.arena, 0, root.side_to_move(), config.solver);
        let best = G::Move::unpack(shared.arena.nodes[best_node].mv.load(RELAXED));
        SearchResult { best, info }
    }

    /// Makes the node at the end of `line` (if the tree holds it) the root,
    /// copying its subtree to the front of the spare arena.
    fn reroot(&mut self, line: &Line) -> bool {
        let Some(last) = &self.last_line else {
            return false;
        };
        if last.base_key != line.base_key || !line.moves.starts_with(&last.moves) {
            return false;
        }
        let nodes = &self.arena.nodes;
        let mut node = 0usize;
        for &mv in &line.moves[last.moves.len()..] {
            if nodes[node].state.load(RELAXED) != EXPANDED {
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
        copy_subtree(&self.arena, node, &self.spare);
        std::mem::swap(&mut self.arena, &mut self.spare);
        true
    }
}

/// Copies the subtree under `from_root` of `from` into `to` (root at 0),
/// breadth first so every child block stays contiguous.
fn copy_subtree(from: &Arena, from_root: usize, to: &Arena) {
    to.nodes[0].copy_from(&from.nodes[from_root]);
    to.used.store(1, RELAXED);
    let mut queue = std::collections::VecDeque::from([(from_root, 0usize)]);
    while let Some((old, new)) = queue.pop_front() {
        let source = &from.nodes[old];
        if source.state.load(RELAXED) != EXPANDED {
            // Nothing below to copy; an unfinished expansion is redone.
            if to.nodes[new].state.load(RELAXED) == EXPANDED {
                to.nodes[new].state.store(UNEXPANDED, RELAXED);
            }
            continue;
        }
        let children = source.children();
        let Some(first) = to.allocate(children.len()) else {
            to.nodes[new].state.store(UNEXPANDED, RELAXED);
            continue;
        };
        for (i, child) in children.enumerate() {
            to.nodes[first + i].copy_from(&from.nodes[child]);
            queue.push_back((child, first + i));
        }
        to.nodes[new].first_child.store(first as u32, RELAXED);
        to.nodes[new]
            .child_count
            .store(source.child_count.load(RELAXED), RELAXED);
    }
}

/// One thread's private search state.
struct Worker<G: Game> {
    rng: GameRng,
    path: Vec<(usize, Seat)>,
    moves: Vec<G::Move>,
    scratch: Vec<G::Move>,
    /// RAVE: the playout's moves (packed) and who played them.
    played: Vec<(u32, Seat)>,
    /// RAVE: the moves each seat played below the node being updated.
    later: [MoveSet; 2],
}

impl<G: Game> Worker<G> {
    fn new(seed: u64) -> Self {
        Worker {
            rng: GameRng::seed_from_u64(seed),
            path: Vec::new(),
            moves: Vec::new(),
            scratch: Vec::new(),
            played: Vec::new(),
            later: [MoveSet::default(), MoveSet::default()],
        }
    }

    fn expand_root(&mut self, shared: &Shared, root: &G) {
        let node = &shared.arena.nodes[0];
        if node.state.load(RELAXED) == UNEXPANDED && node.proof.load(RELAXED) == UNPROVEN {
            node.state.store(EXPANDING, RELAXED);
            // The root always gets its children, even in a full arena.
            if !self.expand(shared, 0, root) {
                shared.arena.used.store(1, RELAXED);
                assert!(
                    self.expand(shared, 0, root),
                    "the arena holds the root's children"
                );
            }
        }
    }

    /// The main thread: iterates, watches the limits and reports.
    fn lead(
        &mut self,
        shared: &Shared,
        root: &G,
        limits: &Limits,
        budget: &Budget,
        ctx: &mut Context,
    ) {
        let mut next_report = Duration::from_secs(1);
        let mut count = 0u64;
        loop {
            if !self.iterate(shared, root) {
                break;
            }
            count += 1;
            if limits
                .depth
                .is_some_and(|d| shared.max_depth.load(RELAXED) >= d)
            {
                break;
            }
            if count.is_multiple_of(16) || count < 16 {
                if ctx.stopped() {
                    break;
                }
                let elapsed = ctx.start.elapsed();
                if !limits.infinite {
                    if budget.target().is_some_and(|target| elapsed >= target) {
                        break;
                    }
                    if shared.config.solver && is_proven(shared.arena, 0) {
                        break;
                    }
                    if shared.config.early_stop
                        && limits.is_timed()
                        && decided(shared, budget, elapsed)
                    {
                        break;
                    }
                }
                if elapsed >= next_report {
                    let info = report(shared, root, ctx);
                    (ctx.report)(&info);
                    next_report += Duration::from_secs(1);
                }
            }
        }
        // An infinite search answers only after `stop`.
        if limits.infinite {
            while !ctx.stopped() {
                thread::sleep(Duration::from_millis(1));
            }
        }
    }

    /// One selection-expansion-playout-backup pass. False when the node
    /// limit is reached (nothing was done).
    fn iterate(&mut self, shared: &Shared, root: &G) -> bool {
        let iteration = shared.iterations.fetch_add(1, RELAXED);
        let limit = shared
            .node_limit
            .unwrap_or(MAX_ITERATIONS)
            .min(MAX_ITERATIONS);
        if iteration >= limit {
            shared.iterations.fetch_sub(1, RELAXED);
            return false;
        }
        let nodes = &shared.arena.nodes;
        let mut state = root.clone();
        self.path.clear();
        self.played.clear();
        let mut node = 0usize;
        add(&nodes[0].visits, 1, shared.threaded);
        let reward = loop {
            let current = &nodes[node];
            let proof = current.proof.load(RELAXED);
            if proof != UNPROVEN {
                break Reward::Exact(decode(proof));
            }
            let mut status = current.state.load(Ordering::Acquire);
            if status == UNEXPANDED {
                let ripe = node == 0
                    || (current.visits.load(RELAXED) > expansion_threshold(shared)
                        && !shared.full.load(RELAXED));
                let claimed = ripe
                    && current
                        .state
                        .compare_exchange(UNEXPANDED, EXPANDING, Ordering::Acquire, RELAXED)
                        .is_ok();
                if claimed && self.expand(shared, node, &state) {
                    status = current.state.load(RELAXED);
                } else {
                    break self.playout(shared, node, &mut state);
                }
            }
            if status == TERMINAL {
                break Reward::Exact(decode(current.proof.load(RELAXED)));
            }
            if status != EXPANDED {
                break self.playout(shared, node, &mut state);
            }
            let mover = state.side_to_move();
            let child = select(shared, node, mover);
            add(&nodes[child].visits, 1, shared.threaded);
            state.play(G::Move::unpack(nodes[child].mv.load(RELAXED)));
            if shared.stats.is_some() && nodes[child].key.load(RELAXED) == 0 {
                nodes[child].key.store(state.hash(), RELAXED);
            }
            self.path.push((child, mover));
            node = child;
        };
        self.backup(shared, reward);
        let depth = self.path.len() as u32;
        shared.depth_sum.fetch_add(depth as u64, RELAXED);
        shared.max_depth.fetch_max(depth, RELAXED);
        true
    }

    /// The next playout move: the game's own policy or uniformly random.
    fn playout_move(&mut self, shared: &Shared, state: &G) -> Option<G::Move> {
        if shared.config.game_playouts {
            state.playout_move(&mut self.rng, &mut self.scratch)
        } else {
            state.random_move(&mut self.rng, &mut self.scratch)
        }
    }

    /// Plays random moves from a leaf to the end (or to the cutoff, then
    /// evaluates); a leaf found to have no moves becomes a proven terminal.
    fn playout(&mut self, shared: &Shared, node: usize, state: &mut G) -> Reward {
        let Some(first) = self.playout_move(shared, state) else {
            let outcome = state.outcome().expect("no legal moves means game over");
            let n = &shared.arena.nodes[node];
            if n.state
                .compare_exchange(UNEXPANDED, TERMINAL, RELAXED, RELAXED)
                .is_ok()
            {
                n.proof.store(encode(outcome), RELAXED);
            }
            return Reward::Exact(outcome);
        };
        // The first move and `cutoff` more (all of them without a cutoff).
        let record = shared.config.rave.is_some();
        let cutoff = shared.config.playout_cutoff.unwrap_or(u32::MAX);
        let mut next = Some(first);
        let mut plies = 0u32;
        while let Some(mv) = next {
            if plies > cutoff {
                break;
            }
            if record {
                self.played.push((mv.pack(), state.side_to_move()));
            }
            state.play(mv);
            plies += 1;
            next = self.playout_move(shared, state);
        }
        if next.is_none() {
            return Reward::Exact(state.outcome().expect("no legal moves means game over"));
        }
        let eval = state.evaluate() as f32 / shared.config.eval_scale;
        let p = 1.0 / (1.0 + (-eval).exp());
        Reward::Estimate(if state.side_to_move() == Seat::P1 {
            p
        } else {
            1.0 - p
        })
    }

    /// Gives a claimed (EXPANDING) node its children or marks it terminal.
    /// False when the arena is full (the node is released unexpanded).
    fn expand(&mut self, shared: &Shared, node: usize, state: &G) -> bool {
        let n = &shared.arena.nodes[node];
        state.legal_moves(&mut self.moves);
        if self.moves.is_empty() {
            let outcome = state.outcome().expect("no legal moves means game over");
            n.proof.store(encode(outcome), RELAXED);
            n.state.store(TERMINAL, Ordering::Release);
            return true;
        }
        let Some(first) = shared.arena.allocate(self.moves.len()) else {
            shared.full.store(true, RELAXED);
            n.state.store(UNEXPANDED, RELAXED);
            return false;
        };
        let widen = shared
            .config
            .widen_above
            .is_some_and(|above| self.moves.len() > above as usize);
        if widen {
            order_by_evaluation(state, &mut self.moves, &mut self.rng);
        } else {
            shuffle(&mut self.moves, &mut self.rng);
        }
        for (i, &mv) in self.moves.iter().enumerate() {
            shared.arena.nodes[first + i].reset(mv.pack());
        }
        n.first_child.store(first as u32, RELAXED);
        n.child_count.store(self.moves.len() as u32, RELAXED);
        n.state.store(EXPANDED, Ordering::Release);
        true
    }

    /// Adds the reward to every node of the path and propagates proofs.
    fn backup(&mut self, shared: &Shared, reward: Reward) {
        if shared.config.rave.is_some() {
            self.backup_amaf(shared, reward);
        }
        let nodes = &shared.arena.nodes;
        let mut proving = shared.config.solver;
        for i in (0..self.path.len()).rev() {
            let (child, mover) = self.path[i];
            let points = reward.points(mover, &mut self.rng);
            add(&nodes[child].score, points, shared.threaded);
            if let Some(stats) = shared.stats {
                let p1_points = if mover == Seat::P1 {
                    points
                } else {
                    UNIT - points
                };
                stats.add(nodes[child].key.load(RELAXED), p1_points);
            }
            if proving {
                let parent = if i == 0 { 0 } else { self.path[i - 1].0 };
                proving = try_prove(shared.arena, parent, child, mover);
            }
        }
    }
}

impl<G: Game> Worker<G> {
    /// RAVE: for every node of the path, credits each child whose move its
    /// mover played anywhere later in this iteration (tree part or playout).
    fn backup_amaf(&mut self, shared: &Shared, reward: Reward) {
        let nodes = &shared.arena.nodes;
        self.later[0].clear();
        self.later[1].clear();
        for &(mv, seat) in &self.played {
            self.later[seat.index()].insert(mv);
        }
        for i in (0..self.path.len()).rev() {
            let (child, mover) = self.path[i];
            let parent = if i == 0 { 0 } else { self.path[i - 1].0 };
            self.later[mover.index()].insert(nodes[child].mv.load(RELAXED));
            let points = reward.points(mover, &mut self.rng);
            let later = &self.later[mover.index()];
            for c in nodes[parent].children() {
                if later.contains(nodes[c].mv.load(RELAXED)) {
                    add(&nodes[c].amaf_visits, 1, shared.threaded);
                    add(&nodes[c].amaf_score, points, shared.threaded);
                }
            }
        }
    }
}

/// A set of packed moves, cleared in O(1): a stamp per small move number,
/// a hash set for the rest.
#[derive(Default)]
struct MoveSet {
    stamps: Vec<u32>,
    generation: u32,
    large: fxhash::FxHashSet<u32>,
}

impl MoveSet {
    const DIRECT: u32 = 1 << 16;

    fn clear(&mut self) {
        if self.stamps.is_empty() {
            self.stamps = vec![0; Self::DIRECT as usize];
        }
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.stamps.iter_mut().for_each(|s| *s = 0);
            self.generation = 1;
        }
        self.large.clear();
    }

    fn insert(&mut self, mv: u32) {
        if mv < Self::DIRECT {
            self.stamps[mv as usize] = self.generation;
        } else {
            self.large.insert(mv);
        }
    }

    fn contains(&self, mv: u32) -> bool {
        if mv < Self::DIRECT {
            self.stamps[mv as usize] == self.generation
        } else {
            self.large.contains(&mv)
        }
    }
}

/// Marks `parent` (whose side to move is `mover`) proven if `child`'s
/// proof decides it. Returns whether the parent is proven now.
fn try_prove(arena: &Arena, parent: usize, child: usize, mover: Seat) -> bool {
    let nodes = &arena.nodes;
    let proof = nodes[child].proof.load(RELAXED);
    if proof == UNPROVEN {
        return false;
    }
    if nodes[parent].proof.load(RELAXED) != UNPROVEN {
        return true;
    }
    let win = win_code(mover);
    if proof == win {
        let plies = nodes[child].proof_plies.load(RELAXED).saturating_add(1);
        nodes[parent].proof_plies.store(plies, RELAXED);
        nodes[parent].proof.store(win, RELAXED);
        return true;
    }
    // Proven only when every move is proven and none wins.
    let mut any_draw = false;
    let mut longest = 0u16;
    for c in nodes[parent].children() {
        match nodes[c].proof.load(RELAXED) {
            UNPROVEN => return false,
            code if code == win => return false,
            code => {
                any_draw |= decode(code) == Outcome::Draw;
                longest = longest.max(nodes[c].proof_plies.load(RELAXED));
            }
        }
    }
    let result = if any_draw {
        Outcome::Draw
    } else {
        Outcome::Win(mover.other())
    };
    nodes[parent]
        .proof_plies
        .store(longest.saturating_add(1), RELAXED);
    nodes[parent].proof.store(encode(result), RELAXED);
    true
}

fn is_proven(arena: &Arena, node: usize) -> bool {
    arena.nodes[node].proof.load(RELAXED) != UNPROVEN
}

/// Visits a leaf needs before it expands: the configured number, doubled
/// for each quarter of the arena in use, so a long search keeps growing its
/// tree where it matters instead of filling the arena early.
#[inline]
fn expansion_threshold(shared: &Shared) -> u32 {
    let arena = shared.arena;
    let quarters = 4 * arena.used.load(RELAXED) / arena.nodes.len().max(1);
    shared.config.expand_after.max(1) << quarters.min(3)
}

#[inline]
fn add(counter: &AtomicU32, value: u32, threaded: bool) {
    if threaded {
        counter.fetch_add(value, RELAXED);
    } else {
        // One thread: a plain load and store, no locked instruction.
        counter.store(counter.load(RELAXED).wrapping_add(value), RELAXED);
    }
}

/// How many children of a node with `visits` visits are open: all, or
/// (progressive widening) a number growing with the square root of visits.
fn open_children(config: &MctsConfig, count: usize, visits: u32) -> usize {
    match config.widen_above {
        Some(above) if count > above as usize => {
            let open = 4 + (2.0 * (visits as f32).sqrt()) as usize;
            open.min(count)
        }
        _ => count,
    }
}

/// UCT among the open children; proven wins are taken, proven losses avoided.
fn select(shared: &Shared, node: usize, mover: Seat) -> usize {
    let nodes = &shared.arena.nodes;
    let parent = &nodes[node];
    let parent_visits = parent.visits.load(RELAXED).max(1);
    let log_parent = (parent_visits as f32).ln();
    let c = shared.config.exploration;
    let win = win_code(mover);
    let loss = win_code(mover.other());
    let children = parent.children();
    let open = open_children(shared.config, children.len(), parent_visits);
    let mut best = children.start;
    let mut best_value = f32::NEG_INFINITY;
    for child in children.take(open) {
        let n = &nodes[child];
        let proof = if shared.config.solver {
            n.proof.load(RELAXED)
        } else {
            UNPROVEN
        };
        if proof == win {
            return child;
        }
        let visits = n.visits.load(RELAXED);
        let value = if proof == loss {
            // Only if every move loses.
            -1.0
        } else if let Some(k) = shared.config.rave {
            rave_value(n, visits, k, c, log_parent)
        } else if visits == 0 {
            f32::INFINITY
        } else {
            // One division per child: the mean and the bonus share 1/visits.
            let inverse = 1.0 / visits as f32;
            child_mean(shared, n, inverse, mover) + c * (log_parent * inverse).sqrt()
        };
        if value > best_value {
            best_value = value;
            best = child;
        }
    }
    best
}

/// A visited child's mean reward for `mover`: that of its position over
/// all paths when the position table knows it, else the child's own.
#[inline]
fn child_mean(shared: &Shared, n: &Node, inverse_visits: f32, mover: Seat) -> f32 {
    if let Some(stats) = shared.stats {
        let key = n.key.load(RELAXED);
        if let Some((table_visits, p1_score)) = stats.get(key).filter(|_| key != 0)
            && table_visits > 0
        {
            let p1 = p1_score as f32 / (UNIT as f32 * table_visits as f32);
            return if mover == Seat::P1 { p1 } else { 1.0 - p1 };
        }
    }
    n.score.load(RELAXED) as f32 * (inverse_visits / UNIT as f32)
}

/// A child's RAVE value: its mean blended with its all-moves-as-first
/// mean, plus the UCT bonus. Unvisited children come first, best AMAF first.
#[inline]
fn rave_value(n: &Node, visits: u32, k: f32, c: f32, log_parent: f32) -> f32 {
    let amaf_visits = n.amaf_visits.load(RELAXED);
    let amaf = if amaf_visits == 0 {
        0.5
    } else {
        n.amaf_score.load(RELAXED) as f32 / (UNIT as f32 * amaf_visits as f32)
    };
    if visits == 0 {
        return 1000.0 + amaf;
    }
    let v = visits as f32;
    let mean = n.score.load(RELAXED) as f32 / (UNIT as f32 * v);
    let beta = if amaf_visits == 0 {
        0.0
    } else {
        (k / (3.0 * v + k)).sqrt()
    };
    (1.0 - beta) * mean + beta * amaf + c * (log_parent / v).sqrt()
}

/// The move to play: a proven win (the quickest), else the most visited
/// child that is not a proven loss (a proven loss only if all are, the
/// slowest). Without the solver: the most visited child.
fn best_child(arena: &Arena, node: usize, mover: Seat, solver: bool) -> usize {
    let nodes = &arena.nodes;
    let win = win_code(mover);
    let loss = win_code(mover.other());
    let children = nodes[node].children();
    let key = |c: usize| {
        let n = &nodes[c];
        let proof = if solver {
            n.proof.load(RELAXED)
        } else {
            UNPROVEN
        };
        let plies = n.proof_plies.load(RELAXED) as i64;
        if proof == win {
            (3, -plies, 0)
        } else if proof == loss {
            (0, plies, 0)
        } else {
            let visits = n.visits.load(RELAXED) as i64;
            (1, visits, n.score.load(RELAXED) as i64)
        }
    };
    children
        .max_by_key(|&c| key(c))
        .expect("the root has children")
}

fn report<G: Game>(shared: &Shared, root: &G, ctx: &Context) -> Info {
    let nodes = &shared.arena.nodes;
    let mover = root.side_to_move();
    let solver = shared.config.solver;
    let best = best_child(shared.arena, 0, mover, solver);
    let root_proof = nodes[0].proof.load(RELAXED);
    let score = if root_proof == UNPROVEN || !solver {
        Score::Cp(win_rate_to_cp(nodes[best].mean() as f64))
    } else {
        let moves = (nodes[0].proof_plies.load(RELAXED) as i32 + 1) / 2;
        match decode(root_proof) {
            Outcome::Draw => Score::Cp(0),
            Outcome::Win(seat) if seat == mover => Score::Mate(moves.max(1)),
            Outcome::Win(_) => Score::Mate(-moves.max(1)),
        }
    };
    let mut pv = Vec::new();
    let mut state = root.clone();
    let mut node = 0;
    while nodes[node].state.load(RELAXED) == EXPANDED && pv.len() < 64 {
        let child = best_child(shared.arena, node, state.side_to_move(), solver);
        if nodes[child].visits.load(RELAXED) == 0 {
            break;
        }
        let mv = G::Move::unpack(nodes[child].mv.load(RELAXED));
        pv.push(state.format_move(mv));
        state.play(mv);
        node = child;
    }
    let iterations = shared.iterations.load(RELAXED);
    Info {
        depth: (shared.depth_sum.load(RELAXED) as f64 / iterations.max(1) as f64).round() as u32,
        seldepth: shared.max_depth.load(RELAXED),
        score,
        nodes: iterations,
        time_ms: ctx.elapsed_ms(),
        pv,
        hashfull: Some(shared.arena.permille_used()),
    }
}

/// Whether the most visited root move can no longer be overtaken in the
/// time left, at the current rate of iterations.
fn decided(shared: &Shared, budget: &Budget, elapsed: Duration) -> bool {
    // Only a clock banks saved time; a fixed move time is spent whole.
    let Some(soft) = budget.soft else {
        return false;
    };
    if elapsed < soft / 10 {
        return false;
    }
    let nodes = &shared.arena.nodes;
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
    let done = shared.iterations.load(RELAXED) as f64;
    let rate = done / elapsed.as_secs_f64().max(1e-6);
    let remaining = rate * soft.saturating_sub(elapsed).as_secs_f64();
    (first - second) as f64 > remaining
}

fn shuffle<M>(moves: &mut [M], rng: &mut GameRng) {
    for i in (1..moves.len()).rev() {
        let j = random_below(rng, i + 1);
        moves.swap(i, j);
    }
}

/// Moves a widened node orders by evaluation; the rest keep a random order
/// behind them. Widening opens only a few dozen children in a search, and
/// evaluating a huge move list (the Nadraz pie: 219k moves at size 14)
/// would cost more than a short move time.
const ORDERED_AT_MOST: usize = 4096;

/// Best first for the side to move, by the evaluation after each move (a
/// random order among equals); beyond `ORDERED_AT_MOST` moves, the best of
/// a random sample of that many come first.
fn order_by_evaluation<G: Game>(state: &G, moves: &mut [G::Move], rng: &mut GameRng) {
    shuffle(moves, rng);
    let ordered = moves.len().min(ORDERED_AT_MOST);
    let moves = &mut moves[..ordered];
    let mover = state.side_to_move();
    let mut scored: Vec<(i32, G::Move)> = moves
        .iter()
        .map(|&mv| {
            let mut child = state.clone();
            child.play(mv);
            let eval = child.evaluate();
            let for_mover = if child.side_to_move() == mover {
                eval
            } else {
                -eval
            };
            (for_mover, mv)
        })
        .collect();
    scored.sort_by_key(|&(score, _)| std::cmp::Reverse(score));
    for (slot, (_, mv)) in moves.iter_mut().zip(scored) {
        *slot = mv;
    }
}

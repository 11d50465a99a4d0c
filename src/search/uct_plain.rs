//! The fixed baseline, `uct-plain`: UCB1 with c = sqrt 2, uniformly random
//! playouts to the end, the robust child, one thread, no solver, no tree
//! reuse. It is frozen: for the same seed, position and limits it searches
//! exactly as v0.1 (commit 1e32da7) did — same random draws, same tree
//! (sized as v0.1 sized it), same move and report — so that strength
//! measured against it means the same over time. Do not improve it.

use super::memory::{Table, Zeroable};
use super::time::TimeManager;
use super::{
    Context, Limits, Plugin, Report, Root, Score, SearchResult, SearchSettings, Searcher, Setup,
    win_rate_to_cp,
};
use crate::games::{CompactMove, Game, GameRng, Outcome, Seat, random_below};
use rand::SeedableRng;
use std::sync::atomic::{AtomicU32, Ordering};

const RELAXED: Ordering = Ordering::Relaxed;
/// Score units per reward point (a win scores `UNIT`, a draw half).
const UNIT: u32 = 8;
const MAX_ITERATIONS: u64 = 400_000_000;
/// v0.1 gave its tree 3/8 of `Hash` in nodes of 40 bytes; the expansion
/// schedule depends on that capacity, so it is kept.
const V01_NODE_BYTES: usize = 40;

const UNEXPANDED: u32 = 0;
const EXPANDED: u32 = 2;
const TERMINAL: u32 = 3;

/// A node: move, children, counts, state and (at terminals) the outcome.
#[derive(Default)]
struct Node {
    mv: AtomicU32,
    first_child: AtomicU32,
    child_count: AtomicU32,
    visits: AtomicU32,
    score: AtomicU32,
    /// The state in the low byte, the outcome code (1 p1, 2 p2, 3 draw)
    /// above it.
    status: AtomicU32,
}

// SAFETY: six atomic u32s; all zero is an unexpanded node.
unsafe impl Zeroable for Node {}

impl Node {
    fn reset(&self, mv: u32) {
        self.mv.store(mv, RELAXED);
        self.first_child.store(0, RELAXED);
        self.child_count.store(0, RELAXED);
        self.visits.store(0, RELAXED);
        self.score.store(0, RELAXED);
        self.status.store(UNEXPANDED, RELAXED);
    }

    fn get(field: &AtomicU32) -> u32 {
        field.load(RELAXED)
    }

    fn state(&self) -> u32 {
        Self::get(&self.status) & 0xff
    }

    fn outcome(&self) -> Option<Outcome> {
        match Self::get(&self.status) >> 8 {
            1 => Some(Outcome::Win(Seat::P1)),
            2 => Some(Outcome::Win(Seat::P2)),
            3 => Some(Outcome::Draw),
            _ => None,
        }
    }

    fn set_terminal(&self, outcome: Outcome) {
        let code = match outcome {
            Outcome::Win(Seat::P1) => 1,
            Outcome::Win(Seat::P2) => 2,
            Outcome::Draw => 3,
        };
        self.status.store(TERMINAL | code << 8, RELAXED);
    }

    fn children(&self) -> std::ops::Range<usize> {
        let first = Self::get(&self.first_child) as usize;
        first..first + Self::get(&self.child_count) as usize
    }

    fn add(field: &AtomicU32, value: u32) {
        field.store(field.load(RELAXED).wrapping_add(value), RELAXED);
    }

    fn mean(&self) -> f32 {
        let visits = Self::get(&self.visits);
        if visits == 0 {
            0.5
        } else {
            Self::get(&self.score) as f32 / (UNIT as f32 * visits as f32)
        }
    }
}

pub struct UctPlain<G: Game> {
    nodes: Option<Table<Node>>,
    /// The `Hash` the tree was made for.
    hash_mb: usize,
    _game: std::marker::PhantomData<G>,
}

impl<G: Game> Plugin<G> for UctPlain<G> {
    fn new(_setup: &Setup<G>) -> Self {
        UctPlain {
            nodes: None,
            hash_mb: 0,
            _game: std::marker::PhantomData,
        }
    }
}

impl<G: Game> Searcher<G> for UctPlain<G> {
    /// The baseline plays without in-play proofs, with all of `Hash`.
    fn takes_proofs(&self) -> bool {
        false
    }

    fn allocate(&mut self, hash_mb: usize) -> Option<String> {
        let hash_mb = hash_mb.max(1);
        if self.nodes.is_some() && self.hash_mb == hash_mb {
            return None;
        }
        self.nodes = None;
        let capacity = (hash_mb << 20) * 3 / 8 / V01_NODE_BYTES;
        let (nodes, warning) = Table::within(capacity * std::mem::size_of::<Node>(), 2);
        self.nodes = Some(nodes);
        self.hash_mb = hash_mb;
        warning
    }

    fn memory_bytes(&self) -> usize {
        self.nodes.as_ref().map_or(0, Table::bytes)
    }

    fn clear(&mut self) {}

    fn search(
        &mut self,
        root: &Root<G>,
        settings: &SearchSettings,
        limits: &Limits,
        ctx: &mut Context<G::Move>,
    ) -> SearchResult<G::Move> {
        let position = root.position;
        let mut moves = Vec::new();
        position.legal_moves(&mut moves);
        if self
            .nodes
            .as_ref()
            .is_none_or(|n| n.len() < moves.len() + 1)
        {
            self.nodes = None;
            self.nodes = Some(Table::within(0, moves.len() + 1).0);
        }
        let nodes: &[Node] = self.nodes.as_ref().expect("made above");
        let mut search = Search {
            nodes,
            used: 1,
            full: false,
            iterations: 0,
            depth_sum: 0,
            max_depth: 0,
            rng: GameRng::seed_from_u64(settings.seed),
            path: Vec::new(),
            moves: Vec::new(),
            scratch: Vec::new(),
        };
        nodes[0].reset(0);
        assert!(
            search.expand(0, position),
            "the tree holds the root's children"
        );
        let time = ctx.time_plan(limits, position, settings);
        let forced = Node::get(&nodes[0].child_count) == 1 && limits.is_timed();
        if !forced {
            search.lead(position, limits, &time, ctx);
        }
        let report = search.report(position, ctx);
        let best = G::Move::unpack(Node::get(&nodes[search.best_child(0)].mv));
        SearchResult { best, report }
    }
}

/// One search's state.
struct Search<'a, G: Game> {
    nodes: &'a [Node],
    used: usize,
    full: bool,
    iterations: u64,
    depth_sum: u64,
    max_depth: u32,
    rng: GameRng,
    path: Vec<(usize, Seat)>,
    moves: Vec<G::Move>,
    scratch: Vec<G::Move>,
}

impl<G: Game> Search<'_, G> {
    fn lead(&mut self, root: &G, limits: &Limits, time: &TimeManager, ctx: &mut Context<G::Move>) {
        let mut count = 0u64;
        loop {
            if !self.iterate(root, limits) {
                break;
            }
            count += 1;
            if limits.depth.is_some_and(|d| self.max_depth >= d) {
                break;
            }
            if count.is_multiple_of(16) || count < 16 {
                if ctx.stopped() {
                    break;
                }
                let elapsed = ctx.elapsed();
                if !limits.infinite && time.target().is_some_and(|target| elapsed >= target) {
                    break;
                }
                if ctx.report_due() {
                    let report = self.report(root, ctx);
                    ctx.report(&report);
                }
            }
        }
        if limits.infinite {
            ctx.wait_for_stop();
        }
    }

    /// Visits a leaf needs before it expands: 1, doubled for each quarter
    /// of the tree in use.
    fn expansion_threshold(&self) -> u32 {
        let quarters = 4 * self.used / self.nodes.len().max(1);
        1 << quarters.min(3)
    }

    fn allocate(&mut self, count: usize) -> Option<usize> {
        let first = self.used;
        (first + count <= self.nodes.len()).then(|| {
            self.used += count;
            first
        })
    }

    fn iterate(&mut self, root: &G, limits: &Limits) -> bool {
        let limit = limits.nodes.unwrap_or(MAX_ITERATIONS).min(MAX_ITERATIONS);
        if self.iterations >= limit {
            return false;
        }
        self.iterations += 1;
        let nodes = self.nodes;
        let mut state = root.clone();
        self.path.clear();
        let mut node = 0usize;
        Node::add(&nodes[0].visits, 1);
        let outcome = loop {
            let current = &nodes[node];
            if let Some(outcome) = current.outcome() {
                break outcome;
            }
            let mut status = current.state();
            if status == UNEXPANDED {
                let ripe = node == 0
                    || (Node::get(&current.visits) > self.expansion_threshold() && !self.full);
                if ripe && self.expand(node, &state) {
                    status = current.state();
                } else {
                    break self.playout(node, &mut state);
                }
            }
            // A node that turned out to have no moves when expanded.
            if let Some(outcome) = current.outcome() {
                break outcome;
            }
            if status != EXPANDED {
                break self.playout(node, &mut state);
            }
            let mover = state.side_to_move();
            let child = self.select(node);
            Node::add(&nodes[child].visits, 1);
            state.play(G::Move::unpack(Node::get(&nodes[child].mv)));
            self.path.push((child, mover));
            node = child;
        };
        for &(child, mover) in self.path.iter().rev() {
            let points = (UNIT as f32 * outcome.reward_for(mover)) as u32;
            Node::add(&nodes[child].score, points);
        }
        let depth = self.path.len() as u32;
        self.depth_sum += depth as u64;
        self.max_depth = self.max_depth.max(depth);
        true
    }

    /// UCB1 among the children; unvisited first, the first of equals.
    fn select(&self, node: usize) -> usize {
        let nodes = self.nodes;
        // Unvisited children rank first, so they are taken in order and
        // the visited ones are always a prefix: the first unvisited child
        // is found by bisection, not by scoring every child (a Nadraz pie
        // has tens of thousands). The choice is the same as the scan's.
        let children = nodes[node].children();
        if Node::get(&nodes[children.end - 1].visits) == 0 {
            let (mut low, mut high) = (children.start, children.end - 1);
            while low < high {
                let mid = low + (high - low) / 2;
                if Node::get(&nodes[mid].visits) == 0 {
                    high = mid;
                } else {
                    low = mid + 1;
                }
            }
            return low;
        }
        let log_parent = (Node::get(&nodes[node].visits).max(1) as f32).ln();
        let c = std::f32::consts::SQRT_2;
        let mut best = nodes[node].children().start;
        let mut best_value = f32::NEG_INFINITY;
        for child in nodes[node].children() {
            let n = &nodes[child];
            let visits = Node::get(&n.visits);
            let value = if visits == 0 {
                f32::INFINITY
            } else {
                let inverse = 1.0 / visits as f32;
                Node::get(&n.score) as f32 * (inverse / UNIT as f32)
                    + c * (log_parent * inverse).sqrt()
            };
            if value > best_value {
                best_value = value;
                best = child;
            }
        }
        best
    }

    /// Uniformly random moves to the end; a leaf without moves becomes a
    /// terminal.
    fn playout(&mut self, node: usize, state: &mut G) -> Outcome {
        let Some(first) = state.random_move(&mut self.rng, &mut self.scratch) else {
            let outcome = state.outcome().expect("no legal moves means game over");
            if self.nodes[node].state() == UNEXPANDED {
                self.nodes[node].set_terminal(outcome);
            }
            return outcome;
        };
        let mut next = Some(first);
        while let Some(mv) = next {
            state.play(mv);
            next = state.random_move(&mut self.rng, &mut self.scratch);
        }
        state.outcome().expect("no legal moves means game over")
    }

    /// Gives a node its children in random order, or marks it terminal.
    /// False when the tree is full.
    fn expand(&mut self, node: usize, state: &G) -> bool {
        let n = &self.nodes[node];
        state.legal_moves(&mut self.moves);
        if self.moves.is_empty() {
            n.set_terminal(state.outcome().expect("no legal moves means game over"));
            return true;
        }
        let Some(first) = self.allocate(self.moves.len()) else {
            self.full = true;
            return false;
        };
        for i in (1..self.moves.len()).rev() {
            let j = random_below(&mut self.rng, i + 1);
            self.moves.swap(i, j);
        }
        for (i, &mv) in self.moves.iter().enumerate() {
            self.nodes[first + i].reset(mv.pack());
        }
        n.first_child.store(first as u32, RELAXED);
        n.child_count.store(self.moves.len() as u32, RELAXED);
        n.status.store(EXPANDED, RELAXED);
        true
    }

    /// The most visited child (the last of equals, then by score).
    fn best_child(&self, node: usize) -> usize {
        let nodes = self.nodes;
        nodes[node]
            .children()
            .max_by_key(|&c| (Node::get(&nodes[c].visits), Node::get(&nodes[c].score)))
            .expect("an expanded node has children")
    }

    fn report(&self, root: &G, ctx: &Context<G::Move>) -> Report<G::Move> {
        let nodes = self.nodes;
        let best = self.best_child(0);
        let mut pv = Vec::new();
        let mut state = root.clone();
        let mut node = 0;
        while nodes[node].state() == EXPANDED && pv.len() < 64 {
            let child = self.best_child(node);
            if Node::get(&nodes[child].visits) == 0 {
                break;
            }
            let mv = G::Move::unpack(Node::get(&nodes[child].mv));
            pv.push(mv);
            state.play(mv);
            node = child;
        }
        Report {
            depth: (self.depth_sum as f64 / self.iterations.max(1) as f64).round() as u32,
            seldepth: self.max_depth,
            score: Score::Cp(win_rate_to_cp(nodes[best].mean() as f64)),
            nodes: self.iterations,
            time_ms: ctx.elapsed_ms(),
            pv,
            hashfull: Some((self.used.min(nodes.len()) * 1000 / nodes.len().max(1)) as u32),
            alternatives: Vec::new(),
            root_moves: Vec::new(),
        }
    }
}

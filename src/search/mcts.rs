//! Monte Carlo tree search: UCT selection over an arena of nodes (children
//! stored contiguously), random playouts through the game's fast path,
//! robust-child final choice. The arena's size follows the `Hash` option;
//! when it is full the tree stops growing and search goes on from its leaves.

use super::time::{self, Budget};
use super::{Context, Info, Limits, Score, SearchResult, SearchSettings, win_rate_to_cp};
use crate::games::{Game, GameRng, Outcome, Seat, random_below};
use rand::SeedableRng;
use std::time::Duration;

/// Tunable behaviour of one MCTS flavour.
#[derive(Clone, Debug, PartialEq)]
pub struct MctsConfig {
    /// The UCT exploration constant c in q + c * sqrt(ln N / n).
    pub exploration: f32,
    /// Visits a leaf needs before it is expanded (at least 1).
    pub expand_after: u32,
}

impl MctsConfig {
    /// The fixed baseline: UCB1 with c = sqrt(2), expand on the second visit.
    pub fn plain() -> Self {
        MctsConfig {
            exploration: std::f32::consts::SQRT_2,
            expand_after: 1,
        }
    }

    /// Our default configuration.
    pub fn tuned() -> Self {
        MctsConfig {
            exploration: 0.7,
            expand_after: 1,
        }
    }
}

const UNEXPANDED: u8 = 0;
const EXPANDED: u8 = 1;
const TERMINAL: u8 = 2;

#[derive(Copy, Clone, Debug)]
struct Node<M> {
    /// The move that leads here from the parent.
    mv: M,
    first_child: u32,
    child_count: u32,
    visits: u32,
    /// Sum of rewards for the seat that played `mv`.
    reward: f32,
    kind: u8,
    /// For terminal nodes, the outcome (see `encode`).
    outcome: u8,
}

impl<M: Default> Node<M> {
    fn new(mv: M) -> Self {
        Node {
            mv,
            first_child: 0,
            child_count: 0,
            visits: 0,
            reward: 0.0,
            kind: UNEXPANDED,
            outcome: 0,
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

#[derive(Default)]
struct Stats {
    iterations: u64,
    depth_sum: u64,
    max_depth: u32,
}

pub struct Mcts<G: Game> {
    nodes: Vec<Node<G::Move>>,
    capacity: usize,
    rng: GameRng,
    path: Vec<(u32, Seat)>,
    moves: Vec<G::Move>,
    scratch: Vec<G::Move>,
}

impl<G: Game> Default for Mcts<G> {
    fn default() -> Self {
        Self::new()
    }
}

impl<G: Game> Mcts<G> {
    pub fn new() -> Self {
        Mcts {
            nodes: Vec::new(),
            capacity: 0,
            rng: GameRng::seed_from_u64(0),
            path: Vec::new(),
            moves: Vec::new(),
            scratch: Vec::new(),
        }
    }

    pub fn prepare(&mut self, settings: &SearchSettings) {
        let capacity = (settings.hash_mb.max(1) << 20) / std::mem::size_of::<Node<G::Move>>();
        if capacity != self.capacity {
            self.nodes = Vec::with_capacity(capacity);
            self.capacity = capacity;
        }
    }

    pub fn clear(&mut self) {
        self.nodes.clear();
    }

    pub fn search(
        &mut self,
        root: &G,
        config: &MctsConfig,
        settings: &SearchSettings,
        limits: &Limits,
        ctx: &mut Context,
    ) -> SearchResult<G::Move> {
        self.prepare(settings);
        self.rng = GameRng::seed_from_u64(settings.seed);
        self.nodes.clear();
        self.nodes.push(Node::new(G::Move::default()));
        self.expand(0, root);
        let budget = time::budget(
            limits,
            root.side_to_move(),
            settings.move_overhead_ms,
            root.moves_left_estimate(),
        );

        // A forced move under a clock is answered at once.
        let forced = self.nodes[0].child_count == 1 && limits.is_timed();
        let stats = if forced {
            Stats::default()
        } else {
            self.grow(root, config, limits, &budget, ctx)
        };
        let (iterations, depth_sum, max_depth) =
            (stats.iterations, stats.depth_sum, stats.max_depth);
        let info = self.info(root, iterations, depth_sum, max_depth, ctx);
        (ctx.report)(&info);
        let best = self.nodes[self.best_child(0)].mv;
        SearchResult { best, info }
    }

    /// Iterates until a limit is reached, reporting once a second.
    fn grow(
        &mut self,
        root: &G,
        config: &MctsConfig,
        limits: &Limits,
        budget: &Budget,
        ctx: &mut Context,
    ) -> Stats {
        let mut stats = Stats::default();
        let mut next_report = Duration::from_secs(1);
        loop {
            let depth = self.iterate(root, config);
            stats.iterations += 1;
            stats.depth_sum += depth as u64;
            stats.max_depth = stats.max_depth.max(depth);
            if limits.nodes.is_some_and(|n| stats.iterations >= n)
                || limits.depth.is_some_and(|d| stats.max_depth >= d)
            {
                return stats;
            }
            if stats.iterations.is_multiple_of(16) || stats.iterations < 16 {
                if ctx.stopped() || out_of_time(budget, ctx) {
                    return stats;
                }
                if ctx.start.elapsed() >= next_report {
                    let info = self.info(
                        root,
                        stats.iterations,
                        stats.depth_sum,
                        stats.max_depth,
                        ctx,
                    );
                    (ctx.report)(&info);
                    next_report += Duration::from_secs(1);
                }
            }
        }
    }

    /// One selection-expansion-playout-backup pass; returns the depth reached.
    fn iterate(&mut self, root: &G, config: &MctsConfig) -> u32 {
        let mut state = root.clone();
        self.path.clear();
        let mut node = 0usize;
        loop {
            let current = &self.nodes[node];
            if current.kind == TERMINAL {
                break;
            }
            if current.kind == UNEXPANDED {
                if node != 0 && current.visits < config.expand_after.max(1) {
                    break;
                }
                if !self.expand(node, &state) || self.nodes[node].kind == TERMINAL {
                    break;
                }
            }
            let child = self.select(node, config.exploration);
            let mover = state.side_to_move();
            state.play(self.nodes[child].mv);
            self.path.push((child as u32, mover));
            node = child;
        }
        let outcome = if self.nodes[node].kind == TERMINAL {
            decode(self.nodes[node].outcome)
        } else {
            state.random_playout(&mut self.rng, &mut self.scratch)
        };
        self.nodes[0].visits += 1;
        for &(index, mover) in &self.path {
            let n = &mut self.nodes[index as usize];
            n.visits += 1;
            n.reward += outcome.reward_for(mover);
        }
        self.path.len() as u32
    }

    /// Gives `node` its children (in random order) or marks it terminal.
    /// Returns false when the arena has no room for the children.
    fn expand(&mut self, node: usize, state: &G) -> bool {
        state.legal_moves(&mut self.moves);
        if self.moves.is_empty() {
            let outcome = state.outcome().expect("no legal moves means game over");
            self.nodes[node].kind = TERMINAL;
            self.nodes[node].outcome = encode(outcome);
            return true;
        }
        let first = self.nodes.len();
        if first + self.moves.len() > self.capacity.max(self.moves.len() + 1) {
            return false;
        }
        for i in (1..self.moves.len()).rev() {
            let j = random_below(&mut self.rng, i + 1);
            self.moves.swap(i, j);
        }
        self.nodes
            .extend(self.moves.iter().map(|&mv| Node::new(mv)));
        let n = &mut self.nodes[node];
        n.first_child = first as u32;
        n.child_count = self.moves.len() as u32;
        n.kind = EXPANDED;
        true
    }

    fn children(&self, node: usize) -> std::ops::Range<usize> {
        let n = &self.nodes[node];
        n.first_child as usize..(n.first_child + n.child_count) as usize
    }

    /// UCT: an unvisited child first, else the best upper confidence bound.
    fn select(&self, node: usize, c: f32) -> usize {
        let log_parent = (self.nodes[node].visits.max(1) as f32).ln();
        let mut best = usize::MAX;
        let mut best_value = f32::NEG_INFINITY;
        for child in self.children(node) {
            let n = &self.nodes[child];
            if n.visits == 0 {
                return child;
            }
            let visits = n.visits as f32;
            let value = n.reward / visits + c * (log_parent / visits).sqrt();
            if value > best_value {
                best_value = value;
                best = child;
            }
        }
        best
    }

    /// The robust child: most visits, ties broken by reward.
    fn best_child(&self, node: usize) -> usize {
        self.children(node)
            .max_by(|&a, &b| {
                let (na, nb) = (&self.nodes[a], &self.nodes[b]);
                na.visits
                    .cmp(&nb.visits)
                    .then(na.reward.total_cmp(&nb.reward))
            })
            .expect("the root of a search has children")
    }

    fn info(
        &self,
        root: &G,
        iterations: u64,
        depth_sum: u64,
        max_depth: u32,
        ctx: &Context,
    ) -> Info {
        let best = self.best_child(0);
        let n = &self.nodes[best];
        let win_rate = if n.visits > 0 {
            n.reward as f64 / n.visits as f64
        } else {
            0.5
        };
        let mut pv = Vec::new();
        let mut state = root.clone();
        let mut node = 0;
        while self.nodes[node].kind == EXPANDED && pv.len() < 64 {
            let child = self.best_child(node);
            if self.nodes[child].visits == 0 {
                break;
            }
            let mv = self.nodes[child].mv;
            pv.push(state.format_move(mv));
            state.play(mv);
            node = child;
        }
        Info {
            depth: (depth_sum as f64 / iterations.max(1) as f64).round() as u32,
            seldepth: max_depth,
            score: Score::Cp(win_rate_to_cp(win_rate)),
            nodes: iterations,
            time_ms: ctx.elapsed_ms(),
            pv,
            hashfull: Some((self.nodes.len() * 1000 / self.capacity.max(1)) as u32),
        }
    }
}

fn out_of_time(budget: &Budget, ctx: &Context) -> bool {
    budget.soft.is_some_and(|soft| ctx.start.elapsed() >= soft)
}

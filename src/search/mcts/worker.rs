//! One search thread's work: selection, expansion, leaf evaluation
//! (playout or learned value) and backup, over the shared tree.

use super::Shared;
use super::select::{at_temperature, select};
use super::tree::{MAX_ITERATIONS, Proof, RELAXED, State, UNIT, try_prove};
use crate::games::{CompactMove, Game, GameRng, Outcome, Seat, random_below};
use crate::search::Evaluator;
use rand::{Rng, SeedableRng};
use std::sync::atomic::{AtomicU32, Ordering};

/// What a leaf evaluation brings back.
#[derive(Copy, Clone, Debug)]
pub(super) enum Reward {
    Exact(Outcome),
    /// An estimate: the first seat's chance to win.
    Estimate(f32),
}

impl Reward {
    /// The score units `seat` earns, rounding estimates at random so that
    /// their expectation is exact.
    #[inline]
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

    /// The first seat's expected share.
    fn p1(self) -> f32 {
        match self {
            Reward::Exact(outcome) => outcome.reward_for(Seat::P1),
            Reward::Estimate(p1) => p1,
        }
    }
}

/// Iterations a worker keeps to itself before adding them to the shared
/// counts (fewer writes to shared cache lines).
const PUBLISH_EVERY: u32 = 32;

pub(super) struct Worker<G: Game> {
    rng: GameRng,
    path: Vec<(usize, Seat)>,
    moves: Vec<G::Move>,
    scratch: Vec<G::Move>,
    priors: Vec<f32>,
    order: Vec<(f32, G::Move)>,
    /// Not yet published: iterations and the sum of their depths.
    unpublished: u32,
    depth_sum: u64,
    max_depth: u32,
}

impl<G: Game> Worker<G> {
    pub(super) fn new(seed: u64) -> Self {
        Worker {
            rng: GameRng::seed_from_u64(seed),
            path: Vec::new(),
            moves: Vec::new(),
            scratch: Vec::new(),
            priors: Vec::new(),
            order: Vec::new(),
            unpublished: 0,
            depth_sum: 0,
            max_depth: 0,
        }
    }

    /// The deepest iteration of this worker so far.
    pub(super) fn max_depth(&self) -> u32 {
        self.max_depth
    }

    /// Iterations done and not yet added to the shared count.
    pub(super) fn unpublished(&self) -> u32 {
        self.unpublished
    }

    /// Adds this worker's counts to the shared ones.
    pub(super) fn publish(&mut self, shared: &Shared<G>) {
        if shared.node_limit.is_none() {
            shared
                .iterations
                .fetch_add(self.unpublished as u64, RELAXED);
        }
        shared.depth_sum.fetch_add(self.depth_sum, RELAXED);
        shared.max_depth.fetch_max(self.max_depth, RELAXED);
        self.unpublished = 0;
        self.depth_sum = 0;
    }

    /// Gives the root its children (even in a full arena: the caller made
    /// room for them).
    pub(super) fn expand_root(&mut self, shared: &Shared<G>, root: &G) {
        let node = &shared.nodes()[0];
        if node.proof() == Proof::Unknown && node.transition(State::Unexpanded, State::Expanding) {
            let expanded = self.expand(shared, 0, root);
            assert!(expanded, "the arena holds the root's children");
        }
    }

    /// Claims one iteration; false when the node limit is reached.
    #[inline]
    fn claim(&mut self, shared: &Shared<G>) -> bool {
        match shared.node_limit {
            Some(limit) => {
                if shared.iterations.fetch_add(1, RELAXED) >= limit.min(MAX_ITERATIONS) {
                    shared.iterations.fetch_sub(1, RELAXED);
                    return false;
                }
                true
            }
            None => {
                // The overflow guard is approximate by a few batches.
                shared.iterations.load(RELAXED) < MAX_ITERATIONS
            }
        }
    }

    /// One selection-expansion-evaluation-backup pass. False when the
    /// iteration limit is reached (nothing was done).
    pub(super) fn iterate(&mut self, shared: &Shared<G>, root: &G) -> bool {
        // A proven root has nothing left to learn: no more iterations.
        if shared.nodes()[0].proof() != Proof::Unknown || !self.claim(shared) {
            return false;
        }
        let nodes = shared.nodes();
        let config = shared.config;
        let puct = shared.priors().is_some();
        let mut state = root.clone();
        self.path.clear();
        let mut node = 0usize;
        add(&nodes[0].visits, 1, shared.threaded);
        let reward = loop {
            let current = &nodes[node];
            let meta = current.meta();
            if let Some(outcome) = meta.proof().outcome() {
                break Reward::Exact(outcome);
            }
            let mut status = meta.state();
            if status == State::Unexpanded {
                let ripe = node == 0
                    || (current.visits.load(RELAXED) > shared.expansion_threshold()
                        && !shared.full.load(RELAXED));
                if ripe
                    && current.transition(State::Unexpanded, State::Expanding)
                    && self.expand(shared, node, &state)
                {
                    status = current.state();
                } else {
                    break self.evaluate_leaf(shared, node, &mut state);
                }
            }
            match status {
                State::Expanded => {}
                State::Terminal => match current.proof().outcome() {
                    Some(outcome) => break Reward::Exact(outcome),
                    None => break self.evaluate_leaf(shared, node, &mut state),
                },
                _ => break self.evaluate_leaf(shared, node, &mut state),
            }
            let mover = state.side_to_move();
            let child = select(nodes, node, mover, config, puct);
            add(&nodes[child].visits, 1, shared.threaded);
            state.play(G::Move::unpack(nodes[child].mv.load(RELAXED)));
            self.path.push((child, mover));
            node = child;
        };
        self.backup(shared, reward);
        let depth = self.path.len() as u32;
        self.depth_sum += depth as u64;
        self.max_depth = self.max_depth.max(depth);
        self.unpublished += 1;
        if self.unpublished >= PUBLISH_EVERY {
            self.publish(shared);
        }
        true
    }

    /// The value of a leaf: the learned value, a playout, or a mix; a leaf
    /// found to have no moves becomes a proven terminal.
    fn evaluate_leaf(&mut self, shared: &Shared<G>, node: usize, state: &mut G) -> Reward {
        if let Some(oracle) = shared.oracle
            && let Some((outcome, plies)) = oracle.decide(state, shared.deadline)
        {
            return self.mark_proven(shared, node, outcome, plies);
        }
        let weight = shared.config.value_weight;
        let Some(evaluator) = shared.evaluator.filter(|_| weight > 0.0) else {
            return self.playout(shared, node, state);
        };
        if let Some(outcome) = state.outcome() {
            return self.mark_terminal(shared, node, outcome);
        }
        let value = evaluator.value(state);
        let p1 = if state.side_to_move() == Seat::P1 {
            value
        } else {
            1.0 - value
        };
        if weight >= 1.0 {
            return Reward::Estimate(p1);
        }
        let played = self.playout(shared, node, state).p1();
        Reward::Estimate(weight * p1 + (1.0 - weight) * played)
    }

    fn mark_terminal(&mut self, shared: &Shared<G>, node: usize, outcome: Outcome) -> Reward {
        self.mark_proven(shared, node, outcome, 0)
    }

    /// A leaf whose value is known (the game is over, or an oracle
    /// decided it, the end at most `plies` away): never expanded.
    fn mark_proven(
        &mut self,
        shared: &Shared<G>,
        node: usize,
        outcome: Outcome,
        plies: u32,
    ) -> Reward {
        let n = &shared.nodes()[node];
        if n.transition(State::Unexpanded, State::Terminal) {
            n.set_proof(Proof::of(outcome), plies);
        }
        Reward::Exact(outcome)
    }

    /// The next playout move (the game's own policy).
    #[inline]
    fn playout_move(&mut self, state: &G) -> Option<G::Move> {
        state.playout_move(&mut self.rng, &mut self.scratch)
    }

    /// Plays moves from a leaf to the end (or to the cutoff, then scores
    /// the position with the game's evaluation or the learned value).
    fn playout(&mut self, shared: &Shared<G>, node: usize, state: &mut G) -> Reward {
        let Some(first) = self.playout_move(state) else {
            let outcome = state.outcome().expect("no legal moves means game over");
            return self.mark_terminal(shared, node, outcome);
        };
        // The first move and `cutoff` more (all of them without a cutoff).
        let cutoff = shared.config.playout_cutoff.unwrap_or(u32::MAX);
        // Where the game has an oracle, every `every` plies it may end
        // the playout with the exact value of the position reached.
        let oracle = shared.oracle.zip(shared.config.playout_oracle);
        let mut next = Some(first);
        let mut plies = 0u32;
        while let Some(mv) = next {
            if plies > cutoff {
                break;
            }
            state.play(mv);
            plies += 1;
            if let Some((oracle, every)) = oracle
                && plies.is_multiple_of(every)
                && let Some(outcome) =
                    oracle.decide_in_playout(state, shared.deadline, shared.quick_oracle)
            {
                return Reward::Exact(outcome);
            }
            next = self.playout_move(state);
        }
        if next.is_none() {
            return Reward::Exact(state.outcome().expect("no legal moves means game over"));
        }
        let p = match shared.cutoff_value() {
            Some(evaluator) => evaluator.value(state),
            None => {
                let eval = state.evaluate() as f32 / shared.config.eval_scale;
                1.0 / (1.0 + (-eval).exp())
            }
        };
        Reward::Estimate(if state.side_to_move() == Seat::P1 {
            p
        } else {
            1.0 - p
        })
    }

    /// Gives a claimed (Expanding) node its children or marks it terminal.
    /// False when the arena is full (the node is released unexpanded).
    fn expand(&mut self, shared: &Shared<G>, node: usize, state: &G) -> bool {
        let nodes = shared.nodes();
        let n = &nodes[node];
        state.search_moves(&mut self.moves);
        if self.moves.is_empty() {
            let outcome = state.outcome().expect("no legal moves means game over");
            n.set_proof(Proof::of(outcome), 0);
            n.set_state(State::Terminal);
            return true;
        }
        let Some(first) = shared.tree.allocate(self.moves.len()) else {
            shared.full.store(true, RELAXED);
            n.set_state(State::Unexpanded);
            return false;
        };
        let count = self.moves.len();
        match shared.priors() {
            Some(evaluator) => {
                self.order_by_priors(evaluator, state, shared.config.prior_temperature)
            }
            None => {
                let widen = shared
                    .config
                    .widen_above
                    .is_some_and(|above| count > above as usize);
                if widen {
                    order_by_evaluation(state, &mut self.moves, &mut self.rng);
                } else {
                    shuffle(&mut self.moves, &mut self.rng);
                }
                self.priors.clear();
            }
        }
        for (i, &mv) in self.moves.iter().enumerate() {
            let prior = self.priors.get(i).copied().unwrap_or(0.0);
            nodes[first + i].reset(mv.pack(), prior);
        }
        n.first_child.store(first as u32, RELAXED);
        n.child_count.store(count as u32, RELAXED);
        n.set_state(State::Expanded);
        true
    }

    /// Moves best prior first (widening opens them in this order), with
    /// their priors in `self.priors`.
    fn order_by_priors(&mut self, evaluator: &dyn Evaluator<G>, state: &G, temperature: f32) {
        shuffle(&mut self.moves, &mut self.rng);
        evaluator.priors(state, &self.moves, &mut self.priors);
        at_temperature(&mut self.priors, temperature);
        self.order.clear();
        self.order
            .extend(self.priors.iter().copied().zip(self.moves.iter().copied()));
        self.order
            .sort_by(|a, b| b.0.partial_cmp(&a.0).unwrap_or(std::cmp::Ordering::Equal));
        self.moves.clear();
        self.priors.clear();
        for &(prior, mv) in &self.order {
            self.moves.push(mv);
            self.priors.push(prior);
        }
    }

    /// Adds the reward to every node of the path and propagates proofs.
    fn backup(&mut self, shared: &Shared<G>, reward: Reward) {
        let nodes = shared.nodes();
        let mut proving = true;
        for i in (0..self.path.len()).rev() {
            let (child, mover) = self.path[i];
            let points = reward.points(mover, &mut self.rng);
            add(&nodes[child].score, points, shared.threaded);
            if proving {
                let parent = if i == 0 { 0 } else { self.path[i - 1].0 };
                proving = try_prove(nodes, parent, child, mover);
            }
        }
    }
}

#[inline]
fn add(counter: &AtomicU32, value: u32, threaded: bool) {
    if threaded {
        counter.fetch_add(value, Ordering::Relaxed);
    } else {
        // One thread: a plain load and store, no locked instruction.
        counter.store(counter.load(RELAXED).wrapping_add(value), RELAXED);
    }
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

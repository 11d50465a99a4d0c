//! The MCTS tree: 24-byte nodes in one zeroed arena sized by `Hash`,
//! children contiguous, every field atomic so that threads share it.
//!
//! A node's `meta` word packs its expansion state (2 bits), its proof (2
//! bits), the plies to the end of a proven game (12 bits) and its prior
//! (16 bits), so one load gives a selection everything but the counts.

use crate::games::{Outcome, Seat};
use crate::search::memory::{Table, Zeroable};
use std::sync::atomic::{AtomicU32, AtomicUsize, Ordering};

pub(super) const RELAXED: Ordering = Ordering::Relaxed;

/// Score units per reward point: a win scores `UNIT`, a draw half.
pub(super) const UNIT: u32 = 16;
/// Searches stop growing here so that no score sum can overflow a u32.
pub(super) const MAX_ITERATIONS: u64 = 250_000_000;

/// Expansion states.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum State {
    Unexpanded = 0,
    /// A thread is giving the node its children.
    Expanding = 1,
    Expanded = 2,
    /// The game is over here.
    Terminal = 3,
}

/// What a node is proven to lead to.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Proof {
    Unknown,
    Win(Seat),
    Draw,
}

impl Proof {
    pub(super) fn of(outcome: Outcome) -> Proof {
        match outcome {
            Outcome::Win(seat) => Proof::Win(seat),
            Outcome::Draw => Proof::Draw,
        }
    }

    pub(super) fn outcome(self) -> Option<Outcome> {
        match self {
            Proof::Unknown => None,
            Proof::Win(seat) => Some(Outcome::Win(seat)),
            Proof::Draw => Some(Outcome::Draw),
        }
    }

    fn code(self) -> u32 {
        match self {
            Proof::Unknown => 0,
            Proof::Win(Seat::P1) => 1,
            Proof::Win(Seat::P2) => 2,
            Proof::Draw => 3,
        }
    }

    fn from_code(code: u32) -> Proof {
        match code & 3 {
            0 => Proof::Unknown,
            1 => Proof::Win(Seat::P1),
            2 => Proof::Win(Seat::P2),
            _ => Proof::Draw,
        }
    }
}

const STATE_MASK: u32 = 0b11;
const PROOF_SHIFT: u32 = 2;
const PLIES_SHIFT: u32 = 4;
const MAX_PLIES: u32 = 0xfff;
const PRIOR_SHIFT: u32 = 16;

/// One load of a node's `meta` word, unpacked on demand.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) struct Meta(u32);

impl Meta {
    pub(super) fn state(self) -> State {
        match self.0 & STATE_MASK {
            0 => State::Unexpanded,
            1 => State::Expanding,
            2 => State::Expanded,
            _ => State::Terminal,
        }
    }

    pub(super) fn proof(self) -> Proof {
        Proof::from_code(self.0 >> PROOF_SHIFT)
    }

    pub(super) fn proof_plies(self) -> u32 {
        (self.0 >> PLIES_SHIFT) & MAX_PLIES
    }

    /// The prior probability of the move into this node (0 without one).
    pub(super) fn prior(self) -> f32 {
        (self.0 >> PRIOR_SHIFT) as f32 * (1.0 / 65535.0)
    }

    fn with_state(self, state: State) -> Meta {
        Meta((self.0 & !STATE_MASK) | state as u32)
    }

    fn with_proof(self, proof: Proof, plies: u32) -> Meta {
        let cleared = self.0 & !(0x3fff << PROOF_SHIFT);
        Meta(cleared | proof.code() << PROOF_SHIFT | plies.min(MAX_PLIES) << PLIES_SHIFT)
    }

    fn fresh(prior: f32) -> Meta {
        let quantised = (prior.clamp(0.0, 1.0) * 65535.0).round() as u32;
        Meta(quantised << PRIOR_SHIFT)
    }
}

/// One tree node: 24 bytes.
#[derive(Default)]
pub(super) struct Node {
    /// The packed move that leads here from the parent.
    pub mv: AtomicU32,
    pub first_child: AtomicU32,
    pub child_count: AtomicU32,
    /// Completed and in-flight visits (an in-flight visit is a virtual loss).
    pub visits: AtomicU32,
    /// The summed reward of the seat that played `mv`, in `UNIT`s.
    pub score: AtomicU32,
    meta: AtomicU32,
}

// SAFETY: a node is six atomic u32s; all zero is an unexpanded node.
unsafe impl Zeroable for Node {}

const _: () = assert!(std::mem::size_of::<Node>() == 24);

impl Node {
    pub(super) fn reset(&self, mv: u32, prior: f32) {
        self.mv.store(mv, RELAXED);
        self.first_child.store(0, RELAXED);
        self.child_count.store(0, RELAXED);
        self.visits.store(0, RELAXED);
        self.score.store(0, RELAXED);
        self.meta.store(Meta::fresh(prior).0, RELAXED);
    }

    #[inline]
    pub(super) fn meta(&self) -> Meta {
        Meta(self.meta.load(Ordering::Acquire))
    }

    pub(super) fn state(&self) -> State {
        self.meta().state()
    }

    pub(super) fn proof(&self) -> Proof {
        self.meta().proof()
    }

    /// Moves the state from `from` to `to` if it is `from`; whether it did.
    pub(super) fn transition(&self, from: State, to: State) -> bool {
        self.meta
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |m| {
                (Meta(m).state() == from).then(|| Meta(m).with_state(to).0)
            })
            .is_ok()
    }

    pub(super) fn set_state(&self, state: State) {
        let _ = self
            .meta
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |m| {
                Some(Meta(m).with_state(state).0)
            });
    }

    pub(super) fn set_proof(&self, proof: Proof, plies: u32) {
        let _ = self
            .meta
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |m| {
                Some(Meta(m).with_proof(proof, plies).0)
            });
    }

    pub(super) fn children(&self) -> std::ops::Range<usize> {
        let first = self.first_child.load(RELAXED) as usize;
        first..first + self.child_count.load(RELAXED) as usize
    }

    /// The mean reward of the seat that played `mv` (½ unvisited).
    pub(super) fn mean(&self) -> f32 {
        let visits = self.visits.load(RELAXED);
        if visits == 0 {
            0.5
        } else {
            self.score.load(RELAXED) as f32 / (UNIT as f32 * visits as f32)
        }
    }
}

/// The arena: a bump allocator over one zeroed table of nodes.
pub(super) struct Tree {
    nodes: Table<Node>,
    used: AtomicUsize,
}

pub const NODE_BYTES: usize = std::mem::size_of::<Node>();

impl Tree {
    /// A tree of (at most) `bytes` of nodes, at least `min_nodes`.
    pub(super) fn with_bytes(bytes: usize, min_nodes: usize) -> (Tree, Option<String>) {
        let (nodes, warning) = Table::within(bytes, min_nodes.max(2));
        (
            Tree {
                nodes,
                used: AtomicUsize::new(0),
            },
            warning,
        )
    }

    pub(super) fn nodes(&self) -> &[Node] {
        &self.nodes
    }

    pub(super) fn capacity(&self) -> usize {
        self.nodes.len()
    }

    pub(super) fn used(&self) -> usize {
        self.used.load(RELAXED).min(self.nodes.len())
    }

    pub(super) fn bytes(&self) -> usize {
        self.nodes.bytes()
    }

    /// Empties the tree down to a fresh root.
    pub(super) fn reset_root(&self) {
        self.nodes[0].reset(0, 1.0);
        self.used.store(1, RELAXED);
    }

    /// Reserves `count` consecutive nodes; None when the arena is full.
    pub(super) fn allocate(&self, count: usize) -> Option<usize> {
        let first = self.used.fetch_add(count, RELAXED);
        if first + count <= self.nodes.len() {
            Some(first)
        } else {
            self.used.fetch_sub(count, RELAXED);
            None
        }
    }

    pub(super) fn permille_used(&self) -> u32 {
        (self.used() * 1000 / self.nodes.len().max(1)) as u32
    }

    /// Makes `node`'s subtree the whole tree (root at 0), keeping at most
    /// `budget` nodes of it, breadth first: nodes whose children do not
    /// fit become leaves again. The subtree goes through a temporary copy
    /// of at most `budget` nodes, so re-rooting never needs a second arena.
    pub(super) fn reroot(&self, node: usize, budget: usize) {
        struct Copied {
            mv: u32,
            visits: u32,
            score: u32,
            meta: Meta,
            /// Index in `copies` of the first child, and the child count.
            children: Option<(usize, u32)>,
        }
        let nodes = &self.nodes;
        let budget = budget.max(1);
        let mut copies: Vec<Copied> = Vec::new();
        let mut sources = vec![node];
        let mut at = 0;
        while at < sources.len() {
            let source = &nodes[sources[at]];
            let meta = source.meta();
            let meta = match meta.state() {
                State::Expanding => meta.with_state(State::Unexpanded),
                _ => meta,
            };
            copies.push(Copied {
                mv: source.mv.load(RELAXED),
                visits: source.visits.load(RELAXED),
                score: source.score.load(RELAXED),
                meta,
                children: None,
            });
            let children = source.children();
            if meta.state() == State::Expanded {
                if sources.len() + children.len() <= budget {
                    copies[at].children = Some((sources.len(), children.len() as u32));
                    sources.extend(children);
                } else {
                    copies[at].meta = meta.with_state(State::Unexpanded);
                }
            }
            at += 1;
        }
        for (i, copy) in copies.iter().enumerate() {
            let target = &nodes[i];
            target.mv.store(copy.mv, RELAXED);
            target.visits.store(copy.visits, RELAXED);
            target.score.store(copy.score, RELAXED);
            target.meta.store(copy.meta.0, RELAXED);
            let (first, count) = copy.children.unwrap_or((0, 0));
            target.first_child.store(first as u32, RELAXED);
            target.child_count.store(count, RELAXED);
        }
        self.used.store(copies.len(), RELAXED);
    }
}

/// Marks `parent` (whose side to move is `mover`) proven if `child`'s
/// proof decides it. Returns whether the parent is proven now.
pub(super) fn try_prove(nodes: &[Node], parent: usize, child: usize, mover: Seat) -> bool {
    let child_meta = nodes[child].meta();
    let proof = child_meta.proof();
    if proof == Proof::Unknown {
        return false;
    }
    if nodes[parent].proof() != Proof::Unknown {
        return true;
    }
    if proof == Proof::Win(mover) {
        nodes[parent].set_proof(proof, child_meta.proof_plies() + 1);
        return true;
    }
    // Proven only when every move is proven and none wins.
    let mut any_draw = false;
    let mut longest = 0;
    for c in nodes[parent].children() {
        let meta = nodes[c].meta();
        match meta.proof() {
            Proof::Unknown => return false,
            Proof::Win(seat) if seat == mover => return false,
            Proof::Draw => any_draw = true,
            Proof::Win(_) => {}
        }
        longest = longest.max(meta.proof_plies());
    }
    let result = if any_draw {
        Proof::Draw
    } else {
        Proof::Win(mover.other())
    };
    nodes[parent].set_proof(result, longest + 1);
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn meta_fields_pack_independently() {
        let node = Node::default();
        node.reset(42, 0.25);
        assert_eq!(node.state(), State::Unexpanded);
        assert!((node.meta().prior() - 0.25).abs() < 1e-4);
        assert!(node.transition(State::Unexpanded, State::Expanding));
        assert!(!node.transition(State::Unexpanded, State::Expanding));
        node.set_proof(Proof::Win(Seat::P2), 5000);
        let meta = node.meta();
        assert_eq!(meta.state(), State::Expanding);
        assert_eq!(meta.proof(), Proof::Win(Seat::P2));
        assert_eq!(meta.proof_plies(), MAX_PLIES, "plies saturate");
        assert!((meta.prior() - 0.25).abs() < 1e-4);
        node.set_state(State::Expanded);
        assert_eq!(node.proof(), Proof::Win(Seat::P2));
        assert_eq!(node.mv.load(RELAXED), 42);
    }

    /// A root with two children, the first with two children of its own.
    fn small_tree() -> Tree {
        let (tree, _) = Tree::with_bytes(64 * NODE_BYTES, 2);
        tree.reset_root();
        let nodes = tree.nodes();
        let first = tree.allocate(2).unwrap();
        for (i, mv) in [10, 20].into_iter().enumerate() {
            nodes[first + i].reset(mv, 0.5);
            nodes[first + i].visits.store(3 + i as u32, RELAXED);
        }
        nodes[0].first_child.store(first as u32, RELAXED);
        nodes[0].child_count.store(2, RELAXED);
        nodes[0].set_state(State::Expanded);
        let grand = tree.allocate(2).unwrap();
        for (i, mv) in [11, 12].into_iter().enumerate() {
            nodes[grand + i].reset(mv, 0.5);
            nodes[grand + i].visits.store(1, RELAXED);
        }
        nodes[first].first_child.store(grand as u32, RELAXED);
        nodes[first].child_count.store(2, RELAXED);
        nodes[first].set_state(State::Expanded);
        tree
    }

    #[test]
    fn rerooting_keeps_the_subtree_in_place() {
        let tree = small_tree();
        let child = tree.nodes()[0].children().start;
        tree.reroot(child, 100);
        let nodes = tree.nodes();
        assert_eq!(tree.used(), 3);
        assert_eq!(nodes[0].mv.load(RELAXED), 10);
        assert_eq!(nodes[0].visits.load(RELAXED), 3);
        assert_eq!(nodes[0].state(), State::Expanded);
        let moves: Vec<u32> = nodes[0]
            .children()
            .map(|c| nodes[c].mv.load(RELAXED))
            .collect();
        assert_eq!(moves, vec![11, 12]);
    }

    #[test]
    fn rerooting_within_a_budget_cuts_the_tree_breadth_first() {
        let tree = small_tree();
        tree.reroot(0, 3);
        let nodes = tree.nodes();
        assert_eq!(tree.used(), 3, "root and its two children");
        let first = nodes[0].children().start;
        assert_eq!(nodes[first].state(), State::Unexpanded);
        assert_eq!(nodes[first].visits.load(RELAXED), 3, "statistics stay");
    }

    #[test]
    fn proofs_propagate_wins_and_losses() {
        let tree = small_tree();
        let nodes = tree.nodes();
        let first = nodes[0].children().start;
        // P1 to move at the root: a P1 win below proves the root at once.
        nodes[first].set_proof(Proof::Win(Seat::P1), 2);
        assert!(try_prove(nodes, 0, first, Seat::P1));
        assert_eq!(nodes[0].proof(), Proof::Win(Seat::P1));
        assert_eq!(nodes[0].meta().proof_plies(), 3);
        // A loss proves the parent only when every child loses.
        let tree = small_tree();
        let nodes = tree.nodes();
        nodes[first].set_proof(Proof::Win(Seat::P2), 1);
        assert!(!try_prove(nodes, 0, first, Seat::P1));
        nodes[first + 1].set_proof(Proof::Win(Seat::P2), 4);
        assert!(try_prove(nodes, 0, first + 1, Seat::P1));
        assert_eq!(nodes[0].proof(), Proof::Win(Seat::P2));
        assert_eq!(nodes[0].meta().proof_plies(), 5, "the longest defence");
    }
}

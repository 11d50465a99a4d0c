//! Choosing among a node's children: UCT or PUCT while searching, the
//! robust child (or a proof) for the move to play, progressive widening.

use super::MctsConfig;
use super::tree::{Node, Proof, RELAXED, UNIT};
use crate::games::Seat;

/// How many children of a node with `visits` visits are open: all, or
/// (progressive widening) a number growing with the square root of visits.
#[inline]
pub(super) fn open_children(config: &MctsConfig, count: usize, visits: u32) -> usize {
    match config.widen_above {
        Some(above) if count > above as usize => {
            let open = 4 + (2.0 * (visits as f32).sqrt()) as usize;
            open.min(count)
        }
        _ => count,
    }
}

/// The child to descend into, for `mover` (the side to move at `node`):
/// a proven win at once, a proven loss only when nothing else is left.
#[inline]
pub(super) fn select(
    nodes: &[Node],
    node: usize,
    mover: Seat,
    config: &MctsConfig,
    puct: bool,
) -> usize {
    if puct {
        select_by(
            nodes,
            node,
            mover,
            config,
            PuctScore::new(nodes, node, config),
        )
    } else {
        select_by(
            nodes,
            node,
            mover,
            config,
            UctScore::new(nodes, node, config),
        )
    }
}

/// The value a selection rule gives an unproven child.
trait ChildScore {
    fn score(&self, child: &Node, visits: u32, prior: f32) -> f32;
}

/// UCB1: mean + c * sqrt(ln N / n); unvisited children first.
struct UctScore {
    c: f32,
    log_parent: f32,
}

impl UctScore {
    fn new(nodes: &[Node], node: usize, config: &MctsConfig) -> Self {
        let parent_visits = nodes[node].visits.load(RELAXED).max(1);
        UctScore {
            c: config.exploration,
            log_parent: (parent_visits as f32).ln(),
        }
    }
}

impl ChildScore for UctScore {
    #[inline]
    fn score(&self, child: &Node, visits: u32, _prior: f32) -> f32 {
        if visits == 0 {
            return f32::INFINITY;
        }
        // One division per child: the mean and the bonus share 1/visits.
        let inverse = 1.0 / visits as f32;
        child.score.load(RELAXED) as f32 * (inverse / UNIT as f32)
            + self.c * (self.log_parent * inverse).sqrt()
    }
}

/// PUCT (AlphaZero): mean + c * prior * sqrt(N) / (1 + n); an unvisited
/// child counts the parent's mean less a first-play reduction.
struct PuctScore {
    c_sqrt_parent: f32,
    first_play: f32,
}

impl PuctScore {
    fn new(nodes: &[Node], node: usize, config: &MctsConfig) -> Self {
        let parent = &nodes[node];
        let parent_visits = parent.visits.load(RELAXED).max(1);
        // The parent's mean is from the other side's view.
        let parent_mean = 1.0 - parent.mean();
        PuctScore {
            c_sqrt_parent: config.exploration * (parent_visits as f32).sqrt(),
            first_play: (parent_mean - config.first_play_reduction).max(0.0),
        }
    }
}

impl ChildScore for PuctScore {
    #[inline]
    fn score(&self, child: &Node, visits: u32, prior: f32) -> f32 {
        let mean = if visits == 0 {
            self.first_play
        } else {
            child.score.load(RELAXED) as f32 / (UNIT as f32 * visits as f32)
        };
        mean + self.c_sqrt_parent * prior / (1 + visits) as f32
    }
}

#[inline]
fn select_by(
    nodes: &[Node],
    node: usize,
    mover: Seat,
    config: &MctsConfig,
    rule: impl ChildScore,
) -> usize {
    let parent = &nodes[node];
    let children = parent.children();
    let open = open_children(config, children.len(), parent.visits.load(RELAXED));
    let mut best = children.start;
    let mut best_value = f32::NEG_INFINITY;
    for child in children.take(open) {
        let n = &nodes[child];
        let meta = n.meta();
        let value = match meta.proof() {
            Proof::Win(seat) if seat == mover => return child,
            Proof::Win(_) => -1.0,
            _ => rule.score(n, n.visits.load(RELAXED), meta.prior()),
        };
        if value > best_value {
            best_value = value;
            best = child;
        }
    }
    best
}

/// The move to play at `node`: a proven win (the quickest), else the most
/// visited child that is not a proven loss (a proven loss only if all
/// are: the slowest).
pub(super) fn best_child(nodes: &[Node], node: usize, mover: Seat) -> usize {
    nodes[node]
        .children()
        .max_by_key(|&c| rank(nodes, c, mover))
        .expect("an expanded node has children")
}

/// How good the move into `child` is for `mover`, as a sort key: proven
/// wins first (the quickest), then by visits and score, proven losses last
/// (the slowest first).
pub(super) fn rank(nodes: &[Node], child: usize, mover: Seat) -> (u8, i64, i64) {
    let n = &nodes[child];
    let meta = n.meta();
    let plies = meta.proof_plies() as i64;
    match meta.proof() {
        Proof::Win(seat) if seat == mover => (3, -plies, 0),
        Proof::Win(_) => (0, plies, 0),
        _ => (
            1,
            n.visits.load(RELAXED) as i64,
            n.score.load(RELAXED) as i64,
        ),
    }
}

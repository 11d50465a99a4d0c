//! Choosing among a node's children: UCT or PUCT while searching, the
//! robust child (or a proof) for the move to play, progressive widening.

use super::MctsConfig;
use super::tree::{Node, Proof, RELAXED, UNIT};
use crate::games::Seat;

/// The priors at `temperature`: each raised to 1 / `temperature`, then
/// renormalised, which for a softmax's output is the softmax of its logits
/// divided by `temperature`. Their order stays as it was.
pub(super) fn at_temperature(priors: &mut [f32], temperature: f32) {
    // Not a positive number (0, negative, NaN): nothing to take them at.
    if temperature == 1.0 || temperature.is_nan() || temperature <= 0.0 {
        return;
    }
    let power = 1.0 / temperature;
    let mut sum = 0.0;
    for p in priors.iter_mut() {
        *p = p.max(0.0).powf(power);
        sum += *p;
    }
    if sum > 0.0 && sum.is_finite() {
        let inverse = 1.0 / sum;
        priors.iter_mut().for_each(|p| *p *= inverse);
    }
}

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

    /// Whether no child after the first unvisited one can score higher
    /// than it, so the scan may end there.
    fn ends_at_first_unvisited(&self) -> bool;
}

/// UCB1: mean + c * sqrt(ln N / n); an unvisited child scores the
/// first-play urgency (infinity without one: unvisited children first).
struct UctScore {
    c: f32,
    log_parent: f32,
    unvisited: f32,
}

impl UctScore {
    fn new(nodes: &[Node], node: usize, config: &MctsConfig) -> Self {
        let parent_visits = nodes[node].visits.load(RELAXED).max(1);
        UctScore {
            c: config.exploration,
            log_parent: (parent_visits as f32).ln(),
            unvisited: config.first_play_urgency.unwrap_or(f32::INFINITY),
        }
    }
}

impl ChildScore for UctScore {
    // Children are in random order here, and every unvisited one scores
    // the same. Without an urgency that is infinite: no visited child
    // scores more, so the first unvisited one is taken (and children get
    // their first visits in order). The scan would miss a proven win after
    // it, but a node with one is proven itself (`try_prove`, in the same
    // backup) and never selects. With an urgency, a visited child may
    // score more.
    #[inline]
    fn ends_at_first_unvisited(&self) -> bool {
        self.unvisited == f32::INFINITY
    }

    #[inline]
    fn score(&self, child: &Node, visits: u32, _prior: f32) -> f32 {
        if visits == 0 {
            return self.unvisited;
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
    // PUCT runs only with priors, and children are then sorted best prior
    // first. Unvisited children share one mean, so they score in that
    // order and each is first visited after every one before it: the
    // visited children are a prefix, and nothing after the first unvisited
    // one can beat it. Nodes of wide games (Tritium's ~100 moves) are
    // mostly unvisited children, and scoring them all was a third of the
    // search's time.
    #[inline]
    fn ends_at_first_unvisited(&self) -> bool {
        true
    }

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
fn select_by<R: ChildScore>(
    nodes: &[Node],
    node: usize,
    mover: Seat,
    config: &MctsConfig,
    rule: R,
) -> usize {
    let parent = &nodes[node];
    let children = parent.children();
    let open = open_children(config, children.len(), parent.visits.load(RELAXED));
    let mut best = children.start;
    let mut best_value = f32::NEG_INFINITY;
    let ends_at_first_unvisited = rule.ends_at_first_unvisited();
    for child in children.take(open) {
        let n = &nodes[child];
        let meta = n.meta();
        let visits = n.visits.load(RELAXED);
        let (value, fresh) = match meta.proof() {
            Proof::Win(seat) if seat == mover => return child,
            Proof::Win(_) => (-1.0, false),
            _ => (rule.score(n, visits, meta.prior()), visits == 0),
        };
        if value > best_value {
            best_value = value;
            best = child;
        }
        if ends_at_first_unvisited && fresh {
            break;
        }
    }
    best
}

/// The move to play at `node`: a proven win (the quickest), else the most
/// visited child that is not a proven loss (a proven loss only if all
/// are: the slowest). Of equals the last.
pub(super) fn best_child(nodes: &[Node], node: usize, mover: Seat) -> usize {
    nodes[node]
        .children()
        .max_by_key(|&c| rank(nodes, c, mover))
        .expect("an expanded node has children")
}

/// The children of `node`, best first, in the order `best_child` chooses
/// by: equals last child first, so the reported line starts with the move
/// played.
pub(super) fn ranked_children(nodes: &[Node], node: usize, mover: Seat) -> Vec<usize> {
    let mut children: Vec<usize> = nodes[node].children().rev().collect();
    children.sort_by_key(|&c| std::cmp::Reverse(rank(nodes, c, mover)));
    children
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A parent (node 0) with children 1.. of these priors (best first, as
    /// expansion orders them), visits and summed rewards.
    fn tree(children: &[(f32, u32, u32)]) -> Vec<Node> {
        let nodes: Vec<Node> = (0..=children.len()).map(|_| Node::default()).collect();
        let visits: u32 = children.iter().map(|c| c.1).sum();
        nodes[0].visits.store(visits.max(1), RELAXED);
        nodes[0].score.store(visits * UNIT / 2, RELAXED);
        nodes[0].first_child.store(1, RELAXED);
        nodes[0].child_count.store(children.len() as u32, RELAXED);
        for (i, &(prior, visits, score)) in children.iter().enumerate() {
            nodes[i + 1].reset(i as u32, prior);
            nodes[i + 1].visits.store(visits, RELAXED);
            nodes[i + 1].score.store(score * UNIT, RELAXED);
        }
        nodes
    }

    /// The best child by `rule`, scoring every child.
    fn full_scan(nodes: &[Node], rule: impl ChildScore) -> usize {
        nodes[0]
            .children()
            .map(|c| {
                let n = &nodes[c];
                (c, rule.score(n, n.visits.load(RELAXED), n.meta().prior()))
            })
            .fold((0, f32::NEG_INFINITY), |best, (c, v)| {
                if v > best.1 { (c, v) } else { best }
            })
            .0
    }

    #[test]
    fn puct_scan_ending_at_the_first_unvisited_child_picks_the_full_scans_best() {
        let config = MctsConfig::tuned().with_exploration(1.0);
        let cases: [&[(f32, u32, u32)]; 4] = [
            // A strong visited child beats the unvisited ones.
            &[(0.5, 10, 9), (0.3, 5, 1), (0.1, 0, 0), (0.05, 0, 0)],
            // The first unvisited child beats weak visited ones.
            &[(0.4, 10, 1), (0.3, 10, 2), (0.2, 0, 0), (0.1, 0, 0)],
            // Nothing visited yet: the best prior.
            &[(0.6, 0, 0), (0.3, 0, 0), (0.1, 0, 0)],
            // Everything visited.
            &[(0.6, 30, 20), (0.3, 8, 7), (0.1, 2, 2)],
        ];
        for children in cases {
            let nodes = tree(children);
            let chosen = select(&nodes, 0, Seat::P1, &config, true);
            let rule = PuctScore::new(&nodes, 0, &config);
            assert_eq!(chosen, full_scan(&nodes, rule), "{children:?}");
        }
    }

    #[test]
    fn uct_scan_ending_at_the_first_unvisited_child_picks_the_full_scans_best() {
        let cases: [&[(f32, u32, u32)]; 5] = [
            // A child that won every visit still yields to an unvisited one.
            &[(0.0, 10, 10), (0.0, 5, 1), (0.0, 0, 0), (0.0, 0, 0)],
            // Unvisited children between visited ones: the first of them.
            &[(0.0, 3, 1), (0.0, 0, 0), (0.0, 9, 9), (0.0, 0, 0)],
            &[(0.0, 0, 0), (0.0, 40, 39), (0.0, 1, 1)],
            // Everything visited.
            &[(0.0, 30, 20), (0.0, 8, 7), (0.0, 2, 2)],
            &[(0.0, 1, 0), (0.0, 1, 1), (0.0, 1, 1)],
        ];
        for urgency in [None, Some(0.5), Some(1.0), Some(1.5)] {
            let mut config = MctsConfig::tuned().with_exploration(0.35);
            config.first_play_urgency = urgency;
            for children in cases {
                let nodes = tree(children);
                let chosen = select(&nodes, 0, Seat::P1, &config, false);
                let rule = UctScore::new(&nodes, 0, &config);
                let want = full_scan(&nodes, rule);
                assert_eq!(chosen, want, "urgency {urgency:?}, {children:?}");
            }
        }
    }

    #[test]
    fn the_move_played_heads_the_ranked_children_also_among_equals() {
        let cases: [&[(f32, u32, u32)]; 3] = [
            // Children tie on visits and score: the last of them is played
            // (as it always was: self-play records stay as they were).
            &[(0.0, 5, 3), (0.0, 5, 3), (0.0, 2, 2)],
            &[
                (0.0, 1, 0),
                (0.0, 1, 1),
                (0.0, 1, 1),
                (0.0, 1, 1),
                (0.0, 1, 0),
            ],
            // No tie: the most visited.
            &[(0.0, 1, 1), (0.0, 6, 2), (0.0, 5, 5)],
        ];
        let wants = [2, 4, 2];
        for (children, want) in cases.into_iter().zip(wants) {
            let nodes = tree(children);
            let best = best_child(&nodes, 0, Seat::P1);
            assert_eq!(best, want, "{children:?}");
            assert_eq!(
                ranked_children(&nodes, 0, Seat::P1)[0],
                best,
                "{children:?}"
            );
        }
    }

    #[test]
    fn uct_first_play_urgency_revisits_a_good_child_before_trying_new_ones() {
        // Child 1 has won 9 of 10, child 2 2 of 10; 3 and 4 are unvisited.
        // At c = 0.35 child 1 scores 0.9 + 0.35 * sqrt(ln 20 / 10) = 1.09.
        let nodes = tree(&[(0.0, 10, 9), (0.0, 10, 2), (0.0, 0, 0), (0.0, 0, 0)]);
        let uct = MctsConfig::tuned().with_exploration(0.35);
        assert_eq!(select(&nodes, 0, Seat::P1, &uct, false), 3);
        let urgent = uct.clone().with_first_play_urgency(1.5);
        assert_eq!(select(&nodes, 0, Seat::P1, &urgent, false), 3);
        let patient = uct.with_first_play_urgency(1.0);
        assert_eq!(select(&nodes, 0, Seat::P1, &patient, false), 1);
    }
}

#[cfg(test)]
mod temperature_tests {
    use super::at_temperature;

    fn softmax_in_place(values: &mut [f32]) {
        let max = values.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        values.iter_mut().for_each(|v| *v = (*v - max).exp());
        let sum: f32 = values.iter().sum();
        values.iter_mut().for_each(|v| *v /= sum);
    }

    #[test]
    fn a_temperature_divides_the_logits_of_a_softmax() {
        let logits = [1.5f32, -0.25, 0.0, 2.0, -3.0];
        for temperature in [0.5f32, 0.7, 1.0, 1.5, 3.0] {
            let mut priors = logits.to_vec();
            softmax_in_place(&mut priors);
            at_temperature(&mut priors, temperature);
            let mut expected: Vec<f32> = logits.iter().map(|l| l / temperature).collect();
            softmax_in_place(&mut expected);
            for (got, want) in priors.iter().zip(&expected) {
                assert!(
                    (got - want).abs() < 1e-5,
                    "T {temperature}: {priors:?} against {expected:?}"
                );
            }
        }
    }

    #[test]
    fn sharpening_keeps_the_order_and_moves_mass_to_the_favourite() {
        let mut priors = vec![0.5f32, 0.3, 0.2, 0.0];
        at_temperature(&mut priors, 0.5);
        assert!((priors.iter().sum::<f32>() - 1.0).abs() < 1e-6);
        assert!(priors[0] > 0.5 && priors[0] > priors[1] && priors[1] > priors[2]);
        assert_eq!(priors[3], 0.0);
        let mut flat = vec![0.5f32, 0.3, 0.2];
        at_temperature(&mut flat, 4.0);
        assert!(flat[0] < 0.5 && flat[2] > 0.2 && flat[0] > flat[2]);
    }

    #[test]
    fn no_temperature_or_a_meaningless_one_leaves_the_priors_alone() {
        for temperature in [1.0f32, 0.0, -1.0, f32::NAN] {
            let mut priors = vec![0.6f32, 0.4];
            at_temperature(&mut priors, temperature);
            assert_eq!(priors, vec![0.6, 0.4]);
        }
    }
}

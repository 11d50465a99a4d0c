//! Swindles (the `Swindles` option): in a position proven lost, play the
//! move that leaves the opponent the fewest winning replies, each reply
//! proven within a small share of the move's time. With `SwindleModel`,
//! a move whose winning replies a model of the opponent passes over (a
//! trap, `trap_model.rs`) comes first: of the traps, the one with the
//! fewest winning replies.
//!
//! Why: the opponent may err. Plain UCT misses a lone winning reply about
//! half the time, and one of many almost never (bench/RESULTS.md, session
//! 49). The search would play the longest resistance, which knows nothing
//! of how hard the win is to find.

use super::proofs::MoveClock;
use super::trap_model::TrapModel;
use crate::games::{Game, Outcome};
use crate::search::{Report, Score, SearchResult, legal_moves};
use crate::solve::{self, Budget, ProofTable};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The share of the move's time the swindle's proofs may take (counted
/// from the move's start, the proof's share included); where it finds
/// nothing, the search has the rest.
const SWINDLE_SHARE: f64 = 0.75;

/// With a model: the share of the move's time by which its questions end.
const MODEL_SHARE: f64 = 0.9;

/// With a model, moves are weighed in full while they leave at most this
/// many winning replies more than the best so far (the model may prefer
/// them); without one, only while they can beat it.
const MODEL_SLACK: usize = 2;

/// With a model: the most moves it is asked about (the fewest winning
/// replies first), so that each question gets time enough to mean something.
const MODEL_QUESTIONS: usize = 6;

/// On a clock, a swindle (and the search after one that found nothing)
/// may take this many times the move's planned time (never past its hard
/// limit; the session stretches the plan): in a lost position time has no
/// better use than finding the opponent's likely mistakes, and the model of the
/// opponent foretells it better the longer it thinks (bench/RESULTS.md,
/// session 50: 90% at 60 ms, 97% at 300 ms).
pub const LOST_TIME: f64 = 2.0;

/// No reply's proof gets less than this, however many are left.
const MIN_PROOF_TIME: Duration = Duration::from_micros(300);

/// No model question gets less than this.
const MIN_MODEL_TIME: Duration = Duration::from_millis(5);

/// A lost position's best try: the move, and what it leaves the opponent.
#[derive(Clone, Debug, PartialEq)]
pub struct Swindle<M> {
    pub mv: M,
    /// The opponent's replies not proven to let the win go (an unproven
    /// reply counts as winning).
    pub winning: usize,
    pub replies: usize,
    /// The opponent's one winning reply, when there is only one.
    pub answer: Option<M>,
    /// Whether the model expects the opponent to miss the win here.
    pub trap: bool,
    /// Positions the proofs expanded.
    pub nodes: u64,
}

/// What weighing found: the moves weighed in full and the nodes spent;
/// `Err(mv)`: `mv` is not lost after all.
type Weighing<M> = Result<(Vec<Weighed<M>>, u64), M>;

/// A move weighed in full: the opponent's winning replies, and replies.
struct Weighed<M> {
    mv: M,
    winning: Vec<M>,
    replies: usize,
}

impl<M> Weighed<M> {
    /// Whether a move leaving `winning` of `replies` beats this one: fewer
    /// winning replies first, then more replies to err with.
    fn beaten_by(&self, winning: usize, replies: usize) -> bool {
        let own = self.winning.len();
        winning < own || (winning == own && replies > self.replies)
    }
}

impl<M: Copy> Weighed<M> {
    fn swindle(&self, trap: bool, nodes: u64) -> Swindle<M> {
        Swindle {
            mv: self.mv,
            winning: self.winning.len(),
            replies: self.replies,
            answer: (self.winning.len() == 1).then(|| self.winning[0]),
            trap,
            nodes,
        }
    }
}

/// In `root`, proven lost in `plies`, a swindle found within its share of
/// the move's time (the session stretches it by `LOST_TIME` on a clock),
/// as the move to play and its report (a loss in `plies`); `None` where no
/// move sets a proven trap.
pub fn try_swindle<G: Game>(
    root: &G,
    table: &ProofTable,
    plies: u32,
    clock: &MoveClock,
    model: Option<&mut TrapModel<G>>,
) -> Option<SearchResult<G::Move>> {
    let deadline = clock.at(SWINDLE_SHARE)?;
    let model = model.zip(clock.at(MODEL_SHARE));
    let found = solve::on_big_stack(|| choose(root, table, deadline, clock.stop, model))??;
    let mut report = Report::empty(found.nodes, clock.start.elapsed().as_millis() as u64);
    report.depth = 2;
    report.seldepth = plies.max(2);
    report.score = Score::Mate(-(plies.max(1).div_ceil(2) as i32));
    report.pv = std::iter::once(found.mv).chain(found.answer).collect();
    report.hashfull = Some(table.permille_used());
    Some(SearchResult {
        best: found.mv,
        report,
    })
}

/// The move of `root` (lost for the side to move) that leaves the opponent
/// the fewest winning replies, ties to the most replies, proving each
/// reply until `deadline`; with a `model` (asked until its own deadline),
/// of the moves it expects the opponent to answer wrongly, the one with
/// the fewest winning replies, where there is such a move. Moves are
/// weighed in turn, and one stops being weighed once it cannot beat the
/// best so far (with a model: once it is `MODEL_SLACK` behind); a move the
/// clock cut short is not chosen. `None` where no move weighed in time
/// sets a trap.
pub fn choose<G: Game>(
    root: &G,
    table: &ProofTable,
    deadline: Instant,
    stop: &AtomicBool,
    model: Option<(&mut TrapModel<G>, Instant)>,
) -> Option<Swindle<G::Move>> {
    let slack = if model.is_some() { MODEL_SLACK } else { 0 };
    let began = Instant::now();
    let (weighed, nodes) = match weigh(root, table, deadline, stop, slack) {
        Ok(found) => found,
        // A move that is not lost after all (the proof was cut short?).
        Err(mv) => {
            return Some(
                Weighed {
                    mv,
                    winning: Vec::new(),
                    replies: 0,
                }
                .swindle(false, 0),
            );
        }
    };
    let fewest = weighed
        .iter()
        .filter(|w| w.winning.len() < w.replies)
        .reduce(|b, w| {
            if b.beaten_by(w.winning.len(), w.replies) {
                w
            } else {
                b
            }
        })?;
    log::debug!(
        "swindle: {} moves weighed in full in {} ms, the fewest winning replies {} of {}",
        weighed.len(),
        began.elapsed().as_millis(),
        fewest.winning.len(),
        fewest.replies
    );
    if let Some((model, until)) = model
        && let Some(trap) = first_trap(root, &weighed, fewest.winning.len(), model, until, stop)
    {
        return Some(trap.swindle(true, nodes));
    }
    Some(fewest.swindle(false, nodes))
}

/// Every move of `root` weighed in full before `deadline` (each reply
/// proven), with the nodes spent; moves that fall more than `slack`
/// winning replies behind the best are left out (with no slack: once
/// they cannot beat it).
fn weigh<G: Game>(
    root: &G,
    table: &ProofTable,
    deadline: Instant,
    stop: &AtomicBool,
    slack: usize,
) -> Weighing<G::Move> {
    let winner = root.side_to_move().other();
    let moves = legal_moves(root);
    let mut weighed: Vec<Weighed<G::Move>> = Vec::new();
    // The best of `weighed` so far, by its index.
    let mut best: Option<usize> = None;
    let mut nodes = 0;
    for (i, &mv) in moves.iter().enumerate() {
        let mut child = root.clone();
        child.play(mv);
        if let Some(outcome) = child.outcome() {
            if outcome != Outcome::Win(winner) {
                return Err(mv);
            }
            continue;
        }
        let replies = legal_moves(&child);
        let (mut winning, mut complete) = (Vec::new(), true);
        for &reply in &replies {
            let now = Instant::now();
            if now >= deadline || stop.load(Ordering::Relaxed) {
                return Ok((weighed, nodes));
            }
            // An even share of what is left for each move still to weigh,
            // and a quarter of that for each reply.
            let share = (deadline - now) / (4 * (moves.len() - i)) as u32;
            let budget = Budget::until(
                Some(deadline.min(now + share.max(MIN_PROOF_TIME))),
                Some(stop),
            );
            let mut grandchild = child.clone();
            grandchild.play(reply);
            let value = match grandchild.outcome() {
                Some(outcome) => Some(outcome),
                None => {
                    let proof = solve::prove(&grandchild, &budget, table, 1);
                    nodes += proof.nodes;
                    proof.value
                }
            };
            if value.is_none_or(|v| v == Outcome::Win(winner)) {
                winning.push(reply);
            }
            let behind = best.map(|b| &weighed[b]).is_some_and(|b| {
                if slack == 0 {
                    !b.beaten_by(winning.len(), replies.len())
                } else {
                    winning.len() > b.winning.len() + slack
                }
            });
            if behind {
                complete = false;
                break;
            }
        }
        if !complete {
            continue;
        }
        let this = Weighed {
            mv,
            winning,
            replies: replies.len(),
        };
        if best.is_none_or(|b| weighed[b].beaten_by(this.winning.len(), this.replies)) {
            best = Some(weighed.len());
        }
        weighed.push(this);
    }
    Ok((weighed, nodes))
}

/// Of the `weighed` moves that leave a winning reply to miss and at most
/// `MODEL_SLACK` more winning replies than the `fewest`, the first (fewest
/// winning replies, then most replies) after which the model
/// expects a reply that is not winning, asked until `until`; the
/// questions share the time evenly.
fn first_trap<'a, G: Game>(
    root: &G,
    weighed: &'a [Weighed<G::Move>],
    fewest: usize,
    model: &mut TrapModel<G>,
    until: Instant,
    stop: &AtomicBool,
) -> Option<&'a Weighed<G::Move>> {
    let mut order: Vec<&Weighed<G::Move>> = weighed
        .iter()
        .filter(|w| w.winning.len() < w.replies && w.winning.len() <= fewest + MODEL_SLACK)
        .collect();
    order.sort_by_key(|w| (w.winning.len(), std::cmp::Reverse(w.replies)));
    order.truncate(MODEL_QUESTIONS);
    let count = order.len();
    for (i, candidate) in order.into_iter().enumerate() {
        let now = Instant::now();
        let left = until.checked_duration_since(now).unwrap_or_default();
        let slice = left / (count - i) as u32;
        if slice < MIN_MODEL_TIME || stop.load(Ordering::Relaxed) {
            log::debug!("swindle model: {i} of {count} questions asked, out of time");
            return None;
        }
        let mut child = root.clone();
        child.play(candidate.mv);
        let expected = model.expected_reply(&child, now + slice, stop)?;
        // A question cut short by `stop` answers nothing.
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        if !candidate.winning.contains(&expected) {
            log::debug!("swindle model: a trap at question {} of {count}", i + 1);
            return Some(candidate);
        }
    }
    log::debug!("swindle model: no trap in {count} questions");
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::hadron::Hadron;
    use crate::solve::naive;

    /// Per move of a position: the opponent's winning replies, and replies.
    type ReplyCounts = Vec<(usize, usize)>;

    /// Lost positions of 5x5 Hadron with more than two moves, reached by
    /// fixed pseudo-random walks, each with its moves' counts of the
    /// opponent's winning replies and replies, by naive search.
    fn lost_positions(count: usize) -> Vec<(Hadron<u64>, ReplyCounts)> {
        let mut found = Vec::new();
        for seed in 0..400u64 {
            let mut game = Hadron::<u64>::new(5);
            let mut step = seed;
            while game.outcome().is_none() {
                let moves = legal_moves(&game);
                let lost = moves.len() > 2
                    && naive::value(&game, 2_000_000)
                        == Some(Outcome::Win(game.side_to_move().other()));
                if let Some(counts) = lost.then(|| naive_winning_replies(&game)).flatten() {
                    found.push((game.clone(), counts));
                    break;
                }
                game.play(moves[(step % moves.len() as u64) as usize]);
                step = step / 3 + 7 * seed + 1;
            }
            if found.len() >= count {
                break;
            }
        }
        found
    }

    /// Per move of `root`: the opponent's winning replies and all its
    /// replies, by naive search (`None`: too big for it).
    fn naive_winning_replies(root: &Hadron<u64>) -> Option<ReplyCounts> {
        let winner = root.side_to_move().other();
        legal_moves(root)
            .into_iter()
            .map(|mv| {
                let mut child = root.clone();
                child.play(mv);
                let values = naive::children(&child, 2_000_000)?;
                let winning = values.iter().filter(|(_, v)| *v == Outcome::Win(winner));
                Some((winning.count(), values.len()))
            })
            .collect()
    }

    #[test]
    fn picks_the_move_with_the_fewest_winning_replies_by_naive_search() {
        let positions = lost_positions(8);
        assert!(
            positions.len() >= 6,
            "found {} lost positions",
            positions.len()
        );
        let stop = AtomicBool::new(false);
        let mut traps = 0;
        for (root, counts) in positions {
            let table = ProofTable::new(8);
            let deadline = Instant::now() + Duration::from_secs(60);
            let fewest = counts.iter().map(|c| c.0).min().expect("moves");
            let most_replies = counts.iter().filter(|c| c.0 == fewest).map(|c| c.1).max();
            let moves = legal_moves(&root);
            match choose(&root, &table, deadline, &stop, None) {
                Some(swindle) => {
                    let at = moves.iter().position(|&m| m == swindle.mv).expect("legal");
                    assert_eq!(counts[at], (swindle.winning, swindle.replies), "{root:?}");
                    assert_eq!(swindle.winning, fewest, "{root:?}: {counts:?}");
                    assert_eq!(
                        Some(swindle.replies),
                        most_replies,
                        "ties: the most replies"
                    );
                    traps += 1;
                    if swindle.winning == 1 {
                        let mut after = root.clone();
                        after.play(swindle.mv);
                        after.play(swindle.answer.expect("the lone winning reply"));
                        let winner = root.side_to_move().other();
                        assert_eq!(naive::value(&after, 2_000_000), Some(Outcome::Win(winner)));
                    }
                }
                // No trap anywhere: every reply of every move wins.
                None => assert!(counts.iter().all(|&(w, n)| w == n), "{root:?}: {counts:?}"),
            }
        }
        assert!(traps >= 3, "only {traps} positions with a trap");
    }

    /// The model's iterations per question in the tests (node-limited, so
    /// the same answers on any machine).
    const TEST_MODEL_NODES: u64 = 300;

    /// With a model: a move after which the model (asked afresh here)
    /// expects a reply that naive search proves losing comes first, the
    /// one with the fewest winning replies of those within the slack, the
    /// first six in order; with none, the fewest winning replies as before.
    #[test]
    fn with_a_model_a_trap_comes_before_fewer_winning_replies() {
        let positions = lost_positions(12);
        let stop = AtomicBool::new(false);
        let (mut traps, mut plain) = (0, 0);
        for (root, counts) in positions {
            let moves = legal_moves(&root);
            let winner = root.side_to_move().other();
            let fewest = counts.iter().filter(|c| c.0 < c.1).map(|c| c.0).min();
            let Some(fewest) = fewest else { continue };
            // The questions the swindle asks, in its order, answered by a
            // fresh model: whether the expected reply lets the win go.
            let mut order: Vec<usize> = (0..moves.len())
                .filter(|&i| counts[i].0 < counts[i].1 && counts[i].0 <= fewest + MODEL_SLACK)
                .collect();
            order.sort_by_key(|&i| (counts[i].0, std::cmp::Reverse(counts[i].1)));
            order.truncate(MODEL_QUESTIONS);
            let mut model = TrapModel::with_nodes(TEST_MODEL_NODES);
            let far = Instant::now() + Duration::from_secs(60);
            let expected_trap = order.into_iter().find(|&i| {
                let mut child = root.clone();
                child.play(moves[i]);
                let reply = model.expected_reply(&child, far, &stop).expect("nodes");
                child.play(reply);
                naive::value(&child, 2_000_000) != Some(Outcome::Win(winner))
            });
            let table = ProofTable::new(8);
            let mut model = TrapModel::with_nodes(TEST_MODEL_NODES);
            let swindle = choose(&root, &table, far, &stop, Some((&mut model, far)))
                .expect("a move that leaves a winning reply to miss");
            let at = moves.iter().position(|&m| m == swindle.mv).expect("legal");
            assert_eq!(counts[at], (swindle.winning, swindle.replies), "{root:?}");
            match expected_trap {
                Some(i) => {
                    assert!(swindle.trap, "{root:?}: {counts:?}");
                    assert_eq!(counts[at], counts[i], "the first trap: {root:?}");
                    traps += 1;
                }
                None => {
                    assert!(!swindle.trap, "{root:?}: {counts:?}");
                    assert_eq!(swindle.winning, fewest, "{root:?}: {counts:?}");
                    plain += 1;
                }
            }
        }
        assert!(
            traps >= 2 && plain >= 1,
            "{traps} traps, {plain} without one"
        );
    }

    #[test]
    fn gives_up_with_no_time() {
        let (root, _) = lost_positions(1).pop().expect("a lost position");
        let table = ProofTable::new(8);
        let stop = AtomicBool::new(false);
        assert_eq!(choose(&root, &table, Instant::now(), &stop, None), None);
        stop.store(true, Ordering::Relaxed);
        let later = Instant::now() + Duration::from_secs(10);
        assert_eq!(choose(&root, &table, later, &stop, None), None);
    }
}

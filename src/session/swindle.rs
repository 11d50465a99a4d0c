//! Swindles (the `Swindles` option): in a position proven lost, play the
//! move that leaves the opponent the fewest winning replies, each reply
//! proven within a small share of the move's time.
//!
//! Why: the opponent may err. Plain UCT misses a lone winning reply about
//! half the time, and one of many almost never (bench/RESULTS.md, session
//! 49). The search would play the longest resistance, which knows nothing
//! of how hard the win is to find.

use super::proofs::MoveClock;
use crate::games::{Game, Outcome};
use crate::search::{Report, Score, SearchResult, legal_moves};
use crate::solve::{self, Budget, ProofTable};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The share of the move's time the swindle may take (counted from the
/// move's start, the proof's share included); where it finds nothing,
/// the search has the rest.
const SWINDLE_SHARE: f64 = 0.75;

/// No reply's proof gets less than this, however many are left.
const MIN_PROOF_TIME: Duration = Duration::from_micros(300);

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
    /// Positions the proofs expanded.
    pub nodes: u64,
}

impl<M> Swindle<M> {
    /// Fewer winning replies first, then more replies to err with.
    fn beats(&self, winning: usize, replies: usize) -> bool {
        winning < self.winning || (winning == self.winning && replies > self.replies)
    }
}

/// In `root`, proven lost in `plies`, a swindle found within its share of
/// the move's time, as the move to play and its report (a loss in
/// `plies`); `None` where no move sets a proven trap.
pub fn try_swindle<G: Game>(
    root: &G,
    table: &ProofTable,
    plies: u32,
    clock: &MoveClock,
) -> Option<SearchResult<G::Move>> {
    let deadline = clock.at(SWINDLE_SHARE)?;
    let found = solve::on_big_stack(|| choose(root, table, deadline, clock.stop))??;
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
/// reply until `deadline`. Moves are weighed in turn, and one stops being
/// weighed once it cannot beat the best so far; a move the clock cut short
/// is not chosen. `None` where no move weighed in time sets a trap.
pub fn choose<G: Game>(
    root: &G,
    table: &ProofTable,
    deadline: Instant,
    stop: &AtomicBool,
) -> Option<Swindle<G::Move>> {
    let winner = root.side_to_move().other();
    let moves = legal_moves(root);
    let mut best: Option<Swindle<G::Move>> = None;
    let mut nodes = 0;
    for (i, &mv) in moves.iter().enumerate() {
        let mut child = root.clone();
        child.play(mv);
        if let Some(outcome) = child.outcome() {
            if outcome != Outcome::Win(winner) {
                // Not lost after all (the proof was cut short?): take it.
                return Some(Swindle {
                    mv,
                    winning: 0,
                    replies: 0,
                    answer: None,
                    nodes,
                });
            }
            continue;
        }
        let replies = legal_moves(&child);
        let (mut winning, mut answer, mut weighed) = (0, None, true);
        for &reply in &replies {
            let now = Instant::now();
            if now >= deadline || stop.load(Ordering::Relaxed) {
                return best.filter(|b| b.winning < b.replies);
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
                winning += 1;
                answer = Some(reply);
            }
            let hopeless = best
                .as_ref()
                .is_some_and(|b| !b.beats(winning, replies.len()));
            if hopeless {
                weighed = false;
                break;
            }
        }
        if weighed
            && best
                .as_ref()
                .is_none_or(|b| b.beats(winning, replies.len()))
        {
            best = Some(Swindle {
                mv,
                winning,
                replies: replies.len(),
                answer: answer.filter(|_| winning == 1),
                nodes,
            });
        }
    }
    best.map(|b| Swindle { nodes, ..b })
        .filter(|b| b.winning < b.replies)
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
            match choose(&root, &table, deadline, &stop) {
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

    #[test]
    fn gives_up_with_no_time() {
        let (root, _) = lost_positions(1).pop().expect("a lost position");
        let table = ProofTable::new(8);
        let stop = AtomicBool::new(false);
        assert_eq!(choose(&root, &table, Instant::now(), &stop), None);
        stop.store(true, Ordering::Relaxed);
        let later = Instant::now() + Duration::from_secs(10);
        assert_eq!(choose(&root, &table, later, &stop), None);
    }
}

//! Long shots (the `LongShots` option, in the games whose profile allows
//! them): on a clock, where no proof has settled the position and the
//! search does not think itself winning, set a trap before the proofs can.
//! Of the few moves the search thinks about as good as its best, each is
//! asked of the swindles' model of the opponent (`trap_model.rs`), and the
//! position after the reply it expects is proven: where that reply is
//! proven to lose, the move is a trap, and the first such move (the
//! search's order) is played.
//!
//! Why: in Hadron 7 the games against `uct-plain` are decided at plies
//! 5-12, before the proofs during play settle them, in positions the
//! search reads as about even; a swindle begins only once a proof settles
//! the loss, and by then a plain search finds most wins (bench/RESULTS.md,
//! session 51). Two plies on, a position proves far sooner than the one
//! searched: there the proofs mostly answer in a few hundred milliseconds.
//!
//! Off by default: against `uct-plain` at 10 s + 100 ms in Hadron 7 it
//! measured +319.0 ± 50.3 over 400 games, level with +330.2 ± 51.6
//! without it (bench/RESULTS.md, session 53). By the time the search's
//! candidates differ, most are already lost; the replies it can prove are
//! mostly wins for the opponent.

use super::proofs::MoveClock;
use super::trap_model::TrapModel;
use crate::games::{Game, Outcome};
use crate::search::{RootMove, SearchResult};
use crate::solve::{self, Budget, ProofTable};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The search's win rate for its best move below which a long shot is
/// tried: where it does not think itself winning (in Hadron 7 the search
/// reads the positions of games it goes on to lose at about 0.45 to 0.55
/// until a proof settles them).
pub const TRIED_BELOW: f32 = 0.55;

/// The most moves weighed (the search's most visited first).
const CANDIDATES: usize = 4;

/// A candidate has at least this share of the best move's visits...
const VISIT_SHARE: u64 = 8;

/// ...and a win rate at most this much below the best move's: a long
/// shot is a move the search thinks about as good, never one it thinks
/// throws something away.
const WIN_RATE_SLACK: f32 = 0.03;

/// Of each candidate's share of the time, the model's question takes
/// this much; the proof of the position after the expected reply the rest.
const QUESTION_SHARE: f64 = 0.5;

/// On a clock, a long shot ends by this share of the move's time (the
/// session stretches the plan by `LOST_TIME` for it).
pub const LONG_SHOT_SHARE: f64 = 0.9;

/// No candidate is weighed with less than this left for it.
const MIN_SLICE: Duration = Duration::from_millis(20);

/// What weighing a candidate told.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Verdict<M> {
    /// The model's expected reply is proven to lose for the opponent.
    Trap(M),
    /// The model's expected reply is proven to win for the opponent.
    Pitfall,
    /// Not proven, a draw, or a move that ends the game other than in a
    /// loss (the search's to judge).
    Unknown,
}

/// The move played instead of the search's best.
#[derive(Clone, Debug, PartialEq)]
pub struct LongShot<M> {
    pub mv: M,
    /// The reply expected, proven to lose for the opponent; `None` for a
    /// sidestep: the search's best move was a pitfall and this one is not
    /// known to be.
    pub reply: Option<M>,
    /// Candidates weighed, this one included.
    pub weighed: usize,
}

/// After a search of `root` (its report with every root move's
/// statistics), plays a long shot where the search does not think itself
/// winning and one is found by `clock`'s [`LONG_SHOT_SHARE`]: the move becomes
/// the result's, its line the move and the reply expected. Whether it did.
pub fn try_long_shot<G: Game>(
    root: &G,
    result: &mut SearchResult<G::Move>,
    table: &ProofTable,
    model: &mut TrapModel<G>,
    clock: &MoveClock,
) -> bool {
    let moves = candidates(&result.report.root_moves);
    let Some(until) = clock.at(LONG_SHOT_SHARE).filter(|_| !moves.is_empty()) else {
        return false;
    };
    log::debug!(
        "long shot: {} moves to weigh, {} ms left",
        moves.len(),
        until.saturating_duration_since(Instant::now()).as_millis()
    );
    let found = solve::on_big_stack(|| choose(root, &moves, table, model, until, clock.stop));
    result.report.time_ms = clock.start.elapsed().as_millis() as u64;
    let Some(shot) = found.flatten() else {
        return false;
    };
    result.best = shot.mv;
    result.report.pv = std::iter::once(shot.mv).chain(shot.reply).collect();
    true
}

/// The moves worth a long shot, the search's best first, when the search's
/// best move (the most visited) has a win rate below [`TRIED_BELOW`] and is not
/// already proven; empty otherwise. Moves proven to win are never passed
/// over (the searcher plays them itself).
pub fn candidates<M: Copy>(root_moves: &[RootMove<M>]) -> Vec<M> {
    let mut by_visits: Vec<&RootMove<M>> = root_moves.iter().collect();
    by_visits.sort_by_key(|m| std::cmp::Reverse(m.visits));
    let Some(best) = by_visits.first() else {
        return Vec::new();
    };
    if best.win_rate >= TRIED_BELOW || best.proven.is_some() || best.visits == 0 {
        return Vec::new();
    }
    by_visits
        .iter()
        .filter(|m| m.visits * VISIT_SHARE >= best.visits)
        .filter(|m| m.win_rate >= best.win_rate - WIN_RATE_SLACK)
        .take(CANDIDATES)
        .map(|m| m.mv)
        .collect()
}

/// Of the candidates weighed so far (the search's best first), the one to
/// play instead of the best, and the reply it sets a trap for: the first
/// trap; else, where the best is a pitfall, the first not known to be one
/// (a sidestep: the opponent's natural reply to the best wins, and a move
/// the search rates about as well may not lose so plainly). `None`: play
/// the search's best.
pub fn pick<M: Copy>(verdicts: &[Verdict<M>]) -> Option<(usize, Option<M>)> {
    if let Some(at) = verdicts.iter().position(|v| matches!(v, Verdict::Trap(_))) {
        let Verdict::Trap(reply) = verdicts[at] else {
            unreachable!("found as a trap")
        };
        return Some((at, Some(reply)));
    }
    if !matches!(verdicts.first(), Some(Verdict::Pitfall)) {
        return None;
    }
    let at = verdicts
        .iter()
        .position(|v| matches!(v, Verdict::Unknown))?;
    Some((at, None))
}

/// Of `candidates` (moves of `root`, best first), the first after which
/// the `model`'s expected reply is proven to lose for the opponent, else
/// a sidestep of a best move that is a pitfall ([`pick`]), weighing them
/// until `until` (each an even share of what is left); `None` where
/// neither is found in time.
pub fn choose<G: Game>(
    root: &G,
    candidates: &[G::Move],
    table: &ProofTable,
    model: &mut TrapModel<G>,
    until: Instant,
    stop: &AtomicBool,
) -> Option<LongShot<G::Move>> {
    let count = candidates.len();
    let mut verdicts = Vec::with_capacity(count);
    for (i, &mv) in candidates.iter().enumerate() {
        let now = Instant::now();
        let slice = until.checked_duration_since(now).unwrap_or_default() / (count - i) as u32;
        if slice < MIN_SLICE || stop.load(Ordering::Relaxed) {
            log::debug!("long shot: {i} of {count} moves weighed, out of time");
            break;
        }
        let Some(verdict) = weigh(root, mv, table, model, now + slice, stop) else {
            break;
        };
        verdicts.push(verdict);
        if matches!(verdict, Verdict::Trap(_)) {
            log::debug!("long shot: a trap at move {} of {count}", i + 1);
            break;
        }
    }
    let (at, reply) = pick(&verdicts)?;
    if reply.is_none() {
        log::debug!(
            "long shot: the best move is a pitfall, sidestepped by move {}",
            at + 1
        );
    }
    Some(LongShot {
        mv: candidates[at],
        reply,
        weighed: verdicts.len(),
    })
}

/// Asks the model for its reply to `mv` (half the time to `until`) and
/// proves the position after it (the rest). `None` where the model was
/// stopped before it answered.
fn weigh<G: Game>(
    root: &G,
    mv: G::Move,
    table: &ProofTable,
    model: &mut TrapModel<G>,
    until: Instant,
    stop: &AtomicBool,
) -> Option<Verdict<G::Move>> {
    let mover = root.side_to_move();
    let mut child = root.clone();
    child.play(mv);
    if let Some(outcome) = child.outcome() {
        // A move that ends the game is the search's to judge, but a loss
        // is never a move to sidestep to.
        let lost = outcome == Outcome::Win(mover.other());
        return Some(if lost {
            Verdict::Pitfall
        } else {
            Verdict::Unknown
        });
    }
    let now = Instant::now();
    let asked_until = now + until.saturating_duration_since(now).mul_f64(QUESTION_SHARE);
    let reply = model.expected_reply(&child, asked_until, stop)?;
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    let reply_text = child.format_move(reply);
    child.play(reply);
    let value = match child.outcome() {
        Some(outcome) => Some(outcome),
        None => {
            let budget = Budget::until(Some(until), Some(stop));
            solve::prove(&child, &budget, table, 1).value
        }
    };
    let verdict = match value {
        Some(Outcome::Win(seat)) if seat == mover => Verdict::Trap(reply),
        Some(Outcome::Win(_)) => Verdict::Pitfall,
        Some(Outcome::Draw) | None => Verdict::Unknown,
    };
    log::debug!(
        "long shot: {} answered by {reply_text}: {verdict:?}",
        root.format_move(mv)
    );
    Some(verdict)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::hadron::Hadron;
    use crate::search::{Score, legal_moves};
    use crate::solve::naive;

    fn root_move(mv: u8, visits: u64, win_rate: f32) -> RootMove<u8> {
        RootMove {
            mv,
            visits,
            win_rate,
            prior: 0.0,
            proven: None,
        }
    }

    #[test]
    fn candidates_only_where_the_search_does_not_think_it_wins() {
        let moves = [root_move(1, 100, 0.6), root_move(2, 90, 0.5)];
        assert!(candidates(&moves).is_empty(), "best move at 0.6");
        let mut proven = [root_move(1, 100, 0.1)];
        proven[0].proven = Some(Score::Mate(-3));
        assert!(candidates(&proven).is_empty(), "a proof knows better");
        assert!(candidates::<u8>(&[]).is_empty());
    }

    #[test]
    fn candidates_are_the_best_few_by_visits_within_the_slack() {
        let moves = [
            root_move(1, 30, 0.45),
            root_move(2, 400, 0.4),
            root_move(3, 49, 0.48),
            root_move(4, 51, 0.39),
            root_move(5, 85, 0.36), // more than the slack below the best
            root_move(6, 200, 0.39),
            root_move(7, 100, 0.42),
            root_move(8, 80, 0.41),
        ];
        // 2 is best; 1 and 3 have under an eighth of its visits.
        assert_eq!(candidates(&moves), vec![2, 6, 7, 8]);
    }

    #[test]
    fn picks_the_first_trap_else_sidesteps_a_best_move_that_is_a_pitfall() {
        use Verdict::{Pitfall, Trap, Unknown};
        assert_eq!(pick::<u8>(&[]), None);
        assert_eq!(
            pick(&[Unknown, Pitfall, Trap(7u8), Trap(8)]),
            Some((2, Some(7)))
        );
        assert_eq!(pick(&[Trap(9u8)]), Some((0, Some(9))));
        // The best move not known to lose: it stays.
        assert_eq!(pick::<u8>(&[Unknown, Unknown]), None);
        assert_eq!(pick::<u8>(&[Unknown, Pitfall]), None);
        // The best a pitfall: the first move not known to be one.
        assert_eq!(
            pick::<u8>(&[Pitfall, Pitfall, Unknown, Unknown]),
            Some((2, None))
        );
        assert_eq!(pick::<u8>(&[Pitfall, Pitfall]), None);
    }

    /// Positions of 5x5 Hadron lost for the side to move, reached by fixed
    /// pseudo-random walks, small enough for naive search.
    fn lost_positions(count: usize) -> Vec<Hadron<u64>> {
        let mut found = Vec::new();
        for seed in 0..400u64 {
            let mut game = Hadron::<u64>::new(5);
            let mut step = seed;
            while game.outcome().is_none() {
                let moves = legal_moves(&game);
                if moves.len() > 3
                    && naive::value(&game, 2_000_000)
                        == Some(Outcome::Win(game.side_to_move().other()))
                {
                    found.push(game.clone());
                    break;
                }
                game.play(moves[(step % moves.len() as u64) as usize]);
                step = step / 3 + 5 * seed + 2;
            }
            if found.len() >= count {
                break;
            }
        }
        found
    }

    /// In lost positions, with every move a candidate: a long shot found is
    /// a move the model (asked afresh) answers with the reply named, which
    /// naive search proves losing for the opponent; and where the first
    /// candidate the fresh model would fall for exists, that is the one.
    #[test]
    fn a_long_shot_is_a_move_whose_expected_reply_loses() {
        const NODES: u64 = 300;
        let stop = AtomicBool::new(false);
        let (mut shots, mut none) = (0, 0);
        for root in lost_positions(12) {
            let mover = root.side_to_move();
            let moves = legal_moves(&root);
            let far = Instant::now() + Duration::from_secs(600);
            let mut fresh = TrapModel::with_nodes(NODES);
            let expected = moves.iter().position(|&mv| {
                let mut child = root.clone();
                child.play(mv);
                if child.outcome().is_some() {
                    return false;
                }
                let reply = fresh.expected_reply(&child, far, &stop).expect("nodes");
                child.play(reply);
                naive::value(&child, 2_000_000) == Some(Outcome::Win(mover))
            });
            let table = ProofTable::new(8);
            let mut model = TrapModel::with_nodes(NODES);
            let found = choose(&root, &moves, &table, &mut model, far, &stop);
            match (expected, found) {
                (Some(at), Some(shot)) => {
                    assert_eq!(shot.mv, moves[at], "{root:?}");
                    assert_eq!(shot.weighed, at + 1);
                    let mut after = root.clone();
                    after.play(shot.mv);
                    after.play(shot.reply.expect("a trap names its reply"));
                    assert_eq!(naive::value(&after, 2_000_000), Some(Outcome::Win(mover)));
                    shots += 1;
                }
                (None, None) => none += 1,
                (expected, found) => panic!("{root:?}: expected {expected:?}, found {found:?}"),
            }
        }
        assert!(
            shots >= 2 && none >= 1,
            "{shots} long shots, {none} without"
        );
    }

    #[test]
    fn gives_up_with_no_time() {
        let root = lost_positions(1).pop().expect("a lost position");
        let moves = legal_moves(&root);
        let table = ProofTable::new(8);
        let stop = AtomicBool::new(false);
        let mut model = TrapModel::with_nodes(300);
        assert_eq!(
            choose(&root, &moves, &table, &mut model, Instant::now(), &stop),
            None
        );
        stop.store(true, Ordering::Relaxed);
        let later = Instant::now() + Duration::from_secs(10);
        assert_eq!(
            choose(&root, &moves, &table, &mut model, later, &stop),
            None
        );
    }
}

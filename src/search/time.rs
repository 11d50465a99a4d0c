//! Time management: one type turns a `go`'s limits into a soft limit (when
//! a searcher should stop of its own accord, earlier when its best move is
//! stable) and a hard limit (when it must).

use super::{Limits, SearchSettings};
use crate::games::{Game, Seat};
use std::time::Duration;

#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub struct TimeManager {
    /// The time a move should take when time is shared across moves (a
    /// clock); none for a fixed `movetime`, which is spent whole.
    soft: Option<Duration>,
    /// Never search past this.
    hard: Option<Duration>,
}

/// How settled a searcher's choice is, for stopping early on a clock.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Stability {
    /// No evidence either way.
    Unknown,
    /// The best move has stayed the best for this many iterations.
    Iterations(u32),
}

impl TimeManager {
    /// The limits for one move of `side`, keeping `overhead_ms` of every
    /// clock back for I/O lag, expecting about `moves_left` more moves of
    /// ours (see [`TimeManager::moves_to_plan`]; `movestogo` wins when
    /// given).
    /// `lag_ms` is what every move has cost on the clock beyond the time
    /// it was seen to take (a [`LagMeter`]'s measure): planned for on every
    /// move to come.
    pub fn new(
        limits: &Limits,
        side: Seat,
        overhead_ms: u64,
        lag_ms: u64,
        moves_left: u32,
    ) -> Self {
        if limits.infinite {
            return TimeManager::default();
        }
        let mut soft_ms: Option<u64> = None;
        let mut hard_ms: Option<u64> = None;
        if let Some(movetime) = limits.movetime {
            // Answer a little early so the reply arrives within the move time.
            let margin = (overhead_ms / 2 + lag_ms).min(movetime / 5);
            hard_ms = Some(movetime.saturating_sub(margin).max(1));
        }
        if let Some(remaining) = limits.time[side.index()] {
            let inc = limits.inc[side.index()];
            let usable = remaining.saturating_sub(overhead_ms).max(1);
            let moves = limits
                .movestogo
                .map(|m| m.max(1))
                .unwrap_or(moves_left.clamp(1, 40)) as u64;
            // Each move really costs its share plus the lag, and the reply
            // must reach the manager, lag included, inside the clock.
            let share = (usable / moves + inc * 3 / 4).saturating_sub(lag_ms);
            let cap = (usable * 9 / 10).saturating_sub(lag_ms).max(1);
            let soft = share.min(usable * 4 / 5).min(cap).max(1);
            let hard = (soft * 3).min(cap).max(soft);
            let hard = hard_ms.map_or(hard, |h| h.min(hard));
            soft_ms = Some(soft.min(hard));
            hard_ms = Some(hard);
        }
        TimeManager {
            soft: soft_ms.map(Duration::from_millis),
            hard: hard_ms.map(Duration::from_millis),
        }
    }

    /// The limits for the side to move in `position`, with the settings'
    /// overhead and measured lag and the game's estimate of moves left.
    pub fn for_search<G: Game>(limits: &Limits, position: &G, settings: &SearchSettings) -> Self {
        TimeManager::new(
            limits,
            position.side_to_move(),
            settings.move_overhead_ms,
            settings.lag_ms,
            Self::moves_to_plan(position.moves_left_estimate(), settings.plan_moves),
        )
    }

    /// How many moves a clock is shared over: the game's estimate, kept
    /// within 8..40 (estimates are rough, and a long game must not starve
    /// its last moves), then capped by `plan_moves` where a profile knows
    /// that proofs will play the rest of the game in an instant.
    pub fn moves_to_plan(estimate: u32, plan_moves: Option<u32>) -> u32 {
        let moves = estimate.clamp(8, 40);
        plan_moves.map_or(moves, |cap| moves.min(cap.max(1)))
    }

    /// The same plan with every limit cut by `share` of itself (time kept
    /// back for work after the search).
    pub fn shortened(&self, share: f64) -> Self {
        let keep = (1.0 - share).clamp(0.0, 1.0);
        let cut = |d: Option<Duration>| d.map(|d| d.mul_f64(keep).max(Duration::from_millis(1)));
        TimeManager {
            soft: cut(self.soft),
            hard: cut(self.hard),
        }
    }

    /// The same plan with the time a move should take (on a clock) grown
    /// by `factor`, never past the hard limit; a fixed `movetime` is
    /// already spent whole and stays as it is.
    pub fn stretched(&self, factor: f64) -> Self {
        let soft = match (self.soft, self.hard) {
            (Some(soft), Some(hard)) => Some(soft.mul_f64(factor.max(1.0)).min(hard)),
            (soft, _) => soft,
        };
        TimeManager {
            soft,
            hard: self.hard,
        }
    }

    pub fn soft(&self) -> Option<Duration> {
        self.soft
    }

    pub fn hard(&self) -> Option<Duration> {
        self.hard
    }

    /// When a searcher without iterations (MCTS) should stop: the soft
    /// limit on a clock, else the hard one.
    pub fn target(&self) -> Option<Duration> {
        self.soft.or(self.hard)
    }

    /// Past the hard limit: stop at once.
    pub fn must_stop(&self, elapsed: Duration) -> bool {
        self.hard.is_some_and(|hard| elapsed >= hard)
    }

    /// Whether an iterative searcher should start another iteration: not
    /// when it would likely not finish within the soft limit, which shrinks
    /// as the best move stays the same (saved time is banked on a clock).
    pub fn next_iteration_fits(&self, elapsed: Duration, stability: Stability) -> bool {
        if self.must_stop(elapsed) {
            return false;
        }
        let Some(soft) = self.soft else {
            return true;
        };
        let factor = match stability {
            Stability::Iterations(n) if n >= 6 => 0.3,
            Stability::Iterations(n) if n >= 3 => 0.4,
            _ => 0.5,
        };
        elapsed < soft.mul_f64(factor)
    }
}

/// Learns from the clocks of successive `go`s how much more each move
/// cost than the engine itself saw it take, from reading `go` to answering:
/// a loaded machine answers late (the reply waits in pipes, the manager
/// waits to read it), and with a small increment that lateness, not the
/// thinking, empties the clock. A search that ran past its plan (an
/// alpha-beta iteration finishing after the soft limit) is thinking, not
/// lag: measured against the plan, it was taken off every later share.
#[derive(Clone, Debug, Default)]
pub struct LagMeter {
    last: Option<SpentMove>,
    lag_ms: u64,
}

#[derive(Clone, Debug)]
struct SpentMove {
    side: Seat,
    remaining: u64,
    inc: u64,
    spent: u64,
}

/// Charges above this (a new game, a clock set by hand) are not lag.
const LARGEST_CHARGE_MS: i64 = 10_000;

impl LagMeter {
    /// Before a search of `side`: what the previous move of `side` cost
    /// (its clock then, plus the increment, minus its clock now) beyond
    /// the time it was seen to take updates the lag, which is returned.
    /// Rises at once, falls slowly.
    pub fn lag_before(&mut self, limits: &Limits, side: Seat) -> u64 {
        let last = self.last.take();
        if let (Some(last), Some(now)) = (last, limits.time[side.index()])
            && last.side == side
        {
            let charged = (last.remaining + last.inc) as i64 - now as i64;
            if (0..=LARGEST_CHARGE_MS).contains(&charged) {
                let excess = (charged - last.spent as i64).max(0) as u64;
                self.lag_ms = if excess >= self.lag_ms {
                    excess
                } else {
                    (self.lag_ms * 3 + excess) / 4
                };
            }
        }
        self.lag_ms
    }

    /// The move of `side` under `limits` took `spent`, from reading `go`
    /// to answering.
    pub fn spent(&mut self, limits: &Limits, side: Seat, spent: Duration) {
        self.last = limits.time[side.index()].map(|remaining| SpentMove {
            side,
            remaining,
            inc: limits.inc[side.index()],
            spent: spent.as_millis() as u64,
        });
    }

    /// A new game: nothing known.
    pub fn reset(&mut self) {
        *self = LagMeter::default();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(d: Option<Duration>) -> u64 {
        d.unwrap().as_millis() as u64
    }

    /// 10 s + 100 ms a side, both clocks full.
    fn ten_seconds_and_a_tenth() -> Limits {
        Limits {
            time: [Some(10_000), Some(10_000)],
            inc: [100, 100],
            ..Limits::default()
        }
    }

    #[test]
    fn movetime_is_kept_within() {
        let tm = TimeManager::new(&Limits::movetime(100), Seat::P1, 20, 0, 30);
        assert!(ms(tm.hard()) <= 100 && ms(tm.hard()) >= 80);
        assert_eq!(tm.soft(), None, "a fixed move time is spent whole");
        assert_eq!(tm.target(), tm.hard());
        assert!(!tm.must_stop(Duration::from_millis(50)));
        assert!(tm.must_stop(Duration::from_millis(95)));
        assert!(tm.next_iteration_fits(Duration::from_millis(80), Stability::Unknown));
    }

    #[test]
    fn clock_limits_never_exceed_the_clock() {
        for remaining in [1u64, 10, 50, 100, 1000, 60_000] {
            for inc in [0u64, 10, 1000] {
                let limits = Limits {
                    time: [Some(remaining), Some(1)],
                    inc: [inc, 0],
                    ..Limits::default()
                };
                let tm = TimeManager::new(&limits, Seat::P1, 20, 0, 30);
                let hard = ms(tm.hard());
                assert!(ms(tm.soft()) <= hard);
                assert!(hard <= remaining.max(1), "{remaining} {inc} -> {hard}");
            }
        }
    }

    #[test]
    fn uses_the_side_to_moves_clock_and_movestogo() {
        let limits = Limits {
            time: [Some(100_000), Some(1_000)],
            ..Limits::default()
        };
        let p1 = ms(TimeManager::new(&limits, Seat::P1, 0, 0, 30).soft());
        let p2 = ms(TimeManager::new(&limits, Seat::P2, 0, 0, 30).soft());
        assert!(p1 > p2 * 10);
        let last_move = Limits {
            movestogo: Some(1),
            ..limits
        };
        let all = ms(TimeManager::new(&last_move, Seat::P1, 0, 0, 30).soft());
        assert!(all > p1 * 5, "one move to go gets most of the clock");
    }

    #[test]
    fn a_profile_may_share_the_clock_over_fewer_moves() {
        // The game's estimate is kept within 8..40; a profile's cap wins
        // below that (proofs will play the rest in an instant).
        assert_eq!(TimeManager::moves_to_plan(17, None), 17);
        assert_eq!(TimeManager::moves_to_plan(3, None), 8);
        assert_eq!(TimeManager::moves_to_plan(90, None), 40);
        assert_eq!(TimeManager::moves_to_plan(17, Some(6)), 6);
        assert_eq!(TimeManager::moves_to_plan(3, Some(6)), 6);
        assert_eq!(TimeManager::moves_to_plan(17, Some(0)), 1);
        let limits = ten_seconds_and_a_tenth();
        let plan = |moves| TimeManager::new(&limits, Seat::P1, 20, 0, moves);
        let (game, capped) = (ms(plan(17).soft()), ms(plan(6).soft()));
        assert!(capped > game * 2, "{capped} against {game}");
        assert!(ms(plan(6).hard()) <= 9_000);
    }

    #[test]
    fn a_stable_best_move_stops_iterating_sooner() {
        let limits = Limits {
            time: [Some(10_000), Some(10_000)],
            ..Limits::default()
        };
        let tm = TimeManager::new(&limits, Seat::P1, 0, 0, 20);
        let soft = tm.soft().unwrap();
        let at = soft.mul_f64(0.45);
        assert!(tm.next_iteration_fits(at, Stability::Unknown));
        assert!(!tm.next_iteration_fits(at, Stability::Iterations(3)));
        assert!(!tm.next_iteration_fits(soft, Stability::Unknown));
    }

    #[test]
    fn a_stretched_plan_grows_the_soft_limit_up_to_the_hard_one() {
        let clock = ten_seconds_and_a_tenth();
        let tm = TimeManager::new(&clock, Seat::P1, 0, 0, 6);
        let (soft, hard) = (tm.soft().unwrap(), tm.hard().unwrap());
        assert!(soft * 2 < hard, "{soft:?} {hard:?}");
        let twice = tm.stretched(2.0);
        assert_eq!(twice.soft(), Some(soft * 2));
        assert_eq!(twice.hard(), Some(hard));
        assert_eq!(tm.stretched(10.0).soft(), Some(hard));
        // Never shrunk, and a fixed move time is spent whole already.
        assert_eq!(tm.stretched(0.5), tm);
        let fixed = TimeManager::new(&Limits::movetime(100), Seat::P1, 0, 0, 6);
        assert_eq!(fixed.stretched(2.0), fixed);
    }

    #[test]
    fn infinite_has_no_limits() {
        let limits = Limits {
            infinite: true,
            movetime: Some(5),
            ..Limits::default()
        };
        assert_eq!(
            TimeManager::new(&limits, Seat::P1, 20, 0, 30),
            TimeManager::default()
        );
    }

    #[test]
    fn a_search_uses_the_plan_its_caller_made() {
        use crate::games::hadron::Hadron;
        use crate::search::Context;
        use std::sync::atomic::AtomicBool;
        let position = Hadron::<u64>::new(5);
        let limits = Limits::movetime(100);
        let settings = SearchSettings::default();
        let stop = AtomicBool::new(false);
        let mut ignore = |_: &crate::search::Report<u16>| {};
        let own = Context::new(std::time::Instant::now(), &stop, &mut ignore);
        assert_eq!(
            own.time_plan(&limits, &position, &settings),
            TimeManager::for_search(&limits, &position, &settings)
        );
        // The session's plan (with its lag) is the one searched with.
        let planned = TimeManager::new(&limits, Seat::P1, 20, 15, 30);
        assert_ne!(
            planned,
            TimeManager::for_search(&limits, &position, &settings)
        );
        let given = own.with_plan(planned);
        assert_eq!(given.time_plan(&limits, &position, &settings), planned);
    }

    #[test]
    fn lag_seen_on_the_clock_is_planned_for() {
        let at = |remaining: u64| Limits {
            time: [Some(remaining), Some(1000)],
            inc: [10, 10],
            ..Limits::default()
        };
        let plan = |limits: &Limits, lag: u64| TimeManager::new(limits, Seat::P1, 20, lag, 30);
        let took = |ms: u64| Duration::from_millis(ms);
        let mut meter = LagMeter::default();
        assert_eq!(meter.lag_before(&at(1000), Seat::P1), 0);
        // The move took 40 ms by the engine's watch and 65 ms on the
        // manager's clock.
        meter.spent(&at(1000), Seat::P1, took(40));
        let now = 1000 + 10 - 65;
        assert_eq!(meter.lag_before(&at(now), Seat::P1), 25);
        let lagged = plan(&at(now), 25);
        let unlagged = plan(&at(now), 0);
        assert!(ms(lagged.soft()) + 25 <= ms(unlagged.soft()).max(26));
        // Every plan leaves room for the lag inside the clock.
        for remaining in [5u64, 30, 60, 200, 1000] {
            let tm = plan(&at(remaining), 25);
            assert!(ms(tm.hard()) + 25 <= remaining.max(26), "{remaining}");
        }
        // Falls slowly once moves cost what they were seen to take.
        meter.spent(&at(now), Seat::P1, took(30));
        let next = now + 10 - 30;
        assert_eq!(meter.lag_before(&at(next), Seat::P1), 18);
        // Another side's clock, a new game or a clock set higher: no change.
        meter.spent(&at(next), Seat::P1, took(30));
        assert_eq!(meter.lag_before(&at(60_000), Seat::P1), 18);
        meter.spent(&at(next), Seat::P2, took(30));
        assert_eq!(meter.lag_before(&at(next), Seat::P1), 18);
        meter.reset();
        assert_eq!(meter.lag_before(&at(next), Seat::P1), 0);
    }

    #[test]
    fn a_search_past_its_plan_is_not_lag() {
        let limits = ten_seconds_and_a_tenth();
        let plan = TimeManager::new(&limits, Seat::P1, 20, 0, 30);
        // An iteration started before half the soft limit finished at
        // twice it; the clock charged exactly that (no lag).
        let spent = ms(plan.soft()) * 2;
        let mut meter = LagMeter::default();
        meter.lag_before(&limits, Seat::P1);
        meter.spent(&limits, Seat::P1, Duration::from_millis(spent));
        let after = Limits {
            time: [Some(10_000 + 100 - spent), Some(10_000)],
            ..limits
        };
        assert_eq!(meter.lag_before(&after, Seat::P1), 0);
    }
}

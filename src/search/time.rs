//! Time management: one type turns a `go`'s limits into a soft limit (when
//! a searcher should stop of its own accord, earlier when its best move is
//! stable) and a hard limit (when it must).

use super::Limits;
use crate::games::Seat;
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
    /// ours (the game's estimate; `movestogo` wins when given).
    pub fn new(limits: &Limits, side: Seat, overhead_ms: u64, moves_left: u32) -> Self {
        if limits.infinite {
            return TimeManager::default();
        }
        let mut soft_ms: Option<u64> = None;
        let mut hard_ms: Option<u64> = None;
        if let Some(movetime) = limits.movetime {
            // Answer a little early so the reply arrives within the move time.
            let margin = (overhead_ms / 2).min(movetime / 5);
            hard_ms = Some(movetime.saturating_sub(margin).max(1));
        }
        if let Some(remaining) = limits.time[side.index()] {
            let inc = limits.inc[side.index()];
            let usable = remaining.saturating_sub(overhead_ms).max(1);
            let moves = limits
                .movestogo
                .map(|m| m.max(1))
                .unwrap_or_else(|| moves_left.clamp(8, 40)) as u64;
            let share = usable / moves + inc * 3 / 4;
            let soft = share.min(usable * 4 / 5).max(1);
            let hard = (soft * 3).min(usable * 9 / 10).max(soft);
            let hard = hard_ms.map_or(hard, |h| h.min(hard));
            soft_ms = Some(soft.min(hard));
            hard_ms = Some(hard);
        }
        TimeManager {
            soft: soft_ms.map(Duration::from_millis),
            hard: hard_ms.map(Duration::from_millis),
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

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(d: Option<Duration>) -> u64 {
        d.unwrap().as_millis() as u64
    }

    #[test]
    fn movetime_is_kept_within() {
        let tm = TimeManager::new(&Limits::movetime(100), Seat::P1, 20, 30);
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
                let tm = TimeManager::new(&limits, Seat::P1, 20, 30);
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
        let p1 = ms(TimeManager::new(&limits, Seat::P1, 0, 30).soft());
        let p2 = ms(TimeManager::new(&limits, Seat::P2, 0, 30).soft());
        assert!(p1 > p2 * 10);
        let last_move = Limits {
            movestogo: Some(1),
            ..limits
        };
        let all = ms(TimeManager::new(&last_move, Seat::P1, 0, 30).soft());
        assert!(all > p1 * 5, "one move to go gets most of the clock");
    }

    #[test]
    fn a_stable_best_move_stops_iterating_sooner() {
        let limits = Limits {
            time: [Some(10_000), Some(10_000)],
            ..Limits::default()
        };
        let tm = TimeManager::new(&limits, Seat::P1, 0, 20);
        let soft = tm.soft().unwrap();
        let at = soft.mul_f64(0.45);
        assert!(tm.next_iteration_fits(at, Stability::Unknown));
        assert!(!tm.next_iteration_fits(at, Stability::Iterations(3)));
        assert!(!tm.next_iteration_fits(soft, Stability::Unknown));
    }

    #[test]
    fn infinite_has_no_limits() {
        let limits = Limits {
            infinite: true,
            movetime: Some(5),
            ..Limits::default()
        };
        assert_eq!(
            TimeManager::new(&limits, Seat::P1, 20, 30),
            TimeManager::default()
        );
    }
}

//! Time management: turns `go` limits into a soft budget (when a searcher
//! should stop of its own accord) and a hard deadline (when it must).

use super::Limits;
use crate::games::Seat;
use std::time::Duration;

#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub struct Budget {
    /// The time a move should take when time is shared across moves (a
    /// clock); none for a fixed `movetime`, which is all spent.
    pub soft: Option<Duration>,
    /// Never search past this.
    pub hard: Option<Duration>,
}

impl Budget {
    /// When a searcher without iterations (MCTS) should stop.
    pub fn target(&self) -> Option<Duration> {
        self.soft.or(self.hard)
    }
}

/// The budget for one move of `side`, keeping `overhead_ms` of every clock
/// back for I/O lag, expecting about `moves_left` more moves of ours.
pub fn budget(limits: &Limits, side: Seat, overhead_ms: u64, moves_left: u32) -> Budget {
    if limits.infinite {
        return Budget::default();
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
    Budget {
        soft: soft_ms.map(Duration::from_millis),
        hard: hard_ms.map(Duration::from_millis),
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
        let limits = Limits {
            movetime: Some(100),
            ..Limits::default()
        };
        let b = budget(&limits, Seat::P1, 20, 30);
        assert!(ms(b.hard) <= 100 && ms(b.hard) >= 80);
        assert_eq!(b.soft, None, "a fixed move time is spent whole");
        assert_eq!(b.target(), b.hard);
    }

    #[test]
    fn clock_budget_never_exceeds_the_clock() {
        for remaining in [1u64, 10, 50, 100, 1000, 60_000] {
            for inc in [0u64, 10, 1000] {
                let limits = Limits {
                    time: [Some(remaining), Some(1)],
                    inc: [inc, 0],
                    ..Limits::default()
                };
                let b = budget(&limits, Seat::P1, 20, 30);
                let hard = ms(b.hard);
                assert!(ms(b.soft) <= hard);
                assert!(hard <= remaining.max(1), "{remaining} {inc} -> {hard}");
            }
        }
    }

    #[test]
    fn uses_the_side_to_moves_clock() {
        let limits = Limits {
            time: [Some(100_000), Some(1_000)],
            ..Limits::default()
        };
        let p1 = ms(budget(&limits, Seat::P1, 0, 30).soft);
        let p2 = ms(budget(&limits, Seat::P2, 0, 30).soft);
        assert!(p1 > p2 * 10);
    }

    #[test]
    fn infinite_has_no_deadline() {
        let limits = Limits {
            infinite: true,
            movetime: Some(5),
            ..Limits::default()
        };
        assert_eq!(budget(&limits, Seat::P1, 20, 30), Budget::default());
    }
}

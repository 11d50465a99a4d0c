//! Searchers that work over any [`Game`]: the [`Searcher`] trait and the
//! table of searchers (`searcher.rs`), MCTS, the fixed plain-UCT baseline,
//! alpha-beta, and what they share: limits, time management, reports and
//! search memory. Nothing in here knows a particular game, and nothing here
//! writes protocol text.

pub mod alphabeta;
pub mod mate;
pub mod mcts;
pub mod memory;
pub mod random;
pub mod searcher;
pub mod time;
pub mod tt;
pub mod uct_plain;

pub use searcher::{Evaluator, Oracle, Plugin, Root, Searcher, SearcherInfo, Setup};

use crate::games::Game;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};
use time::TimeManager;

/// Engine-wide settings that shape every search (from the UGI options).
#[derive(Clone, Debug, PartialEq)]
pub struct SearchSettings {
    pub threads: usize,
    pub seed: u64,
    /// Milliseconds kept back from every clock-based budget for I/O lag.
    pub move_overhead_ms: u64,
    /// Measured, not set: how much longer each move has cost on the clock
    /// lately than the engine saw it take (see `time::LagMeter`).
    pub lag_ms: u64,
    /// Hand-set MCTS parameters (tuning matches); `None` keeps the game's own.
    pub tuning: Tuning,
    /// Root moves to report with their own lines (1: the best only).
    pub multipv: usize,
    /// Report the statistics of every root move (MCTS).
    pub move_stats: bool,
    /// Share a clock over at most this many of our moves (`auto` where
    /// proofs end the thinking early); `None`: the game's estimate alone.
    pub plan_moves: Option<u32>,
    /// In a position proven lost, play the move that leaves the opponent
    /// the fewest winning replies (with proofs during play).
    pub swindles: bool,
    /// In a swindle, prefer a move whose winning replies a short plain
    /// Monte Carlo search passes over (`session::trap_model`).
    pub swindle_model: bool,
    /// On a clock, before a proof settles the position, look for a trap
    /// among the moves the search thinks about as good as its best, with
    /// the swindles' model (in the games whose profile allows it;
    /// `session::long_shot`). Off by default: it measured no gain.
    pub long_shots: bool,
}

impl Default for SearchSettings {
    fn default() -> Self {
        SearchSettings {
            threads: 1,
            seed: 0,
            move_overhead_ms: 20,
            lag_ms: 0,
            tuning: Tuning::default(),
            multipv: 1,
            move_stats: false,
            plan_moves: None,
            swindles: true,
            swindle_model: true,
            long_shots: false,
        }
    }
}

/// MCTS parameters set by hand; `None` keeps the game's own.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tuning {
    pub exploration: Option<f32>,
    pub expand_after: Option<u32>,
    /// MCTS: nodes with more moves than this are widened progressively.
    pub widen_above: Option<u32>,
    /// `Some(0)` turns the cutoff off.
    pub playout_cutoff: Option<u32>,
    /// MCTS (UCT): the score of an unvisited child; `Some(0.0)`: unvisited
    /// children first.
    pub first_play_urgency: Option<f32>,
    pub eval_scale: Option<f32>,
    /// MCTS: the weight of the learned value at leaves (0: playouts only).
    pub value_weight: Option<f32>,
    /// MCTS: PUCT over the learned priors (false: UCT without them).
    pub priors: Option<bool>,
    /// MCTS (PUCT): the temperature the learned priors are taken at.
    pub prior_temperature: Option<f32>,
    /// MCTS: cut playouts scored by the learned value.
    pub value_at_cutoff: Option<bool>,
    /// MCTS: playouts ask the oracle every this many plies; `Some(0)`: never.
    pub playout_oracle: Option<u32>,
    /// Alpha-beta: score leaves by the learned value (where there is one).
    pub learned_eval: Option<bool>,
    /// Alpha-beta: late-move reductions.
    pub reductions: Option<bool>,
    /// Alpha-beta: centipawns a draw costs the side to move at the root.
    pub contempt: Option<i32>,
}

/// The limits of one `go`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Limits {
    /// Remaining clock time per seat, milliseconds.
    pub time: [Option<u64>; 2],
    /// Increment per seat, milliseconds.
    pub inc: [u64; 2],
    pub movestogo: Option<u32>,
    pub movetime: Option<u64>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub infinite: bool,
}

impl Limits {
    pub fn movetime(ms: u64) -> Limits {
        Limits {
            movetime: Some(ms),
            ..Limits::default()
        }
    }

    pub fn nodes(n: u64) -> Limits {
        Limits {
            nodes: Some(n),
            ..Limits::default()
        }
    }

    pub fn depth(d: u32) -> Limits {
        Limits {
            depth: Some(d),
            ..Limits::default()
        }
    }

    /// Whether anything but `stop` ends the search.
    pub fn is_bounded(&self) -> bool {
        !self.infinite
            && (self.time.iter().any(Option::is_some)
                || self.movetime.is_some()
                || self.depth.is_some()
                || self.nodes.is_some())
    }

    /// Whether the search is bounded by time alone (where a forced move
    /// may be answered at once and a proven result ends the search).
    pub fn is_timed(&self) -> bool {
        !self.infinite
            && self.depth.is_none()
            && self.nodes.is_none()
            && (self.movetime.is_some() || self.time.iter().any(Option::is_some))
    }
}

/// A score from the side to move's point of view.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawn-like units (MCTS maps its win rate onto this scale).
    Cp(i32),
    /// A proven result: win in N moves (N > 0) or loss in -N moves.
    Mate(i32),
}

/// Search progress: what an `info` line says, with moves still typed.
#[derive(Clone, Debug, PartialEq)]
pub struct Report<M> {
    pub depth: u32,
    pub seldepth: u32,
    pub score: Score,
    pub nodes: u64,
    pub time_ms: u64,
    pub pv: Vec<M>,
    /// Permille of the search memory in use, where known.
    pub hashfull: Option<u32>,
    /// With `multipv` > 1: the next best root moves, best first, each with
    /// its score and line.
    pub alternatives: Vec<Variation<M>>,
    /// With `move_stats`: every root move's statistics (MCTS).
    pub root_moves: Vec<RootMove<M>>,
}

/// A root move's score and the line that follows it (starting with it).
#[derive(Clone, Debug, PartialEq)]
pub struct Variation<M> {
    pub score: Score,
    pub pv: Vec<M>,
}

/// What MCTS knows of one root move.
#[derive(Clone, Debug, PartialEq)]
pub struct RootMove<M> {
    pub mv: M,
    pub visits: u64,
    /// The mover's mean reward over the visits (½ unvisited).
    pub win_rate: f32,
    /// The prior the evaluator gave it (0 without one).
    pub prior: f32,
    /// A proven result for the mover, as a score.
    pub proven: Option<Score>,
}

impl<M> Report<M> {
    pub fn nps(&self) -> u64 {
        self.nodes * 1000 / self.time_ms.max(1)
    }

    /// A report of this shape with nothing found yet.
    pub fn empty(nodes: u64, time_ms: u64) -> Self {
        Report {
            depth: 0,
            seldepth: 0,
            score: Score::Cp(0),
            nodes,
            time_ms,
            pv: Vec::new(),
            hashfull: None,
            alternatives: Vec::new(),
            root_moves: Vec::new(),
        }
    }

    /// The same report with its moves turned into something else: every
    /// line (main and alternatives) goes through `line`, which sees a whole
    /// line from the root; root moves through `single`.
    pub fn map_moves<N>(
        self,
        mut line: impl FnMut(Vec<M>) -> Vec<N>,
        mut single: impl FnMut(M) -> N,
    ) -> Report<N> {
        Report {
            depth: self.depth,
            seldepth: self.seldepth,
            score: self.score,
            nodes: self.nodes,
            time_ms: self.time_ms,
            pv: line(self.pv),
            hashfull: self.hashfull,
            alternatives: self
                .alternatives
                .into_iter()
                .map(|v| Variation {
                    score: v.score,
                    pv: line(v.pv),
                })
                .collect(),
            root_moves: self
                .root_moves
                .into_iter()
                .map(|r| RootMove {
                    mv: single(r.mv),
                    visits: r.visits,
                    win_rate: r.win_rate,
                    prior: r.prior,
                    proven: r.proven,
                })
                .collect(),
        }
    }
}

/// What a finished search hands back: the move and the last report.
#[derive(Clone, Debug)]
pub struct SearchResult<M> {
    pub best: M,
    pub report: Report<M>,
}

/// Progress reports at least this often (and once more, by the caller,
/// with the result).
pub const REPORT_EVERY: Duration = Duration::from_secs(1);

/// The run-time context of one search: clock, stop flag and progress.
pub struct Context<'a, M> {
    pub start: Instant,
    pub stop: &'a AtomicBool,
    progress: &'a mut (dyn FnMut(&Report<M>) + Send),
    next_report: Duration,
    /// The time plan the caller already made for this move, if any.
    plan: Option<TimeManager>,
}

impl<'a, M> Context<'a, M> {
    pub fn new(
        start: Instant,
        stop: &'a AtomicBool,
        progress: &'a mut (dyn FnMut(&Report<M>) + Send),
    ) -> Self {
        Context {
            start,
            stop,
            progress,
            next_report: REPORT_EVERY,
            plan: None,
        }
    }

    /// The same context with the move's time plan made by the caller (the
    /// session plans each move once, for its lag meter and proofs).
    pub fn with_plan(mut self, plan: TimeManager) -> Self {
        self.plan = Some(plan);
        self
    }

    /// The move's time plan: the caller's, or one made from the limits.
    pub fn time_plan<G: Game>(
        &self,
        limits: &Limits,
        position: &G,
        settings: &SearchSettings,
    ) -> TimeManager {
        self.plan
            .unwrap_or_else(|| TimeManager::for_search(limits, position, settings))
    }

    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    pub fn elapsed_ms(&self) -> u64 {
        self.start.elapsed().as_millis() as u64
    }

    /// Whether a periodic report is due (a second since the last one).
    pub fn report_due(&self) -> bool {
        self.start.elapsed() >= self.next_report
    }

    /// Sends a progress report now; the next periodic one is due a second
    /// after it. (Counting from the due time instead let every early
    /// report, e.g. each quick alpha-beta iteration, push the next one a
    /// further second away: Ihex searches went silent for over 2 s.)
    pub fn report(&mut self, report: &Report<M>) {
        (self.progress)(report);
        self.next_report = self.start.elapsed() + REPORT_EVERY;
    }

    /// Waits for `stop` (an infinite search answers only then).
    pub fn wait_for_stop(&self) {
        while !self.stopped() {
            std::thread::sleep(Duration::from_millis(1));
        }
    }
}

/// Maps a win probability (for the side to move) onto the centipawn scale.
pub fn win_rate_to_cp(p: f64) -> i32 {
    let p = p.clamp(0.001, 0.999);
    (400.0 * (p / (1.0 - p)).log10()).round() as i32
}

/// The legal moves of `state`, in a new vector.
pub fn legal_moves<G: Game>(state: &G) -> Vec<G::Move> {
    let mut moves = Vec::new();
    state.legal_moves(&mut moves);
    moves
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_report_is_due_a_second_after_the_last_one_however_many_came_early() {
        let stop = AtomicBool::new(false);
        let mut sent = 0;
        let mut progress = |_: &Report<u16>| sent += 1;
        let start = Instant::now() - Duration::from_millis(1500);
        let mut ctx = Context::new(start, &stop, &mut progress);
        assert!(ctx.report_due(), "none sent in the first 1.5 s");
        // Five iterations finishing at once (as alpha-beta's early ones do).
        for _ in 0..5 {
            ctx.report(&Report::empty(0, 0));
        }
        assert!(!ctx.report_due());
        let since_start = ctx.elapsed();
        assert!(ctx.next_report <= since_start + REPORT_EVERY);
        assert!(ctx.next_report + Duration::from_millis(100) >= since_start + REPORT_EVERY);
        assert_eq!(sent, 5);
    }
}

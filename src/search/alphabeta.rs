//! Alpha-beta: negamax with principal variation search, iterative deepening,
//! a transposition table, killer moves and a history table, a quiescence
//! search of the game's tactical moves at the horizon; Lazy SMP with the
//! `Threads` option (every thread searches the root, sharing the table).
//! Turns need not alternate: a child whose side to move is unchanged is
//! searched with the window as is, not negated.
//!
//! No null-move pruning: in Atoms it searched five plies deeper and lost
//! 35 Elo (session 40, bench/RESULTS.md). There a move often has to weaken
//! the mover (zugzwang), so a pass is no lower bound. Ihex was not tried.
//!
//! The calling thread supervises: it watches the clock and `stop`, sends a
//! progress report every second (also in the middle of a long iteration),
//! and raises one abort flag that the searching threads look at every few
//! nodes.

use super::time::{Stability, TimeManager};
use super::tt::{Bound, Entry, TranspositionTable};
use super::{
    Context, Evaluator, Limits, Plugin, Report, Root, Score, SearchResult, SearchSettings,
    Searcher, Setup, Variation,
};
use crate::games::{CompactMove, Game, Outcome, Seat};
use fxhash::FxHashMap;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

pub const MATE: i32 = 30_000;
/// Scores beyond this are proven results.
pub const MATE_BOUND: i32 = MATE - 1_000;
const MAX_PLY: usize = 128;
const INFINITY: i32 = MATE + 1;
/// Nodes between two looks at the abort flag and the shared node count.
const CHECK_EVERY: u64 = 32;
/// How often the supervisor looks at the clock.
const SUPERVISE_EVERY: Duration = Duration::from_millis(1);

/// The tunable behaviour of alpha-beta for one game.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct AlphaBetaConfig {
    /// Score leaves by the learned value (where the game has one) instead
    /// of the game's own evaluation.
    pub learned_eval: bool,
    /// Search late moves (behind the table's move, the killers and the
    /// best by history) first at a reduced depth.
    pub reductions: bool,
    /// Centipawns a draw costs the side to move at the root (and gains its
    /// opponent): above 0 the search plays on from a level position
    /// rather than repeat it, where the opponent may be the weaker.
    pub contempt: i32,
}

/// Centipawns per unit of the learned value's logit (a 73% chance to win
/// scores 200).
const LOGIT_CP: f32 = 200.0;
/// Mixed into the table's keys when the root's side to move is the second
/// seat (any fixed odd 64-bit pattern does).
const P2_ROOT_SALT: u64 = 0x9e37_79b9_7f4a_7c15;

pub struct AlphaBeta<G: Game> {
    config: AlphaBetaConfig,
    /// The learned value that scores leaves where the configuration (or
    /// the `LearnedEval` option) asks for it.
    evaluator: Option<Arc<dyn Evaluator<G>>>,
    tt: Option<TranspositionTable>,
    /// The `Hash` the table was made for.
    hash_mb: usize,
    /// Per-thread state kept between searches (history, buffers).
    workers: Vec<Worker<G>>,
}

impl<G: Game> Plugin<G> for AlphaBeta<G> {
    fn new(setup: &Setup<G>) -> Self {
        AlphaBeta {
            config: setup.alphabeta.clone(),
            evaluator: setup.evaluator.clone(),
            tt: None,
            hash_mb: 0,
            workers: Vec::new(),
        }
    }
}

/// What every thread of one search shares.
struct Shared<'a> {
    tt: &'a TranspositionTable,
    limits: &'a Limits,
    time: TimeManager,
    start: std::time::Instant,
    /// Root moves to report with their own lines.
    multipv: usize,
    node_limit: Option<u64>,
    /// Time is up, `stop` came, the node limit is reached or the main
    /// thread has finished: every thread unwinds.
    abort: AtomicBool,
    /// Nodes of all threads (published every `CHECK_EVERY`, or every node
    /// under a node limit, which is then exact with one thread).
    nodes: AtomicU64,
    /// The depth the main thread is searching (helpers search deeper).
    main_depth: AtomicU32,
    /// The deepest iteration a helper finished: depth, score, packed move.
    helper_best: Mutex<Option<(u32, i32, u32)>>,
}

impl Shared<'_> {
    fn aborted(&self) -> bool {
        self.abort.load(Ordering::Relaxed)
    }
}

impl<G: Game> Searcher<G> for AlphaBeta<G> {
    fn allocate(&mut self, hash_mb: usize) -> Option<String> {
        let hash_mb = hash_mb.max(1);
        if self.tt.is_some() && self.hash_mb == hash_mb {
            return None;
        }
        // Free the old table before the new one exists.
        self.tt = None;
        let (tt, warning) = TranspositionTable::new(hash_mb);
        self.tt = Some(tt);
        self.hash_mb = hash_mb;
        warning
    }

    fn memory_bytes(&self) -> usize {
        self.tt.as_ref().map_or(0, TranspositionTable::bytes)
    }

    fn clear(&mut self) {
        if let Some(tt) = &mut self.tt {
            tt.clear();
        }
        self.workers.iter_mut().for_each(Worker::clear);
    }

    fn search(
        &mut self,
        root: &Root<G>,
        settings: &SearchSettings,
        limits: &Limits,
        ctx: &mut Context<G::Move>,
    ) -> SearchResult<G::Move> {
        let position = root.position;
        if self.tt.is_none() {
            self.allocate(16);
        }
        self.workers
            .resize_with(settings.threads.max(1), Worker::new);
        let learned = settings
            .tuning
            .learned_eval
            .unwrap_or(self.config.learned_eval);
        let reductions = settings.tuning.reductions.unwrap_or(self.config.reductions);
        let contempt = settings.tuning.contempt.unwrap_or(self.config.contempt);
        // A draw scored for the side to move: worse at the root's turns.
        let mut draw = [contempt; 2];
        draw[position.side_to_move().index()] = -contempt;
        for worker in &mut self.workers {
            worker.evaluator = self.evaluator.clone().filter(|_| learned);
            worker.reductions = reductions;
            worker.draw = draw;
            worker.repeats = position.can_repeat();
            worker.root = position.side_to_move();
        }
        let tt = self.tt.as_mut().expect("allocated");
        // Leaves are scored for the root's seat (`Game::evaluate_for`), so
        // a search for the other seat keeps apart from this one's entries.
        let seat_salt = match position.side_to_move() {
            Seat::P1 => 0,
            Seat::P2 => P2_ROOT_SALT,
        };
        tt.new_search(position.history_salt() ^ seat_salt);
        let time = ctx.time_plan(limits, position, settings);
        let shared = Shared {
            tt,
            limits,
            time,
            start: ctx.start,
            multipv: settings.multipv.max(1),
            node_limit: limits.nodes,
            abort: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
            main_depth: AtomicU32::new(0),
            helper_best: Mutex::new(None),
        };
        let (main, helpers) = self.workers.split_first_mut().expect("one worker at least");
        let (sender, receiver) = mpsc::channel();
        let mut result = thread::scope(|scope| {
            let shared = &shared;
            let main = scope.spawn(move || main.main_search(shared, position, sender));
            for (i, helper) in helpers.iter_mut().enumerate() {
                scope.spawn(move || helper.helper_search(shared, position, i + 1));
            }
            supervise(shared, receiver, ctx);
            let result = main.join().expect("the main search thread does not panic");
            shared.abort.store(true, Ordering::Relaxed);
            result
        });
        if limits.infinite {
            ctx.wait_for_stop();
        }
        // The final report counts every node searched, to the end.
        result.report.nodes = shared.nodes.load(Ordering::Relaxed);
        result.report.time_ms = ctx.elapsed_ms();
        result
    }
}

/// The calling thread while the others search: forwards each finished
/// iteration's report, sends progress every second, and raises the abort
/// flag on `stop` or at the hard time limit. Returns when the main search
/// thread has finished (its sender is dropped).
fn supervise<M: Clone>(shared: &Shared, receiver: mpsc::Receiver<Report<M>>, ctx: &mut Context<M>) {
    let (time, limits) = (&shared.time, shared.limits);
    let mut latest: Option<Report<M>> = None;
    loop {
        match receiver.recv_timeout(SUPERVISE_EVERY) {
            Ok(report) => {
                ctx.report(&report);
                latest = Some(report);
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => return,
            Err(mpsc::RecvTimeoutError::Timeout) => {}
        }
        let elapsed = ctx.elapsed();
        if ctx.stopped() || (!limits.infinite && time.must_stop(elapsed)) {
            shared.abort.store(true, Ordering::Relaxed);
        }
        if ctx.report_due() {
            let mut progress = latest.clone().unwrap_or(Report::empty(0, 0));
            progress.nodes = shared.nodes.load(Ordering::Relaxed);
            progress.time_ms = elapsed.as_millis() as u64;
            progress.hashfull = Some(shared.tt.hashfull());
            ctx.report(&progress);
        }
    }
}

/// One thread's search state.
struct Worker<G: Game> {
    killers: Vec<[Option<G::Move>; 2]>,
    history: FxHashMap<u32, i32>,
    buffers: Vec<Vec<G::Move>>,
    /// Nodes since the last publication to `Shared::nodes`.
    unpublished: u64,
    seldepth: u32,
    aborted: bool,
    /// The best root move of the current iteration so far (usable when
    /// the iteration is cut short).
    root_best: Option<G::Move>,
    /// MultiPV: root moves left out of the current search.
    excluded: Vec<G::Move>,
    evaluator: Option<Arc<dyn Evaluator<G>>>,
    /// Late-move reductions (see [`late_move_reduction`]).
    reductions: bool,
    /// A draw's score for each seat to move (contempt).
    draw: [i32; 2],
    /// Whether the game has a repetition rule (see [`Worker::repeats_path`]).
    repeats: bool,
    /// The seat the search plays for (leaves are scored for it).
    root: Seat,
    /// The hash of each position on the current line, by ply.
    path: Vec<u64>,
}

impl<G: Game> Worker<G> {
    fn new() -> Self {
        Worker {
            killers: vec![[None; 2]; MAX_PLY + 1],
            history: FxHashMap::default(),
            buffers: (0..=MAX_PLY).map(|_| Vec::new()).collect(),
            unpublished: 0,
            seldepth: 0,
            aborted: false,
            root_best: None,
            excluded: Vec::new(),
            evaluator: None,
            reductions: false,
            draw: [0; 2],
            repeats: false,
            root: Seat::P1,
            path: vec![0; MAX_PLY + 1],
        }
    }

    /// A leaf's score for its side to move: the learned value as
    /// centipawns, or the game's evaluation.
    #[inline]
    fn leaf_score(&self, state: &G) -> i32 {
        let score = match &self.evaluator {
            Some(evaluator) => {
                let p = evaluator.value(state).clamp(1e-4, 1.0 - 1e-4);
                ((p / (1.0 - p)).ln() * LOGIT_CP) as i32
            }
            None => state.evaluate_for(self.root),
        };
        score.clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
    }

    fn clear(&mut self) {
        self.history.clear();
    }

    /// Notes `state` on the current line at `ply` and says whether it
    /// repeats a position earlier on the line. Such a line is scored a
    /// draw although the rules want a third occurrence: whoever chose to
    /// come back can come back again, so a side that is ahead looks for
    /// another way instead of shuffling until the opponent completes the
    /// repetition, and a side that is behind steers for it.
    fn repeats_path(&mut self, state: &G, ply: usize) -> bool {
        if !self.repeats {
            return false;
        }
        let key = state.hash();
        self.path[ply] = key;
        self.path[..ply].contains(&key)
    }

    fn start_search(&mut self) {
        self.unpublished = 0;
        self.aborted = false;
        self.killers.iter_mut().for_each(|k| *k = [None; 2]);
        // Old history still orders moves, but new cutoffs soon dominate.
        for value in self.history.values_mut() {
            *value /= 8;
        }
    }

    /// Iterative deepening; each finished iteration's report goes to the
    /// supervisor. The answer of the search.
    fn main_search(
        &mut self,
        shared: &Shared,
        root: &G,
        reports: mpsc::Sender<Report<G::Move>>,
    ) -> SearchResult<G::Move> {
        let (limits, time, start) = (shared.limits, &shared.time, shared.start);
        self.start_search();
        let mut moves = Vec::new();
        root.search_moves(&mut moves);
        let mut best = moves[0];
        let max_depth = limits
            .depth
            .unwrap_or(MAX_PLY as u32 - 1)
            .clamp(1, MAX_PLY as u32 - 1);
        let mut last: Option<Report<G::Move>> = None;
        let mut stable = 0u32;
        let mut state = root.clone();
        for depth in 1..=max_depth {
            self.seldepth = 0;
            self.root_best = None;
            shared.main_depth.store(depth, Ordering::Relaxed);
            let score = self.negamax(shared, &mut state, depth as i32, 0, -INFINITY, INFINITY);
            self.publish(shared);
            // Cut short: only the previous iteration stands (and none at
            // depth 1 before a root move was searched: its score is void).
            if self.aborted && (depth > 1 || self.root_best.is_none()) {
                // A move that beat the previous best in the cut iteration stands.
                if let Some(mv) = self.root_best {
                    best = mv;
                }
                if let Some(report) = &mut last {
                    report.pv = vec![best];
                    report
                        .pv
                        .extend(principal_variation(shared.tt, root, &best, depth as usize));
                }
                break;
            }
            let previous = best;
            if let Some(mv) = tt_move(shared.tt, &state) {
                best = mv;
            }
            stable = if best == previous { stable + 1 } else { 0 };
            let mut pv = vec![best];
            pv.extend(principal_variation(shared.tt, root, &best, depth as usize));
            let alternatives = self.alternatives(shared, &mut state, depth, best);
            let report = Report {
                depth,
                seldepth: self.seldepth.max(depth),
                score: to_score(score),
                nodes: shared.nodes.load(Ordering::Relaxed),
                time_ms: start.elapsed().as_millis() as u64,
                pv,
                hashfull: Some(shared.tt.hashfull()),
                alternatives,
                root_moves: Vec::new(),
            };
            let _ = reports.send(report.clone());
            last = Some(report);
            if self.aborted || shared.aborted() {
                break;
            }
            // A proven result needs no deeper search, unless depth was asked for.
            if score.abs() > MATE_BOUND && limits.depth.is_none() && !limits.infinite {
                break;
            }
            if moves.len() == 1 && limits.is_timed() {
                break;
            }
            if !limits.infinite
                && !time.next_iteration_fits(start.elapsed(), Stability::Iterations(stable))
            {
                break;
            }
            if shared
                .node_limit
                .is_some_and(|limit| shared.nodes.load(Ordering::Relaxed) >= limit)
            {
                break;
            }
        }
        let mut report = last.unwrap_or_else(|| Report {
            pv: vec![best],
            ..Report::empty(
                shared.nodes.load(Ordering::Relaxed),
                start.elapsed().as_millis() as u64,
            )
        });
        // Lazy SMP: a helper that finished a deeper iteration knows better
        // (unless a depth was asked for, which is what is reported then).
        let helper = *shared.helper_best.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((depth, score, mv)) = helper
            && limits.depth.is_none()
            && depth > report.depth
            && moves.contains(&G::Move::unpack(mv))
        {
            best = G::Move::unpack(mv);
            report.depth = depth;
            report.seldepth = report.seldepth.max(depth);
            report.score = to_score(score);
            report.pv = vec![best];
            report
                .pv
                .extend(principal_variation(shared.tt, root, &best, depth as usize));
        }
        SearchResult { best, report }
    }

    /// MultiPV: the next best root moves after `best` at `depth`, each by a
    /// search of the root without the moves already found.
    fn alternatives(
        &mut self,
        shared: &Shared,
        root: &mut G,
        depth: u32,
        best: G::Move,
    ) -> Vec<Variation<G::Move>> {
        let mut found = Vec::new();
        self.excluded = vec![best];
        while found.len() + 1 < shared.multipv {
            self.root_best = None;
            let score = self.negamax(shared, root, depth as i32, 0, -INFINITY, INFINITY);
            self.publish(shared);
            let Some(mv) = self.root_best.filter(|_| !self.aborted) else {
                break;
            };
            let mut pv = vec![mv];
            pv.extend(principal_variation(shared.tt, root, &mv, depth as usize));
            found.push(Variation {
                score: to_score(score),
                pv,
            });
            self.excluded.push(mv);
        }
        self.excluded.clear();
        found
    }

    /// A Lazy SMP helper: deepens ahead of the main thread (one ply, two
    /// for odd helpers), feeding the shared table, and records the deepest
    /// iteration it finishes, until the search is over.
    fn helper_search(&mut self, shared: &Shared, root: &G, index: usize) {
        self.start_search();
        let mut state = root.clone();
        let ahead = 1 + (index % 2) as u32;
        let mut depth = 1;
        while depth < MAX_PLY as u32 - 1 {
            depth = depth.max(shared.main_depth.load(Ordering::Relaxed) + ahead);
            self.root_best = None;
            let score = self.negamax(shared, &mut state, depth as i32, 0, -INFINITY, INFINITY);
            self.publish(shared);
            if self.aborted || shared.aborted() {
                break;
            }
            if let Some(mv) = self.root_best {
                let mut best = shared.helper_best.lock().unwrap_or_else(|e| e.into_inner());
                if best.is_none_or(|(d, _, _)| d < depth) {
                    *best = Some((depth, score, mv.pack()));
                }
            }
            depth += 1;
        }
    }

    fn publish(&mut self, shared: &Shared) {
        shared.nodes.fetch_add(self.unpublished, Ordering::Relaxed);
        self.unpublished = 0;
    }

    /// Counts a node; false (and the worker aborts) when the search must end.
    #[inline]
    fn count_node(&mut self, shared: &Shared) -> bool {
        if let Some(limit) = shared.node_limit {
            // Exact: claim the node before searching it (`unpublished`
            // stays 0, so the abort flag is read at every node).
            if shared.nodes.fetch_add(1, Ordering::Relaxed) >= limit {
                shared.nodes.fetch_sub(1, Ordering::Relaxed);
                shared.abort.store(true, Ordering::Relaxed);
                self.aborted = true;
                return false;
            }
        } else {
            self.unpublished += 1;
            if self.unpublished >= CHECK_EVERY {
                self.publish(shared);
            }
        }
        if self.unpublished & 7 == 0 && shared.aborted() {
            self.aborted = true;
        }
        !self.aborted
    }

    /// The value of `state` for its side to move.
    fn negamax(
        &mut self,
        shared: &Shared,
        state: &mut G,
        depth: i32,
        ply: usize,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        if !self.count_node(shared) && ply > 0 {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply as u32);
        if self.repeats_path(state, ply) {
            return self.draw[state.side_to_move().index()];
        }
        let mut moves = std::mem::take(&mut self.buffers[ply]);
        state.search_moves(&mut moves);
        if moves.is_empty() {
            self.buffers[ply] = moves;
            let outcome = state.outcome().expect("no legal moves means game over");
            return terminal_score(outcome, state, ply, self.draw);
        }
        if depth <= 0 || ply >= MAX_PLY {
            let score = self.quiesce(shared, state, ply, alpha, beta, &moves);
            self.buffers[ply] = moves;
            return score;
        }

        let key = state.hash();
        let mut tt_move = None;
        if let Some(entry) = shared.tt.probe(key) {
            let mv = G::Move::unpack(entry.mv);
            if moves.contains(&mv) {
                tt_move = Some(mv);
                let score = score_from_tt(entry.score as i32, ply);
                if ply > 0 && entry.depth as i32 >= depth {
                    let cutoff = match entry.bound {
                        Bound::Exact => true,
                        Bound::Lower => score >= beta,
                        Bound::Upper => score <= alpha,
                    };
                    if cutoff {
                        self.buffers[ply] = moves;
                        return score;
                    }
                }
            }
        }
        self.order_moves(state, &mut moves, tt_move, ply);
        if ply == 0 && !self.excluded.is_empty() {
            // MultiPV: the moves already reported are left out.
            moves.retain(|mv| !self.excluded.contains(mv));
        }

        let original_alpha = alpha;
        let mut best_score = -INFINITY;
        let Some(&first) = moves.first() else {
            self.buffers[ply] = moves;
            return -INFINITY;
        };
        let mut best_move = first;
        let mover = state.side_to_move();
        for (i, &mv) in moves.iter().enumerate() {
            let undo = state.make(mv);
            let same_side = state.side_to_move() == mover;
            let mut child = |worker: &mut Self, depth: i32, alpha: i32, beta: i32| {
                if same_side {
                    worker.negamax(shared, state, depth, ply + 1, alpha, beta)
                } else {
                    -worker.negamax(shared, state, depth, ply + 1, -beta, -alpha)
                }
            };
            // PVS: later moves first get a null window around alpha, late
            // ones (ordered behind the table's move, the killers and the
            // best of history) at a reduced depth, searched again in full
            // only if they beat alpha there.
            let score = if i == 0 {
                child(self, depth - 1, alpha, beta)
            } else {
                let reduction = if self.reductions {
                    late_move_reduction(depth, i)
                } else {
                    0
                };
                let mut probe = child(self, depth - 1 - reduction, alpha, alpha + 1);
                if reduction > 0 && probe > alpha {
                    probe = child(self, depth - 1, alpha, alpha + 1);
                }
                if probe > alpha && probe < beta {
                    child(self, depth - 1, alpha, beta)
                } else {
                    probe
                }
            };
            state.unmake(mv, undo);
            if self.aborted {
                self.buffers[ply] = moves;
                return best_score.max(alpha);
            }
            if score > best_score {
                best_score = score;
                best_move = mv;
                if ply == 0 {
                    self.root_best = Some(mv);
                }
            }
            alpha = alpha.max(score);
            if alpha >= beta {
                self.reward_cutoff(mv, ply, depth);
                break;
            }
        }
        self.buffers[ply] = moves;

        let bound = if best_score <= original_alpha {
            Bound::Upper
        } else if best_score >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        if ply == 0 && !self.excluded.is_empty() {
            // Not the root's value: its best moves were left out.
            return best_score;
        }
        shared.tt.store(
            key,
            Entry {
                mv: best_move.pack(),
                score: score_to_tt(best_score, ply) as i16,
                depth: depth.clamp(0, 255) as u8,
                bound,
            },
        );
        best_score
    }

    /// A horizon node's value: the evaluation, or better for the side to
    /// move if one of its tactical `moves` gains more (searched the same
    /// way, to the end of the exchange). Each side may stand on the
    /// evaluation instead of taking, so only the gains count.
    fn quiesce(
        &mut self,
        shared: &Shared,
        state: &mut G,
        ply: usize,
        mut alpha: i32,
        beta: i32,
        moves: &[G::Move],
    ) -> i32 {
        let mut best = self.leaf_score(state);
        if best >= beta || ply >= MAX_PLY {
            return best;
        }
        alpha = alpha.max(best);
        let mover = state.side_to_move();
        for &mv in moves {
            if !state.is_tactical(mv) {
                continue;
            }
            let undo = state.make(mv);
            let score = if state.side_to_move() == mover {
                self.quiesce_node(shared, state, ply + 1, alpha, beta)
            } else {
                -self.quiesce_node(shared, state, ply + 1, -beta, -alpha)
            };
            state.unmake(mv, undo);
            if self.aborted {
                return best.max(alpha);
            }
            best = best.max(score);
            alpha = alpha.max(score);
            if alpha >= beta {
                break;
            }
        }
        best
    }

    /// A position reached by a tactical move past the horizon.
    fn quiesce_node(
        &mut self,
        shared: &Shared,
        state: &mut G,
        ply: usize,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        if !self.count_node(shared) {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply as u32);
        let mut moves = std::mem::take(&mut self.buffers[ply]);
        state.search_moves(&mut moves);
        let score = if moves.is_empty() {
            let outcome = state.outcome().expect("no legal moves means game over");
            terminal_score(outcome, state, ply, self.draw)
        } else {
            self.quiesce(shared, state, ply, alpha, beta, &moves)
        };
        self.buffers[ply] = moves;
        score
    }

    /// The table's move first, then the tactical ones (taking material is
    /// the likeliest refutation), the killers, and the rest by history.
    fn order_moves(&self, state: &G, moves: &mut [G::Move], tt_move: Option<G::Move>, ply: usize) {
        let killers = self.killers[ply];
        let rank = |mv: &G::Move| -> i32 {
            if Some(*mv) == tt_move {
                i32::MIN
            } else if state.is_tactical(*mv) {
                i32::MIN + 1
            } else if Some(*mv) == killers[0] {
                i32::MIN + 2
            } else if Some(*mv) == killers[1] {
                i32::MIN + 3
            } else {
                -self.history.get(&mv.pack()).copied().unwrap_or(0)
            }
        };
        moves.sort_by_cached_key(rank);
    }

    fn reward_cutoff(&mut self, mv: G::Move, ply: usize, depth: i32) {
        let killers = &mut self.killers[ply];
        if killers[0] != Some(mv) {
            killers[1] = killers[0];
            killers[0] = Some(mv);
        }
        *self.history.entry(mv.pack()).or_insert(0) += depth * depth;
    }
}

/// How many plies less the `index`-th move (from 0, in search order) of a
/// node `depth` plies from the horizon is first searched: none for the
/// first few and near the horizon, then one, and two far down long lists.
fn late_move_reduction(depth: i32, index: usize) -> i32 {
    match (depth, index) {
        (..=2, _) | (_, ..=3) => 0,
        (3..=5, _) | (_, ..=11) => 1,
        _ => 2,
    }
}

fn tt_move<G: Game>(tt: &TranspositionTable, state: &G) -> Option<G::Move> {
    let entry = tt.probe(state.hash())?;
    let mv = G::Move::unpack(entry.mv);
    let mut moves = Vec::new();
    state.legal_moves(&mut moves);
    moves.contains(&mv).then_some(mv)
}

/// The table's line after `first` from `root`, at most `max_len` moves in all.
fn principal_variation<G: Game>(
    tt: &TranspositionTable,
    root: &G,
    first: &G::Move,
    max_len: usize,
) -> Vec<G::Move> {
    let mut state = root.clone();
    state.play(*first);
    let mut passed = vec![root.hash(), state.hash()];
    let mut pv = Vec::new();
    while pv.len() + 1 < max_len.max(1) && state.outcome().is_none() {
        let Some(mv) = tt_move(tt, &state) else { break };
        state.play(mv);
        // The search scores a line that comes back as a draw and never
        // plays on through it, so a table move that comes back was stored
        // for another path to this position: the line ends before it.
        if passed.contains(&state.hash()) {
            break;
        }
        passed.push(state.hash());
        pv.push(mv);
    }
    pv
}

fn terminal_score<G: Game>(outcome: Outcome, state: &G, ply: usize, draw: [i32; 2]) -> i32 {
    match outcome {
        Outcome::Draw => draw[state.side_to_move().index()],
        Outcome::Win(seat) if seat == state.side_to_move() => MATE - ply as i32,
        Outcome::Win(_) => -(MATE - ply as i32),
    }
}

/// Mate scores are stored relative to the node, not the root.
fn score_to_tt(score: i32, ply: usize) -> i32 {
    if score > MATE_BOUND {
        score + ply as i32
    } else if score < -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn score_from_tt(score: i32, ply: usize) -> i32 {
    if score > MATE_BOUND {
        score - ply as i32
    } else if score < -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// A search score as UGI reports it: mate distances in moves of the winner.
pub fn to_score(score: i32) -> Score {
    if score > MATE_BOUND {
        Score::Mate((MATE - score + 1) / 2)
    } else if score < -MATE_BOUND {
        Score::Mate(-(MATE + score) / 2)
    } else {
        Score::Cp(score)
    }
}

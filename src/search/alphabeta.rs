//! Alpha-beta: negamax with principal variation search, iterative deepening,
//! a transposition table, killer moves and a history table. Turns need not
//! alternate: a child whose side to move is unchanged is searched with the
//! window as is, not negated.

use super::time::{self, Budget};
use super::tt::{Bound, Entry, TranspositionTable};
use super::{Context, Info, Limits, Score, SearchResult, SearchSettings};
use crate::games::{CompactMove, Game, Outcome};
use fxhash::FxHashMap;

pub const MATE: i32 = 30_000;
/// Scores beyond this are proven results.
pub const MATE_BOUND: i32 = MATE - 1_000;
const MAX_PLY: usize = 128;
const INFINITY: i32 = MATE + 1;

pub struct AlphaBeta<G: Game> {
    tt: Option<TranspositionTable>,
    killers: Vec<[Option<G::Move>; 2]>,
    history: FxHashMap<u32, i32>,
    buffers: Vec<Vec<G::Move>>,
    nodes: u64,
    seldepth: u32,
    aborted: bool,
    budget: Budget,
    node_limit: Option<u64>,
}

impl<G: Game> AlphaBeta<G> {
    pub fn new() -> Self {
        AlphaBeta {
            tt: None,
            killers: vec![[None; 2]; MAX_PLY + 1],
            history: FxHashMap::default(),
            buffers: (0..=MAX_PLY).map(|_| Vec::new()).collect(),
            nodes: 0,
            seldepth: 0,
            aborted: false,
            budget: Budget::default(),
            node_limit: None,
        }
    }

    pub fn prepare(&mut self, settings: &SearchSettings) {
        let wanted = settings.hash_mb.max(1);
        if self.tt.as_ref().map(|tt| tt.megabytes()) != Some(wanted) {
            self.tt = Some(TranspositionTable::new(wanted));
        }
    }

    pub fn clear(&mut self) {
        if let Some(tt) = &mut self.tt {
            tt.clear();
        }
        self.history.clear();
    }

    pub fn search(
        &mut self,
        root: &G,
        settings: &SearchSettings,
        limits: &Limits,
        ctx: &mut Context,
    ) -> SearchResult<G::Move> {
        self.prepare(settings);
        if let Some(tt) = &mut self.tt {
            tt.new_search();
        }
        self.budget = time::budget(
            limits,
            root.side_to_move(),
            settings.move_overhead_ms,
            root.moves_left_estimate(),
        );
        self.node_limit = limits.nodes;
        self.nodes = 0;
        self.aborted = false;
        self.killers.iter_mut().for_each(|k| *k = [None; 2]);
        for value in self.history.values_mut() {
            *value /= 8;
        }

        let mut moves = Vec::new();
        root.legal_moves(&mut moves);
        let mut best = moves[0];
        let max_depth = limits
            .depth
            .unwrap_or(MAX_PLY as u32 - 1)
            .clamp(1, MAX_PLY as u32 - 1);
        let mut last_info = None;
        let mut state = root.clone();
        for depth in 1..=max_depth {
            self.seldepth = 0;
            let score = self.negamax(&mut state, depth as i32, 0, -INFINITY, INFINITY, ctx);
            if self.aborted && depth > 1 {
                break;
            }
            if let Some(mv) = self.tt_move(&state) {
                best = mv;
            }
            let info = Info {
                depth,
                seldepth: self.seldepth.max(depth),
                score: to_score(score),
                nodes: self.nodes,
                time_ms: ctx.elapsed_ms(),
                pv: self.principal_variation(root, depth as usize),
                hashfull: self.tt.as_ref().map(|tt| tt.hashfull()),
            };
            (ctx.report)(&info);
            last_info = Some(info);
            if self.aborted || ctx.stopped() {
                break;
            }
            // A proven result needs no deeper search, unless depth was asked for.
            if score.abs() > MATE_BOUND && limits.depth.is_none() && !limits.infinite {
                break;
            }
            if moves.len() == 1 && limits.is_timed() {
                break;
            }
            if let Some(soft) = self.budget.soft {
                // The next iteration would likely not finish in time.
                if ctx.start.elapsed() > soft / 2 {
                    break;
                }
            }
            if let Some(limit) = self.node_limit
                && self.nodes >= limit
            {
                break;
            }
        }
        if limits.infinite {
            while !ctx.stopped() {
                std::thread::sleep(std::time::Duration::from_millis(1));
            }
        }
        let info = last_info.unwrap_or_else(|| Info {
            depth: 0,
            seldepth: 0,
            score: Score::Cp(0),
            nodes: self.nodes,
            time_ms: ctx.elapsed_ms(),
            pv: vec![root.format_move(best)],
            hashfull: None,
        });
        SearchResult { best, info }
    }

    fn tt_move(&self, state: &G) -> Option<G::Move> {
        let entry = self.tt.as_ref()?.probe(state.hash())?;
        let mv = G::Move::unpack(entry.mv);
        let mut moves = Vec::new();
        state.legal_moves(&mut moves);
        moves.contains(&mv).then_some(mv)
    }

    fn principal_variation(&self, root: &G, max_len: usize) -> Vec<String> {
        let mut state = root.clone();
        let mut pv = Vec::new();
        while pv.len() < max_len.max(1) {
            let Some(mv) = self.tt_move(&state) else {
                break;
            };
            pv.push(state.format_move(mv));
            state.make(mv);
        }
        pv
    }

    fn out_of_time(&mut self, ctx: &Context) -> bool {
        if self.nodes & 1023 == 0 {
            let over_time = self
                .budget
                .hard
                .is_some_and(|hard| ctx.start.elapsed() >= hard);
            let over_nodes = self.node_limit.is_some_and(|limit| self.nodes >= limit);
            if over_time || over_nodes || ctx.stopped() {
                self.aborted = true;
            }
        }
        self.aborted
    }

    /// The value of `state` for its side to move.
    fn negamax(
        &mut self,
        state: &mut G,
        depth: i32,
        ply: usize,
        mut alpha: i32,
        beta: i32,
        ctx: &Context,
    ) -> i32 {
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply as u32);
        if ply > 0 && self.out_of_time(ctx) {
            return 0;
        }
        let mut moves = std::mem::take(&mut self.buffers[ply]);
        state.legal_moves(&mut moves);
        if moves.is_empty() {
            self.buffers[ply] = moves;
            let outcome = state.outcome().expect("no legal moves means game over");
            return terminal_score(outcome, state, ply);
        }
        if depth <= 0 || ply >= MAX_PLY {
            self.buffers[ply] = moves;
            return state.evaluate().clamp(-MATE_BOUND + 1, MATE_BOUND - 1);
        }

        let key = state.hash();
        let mut tt_move = None;
        if let Some(entry) = self.tt.as_ref().and_then(|tt| tt.probe(key)) {
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
        self.order_moves(&mut moves, tt_move, ply);

        let original_alpha = alpha;
        let mut best_score = -INFINITY;
        let mut best_move = moves[0];
        let mover = state.side_to_move();
        for (i, &mv) in moves.iter().enumerate() {
            let undo = state.make(mv);
            let same_side = state.side_to_move() == mover;
            let score = if i == 0 {
                self.child(state, depth - 1, ply + 1, alpha, beta, same_side, ctx)
            } else {
                let probe = self.child(state, depth - 1, ply + 1, alpha, alpha + 1, same_side, ctx);
                if probe > alpha && probe < beta {
                    self.child(state, depth - 1, ply + 1, alpha, beta, same_side, ctx)
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
            }
            if score > alpha {
                alpha = score;
            }
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
        if let Some(tt) = &self.tt {
            tt.store(
                key,
                Entry {
                    mv: best_move.pack(),
                    score: score_to_tt(best_score, ply) as i16,
                    depth: depth.clamp(0, 255) as u8,
                    bound,
                },
            );
        }
        best_score
    }

    /// A child's value for the parent's mover, with the window negated only
    /// when the turn passed to the other side.
    #[allow(clippy::too_many_arguments)]
    fn child(
        &mut self,
        state: &mut G,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
        same_side: bool,
        ctx: &Context,
    ) -> i32 {
        if same_side {
            self.negamax(state, depth, ply, alpha, beta, ctx)
        } else {
            -self.negamax(state, depth, ply, -beta, -alpha, ctx)
        }
    }

    fn order_moves(&self, moves: &mut [G::Move], tt_move: Option<G::Move>, ply: usize) {
        let killers = self.killers[ply];
        let rank = |mv: &G::Move| -> i32 {
            if Some(*mv) == tt_move {
                i32::MIN
            } else if Some(*mv) == killers[0] {
                i32::MIN + 1
            } else if Some(*mv) == killers[1] {
                i32::MIN + 2
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

impl<G: Game> Default for AlphaBeta<G> {
    fn default() -> Self {
        Self::new()
    }
}

fn terminal_score<G: Game>(outcome: Outcome, state: &G, ply: usize) -> i32 {
    match outcome {
        Outcome::Draw => 0,
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

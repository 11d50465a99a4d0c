//! Proofs during play (the `Proofs` option): before a timed search, the
//! session gives the proof search (`solve::prove`: df-pn, in Hadron over
//! sums of regions) a share of the move's time. A proven win is played at
//! once, its distance made exact by a mate search where one finishes; a
//! proven draw is searched as usual (an opponent may still err) but its
//! move is checked, and one that the check proves to lose gives way to the
//! proof's drawing move; a proven loss plays the swindle that leaves the
//! opponent the fewest winning replies (`swindle.rs`, the `Swindles`
//! option), or where none is found is searched as usual (for the longest
//! resistance the searcher finds) and reported as one.

use crate::games::{Game, Outcome};
use crate::search::mate::{self, MateBudget};
use crate::search::time::TimeManager;
use crate::search::{Limits, Report, Score, SearchResult, SearchSettings, legal_moves};
use crate::solve::{self, Budget, Proof, ProofTable};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// The proof table's share of `Hash`: an eighth (none below 8 MiB).
pub fn table_mb(hash_mb: usize) -> usize {
    hash_mb / 8
}

/// The share of a move's time the proof may take: a quarter near the end
/// (where proofs are within reach), a sixteenth before.
fn proof_share(moves_left: u32) -> f64 {
    if moves_left <= NEAR_THE_END {
        0.25
    } else {
        1.0 / 16.0
    }
}

/// "Near the end": the game expects at most this many more moves of ours.
const NEAR_THE_END: u32 = 12;

/// After a proof, the mate search may run up to this share of the move's
/// time (counted from its start).
const MATE_SHARE: f64 = 0.5;

/// The deepest the mate search looks (its time share ends it sooner).
const MATE_PLIES: u32 = 255;

/// After a proven draw, the share of the move's time kept back from the
/// search to check the move it chose.
pub const DRAW_CHECK_SHARE: f64 = 1.0 / 8.0;

/// What a proof settled.
pub enum Proven<G: Game> {
    /// A win, played at once: the move and its report.
    Settled(SearchResult<G::Move>),
    /// A draw: the search chooses the move (an opponent may err), which
    /// must not lose; `holding` keeps the draw.
    Draw { holding: G::Move },
    /// A loss: the search chooses the move; the proof's length in plies.
    Lost { plies: u32 },
}

/// A move's time: its plan, when it started, and the stop flag.
pub struct MoveClock<'a> {
    pub plan: &'a TimeManager,
    pub start: Instant,
    pub stop: &'a AtomicBool,
}

impl MoveClock<'_> {
    /// When `share` of the move's time is over (`None`: no time planned).
    pub fn at(&self, share: f64) -> Option<Instant> {
        Some(self.start + self.plan.target()?.mul_f64(share))
    }
}

/// Tries to prove `root` within its share of `clock`, the move's time
/// (timed searches only: node and depth limits stay exact, `infinite` analysis is the
/// searcher's). `None`: not proven, search as usual.
pub fn try_prove<G: Game>(
    root: &G,
    table: &ProofTable,
    settings: &SearchSettings,
    limits: &Limits,
    clock: &MoveClock,
) -> Option<Proven<G>> {
    if !limits.is_timed() {
        return None;
    }
    let (start, stop) = (clock.start, clock.stop);
    let deadline = clock.at(proof_share(root.moves_left_estimate()))?;
    let threads = settings.threads.max(1);
    let budget = Budget::until(Some(deadline), Some(stop));
    let proof = solve::on_big_stack(|| solve::prove(root, &budget, table, threads))?;
    let mover = root.side_to_move();
    let value = proof.value?;
    if value == Outcome::Win(mover.other()) {
        return Some(Proven::Lost {
            plies: proof.plies.unwrap_or(1),
        });
    }
    let mut nodes = proof.nodes;
    let best = match proof.best {
        Some(mv) => mv,
        // The proof names no move (a summary decided it): find one.
        None => {
            let (mv, spent) = proven_child(root, value, table, &budget)?;
            nodes += spent;
            mv
        }
    };
    if value == Outcome::Draw {
        return Some(Proven::Draw { holding: best });
    }
    // A proven win: the quickest one, if a mate search finds it in time.
    let plies = proof.plies.unwrap_or(1).max(1);
    let budget = MateBudget {
        nodes: None,
        deadline: clock.at(MATE_SHARE),
        stop: Some(stop),
    };
    let found = mate::quickest_win(root, MATE_PLIES, &budget);
    nodes += found.nodes;
    let (best, plies) = match found.win {
        Some((mv, quickest)) => (mv, quickest),
        // The proof's move; no win is quicker than `searched + 1` plies.
        None => (best, plies.max(found.searched + 1)),
    };
    let mut report = Report::empty(nodes, elapsed_ms(start));
    report.depth = plies;
    report.seldepth = plies;
    report.score = Score::Mate(plies.div_ceil(2) as i32);
    report.pv = vec![best];
    report.hashfull = Some(table.permille_used());
    Some(Proven::Settled(SearchResult { best, report }))
}

/// After a proven draw: keeps the searched move unless a proof within
/// `deadline` shows that it loses (one the search could not see through),
/// in which case the move `holding` the draw is played, reported as a draw.
/// A check that runs out of time trusts the search.
pub fn hold_the_draw<G: Game>(
    root: &G,
    result: &mut SearchResult<G::Move>,
    holding: G::Move,
    table: &ProofTable,
    deadline: Option<Instant>,
    stop: &AtomicBool,
) {
    if result.best == holding {
        return;
    }
    let budget = Budget::until(deadline, Some(stop));
    let value = prove_child(root, result.best, &budget, table).and_then(|proof| proof.value);
    if value == Some(Outcome::Win(root.side_to_move().other())) {
        result.best = holding;
        result.report.score = Score::Cp(0);
        result.report.pv = vec![holding];
        result.report.alternatives.clear();
    }
}

/// A searched proven loss reported as one: the searcher's own mate score
/// when it has one, else a loss in the proof's length.
pub fn mark_lost<M>(report: &mut Report<M>, plies: u32) {
    if !matches!(report.score, Score::Mate(n) if n < 0) {
        report.score = Score::Mate(-(plies.max(1).div_ceil(2) as i32));
    }
}

/// A move into a child of value `value` (for the mover), proven within
/// `budget` (the table holds most of it already), and the nodes spent.
fn proven_child<G: Game>(
    root: &G,
    value: Outcome,
    table: &ProofTable,
    budget: &Budget,
) -> Option<(G::Move, u64)> {
    let mut nodes = 0;
    for mv in legal_moves(root) {
        let proof = prove_child(root, mv, budget, table)?;
        nodes += proof.nodes;
        if proof.value == Some(value) {
            return Some((mv, nodes));
        }
    }
    None
}

/// The position after `mv`: its value where the game is over, else its
/// proof within `budget` (`None` if no solver thread can be had).
fn prove_child<G: Game>(
    root: &G,
    mv: G::Move,
    budget: &Budget,
    table: &ProofTable,
) -> Option<Proof<G::Move>> {
    let mut child = root.clone();
    child.play(mv);
    match child.outcome() {
        Some(outcome) => Some(Proof::over(outcome)),
        None => solve::on_big_stack(|| solve::prove(&child, budget, table, 1)),
    }
}

fn elapsed_ms(start: Instant) -> u64 {
    start.elapsed().as_millis() as u64
}

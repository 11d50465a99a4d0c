//! Solving through a frontier: every distinct position a fixed number of
//! plies from the root (up to symmetry, as the proof table keys them) is
//! proven on its own within a budget each, by workers sharing one proof
//! table, and the values are backed up to the root by minimax.
//!
//! Where the whole proof does not finish, this says how far it reaches:
//! how many positions of each ply are decided. When every frontier
//! position is decided, so is the root (minimax over a finite tree); the
//! back-up also decides it earlier when a proven win makes the unknown
//! siblings irrelevant.

use super::node::GameNode;
use super::{Budget, Proof, STACK_BYTES};
use crate::games::{Game, Outcome, Seat};
use std::collections::{HashMap, HashSet};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// How the positions of one ply came out.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PlyCount {
    /// Distinct positions (up to symmetry) at this ply.
    pub positions: u64,
    /// Of them, won by p1, won by p2, drawn (the rest are unknown).
    pub p1: u64,
    pub p2: u64,
    pub draws: u64,
    /// Positions where the game is already over.
    pub finished: u64,
}

impl PlyCount {
    pub fn decided(&self) -> u64 {
        self.p1 + self.p2 + self.draws
    }

    fn add(&mut self, value: Option<Outcome>) {
        self.positions += 1;
        match value {
            Some(Outcome::Win(Seat::P1)) => self.p1 += 1,
            Some(Outcome::Win(Seat::P2)) => self.p2 += 1,
            Some(Outcome::Draw) => self.draws += 1,
            None => {}
        }
    }
}

/// The result of a frontier solve.
#[derive(Clone, Debug)]
pub struct FrontierResult<M> {
    /// Index k: the positions k plies from the root (0 = the root).
    pub plies: Vec<PlyCount>,
    /// The root's value, where the back-up decides it.
    pub value: Option<Outcome>,
    /// On a decided root: a move that reaches its value.
    pub best: Option<M>,
    /// Positions expanded by the frontier proofs.
    pub nodes: u64,
}

/// Live counters while the frontier is proven.
#[derive(Debug, Default)]
pub struct FrontierProgress {
    pub total: AtomicUsize,
    pub done: AtomicUsize,
    pub decided: AtomicUsize,
}

/// How much each frontier proof may take, and the limit of the whole run.
#[derive(Clone, Copy, Debug)]
pub struct FrontierBudget {
    pub each: Duration,
    pub deadline: Option<Instant>,
}

/// The memory frontier positions may take (each is a clone of the
/// position; more would take what the proofs need).
const FRONTIER_BYTES: usize = 2 << 30;

/// The most frontier positions a run will hold for game `G`.
pub fn max_positions<G: Game>() -> usize {
    (FRONTIER_BYTES / std::mem::size_of::<G>().max(1)).min(4_000_000)
}

/// The distinct positions exactly `depth` plies from `root` (games that
/// end sooner are not continued), each with its key as the proof table
/// keys it; an error when there are more than [`max_positions`].
pub fn positions_at<G: Game>(root: &G, depth: u32) -> Result<Vec<(u64, G)>, String> {
    let mut seen: Vec<HashSet<u64>> = vec![HashSet::new(); depth as usize + 1];
    let mut out = Vec::new();
    collect(root, key_of(root), 0, depth, &mut seen, &mut out)?;
    Ok(out)
}

fn key_of<G: Game>(game: &G) -> u64 {
    GameNode::table_key(game)
}

/// `game` after `mv`, its repetition history kept (`play` may drop it).
fn after<G: Game>(game: &G, mv: G::Move) -> G {
    let mut child = game.clone();
    let _ = child.make(mv);
    child
}

fn collect<G: Game>(
    game: &G,
    key: u64,
    ply: u32,
    depth: u32,
    seen: &mut [HashSet<u64>],
    out: &mut Vec<(u64, G)>,
) -> Result<(), String> {
    if ply == depth {
        let limit = max_positions::<G>();
        if out.len() >= limit {
            return Err(format!(
                "more than {limit} positions {depth} plies deep: ask for fewer plies"
            ));
        }
        out.push((key, game.clone()));
        return Ok(());
    }
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    for mv in moves {
        let child = after(game, mv);
        let child_key = key_of(&child);
        if seen[ply as usize + 1].insert(child_key) {
            collect(&child, child_key, ply + 1, depth, seen, out)?;
        }
    }
    Ok(())
}

/// Proves every position `depth` plies from `root` with `prove` (one call
/// per position, on `threads` workers), then backs the values up to the
/// root. An error when the frontier is too big to hold.
pub fn solve_frontier<G, P>(
    root: &G,
    depth: u32,
    budget: FrontierBudget,
    threads: usize,
    progress: &FrontierProgress,
    prove: P,
) -> Result<FrontierResult<G::Move>, String>
where
    G: Game,
    P: Fn(&G, &Budget) -> Proof<G::Move> + Sync,
{
    if depth == 0 {
        return Ok(solve_root(root, budget, progress, prove));
    }
    let frontier = positions_at(root, depth)?;
    progress.total.store(frontier.len(), Ordering::Relaxed);
    let values: Vec<Mutex<(Option<Outcome>, bool)>> =
        frontier.iter().map(|_| Mutex::new((None, false))).collect();
    let next = AtomicUsize::new(0);
    let nodes = AtomicU64::new(0);
    let work = || {
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some((_, game)) = frontier.get(i) else {
                break;
            };
            if budget.deadline.is_some_and(|d| Instant::now() >= d) {
                progress.done.fetch_add(1, Ordering::Relaxed);
                continue;
            }
            let (proof, over) = prove_one(game, &budget, &prove);
            nodes.fetch_add(proof.nodes, Ordering::Relaxed);
            if proof.value.is_some() {
                progress.decided.fetch_add(1, Ordering::Relaxed);
            }
            *values[i].lock().unwrap_or_else(|e| e.into_inner()) = (proof.value, over);
            progress.done.fetch_add(1, Ordering::Relaxed);
        }
    };
    std::thread::scope(|s| {
        let workers: Vec<_> = (0..threads.max(1))
            .map(|_| {
                std::thread::Builder::new()
                    .stack_size(STACK_BYTES)
                    .spawn_scoped(s, work)
            })
            .collect();
        // A worker that cannot start leaves its share to the others.
        let started = workers.iter().filter(|w| w.is_ok()).count();
        if started == 0 {
            work();
        }
        for worker in workers.into_iter().flatten() {
            let _ = worker.join();
        }
    });
    let frontier_values: HashMap<u64, (Option<Outcome>, bool)> = frontier
        .iter()
        .zip(&values)
        .map(|((key, _), v)| (*key, *v.lock().unwrap_or_else(|e| e.into_inner())))
        .collect();
    let mut backup = Backup {
        depth,
        frontier: frontier_values,
        memo: vec![HashMap::new(); depth as usize],
    };
    let (value, best) = backup.root(root);
    Ok(FrontierResult {
        plies: backup.counts(),
        value,
        best,
        nodes: nodes.load(Ordering::Relaxed),
    })
}

/// Depth 0: the root is the frontier (and its proof names the move).
fn solve_root<G, P>(
    root: &G,
    budget: FrontierBudget,
    progress: &FrontierProgress,
    prove: P,
) -> FrontierResult<G::Move>
where
    G: Game,
    P: Fn(&G, &Budget) -> Proof<G::Move>,
{
    progress.total.store(1, Ordering::Relaxed);
    let (proof, over) = prove_one(root, &budget, &prove);
    let value = proof.value;
    let mut count = PlyCount::default();
    count.add(value);
    count.finished = over as u64;
    progress.done.store(1, Ordering::Relaxed);
    progress
        .decided
        .store(value.is_some() as usize, Ordering::Relaxed);
    FrontierResult {
        plies: vec![count],
        value,
        best: proof
            .best
            .filter(|_| value == Some(Outcome::Win(root.side_to_move()))),
        nodes: proof.nodes,
    }
}

/// One frontier position: its value read off where the game is over
/// (`outcome` is `Some` exactly then), else proven within its share of the
/// budget. Also says whether the game was over.
fn prove_one<G, P>(game: &G, budget: &FrontierBudget, prove: &P) -> (Proof<G::Move>, bool)
where
    G: Game,
    P: Fn(&G, &Budget) -> Proof<G::Move>,
{
    if let Some(outcome) = game.outcome() {
        return (Proof::over(outcome), true);
    }
    let mut deadline = Instant::now() + budget.each;
    if let Some(limit) = budget.deadline {
        deadline = deadline.min(limit);
    }
    (prove(game, &Budget::until(Some(deadline), None)), false)
}

/// Minimax with unknowns over the tree above the frontier.
struct Backup {
    depth: u32,
    /// The frontier's values, and whether the game was over there.
    frontier: HashMap<u64, (Option<Outcome>, bool)>,
    /// Per ply above the frontier: each position's value and whether the
    /// game was over there.
    memo: Vec<HashMap<u64, (Option<Outcome>, bool)>>,
}

impl Backup {
    /// The root's value and a move that reaches it (depth >= 1).
    fn root<G: Game>(&mut self, root: &G) -> (Option<Outcome>, Option<G::Move>) {
        let mover = root.side_to_move();
        let mut moves = Vec::new();
        root.legal_moves(&mut moves);
        let values: Vec<_> = moves
            .iter()
            .map(|&mv| self.value(&after(root, mv), 1))
            .collect();
        let value = if moves.is_empty() {
            root.outcome()
        } else {
            combine(mover, &values)
        };
        self.memo[0].insert(key_of(root), (value, moves.is_empty()));
        // A move that reaches the value (none to name for a loss).
        let best = match value {
            Some(Outcome::Win(s)) if s != mover => None,
            Some(_) => moves.iter().zip(&values).find(|(_, v)| **v == value),
            None => None,
        };
        (value, best.map(|(mv, _)| *mv))
    }

    fn value<G: Game>(&mut self, game: &G, ply: u32) -> Option<Outcome> {
        let key = key_of(game);
        if ply == self.depth {
            return self.frontier.get(&key).and_then(|v| v.0);
        }
        if let Some(&(value, _)) = self.memo[ply as usize].get(&key) {
            return value;
        }
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        let value = if moves.is_empty() {
            game.outcome()
        } else {
            let values: Vec<_> = moves
                .iter()
                .map(|&mv| self.value(&after(game, mv), ply + 1))
                .collect();
            combine(game.side_to_move(), &values)
        };
        self.memo[ply as usize].insert(key, (value, moves.is_empty()));
        value
    }

    /// Counts per ply: the memos above the frontier, then the frontier.
    fn counts(&self) -> Vec<PlyCount> {
        let mut plies: Vec<PlyCount> = self
            .memo
            .iter()
            .map(|ply| {
                let mut count = PlyCount::default();
                for &(value, over) in ply.values() {
                    count.add(value);
                    count.finished += over as u64;
                }
                count
            })
            .collect();
        let mut last = PlyCount::default();
        for &(value, over) in self.frontier.values() {
            last.add(value);
            last.finished += over as u64;
        }
        plies.push(last);
        plies
    }
}

/// Minimax with unknowns: a win among the children decides; otherwise
/// only when every child is known.
fn combine(mover: Seat, children: &[Option<Outcome>]) -> Option<Outcome> {
    if children.contains(&Some(Outcome::Win(mover))) {
        return Some(Outcome::Win(mover));
    }
    if children.iter().any(Option::is_none) {
        return None;
    }
    if children.contains(&Some(Outcome::Draw)) {
        Some(Outcome::Draw)
    } else {
        Some(Outcome::Win(mover.other()))
    }
}

//! Exact solving: proof-number search over any game, with the games'
//! symmetries in the table keys, repetition-safe proofs, and Hadron solved
//! as a sum of independent regions by combinatorial game theory.
//!
//! - [`prove`]: the library entry point for proofs during play;
//! - [`solve`]: the three-valued solve behind `quintet solve`;
//! - `dfpn` (the search), `table` (its bounded memory), `node` (what it
//!   needs of a position), `naive` (an independent exhaustive checker),
//!   `hadron` and `cgt` (Hadron's regions and their game values, their
//!   caches `sharded` maps that never pause long to grow),
//!   `frontier` (every position some plies deep proven on its own, the
//!   values backed up: how far a proof reaches when the whole does not).
//!   The CLI body, `quintet solve`, is `runs::solve` (it needs the registry).

pub mod cgt;
pub mod dfpn;
pub mod frontier;
pub mod hadron;
pub mod naive;
pub mod node;
pub mod sharded;
pub mod sum_outcome;
pub mod table;

use crate::games::{Game, Outcome, Seat};
use dfpn::Dfpn;
use node::{GameNode, Node};
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::time::Instant;
pub use table::ProofTable;

/// Stack for solver threads: the search recurses once per ply, and some
/// games (Atoms' movement phase) run to hundreds of plies.
pub const STACK_BYTES: usize = 256 << 20;

/// Runs `work` on a scoped thread with a solver-sized stack.
fn spawn_big<'s, 'e, T: Send + 's>(
    scope: &'s std::thread::Scope<'s, 'e>,
    work: impl FnOnce() -> T + Send + 's,
) -> std::thread::ScopedJoinHandle<'s, T> {
    std::thread::Builder::new()
        .stack_size(STACK_BYTES)
        .spawn_scoped(scope, work)
        .expect("a solver thread starts")
}

/// Runs `work` on a thread with the solver's stack (its recursion goes
/// one frame per ply) and waits for it; `None` if no such thread can be
/// had or it fails.
pub fn on_big_stack<T: Send>(work: impl FnOnce() -> T + Send) -> Option<T> {
    std::thread::scope(|s| {
        std::thread::Builder::new()
            .stack_size(STACK_BYTES)
            .spawn_scoped(s, work)
            .ok()?
            .join()
            .ok()
    })
}

/// When a proof gives up: a node count, a deadline, a stop flag (any of
/// them; none means "until solved").
#[derive(Clone, Debug, Default)]
pub struct Budget<'a> {
    pub nodes: Option<u64>,
    pub deadline: Option<Instant>,
    pub stop: Option<&'a AtomicBool>,
    /// Flags the solver adds (another thread or question settled it).
    more_stops: [Option<&'a AtomicBool>; 2],
}

impl<'a> Budget<'a> {
    /// A budget that ends at `deadline` or when `stop` is set (a search's
    /// share of a move's time, and the search's stop flag).
    pub fn until(deadline: Option<Instant>, stop: Option<&'a AtomicBool>) -> Self {
        Budget {
            deadline,
            stop,
            ..Budget::default()
        }
    }

    /// A budget of `nodes` expanded positions and nothing else (the same
    /// answer on every machine).
    pub fn nodes(nodes: u64) -> Self {
        Budget {
            nodes: Some(nodes),
            ..Budget::default()
        }
    }

    pub fn exhausted(&self, nodes: u64) -> bool {
        let set = |f: &Option<&AtomicBool>| f.is_some_and(|s| s.load(Ordering::Relaxed));
        self.nodes.is_some_and(|n| nodes >= n)
            || self.deadline.is_some_and(|d| Instant::now() >= d)
            || set(&self.stop)
            || self.more_stops.iter().any(set)
    }

    /// This budget, also stopped by `flag`.
    fn and_stop<'b>(&self, flag: &'b AtomicBool) -> Budget<'b>
    where
        'a: 'b,
    {
        let mut more: [Option<&'b AtomicBool>; 2] = [self.more_stops[0], self.more_stops[1]];
        match more.iter_mut().find(|f| f.is_none()) {
            Some(slot) => *slot = Some(flag),
            None => more[1] = Some(flag),
        }
        Budget {
            nodes: self.nodes,
            deadline: self.deadline,
            stop: self.stop,
            more_stops: more,
        }
    }
}

/// Live counters of a running solve (read by a progress printer).
#[derive(Debug, Default)]
pub struct Progress {
    nodes: AtomicU64,
    phi: AtomicU32,
    delta: AtomicU32,
}

impl Progress {
    pub fn add_nodes(&self, n: u64) {
        self.nodes.fetch_add(n, Ordering::Relaxed);
    }
    pub fn nodes(&self) -> u64 {
        self.nodes.load(Ordering::Relaxed)
    }
    /// The root's proof and disproof numbers, from its mover's view.
    pub fn set_root(&self, phi: u32, delta: u32) {
        self.phi.store(phi, Ordering::Relaxed);
        self.delta.store(delta, Ordering::Relaxed);
    }
    pub fn root(&self) -> (u32, u32) {
        (
            self.phi.load(Ordering::Relaxed),
            self.delta.load(Ordering::Relaxed),
        )
    }
}

/// What a proof found.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Proof<M> {
    /// The value for perfect play, `None` when the budget ran out first.
    pub value: Option<Outcome>,
    /// On a proven win for the side to move: a winning move (the one with
    /// the shortest proof found); on a draw: a move that holds it.
    pub best: Option<M>,
    /// The length in plies of the proof found: on a win, an upper bound on
    /// the plies the winner needs against any defence.
    pub plies: Option<u32>,
    /// Positions expanded.
    pub nodes: u64,
}

impl<M> Proof<M> {
    /// The value of a position where the game is over: nothing to search.
    pub fn over(outcome: Outcome) -> Self {
        Proof {
            value: Some(outcome),
            best: None,
            plies: Some(0),
            nodes: 0,
        }
    }

    fn unknown(nodes: u64) -> Self {
        Proof {
            value: None,
            best: None,
            plies: None,
            nodes,
        }
    }
}

/// Exact values that searchers may ask for at their leaves, for games where
/// the solver decides some positions without search (Hadron boards up to
/// 8x8: every live region small).
pub fn oracle<G: Game>() -> Option<std::sync::Arc<dyn crate::search::Oracle<G>>> {
    hadron::oracle_for::<G>()
}

/// Proves the value of `root` within `budget` with `threads` searches, for
/// use during play: cheap to call again and again with the same `table`
/// (what was proven stays there, bounded by its size). Hadron boards up to
/// 8x8 use the region solver, its region values kept from one call to the
/// next; every other game the generic search.
pub fn prove<G: Game>(
    root: &G,
    budget: &Budget,
    table: &ProofTable,
    threads: usize,
) -> Proof<G::Move> {
    prove_with(root, hadron::Settings::in_play(), budget, table, threads)
}

/// Proves `root` on one thread with nothing kept from earlier calls but
/// what `table` holds: under a node budget the answer is a function of the
/// position and the table (exact training targets must not depend on what
/// other games a process proved before).
pub fn prove_alone<G: Game>(root: &G, budget: &Budget, table: &ProofTable) -> Proof<G::Move> {
    let settings = hadron::Settings {
        keep_warm: false,
        ..hadron::Settings::in_play()
    };
    prove_with(root, settings, budget, table, 1)
}

fn prove_with<G: Game>(
    root: &G,
    settings: hadron::Settings,
    budget: &Budget,
    table: &ProofTable,
    threads: usize,
) -> Proof<G::Move> {
    if let Some(proof) = hadron::prove_if_hadron(root, settings, budget, table, None, threads) {
        return proof;
    }
    solve(
        GameNode::new(root.clone()),
        &|| (),
        table,
        budget,
        None,
        threads,
    )
}

/// The three-valued solve of a node: "does the side to move win?", and
/// in games with draws also "does the other side win?"; `threads` searches
/// share the table (with two or more threads and draws possible, the two
/// questions run at once).
pub fn solve<N>(
    root: N,
    context: &(dyn Fn() -> N::Context + Sync),
    table: &ProofTable,
    budget: &Budget,
    progress: Option<&Progress>,
    threads: usize,
) -> Proof<N::Move>
where
    N: Node + Clone + Send + Sync,
    N::Move: Send,
{
    let mover = root.mover();
    let threads = threads.max(1);
    if !root.can_draw() {
        let (result, nodes) = ask(&root, context, mover, table, budget, progress, threads);
        return match result {
            Some((true, best, plies)) => Proof {
                value: Some(Outcome::Win(mover)),
                best,
                plies,
                nodes,
            },
            Some((false, _, plies)) => Proof {
                value: Some(Outcome::Win(mover.other())),
                best: None,
                plies,
                nodes,
            },
            None => Proof::unknown(nodes),
        };
    }
    // Draws possible: "mover wins?" and "other wins?" (with threads, at once).
    let other = mover.other();
    let (first, second) = if threads >= 2 {
        let done = AtomicBool::new(false);
        let inner = |attacker: Seat, share: usize| {
            let r = ask(
                &root,
                context,
                attacker,
                table,
                &budget.and_stop(&done),
                progress,
                share,
            );
            // A proven "mover wins" settles both questions.
            if attacker == mover && matches!(r.0, Some((true, _, _))) {
                done.store(true, Ordering::Relaxed);
            }
            r
        };
        std::thread::scope(|s| {
            let a = spawn_big(s, || inner(mover, threads / 2));
            let b = spawn_big(s, || inner(other, threads - threads / 2));
            (
                a.join().expect("solver thread"),
                b.join().expect("solver thread"),
            )
        })
    } else {
        let first = ask(&root, context, mover, table, budget, progress, 1);
        let second = if matches!(first.0, Some((false, _, _))) {
            ask(&root, context, other, table, budget, progress, 1)
        } else {
            (None, 0)
        };
        (first, second)
    };
    let nodes = first.1 + second.1;
    match (first.0, second.0) {
        (Some((true, best, plies)), _) => Proof {
            value: Some(Outcome::Win(mover)),
            best,
            plies,
            nodes,
        },
        // The mover, as defender of "other wins", reaches its goal: a draw.
        (Some((false, _, _)), Some((true, best, plies))) => Proof {
            value: Some(Outcome::Draw),
            best,
            plies,
            nodes,
        },
        (Some((false, _, _)), Some((false, _, plies))) => Proof {
            value: Some(Outcome::Win(other)),
            best: None,
            plies,
            nodes,
        },
        _ => Proof::unknown(nodes),
    }
}

/// One binary question with `threads` searches sharing the table: does
/// `attacker` win? Returns (mover reaches its goal, its move, proof plies)
/// or None when the budget ran out, and the nodes spent.
#[allow(clippy::type_complexity)]
fn ask<N>(
    root: &N,
    context: &(dyn Fn() -> N::Context + Sync),
    attacker: Seat,
    table: &ProofTable,
    budget: &Budget,
    progress: Option<&Progress>,
    threads: usize,
) -> (Option<(bool, Option<N::Move>, Option<u32>)>, u64)
where
    N: Node + Clone + Send + Sync,
    N::Move: Send,
{
    let finished = AtomicBool::new(false);
    let run = |thread: usize| {
        let local = budget.and_stop(&finished);
        let mut node = root.clone();
        let mut search = Dfpn::new(table, context(), attacker, &local, progress, thread);
        let (found, best) = search.solve(&mut node);
        let nodes = search.nodes;
        N::release(search.ctx);
        let answer = if found.phi == 0 {
            Some((true, best, Some(found.plies as u32)))
        } else if found.delta == 0 {
            Some((false, None, Some(found.plies as u32)))
        } else {
            None
        };
        if answer.is_some() {
            finished.store(true, Ordering::Relaxed);
        }
        (answer, nodes)
    };
    if threads <= 1 {
        return run(0);
    }
    let results: Vec<_> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let run = &run;
                spawn_big(s, move || run(t))
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("solver thread"))
            .collect()
    });
    let nodes = results.iter().map(|r| r.1).sum();
    let answer = results.into_iter().find_map(|r| r.0);
    (answer, nodes)
}

//! Depth-first proof-number search (df-pn, Nagai 2002) over any [`Node`],
//! with the 1+ε threshold trick (Pawlewicz & Lew 2007) and a bounded,
//! shared [`ProofTable`].
//!
//! A search answers one binary question: does `attacker` win? Every number
//! is kept from the side to move's view (`phi`: effort to prove that the
//! mover reaches its goal, `delta`: to disprove it); the attacker's goal
//! is a win, the defender's goal is anything else. In games without draws
//! both goals are "I win", so keys need not say who asks.
//!
//! Repetitions (Atoms, Ihex). The value of a position depends on its
//! history only through the repetition rule, and for a win/no-win question
//! that dependence is harmless: a fastest winning strategy never repeats a
//! position (it could take the shortcut), so "X can force a win" holds
//! exactly when X can force one in the position graph where endless play
//! is not a win, given that the positions the history already holds twice
//! count as draws (the node's key carries those). The search finds that
//! graph value by treating a position that repeats one on the current path
//! as "no win for the attacker". Such a verdict is path-dependent, so a
//! result that rests on a repetition of a position *above* the node is
//! kept only for the current path (in the parent's child list), never
//! stored in the table; results whose cycles close at or below the node,
//! and all proofs of a win (which never rest on repetitions), are facts
//! about the graph and are stored.

use super::node::Node;
use super::table::{Entry, INF, ProofTable};
use super::{Budget, Progress};
use crate::games::zobrist::mix64;
use crate::games::{Outcome, Seat};

/// No repetition below: the result holds whatever the path.
const NO_LOOP: u32 = u32::MAX;

/// Nodes between looks at the budget (clock, stop flag, node limit).
const BUDGET_CHECK_EVERY: u64 = 16;

/// The result of searching a node, from its mover's view.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Searched {
    pub phi: u32,
    pub delta: u32,
    pub plies: u16,
    /// The shallowest path index a repetition below refers to (NO_LOOP).
    pub loop_ply: u32,
}

impl Searched {
    /// Nothing known yet (or nothing that may be trusted).
    const UNKNOWN: Searched = Searched {
        phi: 1,
        delta: 1,
        plies: 0,
        loop_ply: NO_LOOP,
    };

    fn is_final(&self) -> bool {
        self.phi == 0 || self.delta == 0
    }
}

struct Child<M> {
    mv: M,
    /// The child has the same mover as the parent (Ihex captures, Nadraz's
    /// side choice): its numbers are the parent's without a swap.
    same_mover: bool,
    found: Searched,
    /// A final result that holds only on the current path.
    pinned: bool,
}

impl<M> Child<M> {
    /// (proof, disproof) numbers for the parent's mover.
    fn for_parent(&self) -> (u32, u32) {
        if self.same_mover {
            (self.found.phi, self.found.delta)
        } else {
            (self.found.delta, self.found.phi)
        }
    }
}

fn add(a: u32, b: u32) -> u32 {
    if a == INF || b == INF {
        INF
    } else {
        (a as u64 + b as u64).min(INF as u64 - 1) as u32
    }
}

/// One searching thread's state.
pub struct Dfpn<'a, N: Node> {
    table: &'a ProofTable,
    pub ctx: N::Context,
    attacker: Seat,
    /// Mixed into keys when the game has draws (the question matters).
    salt: u64,
    /// Repetition keys of the positions on the current path, root first.
    path: Vec<Option<u64>>,
    pub nodes: u64,
    budget: &'a Budget<'a>,
    progress: Option<&'a Progress>,
    /// Threads after the first break ties the other way (they then work
    /// on different parts of the tree and share what they prove).
    tie_break_last: bool,
    pub aborted: bool,
}

impl<'a, N: Node> Dfpn<'a, N> {
    pub fn new(
        table: &'a ProofTable,
        ctx: N::Context,
        attacker: Seat,
        budget: &'a Budget<'a>,
        progress: Option<&'a Progress>,
        thread: usize,
    ) -> Self {
        Dfpn {
            table,
            ctx,
            attacker,
            salt: 0,
            path: Vec::new(),
            nodes: 0,
            budget,
            progress,
            tie_break_last: thread % 2 == 1,
            aborted: false,
        }
    }

    /// Whether `mover` reaches its goal when the game ends in `outcome`.
    fn achieves(&self, mover: Seat, outcome: Outcome) -> bool {
        let attacker_wins = outcome == Outcome::Win(self.attacker);
        if mover == self.attacker {
            attacker_wins
        } else {
            !attacker_wins
        }
    }

    fn final_for(&self, mover: Seat, outcome: Outcome) -> Searched {
        let (phi, delta) = if self.achieves(mover, outcome) {
            (0, INF)
        } else {
            (INF, 0)
        };
        Searched {
            phi,
            delta,
            plies: 0,
            loop_ply: NO_LOOP,
        }
    }

    fn key_of(&mut self, node: &N) -> u64 {
        let key = node.key(&mut self.ctx) ^ self.salt;
        if key == 0 { 1 } else { key }
    }

    /// Proves or disproves "the attacker wins" at `root`. Returns the
    /// root's numbers from its mover's view (final unless the budget ran
    /// out) and, when the mover reaches its goal, a move that does.
    pub fn solve(&mut self, root: &mut N) -> (Searched, Option<N::Move>) {
        self.salt = if root.can_draw() {
            mix64(0x5EED_0000 + self.attacker.index() as u64)
        } else {
            0
        };
        self.path.clear();
        let mover = root.mover();
        if let Some(outcome) = root.exact(&mut self.ctx) {
            return (self.final_for(mover, outcome), None);
        }
        self.path.push(root.repetition_key());
        let mut result = (Searched::UNKNOWN, None);
        while !self.aborted {
            result = self.mid(root, 0, INF, INF);
            if result.0.is_final() {
                break;
            }
        }
        if N::interrupted(&self.ctx) {
            // Whatever was found rests partly on positions made after the
            // context stopped work: it is not a result.
            result = (Searched::UNKNOWN, None);
        }
        result
    }

    /// What is known of a child without its position: a repetition of
    /// the path (`mover` is the child's mover, `repetition` its key), or
    /// the table's entry. Returns (numbers, whether they hold on this path
    /// only).
    fn look_known(
        &self,
        mover: Seat,
        repetition: Option<u64>,
        key: u64,
    ) -> Option<(Searched, bool)> {
        if let Some(rep) = repetition
            && let Some(at) = self.path.iter().position(|&r| r == Some(rep))
        {
            // Endless play: no win for the attacker, on this path only.
            let mut found = self.final_for(mover, Outcome::Draw);
            found.loop_ply = at as u32;
            return Some((found, true));
        }
        let entry = self.table.get(key)?;
        let found = Searched {
            phi: entry.phi,
            delta: entry.delta,
            plies: entry.plies,
            loop_ply: NO_LOOP,
        };
        Some((found, false))
    }

    /// A child just made that nothing knows yet: game over, or estimate.
    fn look_fresh(&mut self, node: &mut N) -> Searched {
        let mover = node.mover();
        if let Some(outcome) = node.exact(&mut self.ctx) {
            return self.final_for(mover, outcome);
        }
        let (phi, delta) = node.estimate(&mut self.ctx);
        Searched {
            phi: phi.clamp(1, INF - 1),
            delta: delta.clamp(1, INF - 1),
            plies: 0,
            loop_ply: NO_LOOP,
        }
    }

    fn count_node(&mut self) {
        self.nodes += 1;
        if N::interrupted(&self.ctx) {
            self.aborted = true;
        }
        // A node expands every child (an Ihex child searches hexagons), so
        // look at the budget often: a proof inside a move must stop on time.
        if self.nodes.is_multiple_of(BUDGET_CHECK_EVERY) {
            if let Some(p) = self.progress {
                p.add_nodes(BUDGET_CHECK_EVERY);
            }
            if self
                .budget
                .exhausted(self.progress.map_or(self.nodes, |p| p.nodes()))
            {
                self.aborted = true;
            }
        }
    }

    /// The multiple-iterative-deepening step: searches `node` (not decided
    /// without search) until its phi reaches `th_phi` or its delta
    /// `th_delta`, or it is proven or disproven.
    fn mid(
        &mut self,
        node: &mut N,
        ply: u32,
        th_phi: u32,
        th_delta: u32,
    ) -> (Searched, Option<N::Move>) {
        self.count_node();
        let key = self.key_of(node);
        let mover = node.mover();
        let mut moves = Vec::new();
        node.moves(&mut self.ctx, &mut moves);
        // Each child made once: its key (its table window prefetched) and
        // what it shows alone (game over, or the node's estimate), then the
        // lookups, whose cache misses the children's own work has hidden.
        // Known children (path or table) take what is known instead.
        let mut seen = Vec::with_capacity(moves.len());
        for &mv in &moves {
            let undo = node.make(&mut self.ctx, mv);
            let child_key = self.key_of(node);
            self.table.prefetch(child_key);
            let fresh = self.look_fresh(node);
            seen.push((child_key, node.mover(), node.repetition_key(), fresh));
            node.unmake(mv, undo);
        }
        let mut children: Vec<Child<N::Move>> = Vec::with_capacity(moves.len());
        for (&mv, &(child_key, child_mover, repetition, fresh)) in moves.iter().zip(&seen) {
            let (found, pinned) = self
                .look_known(child_mover, repetition, child_key)
                .unwrap_or((fresh, false));
            children.push(Child {
                mv,
                same_mover: child_mover == mover,
                found,
                pinned,
            });
        }
        let work_before = self.nodes;
        // Children keep the numbers found at expansion or returned by their
        // own search; they are not looked up again (a transposition that
        // moved one on shows when it is next searched, and re-reading every
        // child on every step costs a cache miss each: twice the time).
        loop {
            let mut phi = INF;
            let mut delta = 0u32;
            let mut best = 0usize;
            let mut second = INF;
            for (i, child) in children.iter().enumerate() {
                let (p, d) = child.for_parent();
                delta = add(delta, d);
                let better = if self.tie_break_last {
                    p <= phi
                } else {
                    p < phi
                };
                if better {
                    second = phi;
                    phi = p;
                    best = i;
                } else if p < second {
                    second = p;
                }
            }
            if phi == 0 || delta == 0 {
                return self.finish(node, key, ply, &children, phi == 0, work_before);
            }
            if phi >= th_phi || delta >= th_delta || self.aborted {
                self.store(key, phi, delta, 0, work_before);
                if ply == 0 {
                    self.report_root(phi, delta);
                }
                return (
                    Searched {
                        phi,
                        delta,
                        plies: 0,
                        loop_ply: NO_LOOP,
                    },
                    None,
                );
            }
            if ply == 0 {
                self.report_root(phi, delta);
            }
            let (p_best, d_best) = children[best].for_parent();
            let grown = second as u64 + (second as u64 / 4);
            let child_p = (th_phi as u64)
                .min((second as u64 + 1).max(grown))
                .min(INF as u64) as u32;
            let child_d = (th_delta as u64 - delta as u64 + d_best as u64).min(INF as u64) as u32;
            debug_assert!(child_p > p_best);
            let child = &children[best];
            let (th_child_phi, th_child_delta) = if child.same_mover {
                (child_p, child_d)
            } else {
                (child_d, child_p)
            };
            let mv = child.mv;
            let undo = node.make(&mut self.ctx, mv);
            self.path.push(node.repetition_key());
            let (mut found, _) = self.mid(node, ply + 1, th_child_phi, th_child_delta);
            self.path.pop();
            node.unmake(mv, undo);
            if found.loop_ply != NO_LOOP && found.loop_ply > ply + 1 {
                found.loop_ply = NO_LOOP;
            }
            let child = &mut children[best];
            child.pinned = found.is_final() && found.loop_ply != NO_LOOP;
            child.found = found;
        }
    }

    /// A node just proven (`proven`) or disproven: its proof length and
    /// loop dependence, stored unless it holds only on this path.
    fn finish(
        &mut self,
        node: &N,
        key: u64,
        ply: u32,
        children: &[Child<N::Move>],
        proven: bool,
        work_before: u64,
    ) -> (Searched, Option<N::Move>) {
        let _ = node;
        let (phi, delta, plies, loop_ply, best) = if proven {
            // The achieving child that holds on most paths, then the shortest.
            let (i, child) = children
                .iter()
                .enumerate()
                .filter(|(_, c)| c.for_parent().0 == 0)
                .min_by_key(|(_, c)| (std::cmp::Reverse(c.found.loop_ply), c.found.plies))
                .expect("a proven node has a proven child");
            (0, INF, child.found.plies, child.found.loop_ply, Some(i))
        } else {
            let plies = children.iter().map(|c| c.found.plies).max().unwrap_or(0);
            let loop_ply = children
                .iter()
                .map(|c| c.found.loop_ply)
                .min()
                .unwrap_or(NO_LOOP);
            (INF, 0, plies, loop_ply, None)
        };
        let loop_ply = if loop_ply != NO_LOOP && loop_ply >= ply {
            NO_LOOP
        } else {
            loop_ply
        };
        let plies = plies.saturating_add(1);
        if loop_ply == NO_LOOP {
            self.store(key, phi, delta, plies, work_before);
        }
        if ply == 0 {
            self.report_root(phi, delta);
        }
        (
            Searched {
                phi,
                delta,
                plies,
                loop_ply,
            },
            best.map(|i| children[i].mv),
        )
    }

    fn store(&self, key: u64, phi: u32, delta: u32, plies: u16, work_before: u64) {
        if N::interrupted(&self.ctx) {
            return;
        }
        let work = (self.nodes - work_before + 1).min(u32::MAX as u64) as u32;
        let old = self.table.get(key).map_or(0, |e| e.work);
        self.table.put(
            key,
            Entry {
                phi,
                delta,
                work: work.saturating_add(old),
                plies,
            },
        );
    }

    fn report_root(&self, phi: u32, delta: u32) {
        if let Some(p) = self.progress {
            p.set_root(phi, delta);
        }
    }
}

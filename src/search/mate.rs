//! The quickest forced win: an exhaustive AND/OR search, deepened one ply
//! at a time, for a move of the side to move that wins against every
//! defence within d plies. Searchers that already know the position is
//! won (an MCTS-Solver proof, a df-pn proof) use it to play the quickest
//! win and to report its exact distance; it gives up on its budget.

use crate::games::{Game, Outcome, Seat};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// When the search gives up (the first of them).
#[derive(Clone, Copy, Debug, Default)]
pub struct MateBudget<'a> {
    pub nodes: Option<u64>,
    pub deadline: Option<Instant>,
    pub stop: Option<&'a AtomicBool>,
}

/// What the search found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mate<M> {
    /// A move that wins in `plies` plies at most against any defence, and
    /// no move wins in fewer (`None`: no win within the plies searched).
    pub win: Option<(M, u32)>,
    /// Every depth up to this was searched completely.
    pub searched: u32,
    pub nodes: u64,
}

/// The quickest win of the side to move in at most `max_plies` plies.
pub fn quickest_win<G: Game>(root: &G, max_plies: u32, budget: &MateBudget) -> Mate<G::Move> {
    let mut search = MateSearch {
        attacker: root.side_to_move(),
        budget,
        nodes: 0,
        aborted: false,
        moves: Vec::new(),
    };
    let mut state = root.clone();
    let mut root_moves = Vec::new();
    state.legal_moves(&mut root_moves);
    let mut searched = 0;
    for depth in 1..=max_plies {
        for &mv in &root_moves {
            let undo = state.make(mv);
            let wins = search.wins_within(&mut state, depth - 1, 1);
            state.unmake(mv, undo);
            if search.aborted {
                return Mate {
                    win: None,
                    searched,
                    nodes: search.nodes,
                };
            }
            if wins {
                return Mate {
                    win: Some((mv, depth)),
                    searched: depth,
                    nodes: search.nodes,
                };
            }
        }
        searched = depth;
    }
    Mate {
        win: None,
        searched,
        nodes: search.nodes,
    }
}

struct MateSearch<'a, G: Game> {
    attacker: Seat,
    budget: &'a MateBudget<'a>,
    nodes: u64,
    aborted: bool,
    /// Move lists by ply (no allocation once warm).
    moves: Vec<Vec<G::Move>>,
}

impl<G: Game> MateSearch<'_, G> {
    /// Whether the attacker wins `state` within `depth` plies whatever the
    /// defence (false also when the budget ran out: see `aborted`).
    fn wins_within(&mut self, state: &mut G, depth: u32, ply: usize) -> bool {
        self.nodes += 1;
        if self.nodes.is_multiple_of(256) && self.exhausted() {
            self.aborted = true;
        }
        if self.aborted {
            return false;
        }
        if let Some(outcome) = state.outcome() {
            return outcome == Outcome::Win(self.attacker);
        }
        if depth == 0 {
            return false;
        }
        if self.moves.len() <= ply {
            self.moves.resize_with(ply + 1, Vec::new);
        }
        let mut moves = std::mem::take(&mut self.moves[ply]);
        state.legal_moves(&mut moves);
        let attacking = state.side_to_move() == self.attacker;
        // The attacker needs one winning move, the defender none that holds.
        let mut result = !attacking;
        for &mv in &moves {
            let undo = state.make(mv);
            let wins = self.wins_within(state, depth - 1, ply + 1);
            state.unmake(mv, undo);
            if self.aborted || wins == attacking {
                result = wins && !self.aborted;
                break;
            }
        }
        self.moves[ply] = moves;
        result
    }

    fn exhausted(&self) -> bool {
        self.budget.nodes.is_some_and(|n| self.nodes >= n)
            || self.budget.deadline.is_some_and(|d| Instant::now() >= d)
            || self.budget.stop.is_some_and(|s| s.load(Ordering::Relaxed))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::GameRng;
    use crate::games::hadron::Hadron;
    use rand::SeedableRng;

    /// The plies to the end of `state` under perfect play, by plain
    /// minimax (the winner hurries, the loser delays): positive when the
    /// side to move wins.
    fn distance(state: &mut Hadron<u64>) -> i32 {
        let mut moves = Vec::new();
        state.legal_moves(&mut moves);
        if moves.is_empty() {
            return 0; // the side to move has lost: 0 plies to the end
        }
        let mut best: Option<i32> = None;
        for mv in moves {
            let undo = state.make(mv);
            let d = distance(state);
            state.unmake(mv, undo);
            // The child's value from our side: its mover loses in d.
            let ours = if d <= 0 { 1 - d } else { -(d + 1) };
            best = Some(match best {
                None => ours,
                Some(b) if ours > 0 && (b <= 0 || ours < b) => ours,
                Some(b) if ours < 0 && b < 0 && ours < b => ours,
                Some(b) => b,
            });
        }
        best.expect("moves")
    }

    #[test]
    fn finds_the_exact_quickest_win_on_small_hadron_positions() {
        let start = Hadron::<u64>::new(4);
        let mut checked = 0;
        for seed in 0..40u64 {
            let mut state = start.clone();
            let mut rng = GameRng::seed_from_u64(seed);
            let mut scratch = Vec::new();
            for _ in 0..(4 + seed % 5) {
                if let Some(mv) = state.random_move(&mut rng, &mut scratch) {
                    state.play(mv);
                }
            }
            if state.outcome().is_some() {
                continue;
            }
            let truth = distance(&mut state.clone());
            let mate = quickest_win(&state, 16, &MateBudget::default());
            if truth > 0 {
                let (mv, plies) = mate.win.expect("a win");
                assert_eq!(plies as i32, truth, "seed {seed}");
                let mut after = state.clone();
                after.play(mv);
                assert_eq!(distance(&mut after), -(truth - 1), "seed {seed}");
                checked += 1;
            } else {
                assert_eq!(mate.win, None, "seed {seed}");
                assert_eq!(mate.searched, 16);
            }
        }
        assert!(checked >= 5, "{checked} won positions");
    }

    #[test]
    fn gives_up_on_its_budget() {
        let start = Hadron::<u64>::new(5);
        let budget = MateBudget {
            nodes: Some(1000),
            ..MateBudget::default()
        };
        let mate = quickest_win(&start, 25, &budget);
        assert_eq!(mate.win, None);
        assert!(mate.searched < 25);
        assert!(mate.nodes <= 1000 + 256, "{}", mate.nodes);
    }
}

//! Perft: the number of leaves of the legal-move tree, with bulk counting
//! at the last ply (a forced pass counts as a move; terminal positions end
//! their branch). Every count can be stopped: it then returns `None`.

use crate::games::Game;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::thread;

/// perft(depth) of `game`; `None` when `stop` was raised.
pub fn perft<G: Game>(game: &G, depth: u32, stop: &AtomicBool) -> Option<u64> {
    if depth == 0 {
        return Some(1);
    }
    let mut state = game.clone();
    let mut buffers = vec![Vec::new(); depth as usize];
    let total = count(&mut state, depth, &mut buffers, stop);
    (!stop.load(Ordering::Relaxed)).then_some(total)
}

fn count<G: Game>(
    state: &mut G,
    depth: u32,
    buffers: &mut [Vec<G::Move>],
    stop: &AtomicBool,
) -> u64 {
    let (moves, rest) = buffers.split_first_mut().expect("one buffer per ply");
    state.legal_moves(moves);
    if depth == 1 {
        return moves.len() as u64;
    }
    // Above the bulk-counted plies a look at the flag costs nothing.
    if stop.load(Ordering::Relaxed) {
        return 0;
    }
    let mut total = 0;
    for &mv in moves.iter() {
        let undo = state.make(mv);
        total += count(state, depth - 1, rest, stop);
        state.unmake(mv, undo);
    }
    total
}

/// perft(depth - 1) below every legal move, in move-generation order,
/// computed on `threads` threads that take root moves one at a time.
pub fn split_perft<G: Game>(
    game: &G,
    depth: u32,
    threads: usize,
    stop: &AtomicBool,
) -> Option<Vec<(G::Move, u64)>> {
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    if depth == 0 {
        return Some(Vec::new());
    }
    let next = AtomicUsize::new(0);
    let results: Vec<AtomicU64> = moves.iter().map(|_| AtomicU64::new(0)).collect();
    thread::scope(|scope| {
        for _ in 0..threads.clamp(1, moves.len().max(1)) {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&mv) = moves.get(i) else { break };
                    let mut child = game.clone();
                    child.make(mv);
                    let Some(n) = perft(&child, depth - 1, stop) else {
                        break;
                    };
                    results[i].store(n, Ordering::Relaxed);
                }
            });
        }
    });
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    Some(
        moves
            .into_iter()
            .zip(results.into_iter().map(AtomicU64::into_inner))
            .collect(),
    )
}

/// perft(depth), split over `threads` threads at the root.
pub fn parallel_perft<G: Game>(
    game: &G,
    depth: u32,
    threads: usize,
    stop: &AtomicBool,
) -> Option<u64> {
    if depth <= 1 || threads <= 1 {
        return perft(game, depth, stop);
    }
    let rows = split_perft(game, depth, threads, stop)?;
    Some(rows.iter().map(|(_, n)| n).sum())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::hadron::Hadron;

    #[test]
    fn counts_agree_split_or_not_and_a_raised_flag_stops() {
        let game = Hadron::<u64>::new(4);
        let go = AtomicBool::new(false);
        let whole = perft(&game, 4, &go).unwrap();
        let split: u64 = split_perft(&game, 4, 2, &go)
            .unwrap()
            .iter()
            .map(|r| r.1)
            .sum();
        assert_eq!(whole, split);
        assert_eq!(parallel_perft(&game, 4, 2, &go), Some(whole));
        let stop = AtomicBool::new(true);
        assert_eq!(perft(&game, 4, &stop), None);
        assert_eq!(split_perft(&game, 4, 2, &stop), None);
        assert_eq!(
            perft(&game, 1, &stop),
            None,
            "even a bulk count answers None"
        );
    }
}

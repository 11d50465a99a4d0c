//! Perft: the number of leaves of the legal-move tree, with bulk counting
//! at the last ply (a forced pass counts as a move; terminal positions end
//! their branch).

use crate::games::Game;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::thread;

/// perft(depth) of `game`.
pub fn perft<G: Game>(game: &G, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut state = game.clone();
    let mut buffers = vec![Vec::new(); depth as usize];
    count(&mut state, depth, &mut buffers)
}

fn count<G: Game>(state: &mut G, depth: u32, buffers: &mut [Vec<G::Move>]) -> u64 {
    let (moves, rest) = buffers.split_first_mut().expect("one buffer per ply");
    state.legal_moves(moves);
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut total = 0;
    for &mv in moves.iter() {
        let undo = state.make(mv);
        total += count(state, depth - 1, rest);
        state.unmake(mv, undo);
    }
    total
}

/// perft(depth - 1) below every legal move, in move-generation order,
/// computed on `threads` threads that take root moves one at a time.
pub fn split_perft<G: Game>(game: &G, depth: u32, threads: usize) -> Vec<(G::Move, u64)> {
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    if depth == 0 {
        return Vec::new();
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
                    results[i].store(perft(&child, depth - 1), Ordering::Relaxed);
                }
            });
        }
    });
    moves
        .into_iter()
        .zip(results.into_iter().map(AtomicU64::into_inner))
        .collect()
}

/// perft(depth), split over `threads` threads at the root.
pub fn parallel_perft<G: Game>(game: &G, depth: u32, threads: usize) -> u64 {
    if depth <= 1 || threads <= 1 {
        return perft(game, depth);
    }
    split_perft(game, depth, threads)
        .iter()
        .map(|(_, n)| n)
        .sum()
}

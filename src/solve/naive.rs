//! An independent exhaustive checker for the solver's tests: plain minimax
//! over the game's own rules (its own repetition history and draw rules
//! included), no table, no symmetry, no reductions. Exponential; for
//! small positions only.

use crate::games::{Game, Outcome, Seat};

/// How good an outcome is for `seat`: win 2, draw 1, loss 0.
fn rank(outcome: Outcome, seat: Seat) -> u8 {
    match outcome {
        Outcome::Win(w) if w == seat => 2,
        Outcome::Win(_) => 0,
        Outcome::Draw => 1,
    }
}

/// The value of `game` for perfect play, or `None` when more than `limit`
/// positions would be visited.
pub fn value<G: Game>(game: &G, limit: u64) -> Option<Outcome> {
    value_over(game, limit, G::legal_moves)
}

/// `value`, searching the moves `moves_of` lists at each position (e.g.
/// `Game::search_moves`, to check that it keeps every position's value).
pub fn value_over<G: Game>(
    game: &G,
    limit: u64,
    moves_of: fn(&G, &mut Vec<G::Move>),
) -> Option<Outcome> {
    let mut game = game.clone();
    let mut visited = 0u64;
    minimax(&mut game, &mut visited, limit, moves_of)
}

/// The value after each legal move, in move order.
pub fn children<G: Game>(game: &G, limit: u64) -> Option<Vec<(G::Move, Outcome)>> {
    let mut game = game.clone();
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    let mut visited = 0u64;
    let mut values = Vec::new();
    for mv in moves {
        let undo = game.make(mv);
        let v = minimax(&mut game, &mut visited, limit, G::legal_moves);
        game.unmake(mv, undo);
        values.push((mv, v?));
    }
    Some(values)
}

fn minimax<G: Game>(
    game: &mut G,
    visited: &mut u64,
    limit: u64,
    moves_of: fn(&G, &mut Vec<G::Move>),
) -> Option<Outcome> {
    *visited += 1;
    if *visited > limit {
        return None;
    }
    let mut moves = Vec::new();
    moves_of(game, &mut moves);
    if moves.is_empty() {
        return Some(
            game.outcome()
                .expect("no legal move means the game is over"),
        );
    }
    let me = game.side_to_move();
    let mut best: Option<Outcome> = None;
    for mv in moves {
        let undo = game.make(mv);
        let v = minimax(game, visited, limit, moves_of);
        game.unmake(mv, undo);
        let v = v?;
        if best.is_none_or(|b| rank(v, me) > rank(b, me)) {
            best = Some(v);
        }
        if rank(v, me) == 2 {
            break;
        }
    }
    best
}

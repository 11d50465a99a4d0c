//! The generic consistency check every game runs: over seeded random games,
//! the invariants of the [`Game`] contract must hold at every position
//! (learned-model features included).
//! Tests call it for every registered game and parameter set; users can
//! run it with `quintet selfcheck` (see `runs::selfcheck`).

use crate::games::{CompactMove, FeatureRows, Game, GameRng, random_below};
use rand::SeedableRng;
use std::collections::HashSet;

/// What a check covered.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Coverage {
    pub games: u64,
    pub positions: u64,
    pub finished: u64,
}

fn fail(game: &impl Game, history: &[String], what: String) -> String {
    format!(
        "{}: {what}\n  after moves: {}\n  position: {}",
        game.describe(),
        history.join(" "),
        game.position_text()
    )
}

/// Plays `games` random games from `start` (at most `max_plies` each),
/// checking every invariant at every position.
pub fn check<G: Game>(
    start: &G,
    games: u64,
    max_plies: usize,
    seed: u64,
) -> Result<Coverage, String> {
    let mut rng = GameRng::seed_from_u64(seed);
    let mut coverage = Coverage::default();
    let mut moves = Vec::new();
    let mut scratch = Vec::new();
    for _ in 0..games {
        let mut state = start.clone();
        let mut history: Vec<String> = Vec::new();
        coverage.games += 1;
        loop {
            coverage.positions += 1;
            check_position(&state, &history, &mut moves)?;
            if moves.is_empty() || history.len() >= max_plies {
                coverage.finished += moves.is_empty() as u64;
                break;
            }
            // The fast random pick must give a legal move as well.
            let quick = state
                .random_move(&mut rng, &mut scratch)
                .ok_or_else(|| fail(&state, &history, "random_move found no move".into()))?;
            if !moves.contains(&quick) {
                return Err(fail(
                    &state,
                    &history,
                    format!("random_move gave illegal {quick:?}"),
                ));
            }
            let mv = moves[random_below(&mut rng, moves.len())];
            // make/unmake restores everything; play and make agree.
            let before = state.clone();
            let undo = state.make(mv);
            let mut played = before.clone();
            played.play(mv);
            if played != state {
                return Err(fail(
                    &before,
                    &history,
                    format!("play and make differ on {mv:?}"),
                ));
            }
            let after = state.clone();
            state.unmake(mv, undo);
            if state != before {
                return Err(fail(
                    &before,
                    &history,
                    format!("unmake of {mv:?} did not restore"),
                ));
            }
            state = after;
            history.push(before.format_move(mv));
        }
    }
    Ok(coverage)
}

/// Features (where the game has them) stay inside their ranges, one row
/// per legal move.
fn check_features<G: Game>(state: &G, history: &[String], moves: &[G::Move]) -> Result<(), String> {
    let Some(set) = state.feature_set() else {
        return Ok(());
    };
    if moves.is_empty() {
        return Ok(());
    }
    let mut features = Vec::new();
    state.position_features(&mut features);
    if let Some(f) = features.iter().find(|&&f| f >= set.position) {
        return Err(fail(
            state,
            history,
            format!("position feature {f} is not below {}", set.position),
        ));
    }
    let mut rows = FeatureRows::default();
    state.move_features(moves, &mut rows);
    if rows.len() != moves.len() {
        return Err(fail(
            state,
            history,
            format!("{} feature rows for {} moves", rows.len(), moves.len()),
        ));
    }
    for (i, &mv) in moves.iter().enumerate() {
        if let Some(f) = rows.row(i).iter().find(|&&f| f >= set.moves) {
            return Err(fail(
                state,
                history,
                format!("move feature {f} of {mv:?} is not below {}", set.moves),
            ));
        }
    }
    Ok(())
}

fn check_position<G: Game>(
    state: &G,
    history: &[String],
    moves: &mut Vec<G::Move>,
) -> Result<(), String> {
    state.legal_moves(moves);
    let unique: HashSet<_> = moves.iter().collect();
    if unique.len() != moves.len() {
        return Err(fail(
            state,
            history,
            "legal moves contain duplicates".into(),
        ));
    }
    if state.hash() != state.hash_from_scratch() {
        return Err(fail(
            state,
            history,
            "incremental hash differs from a fresh one".into(),
        ));
    }
    let outcome = state.outcome();
    if outcome.is_some() != moves.is_empty() {
        return Err(fail(
            state,
            history,
            format!("outcome {outcome:?} with {} legal moves", moves.len()),
        ));
    }
    for &mv in moves.iter() {
        let text = state.format_move(mv);
        match state.parse_move(&text) {
            Ok(parsed) if parsed == mv => {}
            other => {
                return Err(fail(
                    state,
                    history,
                    format!("'{text}' parses back as {other:?}"),
                ));
            }
        }
        let upper = text.to_ascii_uppercase();
        if state.parse_move(&upper) != Ok(mv) {
            return Err(fail(
                state,
                history,
                format!("'{upper}' is not read case-insensitively"),
            ));
        }
    }
    check_features(state, history, moves)?;
    let text = state.position_text();
    let reread = state
        .read_position(&text)
        .map_err(|e| fail(state, history, format!("own position text rejected: {e}")))?;
    if reread.position_text() != text || reread.hash() != state.hash() {
        return Err(fail(
            state,
            history,
            "position text does not round-trip".into(),
        ));
    }
    if reread.side_to_move() != state.side_to_move() {
        return Err(fail(
            state,
            history,
            "side to move lost in the position text".into(),
        ));
    }
    let mut reread_moves = Vec::new();
    reread.legal_moves(&mut reread_moves);
    // A position text cannot carry a repetition history, so only compare
    // where no draw by repetition is in play.
    let sorted = |list: &[G::Move]| {
        let mut packed: Vec<u32> = list.iter().map(|m| m.pack()).collect();
        packed.sort_unstable();
        packed
    };
    if state.outcome().is_none() && sorted(&reread_moves) != sorted(moves) {
        return Err(fail(
            state,
            history,
            "re-read position has other legal moves".into(),
        ));
    }
    Ok(())
}

//! Self-play: the engine plays itself from the start position (after a few
//! random plies, for variety), and each searched ply keeps the root's visit
//! counts (the policy target) and the game its result (the value target).
//! A game depends only on the seed, its generation, its index and the
//! weights, so any subset of games can be played anywhere (shards) and
//! merged.

use super::data::{GameRecord, Ply};
use crate::games::{CompactMove, Game, GameRng, Outcome, random_below};
use crate::search::searcher::GamePath;
use crate::search::{Context, Limits, Report, Root, Score, SearchSettings, Searcher, Tuning};
use rand::{Rng, SeedableRng};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// How self-play games are played.
#[derive(Clone, Debug)]
pub struct SelfPlay {
    /// Search nodes (playouts, or alpha-beta nodes) per move.
    pub nodes: u64,
    /// Each game starts with 0 to this many uniformly random plies.
    pub opening_plies: u32,
    /// After the opening, this many plies play a move drawn in proportion
    /// to its visits; later plies play the search's choice.
    pub sample_plies: u32,
    /// A game this long is stopped and counted as a draw.
    pub max_plies: u32,
    pub seed: u64,
    pub tuning: Tuning,
}

/// The seed of one game of one generation.
pub fn game_seed(seed: u64, generation: u32, index: u64) -> u64 {
    use crate::games::zobrist::mix64;
    mix64(mix64(seed ^ 0x5e1f_91a7) ^ mix64(generation as u64) ^ index.wrapping_mul(0x9E37_79B9))
}

/// Plays game `index` of `generation` from `start` with `searcher`.
pub fn play<G: Game>(
    start: &G,
    searcher: &mut dyn Searcher<G>,
    rules: &SelfPlay,
    generation: u32,
    index: u64,
) -> GameRecord {
    let mut rng = GameRng::seed_from_u64(game_seed(rules.seed, generation, index));
    searcher.clear();
    let mut state = start.clone();
    let mut path = GamePath {
        start_key: state.hash(),
        moves: Vec::new(),
    };
    let random_plies = random_below(&mut rng, rules.opening_plies as usize + 1) as u32;
    let mut plies = Vec::new();
    let mut moves = Vec::new();
    let mut scratch = Vec::new();
    let outcome = loop {
        state.legal_moves(&mut moves);
        if moves.is_empty() {
            break state.outcome().expect("no legal moves means game over");
        }
        let ply = plies.len() as u32;
        if ply >= rules.max_plies {
            break Outcome::Draw;
        }
        let (mv, visits) = if ply < random_plies {
            let mv = state
                .random_move(&mut rng, &mut scratch)
                .expect("a position with moves has a random move");
            (mv, None)
        } else {
            let sample = ply - random_plies < rules.sample_plies;
            let (mv, visits) = search(&state, &path, searcher, rules, &mut rng, sample);
            (mv, Some(visits))
        };
        plies.push(Ply {
            played: state.format_move(mv),
            visits: visits.map(|list| {
                list.into_iter()
                    .map(|(m, n)| (state.format_move(m), n))
                    .collect()
            }),
            exact: None,
        });
        state.play(mv);
        path.moves.push(mv.pack());
    };
    GameRecord {
        index,
        outcome,
        start: start.position_text(),
        plies,
    }
}

/// One searched ply: the move to play and the root's visited moves.
fn search<G: Game>(
    state: &G,
    path: &GamePath,
    searcher: &mut dyn Searcher<G>,
    rules: &SelfPlay,
    rng: &mut GameRng,
    sample: bool,
) -> (G::Move, Vec<(G::Move, u32)>) {
    let settings = SearchSettings {
        threads: 1,
        seed: rng.next_u64(),
        move_overhead_ms: 0,
        lag_ms: 0,
        tuning: rules.tuning.clone(),
        ..SearchSettings::default()
    };
    let stop = AtomicBool::new(false);
    let mut ignore = |_: &Report<G::Move>| {};
    let mut ctx = Context::new(Instant::now(), &stop, &mut ignore);
    let root = Root {
        position: state,
        path,
    };
    let result = searcher.search(&root, &settings, &Limits::nodes(rules.nodes), &mut ctx);
    let mut visits: Vec<(G::Move, u32)> = searcher
        .root_visits()
        .into_iter()
        .filter(|&(_, n)| n > 0)
        .collect();
    // A proven result, or a searcher without visits: the move it chose.
    if matches!(result.report.score, Score::Mate(_)) || visits.is_empty() {
        visits = vec![(result.best, 1)];
    }
    let mv = if sample {
        let total: u64 = visits.iter().map(|&(_, n)| n as u64).sum();
        let mut pick = (rng.next_u64() % total.max(1)) as i64;
        visits
            .iter()
            .find(|&&(_, n)| {
                pick -= n as i64;
                pick < 0
            })
            .map_or(result.best, |&(m, _)| m)
    } else {
        result.best
    };
    (mv, visits)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::hadron::Hadron;
    use crate::search::Setup;
    use crate::search::searcher;

    #[test]
    fn a_game_is_a_function_of_its_seed_and_index() {
        let start = Hadron::<u64>::new(5);
        let rules = SelfPlay {
            nodes: 200,
            opening_plies: 3,
            sample_plies: 4,
            max_plies: 500,
            seed: 7,
            tuning: Tuning::default(),
        };
        let setup = Setup::<Hadron<u64>>::default();
        let mut a = searcher::build("mcts", &setup).unwrap();
        a.allocate(4);
        let mut b = searcher::build("mcts", &setup).unwrap();
        b.allocate(4);
        let first = play(&start, a.as_mut(), &rules, 0, 3);
        // Another searcher, after other games, plays the same game 3.
        play(&start, b.as_mut(), &rules, 0, 1);
        assert_eq!(play(&start, b.as_mut(), &rules, 0, 3), first);
        assert_ne!(play(&start, a.as_mut(), &rules, 0, 4), first);
        // The record replays: every played move is legal, and every
        // searched ply lists the move it played among its visits... or
        // was sampled from them.
        let mut state = start.clone();
        for ply in &first.plies {
            let mv = state.parse_move(&ply.played).unwrap();
            assert!(crate::search::legal_moves(&state).contains(&mv));
            if let Some(visits) = &ply.visits {
                assert!(visits.iter().all(|(_, n)| *n > 0));
            }
            state.play(mv);
        }
        assert_eq!(state.outcome(), Some(first.outcome));
    }
}

//! Exact value targets: a finished self-play game's positions proven from
//! its end backwards, each within a node budget, until one is not settled
//! (earlier ones are harder still). A proven value is what the position is
//! worth for perfect play, where the game's result is only what happened;
//! the fit prefers it (see `dataset`).

use super::data::GameRecord;
use crate::games::Game;
use crate::solve::{self, Budget, ProofTable};

/// Proves positions of self-play games for their exact values.
pub struct Labeler {
    /// Nodes each position's proof may expand.
    nodes: u64,
    /// Shared by the positions of one game (later proofs help earlier
    /// ones), emptied before each game so that a game's labels depend on
    /// that game alone.
    table: ProofTable,
}

impl Labeler {
    pub fn new(nodes: u64, table_mb: usize) -> Labeler {
        Labeler {
            nodes,
            table: ProofTable::new(table_mb),
        }
    }

    /// Sets `exact` on the plies of `record` whose position it proves, from
    /// the last ply back to the first it cannot settle; returns how many.
    pub fn label<G: Game>(&self, start: &G, record: &mut GameRecord) -> Result<usize, String> {
        let mut state = start
            .read_position(&record.start)
            .map_err(|e| format!("game {}: {e}", record.index))?;
        let mut before = Vec::with_capacity(record.plies.len());
        for (i, ply) in record.plies.iter().enumerate() {
            let mv = state
                .parse_move(&ply.played)
                .map_err(|e| format!("game {} ply {}: {e}", record.index, i + 1))?;
            before.push(state.clone());
            state.play(mv);
        }
        self.table.clear();
        let budget = Budget::nodes(self.nodes);
        let index = record.index;
        let plies = &mut record.plies;
        solve::on_big_stack(|| {
            let mut proven = 0;
            for (ply, position) in plies.iter_mut().zip(&before).rev() {
                match solve::prove_alone(position, &budget, &self.table).value {
                    Some(value) => ply.exact = Some(value),
                    None => break,
                }
                proven += 1;
            }
            proven
        })
        .ok_or_else(|| format!("game {index}: its proofs could not run on a solver's stack"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::hadron::Hadron;
    use crate::games::tritium::{Tritium, Variant};
    use crate::games::{GameRng, Outcome};
    use crate::learn::data::Ply;
    use crate::learn::dataset::Dataset;
    use crate::solve::naive;
    use rand::SeedableRng;

    /// A uniformly random game from `start`, as a record without visits.
    fn random_game<G: Game>(start: &G, seed: u64) -> GameRecord {
        let mut rng = GameRng::seed_from_u64(seed);
        let mut state = start.clone();
        let mut plies = Vec::new();
        let mut scratch = Vec::new();
        while let Some(mv) = state.random_move(&mut rng, &mut scratch) {
            plies.push(Ply {
                played: state.format_move(mv),
                visits: None,
                exact: None,
            });
            state.play(mv);
        }
        GameRecord {
            index: seed,
            outcome: state.outcome().expect("a game without moves is over"),
            start: start.position_text(),
            plies,
        }
    }

    /// The positions before each ply of `record`.
    fn positions<G: Game>(start: &G, record: &GameRecord) -> Vec<G> {
        let mut state = start.clone();
        let mut out = Vec::new();
        for ply in &record.plies {
            out.push(state.clone());
            state.play(state.parse_move(&ply.played).unwrap());
        }
        out
    }

    #[test]
    fn labels_are_a_proven_suffix_that_naive_search_confirms() {
        let start = Hadron::<u64>::new(5);
        let mut reached = [0usize; 2];
        for seed in 0..6 {
            let game = random_game(&start, seed);
            for (k, budget) in [30, 200_000].into_iter().enumerate() {
                let mut record = game.clone();
                let proven = Labeler::new(budget, 1).label(&start, &mut record).unwrap();
                let first = record.plies.len() - proven;
                // The position before the last ply is one move from the end.
                assert!(proven >= 1, "game {seed}: the last ply is always proven");
                assert!(record.plies[..first].iter().all(|p| p.exact.is_none()));
                reached[k] += proven;
                for (i, position) in positions(&start, &record).iter().enumerate().skip(first) {
                    let exact = record.plies[i].exact;
                    assert!(exact.is_some(), "game {seed} ply {i}: a gap in the suffix");
                    if let Some(expected) = naive::value(position, 2_000_000) {
                        assert_eq!(exact, Some(expected), "game {seed} ply {i}");
                    }
                }
                // The fit's value target is the proven value, not the result.
                let mut data = Dataset::default();
                data.add_game(&start, &record, 1.0).unwrap();
                for (i, position) in positions(&start, &record).iter().enumerate() {
                    let value = record.plies[i].exact.unwrap_or(record.outcome);
                    let target = value.reward_for(position.side_to_move());
                    assert_eq!(data.value_target(i), target, "game {seed} ply {i}");
                }
            }
        }
        // A budget decides how far back the proofs reach.
        assert!(reached[0] < reached[1], "proofs reached {reached:?} plies");
    }

    #[test]
    fn labels_depend_on_the_game_alone() {
        let start = Hadron::<u64>::new(5);
        let games: Vec<GameRecord> = (10..13).map(|s| random_game(&start, s)).collect();
        let label = |labeler: &Labeler, game: &GameRecord| {
            let mut record = game.clone();
            labeler.label(&start, &mut record).unwrap();
            record
        };
        let fresh: Vec<GameRecord> = games
            .iter()
            .map(|g| label(&Labeler::new(100, 1), g))
            .collect();
        // One labeler through the games in another order, and each again
        // (what the first pass proved must not help the second): the same
        // labels.
        let shared = Labeler::new(100, 1);
        for index in [1, 1, 0, 2, 1] {
            assert_eq!(label(&shared, &games[index]), fresh[index], "game {index}");
        }
        assert!(
            fresh
                .iter()
                .any(|r| r.plies.iter().any(|p| p.exact.is_some()))
        );
    }

    #[test]
    fn any_game_is_labelled_by_the_generic_proof() {
        let start = Tritium::new(4, Variant::Standard);
        let mut record = random_game(&start, 3);
        let proven = Labeler::new(20_000, 1).label(&start, &mut record).unwrap();
        assert!(proven >= 1);
        let before_last = positions(&start, &record).pop().unwrap();
        let last = record.plies.last().unwrap().exact;
        assert!(
            matches!(last, Some(Outcome::Win(_))),
            "Tritium has no draws"
        );
        assert_eq!(last, naive::value(&before_last, 1_000_000));
    }
}

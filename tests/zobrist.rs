//! Zobrist keys of every registered game, over the positions of many
//! seeded random games: no two different positions share a key, equal
//! positions have equal keys, the incremental key is the key computed from
//! scratch, and every bit of the key is set about half the time.

use quintet::games::{Game, GameConfig, GameRng};
use quintet::registry::{self, GameVisitor};
use quintet::session::Profile;
use rand::SeedableRng;
use std::collections::HashMap;

/// Positions visited per game (the start position and early ones repeat,
/// so fewer are distinct).
const POSITIONS: usize = 30_000;

/// The part of a position text the key stands for. Atoms' last field
/// counts the movement moves since the last removal, which the key leaves
/// out on purpose: the repetition rule compares keys of positions that
/// differ only there.
fn keyed_text(game: &str, text: &str) -> String {
    match game {
        "atoms" => {
            let (kept, _quiet) = text.rsplit_once(' ').expect("atoms text has fields");
            kept.to_string()
        }
        _ => text.to_string(),
    }
}

/// The (keyed text, key) of every position of random games.
struct RandomGames {
    positions: usize,
    seed: u64,
}

impl GameVisitor for RandomGames {
    type Output = Vec<(String, u64)>;

    fn visit<G: Game>(self, config: &GameConfig, start: G, _: &Profile) -> Self::Output {
        let mut rng = GameRng::seed_from_u64(self.seed);
        let mut scratch = Vec::new();
        let mut seen = Vec::with_capacity(self.positions);
        while seen.len() < self.positions {
            let mut state = start.clone();
            loop {
                let text = state.position_text();
                assert_eq!(
                    state.hash(),
                    state.hash_from_scratch(),
                    "{}: the incremental key of {text}",
                    config.game
                );
                seen.push((keyed_text(&config.game, &text), state.hash()));
                match state.random_move(&mut rng, &mut scratch) {
                    Some(mv) => state.play(mv),
                    None => break,
                }
            }
        }
        seen
    }
}

#[test]
fn keys_are_unique_and_balanced_in_every_game() {
    for entry in registry::GAMES {
        let config = GameConfig::named(entry.name);
        let visitor = RandomGames {
            positions: POSITIONS,
            seed: 0x5eed_0000 + entry.name.len() as u64,
        };
        let seen = registry::with_game(&config, visitor).unwrap();
        let mut by_text: HashMap<&str, u64> = HashMap::new();
        let mut by_key: HashMap<u64, &str> = HashMap::new();
        for (text, key) in &seen {
            if let Some(&earlier) = by_text.get(text.as_str()) {
                assert_eq!(earlier, *key, "{}: {text} has two keys", entry.name);
                continue;
            }
            by_text.insert(text, *key);
            if let Some(other) = by_key.insert(*key, text) {
                panic!("{}: {other} and {text} share key {key:016x}", entry.name);
            }
        }
        let distinct = by_text.len();
        assert!(
            distinct >= POSITIONS / 3,
            "{}: only {distinct} distinct positions",
            entry.name
        );
        for bit in 0..64 {
            let set = by_key.keys().filter(|&&k| k >> bit & 1 == 1).count();
            let share = set as f64 / distinct as f64;
            assert!(
                (0.45..=0.55).contains(&share),
                "{}: bit {bit} is set in {:.1}% of {distinct} positions",
                entry.name,
                share * 100.0
            );
        }
    }
}

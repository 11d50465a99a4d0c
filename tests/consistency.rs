//! The generic consistency suite: every registered game, at every size and
//! variant, must keep the `Game` contract over seeded random games (unique
//! legal moves, move text round trip, position text round trip, incremental
//! hash, make/unmake, terminal exactly when a result exists). A new game
//! gets this for free by being registered.

use quintet::games::GameConfig;
use quintet::registry;
use quintet::runs::selfcheck;

/// Random games per configuration: more for the small, fast boards.
fn games_for(config: &GameConfig) -> u64 {
    match config.size {
        0..=6 => 60,
        7..=9 => 30,
        _ => 12,
    }
}

#[test]
fn every_registered_game_keeps_the_contract() {
    let mut failures = Vec::new();
    for config in registry::all_configs() {
        match selfcheck::run(&config, games_for(&config), 2_000, 20_261_122) {
            Ok((_, coverage)) => assert!(
                coverage.positions > coverage.games,
                "{config:?} played no moves"
            ),
            Err(e) => failures.push(e),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn atoms_stone_counts_keep_the_contract() {
    for stones in [2, 3, 5, 20] {
        for variant in ["standard", "radioactive-isotopes"] {
            let config = GameConfig {
                game: "atoms".into(),
                size: 8,
                variant: variant.into(),
                stones,
            };
            selfcheck::run(&config, 40, 2_000, stones as u64).unwrap();
        }
    }
}

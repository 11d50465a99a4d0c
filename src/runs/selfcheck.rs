//! `selfcheck`: the generic consistency check (`tools::selfcheck`) from
//! the start position of registered game configurations.

use crate::games::{Game, GameConfig};
use crate::registry::{self, GameVisitor};
use crate::session::Profile;
use crate::tools::selfcheck::{Coverage, check};

/// `check` from the start position of a configured game; the game's
/// description and what the check covered.
pub fn run(
    config: &GameConfig,
    games: u64,
    max_plies: usize,
    seed: u64,
) -> Result<(String, Coverage), String> {
    struct Check {
        games: u64,
        max_plies: usize,
        seed: u64,
    }
    impl GameVisitor for Check {
        type Output = Result<(String, Coverage), String>;
        fn visit<G: Game>(self, _: &GameConfig, start: G, _: &Profile) -> Self::Output {
            let coverage = check(&start, self.games, self.max_plies, self.seed)?;
            Ok((start.describe(), coverage))
        }
    }
    registry::with_game(
        config,
        Check {
            games,
            max_plies,
            seed,
        },
    )?
}

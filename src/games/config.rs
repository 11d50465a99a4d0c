//! A game configuration: which game, at which size, variant and stones.
//! The registry checks it against each game's ranges and fills defaults.

/// What the user asked for. Zero size/stones and an empty variant mean the
/// game's default.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct GameConfig {
    pub game: String,
    pub size: usize,
    pub variant: String,
    pub stones: usize,
}

/// The game an engine plays until told otherwise.
pub const DEFAULT_GAME: &str = "hadron";

impl Default for GameConfig {
    fn default() -> Self {
        GameConfig::named(DEFAULT_GAME)
    }
}

impl GameConfig {
    /// The game of this name with its default parameters.
    pub fn named(game: &str) -> Self {
        GameConfig {
            game: game.to_string(),
            size: 0,
            variant: String::new(),
            stones: 0,
        }
    }

    pub fn with_size(mut self, size: usize) -> Self {
        self.size = size;
        self
    }

    pub fn with_variant(mut self, variant: &str) -> Self {
        self.variant = variant.to_string();
        self
    }
}

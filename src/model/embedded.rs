//! The weight files built into the engine, one per trained configuration
//! (keyed by `Game::describe`). `quintet train` writes them; see README.md
//! for the command that makes each.

const EMBEDDED: &[(&str, &[u8])] = &[];

/// The embedded weight file of a configuration.
pub(super) fn bytes_for(describe: &str) -> Option<&'static [u8]> {
    EMBEDDED
        .iter()
        .find(|(name, _)| *name == describe)
        .map(|(_, bytes)| *bytes)
}

pub(super) fn configurations() -> Vec<&'static str> {
    EMBEDDED.iter().map(|(name, _)| *name).collect()
}

//! The weight files built into the engine, one per trained configuration
//! (keyed by `Game::describe`). `quintet train` writes them; see README.md
//! for the command that makes each.

const EMBEDDED: &[(&str, &[u8])] = &[
    ("hadron size=7", include_bytes!("weights/hadron-7.qw")),
    (
        "tritium size=5 variant=standard",
        include_bytes!("weights/tritium-5.qw"),
    ),
    (
        "nadraz size=10 variant=standard",
        include_bytes!("weights/nadraz-10.qw"),
    ),
];

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Weights;

    #[test]
    fn every_embedded_file_reads_and_is_for_its_key() {
        for (name, bytes) in EMBEDDED {
            let weights = Weights::from_bytes(bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(weights.game, *name);
            assert!(bytes.len() <= crate::model::weights::MAX_BYTES, "{name}");
            assert!(
                weights.policy.iter().any(|&w| w != 0.0),
                "{name}: untrained"
            );
        }
    }
}

//! Helpers shared by the integration tests.

use std::path::PathBuf;

/// The shared rules folder beside the checkout (`../shared`).
pub fn shared_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("shared")
}

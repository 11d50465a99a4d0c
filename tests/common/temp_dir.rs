//! A fresh scratch directory for one test, removed when it is dropped
//! after the test passed (kept after a failure, to look at). Shared by
//! the tests that write files.

use std::path::{Path, PathBuf};

pub struct TempDir(PathBuf);

impl TempDir {
    /// `quintet-NAME-PID` in the system's temp directory, emptied first.
    pub fn new(name: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("quintet-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }

    /// A file in the directory.
    #[allow(dead_code)] // not every test that includes this file uses it
    pub fn path(&self, file: &str) -> PathBuf {
        self.0.join(file)
    }
}

impl std::ops::Deref for TempDir {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

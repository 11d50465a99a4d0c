//! `--log FILE`: every line between the runner and its engines, one per
//! line: seconds since the match started (ms precision), the engine
//! process (`name#pid`: one engine may run in several processes), the
//! direction (`>` to the engine, `<` from it, `!` its stderr) and the line.
//!
//! ```text
//! 0.012 mcts#4711 > ugi
//! 0.015 mcts#4711 < id name quintet 0.2.0
//! ```

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;
use std::sync::Mutex;
use std::time::Instant;

pub struct TrafficLog {
    start: Instant,
    out: Mutex<BufWriter<File>>,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Direction {
    ToEngine,
    FromEngine,
    Stderr,
}

impl TrafficLog {
    /// Opens FILE for appending (a resumed match logs on after the old lines).
    pub fn open(path: &Path, start: Instant) -> Result<TrafficLog, String> {
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| format!("cannot open the log file {}: {e}", path.display()))?;
        Ok(TrafficLog {
            start,
            out: Mutex::new(BufWriter::new(file)),
        })
    }

    /// Writes one line; the stamp is when the line was sent or read.
    pub fn line(&self, at: Instant, engine: &str, direction: Direction, text: &str) {
        let seconds = at.saturating_duration_since(self.start).as_secs_f64();
        let arrow = match direction {
            Direction::ToEngine => ">",
            Direction::FromEngine => "<",
            Direction::Stderr => "!",
        };
        // One entry per line, whatever the engine wrote.
        let text = text.replace(['\r', '\n'], " ");
        let mut out = self.out.lock().unwrap_or_else(|e| e.into_inner());
        if let Err(e) = writeln!(out, "{seconds:.3} {engine} {arrow} {text}") {
            log::error!("writing the traffic log: {e}");
        }
    }

    /// Writes out what is buffered (at the end of each game and of the match).
    pub fn flush(&self) {
        let mut out = self.out.lock().unwrap_or_else(|e| e.into_inner());
        let _ = out.flush();
    }
}

impl Drop for TrafficLog {
    fn drop(&mut self) {
        self.flush();
    }
}

//! Weight files: the learned weights of one game configuration over its
//! feature set, in a small binary file (little-endian):
//!
//! ```text
//! "QWTS"  u32 format (1)
//! text    game configuration, as `Game::describe` ("hadron size=7")
//! text    feature set name, u32 feature set version
//! text    note (how the weights were made)
//! u32     value weights V, u32 policy weights P
//! f32     value bias, V value weights, P policy weights
//! u64     checksum of everything before it
//! ```
//!
//! A text is a u32 byte length and that many UTF-8 bytes.

use crate::games::{FeatureSet, Game};
use std::path::Path;

const MAGIC: &[u8; 4] = b"QWTS";
const FORMAT: u32 = 1;
/// Files larger than this are refused (the weights of one configuration
/// stay under 1 MiB).
pub const MAX_BYTES: usize = 1 << 20;

/// The learned weights of one game configuration.
#[derive(Clone, Debug, PartialEq)]
pub struct Weights {
    pub game: String,
    pub feature_set: String,
    pub feature_version: u32,
    pub note: String,
    pub value_bias: f32,
    pub value: Vec<f32>,
    pub policy: Vec<f32>,
}

impl Weights {
    /// All-zero weights for `game` (uniform priors, even values).
    pub fn zeros<G: Game>(game: &G) -> Option<Weights> {
        let set = game.feature_set()?;
        Some(Weights {
            game: game.describe(),
            feature_set: set.name.to_string(),
            feature_version: set.version,
            note: String::new(),
            value_bias: 0.0,
            value: vec![0.0; set.position as usize],
            policy: vec![0.0; set.moves as usize],
        })
    }

    /// Whether these weights are for `game`'s configuration and features;
    /// the error says what differs.
    pub fn check<G: Game>(&self, game: &G) -> Result<(), String> {
        let describe = game.describe();
        if self.game != describe {
            return Err(format!(
                "the weights are for '{}', not '{describe}'",
                self.game
            ));
        }
        let Some(set) = game.feature_set() else {
            return Err(format!("{describe} has no features to weigh"));
        };
        let expected = FeatureSet {
            name: set.name,
            version: set.version,
            position: self.value.len() as u32,
            moves: self.policy.len() as u32,
        };
        if set != expected || self.feature_set != set.name {
            return Err(format!(
                "the weights are for features {} v{} ({} + {}), the engine has {} v{} ({} + {})",
                self.feature_set,
                self.feature_version,
                self.value.len(),
                self.policy.len(),
                set.name,
                set.version,
                set.position,
                set.moves
            ));
        }
        Ok(())
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(MAGIC);
        put_u32(&mut out, FORMAT);
        put_text(&mut out, &self.game);
        put_text(&mut out, &self.feature_set);
        put_u32(&mut out, self.feature_version);
        put_text(&mut out, &self.note);
        put_u32(&mut out, self.value.len() as u32);
        put_u32(&mut out, self.policy.len() as u32);
        out.extend_from_slice(&self.value_bias.to_le_bytes());
        for w in self.value.iter().chain(&self.policy) {
            out.extend_from_slice(&w.to_le_bytes());
        }
        let sum = checksum(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    pub fn from_bytes(bytes: &[u8]) -> Result<Weights, String> {
        if bytes.len() > MAX_BYTES {
            return Err(format!(
                "{} bytes is more than a weight file holds ({MAX_BYTES})",
                bytes.len()
            ));
        }
        if bytes.len() < 12 || &bytes[..4] != MAGIC {
            return Err("not a quintet weight file (no QWTS header)".into());
        }
        let (body, tail) = bytes.split_at(bytes.len() - 8);
        let stored = u64::from_le_bytes(tail.try_into().expect("8 bytes"));
        if checksum(body) != stored {
            return Err("the weight file is damaged (checksum mismatch)".into());
        }
        let mut r = Reader { bytes: body, at: 4 };
        let format = r.u32()?;
        if format != FORMAT {
            return Err(format!(
                "weight file format {format} is not the engine's ({FORMAT})"
            ));
        }
        let game = r.text()?;
        let feature_set = r.text()?;
        let feature_version = r.u32()?;
        let note = r.text()?;
        let (v, p) = (r.u32()? as usize, r.u32()? as usize);
        let value_bias = r.f32()?;
        if (v + p) * 4 > r.left() {
            return Err("the weight file is shorter than its counts say".into());
        }
        let value = (0..v).map(|_| r.f32()).collect::<Result<Vec<_>, _>>()?;
        let policy = (0..p).map(|_| r.f32()).collect::<Result<Vec<_>, _>>()?;
        if r.left() != 0 {
            return Err("the weight file has bytes after its weights".into());
        }
        if !value_bias.is_finite() || value.iter().chain(&policy).any(|w| !w.is_finite()) {
            return Err("the weight file holds a weight that is not a finite number".into());
        }
        Ok(Weights {
            game,
            feature_set,
            feature_version,
            note,
            value_bias,
            value,
            policy,
        })
    }

    pub fn read(path: &Path) -> Result<Weights, String> {
        let size = std::fs::metadata(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?
            .len();
        if size > MAX_BYTES as u64 {
            return Err(format!(
                "{} has {size} bytes, more than a weight file holds ({MAX_BYTES})",
                path.display()
            ));
        }
        let bytes =
            std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        Weights::from_bytes(&bytes).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// Writes the file whole or not at all (through a temporary file).
    pub fn write(&self, path: &Path) -> Result<(), String> {
        let bytes = self.to_bytes();
        if bytes.len() > MAX_BYTES {
            return Err(format!(
                "the weights take {} bytes, more than {MAX_BYTES}",
                bytes.len()
            ));
        }
        let temporary = path.with_extension("tmp");
        std::fs::write(&temporary, &bytes)
            .and_then(|_| std::fs::rename(&temporary, path))
            .map_err(|e| format!("cannot write {}: {e}", path.display()))
    }
}

fn put_u32(out: &mut Vec<u8>, v: u32) {
    out.extend_from_slice(&v.to_le_bytes());
}

fn put_text(out: &mut Vec<u8>, text: &str) {
    put_u32(out, text.len() as u32);
    out.extend_from_slice(text.as_bytes());
}

/// FNV-1a over the bytes, then a final mix (catches truncation and flips).
fn checksum(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h = (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3);
    }
    crate::games::zobrist::mix64(h)
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn left(&self) -> usize {
        self.bytes.len() - self.at
    }

    fn take(&mut self, n: usize) -> Result<&[u8], String> {
        if n > self.left() {
            return Err("the weight file ends early".into());
        }
        let slice = &self.bytes[self.at..self.at + n];
        self.at += n;
        Ok(slice)
    }

    fn u32(&mut self) -> Result<u32, String> {
        Ok(u32::from_le_bytes(self.take(4)?.try_into().expect("4")))
    }

    fn f32(&mut self) -> Result<f32, String> {
        Ok(f32::from_le_bytes(self.take(4)?.try_into().expect("4")))
    }

    fn text(&mut self) -> Result<String, String> {
        let n = self.u32()? as usize;
        let bytes = self.take(n)?;
        String::from_utf8(bytes.to_vec())
            .map_err(|_| "a text in the weight file is not UTF-8".into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Weights {
        Weights {
            game: "hadron size=7".into(),
            feature_set: "hadron".into(),
            feature_version: 3,
            note: "test".into(),
            value_bias: -0.25,
            value: vec![0.5, -1.0],
            policy: vec![1.5, 0.0, 2.0],
        }
    }

    #[test]
    fn round_trip_and_damage() {
        let w = sample();
        let bytes = w.to_bytes();
        assert_eq!(Weights::from_bytes(&bytes).unwrap(), w);
        for cut in [0, 3, 11, bytes.len() - 1] {
            assert!(Weights::from_bytes(&bytes[..cut]).is_err(), "cut at {cut}");
        }
        let mut flipped = bytes.clone();
        flipped[30] ^= 1;
        let err = Weights::from_bytes(&flipped).unwrap_err();
        assert!(err.contains("checksum"), "{err}");
        assert!(Weights::from_bytes(b"hello world, not weights").is_err());
    }
}

//! Weight files: the learned weights of one game configuration over its
//! feature set, in a small binary file (little-endian):
//!
//! ```text
//! "QWTS"  u32 format (1: linear value, 2: with a hidden layer)
//! text    game configuration, as `Game::describe` ("hadron size=7")
//! text    feature set name, u32 feature set version
//! text    note (how the weights were made)
//! u32     value weights V, u32 policy weights P
//! f32     value bias, V value weights, P policy weights
//! format 2 only:
//! u32     hidden width H (1 to 64)
//! f32     H hidden biases, V x H input weights (feature-major), H output weights
//! u64     checksum of everything before it
//! ```
//!
//! A text is a u32 byte length and that many UTF-8 bytes. Weights without
//! a hidden layer are written in format 1, so the files made before it
//! exist stay byte for byte the same.

use crate::games::{FeatureSet, Game};
use std::path::Path;

const MAGIC: &[u8; 4] = b"QWTS";
const LINEAR_FORMAT: u32 = 1;
const LAYERED_FORMAT: u32 = 2;
/// The widest hidden layer a file may hold (the forward pass keeps its
/// activations on the stack).
pub const MAX_HIDDEN: usize = 64;
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
    /// The value's hidden layer; empty (width 0) for a linear value.
    pub hidden: Hidden,
}

/// A hidden layer of rectified units over the position's features, added
/// to the value's logit: what the linear terms cannot express (features
/// that matter only together) is theirs to learn.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Hidden {
    pub width: usize,
    /// One bias per unit.
    pub bias: Vec<f32>,
    /// Feature-major: the `width` weights of feature `f` start at `f * width`.
    pub inputs: Vec<f32>,
    /// Each unit's weight in the value's logit.
    pub output: Vec<f32>,
}

impl Hidden {
    /// A layer of `width` units over `features` features, its weights small
    /// and random from `seed` (all-zero units would all learn alike).
    pub fn random(width: usize, features: usize, seed: u64) -> Hidden {
        use rand::{Rng, SeedableRng};
        let mut rng = crate::games::GameRng::seed_from_u64(seed ^ 0x6869_6464_656e);
        // Uniform in (-scale, scale), from the top 24 bits of a draw.
        let mut small = |scale: f32| {
            let unit = (rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32;
            (2.0 * unit - 1.0) * scale
        };
        let inputs = (0..width * features).map(|_| small(0.1)).collect();
        let output = (0..width).map(|_| small(0.1)).collect();
        Hidden {
            width,
            bias: vec![0.0; width],
            inputs,
            output,
        }
    }

    /// Whether there is no layer (a linear value).
    pub fn is_empty(&self) -> bool {
        self.width == 0
    }

    /// Each unit's input sum for `features` into `sums` (its first `width`
    /// entries).
    #[inline]
    pub fn sums(&self, features: &[u32], sums: &mut [f32]) {
        let sums = &mut sums[..self.width];
        sums.copy_from_slice(&self.bias);
        for &f in features {
            let start = f as usize * self.width;
            for (s, w) in sums.iter_mut().zip(&self.inputs[start..start + self.width]) {
                *s += w;
            }
        }
    }

    /// The layer's part of the value logit, given the unit sums.
    #[inline]
    pub fn logit(&self, sums: &[f32]) -> f32 {
        sums[..self.width]
            .iter()
            .zip(&self.output)
            .map(|(&s, &o)| s.max(0.0) * o)
            .sum()
    }
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
            hidden: Hidden::default(),
        })
    }

    /// The value logit of a position given its features (the side to
    /// move's chance to win is its logistic function); `sums` receives the
    /// hidden units' input sums, at least `hidden.width` long.
    #[inline]
    pub fn value_logit_with(&self, features: &[u32], sums: &mut [f32]) -> f32 {
        let linear = self.linear_value_logit(features);
        if self.hidden.is_empty() {
            return linear;
        }
        self.hidden.sums(features, sums);
        linear + self.hidden.logit(sums)
    }

    /// The value logit of a position given its features. A linear value
    /// (every game but those with a layer) needs no buffer for unit sums.
    #[inline]
    pub fn value_logit(&self, features: &[u32]) -> f32 {
        if self.hidden.is_empty() {
            return self.linear_value_logit(features);
        }
        let mut sums = [0.0f32; MAX_HIDDEN];
        self.value_logit_with(features, &mut sums)
    }

    /// The bias plus the features' weights.
    #[inline]
    fn linear_value_logit(&self, features: &[u32]) -> f32 {
        self.value_bias
            + features
                .iter()
                .map(|&f| self.value[f as usize])
                .sum::<f32>()
    }

    /// The policy logit of a move given its features.
    #[inline]
    pub fn move_logit(&self, features: &[u32]) -> f32 {
        features.iter().map(|&f| self.policy[f as usize]).sum()
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
        let format = if self.hidden.is_empty() {
            LINEAR_FORMAT
        } else {
            LAYERED_FORMAT
        };
        put_u32(&mut out, format);
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
        if !self.hidden.is_empty() {
            let h = &self.hidden;
            put_u32(&mut out, h.width as u32);
            for w in h.bias.iter().chain(&h.inputs).chain(&h.output) {
                out.extend_from_slice(&w.to_le_bytes());
            }
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
        if format != LINEAR_FORMAT && format != LAYERED_FORMAT {
            return Err(format!(
                "weight file format {format} is not one the engine reads ({LINEAR_FORMAT} or {LAYERED_FORMAT})"
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
        let hidden = if format == LAYERED_FORMAT {
            read_hidden(&mut r, v)?
        } else {
            Hidden::default()
        };
        if r.left() != 0 {
            return Err("the weight file has bytes after its weights".into());
        }
        let all = value.iter().chain(&policy).chain(&hidden.bias);
        let all = all.chain(&hidden.inputs).chain(&hidden.output);
        if !value_bias.is_finite() || all.into_iter().any(|w| !w.is_finite()) {
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
            hidden,
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

/// The hidden layer of a format-2 file over `features` value features.
fn read_hidden(r: &mut Reader, features: usize) -> Result<Hidden, String> {
    let width = r.u32()? as usize;
    if !(1..=MAX_HIDDEN).contains(&width) {
        return Err(format!(
            "the weight file's hidden layer has {width} units (1 to {MAX_HIDDEN} are read)"
        ));
    }
    if (width * (features + 2)) * 4 > r.left() {
        return Err("the weight file is shorter than its hidden layer".into());
    }
    let mut floats = |n: usize| (0..n).map(|_| r.f32()).collect::<Result<Vec<_>, _>>();
    Ok(Hidden {
        width,
        bias: floats(width)?,
        inputs: floats(width * features)?,
        output: floats(width)?,
    })
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
            hidden: Hidden::default(),
        }
    }

    fn layered() -> Weights {
        Weights {
            hidden: Hidden {
                width: 2,
                bias: vec![0.5, -0.5],
                inputs: vec![1.0, 2.0, -3.0, 0.25],
                output: vec![2.0, -1.0],
            },
            ..sample()
        }
    }

    #[test]
    fn a_linear_file_keeps_format_1_and_a_layered_one_round_trips() {
        let linear = sample().to_bytes();
        assert_eq!(u32::from_le_bytes(linear[4..8].try_into().unwrap()), 1);
        let w = layered();
        let bytes = w.to_bytes();
        assert_eq!(u32::from_le_bytes(bytes[4..8].try_into().unwrap()), 2);
        assert_eq!(Weights::from_bytes(&bytes).unwrap(), w);
        for cut in [bytes.len() - 9, bytes.len() - 20] {
            assert!(Weights::from_bytes(&bytes[..cut]).is_err(), "cut at {cut}");
        }
    }

    #[test]
    fn the_hidden_layer_adds_its_rectified_units_to_the_logit() {
        let w = layered();
        // Feature 0: linear 0.5 - 0.25 (bias); units 0.5 + 1 = 1.5 and
        // -0.5 + 2 = 1.5, so 2 * 1.5 - 1 * 1.5 = 1.5 more.
        assert!((w.value_logit(&[0]) - 1.75).abs() < 1e-6);
        // Feature 1: linear -1 - 0.25; units 0.5 - 3 (off) and -0.5 + 0.25
        // (off): nothing more.
        assert!((w.value_logit(&[1]) + 1.25).abs() < 1e-6);
        assert_eq!(sample().value_logit(&[0, 1]), -0.75);
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

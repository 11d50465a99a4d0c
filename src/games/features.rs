//! What a game tells a learned model (`model`): sparse binary features of a
//! position and of each legal move, written as feature indices. An index
//! may be written more than once; it then counts that many times (a count
//! of local patterns over the board is one index per occurrence).
//!
//! Also the shared pieces games build their features from: pattern tables
//! that give the patterns of a ring of cells one id per symmetry class, and
//! small bucketing helpers.

use std::collections::HashMap;

/// The features a game describes: a name and version that weight files are
/// checked against, and how many position and move features there are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FeatureSet {
    pub name: &'static str,
    pub version: u32,
    pub position: u32,
    pub moves: u32,
}

/// One row of feature indices per move, in one flat buffer.
#[derive(Clone, Debug, Default)]
pub struct FeatureRows {
    indices: Vec<u32>,
    ends: Vec<u32>,
}

impl FeatureRows {
    pub fn clear(&mut self) {
        self.indices.clear();
        self.ends.clear();
    }

    /// Adds an index to the row being written.
    #[inline]
    pub fn push(&mut self, index: u32) {
        self.indices.push(index);
    }

    /// Ends the row being written (the next push starts the next move's).
    #[inline]
    pub fn end_row(&mut self) {
        self.ends.push(self.indices.len() as u32);
    }

    /// Rows ended so far.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// The indices of row `i`.
    #[inline]
    pub fn row(&self, i: usize) -> &[u32] {
        let start = if i == 0 { 0 } else { self.ends[i - 1] as usize };
        &self.indices[start..self.ends[i] as usize]
    }
}

/// Hands out consecutive index ranges, one per kind of feature, so a game
/// lays out its features in one place.
#[derive(Clone, Copy, Debug, Default)]
pub struct Layout {
    next: u32,
}

impl Layout {
    pub const fn new() -> Layout {
        Layout { next: 0 }
    }

    /// A block of `len` indices: its first index, and the layout after it.
    pub const fn block(self, len: u32) -> (u32, Layout) {
        (
            self.next,
            Layout {
                next: self.next + len,
            },
        )
    }

    pub const fn size(self) -> u32 {
        self.next
    }
}

/// `value` clamped into `lo..=hi`, shifted to start at 0.
#[inline]
pub fn clamp_bucket(value: i32, lo: i32, hi: i32) -> u32 {
    (value.clamp(lo, hi) - lo) as u32
}

/// A bucket of a non-negative count: exact below `exact`, then one bucket
/// per doubling, `buckets` in all (the last holds everything above).
#[inline]
pub fn log_bucket(value: u32, exact: u32, buckets: u32) -> u32 {
    if value < exact {
        return value.min(buckets - 1);
    }
    let extra = 32 - (value / exact).leading_zeros();
    (exact - 1 + extra).min(buckets - 1)
}

/// The patterns of a ring of cells around a centre, each cell in one of
/// `states` states, numbered by symmetry class: two patterns that one of
/// the given symmetries (permutations of the ring) maps onto each other
/// share an id.
#[derive(Debug)]
pub struct PatternTable {
    states: u32,
    cells: usize,
    /// The class id of each raw pattern (sum of state_i * states^i).
    class: Vec<u32>,
    classes: u32,
}

impl PatternTable {
    /// `symmetries[k][i]` is the ring position whose state position `i`
    /// takes under symmetry `k` (the identity need not be listed).
    pub fn new(cells: usize, states: u32, symmetries: &[Vec<usize>]) -> PatternTable {
        let base = states as usize;
        let raw_count = base.pow(cells as u32);
        let mut class = vec![u32::MAX; raw_count];
        let mut ids: HashMap<usize, u32> = HashMap::new();
        let mut digits = vec![0usize; cells];
        for (raw, slot) in class.iter_mut().enumerate() {
            let mut rest = raw;
            for d in digits.iter_mut() {
                *d = rest % base;
                rest /= base;
            }
            let mut canonical = raw;
            for perm in symmetries {
                let image = perm.iter().rev().fold(0, |acc, &p| acc * base + digits[p]);
                canonical = canonical.min(image);
            }
            let next = ids.len() as u32;
            *slot = *ids.entry(canonical).or_insert(next);
        }
        PatternTable {
            states,
            cells,
            class,
            classes: ids.len() as u32,
        }
    }

    /// The dihedral symmetries of a ring of `cells` positions listed in
    /// rotational order, where one rotation of the board moves every
    /// position `step` places on (8 neighbours of a square: step 2; 6 of a
    /// hexagon or 4 orthogonal neighbours: step 1).
    pub fn dihedral(cells: usize, step: usize) -> Vec<Vec<usize>> {
        let mut syms = Vec::new();
        for turn in (0..cells).step_by(step) {
            syms.push((0..cells).map(|i| (i + turn) % cells).collect());
            syms.push((0..cells).map(|i| (cells + turn - i) % cells).collect());
        }
        syms
    }

    /// The number of classes (ids run from 0 to this).
    pub fn classes(&self) -> u32 {
        self.classes
    }

    /// The class of a raw pattern: the sum of state_i * states^i.
    #[inline]
    pub fn class_of(&self, raw: usize) -> u32 {
        self.class[raw]
    }

    /// The class of the pattern whose ring position `i` is in state
    /// `state(i)`.
    #[inline]
    pub fn id(&self, state: impl Fn(usize) -> u32) -> u32 {
        let mut raw = 0usize;
        for i in (0..self.cells).rev() {
            raw = raw * self.states as usize + state(i) as usize;
        }
        self.class[raw]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_hold_their_indices() {
        let mut rows = FeatureRows::default();
        rows.push(3);
        rows.push(3);
        rows.end_row();
        rows.end_row();
        rows.push(7);
        rows.end_row();
        assert_eq!(rows.len(), 3);
        assert_eq!(rows.row(0), &[3, 3]);
        assert!(rows.row(1).is_empty());
        assert_eq!(rows.row(2), &[7]);
    }

    #[test]
    fn buckets() {
        assert_eq!(clamp_bucket(-9, -3, 3), 0);
        assert_eq!(clamp_bucket(2, -3, 3), 5);
        let b: Vec<u32> = [0, 1, 3, 4, 7, 8, 15, 16, 1000]
            .iter()
            .map(|&v| log_bucket(v, 4, 7))
            .collect();
        assert_eq!(b, vec![0, 1, 3, 4, 4, 5, 5, 6, 6]);
    }

    #[test]
    fn pattern_classes_follow_the_symmetries() {
        // Hexagon ring, 2 states: the necklaces of 6 beads under rotation
        // and reflection (bracelets) number 13.
        let hex = PatternTable::new(6, 2, &PatternTable::dihedral(6, 1));
        assert_eq!(hex.classes(), 13);
        // Square ring of 8, 2 states, under the 8 symmetries of a square.
        let square = PatternTable::new(8, 2, &PatternTable::dihedral(8, 2));
        let one_side = square.id(|i| (i == 0) as u32);
        assert_eq!(one_side, square.id(|i| (i == 2) as u32), "rotation");
        assert_eq!(one_side, square.id(|i| (i == 4) as u32), "mirror");
        assert_ne!(one_side, square.id(|i| (i == 1) as u32), "corner differs");
        // Without symmetries every pattern is its own class.
        assert_eq!(PatternTable::new(3, 3, &[]).classes(), 27);
    }
}

//! MCTS statistics per position (a transposition table for MCTS): the
//! visits and rewards of a position gathered along every path that reaches
//! it, so moves that transpose share what was learned. Entries are two
//! atomic words stored "key xor data"; two-way buckets keep the entry with
//! more visits. Threads may lose an update in a race, which only makes the
//! statistics a little noisier.

use std::sync::atomic::{AtomicU64, Ordering};

const RELAXED: Ordering = Ordering::Relaxed;

#[derive(Default)]
struct Slot {
    key: AtomicU64,
    data: AtomicU64,
}

pub struct PositionStats {
    slots: Vec<Slot>,
}

/// Visits in the low half, the first seat's summed reward in the high half.
fn pack(visits: u32, p1_score: u32) -> u64 {
    visits as u64 | (p1_score as u64) << 32
}

fn unpack(data: u64) -> (u32, u32) {
    (data as u32, (data >> 32) as u32)
}

impl PositionStats {
    pub fn new(megabytes: usize) -> Self {
        let count = ((megabytes << 20) / std::mem::size_of::<Slot>()).max(2) & !1;
        let mut slots = Vec::with_capacity(count);
        slots.resize_with(count, Slot::default);
        PositionStats { slots }
    }

    pub fn clear(&self) {
        for slot in &self.slots {
            slot.key.store(0, RELAXED);
            slot.data.store(0, RELAXED);
        }
    }

    #[inline]
    fn bucket(&self, key: u64) -> usize {
        (((key as u128 * (self.slots.len() / 2) as u128) >> 64) as usize) * 2
    }

    /// The two-slot bucket of `key`.
    #[inline]
    fn pair(&self, key: u64) -> &[Slot] {
        let first = self.bucket(key);
        &self.slots[first..first + 2]
    }

    /// The slot of `pair` holding `key`, with its (visits, p1 score).
    #[inline]
    fn find(pair: &[Slot], key: u64) -> Option<(usize, (u32, u32))> {
        pair.iter().enumerate().find_map(|(i, slot)| {
            let data = slot.data.load(RELAXED);
            (slot.key.load(RELAXED) ^ data == key).then(|| (i, unpack(data)))
        })
    }

    /// (visits, first seat's summed reward) of a position, if recorded.
    #[inline]
    pub fn get(&self, key: u64) -> Option<(u32, u32)> {
        Self::find(self.pair(key), key).map(|(_, stats)| stats)
    }

    /// Adds one visit worth `p1_points` for the first seat.
    #[inline]
    pub fn add(&self, key: u64, p1_points: u32) {
        let pair = self.pair(key);
        let (index, (visits, score)) = Self::find(pair, key).unwrap_or_else(|| {
            // Replace the entry with fewer visits.
            let visits = |s: &Slot| unpack(s.data.load(RELAXED)).0;
            let index = if visits(&pair[0]) <= visits(&pair[1]) {
                0
            } else {
                1
            };
            (index, (0, 0))
        });
        let data = pack(visits.saturating_add(1), score.saturating_add(p1_points));
        pair[index].data.store(data, RELAXED);
        pair[index].key.store(key ^ data, RELAXED);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accumulates_per_position() {
        let table = PositionStats::new(1);
        table.add(12345, 8);
        table.add(12345, 0);
        table.add(999, 4);
        assert_eq!(table.get(12345), Some((2, 8)));
        assert_eq!(table.get(999), Some((1, 4)));
        assert_eq!(table.get(7), None);
        table.clear();
        assert_eq!(table.get(12345), None);
    }
}

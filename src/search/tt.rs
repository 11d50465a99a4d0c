//! A transposition table keyed by Zobrist hashes: buckets of four entries
//! (one 64-byte cache line), each entry two atomic words stored "key xor
//! data" so that threads may share it without locks (a torn entry simply
//! fails its key check).

use super::memory::{Table, Zeroable};
use std::sync::atomic::{AtomicU64, Ordering};

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Bound {
    Exact = 1,
    Lower = 2,
    Upper = 3,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub mv: u32,
    pub score: i16,
    pub depth: u8,
    pub bound: Bound,
}

const ENTRIES_PER_BUCKET: usize = 4;

#[repr(align(64))]
#[derive(Default)]
struct Bucket([[AtomicU64; 2]; ENTRIES_PER_BUCKET]);

// SAFETY: eight atomic u64s; all zero is an empty bucket.
unsafe impl Zeroable for Bucket {}

/// Bytes of one bucket of four entries (16 bytes an entry).
pub const BUCKET_BYTES: usize = std::mem::size_of::<Bucket>();

pub struct TranspositionTable {
    buckets: Table<Bucket>,
    age: u8,
    /// Mixed into every key: the game history's salt of the current
    /// search (see [`TranspositionTable::new_search`]).
    salt: u64,
}

fn pack(entry: &Entry, age: u8) -> u64 {
    entry.mv as u64
        | (entry.score as u16 as u64) << 32
        | (entry.depth as u64) << 48
        | (entry.bound as u64) << 56
        | ((age & 0x3f) as u64) << 58
}

fn unpack(data: u64) -> Option<(Entry, u8)> {
    let bound = match (data >> 56) & 3 {
        1 => Bound::Exact,
        2 => Bound::Lower,
        3 => Bound::Upper,
        _ => return None,
    };
    Some((
        Entry {
            mv: data as u32,
            score: (data >> 32) as u16 as i16,
            depth: (data >> 48) as u8,
            bound,
        },
        (data >> 58) as u8,
    ))
}

impl TranspositionTable {
    /// A table of `megabytes` MiB (or less, with a warning, when the
    /// system refuses that much).
    pub fn new(megabytes: usize) -> (Self, Option<String>) {
        let (buckets, warning) = Table::within(megabytes.max(1) << 20, 1);
        (
            TranspositionTable {
                buckets,
                age: 0,
                salt: 0,
            },
            warning,
        )
    }

    pub fn bytes(&self) -> usize {
        self.buckets.bytes()
    }

    /// Empties the table: a fresh zeroed allocation, which costs nothing
    /// now and gives the old pages back (writing zeros over a big table
    /// would take a noticeable time).
    pub fn clear(&mut self) {
        let (buckets, _) = Table::within(self.buckets.bytes(), 1);
        self.buckets = buckets;
        self.age = 0;
    }

    /// Marks entries of earlier searches as older (preferred for
    /// replacement). `history_salt` is the root's
    /// [`Game::history_salt`](crate::games::Game::history_salt): a score
    /// holds only for the game history it was searched under (which
    /// positions a third occurrence draws), so entries of another history
    /// are not found.
    pub fn new_search(&mut self, history_salt: u64) {
        self.age = (self.age + 1) & 0x3f;
        self.salt = history_salt;
    }

    #[inline]
    fn bucket(&self, key: u64) -> &Bucket {
        let index = ((key as u128 * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[index]
    }

    pub fn probe(&self, key: u64) -> Option<Entry> {
        let key = key ^ self.salt;
        for slot in &self.bucket(key).0 {
            let data = slot[1].load(Ordering::Relaxed);
            if slot[0].load(Ordering::Relaxed) ^ data == key {
                return unpack(data).map(|(entry, _)| entry);
            }
        }
        None
    }

    pub fn store(&self, key: u64, entry: Entry) {
        let key = key ^ self.salt;
        let bucket = self.bucket(key);
        let mut victim = 0;
        let mut victim_worth = i32::MAX;
        for (i, slot) in bucket.0.iter().enumerate() {
            let data = slot[1].load(Ordering::Relaxed);
            let stored_key = slot[0].load(Ordering::Relaxed) ^ data;
            let Some((old, age)) = unpack(data) else {
                victim = i;
                break;
            };
            if stored_key == key {
                // Keep a deeper result of the same search for this position.
                if old.depth > entry.depth && age == self.age && entry.bound != Bound::Exact {
                    return;
                }
                victim = i;
                break;
            }
            let staleness = ((self.age as i32 - age as i32) & 0x3f) * 8;
            let worth = old.depth as i32 - staleness;
            if worth < victim_worth {
                victim_worth = worth;
                victim = i;
            }
        }
        let data = pack(&entry, self.age);
        let slot = &bucket.0[victim];
        slot[0].store(key ^ data, Ordering::Relaxed);
        slot[1].store(data, Ordering::Relaxed);
    }

    /// Permille of the first thousand buckets' entries written this search.
    pub fn hashfull(&self) -> u32 {
        let sample = self.buckets.len().min(250);
        let mut used = 0;
        for bucket in &self.buckets[..sample] {
            for slot in &bucket.0 {
                if let Some((_, age)) = unpack(slot[1].load(Ordering::Relaxed)) {
                    used += (age == self.age) as u32;
                }
            }
        }
        used * 1000 / (sample * ENTRIES_PER_BUCKET).max(1) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_finds_entries() {
        let (tt, _) = TranspositionTable::new(1);
        let entry = Entry {
            mv: 0xdead_beef,
            score: -12345,
            depth: 7,
            bound: Bound::Lower,
        };
        tt.store(42, entry);
        assert_eq!(tt.probe(42), Some(entry));
        assert_eq!(tt.probe(43), None);
        let deeper = Entry { depth: 9, ..entry };
        tt.store(42, deeper);
        assert_eq!(tt.probe(42), Some(deeper));
    }

    #[test]
    fn entries_of_another_history_are_not_found() {
        let (mut tt, _) = TranspositionTable::new(1);
        let entry = Entry {
            mv: 7,
            score: 300,
            depth: 9,
            bound: Bound::Exact,
        };
        tt.new_search(0);
        tt.store(42, entry);
        tt.new_search(0x5eed);
        assert_eq!(
            tt.probe(42),
            None,
            "a history with other repeated positions"
        );
        tt.new_search(0);
        assert_eq!(tt.probe(42), Some(entry), "the first history again");
    }

    #[test]
    fn a_full_bucket_replaces_the_shallowest() {
        let (tt, _) = TranspositionTable::new(1);
        let n = tt.buckets.len() as u128;
        // Keys that land in bucket 0: key * n < 2^64.
        let keys: Vec<u64> = (1..=5u64).collect();
        assert!(keys.iter().all(|&k| (k as u128 * n) >> 64 == 0));
        for (i, &k) in keys.iter().take(4).enumerate() {
            let depth = [5, 1, 7, 3][i];
            tt.store(
                k,
                Entry {
                    mv: 0,
                    score: 0,
                    depth,
                    bound: Bound::Exact,
                },
            );
        }
        tt.store(
            5,
            Entry {
                mv: 0,
                score: 0,
                depth: 4,
                bound: Bound::Exact,
            },
        );
        assert!(tt.probe(2).is_none(), "depth 1 entry replaced");
        for k in [1, 3, 4, 5] {
            assert!(tt.probe(k).is_some());
        }
    }
}

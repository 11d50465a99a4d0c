//! The proof table: a fixed-size hash table of proof and disproof numbers,
//! shared by threads without locks.
//!
//! Each slot is three atomic words, `key ^ a ^ b`, `a`, `b`: a reader
//! recomputes the key from what it read, so a slot torn by two writers
//! simply fails its check and reads as absent. A key probes a window of
//! four slots; a full window gives up its least valuable slot (the
//! smallest work, proven results counting double). The table never grows.

use std::sync::atomic::{AtomicU64, Ordering};

/// Proof numbers at or above this are "infinite" (proven or disproven).
pub const INF: u32 = u32::MAX;

/// What the table keeps about one position, from the side to move's view:
/// `phi` is the effort left to prove that the side to move reaches its
/// goal, `delta` the effort left to disprove it. `phi == 0`: proven;
/// `delta == 0`: disproven.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub phi: u32,
    pub delta: u32,
    /// Nodes spent on this position (saturating): the replacement value.
    pub work: u32,
    /// On a proven or disproven entry, the length in plies of the proof
    /// found (an upper bound on the winner's distance to the end).
    pub plies: u16,
}

impl Entry {
    pub fn is_final(&self) -> bool {
        self.phi == 0 || self.delta == 0
    }
}

const WINDOW: usize = 4;

#[derive(Default)]
struct Slot([AtomicU64; 3]);

/// A bounded, thread-shared table of proof results.
pub struct ProofTable {
    slots: Vec<Slot>,
}

fn pack(entry: &Entry) -> (u64, u64) {
    (
        entry.phi as u64 | (entry.delta as u64) << 32,
        entry.work as u64 | (entry.plies as u64) << 32,
    )
}

fn unpack(a: u64, b: u64) -> Entry {
    Entry {
        phi: a as u32,
        delta: (a >> 32) as u32,
        work: b as u32,
        plies: (b >> 32) as u16,
    }
}

/// How much a slot is worth keeping.
fn value_of(entry: &Entry) -> u64 {
    let work = entry.work as u64 + 1;
    if entry.is_final() { 2 * work } else { work }
}

impl ProofTable {
    /// A table of about `megabytes` MiB (at least one window of slots).
    pub fn new(megabytes: usize) -> Self {
        let bytes = megabytes.max(1) << 20;
        let count = (bytes / std::mem::size_of::<Slot>()).max(WINDOW);
        let mut slots = Vec::with_capacity(count);
        slots.resize_with(count, Slot::default);
        ProofTable { slots }
    }

    /// The table's size in bytes.
    pub fn bytes(&self) -> usize {
        self.slots.len() * std::mem::size_of::<Slot>()
    }

    pub fn clear(&self) {
        for slot in &self.slots {
            for word in &slot.0 {
                word.store(0, Ordering::Relaxed);
            }
        }
    }

    /// The first slot of a key's window (multiply-high: no division).
    #[inline]
    fn start(&self, key: u64) -> usize {
        ((key as u128 * (self.slots.len() - WINDOW + 1) as u128) >> 64) as usize
    }

    #[inline]
    fn read(&self, index: usize) -> (u64, Entry) {
        let slot = &self.slots[index];
        let check = slot.0[0].load(Ordering::Relaxed);
        let a = slot.0[1].load(Ordering::Relaxed);
        let b = slot.0[2].load(Ordering::Relaxed);
        (check ^ a ^ b, unpack(a, b))
    }

    #[inline]
    fn write(&self, index: usize, key: u64, entry: &Entry) {
        let (a, b) = pack(entry);
        let slot = &self.slots[index];
        slot.0[0].store(key ^ a ^ b, Ordering::Relaxed);
        slot.0[1].store(a, Ordering::Relaxed);
        slot.0[2].store(b, Ordering::Relaxed);
    }

    /// Asks the CPU to bring `key`'s window into cache: an expansion
    /// prefetches all its children's windows before reading any, so their
    /// cache misses overlap (one miss per child was 85% of `mid`'s time).
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let start = self.start(key);
            let first = self.slots[start].0.as_ptr() as *const i8;
            let last = self.slots[start + WINDOW - 1].0.as_ptr() as *const i8;
            // SAFETY: a prefetch is a hint that never faults or changes
            // memory; both pointers are inside `slots` anyway.
            unsafe {
                _mm_prefetch::<_MM_HINT_T0>(first);
                _mm_prefetch::<_MM_HINT_T0>(last);
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The entry stored for `key`, if any. Key 0 is never stored (an empty
    /// slot reads as key 0).
    pub fn get(&self, key: u64) -> Option<Entry> {
        let start = self.start(key);
        (start..start + WINDOW)
            .map(|i| self.read(i))
            .find(|(k, _)| *k == key && key != 0)
            .map(|(_, e)| e)
    }

    /// Stores `entry` for `key`, over its old entry or the least valuable
    /// slot of the window. A final result is never overwritten by a
    /// non-final one for the same key (another thread may have finished).
    pub fn put(&self, key: u64, entry: Entry) {
        if key == 0 {
            return;
        }
        let start = self.start(key);
        let mut victim = start;
        let mut victim_value = u64::MAX;
        for i in start..start + WINDOW {
            let (k, old) = self.read(i);
            if k == key {
                if old.is_final() && !entry.is_final() {
                    return;
                }
                self.write(i, key, &entry);
                return;
            }
            let value = if k == 0 { 0 } else { value_of(&old) };
            if value < victim_value {
                victim = i;
                victim_value = value;
            }
        }
        self.write(victim, key, &entry);
    }

    /// How many slots hold an entry (a sample of the first 4096), per mille.
    pub fn permille_used(&self) -> u32 {
        let sample = self.slots.len().min(4096);
        let used = (0..sample).filter(|&i| self.read(i).0 != 0).count();
        (used * 1000 / sample.max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(phi: u32, delta: u32, work: u32) -> Entry {
        Entry {
            phi,
            delta,
            work,
            plies: 3,
        }
    }

    #[test]
    fn stores_and_finds() {
        let table = ProofTable::new(1);
        table.put(42, entry(3, 4, 10));
        assert_eq!(table.get(42), Some(entry(3, 4, 10)));
        assert_eq!(table.get(43), None);
        table.put(42, entry(0, INF, 11));
        assert_eq!(table.get(42), Some(entry(0, INF, 11)));
        // A final entry is not replaced by a non-final one.
        table.put(42, entry(5, 5, 50));
        assert_eq!(table.get(42), Some(entry(0, INF, 11)));
    }

    #[test]
    fn stays_bounded_and_keeps_valuable_entries() {
        let table = ProofTable::new(1);
        let slots = table.bytes() / 24;
        // Far more keys than slots: the size never changes and lookups of
        // evicted keys fail cleanly.
        for key in 1..(4 * slots as u64) {
            table.put(key.wrapping_mul(0x9E37_79B9_7F4A_7C15), entry(1, 1, 1));
        }
        assert_eq!(table.bytes(), slots * 24);
        let heavy = 0xDEAD_BEEF_u64;
        table.put(heavy, entry(0, INF, 1_000_000));
        for key in 1..(4 * slots as u64) {
            table.put(key.wrapping_mul(0xC2B2_AE3D_27D4_EB4F), entry(1, 1, 1));
        }
        assert_eq!(table.get(heavy).map(|e| e.phi), Some(0));
        assert!(table.permille_used() > 900);
    }
}

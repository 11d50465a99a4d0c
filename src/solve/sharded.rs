//! A hash map in shards chosen by the key's hash, so that growing it
//! rehashes one shard, not everything: one insert into a plain map of a
//! million entries pauses for tens of milliseconds (a fresh table, its
//! pages touched for the first time, every entry moved), which a timed
//! search's proof or leaf cannot afford. The region solver's caches grow
//! that large over a game.

use fxhash::{FxHashMap, FxHasher};
use std::hash::{Hash, Hasher};

/// Shards per map: a resize moves at most a 64th of the entries.
const SHARDS: usize = 64;

/// Where the shard index is taken from the hash: away from the low bits
/// (a shard's buckets) and the top seven (its control bytes), so that the
/// keys of one shard still spread over its table.
const SHARD_SHIFT: u32 = 40;

#[derive(Debug)]
pub struct ShardedMap<K, V> {
    shards: Vec<FxHashMap<K, V>>,
    len: usize,
}

impl<K, V> Default for ShardedMap<K, V> {
    fn default() -> Self {
        ShardedMap {
            shards: (0..SHARDS).map(|_| FxHashMap::default()).collect(),
            len: 0,
        }
    }
}

impl<K: Hash + Eq, V> ShardedMap<K, V> {
    #[inline]
    fn shard(key: &K) -> usize {
        let mut hasher = FxHasher::default();
        key.hash(&mut hasher);
        (hasher.finish() >> SHARD_SHIFT) as usize % SHARDS
    }

    #[inline]
    pub fn get(&self, key: &K) -> Option<&V> {
        self.shards[Self::shard(key)].get(key)
    }

    #[inline]
    pub fn insert(&mut self, key: K, value: V) -> Option<V> {
        let old = self.shards[Self::shard(&key)].insert(key, value);
        if old.is_none() {
            self.len += 1;
        }
        old
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Empties every shard, keeping their memory.
    pub fn clear(&mut self) {
        self.shards.iter_mut().for_each(FxHashMap::clear);
        self.len = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn behaves_as_a_map() {
        let mut map = ShardedMap::default();
        let mut plain = FxHashMap::default();
        let mut x = 1u64;
        for i in 0..20_000u64 {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let key = (x >> 50, i % 7);
            assert_eq!(map.insert(key, i), plain.insert(key, i));
            assert_eq!(map.len(), plain.len());
        }
        for (key, value) in &plain {
            assert_eq!(map.get(key), Some(value));
        }
        assert_eq!(map.get(&(u64::MAX, 0)), None);
        // The keys spread over the shards.
        let used = map.shards.iter().filter(|s| !s.is_empty()).count();
        assert_eq!(used, SHARDS);
        map.clear();
        assert!(map.is_empty() && map.get(plain.keys().next().unwrap()).is_none());
    }
}

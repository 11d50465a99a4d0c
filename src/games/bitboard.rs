//! Fixed-width bit sets used as bitboards: `u64`, `u128` and `Wide<N>`
//! (N 64-bit words), behind one trait so a game can be written once and
//! instantiated at the narrowest width its board size allows.

use std::fmt::Debug;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Shl, Shr};

pub trait Bits:
    Copy
    + Eq
    + Debug
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + BitXorAssign
    + Not<Output = Self>
    + Shl<u32, Output = Self>
    + Shr<u32, Output = Self>
{
    const ZERO: Self;
    /// How many bits the set holds.
    const CAPACITY: usize;

    fn bit(index: usize) -> Self;
    fn test(self, index: usize) -> bool;
    fn count(self) -> u32;
    fn is_empty(self) -> bool {
        self == Self::ZERO
    }
    /// Index of the lowest set bit (the set must not be empty).
    fn lowest(self) -> usize;
    /// The set without its lowest bit.
    fn without_lowest(self) -> Self;
    /// Index of the `k`-th set bit, counting from 0 (k < count).
    fn select(self, k: u32) -> usize;

    /// Bits 0..128 as a `u128` (the rest dropped), and back.
    fn low_u128(self) -> u128;
    fn from_low_u128(low: u128) -> Self;

    /// The set of bits 0..n.
    fn first_n(n: usize) -> Self {
        let mut set = Self::ZERO;
        for i in 0..n {
            set |= Self::bit(i);
        }
        set
    }

    fn ones(self) -> BitIter<Self> {
        BitIter(self)
    }
}

/// Iterates the indices of set bits, lowest first.
pub struct BitIter<B>(B);

impl<B: Bits> Iterator for BitIter<B> {
    type Item = usize;
    #[inline]
    fn next(&mut self) -> Option<usize> {
        if self.0.is_empty() {
            None
        } else {
            let index = self.0.lowest();
            self.0 = self.0.without_lowest();
            Some(index)
        }
    }
}

/// Index of the k-th set bit of a word: halve the window three times by the
/// count of its lower half (selects, not branches: the outcome is random in
/// playouts), then look the bit up in its byte.
#[inline]
fn select_in_word(word: u64, k: u32) -> usize {
    let (mut word, mut k, mut base) = (word, k, 0u32);
    for half in [32u32, 16, 8] {
        let low = (word & ((1u64 << half) - 1)).count_ones();
        let upper = k >= low;
        word = if upper { word >> half } else { word };
        k -= if upper { low } else { 0 };
        base += if upper { half } else { 0 };
    }
    base as usize + SELECT_IN_BYTE[(word & 0xff) as usize][k as usize & 7] as usize
}

/// Per byte value and k < 8, the index of its k-th set bit (0 past them).
static SELECT_IN_BYTE: [[u8; 8]; 256] = {
    let mut table = [[0u8; 8]; 256];
    let mut byte = 0;
    while byte < 256 {
        let (mut bit, mut k) = (0, 0);
        while bit < 8 {
            if (byte >> bit) & 1 == 1 {
                table[byte][k] = bit as u8;
                k += 1;
            }
            bit += 1;
        }
        byte += 1;
    }
    table
};

/// The parts of `Bits` that a primitive integer has built in.
macro_rules! primitive_bits {
    ($t:ty) => {
        const ZERO: Self = 0;
        const CAPACITY: usize = <$t>::BITS as usize;
        #[inline]
        fn bit(index: usize) -> Self {
            1 << index
        }
        #[inline]
        fn test(self, index: usize) -> bool {
            (self >> index) & 1 != 0
        }
        #[inline]
        fn count(self) -> u32 {
            self.count_ones()
        }
        #[inline]
        fn lowest(self) -> usize {
            self.trailing_zeros() as usize
        }
        #[inline]
        fn without_lowest(self) -> Self {
            self & (self - 1)
        }
    };
}

impl Bits for u64 {
    primitive_bits!(u64);
    #[inline]
    fn low_u128(self) -> u128 {
        self as u128
    }
    #[inline]
    fn from_low_u128(low: u128) -> Self {
        low as u64
    }
    #[inline]
    fn select(self, k: u32) -> usize {
        select_in_word(self, k)
    }
}

impl Bits for u128 {
    primitive_bits!(u128);
    #[inline]
    fn low_u128(self) -> u128 {
        self
    }
    #[inline]
    fn from_low_u128(low: u128) -> Self {
        low
    }
    #[inline]
    fn select(self, k: u32) -> usize {
        let low_count = (self as u64).count_ones();
        // Selects, not a branch: which half it lands in is random.
        let upper = k >= low_count;
        let word = if upper {
            (self >> 64) as u64
        } else {
            self as u64
        };
        let k = if upper { k - low_count } else { k };
        (if upper { 64 } else { 0 }) + select_in_word(word, k)
    }
}

/// A bit set of `N` 64-bit words; bit i lives in word i / 64.
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub struct Wide<const N: usize>(pub [u64; N]);

impl<const N: usize> Debug for Wide<N> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Wide{:?}", self.ones().collect::<Vec<_>>())
    }
}

macro_rules! wide_binary_op {
    ($op:ident, $method:ident, $assign:ident, $assign_method:ident) => {
        impl<const N: usize> $assign for Wide<N> {
            #[inline]
            fn $assign_method(&mut self, rhs: Self) {
                for (word, r) in self.0.iter_mut().zip(rhs.0) {
                    $assign::$assign_method(word, r);
                }
            }
        }
        impl<const N: usize> $op for Wide<N> {
            type Output = Self;
            #[inline]
            fn $method(mut self, rhs: Self) -> Self {
                $assign::$assign_method(&mut self, rhs);
                self
            }
        }
    };
}

wide_binary_op!(BitAnd, bitand, BitAndAssign, bitand_assign);
wide_binary_op!(BitOr, bitor, BitOrAssign, bitor_assign);
wide_binary_op!(BitXor, bitxor, BitXorAssign, bitxor_assign);

impl<const N: usize> Not for Wide<N> {
    type Output = Self;
    #[inline]
    fn not(self) -> Self {
        Wide(self.0.map(|w| !w))
    }
}

impl<const N: usize> Shl<u32> for Wide<N> {
    type Output = Self;
    /// Towards higher indices.
    #[inline]
    fn shl(self, by: u32) -> Self {
        let words = (by / 64) as usize;
        let bits = by % 64;
        let mut out = [0u64; N];
        for i in (words..N).rev() {
            let src = i - words;
            let mut value = self.0[src] << bits;
            if bits > 0 && src > 0 {
                value |= self.0[src - 1] >> (64 - bits);
            }
            out[i] = value;
        }
        Wide(out)
    }
}

impl<const N: usize> Shr<u32> for Wide<N> {
    type Output = Self;
    /// Towards lower indices.
    #[inline]
    fn shr(self, by: u32) -> Self {
        let words = (by / 64) as usize;
        let bits = by % 64;
        let mut out = [0u64; N];
        for (i, slot) in out.iter_mut().enumerate().take(N.saturating_sub(words)) {
            let src = i + words;
            let mut value = self.0[src] >> bits;
            if bits > 0 && src + 1 < N {
                value |= self.0[src + 1] << (64 - bits);
            }
            *slot = value;
        }
        Wide(out)
    }
}

impl<const N: usize> Bits for Wide<N> {
    const ZERO: Self = Wide([0; N]);
    const CAPACITY: usize = 64 * N;
    #[inline]
    fn low_u128(self) -> u128 {
        let word = |i: usize| self.0.get(i).copied().unwrap_or(0) as u128;
        word(0) | word(1) << 64
    }
    #[inline]
    fn from_low_u128(low: u128) -> Self {
        let mut out = [0u64; N];
        for (i, word) in out.iter_mut().enumerate().take(2) {
            *word = (low >> (64 * i)) as u64;
        }
        Wide(out)
    }
    #[inline]
    fn bit(index: usize) -> Self {
        let mut out = [0u64; N];
        out[index / 64] = 1u64 << (index % 64);
        Wide(out)
    }
    #[inline]
    fn test(self, index: usize) -> bool {
        (self.0[index / 64] >> (index % 64)) & 1 != 0
    }
    #[inline]
    fn count(self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }
    #[inline]
    fn lowest(self) -> usize {
        for (i, w) in self.0.iter().enumerate() {
            if *w != 0 {
                return i * 64 + w.trailing_zeros() as usize;
            }
        }
        Self::CAPACITY
    }
    #[inline]
    fn without_lowest(self) -> Self {
        let mut out = self.0;
        for w in out.iter_mut() {
            if *w != 0 {
                *w &= *w - 1;
                break;
            }
        }
        Wide(out)
    }
    #[inline]
    fn select(self, mut k: u32) -> usize {
        for (i, w) in self.0.iter().enumerate() {
            let c = w.count_ones();
            if k < c {
                return i * 64 + select_in_word(*w, k);
            }
            k -= c;
        }
        Self::CAPACITY
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn select_finds_the_kth_set_bit_of_any_word() {
        let mut x = 0x2545_f491_4f6c_dd1du64;
        for round in 0..4000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            // Sparse, dense and random words.
            let word = match round % 3 {
                0 => x & x.rotate_left(17),
                1 => x | x.rotate_left(29),
                _ => x,
            };
            let ones: Vec<usize> = (0..64).filter(|&i| (word >> i) & 1 == 1).collect();
            for (k, &at) in ones.iter().enumerate() {
                assert_eq!(select_in_word(word, k as u32), at, "{word:#x} k {k}");
            }
            let wide = (word as u128) << 64 | x.rotate_left(5) as u128;
            let ones: Vec<usize> = (0..128).filter(|&i| (wide >> i) & 1 == 1).collect();
            for (k, &at) in ones.iter().enumerate() {
                assert_eq!(wide.select(k as u32), at);
            }
        }
    }

    fn check_width<B: Bits>() {
        let n = B::CAPACITY;
        let picks: Vec<usize> = (0..n).filter(|i| i % 7 == 3 || i % 11 == 0).collect();
        let mut set = B::ZERO;
        for &i in &picks {
            set |= B::bit(i);
        }
        assert_eq!(set.count() as usize, picks.len());
        assert_eq!(set.ones().collect::<Vec<_>>(), picks);
        for (k, &i) in picks.iter().enumerate() {
            assert_eq!(set.select(k as u32), i);
            assert!(set.test(i));
        }
        for shift in [1u32, 5, 63, 64, 65]
            .into_iter()
            .filter(|&s| (s as usize) < n)
        {
            let shifted: Vec<usize> = (set << shift).ones().collect();
            let expect: Vec<usize> = picks
                .iter()
                .map(|i| i + shift as usize)
                .filter(|i| *i < n)
                .collect();
            assert_eq!(shifted, expect, "shl {shift}");
            let shifted: Vec<usize> = (set >> shift).ones().collect();
            let expect: Vec<usize> = picks
                .iter()
                .filter(|i| **i >= shift as usize)
                .map(|i| i - shift as usize)
                .collect();
            assert_eq!(shifted, expect, "shr {shift}");
        }
        assert_eq!(B::first_n(10).count(), 10);
    }

    #[test]
    fn every_width_agrees_with_a_list_of_indices() {
        check_width::<u64>();
        check_width::<u128>();
        check_width::<Wide<4>>();
        check_width::<Wide<5>>();
    }
}

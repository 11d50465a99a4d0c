//! Zobrist keys without tables or global state.
//!
//! A key is a strong 64-bit mix of (game salt, feature number), so every
//! board size gets its keys for free and positions stay cheap to copy.

use super::Seat;
use super::bitboard::Bits;

/// The splitmix64 finaliser: a bijective, well-mixing function of 64 bits.
#[inline]
pub fn mix64(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The key of one feature (e.g. "red tile on cell 17") of one game.
#[inline]
/// The least key over `N` symmetric images of a position (its key up to
/// symmetry): image `sym`'s key is the XOR of `key_in_image(piece, sym)`
/// over the pieces, then `rest`, the part no symmetry moves (side to move,
/// counters).
pub fn least_image_key<P: Copy, const N: usize>(
    pieces: impl IntoIterator<Item = P>,
    key_in_image: impl Fn(P, usize) -> u64,
    rest: u64,
) -> u64 {
    let mut keys = [rest; N];
    for piece in pieces {
        for (sym, k) in keys.iter_mut().enumerate() {
            *k ^= key_in_image(piece, sym);
        }
    }
    keys.into_iter().min().unwrap_or(rest)
}

pub fn key(salt: u64, feature: u64) -> u64 {
    mix64(salt ^ feature.wrapping_mul(0xD6E8_FEB8_6659_FD93))
}

/// The key of `seat`'s stone on `cell`, for games whose state is the two
/// seats' stones and the side to move (Hadron, Ihex).
#[inline]
pub fn stone_key(salt: u64, seat: Seat, cell: usize) -> u64 {
    key(salt, 1 + (cell * 2 + seat.index()) as u64)
}

/// The key toggled when the second seat is to move.
#[inline]
pub fn side_key(salt: u64) -> u64 {
    key(salt, 0)
}

/// The full hash of such a game: every stone, and the side to move.
pub fn stones_hash<B: Bits>(salt: u64, stones: &[B; 2], to_move: Seat) -> u64 {
    let mut hash = 0;
    for seat in [Seat::P1, Seat::P2] {
        for cell in stones[seat.index()].ones() {
            hash ^= stone_key(salt, seat, cell);
        }
    }
    if to_move == Seat::P2 {
        hash ^= side_key(salt);
    }
    hash
}

/// Per-game salts, so equal feature numbers of different games differ.
pub mod salt {
    pub const HADRON: u64 = 0x4841_4452_4f4e_0001;
    pub const ATOMS: u64 = 0x4154_4f4d_5300_0002;
    pub const TRITIUM: u64 = 0x5452_4954_4955_0003;
    pub const IHEX: u64 = 0x4948_4558_0000_0004;
    pub const NADRAZ: u64 = 0x4e41_4452_415a_0005;
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn keys_are_distinct_across_features_and_games() {
        let mut seen = HashSet::new();
        for salt in [
            salt::HADRON,
            salt::ATOMS,
            salt::TRITIUM,
            salt::IHEX,
            salt::NADRAZ,
        ] {
            for feature in 0..10_000u64 {
                assert!(seen.insert(key(salt, feature)));
            }
        }
    }
}

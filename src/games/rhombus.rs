//! A hexhex board of side <= 6 drawn into one `u128` as the rhombus of its
//! axial coordinates: cell (q, r) at bit `r * w + q` with `w = 2n - 1`.
//! There the six neighbours of every cell are six fixed shifts (±1, ±w,
//! ±(w + 1)), so growing a set by its neighbours, shrinking it to the cells
//! whose neighbours it all holds, and flood fills are a few word operations
//! each, where the dense cell ids (rows of unequal length) need a table
//! lookup per cell.
//!
//! No shift wraps one board cell onto another: a row's last cell (q = w - 1)
//! lies in the lower half (r >= n - 1), the next row's first (q = 0) in the
//! upper (r <= n - 2 for the cell it would reach), and so for every
//! direction; off-board bits are always clear.

use super::hexhex::HexGrid;

/// The rhombus layout of one board side, with the conversions from and to
/// the dense cell ids (row by row, the same order).
#[derive(Debug)]
pub struct Rhombus {
    side: usize,
}

/// Per row r of side `n`: its first dense id, the mask of its cells (from
/// bit 0), and the rhombus bit of its first cell. Rows past `2n - 1` are
/// empty. Built at compile time per side, so that conversions unroll into
/// shifts by constants.
const fn rows(n: usize) -> [(u32, u128, u32); 11] {
    let mut rows = [(0, 0, 0); 11];
    let w = 2 * n - 1;
    let (mut r, mut first) = (0, 0);
    while r < w {
        let lo = (r + 1).saturating_sub(n);
        let hi = if r + n - 1 < w - 1 { r + n - 1 } else { w - 1 };
        let cells = hi - lo + 1;
        rows[r] = (first as u32, (1u128 << cells) - 1, (r * w + lo) as u32);
        first += cells;
        r += 1;
    }
    rows
}

/// Dense ids to rhombus bits on side `N`.
#[inline]
fn from_dense<const N: usize>(dense: u128) -> u128 {
    let rows = const { rows(N) };
    let mut out = 0;
    for &(first, mask, bit) in rows.iter().take(2 * N - 1) {
        out |= ((dense >> first) & mask) << bit;
    }
    out
}

/// Rhombus bits to dense ids on side `N`.
#[inline]
fn to_dense<const N: usize>(set: u128) -> u128 {
    let rows = const { rows(N) };
    let mut out = 0;
    for &(first, mask, bit) in rows.iter().take(2 * N - 1) {
        out |= ((set >> bit) & mask) << first;
    }
    out
}

/// The board's cells on side `N`.
const fn board(n: usize) -> u128 {
    let rows = rows(n);
    let (mut board, mut r) = (0u128, 0);
    while r < 2 * n - 1 {
        board |= rows[r].1 << rows[r].2;
        r += 1;
    }
    board
}

/// [`Rhombus::grown`] on side `N`.
#[inline]
fn grown<const N: usize>(set: u128) -> u128 {
    (set | neighbours::<N>(set)) & const { board(N) }
}

/// `set` moved one step in each of the six directions on side `N` (shifts
/// by constants); bits moved off the board are for the caller to mask.
#[inline(always)]
fn moved<const N: usize>(set: u128) -> [u128; 6] {
    let w = 2 * N as u32 - 1;
    [
        set << 1,
        set >> 1,
        set << w,
        set >> w,
        set << (w + 1),
        set >> (w + 1),
    ]
}

/// [`Rhombus::neighbours`] on side `N`.
#[inline]
fn neighbours<const N: usize>(set: u128) -> u128 {
    moved::<N>(set).into_iter().fold(0, |all, m| all | m) & const { board(N) }
}

/// [`Rhombus::centres`] on side `N`: counts the gaps of the set and its
/// six moved copies bit-sliced, up to two.
#[inline]
fn centres<const N: usize>(set: u128) -> (u128, u128) {
    let (mut gaps, mut two_gaps) = (!set, 0u128);
    for copy in moved::<N>(set) {
        two_gaps |= gaps & !copy;
        gaps |= !copy;
    }
    let board = const { board(N) };
    (board & !gaps, board & gaps & !two_gaps)
}

/// [`Rhombus::interior`] on side `N`.
#[inline]
fn interior<const N: usize>(set: u128) -> u128 {
    moved::<N>(set).into_iter().fold(set, |inner, m| inner & m)
}

/// [`Rhombus::connected`] on side `N`.
#[inline]
fn connected<const N: usize>(seeds: u128, within: u128) -> u128 {
    let mut reached = seeds & within;
    loop {
        let next = grown::<N>(reached) & within;
        if next == reached {
            return reached;
        }
        reached = next;
    }
}

/// [`Rhombus::limits`] on side `N`: every row folded onto one by doubling
/// shifts, straight for the columns (q) and along the (q + 1, r + 1)
/// direction, which keeps q - r, for the diagonals.
#[inline]
fn limits<const N: usize>(set: u128) -> [i32; 6] {
    let w = 2 * N as u32 - 1;
    let last = 2 * N as u32 - 2;
    let r0 = set.trailing_zeros() / w;
    let r1 = (127 - set.leading_zeros()) / w;
    // Rows r .. r + 15 onto row r; row 0 then holds every column.
    let mut columns = set;
    for step in [w, 2 * w, 4 * w, 8 * w] {
        columns |= columns >> step;
    }
    let columns = columns as u32 & ((1u32 << w) - 1);
    // Cell (q, r) onto the last row at q - r + last. A cell carried past
    // the last row lands above the range of q - r, one carried into it
    // from the row before (wrapping) below, so the range reads clean.
    let mut diagonals = set;
    for step in [w + 1, 2 * (w + 1), 4 * (w + 1), 8 * (w + 1)] {
        diagonals |= diagonals << step;
    }
    let range = ((1u32 << (2 * N - 1)) - 1) << (N - 1);
    let diagonals = (diagonals >> (last * w)) as u32 & range;
    let low = |bits: u32| bits.trailing_zeros() as i32;
    let high = |bits: u32| 31 - bits.leading_zeros() as i32;
    let offset = last as i32;
    [
        -low(columns),
        -(r0 as i32),
        -(low(diagonals) - offset),
        high(columns),
        r1 as i32,
        high(diagonals) - offset,
    ]
}

/// Per side from 2 to 6 (all that [`Rhombus::new`] admits),
/// `$f::<side>(args)`.
macro_rules! per_side {
    ($side:expr, $f:ident($($arg:expr),*)) => {
        match $side {
            6 => $f::<6>($($arg),*),
            5 => $f::<5>($($arg),*),
            4 => $f::<4>($($arg),*),
            3 => $f::<3>($($arg),*),
            _ => $f::<2>($($arg),*),
        }
    };
}

impl Rhombus {
    /// The layout of `grid`, or None when the rhombus does not fit in 128
    /// bits (sides above 6) or the board has a hole.
    pub fn new(grid: &HexGrid) -> Option<Rhombus> {
        if grid.holed || !(2..=6).contains(&grid.side) {
            return None;
        }
        Some(Rhombus { side: grid.side })
    }

    /// A set of dense cell ids in the rhombus.
    #[inline]
    pub fn from_dense(&self, dense: u128) -> u128 {
        per_side!(self.side, from_dense(dense))
    }

    /// A set in the rhombus as dense cell ids.
    #[inline]
    pub fn to_dense(&self, set: u128) -> u128 {
        per_side!(self.side, to_dense(set))
    }

    /// The set with every neighbour of its cells (on the board).
    #[inline]
    pub fn grown(&self, set: u128) -> u128 {
        per_side!(self.side, grown(set))
    }

    /// The cells next to a cell of `set` (on the board).
    #[inline]
    pub fn neighbours(&self, set: u128) -> u128 {
        per_side!(self.side, neighbours(set))
    }

    /// The cells whose closed neighbourhood (the cell and its six
    /// neighbours) `set` holds entirely, and those whose closed
    /// neighbourhood it holds all but one cell of (a neighbour off the
    /// board counts as a cell `set` misses).
    #[inline]
    pub fn centres(&self, set: u128) -> (u128, u128) {
        per_side!(self.side, centres(set))
    }

    /// The cells of `set` whose six neighbours are all on the board and
    /// in `set`.
    #[inline]
    pub fn interior(&self, set: u128) -> u128 {
        per_side!(self.side, interior(set))
    }

    /// The cells of `within` connected to `seeds` (which it should hold)
    /// through neighbours in `within`.
    #[inline]
    pub fn connected(&self, seeds: u128, within: u128) -> u128 {
        per_side!(self.side, connected(seeds, within))
    }

    /// The six limits `[-q0, -r0, -s0, q1, r1, s1]` (s = q - r) of the
    /// smallest region holding the non-empty `set`: each is attained.
    #[inline]
    pub fn limits(&self, set: u128) -> [i32; 6] {
        debug_assert!(set != 0);
        per_side!(self.side, limits(set))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::hexhex;

    fn dense_of(cells: &[u16]) -> u128 {
        cells.iter().fold(0, |m, &c| m | 1 << c)
    }

    #[test]
    fn shifts_are_the_neighbours_on_every_side_that_fits() {
        for side in 2..=6 {
            let grid = hexhex::grid(side, false);
            let rh = Rhombus::new(grid).expect("fits");
            for c in 0..grid.len() {
                let around: Vec<u16> = grid.neighbours[c]
                    .iter()
                    .copied()
                    .filter(|&n| n != hexhex::NONE)
                    .collect();
                let closed = dense_of(&around) | 1 << c;
                let one = rh.from_dense(1 << c);
                let (q, r) = grid.coords[c];
                assert_eq!(one, 1 << (r as u32 * (2 * side as u32 - 1) + q as u32));
                assert_eq!(rh.to_dense(one), 1 << c);
                assert_eq!(rh.to_dense(rh.grown(one)), closed, "side {side} cell {c}");
                // A cell is interior to the board exactly off the edge.
                let inside = rh
                    .interior(rh.from_dense(dense_of(&(0..grid.len() as u16).collect::<Vec<_>>())));
                assert_eq!(inside & one != 0, !grid.edge[c], "side {side} cell {c}");
            }
        }
        assert!(Rhombus::new(hexhex::grid(7, false)).is_none());
        assert!(Rhombus::new(hexhex::grid(5, true)).is_none());
    }

    #[test]
    fn limits_and_fills_match_the_coordinates() {
        let mut rng = 0x9e37_79b9_7f4a_7c15u64;
        for trial in 0..1000 {
            let grid = hexhex::grid([6, 6, 5, 4, 3, 2][trial % 6], false);
            let rh = Rhombus::new(grid).expect("fits");
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            let cells: Vec<u16> = (0..grid.len() as u16)
                .filter(|&c| rng.rotate_left(c as u32) & 3 != 0)
                .collect();
            if cells.is_empty() {
                continue;
            }
            let mut want = [i32::MIN; 6];
            for &c in &cells {
                let (q, r) = grid.coords[c as usize];
                let own = [-q, -r, -(q - r), q, r, q - r];
                for i in 0..6 {
                    want[i] = want[i].max(own[i]);
                }
            }
            let set = rh.from_dense(dense_of(&cells));
            assert_eq!(rh.limits(set), want);
            assert_eq!(rh.to_dense(set), dense_of(&cells));
            // The fill from one cell reaches exactly its component.
            let start = cells[0];
            let mut component = vec![start];
            let mut i = 0;
            while i < component.len() {
                for &n in &grid.neighbours[component[i] as usize] {
                    if n != hexhex::NONE && cells.contains(&n) && !component.contains(&n) {
                        component.push(n);
                    }
                }
                i += 1;
            }
            let reached = rh.connected(rh.from_dense(1 << start), set);
            assert_eq!(rh.to_dense(reached), dense_of(&component));
            // Neighbours and centres cell by cell.
            let dense = dense_of(&cells);
            let (full, one_short) = rh.centres(set);
            let (mut next, mut want_full, mut want_short) = (0u128, 0u128, 0u128);
            for c in 0..grid.len() {
                let around = &grid.neighbours[c];
                if around
                    .iter()
                    .any(|&n| n != hexhex::NONE && dense & 1 << n != 0)
                {
                    next |= 1 << c;
                }
                let missing = around
                    .iter()
                    .filter(|&&n| n == hexhex::NONE || dense & 1 << n == 0)
                    .count()
                    + (dense & 1 << c == 0) as usize;
                want_full |= ((missing == 0) as u128) << c;
                want_short |= ((missing == 1) as u128) << c;
            }
            assert_eq!(rh.to_dense(rh.neighbours(set)), next);
            assert_eq!(rh.to_dense(full), want_full);
            assert_eq!(rh.to_dense(one_short), want_short);
            assert_eq!(full, rh.interior(set));
        }
    }
}

//! Hexhex board geometry shared by the hex games (Tritium, Ihex, Nadraz).
//!
//! Axial coordinates `(q, r)`, `0 <= q, r <= 2n-2`, `|q - r| <= n-1`; cells
//! are written column letters for `q` then the row number `r + 1` (Havannah
//! notation). A grid numbers its cells densely (row by row) and precomputes
//! neighbours, so games work with small integer cell ids.

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

/// "No cell": off the board.
pub const NONE: u16 = u16::MAX;

/// The six neighbour offsets in rotational order; `DIRECTIONS[(d + 3) % 6]`
/// is the opposite of `DIRECTIONS[d]`.
pub const DIRECTIONS: [(i32, i32); 6] = [(1, 0), (1, 1), (0, 1), (-1, 0), (-1, -1), (0, -1)];

/// A hexhex board of side `side`, optionally without its centre cell.
#[derive(Debug)]
pub struct HexGrid {
    pub side: usize,
    pub holed: bool,
    /// (q, r) of each cell id.
    pub coords: Vec<(i32, i32)>,
    /// Neighbour ids per direction, `NONE` off the board.
    pub neighbours: Vec<[u16; 6]>,
    /// Whether each cell is on the outer ring.
    pub edge: Vec<bool>,
    /// Cell id of (q, r), by `q * width + r`; `NONE` where there is no cell.
    index: Vec<u16>,
    width: usize,
    /// Each cell's images under the 12 symmetries (canonical keys look
    /// them up for every stone, twelve times).
    images: Vec<[u16; 12]>,
}

impl HexGrid {
    fn build(side: usize, holed: bool) -> HexGrid {
        let n = side as i32;
        let width = 2 * side - 1;
        let mut index = vec![NONE; width * width];
        let mut coords = Vec::new();
        for r in 0..width as i32 {
            for q in 0..width as i32 {
                let is_centre = q == n - 1 && r == n - 1;
                if (q - r).abs() < n && !(holed && is_centre) {
                    index[q as usize * width + r as usize] = coords.len() as u16;
                    coords.push((q, r));
                }
            }
        }
        let mut grid = HexGrid {
            side,
            holed,
            coords,
            neighbours: Vec::new(),
            edge: Vec::new(),
            index,
            width,
            images: Vec::new(),
        };
        grid.neighbours = grid
            .coords
            .iter()
            .map(|&(q, r)| DIRECTIONS.map(|(dq, dr)| grid.id(q + dq, r + dr).unwrap_or(NONE)))
            .collect();
        let last = 2 * n - 2;
        grid.edge = grid
            .coords
            .iter()
            .map(|&(q, r)| q == 0 || r == 0 || q == last || r == last || (q - r).abs() == n - 1)
            .collect();
        grid.images = (0..grid.len() as u16)
            .map(|cell| std::array::from_fn(|sym| grid.image(cell, sym)))
            .collect();
        grid
    }

    pub fn len(&self) -> usize {
        self.coords.len()
    }

    pub fn is_empty(&self) -> bool {
        self.coords.is_empty()
    }

    /// The id of the cell at (q, r), if there is one.
    #[inline]
    pub fn id(&self, q: i32, r: i32) -> Option<u16> {
        if q < 0 || r < 0 || q as usize >= self.width || r as usize >= self.width {
            return None;
        }
        let id = self.index[q as usize * self.width + r as usize];
        (id != NONE).then_some(id)
    }

    /// The next cell from `cell` in direction `dir`, or `NONE`.
    #[inline]
    pub fn step(&self, cell: u16, dir: usize) -> u16 {
        self.neighbours[cell as usize][dir]
    }

    /// The direction `d` with `to = from + k * DIRECTIONS[d]` for some
    /// k >= 1, if `to` lies on one of the six straight lines from `from`.
    pub fn line_direction(&self, from: u16, to: u16) -> Option<usize> {
        let (q0, r0) = self.coords[from as usize];
        let (q1, r1) = self.coords[to as usize];
        let (dq, dr) = (q1 - q0, r1 - r0);
        let k = dq.abs().max(dr.abs());
        if k == 0 {
            return None;
        }
        DIRECTIONS
            .iter()
            .position(|&(a, b)| a * k == dq && b * k == dr)
    }

    pub fn cell_name(&self, cell: u16) -> String {
        let (q, r) = self.coords[cell as usize];
        format!("{}{}", column_name(q as usize), r + 1)
    }

    /// Reads a cell name (case-insensitive).
    pub fn parse_cell(&self, text: &str) -> Option<u16> {
        let (q, r) = parse_letters_digits(text)?;
        self.id(q as i32, r as i32)
    }

    /// The image of `cell` under symmetry `sym` in 0..12 (six rotations,
    /// each optionally after a mirror), about the board's centre.
    #[inline]
    pub fn transform(&self, cell: u16, sym: usize) -> u16 {
        self.images[cell as usize][sym]
    }

    /// [`HexGrid::transform`] computed from the coordinates.
    fn image(&self, cell: u16, sym: usize) -> u16 {
        let c = self.side as i32 - 1;
        let (q, r) = self.coords[cell as usize];
        let (mut x, mut y) = (q - c, r - c);
        if sym >= 6 {
            std::mem::swap(&mut x, &mut y);
        }
        for _ in 0..sym % 6 {
            (x, y) = (x - y, x);
        }
        self.id(x + c, y + c)
            .expect("hexhex symmetries map the board onto itself")
    }

    /// Draws the board: rows from the top, each cell's character from
    /// `cell`, offset so that hex neighbours touch; each row is labelled
    /// with its number and its first and last cell.
    pub fn render(&self, cell: impl Fn(u16) -> char) -> String {
        self.render_tokens(1, |id| cell(id).to_string())
    }

    /// As [`HexGrid::render`], with each cell drawn as a token of `width`
    /// characters (odd, so that rows shift by whole columns).
    pub fn render_tokens(&self, width: usize, cell: impl Fn(u16) -> String) -> String {
        debug_assert!(width % 2 == 1, "odd token width keeps the rows aligned");
        let stride = width + 1;
        let half = stride / 2;
        let n = self.side as i32;
        let mut out = String::new();
        for r in (0..2 * n - 1).rev() {
            let ids: Vec<u16> = (0..2 * n - 1).filter_map(|q| self.id(q, r)).collect();
            let first_q = (r - (n - 1)).max(0);
            // x = (2q - r) half-strides places (q, r) between its two
            // neighbours in the row below.
            let indent = (2 * first_q - r + (n - 1)) as usize * half;
            out.push_str(&format!("{:>3} ", r + 1));
            out.push_str(&" ".repeat(indent));
            let mut q = first_q;
            for (i, &id) in ids.iter().enumerate() {
                let (cq, _) = self.coords[id as usize];
                // A hole (Tritium's centre) leaves a gap.
                while q < cq {
                    out.push_str(&" ".repeat(stride));
                    q += 1;
                }
                if i > 0 {
                    out.push(' ');
                }
                out.push_str(&format!("{:<width$}", cell(id)));
                q += 1;
            }
            let (Some(&a), Some(&b)) = (ids.first(), ids.last()) else {
                continue;
            };
            out.push_str(&format!(
                "   {}..{}\n",
                self.cell_name(a),
                self.cell_name(b)
            ));
        }
        out
    }
}

/// The shared, cached grid of a size.
pub fn grid(side: usize, holed: bool) -> &'static HexGrid {
    static GRIDS: OnceLock<Mutex<HashMap<(usize, bool), &'static HexGrid>>> = OnceLock::new();
    let mut grids = GRIDS
        .get_or_init(|| Mutex::new(HashMap::new()))
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    grids
        .entry((side, holed))
        .or_insert_with(|| Box::leak(Box::new(HexGrid::build(side, holed))))
}

/// Column letters of a zero-based index: a..z, then aa, ab, ...
pub fn column_name(mut index: usize) -> String {
    let mut letters = Vec::new();
    loop {
        letters.push(b'a' + (index % 26) as u8);
        if index < 26 {
            break;
        }
        index = index / 26 - 1;
    }
    letters.reverse();
    String::from_utf8(letters).expect("ascii letters")
}

/// Reads "letters then digits" (case-insensitive) into zero-based
/// (column, row); None if malformed.
pub fn parse_letters_digits(text: &str) -> Option<(usize, usize)> {
    let split = text.find(|c: char| !c.is_ascii_alphabetic())?;
    let (letters, digits) = text.split_at(split);
    if letters.is_empty() || letters.len() > 3 || digits.is_empty() || digits.len() > 3 {
        return None;
    }
    if !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let mut column = 0usize;
    for b in letters.bytes() {
        column = column * 26 + (b.to_ascii_lowercase() - b'a' + 1) as usize;
    }
    let row: usize = digits.parse().ok()?;
    // Lazily: `then_some` would compute `row - 1` for row 0 too.
    (row >= 1).then(|| (column - 1, row - 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cell_counts_and_centre() {
        for n in 2..=14 {
            let g = grid(n, false);
            assert_eq!(g.len(), 3 * n * (n - 1) + 1);
            let holed = grid(n, true);
            assert_eq!(holed.len(), 3 * n * (n - 1));
        }
        let g = grid(5, false);
        assert_eq!(g.parse_cell("e5"), g.id(4, 4));
        assert!(!g.edge[g.parse_cell("e5").unwrap() as usize]);
        assert!(g.edge[g.parse_cell("a1").unwrap() as usize]);
        assert!(g.parse_cell("a6").is_none());
        assert!(grid(5, true).parse_cell("e5").is_none());
    }

    #[test]
    fn neighbours_are_symmetric_and_six_inside() {
        let g = grid(6, false);
        for cell in 0..g.len() as u16 {
            let count = g.neighbours[cell as usize]
                .iter()
                .filter(|&&x| x != NONE)
                .count();
            assert_eq!(count == 6, !g.edge[cell as usize]);
            for d in 0..6 {
                let next = g.step(cell, d);
                if next != NONE {
                    assert_eq!(g.step(next, (d + 3) % 6), cell);
                }
            }
        }
    }

    #[test]
    fn line_directions() {
        let g = grid(5, false);
        let cell = |name: &str| g.parse_cell(name).unwrap();
        assert_eq!(g.line_direction(cell("e5"), cell("h5")), Some(0));
        assert_eq!(g.line_direction(cell("e5"), cell("g7")), Some(1));
        assert_eq!(g.line_direction(cell("e5"), cell("e9")), Some(2));
        assert_eq!(g.line_direction(cell("e5"), cell("a5")), Some(3));
        assert_eq!(g.line_direction(cell("e5"), cell("b2")), Some(4));
        assert_eq!(g.line_direction(cell("e5"), cell("e4")), Some(5));
        assert_eq!(g.line_direction(cell("e5"), cell("f7")), None);
        assert_eq!(g.line_direction(cell("e5"), cell("e5")), None);
    }

    #[test]
    fn columns_after_z() {
        assert_eq!(column_name(0), "a");
        assert_eq!(column_name(25), "z");
        assert_eq!(column_name(26), "aa");
        assert_eq!(column_name(27), "ab");
        assert_eq!(parse_letters_digits("aa27"), Some((26, 26)));
        assert_eq!(parse_letters_digits("AB3"), Some((27, 2)));
        let g = grid(14, false);
        assert_eq!(g.cell_name(g.id(26, 26).unwrap()), "aa27");
    }

    #[test]
    fn wide_tokens_keep_rows_interleaved() {
        let g = grid(2, false);
        assert_eq!(g.render(|_| 'x'), g.render_tokens(1, |_| "x".into()));
        let text = g.render_tokens(3, |_| " x".into());
        let lines: Vec<&str> = text.lines().collect();
        // Each cell sits halfway between its two neighbours in the row below.
        assert_eq!(lines[0], "  3    x   x    b3..c3");
        assert_eq!(lines[1], "  2  x   x   x    a2..c2");
        assert_eq!(lines[2], "  1    x   x    a1..b1");
    }

    #[test]
    fn symmetries_preserve_adjacency() {
        for holed in [false, true] {
            let g = grid(5, holed);
            for sym in 0..12 {
                let image: Vec<u16> = (0..g.len() as u16).map(|c| g.transform(c, sym)).collect();
                let mut sorted = image.clone();
                sorted.sort();
                sorted.dedup();
                assert_eq!(sorted.len(), g.len());
                for c in 0..g.len() as u16 {
                    for &nb in &g.neighbours[c as usize] {
                        if nb != NONE {
                            let a = image[c as usize];
                            let b = image[nb as usize];
                            assert!(g.neighbours[a as usize].contains(&b));
                        }
                    }
                }
            }
        }
    }
}

//! Hadron (Mark Steere, 2022), per `shared/rules/hadron.md`.
//!
//! Bitboards: cell = rank * n + file. A placement is legal when the counts of
//! orthogonal friendly and enemy neighbours are (0,0), (1,1) or (2,2); the
//! whole legal set is computed at once with bit-sliced neighbour counting.

use super::bitboard::Bits;
use super::features::{FeatureRows, FeatureSet, Layout as Blocks, PatternTable, clamp_bucket};
use super::picture::{Ink, Picture, Piece, Shape, turn_note};
use super::square::{decode_rows, encode_rows, format_cell, parse_cell, render_board, transform};
use super::zobrist::{self, salt};
use super::{Game, GameRng, Outcome, Seat, random_below};
use std::sync::OnceLock;

pub const MIN_SIZE: usize = 3;
pub const MAX_SIZE: usize = 16;
pub const DEFAULT_SIZE: usize = 5;
/// Playouts look for a winning placement when this few remain.
const DECISIVE_CHECK: u32 = 8;

/// Masks that depend only on the board size.
#[derive(Copy, Clone, Debug, PartialEq)]
struct Masks<B> {
    board: B,
    not_first_file: B,
    not_last_file: B,
}

impl<B: Bits> Masks<B> {
    fn new(n: usize) -> Self {
        let mut first = B::ZERO;
        let mut last = B::ZERO;
        for rank in 0..n {
            first |= B::bit(rank * n);
            last |= B::bit(rank * n + n - 1);
        }
        let board = B::first_n(n * n);
        Masks {
            board,
            not_first_file: board & !first,
            not_last_file: board & !last,
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Hadron<B: Bits> {
    n: usize,
    /// Tiles per seat: [red (p1), blue (p2)].
    tiles: [B; 2],
    to_move: Seat,
    hash: u64,
    masks: Masks<B>,
}

fn tile_key(seat: Seat, cell: usize) -> u64 {
    zobrist::stone_key(salt::HADRON, seat, cell)
}

fn side_key() -> u64 {
    zobrist::side_key(salt::HADRON)
}

impl<B: Bits> Hadron<B> {
    /// The empty board of side `n` (which must fit in `B`).
    pub fn new(n: usize) -> Self {
        assert!((MIN_SIZE..=MAX_SIZE).contains(&n) && n * n <= B::CAPACITY);
        Hadron {
            n,
            tiles: [B::ZERO; 2],
            to_move: Seat::P1,
            hash: 0,
            masks: Masks::new(n),
        }
    }

    /// For each cell, whether exactly 0, 1 and 2 of its orthogonal
    /// neighbours are in `set` (bit-sliced addition of four shifted boards).
    #[inline]
    fn neighbour_counts(&self, set: B) -> (B, B, B) {
        let m = &self.masks;
        let n = self.n as u32;
        let east = (set >> 1) & m.not_last_file;
        let west = (set << 1) & m.not_first_file;
        let north = set >> n;
        let south = (set << n) & m.board;
        let (x1, c1) = (east ^ west, east & west);
        let (x2, c2) = (north ^ south, north & south);
        let zero = !(east | west | north | south);
        let one = (x1 ^ x2) & !(c1 | c2);
        let two = ((c1 ^ c2) & !(x1 | x2)) | (x1 & x2);
        (zero, one, two)
    }

    /// Every cell where the side to move may place.
    #[inline]
    pub fn legal_set(&self) -> B {
        let own = self.tiles[self.to_move.index()];
        let enemy = self.tiles[self.to_move.other().index()];
        let empty = self.masks.board & !(own | enemy);
        let (f0, f1, f2) = self.neighbour_counts(own);
        let (e0, e1, e2) = self.neighbour_counts(enemy);
        empty & ((f0 & e0) | (f1 & e1) | (f2 & e2))
    }

    fn place(&mut self, cell: usize) {
        let seat = self.to_move;
        self.tiles[seat.index()] |= B::bit(cell);
        self.hash ^= tile_key(seat, cell) ^ side_key();
        self.to_move = seat.other();
    }
}

impl<B: Bits> Game for Hadron<B> {
    type Move = u16;
    type Undo = Self;

    fn describe(&self) -> String {
        format!("hadron size={}", self.n)
    }

    fn side_to_move(&self) -> Seat {
        self.to_move
    }

    fn legal_moves(&self, moves: &mut Vec<u16>) {
        moves.clear();
        moves.extend(self.legal_set().ones().map(|c| c as u16));
    }

    fn make(&mut self, mv: u16) -> Self {
        let before = self.clone();
        self.place(mv as usize);
        before
    }

    fn unmake(&mut self, _mv: u16, undo: Self) {
        *self = undo;
    }

    fn outcome(&self) -> Option<Outcome> {
        // No pass: the player who cannot place loses.
        self.legal_set()
            .is_empty()
            .then_some(Outcome::Win(self.to_move.other()))
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn hash_from_scratch(&self) -> u64 {
        zobrist::stones_hash(salt::HADRON, &self.tiles, self.to_move)
    }

    fn parse_move(&self, text: &str) -> Result<u16, String> {
        parse_cell(text, self.n)
            .map(|(file, rank)| (rank * self.n + file) as u16)
            .ok_or_else(|| format!("'{text}' is not a cell of the {0}x{0} board", self.n))
    }

    fn format_move(&self, mv: u16) -> String {
        let cell = mv as usize;
        format_cell(cell % self.n, cell / self.n)
    }

    fn position_text(&self) -> String {
        let rows: Vec<Vec<Option<char>>> = (0..self.n)
            .rev()
            .map(|rank| {
                (0..self.n)
                    .map(|file| self.cell_char(rank * self.n + file))
                    .collect()
            })
            .collect();
        let side = if self.to_move == Seat::P1 { 'r' } else { 'b' };
        format!("{} {}", encode_rows(&rows), side)
    }

    fn read_position(&self, text: &str) -> Result<Self, String> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        let [board, side] = fields[..] else {
            return Err("hadron position text is '<ranks> <r|b>'".into());
        };
        let rows = decode_rows(board)?;
        let n = rows.len();
        if !(MIN_SIZE..=MAX_SIZE).contains(&n) || n * n > B::CAPACITY {
            return Err(format!("hadron board side {n} is not one of 3..16"));
        }
        let mut game = Hadron::<B>::new(n);
        for (i, row) in rows.iter().enumerate() {
            if row.len() != n {
                return Err(format!("rank {} has {} cells, not {n}", n - i, row.len()));
            }
            let rank = n - 1 - i;
            for (file, cell) in row.iter().enumerate() {
                let seat = match cell {
                    None => continue,
                    Some('r') => Seat::P1,
                    Some('b') => Seat::P2,
                    Some(c) => return Err(format!("unknown hadron piece '{c}' (r or b)")),
                };
                game.tiles[seat.index()] |= B::bit(rank * n + file);
            }
        }
        game.to_move = match side.to_ascii_lowercase().as_str() {
            "r" => Seat::P1,
            "b" => Seat::P2,
            _ => return Err(format!("side to move '{side}' is not r or b")),
        };
        game.hash = game.hash_from_scratch();
        Ok(game)
    }

    fn render(&self) -> String {
        render_board(self.n, |file, rank| {
            self.cell_char(rank * self.n + file).unwrap_or('.')
        })
    }

    /// Parity: both players always have the same legal cells (a cell is
    /// legal when its red and blue neighbours are equal in number, at most
    /// two), so mobility says nothing; the last player to place wins, and
    /// with independent cells an odd count favours the side to move.
    fn evaluate(&self) -> i32 {
        if self.legal_set().count() % 2 == 1 {
            100
        } else {
            -100
        }
    }

    /// Each of us places about one tile per two legal cells left.
    fn moves_left_estimate(&self) -> u32 {
        (self.legal_set().count() / 2).max(1)
    }

    #[inline]
    fn random_move(&self, rng: &mut GameRng, _scratch: &mut Vec<u16>) -> Option<u16> {
        let legal = self.legal_set();
        let count = legal.count();
        if count == 0 {
            return None;
        }
        Some(legal.select(random_below(rng, count as usize) as u32) as u16)
    }

    /// Random, except that near the end a placement leaving the opponent
    /// no placement (an immediate win) is taken.
    #[inline]
    fn playout_move(&self, rng: &mut GameRng, scratch: &mut Vec<u16>) -> Option<u16> {
        let legal = self.legal_set();
        if legal.count() <= DECISIVE_CHECK {
            for cell in legal.ones() {
                let mut after = self.clone();
                after.place(cell);
                if after.legal_set().is_empty() {
                    return Some(cell as u16);
                }
            }
        }
        self.random_move(rng, scratch)
    }

    #[inline]
    fn play(&mut self, mv: u16) {
        self.place(mv as usize);
    }

    /// Red and blue tiles; the notes say whose turn it is and how many
    /// cells are open to a placement (the same for both players).
    fn picture(&self) -> Picture {
        let mut picture = Picture::square(self.describe(), self.n);
        for cell in 0..self.n * self.n {
            let (ink, glyph) = match self.cell_char(cell) {
                Some('r') => (Ink::Red, 'r'),
                Some(_) => (Ink::Blue, 'b'),
                None => continue,
            };
            picture.add(Piece::new(cell, Shape::Tile, ink, glyph));
        }
        picture.note(turn_note(self.outcome(), self.to_move, ["red", "blue"]));
        picture.note(format!(
            "cells open to a placement: {}",
            self.legal_set().count()
        ));
        picture
    }

    /// Orthogonal adjacency and the placement rule look the same from every
    /// side of the board.
    fn symmetry_count(&self) -> usize {
        8
    }

    fn symmetric(&self, sym: usize) -> Self {
        let mut image = Hadron::<B>::new(self.n);
        for seat in [Seat::P1, Seat::P2] {
            for cell in self.tiles[seat.index()].ones() {
                image.tiles[seat.index()] |= B::bit(self.map_cell(cell, sym));
            }
        }
        image.to_move = self.to_move;
        image.hash = image.hash_from_scratch();
        image
    }

    fn symmetric_move(&self, mv: u16, sym: usize) -> u16 {
        self.map_cell(mv as usize, sym) as u16
    }

    fn canonical_key(&self) -> u64 {
        let tiles = [Seat::P1, Seat::P2].into_iter().flat_map(|seat| {
            self.tiles[seat.index()]
                .ones()
                .map(move |cell| (seat, cell))
        });
        let side = if self.to_move == Seat::P2 {
            side_key()
        } else {
            0
        };
        zobrist::least_image_key::<_, 8>(
            tiles,
            |(seat, cell), sym| tile_key(seat, self.map_cell(cell, sym)),
            side,
        )
    }

    /// The last player to place wins: no draws, no repetitions.
    fn can_draw(&self) -> bool {
        false
    }

    fn feature_set(&self) -> Option<FeatureSet> {
        let l = layout();
        Some(FeatureSet {
            name: "hadron",
            version: 2,
            position: l.position_size,
            moves: l.move_size,
        })
    }

    fn position_features(&self, out: &mut Vec<u32>) {
        self.write_position_features(out);
    }

    fn move_features(&self, moves: &[u16], out: &mut FeatureRows) {
        self.write_move_features(moves, out);
    }
}

impl<B: Bits> Hadron<B> {
    /// The board side.
    pub fn size(&self) -> usize {
        self.n
    }

    /// Red's (p1's) and Blue's tiles.
    pub fn tiles(&self) -> [B; 2] {
        self.tiles
    }

    fn map_cell(&self, cell: usize, sym: usize) -> usize {
        let (file, rank) = transform(self.n, cell % self.n, cell / self.n, sym);
        rank * self.n + file
    }

    fn cell_char(&self, cell: usize) -> Option<char> {
        if self.tiles[0].test(cell) {
            Some('r')
        } else if self.tiles[1].test(cell) {
            Some('b')
        } else {
            None
        }
    }
}

/// Where each kind of feature starts (see `write_*_features`).
struct Layout {
    /// Move: the 3x3 pattern around the cell (classes under the square's
    /// symmetries; each cell empty, own, enemy or off the board).
    pattern: u32,
    /// Move: what becomes of the four orthogonal neighbours.
    ortho: u32,
    /// Move: the change in the number of legal cells x the parity after x
    /// the phase.
    delta: u32,
    /// Move: the distance to the edge x the phase.
    edge: u32,
    move_size: u32,
    /// Position: the number of legal cells (exact up to 48).
    legal: u32,
    /// Position: one per empty cell, its orthogonal pattern x legal now.
    cross: u32,
    /// Position: empty cells that are illegal but may become legal, x the
    /// parity of the legal cells.
    live: u32,
    /// Position: one per region (orthogonally connected empty cells that
    /// are or may become legal: regions are independent games), by its
    /// size x its legal cells.
    region: u32,
    /// Position: the parity of the regions x of the legal cells.
    regions: u32,
    position_size: u32,
}

const MAX_LEGAL: u32 = 48;
const PHASES: u32 = 5;
const REGION_SIZES: u32 = 6;
/// Padded code boards are at most this wide (16 + 2).
const PADDED: usize = MAX_SIZE + 2;

fn square8() -> &'static PatternTable {
    static TABLE: OnceLock<PatternTable> = OnceLock::new();
    TABLE.get_or_init(|| PatternTable::new(8, 4, &PatternTable::dihedral(8, 2)))
}

fn ortho_moves() -> &'static PatternTable {
    static TABLE: OnceLock<PatternTable> = OnceLock::new();
    TABLE.get_or_init(|| PatternTable::new(4, 7, &PatternTable::dihedral(4, 1)))
}

fn ortho_cells() -> &'static PatternTable {
    static TABLE: OnceLock<PatternTable> = OnceLock::new();
    TABLE.get_or_init(|| PatternTable::new(4, 4, &PatternTable::dihedral(4, 1)))
}

fn layout() -> &'static Layout {
    static LAYOUT: OnceLock<Layout> = OnceLock::new();
    LAYOUT.get_or_init(|| {
        let b = Blocks::new();
        let (pattern, b) = b.block(square8().classes());
        let (ortho, b) = b.block(ortho_moves().classes());
        let (delta, b) = b.block(10 * 2 * PHASES);
        let (edge, b) = b.block(4 * PHASES);
        let move_size = b.size();
        let b = Blocks::new();
        let (legal, b) = b.block(MAX_LEGAL + 1);
        let (cross, b) = b.block(2 * ortho_cells().classes());
        let (live, b) = b.block(16 * 2);
        let (region, b) = b.block(REGION_SIZES * 5);
        let (regions, b) = b.block(4);
        Layout {
            pattern,
            ortho,
            delta,
            edge,
            move_size,
            legal,
            cross,
            live,
            region,
            regions,
            position_size: b.size(),
        }
    })
}

/// The stage of the game by the number of legal cells.
fn phase(legal: u32) -> u32 {
    match legal {
        0..=3 => 0,
        4..=7 => 1,
        8..=15 => 2,
        16..=31 => 3,
        _ => 4,
    }
}

/// The board as codes for the side to move (0 empty, 1 own, 2 enemy, 3
/// off the board) with a ring of off-board cells around it.
struct Codes {
    code: [u8; PADDED * PADDED],
    width: usize,
}

impl Codes {
    /// The padded index of a board cell.
    #[inline]
    fn at(&self, n: usize, cell: usize) -> usize {
        (cell / n + 1) * self.width + cell % n + 1
    }

    /// The raw pattern of the ring of `offsets` around padded index `p`.
    #[inline]
    fn ring<const K: usize>(&self, p: usize, offsets: &[isize; K]) -> usize {
        offsets.iter().rev().fold(0, |raw, &o| {
            raw * 4 + self.code[(p as isize + o) as usize] as usize
        })
    }
}

impl<B: Bits> Hadron<B> {
    fn codes(&self) -> Codes {
        let n = self.n;
        let width = n + 2;
        let mut code = [3u8; PADDED * PADDED];
        let own = self.tiles[self.to_move.index()];
        let enemy = self.tiles[self.to_move.other().index()];
        for c in 0..n * n {
            code[(c / n + 1) * width + c % n + 1] = own.test(c) as u8 | (enemy.test(c) as u8) << 1;
        }
        Codes { code, width }
    }

    /// The 8 neighbours in rotational order (E, NE, N, NW, W, SW, S, SE)
    /// as padded offsets; the orthogonal ones are the even positions.
    fn ring8(width: usize) -> [isize; 8] {
        let w = width as isize;
        [1, w + 1, w, w - 1, -1, -w - 1, -w, -w + 1]
    }

    fn cross4(width: usize) -> [isize; 4] {
        let w = width as isize;
        [1, w, -1, -w]
    }

    /// `set` grown by one step in the four directions (within the board).
    #[inline]
    fn spread(&self, set: B) -> B {
        let m = &self.masks;
        let n = self.n as u32;
        set | ((set >> 1) & m.not_last_file)
            | ((set << 1) & m.not_first_file)
            | (set >> n)
            | ((set << n) & m.board)
    }

    fn write_position_features(&self, out: &mut Vec<u32>) {
        let l = layout();
        let n = self.n;
        let legal = self.legal_set();
        let count = legal.count();
        out.push(l.legal + count.min(MAX_LEGAL));
        let codes = self.codes();
        let cross = Self::cross4(codes.width);
        let empty = self.masks.board & !(self.tiles[0] | self.tiles[1]);
        let mut live_set = legal;
        let mut live = 0;
        for c in empty.ones() {
            let raw = codes.ring(codes.at(n, c), &cross);
            let is_legal = legal.test(c);
            out.push(l.cross + 2 * ortho_cells().class_of(raw) + is_legal as u32);
            if !is_legal {
                let (mut o, mut e, mut m) = (0u32, 0u32, 0u32);
                for k in 0..4 {
                    match (raw >> (2 * k)) & 3 {
                        0 => m += 1,
                        1 => o += 1,
                        2 => e += 1,
                        _ => {}
                    }
                }
                if o <= 2 && e <= 2 && o.abs_diff(e) <= m {
                    live += 1;
                    live_set |= B::bit(c);
                }
            }
        }
        out.push(l.live + 2 * live.min(15) + count % 2);
        // Regions: connected parts of the live cells.
        let mut rest = live_set;
        let mut regions = 0;
        while !rest.is_empty() {
            let mut region = B::bit(rest.lowest());
            loop {
                let grown = self.spread(region) & live_set;
                if grown == region {
                    break;
                }
                region = grown;
            }
            rest &= !region;
            regions += 1;
            let size = region.count().min(1 << (REGION_SIZES - 1));
            let size = 31 - size.leading_zeros();
            out.push(l.region + size * 5 + (region & legal).count().min(4));
        }
        out.push(l.regions + 2 * (regions % 2) + count % 2);
    }

    fn write_move_features(&self, moves: &[u16], out: &mut FeatureRows) {
        let l = layout();
        out.clear();
        let n = self.n;
        let before = self.legal_set();
        let count = before.count();
        let stage = phase(count);
        let codes = self.codes();
        let ring = Self::ring8(codes.width);
        for &mv in moves {
            let c = mv as usize;
            let mut after = self.clone();
            after.place(c);
            let now = after.legal_set();
            let p = codes.at(n, c);
            out.push(l.pattern + square8().class_of(codes.ring(p, &ring)));
            let mut raw = 0;
            for k in (0..4).rev() {
                let state = match self.offset(c, k) {
                    None => 0,
                    Some(x) => match (codes.code[codes.at(n, x)], before.test(x), now.test(x)) {
                        (1, _, _) => 1,
                        (2, _, _) => 2,
                        (_, true, true) => 3,
                        (_, true, false) => 4,
                        (_, false, true) => 5,
                        _ => 6,
                    },
                };
                raw = raw * 7 + state;
            }
            out.push(l.ortho + ortho_moves().class_of(raw));
            let change = now.count() as i32 - count as i32;
            let delta = clamp_bucket(change, -5, 4);
            out.push(l.delta + (delta * 2 + now.count() % 2) * PHASES + stage);
            let (x, y) = (c % n, c / n);
            let edge = x.min(n - 1 - x).min(y).min(n - 1 - y).min(3) as u32;
            out.push(l.edge + edge * PHASES + stage);
            out.end_row();
        }
    }

    /// The orthogonal neighbour of `cell` in direction `k` (E, N, W, S).
    #[inline]
    fn offset(&self, cell: usize, k: usize) -> Option<usize> {
        let n = self.n;
        let (x, y) = (cell % n, cell / n);
        match k {
            0 => (x + 1 < n).then(|| cell + 1),
            1 => (y + 1 < n).then(|| cell + n),
            2 => (x > 0).then(|| cell - 1),
            _ => (y > 0).then(|| cell - n),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn after(moves: &[&str]) -> Hadron<u64> {
        let mut g = Hadron::<u64>::new(5);
        for m in moves {
            let mv = g.parse_move(m).unwrap();
            let mut legal = Vec::new();
            g.legal_moves(&mut legal);
            assert!(legal.contains(&mv), "{m} should be legal");
            g.make(mv);
        }
        g
    }

    fn legal(g: &Hadron<u64>, m: &str) -> bool {
        let mut legal = Vec::new();
        g.legal_moves(&mut legal);
        legal.contains(&g.parse_move(m).unwrap())
    }

    #[test]
    fn adjacency_rules() {
        // Red c3, Blue d3 (beside it: f=0 e=1 is illegal, so blue goes far).
        let g = after(&["c3"]);
        assert!(!legal(&g, "d3"), "(0 friendly, 1 enemy) is illegal");
        assert!(legal(&g, "e5"));
        let g = after(&["c3", "a1"]);
        // Red next to its own c3 only: (1, 0) is illegal.
        assert!(!legal(&g, "c4"));
        let g = after(&["c3", "e3", "a3"]);
        // Blue d3: friendly e3, enemy c3 -> (1,1) legal.
        assert!(legal(&g, "d3"));
    }

    #[test]
    fn exactly_one_of_each_or_two_of_each() {
        let at = |text: &str| Hadron::<u64>::new(5).read_position(text).unwrap();
        // b3 for red: a3 and c3 blue, b2 red -> (1, 2) is illegal.
        assert!(!legal(&at("5/5/b1b2/1r3/5 r"), "b3"));
        // b3 for red: a3 and c3 red, b2 blue -> (2, 1) is illegal.
        assert!(!legal(&at("5/5/r1r2/1b3/5 r"), "b3"));
        // b3 for red: a3 red, b2 blue -> (1, 1) is legal.
        assert!(legal(&at("5/5/r4/1b3/5 r"), "b3"));
        // b3 for red: a3, c3 red; b2, b4 blue -> (2, 2) is legal.
        assert!(legal(&at("5/1b3/r1r2/1b3/5 r"), "b3"));
        // b3 for red: a3, c3, b4 red; b2 blue -> (3, 1) is illegal.
        assert!(!legal(&at("5/1r3/r1r2/1b3/5 r"), "b3"));
        // Diagonal tiles do not count: a1 beside only diagonal b2 is isolated.
        assert!(legal(&at("5/5/5/1b3/5 r"), "a1"));
    }

    #[test]
    fn no_legal_placement_loses() {
        let g = Hadron::<u64>::new(3)
            .read_position("rbr/b1b/rbr r")
            .unwrap();
        // b2 has 4 blue neighbours: illegal for red, so red has lost.
        assert_eq!(g.outcome(), Some(Outcome::Win(Seat::P2)));
    }
}

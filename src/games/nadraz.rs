//! Nadraz (2023), per `shared/rules/nadraz.md`.
//!
//! Every snake is a simple path, so a snake is known by its two ends: each
//! end stone records the other end (`mate`; an egg is its own mate) and the
//! snake's length; middle stones record nothing. Per cell, the numbers of
//! black and white neighbours are kept up to date, so a stone's degree in
//! its snake is one lookup. The ends of each colour are kept in a list.
//!
//! Move generation walks the six lines from each end of the mover's snakes.
//! The path rule is checked per step in constant time: the previous stone
//! of the line must still have degree <= 1, and the new stone may touch at
//! most one friendly stone besides it, an end of another snake. (The merge
//! rule follows from that: a stone that joins another snake has degree 2,
//! so nothing can follow it but an egg lying on the line.)
//!
//! A move rewrites only the end records it changes: the mover's new snake,
//! and for each flipped run the two enemy pieces, whose far ends are found
//! by walking both pieces in turn until the shorter one ends.

use super::features::{
    FeatureRows, FeatureSet, Layout as Blocks, PatternTable, clamp_bucket, log_bucket,
};
use super::hexhex::{self, HexGrid, NONE};
use super::picture::{Detail, Ink, Link, Picture, Piece, Shape, Tone, turn_note};
use super::zobrist::{key, least_image_key, salt};
use super::{Game, GameRng, Outcome, Seat, random_below};
use std::fmt;
use std::sync::OnceLock;

pub const MIN_SIZE: usize = 5;
pub const MAX_SIZE: usize = 14;
pub const DEFAULT_SIZE: usize = 10;

/// The number of cells of a board of side `size`.
pub const fn cell_count(size: usize) -> usize {
    3 * size * (size - 1) + 1
}

pub const MAX_CELLS: usize = cell_count(MAX_SIZE);

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Variant {
    Standard,
    Reverse,
}

impl Variant {
    pub const NAMES: [&'static str; 2] = ["standard", "reverse"];

    pub fn parse(name: &str) -> Option<Variant> {
        match name.to_ascii_lowercase().as_str() {
            "" | "standard" => Some(Variant::Standard),
            "reverse" => Some(Variant::Reverse),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }
}

/// Colour indices; a cell holds `EMPTY` or colour + 1.
const BLACK: usize = 0;
const WHITE: usize = 1;
const EMPTY: u8 = 0;

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Phase {
    /// p1 places one egg of each colour.
    Pie,
    /// p2 chooses a colour.
    Choice,
    Play,
}

/// A move: kind in bits 22..24, two cell ids (or a choice) in bits 11..22
/// and 0..11. A walk is (start, final cell); a pie is (black, white).
pub type NadrazMove = u32;

const WALK: u32 = 0;
const PIE: u32 = 1;
const CHOICE: u32 = 2;
const PASS_KIND: u32 = 3;
pub const PASS: NadrazMove = PASS_KIND << 22;

const fn encode(kind: u32, a: u16, b: u16) -> NadrazMove {
    (kind << 22) | ((a as u32) << 11) | b as u32
}

const fn decode(mv: NadrazMove) -> (u32, u16, u16) {
    (mv >> 22, ((mv >> 11) & 0x7ff) as u16, (mv & 0x7ff) as u16)
}

/// A Nadraz position on a board of at most `C` cells.
#[derive(Clone)]
pub struct Nadraz<const C: usize> {
    grid: &'static HexGrid,
    variant: Variant,
    board: [u8; C],
    /// Per colour, the number of that colour's stones beside each cell.
    near: [[u8; C]; 2],
    /// Per colour, per cell, bit `k` set when the neighbour in direction
    /// `k` holds a stone of that colour: a walk finds the friend beside its
    /// line in one step.
    friends: [[u8; C]; 2],
    /// Per cell, bit `k` set when the neighbour in direction `k` is on the
    /// board and off the edge: a walk whose first cell is an edge cell or
    /// off the board has no turn (see `for_each_walk`).
    inward: [u8; C],
    /// At an end stone: the other end of its snake (an egg: itself).
    mate: [u16; C],
    /// At an end stone: the length of its snake.
    length: [u16; C],
    /// Per colour, its end stones (heads, tails, eggs), unordered.
    ends: [[u16; C]; 2],
    end_count: [u16; 2],
    /// Each end stone's index in its colour's list, `NONE` elsewhere.
    slot: [u16; C],
    phase: Phase,
    /// The seat playing Black, once chosen.
    black: Option<Seat>,
    to_move: Seat,
    /// The seat that placed the last stone (the pie counts).
    last: Option<Seat>,
    hash: u64,
}

/// The most stops one line can hold: the longest line of the largest board.
const MAX_LINE: usize = 2 * MAX_SIZE - 1;

/// The bit that a stone on `x` sets in the `friends` mask of its neighbour
/// in direction `k` from `x` (seen from there, `x` lies in direction k + 3).
#[inline]
const fn back_bit(k: usize) -> u8 {
    1 << ((k + 3) % 6)
}

fn stone_key(cell: u16, colour: usize) -> u64 {
    key(salt::NADRAZ, 16 + 2 * cell as u64 + colour as u64)
}

/// Keys of the non-board state: side to move, phase, Black's seat, last placer.
const SIDE_P2: u64 = 0;
const PHASE_CHOICE: u64 = 1;
const PHASE_PLAY: u64 = 2;
const BLACK_P2: u64 = 3;
const LAST_P1: u64 = 4;
const LAST_P2: u64 = 5;

fn meta_key(feature: u64) -> u64 {
    key(salt::NADRAZ, feature)
}

fn seat_text(seat: Option<Seat>) -> &'static str {
    seat.map_or("-", Seat::name)
}

fn parse_seat(text: &str, what: &str) -> Result<Option<Seat>, String> {
    match text.to_ascii_lowercase().as_str() {
        "p1" => Ok(Some(Seat::P1)),
        "p2" => Ok(Some(Seat::P2)),
        "-" => Ok(None),
        _ => Err(format!("{what} '{text}' is not p1, p2 or -")),
    }
}

/// The board size a position text describes: its number of rows is 2n - 1.
pub fn size_of_text(text: &str) -> Option<usize> {
    let rows = text.split_whitespace().next()?.split('/').count();
    (rows % 2 == 1).then_some(rows.div_ceil(2))
}

impl<const C: usize> Nadraz<C> {
    /// The start position (empty board, p1 to place the pie).
    pub fn new(size: usize, variant: Variant) -> Self {
        assert!((MIN_SIZE..=MAX_SIZE).contains(&size) && cell_count(size) <= C);
        let mut game = Nadraz {
            grid: hexhex::grid(size, false),
            variant,
            board: [EMPTY; C],
            near: [[0; C]; 2],
            friends: [[0; C]; 2],
            inward: [0; C],
            mate: [NONE; C],
            length: [0; C],
            ends: [[NONE; C]; 2],
            end_count: [0; 2],
            slot: [NONE; C],
            phase: Phase::Pie,
            black: None,
            to_move: Seat::P1,
            last: None,
            hash: 0,
        };
        for x in 0..game.cells() {
            for (k, &nb) in game.grid.neighbours[x].iter().enumerate() {
                if nb != NONE && !game.grid.edge[nb as usize] {
                    game.inward[x] |= 1 << k;
                }
            }
        }
        game.hash = game.hash_from_scratch();
        game
    }

    pub fn size(&self) -> usize {
        self.grid.side
    }

    fn cells(&self) -> usize {
        self.grid.len()
    }

    fn colour_of(&self, seat: Seat) -> usize {
        if self.black == Some(seat) {
            BLACK
        } else {
            WHITE
        }
    }

    fn seat_of(&self, colour: usize) -> Seat {
        let black = self.black.unwrap_or(Seat::P1);
        if colour == BLACK {
            black
        } else {
            black.other()
        }
    }

    // ----- bookkeeping -----

    fn meta_hash(&self) -> u64 {
        let mut hash = 0;
        if self.to_move == Seat::P2 {
            hash ^= meta_key(SIDE_P2);
        }
        match self.phase {
            Phase::Pie => {}
            Phase::Choice => hash ^= meta_key(PHASE_CHOICE),
            Phase::Play => hash ^= meta_key(PHASE_PLAY),
        }
        if self.black == Some(Seat::P2) {
            hash ^= meta_key(BLACK_P2);
        }
        match self.last {
            None => {}
            Some(Seat::P1) => hash ^= meta_key(LAST_P1),
            Some(Seat::P2) => hash ^= meta_key(LAST_P2),
        }
        hash
    }

    /// Changes the non-board state, keeping the hash up to date.
    fn set_meta(&mut self, change: impl FnOnce(&mut Self)) {
        self.hash ^= self.meta_hash();
        change(self);
        self.hash ^= self.meta_hash();
    }

    /// Puts a stone of `colour` on the empty cell `x`.
    fn put(&mut self, colour: usize, x: u16) {
        self.board[x as usize] = colour as u8 + 1;
        for (k, &nb) in self.grid.neighbours[x as usize].iter().enumerate() {
            if nb != NONE {
                self.near[colour][nb as usize] += 1;
                self.friends[colour][nb as usize] |= back_bit(k);
            }
        }
        self.hash ^= stone_key(x, colour);
    }

    /// Turns the enemy stone on `x` into one of `colour`.
    fn flip(&mut self, colour: usize, x: u16) {
        let foe = 1 - colour;
        self.board[x as usize] = colour as u8 + 1;
        for (k, &nb) in self.grid.neighbours[x as usize].iter().enumerate() {
            if nb != NONE {
                self.near[foe][nb as usize] -= 1;
                self.near[colour][nb as usize] += 1;
                self.friends[foe][nb as usize] &= !back_bit(k);
                self.friends[colour][nb as usize] |= back_bit(k);
            }
        }
        self.hash ^= stone_key(x, foe) ^ stone_key(x, colour);
    }

    fn add_end(&mut self, colour: usize, x: u16) {
        if self.slot[x as usize] == NONE {
            let count = self.end_count[colour];
            self.ends[colour][count as usize] = x;
            self.slot[x as usize] = count;
            self.end_count[colour] = count + 1;
        }
    }

    /// `x` is no longer an end: forget its list slot and end record.
    fn drop_end(&mut self, colour: usize, x: u16) {
        let slot = self.slot[x as usize];
        if slot != NONE {
            let last = self.end_count[colour] - 1;
            let moved = self.ends[colour][last as usize];
            self.ends[colour][slot as usize] = moved;
            self.slot[moved as usize] = slot;
            self.ends[colour][last as usize] = NONE;
            self.end_count[colour] = last;
            self.slot[x as usize] = NONE;
        }
        self.mate[x as usize] = NONE;
        self.length[x as usize] = 0;
    }

    /// Records `a` and `b` as the two ends of one snake of `length` stones.
    fn link(&mut self, a: u16, b: u16, length: u16) {
        self.mate[a as usize] = b;
        self.mate[b as usize] = a;
        self.length[a as usize] = length;
        self.length[b as usize] = length;
    }

    /// A neighbour of `x` holding a `colour` stone, other than `not`
    /// (`NONE` if there is none).
    #[inline]
    fn friend_besides(&self, colour: usize, x: u16, not: u16) -> u16 {
        let stone = colour as u8 + 1;
        for &nb in &self.grid.neighbours[x as usize] {
            if nb != NONE && nb != not && self.board[nb as usize] == stone {
                return nb;
            }
        }
        NONE
    }

    /// Recomputes every derived array from the board; fails when a snake
    /// is not a simple path (a stone with three friends, or a cycle).
    fn rebuild(&mut self) -> Result<(), String> {
        let n = self.cells();
        self.near = [[0; C]; 2];
        self.friends = [[0; C]; 2];
        self.mate = [NONE; C];
        self.length = [0; C];
        self.ends = [[NONE; C]; 2];
        self.end_count = [0; 2];
        self.slot = [NONE; C];
        for x in 0..n as u16 {
            let content = self.board[x as usize];
            if content != EMPTY {
                for (k, &nb) in self.grid.neighbours[x as usize].iter().enumerate() {
                    if nb != NONE {
                        self.near[content as usize - 1][nb as usize] += 1;
                        self.friends[content as usize - 1][nb as usize] |= back_bit(k);
                    }
                }
            }
        }
        let mut seen = vec![false; n];
        for x in 0..n as u16 {
            let content = self.board[x as usize];
            if content == EMPTY {
                continue;
            }
            let colour = content as usize - 1;
            if self.near[colour][x as usize] > 2 {
                return Err(format!(
                    "the stone on {} touches three friendly stones: snakes must be simple paths",
                    self.grid.cell_name(x)
                ));
            }
            if self.near[colour][x as usize] == 2 || seen[x as usize] {
                continue;
            }
            let (mut from, mut at, mut length) = (NONE, x, 1u16);
            seen[x as usize] = true;
            loop {
                let next = self.friend_besides(colour, at, from);
                if next == NONE {
                    break;
                }
                (from, at) = (at, next);
                seen[at as usize] = true;
                length += 1;
            }
            self.link(x, at, length);
            self.add_end(colour, x);
            self.add_end(colour, at);
        }
        if let Some(x) = (0..n).find(|&x| self.board[x] != EMPTY && !seen[x]) {
            return Err(format!(
                "the stone on {} lies on a cycle: snakes must be simple paths",
                self.grid.cell_name(x as u16)
            ));
        }
        Ok(())
    }

    // ----- move generation -----

    /// Adds the next stone of the line on `x` (empty, or an enemy stone
    /// being flipped) to the growing snake of colour `colour`, whose start
    /// has mate `start_mate`; `tip` is the degree of the walk's last stone
    /// in the growing snake (updated to that of `x`), `back` the bit of the
    /// direction from `x` back to that stone. False when the path rule
    /// forbids it.
    #[inline]
    fn attach(&self, colour: usize, x: u16, tip: &mut u8, start_mate: u16, back: u8) -> bool {
        if *tip >= 2 {
            return false;
        }
        let others = self.friends[colour][x as usize] & !back;
        let degree = match others {
            0 => 1,
            _ if others & (others - 1) == 0 => {
                // The other friend must be an end (or egg) of another snake.
                let y = self.grid.neighbours[x as usize][others.trailing_zeros() as usize];
                if self.near[colour][y as usize] >= 2 || y == start_mate {
                    return false;
                }
                2
            }
            _ => return false,
        };
        *tip = degree;
        true
    }

    /// The cut cell after the enemy run that starts on `x` in direction
    /// `d`, if the run may be flipped: no head, tail, egg or edge stone in
    /// it, and an empty cell right after it.
    #[inline]
    fn cut_cell(&self, colour: usize, x: u16, d: usize) -> Option<u16> {
        let foe = 1 - colour;
        let theirs = foe as u8 + 1;
        let mut e = x;
        loop {
            if self.near[foe][e as usize] != 2 || self.grid.edge[e as usize] {
                return None;
            }
            e = self.grid.step(e, d);
            if e == NONE {
                return None;
            }
            match self.board[e as usize] {
                EMPTY => return Some(e),
                content if content == theirs => {}
                _ => return None,
            }
        }
    }

    /// Walks from the end `s` of colour `colour` in direction `d`, calling
    /// `emit` with every cell the turn may end on. Returns false as soon as
    /// `emit` does.
    #[inline]
    fn walk(&self, colour: usize, s: u16, d: usize, emit: &mut impl FnMut(u16) -> bool) -> bool {
        let grid = self.grid;
        let mine = colour as u8 + 1;
        let start_mate = self.mate[s as usize];
        let back = back_bit(d);
        let mut tip = self.near[colour][s as usize];
        let mut x = grid.step(s, d);
        while x != NONE {
            let content = self.board[x as usize];
            if content == EMPTY {
                // A plain placement may not stand on the edge.
                if grid.edge[x as usize] || !self.attach(colour, x, &mut tip, start_mate, back) {
                    break;
                }
                if !emit(x) {
                    return false;
                }
                x = grid.step(x, d);
            } else if content == mine {
                // Only an egg is passed through (absorbed); the stone before
                // it already counted it as a friend.
                if self.near[colour][x as usize] != 0 {
                    break;
                }
                tip = 1;
                x = grid.step(x, d);
            } else {
                let Some(cut) = self.cut_cell(colour, x, d) else {
                    break;
                };
                let mut e = x;
                while e != cut && self.attach(colour, e, &mut tip, start_mate, back) {
                    e = grid.step(e, d);
                }
                if e != cut || !self.attach(colour, cut, &mut tip, start_mate, back) {
                    break;
                }
                if !emit(cut) {
                    return false;
                }
                x = grid.step(cut, d);
            }
        }
        true
    }

    /// The directions in which a turn of `colour` may start from the end
    /// `s`. Not: off the board; onto an edge cell (no plain placement, flip
    /// or absorbed-egg end there, and an edge stone is never flipped); onto
    /// a friend, which touches the end `s` itself and so is never an egg to
    /// absorb.
    fn open_directions(&self, colour: usize, s: u16) -> u8 {
        self.inward[s as usize] & !self.friends[colour][s as usize]
    }

    /// Calls `emit(start, final)` for every turn of `colour`; returns false
    /// as soon as `emit` does.
    fn for_each_walk(&self, colour: usize, mut emit: impl FnMut(u16, u16) -> bool) -> bool {
        for i in 0..self.end_count[colour] as usize {
            let s = self.ends[colour][i];
            let mut open = self.open_directions(colour, s);
            while open != 0 {
                let d = open.trailing_zeros() as usize;
                open &= open - 1;
                if !self.walk(colour, s, d, &mut |t| emit(s, t)) {
                    return false;
                }
            }
        }
        true
    }

    fn can_move(&self, colour: usize) -> bool {
        !self.for_each_walk(colour, |_, _| false)
    }

    fn interior_cells(&self) -> impl Iterator<Item = u16> + '_ {
        (0..self.cells() as u16).filter(|&x| !self.grid.edge[x as usize])
    }

    // ----- making moves -----

    fn play_pie(&mut self, black: u16, white: u16) {
        for (colour, x) in [(BLACK, black), (WHITE, white)] {
            self.put(colour, x);
            self.link(x, x, 1);
            self.add_end(colour, x);
        }
        self.set_meta(|g| {
            g.phase = Phase::Choice;
            g.last = Some(Seat::P1);
            g.to_move = Seat::P2;
        });
    }

    fn play_choice(&mut self, wants_black: bool) {
        self.set_meta(|g| {
            let black = if wants_black {
                g.to_move
            } else {
                g.to_move.other()
            };
            g.black = Some(black);
            g.to_move = black;
            g.phase = Phase::Play;
        });
    }

    fn play_walk(&mut self, s: u16, t: u16) {
        let colour = self.colour_of(self.to_move);
        let mine = colour as u8 + 1;
        let d = self
            .grid
            .line_direction(s, t)
            .expect("a walk runs along a line");
        let (start_mate, start_length) = (self.mate[s as usize], self.length[s as usize]);
        // Stones of the line that join the snake (placed, absorbed, flipped).
        let mut added = 0u16;
        let mut x = s;
        while x != t {
            x = self.grid.step(x, d);
            let content = self.board[x as usize];
            if content == mine {
                // An absorbed egg becomes a middle stone.
                self.drop_end(colour, x);
            } else if content != EMPTY {
                let (first, mut last, mut run) = (x, x, 0u16);
                while self.board[x as usize] != EMPTY {
                    self.flip(colour, x);
                    (last, run) = (x, run + 1);
                    x = self.grid.step(x, d);
                }
                self.split_enemy(1 - colour, first, last, run);
                added += run;
                self.put(colour, x);
            } else {
                self.put(colour, x);
            }
            added += 1;
        }
        // The last stone may have joined one more snake (or egg).
        let before_t = self.grid.step(t, (d + 3) % 6);
        let joined = self.friend_besides(colour, t, before_t);
        let (far_end, extra) = if joined == NONE {
            (t, 0)
        } else {
            (self.mate[joined as usize], self.length[joined as usize])
        };
        if s != start_mate {
            self.drop_end(colour, s);
        }
        if joined != NONE && joined != far_end {
            self.drop_end(colour, joined);
        }
        self.link(start_mate, far_end, start_length + added + extra);
        if far_end == t {
            self.add_end(colour, t);
        }
    }

    /// The enemy snake lost its middle run `first..=last` (`run` stones,
    /// already flipped): record its two pieces.
    fn split_enemy(&mut self, foe: usize, first: u16, last: u16, run: u16) {
        let a = self.friend_besides(foe, first, NONE);
        let b = if run == 1 {
            self.friend_besides(foe, first, a)
        } else {
            self.friend_besides(foe, last, NONE)
        };
        // Walk both pieces in turn; the first to end tells its far end.
        let starts = [a, b];
        let mut at = starts;
        let mut from = [first, last];
        let mut counts = [1u16; 2];
        let side = 'walk: loop {
            for i in 0..2 {
                let next = self.friend_besides(foe, at[i], from[i]);
                if next == NONE {
                    break 'walk i;
                }
                (from[i], at[i]) = (at[i], next);
                counts[i] += 1;
            }
        };
        let end = at[side];
        let (old_length, other_end) = (self.length[end as usize], self.mate[end as usize]);
        self.link(end, starts[side], counts[side]);
        self.link(other_end, starts[1 - side], old_length - run - counts[side]);
        self.add_end(foe, a);
        self.add_end(foe, b);
    }

    // ----- scoring -----

    /// Per colour, how many snakes of each length it has.
    fn length_counts(&self) -> [[u16; MAX_CELLS + 1]; 2] {
        let mut counts = [[0u16; MAX_CELLS + 1]; 2];
        for (colour, count) in counts.iter_mut().enumerate() {
            for &x in &self.ends[colour][..self.end_count[colour] as usize] {
                // Count each snake once, at its lower-numbered end.
                if self.mate[x as usize] >= x {
                    count[self.length[x as usize] as usize] += 1;
                }
            }
        }
        counts
    }

    /// The winning colour by the snakes alone, None on identical snakes.
    fn snake_winner(&self) -> Option<usize> {
        let counts = self.length_counts();
        let differs = |l: &usize| counts[BLACK][*l] != counts[WHITE][*l];
        match self.variant {
            // The longest length where the counts differ: more snakes wins
            // (this compares the sorted length lists).
            Variant::Standard => (1..=MAX_CELLS).rev().find(differs).map(|l| {
                if counts[BLACK][l] > counts[WHITE][l] {
                    BLACK
                } else {
                    WHITE
                }
            }),
            // The shortest length where the counts differ: fewer wins.
            Variant::Reverse => (1..=MAX_CELLS).find(differs).map(|l| {
                if counts[BLACK][l] < counts[WHITE][l] {
                    BLACK
                } else {
                    WHITE
                }
            }),
        }
    }

    /// The three longest snakes and the numbers of eggs and of length-2
    /// snakes of `colour`.
    fn profile(&self, colour: usize) -> ([i32; 3], i32, i32) {
        let mut top = [0i32; 3];
        let (mut eggs, mut pairs) = (0, 0);
        for &x in &self.ends[colour][..self.end_count[colour] as usize] {
            if self.mate[x as usize] < x {
                continue;
            }
            let length = self.length[x as usize] as i32;
            eggs += (length == 1) as i32;
            pairs += (length == 2) as i32;
            if let Some(i) = top.iter().position(|&t| length > t) {
                top[i..].rotate_right(1);
                top[i] = length;
            }
        }
        (top, eggs, pairs)
    }

    /// The lengths of `colour`'s snakes, longest first, read off the board.
    fn snake_lengths(&self, colour: usize) -> Vec<usize> {
        let stone = colour as u8 + 1;
        let mut seen = vec![false; self.cells()];
        let mut lengths = Vec::new();
        for start in 0..self.cells() {
            if seen[start] || self.board[start] != stone {
                continue;
            }
            seen[start] = true;
            let (mut stack, mut length) = (vec![start], 0);
            while let Some(x) = stack.pop() {
                length += 1;
                for &nb in &self.grid.neighbours[x] {
                    if nb != NONE && self.board[nb as usize] == stone && !seen[nb as usize] {
                        seen[nb as usize] = true;
                        stack.push(nb as usize);
                    }
                }
            }
            lengths.push(length);
        }
        lengths.sort_unstable_by(|a, b| b.cmp(a));
        lengths
    }

    // ----- text -----

    fn push_cell(&self, out: &mut String, x: u16) {
        let (q, r) = self.grid.coords[x as usize];
        if q >= 26 {
            out.push((b'a' + (q / 26 - 1) as u8) as char);
        }
        out.push((b'a' + (q % 26) as u8) as char);
        let row = r + 1;
        if row >= 10 {
            out.push((b'0' + (row / 10) as u8) as char);
        }
        out.push((b'0' + (row % 10) as u8) as char);
    }

    /// Reads a cell, letters then digits, case-insensitively. Byte-wise:
    /// the pie position has up to 219k moves whose texts may all be read.
    fn cell_of_bytes(&self, bytes: &[u8]) -> Option<u16> {
        let letters = bytes.iter().take_while(|b| b.is_ascii_alphabetic()).count();
        let digits = &bytes[letters..];
        if !(1..=3).contains(&letters)
            || !(1..=3).contains(&digits.len())
            || !digits.iter().all(u8::is_ascii_digit)
        {
            return None;
        }
        let column = bytes[..letters].iter().fold(0i32, |c, b| {
            c * 26 + (b.to_ascii_lowercase() - b'a') as i32 + 1
        });
        let row = digits.iter().fold(0i32, |r, b| r * 10 + (b - b'0') as i32);
        self.grid.id(column - 1, row - 1)
    }

    fn cell_id(&self, bytes: &[u8]) -> Result<u16, String> {
        self.cell_of_bytes(bytes).ok_or_else(|| {
            format!(
                "'{}' is not a cell of the size-{} hexhex board",
                String::from_utf8_lossy(bytes),
                self.size()
            )
        })
    }

    /// `B@cell+W@cell`, in either order.
    fn parse_pie(&self, text: &str, plus: usize) -> Result<NadrazMove, String> {
        let bad = || format!("'{text}' is not a pie placement like B@e5+W@f7");
        let bytes = text.as_bytes();
        let mut cells = [None, None];
        for part in [&bytes[..plus], &bytes[plus + 1..]] {
            if part.len() < 3 || part[1] != b'@' {
                return Err(bad());
            }
            let colour = match part[0].to_ascii_uppercase() {
                b'B' => BLACK,
                b'W' => WHITE,
                _ => return Err(bad()),
            };
            if cells[colour].is_some() {
                return Err(bad());
            }
            cells[colour] = Some(self.cell_id(&part[2..])?);
        }
        match cells {
            [Some(b), Some(w)] => Ok(encode(PIE, b, w)),
            _ => Err(bad()),
        }
    }

    /// Two cells concatenated, `e5e9`.
    fn parse_walk(&self, text: &str) -> Result<NadrazMove, String> {
        let bytes = text.as_bytes();
        let letters = bytes.iter().take_while(|b| b.is_ascii_alphabetic()).count();
        let digits = bytes[letters..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count();
        if letters == 0 || digits == 0 || letters + digits == bytes.len() {
            return Err(format!(
                "'{text}' is not a nadraz move (B@e5+W@f7, black, white, pass, or a turn like e5e9)"
            ));
        }
        let (start, end) = bytes.split_at(letters + digits);
        Ok(encode(WALK, self.cell_id(start)?, self.cell_id(end)?))
    }

    fn board_text(&self) -> String {
        let n = self.size() as i32;
        let mut rows = Vec::new();
        for r in (0..2 * n - 1).rev() {
            let mut row = String::new();
            let mut gap = 0;
            for q in 0..2 * n - 1 {
                let Some(x) = self.grid.id(q, r) else {
                    continue;
                };
                match self.board[x as usize] {
                    EMPTY => gap += 1,
                    content => {
                        if gap > 0 {
                            row.push_str(&gap.to_string());
                            gap = 0;
                        }
                        row.push(if content == 1 { 'b' } else { 'w' });
                    }
                }
            }
            if gap > 0 {
                row.push_str(&gap.to_string());
            }
            rows.push(row);
        }
        rows.join("/")
    }

    /// Fills the board from its text (rows from the top, `b`, `w`, and
    /// numbers of empty cells).
    fn read_board(&mut self, text: &str) -> Result<(), String> {
        let n = self.size() as i32;
        let rows: Vec<&str> = text.split('/').collect();
        for (i, row) in rows.iter().enumerate() {
            let r = 2 * n - 2 - i as i32;
            let cells: Vec<u16> = (0..2 * n - 1).filter_map(|q| self.grid.id(q, r)).collect();
            let mut at = 0usize;
            let mut number = 0usize;
            for ch in row.chars() {
                if let Some(digit) = ch.to_digit(10) {
                    if number == 0 && digit == 0 {
                        return Err(format!("row {}: runs of empty cells are 1 or more", r + 1));
                    }
                    number = number * 10 + digit as usize;
                    if at + number > cells.len() {
                        return Err(format!("row {} has too many cells", r + 1));
                    }
                    continue;
                }
                at += number;
                number = 0;
                let colour = match ch.to_ascii_lowercase() {
                    'b' => BLACK,
                    'w' => WHITE,
                    _ => {
                        return Err(format!(
                            "row {}: '{ch}' is not b, w or a number of empty cells",
                            r + 1
                        ));
                    }
                };
                let Some(&x) = cells.get(at) else {
                    return Err(format!("row {} has too many cells", r + 1));
                };
                self.board[x as usize] = colour as u8 + 1;
                at += 1;
            }
            at += number;
            if at != cells.len() {
                return Err(format!("row {} has {at} cells, not {}", r + 1, cells.len()));
            }
        }
        Ok(())
    }

    fn stone_count(&self, colour: usize) -> usize {
        self.board[..self.cells()]
            .iter()
            .filter(|&&c| c == colour as u8 + 1)
            .count()
    }

    /// Checks the phase against the board and the seats.
    fn check_phase(&self) -> Result<(), String> {
        let stones = [self.stone_count(BLACK), self.stone_count(WHITE)];
        match self.phase {
            Phase::Pie => {
                if stones != [0, 0] || self.black.is_some() || self.last.is_some() {
                    return Err(
                        "pie phase: the board is empty and Black and the last placer are '-'"
                            .into(),
                    );
                }
                if self.to_move != Seat::P1 {
                    return Err("pie phase: p1 is to move".into());
                }
            }
            Phase::Choice => {
                let edge_stone =
                    (0..self.cells()).any(|x| self.board[x] != EMPTY && self.grid.edge[x]);
                if stones != [1, 1] || edge_stone {
                    return Err("choice phase: one black and one white egg, off the edge".into());
                }
                if self.black.is_some() || self.last != Some(Seat::P1) || self.to_move != Seat::P2 {
                    return Err(
                        "choice phase: Black is '-', the last placer p1, p2 is to move".into(),
                    );
                }
            }
            Phase::Play => {
                if self.black.is_none() || self.last.is_none() {
                    return Err("play phase: Black's seat and the last placer are p1 or p2".into());
                }
            }
        }
        Ok(())
    }

    fn cell_char(&self, x: u16) -> char {
        match self.board[x as usize] {
            1 => 'b',
            2 => 'w',
            _ if self.grid.edge[x as usize] => ':',
            _ => '.',
        }
    }
}

impl<const C: usize> PartialEq for Nadraz<C> {
    /// The same position with the same bookkeeping (end lists compared as
    /// sets: their order depends on the move history).
    fn eq(&self, other: &Self) -> bool {
        let n = self.cells();
        let end_set = |g: &Self| (0..n).map(|x| g.slot[x] != NONE).collect::<Vec<_>>();
        self.size() == other.size()
            && self.variant == other.variant
            && self.phase == other.phase
            && self.black == other.black
            && self.to_move == other.to_move
            && self.last == other.last
            && self.hash == other.hash
            && self.board[..n] == other.board[..n]
            && self.near[0][..n] == other.near[0][..n]
            && self.near[1][..n] == other.near[1][..n]
            && self.friends[0][..n] == other.friends[0][..n]
            && self.friends[1][..n] == other.friends[1][..n]
            && self.mate[..n] == other.mate[..n]
            && self.length[..n] == other.length[..n]
            && self.end_count == other.end_count
            && end_set(self) == end_set(other)
    }
}

impl<const C: usize> fmt::Debug for Nadraz<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Nadraz({})", self.position_text())
    }
}

impl<const C: usize> Game for Nadraz<C> {
    type Move = NadrazMove;
    type Undo = Self;

    fn describe(&self) -> String {
        format!(
            "nadraz size={} variant={}",
            self.size(),
            self.variant.name()
        )
    }

    fn side_to_move(&self) -> Seat {
        self.to_move
    }

    fn legal_moves(&self, moves: &mut Vec<NadrazMove>) {
        moves.clear();
        match self.phase {
            Phase::Pie => {
                for b in self.interior_cells() {
                    moves.extend(
                        self.interior_cells()
                            .filter(|&w| w != b)
                            .map(|w| encode(PIE, b, w)),
                    );
                }
            }
            Phase::Choice => {
                moves.push(encode(CHOICE, 0, 0));
                moves.push(encode(CHOICE, 0, 1));
            }
            Phase::Play => {
                let colour = self.colour_of(self.to_move);
                self.for_each_walk(colour, |s, t| {
                    moves.push(encode(WALK, s, t));
                    true
                });
                if moves.is_empty() && self.can_move(1 - colour) {
                    moves.push(PASS);
                }
            }
        }
    }

    fn make(&mut self, mv: NadrazMove) -> Self {
        let before = self.clone();
        self.play(mv);
        before
    }

    fn unmake(&mut self, _mv: NadrazMove, undo: Self) {
        *self = undo;
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.phase != Phase::Play || self.can_move(BLACK) || self.can_move(WHITE) {
            return None;
        }
        let winner = match self.snake_winner() {
            Some(colour) => self.seat_of(colour),
            None => self.last.expect("the pie placed the first stones"),
        };
        Some(Outcome::Win(winner))
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn hash_from_scratch(&self) -> u64 {
        let mut hash = self.meta_hash();
        for x in 0..self.cells() as u16 {
            let content = self.board[x as usize];
            if content != EMPTY {
                hash ^= stone_key(x, content as usize - 1);
            }
        }
        hash
    }

    fn parse_move(&self, text: &str) -> Result<NadrazMove, String> {
        let text = text.trim();
        if text.eq_ignore_ascii_case("pass") {
            Ok(PASS)
        } else if text.eq_ignore_ascii_case("black") {
            Ok(encode(CHOICE, 0, 0))
        } else if text.eq_ignore_ascii_case("white") {
            Ok(encode(CHOICE, 0, 1))
        } else if let Some(plus) = text.bytes().position(|b| b == b'+') {
            self.parse_pie(text, plus)
        } else if text.contains('@') {
            Err(format!("'{text}' is not a pie placement like B@e5+W@f7"))
        } else {
            self.parse_walk(text)
        }
    }

    fn format_move(&self, mv: NadrazMove) -> String {
        let (kind, a, b) = decode(mv);
        let mut out = String::with_capacity(12);
        match kind {
            WALK => {
                self.push_cell(&mut out, a);
                self.push_cell(&mut out, b);
            }
            PIE => {
                out.push_str("B@");
                self.push_cell(&mut out, a);
                out.push_str("+W@");
                self.push_cell(&mut out, b);
            }
            CHOICE => out.push_str(if b == 0 { "black" } else { "white" }),
            _ => out.push_str("pass"),
        }
        out
    }

    fn position_text(&self) -> String {
        let phase = match self.phase {
            Phase::Pie => "pie",
            Phase::Choice => "choice",
            Phase::Play => "play",
        };
        format!(
            "{} {phase} {} {} {}",
            self.board_text(),
            seat_text(self.black),
            self.to_move.name(),
            seat_text(self.last)
        )
    }

    fn read_position(&self, text: &str) -> Result<Self, String> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        let [board, phase, black, to_move, last] = fields[..] else {
            return Err("nadraz position text is '<rows> <pie|choice|play> <Black's seat> <side to move> <last placer>'".into());
        };
        let size = size_of_text(board)
            .filter(|n| (MIN_SIZE..=MAX_SIZE).contains(n))
            .ok_or_else(|| {
                "a nadraz board has 2n-1 rows separated by '/', n from 5 to 14".to_string()
            })?;
        if cell_count(size) > C {
            return Err(format!(
                "a size-{size} board does not fit this game (at most {C} cells)"
            ));
        }
        let mut game = Nadraz::<C>::new(size, self.variant);
        game.read_board(board)?;
        game.phase = match phase.to_ascii_lowercase().as_str() {
            "pie" => Phase::Pie,
            "choice" => Phase::Choice,
            "play" => Phase::Play,
            _ => return Err(format!("phase '{phase}' is not pie, choice or play")),
        };
        game.black = parse_seat(black, "Black's seat")?;
        game.to_move = parse_seat(to_move, "side to move")?
            .ok_or_else(|| "the side to move is p1 or p2".to_string())?;
        game.last = parse_seat(last, "last placer")?;
        game.check_phase()?;
        game.rebuild()?;
        game.hash = game.hash_from_scratch();
        Ok(game)
    }

    fn render(&self) -> String {
        let mut out = self.grid.render(|x| self.cell_char(x));
        out.push_str("b black, w white, . empty, : empty edge cell\n");
        let colour = |seat: Seat| match (self.phase, self.colour_of(seat)) {
            (Phase::Play, BLACK) => " (black)",
            (Phase::Play, _) => " (white)",
            _ => "",
        };
        let phase = match self.phase {
            Phase::Pie => "pie placement",
            Phase::Choice => "side choice",
            Phase::Play => "play",
        };
        out.push_str(&format!(
            "phase: {phase}; to move: {}{}; black: {}; last stone placed by: {}\n",
            self.to_move.name(),
            colour(self.to_move),
            seat_text(self.black),
            seat_text(self.last)
        ));
        out
    }

    /// Standard: the longest snakes (mine minus theirs). Reverse: fewer
    /// eggs and pairs than the opponent.
    fn evaluate(&self) -> i32 {
        if self.phase != Phase::Play {
            return 0;
        }
        let me = self.colour_of(self.to_move);
        let (my_top, my_eggs, my_pairs) = self.profile(me);
        let (their_top, their_eggs, their_pairs) = self.profile(1 - me);
        match self.variant {
            Variant::Standard => {
                100 * (my_top[0] - their_top[0])
                    + 30 * (my_top[1] - their_top[1])
                    + 10 * (my_top[2] - their_top[2])
            }
            Variant::Reverse => 100 * (their_eggs - my_eggs) + 30 * (their_pairs - my_pairs),
        }
    }

    /// Random games last about 2.5 turns per five empty interior cells;
    /// the mover plays half of them.
    fn moves_left_estimate(&self) -> u32 {
        let empty = self
            .interior_cells()
            .filter(|&x| self.board[x as usize] == EMPTY)
            .count() as u32;
        (empty / 5).max(1)
    }

    /// Black and white stones joined along their snakes; eggs are oval,
    /// heads and tails (where a turn may start) carry a dot; edge cells
    /// are shaded. The notes list each colour's snake lengths (the score).
    fn picture(&self) -> Picture {
        const INKS: [(Ink, char, char); 2] = [(Ink::Black, 'b', 'B'), (Ink::White, 'w', 'W')];
        let mut picture = Picture::hexhex(self.describe(), self.grid);
        for x in 0..self.cells() {
            if self.grid.edge[x] {
                picture.cells[x].tone = Tone::Edge;
            }
            let Some(colour) = (self.board[x] as usize).checked_sub(1) else {
                continue;
            };
            let (ink, middle, end) = INKS[colour];
            let mut same = 0;
            for &nb in &self.grid.neighbours[x] {
                if nb != NONE && self.board[nb as usize] == self.board[x] {
                    same += 1;
                    if (nb as usize) > x {
                        picture.links.push(Link {
                            a: x,
                            b: nb as usize,
                            ink,
                        });
                    }
                }
            }
            picture.add(match same {
                0 => Piece::new(x, Shape::Egg, ink, end),
                1 => Piece::new(x, Shape::Stone, ink, end).with_detail(Detail::End),
                _ => Piece::new(x, Shape::Stone, ink, middle),
            });
        }
        let names = match self.black {
            Some(black) if self.phase == Phase::Play => {
                let mut names = ["white"; 2];
                names[black.index()] = "black";
                names
            }
            _ => ["p1", "p2"],
        };
        picture.note(match (self.phase, self.outcome()) {
            (Phase::Pie, None) => "p1 to place the pie: a black and a white egg".to_string(),
            (Phase::Choice, None) => "p2 to choose a side: black or white".to_string(),
            (_, outcome) => turn_note(outcome, self.to_move, names),
        });
        for colour in [BLACK, WHITE] {
            let lengths: Vec<String> = self
                .snake_lengths(colour)
                .iter()
                .map(usize::to_string)
                .collect();
            let seat = match self.phase {
                Phase::Play => format!(" ({})", self.seat_of(colour).name()),
                _ => String::new(),
            };
            picture.note(format!(
                "{}{seat} snakes: {}",
                INKS[colour].0.name(),
                if lengths.is_empty() {
                    "none".to_string()
                } else {
                    lengths.join(" ")
                }
            ));
        }
        picture.note(match self.variant {
            Variant::Standard => "the longer snakes win",
            Variant::Reverse => "fewer short snakes win",
        });
        picture
    }

    fn random_move(&self, rng: &mut GameRng, scratch: &mut Vec<NadrazMove>) -> Option<NadrazMove> {
        match self.phase {
            Phase::Pie => {
                // Uniform over ordered pairs of distinct interior cells.
                let n = self.cells();
                let pick = |rng: &mut GameRng, not: u16| loop {
                    let x = random_below(rng, n) as u16;
                    if !self.grid.edge[x as usize] && x != not {
                        return x;
                    }
                };
                let b = pick(rng, NONE);
                let w = pick(rng, b);
                Some(encode(PIE, b, w))
            }
            Phase::Choice => Some(encode(CHOICE, 0, random_below(rng, 2) as u16)),
            Phase::Play => {
                self.legal_moves(scratch);
                (!scratch.is_empty()).then(|| scratch[random_below(rng, scratch.len())])
            }
        }
    }

    /// Playouts choose a line, not a turn: a random line (an end stone of
    /// the mover and an open direction from it) among those with a stop,
    /// then a random stop along it. Lines are walked one at a time in
    /// random order until one has a stop (about one in ten has, after the
    /// pie), which costs a small part of listing every turn (most of a
    /// uniform ply); a turn on a line with few stops is likelier than under
    /// the uniform choice. No line with a stop: a pass if the opponent can
    /// move, else the game is over.
    fn playout_move(&self, rng: &mut GameRng, scratch: &mut Vec<NadrazMove>) -> Option<NadrazMove> {
        if self.phase != Phase::Play {
            return self.random_move(rng, scratch);
        }
        let colour = self.colour_of(self.to_move);
        scratch.clear();
        for &s in &self.ends[colour][..self.end_count[colour] as usize] {
            let mut open = self.open_directions(colour, s);
            while open != 0 {
                scratch.push((s as u32) << 3 | open.trailing_zeros());
                open &= open - 1;
            }
        }
        let mut stops = [0u16; MAX_LINE];
        while !scratch.is_empty() {
            let line = scratch.swap_remove(random_below(rng, scratch.len()));
            let (s, d) = ((line >> 3) as u16, (line & 7) as usize);
            let mut count = 0;
            self.walk(colour, s, d, &mut |t| {
                stops[count] = t;
                count += 1;
                true
            });
            if count > 0 {
                return Some(encode(WALK, s, stops[random_below(rng, count)]));
            }
        }
        self.can_move(1 - colour).then_some(PASS)
    }

    fn play(&mut self, mv: NadrazMove) {
        let (kind, a, b) = decode(mv);
        match kind {
            PIE => self.play_pie(a, b),
            CHOICE => self.play_choice(b == 0),
            PASS_KIND => self.set_meta(|g| g.to_move = g.to_move.other()),
            _ => {
                self.play_walk(a, b);
                self.set_meta(|g| {
                    g.last = Some(g.to_move);
                    g.to_move = g.to_move.other();
                });
            }
        }
    }

    /// Lines, the edge ring and the pie's interior cells are mapped onto
    /// themselves by the 12 symmetries of the hexhex board.
    fn symmetry_count(&self) -> usize {
        12
    }

    fn symmetric(&self, sym: usize) -> Self {
        let mut image = self.clone();
        image.board = [EMPTY; C];
        for x in 0..self.cells() as u16 {
            image.board[self.grid.transform(x, sym) as usize] = self.board[x as usize];
        }
        image
            .rebuild()
            .expect("a symmetric image of a legal board is legal");
        image.hash = image.hash_from_scratch();
        image
    }

    fn symmetric_move(&self, mv: NadrazMove, sym: usize) -> NadrazMove {
        let (kind, a, b) = decode(mv);
        match kind {
            WALK | PIE => encode(
                kind,
                self.grid.transform(a, sym),
                self.grid.transform(b, sym),
            ),
            _ => mv,
        }
    }

    fn canonical_key(&self) -> u64 {
        let stones = (0..self.cells() as u16).filter(|&x| self.board[x as usize] != EMPTY);
        least_image_key::<_, 12>(
            stones,
            |x, sym| {
                let content = self.board[x as usize];
                stone_key(self.grid.transform(x, sym), content as usize - 1)
            },
            self.meta_hash(),
        )
    }

    /// Identical snake lists go to the last placer: never a draw, and
    /// every turn fills a cell.
    fn can_draw(&self) -> bool {
        false
    }

    fn feature_set(&self) -> Option<FeatureSet> {
        let l = layout();
        Some(FeatureSet {
            name: "nadraz",
            version: 1,
            position: l.position_size,
            moves: l.move_size,
        })
    }

    fn position_features(&self, out: &mut Vec<u32>) {
        self.write_position_features(out);
    }

    fn move_features(&self, moves: &[NadrazMove], out: &mut FeatureRows) {
        self.write_move_features(moves, out);
    }
}

/// Where each kind of feature starts (see `write_*_features`).
struct Layout {
    /// Walk: the length of the snake it starts from.
    start_length: u32,
    /// Walk: stones placed x enemy stones flipped.
    stones: u32,
    /// Walk: the snake's length after it x its rank among the mover's
    /// snakes x its excess over the opponent's longest.
    result: u32,
    /// Walk: the friendly snake the last stone joins (none, or its length).
    joined: u32,
    /// Walk: the enemy snake cut (its length x its rank among theirs).
    cut: u32,
    /// Walk: the last stone's six neighbours (own, enemy, empty, off) x
    /// whether it stands on the edge.
    ring: u32,
    /// Walk: its direction from the centre (in, along, out) x the phase.
    heading: u32,
    /// Pie: each egg's distance from the centre, and theirs apart.
    pie: u32,
    choice: u32,
    pass: u32,
    move_size: u32,
    /// Position: the phase of the game (pie, choice, play stages).
    stage: u32,
    /// Position: the three longest snakes, own minus enemy, x the phase.
    top: u32,
    /// Position: who would win if the game ended now x the phase.
    leader: u32,
    /// Position: eggs and snakes of each side.
    counts: u32,
    /// Position: who placed the last stone (the tie-break).
    last: u32,
    position_size: u32,
}

const LENGTHS: u32 = 10;
const PHASES: u32 = 4;

fn ring_table() -> &'static PatternTable {
    static TABLE: OnceLock<PatternTable> = OnceLock::new();
    TABLE.get_or_init(|| PatternTable::new(6, 4, &PatternTable::dihedral(6, 1)))
}

fn layout() -> &'static Layout {
    static LAYOUT: OnceLock<Layout> = OnceLock::new();
    LAYOUT.get_or_init(|| {
        let b = Blocks::new();
        let (start_length, b) = b.block(LENGTHS * PHASES);
        let (stones, b) = b.block(7 * 5);
        let (result, b) = b.block(LENGTHS * 3 * 7 * PHASES);
        let (joined, b) = b.block(LENGTHS + 1);
        let (cut, b) = b.block(LENGTHS * 3 + 1);
        let (ring, b) = b.block(2 * ring_table().classes());
        let (heading, b) = b.block(3 * PHASES);
        let (pie, b) = b.block(3 * 16);
        let (choice, b) = b.block(2);
        let (pass, b) = b.block(1);
        let move_size = b.size();
        let b = Blocks::new();
        let (stage, b) = b.block(2 + PHASES);
        let (top, b) = b.block(3 * 21 * PHASES);
        let (leader, b) = b.block(3 * PHASES);
        let (counts, b) = b.block(4 * 16);
        let (last, b) = b.block(3);
        Layout {
            start_length,
            stones,
            result,
            joined,
            cut,
            ring,
            heading,
            pie,
            choice,
            pass,
            move_size,
            stage,
            top,
            leader,
            counts,
            last,
            position_size: b.size(),
        }
    })
}

impl<const C: usize> Nadraz<C> {
    /// The stage of play by the share of interior cells filled.
    fn play_phase(&self) -> u32 {
        let interior = self.interior_cells().count() as u32;
        let filled = self
            .interior_cells()
            .filter(|&x| self.board[x as usize] != EMPTY)
            .count() as u32;
        (PHASES * filled / (interior + 1)).min(PHASES - 1)
    }

    /// Hex distance from the centre.
    fn distance_from_centre(&self, x: u16) -> u32 {
        let c = self.size() as i32 - 1;
        let (q, r) = self.grid.coords[x as usize];
        let (dq, dr) = (q - c, r - c);
        dq.abs().max(dr.abs()).max((dq - dr).abs()) as u32
    }

    fn distance(&self, a: u16, b: u16) -> u32 {
        let (q0, r0) = self.grid.coords[a as usize];
        let (q1, r1) = self.grid.coords[b as usize];
        let (dq, dr) = (q1 - q0, r1 - r0);
        dq.abs().max(dr.abs()).max((dq - dr).abs()) as u32
    }

    /// The length of the snake through the stone on `x` (any stone).
    fn snake_through(&self, x: u16) -> u32 {
        let colour = self.board[x as usize] as usize - 1;
        let mut length = 1;
        let first = self.friend_besides(colour, x, NONE);
        let mut ways = [first, NONE];
        if first != NONE {
            ways[1] = self.friend_besides(colour, x, first);
        }
        for start in ways {
            let (mut from, mut at) = (x, start);
            while at != NONE {
                length += 1;
                let next = self.friend_besides(colour, at, from);
                (from, at) = (at, next);
            }
        }
        length
    }

    fn write_position_features(&self, out: &mut Vec<u32>) {
        let l = layout();
        match self.phase {
            Phase::Pie => return out.push(l.stage),
            Phase::Choice => return out.push(l.stage + 1),
            Phase::Play => {}
        }
        let phase = self.play_phase();
        out.push(l.stage + 2 + phase);
        let me = self.colour_of(self.to_move);
        let (my_top, my_eggs, _) = self.profile(me);
        let (their_top, their_eggs, _) = self.profile(1 - me);
        for k in 0..3 {
            let diff = clamp_bucket(my_top[k] - their_top[k], -10, 10);
            out.push(l.top + (k as u32 * 21 + diff) * PHASES + phase);
        }
        let leader = match self.snake_winner() {
            None => 0,
            Some(colour) if colour == me => 1,
            Some(_) => 2,
        };
        out.push(l.leader + leader * PHASES + phase);
        let snakes = |colour: usize| self.end_count[colour] as u32;
        out.push(l.counts + (my_eggs as u32).min(15));
        out.push(l.counts + 16 + (their_eggs as u32).min(15));
        out.push(l.counts + 32 + (snakes(me) / 2).min(15));
        out.push(l.counts + 48 + (snakes(1 - me) / 2).min(15));
        out.push(
            l.last
                + match self.last {
                    None => 0,
                    Some(seat) if seat == self.to_move => 1,
                    Some(_) => 2,
                },
        );
    }

    fn write_move_features(&self, moves: &[NadrazMove], out: &mut FeatureRows) {
        let l = layout();
        out.clear();
        let playing = self.phase == Phase::Play;
        let me = if playing {
            self.colour_of(self.to_move)
        } else {
            BLACK
        };
        let (my_top, _, _) = self.profile(me);
        let (their_top, _, _) = self.profile(1 - me);
        let phase = if playing { self.play_phase() } else { 0 };
        let mine = me as u8 + 1;
        for &mv in moves {
            let (kind, a, b) = decode(mv);
            match kind {
                PIE => {
                    out.push(l.pie + self.distance_from_centre(a).min(15));
                    out.push(l.pie + 16 + self.distance_from_centre(b).min(15));
                    out.push(l.pie + 32 + self.distance(a, b).min(15));
                }
                CHOICE => out.push(l.choice + b as u32),
                PASS_KIND => out.push(l.pass),
                _ => {
                    let (s, t) = (a, b);
                    let d = self
                        .grid
                        .line_direction(s, t)
                        .expect("a walk runs along a line");
                    let (mut placed, mut flipped, mut absorbed) = (0u32, 0u32, 0u32);
                    let mut cut = None;
                    let mut x = s;
                    while x != t {
                        x = self.grid.step(x, d);
                        match self.board[x as usize] {
                            EMPTY => placed += 1,
                            c if c == mine => absorbed += 1,
                            _ => {
                                flipped += 1;
                                cut.get_or_insert(x);
                            }
                        }
                    }
                    let start = self.length[s as usize] as u32;
                    out.push(l.start_length + log_bucket(start, 6, LENGTHS) * PHASES + phase);
                    out.push(l.stones + placed.min(6) * 5 + flipped.min(4));
                    let before_t = self.grid.step(t, (d + 3) % 6);
                    let joined = self.friend_besides(me, t, before_t);
                    let extra = if joined == NONE {
                        out.push(l.joined);
                        0
                    } else {
                        let extra = self.length[joined as usize] as u32;
                        out.push(l.joined + 1 + log_bucket(extra, 6, LENGTHS).min(LENGTHS - 1));
                        extra
                    };
                    let length = start + placed + flipped + absorbed + extra;
                    let rank = my_top.iter().filter(|&&top| top as u32 > length).count() as u32;
                    let excess = clamp_bucket(length as i32 - their_top[0], -3, 3);
                    let bucket = log_bucket(length, 6, LENGTHS);
                    out.push(l.result + ((bucket * 3 + rank) * 7 + excess) * PHASES + phase);
                    match cut {
                        None => out.push(l.cut),
                        Some(x) => {
                            let theirs = self.snake_through(x);
                            let rank =
                                their_top.iter().filter(|&&top| top as u32 > theirs).count() as u32;
                            out.push(l.cut + 1 + log_bucket(theirs, 6, LENGTHS) * 3 + rank);
                        }
                    }
                    let ring = ring_table().id(|i| {
                        let nb = self.grid.neighbours[t as usize][i];
                        if nb == NONE {
                            return 3;
                        }
                        match self.board[nb as usize] {
                            EMPTY => 0,
                            c if c == mine => 1,
                            _ => 2,
                        }
                    });
                    out.push(l.ring + 2 * ring + self.grid.edge[t as usize] as u32);
                    let heading = match self
                        .distance_from_centre(t)
                        .cmp(&self.distance_from_centre(s))
                    {
                        std::cmp::Ordering::Less => 0,
                        std::cmp::Ordering::Equal => 1,
                        std::cmp::Ordering::Greater => 2,
                    };
                    out.push(l.heading + heading * PHASES + phase);
                }
            }
            out.end_row();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::checked_playout_move;
    use rand::SeedableRng;

    type Board = Nadraz<MAX_CELLS>;

    /// A play-phase position: Black is p1; `to_move` is 'b' or 'w'.
    fn position(size: usize, black: &[&str], white: &[&str], to_move: char) -> Board {
        let mut g = Board::new(size, Variant::Standard);
        for (colour, cells) in [(BLACK, black), (WHITE, white)] {
            for name in cells {
                let x = g.grid.parse_cell(name).unwrap();
                g.board[x as usize] = colour as u8 + 1;
            }
        }
        g.phase = Phase::Play;
        g.black = Some(Seat::P1);
        g.to_move = if to_move == 'b' { Seat::P1 } else { Seat::P2 };
        g.last = Some(g.to_move.other());
        g.rebuild().unwrap();
        g.hash = g.hash_from_scratch();
        g
    }

    fn legal(g: &Board) -> Vec<String> {
        let mut moves = Vec::new();
        g.legal_moves(&mut moves);
        let mut texts: Vec<String> = moves.iter().map(|&m| g.format_move(m)).collect();
        texts.sort();
        texts
    }

    /// The legal turns starting on `start`.
    fn from(g: &Board, start: &str) -> Vec<String> {
        let s = g.grid.parse_cell(start).unwrap();
        let mut moves = Vec::new();
        g.legal_moves(&mut moves);
        let mut texts: Vec<String> = moves
            .iter()
            .filter(|&&m| decode(m).0 == WALK && decode(m).1 == s)
            .map(|&m| g.format_move(m))
            .collect();
        texts.sort();
        texts
    }

    fn is_legal(g: &Board, text: &str) -> bool {
        let mut moves = Vec::new();
        g.legal_moves(&mut moves);
        moves.contains(&g.parse_move(text).unwrap())
    }

    fn play(g: &mut Board, text: &str) {
        assert!(is_legal(g, text), "{text} should be legal in {g:?}");
        g.play(g.parse_move(text).unwrap());
        check_bookkeeping(g);
    }

    /// The incremental records equal the ones recomputed from the board.
    fn check_bookkeeping(g: &Board) {
        let mut fresh = g.clone();
        fresh.rebuild().unwrap();
        assert!(fresh == *g, "bookkeeping differs from the board in {g:?}");
        assert_eq!(g.hash, g.hash_from_scratch());
    }

    /// Snake lengths of a colour, longest first.
    fn snakes(g: &Board, colour: usize) -> Vec<u16> {
        let counts = g.length_counts();
        let mut lengths = Vec::new();
        for l in (1..=MAX_CELLS).rev() {
            lengths.extend(std::iter::repeat_n(l as u16, counts[colour][l] as usize));
        }
        lengths
    }

    fn strings(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn growth_from_an_egg() {
        // f6 is the centre of the size-6 board: four interior cells each way.
        let g = position(6, &["f6"], &["c2"], 'b');
        let moves = from(&g, "f6");
        assert_eq!(moves.len(), 24);
        assert!(moves.contains(&"f6j6".to_string()));
        assert!(!moves.contains(&"f6k6".to_string()), "k6 is an edge cell");
        assert_eq!(legal(&g).len(), 24);
    }

    #[test]
    fn no_growth_from_a_middle_stone() {
        let g = position(6, &["e6", "f6", "g6"], &["c2"], 'b');
        assert!(from(&g, "f6").is_empty());
        assert!(from(&g, "e6").contains(&"e6c6".to_string()));
        assert!(from(&g, "g6").contains(&"g6i6".to_string()));
    }

    #[test]
    fn path_rule_rejections() {
        // g7 would touch the middle stone f6; f7 too (from e6).
        let g = position(6, &["e6", "f6", "g6"], &["c2"], 'b');
        assert!(!is_legal(&g, "g6g7") && !is_legal(&g, "g6g8"));
        assert!(!is_legal(&g, "e6f7"));
        // Five cells of the ring around f6: f5 would close a cycle.
        let g = position(6, &["g6", "g7", "f7", "e6", "e5"], &["c2"], 'b');
        assert!(!is_legal(&g, "e5f5") && !is_legal(&g, "g6f5"));
        assert!(!is_legal(&g, "e5g5") && !is_legal(&g, "e5f6"));
        assert!(is_legal(&g, "e5e4"));
        // d6 would touch three black stones (c6, d5, e7), eggs or not.
        let g = position(6, &["c6", "d5", "e7"], &["i9"], 'b');
        assert!(!is_legal(&g, "c6d6") && !is_legal(&g, "d5d6"));
    }

    #[test]
    fn a_cut_flips_the_run_and_occupies_the_cut_cell() {
        // White e5-e6-e7 crosses row 6; e6 is a middle stone.
        let mut g = position(6, &["c6"], &["e5", "e6", "e7"], 'b');
        let moves = from(&g, "c6");
        for m in ["c6d6", "c6f6", "c6g6", "c6h6", "c6i6", "c6j6"] {
            assert!(moves.contains(&m.to_string()), "{m}");
        }
        assert!(
            !is_legal(&g, "c6e6"),
            "a turn cannot end on a flipped stone"
        );
        play(&mut g, "c6f6");
        assert_eq!(snakes(&g, BLACK), vec![4]);
        assert_eq!(snakes(&g, WHITE), vec![1, 1]);
        // White's two new eggs can move.
        assert!(!from(&g, "e5").is_empty() && !from(&g, "e7").is_empty());
    }

    #[test]
    fn a_longer_run_is_flipped_whole() {
        // White d5-e6-f6-g7: e6 and f6 are middle stones on row 6.
        let mut g = position(6, &["c6"], &["d5", "e6", "f6", "g7"], 'b');
        assert!(is_legal(&g, "c6d6") && is_legal(&g, "c6g6"));
        assert!(!is_legal(&g, "c6e6") && !is_legal(&g, "c6f6"));
        play(&mut g, "c6h6");
        assert_eq!(snakes(&g, BLACK), vec![6]);
        assert_eq!(snakes(&g, WHITE), vec![1, 1]);
    }

    #[test]
    fn uncuttable_runs() {
        // A tail inside the run (e6 ends the snake e6-e7).
        let g = position(6, &["c6"], &["e6", "e7"], 'b');
        assert!(is_legal(&g, "c6d6") && !is_legal(&g, "c6f6"));
        // An egg.
        let g = position(6, &["c6"], &["e6"], 'b');
        assert!(is_legal(&g, "c6d6") && !is_legal(&g, "c6f6"));
        // No empty cell after the run.
        let g = position(6, &["c6", "f6"], &["e5", "e6", "e7"], 'b');
        assert!(is_legal(&g, "c6d6") && !is_legal(&g, "c6g6"));
    }

    #[test]
    fn eggs_on_the_line_are_absorbed() {
        let mut g = position(6, &["c6", "e6"], &["c2"], 'b');
        assert!(is_legal(&g, "c6d6"), "joining the egg e6 beside the line");
        assert!(
            !is_legal(&g, "c6e6"),
            "a turn cannot end on an absorbed egg"
        );
        assert!(is_legal(&g, "c6f6") && is_legal(&g, "c6j6"));
        assert!(is_legal(&g, "e6b6") && !is_legal(&g, "e6c6"));
        play(&mut g, "c6h6");
        assert_eq!(snakes(&g, BLACK), vec![6]);
        assert!(from(&g, "e6").is_empty(), "e6 is a middle stone now");
    }

    #[test]
    fn merging_ends_the_turn() {
        // d6 joins the snake e7-e8 beside the line: the walk must stop.
        let mut g = position(6, &["c6", "e7", "e8"], &["i9"], 'b');
        assert!(is_legal(&g, "c6d6") && !is_legal(&g, "c6e6"));
        play(&mut g, "c6d6");
        assert_eq!(snakes(&g, BLACK), vec![4]);
        // Joining an egg beside the line: allowed, and also the last stone.
        let g = position(6, &["c6", "e7"], &["i9"], 'b');
        assert!(is_legal(&g, "c6d6") && !is_legal(&g, "c6e6"));
        // Stopping just before the end of another snake on the line joins it.
        let mut g = position(6, &["c6", "f6", "g6"], &["i9"], 'b');
        assert!(is_legal(&g, "c6e6") && !is_legal(&g, "c6f6"));
        play(&mut g, "c6e6");
        assert_eq!(snakes(&g, BLACK), vec![5]);
        // A merge at a cut cell: the run is flipped, the cut cell taken, stop.
        let mut g = position(6, &["c6", "g7", "h8"], &["e5", "e6", "e7"], 'b');
        assert!(is_legal(&g, "c6f6") && !is_legal(&g, "c6g6"));
        play(&mut g, "c6f6");
        assert_eq!(snakes(&g, BLACK), vec![6]);
        assert_eq!(snakes(&g, WHITE), vec![1, 1]);
    }

    #[test]
    fn edge_rule() {
        // White i5-j6-j7: j6 may be cut with the edge cell k6 as cut cell.
        let mut g = position(6, &["h6"], &["i5", "j6", "j7"], 'b');
        assert!(is_legal(&g, "h6i6") && !is_legal(&g, "h6j6"));
        assert!(
            is_legal(&g, "h6b6") && !is_legal(&g, "h6a6"),
            "a6 is an edge cell"
        );
        play(&mut g, "h6k6");
        assert_eq!(snakes(&g, BLACK), vec![4]);
        // A stone standing on the edge may start a turn.
        let g = position(6, &["a6"], &["i9"], 'b');
        assert!(is_legal(&g, "a6e6"));
        assert!(
            !is_legal(&g, "a6b7") && !is_legal(&g, "a6a5"),
            "not along the edge"
        );
    }

    /// Size 5, every interior cell filled: rows 1, 3, 5, 7 in `odd`, rows
    /// 2, 4, 6 in the other colour (one straight snake per row).
    fn full_board(odd: char, variant: Variant) -> Board {
        let (mut black, mut white) = (Vec::new(), Vec::new());
        let grid = hexhex::grid(5, false);
        for x in 0..grid.len() as u16 {
            if grid.edge[x as usize] {
                continue;
            }
            let name = grid.cell_name(x);
            let row_is_odd = grid.coords[x as usize].1 % 2 == 1;
            if row_is_odd == (odd == 'b') {
                black.push(name);
            } else {
                white.push(name);
            }
        }
        let black: Vec<&str> = black.iter().map(String::as_str).collect();
        let white: Vec<&str> = white.iter().map(String::as_str).collect();
        let mut g = position(5, &black, &white, 'b');
        g.variant = variant;
        g
    }

    #[test]
    fn scoring_standard_and_reverse() {
        // Odd rows: lengths 4, 6, 6, 4; even rows: 5, 7, 5.
        let g = full_board('b', Variant::Standard);
        assert!(legal(&g).is_empty());
        assert_eq!(snakes(&g, BLACK), vec![6, 6, 4, 4]);
        assert_eq!(snakes(&g, WHITE), vec![7, 5, 5]);
        // Standard: 7 beats 6. Black is p1, so White (p2) wins.
        assert_eq!(g.outcome(), Some(Outcome::Win(Seat::P2)));
        // Reverse: no eggs, pairs or triples; at length 4 black has two,
        // white none, so White (fewer) wins.
        let g = full_board('b', Variant::Reverse);
        assert_eq!(g.outcome(), Some(Outcome::Win(Seat::P2)));
        let g = full_board('w', Variant::Standard);
        assert_eq!(g.outcome(), Some(Outcome::Win(Seat::P1)));

        // A snake beats no snake; longer lists compared element by element.
        let g = position(6, &["c6", "d6", "e6", "h9"], &["c2", "d2", "e2"], 'b');
        assert_eq!(snakes(&g, BLACK), vec![3, 1]);
        assert_eq!(g.snake_winner(), Some(BLACK));
        let g = position(6, &["c6", "d6", "h9", "h10"], &["c2", "d2", "e2"], 'b');
        assert_eq!(g.snake_winner(), Some(WHITE));
        // Reverse: one egg against none loses.
        let mut g = position(
            6,
            &["c6", "h8", "h9", "h10"],
            &["c2", "d2", "g6", "h6"],
            'b',
        );
        g.variant = Variant::Reverse;
        assert_eq!(snakes(&g, BLACK), vec![3, 1]);
        assert_eq!(g.snake_winner(), Some(WHITE));
        // Identical lists: the last placer wins.
        let g = position(6, &["c6", "d6"], &["c2", "d2"], 'b');
        assert_eq!(g.snake_winner(), None);
        let mut empty = position(6, &[], &[], 'b');
        empty.last = Some(Seat::P2);
        assert_eq!(empty.outcome(), Some(Outcome::Win(Seat::P2)));
    }

    #[test]
    fn pie_and_side_choice() {
        let start = Board::new(6, Variant::Standard);
        assert_eq!(legal(&start).len(), 61 * 60);
        assert_eq!(start.side_to_move(), Seat::P1);
        assert!(!is_legal(&start, "B@a1+W@f6"), "no pie egg on the edge");
        assert!(!is_legal(&start, "B@f6+W@f6"));
        assert_eq!(start.parse_move("w@G7+b@F6"), start.parse_move("B@f6+W@g7"));
        let mut g = start.clone();
        play(&mut g, "B@f6+W@g7");
        assert_eq!(legal(&g), strings(&["black", "white"]));
        assert_eq!(g.side_to_move(), Seat::P2);

        // p2 takes Black and moves again.
        let mut black = g.clone();
        play(&mut black, "BLACK");
        assert_eq!(black.side_to_move(), Seat::P2);
        assert_eq!(black.colour_of(Seat::P2), BLACK);
        assert!(legal(&black).iter().all(|m| m.starts_with("f6")));
        assert!(black.position_text().ends_with("play p2 p2 p1"));
        play(&mut black, "f6f8");
        assert_eq!(black.side_to_move(), Seat::P1);
        assert!(legal(&black).iter().all(|m| m.starts_with("g7")));

        // p2 takes White: p1 is Black and moves.
        let mut white = g.clone();
        play(&mut white, "white");
        assert_eq!(white.side_to_move(), Seat::P1);
        assert_eq!(white.colour_of(Seat::P1), BLACK);
        assert!(legal(&white).iter().all(|m| m.starts_with("f6")));

        // Results are per seat: the same board, Black on either seat.
        let mut g = full_board('w', Variant::Standard);
        assert_eq!(g.outcome(), Some(Outcome::Win(Seat::P1)));
        g.black = Some(Seat::P2);
        assert_eq!(g.outcome(), Some(Outcome::Win(Seat::P2)));
    }

    #[test]
    fn forced_pass_and_game_end() {
        // Black's only egg a1 is walled in by White's egg b2.
        let mut g = position(6, &["a1"], &["b2"], 'b');
        assert_eq!(legal(&g), strings(&["pass"]));
        assert_eq!(g.outcome(), None);
        play(&mut g, "pass");
        assert_eq!(g.side_to_move(), Seat::P2);
        assert_eq!(g.last, Some(Seat::P2), "a pass places nothing");
        assert!(!legal(&g).contains(&"pass".to_string()));
        // Neither side can move: over, no moves, not even a pass.
        let g = full_board('b', Variant::Standard);
        assert!(legal(&g).is_empty());
        assert!(g.outcome().is_some());
    }

    #[test]
    fn move_text() {
        let g = Board::new(14, Variant::Standard);
        for text in ["B@e5+W@aa14", "black", "white", "pass"] {
            let mv = g.parse_move(text).unwrap();
            assert_eq!(g.format_move(mv), text);
        }
        let walk = g.parse_move("N14AA14").unwrap();
        assert_eq!(g.format_move(walk), "n14aa14");
        for bad in [
            "",
            "e5",
            "e5e",
            "5e5",
            "e5+",
            "B@e5",
            "B@e5+B@f5",
            "X@e5+W@f5",
            "B@e5+W@zz9",
            "a1a99",
            "e5e6e7",
            "B@@e5+W@f5",
            "é5e6",
            "pas",
            "B@e5+W@f5+W@g5",
        ] {
            assert!(g.parse_move(bad).is_err(), "{bad} should be rejected");
        }
    }

    #[test]
    fn position_text_round_trip_and_errors() {
        let start = Board::new(10, Variant::Standard);
        let text = "10/11/12/13/14/15/16/17/18/19/18/17/16/15/14/13/12/11/10 pie - p1 -";
        assert_eq!(start.position_text(), text);
        assert_eq!(start.read_position(text).unwrap(), start);
        assert_eq!(size_of_text(text), Some(10));
        let mut g = start.clone();
        play(&mut g, "B@j10+W@k11");
        play(&mut g, "white");
        play(&mut g, "j10j12");
        let reread = g.read_position(&g.position_text().to_uppercase()).unwrap();
        assert_eq!(reread.position_text(), g.position_text());
        assert_eq!(reread.hash(), g.hash());
        for bad in [
            "",
            "pie - p1 -",
            "5/6/7/8/9/8/7/6/5 pie - p1",
            "5/6/7/8/9/8/7/6 pie - p1 -",
            "5/6/7/8/9/8/7/6/6 pie - p1 -",
            "5/6/7/8/9/8/7/6/0 pie - p1 -",
            "5/6/7/8/9/8/7/6/x4 pie - p1 -",
            "5/6/7/8/9/8/7/6/5 pie - p2 -",
            "5/6/7/8/9/8/7/6/5 play - p1 -",
            "5/6/7/8/9/8/7/6/5 choice - p2 p1",
            "b4/6/7/8/9/8/7/6/5 choice - p2 p1",
            "5/6/7/8/9/8/7/6/5 dance - p1 -",
            "5/6/7/8/9/8/7/6/5 play p3 p1 p1",
            "5/6/7/8/4b4/3bb3/7/6/5 play p1 p1 p1",
            "5/6/7/8/3bb4/3bb3/7/6/5 play p1 p1 p1",
            "5/6/7/8/99999999999999999999/8/7/6/5 play p1 p1 p1",
            "1/1/1/1/1/1/1/1/1/1/1/1/1/1/1/1/1/1/1/1/1/1/1/1/1/1/1/1/1 play p1 p1 p1",
        ] {
            assert!(
                start.read_position(bad).is_err(),
                "{bad:?} should be rejected"
            );
        }
        // A small game cannot hold a large board.
        let small = Nadraz::<{ cell_count(6) }>::new(6, Variant::Standard);
        assert!(small.read_position(text).is_err());
    }

    #[test]
    fn garbage_text_is_rejected_without_panics() {
        let g = Board::new(10, Variant::Standard);
        let mut rng = GameRng::seed_from_u64(3);
        let alphabet: Vec<char> = "abwBW019/+@- pieplay\u{e9}\u{663}z".chars().collect();
        for _ in 0..20_000 {
            let len = random_below(&mut rng, 40);
            let text: String = (0..len)
                .map(|_| alphabet[random_below(&mut rng, alphabet.len())])
                .collect();
            let _ = g.parse_move(&text);
            let _ = g.read_position(&text);
        }
        // Valid board rows with garbage after them.
        let rows = "5/6/7/8/9/8/7/6/5";
        for tail in ["pie", "play p1 p1", "play p1 p1 p1 p1", "choice - p2 p1"] {
            assert!(g.read_position(&format!("{rows} {tail}")).is_err());
        }
    }

    #[test]
    fn playout_moves_are_legal_and_end_exactly_with_the_game() {
        let mut rng = GameRng::seed_from_u64(11);
        let mut scratch = Vec::new();
        let mut legal = Vec::new();
        let (mut passes, mut choices) = (0, 0);
        for size in [5, 6, 10] {
            for variant in [Variant::Standard, Variant::Reverse] {
                for _ in 0..15 {
                    let mut g = Board::new(size, variant);
                    loop {
                        g.legal_moves(&mut legal);
                        // Several draws per position: each one legal, and
                        // none only when there is no move at all.
                        let mut seen = Vec::new();
                        for _ in 0..4 {
                            let drawn = checked_playout_move(&g, &legal, &mut rng, &mut scratch);
                            seen.extend(drawn);
                        }
                        let Some(&mv) = seen.first() else { break };
                        passes += (mv == PASS) as u32;
                        seen.sort_unstable();
                        seen.dedup();
                        choices += (seen.len() > 1) as u32;
                        g.play(mv);
                    }
                    assert!(g.outcome().is_some());
                }
            }
        }
        assert!(passes > 0, "playouts should meet forced passes");
        assert!(choices > 100, "draws at one position should differ");
    }

    #[test]
    fn incremental_snakes_match_a_fresh_count() {
        let mut rng = GameRng::seed_from_u64(7);
        let mut scratch = Vec::new();
        let (mut passes, mut plies, mut games) = (0, 0, 0);
        for size in [5, 6, 8, 10] {
            for _ in 0..40 {
                let mut g = Board::new(size, Variant::Standard);
                games += 1;
                while let Some(mv) = g.random_move(&mut rng, &mut scratch) {
                    passes += (mv == PASS) as u32;
                    plies += 1;
                    g.play(mv);
                    check_bookkeeping(&g);
                }
                assert!(g.outcome().is_some());
            }
        }
        assert!(passes > 0, "random games should meet forced passes");
        assert!(plies > 20 * games);
    }
}

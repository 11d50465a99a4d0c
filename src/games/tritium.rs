//! Tritium (Noé Falzon, 2024, rules v1.0), per `shared/rules/tritium.md`.
//!
//! A hexhex board without its centre, filled with shared tiles of three
//! colours; players plant flags in free regions and score the tiles of the
//! regions where they have a strict flag majority.
//!
//! Regions are kept incrementally: every tile knows its region's root
//! (`root`), each region is a circular list of its cells (`next`), and a
//! merge relabels the smaller region into the larger (so a cell is relabelled
//! at most log2(126) times per game). Per region we keep its size and flag
//! counts; per position the tiles standing in free regions and the tiles
//! each player controls. Move generation, terminal detection and scoring are
//! then lookups, never flood fills. The position is a fixed-size `Copy`
//! struct, so make/unmake is copy-make.

use super::features::{
    FeatureRows, FeatureSet, Layout as Blocks, PatternTable, clamp_bucket, log_bucket,
};
use super::hexhex::{self, HexGrid};
use super::picture::{Detail, Ink, Picture, Piece, Shape, turn_note};
use super::zobrist::{key, least_image_key, salt};
use super::{Game, GameRng, Outcome, Seat, random_below, split_drop};
use std::fmt;
use std::sync::OnceLock;

pub const MIN_SIZE: usize = 4;
pub const MAX_SIZE: usize = 7;
pub const DEFAULT_SIZE: usize = 5;
/// Flags per player in the short variant.
pub const SHORT_FLAGS: u8 = 3;

/// Cells of the largest board (size 7: 3 * 7 * 6).
const MAX_CELLS: usize = 3 * MAX_SIZE * (MAX_SIZE - 1);
/// Tile colours, in move-text order.
const COLOURS: [char; 3] = ['R', 'G', 'B'];
/// Move kind of a flag (kinds 0..3 are the tile colours).
const FLAG_KIND: u16 = 3;
pub const PASS: u16 = u16::MAX;

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Variant {
    Standard,
    Short,
}

impl Variant {
    pub const NAMES: [&'static str; 2] = ["standard", "short"];

    pub fn parse(name: &str) -> Option<Variant> {
        match name.to_ascii_lowercase().as_str() {
            "" | "standard" => Some(Variant::Standard),
            "short" => Some(Variant::Short),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }
}

/// A move: `kind << 8 | cell`, kind 0..3 a tile colour, 3 a flag; or `PASS`.
pub type TritiumMove = u16;

fn tile_move(colour: usize, cell: usize) -> TritiumMove {
    ((colour as u16) << 8) | cell as u16
}

fn flag_move(cell: usize) -> TritiumMove {
    (FLAG_KIND << 8) | cell as u16
}

/// Size and flag counts of one region (valid at its root).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
struct Region {
    size: u8,
    flags: [u8; 2],
}

impl Region {
    fn is_free(self) -> bool {
        self.flags == [0, 0]
    }

    /// The seat with strictly more flags here, if any.
    fn controller(self) -> Option<Seat> {
        match self.flags[0].cmp(&self.flags[1]) {
            std::cmp::Ordering::Greater => Some(Seat::P1),
            std::cmp::Ordering::Less => Some(Seat::P2),
            std::cmp::Ordering::Equal => None,
        }
    }
}

/// The sizes of the free regions, largest first.
struct FreeSizes {
    size: [u8; MAX_CELLS],
    len: usize,
}

#[derive(Copy, Clone)]
pub struct Tritium {
    grid: &'static HexGrid,
    variant: Variant,
    cells: usize,
    /// Per cell: 0 empty, else tile colour + 1.
    tile: [u8; MAX_CELLS],
    /// Per cell: 0 no flag, else owner's seat index + 1.
    flag: [u8; MAX_CELLS],
    /// Per tile: the root cell of its region.
    root: [u8; MAX_CELLS],
    /// Per tile: the next cell of its region (a circular list).
    next: [u8; MAX_CELLS],
    /// Per root: its region's size and flags.
    region: [Region; MAX_CELLS],
    /// Cells, the empty ones first (`order[..empties]`), tiles after them;
    /// `slot` is each cell's index in `order`. Makes random picks O(1).
    order: [u8; MAX_CELLS],
    slot: [u8; MAX_CELLS],
    empties: usize,
    /// Tiles left per colour.
    supply: [u8; 3],
    flags_on_board: [u8; 2],
    /// Tiles in the regions each seat controls (the current score).
    controlled: [u8; 2],
    /// Tiles standing in free regions (the cells a flag may go on).
    free_tiles: u8,
    to_move: Seat,
    first_flag: Option<Seat>,
    hash: u64,
}

fn side_key() -> u64 {
    key(salt::TRITIUM, 0)
}

fn tile_key(cell: usize, colour: usize) -> u64 {
    key(salt::TRITIUM, 1 + (cell * 3 + colour) as u64)
}

fn flag_key(cell: usize, seat: Seat) -> u64 {
    key(salt::TRITIUM, 1_000 + (cell * 2 + seat.index()) as u64)
}

fn first_flag_key(seat: Seat) -> u64 {
    key(salt::TRITIUM, 2_000 + seat.index() as u64)
}

/// The board size a position text describes: its first field has `2n - 1`
/// rows separated by `/` (None for anything not shaped like a board).
pub fn size_of_text(text: &str) -> Option<usize> {
    let rows = text.split_whitespace().next()?.split('/').count();
    (rows >= 3 && rows % 2 == 1).then_some(rows.div_ceil(2))
}

impl Tritium {
    /// The empty board of side `size` (4..=7).
    pub fn new(size: usize, variant: Variant) -> Tritium {
        assert!((MIN_SIZE..=MAX_SIZE).contains(&size));
        let grid = hexhex::grid(size, true);
        let cells = grid.len();
        let per_colour = (size * (size - 1)) as u8;
        let mut game = Tritium {
            grid,
            variant,
            cells,
            tile: [0; MAX_CELLS],
            flag: [0; MAX_CELLS],
            root: [0; MAX_CELLS],
            next: [0; MAX_CELLS],
            region: [Region::default(); MAX_CELLS],
            order: [0; MAX_CELLS],
            slot: [0; MAX_CELLS],
            empties: cells,
            supply: [per_colour; 3],
            flags_on_board: [0; 2],
            controlled: [0; 2],
            free_tiles: 0,
            to_move: Seat::P1,
            first_flag: None,
            hash: 0,
        };
        for cell in 0..cells {
            game.order[cell] = cell as u8;
            game.slot[cell] = cell as u8;
        }
        game.hash = game.hash_from_scratch();
        game
    }

    pub fn size(&self) -> usize {
        self.grid.side
    }

    /// Whether `seat`'s flag rule lets them play a flag (free region or not).
    fn may_flag(&self, seat: Seat) -> bool {
        let own = self.flags_on_board[seat.index()];
        match self.variant {
            Variant::Standard => own <= self.flags_on_board[seat.other().index()],
            Variant::Short => own < SHORT_FLAGS,
        }
    }

    fn can_flag(&self, seat: Seat) -> bool {
        self.free_tiles > 0 && self.may_flag(seat)
    }

    /// Tiles left in supply equal empty cells, so "a tile can be placed"
    /// is "an empty cell exists".
    fn can_act(&self, seat: Seat) -> bool {
        self.empties > 0 || self.can_flag(seat)
    }

    fn is_over(&self) -> bool {
        !self.can_act(Seat::P1) && !self.can_act(Seat::P2)
    }

    fn colours_left(&self) -> usize {
        self.supply.iter().filter(|&&s| s > 0).count()
    }

    /// The `k`-th colour (0-based) among those still in supply.
    fn nth_colour_left(&self, k: usize) -> usize {
        (0..3)
            .filter(|&c| self.supply[c] > 0)
            .nth(k)
            .expect("k is below colours_left")
    }

    fn is_free_tile(&self, cell: usize) -> bool {
        self.tile[cell] != 0 && self.region[self.root[cell] as usize].is_free()
    }

    fn uncount_control(&mut self, root: usize) {
        let region = self.region[root];
        if let Some(seat) = region.controller() {
            self.controlled[seat.index()] -= region.size;
        }
    }

    fn count_control(&mut self, root: usize) {
        let region = self.region[root];
        if let Some(seat) = region.controller() {
            self.controlled[seat.index()] += region.size;
        }
    }

    /// Joins two regions (roots `a` != `b`); returns the surviving root.
    fn union(&mut self, a: usize, b: usize) -> usize {
        let (big, small) = if self.region[a].size >= self.region[b].size {
            (a, b)
        } else {
            (b, a)
        };
        let mut cell = small;
        loop {
            self.root[cell] = big as u8;
            cell = self.next[cell] as usize;
            if cell == small {
                break;
            }
        }
        // Swapping one successor each splices two circular lists into one.
        self.next.swap(big, small);
        let absorbed = self.region[small];
        let kept = &mut self.region[big];
        kept.size += absorbed.size;
        kept.flags[0] += absorbed.flags[0];
        kept.flags[1] += absorbed.flags[1];
        big
    }

    fn place_tile(&mut self, cell: usize, colour: usize) {
        self.tile[cell] = colour as u8 + 1;
        self.supply[colour] -= 1;
        self.hash ^= tile_key(cell, colour);
        // Move the cell out of the empty part of `order`.
        let last = self.order[self.empties - 1] as usize;
        let at = self.slot[cell] as usize;
        self.order.swap(at, self.empties - 1);
        self.slot[last] = at as u8;
        self.slot[cell] = (self.empties - 1) as u8;
        self.empties -= 1;

        self.root[cell] = cell as u8;
        self.next[cell] = cell as u8;
        self.region[cell] = Region {
            size: 1,
            flags: [0, 0],
        };
        let mut root = cell;
        let mut absorbed_free = 0;
        let mut flagged = false;
        for &nb in &self.grid.neighbours[cell] {
            if nb == hexhex::NONE || self.tile[nb as usize] != self.tile[cell] {
                continue;
            }
            let other = self.root[nb as usize] as usize;
            if other == root {
                continue;
            }
            // The merged region is counted once, after all merges.
            self.uncount_control(other);
            let region = self.region[other];
            if region.is_free() {
                absorbed_free += region.size;
            } else {
                flagged = true;
            }
            root = self.union(root, other);
        }
        self.count_control(root);
        if flagged {
            self.free_tiles -= absorbed_free;
        } else {
            self.free_tiles += 1;
        }
    }

    /// Puts `seat`'s flag on `cell` (any tile: reading a position text
    /// may stack several flags into one region).
    fn place_flag(&mut self, cell: usize, seat: Seat) {
        let root = self.root[cell] as usize;
        self.uncount_control(root);
        if self.region[root].is_free() {
            self.free_tiles -= self.region[root].size;
        }
        self.region[root].flags[seat.index()] += 1;
        self.count_control(root);
        self.flag[cell] = seat.index() as u8 + 1;
        self.flags_on_board[seat.index()] += 1;
        self.hash ^= flag_key(cell, seat);
        if self.first_flag.is_none() {
            self.first_flag = Some(seat);
            self.hash ^= first_flag_key(seat);
        }
    }

    fn switch_side(&mut self) {
        self.to_move = self.to_move.other();
        self.hash ^= side_key();
    }

    /// The colour that gains the mover most on the empty `cell` (ties at
    /// random), with its gain.
    fn best_colour(&self, cell: usize, rng: &mut GameRng) -> (i32, usize) {
        let gains = self.tile_gains(cell, self.to_move);
        let mut best = i32::MIN;
        let mut chosen = 0;
        let mut ties = 0;
        for colour in (0..3).filter(|&c| self.supply[c] > 0) {
            let gain = gains[colour];
            if gain > best {
                (best, chosen, ties) = (gain, colour, 1);
            } else if gain == best {
                ties += 1;
                if random_below(rng, ties) == 0 {
                    chosen = colour;
                }
            }
        }
        (best, chosen)
    }

    /// How much a tile of each colour on the empty `cell` would change
    /// `me`'s score (own controlled tiles minus the opponent's), counting
    /// the regions it merges. One pass over the neighbours serves all three
    /// colours: a region has one colour, so each neighbouring region
    /// counts for its own colour only.
    fn tile_gains(&self, cell: usize, me: Seat) -> [i32; 3] {
        let signed = |region: Region| match region.controller() {
            Some(seat) if seat == me => region.size as i32,
            Some(_) => -(region.size as i32),
            None => 0,
        };
        let mut merged = [Region {
            size: 1,
            flags: [0, 0],
        }; 3];
        let mut before = [0; 3];
        let mut roots = [u8::MAX; 6];
        let mut seen = 0;
        for &nb in &self.grid.neighbours[cell] {
            if nb == hexhex::NONE || self.tile[nb as usize] == 0 {
                continue;
            }
            let root = self.root[nb as usize];
            if roots[..seen].contains(&root) {
                continue;
            }
            roots[seen] = root;
            seen += 1;
            let colour = self.tile[nb as usize] as usize - 1;
            let region = self.region[root as usize];
            before[colour] += signed(region);
            let into = &mut merged[colour];
            into.size += region.size;
            into.flags[0] += region.flags[0];
            into.flags[1] += region.flags[1];
        }
        [0, 1, 2].map(|c| signed(merged[c]) - before[c])
    }

    /// Whether `cell` holds a tile and is the root of its region.
    fn is_root(&self, cell: usize) -> bool {
        self.tile[cell] != 0 && self.root[cell] as usize == cell
    }

    /// Whether `cell` is the root of a free region.
    fn is_free_root(&self, cell: usize) -> bool {
        self.is_root(cell) && self.region[cell].is_free()
    }

    /// The root of a largest free region (the first in cell order), if
    /// a free region exists.
    fn largest_free_root(&self) -> Option<usize> {
        (0..self.cells)
            .filter(|&c| self.is_free_root(c))
            .max_by_key(|&c| (self.region[c].size, std::cmp::Reverse(c)))
    }

    /// The `k`-th tile (in cell order) of a free region.
    fn nth_free_tile(&self, k: usize) -> usize {
        (0..self.cells)
            .filter(|&c| self.is_free_tile(c))
            .nth(k)
            .expect("k is below free_tiles")
    }

    /// Sizes of the free regions, largest first.
    /// (On the stack: the evaluation asks at the end of every cut playout.)
    fn free_region_sizes(&self) -> FreeSizes {
        let mut sizes = FreeSizes {
            size: [0; MAX_CELLS],
            len: 0,
        };
        for c in (0..self.cells).filter(|&c| self.is_free_root(c)) {
            sizes.size[sizes.len] = self.region[c].size;
            sizes.len += 1;
        }
        sizes.size[..sizes.len].sort_unstable_by(|a, b| b.cmp(a));
        sizes
    }

    /// Flags `seat` may still play if nothing else stops them.
    fn flags_left(&self, seat: Seat) -> Option<u8> {
        match self.variant {
            Variant::Standard => None,
            Variant::Short => Some(SHORT_FLAGS.saturating_sub(self.flags_on_board[seat.index()])),
        }
    }

    /// Who flags each of `count` free regions, largest first, if the
    /// players take turns claiming them from now: the first turn is the
    /// mover's if they may flag, and a player out of flags passes it on.
    /// Calls `claim(k, seat)` for the k-th region until both are out.
    fn claim_turns(&self, count: usize, mut claim: impl FnMut(usize, Seat)) {
        let me = self.to_move;
        let mut turn = if self.may_flag(me) { me } else { me.other() };
        let mut left = [
            self.flags_left(Seat::P1).unwrap_or(u8::MAX),
            self.flags_left(Seat::P2).unwrap_or(u8::MAX),
        ];
        for k in 0..count {
            if left[turn.index()] == 0 {
                turn = turn.other();
                if left[turn.index()] == 0 {
                    break;
                }
            }
            left[turn.index()] -= 1;
            claim(k, turn);
            turn = turn.other();
        }
    }

    fn seat_text(seat: Option<Seat>) -> &'static str {
        seat.map_or("-", Seat::name)
    }

    fn cell_text(&self, cell: usize) -> String {
        let colour = self.tile[cell];
        if colour == 0 {
            return ".".into();
        }
        let letter = COLOURS[colour as usize - 1].to_ascii_lowercase();
        match self.flag[cell] {
            0 => letter.to_string(),
            owner => format!("{letter}{owner}"),
        }
    }

    /// Cell ids of each row, from the top row (r = 2n - 2) down.
    fn rows(&self) -> Vec<Vec<usize>> {
        let last = 2 * self.size() as i32 - 2;
        (0..=last)
            .rev()
            .map(|r| {
                (0..=last)
                    .filter_map(|q| self.grid.id(q, r))
                    .map(usize::from)
                    .collect()
            })
            .collect()
    }
}

/// Positions are equal when the game state is: the board, supplies, flag
/// counters, side to move and first flag. The union-find layout and the
/// order of the empty-cell list depend on the move order and do not count.
impl PartialEq for Tritium {
    fn eq(&self, other: &Self) -> bool {
        self.cells == other.cells
            && self.variant == other.variant
            && self.tile == other.tile
            && self.flag == other.flag
            && self.supply == other.supply
            && self.flags_on_board == other.flags_on_board
            && self.controlled == other.controlled
            && self.free_tiles == other.free_tiles
            && self.empties == other.empties
            && self.to_move == other.to_move
            && self.first_flag == other.first_flag
            && self.hash == other.hash
    }
}

impl fmt::Debug for Tritium {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Tritium({})", self.position_text())
    }
}

/// Reads a whole-number field of the position text.
fn number(field: &str, what: &str) -> Result<u8, String> {
    field
        .parse::<u8>()
        .map_err(|_| format!("{what} '{field}' is not a number from 0 to 255"))
}

fn parse_seat(field: &str, what: &str) -> Result<Option<Seat>, String> {
    match field.to_ascii_lowercase().as_str() {
        "p1" => Ok(Some(Seat::P1)),
        "p2" => Ok(Some(Seat::P2)),
        "-" => Ok(None),
        _ => Err(format!("{what} '{field}' is not p1, p2 or -")),
    }
}

/// Splits a row of the position text into cell tokens: `.`, or a colour
/// letter optionally followed by the flag owner's digit.
fn row_tokens(row: &str) -> Result<Vec<(u8, u8)>, String> {
    let mut tokens = Vec::new();
    let mut chars = row.chars().peekable();
    while let Some(c) = chars.next() {
        let colour = match c.to_ascii_lowercase() {
            '.' => {
                tokens.push((0, 0));
                continue;
            }
            'r' => 1,
            'g' => 2,
            'b' => 3,
            _ => {
                return Err(format!(
                    "unknown tritium cell '{c}' in row '{row}' (., r, g, b, with 1 or 2 for a flag)"
                ));
            }
        };
        let owner = match chars.peek() {
            Some('1') => 1,
            Some('2') => 2,
            _ => 0,
        };
        if owner != 0 {
            chars.next();
        }
        tokens.push((colour, owner));
    }
    Ok(tokens)
}

impl Game for Tritium {
    type Move = TritiumMove;
    type Undo = Self;

    fn describe(&self) -> String {
        format!(
            "tritium size={} variant={}",
            self.size(),
            self.variant.name()
        )
    }

    fn side_to_move(&self) -> Seat {
        self.to_move
    }

    fn legal_moves(&self, moves: &mut Vec<TritiumMove>) {
        moves.clear();
        if self.empties > 0 {
            for cell in (0..self.cells).filter(|&c| self.tile[c] == 0) {
                for colour in (0..3).filter(|&c| self.supply[c] > 0) {
                    moves.push(tile_move(colour, cell));
                }
            }
        }
        if self.can_flag(self.to_move) {
            for cell in (0..self.cells).filter(|&c| self.is_free_tile(c)) {
                moves.push(flag_move(cell));
            }
        }
        if moves.is_empty() && self.can_act(self.to_move.other()) {
            moves.push(PASS);
        }
    }

    /// A flag counts only for the region it stands in (regions never
    /// split, and a flagged region takes no second flag), so one flag
    /// move per free region, on its root tile, stands for all of them.
    fn search_moves(&self, moves: &mut Vec<TritiumMove>) {
        self.legal_moves(moves);
        if self.free_tiles > 0 {
            moves.retain(|&mv| mv >> 8 != FLAG_KIND || self.is_root((mv & 0xff) as usize));
        }
    }

    fn make(&mut self, mv: TritiumMove) -> Self {
        let before = *self;
        self.play(mv);
        before
    }

    fn unmake(&mut self, _mv: TritiumMove, undo: Self) {
        *self = undo;
    }

    #[inline]
    fn play(&mut self, mv: TritiumMove) {
        if mv != PASS {
            let (kind, cell) = (mv >> 8, (mv & 0xff) as usize);
            if kind == FLAG_KIND {
                self.place_flag(cell, self.to_move);
            } else {
                self.place_tile(cell, kind as usize);
            }
        }
        self.switch_side();
    }

    fn outcome(&self) -> Option<Outcome> {
        if !self.is_over() {
            return None;
        }
        let [p1, p2] = self.controlled;
        Some(match p1.cmp(&p2) {
            std::cmp::Ordering::Greater => Outcome::Win(Seat::P1),
            std::cmp::Ordering::Less => Outcome::Win(Seat::P2),
            // The first flag's owner loses ties. A finished game always has
            // a flag (a full board has regions); the draw only guards
            // against the impossible.
            std::cmp::Ordering::Equal => self
                .first_flag
                .map_or(Outcome::Draw, |seat| Outcome::Win(seat.other())),
        })
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    /// Tiles, flags, side to move and first flag. Supplies and flag counts
    /// are functions of the board, so the tile and flag keys cover them.
    fn hash_from_scratch(&self) -> u64 {
        let mut hash = 0;
        for cell in 0..self.cells {
            if self.tile[cell] != 0 {
                hash ^= tile_key(cell, self.tile[cell] as usize - 1);
            }
            if self.flag[cell] != 0 {
                let seat = if self.flag[cell] == 1 {
                    Seat::P1
                } else {
                    Seat::P2
                };
                hash ^= flag_key(cell, seat);
            }
        }
        if let Some(seat) = self.first_flag {
            hash ^= first_flag_key(seat);
        }
        if self.to_move == Seat::P2 {
            hash ^= side_key();
        }
        hash
    }

    fn parse_move(&self, text: &str) -> Result<TritiumMove, String> {
        let text = text.trim();
        if text.eq_ignore_ascii_case("pass") {
            return Ok(PASS);
        }
        let bad = || format!("'{text}' is not a tritium move (R@c3, G@c3, B@c3, F@c3 or pass)");
        let (letter, cell_text) = split_drop(text).ok_or_else(bad)?;
        let kind = match letter {
            'R' => 0,
            'G' => 1,
            'B' => 2,
            'F' => FLAG_KIND,
            _ => return Err(bad()),
        };
        let cell = self.grid.parse_cell(cell_text).ok_or_else(|| {
            format!(
                "'{cell_text}' is not a cell of the size {} tritium board (its centre is not a cell)",
                self.size()
            )
        })?;
        Ok((kind << 8) | cell)
    }

    fn format_move(&self, mv: TritiumMove) -> String {
        if mv == PASS {
            return "pass".into();
        }
        let (kind, cell) = (mv >> 8, mv & 0xff);
        let letter = if kind == FLAG_KIND {
            'F'
        } else {
            COLOURS[kind as usize]
        };
        format!("{letter}@{}", self.grid.cell_name(cell))
    }

    /// `<rows> <r>,<g>,<b> <flags left> <side> <first flag>`: see protocol.md.
    fn position_text(&self) -> String {
        let rows: Vec<String> = self
            .rows()
            .iter()
            .map(|row| row.iter().map(|&c| self.cell_text(c)).collect())
            .collect();
        let flags_left = match (self.flags_left(Seat::P1), self.flags_left(Seat::P2)) {
            (Some(a), Some(b)) => format!("{a},{b}"),
            _ => "-".into(),
        };
        format!(
            "{} {},{},{} {} {} {}",
            rows.join("/"),
            self.supply[0],
            self.supply[1],
            self.supply[2],
            flags_left,
            self.to_move.name(),
            Self::seat_text(self.first_flag)
        )
    }

    fn read_position(&self, text: &str) -> Result<Tritium, String> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        let [board, supply, flags_left, side, first] = fields[..] else {
            return Err("tritium position text is '<rows> <R,G,B tiles left> <flags left p1,p2 or -> <side p1|p2> <first flag p1|p2|->'".into());
        };
        let rows: Vec<&str> = board.split('/').collect();
        let size = size_of_text(board)
            .filter(|n| (MIN_SIZE..=MAX_SIZE).contains(n))
            .ok_or_else(|| {
                format!(
                    "a tritium board has 2n-1 rows with n from {MIN_SIZE} to {MAX_SIZE}, not {}",
                    rows.len()
                )
            })?;
        let mut game = Tritium::new(size, self.variant);
        let cell_rows = game.rows();
        let mut flags = Vec::new();
        for (row_text, cells) in rows.iter().zip(&cell_rows) {
            let tokens = row_tokens(row_text)?;
            if tokens.len() != cells.len() {
                return Err(format!(
                    "row '{row_text}' has {} cells, not {}",
                    tokens.len(),
                    cells.len()
                ));
            }
            for (&(colour, owner), &cell) in tokens.iter().zip(cells) {
                if colour == 0 {
                    continue;
                }
                let colour = colour as usize - 1;
                if game.supply[colour] == 0 {
                    return Err(format!(
                        "more than {} {} tiles on the board",
                        size * (size - 1),
                        COLOURS[colour]
                    ));
                }
                game.place_tile(cell, colour);
                if owner != 0 {
                    flags.push((cell, if owner == 1 { Seat::P1 } else { Seat::P2 }));
                }
            }
        }
        // Flags go on after every tile, onto the complete regions.
        for (cell, seat) in flags {
            game.place_flag(cell, seat);
        }

        let counts: Vec<&str> = supply.split(',').collect();
        if counts.len() != 3 {
            return Err(format!("tiles left '{supply}' is not three numbers R,G,B"));
        }
        for (colour, count) in counts.iter().enumerate() {
            let count = number(count, "tiles left")?;
            if count != game.supply[colour] {
                return Err(format!(
                    "{} tiles left must be {} ({} minus those on the board), not {count}",
                    COLOURS[colour],
                    game.supply[colour],
                    size * (size - 1)
                ));
            }
        }
        game.check_flags_left(flags_left)?;

        game.to_move = parse_seat(side, "side to move")?
            .ok_or_else(|| format!("side to move '{side}' is not p1 or p2"))?;
        game.first_flag = parse_seat(first, "first flag")?;
        match game.first_flag {
            None if game.flags_on_board != [0, 0] => {
                return Err("flags are on the board, so the first flag is p1 or p2, not -".into());
            }
            Some(seat) if game.flags_on_board[seat.index()] == 0 => {
                return Err(format!(
                    "{} played the first flag but has no flag on the board",
                    seat.name()
                ));
            }
            _ => {}
        }
        game.hash = game.hash_from_scratch();
        Ok(game)
    }

    fn render(&self) -> String {
        let mut out = self.grid.render_tokens(3, |c| {
            let cell = c as usize;
            let colour = self.tile[cell];
            if colour == 0 {
                return " .".into();
            }
            let letter = COLOURS[colour as usize - 1];
            match self.flag[cell] {
                0 => format!(" {}", letter.to_ascii_lowercase()),
                owner => format!(" {letter}{owner}"),
            }
        });
        out.push_str("cells: . empty, r g b bare tiles, R1 / R2 a tile with p1's / p2's flag\n");
        out.push_str(&format!(
            "tiles left: R {} G {} B {}\n",
            self.supply[0], self.supply[1], self.supply[2]
        ));
        let mut flags = format!(
            "flags on board: p1 {} p2 {}",
            self.flags_on_board[0], self.flags_on_board[1]
        );
        if let (Some(a), Some(b)) = (self.flags_left(Seat::P1), self.flags_left(Seat::P2)) {
            flags.push_str(&format!("; flags left: p1 {a} p2 {b}"));
        }
        out.push_str(&flags);
        out.push_str(&format!(
            "; first flag: {}\ncontrolled tiles: p1 {} p2 {}; tiles in free regions: {}\nto move: {}\n",
            Self::seat_text(self.first_flag),
            self.controlled[0],
            self.controlled[1],
            self.free_tiles,
            self.to_move.name()
        ));
        out
    }

    /// Controlled tiles, plus half the value of the free regions as the
    /// players would claim them largest first, in turn, from whoever may
    /// flag now (each within their flags left).
    fn evaluate(&self) -> i32 {
        let me = self.to_move;
        let sizes = self.free_region_sizes();
        let mut net = 0;
        self.claim_turns(sizes.len, |k, seat| {
            let size = sizes.size[k] as i32;
            net += if seat == me { size } else { -size };
        });
        evaluation(self.score_for(me), net)
    }

    fn moves_left_estimate(&self) -> u32 {
        // About half the remaining tiles plus a few flags are ours.
        (self.empties as u32).div_ceil(2) + 3
    }

    /// Red, green and blue tiles; white flags are p1's, black flags p2's;
    /// every tile of a region a player controls has a rim of their colour.
    fn picture(&self) -> Picture {
        const TILES: [(Ink, char); 3] = [(Ink::Red, 'r'), (Ink::Green, 'g'), (Ink::Blue, 'b')];
        const FLAGS: [(Ink, char); 2] = [(Ink::White, '1'), (Ink::Black, '2')];
        let mut picture = Picture::hexhex(self.describe(), self.grid);
        for cell in 0..self.cells {
            let Some(colour) = (self.tile[cell] as usize).checked_sub(1) else {
                continue;
            };
            let (ink, glyph) = TILES[colour];
            let mut tile = Piece::new(cell, Shape::Tile, ink, glyph);
            if let Some(seat) = self.region[self.root[cell] as usize].controller() {
                tile = tile.with_detail(Detail::Claimed(FLAGS[seat.index()].0));
            }
            picture.add(tile);
            if let Some(owner) = (self.flag[cell] as usize).checked_sub(1) {
                let (ink, glyph) = FLAGS[owner];
                picture.add(Piece::new(cell, Shape::Flag, ink, glyph));
            }
        }
        picture.note(turn_note(self.outcome(), self.to_move, ["white", "black"]));
        picture.note(format!(
            "controlled tiles: white {}, black {}; in free regions: {}",
            self.controlled[0], self.controlled[1], self.free_tiles
        ));
        let mut flags = format!(
            "tiles left: red {} green {} blue {}; flags: white {} black {}",
            self.supply[0],
            self.supply[1],
            self.supply[2],
            self.flags_on_board[0],
            self.flags_on_board[1]
        );
        if let (Some(a), Some(b)) = (self.flags_left(Seat::P1), self.flags_left(Seat::P2)) {
            flags.push_str(&format!(" (left: {a}, {b})"));
        }
        picture.note(flags);
        picture
    }

    #[inline]
    fn random_move(
        &self,
        rng: &mut GameRng,
        _scratch: &mut Vec<TritiumMove>,
    ) -> Option<TritiumMove> {
        let colours = self.colours_left();
        let tile_moves = self.empties * colours;
        let flag_moves = if self.can_flag(self.to_move) {
            self.free_tiles as usize
        } else {
            0
        };
        let total = tile_moves + flag_moves;
        if total == 0 {
            return self.can_act(self.to_move.other()).then_some(PASS);
        }
        let pick = random_below(rng, total);
        if pick < tile_moves {
            let cell = self.order[pick / colours] as usize;
            return Some(tile_move(self.nth_colour_left(pick % colours), cell));
        }
        // A uniform free tile: rejection-sample the placed tiles (they sit
        // at the back of `order`), falling back to a scan when free tiles
        // are rare.
        let placed = self.cells - self.empties;
        for _ in 0..8 {
            let cell = self.order[self.empties + random_below(rng, placed)] as usize;
            if self.is_free_tile(cell) {
                return Some(flag_move(cell));
            }
        }
        Some(flag_move(self.nth_free_tile(random_below(rng, flag_moves))))
    }

    /// A tile or a flag in the proportions `random_move` draws them, but
    /// the tile goes on the better of two random empty cells, in the
    /// colour that gains the mover most at once (ties at random), and the
    /// flag on a largest free region: a random colour feeds the opponent's
    /// regions as often as one's own, and playouts that do so misjudge who
    /// a region will belong to.
    #[inline]
    fn playout_move(
        &self,
        rng: &mut GameRng,
        scratch: &mut Vec<TritiumMove>,
    ) -> Option<TritiumMove> {
        let mv = self.random_move(rng, scratch)?;
        if mv == PASS {
            return Some(mv);
        }
        if mv >> 8 == FLAG_KIND {
            let root = self.largest_free_root().expect("a flag was drawn");
            return Some(flag_move(root));
        }
        let first = (mv & 0xff) as usize;
        let second = self.order[random_below(rng, self.empties)] as usize;
        let (gain, colour) = self.best_colour(first, rng);
        let (other_gain, other_colour) = self.best_colour(second, rng);
        Some(if other_gain > gain {
            tile_move(other_colour, second)
        } else {
            tile_move(colour, first)
        })
    }

    /// The board without its centre keeps the 12 symmetries of the hexhex
    /// board (the hole is their common centre); nothing else in the rules
    /// has a direction.
    fn symmetry_count(&self) -> usize {
        12
    }

    fn symmetric(&self, sym: usize) -> Tritium {
        let mut image = Tritium::new(self.size(), self.variant);
        let map = |cell: usize| self.grid.transform(cell as u16, sym) as usize;
        for cell in 0..self.cells {
            if self.tile[cell] != 0 {
                image.place_tile(map(cell), self.tile[cell] as usize - 1);
            }
        }
        for cell in 0..self.cells {
            if self.flag[cell] != 0 {
                let seat = if self.flag[cell] == 1 {
                    Seat::P1
                } else {
                    Seat::P2
                };
                image.place_flag(map(cell), seat);
            }
        }
        image.to_move = self.to_move;
        image.first_flag = self.first_flag;
        image.hash = image.hash_from_scratch();
        image
    }

    fn symmetric_move(&self, mv: TritiumMove, sym: usize) -> TritiumMove {
        if mv == PASS {
            return PASS;
        }
        let cell = self.grid.transform(mv & 0xff, sym);
        (mv & 0xff00) | cell
    }

    fn canonical_key(&self) -> u64 {
        let mut rest = self.first_flag.map_or(0, first_flag_key);
        if self.to_move == Seat::P2 {
            rest ^= side_key();
        }
        let tiles = (0..self.cells).filter(|&cell| self.tile[cell] != 0);
        least_image_key::<_, 12>(
            tiles,
            |cell, sym| {
                let (tile, flag) = (self.tile[cell], self.flag[cell]);
                let image = self.grid.transform(cell as u16, sym) as usize;
                let mut key = tile_key(image, tile as usize - 1);
                if flag != 0 {
                    let seat = if flag == 1 { Seat::P1 } else { Seat::P2 };
                    key ^= flag_key(image, seat);
                }
                key
            },
            rest,
        )
    }

    /// Equal scores lose for the first flag: never a draw; the board fills.
    fn can_draw(&self) -> bool {
        false
    }

    fn feature_set(&self) -> Option<FeatureSet> {
        let l = layout();
        Some(FeatureSet {
            name: "tritium",
            version: 3,
            position: l.position_size,
            moves: l.move_size,
        })
    }

    fn position_features(&self, out: &mut Vec<u32>) {
        self.write_position_features(out);
    }

    fn move_features(&self, moves: &[TritiumMove], out: &mut FeatureRows) {
        self.write_move_features(moves, out);
    }
}

impl Tritium {
    /// The flags-left field must agree with the board: `-` in the standard
    /// variant (flags are unlimited), `p1,p2` counts in the short one.
    fn check_flags_left(&self, field: &str) -> Result<(), String> {
        if self.variant == Variant::Standard {
            if field == "-" {
                return Ok(());
            }
            return Err(format!(
                "flags left '{field}' must be '-' in the standard variant (flags are unlimited)"
            ));
        }
        if self.flags_on_board.iter().any(|&f| f > SHORT_FLAGS) {
            return Err(format!(
                "the short variant has {SHORT_FLAGS} flags per player; the board holds more"
            ));
        }
        let expected = self.flags_on_board.map(|f| SHORT_FLAGS - f);
        let given: Vec<&str> = field.split(',').collect();
        let ok = given.len() == 2
            && number(given[0], "flags left")? == expected[0]
            && number(given[1], "flags left")? == expected[1];
        if ok {
            Ok(())
        } else {
            Err(format!(
                "flags left '{field}' must be {},{} (short variant: {SHORT_FLAGS} each minus those on the board)",
                expected[0], expected[1]
            ))
        }
    }
}

/// Where each kind of feature starts (see `write_*_features`).
struct Layout {
    /// Tile move: the six neighbours (off, empty, another colour, or the
    /// same colour in a free, own, enemy or tied region), by symmetry class.
    tile_ring: u32,
    /// Tile move: the status x size of the region the tile ends up in.
    tile_region: u32,
    /// Tile move: the change of the score (controlled tiles, own - enemy).
    tile_score: u32,
    /// Tile move: tiles of the colour left after it x the phase.
    tile_supply: u32,
    /// Tile move: whether the opponent may flag next x the largest free
    /// region after the move.
    tile_threat: u32,
    /// Flag move: the region's size x its rank among the free regions.
    flag_size: u32,
    /// Flag move: empty cells beside the region x tiles of its colour left.
    flag_room: u32,
    /// Flag move: the largest free region left x whether the opponent may
    /// flag next.
    flag_left: u32,
    pass: u32,
    move_size: u32,
    /// Position: the score (own - enemy controlled tiles) x the phase.
    score: u32,
    /// Position: the hand evaluation (`evaluate`) x the phase x who may
    /// flag (me, the opponent).
    eval: u32,
    /// Position: who may flag (me, the opponent).
    may_flag: u32,
    /// Position: who played the first flag (none, me, the opponent).
    first: u32,
    /// Position: empty cells, in fours.
    empties: u32,
    /// Position: one per region, by status x size.
    regions: u32,
    /// Position: one per empty cell, by the statuses of the regions beside
    /// it x the phase.
    frontier: u32,
    /// Position: one per region, by status x its empty neighbours x the
    /// tiles of its colour left (the room it has to grow).
    region_room: u32,
    /// Position: one per empty cell and colour in supply that would join a
    /// region: the statuses of the regions of that colour beside it, and
    /// whether it would merge two or more.
    growth: u32,
    /// Position: the first `CLAIMS` free regions the players would flag in
    /// turn (largest first), by rank x claimer (me or not) x size x phase.
    claims: u32,
    /// Position: the same claims by rank x claimer x the region's empty
    /// neighbours x tiles of its colour left.
    claim_room: u32,
    /// Position: the tiles of every claim (not only the first `CLAIMS`),
    /// own minus enemy, x the phase.
    claim_net: u32,
    position_size: u32,
}

/// The evaluation of a position from the mover's score (own controlled
/// tiles minus the opponent's) and the net tiles of the free regions the
/// players would claim in turn: the claims count half.
fn evaluation(score: i32, claims_net: i32) -> i32 {
    100 * score + 50 * claims_net
}

/// Region status seen from the side to move.
const FREE: u32 = 0;
const MINE: u32 = 1;
const THEIRS: u32 = 2;
const TIED: u32 = 3;
const SIZES: u32 = 12;
const PHASES: u32 = 4;
/// Buckets of a region's empty neighbours.
const ROOMS: u32 = 6;
/// Free regions, in the order the players would flag them, with features.
const CLAIMS: u32 = 4;

fn ring_table() -> &'static PatternTable {
    static TABLE: OnceLock<PatternTable> = OnceLock::new();
    TABLE.get_or_init(|| PatternTable::new(6, 7, &PatternTable::dihedral(6, 1)))
}

fn layout() -> &'static Layout {
    static LAYOUT: OnceLock<Layout> = OnceLock::new();
    LAYOUT.get_or_init(|| {
        let b = Blocks::new();
        let (tile_ring, b) = b.block(ring_table().classes());
        let (tile_region, b) = b.block(4 * SIZES);
        let (tile_score, b) = b.block(17 * PHASES);
        let (tile_supply, b) = b.block(6 * PHASES);
        let (tile_threat, b) = b.block(2 * SIZES);
        let (flag_size, b) = b.block(SIZES * 4 * PHASES);
        let (flag_room, b) = b.block(9 * 4);
        let (flag_left, b) = b.block(SIZES * 2);
        let (pass, b) = b.block(1);
        let move_size = b.size();
        let b = Blocks::new();
        let (score, b) = b.block(41 * PHASES);
        let (eval, b) = b.block(41 * PHASES * 4);
        let (may_flag, b) = b.block(4);
        let (first, b) = b.block(3);
        let (empties, b) = b.block(32);
        let (regions, b) = b.block(4 * SIZES);
        let (frontier, b) = b.block(27 * PHASES);
        let (region_room, b) = b.block(4 * ROOMS * 3);
        let (growth, b) = b.block(32);
        let (claims, b) = b.block(CLAIMS * 2 * SIZES * PHASES);
        let (claim_room, b) = b.block(CLAIMS * 2 * ROOMS * 3);
        let (claim_net, b) = b.block(41 * PHASES);
        Layout {
            tile_ring,
            tile_region,
            tile_score,
            tile_supply,
            tile_threat,
            flag_size,
            flag_room,
            flag_left,
            pass,
            move_size,
            score,
            eval,
            may_flag,
            first,
            empties,
            regions,
            frontier,
            region_room,
            growth,
            claims,
            claim_room,
            claim_net,
            position_size: b.size(),
        }
    })
}

impl Tritium {
    /// A region's status for `me`.
    fn status(&self, root: usize, me: Seat) -> u32 {
        let region = self.region[root];
        match region.controller() {
            _ if region.is_free() => FREE,
            Some(seat) if seat == me => MINE,
            Some(_) => THEIRS,
            None => TIED,
        }
    }

    /// The stage of the game by the empty cells left.
    fn phase(&self) -> u32 {
        (PHASES * (self.cells - self.empties) as u32 / (self.cells as u32 + 1)).min(PHASES - 1)
    }

    /// The score for `me`: own controlled tiles minus the opponent's.
    fn score_for(&self, me: Seat) -> i32 {
        self.controlled[me.index()] as i32 - self.controlled[me.other().index()] as i32
    }

    /// The roots of the free regions, largest first.
    fn free_roots(&self) -> Vec<usize> {
        let mut roots: Vec<usize> = (0..self.cells).filter(|&c| self.is_free_root(c)).collect();
        roots.sort_by_key(|&r| std::cmp::Reverse(self.region[r].size));
        roots
    }

    fn largest_free(&self) -> u32 {
        self.largest_free_root()
            .map_or(0, |r| self.region[r].size as u32)
    }

    fn write_position_features(&self, out: &mut Vec<u32>) {
        let l = layout();
        let me = self.to_move;
        let phase = self.phase();
        let flaggers = 2 * self.may_flag(me) as u32 + self.may_flag(me.other()) as u32;
        out.push(l.score + clamp_bucket(self.score_for(me), -20, 20) * PHASES + phase);
        // The evaluation's feature goes here; its value comes from the
        // claims walked below (the sum's order is the feature order).
        let eval_slot = out.len();
        out.push(l.eval);
        out.push(l.may_flag + flaggers);
        out.push(
            l.first
                + match self.first_flag {
                    None => 0,
                    Some(seat) if seat == me => 1,
                    Some(_) => 2,
                },
        );
        out.push(l.empties + (self.empties as u32 / 4).min(31));
        // Empty neighbours per region root, counted once per empty cell.
        let mut room = [0u8; MAX_CELLS];
        for &c in &self.order[..self.empties] {
            let c = c as usize;
            let mut seen = [0u32; 3];
            let mut roots = [usize::MAX; 6];
            // Per colour: the statuses of its regions beside the cell (bits)
            // and how many distinct regions.
            let mut colour_statuses = [0u32; 3];
            let mut colour_regions = [0u32; 3];
            for (k, &nb) in self.grid.neighbours[c].iter().enumerate() {
                if nb == hexhex::NONE || self.tile[nb as usize] == 0 {
                    continue;
                }
                let root = self.root[nb as usize] as usize;
                if roots.contains(&root) {
                    continue;
                }
                roots[k] = root;
                room[root] = room[root].saturating_add(1);
                let status = self.status(root, me);
                match status {
                    MINE => seen[0] += 1,
                    THEIRS => seen[1] += 1,
                    FREE => seen[2] += 1,
                    _ => {}
                }
                let colour = self.tile[nb as usize] as usize - 1;
                colour_statuses[colour] |= 1 << status;
                colour_regions[colour] += 1;
            }
            let class = seen[0].min(2) * 9 + seen[1].min(2) * 3 + seen[2].min(2);
            out.push(l.frontier + class * PHASES + phase);
            for colour in 0..3 {
                if colour_regions[colour] > 0 && self.supply[colour] > 0 {
                    let merges = (colour_regions[colour] > 1) as u32;
                    out.push(l.growth + colour_statuses[colour] * 2 + merges);
                }
            }
        }
        // Free regions as (size, room bucket, supply bucket), for the claims.
        let mut free = [(0u8, 0u8, 0u8); MAX_CELLS];
        let mut frees = 0;
        for (c, &beside) in room[..self.cells].iter().enumerate() {
            if self.is_root(c) {
                let status = self.status(c, me);
                let size = log_bucket(self.region[c].size as u32, 8, SIZES);
                out.push(l.regions + status * SIZES + size);
                let rooms = log_bucket(beside as u32, 3, ROOMS);
                let supply = (self.supply[self.tile[c] as usize - 1] as u32).min(2);
                out.push(l.region_room + (status * ROOMS + rooms) * 3 + supply);
                if status == FREE {
                    free[frees] = (self.region[c].size, rooms as u8, supply as u8);
                    frees += 1;
                }
            }
        }
        // The regions the players would flag in turn, largest first: who
        // gets the first few, how big and with what room, and the net.
        free[..frees].sort_unstable_by(|a, b| b.cmp(a));
        let mut net = 0i32;
        self.claim_turns(frees, |k, seat| {
            let (size, rooms, supply) = free[k];
            let mine = (seat == me) as u32;
            net += if seat == me {
                size as i32
            } else {
                -(size as i32)
            };
            if k < CLAIMS as usize {
                let claim = k as u32 * 2 + mine;
                let size = log_bucket(size as u32, 8, SIZES);
                out.push(l.claims + (claim * SIZES + size) * PHASES + phase);
                out.push(l.claim_room + (claim * ROOMS + rooms as u32) * 3 + supply as u32);
            }
        });
        out.push(l.claim_net + clamp_bucket(net, -20, 20) * PHASES + phase);
        // `evaluate`, from this walk of the same claims.
        let evaluated = evaluation(self.score_for(me), net);
        debug_assert_eq!(evaluated, self.evaluate());
        let eval = clamp_bucket(evaluated / 50, -20, 20);
        out[eval_slot] = l.eval + (eval * PHASES + phase) * 4 + flaggers;
    }

    fn write_move_features(&self, moves: &[TritiumMove], out: &mut FeatureRows) {
        let l = layout();
        out.clear();
        let me = self.to_move;
        let phase = self.phase();
        let score = self.score_for(me);
        let free = self.free_roots();
        for &mv in moves {
            if mv == PASS {
                out.push(l.pass);
                out.end_row();
                continue;
            }
            let (kind, cell) = (mv >> 8, (mv & 0xff) as usize);
            let mut after = *self;
            after.play(mv);
            if kind == FLAG_KIND {
                let root = self.root[cell] as usize;
                let size = log_bucket(self.region[root].size as u32, 8, SIZES);
                let rank = free.iter().position(|&r| r == root).unwrap_or(3).min(3) as u32;
                out.push(l.flag_size + (size * 4 + rank) * PHASES + phase);
                let colour = self.tile[cell] as usize - 1;
                let room = self.room_around(root);
                out.push(l.flag_room + room.min(8) * 4 + (self.supply[colour] as u32).min(3));
                let left = log_bucket(after.largest_free(), 8, SIZES);
                out.push(l.flag_left + left * 2 + after.may_flag(me.other()) as u32);
            } else {
                let colour = kind as u8 + 1;
                let ring = ring_table().id(|i| {
                    let nb = self.grid.neighbours[cell][i];
                    if nb == hexhex::NONE {
                        return 0;
                    }
                    match self.tile[nb as usize] {
                        0 => 1,
                        t if t != colour => 2,
                        _ => 3 + self.status(self.root[nb as usize] as usize, me),
                    }
                });
                out.push(l.tile_ring + ring);
                let root = after.root[cell] as usize;
                let size = log_bucket(after.region[root].size as u32, 8, SIZES);
                out.push(l.tile_region + after.status(root, me) * SIZES + size);
                let gain = clamp_bucket(after.score_for(me) - score, -8, 8);
                out.push(l.tile_score + gain * PHASES + phase);
                let supply = (after.supply[kind as usize] as u32).min(5);
                out.push(l.tile_supply + supply * PHASES + phase);
                let threat = log_bucket(after.largest_free(), 8, SIZES);
                out.push(l.tile_threat + threat * 2 + after.may_flag(me.other()) as u32);
            }
            out.end_row();
        }
    }

    /// Empty cells beside the region of `root`.
    fn room_around(&self, root: usize) -> u32 {
        let mut room = 0u32;
        let mut seen = [false; MAX_CELLS];
        let mut cell = root;
        loop {
            for &nb in &self.grid.neighbours[cell] {
                if nb != hexhex::NONE && self.tile[nb as usize] == 0 && !seen[nb as usize] {
                    seen[nb as usize] = true;
                    room += 1;
                }
            }
            cell = self.next[cell] as usize;
            if cell == root {
                break;
            }
        }
        room
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::checked_playout_move;

    fn legal_texts(g: &Tritium) -> Vec<String> {
        let mut moves = Vec::new();
        g.legal_moves(&mut moves);
        moves.iter().map(|&m| g.format_move(m)).collect()
    }

    fn is_legal(g: &Tritium, text: &str) -> bool {
        legal_texts(g).contains(&text.to_string())
    }

    fn play(g: &mut Tritium, text: &str) {
        assert!(is_legal(g, text), "{text} should be legal in {g:?}");
        let mv = g.parse_move(text).unwrap();
        g.make(mv);
        assert_eq!(g.hash(), g.hash_from_scratch());
    }

    fn after(variant: Variant, moves: &[&str]) -> Tritium {
        let mut g = Tritium::new(4, variant);
        for m in moves {
            play(&mut g, m);
        }
        g
    }

    fn flag_moves(g: &Tritium) -> usize {
        legal_texts(g)
            .iter()
            .filter(|m| m.starts_with("F@"))
            .count()
    }

    fn position(variant: Variant, text: &str) -> Tritium {
        Tritium::new(4, variant).read_position(text).unwrap()
    }

    /// A full size-4 board: red top (12), green middle in two regions of
    /// 6 (a4 side, e4 side), blue bottom (12). Rows from the top.
    fn full_board(r6: &str, a4: &str, e4: &str, r0: &str) -> String {
        format!("{r6}/rrrrr/rrrggg/{a4}gg{e4}gg/gggbbb/bbbbb/{r0} 0,0,0")
    }

    #[test]
    fn start_position_and_notation() {
        let g = Tritium::new(5, Variant::Standard);
        let text =
            "...../....../......./......../......../......../......./....../..... 20,20,20 - p1 -";
        assert_eq!(g.position_text(), text);
        assert_eq!(legal_texts(&g).len(), 3 * 60);
        assert_eq!(g.parse_move("r@C3"), g.parse_move("R@c3"));
        assert_eq!(g.format_move(g.parse_move("b@A1").unwrap()), "B@a1");
        assert_eq!(g.format_move(g.parse_move("PASS").unwrap()), "pass");
        // The centre is not a cell; junk never panics.
        assert!(g.parse_move("R@e5").is_err());
        for junk in [
            "", "@", "R@", "@a1", "X@a1", "RR@a1", "R@zz999", "é@a1", "R@a1@", "F@i10",
        ] {
            assert!(g.parse_move(junk).is_err(), "{junk}");
        }
        let short = Tritium::new(5, Variant::Short);
        assert!(short.position_text().ends_with(" 20,20,20 3,3 p1 -"));
    }

    #[test]
    fn flag_only_in_a_free_region() {
        let mut g = after(Variant::Standard, &["R@a1", "F@a1"]);
        // P1 may flag (0 <= 1), but a1's region already has a flag.
        assert!(!is_legal(&g, "F@a1"));
        play(&mut g, "R@b1"); // joins the flagged region
        play(&mut g, "G@d1");
        assert!(!is_legal(&g, "F@b1"));
        assert!(is_legal(&g, "F@d1"));
        assert_eq!(flag_moves(&g), 1);
    }

    #[test]
    fn standard_flag_permission_by_counts() {
        let mut g = after(Variant::Standard, &["R@a1"]);
        play(&mut g, "F@a1"); // p2: 0 <= 0
        play(&mut g, "G@c1");
        // p2 has more flags than p1: no flag for p2.
        assert_eq!(flag_moves(&g), 0);
        play(&mut g, "B@g7");
        play(&mut g, "F@c1"); // p1: 0 <= 1
        // 1 <= 1: p2 may flag again.
        assert!(is_legal(&g, "F@g7"));
    }

    #[test]
    fn short_variant_has_three_flags_without_count_rule() {
        let mut g = after(Variant::Short, &["R@a1", "G@c1", "F@a1", "B@a3", "F@c1"]);
        // p1 flagged twice in a row of its turns, p2 never: allowed here.
        play(&mut g, "R@d1");
        play(&mut g, "F@a3");
        play(&mut g, "G@g7");
        // p1 has used its three flags; free regions remain.
        assert!(g.free_tiles > 0);
        assert_eq!(flag_moves(&g), 0);
        assert!(g.position_text().ends_with(" 0,3 p1 p1"));
        // The standard rule refuses p1's second flag while p2 has none.
        let g = after(Variant::Standard, &["R@a1", "G@c1", "F@a1", "B@a3"]);
        assert_eq!(flag_moves(&g), 0);
    }

    #[test]
    fn merged_region_is_controlled_by_flag_count() {
        let mut g = after(
            Variant::Standard,
            &["R@a1", "F@a1", "R@c1", "G@g7", "F@c1", "B@g6"],
        );
        assert_eq!(g.controlled, [1, 1]);
        play(&mut g, "R@b1"); // a1 (p2 flag) + b1 + c1 (p1 flag): a tie
        assert_eq!(g.controlled, [0, 0]);
        play(&mut g, "R@a3");
        play(&mut g, "F@a3"); // p1: 1 <= 1
        assert_eq!(g.controlled, [1, 0]);
        play(&mut g, "R@a2"); // joins a1's region and a3's: p1 2 flags, p2 1
        assert_eq!(g.controlled, [5, 0]);
        let text = g.position_text();
        assert_eq!(g.read_position(&text).unwrap().controlled, [5, 0]);
    }

    #[test]
    fn equal_scores_lose_for_the_first_flag() {
        // R (p1) 12 + G (p1) 6 = 18 against B (p2) 12 + G (p2) 6 = 18.
        let board = full_board("r1rrr", "g1", "g2", "b2bbb");
        let g = position(Variant::Standard, &format!("{board} - p1 p1"));
        assert_eq!(g.controlled, [18, 18]);
        assert_eq!(g.outcome(), Some(Outcome::Win(Seat::P2)));
        let g = position(Variant::Standard, &format!("{board} - p1 p2"));
        assert_eq!(g.outcome(), Some(Outcome::Win(Seat::P1)));
        // A real majority decides regardless of the first flag.
        let board = full_board("r1rrr", "g1", "g1", "b2bbb");
        let g = position(Variant::Standard, &format!("{board} - p2 p1"));
        assert_eq!(g.outcome(), Some(Outcome::Win(Seat::P1)));
    }

    #[test]
    fn forced_pass() {
        // Full board, blue region free, p1 has more flags than p2: only p2
        // may flag, so p1 must pass.
        let board = full_board("r1rrr", "g1", "g2", "bbbb");
        let mut g = position(Variant::Standard, &format!("{board} - p1 p1"));
        assert_eq!(legal_texts(&g), vec!["pass"]);
        assert_eq!(g.outcome(), None);
        play(&mut g, "pass");
        assert_eq!(flag_moves(&g), 12);
        assert!(!is_legal(&g, "pass"));
        play(&mut g, "F@a1");
        // Nothing is free any more: over, 18-18, p1 flagged first.
        assert!(legal_texts(&g).is_empty());
        assert_eq!(g.outcome(), Some(Outcome::Win(Seat::P2)));
        // Pass is never legal while a tile can be placed.
        assert!(!is_legal(&Tritium::new(4, Variant::Standard), "pass"));
    }

    #[test]
    fn terminal_detection() {
        // Standard: full and nothing free is over.
        let board = full_board("r1rrr", "g1", "g2", "b2bbb");
        let g = position(Variant::Standard, &format!("{board} - p2 p1"));
        assert!(legal_texts(&g).is_empty());
        // Short: full, free regions, but both players out of flags.
        let board = full_board("r1r1r1r", "g", "g", "b2b2b2b");
        let g = position(Variant::Short, &format!("{board} 0,0 p1 p2"));
        assert!(g.free_tiles > 0);
        assert!(legal_texts(&g).is_empty());
        assert_eq!(g.outcome(), Some(Outcome::Win(Seat::P1)));
        // Short: p1 out of flags, p2 not: p1 passes, the game goes on.
        let board = full_board("r1r1r1r", "g", "g", "b2b2bb");
        let g = position(Variant::Short, &format!("{board} 0,1 p1 p2"));
        assert_eq!(legal_texts(&g), vec!["pass"]);
        // A board with an empty cell is never over.
        let g = position(
            Variant::Standard,
            "r1rr./rrrrr/rrrggg/g1ggg2gg/gggbbb/bbbbb/b2bbb 1,0,0 - p2 p1",
        );
        assert_eq!(legal_texts(&g), vec!["R@g7"]);
    }

    #[test]
    fn exhausted_colour_cannot_be_placed() {
        let g = position(
            Variant::Standard,
            "rrrr/rrrrr/rrr.../....../....../...../.... 0,12,12 - p1 -",
        );
        let legal = legal_texts(&g);
        assert!(legal.iter().all(|m| !m.starts_with("R@")));
        assert_eq!(legal.len(), 24 * 2 + 12);
    }

    #[test]
    fn position_text_errors() {
        let g = Tritium::new(4, Variant::Standard);
        let start = "..../...../....../....../....../...../.... 12,12,12 - p1 -";
        assert!(g.read_position(start).is_ok());
        assert!(g.read_position(&start.to_uppercase()).is_ok());
        for bad in [
            "",
            "..../...../....../....../....../...../.... 12,12,12 - p1",
            "..../...../....../....../...../.... 12,12,12 - p1 -",
            "..../...../....../....../....../...../..... 12,12,12 - p1 -",
            "..../...../....../....../....../...../...x 12,12,12 - p1 -",
            "r.../...../....../....../....../...../.... 12,12,12 - p1 -",
            "r.../...../....../....../....../...../.... 11,12,12 3,3 p1 -",
            "r.../...../....../....../....../...../.... 11,12 - p1 -",
            "r.../...../....../....../....../...../.... 11,12,x - p1 -",
            "r1../...../....../....../....../...../.... 11,12,12 - p1 -",
            "r1../...../....../....../....../...../.... 11,12,12 - p1 p2",
            "r.../...../....../....../....../...../.... 11,12,12 - p3 -",
            "rrrr/rrrrr/rrrr../....../....../...../.... 0,12,12 - p1 -",
            "./../.../../. 1,1,1 - p1 -",
        ] {
            assert!(g.read_position(bad).is_err(), "accepted: {bad}");
        }
        let short = Tritium::new(4, Variant::Short);
        let four = "r1r1r1r1/...../....../....../....../...../.... 8,12,12 0,3 p2 p1";
        assert!(short.read_position(four).is_err());
        let three = "r1r1r1./...../....../....../....../...../.... 9,12,12 0,3 p2 p1";
        assert!(short.read_position(three).is_ok());
        assert!(
            short
                .read_position("r1r1r1./...../....../....../....../...../.... 9,12,12 1,3 p2 p1")
                .is_err()
        );
        assert!(short.read_position(start).is_err(), "'-' is for standard");
    }

    #[test]
    fn mutated_texts_never_panic() {
        use rand::SeedableRng;
        let mut rng = GameRng::seed_from_u64(7);
        let alphabet: Vec<char> = "./rgbRGBF12p-,@ 0389xé".chars().collect();
        for variant in [Variant::Standard, Variant::Short] {
            let mut g = Tritium::new(5, variant);
            let mut scratch = Vec::new();
            for _ in 0..40 {
                if let Some(mv) = g.random_move(&mut rng, &mut scratch) {
                    g.play(mv);
                }
            }
            let text = g.position_text();
            for _ in 0..3000 {
                let mut chars: Vec<char> = text.chars().collect();
                for _ in 0..1 + random_below(&mut rng, 3) {
                    let at = random_below(&mut rng, chars.len());
                    chars[at] = alphabet[random_below(&mut rng, alphabet.len())];
                }
                let mutated: String = chars.iter().collect();
                if let Ok(read) = g.read_position(&mutated) {
                    let again = read.read_position(&read.position_text()).unwrap();
                    assert_eq!(again, read, "{mutated}");
                }
                let head: String = mutated.chars().take(6).collect();
                let _ = g.parse_move(&head);
            }
        }
    }

    #[test]
    fn render_shows_tiles_flags_and_counters() {
        let g = after(Variant::Standard, &["R@a1", "F@a1", "G@b1"]);
        let text = g.render();
        assert!(text.contains(" R2 "), "{text}");
        assert!(text.contains(" g "), "{text}");
        assert!(text.contains("tiles left: R 11 G 11 B 12"));
        assert!(text.contains("to move: p2"));
    }

    /// The value's growth features, decoded, are what a plain reading of
    /// the board gives: per region its status, empty neighbours
    /// (`room_around`) and its colour's supply; per empty cell and colour in
    /// supply the statuses of that colour's regions beside it and whether
    /// there are several.
    #[test]
    fn growth_features_read_the_regions_beside_each_empty_cell() {
        let l = layout();
        let (mut merges, mut rooms_seen) = (0, [0; ROOMS as usize]);
        along_random_games(5, |g, features| {
            let me = g.to_move;
            let mut room_got: Vec<u32> = features
                .iter()
                .filter(|&&f| (l.region_room..l.growth).contains(&f))
                .map(|&f| f - l.region_room)
                .collect();
            let mut growth_got: Vec<u32> = features
                .iter()
                .filter(|&&f| (l.growth..l.claims).contains(&f))
                .map(|&f| f - l.growth)
                .collect();
            let mut room_want = Vec::new();
            for root in (0..g.cells).filter(|&c| g.is_root(c)) {
                let room = g.room_around(root);
                let rooms = log_bucket(room, 3, ROOMS);
                rooms_seen[rooms as usize] += 1;
                let supply = (g.supply[g.tile[root] as usize - 1] as u32).min(2);
                room_want.push((g.status(root, me) * ROOMS + rooms) * 3 + supply);
            }
            let mut growth_want = Vec::new();
            for cell in (0..g.cells).filter(|&c| g.tile[c] == 0) {
                for colour in (0..3).filter(|&c| g.supply[c] > 0) {
                    let mut roots: Vec<usize> = g.grid.neighbours[cell]
                        .iter()
                        .filter(|&&nb| nb != hexhex::NONE)
                        .filter(|&&nb| g.tile[nb as usize] as usize == colour + 1)
                        .map(|&nb| g.root[nb as usize] as usize)
                        .collect();
                    roots.sort();
                    roots.dedup();
                    if roots.is_empty() {
                        continue;
                    }
                    let statuses = roots.iter().fold(0, |bits, &r| bits | 1 << g.status(r, me));
                    merges += (roots.len() > 1) as u32;
                    growth_want.push(statuses * 2 + (roots.len() > 1) as u32);
                }
            }
            room_got.sort();
            room_want.sort();
            growth_got.sort();
            growth_want.sort();
            assert_eq!(room_got, room_want, "{}", g.position_text());
            assert_eq!(growth_got, growth_want, "{}", g.position_text());
        });
        assert!(merges > 100, "{merges} merging cells");
        // Random play on size 5 never gives a region 12 empty neighbours.
        assert!(
            rooms_seen[..5].iter().all(|&n| n > 0),
            "room buckets {rooms_seen:?}"
        );
    }

    /// The claim features follow the free regions largest first, the
    /// first to the mover when they may flag and then alternating (the
    /// standard variant has no flag limit), read here from `free_roots`.
    #[test]
    fn claim_features_alternate_over_the_free_regions_largest_first() {
        let l = layout();
        let (mut both_sides, mut many) = (0, 0);
        along_random_games(9, |g, features| {
            let me = g.to_move;
            let phase = g.phase();
            let got: Vec<u32> = features
                .iter()
                .copied()
                .filter(|&f| (l.claims..l.position_size).contains(&f))
                .collect();
            // Largest first; among equals, the most room, then supply.
            let mut regions: Vec<(u32, u32, u32)> = g
                .free_roots()
                .iter()
                .map(|&root| {
                    let rooms = log_bucket(g.room_around(root), 3, ROOMS);
                    let supply = (g.supply[g.tile[root] as usize - 1] as u32).min(2);
                    (g.region[root].size as u32, rooms, supply)
                })
                .collect();
            regions.sort_by(|a, b| b.cmp(a));
            let first_mine = g.may_flag(me);
            let mut want = Vec::new();
            let mut net = 0;
            for (k, &(size, rooms, supply)) in regions.iter().enumerate() {
                let mine = (k % 2 == 0) == first_mine;
                net += if mine { size as i32 } else { -(size as i32) };
                if k < 4 {
                    let claim = k as u32 * 2 + mine as u32;
                    let bucket = log_bucket(size, 8, SIZES);
                    want.push(l.claims + (claim * SIZES + bucket) * PHASES + phase);
                    want.push(l.claim_room + (claim * ROOMS + rooms) * 3 + supply);
                }
            }
            want.push(l.claim_net + (net.clamp(-20, 20) + 20) as u32 * PHASES + phase);
            assert_eq!(got, want, "{}", g.position_text());
            both_sides += (regions.len() >= 2) as u32;
            many += (regions.len() > 4) as u32;
        });
        assert!(both_sides > 100 && many > 20, "{both_sides} {many}");
    }

    /// Calls `visit` with every position of ten random size-5 games (from
    /// `seed`) and its position features.
    fn along_random_games(seed: u64, mut visit: impl FnMut(&Tritium, &[u32])) {
        use rand::SeedableRng;
        let mut rng = GameRng::seed_from_u64(seed);
        let mut scratch = Vec::new();
        let mut features = Vec::new();
        for _ in 0..10 {
            let mut g = Tritium::new(5, Variant::Standard);
            while let Some(mv) = g.random_move(&mut rng, &mut scratch) {
                features.clear();
                g.write_position_features(&mut features);
                visit(&g, &features);
                g.play(mv);
            }
        }
    }

    /// `tile_gains` gives, for every empty cell and every colour in
    /// supply, the change of the mover's score once that tile is played,
    /// along random games with flags of both players in merging regions.
    #[test]
    fn tile_gains_are_the_score_change_of_each_colour() {
        use rand::SeedableRng;
        let mut rng = GameRng::seed_from_u64(11);
        let mut scratch = Vec::new();
        let (mut checked, mut nonzero) = (0, 0);
        for size in [4, 5] {
            for _ in 0..10 {
                let mut g = Tritium::new(size, Variant::Standard);
                while let Some(mv) = g.random_move(&mut rng, &mut scratch) {
                    let me = g.to_move;
                    for &cell in &g.order[..g.empties] {
                        let gains = g.tile_gains(cell as usize, me);
                        for colour in (0..3).filter(|&c| g.supply[c] > 0) {
                            let mut after = g;
                            after.play(tile_move(colour, cell as usize));
                            let change = after.score_for(me) - g.score_for(me);
                            assert_eq!(gains[colour], change, "{}", g.position_text());
                            checked += 1;
                            nonzero += (change != 0) as u32;
                        }
                    }
                    g.play(mv);
                }
            }
        }
        assert!(
            nonzero > checked / 50,
            "{nonzero} of {checked} changed the score"
        );
    }

    /// A playout's tile takes a colour that gains the mover most, by the
    /// score after the tile is played, and its flag goes on a largest free
    /// region; every drawn move is legal, and playouts end exactly when
    /// the game does.
    #[test]
    fn playouts_take_the_best_colour_and_the_largest_free_region() {
        use rand::SeedableRng;
        let mut rng = GameRng::seed_from_u64(5);
        let mut scratch = Vec::new();
        let mut legal = Vec::new();
        let (mut tiles, mut gaining, mut flags) = (0, 0, 0);
        for size in [4, 5, 7] {
            for variant in [Variant::Standard, Variant::Short] {
                for _ in 0..20 {
                    let mut g = Tritium::new(size, variant);
                    loop {
                        g.legal_moves(&mut legal);
                        let drawn = checked_playout_move(&g, &legal, &mut rng, &mut scratch);
                        let Some(mv) = drawn else { break };
                        if mv >> 8 == FLAG_KIND {
                            let root = g.root[(mv & 0xff) as usize] as usize;
                            let largest = g.free_roots()[0];
                            assert!(g.region[root].is_free());
                            assert_eq!(g.region[root].size, g.region[largest].size);
                            flags += 1;
                        } else if mv != PASS {
                            let cell = (mv & 0xff) as usize;
                            let me = g.to_move;
                            let gain_of = |colour: usize| {
                                let mut after = g;
                                after.play(tile_move(colour, cell));
                                after.score_for(me) - g.score_for(me)
                            };
                            let gains: Vec<i32> =
                                (0..3).filter(|&c| g.supply[c] > 0).map(gain_of).collect();
                            let chosen = gain_of((mv >> 8) as usize);
                            assert_eq!(
                                chosen,
                                *gains.iter().max().unwrap(),
                                "{}",
                                g.position_text()
                            );
                            tiles += 1;
                            gaining += (chosen > *gains.iter().min().unwrap()) as u32;
                        }
                        g.play(mv);
                    }
                    assert!(g.outcome().is_some());
                }
            }
        }
        // The choices must have mattered often enough to be tested.
        assert!(
            gaining > tiles / 10,
            "{gaining} of {tiles} tiles had a better colour"
        );
        assert!(flags > 100, "{flags} flags");
    }

    /// Every position of `games` playouts per size and variant.
    fn sampled_positions(seed: u64, sizes: &[usize], games: usize) -> Vec<Tritium> {
        use rand::SeedableRng;
        let mut rng = GameRng::seed_from_u64(seed);
        let mut scratch = Vec::new();
        let mut out = Vec::new();
        for &size in sizes {
            for variant in [Variant::Standard, Variant::Short] {
                for _ in 0..games {
                    let mut g = Tritium::new(size, variant);
                    while let Some(mv) = g.playout_move(&mut rng, &mut scratch) {
                        out.push(g);
                        g.play(mv);
                    }
                }
            }
        }
        out
    }

    /// Tiles and passes stay; of the flags, exactly one per free region,
    /// and a dropped flag leads to the same score, evaluation and moves
    /// as the kept flag of its region.
    #[test]
    fn search_moves_keep_every_tile_and_one_flag_per_free_region() {
        let (mut legal, mut kept, mut next) = (Vec::new(), Vec::new(), Vec::new());
        let mut dropped = 0;
        for g in sampled_positions(3, &[4, 5], 10) {
            g.legal_moves(&mut legal);
            g.search_moves(&mut kept);
            let is_flag = |mv: &TritiumMove| mv >> 8 == FLAG_KIND;
            let others = |moves: &[TritiumMove]| -> Vec<TritiumMove> {
                moves.iter().copied().filter(|m| !is_flag(m)).collect()
            };
            assert_eq!(others(&legal), others(&kept), "{}", g.position_text());
            let flag_roots = |moves: &[TritiumMove]| -> Vec<u8> {
                let mut roots: Vec<u8> = moves
                    .iter()
                    .filter(|m| is_flag(m))
                    .map(|&m| g.root[(m & 0xff) as usize])
                    .collect();
                roots.sort_unstable();
                roots
            };
            let mut free_roots = flag_roots(&legal);
            free_roots.dedup();
            assert_eq!(flag_roots(&kept), free_roots, "{}", g.position_text());
            for &mv in legal.iter().filter(|m| is_flag(m) && !kept.contains(m)) {
                let root = g.root[(mv & 0xff) as usize];
                let stand_in = *kept
                    .iter()
                    .find(|&&k| is_flag(&k) && g.root[(k & 0xff) as usize] == root)
                    .expect("the region keeps a flag");
                let (mut a, mut b) = (g, g);
                a.play(mv);
                b.play(stand_in);
                for seat in [Seat::P1, Seat::P2] {
                    assert_eq!(a.score_for(seat), b.score_for(seat));
                }
                assert_eq!(a.evaluate(), b.evaluate());
                a.legal_moves(&mut next);
                let count = next.len();
                b.legal_moves(&mut next);
                assert_eq!(count, next.len());
                dropped += 1;
            }
        }
        assert!(dropped > 1000, "only {dropped} flags dropped");
    }

    /// Searching only the search moves finds the same winner as searching
    /// every legal move, in endgames with free regions to flag.
    #[test]
    fn search_moves_keep_every_positions_winner() {
        use crate::solve::naive;
        let (mut legal, mut kept) = (Vec::new(), Vec::new());
        let mut compared = 0;
        for g in sampled_positions(7, &[4], 200) {
            g.legal_moves(&mut legal);
            g.search_moves(&mut kept);
            if g.empties > 2 || legal.len() == kept.len() {
                continue;
            }
            let all = naive::value(&g, u64::MAX).expect("no limit");
            let searched = naive::value_over(&g, u64::MAX, Tritium::search_moves);
            assert_eq!(Some(all), searched, "{}", g.position_text());
            compared += 1;
        }
        assert!(compared > 50, "only {compared} endgames compared");
    }
}

//! Atoms (Robert A. Kraus), per `shared/rules/atoms.md`.
//!
//! A padded mailbox (a sentinel ring around the board, rows of a fixed
//! width so the neighbour offsets are constants) with one word per cell:
//! its content, the white and black atoms among its 8 neighbours, and a
//! code (valence, occupied, off the board) that makes a drop's or a step's
//! legality one comparison. Every change updates the 8 neighbours' words;
//! piece lists make move generation and the removal step proportional to
//! the number of atoms, not to the board.

use rand::Rng;
use std::sync::OnceLock;

use super::features::{
    FeatureRows, FeatureSet, Layout as Blocks, PatternTable, clamp_bucket, log_bucket,
};
use super::picture::{Detail, Ink, Picture, Piece, Shape, turn_note};
use super::square::{decode_rows, encode_rows, format_cell, parse_cell, render_board, transform};
use super::zobrist::{key, least_image_key, salt};
use super::{Dice, Game, GameRng, Outcome, Seat, random_below};

pub const MIN_SIZE: usize = 6;
pub const MAX_SIZE: usize = 12;
pub const DEFAULT_SIZE: usize = 8;
pub const MIN_STONES: usize = 2;
pub const MAX_STONES: usize = 20;
pub const DEFAULT_STONES: usize = 11;
/// Movement-phase moves without a removal that end the game in a draw.
pub const QUIET_LIMIT: usize = 100;

/// Padded row width for every board size (at least MAX_SIZE + 2), so the 8
/// king-wise offsets are constants and a cell index fits in a byte.
const WIDTH: usize = 16;
/// 16 rows of 16: more than the padded board needs, so that any byte is a
/// valid index (no bounds checks in the playout loop).
const PADDED: usize = 256;
const W: isize = WIDTH as isize;
/// The 8 king-wise offsets, in the order the random sampler numbers them.
const STEPS: [isize; 8] = [1, -1, W, -W, W + 1, W - 1, -W + 1, -W - 1];
/// A cell's neighbourhood as a slice: from `cell - WIDTH - 1` to
/// `cell + WIDTH + 1`, the cell itself at `CENTRE`.
const SPAN: usize = 2 * WIDTH + 3;
const CENTRE: isize = W + 1;

const PIECE_SLOTS: usize = 32;

const EMPTY: u8 = 0;
const OFF_BOARD: u8 = 3;
/// Colour codes on the board: seat index + 1.
const fn stone(seat: Seat) -> u8 {
    seat as u8 + 1
}

/// A cell's word: bits 0-7 and 8-15 count the white and black atoms among
/// its neighbours; bits 16-23 are its code, the valence plus `OCCUPIED`
/// when an atom stands there (plus `OFF_CODE` on a sentinel); bits 24-31
/// its content (`EMPTY`, a `stone`, `OFF_BOARD`).
const CODE_SHIFT: u32 = 16;
const CONTENT_SHIFT: u32 = 24;
const OCCUPIED: u8 = 0x10;
const OFF_CODE: u8 = 0x40;
/// The code of an empty cell with exactly one neighbouring atom: a legal
/// drop, or a step that leaves the atom alone (a radioactive suicide).
const LONE: u8 = 1;

/// What an atom of seat index `s` adds to each neighbour's word.
const fn neighbour_delta(s: usize) -> u32 {
    (1 << (8 * s)) | (1 << CODE_SHIFT)
}

/// What an atom of `seat` adds to its own cell's word.
const fn own_delta(seat: Seat) -> u32 {
    ((stone(seat) as u32) << CONTENT_SHIFT) | ((OCCUPIED as u32) << CODE_SHIFT)
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Variant {
    Standard,
    Isotopes,
    Radioactive,
    RadioactiveIsotopes,
}

impl Variant {
    pub const NAMES: [&'static str; 4] = [
        "standard",
        "isotopes",
        "radioactive",
        "radioactive-isotopes",
    ];

    pub fn parse(name: &str) -> Option<Variant> {
        match name.to_ascii_lowercase().as_str() {
            "" | "standard" => Some(Variant::Standard),
            "isotopes" => Some(Variant::Isotopes),
            "radioactive" => Some(Variant::Radioactive),
            "radioactive-isotopes" => Some(Variant::RadioactiveIsotopes),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }

    fn slides(self) -> bool {
        matches!(self, Variant::Isotopes | Variant::RadioactiveIsotopes)
    }

    fn suicide(self) -> bool {
        matches!(self, Variant::Radioactive | Variant::RadioactiveIsotopes)
    }
}

/// A move: `from << 8 | to` in padded cell indices; `from == 0` (always a
/// sentinel) marks a drop.
pub type AtomsMove = u16;

/// A move's origin (0 for a drop) and target, as padded cell indices.
#[inline]
fn move_cells(mv: AtomsMove) -> (usize, usize) {
    ((mv >> 8) as usize, (mv & 0xff) as usize)
}

/// The move of an atom from `from` to `to` (padded cell indices, each
/// below 256): [`move_cells`]'s inverse.
#[inline(always)]
fn step_move(from: impl Into<u16>, to: impl Into<u16>) -> AtomsMove {
    (from.into() << 8) | to.into()
}

/// [`keeps_valence`] for a one-step move, by cell codes: whether an atom
/// on a cell of code `origin` may step onto a neighbouring cell of code
/// `target`. The target keeps the origin as a neighbour, so
/// the move keeps the valence when the target is empty with one atom more
/// around it than the origin has: its code is the origin's (valence +
/// OCCUPIED) less OCCUPIED - 1. Where `suicide` is allowed, a target beside
/// no atom but the origin (LONE) is legal too.
#[inline(always)]
fn step_is_legal(origin: u8, target: u8, suicide: bool) -> bool {
    target == origin.wrapping_sub(OCCUPIED - 1) || (suicide && target == LONE)
}

/// Whether a move that takes an atom of valence `valence` to a cell where
/// it would have `new_valence` (not counting its old cell) is legal: the
/// valence is kept, or, where `suicide` is allowed, the atom goes where it
/// touches none.
#[inline(always)]
fn keeps_valence(valence: u8, new_valence: u8, suicide: bool) -> bool {
    new_valence == valence || (suicide && new_valence == 0)
}

/// The `recent` entry a quiet move from `quiet` quiet moves writes. A
/// position at the quiet limit is drawn and makes no move; the bound only
/// keeps the index inside the array.
#[inline]
fn recent_slot_after(quiet: usize) -> usize {
    (quiet + 1).min(QUIET_LIMIT)
}

/// The Zobrist keys for one board size: atoms by seat and padded cell,
/// hands by seat and count.
pub struct AtomKeys {
    atoms: [[u64; PADDED]; 2],
    hands: [[u64; MAX_STONES + 1]; 2],
}

/// One table per size, shared by every position: compared by identity.
impl PartialEq for AtomKeys {
    fn eq(&self, other: &AtomKeys) -> bool {
        std::ptr::eq(self, other)
    }
}

impl std::fmt::Debug for AtomKeys {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("AtomKeys")
    }
}

/// The key table of the `n` x `n` board. The keys are those of the board
/// padded to width n + 2 (the feature number is that padded index), so
/// hashes do not depend on the mailbox layout.
fn atom_keys(n: usize) -> &'static AtomKeys {
    static KEYS: OnceLock<Vec<AtomKeys>> = OnceLock::new();
    let tables = KEYS.get_or_init(|| {
        (MIN_SIZE..=MAX_SIZE)
            .map(|n| AtomKeys {
                atoms: std::array::from_fn(|s| {
                    std::array::from_fn(|cell| {
                        let (file, rank) = (cell % WIDTH, cell / WIDTH);
                        if (1..=n).contains(&file) && (1..=n).contains(&rank) {
                            let compact = rank * (n + 2) + file;
                            key(salt::ATOMS, 1 + (compact * 2 + s) as u64)
                        } else {
                            0
                        }
                    })
                }),
                hands: std::array::from_fn(|s| {
                    let seat = [Seat::P1, Seat::P2][s];
                    std::array::from_fn(|count| hand_key(seat, count as u8))
                }),
            })
            .collect()
    });
    &tables[n - MIN_SIZE]
}

#[derive(Clone, Debug, PartialEq)]
pub struct Atoms {
    n: usize,
    variant: Variant,
    stones: usize,
    /// One word per padded cell (see `own_delta`, `neighbour_delta`).
    cells: [u32; PADDED],
    to_move: Seat,
    /// `recent[i]` is the hash after i quiet moves; entries from
    /// `state.recent_start` to `state.quiet` are known (a position text
    /// knows only its own).
    recent: [u64; QUIET_LIMIT + 1],
    state: PlayState,
    keys: &'static AtomKeys,
}

/// The fields a move changes but the cell words and the history: `make`
/// saves them whole, and `unmake` copies them back.
#[derive(Clone, Debug, PartialEq)]
struct PlayState {
    /// Per seat, its atoms' cells (in the first `piece_count` entries; 32
    /// so that a 5-bit index needs no bounds check), and each cell's slot
    /// in its list.
    pieces: [[u8; PIECE_SLOTS]; 2],
    piece_count: [u8; 2],
    slot: [u8; PADDED],
    hand: [u8; 2],
    /// Movement-phase moves since the last removal (or since the drops).
    quiet: usize,
    /// The first known entry of `Atoms::recent`.
    recent_start: usize,
    /// A draw rule (repetition or the quiet limit) applies here.
    drawn: bool,
    /// The hashes of the known `recent` entries, as a filter: a position
    /// not in it has not occurred since the last removal.
    recent_bits: RecentFilter,
    /// Every atom on the board has an enemy neighbour (true after every
    /// removal step), so a move's removal step need only look at the atoms
    /// the move can unsettle.
    settled: bool,
    hash: u64,
}

/// What `unmake` needs to take a move back: the play state, and the one
/// history entry a move writes (`recent[0]` after a drop or a removal,
/// else the next); the cell words follow from the board and the old
/// lists.
#[derive(Clone, Debug)]
pub struct AtomsUndo {
    state: PlayState,
    recent_first: u64,
    recent_next: u64,
}

fn hand_key(seat: Seat, count: u8) -> u64 {
    key(
        salt::ATOMS,
        10_000 + (seat.index() * 64) as u64 + count as u64,
    )
}

/// A set of position hashes as 256 bits (one chosen by the hash's top
/// bits): `may_contain` is false for a hash never inserted, and rarely
/// true for one (then the history is searched).
#[derive(Clone, Copy, Debug, PartialEq, Default)]
struct RecentFilter([u64; 4]);

impl RecentFilter {
    #[inline]
    fn of(hash: u64) -> RecentFilter {
        let mut filter = RecentFilter::default();
        filter.insert(hash);
        filter
    }

    #[inline]
    fn insert(&mut self, hash: u64) {
        self.0[(hash >> 62) as usize] |= 1 << ((hash >> 56) & 63);
    }

    #[inline]
    fn may_contain(&self, hash: u64) -> bool {
        self.0[(hash >> 62) as usize] & (1 << ((hash >> 56) & 63)) != 0
    }
}

fn side_key() -> u64 {
    key(salt::ATOMS, 0)
}

/// The no-removal counter's key (only in solver keys: the repetition rule
/// compares positions without it).
fn quiet_key(quiet: usize) -> u64 {
    key(salt::ATOMS, 20_000 + quiet as u64)
}

/// The padded cell `offset` away from `cell`.
#[inline]
fn step(cell: usize, offset: isize) -> usize {
    cell.wrapping_add_signed(offset)
}

impl Atoms {
    pub fn new(n: usize, stones: usize, variant: Variant) -> Atoms {
        assert!((MIN_SIZE..=MAX_SIZE).contains(&n) && (1..=MAX_STONES).contains(&stones));
        let off = ((OFF_BOARD as u32) << CONTENT_SHIFT) | ((OFF_CODE as u32) << CODE_SHIFT);
        let mut cells = [off; PADDED];
        for rank in 0..n {
            for file in 0..n {
                cells[(rank + 1) * WIDTH + file + 1] = 0;
            }
        }
        let mut game = Atoms {
            n,
            variant,
            stones,
            cells,
            to_move: Seat::P1,
            recent: [0; QUIET_LIMIT + 1],
            state: PlayState {
                pieces: [[0; PIECE_SLOTS]; 2],
                piece_count: [0; 2],
                slot: [0; PADDED],
                hand: [stones as u8; 2],
                quiet: 0,
                recent_start: 0,
                drawn: false,
                recent_bits: RecentFilter::default(),
                settled: true,
                hash: 0,
            },
            keys: atom_keys(n),
        };
        game.state.hash = game.hash_from_scratch();
        game.restart_history(0);
        game
    }

    /// The history known from here on is this position only, after `quiet`
    /// quiet moves; `settled` is worked out afresh.
    fn restart_history(&mut self, quiet: usize) {
        self.state.quiet = quiet;
        self.state.recent_start = quiet;
        self.recent[quiet] = self.state.hash;
        self.state.recent_bits = RecentFilter::of(self.state.hash);
        self.state.drawn = quiet >= QUIET_LIMIT;
        // Settled: every atom of both sides touches an enemy atom.
        self.state.settled = (0..2).all(|s| self.kept_atoms(s) == self.state.piece_count[s] as i32);
    }

    /// The words of `cell` and its 8 neighbours (an on-board cell's
    /// neighbourhood lies inside the padded board).
    #[inline]
    fn around(&self, cell: usize) -> &[u32; SPAN] {
        let first = cell - WIDTH - 1;
        (&self.cells[first..first + SPAN]).try_into().unwrap()
    }

    #[inline]
    fn around_mut(&mut self, cell: usize) -> &mut [u32; SPAN] {
        let first = cell - WIDTH - 1;
        (&mut self.cells[first..first + SPAN]).try_into().unwrap()
    }

    #[inline]
    fn content(&self, cell: usize) -> u8 {
        (self.cells[cell] >> CONTENT_SHIFT) as u8
    }

    /// The valence, plus `OCCUPIED` on an atom, plus `OFF_CODE` off the board.
    #[inline]
    fn code(&self, cell: usize) -> u8 {
        (self.cells[cell] >> CODE_SHIFT) as u8
    }

    /// The number of seat index `s`'s atoms beside `cell`.
    #[inline]
    fn near(&self, s: usize, cell: usize) -> u8 {
        (self.cells[cell] >> (8 * s)) as u8
    }

    #[inline]
    fn valence(&self, cell: usize) -> u8 {
        self.code(cell) & (OCCUPIED - 1)
    }

    fn in_drop_phase(&self) -> bool {
        self.state.hand[0] > 0 || self.state.hand[1] > 0
    }

    /// The evaluation for the side to move (see `Game::evaluate`). A
    /// fortress of the side behind shrinks the score, unless that side is
    /// `root` (`Game::evaluate_for`).
    fn score(&self, root: Option<Seat>) -> i32 {
        let me = self.to_move.index();
        let them = 1 - me;
        let material = |s: usize| self.state.piece_count[s] as i32 + self.state.hand[s] as i32;
        let lead = material(me) - material(them);
        if self.in_drop_phase() {
            let (mine, theirs) = self.mobility();
            return 100 * lead
                + 4 * (mine - theirs)
                + KEPT_ATOM * (self.kept_atoms(me) - self.kept_atoms(them));
        }
        let mine = self.movement_counts(self.to_move);
        let theirs = self.movement_counts(self.to_move.other());
        let score = 100 * lead
            + 4 * (mine.moves - theirs.moves)
            + FROZEN_ATOM * (theirs.frozen - mine.frozen);
        let behind = if lead > 0 { them } else { me };
        let root_behind = root.is_some_and(|seat| seat.index() == behind);
        if lead != 0 && !root_behind && self.holds_fortress(behind) {
            return score / FORTRESS_DIVISOR;
        }
        score
    }

    /// Whether side `s` has an atom in a fortress: a lone atom of its own
    /// with one to `FORTRESS_GUARDS` enemy atoms within two cells, no other
    /// atom within two cells of any of them. The enemy atoms can never take
    /// it for nothing: all of them beside it would have to leave it in one
    /// move, and the last one cannot leave without being removed too. With
    /// one enemy atom it always has a move around it, with two nearly
    /// always, so `s` keeps a move and cannot lose while it stands; three
    /// or four can freeze it, but such groups too mostly end in a draw.
    fn holds_fortress(&self, s: usize) -> bool {
        let own = &self.state.pieces[s][..self.state.piece_count[s] as usize];
        let enemy = &self.state.pieces[1 - s][..self.state.piece_count[1 - s] as usize];
        own.iter().any(|&atom| {
            if own
                .iter()
                .any(|&other| other != atom && within_two(other, atom))
            {
                return false;
            }
            let mut guards = [0u8; FORTRESS_GUARDS];
            let mut count = 0;
            for &cell in enemy.iter().filter(|&&cell| within_two(cell, atom)) {
                if count == FORTRESS_GUARDS {
                    return false;
                }
                guards[count] = cell;
                count += 1;
            }
            let guards = &guards[..count];
            // Each guard touches nothing else either.
            count > 0
                && guards.iter().all(|&guard| {
                    own.iter()
                        .all(|&other| other == atom || !within_two(other, guard))
                        && enemy
                            .iter()
                            .all(|&other| guards.contains(&other) || !within_two(other, guard))
                })
        })
    }

    /// Atoms of side `s` that already touch an enemy atom. Nothing is
    /// removed during the drop phase, so these survive the removal after
    /// the last drop whatever is dropped until then.
    fn kept_atoms(&self, s: usize) -> i32 {
        self.state.pieces[s][..self.state.piece_count[s] as usize]
            .iter()
            .filter(|&&cell| self.near(1 - s, cell as usize) > 0)
            .count() as i32
    }

    /// Puts an atom of `seat` on `cell` in the words (its own cell's
    /// content and code, its neighbours' counts), not in the lists.
    #[inline]
    fn add_words(&mut self, seat: Seat, cell: usize) {
        let s = seat.index();
        let around = self.around_mut(cell);
        around[CENTRE as usize] += own_delta(seat);
        for d in STEPS {
            around[(CENTRE + d) as usize] += neighbour_delta(s);
        }
    }

    /// Takes the atom of `seat` on `cell` out of the words.
    #[inline]
    fn remove_words(&mut self, seat: Seat, cell: usize) {
        let s = seat.index();
        let around = self.around_mut(cell);
        around[CENTRE as usize] -= own_delta(seat);
        for d in STEPS {
            around[(CENTRE + d) as usize] -= neighbour_delta(s);
        }
    }

    #[inline]
    fn add_atom(&mut self, seat: Seat, cell: usize) {
        let s = seat.index();
        self.add_words(seat, cell);
        let count = self.state.piece_count[s] as usize;
        self.state.pieces[s][count] = cell as u8;
        self.state.slot[cell] = count as u8;
        self.state.piece_count[s] += 1;
        self.state.hash ^= self.keys.atoms[s][cell];
    }

    #[inline]
    fn remove_atom(&mut self, cell: usize) {
        let seat = if self.content(cell) == stone(Seat::P1) {
            Seat::P1
        } else {
            Seat::P2
        };
        let s = seat.index();
        self.remove_words(seat, cell);
        let last = self.state.piece_count[s] as usize - 1;
        let moved = self.state.pieces[s][last];
        let slot = self.state.slot[cell];
        self.state.pieces[s][slot as usize] = moved;
        self.state.slot[moved as usize] = slot;
        self.state.piece_count[s] -= 1;
        self.state.hash ^= self.keys.atoms[s][cell];
    }

    /// `remove_atom(from)` then `add_atom(seat, to)` for an atom of `seat`,
    /// with the same piece list afterwards (the atom on the last slot takes
    /// the freed slot, the moved atom goes last).
    #[inline]
    fn move_atom(&mut self, seat: Seat, from: usize, to: usize) {
        let s = seat.index();
        self.remove_words(seat, from);
        self.add_words(seat, to);
        let last = self.state.piece_count[s] as usize - 1;
        let list = &mut self.state.pieces[s];
        let freed = self.state.slot[from] as usize;
        let moved = list[last];
        list[freed] = moved;
        self.state.slot[moved as usize] = freed as u8;
        list[last] = to as u8;
        self.state.slot[to] = last as u8;
        self.state.hash ^= self.keys.atoms[s][from] ^ self.keys.atoms[s][to];
    }

    /// Removes, all at once, every atom with no enemy among its neighbours.
    /// Returns whether any atom was removed.
    fn removal_step(&mut self) -> bool {
        let mut unstable = [0u8; 2 * MAX_STONES];
        let mut count = 0;
        for seat in [Seat::P1, Seat::P2] {
            let s = seat.index();
            let enemy = seat.other().index();
            for &cell in &self.state.pieces[s][..self.state.piece_count[s] as usize] {
                if self.near(enemy, cell as usize) == 0 {
                    unstable[count] = cell;
                    count += 1;
                }
            }
        }
        for &cell in &unstable[..count] {
            self.remove_atom(cell as usize);
        }
        // No remaining atom lost an enemy: a removed atom had none around.
        self.state.settled = true;
        count > 0
    }

    /// The removal step after `seat` moved an atom from `from` to `to` on a
    /// settled board: only the moved atom and the enemy atoms beside `from`
    /// (which lost a neighbouring enemy) can be unstable. They are removed
    /// in the order of the full step (by seat, then list slot), so the
    /// piece lists, and with them the playouts' random choices, stay the same.
    #[inline]
    fn removal_after_move(&mut self, seat: Seat, from: usize, to: usize) -> bool {
        if !self.state.settled {
            return self.removal_step();
        }
        let (s, enemy) = (seat.index(), seat.other().index());
        // An enemy atom (content) with none of the mover's atoms around.
        let mask = (0xff << CONTENT_SHIFT) | (0xff << (8 * s));
        let lonely_enemy = (stone(seat.other()) as u32) << CONTENT_SHIFT;
        let around = self.around(from);
        let mut any_lonely = false;
        for d in STEPS {
            any_lonely |= around[(CENTRE + d) as usize] & mask == lonely_enemy;
        }
        let mover_alone = self.near(enemy, to) == 0;
        if !any_lonely && !mover_alone {
            return false;
        }
        // (seat index, slot) as the sort key, then the cell.
        let mut unstable = [(0u8, 0u8); 9];
        let mut count = 0;
        if mover_alone {
            unstable[0] = (((s as u8) << 5) | self.state.slot[to], to as u8);
            count = 1;
        }
        for d in STEPS {
            let cell = step(from, d);
            if self.cells[cell] & mask == lonely_enemy {
                unstable[count] = (((enemy as u8) << 5) | self.state.slot[cell], cell as u8);
                count += 1;
            }
        }
        let unstable = &mut unstable[..count];
        unstable.sort_unstable();
        for &(_, cell) in unstable.iter() {
            self.remove_atom(cell as usize);
        }
        true
    }

    fn set_hand(&mut self, seat: Seat, count: u8) {
        let s = seat.index();
        let keys = &self.keys.hands[s];
        self.state.hash ^= keys[self.state.hand[s] as usize] ^ keys[count as usize];
        self.state.hand[s] = count;
    }

    fn switch_side(&mut self) {
        self.to_move = self.to_move.other();
        self.state.hash ^= side_key();
    }

    /// How often the current position occurred since the last removal.
    fn occurrences(&self) -> usize {
        // The hash includes the side to move, so only every other entry
        // (counting back from the current one) can match.
        if !self.state.recent_bits.may_contain(self.state.hash) {
            return 1;
        }
        self.recent[self.state.recent_start..=self.state.quiet]
            .iter()
            .rev()
            .step_by(2)
            .filter(|&&h| h == self.state.hash)
            .count()
    }

    /// Calls `visit` on every move the rules allow (ignoring the draw
    /// rules) in a fixed order, until it returns false; returns whether
    /// every move was visited.
    #[inline]
    fn each_raw_move(&self, visit: impl FnMut(AtomsMove) -> bool) -> bool {
        self.each_raw_move_of(self.to_move, visit)
    }

    /// `each_raw_move` for `seat`, whether or not it is to move.
    #[inline]
    fn each_raw_move_of(&self, seat: Seat, mut visit: impl FnMut(AtomsMove) -> bool) -> bool {
        if self.in_drop_phase() {
            if self.state.hand[seat.index()] == 0 {
                return true;
            }
            return self.drop_cells().all(|cell| visit(cell as u16));
        }
        let s = seat.index();
        self.state.pieces[s][..self.state.piece_count[s] as usize]
            .iter()
            .all(|&from| self.each_move_from(from as usize, &mut visit))
    }

    /// `each_raw_move_of`'s moves of the atom on `from` (movement phase).
    #[inline]
    fn each_move_from(&self, from: usize, mut visit: impl FnMut(AtomsMove) -> bool) -> bool {
        let slides = self.variant.slides();
        let suicide = self.variant.suicide();
        let valence = self.valence(from);
        for d in STEPS {
            let mut to = step(from, d);
            // The first step is next to the origin, which no longer counts.
            let mut origin_adjacent = 1;
            while self.content(to) == EMPTY {
                let new_valence = self.valence(to) - origin_adjacent;
                if keeps_valence(valence, new_valence, suicide)
                    && !visit(step_move(from as u8, to as u8))
                {
                    return false;
                }
                if !slides {
                    break;
                }
                origin_adjacent = 0;
                to = step(to, d);
            }
        }
        true
    }

    /// The moves the rules allow, ignoring the draw rules.
    fn raw_moves(&self, moves: &mut Vec<AtomsMove>) {
        moves.clear();
        let s = self.to_move.index();
        if !self.variant.slides() && !self.in_drop_phase() {
            // One-step moves (a playout's fallback): the same moves in the
            // same order as `each_raw_move`, by the comparison of codes of
            // `sample_step`.
            moves.reserve(8 * self.state.piece_count[s] as usize);
            self.each_step_move(s, |from, to| moves.push(step_move(from, to)));
            return;
        }
        self.each_raw_move(|mv| {
            moves.push(mv);
            true
        });
    }

    /// Calls `visit(from, to)` on every one-step move of seat index `s`
    /// in the movement phase of a variant without slides (each judged by
    /// [`step_is_legal`]).
    #[inline(always)]
    fn each_step_move(&self, s: usize, mut visit: impl FnMut(u8, u8)) {
        let suicide = self.variant.suicide();
        for &from in &self.state.pieces[s][..self.state.piece_count[s] as usize] {
            self.step_targets(from, suicide)
                .for_each(|to| visit(from, to));
        }
    }

    /// The cells the atom on `from` may step to (variants without slides).
    #[inline(always)]
    fn step_targets(&self, from: u8, suicide: bool) -> impl Iterator<Item = u8> + '_ {
        let origin = self.code(from as usize);
        STEPS
            .iter()
            .map(move |&d| from.wrapping_add_signed(d as i8))
            .filter(move |&to| step_is_legal(origin, self.code(to as usize), suicide))
    }

    /// How many moves the rules allow each side, the side to move first
    /// (ignoring the draw rules), as if each were to move: `raw_moves`'s
    /// counts, without listing them.
    fn mobility(&self) -> (i32, i32) {
        let (me, them) = (self.to_move, self.to_move.other());
        if self.in_drop_phase() {
            // Both sides have the same drop cells: count them once.
            let cells = self.drop_cells().count() as i32;
            let with_hand = |seat: Seat| {
                if self.state.hand[seat.index()] > 0 {
                    cells
                } else {
                    0
                }
            };
            return (with_hand(me), with_hand(them));
        }
        (
            self.movement_counts(me).moves,
            self.movement_counts(them).moves,
        )
    }

    /// The empty cells a drop may go on, by rank then file: those beside
    /// exactly one atom, or every cell of an empty board.
    #[inline]
    fn drop_cells(&self) -> impl Iterator<Item = usize> + '_ {
        let wanted = if self.state.piece_count[0] + self.state.piece_count[1] > 0 {
            LONE
        } else {
            0
        };
        (0..self.n).flat_map(move |rank| {
            let first = self.cell_of(0, rank);
            (first..)
                .zip(&self.cells[first..first + self.n])
                .filter(move |&(_, &word)| (word >> CODE_SHIFT) as u8 == wanted)
                .map(|(cell, _)| cell)
        })
    }

    /// Movement phase: `seat`'s moves (`raw_moves`'s count, whether or not
    /// it is to move) and its atoms that have none.
    fn movement_counts(&self, seat: Seat) -> MoveCounts {
        let s = seat.index();
        let suicide = self.variant.suicide();
        let mut counts = MoveCounts::default();
        for &from in &self.state.pieces[s][..self.state.piece_count[s] as usize] {
            let moves = if self.variant.slides() {
                let mut moves = 0;
                self.each_move_from(from as usize, |_| {
                    moves += 1;
                    true
                });
                moves
            } else {
                self.step_targets(from, suicide).count() as i32
            };
            counts.moves += moves;
            counts.frozen += (moves == 0) as i32;
        }
        counts
    }

    /// Whether the rules allow any move (ignoring the draw rules).
    fn has_raw_move(&self) -> bool {
        !self.each_raw_move(|_| false)
    }

    /// Draws a uniformly random legal move by rejection: every legal move is
    /// exactly one (cell) drop or one (atom, direction, distance) step, so
    /// drawing those uniformly and keeping the first legal one is uniform
    /// over the legal moves. `None` after a few misses (the caller then
    /// generates every move), which keeps the overall choice uniform.
    #[inline]
    fn sample_move(&self, rng: &mut GameRng) -> Option<AtomsMove> {
        const TRIES: usize = 24;
        let seat = self.to_move;
        let s = seat.index();
        if self.in_drop_phase() {
            if self.state.hand[s] == 0 || self.state.piece_count[0] + self.state.piece_count[1] == 0
            {
                return None;
            }
            for _ in 0..TRIES {
                let mut dice = Dice(rng.next_u64());
                let cell = self.cell_of(dice.roll(self.n), dice.roll(self.n));
                if self.code(cell) == LONE {
                    return Some(cell as u16);
                }
            }
            return None;
        }
        let count = self.state.piece_count[s] as usize;
        if count == 0 {
            return None;
        }
        let suicide = self.variant.suicide();
        let pieces = &self.state.pieces[s];
        if !self.variant.slides() {
            return if suicide {
                self.sample_step::<true>(rng, count)
            } else {
                self.sample_step::<false>(rng, count)
            };
        }
        let reach = self.n - 1;
        for _ in 0..TRIES {
            let mut dice = Dice(rng.next_u64());
            let from = pieces[dice.roll(count)] as usize;
            let d = STEPS[dice.roll(8)];
            let distance = 1 + dice.roll(reach);
            let mut to = from;
            let mut clear = true;
            for _ in 0..distance {
                to = step(to, d);
                if self.content(to) != EMPTY {
                    clear = false;
                    break;
                }
            }
            if !clear {
                continue;
            }
            // Only the first step stays next to the origin, which no longer counts.
            let new_valence = self.valence(to) - u8::from(distance == 1);
            if keeps_valence(self.valence(from), new_valence, suicide) {
                return Some(step_move(from as u8, to as u8));
            }
        }
        None
    }

    /// `sample_move` for one-step moves of the side to move's `count` atoms
    /// (each judged by [`step_is_legal`]: one comparison of codes).
    #[inline(always)]
    fn sample_step<const SUICIDE: bool>(
        &self,
        rng: &mut GameRng,
        count: usize,
    ) -> Option<AtomsMove> {
        const TRIES: usize = 24;
        let pieces = &self.state.pieces[self.to_move.index()];
        for _ in 0..TRIES {
            let mut dice = Dice(rng.next_u64());
            // Cells are bytes and the tables have 256 entries: no bounds checks.
            let from = pieces[dice.roll(count) % PIECE_SLOTS];
            let to = from.wrapping_add_signed(STEPS[dice.roll(8) % 8] as i8);
            if step_is_legal(self.code(from as usize), self.code(to as usize), SUICIDE) {
                return Some(step_move(from, to));
            }
        }
        None
    }

    /// The padded cell `cell` mapped by board symmetry `sym`.
    fn map_cell(&self, cell: usize, sym: usize) -> usize {
        let (file, rank) = (cell % WIDTH - 1, cell / WIDTH - 1);
        let (f, r) = transform(self.n, file, rank, sym);
        self.cell_of(f, r)
    }

    #[inline]
    fn cell_of(&self, file: usize, rank: usize) -> usize {
        (rank + 1) * WIDTH + file + 1
    }

    fn cell_text(&self, cell: usize) -> String {
        format_cell(cell % WIDTH - 1, cell / WIDTH - 1)
    }

    fn cell_char(&self, cell: usize) -> Option<char> {
        match self.content(cell) {
            1 => Some('w'),
            2 => Some('b'),
            _ => None,
        }
    }
}

impl Game for Atoms {
    type Move = AtomsMove;
    type Undo = AtomsUndo;

    fn describe(&self) -> String {
        format!(
            "atoms size={} stones={} variant={}",
            self.n,
            self.stones,
            self.variant.name()
        )
    }

    fn side_to_move(&self) -> Seat {
        self.to_move
    }

    fn legal_moves(&self, moves: &mut Vec<AtomsMove>) {
        if self.state.drawn {
            moves.clear();
        } else {
            self.raw_moves(moves);
        }
    }

    fn random_move(&self, rng: &mut GameRng, scratch: &mut Vec<AtomsMove>) -> Option<AtomsMove> {
        if self.state.drawn {
            return None;
        }
        if let Some(mv) = self.sample_move(rng) {
            return Some(mv);
        }
        self.raw_moves(scratch);
        (!scratch.is_empty()).then(|| scratch[random_below(rng, scratch.len())])
    }

    fn make(&mut self, mv: AtomsMove) -> AtomsUndo {
        let undo = AtomsUndo {
            state: self.state.clone(),
            recent_first: self.recent[0],
            recent_next: self.recent[recent_slot_after(self.state.quiet)],
        };
        self.play(mv);
        undo
    }

    fn unmake(&mut self, mv: AtomsMove, undo: AtomsUndo) {
        let mover = self.to_move.other();
        let (from, to) = move_cells(mv);
        // The words: the moved or dropped atom back (unless the removal
        // took it), then every atom of the old lists the removal took.
        if self.content(to) == stone(mover) {
            self.remove_words(mover, to);
        }
        if from != 0 {
            self.add_words(mover, from);
        }
        for seat in [Seat::P1, Seat::P2] {
            let s = seat.index();
            for &cell in &undo.state.pieces[s][..undo.state.piece_count[s] as usize] {
                if self.content(cell as usize) != stone(seat) {
                    self.add_words(seat, cell as usize);
                }
            }
        }
        self.to_move = mover;
        self.recent[recent_slot_after(undo.state.quiet)] = undo.recent_next;
        self.recent[0] = undo.recent_first;
        self.state = undo.state;
    }

    #[inline]
    fn play(&mut self, mv: AtomsMove) {
        let seat = self.to_move;
        let (from, to) = move_cells(mv);
        if from == 0 {
            let left = self.state.hand[seat.index()] - 1;
            self.set_hand(seat, left);
            self.add_atom(seat, to);
            if self.in_drop_phase() {
                // Drops remove nothing: a dropped atom may stand alone.
                self.state.settled = false;
            } else {
                self.removal_step();
            }
            self.switch_side();
            self.state.quiet = 0;
            self.state.recent_start = 0;
            self.recent[0] = self.state.hash;
            self.state.recent_bits = RecentFilter::of(self.state.hash);
            return;
        }
        self.move_atom(seat, from, to);
        let removed = self.removal_after_move(seat, from, to);
        self.switch_side();
        if removed {
            self.state.quiet = 0;
            self.state.recent_start = 0;
            self.state.recent_bits = RecentFilter::default();
        } else {
            self.state.quiet += 1;
        }
        self.recent[self.state.quiet] = self.state.hash;
        self.state.drawn = self.state.quiet >= QUIET_LIMIT || self.occurrences() >= 3;
        self.state.recent_bits.insert(self.state.hash);
    }

    fn outcome(&self) -> Option<Outcome> {
        if !self.has_raw_move() {
            // A stalemate loss stands even where a draw rule applies too.
            Some(Outcome::Win(self.to_move.other()))
        } else if self.state.drawn {
            Some(Outcome::Draw)
        } else {
            None
        }
    }

    fn hash(&self) -> u64 {
        self.state.hash
    }

    fn hash_from_scratch(&self) -> u64 {
        let mut hash = 0;
        for cell in 0..PADDED {
            let content = self.content(cell);
            if content == stone(Seat::P1) || content == stone(Seat::P2) {
                let seat = if content == stone(Seat::P1) {
                    Seat::P1
                } else {
                    Seat::P2
                };
                hash ^= self.keys.atoms[seat.index()][cell];
            }
        }
        hash ^= hand_key(Seat::P1, self.state.hand[0]) ^ hand_key(Seat::P2, self.state.hand[1]);
        if self.to_move == Seat::P2 {
            hash ^= side_key();
        }
        hash
    }

    fn parse_move(&self, text: &str) -> Result<AtomsMove, String> {
        let bad = || format!("'{text}' is not an atoms move (a drop 'd4' or a move 'd4e5')");
        let cells = split_cells(text).ok_or_else(bad)?;
        let mut ids = Vec::new();
        for cell in cells {
            let (file, rank) = parse_cell(cell, self.n)
                .ok_or_else(|| format!("'{cell}' is not a cell of the {0}x{0} board", self.n))?;
            ids.push(self.cell_of(file, rank) as u16);
        }
        match ids[..] {
            [to] => Ok(to),
            [from, to] => Ok(step_move(from, to)),
            _ => Err(bad()),
        }
    }

    fn format_move(&self, mv: AtomsMove) -> String {
        let (from, to) = move_cells(mv);
        if from == 0 {
            self.cell_text(to)
        } else {
            format!("{}{}", self.cell_text(from), self.cell_text(to))
        }
    }

    fn position_text(&self) -> String {
        let rows: Vec<Vec<Option<char>>> = (0..self.n)
            .rev()
            .map(|rank| {
                (0..self.n)
                    .map(|file| self.cell_char(self.cell_of(file, rank)))
                    .collect()
            })
            .collect();
        let side = if self.to_move == Seat::P1 { 'w' } else { 'b' };
        format!(
            "{} {} {} {} {}",
            encode_rows(&rows),
            side,
            self.state.hand[0],
            self.state.hand[1],
            self.state.quiet
        )
    }

    fn read_position(&self, text: &str) -> Result<Atoms, String> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        let [board, side, white_hand, black_hand, quiet] = fields[..] else {
            return Err("atoms position text is '<ranks> <w|b> <white in hand> <black in hand> <moves without removal>'".into());
        };
        let rows = decode_rows(board)?;
        let n = rows.len();
        if !(MIN_SIZE..=MAX_SIZE).contains(&n) {
            return Err(format!("atoms board side {n} is not one of 6..12"));
        }
        let number = |field: &str, what: &str, max: usize| -> Result<usize, String> {
            match field.parse::<usize>() {
                Ok(v) if v <= max => Ok(v),
                _ => Err(format!("{what} '{field}' is not a number from 0 to {max}")),
            }
        };
        let hands = [
            number(white_hand, "white's atoms in hand", MAX_STONES)?,
            number(black_hand, "black's atoms in hand", MAX_STONES)?,
        ];
        let quiet = number(quiet, "moves without removal", QUIET_LIMIT)?;
        let mut game = Atoms::new(n, self.stones.max(1), self.variant);
        for (i, row) in rows.iter().enumerate() {
            if row.len() != n {
                return Err(format!("rank {} has {} cells, not {n}", n - i, row.len()));
            }
            for (file, cell) in row.iter().enumerate() {
                let seat = match cell {
                    None => continue,
                    Some('w') => Seat::P1,
                    Some('b') => Seat::P2,
                    Some(c) => return Err(format!("unknown atoms piece '{c}' (w or b)")),
                };
                if game.state.piece_count[seat.index()] as usize + hands[seat.index()] > MAX_STONES
                {
                    return Err(format!("more than {MAX_STONES} atoms of one colour"));
                }
                game.add_atom(seat, game.cell_of(file, n - 1 - i));
            }
        }
        game.state.hand = [hands[0] as u8, hands[1] as u8];
        game.to_move = match side.to_ascii_lowercase().as_str() {
            "w" => Seat::P1,
            "b" => Seat::P2,
            _ => return Err(format!("side to move '{side}' is not w or b")),
        };
        if game.in_drop_phase() && quiet != 0 {
            return Err("the drop phase has no moves without removal".into());
        }
        game.state.hash = game.hash_from_scratch();
        game.restart_history(quiet);
        Ok(game)
    }

    fn render(&self) -> String {
        let mut out = render_board(self.n, |file, rank| {
            self.cell_char(self.cell_of(file, rank)).unwrap_or('.')
        });
        out.push_str(&format!(
            "in hand: white {} black {}; moves without removal: {}\n",
            self.state.hand[0], self.state.hand[1], self.state.quiet
        ));
        out
    }

    /// The drops left, plus a short movement phase while atoms are in hand:
    /// the atom lead the drops build decides most games (against
    /// `uct-plain` at 10 s + 100 ms, 26% of games level after the drops
    /// were drawn, 18% one atom up, 10% two up), so the drops get about
    /// half the clock rather than a third.
    fn moves_left_estimate(&self) -> u32 {
        match self.state.hand[self.to_move.index()] as u32 {
            0 => 20,
            hand => hand + 10,
        }
    }

    /// King-wise adjacency, slides and the valence rule look the same from
    /// every side of the board.
    fn symmetry_count(&self) -> usize {
        8
    }

    fn symmetric(&self, sym: usize) -> Atoms {
        let mut image = Atoms::new(self.n, self.stones, self.variant);
        for seat in [Seat::P1, Seat::P2] {
            let s = seat.index();
            for &cell in &self.state.pieces[s][..self.state.piece_count[s] as usize] {
                image.add_atom(seat, self.map_cell(cell as usize, sym));
            }
        }
        image.state.hand = self.state.hand;
        image.to_move = self.to_move;
        image.state.hash = image.hash_from_scratch();
        image.restart_history(self.state.quiet);
        image
    }

    fn symmetric_move(&self, mv: AtomsMove, sym: usize) -> AtomsMove {
        let (from, to) = move_cells(mv);
        let to = self.map_cell(to, sym) as u16;
        if from == 0 {
            to
        } else {
            step_move(self.map_cell(from, sym) as u16, to)
        }
    }

    /// The hash leaves out the no-removal counter (repetitions ignore it);
    /// the value does not.
    fn state_key(&self) -> u64 {
        self.state.hash ^ quiet_key(self.state.quiet)
    }

    fn canonical_key(&self) -> u64 {
        let atoms = [Seat::P1, Seat::P2].into_iter().flat_map(|seat| {
            let s = seat.index();
            self.state.pieces[s][..self.state.piece_count[s] as usize]
                .iter()
                .map(move |&cell| (seat, cell as usize))
        });
        let mut rest =
            hand_key(Seat::P1, self.state.hand[0]) ^ hand_key(Seat::P2, self.state.hand[1]);
        if self.to_move == Seat::P2 {
            rest ^= side_key();
        }
        rest ^= quiet_key(self.state.quiet);
        least_image_key::<_, 8>(
            atoms,
            |(seat, cell), sym| self.keys.atoms[seat.index()][self.map_cell(cell, sym)],
            rest,
        )
    }

    /// Atoms move back and forth: positions recur.
    fn can_repeat(&self) -> bool {
        true
    }

    fn seen_twice(&self) -> Vec<u64> {
        let known = &self.recent[self.state.recent_start..=self.state.quiet];
        let mut twice: Vec<u64> = known
            .iter()
            .copied()
            .filter(|&h| known.iter().filter(|&&k| k == h).count() >= 2)
            .collect();
        twice.sort_unstable();
        twice.dedup();
        twice
    }

    /// Material first (atoms on board and in hand), then mobility; in the
    /// drop phase also the atoms the removal after the last drop would keep,
    /// in the movement phase the atoms that cannot move (a side whose atoms
    /// all cannot move has lost), and the whole score shrunk where the side
    /// behind holds a fortress.
    fn evaluate(&self) -> i32 {
        self.score(None)
    }

    /// As `evaluate`, but a fortress shrinks only the root's lead: its own
    /// deficit counts in full, so that it does not go an atom down into a
    /// fortress of its own rather than stay level.
    fn evaluate_for(&self, root: Seat) -> i32 {
        self.score(Some(root))
    }

    /// A move that leaves an enemy atom without any of the mover's atoms
    /// around it: one beside the origin whose only enemy neighbour was the
    /// moving atom, and not beside its destination. (Judged on a settled
    /// board, where every atom touches an enemy: always so after a move.)
    fn is_tactical(&self, mv: AtomsMove) -> bool {
        let (from, to) = move_cells(mv);
        if from == 0 || !self.state.settled {
            return false;
        }
        let s = self.to_move.index();
        let enemy = stone(self.to_move.other());
        STEPS.iter().any(|&d| {
            let cell = step(from, d);
            self.content(cell) == enemy
                && self.near(s, cell) == 1
                && !STEPS.contains(&(cell as isize - to as isize))
        })
    }

    /// White and black atoms, each labelled with its valence (the atoms
    /// around it, which a move must keep); atoms without an enemy
    /// neighbour, which the next removal step takes, are unstable.
    fn picture(&self) -> Picture {
        let mut picture = Picture::square(self.describe(), self.n);
        for rank in 0..self.n {
            for file in 0..self.n {
                let cell = self.cell_of(file, rank);
                let (seat, ink, glyph) = match self.content(cell) {
                    1 => (Seat::P1, Ink::White, 'w'),
                    2 => (Seat::P2, Ink::Black, 'b'),
                    _ => continue,
                };
                let enemies = self.near(seat.other().index(), cell);
                let atom = Piece::new(rank * self.n + file, Shape::Stone, ink, glyph)
                    .with_label(self.valence(cell).to_string());
                picture.add(if enemies == 0 {
                    atom.with_detail(Detail::Unstable)
                } else {
                    atom
                });
            }
        }
        picture.note(turn_note(self.outcome(), self.to_move, ["white", "black"]));
        if self.in_drop_phase() {
            picture.note(format!(
                "drops: in hand white {}, black {}",
                self.state.hand[0], self.state.hand[1]
            ));
        } else {
            picture.note(format!(
                "moves: {} without a removal (a draw at {QUIET_LIMIT})",
                self.state.quiet
            ));
        }
        picture.note("valence: the atoms around an atom; a move keeps it");
        picture
    }

    fn feature_set(&self) -> Option<FeatureSet> {
        let l = layout();
        Some(FeatureSet {
            name: "atoms",
            version: 1,
            position: l.position_size,
            moves: l.move_size,
        })
    }

    fn position_features(&self, out: &mut Vec<u32>) {
        self.write_position_features(out);
    }

    fn move_features(&self, moves: &[AtomsMove], out: &mut FeatureRows) {
        self.write_move_features(moves, out);
    }
}

/// Where each kind of feature starts (see `write_*_features`).
struct Layout {
    /// Drop: the 3x3 pattern around the cell (empty, own, enemy, off).
    drop_ring: u32,
    /// Drop: atoms left in the mover's hand.
    drop_hand: u32,
    /// Move: the patterns around the origin and around the target (the
    /// origin counted empty).
    from_ring: u32,
    to_ring: u32,
    /// Move: own and enemy atoms removed after it.
    removed: u32,
    /// Move: the target's valence x the mover's atoms left unstable-prone.
    valence: u32,
    move_size: u32,
    /// Position: material (board + hand) of each side and the difference,
    /// x drop or movement phase.
    material: u32,
    /// Position: legal moves of each side.
    mobility: u32,
    /// Position: one per atom: own or enemy x its 3x3 pattern.
    atom_ring: u32,
    /// Position: one per atom: own or enemy x friendly x enemy neighbours.
    contacts: u32,
    /// Position: moves without removal, by tens, x who leads in material.
    quiet: u32,
    position_size: u32,
}

/// What an atom sure to survive the drop phase's removal is worth over one
/// that may not, in centipawns of an atom (100). During the drops every
/// side holds all its atoms, so material alone scores every drop alike
/// and alpha-beta chose its drops blind until it saw the removal.
/// Measured over none (bench/RESULTS.md, session 32, 200 games each at
/// 100 ms): 60 +57.9, 100 +47.2; 40 against 60 +8.7, level.
const KEPT_ATOM: i32 = 60;

/// The evaluation's bonus per enemy atom that cannot move (and malus per
/// own one): the side to move whose atoms all cannot move has lost, and
/// counting moves alone weighs an atom with none like one with a few.
/// Session 42, against none (200 games each, 100 ms): 30 +33.1, 15 +13.9,
/// 60 level.
const FROZEN_ATOM: i32 = 30;

/// What the evaluation is divided by in the movement phase when the side
/// behind in atoms holds a fortress (`Atoms::holds_fortress`): the side
/// ahead cannot win while it stands, so its lead is mostly a draw's. Most
/// of `auto`'s draws against `uct-plain` ended in one, the lead kept to
/// the 100-move rule. Session 44, against `uct-plain` at 100 ms: +485.8
/// over 400 games, where the build without it had +322.7 (against v0.1
/// +133.9, from +111.4; bench/RESULTS.md).
const FORTRESS_DIVISOR: i32 = 4;

/// The most enemy atoms around a lone atom that still make a fortress.
/// Session 46: 4 against 2, over `uct-plain` at 10 s + 100 ms, +421.3
/// where 2 had +381.7, over v0.1 +107.5 where 2 had +111.4 (400 games
/// each). In session 45's 400 games against `uct-plain` an isolated
/// lone atom of the side behind with three or four enemy atoms around it
/// stood 23 times in the final positions of the 61 draws that `auto`
/// led, 11 times in 347 positions (plies 40 and 60) of the games it won
/// while ahead (bench/atoms_groups.py, bench/RESULTS.md).
const FORTRESS_GUARDS: usize = 4;

/// Whether two cells (of the padded board) are at most two king steps
/// apart: atoms further apart cannot come to touch in one move.
fn within_two(a: u8, b: u8) -> bool {
    let (a, b) = (a as usize, b as usize);
    (a % WIDTH).abs_diff(b % WIDTH) <= 2 && (a / WIDTH).abs_diff(b / WIDTH) <= 2
}

/// Movement-phase counts of one side, for the evaluation.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct MoveCounts {
    /// The moves the rules allow.
    moves: i32,
    /// Its atoms that have no move.
    frozen: i32,
}

fn ring_table() -> &'static PatternTable {
    static TABLE: OnceLock<PatternTable> = OnceLock::new();
    TABLE.get_or_init(|| PatternTable::new(8, 4, &PatternTable::dihedral(8, 2)))
}

fn layout() -> &'static Layout {
    static LAYOUT: OnceLock<Layout> = OnceLock::new();
    LAYOUT.get_or_init(|| {
        let rings = ring_table().classes();
        let b = Blocks::new();
        let (drop_ring, b) = b.block(rings);
        let (drop_hand, b) = b.block(MAX_STONES as u32 + 1);
        let (from_ring, b) = b.block(rings);
        let (to_ring, b) = b.block(rings);
        let (removed, b) = b.block(16);
        let (valence, b) = b.block(9 * 2);
        let move_size = b.size();
        let b = Blocks::new();
        let (material, b) = b.block(2 * (21 + 21 + 17));
        let (mobility, b) = b.block(2 * 10);
        let (atom_ring, b) = b.block(2 * rings);
        let (contacts, b) = b.block(2 * 25);
        let (quiet, b) = b.block(11 * 3);
        Layout {
            drop_ring,
            drop_hand,
            from_ring,
            to_ring,
            removed,
            valence,
            move_size,
            material,
            mobility,
            atom_ring,
            contacts,
            quiet,
            position_size: b.size(),
        }
    })
}

impl Atoms {
    /// The 8 king-wise offsets in rotational order (E, NE, N, NW, W, SW,
    /// S, SE).
    fn ring(&self) -> [isize; 8] {
        [1, W + 1, W, W - 1, -1, -W - 1, -W, -W + 1]
    }

    /// The 3x3 pattern around `cell` for `me`: 0 empty, 1 own, 2 enemy, 3
    /// off the board; `vacated` counts as empty.
    fn pattern(&self, cell: usize, me: Seat, vacated: usize) -> u32 {
        let ring = self.ring();
        ring_table().id(|i| {
            let x = (cell as isize + ring[i]) as usize;
            match self.content(x) {
                _ if x == vacated => 0,
                EMPTY => 0,
                OFF_BOARD => 3,
                c if c == stone(me) => 1,
                _ => 2,
            }
        })
    }

    fn write_position_features(&self, out: &mut Vec<u32>) {
        let l = layout();
        let me = self.to_move;
        let (m, t) = (me.index(), me.other().index());
        let drop = self.in_drop_phase() as u32;
        let material = |s: usize| self.state.piece_count[s] as i32 + self.state.hand[s] as i32;
        let base = l.material + drop * 59;
        out.push(base + material(m).min(20) as u32);
        out.push(base + 21 + material(t).min(20) as u32);
        out.push(base + 42 + clamp_bucket(material(m) - material(t), -8, 8));
        let (mine, theirs) = self.mobility();
        out.push(l.mobility + log_bucket(mine as u32, 4, 10));
        out.push(l.mobility + 10 + log_bucket(theirs as u32, 4, 10));
        let rings = ring_table().classes();
        for (side, s) in [(0u32, m), (1, t)] {
            for &cell in &self.state.pieces[s][..self.state.piece_count[s] as usize] {
                let cell = cell as usize;
                out.push(l.atom_ring + side * rings + self.pattern(cell, me, 0));
                let friends = (self.near(s, cell) as u32).min(4);
                let foes = (self.near(1 - s, cell) as u32).min(4);
                out.push(l.contacts + side * 25 + friends * 5 + foes);
            }
        }
        let lead = (material(m) - material(t)).signum() + 1;
        out.push(l.quiet + (self.state.quiet as u32 / 10).min(10) * 3 + lead as u32);
    }

    fn write_move_features(&self, moves: &[AtomsMove], out: &mut FeatureRows) {
        let l = layout();
        out.clear();
        let me = self.to_move;
        let (m, t) = (me.index(), me.other().index());
        for &mv in moves {
            let (from, to) = move_cells(mv);
            if from == 0 {
                out.push(l.drop_ring + self.pattern(to, me, 0));
                out.push(l.drop_hand + self.state.hand[m] as u32);
            } else {
                out.push(l.from_ring + self.pattern(from, me, 0));
                out.push(l.to_ring + self.pattern(to, me, from));
            }
            let mut after = self.clone();
            after.play(mv);
            // Drops and moves keep material: only removals lose it.
            let lost = |s: usize| {
                (self.state.piece_count[s] as i32 + self.state.hand[s] as i32
                    - after.state.piece_count[s] as i32
                    - after.state.hand[s] as i32)
                    .clamp(0, 3) as u32
            };
            out.push(l.removed + lost(m) * 4 + lost(t));
            let valence = (self.valence(to) as u32).min(8);
            out.push(l.valence + valence * 2 + (self.near(t, to) > 0) as u32);
            out.end_row();
        }
    }
}

/// Splits "d4" or "d4e5" (letters-digits pairs) into its cells.
fn split_cells(text: &str) -> Option<Vec<&str>> {
    let mut cells = Vec::new();
    let mut rest = text;
    while !rest.is_empty() {
        let letters = rest.find(|c: char| !c.is_ascii_alphabetic())?;
        let digits_end = rest[letters..]
            .find(|c: char| !c.is_ascii_digit())
            .map_or(rest.len(), |i| letters + i);
        if letters == 0 || digits_end == letters {
            return None;
        }
        cells.push(&rest[..digits_end]);
        rest = &rest[digits_end..];
    }
    (!cells.is_empty()).then_some(cells)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn position(text: &str, variant: Variant) -> Atoms {
        Atoms::new(8, 11, variant).read_position(text).unwrap()
    }

    fn legal_texts(g: &Atoms) -> Vec<String> {
        let mut moves = Vec::new();
        g.legal_moves(&mut moves);
        let mut texts: Vec<String> = moves.iter().map(|&m| g.format_move(m)).collect();
        texts.sort();
        texts
    }

    fn play(g: &mut Atoms, text: &str) {
        let mv = g.parse_move(text).unwrap();
        let mut moves = Vec::new();
        g.legal_moves(&mut moves);
        assert!(
            moves.contains(&mv),
            "{text} should be legal in {}",
            g.position_text()
        );
        g.make(mv);
    }

    #[test]
    fn sampled_playout_moves_are_legal_and_uniform() {
        use rand::SeedableRng;
        let mut rng = GameRng::seed_from_u64(7);
        let mut scratch = Vec::new();
        for variant in [Variant::Standard, Variant::RadioactiveIsotopes] {
            let mut g = Atoms::new(8, 11, variant);
            let mut plies = 0;
            while let Some(mv) = g.random_move(&mut rng, &mut scratch) {
                let mut legal = Vec::new();
                g.legal_moves(&mut legal);
                assert!(legal.contains(&mv), "{}", g.position_text());
                if plies == 30 {
                    // Every legal move drawn about equally often.
                    let per_move = 2000;
                    let mut counts = std::collections::HashMap::new();
                    for _ in 0..per_move * legal.len() {
                        let m = g.random_move(&mut rng, &mut scratch).unwrap();
                        *counts.entry(m).or_insert(0usize) += 1;
                    }
                    assert_eq!(counts.len(), legal.len());
                    for (&m, &n) in &counts {
                        assert!(
                            n.abs_diff(per_move) < per_move / 5,
                            "{} drawn {n}",
                            g.format_move(m)
                        );
                    }
                }
                g.play(mv);
                plies += 1;
            }
            assert!(g.outcome().is_some());
        }
    }

    /// Statistics of random playouts (run by hand with --ignored --nocapture).
    #[test]
    #[ignore]
    fn playout_statistics() {
        use rand::{Rng, SeedableRng};
        let mut rng = GameRng::seed_from_u64(3);
        let mut scratch = Vec::new();
        let games = 20000;
        let (mut drop_plies, mut move_plies, mut drop_draws, mut move_draws) =
            (0u64, 0u64, 0u64, 0u64);
        let (mut fallbacks, mut legal_sum, mut atoms_sum, mut removals) = (0u64, 0u64, 0u64, 0u64);
        let mut draws_hist = [0u64; 30];
        for _ in 0..games {
            let mut g = Atoms::new(8, 11, Variant::Standard);
            loop {
                let before = rng.clone();
                let Some(mv) = g.random_move(&mut rng, &mut scratch) else {
                    break;
                };
                let mut probe = before.clone();
                let mut n = 0u64;
                while probe != rng {
                    probe.next_u64();
                    n += 1;
                }
                let mut legal = Vec::new();
                g.raw_moves(&mut legal);
                if g.in_drop_phase() {
                    drop_plies += 1;
                    drop_draws += n;
                } else {
                    move_plies += 1;
                    move_draws += n;
                    legal_sum += legal.len() as u64;
                    atoms_sum += g.state.piece_count[g.to_move.index()] as u64;
                    if n > 24 {
                        fallbacks += 1;
                    }
                    draws_hist[(n as usize).min(29)] += 1;
                }
                let pc = g.state.piece_count[0] + g.state.piece_count[1];
                g.play(mv);
                if !g.in_drop_phase() && g.state.piece_count[0] + g.state.piece_count[1] < pc {
                    removals += 1;
                }
            }
        }
        let gm = games as f64;
        eprintln!(
            "per game: drop plies {:.1} draws {:.1}; move plies {:.1} draws {:.1} fallbacks {:.2} removals {:.2}",
            drop_plies as f64 / gm,
            drop_draws as f64 / gm,
            move_plies as f64 / gm,
            move_draws as f64 / gm,
            fallbacks as f64 / gm,
            removals as f64 / gm
        );
        eprintln!(
            "move phase: mean legal {:.2}, mean own atoms {:.2}",
            legal_sum as f64 / move_plies as f64,
            atoms_sum as f64 / move_plies as f64
        );
        eprintln!("draw histogram {:?}", draws_hist);
    }

    #[test]
    fn incremental_removal_and_repetition_filter_match_the_full_checks() {
        use rand::SeedableRng;
        let mut rng = GameRng::seed_from_u64(11);
        let mut scratch = Vec::new();
        let mut checked = 0;
        for variant in [Variant::Standard, Variant::RadioactiveIsotopes] {
            for _ in 0..40 {
                let mut g = Atoms::new(8, 11, variant);
                while let Some(mv) = g.random_move(&mut rng, &mut scratch) {
                    let (from, to) = move_cells(mv);
                    if from != 0 && g.state.settled {
                        let seat = g.to_move;
                        let (mut full, mut quick) = (g.clone(), g.clone());
                        full.remove_atom(from);
                        full.add_atom(seat, to);
                        quick.move_atom(seat, from, to);
                        let removed = full.removal_step();
                        assert_eq!(quick.removal_after_move(seat, from, to), removed);
                        assert_eq!(quick, full, "{}", g.position_text());
                        checked += 1;
                    }
                    g.play(mv);
                    assert_eq!(g.state.hash, g.hash_from_scratch());
                    let plain = g.recent[g.state.recent_start..=g.state.quiet]
                        .iter()
                        .rev()
                        .step_by(2)
                        .filter(|&&h| h == g.state.hash)
                        .count();
                    assert_eq!(g.occurrences(), plain);
                }
            }
        }
        assert!(checked > 1000);
    }

    #[test]
    fn first_drop_anywhere_then_exactly_one_neighbour() {
        let mut g = Atoms::new(8, 11, Variant::Standard);
        assert_eq!(legal_texts(&g).len(), 64);
        play(&mut g, "d4");
        // Exactly the 8 neighbours of d4.
        assert_eq!(
            legal_texts(&g),
            vec!["c3", "c4", "c5", "d3", "d5", "e3", "e4", "e5"]
        );
        play(&mut g, "e4");
        // d5 and e5 now touch two atoms; f-file and c-file cells touch one.
        let legal = legal_texts(&g);
        assert!(!legal.contains(&"d5".to_string()));
        assert!(legal.contains(&"c5".to_string()));
        assert!(legal.contains(&"f5".to_string()));
    }

    #[test]
    fn valence_excludes_the_origin() {
        // White d3 touches black e3 and e4: valence 2. d3->d4 still touches
        // e3 and e4 (2, the old cell d3 not counted), so it is legal.
        let g = position("8/8/8/8/4b3/3wb3/8/8 w 0 0 0", Variant::Standard);
        let legal = legal_texts(&g);
        assert!(legal.contains(&"d3d4".to_string()));
        // d3->c3 would touch nothing: valence 0, illegal in standard.
        assert!(!legal.contains(&"d3c3".to_string()));
        // d3->d2 touches only e3: valence 1, illegal.
        assert!(!legal.contains(&"d3d2".to_string()));
        // Radioactive: the move to c3 is a legal suicide.
        let g = position("8/8/8/8/4b3/3wb3/8/8 w 0 0 0", Variant::Radioactive);
        assert!(legal_texts(&g).contains(&"d3c3".to_string()));
    }

    #[test]
    fn removal_is_simultaneous() {
        // White a1 b1, black c1. Black's radioactive suicide c1d2 leaves every
        // atom without an enemy: all three go at once and the board is empty,
        // so White (to move, nothing left) has lost.
        let mut g = position("8/8/8/8/8/8/8/wwb5 b 0 0 0", Variant::Radioactive);
        play(&mut g, "c1d2");
        assert_eq!(g.position_text(), "8/8/8/8/8/8/8/8 w 0 0 0");
        assert_eq!(g.outcome(), Some(Outcome::Win(Seat::P2)));
    }

    #[test]
    fn isotopes_slide_over_empty_cells() {
        // White a1 and a5, black b1 and a4.
        let text = "8/8/8/w7/b7/8/8/wb6 w 0 0 0";
        let standard = legal_texts(&position(text, Variant::Standard));
        assert_eq!(standard, vec!["a1a2", "a1b2", "a5b4", "a5b5"]);
        // Sliding adds a1a3: two steps away, a3 touches only a4 (valence 1).
        let isotopes = legal_texts(&position(text, Variant::Isotopes));
        assert_eq!(isotopes, vec!["a1a2", "a1a3", "a1b2", "a5b4", "a5b5"]);
    }

    #[test]
    fn last_drop_runs_one_removal() {
        let mut g = Atoms::new(6, 2, Variant::Standard);
        for m in ["c3", "d3", "b2", "e2"] {
            play(&mut g, m);
        }
        // c3 w touches d3 b; b2 w touches c3 only (friend): unstable; e2 b
        // touches d3 only (friend): unstable. Both removed after the last drop.
        assert_eq!(g.position_text(), "6/6/6/2wb2/6/6 w 0 0 0");
    }

    #[test]
    fn drop_phase_evaluation_counts_the_atoms_the_removal_would_keep() {
        // White b1 c2, black d2 d3, nine each in hand: white's b1 touches no
        // black atom, so the removal after the last drop would take it, while
        // every black atom touches c2. Material and the drop cells (the same
        // for both sides) are level.
        let white = position("8/8/8/8/8/3b4/2wb4/1w6 w 9 9 0", Variant::Standard);
        let black = position("8/8/8/8/8/3b4/2wb4/1w6 b 9 9 0", Variant::Standard);
        assert_eq!(white.evaluate(), -KEPT_ATOM);
        assert_eq!(black.evaluate(), KEPT_ATOM);
        // A black drop on a2 keeps b1 as well as itself.
        let later = position("8/8/8/8/8/3b4/b1wb4/1w6 w 9 8 0", Variant::Standard);
        assert_eq!(later.kept_atoms(0), 2);
        assert_eq!(later.kept_atoms(1), 3);
    }

    #[test]
    fn movement_evaluation_counts_the_atoms_that_cannot_move() {
        // Black e4 sits between white d5 and f3: every cell beside it would
        // give it one neighbour or none, not its two, so it cannot move.
        // Black a1 (beside white b2) can go to a2 or b1.
        let black = position("8/8/8/3w4/4b3/5w2/1w6/b7 b 0 0 0", Variant::Standard);
        let white = position("8/8/8/3w4/4b3/5w2/1w6/b7 w 0 0 0", Variant::Standard);
        assert_eq!(legal_texts(&black), vec!["a1a2", "a1b1"]);
        let theirs = black.movement_counts(Seat::P2);
        assert_eq!(
            theirs,
            MoveCounts {
                moves: 2,
                frozen: 1
            }
        );
        // White's counts agree with its legal moves: their number, and the
        // atoms that start none of them.
        let white_moves = legal_texts(&white);
        let movers: std::collections::BTreeSet<&str> =
            white_moves.iter().map(|m| &m[..2]).collect();
        let ours = white.movement_counts(Seat::P1);
        assert_eq!(ours.moves, white_moves.len() as i32);
        assert_eq!(ours.frozen, 3 - movers.len() as i32);
        // Black, an atom behind, holds a fortress (a1 beside b2, alone in
        // the corner): the score is shrunk.
        assert!(black.holds_fortress(Seat::P2.index()));
        assert_eq!(
            black.evaluate(),
            (-100 + 4 * (theirs.moves - ours.moves) + FROZEN_ATOM * (ours.frozen - theirs.frozen))
                / FORTRESS_DIVISOR
        );
        assert_eq!(white.evaluate(), -black.evaluate());
    }

    #[test]
    fn a_lone_atom_with_one_to_four_enemies_and_nothing_near_is_a_fortress() {
        let holds = |text: &str, seat: Seat| {
            position(&format!("{text} w 0 0 0"), Variant::Standard).holds_fortress(seat.index())
        };
        // Black a1 beside white b2 (and black g8 beside white h8 far away);
        // white h8 beside black g7.
        assert!(holds("6bw/8/8/8/8/8/1w6/b7", Seat::P2));
        assert!(holds("7w/6b1/8/8/8/8/1w6/b7", Seat::P1));
        // Black e4 between white d5 and f3, nothing else within two cells.
        let star = "8/8/8/3w4/4b3/5w2/8/8";
        assert!(holds(star, Seat::P2));
        assert!(!holds(star, Seat::P1), "white has two atoms in the group");
        // A third and a fourth white atom around it (d3, then f5): still one
        // (three or four can freeze it, as d5e5 would here, but in play such
        // groups mostly held).
        assert!(holds("8/8/8/3w4/4b3/3w1w2/8/8", Seat::P2));
        assert!(holds("8/8/8/3w1w2/4b3/3w1w2/8/8", Seat::P2));
        // A fifth (e6, two cells above e4): not a fortress.
        assert!(!holds("8/8/4w3/3w1w2/4b3/3w1w2/8/8", Seat::P2));
        // Another atom within two cells of a guard (h1 of f3) or of the lone
        // atom itself (black g4): the group is not on its own.
        assert!(!holds("8/8/8/3w4/4b3/5w2/8/7b", Seat::P2));
        assert!(!holds("8/8/8/3w4/4b1b1/5w2/8/8", Seat::P2));
        // An atom three cells or more from all of them does not matter.
        assert!(holds("8/8/8/3w4/4b3/5w2/8/b7", Seat::P2));
    }

    #[test]
    fn a_fortress_of_the_side_behind_shrinks_the_lead() {
        // White d5 f3 h8 against black e4 g7: the e4 star and the g7-h8
        // pair are both Black's fortresses; White leads by one atom.
        let text = "7w/6b1/8/3w4/4b3/5w2/8/8";
        let white = position(&format!("{text} w 0 0 0"), Variant::Standard);
        let (ours, theirs) = (
            white.movement_counts(Seat::P1),
            white.movement_counts(Seat::P2),
        );
        let full =
            100 + 4 * (ours.moves - theirs.moves) + FROZEN_ATOM * (theirs.frozen - ours.frozen);
        assert_eq!(white.evaluate(), full / FORTRESS_DIVISOR);
        // Five white atoms around e4 end that fortress, but g7's stands.
        let more = position("7w/6b1/8/3w4/2w1b3/3w1w2/2w5/8 w 0 0 0", Variant::Standard);
        assert!(more.holds_fortress(Seat::P2.index()));
        // Level material: nothing to shrink.
        let level = position("8/6b1/8/3w4/4b3/5w2/8/8 w 0 0 0", Variant::Standard);
        let (ours, theirs) = (
            level.movement_counts(Seat::P1),
            level.movement_counts(Seat::P2),
        );
        assert!(level.holds_fortress(Seat::P2.index()));
        assert_eq!(
            level.evaluate(),
            4 * (ours.moves - theirs.moves) + FROZEN_ATOM * (theirs.frozen - ours.frozen)
        );
        // In the drop phase nothing is shrunk: the removal is still to come.
        let drops = position(&format!("{text} w 1 1 0"), Variant::Standard);
        let (mine, theirs) = drops.mobility();
        let kept = drops.kept_atoms(0) - drops.kept_atoms(1);
        assert_eq!(
            drops.evaluate(),
            100 + 4 * (mine - theirs) + KEPT_ATOM * kept
        );
    }

    #[test]
    fn a_search_shrinks_only_the_lead_of_the_seat_it_plays_for() {
        // The position of the test above: White leads by one atom, Black
        // holds fortresses.
        let text = "7w/6b1/8/3w4/4b3/5w2/8/8";
        for to_move in ["w", "b"] {
            let state = position(&format!("{text} {to_move} 0 0 0"), Variant::Standard);
            let shrunk = state.evaluate();
            let full = state.score(Some(Seat::P2));
            // Playing for White, the lead is mostly a draw's.
            assert_eq!(state.evaluate_for(Seat::P1), shrunk);
            // Playing for Black, its own deficit counts in full.
            assert_eq!(state.evaluate_for(Seat::P2), full);
            assert_eq!(full / FORTRESS_DIVISOR, shrunk);
            assert!(
                full.abs() >= 60,
                "a whole atom's lead, less mobility: {full}"
            );
        }
        // Level material or the drop phase: the same for either seat.
        for text in [
            "8/6b1/8/3w4/4b3/5w2/8/8 w 0 0 0",
            "7w/6b1/8/3w4/4b3/5w2/8/8 w 1 1 0",
        ] {
            let state = position(text, Variant::Standard);
            assert_eq!(state.evaluate_for(Seat::P1), state.evaluate());
            assert_eq!(state.evaluate_for(Seat::P2), state.evaluate());
        }
    }

    #[test]
    fn a_move_that_leaves_an_enemy_atom_alone_is_tactical() {
        // White c3 f5, black b3 d2 e4. c3d3 keeps c3's two neighbours (d2,
        // e4) but leaves b3, whose only enemy was c3, alone: it is taken.
        // c3c2 stays beside b3 and d2; f5's moves stay beside e4.
        let g = position("8/8/8/5w2/4b3/1bw5/3b4/8 w 0 0 0", Variant::Standard);
        assert_eq!(legal_texts(&g), vec!["c3c2", "c3d3", "f5e5", "f5f4"]);
        let tactical: Vec<String> = ["c3c2", "c3d3", "f5e5", "f5f4"]
            .into_iter()
            .filter(|m| g.is_tactical(g.parse_move(m).unwrap()))
            .map(String::from)
            .collect();
        assert_eq!(tactical, vec!["c3d3"]);
        let mut taken = g.clone();
        play(&mut taken, "c3d3");
        assert_eq!(taken.state.piece_count, [2, 2]);
        // Drops take nothing before the last one.
        let drops = position("8/8/8/8/8/3b4/2wb4/1w6 w 9 9 0", Variant::Standard);
        let mut moves = Vec::new();
        drops.legal_moves(&mut moves);
        assert!(!moves.is_empty());
        assert!(moves.iter().all(|&m| !drops.is_tactical(m)));
    }

    #[test]
    fn threefold_repetition_is_a_draw() {
        let mut g = position("8/8/8/8/8/8/8/wb6 w 0 0 0", Variant::Standard);
        for _ in 0..2 {
            play(&mut g, "a1a2");
            play(&mut g, "b1b2");
            play(&mut g, "a2a1");
            play(&mut g, "b2b1");
        }
        assert_eq!(g.outcome(), Some(Outcome::Draw));
        assert!(legal_texts(&g).is_empty());
    }

    /// The same position after histories that hold different positions
    /// twice: same hash, different salts (search tables keep their values
    /// apart); a history without a repetition has salt 0.
    #[test]
    fn history_salt_tells_apart_histories_of_one_position() {
        let fresh = position("8/8/8/8/8/8/8/wb6 w 0 0 0", Variant::Standard);
        assert_eq!(fresh.history_salt(), 0);
        let mut twice = fresh.clone();
        for mv in ["a1a2", "b1b2", "a2a1", "b2b1"] {
            play(&mut twice, mv);
        }
        assert_eq!(twice.hash(), fresh.hash());
        assert_eq!(twice.seen_twice(), vec![fresh.hash()]);
        assert_ne!(twice.history_salt(), 0);
        let mut more = twice.clone();
        for mv in ["a1a2", "b1b2", "a2a1"] {
            play(&mut more, mv);
        }
        assert_eq!(more.seen_twice().len(), 4);
        assert_ne!(more.history_salt(), twice.history_salt());
    }
}

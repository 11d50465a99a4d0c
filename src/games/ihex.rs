//! Ihex (Mark Steere, 2024), per `shared/rules/ihex.md`.
//!
//! Stones are bit sets over the dense cell ids of the hexhex grid. The hard
//! part is finding the largest hexagons a placement forms without listing
//! hexagons (side 10 has 296,633 of them). Three facts make it small:
//!
//! - A hexagon (every side >= 2 cells) is exactly a "core" region (any
//!   non-empty set `q0<=q<=q1, r0<=r<=r1, s0<=q-r<=s1`) grown by one ring.
//!   So the largest hexagon inside any such box is the box shrunk by one,
//!   tightened and grown again, and every hexagon inside the box lies
//!   inside that one: the side-length condition disappears.
//! - A placement on `c` forms a hexagon only if it forms a 7-cell one (a
//!   formed hexagon holds the 7 cells around a core cell next to `c`):
//!   seven mask tests, and most placements stop there.
//! - Otherwise a branch-and-bound over hexagons finds the largest ones that
//!   hold `c` and no empty cell but `c` (a *hole*). A hexagon holding holes
//!   is split at the hole nearest `c` by the (at most three) bounds that
//!   can cut it off while keeping `c`; each branch takes the largest
//!   hexagon left inside its cut, branches are visited largest first,
//!   later ones keep the hole inside the earlier cuts' limits so that no
//!   hexagon is reached twice, and hexagons that cannot beat the best size
//!   found are dropped. On sides up to 6 the search starts from the
//!   hexagon around the cores connected to `c`'s neighbourhood (found by
//!   flood fill in the rhombus layout, `super::rhombus`), not from the
//!   whole board, and counts every cell no such core reaches as a hole:
//!   random games need about 4.7 hexagons per search that way (6.7 from
//!   the whole board).
//!
//! Random playouts also keep what each such search found (`Memo`), checked
//! against the stones when used: a ply changes the board only near its
//! stone, and a third of the searches are answered from there.
//!
//! Memory, per board size and bit width: a mask per bound and value, and
//! per cell its neighbours, seven full-centre masks and a disk per radius
//! (about 300 kB at side 10, 20 kB at side 6).

use super::bitboard::Bits;
use super::features::{
    FeatureRows, FeatureSet, Layout as Blocks, PatternTable, clamp_bucket, log_bucket,
};
use super::hexhex::{self, HexGrid};
use super::picture::{Ink, Picture, Piece, Shape, turn_note};
use super::rhombus::Rhombus;
use super::square::{decode_rows, encode_rows};
use super::zobrist::{self, salt};
use super::{Game, GameRng, Outcome, Seat, random_below};
use std::any::{Any, TypeId};
use std::collections::HashMap;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock};

pub const MIN_SIZE: usize = 4;
pub const MAX_SIZE: usize = 10;
pub const DEFAULT_SIZE: usize = 6;

/// The move `pass`; every other move is a cell id.
pub const PASS: u16 = u16::MAX;

/// The three coordinates of a cell: q, r and s = q - r.
type Cube = [i32; 3];

/// Geometry of one board side at one bit-set width; built once, shared.
struct Tables<B> {
    grid: &'static HexGrid,
    n: i32,
    /// Each cell's six limits (see [`Bounds`]): the bounds of its own region.
    limits: Vec<[i32; 6]>,
    /// Per limit, the cells whose own limit is at most v, at `v + LIMIT_OFFSET`.
    within: [Vec<B>; 6],
    /// Per cell, its neighbours.
    neighbours: Vec<B>,
    /// Per cell, the 7-cell hexagons (around itself or a neighbour) and
    /// the 10-cell ones (around two neighbouring cells) that hold it.
    sevens: Vec<Vec<B>>,
    tens: Vec<Vec<B>>,
    /// Per cell, the cells within distance 1, 2, ..., 2n - 2 (the last is
    /// the whole board), at `cell * (2n - 2) + radius - 1`.
    disks: Vec<B>,
    all: B,
    /// Sides up to 6: the rhombus layout, and each cell's closed
    /// neighbourhood there (the search's first bound, see
    /// [`Largest::search`]).
    rhombus: Option<(Rhombus, Vec<u128>)>,
}

/// Shifts limits (|v| < 2 * MAX_SIZE) to table indices.
const LIMIT_OFFSET: i32 = 2 * MAX_SIZE as i32;

impl<B> std::fmt::Debug for Tables<B> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Tables(side {})", self.n)
    }
}

/// The hex distance between two cells given by their limits: the largest
/// excess of one's limits over the other's.
fn distance(a: &[i32; 6], b: &[i32; 6]) -> i32 {
    (0..6).map(|i| a[i] - b[i]).max().unwrap_or(0)
}

impl<B: Bits> Tables<B> {
    fn build(side: usize) -> Tables<B> {
        let grid = hexhex::grid(side, false);
        let limits: Vec<[i32; 6]> = grid
            .coords
            .iter()
            .map(|&(q, r)| Bounds::point([q, r, q - r]).0)
            .collect();
        let mask_of = |keep: &dyn Fn(usize) -> bool| {
            (0..limits.len())
                .filter(|&c| keep(c))
                .fold(B::ZERO, |m, c| m | B::bit(c))
        };
        let within = std::array::from_fn(|i| {
            (-LIMIT_OFFSET..=LIMIT_OFFSET)
                .map(|v| mask_of(&|c| limits[c][i] <= v))
                .collect()
        });
        let radii = 2 * side - 2;
        let mut disks = vec![B::ZERO; limits.len() * radii];
        for (c, own) in disks.chunks_mut(radii).enumerate() {
            for d in 0..limits.len() {
                let at = (distance(&limits[c], &limits[d]) as usize).max(1);
                for disk in &mut own[at - 1..] {
                    *disk |= B::bit(d);
                }
            }
        }
        let closed: Vec<B> = disks.chunks(radii).map(|d| d[0]).collect();
        let interior = mask_of(&|c| !grid.edge[c]);
        let sevens: Vec<Vec<B>> = (0..limits.len())
            .map(|c| (closed[c] & interior).ones().map(|m| closed[m]).collect())
            .collect();
        let tens = (0..limits.len())
            .map(|c| {
                let mut tens: Vec<B> = Vec::new();
                for a in (closed[c] & interior).ones() {
                    for b in (closed[a] & interior & !B::bit(a)).ones() {
                        let ten = closed[a] | closed[b];
                        if !tens.contains(&ten) {
                            tens.push(ten);
                        }
                    }
                }
                tens
            })
            .collect();
        let rhombus = Rhombus::new(grid).map(|rh| {
            let around = (0..limits.len())
                .map(|c| rh.grown(rh.from_dense(B::bit(c).low_u128())))
                .collect();
            (rh, around)
        });
        Tables {
            grid,
            rhombus,
            n: side as i32,
            within,
            neighbours: (0..limits.len()).map(|c| closed[c] & !B::bit(c)).collect(),
            sevens,
            tens,
            disks,
            all: mask_of(&|_| true),
            limits,
        }
    }

    /// The radii of the disks around each cell.
    fn radii(&self) -> usize {
        2 * self.n as usize - 2
    }

    /// The bounds of the board.
    fn board_bounds(&self) -> Bounds {
        let n = self.n;
        Bounds::new([0, 0, 1 - n], [2 * n - 2, 2 * n - 2, n - 1])
    }

    /// The cells that keep a limit of at most `value`.
    fn within(&self, limit: usize, value: i32) -> B {
        self.within[limit][(value + LIMIT_OFFSET) as usize]
    }

    /// The cells of a region inside the board.
    fn region(&self, b: &Bounds) -> B {
        (0..6).fold(self.all, |mask, i| mask & self.within(i, b.0[i]))
    }
}

/// A region `q0 <= q <= q1, r0 <= r <= r1, s0 <= q - r <= s1`, kept as six
/// upper limits `[-q0, -r0, -s0, q1, r1, s1]`: shrinking a region lowers
/// one limit, and every test is the same on all six.
#[derive(Copy, Clone, Debug, PartialEq)]
struct Bounds([i32; 6]);

impl Bounds {
    fn new(lo: Cube, hi: Cube) -> Bounds {
        Bounds([-lo[0], -lo[1], -lo[2], hi[0], hi[1], hi[2]])
    }

    fn point(cell: Cube) -> Bounds {
        Bounds::new(cell, cell)
    }

    fn lo(&self) -> Cube {
        [-self.0[0], -self.0[1], -self.0[2]]
    }

    fn hi(&self) -> Cube {
        [self.0[3], self.0[4], self.0[5]]
    }

    /// The same region with every bound attained. With three coordinates
    /// tied by s = q - r, one round of the two-step implications is exact:
    /// each limit against the sum of the two that imply it.
    fn tightened(&self) -> Bounds {
        let [a, b, c, d, e, f] = self.0;
        Bounds([
            a.min(b + c),
            b.min(a + f),
            c.min(a + e),
            d.min(e + f),
            e.min(c + d),
            f.min(b + d),
        ])
    }

    fn grown(&self) -> Bounds {
        Bounds(self.0.map(|v| v + 1))
    }

    fn shrunk(&self) -> Bounds {
        Bounds(self.0.map(|v| v - 1))
    }

    /// Whether the region holds a cell: each coordinate's range is not
    /// empty, and neither is the range q - r can take against s's.
    fn is_inhabited(&self) -> bool {
        let [a, b, c, d, e, f] = self.0;
        a + d >= 0 && b + e >= 0 && c + f >= 0 && a + e + f >= 0 && b + c + d >= 0
    }

    /// The number of cells of a tightened region: the triangle
    /// `q <= q1, r >= r0, s >= s0` less the three corners the other bounds
    /// cut off (disjoint when the bounds are tight).
    fn cells(&self) -> u32 {
        let ([q0, r0, s0], [q1, r1, s1]) = (self.lo(), self.hi());
        // side * (side + 1) is even, so the shift is an exact halving.
        let triangle = |side: i32| ((side * (side + 1)) >> 1) as u32;
        triangle(q1 - r0 - s0 + 1)
            - triangle(q0 - r0 - s0)
            - triangle(q1 - s0 - r1)
            - triangle(q1 - r0 - s1)
    }

    /// The sum of the three extents: the ring around a tight region has
    /// this many cells plus 6.
    fn extents(&self) -> u32 {
        self.0.iter().sum::<i32>() as u32
    }

    /// Whether the region reaches at least as far as `keep` on every side.
    fn covers(&self, keep: &Bounds) -> bool {
        (0..6).all(|i| self.0[i] >= keep.0[i])
    }

    /// The same bounds with limit `limit` set to `value`.
    fn with_limit(&self, limit: usize, value: i32) -> Bounds {
        // Selected lane by lane, not stored at a variable index: the copy
        // stays in registers instead of stalling on a partial store.
        let mut i = 0;
        Bounds(self.0.map(|v| {
            i += 1;
            if i - 1 == limit { value } else { v }
        }))
    }

    /// The region with limit `limit` lowered to `value`.
    fn cut(&self, limit: usize, value: i32) -> Bounds {
        self.with_limit(limit, value.min(self.0[limit]))
    }

    /// `keep` raised so that its limit `limit` is at least `value`.
    fn raised(&self, limit: usize, value: i32) -> Bounds {
        self.with_limit(limit, value.max(self.0[limit]))
    }
}

/// The shared tables of a board side at bit-set width `B`.
fn tables<B: Bits>(side: usize) -> &'static Tables<B> {
    type Cache = HashMap<(TypeId, usize), &'static (dyn Any + Send + Sync)>;
    static CACHE: OnceLock<Mutex<Cache>> = OnceLock::new();
    let mut cache = CACHE
        .get_or_init(|| Mutex::new(HashMap::new()))
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    let entry = cache
        .entry((TypeId::of::<B>(), side))
        .or_insert_with(|| Box::leak(Box::new(Tables::<B>::build(side))));
    entry
        .downcast_ref::<Tables<B>>()
        .expect("the cache is keyed by type")
}

/// What a placement does under the rules.
#[derive(Copy, Clone, Debug, PartialEq)]
enum Placement<B> {
    Illegal,
    /// Legal, captures nothing: the turn ends.
    Quiet,
    /// Legal, captures these enemy stones: the turn continues.
    Capture(B),
}

/// The search for the largest hexagons formed by one placement, folding
/// them the way the rules use them as it goes.
struct Largest<'a, B> {
    t: &'a Tables<B>,
    /// The cells no formed hexagon holds: the empty cells but the placed one.
    holes: B,
    /// Each seat's stones (the placed cell is empty): the hexagons are the
    /// same whoever places, so the verdicts for both seats come from one
    /// search.
    stones: [B; 2],
    /// The placed cell.
    cell: usize,
    found: Found<B>,
}

/// The largest hexagons found so far, folded the way the rules use them.
#[derive(Copy, Clone, Debug)]
struct Found<B> {
    size: u32,
    /// Per placing seat: some largest hexagon has a friendly majority, some
    /// an enemy one, and the enemy stones of the friendly-majority ones.
    friendly_majority: [bool; 2],
    enemy_majority: [bool; 2],
    capture: [B; 2],
    /// The cells of the largest hexagons.
    cells: B,
}

impl<B: Bits> Found<B> {
    const NONE: Found<B> = Found {
        size: 0,
        friendly_majority: [false; 2],
        enemy_majority: [false; 2],
        capture: [B::ZERO; 2],
        cells: B::ZERO,
    };

    fn verdict(&self, seat: Seat) -> Placement<B> {
        let i = seat.index();
        match (self.enemy_majority[i], self.friendly_majority[i]) {
            (true, false) => Placement::Illegal,
            (true, true) => Placement::Quiet,
            _ if self.capture[i].is_empty() => Placement::Quiet,
            _ => Placement::Capture(self.capture[i]),
        }
    }
}

impl<'a, B: Bits> Largest<'a, B> {
    /// A search for the largest hexagons through `cell`, starting from
    /// those already `found`.
    fn new(t: &'a Tables<B>, holes: B, stones: [B; 2], cell: usize, found: Found<B>) -> Self {
        Largest {
            t,
            holes,
            stones,
            cell,
            found,
        }
    }

    /// The search's findings when only 7-cell hexagons form: those.
    fn with_sevens(mut self) -> Self {
        for &hexagon in &self.t.sevens[self.cell] {
            if (hexagon & self.holes).is_empty() {
                self.record(hexagon, 7);
            }
        }
        self
    }

    /// Runs the branch-and-bound over all hexagons through the placed cell.
    fn search_through_cell(&mut self) {
        self.search(Bounds(self.t.limits[self.cell]));
    }

    /// Runs the branch-and-bound over the hexagons that hold `keep`.
    fn search(&mut self, keep: Bounds) {
        match &self.t.rhombus {
            Some((rh, around)) => {
                let filled = rh.from_dense((self.t.all & !self.holes).low_u128());
                self.search_near(rh, around[self.cell], rh.interior(filled), keep)
            }
            None => self.visit(self.t.board_bounds(), self.t.all.count(), keep),
        }
    }

    /// The verdict for `seat` in a random playout, for a placement that
    /// forms a 10-cell hexagon (the search [`Ihex::placement_in_ply`]
    /// leaves), given (in the rhombus layout) the cells whose closed
    /// neighbourhoods are filled once the stone is placed; and whether it
    /// ran the whole search (so that the findings are complete). Where the
    /// stones the formed hexagons can hold leave no choice, the verdict
    /// needs no branch-and-bound: with no enemy stone among them, every
    /// formed hexagon is all friendly (legal, nothing to capture); with at
    /// most 3 friendly ones, every largest hexagon has an enemy majority
    /// (illegal).
    fn settle(&mut self, seat: Seat, centres: Option<u128>) -> (Placement<B>, bool) {
        let (Some((rh, around)), Some(centres)) = (&self.t.rhombus, centres) else {
            self.search_through_cell();
            return (self.found.verdict(seat), true);
        };
        if let Some((hexagon, size)) = self.bound_near(rh, around[self.cell], centres) {
            let reach = self.t.all & !self.holes;
            if (reach & self.stones[seat.other().index()]).is_empty() {
                return (Placement::Quiet, false);
            }
            // The largest hexagons have 10 cells or more (a 10-cell one
            // forms, or there would be no search): with at most 3 friendly
            // stones within reach, each has at most 4 friendly and at least
            // 6 enemy ones.
            if (reach & self.stones[seat.index()]).count() <= 3 {
                return (Placement::Illegal, false);
            }
            let keep = Bounds(self.t.limits[self.cell]);
            if hexagon.covers(&keep) {
                self.visit(hexagon, size, keep);
            }
        }
        (self.found.verdict(seat), true)
    }

    /// [`Largest::search_through_cell`], given (in the rhombus layout) the
    /// cells whose closed neighbourhoods are filled once the stone is
    /// placed.
    fn search_from(&mut self, centres: Option<u128>) {
        match (&self.t.rhombus, centres) {
            (Some((rh, around)), Some(centres)) => {
                let keep = Bounds(self.t.limits[self.cell]);
                self.search_near(rh, around[self.cell], centres, keep);
            }
            _ => self.search_through_cell(),
        }
    }

    /// The search from a first bound far tighter than the board (see
    /// [`Largest::bound_near`]).
    fn search_near(&mut self, rh: &Rhombus, around: u128, centres: u128, keep: Bounds) {
        if let Some((hexagon, size)) = self.bound_near(rh, around, centres)
            && hexagon.covers(&keep)
        {
            self.visit(hexagon, size, keep);
        }
    }

    /// The hexagon every formed one lies in, and its size (None when none
    /// forms), with every cell no formed hexagon can hold counted as a hole.
    /// A formed hexagon is a core grown by one ring: the core lies in the
    /// cells whose neighbours are all filled (`centres`), and (being
    /// connected and next to the placed cell) in the part of them connected
    /// to the placed cell's neighbourhood `around`. So every formed hexagon
    /// lies inside that part grown by one ring and inside the hexagon
    /// around that part's bounds. The rhombus layout makes these fills a
    /// few word operations.
    fn bound_near(&mut self, rh: &Rhombus, around: u128, centres: u128) -> Option<(Bounds, u32)> {
        let cores = rh.connected(around, centres);
        if cores == 0 {
            return None;
        }
        self.holes = self.t.all & !B::from_low_u128(rh.to_dense(rh.grown(cores)));
        let core = Bounds(rh.limits(cores));
        Some((core.grown(), core.cells() + core.extents() + 6))
    }

    /// Explores the hexagons inside the hexagon `h` (of `size` cells,
    /// at least the best so far) that reach `keep` on every side (so hold
    /// the placed cell) and hold no hole.
    fn visit(&mut self, h: Bounds, size: u32, mut keep: Bounds) {
        if size < self.found.size {
            return;
        }
        let region = self.t.region(&h);
        // A hexagon inside has at most the filled cells of this one.
        if (region & !self.holes).count() < self.found.size {
            return;
        }
        let outside = region & self.holes;
        if outside.is_empty() {
            self.record(region, size);
            return;
        }
        // The limits that can cut the hole off while `keep` stays (it
        // holds the placed cell, so one per axis where they differ), each
        // with the largest hexagon left inside the cut box.
        let obstacle = self.t.limits[self.pick(outside)];
        let mut cuts = [(0u32, 0usize, h); 3];
        let mut count = 0;
        for (i, &limit) in obstacle.iter().enumerate() {
            if limit > keep.0[i]
                && let Some((inner, size)) = self.hexagon_inside(&h.cut(i, limit - 1))
            {
                cuts[count] = (size, i, inner);
                count += 1;
            }
        }
        // Largest first, so that the best size found bounds the others.
        // Later branches keep the hole inside the earlier cuts' limits, so
        // no hexagon is seen twice.
        if count == 3 && cuts[2].0 > cuts[1].0 {
            cuts.swap(1, 2);
        }
        if count >= 2 && cuts[1].0 > cuts[0].0 {
            cuts.swap(0, 1);
        }
        if count == 3 && cuts[2].0 > cuts[1].0 {
            cuts.swap(1, 2);
        }
        for &(size, i, inner) in &cuts[..count] {
            // The best size may have grown in an earlier branch.
            if size >= self.found.size && inner.covers(&keep) {
                self.visit(inner, size, keep);
            }
            keep = keep.raised(i, obstacle[i]);
        }
    }

    /// The largest hexagon inside the box `b` and its size, if it is not
    /// smaller than the best so far: the box shrunk to its core and grown
    /// again (every hexagon inside `b` lies inside it).
    fn hexagon_inside(&self, b: &Bounds) -> Option<(Bounds, u32)> {
        let core = b.shrunk();
        if !core.is_inhabited() {
            return None;
        }
        let core = core.tightened();
        let size = core.cells() + core.extents() + 6;
        (size >= self.found.size).then_some((core.grown(), size))
    }

    /// A hole nearest the placed cell (`outside` is not empty): cuts there
    /// shrink the box the most.
    fn pick(&self, outside: B) -> usize {
        let radii = self.t.radii();
        let disks = &self.t.disks[self.cell * radii..][..radii];
        disks
            .iter()
            .map(|&disk| outside & disk)
            .find(|near| !near.is_empty())
            .map_or(0, |near| near.lowest())
    }

    /// Folds in a formed hexagon (its cells).
    fn record(&mut self, cells: B, size: u32) {
        let found = &mut self.found;
        if size < found.size {
            return;
        }
        if size > found.size {
            *found = Found {
                size,
                ..Found::NONE
            };
        }
        found.cells |= cells;
        let held = self.stones.map(|stones| cells & stones);
        let counts = held.map(|stones| stones.count());
        for seat in 0..2 {
            // The placed stone is the placing seat's.
            let (mine, theirs) = (counts[seat] + 1, counts[1 - seat]);
            if mine > theirs {
                found.friendly_majority[seat] = true;
                found.capture[seat] |= held[1 - seat];
            } else if theirs > mine {
                found.enemy_majority[seat] = true;
            }
        }
    }
}

fn stone_key(seat: Seat, cell: usize) -> u64 {
    zobrist::stone_key(salt::IHEX, seat, cell)
}

fn side_key() -> u64 {
    zobrist::side_key(salt::IHEX)
}

/// What `unmake` needs besides the move.
pub struct Undo<B> {
    mover: Seat,
    captured: B,
    drawn: bool,
    quiet_since: usize,
}

#[derive(Clone, Debug)]
pub struct Ihex<B: Bits> {
    t: &'static Tables<B>,
    /// Stones per seat: [red (p1), blue (p2)].
    stones: [B; 2],
    to_move: Seat,
    hash: u64,
    history: History,
    /// The current position occurred for the third time.
    drawn: bool,
    chosen: Chosen,
    memo: Memo<B>,
}

/// The positions since the start or the position text, for threefold
/// repetition.
#[derive(Clone, Debug, PartialEq)]
struct History {
    /// Their hashes, the current one last.
    hashes: Vec<u64>,
    /// The index of the position after the last capture or pass: every
    /// later move adds a stone, so the current position can only repeat
    /// one before it.
    quiet_since: usize,
    /// How many hashes fall in each bucket (by their low byte): a third
    /// occurrence needs two in its bucket already, which is rare.
    buckets: [u16; 256],
}

impl History {
    fn new(start: u64) -> History {
        let mut history = History {
            hashes: Vec::new(),
            quiet_since: 0,
            buckets: [0; 256],
        };
        history.push(start, true);
        history
    }

    /// Adds the position after a move (`barrier`: one that captured or
    /// passed); whether it occurs for the third time.
    fn push(&mut self, hash: u64, barrier: bool) -> bool {
        if barrier {
            self.quiet_since = self.hashes.len();
        }
        let bucket = &mut self.buckets[hash as u8 as usize];
        // (The bucket counts wrap only past 65,535 positions.)
        let suspect = *bucket >= 2 || self.hashes.len() > u16::MAX as usize;
        *bucket = bucket.wrapping_add(1);
        self.hashes.push(hash);
        suspect
            && self.hashes[..self.quiet_since]
                .iter()
                .filter(|&&h| h == hash)
                .count()
                >= 2
    }

    /// Takes the last position back, with the barrier as it was before.
    fn pop(&mut self, quiet_since: usize) {
        if let Some(hash) = self.hashes.pop() {
            let bucket = &mut self.buckets[hash as u8 as usize];
            *bucket = bucket.wrapping_sub(1);
        }
        self.quiet_since = quiet_since;
    }
}

/// The last placement `random_move` chose and its captures, for `play` to
/// reuse: the hexagon search is most of a placement's cost, and a playout
/// would otherwise run it twice per move. Every change of the position
/// forgets it (a clone copies it with the position it belongs to). Atomic
/// only so that the position stays `Sync`; no two threads share one.
#[derive(Debug)]
struct Chosen {
    /// The cell, with `CAPTURES` set when it captures; `NONE` for none.
    mv: AtomicU32,
    /// The captured stones, as 64-cell words.
    captured: [AtomicU64; CAPTURE_WORDS],
}

/// Words for the captures of the largest board (271 cells).
const CAPTURE_WORDS: usize = cell_count(MAX_SIZE).div_ceil(64);

impl Chosen {
    const NONE: u32 = u32::MAX;
    const CAPTURES: u32 = 1 << 16;

    fn new() -> Chosen {
        Chosen {
            mv: AtomicU32::new(Self::NONE),
            captured: std::array::from_fn(|_| AtomicU64::new(0)),
        }
    }

    fn remember<B: Bits>(&self, mv: u16, captured: B) {
        let mut tag = mv as u32;
        if !captured.is_empty() {
            tag |= Self::CAPTURES;
            let mut words = [0u64; CAPTURE_WORDS];
            for c in captured.ones() {
                words[c / 64] |= 1 << (c % 64);
            }
            for (slot, word) in self.captured.iter().zip(words) {
                slot.store(word, Ordering::Relaxed);
            }
        }
        self.mv.store(tag, Ordering::Relaxed);
    }

    fn forget(&mut self) {
        *self.mv.get_mut() = Self::NONE;
    }

    /// The captures of `mv` if it is the remembered placement.
    fn recall<B: Bits>(&mut self, mv: u16) -> Option<B> {
        let tag = *self.mv.get_mut();
        if tag & !Self::CAPTURES != mv as u32 {
            return None;
        }
        let mut captured = B::ZERO;
        if tag & Self::CAPTURES != 0 {
            for (i, slot) in self.captured.iter_mut().enumerate() {
                let mut word = *slot.get_mut();
                while word != 0 {
                    captured |= B::bit(64 * i + word.trailing_zeros() as usize);
                    word &= word - 1;
                }
            }
        }
        Some(captured)
    }
}

impl Clone for Chosen {
    fn clone(&self) -> Self {
        let copy = |a: &AtomicU64| AtomicU64::new(a.load(Ordering::Relaxed));
        Chosen {
            mv: AtomicU32::new(self.mv.load(Ordering::Relaxed)),
            captured: std::array::from_fn(|i| copy(&self.captured[i])),
        }
    }
}

/// What earlier hexagon searches of random playouts found, per cell, with
/// the stones they saw. A ply changes the board only near its stone, and a
/// placement that needed the branch-and-bound (over half of those searches
/// are for cells then found illegal) is often tried again a few plies
/// later: by the other player (for whom it may capture), or after a pass.
/// An entry is checked against the stones when it is used, so it is never
/// wrong, whatever happened in between. Behind a lock so that the position
/// stays `Sync`; a clone starts without one.
#[derive(Debug)]
struct Memo<B: 'static>(Mutex<Option<Box<MemoTable<B>>>>);

impl<B> Memo<B> {
    fn new() -> Self {
        Memo(Mutex::new(None))
    }
}

impl<B> Clone for Memo<B> {
    fn clone(&self) -> Self {
        Memo::new()
    }
}

#[derive(Debug)]
struct MemoTable<B: 'static> {
    /// The cells with an entry.
    kept: B,
    entries: Vec<MemoEntry<B>>,
}

#[derive(Copy, Clone, Debug)]
struct MemoEntry<B> {
    /// The stones when `found` was last known true.
    stones: [B; 2],
    found: Found<B>,
}

/// Past this many new stones since an entry was stored (a playout begun
/// from another position), the entry is dropped rather than checked
/// stone by stone.
const MEMO_NEW_STONES: u32 = 6;

impl<B: Bits> Memo<B> {
    fn table(&self, cells: usize) -> std::sync::MutexGuard<'_, Option<Box<MemoTable<B>>>> {
        let mut guard = self
            .0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        guard.get_or_insert_with(|| Box::new(MemoTable::new(cells)));
        guard
    }
}

impl<B: Bits> MemoTable<B> {
    fn new(cells: usize) -> Self {
        MemoTable {
            kept: B::ZERO,
            entries: vec![
                MemoEntry {
                    stones: [B::ZERO; 2],
                    found: Found::NONE,
                };
                cells
            ],
        }
    }

    /// The largest hexagons a stone on the empty cell `c` forms in `game`,
    /// from the entry where it still holds, brought up to date.
    ///
    /// The entry holds when no stone of its largest hexagons changed and
    /// each new stone `a` is cut off from `c` by an empty cell: a hexagon
    /// through `c` and `a` holds their whole box, so no new hexagon through
    /// `c` formed, and the old ones, intact, stay the largest. One new
    /// stone that is not cut off is searched for alone: the hexagons
    /// through both `c` and it, no smaller than the entry's.
    fn recall(&mut self, game: &Ihex<B>, c: usize) -> Option<Found<B>> {
        if !self.kept.test(c) {
            return None;
        }
        let entry = &mut self.entries[c];
        let now = game.stones;
        if now == entry.stones {
            return Some(entry.found);
        }
        let (before, after) = (entry.stones[0] | entry.stones[1], now[0] | now[1]);
        let recoloured = (entry.stones[0] & now[1]) | (entry.stones[1] & now[0]);
        let (added, removed) = (after & !before, before & !after);
        if !(entry.found.cells & (removed | recoloured)).is_empty()
            || added.count() > MEMO_NEW_STONES
        {
            self.kept &= !B::bit(c);
            return None;
        }
        let t = game.t;
        let holes = game.empty() & !B::bit(c);
        let mut joined = None;
        for a in added.ones() {
            let spanned = Bounds(std::array::from_fn(|i| t.limits[c][i].max(t.limits[a][i])));
            if (t.region(&spanned) & holes).is_empty() {
                if joined.is_some() {
                    self.kept &= !B::bit(c);
                    return None;
                }
                joined = Some(spanned);
            }
        }
        if let Some(keep) = joined {
            let mut largest = Largest::new(t, holes, now, c, entry.found);
            largest.search(keep);
            entry.found = largest.found;
        }
        entry.stones = now;
        Some(entry.found)
    }

    fn keep(&mut self, c: usize, stones: [B; 2], found: Found<B>) {
        self.entries[c] = MemoEntry { stones, found };
        self.kept |= B::bit(c);
    }
}

/// A search a playout's placement test leaves to run, with (in the rhombus
/// layout) the cells whose closed neighbourhoods are filled once the stone
/// is placed, where it starts.
type Pending<B> = (Largest<'static, B>, Option<u128>);

/// What every placement test of one position (a playout's ply, the
/// legal moves, the evaluation's mobility) shares about the 7-cell
/// hexagons, in the rhombus layout (sides up to 6): the cells whose closed
/// neighbourhood is filled, and those whose closed neighbourhood misses one
/// cell only. A placement on `c` forms a 7-cell hexagon around each cell of
/// the second kind next to it (the cell it misses is `c`), and a 10-cell
/// one exactly when two such centres touch or one touches a filled
/// centre. Found at the first test that needs them, where scanning the
/// hexagons through each cell took a test per hexagon.
#[derive(Default)]
struct Ends(Option<(u128, u128)>);

impl Ends {
    fn get<B: Bits>(&mut self, game: &Ihex<B>, rh: &Rhombus) -> (u128, u128) {
        *self
            .0
            .get_or_insert_with(|| rh.centres(rh.from_dense(game.filled().low_u128())))
    }
}

/// Whether a placement next to `filled` stones may form a hexagon. A
/// formed hexagon is a formed core grown by one ring, and the core holds a
/// cell next to the placed one: so it holds a formed 7-cell hexagon (one
/// core cell grown), which needs 3 filled neighbours, and if larger, a
/// formed 10-cell one (two neighbouring core cells).
fn may_form_hexagon(filled: u32) -> bool {
    filled >= 3
}

/// The rules' verdict on `seat` placing on a cell with `friends` and
/// `foes` among its neighbours, given the largest hexagons the placement
/// forms (`None`: it forms none, and the anti-blob rule decides).
fn verdict<B: Bits>(
    seat: Seat,
    friends: u32,
    foes: u32,
    formed: Option<&Found<B>>,
) -> Placement<B> {
    match formed {
        Some(found) => found.verdict(seat),
        None if foes >= friends => Placement::Quiet,
        None => Placement::Illegal,
    }
}

impl<B: Bits> PartialEq for Ihex<B> {
    fn eq(&self, other: &Self) -> bool {
        self.t.n == other.t.n
            && self.stones == other.stones
            && self.to_move == other.to_move
            && self.hash == other.hash
            && self.history == other.history
            && self.drawn == other.drawn
    }
}

impl<B: Bits> Ihex<B> {
    /// The empty board of side `n` (which must fit in `B`).
    pub fn new(n: usize) -> Self {
        assert!((MIN_SIZE..=MAX_SIZE).contains(&n) && cell_count(n) <= B::CAPACITY);
        let mut game = Ihex {
            t: tables::<B>(n),
            stones: [B::ZERO; 2],
            to_move: Seat::P1,
            hash: 0,
            history: History::new(0),
            drawn: false,
            chosen: Chosen::new(),
            memo: Memo::new(),
        };
        game.hash = game.hash_from_scratch();
        game.history = History::new(game.hash);
        game
    }

    fn filled(&self) -> B {
        self.stones[0] | self.stones[1]
    }

    fn empty(&self) -> B {
        self.t.all & !self.filled()
    }

    /// The side to move has just captured the opponent's last stone (the
    /// only way a player with stones faces an opponent without any on
    /// their own turn).
    fn won(&self) -> bool {
        let me = self.to_move.index();
        !self.stones[me].is_empty() && self.stones[1 - me].is_empty()
    }

    /// What placing a stone of `seat` on the empty cell `c` does.
    fn placement(&self, seat: Seat, c: usize) -> Placement<B> {
        self.placement_and_search(seat, c).0
    }

    /// What placing a stone of `seat` on the empty cell `c` does, and the
    /// hexagon search's findings when it had to search.
    fn placement_and_search(
        &self,
        seat: Seat,
        c: usize,
    ) -> (Placement<B>, Option<Largest<'static, B>>) {
        match self.placement_quickly(seat, c) {
            Ok(effect) => (effect, None),
            Err(mut largest) => {
                largest.search_through_cell();
                (largest.found.verdict(seat), Some(largest))
            }
        }
    }

    /// What placing a stone of `seat` on the empty cell `c` does when that
    /// needs no branch-and-bound; otherwise that search, ready to run.
    fn placement_quickly(&self, seat: Seat, c: usize) -> Result<Placement<B>, Largest<'static, B>> {
        self.placement_by(seat, c, || self.largest_formed_quickly(c))
    }

    /// [`Ihex::placement_quickly`] within a random playout's ply, where
    /// `ends` tells the 7- and 10-cell hexagons apart without a scan; a
    /// search it leaves comes with the cells it starts from (the centres of
    /// [`Ihex::largest_formed_in_ply`]).
    fn placement_in_ply(
        &self,
        seat: Seat,
        c: usize,
        ends: &mut Ends,
    ) -> Result<Placement<B>, Pending<B>> {
        self.placement_by(seat, c, || self.largest_formed_in_ply(c, ends))
    }

    /// The rules' verdict on `seat` placing on `c`, from the largest
    /// hexagons that `largest` finds (asked only when one may form, see
    /// [`may_form_hexagon`]), or the search it leaves.
    #[inline(always)]
    fn placement_by<E>(
        &self,
        seat: Seat,
        c: usize,
        largest: impl FnOnce() -> Result<Option<Largest<'static, B>>, E>,
    ) -> Result<Placement<B>, E> {
        let t = self.t;
        let own = self.stones[seat.index()];
        let enemy = self.stones[seat.other().index()];
        let friends = (t.neighbours[c] & own).count();
        let foes = (t.neighbours[c] & enemy).count();
        let formed = if may_form_hexagon(friends + foes) {
            largest()?
        } else {
            None
        };
        Ok(verdict(
            seat,
            friends,
            foes,
            formed.as_ref().map(|l| &l.found),
        ))
    }

    /// Whether each seat may place on the empty cell `c`, from one test
    /// (the hexagons a stone forms are the same whoever places it), with
    /// the position's `ends`.
    fn placeable_by_each(&self, c: usize, ends: &mut Ends) -> [bool; 2] {
        let t = self.t;
        let around = self.stones.map(|stones| (t.neighbours[c] & stones).count());
        let formed = if !may_form_hexagon(around[0] + around[1]) {
            None
        } else {
            match self.largest_formed_in_ply(c, ends) {
                Ok(formed) => formed,
                Err((mut largest, centres)) => {
                    largest.search_from(centres);
                    Some(largest)
                }
            }
        };
        let found = formed.as_ref().map(|l| &l.found);
        [Seat::P1, Seat::P2].map(|seat| {
            let (friends, foes) = (around[seat.index()], around[seat.other().index()]);
            verdict(seat, friends, foes, found) != Placement::Illegal
        })
    }

    /// The largest hexagons a stone on `c` (where one may form, see
    /// [`may_form_hexagon`]) forms, or None when it forms
    /// none; or, when finding them takes the branch-and-bound, that search
    /// ready to run.
    #[inline(always)]
    fn largest_formed_quickly(
        &self,
        c: usize,
    ) -> Result<Option<Largest<'static, B>>, Largest<'static, B>> {
        let t = self.t;
        let holes = self.empty() & !B::bit(c);
        let formed = |hexagon: &&B| (**hexagon & holes).is_empty();
        if !t.sevens[c].iter().any(|h| formed(&h)) {
            return Ok(None);
        }
        let largest = Largest::new(t, holes, self.stones, c, Found::NONE);
        if t.tens[c].iter().any(|h| formed(&h)) {
            return Err(largest);
        }
        Ok(Some(largest.with_sevens()))
    }

    /// [`Ihex::largest_formed_quickly`] from the position's `ends` (sides up to
    /// 6; larger boards scan as it does). A search it leaves comes with the
    /// cells whose closed neighbourhoods are filled once `c` is.
    #[inline(always)]
    fn largest_formed_in_ply(
        &self,
        c: usize,
        ends: &mut Ends,
    ) -> Result<Option<Largest<'static, B>>, Pending<B>> {
        let t = self.t;
        let Some((rh, around)) = &t.rhombus else {
            return self
                .largest_formed_quickly(c)
                .map_err(|largest| (largest, None));
        };
        let (full, one_short) = ends.get(self, rh);
        // The centres of the formed 7-cell hexagons: short of c alone.
        let sevens = one_short & around[c];
        if sevens == 0 {
            return Ok(None);
        }
        let holes = self.empty() & !B::bit(c);
        let largest = Largest::new(t, holes, self.stones, c, Found::NONE);
        let centres = full | sevens;
        if rh.neighbours(sevens) & centres != 0 {
            return Err((largest, Some(centres)));
        }
        Ok(Some(largest.with_sevens()))
    }

    /// The board is full: nobody can place. Every empty cell is legal for
    /// at least one player (the anti-blob rule lets one of the two place
    /// there, and the hexagons a stone there forms are the same for both,
    /// so they cannot both face an enemy-majority set without a friendly
    /// one). So a player without a placement passes unless the board is
    /// full, and "neither can place" is exactly a full board.
    fn board_full(&self) -> bool {
        self.empty().is_empty()
    }

    fn add_stone(&mut self, seat: Seat, c: usize) {
        self.chosen.forget();
        self.stones[seat.index()] |= B::bit(c);
        self.hash ^= stone_key(seat, c);
    }

    fn remove_stones(&mut self, seat: Seat, cells: B) {
        self.chosen.forget();
        self.stones[seat.index()] &= !cells;
        for c in cells.ones() {
            self.hash ^= stone_key(seat, c);
        }
    }

    fn set_side(&mut self, seat: Seat) {
        self.chosen.forget();
        if seat != self.to_move {
            self.to_move = seat;
            self.hash ^= side_key();
        }
    }

    /// Plays a legal move; returns the stones it captured.
    fn apply(&mut self, mv: u16) -> B {
        let effect = if mv == PASS {
            Placement::Quiet
        } else {
            self.placement(self.to_move, mv as usize)
        };
        self.apply_known(mv, effect)
    }

    /// Plays a legal move whose effect is already known.
    fn apply_known(&mut self, mv: u16, effect: Placement<B>) -> B {
        let mover = self.to_move;
        let captured = match effect {
            Placement::Capture(stones) => stones,
            _ => B::ZERO,
        };
        if mv != PASS {
            self.add_stone(mover, mv as usize);
        }
        if captured.is_empty() {
            self.set_side(mover.other());
        } else {
            self.remove_stones(mover.other(), captured);
        }
        self.drawn = self
            .history
            .push(self.hash, mv == PASS || !captured.is_empty());
        captured
    }

    /// A uniformly random legal move and its effect. Tries empty cells in
    /// random order: the first legal one is uniform among the legal
    /// placements, and most tries are cheap.
    fn random_choice(&self, rng: &mut GameRng) -> Option<(u16, Placement<B>)> {
        if self.drawn || self.won() {
            return None;
        }
        let me = self.to_move;
        let mut untried = self.empty();
        let mut left = untried.count();
        let mut ends = Ends::default();
        while left > 0 {
            let c = untried.select(random_below(rng, left as usize) as u32);
            // The memo (behind a lock) only for the placements that need
            // the search.
            let effect = match self.placement_in_ply(me, c, &mut ends) {
                Ok(effect) => effect,
                Err((mut largest, centres)) => {
                    let mut guard = self.memo.table(self.t.limits.len());
                    let memo = guard.as_mut().expect("Memo::table fills the table");
                    match memo.recall(self, c) {
                        Some(found) => found.verdict(me),
                        None => {
                            let (effect, searched) = largest.settle(me, centres);
                            if searched {
                                memo.keep(c, self.stones, largest.found);
                            }
                            effect
                        }
                    }
                }
            };
            if effect != Placement::Illegal {
                return Some((c as u16, effect));
            }
            untried &= !B::bit(c);
            left -= 1;
        }
        (!self.board_full()).then_some((PASS, Placement::Quiet))
    }

    fn cell_char(&self, c: usize) -> char {
        if self.stones[0].test(c) {
            'r'
        } else if self.stones[1].test(c) {
            'b'
        } else {
            '.'
        }
    }

    fn seat_name(seat: Seat) -> &'static str {
        match seat {
            Seat::P1 => "red",
            Seat::P2 => "blue",
        }
    }
}

/// Cells of a hexhex board of side n.
const fn cell_count(n: usize) -> usize {
    3 * n * (n - 1) + 1
}

/// The board side a position text describes: its rows are 2n - 1.
pub fn size_of_text(text: &str) -> Option<usize> {
    let rows = text.split_whitespace().next()?.split('/').count();
    (rows % 2 == 1).then_some(rows.div_ceil(2))
}

impl<B: Bits> Game for Ihex<B> {
    type Move = u16;
    type Undo = Undo<B>;

    fn describe(&self) -> String {
        format!("ihex size={}", self.t.n)
    }

    fn side_to_move(&self) -> Seat {
        self.to_move
    }

    fn legal_moves(&self, moves: &mut Vec<u16>) {
        moves.clear();
        if self.drawn || self.won() {
            return;
        }
        let me = self.to_move;
        let mut ends = Ends::default();
        moves.extend(
            self.empty()
                .ones()
                .filter(|&c| self.placeable_by_each(c, &mut ends)[me.index()])
                .map(|c| c as u16),
        );
        if moves.is_empty() && !self.board_full() {
            moves.push(PASS);
        }
    }

    fn make(&mut self, mv: u16) -> Undo<B> {
        let (mover, drawn, quiet_since) = (self.to_move, self.drawn, self.history.quiet_since);
        let captured = self.apply(mv);
        Undo {
            mover,
            captured,
            drawn,
            quiet_since,
        }
    }

    fn unmake(&mut self, mv: u16, undo: Undo<B>) {
        self.history.pop(undo.quiet_since);
        if mv != PASS {
            let c = mv as usize;
            self.remove_stones(undo.mover, B::bit(c));
            for x in undo.captured.ones() {
                self.add_stone(undo.mover.other(), x);
            }
        }
        self.set_side(undo.mover);
        self.drawn = undo.drawn;
    }

    fn play(&mut self, mv: u16) {
        match self.chosen.recall::<B>(mv) {
            Some(captured) if captured.is_empty() => self.apply_known(mv, Placement::Quiet),
            Some(captured) => self.apply_known(mv, Placement::Capture(captured)),
            None => self.apply(mv),
        };
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.won() {
            return Some(Outcome::Win(self.to_move));
        }
        if self.drawn {
            return Some(Outcome::Draw);
        }
        self.board_full().then_some(Outcome::Draw)
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn hash_from_scratch(&self) -> u64 {
        zobrist::stones_hash(salt::IHEX, &self.stones, self.to_move)
    }

    fn parse_move(&self, text: &str) -> Result<u16, String> {
        if text.eq_ignore_ascii_case("pass") {
            return Ok(PASS);
        }
        self.t.grid.parse_cell(text).ok_or_else(|| {
            format!(
                "'{text}' is not an ihex move (a cell of the side-{} board, or pass)",
                self.t.n
            )
        })
    }

    fn format_move(&self, mv: u16) -> String {
        if mv == PASS {
            "pass".into()
        } else {
            self.t.grid.cell_name(mv)
        }
    }

    fn position_text(&self) -> String {
        let n = self.t.n;
        let rows: Vec<Vec<Option<char>>> = (0..2 * n - 1)
            .rev()
            .map(|r| {
                (0..2 * n - 1)
                    .filter_map(|q| self.t.grid.id(q, r))
                    .map(|c| Some(self.cell_char(c as usize)).filter(|&ch| ch != '.'))
                    .collect()
            })
            .collect();
        let side = if self.to_move == Seat::P1 { 'r' } else { 'b' };
        format!("{} {}", encode_rows(&rows), side)
    }

    fn read_position(&self, text: &str) -> Result<Self, String> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        let [board, side] = fields[..] else {
            return Err("ihex position text is '<rows from the top, / between> <r|b>'".into());
        };
        let rows = decode_rows(board)?;
        let n = rows.len().div_ceil(2);
        if rows.len() % 2 == 0 || !(MIN_SIZE..=MAX_SIZE).contains(&n) {
            return Err(format!(
                "an ihex board has 2n-1 rows for a side n of {MIN_SIZE}..{MAX_SIZE}, not {} rows",
                rows.len()
            ));
        }
        if cell_count(n) > B::CAPACITY {
            return Err(format!("board side {n} does not fit this game's board"));
        }
        let mut game = Ihex::<B>::new(n);
        let grid = game.t.grid;
        for (i, row) in rows.iter().enumerate() {
            let r = (2 * n - 2 - i) as i32;
            let cells: Vec<u16> = (0..2 * n as i32 - 1)
                .filter_map(|q| grid.id(q, r))
                .collect();
            if row.len() != cells.len() {
                return Err(format!(
                    "row {} has {} cells, not {}",
                    r + 1,
                    row.len(),
                    cells.len()
                ));
            }
            for (&c, content) in cells.iter().zip(row) {
                let seat = match content {
                    None => continue,
                    Some('r') => Seat::P1,
                    Some('b') => Seat::P2,
                    Some(other) => return Err(format!("unknown ihex stone '{other}' (r or b)")),
                };
                game.add_stone(seat, c as usize);
            }
        }
        let to_move = match side.to_ascii_lowercase().as_str() {
            "r" => Seat::P1,
            "b" => Seat::P2,
            _ => return Err(format!("side to move '{side}' is not r or b")),
        };
        game.set_side(to_move);
        game.history = History::new(game.hash);
        Ok(game)
    }

    fn render(&self) -> String {
        let mut out = self.t.grid.render(|c| self.cell_char(c as usize));
        out.push_str(&format!(
            "stones: red {} blue {}; {} to move\n",
            self.stones[0].count(),
            self.stones[1].count(),
            Self::seat_name(self.to_move)
        ));
        out
    }

    /// Material (stones on the board) first, then the number of legal
    /// placements (a player short of them passes and falls behind).
    fn evaluate(&self) -> i32 {
        let me = self.to_move;
        let material = |seat: Seat| self.stones[seat.index()].count() as i32;
        let empty = self.empty();
        let mut ends = Ends::default();
        let mut mobility = [0i32; 2];
        for c in empty.ones() {
            let placeable = self.placeable_by_each(c, &mut ends);
            for (count, can) in mobility.iter_mut().zip(placeable) {
                *count += can as i32;
            }
        }
        let (mine, theirs) = (mobility[me.index()], mobility[me.other().index()]);
        100 * (material(me) - material(me.other())) + 2 * (mine - theirs)
    }

    /// Random games last about two plies per cell (captures empty cells
    /// again), so each side has about one move per empty cell left.
    fn moves_left_estimate(&self) -> u32 {
        self.empty().count().max(10)
    }

    /// Red and blue stones.
    fn picture(&self) -> Picture {
        let mut picture = Picture::hexhex(self.describe(), self.t.grid);
        for (seat, ink, glyph) in [(0, Ink::Red, 'r'), (1, Ink::Blue, 'b')] {
            for cell in self.stones[seat].ones() {
                picture.add(Piece::new(cell, Shape::Stone, ink, glyph));
            }
        }
        picture.note(turn_note(self.outcome(), self.to_move, ["red", "blue"]));
        picture.note(format!(
            "stones: red {}, blue {}",
            self.stones[0].count(),
            self.stones[1].count()
        ));
        picture
    }

    fn random_move(&self, rng: &mut GameRng, _scratch: &mut Vec<u16>) -> Option<u16> {
        let (mv, effect) = self.random_choice(rng)?;
        match effect {
            _ if mv == PASS => {}
            Placement::Capture(captured) => self.chosen.remember(mv, captured),
            _ => self.chosen.remember(mv, B::ZERO),
        }
        Some(mv)
    }

    /// Hexagons (bounds on q, r and q - r, every side at least 2 cells)
    /// are mapped onto hexagons by the 12 symmetries of the hexhex board.
    fn symmetry_count(&self) -> usize {
        12
    }

    fn symmetric(&self, sym: usize) -> Self {
        let mut image = Ihex::<B>::new(self.t.n as usize);
        for seat in [Seat::P1, Seat::P2] {
            for c in self.stones[seat.index()].ones() {
                image.add_stone(seat, self.t.grid.transform(c as u16, sym) as usize);
            }
        }
        image.set_side(self.to_move);
        image.history = History::new(image.hash);
        image
    }

    fn symmetric_move(&self, mv: u16, sym: usize) -> u16 {
        if mv == PASS {
            PASS
        } else {
            self.t.grid.transform(mv, sym)
        }
    }

    fn canonical_key(&self) -> u64 {
        let stones = [Seat::P1, Seat::P2]
            .into_iter()
            .flat_map(|seat| self.stones[seat.index()].ones().map(move |c| (seat, c)));
        let side = if self.to_move == Seat::P2 {
            side_key()
        } else {
            0
        };
        zobrist::least_image_key::<_, 12>(
            stones,
            |(seat, c), sym| stone_key(seat, self.t.grid.transform(c as u16, sym) as usize),
            side,
        )
    }

    /// Captures empty cells again, so positions can recur.
    fn can_repeat(&self) -> bool {
        true
    }

    fn seen_twice(&self) -> Vec<u64> {
        let mut twice: Vec<u64> = self
            .history
            .hashes
            .iter()
            .copied()
            .filter(|&h| self.history.hashes.iter().filter(|&&k| k == h).count() >= 2)
            .collect();
        twice.sort_unstable();
        twice.dedup();
        twice
    }

    fn feature_set(&self) -> Option<FeatureSet> {
        let l = layout();
        Some(FeatureSet {
            name: "ihex",
            version: 1,
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

/// Where each kind of feature starts (see `write_*_features`).
struct FeatureLayout {
    /// Placement: the six neighbours (empty, own, enemy, off).
    ring: u32,
    /// Placement: stones captured (0 for none).
    captured: u32,
    /// Placement: own x enemy neighbours.
    contacts: u32,
    pass: u32,
    move_size: u32,
    /// Position: stones, own minus enemy, x the phase.
    material: u32,
    /// Position: legal placements of each side.
    mobility: u32,
    /// Position: placements that capture, for each side, and the largest
    /// capture the side to move has.
    threats: u32,
    /// Position: one per empty cell, its six neighbours.
    empty_ring: u32,
    /// Position: one per stone, own or enemy x its six neighbours.
    stone_ring: u32,
    position_size: u32,
}

const PHASES: u32 = 4;

fn ring_table() -> &'static PatternTable {
    static TABLE: OnceLock<PatternTable> = OnceLock::new();
    TABLE.get_or_init(|| PatternTable::new(6, 4, &PatternTable::dihedral(6, 1)))
}

fn layout() -> &'static FeatureLayout {
    static LAYOUT: OnceLock<FeatureLayout> = OnceLock::new();
    LAYOUT.get_or_init(|| {
        let rings = ring_table().classes();
        let b = Blocks::new();
        let (ring, b) = b.block(rings);
        let (captured, b) = b.block(10);
        let (contacts, b) = b.block(49);
        let (pass, b) = b.block(1);
        let move_size = b.size();
        let b = Blocks::new();
        let (material, b) = b.block(31 * PHASES);
        let (mobility, b) = b.block(2 * 10);
        let (threats, b) = b.block(3 * 10);
        let (empty_ring, b) = b.block(rings);
        let (stone_ring, b) = b.block(2 * rings);
        FeatureLayout {
            ring,
            captured,
            contacts,
            pass,
            move_size,
            material,
            mobility,
            threats,
            empty_ring,
            stone_ring,
            position_size: b.size(),
        }
    })
}

impl<B: Bits> Ihex<B> {
    /// The six neighbours of `c` for `me`: 0 empty, 1 own, 2 enemy, 3 off.
    fn rosette(&self, c: usize, me: Seat) -> u32 {
        let grid = self.t.grid;
        ring_table().id(|i| {
            let nb = grid.neighbours[c][i];
            if nb == hexhex::NONE {
                3
            } else if self.stones[me.index()].test(nb as usize) {
                1
            } else if self.stones[me.other().index()].test(nb as usize) {
                2
            } else {
                0
            }
        })
    }

    fn write_position_features(&self, out: &mut Vec<u32>) {
        let l = layout();
        let me = self.to_move;
        let cells = self.t.grid.len() as u32;
        let filled = self.filled().count();
        let phase = (PHASES * filled / (cells + 1)).min(PHASES - 1);
        let (mine, theirs) = (
            self.stones[me.index()].count() as i32,
            self.stones[me.other().index()].count() as i32,
        );
        out.push(l.material + clamp_bucket(mine - theirs, -15, 15) * PHASES + phase);
        let mut legal = [0u32; 2];
        let mut captures = [0u32; 2];
        let mut largest = 0;
        for c in self.empty().ones() {
            for (k, seat) in [me, me.other()].into_iter().enumerate() {
                match self.placement(seat, c) {
                    Placement::Illegal => {}
                    Placement::Quiet => legal[k] += 1,
                    Placement::Capture(stones) => {
                        legal[k] += 1;
                        captures[k] += 1;
                        if k == 0 {
                            largest = largest.max(stones.count());
                        }
                    }
                }
            }
            out.push(l.empty_ring + self.rosette(c, me));
        }
        out.push(l.mobility + log_bucket(legal[0], 4, 10));
        out.push(l.mobility + 10 + log_bucket(legal[1], 4, 10));
        out.push(l.threats + log_bucket(captures[0], 4, 10));
        out.push(l.threats + 10 + log_bucket(captures[1], 4, 10));
        out.push(l.threats + 20 + log_bucket(largest, 4, 10));
        let rings = ring_table().classes();
        for (side, seat) in [(0, me), (1, me.other())] {
            for c in self.stones[seat.index()].ones() {
                out.push(l.stone_ring + side * rings + self.rosette(c, me));
            }
        }
    }

    fn write_move_features(&self, moves: &[u16], out: &mut FeatureRows) {
        let l = layout();
        out.clear();
        let me = self.to_move;
        for &mv in moves {
            if mv == PASS {
                out.push(l.pass);
                out.end_row();
                continue;
            }
            let c = mv as usize;
            out.push(l.ring + self.rosette(c, me));
            let captured = match self.placement(me, c) {
                Placement::Capture(stones) => stones.count(),
                _ => 0,
            };
            out.push(l.captured + log_bucket(captured, 4, 10));
            let friends = (self.t.neighbours[c] & self.stones[me.index()]).count();
            let foes = (self.t.neighbours[c] & self.stones[me.other().index()]).count();
            out.push(l.contacts + friends.min(6) * 7 + foes.min(6));
            out.end_row();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::bitboard::Wide;
    use rand::{RngExt, SeedableRng};

    /// A position of side `n` with the given stones and side to move.
    fn board(n: usize, red: &[&str], blue: &[&str], to_move: Seat) -> Ihex<u128> {
        let mut game = Ihex::<u128>::new(n);
        for (seat, cells) in [(Seat::P1, red), (Seat::P2, blue)] {
            for name in cells {
                let c = game.t.grid.parse_cell(name).expect("a cell");
                game.add_stone(seat, c as usize);
            }
        }
        game.set_side(to_move);
        game.history = History::new(game.hash);
        game
    }

    fn legal(game: &Ihex<u128>) -> Vec<String> {
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        moves.iter().map(|&m| game.format_move(m)).collect()
    }

    fn play(game: &mut Ihex<u128>, text: &str) {
        let mv = game.parse_move(text).unwrap();
        assert!(
            legal(game).contains(&game.format_move(mv)),
            "{text} is illegal"
        );
        game.make(mv);
    }

    fn largest_size(game: &Ihex<u128>, cell: &str) -> u32 {
        let c = game.t.grid.parse_cell(cell).unwrap() as usize;
        if !may_form_hexagon((game.t.neighbours[c] & game.filled()).count()) {
            return 0;
        }
        match game.largest_formed_quickly(c) {
            Ok(formed) => formed.map_or(0, |l| l.found.size),
            Err(mut largest) => {
                largest.search_through_cell();
                largest.found.size
            }
        }
    }

    fn stones_on(game: &Ihex<u128>, seat: Seat) -> Vec<String> {
        let mut names: Vec<String> = game.stones[seat.index()]
            .ones()
            .map(|c| game.t.grid.cell_name(c as u16))
            .collect();
        names.sort();
        names
    }

    /// The contract's definition, literally: bounds on q, r and q - r inside
    /// the board, each of the six sides with at least 2 cells.
    fn hexagons_by_definition(n: i32) -> Vec<Bounds> {
        let last = 2 * n - 2;
        let side = |lo: i32, hi: i32| hi - lo + 1;
        let mut found = Vec::new();
        for q0 in 0..=last {
            for q1 in q0..=last {
                for r0 in 0..=last {
                    for r1 in r0..=last {
                        for s0 in 1 - n..n {
                            for s1 in s0..n {
                                let sides = [
                                    side(r0.max(q0 - s1), r1.min(q0 - s0)),
                                    side(r0.max(q1 - s1), r1.min(q1 - s0)),
                                    side(q0.max(r0 + s0), q1.min(r0 + s1)),
                                    side(q0.max(r1 + s0), q1.min(r1 + s1)),
                                    side(r0.max(q0 - s0), r1.min(q1 - s0)),
                                    side(r0.max(q0 - s1), r1.min(q1 - s1)),
                                ];
                                if sides.iter().all(|&k| k >= 2) {
                                    found.push(Bounds::new([q0, r0, s0], [q1, r1, s1]));
                                }
                            }
                        }
                    }
                }
            }
        }
        found
    }

    #[test]
    fn hexagon_counts_per_board_side() {
        let expected = [431, 2354, 8863, 26277, 65977, 146600, 296633];
        for (n, &count) in (4..=10).zip(&expected) {
            let hexagons = hexagons_by_definition(n);
            assert_eq!(hexagons.len(), count, "side {n}");
            // Each is a core (any tight region of interior cells) grown by
            // one ring, and the closed-form size counts its cells.
            let t = tables::<Wide<5>>(n as usize);
            for h in hexagons.iter().step_by(97) {
                let core = Bounds(h.0.map(|v| v - 1));
                assert_eq!(core.tightened(), core);
                assert_eq!(core.grown(), *h);
                assert_eq!(h.cells(), t.region(h).count());
                assert_eq!(h.cells(), core.cells() + core.extents() + 6, "ring size");
                assert!(t.region(&core).ones().all(|c| !t.grid.edge[c]));
            }
        }
    }

    #[test]
    fn hexagon_sizes_start_with_7_10_12_13_14() {
        let mut sizes: Vec<u32> = hexagons_by_definition(6)
            .iter()
            .map(|h| h.cells())
            .collect();
        sizes.sort();
        sizes.dedup();
        assert_eq!(sizes[..5], [7, 10, 12, 13, 14]);
    }

    /// The placement rules by brute force over every hexagon of the board.
    fn brute_placement(
        game: &Ihex<u128>,
        all: &[(u32, u128)],
        seat: Seat,
        c: usize,
    ) -> Placement<u128> {
        let own = game.stones[seat.index()] | 1u128 << c;
        let enemy = game.stones[seat.other().index()];
        let after = own | enemy;
        let formed: Vec<&(u32, u128)> = all
            .iter()
            .filter(|(_, cells)| cells >> c & 1 == 1 && cells & !after == 0)
            .collect();
        let Some(size) = formed.iter().map(|h| h.0).max() else {
            let t = game.t;
            let friends = (t.neighbours[c] & own).count();
            let foes = (t.neighbours[c] & enemy).count();
            return if foes >= friends {
                Placement::Quiet
            } else {
                Placement::Illegal
            };
        };
        let (mut friendly, mut hostile, mut capture) = (false, false, 0u128);
        for &&(_, cells) in formed.iter().filter(|h| h.0 == size) {
            let (mine, theirs) = ((cells & own).count_ones(), (cells & enemy).count_ones());
            if mine > theirs {
                friendly = true;
                capture |= cells & enemy;
            }
            hostile |= theirs > mine;
        }
        match (hostile, friendly) {
            (true, false) => Placement::Illegal,
            (true, true) => Placement::Quiet,
            _ if capture == 0 => Placement::Quiet,
            _ => Placement::Capture(capture),
        }
    }

    #[test]
    fn placements_agree_with_brute_force() {
        let mut rng = GameRng::seed_from_u64(5);
        for n in 4..=7 {
            let mut settled_unsearched = 0;
            let t = tables::<u128>(n);
            let all: Vec<(u32, u128)> = hexagons_by_definition(n as i32)
                .iter()
                .map(|h| (h.cells(), t.region(h)))
                .collect();
            for trial in 0..(if n == 7 { 60 } else { 150 }) {
                // Random fillings, dense ones most often (big hexagons).
                let density = [0.5, 0.75, 0.9, 0.97][trial % 4];
                // Some mostly one player's, where whole regions are.
                let red_share = [0.5, 0.95, 0.05][trial / 4 % 3];
                let mut game = Ihex::<u128>::new(n);
                for c in 0..t.limits.len() {
                    if rng.random_bool(density) {
                        let seat = if rng.random_bool(red_share) {
                            Seat::P1
                        } else {
                            Seat::P2
                        };
                        game.add_stone(seat, c);
                    }
                }
                game.hash = game.hash_from_scratch();
                // What a playout's placement tests share within the position.
                let mut ends = Ends::default();
                for c in game.empty().ones() {
                    let answers = [Seat::P1, Seat::P2].map(|seat| {
                        let fast = game.placement(seat, c);
                        assert_eq!(
                            fast,
                            brute_placement(&game, &all, seat, c),
                            "side {n} cell {c} {}",
                            game.position_text()
                        );
                        let in_playout = match game.placement_in_ply(seat, c, &mut ends) {
                            Ok(effect) => effect,
                            Err((mut largest, centres)) => {
                                let (effect, searched) = largest.settle(seat, centres);
                                settled_unsearched += !searched as u32;
                                effect
                            }
                        };
                        assert_eq!(
                            in_playout,
                            fast,
                            "side {n} cell {c} {}",
                            game.position_text()
                        );
                        fast
                    });
                    // The fact the pass rule rests on.
                    assert!(answers.iter().any(|a| *a != Placement::Illegal));
                    // Both players from one test (evaluation, legal moves).
                    assert_eq!(
                        game.placeable_by_each(c, &mut ends),
                        answers.map(|a| a != Placement::Illegal),
                        "side {n} cell {c} {}",
                        game.position_text()
                    );
                }
            }
            // Playouts settle some placements without the search (one
            // player's region, hardly any friendly stone; rhombus sides
            // only).
            assert_eq!(
                settled_unsearched > 50,
                n <= 6,
                "side {n}: {settled_unsearched}"
            );
        }
    }

    /// Through whole random games (captures, passes, turns that go on),
    /// every cell the memo answers for gets the answer a fresh search
    /// gives, for both seats; a memo entry is checked at every ply.
    #[test]
    fn memo_answers_agree_with_fresh_searches() {
        let mut rng = GameRng::seed_from_u64(11);
        let mut scratch = Vec::new();
        for n in 4..=6 {
            let (mut answered, mut joined_searches, mut recoloured) = (0, 0, 0);
            for _ in 0..100 {
                let mut game = Ihex::<u128>::new(n);
                let mut memo = MemoTable::<u128>::new(game.t.limits.len());
                let mut ply = 0;
                while let Some(mv) = game.random_move(&mut rng, &mut scratch) {
                    ply += 1;
                    // Each cell every third ply, so that stones change
                    // between an entry's uses (and colour, after captures).
                    for c in game.empty().ones().filter(|c| (c + ply) % 3 == 0) {
                        let fresh = [Seat::P1, Seat::P2].map(|seat| game.placement(seat, c));
                        let before = memo.entries[c].found.size;
                        let kept = memo.entries[c].stones;
                        let changed_colour =
                            !((kept[0] & game.stones[1]) | (kept[1] & game.stones[0])).is_empty();
                        match memo.recall(&game, c) {
                            Some(found) => {
                                let recalled = [Seat::P1, Seat::P2].map(|seat| found.verdict(seat));
                                assert_eq!(
                                    recalled,
                                    fresh,
                                    "side {n} cell {c} {}",
                                    game.position_text()
                                );
                                answered += 1;
                                joined_searches += (found.size > before) as u32;
                                recoloured += changed_colour as u32;
                            }
                            None => {
                                if let (_, Some(largest)) = game.placement_and_search(Seat::P1, c) {
                                    memo.keep(c, game.stones, largest.found);
                                }
                            }
                        }
                    }
                    game.play(mv);
                }
            }
            // The memo was really used, including hexagons grown through
            // a new stone and entries kept across stones that changed
            // colour outside their hexagons.
            assert!(
                answered > 400 && joined_searches > 10 && recoloured > 10,
                "side {n}: {answered} answers, {joined_searches} grown, {recoloured} recoloured"
            );
        }
    }

    #[test]
    fn the_7_cell_hexagon_captures_and_the_turn_continues() {
        // Around d4: red c3 c4 d3 e5, blue d5 e4; blue a1 far away.
        let mut g = board(4, &["c3", "c4", "d3", "e5"], &["d5", "e4", "a1"], Seat::P1);
        assert_eq!(largest_size(&g, "d4"), 7);
        play(&mut g, "d4");
        assert_eq!(stones_on(&g, Seat::P2), ["a1"]);
        assert_eq!(g.side_to_move(), Seat::P1, "red moves again");
        assert_eq!(g.outcome(), None);
        // A placement that captures nothing ends the turn.
        play(&mut g, "g7");
        assert_eq!(g.side_to_move(), Seat::P2);
    }

    #[test]
    fn the_13_cell_hexagon_of_figure_1() {
        // Rows of 4, 5, 4 around e5; blue completes it with 7 of 13.
        let red = ["d4", "f4", "c5", "g5", "e6", "g6", "a1"];
        let blue = ["c4", "e4", "d5", "f5", "d6", "f6"];
        let mut g = board(5, &red, &blue, Seat::P2);
        assert_eq!(largest_size(&g, "e5"), 13);
        play(&mut g, "e5");
        assert_eq!(stones_on(&g, Seat::P1), ["a1"]);
        assert_eq!(g.side_to_move(), Seat::P2);
    }

    #[test]
    fn completing_an_enemy_majority_hexagon_is_illegal() {
        let g = board(4, &["d5", "e4"], &["c3", "c4", "d3", "e5"], Seat::P1);
        let moves = legal(&g);
        assert!(!moves.contains(&"d4".to_string()));
        assert!(moves.contains(&"a1".to_string()));
    }

    #[test]
    fn a_tie_in_the_largest_hexagon_captures_nothing() {
        // A 10-cell hexagon (rows 3, 4, 3); red completes it 5 to 5.
        let red = ["d4", "f4", "f5", "e6"];
        let blue = ["e4", "d5", "g5", "f6", "g6"];
        let mut g = board(5, &red, &blue, Seat::P1);
        assert_eq!(largest_size(&g, "e5"), 10);
        play(&mut g, "e5");
        assert_eq!(stones_on(&g, Seat::P2).len(), 5);
        assert_eq!(g.side_to_move(), Seat::P2);
    }

    #[test]
    fn equal_largest_hexagons_with_opposite_majorities_capture_nothing() {
        // f6 forms the 7-cell hexagons around g6 (red majority) and f7
        // (blue majority), and nothing larger (e5 is empty).
        let red = ["g7", "g6", "h6", "h7"];
        let blue = ["f5", "g5", "f7", "g8", "f8", "e7", "e6"];
        let mut g = board(6, &red, &blue, Seat::P1);
        assert_eq!(largest_size(&g, "f6"), 7);
        play(&mut g, "f6");
        assert_eq!(stones_on(&g, Seat::P2).len(), 7);
        assert_eq!(g.side_to_move(), Seat::P2);
        // With both blue-majority, the same placement is illegal.
        let red = ["g7", "h6"];
        let blue = ["f5", "g5", "h7", "g6", "f7", "g8", "f8", "e7", "e6"];
        let g = board(6, &red, &blue, Seat::P1);
        assert!(!legal(&g).contains(&"f6".to_string()));
    }

    #[test]
    fn anti_blob_rule() {
        let g = board(4, &["d4"], &["a1"], Seat::P1);
        let moves = legal(&g);
        // Beside one friend and no enemy: illegal; beside the enemy or
        // beside nothing: legal.
        assert!(!moves.contains(&"c4".to_string()));
        assert!(moves.contains(&"b2".to_string()));
        assert!(moves.contains(&"g7".to_string()));
        // One friend and one enemy: legal.
        let g = board(4, &["d4"], &["c3"], Seat::P1);
        assert!(legal(&g).contains(&"c4".to_string()));
    }

    #[test]
    fn capturing_the_last_enemy_stone_wins() {
        let mut g = board(4, &["c3", "c4", "d3", "e5"], &["d5", "e4"], Seat::P1);
        play(&mut g, "d4");
        assert_eq!(g.outcome(), Some(Outcome::Win(Seat::P1)));
        assert!(legal(&g).is_empty());
        // The position text keeps the result: red to move, blue gone.
        let reread = g.read_position(&g.position_text()).unwrap();
        assert_eq!(reread.outcome(), Some(Outcome::Win(Seat::P1)));
    }

    #[test]
    fn forced_pass() {
        // From a random game: every empty cell touches more red than blue
        // and forms no hexagon, so red must pass.
        let g = Ihex::<u128>::new(4)
            .read_position("4/r1r1r/1r4/1rr4/1rrrrr/b2r1/br1r r")
            .unwrap();
        assert_eq!(legal(&g), ["pass"]);
        assert_eq!(g.outcome(), None);
        let mut g = g;
        play(&mut g, "PASS");
        assert_eq!(g.side_to_move(), Seat::P2);
        assert!(!legal(&g).is_empty() && !legal(&g).contains(&"pass".to_string()));
    }

    #[test]
    fn a_full_board_is_a_draw() {
        // Nobody can place: the only way, since every empty cell is legal
        // for someone.
        let g = Ihex::<u128>::new(4)
            .read_position("rbrb/brbrb/rbrbrb/brbrbrb/rbrbrb/brbrb/rbrb r")
            .unwrap();
        assert!(legal(&g).is_empty());
        assert_eq!(g.outcome(), Some(Outcome::Draw));
    }

    #[test]
    fn third_occurrence_is_a_draw() {
        // Play cannot easily repeat (see protocol.md); passes played
        // regardless of legality exercise the counting: the start counts,
        // and the side to move is part of the position.
        let mut g = board(4, &["d4"], &["a1"], Seat::P1);
        let start = g.hash();
        for ply in 1..=4 {
            g.play(PASS);
            assert_eq!(g.drawn, ply == 4, "ply {ply}");
        }
        assert_eq!(g.hash(), start);
        assert!(legal(&g).is_empty());
        assert_eq!(g.outcome(), Some(Outcome::Draw));
        // A position text starts a fresh history.
        let reread = g.read_position(&g.position_text()).unwrap();
        assert_eq!(reread.outcome(), None);
    }

    #[test]
    fn position_text_and_moves() {
        let g = Ihex::<u128>::new(6);
        assert_eq!(g.position_text(), "6/7/8/9/10/11/10/9/8/7/6 r");
        assert_eq!(size_of_text(&g.position_text()), Some(6));
        let mut g = g;
        play(&mut g, "F6");
        assert_eq!(g.position_text(), "6/7/8/9/10/5r5/10/9/8/7/6 b");
        let reread = g.read_position("6/7/8/9/10/5R5/10/9/8/7/6 B").unwrap();
        assert_eq!((reread.stones, reread.hash), (g.stones, g.hash));
        for bad in [
            "",
            "6/7 r",
            "4/5/6/7/6/5/4",
            "4/5/6/7/6/5/5 r",
            "4/5/6/7/6/5/3x r",
            "4/5/6/7/6/5/4 x",
            "4/5/6/7/6/5/99999999999999999999 r",
            "é/5/6/7/6/5/4 r",
            "4/5/6/7/6/5/4 r extra",
        ] {
            assert!(g.read_position(bad).is_err(), "{bad:?}");
        }
        for bad in ["", "k12", "a0", "f", "6f", "pas", "z99999", "ä1", "f6f6"] {
            assert!(g.parse_move(bad).is_err(), "{bad:?}");
        }
        assert_eq!(g.parse_move("Pass"), Ok(PASS));
    }

    #[test]
    fn render_shows_stones() {
        let g = board(4, &["d4"], &["a1"], Seat::P2);
        let text = g.render();
        assert!(text.contains(" r "), "{text}");
        assert!(text.contains("blue to move"), "{text}");
    }
}

//! Hadron solved as a sum of independent regions.
//!
//! **When parts stop interacting.** A placement on cell `c` changes only
//! the neighbour counts of `c`'s four neighbours, and a cell is legal
//! exactly when its red and blue neighbour counts are equal and at most 2
//! (the same cells for both players). Counts only grow, so an empty cell
//! with counts (r, b) can ever be played only if max(r, b) <= 2 and at
//! least |r - b| of its neighbours can still receive a tile. Taking the
//! greatest set of empty cells closed under that test (remove failing
//! cells until none fails) gives the *live* cells: every cell that will
//! ever be played in any continuation is live (by induction: the cells
//! played later satisfy the test among themselves). Dead cells never
//! change anything, so the live cells split into orthogonally connected
//! *regions* that are independent games: a move in one changes no count
//! in another. The position is their sum, in normal play (the player who
//! cannot place loses), Red being Left.
//!
//! **The exact summary of a region** is its canonical form as a partizan
//! game (Conway): `{ Red's options | Blue's options }`, each option the sum
//! of the regions the placement leaves. Canonical forms are equal exactly
//! when the games are equal, and replacing a summand by an equal game never
//! changes the outcome of any sum, so the summary is exact; it is computed
//! once per region shape (the key: cells and their (r, b) counts, up to the
//! 8 symmetries and translation, and up to swapping colours, which negates
//! the value) and cached.
//!
//! **The search.** A position is kept as (big regions on the board, S):
//! every region of at most `small` cells is folded into S, the sum of the
//! small regions' canonical values (kept as separate terms; added into one
//! canonical form only past 14 of them). The proof search then plays
//! either a placement in a big region or a move in a term of S (one of its
//! canonical options, far fewer than the placements they stand for). With
//! no big region left and S cheap enough, who wins S is found without more
//! proof search, by [`SumOutcomes`] (a search of S's terms that never
//! builds their sum's canonical form, which cost far more). Table keys
//! ignore the filled cells (only the live regions, each up to its own
//! symmetries, matter) and swap colours (the side to move wins in a
//! position exactly when it does in the colour-swapped one).

use super::cgt::{Cgt, GameId, ZERO};
use super::node::Node;
use super::sharded::ShardedMap;
use super::sum_outcome::SumOutcomes;
use super::{Budget, Progress, Proof, ProofTable, solve};
use crate::games::hadron::Hadron;
use crate::games::square::transform as square_transform;
use crate::games::zobrist::mix64;
use crate::games::{CompactMove, Game, Outcome, Seat};
use crate::search::Oracle;
use fxhash::FxHashMap;
use std::any::{Any, TypeId};
use std::sync::Arc;
use std::sync::Mutex;
use std::time::Instant;

/// Regions of at most this many cells are folded into the sum S.
pub const DEFAULT_SMALL: u32 = 12;
/// Sums of small regions at most this costly are decided at once, not by
/// the proof search. Measured when they were added into canonical forms
/// ([`SumOutcomes`] now decides them in half the time or less): on 5x5
/// this cuts the proof from 68,607 nodes to 14,417 (without mirror
/// strategies) and the CPU time threefold; far larger sums (on 6x6) cost
/// more than the search they save.
pub const DEFAULT_SUM_LIMIT: u64 = 1_000_000;
/// The sum limit during play (proofs before a move, leaves of MCTS): a sum
/// costs about the product of its terms' weights, and nothing stops it
/// midway, so only sums of a millisecond or so are decided there.
pub const IN_PLAY_SUM_LIMIT: u64 = 10_000;

/// The largest board the region solver handles (64-bit boards).
pub const MAX_SIDE: usize = 8;

/// Masks and symmetry tables of one board side.
#[derive(Debug)]
pub struct Geometry {
    n: usize,
    board: u64,
    not_first_file: u64,
    not_last_file: u64,
    /// Per symmetry, each cell's image as (file, rank).
    images: [[(u8, u8); 64]; 8],
    /// Per cell and label, the table-key parts of its 8 images, then of
    /// its 8 colour-swapped images.
    keys: Vec<[[u64; 16]; 9]>,
}

impl Geometry {
    pub fn new(n: usize) -> Self {
        assert!((3..=MAX_SIDE).contains(&n));
        let board = if n == 8 {
            u64::MAX
        } else {
            (1u64 << (n * n)) - 1
        };
        let mut first = 0u64;
        let mut last = 0u64;
        for rank in 0..n {
            first |= 1 << (rank * n);
            last |= 1 << (rank * n + n - 1);
        }
        let mut images = [[(0u8, 0u8); 64]; 8];
        for (sym, table) in images.iter_mut().enumerate() {
            for (cell, image) in table.iter_mut().enumerate().take(n * n) {
                let (f, r) = square_transform(n, cell % n, cell / n, sym);
                *image = (f as u8, r as u8);
            }
        }
        let keys = (0..n * n)
            .map(|cell| {
                std::array::from_fn(|label| {
                    std::array::from_fn(|k| {
                        let (f, r) = images[k % 8][cell];
                        let image = r as usize * n + f as usize;
                        let l = if k < 8 {
                            label
                        } else {
                            (label % 3) * 3 + label / 3
                        };
                        FRAME_KEYS[image][l]
                    })
                })
            })
            .collect();
        Geometry {
            n,
            board,
            not_first_file: board & !first,
            not_last_file: board & !last,
            images,
            keys,
        }
    }

    #[inline]
    fn neighbours_of(&self, set: u64) -> [u64; 4] {
        let n = self.n as u32;
        [
            (set >> 1) & self.not_last_file,
            (set << 1) & self.not_first_file,
            set >> n,
            (set << n) & self.board,
        ]
    }

    /// Cells with exactly 0, 1 and 2 orthogonal neighbours in `set`.
    #[inline]
    fn counts(&self, set: u64) -> [u64; 3] {
        let [east, west, north, south] = self.neighbours_of(set);
        let (x1, c1) = (east ^ west, east & west);
        let (x2, c2) = (north ^ south, north & south);
        let zero = !(east | west | north | south);
        let one = (x1 ^ x2) & !(c1 | c2);
        let two = ((c1 ^ c2) & !(x1 | x2)) | (x1 & x2);
        [zero, one, two]
    }

    /// The cells next to `set` (orthogonally).
    #[inline]
    fn spread(&self, set: u64) -> u64 {
        let [a, b, c, d] = self.neighbours_of(set);
        a | b | c | d
    }
}

/// Red and blue tiles, with the per-cell counts the rules look at.
#[derive(Copy, Clone, Debug)]
struct Counts {
    red: [u64; 3],
    blue: [u64; 3],
}

impl Counts {
    fn of(geo: &Geometry, red: u64, blue: u64) -> Self {
        Counts {
            red: geo.counts(red),
            blue: geo.counts(blue),
        }
    }

    /// Cells with equal counts, at most 2: where either player may place.
    fn legal(&self) -> u64 {
        (self.red[0] & self.blue[0]) | (self.red[1] & self.blue[1]) | (self.red[2] & self.blue[2])
    }

    /// Cells with counts (r, b) as the label 3r + b (each at most 2); the
    /// nine masks.
    fn labels(&self) -> [u64; 9] {
        std::array::from_fn(|l| self.red[l / 3] & self.blue[l % 3])
    }

    /// The live cells among `candidates` (see the module comment).
    fn live(&self, geo: &Geometry, candidates: u64) -> u64 {
        let (r, b) = (&self.red, &self.blue);
        let ok = candidates & (r[0] | r[1] | r[2]) & (b[0] | b[1] | b[2]);
        let diff0 = self.legal();
        let diff1 = (r[0] & b[1]) | (r[1] & b[0]) | (r[1] & b[2]) | (r[2] & b[1]);
        let diff2 = (r[0] & b[2]) | (r[2] & b[0]);
        let mut live = ok;
        loop {
            let [k0, k1, _] = geo.counts(live);
            let at_least_one = !k0;
            let at_least_two = !(k0 | k1);
            let next = live & (diff0 | (diff1 & at_least_one) | (diff2 & at_least_two));
            if next == live {
                return live;
            }
            live = next;
        }
    }
}

/// The connected parts of `set`, lowest cell first.
fn components(geo: &Geometry, mut set: u64, out: &mut Vec<u64>) {
    out.clear();
    while set != 0 {
        let mut part = set & set.wrapping_neg();
        loop {
            let grown = (part | geo.spread(part)) & set;
            if grown == part {
                break;
            }
            part = grown;
        }
        out.push(part);
        set &= !part;
    }
}

/// Whether `b` is the image of `a` under symmetry `sym` (then translated
/// onto `b`'s place) with the colours swapped: every cell's (r, b) counts
/// become (b, r).
fn is_swapped_image(geo: &Geometry, a: u64, b: u64, labels: &[u64; 9], sym: usize) -> bool {
    if a.count_ones() != b.count_ones() {
        return false;
    }
    let images = &geo.images[sym];
    let corner = |set: u64, map: &dyn Fn(usize) -> (u8, u8)| {
        let (mut f0, mut r0) = (u8::MAX, u8::MAX);
        let mut cells = set;
        while cells != 0 {
            let c = cells.trailing_zeros() as usize;
            cells &= cells - 1;
            let (f, r) = map(c);
            f0 = f0.min(f);
            r0 = r0.min(r);
        }
        (f0 as i32, r0 as i32)
    };
    let n = geo.n;
    let (af, ar) = corner(a, &|c| images[c]);
    let (bf, br) = corner(b, &|c| ((c % n) as u8, (c / n) as u8));
    let label_of = |c: usize| labels.iter().position(|&m| m >> c & 1 == 1);
    let mut cells = a;
    while cells != 0 {
        let c = cells.trailing_zeros() as usize;
        cells &= cells - 1;
        let (f, r) = images[c];
        let (f, r) = (f as i32 - af + bf, r as i32 - ar + br);
        if f < 0 || r < 0 || f >= n as i32 || r >= n as i32 {
            return false;
        }
        let image = r as usize * n + f as usize;
        if b >> image & 1 == 0 {
            return false;
        }
        match (label_of(c), label_of(image)) {
            (Some(l), Some(m)) if m == (l % 3) * 3 + l / 3 => {}
            _ => return false,
        }
    }
    true
}

/// A region is 0 when a half turn maps it onto itself with the colours
/// swapped, no cell onto itself and no cell onto a neighbour: whoever moves
/// second answers every placement with its image, which is then legal
/// (its counts are the swapped counts of the cell just played, and that
/// placement touched none of them), so the first player runs out of moves
/// first. (Reflections cannot do this for a connected region: it must
/// cross the axis, where a cell meets its own image or its neighbour.)
pub fn is_mirror(geo: &Geometry, region: u64, labels: &[u64; 9]) -> bool {
    const HALF_TURN: usize = 2;
    // Cheap test first: colour swapping must preserve how many cells carry
    // each (r, b) label.
    let count = |l: usize| (region & labels[l]).count_ones();
    if (0..9).any(|l| count(l) != count((l % 3) * 3 + l / 3)) {
        return false;
    }
    if !is_swapped_image(geo, region, region, labels, HALF_TURN) {
        return false;
    }
    // The half turn about the region's own centre: fixed or adjacent cells?
    let n = geo.n;
    let (mut f0, mut r0, mut f1, mut r1) = (usize::MAX, usize::MAX, 0, 0);
    let mut cells = region;
    while cells != 0 {
        let c = cells.trailing_zeros() as usize;
        cells &= cells - 1;
        f0 = f0.min(c % n);
        f1 = f1.max(c % n);
        r0 = r0.min(c / n);
        r1 = r1.max(c / n);
    }
    let mut cells = region;
    while cells != 0 {
        let c = cells.trailing_zeros() as usize;
        cells &= cells - 1;
        let (f, r) = (c % n, c / n);
        let (g, s) = (f0 + f1 - f, r0 + r1 - r);
        if f.abs_diff(g) + r.abs_diff(s) <= 1 {
            return false;
        }
    }
    true
}

/// A region shape up to symmetry and colours: occupancy in an 8x8 frame
/// and the cells' labels in frame order (4 bits each; at most 32 cells).
type RegionKey = (u64, u128);

/// Random keys of (frame cell, label) for table keys of big regions.
static FRAME_KEYS: [[u64; 9]; 64] = {
    let mut keys = [[0u64; 9]; 64];
    let mut i = 0;
    while i < 64 * 9 {
        // splitmix64 of the index: a compile-time table.
        let mut z = (0x4841_4452_5245_4700u64 ^ i as u64).wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        keys[i / 9][i % 9] = z ^ (z >> 31);
        i += 1;
    }
    keys
};

/// How the region solver works (defaults: regions of up to 12 cells by
/// game values, mirror strategies on, cheap sums of regions decided at once).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// Regions of at most this many cells (at most 32) are folded into S.
    pub small: u32,
    /// Drop big regions proven 0 by a mirror strategy (see [`is_mirror`]).
    pub mirror: bool,
    /// With no big region left, the sum of the small regions is decided
    /// at once (by [`SumOutcomes`], not by the proof search) when their
    /// sizes ([`Cgt::weight`]) multiply to at most this (0: always search
    /// their options).
    pub sum_limit: u64,
    /// Keep the region values for the next call (proofs during play: one
    /// move's proof starts from what the last one computed).
    pub keep_warm: bool,
}

impl Settings {
    /// Proofs during play: region values kept warm, sums kept cheap.
    pub fn in_play() -> Self {
        Settings {
            keep_warm: true,
            sum_limit: IN_PLAY_SUM_LIMIT,
            ..Settings::default()
        }
    }
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            small: DEFAULT_SMALL,
            mirror: true,
            sum_limit: DEFAULT_SUM_LIMIT,
            keep_warm: false,
        }
    }
}

/// The raw (symmetry-free) caches are emptied past this many entries.
const RAW_LIMIT: usize = 1 << 22;

/// A context kept warm between calls is cut back past about this many
/// bytes (its memos and raw values first, then the whole of it): a Hadron
/// 7x7 game at 10 s + 100 ms fills 25-100 MB, mostly comparison memos.
const WARM_BYTES: usize = 64 << 20;

/// How many region shapes the context kept warm for board side `n` holds
/// (0: none is kept).
pub fn warm_regions(n: usize) -> usize {
    let pool = WARM.lock().unwrap_or_else(|p| p.into_inner());
    pool.iter()
        .find(|c| c.geo.n == n)
        .map_or(0, Context::cached_regions)
}

/// Contexts kept between calls with `keep_warm` (region values are facts
/// about shapes, whatever position they were met in), at most
/// [`WARM_PER_SIDE`] per board side: one per thread that uses them at once
/// (the proof before a search, then each search thread's leaves).
static WARM: Mutex<Vec<Context>> = Mutex::new(Vec::new());

const WARM_PER_SIDE: usize = 4;

/// Per-thread caches of the region solver.
pub struct Context {
    pub cgt: Cgt,
    /// Outcomes of sums of `cgt`'s games (the decisions without search).
    outcomes: SumOutcomes,
    regions: ShardedMap<RegionKey, GameId>,
    /// Region values by their cells and the tiles around them (no
    /// symmetry: a cheap first lookup).
    raw_values: ShardedMap<[u64; 3], GameId>,
    geo: &'static Geometry,
    /// Regions of at most this many cells are folded into S.
    small: u32,
    /// Drop big regions that mirror strategies prove to be 0.
    mirror: bool,
    /// With no big region left, small regions whose weights multiply to
    /// at most this are decided at once (by [`SumOutcomes`]).
    sum_limit: u64,
    scratch: Vec<u64>,
    /// Region values stop being computed at this instant (a move's work
    /// would otherwise overrun the budget: the search looks at the clock
    /// only between positions).
    deadline: Option<Instant>,
    /// Region shapes still allowed to be computed (`None`: no limit).
    new_shapes: Option<u32>,
    /// A region value was cut short: nothing made since is right (see
    /// [`Node::interrupted`]); no cache holds such a value.
    interrupted: bool,
    /// Give this context back to [`WARM`] when its search is done.
    keep_warm: bool,
}

fn geometry(n: usize) -> &'static Geometry {
    use std::sync::{Mutex, OnceLock};
    static GEOMETRIES: OnceLock<Mutex<FxHashMap<usize, &'static Geometry>>> = OnceLock::new();
    let mut map = GEOMETRIES
        .get_or_init(|| Mutex::new(FxHashMap::default()))
        .lock()
        .unwrap_or_else(|p| p.into_inner());
    map.entry(n)
        .or_insert_with(|| Box::leak(Box::new(Geometry::new(n))))
}

impl Context {
    pub fn new(n: usize, settings: Settings) -> Self {
        Context {
            cgt: Cgt::new(),
            outcomes: SumOutcomes::default(),
            regions: ShardedMap::default(),
            raw_values: ShardedMap::default(),
            geo: geometry(n),
            small: settings.small.min(32),
            mirror: settings.mirror,
            sum_limit: settings.sum_limit,
            scratch: Vec::new(),
            deadline: None,
            new_shapes: None,
            interrupted: false,
            keep_warm: settings.keep_warm,
        }
    }

    /// A context for one search: with `keep_warm`, one that an earlier
    /// call gave back to [`WARM`] for this board side if any, with these
    /// settings.
    fn for_search(n: usize, settings: Settings, deadline: Option<Instant>) -> Self {
        Context::from_pool(&WARM, n, settings, deadline)
    }

    /// A context from `pool` (see [`Context::for_search`]).
    fn from_pool(
        pool: &Mutex<Vec<Context>>,
        n: usize,
        settings: Settings,
        deadline: Option<Instant>,
    ) -> Self {
        let warm = settings.keep_warm.then(|| {
            let mut pool = pool.lock().unwrap_or_else(|p| p.into_inner());
            let at = pool.iter().position(|c| c.geo.n == n)?;
            Some(pool.swap_remove(at))
        });
        let mut ctx = match warm.flatten() {
            Some(mut ctx) => {
                ctx.small = settings.small.min(32);
                ctx.mirror = settings.mirror;
                ctx.sum_limit = settings.sum_limit;
                ctx.keep_warm = true;
                ctx
            }
            None => Context::new(n, settings),
        };
        ctx.deadline = deadline;
        ctx.new_shapes = None;
        ctx.interrupted = false;
        ctx
    }

    /// Keeps this context in [`WARM`] for the next call.
    fn give_back(self) {
        self.give_back_to(&WARM);
    }

    /// Keeps this context in `pool`, within [`WARM_BYTES`].
    fn give_back_to(mut self, pool: &Mutex<Vec<Context>>) {
        if self.approx_bytes() > WARM_BYTES {
            self.cgt.forget_memos();
            self.outcomes.forget();
            self.raw_values = ShardedMap::default();
        }
        if self.approx_bytes() > WARM_BYTES {
            // Dropping an arena frees a block or more per game: 28 ms for
            // one of 18 MB, about 0.1 s at the cap. Never on a move's clock.
            let _ = std::thread::Builder::new().spawn(move || drop(self));
            return;
        }
        let mut pool = pool.lock().unwrap_or_else(|p| p.into_inner());
        let n = self.geo.n;
        let same_side = pool.iter().filter(|c| c.geo.n == n).count();
        if same_side >= WARM_PER_SIDE {
            // Full: the one that learned least goes (this one, or another).
            let (at, least) = pool
                .iter()
                .enumerate()
                .filter(|(_, c)| c.geo.n == n)
                .map(|(i, c)| (i, c.approx_bytes()))
                .min_by_key(|&(_, bytes)| bytes)
                .expect("a context of this side");
            if least >= self.approx_bytes() {
                return;
            }
            pool.swap_remove(at);
        }
        pool.push(self);
    }

    fn approx_bytes(&self) -> usize {
        // A map entry: its key and value and the map's slack.
        const REGION: usize = 64;
        const RAW: usize = 48;
        const OUTCOME: usize = 40;
        self.cgt.approx_bytes()
            + self.regions.len() * REGION
            + self.raw_values.len() * RAW
            + self.outcomes.len() * OUTCOME
    }

    /// How many region shapes have a cached value.
    pub fn cached_regions(&self) -> usize {
        self.regions.len()
    }

    /// The exact key of a region (at most 32 cells), and whether it is the
    /// colour-swapped shape (then its value is the negative of the key's).
    fn region_key(&self, region: u64, labels: &[u64; 9]) -> (RegionKey, bool) {
        let geo = self.geo;
        let mut best: Option<(RegionKey, bool)> = None;
        let mut frame = [0u8; 64];
        let labelled = region & labels.iter().fold(0, |all, &mask| all | mask);
        for sym in 0..8 {
            let images = &geo.images[sym];
            let (mut min_f, mut min_r) = (u8::MAX, u8::MAX);
            let mut cells = region;
            while cells != 0 {
                let c = cells.trailing_zeros() as usize;
                cells &= cells - 1;
                min_f = min_f.min(images[c].0);
                min_r = min_r.min(images[c].1);
            }
            let frame_bit = |c: usize| {
                let (f, r) = images[c];
                (r - min_r) as usize * 8 + (f - min_f) as usize
            };
            let mut occupancy = 0u64;
            let mut cells = labelled;
            while cells != 0 {
                occupancy |= 1 << frame_bit(cells.trailing_zeros() as usize);
                cells &= cells - 1;
            }
            // Keys order by occupancy first: a larger one cannot be the
            // least, so its labels need not be read.
            if best.is_some_and(|((least, _), _)| occupancy > least) {
                continue;
            }
            for (label, &mask) in labels.iter().enumerate() {
                let mut cells = region & mask;
                while cells != 0 {
                    frame[frame_bit(cells.trailing_zeros() as usize)] = label as u8;
                    cells &= cells - 1;
                }
            }
            // The labels as they are and with the colours swapped (r, b)
            // -> (b, r), packed in one pass.
            let (mut packed, mut swapped_packed) = (0u128, 0u128);
            let mut bits = occupancy;
            let mut shift = 0;
            while bits != 0 {
                let l = frame[bits.trailing_zeros() as usize];
                bits &= bits - 1;
                packed |= (l as u128) << shift;
                swapped_packed |= (((l % 3) * 3 + l / 3) as u128) << shift;
                shift += 4;
            }
            for candidate in [
                ((occupancy, packed), false),
                ((occupancy, swapped_packed), true),
            ] {
                if best.is_none_or(|b| candidate.0 < b.0) {
                    best = Some(candidate);
                }
            }
        }
        best.expect("eight symmetries")
    }

    /// The cells and the tiles around them: everything a region's value
    /// depends on, as it stands on this board.
    fn raw_key(&self, region: u64, red: u64, blue: u64) -> [u64; 3] {
        let halo = self.geo.spread(region);
        [region, red & halo, blue & halo]
    }

    /// The value of the position when every live region is small and
    /// their sum cheap, with the live cell count, which bounds the plies
    /// left (each placement fills one); `None` otherwise, or when the
    /// deadline or the shape budget cut a region's value short.
    fn decide_small(&mut self, red: u64, blue: u64, mover: Seat) -> Option<(Outcome, u32)> {
        let geo = self.geo;
        let counts = Counts::of(geo, red, blue);
        let live = counts.live(geo, geo.board & !(red | blue));
        let legal = counts.legal();
        let mut parts = std::mem::take(&mut self.scratch);
        components(geo, live, &mut parts);
        // A big region anywhere leaves the sum undecided: say so before
        // looking up (or computing) the small ones' values.
        let undecidable = parts
            .iter()
            .any(|&part| part & legal != 0 && part.count_ones() > self.small);
        let values = if undecidable {
            None
        } else {
            self.small_values(&parts, legal, red, blue)
        };
        self.scratch = parts;
        // The outcome by searching the sum, not by its canonical form: the
        // same answer at a fraction of the cost for sums never met before.
        let wins = self
            .outcomes
            .first_player_wins(&self.cgt, &values?, mover == Seat::P1);
        let winner = if wins { mover } else { mover.other() };
        Some((Outcome::Win(winner), live.count_ones()))
    }

    /// The values of the `parts` that hold a legal cell, or `None` when the
    /// deadline, the shape budget or the sum's cost cut them short.
    fn small_values(
        &mut self,
        parts: &[u64],
        legal: u64,
        red: u64,
        blue: u64,
    ) -> Option<Vec<GameId>> {
        let mut values = Vec::with_capacity(parts.len());
        let mut cost = 1u64;
        for &part in parts.iter().filter(|&&part| part & legal != 0) {
            let v = self.region_value(part, red, blue);
            cost = cost.saturating_mul(self.cgt.weight(v) as u64);
            if self.interrupted || cost > self.sum_limit {
                return None;
            }
            values.push(v);
        }
        Some(values)
    }

    /// The canonical value of the live region `region` (Red = Left).
    pub fn region_value(&mut self, region: u64, red: u64, blue: u64) -> GameId {
        let raw = self.raw_key(region, red, blue);
        if let Some(&v) = self.raw_values.get(&raw) {
            return v;
        }
        let v = self.shaped_region_value(region, red, blue);
        if self.interrupted {
            return v;
        }
        if self.raw_values.len() >= RAW_LIMIT {
            self.raw_values.clear();
        }
        self.raw_values.insert(raw, v);
        v
    }

    fn shaped_region_value(&mut self, region: u64, red: u64, blue: u64) -> GameId {
        let counts = Counts::of(self.geo, red, blue);
        let (key, swapped) = self.region_key(region, &counts.labels());
        if let Some(&v) = self.regions.get(&key) {
            return if swapped { self.cgt.neg(v) } else { v };
        }
        let out_of_shapes = self.new_shapes.is_some_and(|left| left == 0);
        if self.interrupted || out_of_shapes || self.deadline.is_some_and(|d| Instant::now() >= d) {
            self.interrupted = true;
            return ZERO;
        }
        if let Some(left) = &mut self.new_shapes {
            *left -= 1;
        }
        let legal = region & counts.legal();
        let mut options = [Vec::new(), Vec::new()];
        for (side, list) in options.iter_mut().enumerate() {
            let mut cells = legal;
            while cells != 0 {
                let c = cells & cells.wrapping_neg();
                cells &= cells - 1;
                let (r, b) = if side == 0 {
                    (red | c, blue)
                } else {
                    (red, blue | c)
                };
                list.push(self.rest_value(region & !c, r, b));
            }
        }
        let [left, right] = options;
        let v = self.cgt.canonical(left, right);
        if self.interrupted {
            return v;
        }
        let stored = if swapped { self.cgt.neg(v) } else { v };
        self.regions.insert(key, stored);
        v
    }

    /// The value of what stays live of `cells`: the sum of its regions.
    fn rest_value(&mut self, cells: u64, red: u64, blue: u64) -> GameId {
        let counts = Counts::of(self.geo, red, blue);
        let live = counts.live(self.geo, cells);
        let mut parts = Vec::new();
        components(self.geo, live, &mut parts);
        let mut sum = ZERO;
        for part in parts {
            if part & counts.legal() == 0 {
                continue;
            }
            let v = self.region_value(part, red, blue);
            sum = self.cgt.add(sum, v);
        }
        sum
    }
}

/// Drops pairs of regions where one is the other turned and colour-swapped
/// (G + -G = 0: answer each move in one by its image in the other).
fn cancel_pairs(geo: &Geometry, big: &mut Vec<u64>, labels: &[u64; 9]) {
    let mut i = 0;
    while i < big.len() {
        let partner = (i + 1..big.len())
            .find(|&j| (0..8).any(|sym| is_swapped_image(geo, big[i], big[j], labels, sym)));
        match partner {
            Some(j) => {
                big.swap_remove(j);
                big.swap_remove(i);
            }
            None => i += 1,
        }
    }
}

/// A Hadron position as (big regions on the board, sum S of the small
/// ones), for the proof search.
#[derive(Copy, Clone, Debug)]
pub struct SumNode {
    red: u64,
    blue: u64,
    /// The cells of the big regions.
    live: u64,
    mover: Seat,
    /// The small regions' values (canonical, none 0, no two negatives of
    /// each other), in increasing id order.
    parts: Parts,
}

/// At most this many summands are kept apart; more are added up.
const MAX_PARTS: usize = 14;

#[derive(Copy, Clone, Debug, Default)]
struct Parts {
    ids: [GameId; MAX_PARTS],
    len: u8,
}

impl Parts {
    fn as_slice(&self) -> &[GameId] {
        &self.ids[..self.len as usize]
    }

    fn remove(&mut self, i: usize) {
        let len = self.len as usize;
        self.ids.copy_within(i + 1..len, i);
        self.len -= 1;
    }

    /// Adds a summand: 0 vanishes, G cancels -G, and past `MAX_PARTS`
    /// summands the last two are added into one canonical form.
    fn add(&mut self, cgt: &mut Cgt, v: GameId) {
        if v == ZERO {
            return;
        }
        if self.len as usize == MAX_PARTS {
            let last = self.len as usize;
            let total = cgt.add(self.ids[last - 1], v);
            self.remove(last - 1);
            return self.add(cgt, total);
        }
        let negative = cgt.neg(v);
        if let Some(i) = self.as_slice().iter().position(|&p| p == negative) {
            self.remove(i);
            return;
        }
        let at = self.as_slice().partition_point(|&p| p < v);
        let len = self.len as usize;
        self.ids.copy_within(at..len, at + 1);
        self.ids[at] = v;
        self.len += 1;
    }
}

/// A placement (cell 0..64) or an option of a summand: `64 + 256 * part +
/// option`.
pub type SumMove = u32;
const OPTION_BASE: u32 = 64;

impl SumNode {
    /// The position of a board, every live region kept on the board (so
    /// that the root's moves are placements).
    pub fn new(ctx: &mut Context, red: u64, blue: u64, mover: Seat) -> Self {
        let geo = ctx.geo;
        let counts = Counts::of(geo, red, blue);
        let empty = geo.board & !(red | blue);
        let live = counts.live(geo, empty);
        let mut parts = Vec::new();
        components(geo, live, &mut parts);
        let labels = counts.labels();
        let mut kept: Vec<u64> = parts
            .iter()
            .copied()
            .filter(|&p| p & counts.legal() != 0)
            .filter(|&p| !(ctx.mirror && is_mirror(geo, p, &labels)))
            .collect();
        if ctx.mirror {
            cancel_pairs(geo, &mut kept, &labels);
        }
        let live = kept.iter().fold(0, |acc, p| acc | p);
        SumNode {
            red,
            blue,
            live,
            mover,
            parts: Parts::default(),
        }
    }

    /// After a placement: drop dead cells, fold small regions into S.
    fn settle(&mut self, ctx: &mut Context) {
        let geo = ctx.geo;
        let counts = Counts::of(geo, self.red, self.blue);
        let live = counts.live(geo, self.live);
        let mut parts = std::mem::take(&mut ctx.scratch);
        components(geo, live, &mut parts);
        let labels = counts.labels();
        let mut big: Vec<u64> = Vec::new();
        for &part in &parts {
            if part & counts.legal() == 0 {
                continue;
            }
            if part.count_ones() <= ctx.small {
                let v = ctx.region_value(part, self.red, self.blue);
                self.parts.add(&mut ctx.cgt, v);
            } else if !(ctx.mirror && is_mirror(geo, part, &labels)) {
                big.push(part);
            }
        }
        ctx.scratch = parts;
        if ctx.mirror {
            cancel_pairs(geo, &mut big, &labels);
        }
        self.live = big.iter().fold(0, |acc, p| acc | p);
    }

    /// The table-key hashes of the big regions' cells and counts, plain
    /// and colour-swapped, each the least over the 8 board symmetries.
    fn regions_hash(&self, ctx: &Context) -> (u64, u64) {
        let geo = ctx.geo;
        let labels = Counts::of(geo, self.red, self.blue).labels();
        let mut h = [0u64; 16];
        for (label, &mask) in labels.iter().enumerate() {
            let mut cells = self.live & mask;
            while cells != 0 {
                let c = cells.trailing_zeros() as usize;
                cells &= cells - 1;
                let keys = &geo.keys[c][label];
                for k in 0..16 {
                    h[k] ^= keys[k];
                }
            }
        }
        let plain = h[..8].iter().copied().min().unwrap_or(0);
        let swapped = h[8..].iter().copied().min().unwrap_or(0);
        (plain, swapped)
    }

    /// The cells of the big regions where the mover may place.
    fn placements(&self, ctx: &Context) -> u64 {
        self.live & Counts::of(ctx.geo, self.red, self.blue).legal()
    }

    fn options<'c>(&self, ctx: &'c Context, part: GameId) -> &'c [GameId] {
        match self.mover {
            Seat::P1 => ctx.cgt.left(part),
            Seat::P2 => ctx.cgt.right(part),
        }
    }
}

impl Node for SumNode {
    type Move = SumMove;
    type Undo = SumNode;
    type Context = Context;

    fn mover(&self) -> Seat {
        self.mover
    }

    fn exact(&mut self, ctx: &mut Context) -> Option<Outcome> {
        if self.live != 0 {
            return None;
        }
        if self.parts.len > 1 {
            // Add the summands up when that is cheap (a sum costs about the
            // product of its terms' sizes); else search their options.
            let cost = self.parts.as_slice().iter().try_fold(1u64, |acc, &p| {
                let c = acc * ctx.cgt.weight(p) as u64;
                (c <= ctx.sum_limit).then_some(c)
            });
            cost?;
        }
        let wins =
            ctx.outcomes
                .first_player_wins(&ctx.cgt, self.parts.as_slice(), self.mover == Seat::P1);
        Some(Outcome::Win(if wins {
            self.mover
        } else {
            self.mover.other()
        }))
    }

    fn moves(&mut self, ctx: &mut Context, out: &mut Vec<SumMove>) {
        out.clear();
        let mut cells = self.placements(ctx);
        while cells != 0 {
            out.push(cells.trailing_zeros());
            cells &= cells - 1;
        }
        for (p, &part) in self.parts.as_slice().iter().enumerate() {
            let count = self.options(ctx, part).len() as u32;
            out.extend((0..count).map(|i| OPTION_BASE + 256 * p as u32 + i));
        }
    }

    fn make(&mut self, ctx: &mut Context, mv: SumMove) -> SumNode {
        let before = *self;
        if mv < OPTION_BASE {
            let bit = 1u64 << mv;
            match self.mover {
                Seat::P1 => self.red |= bit,
                Seat::P2 => self.blue |= bit,
            }
            self.live &= !bit;
            self.settle(ctx);
        } else {
            let (p, i) = (
                (mv - OPTION_BASE) as usize / 256,
                (mv - OPTION_BASE) as usize % 256,
            );
            let part = self.parts.ids[p];
            let next = self.options(ctx, part)[i];
            self.parts.remove(p);
            self.parts.add(&mut ctx.cgt, next);
        }
        self.mover = self.mover.other();
        before
    }

    fn unmake(&mut self, _mv: SumMove, undo: SumNode) {
        *self = undo;
    }

    fn key(&self, ctx: &mut Context) -> u64 {
        let (plain, swapped) = self.regions_hash(ctx);
        // The summands as a multiset of shapes (ids differ between threads).
        let (mut sum, mut negated) = (0u64, 0u64);
        for &part in self.parts.as_slice() {
            sum = sum.wrapping_add(mix64(ctx.cgt.shape(part)));
            let n = ctx.cgt.neg(part);
            negated = negated.wrapping_add(mix64(ctx.cgt.shape(n)));
        }
        let side = |seat: Seat| if seat == Seat::P2 { 0x9E37_79B9 } else { 0 };
        let a = mix64(plain ^ mix64(sum ^ side(self.mover)));
        let b = mix64(swapped ^ mix64(negated ^ side(self.mover.other())));
        a.min(b)
    }

    /// A fresh node looked at one ply ahead: one winning move proves it,
    /// and disproving it means refuting each of its n moves, so (1, n)
    /// where plain df-pn says (1, 1); scaled by 1.5, which measured best
    /// (26 positions at plies 11-12 of 7x7 games, 10 s each: 1.7x faster
    /// than (1, 1) over the 21 both proved, n and 2n slower than 1.5n;
    /// 5x5 from the start: 14,991 nodes instead of 35,947).
    fn estimate(&mut self, ctx: &mut Context) -> (u32, u32) {
        let placements = self.placements(ctx).count_ones();
        let options: u32 = self
            .parts
            .as_slice()
            .iter()
            .map(|&part| self.options(ctx, part).len() as u32)
            .sum();
        let moves = (placements + options).max(1);
        (1, moves + moves / 2)
    }

    fn repetition_key(&self) -> Option<u64> {
        None
    }

    fn can_draw(&self) -> bool {
        false
    }

    fn interrupted(ctx: &Context) -> bool {
        ctx.interrupted
    }

    fn release(ctx: Context) {
        if ctx.keep_warm {
            ctx.give_back();
        }
    }
}

/// How many region shapes one leaf may compute (a leaf costs microseconds
/// once its regions' shapes are known). A count, not a time, so that a
/// search under a node limit plays the same every time.
const ORACLE_SHAPES: u32 = 512;

/// How many region shapes one playout position may compute: playouts ask
/// every few plies, and most of their shapes are met again and again.
const PLAYOUT_SHAPES: u32 = 64;

/// A quick question from a playout (a short search) is decided only where
/// every live region has at most this many cells (leaves and longer
/// searches: [`DEFAULT_SMALL`], 12). Regions of 9-12 cells come in far
/// more shapes than the cache holds, so asking there computed about three
/// new shapes a playout; playing on at random until they shrink makes a
/// 7x7 search 2.4 times as fast. Hadron 7 at 100 ms, 1000 games
/// each, against the same search with 8 (bench/RESULTS.md, session 71):
/// 12 -44.7, 10 -11.1, 6 -18.8; but on a 10 s + 100 ms clock (moves of
/// 300-600 ms) 8 measured below 12 (session 72).
const PLAYOUT_SMALL: u32 = 8;

/// Hadron positions decided where every live region is small: the sum of
/// their values, no search (the [`Oracle`] of MCTS leaves).
struct RegionOracle {
    /// Its own warm contexts, not [`WARM`]: what a leaf decides within its
    /// budget of shapes depends on what the cache holds, so a node-limited
    /// search repeats exactly only if no other search (another session, a
    /// proof before a move) fills that cache.
    warm: Mutex<Vec<Context>>,
}

impl RegionOracle {
    /// The sum of `state`'s regions where every one has at most `small`
    /// cells, computing at most `shapes` new region shapes.
    fn decide_within<G: Game>(
        &self,
        state: &G,
        deadline: Option<Instant>,
        small: u32,
        shapes: u32,
    ) -> Option<(Outcome, u32)> {
        let hadron = (state as &dyn Any).downcast_ref::<Hadron<u64>>()?;
        let n = hadron.size();
        if n > MAX_SIDE {
            return None;
        }
        let [red, blue] = hadron.tiles();
        let settings = Settings {
            small,
            ..Settings::in_play()
        };
        let mut ctx = Context::from_pool(&self.warm, n, settings, deadline);
        ctx.new_shapes = Some(shapes);
        let value = ctx.decide_small(red, blue, hadron.side_to_move());
        ctx.give_back_to(&self.warm);
        value
    }
}

impl<G: Game> Oracle<G> for RegionOracle {
    fn decide(&self, state: &G, deadline: Option<Instant>) -> Option<(Outcome, u32)> {
        self.decide_within(state, deadline, DEFAULT_SMALL, ORACLE_SHAPES)
    }

    fn decide_in_playout(
        &self,
        state: &G,
        deadline: Option<Instant>,
        quick: bool,
    ) -> Option<Outcome> {
        let small = if quick { PLAYOUT_SMALL } else { DEFAULT_SMALL };
        self.decide_within(state, deadline, small, PLAYOUT_SHAPES)
            .map(|(outcome, _)| outcome)
    }
}

/// The oracle for `G` when it is a Hadron board the region solver handles.
pub fn oracle_for<G: Game>() -> Option<Arc<dyn Oracle<G>>> {
    (TypeId::of::<G>() == TypeId::of::<Hadron<u64>>()).then(|| {
        Arc::new(RegionOracle {
            warm: Mutex::new(Vec::new()),
        }) as Arc<dyn Oracle<G>>
    })
}

/// Runs the region solver when `game` is a Hadron board it handles
/// (returns `None` for any other game, which the caller then solves with
/// the generic search).
pub fn prove_if_hadron<G: Game>(
    game: &G,
    settings: Settings,
    budget: &Budget,
    table: &ProofTable,
    progress: Option<&Progress>,
    threads: usize,
) -> Option<Proof<G::Move>> {
    let hadron = (game as &dyn Any).downcast_ref::<Hadron<u64>>()?;
    let n = hadron.size();
    if n > MAX_SIDE {
        return None;
    }
    let [red, blue] = hadron.tiles();
    let mover = hadron.side_to_move();
    let mut ctx = Context::new(n, settings);
    let root = SumNode::new(&mut ctx, red, blue, mover);
    let proof = solve(
        root,
        &|| Context::for_search(n, settings, budget.deadline),
        table,
        budget,
        progress,
        threads,
    );
    // The root keeps every region on the board: its moves are placements,
    // and a Hadron move is its cell number.
    Some(Proof {
        value: proof.value,
        best: proof
            .best
            .filter(|&mv| mv < OPTION_BASE)
            .map(<G::Move as CompactMove>::unpack),
        plies: proof.plies,
        nodes: proof.nodes,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{RngExt, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    /// The key as defined: the least (occupancy, packed labels) over the
    /// eight images, each as it is and colour-swapped, every one built.
    fn least_of_all_images(geo: &Geometry, region: u64, labels: &[u64; 9]) -> (RegionKey, bool) {
        let mut all = Vec::new();
        for images in &geo.images {
            let cells = || (0..64).filter(|&c| region >> c & 1 == 1);
            let min_f = cells().map(|c| images[c].0).min().unwrap();
            let min_r = cells().map(|c| images[c].1).min().unwrap();
            let mut frame = [None; 64];
            for (label, &mask) in labels.iter().enumerate() {
                for c in cells().filter(|&c| mask >> c & 1 == 1) {
                    let (f, r) = images[c];
                    frame[(r - min_r) as usize * 8 + (f - min_f) as usize] = Some(label as u8);
                }
            }
            let occupancy = (0..64)
                .filter(|&b| frame[b].is_some())
                .fold(0u64, |o, b| o | 1 << b);
            for swapped in [false, true] {
                let packed = frame
                    .iter()
                    .flatten()
                    .enumerate()
                    .fold(0u128, |p, (i, &l)| {
                        let l = if swapped { (l % 3) * 3 + l / 3 } else { l };
                        p | (l as u128) << (4 * i)
                    });
                all.push(((occupancy, packed), swapped));
            }
        }
        // The first of the least, as the solver keeps it.
        let least = all.iter().map(|c| c.0).min().unwrap();
        *all.iter().find(|c| c.0 == least).unwrap()
    }

    #[test]
    fn region_keys_are_the_least_of_their_images() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
        let mut checked = 0;
        for n in [5, 7, 8] {
            let ctx = Context::new(n, Settings::default());
            let geo = ctx.geo;
            for _ in 0..300 {
                let (mut red, mut blue) = (0u64, 0u64);
                for cell in 0..n * n {
                    match rng.random_range(0..10) {
                        0 | 1 => red |= 1 << cell,
                        2 | 3 => blue |= 1 << cell,
                        _ => {}
                    }
                }
                let counts = Counts::of(geo, red, blue);
                let live = counts.live(geo, geo.board & !(red | blue));
                let mut parts = Vec::new();
                components(geo, live, &mut parts);
                let labels = counts.labels();
                for part in parts.into_iter().filter(|&p| p.count_ones() <= 32) {
                    assert_eq!(
                        ctx.region_key(part, &labels),
                        least_of_all_images(geo, part, &labels),
                        "size {n}, red {red:#x}, blue {blue:#x}, region {part:#x}"
                    );
                    checked += 1;
                }
            }
        }
        assert!(checked > 500, "only {checked} regions checked");
    }

    /// The live regions of `game` that hold a legal cell: the largest one's
    /// cell count.
    fn largest_region(game: &Hadron<u64>) -> u32 {
        let geo = geometry(game.size());
        let [red, blue] = game.tiles();
        let counts = Counts::of(geo, red, blue);
        let mut parts = Vec::new();
        components(geo, counts.live(geo, geo.board & !(red | blue)), &mut parts);
        parts
            .iter()
            .filter(|&&part| part & counts.legal() != 0)
            .map(|part| part.count_ones())
            .max()
            .unwrap_or(0)
    }

    #[test]
    fn quick_playout_questions_are_decided_only_where_every_region_is_small() {
        let oracle = oracle_for::<Hadron<u64>>().expect("Hadron 7x7 has an oracle");
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(71);
        let (mut leaf_only, mut both, mut full_big) = (0, 0, 0);
        let mut moves = Vec::new();
        for _ in 0..300 {
            let mut game = Hadron::<u64>::new(7);
            for _ in 0..rng.random_range(10..30) {
                game.legal_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                game.play(moves[rng.random_range(0..moves.len())]);
            }
            let largest = largest_region(&game);
            let at_leaf = oracle.decide(&game, None).map(|(outcome, _)| outcome);
            match oracle.decide_in_playout(&game, None, true) {
                Some(outcome) => {
                    assert!(
                        largest <= PLAYOUT_SMALL,
                        "decided with a region of {largest}"
                    );
                    assert_eq!(Some(outcome), at_leaf, "the leaf and the playout disagree");
                    both += 1;
                }
                None if at_leaf.is_some() && largest > PLAYOUT_SMALL => leaf_only += 1,
                None => {}
            }
            // A longer search's question reaches the leaf's 12 cells.
            if let Some(outcome) = oracle.decide_in_playout(&game, None, false) {
                assert_eq!(
                    Some(outcome),
                    at_leaf,
                    "the leaf and the full question disagree"
                );
                if largest > PLAYOUT_SMALL {
                    full_big += 1;
                }
            }
        }
        assert!(both > 10, "only {both} positions decided from a playout");
        assert!(
            full_big > 10,
            "only {full_big} positions with a region over {PLAYOUT_SMALL} cells decided by the full question"
        );
        assert!(
            leaf_only > 10,
            "only {leaf_only} positions with a region over {PLAYOUT_SMALL} cells decided at a leaf"
        );
    }
}

//! Combinatorial game theory for short partizan games: canonical forms,
//! comparison, sums and negation (Conway, "On Numbers and Games"; Siegel,
//! "Combinatorial Game Theory", ch. II).
//!
//! Every game kept here is in canonical form (no dominated and no
//! reversible options), and canonical forms are interned, so two games are
//! equal exactly when their ids are equal. Left is p1 (Red in Hadron).
//! Normal play: who cannot move loses. Left moving first wins `g` exactly
//! when `g <= 0` fails; Right moving first wins exactly when `0 <= g` fails.

use super::sharded::ShardedMap;
use crate::games::zobrist::mix64;
use fxhash::FxHashMap;

/// A canonical game, by its index in a [`Cgt`] arena.
pub type GameId = u32;

/// The game 0 = { | } (no moves for either side).
pub const ZERO: GameId = 0;

/// A game's options: (Left's, Right's).
type Options = (Box<[GameId]>, Box<[GameId]>);

/// An arena of canonical games with memoised operations.
pub struct Cgt {
    left: Vec<Box<[GameId]>>,
    right: Vec<Box<[GameId]>>,
    /// A hash of each game's form, the same in every arena (ids are not).
    shape: Vec<u64>,
    /// The size of each game's form: 1 + its options' weights (saturating);
    /// a sum costs about the product of its terms' weights.
    weight: Vec<u32>,
    interned: ShardedMap<Options, GameId>,
    le_memo: ShardedMap<(GameId, GameId), bool>,
    sum_memo: ShardedMap<(GameId, GameId), GameId>,
    neg_memo: ShardedMap<GameId, GameId>,
    /// Comparisons with the game being canonicalised (not yet interned).
    temp_memo: FxHashMap<(GameId, bool), bool>,
}

/// The memo tables are dropped (and refilled on demand) past this size.
const MEMO_LIMIT: usize = 20_000_000;

impl Default for Cgt {
    fn default() -> Self {
        Self::new()
    }
}

impl Cgt {
    pub fn new() -> Self {
        let mut cgt = Cgt {
            left: Vec::new(),
            right: Vec::new(),
            shape: Vec::new(),
            weight: Vec::new(),
            interned: ShardedMap::default(),
            le_memo: ShardedMap::default(),
            sum_memo: ShardedMap::default(),
            neg_memo: ShardedMap::default(),
            temp_memo: FxHashMap::default(),
        };
        let zero = cgt.intern(Vec::new(), Vec::new());
        debug_assert_eq!(zero, ZERO);
        cgt
    }

    /// Roughly the bytes the arena and its memos take (for callers that
    /// keep an arena from one search to the next).
    pub fn approx_bytes(&self) -> usize {
        // Per game: two option slices, its shape and weight, its interning
        // entry; per memo entry: key, value and the map's slack.
        const GAME: usize = 96;
        const MEMO: usize = 32;
        let memos = self.le_memo.len() + self.sum_memo.len() + self.neg_memo.len();
        self.len() * GAME + memos * MEMO
    }

    /// Drops the memos of comparisons, sums and negatives (refilled on
    /// demand); the games stay.
    pub fn forget_memos(&mut self) {
        self.le_memo = ShardedMap::default();
        self.sum_memo = ShardedMap::default();
        self.neg_memo = ShardedMap::default();
    }

    /// How many distinct games the arena holds.
    pub fn len(&self) -> usize {
        self.left.len()
    }

    pub fn is_empty(&self) -> bool {
        self.left.is_empty()
    }

    pub fn left(&self, g: GameId) -> &[GameId] {
        &self.left[g as usize]
    }

    pub fn right(&self, g: GameId) -> &[GameId] {
        &self.right[g as usize]
    }

    /// The size of the game's form (1 + its options' weights, saturating).
    pub fn weight(&self, g: GameId) -> u32 {
        self.weight[g as usize]
    }

    /// A hash of the game's canonical form (equal games, equal hashes, in
    /// any arena).
    pub fn shape(&self, g: GameId) -> u64 {
        self.shape[g as usize]
    }

    fn intern(&mut self, mut left: Vec<GameId>, mut right: Vec<GameId>) -> GameId {
        // Options ordered by shape: the same order in every arena.
        left.sort_unstable_by_key(|&g| (self.shape[g as usize], g));
        left.dedup();
        right.sort_unstable_by_key(|&g| (self.shape[g as usize], g));
        right.dedup();
        let key = (left.into_boxed_slice(), right.into_boxed_slice());
        if let Some(&id) = self.interned.get(&key) {
            return id;
        }
        let side = |options: &[GameId], salt: u64| {
            options.iter().fold(0u64, |acc, &g| {
                acc.wrapping_add(mix64(self.shape[g as usize] ^ salt))
            })
        };
        let shape = mix64(side(&key.0, 0x4C45_4654) ^ mix64(side(&key.1, 0x5249_4748)));
        let id = self.left.len() as GameId;
        self.left.push(key.0.clone());
        self.right.push(key.1.clone());
        self.shape.push(shape);
        let weight = key
            .0
            .iter()
            .chain(key.1.iter())
            .fold(1u32, |acc, &g| acc.saturating_add(self.weight[g as usize]));
        self.weight.push(weight);
        self.interned.insert(key, id);
        id
    }

    fn trim(&mut self) {
        if self.le_memo.len() > MEMO_LIMIT {
            self.le_memo.clear();
        }
        if self.sum_memo.len() > MEMO_LIMIT {
            self.sum_memo.clear();
        }
    }

    /// `a <= b`: Right, moving second in `b - a`, wins (or: no Left option
    /// of `a` is `>= b` and no Right option of `b` is `<= a`).
    pub fn le(&mut self, a: GameId, b: GameId) -> bool {
        if a == b {
            return true;
        }
        if let Some(&known) = self.le_memo.get(&(a, b)) {
            return known;
        }
        let mut result = true;
        for i in 0..self.left[a as usize].len() {
            let al = self.left[a as usize][i];
            if self.le(b, al) {
                result = false;
                break;
            }
        }
        if result {
            for i in 0..self.right[b as usize].len() {
                let br = self.right[b as usize][i];
                if self.le(br, a) {
                    result = false;
                    break;
                }
            }
        }
        self.le_memo.insert((a, b), result);
        result
    }

    /// `x <= G` (`temp_on_right`) or `G <= x`, where G = {tl | tr} is the
    /// game being canonicalised.
    fn cmp_temp(&mut self, x: GameId, temp_on_right: bool, tl: &[GameId], tr: &[GameId]) -> bool {
        if let Some(&known) = self.temp_memo.get(&(x, temp_on_right)) {
            return known;
        }
        let result = if temp_on_right {
            // x <= G: no x^L >= G, and no G^R <= x.
            let mut ok = true;
            for i in 0..self.left[x as usize].len() {
                let xl = self.left[x as usize][i];
                if self.cmp_temp(xl, false, tl, tr) {
                    ok = false;
                    break;
                }
            }
            ok && !tr.iter().any(|&gr| self.le(gr, x))
        } else {
            // G <= x: no G^L >= x, and no x^R <= G.
            let mut ok = !tl.iter().any(|&gl| self.le(x, gl));
            if ok {
                for i in 0..self.right[x as usize].len() {
                    let xr = self.right[x as usize][i];
                    if self.cmp_temp(xr, true, tl, tr) {
                        ok = false;
                        break;
                    }
                }
            }
            ok
        };
        self.temp_memo.insert((x, temp_on_right), result);
        result
    }

    /// The canonical form of { left | right } (options given canonical).
    pub fn canonical(&mut self, mut left: Vec<GameId>, mut right: Vec<GameId>) -> GameId {
        left.sort_unstable();
        left.dedup();
        right.sort_unstable();
        right.dedup();
        if left.is_empty() && right.is_empty() {
            return ZERO;
        }
        // Bypass reversible options, comparing with G as first given (any
        // form of the same value will do).
        let (gl, gr) = (left.clone(), right.clone());
        self.temp_memo.clear();
        loop {
            let mut changed = false;
            let mut next = Vec::with_capacity(left.len());
            for &a in &left {
                let options = self.right[a as usize].clone();
                let reversed = options
                    .iter()
                    .copied()
                    .find(|&ar| self.cmp_temp(ar, true, &gl, &gr));
                match reversed {
                    Some(ar) => {
                        next.extend_from_slice(&self.left[ar as usize]);
                        changed = true;
                    }
                    None => next.push(a),
                }
            }
            left = next;
            let mut next = Vec::with_capacity(right.len());
            for &b in &right {
                let options = self.left[b as usize].clone();
                let reversed = options
                    .iter()
                    .copied()
                    .find(|&bl| self.cmp_temp(bl, false, &gl, &gr));
                match reversed {
                    Some(bl) => {
                        next.extend_from_slice(&self.right[bl as usize]);
                        changed = true;
                    }
                    None => next.push(b),
                }
            }
            right = next;
            left.sort_unstable();
            left.dedup();
            right.sort_unstable();
            right.dedup();
            if !changed {
                break;
            }
        }
        self.temp_memo.clear();
        // Drop dominated options: Left keeps its maximal ones, Right its minimal.
        let keep_left: Vec<GameId> = left
            .iter()
            .copied()
            .filter(|&a| !left.iter().any(|&b| b != a && self.le(a, b)))
            .collect();
        let keep_right: Vec<GameId> = right
            .iter()
            .copied()
            .filter(|&a| !right.iter().any(|&b| b != a && self.le(b, a)))
            .collect();
        self.intern(keep_left, keep_right)
    }

    /// The canonical form of `a + b`.
    pub fn add(&mut self, a: GameId, b: GameId) -> GameId {
        if a == ZERO {
            return b;
        }
        if b == ZERO {
            return a;
        }
        let key = (a.min(b), a.max(b));
        if let Some(&s) = self.sum_memo.get(&key) {
            return s;
        }
        let mut left = Vec::new();
        let mut right = Vec::new();
        for i in 0..self.left[a as usize].len() {
            let al = self.left[a as usize][i];
            left.push(self.add(al, b));
        }
        for i in 0..self.left[b as usize].len() {
            let bl = self.left[b as usize][i];
            left.push(self.add(a, bl));
        }
        for i in 0..self.right[a as usize].len() {
            let ar = self.right[a as usize][i];
            right.push(self.add(ar, b));
        }
        for i in 0..self.right[b as usize].len() {
            let br = self.right[b as usize][i];
            right.push(self.add(a, br));
        }
        let s = self.canonical(left, right);
        self.trim();
        self.sum_memo.insert(key, s);
        s
    }

    /// `-g`: the roles of Left and Right swapped.
    pub fn neg(&mut self, g: GameId) -> GameId {
        if g == ZERO {
            return ZERO;
        }
        if let Some(&n) = self.neg_memo.get(&g) {
            return n;
        }
        let left: Vec<GameId> = (0..self.right[g as usize].len())
            .map(|i| self.right[g as usize][i])
            .collect::<Vec<_>>()
            .into_iter()
            .map(|r| self.neg(r))
            .collect();
        let right: Vec<GameId> = (0..self.left[g as usize].len())
            .map(|i| self.left[g as usize][i])
            .collect::<Vec<_>>()
            .into_iter()
            .map(|l| self.neg(l))
            .collect();
        // The negative of a canonical form is canonical.
        let n = self.intern(left, right);
        self.neg_memo.insert(g, n);
        self.neg_memo.insert(n, g);
        n
    }

    /// Whether Left wins `g` moving first.
    pub fn left_wins_first(&mut self, g: GameId) -> bool {
        !self.le(g, ZERO)
    }

    /// Whether Right wins `g` moving first.
    pub fn right_wins_first(&mut self, g: GameId) -> bool {
        !self.le(ZERO, g)
    }

    /// The integer `n`.
    pub fn integer(&mut self, n: i32) -> GameId {
        let mut g = ZERO;
        for _ in 0..n.unsigned_abs() {
            g = if n > 0 {
                self.canonical(vec![g], Vec::new())
            } else {
                self.canonical(Vec::new(), vec![g])
            };
        }
        g
    }

    /// The game { left | right } of given (canonical) options, canonicalised.
    pub fn game(&mut self, left: &[GameId], right: &[GameId]) -> GameId {
        self.canonical(left.to_vec(), right.to_vec())
    }

    /// The canonical form written out, e.g. `{0|*}`; 0, * and integers by name.
    pub fn text(&self, g: GameId) -> String {
        let (l, r) = (&self.left[g as usize], &self.right[g as usize]);
        if l.is_empty() && r.is_empty() {
            return "0".into();
        }
        if l.len() == 1 && r.len() == 1 && l[0] == ZERO && r[0] == ZERO {
            return "*".into();
        }
        let side = |options: &[GameId]| {
            options
                .iter()
                .map(|&o| self.text(o))
                .collect::<Vec<_>>()
                .join(",")
        };
        format!("{{{}|{}}}", side(l), side(r))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Who wins: (Left moving first, Right moving first).
    fn outcome(c: &mut Cgt, g: GameId) -> (bool, bool) {
        (c.left_wins_first(g), c.right_wins_first(g))
    }

    #[test]
    fn small_games_and_their_outcomes() {
        let mut c = Cgt::new();
        let one = c.integer(1);
        let minus_one = c.integer(-1);
        let star = c.game(&[ZERO], &[ZERO]);
        let up = c.game(&[ZERO], &[star]);
        let down = c.neg(up);
        let half = c.game(&[ZERO], &[one]);
        assert_eq!(c.text(up), "{0|*}");
        // Sizes of forms: 0 is one node, * = {0|0} three, up = {0|*} five.
        assert_eq!(
            (c.weight(ZERO), c.weight(star), c.weight(up), c.weight(down)),
            (1, 3, 5, 5)
        );
        assert_eq!(outcome(&mut c, ZERO), (false, false));
        assert_eq!(outcome(&mut c, one), (true, false));
        assert_eq!(outcome(&mut c, minus_one), (false, true));
        assert_eq!(outcome(&mut c, star), (true, true));
        // up is positive; up + star is fuzzy.
        assert_eq!(outcome(&mut c, up), (true, false));
        let up_star = c.add(up, star);
        assert_eq!(outcome(&mut c, up_star), (true, true));
        // Identities: * + * = 0, up + down = 0, 1/2 + 1/2 = 1, 1 + -1 = 0.
        assert_eq!(c.add(star, star), ZERO);
        assert_eq!(c.add(up, down), ZERO);
        assert_eq!(c.add(half, half), one);
        assert_eq!(c.add(one, minus_one), ZERO);
        // {0|0,1}: Right's 1 is dominated by 0, leaving *.
        let g = c.game(&[ZERO], &[ZERO, one]);
        assert_eq!(g, star);
        // {0,*|}: Left's * reverses through its Right option 0, leaving 1.
        let g = c.game(&[ZERO, star], &[]);
        assert_eq!(g, one);
        // 2 + -1 = 1 and {1|1} = 1* .
        let two = c.integer(2);
        assert_eq!(c.add(two, minus_one), one);
        let one_star = c.game(&[one], &[one]);
        assert_eq!(c.add(one, star), one_star);
        // up + up + star is positive (double up star > 0).
        let uu = c.add(up, up);
        let uus = c.add(uu, star);
        assert_eq!(outcome(&mut c, uus), (true, false));
    }

    #[test]
    fn shapes_do_not_depend_on_the_arena() {
        let mut a = Cgt::new();
        let mut b = Cgt::new();
        // Build the same games in different orders.
        let a_star = a.game(&[ZERO], &[ZERO]);
        let a_one = a.integer(1);
        let a_up = a.game(&[ZERO], &[a_star]);
        let b_one = b.integer(1);
        let b_two = b.integer(2);
        let b_star = b.game(&[ZERO], &[ZERO]);
        let b_up = b.game(&[ZERO], &[b_star]);
        let _ = b_two;
        assert_eq!(a.shape(a_up), b.shape(b_up));
        assert_eq!(a.shape(a_one), b.shape(b_one));
        assert_ne!(a.shape(a_up), a.shape(a_star));
    }
}

//! Who wins a sum of canonical games, found by searching the sum's moves
//! rather than by adding the terms into one canonical form.
//!
//! Adding canonical forms builds every option of the sum and then prunes
//! dominated and reversible ones, a quadratic number of comparisons each
//! time; MCTS playouts in Hadron ask for sums they have never met, and that
//! work was most of their cost. The outcome needs far less: one winning
//! move, or proof that none exists. Terms that are numbers are folded into
//! one dyadic rational (numbers add exactly), the rest is searched, and
//! every position of the search is remembered by its multiset of terms.

use super::cgt::{Cgt, GameId, ZERO};
use super::sharded::ShardedMap;
use crate::games::zobrist::mix64;

/// Dyadic rationals in fixed point: `ONE` is 1. Numbers finer than
/// 1/2^24 or beyond about 2^38 are searched as games (still exact).
const FRACTION_BITS: u32 = 24;
const ONE: i64 = 1 << FRACTION_BITS;
const LIMIT: i64 = 1 << 62;

/// The memo is emptied past this many positions.
const MEMO_LIMIT: usize = 4_000_000;

/// Outcomes of sums over the games of one [`Cgt`] arena (ids are the
/// arena's, so keep one of these per arena).
#[derive(Default)]
pub struct SumOutcomes {
    /// Per game id: not looked at yet (`None`), or its number value if it
    /// is a number.
    numbers: Vec<Option<Option<i64>>>,
    /// Whether the player to move wins, by the position's key.
    memo: ShardedMap<u128, bool>,
}

impl SumOutcomes {
    /// How many sum positions are remembered.
    pub fn len(&self) -> usize {
        self.memo.len()
    }

    pub fn is_empty(&self) -> bool {
        self.memo.is_empty()
    }

    /// Forgets the remembered positions (numbers stay).
    pub fn forget(&mut self) {
        self.memo = ShardedMap::default();
    }

    /// Whether the player moving first wins the sum of `terms` (Left =
    /// `left_first`): the same answer as adding them up and asking
    /// [`Cgt::left_wins_first`] or [`Cgt::right_wins_first`].
    pub fn first_player_wins(&mut self, cgt: &Cgt, terms: &[GameId], left_first: bool) -> bool {
        let mut games = Vec::with_capacity(terms.len());
        let mut number = 0i64;
        for &g in terms {
            self.place(cgt, g, &mut games, &mut number);
        }
        self.wins(cgt, &games, number, left_first)
    }

    /// Adds `g` to a position: into `number` if it is a number that fits,
    /// else into `games`, kept sorted.
    fn place(&mut self, cgt: &Cgt, g: GameId, games: &mut Vec<GameId>, number: &mut i64) {
        if g == ZERO {
            return;
        }
        if let Some(v) = self.number(cgt, g)
            && let Some(sum) = number.checked_add(v).filter(|s| s.abs() < LIMIT)
        {
            *number = sum;
            return;
        }
        let at = games.partition_point(|&h| h < g);
        games.insert(at, g);
    }

    /// Whether the player to move (Left = `left`) wins `games + number`.
    fn wins(&mut self, cgt: &Cgt, games: &[GameId], number: i64, left: bool) -> bool {
        if games.is_empty() {
            // A number: positive wins for Left, negative for Right, and
            // zero for whoever moves second.
            return if left { number > 0 } else { number < 0 };
        }
        let key = position_key(games, number, left);
        if let Some(&known) = self.memo.get(&key) {
            return known;
        }
        let mut won = false;
        // Moves in the games first: by number avoidance, when their sum is
        // not itself a number one of them wins whenever any move does.
        'search: for (i, &g) in games.iter().enumerate() {
            if i > 0 && games[i - 1] == g {
                continue;
            }
            let options = if left { cgt.left(g) } else { cgt.right(g) };
            for &option in options {
                let mut next = games.to_vec();
                next.remove(i);
                let mut next_number = number;
                self.place(cgt, option, &mut next, &mut next_number);
                if !self.wins(cgt, &next, next_number, !left) {
                    won = true;
                    break 'search;
                }
            }
        }
        // The number's own move, needed only where the games add up to a
        // number (e.g. * + *).
        if !won && let Some(after) = number_option(number, left) {
            won = !self.wins(cgt, games, after, !left);
        }
        if self.memo.len() >= MEMO_LIMIT {
            self.memo.clear();
        }
        self.memo.insert(key, won);
        won
    }

    /// The value of `g` if it is a number representable here.
    fn number(&mut self, cgt: &Cgt, g: GameId) -> Option<i64> {
        let i = g as usize;
        if self.numbers.len() <= i {
            self.numbers.resize(cgt.len().max(i + 1), None);
        }
        if let Some(known) = self.numbers[i] {
            return known;
        }
        let value = self.number_uncached(cgt, g);
        self.numbers[i] = Some(value);
        value
    }

    fn number_uncached(&mut self, cgt: &Cgt, g: GameId) -> Option<i64> {
        let (left, right) = (cgt.left(g), cgt.right(g));
        if left.len() > 1 || right.len() > 1 {
            return None;
        }
        let low = match left.first() {
            Some(&l) => Some(self.number(cgt, l)?),
            None => None,
        };
        let high = match right.first() {
            Some(&r) => Some(self.number(cgt, r)?),
            None => None,
        };
        if let (Some(a), Some(b)) = (low, high)
            && a >= b
        {
            return None;
        }
        simplest_between(low, high)
    }
}

/// The simplest number strictly between `low` and `high` (`None`: no bound
/// on that side), which is the value of {low | high} when low < high.
fn simplest_between(low: Option<i64>, high: Option<i64>) -> Option<i64> {
    match (low, high) {
        (Some(a), _) if a >= 0 => {
            let integer = (a.div_euclid(ONE) + 1) * ONE;
            if high.is_none_or(|b| integer < b) {
                return Some(integer);
            }
            let b = high?;
            (1..=FRACTION_BITS).find_map(|k| {
                let step = ONE >> k;
                let candidate = (a.div_euclid(step) + 1) * step;
                (candidate < b).then_some(candidate)
            })
        }
        (_, Some(b)) if b <= 0 => simplest_between(Some(-b), low.map(|a| -a)).map(|v| -v),
        _ => Some(0),
    }
}

/// The option of the number `x` in canonical form for Left (`left`) or
/// Right: n = {n-1 |} for n > 0, m/2^j = {(m-1)/2^j | (m+1)/2^j}.
fn number_option(x: i64, left: bool) -> Option<i64> {
    if x % ONE == 0 {
        return match (left, x.signum()) {
            (true, 1) => Some(x - ONE),
            (false, -1) => Some(x + ONE),
            _ => None,
        };
    }
    let step = x & x.wrapping_neg();
    Some(if left { x - step } else { x + step })
}

/// A 128-bit key of a position (sorted games, number, player to move).
fn position_key(games: &[GameId], number: i64, left: bool) -> u128 {
    // The mover flips a bit of the mixed number, never of the number
    // itself (which would alias x with x ^ 1 and the other mover).
    let seed = mix64(number as u64) ^ if left { 0x9E37_79B9_7F4A_7C15 } else { 0 };
    let (mut a, mut b) = (mix64(seed), mix64(seed ^ 0x5355_4D5F_4F55_5443));
    for &g in games {
        a = mix64(a ^ u64::from(g));
        b = mix64(b.wrapping_add(u64::from(g)).rotate_left(17));
    }
    (u128::from(a) << 64) | u128::from(b)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{RngExt, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    #[test]
    fn numbers_are_recognised_with_their_values() {
        let mut c = Cgt::new();
        let mut s = SumOutcomes::default();
        let one = c.integer(1);
        let two = c.integer(2);
        let minus_one = c.integer(-1);
        let half = c.game(&[ZERO], &[one]);
        let quarter = c.game(&[ZERO], &[half]);
        let three_quarters = c.game(&[half], &[one]);
        let star = c.game(&[ZERO], &[ZERO]);
        let up = c.game(&[ZERO], &[star]);
        for (g, v) in [
            (ZERO, Some(0)),
            (one, Some(ONE)),
            (two, Some(2 * ONE)),
            (minus_one, Some(-ONE)),
            (half, Some(ONE / 2)),
            (quarter, Some(ONE / 4)),
            (three_quarters, Some(3 * ONE / 4)),
            (star, None),
            (up, None),
        ] {
            assert_eq!(s.number(&c, g), v, "{}", c.text(g));
        }
        assert_eq!(number_option(ONE / 2, true), Some(0));
        assert_eq!(number_option(3 * ONE / 4, false), Some(ONE));
        assert_eq!(number_option(-2 * ONE, true), None);
        assert_eq!(number_option(-2 * ONE, false), Some(-ONE));
        assert_eq!(simplest_between(Some(-ONE), Some(ONE / 2)), Some(0));
        assert_eq!(
            simplest_between(Some(ONE / 4), Some(ONE / 2)),
            Some(3 * ONE / 8)
        );
        assert_eq!(
            simplest_between(Some(-ONE / 2), Some(-ONE / 4)),
            Some(-3 * ONE / 8)
        );
        assert_eq!(simplest_between(None, Some(-2 * ONE)), Some(-3 * ONE));
    }

    #[test]
    fn keys_tell_positions_apart() {
        let keys = [
            position_key(&[], 0, true),
            position_key(&[], 1, false),
            position_key(&[], 0, false),
            position_key(&[3], 0, true),
            position_key(&[3, 3], 0, true),
            position_key(&[3, 4], 0, true),
            position_key(&[4, 3], 0, true),
            position_key(&[3], ONE, true),
        ];
        for (i, a) in keys.iter().enumerate() {
            for b in &keys[i + 1..] {
                assert_ne!(a, b);
            }
        }
    }

    /// Random canonical games built from small ones, summed three to five
    /// at a time: the search agrees with the canonical sum on every one.
    #[test]
    fn agrees_with_canonical_sums_of_random_games() {
        let mut c = Cgt::new();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(29);
        let mut pool = vec![ZERO, c.integer(1), c.integer(-1), c.integer(2)];
        while pool.len() < 60 {
            let pick = |rng: &mut Xoshiro256PlusPlus, pool: &[GameId]| {
                let n = rng.random_range(0..3);
                (0..n)
                    .map(|_| pool[rng.random_range(0..pool.len())])
                    .collect::<Vec<_>>()
            };
            let (l, r) = (pick(&mut rng, &pool), pick(&mut rng, &pool));
            let g = c.game(&l, &r);
            if c.weight(g) <= 40 && !pool.contains(&g) {
                pool.push(g);
            }
        }
        let mut s = SumOutcomes::default();
        let (mut fuzzy, mut numbers) = (0, 0);
        for _ in 0..400 {
            let n = rng.random_range(1..=5);
            let terms: Vec<GameId> = (0..n)
                .map(|_| pool[rng.random_range(0..pool.len())])
                .collect();
            let sum = terms.iter().fold(ZERO, |acc, &t| c.add(acc, t));
            let expected = (c.left_wins_first(sum), c.right_wins_first(sum));
            let got = (
                s.first_player_wins(&c, &terms, true),
                s.first_player_wins(&c, &terms, false),
            );
            assert_eq!(
                got,
                expected,
                "{:?}",
                terms.iter().map(|&t| c.text(t)).collect::<Vec<_>>()
            );
            fuzzy += usize::from(expected == (true, true));
            numbers += usize::from(s.number(&c, sum).is_some());
        }
        // The sample has every kind: fuzzy sums and sums that are numbers.
        assert!(
            fuzzy > 20 && numbers > 20,
            "fuzzy {fuzzy}, numbers {numbers}"
        );
    }
}

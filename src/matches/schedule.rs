//! The game list of a match: which engines meet, who sits at p1, which
//! opening, for every game number; and the shards that split the list
//! between machines. Everything here is a pure function of the settings,
//! so a resumed run, a shard and a single run agree on what game N is.
//!
//! Games come in pairs (2k, 2k+1): the same two engines from the same
//! opening with the seats swapped, the first-listed engine of the pairing
//! at p1 in the first game. Pairs go round the pairings (every pair of
//! engines in a round robin, the first engine against each other one in a
//! gauntlet), and round r uses opening r (wrapping), so every pairing sees
//! the same openings and a match stopped early is still balanced.

/// Who meets whom.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Tournament {
    /// Every engine against every other one.
    RoundRobin,
    /// The first engine against each of the others.
    Gauntlet,
}

impl Tournament {
    pub fn name(self) -> &'static str {
        match self {
            Tournament::RoundRobin => "round-robin",
            Tournament::Gauntlet => "gauntlet",
        }
    }
}

/// The slice of the game list one run plays: shard `index` of `count`
/// (1-based), by game pair.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: u64,
    pub count: u64,
}

impl Shard {
    pub const WHOLE: Shard = Shard { index: 1, count: 1 };

    /// Reads `K/N` with 1 <= K <= N.
    pub fn parse(text: &str) -> Result<Shard, String> {
        let parsed = text
            .split_once('/')
            .and_then(|(k, n)| Some((k.trim().parse().ok()?, n.trim().parse().ok()?)));
        match parsed {
            Some((index, count)) if index >= 1 && index <= count => Ok(Shard { index, count }),
            _ => Err(format!(
                "--shard '{text}': expected K/N with 1 <= K <= N, e.g. 2/4"
            )),
        }
    }

    /// Whether game pair `pair` (0-based) belongs to this shard. Pairs are
    /// dealt in turn, so every shard gets every pairing and opening.
    pub fn holds_pair(&self, pair: u64) -> bool {
        pair % self.count == self.index - 1
    }

    pub fn is_whole(&self) -> bool {
        self.count == 1
    }

    pub fn describe(&self) -> String {
        format!("{}/{}", self.index, self.count)
    }
}

/// One game of the list.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Slot {
    /// The game number, 0-based (records show it 1-based).
    pub index: u64,
    /// The game pair, 0-based: games 2k and 2k+1 form pair k.
    pub pair: u64,
    /// The engines at p1 and p2 (indices into the engine list).
    pub p1: usize,
    pub p2: usize,
    /// Index into the openings.
    pub opening: usize,
}

impl Slot {
    /// The pairing of the game: its two engines, lower index first.
    pub fn pairing(&self) -> (usize, usize) {
        (self.p1.min(self.p2), self.p1.max(self.p2))
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Schedule {
    pub tournament: Tournament,
    pub engines: usize,
    /// Games of each pairing (even).
    pub games_per_pairing: u64,
    pub openings: usize,
}

impl Schedule {
    /// The pairings in their order: (0,1), (0,2), ..., (1,2), ... in a
    /// round robin; (0,1), (0,2), ... in a gauntlet.
    pub fn pairings(&self) -> Vec<(usize, usize)> {
        let mut pairings = Vec::new();
        for a in 0..self.engines {
            for b in a + 1..self.engines {
                if a == 0 || self.tournament == Tournament::RoundRobin {
                    pairings.push((a, b));
                }
            }
        }
        pairings
    }

    /// Games in the whole match.
    pub fn total(&self) -> u64 {
        self.pairings().len() as u64 * self.games_per_pairing
    }

    /// Game `index` of the list.
    pub fn slot(&self, index: u64) -> Slot {
        let pairings = self.pairings();
        let pair = index / 2;
        let count = pairings.len().max(1) as u64;
        let round = pair / count;
        let (a, b) = pairings
            .get((pair % count) as usize)
            .copied()
            .unwrap_or((0, 1));
        let (p1, p2) = if index.is_multiple_of(2) {
            (a, b)
        } else {
            (b, a)
        };
        Slot {
            index,
            pair,
            p1,
            p2,
            opening: (round % self.openings.max(1) as u64) as usize,
        }
    }

    /// How many games one shard plays.
    pub fn count_of(&self, shard: Shard) -> u64 {
        let pairs = self.total() / 2;
        let ahead = shard.index - 1;
        let held = if pairs > ahead {
            (pairs - ahead).div_ceil(shard.count)
        } else {
            0
        };
        held * 2
    }

    /// The game numbers of one shard, in order.
    pub fn games_of(&self, shard: Shard) -> Vec<u64> {
        (0..self.total())
            .filter(|&index| shard.holds_pair(index / 2))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn schedule(tournament: Tournament, engines: usize, games: u64) -> Schedule {
        Schedule {
            tournament,
            engines,
            games_per_pairing: games,
            openings: 3,
        }
    }

    #[test]
    fn two_engines_alternate_seats_and_walk_the_openings() {
        let s = schedule(Tournament::RoundRobin, 2, 8);
        assert_eq!(s.total(), 8);
        let slots: Vec<_> = (0..8).map(|i| s.slot(i)).collect();
        assert_eq!(
            slots.iter().map(|g| (g.p1, g.p2)).collect::<Vec<_>>(),
            [
                (0, 1),
                (1, 0),
                (0, 1),
                (1, 0),
                (0, 1),
                (1, 0),
                (0, 1),
                (1, 0)
            ]
        );
        assert_eq!(
            slots.iter().map(|g| g.opening).collect::<Vec<_>>(),
            [0, 0, 1, 1, 2, 2, 0, 0]
        );
    }

    #[test]
    fn round_robin_meets_every_pairing_equally_with_seats_swapped() {
        let s = schedule(Tournament::RoundRobin, 4, 6);
        assert_eq!(s.pairings().len(), 6);
        assert_eq!(s.total(), 36);
        let mut games = std::collections::HashMap::new();
        for i in 0..s.total() {
            let g = s.slot(i);
            assert_ne!(g.p1, g.p2);
            *games.entry((g.p1, g.p2)).or_insert(0) += 1;
            // Both games of a pair: same engines, same opening, seats swapped.
            let other = s.slot(i ^ 1);
            assert_eq!((other.p1, other.p2, other.opening), (g.p2, g.p1, g.opening));
        }
        // Each ordered seating 3 times: 6 games per pairing.
        assert_eq!(games.len(), 12);
        assert!(games.values().all(|&n| n == 3));
    }

    #[test]
    fn gauntlet_plays_the_first_engine_against_the_rest() {
        let s = schedule(Tournament::Gauntlet, 4, 4);
        assert_eq!(s.pairings(), [(0, 1), (0, 2), (0, 3)]);
        assert_eq!(s.total(), 12);
        for i in 0..s.total() {
            let g = s.slot(i);
            assert!(g.p1 == 0 || g.p2 == 0);
        }
    }

    #[test]
    fn shards_split_the_list_exactly_once_by_pair() {
        let s = schedule(Tournament::RoundRobin, 3, 10);
        let mut seen = vec![0; s.total() as usize];
        for index in 1..=4 {
            let shard = Shard { index, count: 4 };
            let games = s.games_of(shard);
            for &g in &games {
                seen[g as usize] += 1;
                // A pair is never split.
                assert!(games.contains(&(g ^ 1)));
            }
        }
        assert!(seen.iter().all(|&n| n == 1));
        assert_eq!(s.games_of(Shard::WHOLE).len() as u64, s.total());
        for count in 1..=7 {
            for index in 1..=count {
                let shard = Shard { index, count };
                assert_eq!(
                    s.count_of(shard),
                    s.games_of(shard).len() as u64,
                    "{index}/{count}"
                );
            }
        }
        assert_eq!(Shard::parse("2/4"), Ok(Shard { index: 2, count: 4 }));
        for bad in ["0/4", "5/4", "x", "1/0", "1-2"] {
            assert!(Shard::parse(bad).is_err(), "{bad}");
        }
    }
}

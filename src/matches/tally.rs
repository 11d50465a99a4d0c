//! The results so far: per pairing of engines (W/D/L and complete game
//! pairs from the first-listed engine's side), seats, endings and
//! forfeits. Games come from a running match or from record files, in any
//! order.

use super::referee::Reason;
use super::stats::{Pentanomial, Trinomial};
use crate::games::{Outcome, Seat};
use std::collections::{BTreeMap, HashMap};

/// Where a game pair belongs: the match (0 for a running one; records of
/// different matches get different numbers) and its pair number.
pub type PairKey = (usize, u64);

/// One finished game, as the tally counts it.
#[derive(Clone, Debug)]
pub struct Finished {
    pub pair: PairKey,
    /// The engines at p1 and p2 (indices into the tally's names).
    pub p1: usize,
    pub p2: usize,
    pub outcome: Outcome,
    pub reason: Reason,
    pub disagreements: bool,
}

/// The games of two engines a < b, from a's side.
#[derive(Debug, Default, Clone)]
pub struct Pairing {
    pub trinomial: Trinomial,
    /// Complete pairs only.
    pub pentanomial: Pentanomial,
    /// Half points of a in the finished game of each half-done pair.
    open_pairs: HashMap<PairKey, u8>,
}

#[derive(Debug, Default)]
pub struct Tally {
    pub names: Vec<String>,
    pub pairings: BTreeMap<(usize, usize), Pairing>,
    /// Wins of p1, wins of p2, draws.
    pub by_seat: [u64; 3],
    /// Games per ending.
    pub by_reason: BTreeMap<Reason, u64>,
    /// Forfeits per (losing engine, reason).
    pub forfeits: BTreeMap<(String, Reason), u64>,
    /// Games with at least one cross-check disagreement.
    pub disagreeing_games: u64,
}

impl Tally {
    pub fn new(names: Vec<String>) -> Tally {
        Tally {
            names,
            ..Tally::default()
        }
    }

    pub fn games(&self) -> u64 {
        self.pairings.values().map(|p| p.trinomial.games()).sum()
    }

    pub fn complete_pairs(&self) -> u64 {
        self.pairings.values().map(|p| p.pentanomial.pairs()).sum()
    }

    /// The games of engines 0 and 1 (the whole match when there are two).
    pub fn head_to_head(&self) -> Pairing {
        self.pairings.get(&(0, 1)).cloned().unwrap_or_default()
    }

    /// Engine `k`'s results against everyone, from its side.
    pub fn of_engine(&self, k: usize) -> Trinomial {
        let mut total = Trinomial::default();
        for (&(a, b), pairing) in &self.pairings {
            let t = &pairing.trinomial;
            if a == k {
                total.wins += t.wins;
                total.draws += t.draws;
                total.losses += t.losses;
            } else if b == k {
                total.wins += t.losses;
                total.draws += t.draws;
                total.losses += t.wins;
            }
        }
        total
    }

    pub fn add(&mut self, game: &Finished) {
        let (a, b) = (game.p1.min(game.p2), game.p1.max(game.p2));
        let a_seat = if game.p1 == a { Seat::P1 } else { Seat::P2 };
        let half_points = match game.outcome {
            Outcome::Win(seat) if seat == a_seat => 2,
            Outcome::Win(_) => 0,
            Outcome::Draw => 1,
        };
        let pairing = self.pairings.entry((a, b)).or_default();
        pairing.trinomial.add(half_points);
        match pairing.open_pairs.remove(&game.pair) {
            Some(other) => pairing.pentanomial.add(other + half_points),
            None => {
                pairing.open_pairs.insert(game.pair, half_points);
            }
        }
        match game.outcome {
            Outcome::Win(Seat::P1) => self.by_seat[0] += 1,
            Outcome::Win(Seat::P2) => self.by_seat[1] += 1,
            Outcome::Draw => self.by_seat[2] += 1,
        }
        *self.by_reason.entry(game.reason).or_default() += 1;
        if game.reason.is_forfeit() {
            // The loser; a forfeit is a draw only when neither engine
            // could start, and then both are charged.
            let losers: Vec<usize> = match half_points {
                0 => vec![a],
                2 => vec![b],
                _ => vec![a, b],
            };
            for k in losers {
                let name = self.names.get(k).cloned().unwrap_or_default();
                *self.forfeits.entry((name, game.reason)).or_default() += 1;
            }
        }
        if game.disagreements {
            self.disagreeing_games += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(pair: u64, p1: usize, p2: usize, outcome: Outcome) -> Finished {
        Finished {
            pair: (0, pair),
            p1,
            p2,
            outcome,
            reason: Reason::Rules,
            disagreements: false,
        }
    }

    #[test]
    fn pairings_count_from_the_lower_engine_and_pairs_complete_in_any_order() {
        let mut tally = Tally::new(vec!["a".into(), "b".into(), "c".into()]);
        // Pair 0 (a, b): a wins as p1, then b wins as p1 -> 1 point for a.
        tally.add(&game(0, 1, 0, Outcome::Win(Seat::P1)));
        tally.add(&game(1, 2, 0, Outcome::Draw));
        tally.add(&game(0, 0, 1, Outcome::Win(Seat::P1)));
        let ab = &tally.pairings[&(0, 1)];
        assert_eq!((ab.trinomial.wins, ab.trinomial.losses), (1, 1));
        assert_eq!(ab.pentanomial.counts, [0, 0, 1, 0, 0]);
        let ac = &tally.pairings[&(0, 2)];
        assert_eq!(ac.trinomial.draws, 1);
        assert_eq!(ac.pentanomial.pairs(), 0);
        assert_eq!(tally.games(), 3);
        assert_eq!(tally.complete_pairs(), 1);
        let a = tally.of_engine(0);
        assert_eq!((a.wins, a.draws, a.losses), (1, 1, 1));
        let b = tally.of_engine(1);
        assert_eq!((b.wins, b.draws, b.losses), (1, 0, 1));
        assert_eq!(tally.by_seat, [2, 0, 1]);
    }
}

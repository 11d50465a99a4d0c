//! The results so far, from engine A's side: games, complete pairs, seats,
//! endings and forfeits.

use super::referee::{GameResult, Reason};
use super::spec::EngineSpec;
use super::stats::{Pentanomial, Trinomial};
use super::{engine_at_p1, opening_pair};
use crate::games::{Outcome, Seat};
use std::collections::{BTreeMap, HashMap};

#[derive(Debug, Default)]
pub struct Tally {
    pub trinomial: Trinomial,
    /// Complete pairs only.
    pub pentanomial: Pentanomial,
    /// Half points of A in the finished game of each half-done pair.
    open_pairs: HashMap<u64, u8>,
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
    pub fn games(&self) -> u64 {
        self.trinomial.games()
    }

    /// Counts game `index` (see [`engine_at_p1`] for the seating).
    pub fn add(&mut self, index: u64, result: &GameResult, engines: &[EngineSpec; 2]) {
        let a_seat = if engine_at_p1(index) == 0 {
            Seat::P1
        } else {
            Seat::P2
        };
        let half_points = match result.outcome {
            Outcome::Win(seat) if seat == a_seat => 2,
            Outcome::Win(_) => 0,
            Outcome::Draw => 1,
        };
        self.trinomial.add(half_points);
        let pair = opening_pair(index);
        match self.open_pairs.remove(&pair) {
            Some(other) => self.pentanomial.add(other + half_points),
            None => {
                self.open_pairs.insert(pair, half_points);
            }
        }
        match result.outcome {
            Outcome::Win(Seat::P1) => self.by_seat[0] += 1,
            Outcome::Win(Seat::P2) => self.by_seat[1] += 1,
            Outcome::Draw => self.by_seat[2] += 1,
        }
        *self.by_reason.entry(result.reason).or_default() += 1;
        if result.reason.is_forfeit() {
            // The loser; a forfeit is a draw only when neither engine
            // could start, and then both are charged.
            let losers: Vec<usize> = match half_points {
                0 => vec![0],
                2 => vec![1],
                _ => vec![0, 1],
            };
            for k in losers {
                *self
                    .forfeits
                    .entry((engines[k].name.clone(), result.reason))
                    .or_default() += 1;
            }
        }
        if !result.disagreements.is_empty() {
            self.disagreeing_games += 1;
        }
    }
}

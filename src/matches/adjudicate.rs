//! Score adjudication (`--adjudicate-draw`, `--adjudicate-resign`): a game
//! ends early when both engines' own evaluations agree for long enough.
//! Each engine's score is the last `info ... score cp X` (or `score mate
//! N`) it wrote before its `bestmove`, from its own point of view.

use super::referee::Reason;
use crate::games::{Outcome, Seat};

/// A mate score counts as this many centipawns.
const MATE_CP: i64 = 1_000_000;

/// `score=S moves=K`: a bound in centipawns and how many moves of each
/// engine in a row must keep to it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ScoreRule {
    pub score: i64,
    pub moves: u32,
}

impl ScoreRule {
    /// Reads `score=S moves=K` (both needed, S >= 0, K >= 1); `flag` names
    /// the option in messages.
    pub fn parse(flag: &str, text: &str) -> Result<ScoreRule, String> {
        let (mut score, mut moves) = (None, None);
        for item in text.split([' ', ',']).filter(|s| !s.is_empty()) {
            let parsed = item.split_once('=').and_then(|(key, value)| {
                let value = value.trim();
                match key.trim() {
                    "score" => value
                        .parse()
                        .ok()
                        .filter(|s: &i64| *s >= 0)
                        .map(|s| score = Some(s)),
                    "moves" => value
                        .parse()
                        .ok()
                        .filter(|k: &u32| *k >= 1)
                        .map(|k| moves = Some(k)),
                    _ => None,
                }
            });
            if parsed.is_none() {
                return Err(format!(
                    "{flag} '{text}': '{item}' is not score=CENTIPAWNS (0 or more) or moves=K (1 or more)"
                ));
            }
        }
        match (score, moves) {
            (Some(score), Some(moves)) => Ok(ScoreRule { score, moves }),
            _ => Err(format!(
                "{flag} '{text}': expected \"score=S moves=K\", e.g. \"score=10 moves=8\""
            )),
        }
    }

    pub fn describe(&self) -> String {
        format!("score={} moves={}", self.score, self.moves)
    }
}

/// The score in an `info` line, in centipawns (mates as ±[`MATE_CP`]).
pub fn info_score(line: &str) -> Option<i64> {
    let mut words = line.split_whitespace();
    if words.next() != Some("info") {
        return None;
    }
    while let Some(word) = words.next() {
        // `string` takes the rest of the line as free text.
        if word == "string" {
            return None;
        }
        if word == "score" {
            let kind = words.next()?;
            let value: i64 = words.next()?.parse().ok()?;
            return match kind {
                "cp" => Some(value),
                "mate" if value > 0 => Some(MATE_CP),
                "mate" => Some(-MATE_CP),
                _ => None,
            };
        }
    }
    None
}

/// How long each engine's scores have kept to the rules' bounds.
#[derive(Clone, Debug, Default)]
pub struct Adjudicator {
    pub draw: Option<ScoreRule>,
    pub resign: Option<ScoreRule>,
    /// Moves in a row of each seat within ±draw.score.
    level: [u32; 2],
    /// Moves in a row of each seat at or above +resign.score.
    winning: [u32; 2],
    /// Moves in a row of each seat at or below −resign.score.
    losing: [u32; 2],
}

impl Adjudicator {
    pub fn new(draw: Option<ScoreRule>, resign: Option<ScoreRule>) -> Adjudicator {
        Adjudicator {
            draw,
            resign,
            ..Adjudicator::default()
        }
    }

    /// Counts a move of `seat` that came with `score` (None: the engine
    /// reported no score, which breaks every run).
    pub fn record(&mut self, seat: Seat, score: Option<i64>) {
        let k = seat.index();
        let step = |run: &mut u32, holds: bool| *run = if holds { *run + 1 } else { 0 };
        let draw = self.draw.map_or(0, |r| r.score);
        let resign = self.resign.map_or(0, |r| r.score);
        step(&mut self.level[k], score.is_some_and(|s| s.abs() <= draw));
        step(&mut self.winning[k], score.is_some_and(|s| s >= resign));
        step(&mut self.losing[k], score.is_some_and(|s| s <= -resign));
    }

    /// The adjudicated end, if the scores call for one.
    pub fn verdict(&self, names: [&str; 2]) -> Option<(Outcome, Reason, String)> {
        if let Some(rule) = self.resign {
            for loser in [Seat::P1, Seat::P2] {
                let winner = loser.other();
                if self.losing[loser.index()] >= rule.moves
                    && self.winning[winner.index()] >= rule.moves
                {
                    let detail = format!(
                        "{} scored <= -{} cp and {} >= +{} cp for {} moves each",
                        names[loser.index()],
                        rule.score,
                        names[winner.index()],
                        rule.score,
                        rule.moves
                    );
                    return Some((Outcome::Win(winner), Reason::AdjudicatedResign, detail));
                }
            }
        }
        if let Some(rule) = self.draw
            && self.level.iter().all(|&n| n >= rule.moves)
        {
            let detail = format!(
                "both engines scored within ±{} cp for {} moves each",
                rule.score, rule.moves
            );
            return Some((Outcome::Draw, Reason::AdjudicatedDraw, detail));
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_and_scores_are_read() {
        assert_eq!(
            ScoreRule::parse("--adjudicate-draw", "score=10 moves=8"),
            Ok(ScoreRule {
                score: 10,
                moves: 8
            })
        );
        for bad in [
            "score=10",
            "moves=3",
            "score=-1 moves=3",
            "score=5 moves=0",
            "x=1",
            "",
        ] {
            assert!(ScoreRule::parse("--adjudicate-draw", bad).is_err(), "{bad}");
        }
        assert_eq!(
            info_score("info depth 3 score cp -42 nodes 100 pv a1"),
            Some(-42)
        );
        assert_eq!(info_score("info depth 9 score mate 3 pv a1"), Some(MATE_CP));
        assert_eq!(info_score("info depth 9 score mate -2"), Some(-MATE_CP));
        assert_eq!(info_score("info string score cp 5"), None);
        assert_eq!(info_score("bestmove a1"), None);
    }

    #[test]
    fn a_draw_needs_both_engines_level_for_k_moves_in_a_row() {
        let rule = ScoreRule {
            score: 10,
            moves: 2,
        };
        let mut a = Adjudicator::new(Some(rule), None);
        let names = ["x", "y"];
        a.record(Seat::P1, Some(5));
        a.record(Seat::P2, Some(-10));
        a.record(Seat::P1, Some(0));
        assert!(a.verdict(names).is_none(), "p2 has one level move only");
        a.record(Seat::P2, Some(11));
        a.record(Seat::P1, Some(3));
        assert!(a.verdict(names).is_none(), "p2's run was broken");
        a.record(Seat::P2, Some(1));
        a.record(Seat::P1, None);
        a.record(Seat::P2, Some(2));
        assert!(
            a.verdict(names).is_none(),
            "a move without a score breaks the run"
        );
        a.record(Seat::P1, Some(1));
        a.record(Seat::P2, Some(1));
        a.record(Seat::P1, Some(1));
        let (outcome, reason, _) = a.verdict(names).unwrap();
        assert_eq!((outcome, reason), (Outcome::Draw, Reason::AdjudicatedDraw));
    }

    #[test]
    fn resignation_needs_both_engines_to_agree() {
        let rule = ScoreRule {
            score: 500,
            moves: 2,
        };
        let mut a = Adjudicator::new(None, Some(rule));
        for _ in 0..3 {
            a.record(Seat::P1, Some(600));
            a.record(Seat::P2, Some(-100));
        }
        assert!(
            a.verdict(["x", "y"]).is_none(),
            "p2 does not see itself lost"
        );
        a.record(Seat::P1, Some(600));
        a.record(Seat::P2, Some(-MATE_CP));
        a.record(Seat::P1, Some(700));
        a.record(Seat::P2, Some(-550));
        let (outcome, reason, detail) = a.verdict(["x", "y"]).unwrap();
        assert_eq!(
            (outcome, reason),
            (Outcome::Win(Seat::P1), Reason::AdjudicatedResign)
        );
        assert!(detail.starts_with("y scored <= -500 cp"), "{detail}");
    }
}

//! `--pgn FILE`: each finished game as PGN, in the layout cutegames writes
//! (the seven-tag roster with p1 as White, then `FEN`, an `Adjudicated`
//! tag for a game not ended by the rules, `Winner`/`Loser`, `PlyCount`;
//! moves numbered in pairs, `1...` first when p2 moved first), plus the
//! standard `SetUp`, `TimeControl` and `Termination` tags. The moves are
//! the game's own move texts; the `FEN` is the game's position text,
//! written only when the game did not start from the start position.

use super::referee::{GameResult, Reason};
use super::spec::TimeControl;
use crate::games::{Outcome, Seat};
use std::fmt::Write as _;
use std::time::{SystemTime, UNIX_EPOCH};

/// Movetext lines are wrapped before this many characters (PGN's export
/// format keeps lines under 80).
const LINE_WIDTH: usize = 79;

/// One game and what its tags need.
pub struct PgnGame<'a> {
    pub event: &'a str,
    /// The game number (1-based).
    pub round: u64,
    /// `YYYY.MM.DD`.
    pub date: String,
    /// The engines at p1 (White) and p2 (Black).
    pub white: &'a str,
    pub black: &'a str,
    pub tc: TimeControl,
    pub result: &'a GameResult,
}

/// The PGN result token.
pub fn result_token(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::Win(Seat::P1) => "1-0",
        Outcome::Win(Seat::P2) => "0-1",
        Outcome::Draw => "1/2-1/2",
    }
}

/// The standard `Termination` value of an ending.
fn termination(reason: Reason) -> &'static str {
    match reason {
        Reason::Rules => "normal",
        Reason::MaxPlies | Reason::AdjudicatedDraw | Reason::AdjudicatedResign => "adjudication",
        Reason::IllegalMove | Reason::Malformed => "rules infraction",
        Reason::Crash | Reason::StartFailure => "abandoned",
        Reason::Timeout | Reason::TimeForfeit => "time forfeit",
    }
}

/// cutegames' `Adjudicated` text for an ending not decided by the rules.
fn adjudicated(reason: Reason) -> Option<&'static str> {
    match reason {
        Reason::Rules => None,
        Reason::MaxPlies => Some("Maximum game length"),
        Reason::AdjudicatedDraw => Some("Draw by score"),
        Reason::AdjudicatedResign => Some("Resigned"),
        Reason::IllegalMove | Reason::Malformed => Some("Illegal move"),
        Reason::Crash | Reason::StartFailure => Some("Crashed"),
        Reason::Timeout | Reason::TimeForfeit => Some("Out of time"),
    }
}

/// The PGN `TimeControl` value: `T+I` in seconds for a clock, `1/S` for a
/// fixed time per move, `-` for node and depth limits.
pub fn time_control(tc: TimeControl) -> String {
    let seconds = |ms: u64| {
        let text = format!("{:.3}", ms as f64 / 1000.0);
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    };
    match tc {
        TimeControl::Clock { base_ms, inc_ms } => {
            format!("{}+{}", seconds(base_ms), seconds(inc_ms))
        }
        TimeControl::MoveTime(ms) => format!("1/{}", seconds(ms)),
        TimeControl::Nodes(_) | TimeControl::Depth(_) => "-".to_string(),
    }
}

/// A tag value: `\` and `"` escaped, one line.
fn tag_value(text: &str) -> String {
    text.replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace(['\n', '\r'], " ")
}

/// Today's UTC date as `YYYY.MM.DD`.
pub fn today() -> String {
    let days = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() / 86_400) as i64;
    let (y, m, d) = civil_from_days(days);
    format!("{y:04}.{m:02}.{d:02}")
}

/// The proleptic Gregorian date of a day count since 1970-01-01 (Howard
/// Hinnant's `civil_from_days`).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

/// The game as PGN text, ending with a blank line.
pub fn format(game: &PgnGame) -> String {
    let result = game.result;
    let token = result_token(result.outcome);
    let mut tags: Vec<(&str, String)> = vec![
        ("Event", game.event.to_string()),
        ("Site", "quintet".to_string()),
        ("Date", game.date.clone()),
        ("Round", game.round.to_string()),
        ("White", game.white.to_string()),
        ("Black", game.black.to_string()),
        ("Result", token.to_string()),
    ];
    if let Some(start) = &result.start {
        tags.push(("SetUp", "1".to_string()));
        tags.push(("FEN", start.clone()));
    }
    tags.push(("TimeControl", time_control(game.tc)));
    tags.push(("Termination", termination(result.reason).to_string()));
    if let Some(text) = adjudicated(result.reason) {
        tags.push(("Adjudicated", text.to_string()));
    }
    if let Outcome::Win(winner) = result.outcome {
        let (w, l) = match winner {
            Seat::P1 => (game.white, game.black),
            Seat::P2 => (game.black, game.white),
        };
        tags.push(("Winner", w.to_string()));
        tags.push(("Loser", l.to_string()));
    }
    tags.push(("PlyCount", result.moves.len().to_string()));
    let mut out = String::new();
    for (name, value) in tags {
        let _ = writeln!(out, "[{name} \"{}\"]", tag_value(&value));
    }
    out.push('\n');
    // The movetext as tokens, then wrapped.
    let mut tokens = Vec::new();
    // Plies count from p1's first move, so p2's first move is ply 1.
    let first = usize::from(result.first_mover == Seat::P2);
    if first == 1 && !result.moves.is_empty() {
        tokens.push("1...".to_string());
    }
    for (ply, mv) in (first..).zip(&result.moves) {
        if ply.is_multiple_of(2) {
            tokens.push(format!("{}.", ply / 2 + 1));
        }
        tokens.push(mv.clone());
    }
    if !result.detail.is_empty() {
        let detail = result
            .detail
            .replace(['{', '}'], "")
            .replace(['\n', '\r'], " ");
        tokens.push(format!("{{{detail}}}"));
    }
    tokens.push(token.to_string());
    let mut line = String::new();
    for token in tokens {
        if !line.is_empty() && line.len() + 1 + token.len() > LINE_WIDTH {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&token);
    }
    out.push_str(&line);
    out.push_str("\n\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(
        outcome: Outcome,
        reason: Reason,
        moves: &[&str],
        start: Option<&str>,
        first: Seat,
    ) -> GameResult {
        GameResult {
            outcome,
            reason,
            detail: String::new(),
            start: start.map(str::to_string),
            first_mover: first,
            moves: moves.iter().map(|m| m.to_string()).collect(),
            time_ms: [0, 0],
            final_text: String::new(),
            disagreements: Vec::new(),
        }
    }

    fn game<'a>(result: &'a GameResult, tc: TimeControl) -> PgnGame<'a> {
        PgnGame {
            event: "quintet match",
            round: 3,
            date: "2025.01.31".into(),
            white: "mcts",
            black: "random \"r\"",
            tc,
            result,
        }
    }

    #[test]
    fn a_game_from_the_start_position() {
        let r = result(
            Outcome::Win(Seat::P1),
            Reason::Rules,
            &["c3", "d4", "a1"],
            None,
            Seat::P1,
        );
        let text = format(&game(
            &r,
            TimeControl::Clock {
                base_ms: 10_000,
                inc_ms: 100,
            },
        ));
        assert_eq!(
            text,
            "[Event \"quintet match\"]\n[Site \"quintet\"]\n[Date \"2025.01.31\"]\n[Round \"3\"]\n\
             [White \"mcts\"]\n[Black \"random \\\"r\\\"\"]\n[Result \"1-0\"]\n\
             [TimeControl \"10+0.1\"]\n[Termination \"normal\"]\n[Winner \"mcts\"]\n\
             [Loser \"random \\\"r\\\"\"]\n[PlyCount \"3\"]\n\n1. c3 d4 2. a1 1-0\n\n"
        );
    }

    #[test]
    fn a_set_up_game_adjudicated_with_p2_first() {
        let mut r = result(
            Outcome::Draw,
            Reason::MaxPlies,
            &["b2", "c3", "d4"],
            Some("5/5/5/5/5 b"),
            Seat::P2,
        );
        r.detail = "3 plies {without} a result".into();
        let text = format(&game(&r, TimeControl::MoveTime(50)));
        assert!(
            text.contains("[SetUp \"1\"]\n[FEN \"5/5/5/5/5 b\"]\n[TimeControl \"1/0.05\"]\n"),
            "{text}"
        );
        assert!(text.contains("[Termination \"adjudication\"]\n[Adjudicated \"Maximum game length\"]\n[PlyCount \"3\"]"));
        assert!(!text.contains("Winner"));
        assert!(
            text.ends_with("\n1... b2 2. c3 d4 {3 plies without a result} 1/2-1/2\n\n"),
            "{text}"
        );
    }

    #[test]
    fn long_games_wrap_and_dates_are_civil() {
        let moves: Vec<String> = (0..60).map(|i| format!("m{i}")).collect();
        let moves: Vec<&str> = moves.iter().map(String::as_str).collect();
        let r = result(
            Outcome::Win(Seat::P2),
            Reason::IllegalMove,
            &moves,
            None,
            Seat::P1,
        );
        let text = format(&game(&r, TimeControl::Nodes(100)));
        assert!(text.contains("[TimeControl \"-\"]\n[Termination \"rules infraction\"]\n[Adjudicated \"Illegal move\"]"));
        let movetext = text.split("\n\n").nth(1).unwrap();
        assert!(movetext.lines().count() > 1);
        assert!(movetext.lines().all(|l| l.len() < 80));
        assert!(movetext.starts_with("1. m0 m1 2. m2") && movetext.ends_with("30. m58 m59 0-1"));
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(19_723), (2024, 1, 1));
        assert_eq!(civil_from_days(19_782), (2024, 2, 29));
        assert_eq!(civil_from_days(-1), (1969, 12, 31));
    }
}

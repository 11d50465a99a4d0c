//! Input lines parsed into typed commands before the driver acts on them.
//! Parsing never fails: a line that is not understood becomes
//! [`Command::Invalid`] with the reason.

use crate::search::Limits;

#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// Nothing to do (an empty line).
    Nothing,
    Ugi,
    /// The same handshake for UCI clients, ending in `uciok`.
    Uci,
    IsReady,
    SetOption {
        name: String,
        value: String,
    },
    NewGame,
    Position {
        /// A position text, or `None` for the start position.
        text: Option<String>,
        moves: Vec<String>,
    },
    Go {
        limits: Limits,
        warnings: Vec<String>,
    },
    Perft {
        depth: u32,
        split: bool,
    },
    Stop,
    Query(Query),
    /// `d`: the board as text; `d svg [FILE]`: as SVG.
    Display(Board),
    Quit,
    /// Not understood; the reason.
    Invalid(String),
    /// A `position` command not understood: the position asked for is
    /// unknown, so searching is refused until a valid one arrives.
    InvalidPosition(String),
}

/// How `d` shows the board.
#[derive(Clone, Debug, PartialEq)]
pub enum Board {
    Text,
    /// One SVG line in `info string`, or written to the file.
    Svg(Option<String>),
}

#[derive(Clone, Debug, PartialEq)]
pub enum Query {
    GameOver,
    P1Turn,
    Result,
    Moves,
    Fen,
    IsLegal(String),
    Game,
    /// Not understood (every query still gets one `response`): the reason.
    Unknown(String),
}

/// Perft depths beyond this are refused (they would run for ages).
pub const MAX_PERFT_DEPTH: u32 = 64;

pub fn parse(line: &str) -> Command {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let Some(first) = tokens.first() else {
        return Command::Nothing;
    };
    let args = &tokens[1..];
    match first.to_ascii_lowercase().as_str() {
        "ugi" => Command::Ugi,
        "uci" => Command::Uci,
        "isready" => Command::IsReady,
        "setoption" => setoption(args),
        "uginewgame" | "ucinewgame" => Command::NewGame,
        "position" => position(args),
        "go" => go(args),
        "stop" => Command::Stop,
        "query" => Command::Query(query(args)),
        "d" => display(args),
        "perft" => perft(args, false),
        "splitperft" => perft(args, true),
        "quit" => Command::Quit,
        _ => Command::Invalid(format!("unknown command '{}'", line.trim())),
    }
}

fn display(args: &[&str]) -> Command {
    match args {
        [] => Command::Display(Board::Text),
        [kind, file @ ..] if kind.eq_ignore_ascii_case("svg") => {
            let file = (!file.is_empty()).then(|| file.join(" "));
            Command::Display(Board::Svg(file))
        }
        _ => Command::Invalid(format!(
            "d takes nothing or 'svg [FILE]', not '{}'",
            args.join(" ")
        )),
    }
}

fn setoption(args: &[&str]) -> Command {
    // setoption name <name words> [value <value words>]
    let lower: Vec<String> = args.iter().map(|a| a.to_ascii_lowercase()).collect();
    let usage = "setoption needs 'name <option> value <value>'";
    let Some(name_at) = lower.iter().position(|a| a == "name") else {
        return Command::Invalid(usage.into());
    };
    let value_at = lower
        .iter()
        .position(|a| a == "value")
        .unwrap_or(args.len());
    if value_at < name_at || value_at == name_at + 1 {
        return Command::Invalid(usage.into());
    }
    Command::SetOption {
        name: args[name_at + 1..value_at].join(" "),
        value: args
            .get(value_at + 1..)
            .map(|v| v.join(" "))
            .unwrap_or_default(),
    }
}

fn position(args: &[&str]) -> Command {
    let moves_at = args
        .iter()
        .position(|a| a.eq_ignore_ascii_case("moves"))
        .unwrap_or(args.len());
    let moves = args
        .get(moves_at + 1..)
        .unwrap_or(&[])
        .iter()
        .map(|m| m.to_string())
        .collect();
    match args.first().map(|a| a.to_ascii_lowercase()).as_deref() {
        Some("startpos") if moves_at == 1 => Command::Position { text: None, moves },
        Some("fen") if moves_at > 1 => Command::Position {
            text: Some(args[1..moves_at].join(" ")),
            moves,
        },
        _ => Command::InvalidPosition(
            "position needs 'startpos' or 'fen <position text>', then optionally 'moves ...'"
                .into(),
        ),
    }
}

fn perft(args: &[&str], split: bool) -> Command {
    match args.first().map(|d| d.parse::<u32>()) {
        Some(Ok(depth)) if depth <= MAX_PERFT_DEPTH => Command::Perft { depth, split },
        _ => Command::Invalid(format!("perft needs a depth from 0 to {MAX_PERFT_DEPTH}")),
    }
}

fn query(args: &[&str]) -> Query {
    let Some(question) = args.first().map(|q| q.to_ascii_lowercase()) else {
        return Query::Unknown(
            "query needs a question: gameover, p1turn, result, moves, fen, islegal <move>, game"
                .into(),
        );
    };
    match question.as_str() {
        "gameover" => Query::GameOver,
        "p1turn" => Query::P1Turn,
        "result" => Query::Result,
        "moves" => Query::Moves,
        "fen" | "position" => Query::Fen,
        "game" => Query::Game,
        "islegal" => match args.get(1) {
            Some(mv) => Query::IsLegal(mv.to_string()),
            None => Query::Unknown("query islegal needs a move".into()),
        },
        _ => Query::Unknown(format!("unknown query '{question}'")),
    }
}

/// Times beyond this are taken as this (about 24 days): large enough to
/// mean "no limit" in practice, small enough to stay finite.
pub const MAX_TIME_MS: u64 = 1 << 31;

/// `go <args>`: the limits, plus warnings about what was ignored or
/// changed. Bare `go` searches until `stop`, as in UCI; `go perft N`
/// counts instead of searching.
fn go(args: &[&str]) -> Command {
    if args
        .first()
        .is_some_and(|a| a.eq_ignore_ascii_case("perft"))
    {
        return perft(&args[1..], false);
    }
    let mut limits = Limits::default();
    let mut warnings = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let word = args[i].to_ascii_lowercase();
        if word == "infinite" {
            limits.infinite = true;
            i += 1;
            continue;
        }
        const KNOWN: [&str; 12] = [
            "p1time",
            "wtime",
            "p2time",
            "btime",
            "p1inc",
            "winc",
            "p2inc",
            "binc",
            "movestogo",
            "movetime",
            "depth",
            "nodes",
        ];
        if !KNOWN.contains(&word.as_str()) {
            warnings.push(format!("unknown go argument '{}' ignored", args[i]));
            i += 1;
            continue;
        }
        let Some(raw) = args.get(i + 1) else {
            warnings.push(format!("go {word} needs a value; ignored"));
            break;
        };
        i += 2;
        let Some(value) = number(&word, raw, &mut warnings) else {
            continue;
        };
        match word.as_str() {
            "p1time" | "wtime" => limits.time[0] = Some(time(&word, value, 0, &mut warnings)),
            "p2time" | "btime" => limits.time[1] = Some(time(&word, value, 0, &mut warnings)),
            "p1inc" | "winc" => limits.inc[0] = time(&word, value, 0, &mut warnings),
            "p2inc" | "binc" => limits.inc[1] = time(&word, value, 0, &mut warnings),
            "movestogo" => {
                limits.movestogo = Some(clamp(&word, value, 1, 10_000, &mut warnings) as u32)
            }
            "movetime" => limits.movetime = Some(time(&word, value, 1, &mut warnings)),
            "depth" => limits.depth = Some(clamp(&word, value, 1, 1000, &mut warnings) as u32),
            "nodes" => limits.nodes = Some(clamp(&word, value, 1, i64::MAX, &mut warnings) as u64),
            _ => unreachable!("checked against the known list"),
        }
    }
    if !limits.is_bounded() {
        limits.infinite = true;
    }
    Command::Go { limits, warnings }
}

/// A whole number; numbers too large for 64 bits are taken as the largest.
fn number(word: &str, raw: &str, warnings: &mut Vec<String>) -> Option<i64> {
    match raw.parse::<i64>() {
        Ok(v) => Some(v),
        Err(_)
            if !raw.is_empty()
                && raw
                    .trim_start_matches('-')
                    .bytes()
                    .all(|b| b.is_ascii_digit()) =>
        {
            Some(if raw.starts_with('-') {
                i64::MIN
            } else {
                i64::MAX
            })
        }
        Err(_) => {
            warnings.push(format!("go {word} '{raw}' is not a whole number; ignored"));
            None
        }
    }
}

fn clamp(word: &str, value: i64, min: i64, max: i64, warnings: &mut Vec<String>) -> i64 {
    let clamped = value.clamp(min, max);
    if clamped != value {
        warnings.push(format!(
            "go {word} {value} is out of range; using {clamped}"
        ));
    }
    clamped
}

/// A time in milliseconds, at least `min` (a clock that ran below zero
/// counts as empty) and at most `MAX_TIME_MS`.
fn time(word: &str, value: i64, min: i64, warnings: &mut Vec<String>) -> u64 {
    clamp(word, value, min, MAX_TIME_MS as i64, warnings) as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits(line: &str) -> (Limits, Vec<String>) {
        match parse(line) {
            Command::Go { limits, warnings } => (limits, warnings),
            other => panic!("{line}: {other:?}"),
        }
    }

    #[test]
    fn clocks_and_aliases() {
        let (l, w) = limits("go p1time 1000 btime 2000 winc 10 p2inc 20");
        assert!(w.is_empty());
        assert_eq!(l.time, [Some(1000), Some(2000)]);
        assert_eq!(l.inc, [10, 20]);
        assert!(!l.infinite);
    }

    #[test]
    fn bad_arguments_warn_and_bare_go_is_infinite() {
        let (l, w) = limits("go movetime abc bogus");
        assert_eq!(w.len(), 2);
        assert!(l.infinite);
        assert!(limits("go").0.infinite);
        let (l, w) = limits("go depth");
        assert_eq!(w.len(), 1);
        assert!(l.infinite);
        let (l, _) = limits("go nodes 500 depth 3");
        assert_eq!((l.nodes, l.depth), (Some(500), Some(3)));
    }

    #[test]
    fn out_of_range_numbers_get_a_defined_meaning_and_a_warning() {
        let (l, w) = limits("go movetime 99999999999999999999");
        assert_eq!(l.movetime, Some(MAX_TIME_MS));
        assert!(!l.infinite);
        assert_eq!(w.len(), 1, "{w:?}");
        let (l, w) = limits("go movetime -5");
        assert_eq!(l.movetime, Some(1));
        assert_eq!(w.len(), 1);
        let (l, w) = limits("go p1time -300 p2time 1000");
        assert_eq!(l.time, [Some(0), Some(1000)]);
        assert_eq!(w.len(), 1);
        let (l, w) = limits("go nodes 0");
        assert_eq!(l.nodes, Some(1));
        assert_eq!(w.len(), 1);
    }

    #[test]
    fn commands_and_their_mistakes() {
        assert_eq!(parse("  "), Command::Nothing);
        assert_eq!(
            parse("go perft 3"),
            Command::Perft {
                depth: 3,
                split: false
            }
        );
        assert!(matches!(parse("go perft x"), Command::Invalid(_)));
        assert!(matches!(parse("perft 99"), Command::Invalid(_)));
        assert_eq!(
            parse("position startpos moves a1 b2"),
            Command::Position {
                text: None,
                moves: vec!["a1".into(), "b2".into()]
            }
        );
        assert!(matches!(parse("position fen"), Command::InvalidPosition(_)));
        assert!(matches!(parse("position"), Command::InvalidPosition(_)));
        assert_eq!(
            parse("setoption name Move Overhead value 30"),
            Command::SetOption {
                name: "Move Overhead".into(),
                value: "30".into()
            }
        );
        assert!(matches!(
            parse("setoption name value 3"),
            Command::Invalid(_)
        ));
        assert_eq!(parse("query"), Command::Query(Query::Unknown(
            "query needs a question: gameover, p1turn, result, moves, fen, islegal <move>, game".into()
        )));
        assert!(matches!(
            parse("query islegal"),
            Command::Query(Query::Unknown(_))
        ));
        assert!(matches!(
            parse("query foo"),
            Command::Query(Query::Unknown(_))
        ));
        assert_eq!(
            parse("QUERY IsLegal A1"),
            Command::Query(Query::IsLegal("A1".into()))
        );
        assert!(matches!(parse("xyzzy"), Command::Invalid(_)));
    }
}

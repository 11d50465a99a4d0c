//! UGI sessions driven through the built binary, as a tournament manager
//! would: handshake, options, queries, errors, searching, `isready` during
//! a search, `stop`, garbage input, end of input.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::thread;
use std::time::{Duration, Instant};

/// Generous: these tests check behaviour, not speed.
const PATIENCE: Duration = Duration::from_secs(20);

struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Engine {
    fn start(args: &[&str]) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_quintet"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start quintet");
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        Engine {
            child,
            stdin,
            lines,
        }
    }

    fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        writeln!(stdin, "{line}").unwrap();
        stdin.flush().unwrap();
    }

    /// The next line, or a panic after PATIENCE.
    fn next(&self) -> String {
        match self.lines.recv_timeout(PATIENCE) {
            Ok(line) => line,
            Err(RecvTimeoutError::Timeout) => panic!("no reply within {PATIENCE:?}"),
            Err(RecvTimeoutError::Disconnected) => panic!("engine closed its output"),
        }
    }

    /// Lines up to and including the first that satisfies `done`.
    fn until(&self, done: impl Fn(&str) -> bool) -> Vec<String> {
        let mut seen = Vec::new();
        loop {
            let line = self.next();
            let stop = done(&line);
            seen.push(line);
            if stop {
                return seen;
            }
        }
    }

    /// Sends a query and returns its single `response` line.
    fn ask(&mut self, query: &str) -> String {
        self.send(query);
        let line = self.next();
        assert!(line.starts_with("response "), "'{query}' answered '{line}'");
        line
    }

    fn ready(&mut self) {
        self.send("isready");
        assert_eq!(self.next(), "readyok");
    }

    /// Closes stdin and returns the exit status, with any lines left.
    fn close(mut self) -> (i32, Vec<String>) {
        drop(self.stdin.take());
        let start = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                // The reader thread forwards what is left, then hangs up.
                let mut rest = Vec::new();
                while let Ok(line) = self.lines.recv_timeout(PATIENCE) {
                    rest.push(line);
                }
                return (status.code().unwrap_or(-1), rest);
            }
            assert!(
                start.elapsed() < PATIENCE,
                "engine did not exit at end of input"
            );
            thread::sleep(Duration::from_millis(10));
        }
    }
}

#[test]
fn handshake_lists_options_then_ugiok() {
    let mut e = Engine::start(&[]);
    e.send("ugi");
    let lines = e.until(|l| l == "ugiok");
    assert!(lines[0].starts_with("id name quintet "));
    assert!(lines[1].starts_with("id author "));
    for name in [
        "Game", "Size", "Variant", "Stones", "Hash", "Threads", "Seed", "Search",
    ] {
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with(&format!("option name {name} type "))),
            "missing option {name}"
        );
    }
    assert!(
        lines[2..lines.len() - 1]
            .iter()
            .all(|l| l.starts_with("option name "))
    );
    e.ready();
    e.send("quit");
    assert_eq!(e.close().0, 0);
}

#[test]
fn options_switch_the_game_and_bad_values_warn() {
    let mut e = Engine::start(&[]);
    assert_eq!(e.ask("query game"), "response hadron size=5");
    e.send("setoption name game value atoms");
    e.send("setoption name Stones value 3");
    e.send("position startpos");
    assert_eq!(
        e.ask("query game"),
        "response atoms size=8 stones=3 variant=standard"
    );
    e.send("setoption name Hash value lots");
    assert!(e.next().starts_with("info string warning: "));
    e.send("setoption name NoSuchOption value 1");
    assert!(e.next().starts_with("info string warning: "));
    e.send("setoption name Size value 3");
    e.send("uginewgame");
    let line = e.next();
    assert!(
        line.starts_with("info string error: ") && line.contains("size 3"),
        "{line}"
    );
    // The previous game stays.
    assert_eq!(
        e.ask("query game"),
        "response atoms size=8 stones=3 variant=standard"
    );
    e.ready();
}

#[test]
fn queries_follow_the_position() {
    let mut e = Engine::start(&["--game", "hadron", "--size", "5"]);
    e.send("position startpos moves c3");
    assert_eq!(e.ask("query p1turn"), "response false");
    assert_eq!(e.ask("query gameover"), "response false");
    assert_eq!(e.ask("query result"), "response none");
    assert_eq!(e.ask("query fen"), "response 5/5/2r2/5/5 b");
    assert_eq!(e.ask("query islegal d3"), "response false");
    assert_eq!(e.ask("query islegal A1"), "response true");
    let moves = e.ask("query moves");
    assert_eq!(moves.split_whitespace().count(), 1 + 20);
    // A finished 3x3 game: the side to move (red) cannot place and has lost.
    e.send("position fen rbr/b1b/rbr r");
    assert_eq!(e.ask("query gameover"), "response true");
    assert_eq!(e.ask("query result"), "response p2win");
    assert_eq!(e.ask("query moves"), "response none");
    e.send("go movetime 100");
    let lines = e.until(|l| l.starts_with("bestmove"));
    assert!(lines.iter().any(|l| l.starts_with("info string error: ")));
    assert_eq!(lines.last().unwrap(), "bestmove 0000");
}

#[test]
fn illegal_moves_keep_the_legal_prefix() {
    let mut e = Engine::start(&[]);
    e.send("position startpos moves c3 c3 a1");
    let line = e.next();
    assert!(
        line.starts_with("info string error: ") && line.contains("c3"),
        "{line}"
    );
    assert_eq!(e.ask("query fen"), "response 5/5/2r2/5/5 b");
    e.send("position startpos moves c3 zz9");
    assert!(e.next().starts_with("info string error: "));
    assert_eq!(e.ask("query fen"), "response 5/5/2r2/5/5 b");
    e.send("position fen this is not a board");
    assert!(e.next().starts_with("info string error: "));
    e.send("position sideways");
    assert!(e.next().starts_with("info string error: "));
    assert_eq!(e.ask("query fen"), "response 5/5/2r2/5/5 b");
}

#[test]
fn a_position_text_of_another_size_switches_size() {
    let mut e = Engine::start(&[]);
    e.send("position fen 7/7/7/7/7/7/7 b moves a1");
    assert_eq!(e.ask("query game"), "response hadron size=7");
    assert_eq!(e.ask("query fen"), "response 7/7/7/7/7/7/b6 r");
    e.send("position startpos");
    assert_eq!(e.ask("query game"), "response hadron size=5");
}

/// Engine flags spell an acronym as one word (`--show-wdl`, `--multi-pv`);
/// the earlier spelling (`--show-w-d-l`) still works.
#[test]
fn engine_flags_take_acronyms_as_one_word() {
    for args in [
        ["--show-wdl", "true", "--multi-pv", "2"],
        ["--show-w-d-l", "true", "--multi-p-v", "2"],
    ] {
        let mut e = Engine::start(&args);
        e.ready();
        e.send("position startpos");
        e.send("go nodes 300");
        let lines = e.until(|l| l.starts_with("bestmove "));
        let last_two: Vec<&String> = lines
            .iter()
            .filter(|l| l.starts_with("info depth"))
            .rev()
            .take(2)
            .collect();
        assert!(
            last_two.iter().any(|l| l.contains(" multipv 2 ")),
            "{args:?}: {lines:?}"
        );
        assert!(
            last_two.iter().all(|l| l.contains(" wdl ")),
            "{args:?}: {lines:?}"
        );
    }
}

#[test]
fn search_answers_a_legal_move_with_info() {
    for game in ["hadron", "atoms"] {
        let mut e = Engine::start(&["--game", game]);
        e.ready();
        e.send("position startpos");
        e.send("go nodes 2000");
        let lines = e.until(|l| l.starts_with("bestmove "));
        let info = lines
            .iter()
            .rev()
            .find(|l| l.starts_with("info depth"))
            .expect("an info line");
        for field in [" score ", " nodes ", " nps ", " time ", " pv "] {
            assert!(info.contains(field), "{info}");
        }
        let best = lines.last().unwrap();
        let parts: Vec<&str> = best.split_whitespace().collect();
        assert_eq!(parts.len(), 2, "bestmove line carries one move: {best}");
        assert_eq!(
            e.ask(&format!("query islegal {}", parts[1])),
            "response true"
        );
    }
}

#[test]
fn every_searcher_plays_legal_moves() {
    for search in ["mcts", "alphabeta", "uct-plain", "random"] {
        let mut e = Engine::start(&["--game", "atoms", "--size", "6", "--stones", "3"]);
        e.send(&format!("setoption name Search value {search}"));
        let mut moves: Vec<String> = Vec::new();
        for _ in 0..30 {
            e.send(&format!("position startpos moves {}", moves.join(" ")));
            if e.ask("query gameover") == "response true" {
                break;
            }
            e.send("go movetime 20");
            let best = e.until(|l| l.starts_with("bestmove ")).pop().unwrap();
            let mv = best.split_whitespace().nth(1).unwrap().to_string();
            assert_eq!(
                e.ask(&format!("query islegal {mv}")),
                "response true",
                "{search}: {mv}"
            );
            moves.push(mv);
        }
    }
}

#[test]
fn isready_and_queries_are_answered_during_an_infinite_search() {
    let mut e = Engine::start(&[]);
    e.ready();
    e.send("position startpos");
    e.send("go infinite");
    thread::sleep(Duration::from_millis(200));
    e.send("isready");
    // readyok arrives while the search still runs (before any bestmove).
    let lines = e.until(|l| l == "readyok");
    assert!(lines.iter().all(|l| !l.starts_with("bestmove")));
    assert_eq!(e.ask("query p1turn"), "response true");
    e.send("stop");
    let lines = e.until(|l| l.starts_with("bestmove "));
    assert_eq!(lines.last().unwrap().split_whitespace().count(), 2);
    e.send("quit");
    assert_eq!(e.close().0, 0);
}

#[test]
fn garbage_is_answered_and_the_session_goes_on() {
    let mut e = Engine::start(&[]);
    for junk in ["hello", "gogo", "perft x", "setoption", "\u{1b}[A"] {
        e.send(junk);
        let line = e.next();
        assert!(
            line.starts_with("info string "),
            "'{junk}' answered '{line}'"
        );
    }
    // Every query gets its one response, understood or not.
    for junk in ["query", "query nonsense", "query islegal"] {
        e.send(junk);
        assert!(e.next().starts_with("info string error: "), "{junk}");
        assert_eq!(e.next(), "response unknown", "{junk}");
    }
    e.send("go depth notanumber movetime 50");
    let lines = e.until(|l| l.starts_with("bestmove "));
    assert!(lines[0].starts_with("info string warning: "));
    e.ready();
}

#[test]
fn perft_and_splitperft_report_counts() {
    let mut e = Engine::start(&[]);
    e.send("perft 3");
    let line = e.next();
    assert!(line.starts_with("perft depth 3 nodes 9032 "), "{line}");
    e.send("splitperft 2");
    let lines = e.until(|l| l.starts_with("perft "));
    assert_eq!(lines.len(), 26);
    let sum: u64 = lines[..25]
        .iter()
        .map(|l| l.split_whitespace().nth(1).unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(sum, 520);
    assert!(lines[25].starts_with("perft depth 2 nodes 520 "));
}

#[test]
fn display_draws_the_board() {
    let mut e = Engine::start(&[]);
    e.send("position startpos moves c3");
    e.send("d");
    let lines = e.until(|l| l.starts_with("moves: "));
    let text = lines.join("\n");
    assert!(text.contains("  3  . . r . ."), "{text}");
    assert!(text.contains("side to move: p2"));
    assert!(text.contains("position: 5/5/2r2/5/5 b"));
}

#[test]
fn end_of_input_exits_cleanly_after_a_bounded_search() {
    let mut e = Engine::start(&[]);
    e.send("position startpos");
    e.send("go movetime 100");
    let (status, rest) = e.close();
    assert_eq!(status, 0);
    assert!(rest.iter().any(|l| l.starts_with("bestmove ")), "{rest:?}");
}

#[test]
fn end_of_input_stops_an_infinite_search() {
    let mut e = Engine::start(&[]);
    e.send("go infinite");
    thread::sleep(Duration::from_millis(100));
    let (status, rest) = e.close();
    assert_eq!(status, 0);
    assert!(rest.iter().any(|l| l.starts_with("bestmove ")));
}

#[test]
fn a_clock_search_returns_within_its_budget() {
    let mut e = Engine::start(&[]);
    e.ready();
    e.send("position startpos");
    let start = Instant::now();
    e.send("go p1time 1000 p2time 1000 p1inc 0 p2inc 0");
    e.until(|l| l.starts_with("bestmove "));
    // Far below the remaining second; the exact budget is a bench matter.
    assert!(start.elapsed() < Duration::from_millis(900));
}

//! The UGI driver run in-process: every command and its mistakes, on a
//! `Driver` whose output lines are collected through a channel.

#[path = "common/line_sink.rs"]
mod line_sink;

use line_sink::LineSink;
use quintet::games::{GameConfig, GameRng, random_below};
use quintet::protocol::Output;
use quintet::protocol::driver::{Driver, Flow};
use quintet::protocol::options::{self, Kind, OPTIONS, Options};
use quintet::registry;
use quintet::search::searcher::{self, SEARCHERS};
use rand::SeedableRng;
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// Generous: these tests check behaviour, not speed.
const PATIENCE: Duration = Duration::from_secs(20);
/// How long to listen for a line that must not come.
const QUIET: Duration = Duration::from_millis(10);

struct Engine {
    driver: Driver,
    lines: Receiver<String>,
}

impl Engine {
    fn new() -> Engine {
        Engine::with(Options::default())
    }

    fn with(options: Options) -> Engine {
        let (sink, lines) = LineSink::new();
        let driver = Driver::new(Output::new(sink), options);
        Engine { driver, lines }
    }

    /// One input line, as the reader thread passes it (with its newline).
    fn send(&mut self, line: &str) -> Flow {
        self.driver.handle(&format!("{line}\n"))
    }

    fn next(&self) -> String {
        match self.lines.recv_timeout(PATIENCE) {
            Ok(line) => line,
            Err(RecvTimeoutError::Timeout) => panic!("no reply within {PATIENCE:?}"),
            Err(RecvTimeoutError::Disconnected) => panic!("the output closed"),
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

    /// No further line arrives.
    fn nothing_more(&self) {
        if let Ok(line) = self.lines.recv_timeout(QUIET) {
            panic!("unexpected line '{line}'");
        }
    }

    /// The one line a command answers with, and nothing after it.
    fn only(&mut self, command: &str) -> String {
        self.send(command);
        let line = self.next();
        self.nothing_more();
        line
    }

    /// A query's single `response` line (nothing follows it).
    fn ask(&mut self, query: &str) -> String {
        let line = self.only(query);
        assert!(line.starts_with("response "), "'{query}' answered '{line}'");
        line["response ".len()..].to_string()
    }

    fn ready(&mut self) {
        assert_eq!(self.only("isready"), "readyok");
    }

    /// Sends `go ...` and waits for its `bestmove`: the lines before it,
    /// and the move.
    fn go(&mut self, command: &str) -> (Vec<String>, String) {
        self.send(command);
        self.bestmove()
    }

    fn bestmove(&mut self) -> (Vec<String>, String) {
        let mut lines = self.until(|l| l.starts_with("bestmove"));
        let last = lines.pop().unwrap();
        let words: Vec<&str> = last.split_whitespace().collect();
        assert_eq!(words.len(), 2, "'{last}' carries one move");
        (lines, words[1].to_string())
    }

    /// Sends a command that must be answered with nothing at all.
    fn silent(&mut self, command: &str) {
        self.send(command);
        self.nothing_more();
    }

    fn setoption(&mut self, name: &str, value: &str) {
        self.silent(&format!("setoption name {name} value {value}"));
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        // Never leave a search running behind a finished test.
        self.driver.handle("stop\n");
    }
}

/// The value after `key` in an `info` line.
fn field(info: &str, key: &str) -> Option<u64> {
    let words: Vec<&str> = info.split_whitespace().collect();
    let at = words.iter().position(|w| *w == key)?;
    words.get(at + 1)?.parse().ok()
}

/// The last `info depth` line of a search: its final report.
fn final_info(lines: &[String]) -> &str {
    lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth "))
        .expect("a final info line")
}

fn is_error(line: &str) -> bool {
    line.starts_with("info string error: ")
}

fn is_warning(line: &str) -> bool {
    line.starts_with("info string warning: ")
}

const START_HADRON: &str = "5/5/5/5/5 r";
/// A finished 3x3 Hadron game: red, to move, cannot place and has lost.
const FINISHED_HADRON: &str = "rbr/b1b/rbr r";

// ---------------------------------------------------------------- ugi, uci

#[test]
fn handshakes_announce_every_option_of_the_table_then_end() {
    for (command, done) in [("ugi", "ugiok"), ("uci", "uciok"), ("UGI", "ugiok")] {
        let mut e = Engine::new();
        e.send(command);
        let lines = e.until(|l| l == done);
        e.nothing_more();
        assert_eq!(
            lines[0],
            format!("id name quintet {}", env!("CARGO_PKG_VERSION"))
        );
        assert_eq!(lines[1], "id author the quintet developers");
        assert_eq!(lines.len(), 2 + OPTIONS.len() + 1, "{lines:#?}");
        for (line, spec) in lines[2..].iter().zip(OPTIONS) {
            let kind = match spec.kind {
                Kind::Spin { .. } => "spin",
                Kind::Combo { .. } => "combo",
                Kind::Check { .. } => "check",
                Kind::Text { .. } => "string",
            };
            let head = format!(
                "option name {} type {kind} default {}",
                spec.name,
                spec.default_text()
            );
            assert!(line.starts_with(&head), "{line} (expected {head})");
        }
        let option = |name: &str| {
            lines
                .iter()
                .find(|l| l.starts_with(&format!("option name {name} ")))
                .unwrap()
                .clone()
        };
        assert_eq!(
            option("Hash"),
            "option name Hash type spin default 64 min 1 max 65536"
        );
        let search = option("Search");
        for name in searcher::names() {
            assert!(search.contains(&format!(" var {name}")), "{search}");
        }
        let game = option("Game");
        for name in registry::names() {
            assert!(game.contains(&format!(" var {name}")), "{game}");
        }
    }
}

#[test]
fn isready_answers_readyok_and_nothing_else() {
    let mut e = Engine::new();
    e.ready();
    e.ready();
    e.silent("");
    e.silent("   \t ");
}

// ---------------------------------------------------------------- setoption

#[test]
fn game_options_switch_the_game_at_isready() {
    let mut e = Engine::new();
    e.setoption("Game", "atoms");
    e.setoption("Stones", "3");
    assert_eq!(e.ask("query game"), "hadron size=5", "pending until then");
    e.ready();
    assert_eq!(
        e.ask("query game"),
        "atoms size=8 stones=3 variant=standard"
    );
    assert_eq!(e.ask("query fen"), "8/8/8/8/8/8/8/8 w 3 3 0");
}

#[test]
fn game_options_switch_the_game_at_position() {
    let mut e = Engine::new();
    e.setoption("game", "IHEX");
    e.setoption("size", "4");
    e.silent("position startpos moves a1");
    assert_eq!(e.ask("query game"), "ihex size=4");
    assert_eq!(e.ask("query p1turn"), "false");
}

#[test]
fn game_options_switch_the_game_at_uginewgame() {
    let mut e = Engine::new();
    e.silent("position startpos moves c3");
    e.setoption("Game", "tritium");
    e.setoption("Variant", "short");
    e.silent("uginewgame");
    assert_eq!(e.ask("query game"), "tritium size=5 variant=short");
    assert!(e.ask("query fen").ends_with(" 20,20,20 3,3 p1 -"));
}

#[test]
fn game_options_switch_the_game_at_go() {
    let mut e = Engine::new();
    e.setoption("Game", "nadraz");
    e.setoption("Size", "5");
    e.setoption("Search", "random");
    let (_, best) = e.go("go nodes 10");
    assert_eq!(e.ask("query game"), "nadraz size=5 variant=standard");
    assert_eq!(e.ask(&format!("query islegal {best}")), "true");
    assert!(best.contains('+'), "the pie placement: {best}");
}

#[test]
fn the_searcher_is_chosen_again_after_search_changes() {
    let mut e = Engine::new();
    e.setoption("Search", "random");
    e.ready();
    let (lines, _) = e.go("go nodes 5000");
    let info = final_info(&lines);
    assert_eq!(field(info, "nodes"), Some(1), "the random mover: {info}");
    e.setoption("Search", "AlphaBeta");
    assert_eq!(e.driver.options().engine.searcher, "alphabeta");
    let (lines, _) = e.go("go depth 2");
    assert_eq!(field(final_info(&lines), "depth"), Some(2));
    e.setoption("Search", "uct-plain");
    let (lines, _) = e.go("go nodes 700");
    assert_eq!(field(final_info(&lines), "nodes"), Some(700));
}

#[test]
fn the_search_memory_follows_hash() {
    let mut e = Engine::new();
    e.setoption("Search", "mcts");
    e.setoption("Hash", "1");
    e.ready();
    let (lines, _) = e.go("go nodes 30000");
    let small = field(final_info(&lines), "hashfull").unwrap();
    e.setoption("Hash", "256");
    assert_eq!(e.driver.options().engine.hash_mb, 256);
    e.ready();
    e.silent("uginewgame");
    let (lines, _) = e.go("go nodes 30000");
    let large = field(final_info(&lines), "hashfull").unwrap();
    assert!(small > 500, "1 MiB fills up: {small}");
    assert!(
        large * 5 < small,
        "256 MiB does not: {large} against {small}"
    );
}

#[test]
fn bad_values_warn_and_keep_the_old_value() {
    let mut e = Engine::new();
    for spec in OPTIONS {
        // Any text is a valid value of a text option (a weight file that
        // cannot be read is reported when it is loaded: tests/learned.rs).
        if matches!(spec.kind, Kind::Text { .. }) {
            continue;
        }
        let before = e.driver.options().clone();
        let mut bad = vec!["nonsense".to_string(), String::new()];
        if let Kind::Spin { min, max, .. } = spec.kind {
            bad.extend([(min - 1).to_string(), (max as i128 + 1).to_string()]);
        }
        for value in bad {
            e.send(&format!("setoption name {} value {value}", spec.name));
            let line = e.next();
            e.nothing_more();
            if spec.effect() == options::Effect::Game {
                // A game that cannot be: the engine must not search one.
                assert!(is_error(&line), "{}: {line}", spec.name);
            } else {
                assert!(is_warning(&line), "{} '{value}': {line}", spec.name);
            }
            assert!(line.contains(spec.name), "{line}");
            assert_eq!(e.driver.options(), &before, "{} kept", spec.name);
        }
    }
    // Unknown options and broken commands.
    let line = e.only("setoption name Frobnicate value 3");
    assert!(is_warning(&line) && line.contains("Frobnicate"), "{line}");
    for broken in [
        "setoption",
        "setoption name",
        "setoption value 3",
        "setoption name value 3",
    ] {
        assert!(is_error(&e.only(broken)), "{broken}");
    }
    assert_eq!(e.driver.options(), &Options::default());
    e.ready();
}

#[test]
fn every_option_takes_a_valid_value() {
    let mut e = Engine::new();
    e.setoption("Threads", "2");
    e.setoption("Seed", "12345");
    e.setoption("Move Overhead", "70");
    e.setoption("Exploration", "45");
    e.setoption("ExpandAfter", "3");
    e.setoption("PlayoutCutoff", "7");
    e.setoption("EvalScale", "250");
    e.setoption("WidenAbove", "30");
    e.setoption("Hash", "3");
    let o = e.driver.options();
    assert_eq!(o.search.threads, 2);
    assert_eq!(o.search.seed, 12345);
    assert_eq!(o.search.move_overhead_ms, 70);
    assert_eq!(o.search.tuning.exploration, Some(0.45));
    assert_eq!(o.search.tuning.expand_after, Some(3));
    assert_eq!(o.search.tuning.playout_cutoff, Some(7));
    assert_eq!(o.search.tuning.eval_scale, Some(250.0));
    assert_eq!(o.search.tuning.widen_above, Some(30));
    assert_eq!(o.engine.hash_mb, 3);
    e.ready();
    let (_, best) = e.go("go nodes 3000");
    assert_eq!(e.ask(&format!("query islegal {best}")), "true");
}

#[test]
fn a_failed_game_option_refuses_to_search_until_a_valid_position() {
    let mut e = Engine::new();
    // Out of the option's range: refused at once.
    let line = e.only("setoption name Size value 99");
    assert!(is_error(&line), "{line}");
    for _ in 0..2 {
        let (lines, best) = e.go("go nodes 100");
        assert_eq!(best, "0000");
        assert!(is_error(&lines[0]), "{lines:?}");
        assert_eq!(lines.len(), 1, "{lines:?}");
    }
    e.silent("position startpos");
    let (_, best) = e.go("go nodes 100");
    assert_ne!(best, "0000");

    // In range, but not a size this game has: refused when applied.
    let mut e = Engine::new();
    e.setoption("Game", "atoms");
    e.setoption("Size", "3");
    e.send("isready");
    let lines = e.until(|l| l == "readyok");
    assert!(
        is_error(&lines[0]) && lines[0].contains("size 3"),
        "{lines:?}"
    );
    assert_eq!(lines.len(), 2);
    assert_eq!(e.ask("query game"), "hadron size=5", "the old game stays");
    let (_, best) = e.go("go nodes 100");
    assert_eq!(best, "0000");
    assert!(is_error(&e.only("position startpos")));
    assert_eq!(e.go("go nodes 100").1, "0000");
    // A text decides its own size: a valid position of the chosen game.
    e.silent("position fen 6/6/6/6/6/6 w 11 11 0");
    assert_eq!(
        e.ask("query game"),
        "atoms size=6 stones=11 variant=standard"
    );
    let (_, best) = e.go("go nodes 100");
    assert_eq!(e.ask(&format!("query islegal {best}")), "true");
    // Fixing the option makes the start position valid again.
    e.setoption("Size", "0");
    e.silent("position startpos");
    assert_eq!(
        e.ask("query game"),
        "atoms size=8 stones=11 variant=standard"
    );
    assert_ne!(e.go("go nodes 100").1, "0000");
}

// ---------------------------------------------------------------- uginewgame, position

#[test]
fn uginewgame_returns_to_the_start_position() {
    let mut e = Engine::new();
    e.silent("position startpos moves c3 a1");
    e.silent("uginewgame");
    assert_eq!(e.ask("query fen"), START_HADRON);
    e.silent("position startpos moves c3");
    e.silent("ucinewgame");
    assert_eq!(e.ask("query fen"), START_HADRON);
    e.ready();
}

#[test]
fn position_sets_start_texts_and_moves() {
    let mut e = Engine::new();
    e.silent("position startpos");
    assert_eq!(e.ask("query fen"), START_HADRON);
    e.silent("position startpos moves c3 A1");
    assert_eq!(e.ask("query fen"), "5/5/2r2/5/b4 r");
    e.silent("position fen 5/5/2r2/5/5 b");
    assert_eq!(e.ask("query fen"), "5/5/2r2/5/5 b");
    e.silent("POSITION FEN 5/5/2R2/5/5 B MOVES a1");
    assert_eq!(e.ask("query fen"), "5/5/2r2/5/b4 r");
    e.send("d");
    let lines = e.until(|l| l.starts_with("moves: "));
    assert_eq!(lines.last().unwrap(), "moves: a1");
    e.nothing_more();
}

#[test]
fn a_position_text_of_another_size_switches_the_size() {
    let mut e = Engine::new();
    e.silent("position fen 7/7/7/7/7/7/7 b moves a1");
    assert_eq!(e.ask("query game"), "hadron size=7");
    assert_eq!(e.ask("query fen"), "7/7/7/7/7/7/b6 r");
    let (_, best) = e.go("go nodes 200");
    assert_eq!(e.ask(&format!("query islegal {best}")), "true");
    assert_eq!(e.ask("query game"), "hadron size=7");
    e.silent("position startpos");
    assert_eq!(e.ask("query game"), "hadron size=5");
}

#[test]
fn isready_keeps_a_position_whose_text_chose_the_size() {
    let mut e = Engine::new();
    e.silent("position fen 7/7/7/7/7/7/7 b moves a1");
    e.ready();
    assert_eq!(e.ask("query game"), "hadron size=7");
    assert_eq!(e.ask("query fen"), "7/7/7/7/7/7/b6 r");
    // Also when the memory is sized again before the search.
    e.setoption("Hash", "8");
    e.ready();
    assert_eq!(e.ask("query fen"), "7/7/7/7/7/7/b6 r");
    let (_, best) = e.go("go nodes 200");
    assert_eq!(e.ask(&format!("query islegal {best}")), "true");
    assert_eq!(e.ask("query fen"), "7/7/7/7/7/7/b6 r");
}

#[test]
fn a_bad_position_text_keeps_the_position_and_go_refuses() {
    let mut e = Engine::new();
    e.silent("position startpos moves c3");
    for bad in [
        "position fen this is not a board",
        "position fen 5/5/5/5/5 x",
        "position fen 5/5/5/5/6 r",
        "position fen 17/17/17 r",
    ] {
        let line = e.only(bad);
        assert!(is_error(&line), "{bad}: {line}");
        assert_eq!(e.ask("query fen"), "5/5/2r2/5/5 b", "{bad}");
        let (lines, best) = e.go("go nodes 100");
        assert_eq!(best, "0000", "{bad}");
        assert!(is_error(&lines[0]) && lines[0].contains("no valid position"));
    }
    e.silent("position startpos moves c3");
    let (_, best) = e.go("go nodes 100");
    assert_eq!(e.ask(&format!("query islegal {best}")), "true");
}

#[test]
fn an_illegal_move_keeps_the_legal_prefix_and_go_refuses() {
    let mut e = Engine::new();
    for (moves, failing) in [
        ("c3 c3 a1", "c3"),
        ("c3 zz9", "zz9"),
        ("c3 a1 pass", "pass"),
    ] {
        let line = e.only(&format!("position startpos moves {moves}"));
        assert!(is_error(&line) && line.contains(failing), "{line}");
        let expected = if moves.starts_with("c3 a1") {
            "5/5/2r2/5/b4 r"
        } else {
            "5/5/2r2/5/5 b"
        };
        assert_eq!(e.ask("query fen"), expected);
        assert_eq!(e.go("go nodes 100").1, "0000");
    }
    // A move after the end of the game.
    let line = e.only(&format!("position fen {FINISHED_HADRON} moves b2"));
    assert!(is_error(&line) && line.contains("over"), "{line}");
    assert_eq!(e.go("go nodes 100").1, "0000");
    e.silent("position startpos moves c3");
    assert_ne!(e.go("go nodes 100").1, "0000");
}

#[test]
fn malformed_position_commands_are_errors() {
    let mut e = Engine::new();
    e.silent("position startpos moves c3");
    for bad in [
        "position",
        "position sideways",
        "position fen",
        "position startpos a1",
    ] {
        assert!(is_error(&e.only(bad)), "{bad}");
        assert_eq!(e.ask("query fen"), "5/5/2r2/5/5 b", "{bad}");
    }
}

// ---------------------------------------------------------------- go

#[test]
fn movetime_is_kept() {
    let mut e = Engine::new();
    e.ready();
    for game in ["hadron", "atoms"] {
        e.setoption("Game", game);
        e.ready();
        let mut times = Vec::new();
        for _ in 0..3 {
            let start = Instant::now();
            let (_, best) = e.go("go movetime 100");
            times.push(start.elapsed());
            assert_eq!(e.ask(&format!("query islegal {best}")), "true");
        }
        // Spent (nearly) whole, and not overrun by more than scheduling
        // noise on a busy machine.
        let fastest = *times.iter().min().unwrap();
        assert!(fastest >= Duration::from_millis(60), "{game}: {times:?}");
        assert!(fastest <= Duration::from_millis(130), "{game}: {times:?}");
        assert!(
            times.iter().all(|t| *t < Duration::from_millis(400)),
            "{game}: {times:?}"
        );
    }
}

#[test]
fn node_limits_are_exact_with_one_thread() {
    for search in ["mcts", "uct-plain", "alphabeta"] {
        let mut e = Engine::new();
        e.setoption("Search", search);
        e.ready();
        e.silent("position startpos moves c3");
        for nodes in [1, 333, 4000] {
            let (lines, _) = e.go(&format!("go nodes {nodes}"));
            let info = final_info(&lines);
            assert_eq!(field(info, "nodes"), Some(nodes), "{search}: {info}");
            assert!(!info.contains(" mate 0"), "{search}: {info}");
        }
    }
}

/// The reported line starts with the move played, also when a small
/// search leaves root moves tied (Tritium's ~150 after 200 playouts).
#[test]
fn the_final_line_starts_with_the_best_move() {
    for game in ["hadron", "tritium", "nadraz", "atoms", "ihex"] {
        for search in ["auto", "mcts", "uct-plain", "alphabeta"] {
            let mut e = Engine::new();
            e.setoption("Game", game);
            e.setoption("Search", search);
            e.ready();
            e.silent("position startpos");
            for nodes in [1, 50, 200, 1000] {
                let (lines, best) = e.go(&format!("go nodes {nodes}"));
                let info = final_info(&lines);
                let pv: Vec<&str> = info.split(" pv ").nth(1).unwrap_or("").split(' ').collect();
                assert_eq!(pv[0], best, "{game} {search} {nodes}: {info}");
            }
        }
    }
}

#[test]
fn depth_limits_end_the_search() {
    let mut e = Engine::new();
    e.setoption("Search", "alphabeta");
    for depth in [1, 3, 4] {
        let (lines, _) = e.go(&format!("go depth {depth}"));
        let info = final_info(&lines);
        assert_eq!(field(info, "depth"), Some(depth), "{info}");
    }
    e.setoption("Search", "mcts");
    e.silent("uginewgame");
    let (lines, _) = e.go("go depth 4");
    assert_eq!(field(final_info(&lines), "seldepth"), Some(4));
}

#[test]
fn infinite_searches_end_with_stop() {
    for (command, search) in [
        ("go infinite", "mcts"),
        ("go", "alphabeta"),
        ("go infinite", "uct-plain"),
        ("go infinite", "random"),
        ("go infinite movetime 10", "auto"),
    ] {
        let mut e = Engine::new();
        e.setoption("Search", search);
        e.send(command);
        std::thread::sleep(Duration::from_millis(150));
        // Still running: nothing but progress so far.
        while let Ok(line) = e.lines.try_recv() {
            assert!(line.starts_with("info "), "{command}: {line}");
        }
        e.send("stop");
        let (_, best) = e.bestmove();
        assert_eq!(e.ask(&format!("query islegal {best}")), "true");
        e.silent("stop");
    }
}

#[test]
fn isready_is_answered_at_once_while_working() {
    let mut e = Engine::new();
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(50));
    let start = Instant::now();
    e.send("isready");
    let lines = e.until(|l| l == "readyok");
    assert!(start.elapsed() < Duration::from_secs(1));
    let before = &lines[..lines.len() - 1];
    assert!(before.iter().all(|l| l.starts_with("info ")), "{lines:?}");
    e.send("stop");
    e.bestmove();

    // A perft that would run for hours.
    e.send("perft 12");
    std::thread::sleep(Duration::from_millis(50));
    let start = Instant::now();
    assert_eq!(e.only("isready"), "readyok");
    assert!(start.elapsed() < Duration::from_secs(1));
    assert_eq!(e.ask("query p1turn"), "true");
    e.send("stop");
    assert_eq!(e.next(), "info string perft 12 stopped");
    e.nothing_more();
}

#[test]
fn a_new_command_ends_the_running_search_first() {
    let mut e = Engine::new();
    e.send("go infinite");
    e.send("position startpos moves c3");
    let (_, best) = e.bestmove();
    assert!(!best.is_empty());
    assert_eq!(e.ask("query fen"), "5/5/2r2/5/5 b");
    e.send("go infinite");
    let (_, first) = e.go("go nodes 50");
    assert_ne!(first, "0000");
    let (_, second) = e.bestmove();
    assert_eq!(e.ask(&format!("query islegal {second}")), "true");
    e.send("go infinite");
    e.send("uginewgame");
    e.bestmove();
    assert_eq!(e.ask("query fen"), START_HADRON);
    e.send("go infinite");
    e.send("perft 2");
    e.bestmove();
    assert!(e.next().starts_with("perft depth 2 nodes 520 "));
}

#[test]
fn queries_during_a_search_describe_the_searched_position() {
    let mut e = Engine::new();
    e.silent("position startpos moves c3");
    e.send("go infinite");
    assert_eq!(e.ask("query fen"), "5/5/2r2/5/5 b");
    assert_eq!(e.ask("query p1turn"), "false");
    assert_eq!(e.ask("query islegal c3"), "false");
    e.send("d");
    let lines = e.until(|l| l.starts_with("moves: "));
    assert!(lines.iter().any(|l| l == "position: 5/5/2r2/5/5 b"));
    e.send("stop");
    e.bestmove();
}

#[test]
fn a_clock_for_the_other_side_only_warns_and_stays_bounded() {
    let mut e = Engine::new();
    e.ready();
    let start = Instant::now();
    let (lines, best) = e.go("go p2time 1000 p2inc 10");
    assert!(
        is_warning(&lines[0]) && lines[0].contains("p1"),
        "{lines:?}"
    );
    assert!(start.elapsed() < Duration::from_millis(1000));
    assert_eq!(e.ask(&format!("query islegal {best}")), "true");
    e.silent("position startpos moves c3");
    let start = Instant::now();
    let (lines, _) = e.go("go wtime 500 winc 10");
    assert!(is_warning(&lines[0]) && lines[0].contains("p2"));
    assert!(start.elapsed() < Duration::from_millis(500));
}

#[test]
fn a_finished_game_has_no_move() {
    let mut e = Engine::new();
    e.silent(&format!("position fen {FINISHED_HADRON}"));
    for command in ["go nodes 100", "go infinite", "go movetime 10"] {
        let (lines, best) = e.go(command);
        assert_eq!(best, "0000");
        assert_eq!(lines.len(), 1, "{lines:?}");
        assert!(
            is_error(&lines[0]) && lines[0].contains("p2win"),
            "{lines:?}"
        );
    }
    e.nothing_more();
}

#[test]
fn out_of_range_limits_warn_and_stay_bounded() {
    let mut e = Engine::new();
    e.setoption("Search", "alphabeta");
    let start = Instant::now();
    let (lines, _) = e.go("go movetime -5");
    assert!(is_warning(&lines[0]), "{lines:?}");
    assert!(start.elapsed() < Duration::from_millis(300));
    let (lines, _) = e.go("go nodes 0");
    assert!(is_warning(&lines[0]));
    assert_eq!(field(final_info(&lines), "nodes"), Some(1));
    let (lines, _) = e.go("go depth 0");
    assert!(is_warning(&lines[0]));
    assert_eq!(field(final_info(&lines), "depth"), Some(1));
    let start = Instant::now();
    let (lines, _) = e.go("go p1time -300 p2time 1000");
    assert!(is_warning(&lines[0]));
    assert!(start.elapsed() < Duration::from_millis(300));
    // Huge values are bounded, not infinite: in a small game that
    // alpha-beta solves at once, the search ends without `stop`.
    e.silent("position fen 3/3/3 r moves a1 c3");
    for (huge, warns) in [
        ("go movetime 99999999999999999999", true),
        ("go depth 5000", true),
        // Beyond 64 bits: taken as the largest number, without a warning.
        ("go nodes 99999999999999999999", false),
    ] {
        let (lines, best) = e.go(huge);
        assert_eq!(
            lines.iter().any(|l| is_warning(l)),
            warns,
            "{huge}: {lines:?}"
        );
        assert_eq!(e.ask(&format!("query islegal {best}")), "true");
    }
    e.silent("position startpos");
    // Unknown and malformed arguments warn; the rest still applies.
    let (lines, _) = e.go("go sideways depth two depth 2 nodes");
    let warnings = lines.iter().filter(|l| is_warning(l)).count();
    assert_eq!(warnings, 3, "{lines:?}");
    assert_eq!(field(final_info(&lines), "depth"), Some(2));
}

// ---------------------------------------------------------------- perft

#[test]
fn perft_and_splitperft_count_the_same_tree() {
    let mut e = Engine::new();
    let line = e.only("perft 3");
    assert!(line.starts_with("perft depth 3 nodes 9032 time "), "{line}");
    let line = e.only("go perft 3");
    assert!(line.starts_with("perft depth 3 nodes 9032 "), "{line}");
    e.silent("position startpos moves c3");
    let total: u64 = field(&e.only("perft 3"), "nodes").unwrap();
    e.send("splitperft 3");
    let lines = e.until(|l| l.starts_with("perft "));
    e.nothing_more();
    let (rows, last) = lines.split_at(lines.len() - 1);
    assert_eq!(rows.len(), 20, "one row per legal move");
    let sum: u64 = rows
        .iter()
        .map(|r| r.split_whitespace().nth(1).unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(sum, total);
    assert_eq!(field(&last[0], "nodes"), Some(total));
    // Depth 0 is the position itself; a finished game has no moves.
    assert!(e.only("perft 0").starts_with("perft depth 0 nodes 1 "));
    assert!(e.only("splitperft 0").starts_with("perft depth 0 nodes 1 "));
    e.silent(&format!("position fen {FINISHED_HADRON}"));
    assert!(e.only("perft 2").starts_with("perft depth 2 nodes 0 "));
    // Two threads count the same.
    e.setoption("Threads", "2");
    e.silent("position startpos");
    assert!(e.only("perft 3").starts_with("perft depth 3 nodes 9032 "));
    for bad in [
        "perft",
        "perft x",
        "perft -1",
        "perft 65",
        "splitperft",
        "go perft",
    ] {
        assert!(is_error(&e.only(bad)), "{bad}");
    }
}

#[test]
fn stop_and_quit_end_a_long_perft() {
    let mut e = Engine::new();
    e.send("splitperft 14");
    std::thread::sleep(Duration::from_millis(30));
    e.send("stop");
    assert_eq!(e.next(), "info string perft 14 stopped");
    e.nothing_more();
    e.send("perft 14");
    assert_eq!(e.send("quit"), Flow::Quit);
    e.driver.finish();
    assert_eq!(e.next(), "info string perft 14 stopped");
    e.nothing_more();
}

// ---------------------------------------------------------------- query, d

#[test]
fn every_query_gets_exactly_one_response() {
    let mut e = Engine::new();
    assert_eq!(e.ask("query gameover"), "false");
    assert_eq!(e.ask("query p1turn"), "true");
    assert_eq!(e.ask("query result"), "none");
    assert_eq!(e.ask("query fen"), START_HADRON);
    assert_eq!(e.ask("query position"), START_HADRON);
    assert_eq!(e.ask("query game"), "hadron size=5");
    assert_eq!(e.ask("query islegal c3"), "true");
    assert_eq!(e.ask("query islegal C3"), "true");
    assert_eq!(e.ask("query islegal f6"), "false");
    assert_eq!(e.ask("query islegal nonsense"), "false");
    let moves = e.ask("query moves");
    assert_eq!(moves.split_whitespace().count(), 25);
    e.silent(&format!("position fen {FINISHED_HADRON}"));
    assert_eq!(e.ask("query gameover"), "true");
    assert_eq!(e.ask("query result"), "p2win");
    assert_eq!(e.ask("query moves"), "none");
    assert_eq!(e.ask("query islegal b2"), "false");
    assert_eq!(e.ask("QUERY P1TURN"), "true");
    // Questions not understood: an error, then still one response.
    for junk in ["query", "query foo", "query islegal", "query   "] {
        e.send(junk);
        assert!(is_error(&e.next()), "{junk}");
        assert_eq!(e.next(), "response unknown", "{junk}");
        e.nothing_more();
    }
}

#[test]
fn d_draws_the_board_and_describes_the_position() {
    let mut e = Engine::new();
    e.silent("position startpos moves c3 a1");
    e.send("d");
    let lines = e.until(|l| l.starts_with("moves: "));
    e.nothing_more();
    let text = lines.join("\n");
    assert!(text.contains("  3  . . r . ."), "{text}");
    assert!(text.contains("game: hadron size=5"));
    assert!(text.contains("side to move: p1"));
    assert!(text.contains("result: none"));
    assert!(text.contains("position: 5/5/2r2/5/b4 r"));
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("hash: ") && l.len() == 22)
    );
    assert_eq!(lines.last().unwrap(), "moves: c3 a1");
    // Without moves since the position, there is no moves line.
    e.silent("position startpos");
    e.send("d");
    let lines = e.until(|l| l.starts_with("position: "));
    e.nothing_more();
    assert_eq!(lines.last().unwrap(), &format!("position: {START_HADRON}"));
}

// ---------------------------------------------------------------- quit, junk

#[test]
fn quit_ends_the_session_and_the_search() {
    let mut e = Engine::new();
    assert_eq!(e.send("quit"), Flow::Quit);
    assert_eq!(e.send("QUIT"), Flow::Quit);
    e.driver.finish();
    e.nothing_more();

    // An infinite search is stopped and answers.
    let mut e = Engine::new();
    e.send("go infinite");
    assert_eq!(e.send("quit"), Flow::Quit);
    let start = Instant::now();
    e.driver.finish();
    assert!(start.elapsed() < Duration::from_secs(2));
    e.bestmove();
    e.nothing_more();

    // A bounded one finishes and answers.
    let mut e = Engine::new();
    e.send("go movetime 200");
    assert_eq!(e.send("quit"), Flow::Quit);
    let start = Instant::now();
    e.driver.finish();
    assert!(start.elapsed() >= Duration::from_millis(100));
    let (_, best) = e.bestmove();
    assert_ne!(best, "0000");
}

#[test]
fn unknown_commands_are_errors_and_the_session_goes_on() {
    let mut e = Engine::new();
    for junk in [
        "hello",
        "gogo",
        "readyok",
        "bestmove a1",
        "\u{1b}[A",
        "isready now",
    ] {
        let line = e.only(junk);
        assert!(
            is_error(&line) || line == "readyok",
            "'{junk}' answered '{line}'"
        );
    }
    assert_eq!(
        e.only("hello"),
        "info string error: unknown command 'hello'"
    );
    // Bytes that are not UTF-8 arrive replaced (as the reader does it).
    let line = e.only(&String::from_utf8_lossy(b"\xff\xfe go"));
    assert!(is_error(&line), "{line}");
    e.ready();
}

#[test]
fn echoed_input_cannot_forge_a_line() {
    let mut e = Engine::new();
    for forged in [
        "foo\rbestmove a1",
        "foo\r\rbestmove a1\r",
        "query islegal\rbestmove a1",
        "setoption name Foo\rbestmove value a1",
        "go foo\rbestmove a1",
        "position fen x\rbestmove a1",
        "position startpos moves zz\rbestmove a1",
        "\u{0}bestmove\u{7f}a1",
    ] {
        e.send(forged);
        std::thread::sleep(QUIET);
        let mut replies = Vec::new();
        while let Ok(line) = e.lines.try_recv() {
            replies.push(line);
        }
        if forged.starts_with("go ") {
            // A real search: its bestmove is the only one.
            e.send("stop");
            replies.extend(e.until(|l| l.starts_with("bestmove")));
        }
        let moves = replies.iter().filter(|l| l.starts_with("bestmove")).count();
        let real = usize::from(forged.starts_with("go "));
        assert_eq!(moves, real, "{forged:?}: {replies:?}");
        for line in &replies {
            assert!(!line.contains('\r'), "{forged:?}: {line:?}");
            assert!(!line.chars().any(|c| c.is_control()), "{line:?}");
        }
    }
    e.ready();
}

#[test]
fn a_huge_line_gets_a_short_reply() {
    let mut e = Engine::new();
    let huge = "x".repeat(1 << 20);
    for line in [
        huge.clone(),
        format!("query {huge}"),
        format!("setoption name {huge} value 1"),
        format!("setoption name Hash value {huge}"),
        format!("position fen {huge}"),
        format!("position startpos moves {huge}"),
        format!("perft {huge}"),
        format!("query islegal {huge}"),
    ] {
        e.send(&line);
        std::thread::sleep(QUIET);
        let mut replies = Vec::new();
        while let Ok(reply) = e.lines.try_recv() {
            replies.push(reply);
        }
        assert!(!replies.is_empty() && replies.len() <= 2, "{replies:?}");
        for reply in &replies {
            assert!(reply.len() < 400, "{} bytes", reply.len());
        }
    }
    e.send(&format!("go {huge} nodes 10"));
    let (lines, _) = e.bestmove();
    assert!(lines.iter().all(|l| l.len() < 400));
}

// ---------------------------------------------------------------- every game

/// A few random legal moves from the start, found through the registry.
fn random_moves(config: &GameConfig, count: usize, seed: u64) -> Vec<String> {
    let mut session = registry::create(config).unwrap();
    let mut rng = GameRng::seed_from_u64(seed);
    let mut played = Vec::new();
    for _ in 0..count {
        let moves = session.legal_moves();
        if moves.is_empty() {
            break;
        }
        let mv = moves[random_below(&mut rng, moves.len())].clone();
        session.play(&mv).unwrap();
        played.push(mv);
    }
    played
}

#[test]
fn every_searcher_plays_a_legal_move_in_every_game() {
    let mut names = vec![searcher::AUTO.name];
    names.extend(SEARCHERS.iter().map(|s| s.name));
    for entry in registry::GAMES {
        let config = GameConfig::named(entry.name);
        for (i, name) in names.iter().enumerate() {
            let mut e = Engine::new();
            e.setoption("Game", entry.name);
            e.setoption("Search", name);
            e.setoption("Hash", "16");
            e.ready();
            for plies in [0, 3 + i] {
                let moves = random_moves(&config, plies, i as u64);
                e.silent(&format!("position startpos moves {}", moves.join(" ")));
                let (_, best) = e.go("go nodes 200 movetime 2000");
                // Checked by a session of its own, not the driver's.
                let mut check = registry::create(&config).unwrap();
                let refs: Vec<&str> = moves.iter().map(String::as_str).collect();
                check.set_position(None, &refs).unwrap();
                assert!(
                    check.is_legal(&best),
                    "{} {name}: {best} after {moves:?}",
                    entry.name
                );
            }
        }
    }
}

#[test]
fn d_svg_draws_the_position_on_one_line_or_into_a_file() {
    let mut e = Engine::new();
    e.setoption("Game", "hadron");
    e.setoption("Size", "5");
    e.silent("position startpos moves c3");
    let line = e.only("d svg");
    let svg = line
        .strip_prefix("info string svg ")
        .unwrap_or_else(|| panic!("'{line}' is not an SVG line"));
    assert!(svg.starts_with("<svg") && svg.ends_with("</svg>"), "{svg}");
    // Twenty-five cells, and the last move is marked.
    assert_eq!(svg.matches("class=\"cell").count(), 25, "{svg}");

    let dir = std::env::temp_dir().join(format!("quintet-d-svg-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("board.svg");
    let reply = e.only(&format!("d svg {}", file.display()));
    assert!(reply.starts_with("info string svg written to "), "{reply}");
    let written = std::fs::read_to_string(&file).unwrap();
    assert_eq!(written.replace('\n', ""), svg);

    let missing = dir.join("no-such-dir").join("board.svg");
    let reply = e.only(&format!("d svg {}", missing.display()));
    assert!(is_error(&reply), "{reply}");
    assert!(is_error(&e.only("d png")));
    // The session goes on.
    assert!(!e.ask("query fen").is_empty());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The `info` lines of the last report before `bestmove` (the block that
/// ends with the last line carrying `multipv 1`, or the last line).
fn last_block(lines: &[String]) -> Vec<&str> {
    let infos: Vec<&str> = lines
        .iter()
        .map(String::as_str)
        .filter(|l| l.starts_with("info depth"))
        .collect();
    let start = infos
        .iter()
        .rposition(|l| l.contains(" multipv 1 "))
        .unwrap_or(infos.len().saturating_sub(1));
    infos[start..].to_vec()
}

fn centipawns(line: &str) -> i64 {
    let words: Vec<&str> = line.split_whitespace().collect();
    let at = words.iter().position(|w| *w == "score").unwrap();
    let n: i64 = words[at + 2].parse().unwrap();
    match words[at + 1] {
        "cp" => n,
        // A proven win is worth more than any centipawn score, sooner more.
        _ if n > 0 => 100_000 - n,
        _ => -100_000 - n,
    }
}

#[test]
fn multipv_lines_are_distinct_and_ordered_best_first() {
    for search in ["alphabeta", "mcts"] {
        let mut e = Engine::new();
        e.setoption("Game", "hadron");
        e.setoption("Size", "5");
        e.setoption("Search", search);
        e.setoption("MultiPV", "3");
        e.ready();
        e.silent("position startpos moves c3");
        let limit = if search == "mcts" {
            "nodes 20000"
        } else {
            "depth 4"
        };
        let (lines, best) = e.go(&format!("go {limit}"));
        let block = last_block(&lines);
        assert_eq!(block.len(), 3, "{search}: {lines:?}");
        let firsts: Vec<&str> = block
            .iter()
            .enumerate()
            .map(|(k, l)| {
                assert!(l.contains(&format!(" multipv {} ", k + 1)), "{l}");
                l.split(" pv ").nth(1).unwrap().split(' ').next().unwrap()
            })
            .collect();
        assert_eq!(firsts[0], best, "{search}: line 1 is the move played");
        assert!(
            firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2],
            "{search}: {firsts:?}"
        );
        let scores: Vec<i64> = block.iter().map(|l| centipawns(l)).collect();
        assert!(
            scores.windows(2).all(|w| w[0] >= w[1]),
            "{search}: scores not best first: {scores:?}"
        );
    }
}

/// Tritium 5 opens with 180 moves. A search of 400 playouts tries each
/// of them; with `WidenAbove` below 180 the root opens them a few at a
/// time (4 + 2 sqrt(visits): at most 44 after 400).
#[test]
fn widen_above_opens_big_nodes_a_few_moves_at_a_time() {
    let tried = |widen: Option<&str>| {
        let mut e = Engine::new();
        e.setoption("Game", "tritium");
        e.setoption("Size", "5");
        e.setoption("Search", "mcts");
        e.setoption("MoveStats", "true");
        if let Some(widen) = widen {
            e.setoption("WidenAbove", widen);
        }
        e.ready();
        e.silent("position startpos");
        let (lines, best) = e.go("go nodes 400");
        assert_eq!(e.ask(&format!("query islegal {best}")), "true");
        lines
            .iter()
            .filter(|l| l.starts_with("info string movestats ") && !l.contains(" visits 0 "))
            .count()
    };
    assert_eq!(tried(None), 180);
    let widened = tried(Some("100"));
    assert!((10..=44).contains(&widened), "{widened} root moves tried");
}

#[test]
fn move_stats_and_wdl_describe_the_root() {
    let mut e = Engine::new();
    e.setoption("Game", "hadron");
    e.setoption("Size", "5");
    e.setoption("Search", "mcts");
    e.setoption("MoveStats", "true");
    e.setoption("ShowWDL", "true");
    e.ready();
    e.silent("position startpos");
    let (lines, best) = e.go("go nodes 5000");
    let info = final_info(&lines);
    let words: Vec<&str> = info.split_whitespace().collect();
    let at = words.iter().position(|w| *w == "wdl").expect("wdl shown");
    let wdl: Vec<u64> = words[at + 1..at + 4]
        .iter()
        .map(|w| w.parse().unwrap())
        .collect();
    assert_eq!(wdl.iter().sum::<u64>(), 1000, "{info}");
    let stats: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info string movestats "))
        .collect();
    // Every legal first move of Hadron 5x5 (all 25 cells), each once.
    let mut moves: Vec<&str> = stats.iter().map(|l| l.split(' ').nth(3).unwrap()).collect();
    moves.sort();
    moves.dedup();
    assert_eq!(moves.len(), 25, "{stats:?}");
    let visits = |l: &str| -> u64 {
        let w: Vec<&str> = l.split_whitespace().collect();
        w[w.iter().position(|x| *x == "visits").unwrap() + 1]
            .parse()
            .unwrap()
    };
    let total: u64 = stats.iter().rev().take(25).map(|l| visits(l)).sum();
    assert!(
        total > 4000 && total <= 5000,
        "root visits {total} of 5000 playouts"
    );
    let most = stats
        .iter()
        .rev()
        .take(25)
        .max_by_key(|l| visits(l))
        .unwrap();
    assert!(
        most.contains(&format!("movestats {best} ")),
        "{most} vs {best}"
    );
}

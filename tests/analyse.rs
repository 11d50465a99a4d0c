//! `quintet analyse` through the built binary: a game that throws away a
//! proven win (Hadron 4x4, checked by the solver), a real game played by
//! `quintet play`, the record it writes back read by `quintet replay`, the
//! HTML page with the marks, and bad input.

#[path = "common/temp_dir.rs"]
mod temp_dir;

use std::path::Path;
use std::process::{Command, Output};
use temp_dir::TempDir;

fn quintet() -> Command {
    Command::new(env!("CARGO_BIN_EXE_quintet"))
}

fn analyse(record: &Path, args: &[&str]) -> Output {
    quintet()
        .arg("analyse")
        .arg(record)
        .args(args)
        .output()
        .unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap()
}

/// A row of the table: ply, mover, move, before, best, after, loss, mark.
#[derive(Debug)]
struct Row {
    ply: usize,
    mover: String,
    played: String,
    before: String,
    best: String,
    after: String,
    loss: i32,
    mark: String,
}

/// The table's rows (the lines that start with a ply number). Scores may
/// be two words (`win in 3`), so a row is read from both ends.
fn rows(stdout: &str) -> Vec<Row> {
    stdout
        .lines()
        .filter(|l| l.trim_start().starts_with(|c: char| c.is_ascii_digit()))
        .map(|line| {
            let words: Vec<&str> = line.split_whitespace().collect();
            let (mark, rest) = match words.last() {
                Some(&m) if m.starts_with('?') => (m.to_string(), &words[..words.len() - 1]),
                _ => (String::new(), &words[..]),
            };
            // ply mover move BEFORE best AFTER loss: scores are 1 or 3 words.
            let loss = rest[rest.len() - 1].parse().unwrap();
            let score_at_end = |end: usize| -> (String, usize) {
                if end >= 3 && rest[end - 2] == "in" {
                    (rest[end - 3..end].join(" "), end - 3)
                } else {
                    (rest[end - 1].to_string(), end - 1)
                }
            };
            let (after, end) = score_at_end(rest.len() - 1);
            let best = rest[end - 1].to_string();
            let before = rest[3..end - 1].join(" ");
            Row {
                ply: rest[0].parse().unwrap(),
                mover: rest[1].to_string(),
                played: rest[2].to_string(),
                before,
                best,
                after,
                loss,
                mark,
            }
        })
        .collect()
}

/// Hadron 4x4 is a win for p2 (`quintet solve --children`); after a1 the
/// solver says c1 loses for p2 and b3 wins for p1. The moves after that
/// are p1's winning line from the engine.
const THROWN_WIN: &str = "\
# quintet match: good vs bad, hadron size=4, test
game=1 p1=good p2=bad opening=startpos result=p1win winner=good reason=rules moves=\"a1 c1 b3 d3 c3 a4 c2 b4 d2 b1 c4 a3 a2 d4 d1\"
";

#[test]
fn a_thrown_win_is_a_blunder() {
    let dir = TempDir::new("analyse-thrown");
    let record = dir.path("thrown.txt");
    std::fs::write(&record, THROWN_WIN).unwrap();
    // The solver agrees with the record's story.
    let solve = |moves: &str| {
        let out = quintet()
            .args(["--game", "hadron", "--size", "4", "solve", "--moves", moves])
            .output()
            .unwrap();
        text(&out.stdout).lines().last().unwrap().to_string()
    };
    assert!(solve("a1").starts_with("winner p2"));
    assert!(solve("a1 c1").starts_with("winner p1"));

    let html = dir.path("thrown.html");
    let out = analyse(
        &record,
        &["--nodes", "20000", "--html", html.to_str().unwrap()],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let rows = rows(&stdout);
    assert_eq!(
        rows.iter().map(|r| r.ply).collect::<Vec<_>>(),
        (1..=15).collect::<Vec<_>>(),
        "{stdout}"
    );
    for (row, mover) in rows.iter().zip(["p1", "p2"].iter().cycle()) {
        assert_eq!(row.mover, *mover);
        assert!(!row.before.is_empty() && !row.after.is_empty());
    }
    // p2 was winning before c1 and loses after it.
    let c1 = &rows[1];
    assert_eq!(c1.played, "c1");
    assert!(c1.before.starts_with("win in"), "{stdout}");
    assert!(c1.after.starts_with("loss in"), "{stdout}");
    assert_ne!(c1.best, "c1");
    assert_eq!(c1.mark, "??", "{stdout}");
    assert!(c1.loss > 300);
    // From then on p1 keeps the proven win: none of p1's moves is marked.
    for row in rows[2..].iter().filter(|r| r.mover == "p1") {
        assert!(row.before.starts_with("win in"), "{row:?}");
        assert_eq!(row.mark, "", "{row:?}");
    }
    assert_eq!(rows[14].after, "wins");
    assert!(stdout.contains("p2 (bad): 7 moves"), "{stdout}");
    assert!(stdout.contains("blunders (??) 1"), "{stdout}");
    assert!(text(&out.stderr).contains("analysing ply 15/15"));

    // The page marks the blunder in the move list and on the graph.
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.starts_with("<!DOCTYPE html>"));
    assert_eq!(page.matches("<li class=\"blunder\">").count(), 1);
    let at = page.find("<li class=\"blunder\">").unwrap();
    assert!(page[at..].contains("data-ply=\"2\""));
    assert!(page.contains("the proven win is gone"));
    assert_eq!(page.matches("<circle class=\"pt").count(), 15);
    assert_eq!(page.matches("<circle class=\"pt blunder\"").count(), 1);
}

#[test]
fn a_played_game_is_analysed_and_replayed() {
    let dir = TempDir::new("analyse-played");
    let game = dir.path("game.txt");
    // The engine plays itself on Hadron 5x5; the game is saved.
    let mut play = quintet()
        .args(["--game", "hadron", "--size", "5", "play", "--human", "none"])
        .args(["--nodes", "300"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    writeln!(play.stdin.take().unwrap(), "save {}\nquit", game.display()).unwrap();
    assert!(play.wait_with_output().unwrap().status.success());
    let record = std::fs::read_to_string(&game).unwrap();
    let moves: Vec<String> = record
        .lines()
        .find(|l| l.starts_with("game="))
        .and_then(|l| l.split("moves=\"").nth(1))
        .and_then(|m| m.split('"').next())
        .unwrap()
        .split_whitespace()
        .map(str::to_string)
        .collect();
    assert!(moves.len() > 4);

    let analysed = dir.path("analysed.txt");
    let args = ["--nodes", "3000", "--out", analysed.to_str().unwrap()];
    let out = analyse(&game, &args);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let rows = rows(&stdout);
    assert_eq!(
        rows.iter().map(|r| r.played.clone()).collect::<Vec<_>>(),
        moves
    );
    assert!(rows.iter().all(|r| r.before != "-" && !r.best.is_empty()));
    // With --nodes and one thread the analysis is the same every time.
    let again = analyse(&game, &args);
    assert_eq!(text(&again.stdout), stdout);

    // The record written back carries a score and a best move per move,
    // the ones in the table; `quintet replay` draws them.
    let written = std::fs::read_to_string(&analysed).unwrap();
    assert!(written.starts_with("# quintet play:"));
    let line = written.lines().find(|l| l.starts_with("game=")).unwrap();
    let field = |key: &str| -> Vec<String> {
        line.split(&format!(" {key}=\""))
            .nth(1)
            .and_then(|v| v.split('"').next())
            .unwrap()
            .split_whitespace()
            .map(str::to_string)
            .collect()
    };
    assert_eq!(field("moves"), moves);
    assert_eq!(field("scores").len(), moves.len());
    assert_eq!(
        field("best"),
        rows.iter().map(|r| r.best.clone()).collect::<Vec<_>>()
    );
    let html = dir.path("replay.html");
    let replay = quintet()
        .arg("replay")
        .arg(&analysed)
        .arg("--html")
        .arg(&html)
        .output()
        .unwrap();
    assert!(replay.status.success(), "{}", text(&replay.stderr));
    let page = std::fs::read_to_string(&html).unwrap();
    assert_eq!(page.matches("<circle class=\"pt\"").count(), moves.len());
    let differing = rows.iter().filter(|r| r.best != r.played).count();
    assert_eq!(page.matches("<span class=\"best\">").count(), differing);
}

#[test]
fn bad_input_is_a_clear_error() {
    let dir = TempDir::new("analyse-bad");
    let good = dir.path("good.txt");
    std::fs::write(&good, THROWN_WIN).unwrap();
    let illegal = dir.path("illegal.txt");
    std::fs::write(
        &illegal,
        "# quintet match: a vs b, hadron size=5, x\ngame=1 moves=\"c3 c3\"\n",
    )
    .unwrap();
    let garbage = dir.path("garbage.txt");
    std::fs::write(&garbage, "this is not a record\n").unwrap();
    let missing = dir.path("missing.txt");
    let cases: Vec<(&Path, Vec<&str>, &str)> = vec![
        (&missing, vec!["--nodes", "10"], "cannot read"),
        (
            &garbage,
            vec!["--nodes", "10"],
            "line 1: not a key=value field",
        ),
        (&illegal, vec!["--nodes", "10"], "ply 2: illegal move 'c3'"),
        (
            &good,
            vec!["--number", "4"],
            "no game 4 in the record (games: 1)",
        ),
        (
            &good,
            vec!["--movetime", "0"],
            "--movetime must be at least 1 ms",
        ),
        (&good, vec!["--nodes", "0"], "--nodes must be at least 1"),
        (
            &good,
            vec!["--nodes", "5", "--movetime", "5"],
            "choose one of --movetime and --nodes",
        ),
        (
            &good,
            vec!["--threshold=-5"],
            "invalid value '-5' for '--threshold",
        ),
    ];
    for (record, args, expected) in cases {
        let out = analyse(record, &args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = text(&out.stderr);
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
        assert!(out.stdout.is_empty(), "no table on an error");
    }
}

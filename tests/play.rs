//! `quintet play` through the built binary, from a pipe: people typing
//! moves and commands (bad ones too) to the end of a game, against the
//! engine turn by turn, and the engine against itself.

use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::thread;
use std::time::{Duration, Instant};

const PATIENCE: Duration = Duration::from_secs(60);

fn quintet() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_quintet"));
    command.env_remove("NO_COLOR");
    command
}

/// Runs `quintet ARGS` with all of `input` on stdin; (status, stdout).
fn run_with_input(args: &[&str], input: impl AsRef<[u8]>) -> (i32, String, String) {
    let mut child = quintet()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // A command line that fails exits before reading: a broken pipe is fine.
    let _ = child.stdin.take().unwrap().write_all(input.as_ref());
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// A legal game to its end, found by asking the engine's rules through
/// the library (the first legal move each time, which ends Hadron 4x4).
fn first_move_game(game: &str, size: usize) -> Vec<String> {
    let mut session = quintet::registry::create(&quintet::registry::GameConfig {
        game: game.into(),
        size,
        ..Default::default()
    })
    .unwrap();
    while let Some(first) = session.legal_moves().into_iter().next() {
        session.play(&first).unwrap();
    }
    session.moves_played()
}

#[test]
fn two_people_play_to_the_end_through_a_pipe() {
    let moves = first_move_game("hadron", 4);
    assert!(moves.len() >= 4);
    let dir = std::env::temp_dir().join(format!("quintet-play-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let saved = dir.join("game.txt");
    // Bad input between the moves: each gets one line and a new prompt.
    let mut input = String::from("z99\nhello world\n\nmoves\neval\nundo\n");
    input.push_str(&format!("{}\nundo\n", moves[0]));
    for mv in &moves {
        input.push_str(mv);
        input.push('\n');
    }
    input.push_str(&format!("c1\nsave {}\nquit\n", saved.display()));
    let (status, out, err) = run_with_input(
        &["--game", "hadron", "--size", "4", "play", "--human", "both"],
        &input,
    );
    assert_eq!(status, 0, "{err}");
    assert!(!out.contains('\x1b'), "no colour into a pipe");
    // Bytes that are not text are one more bad line.
    let (status, garbled, _) =
        run_with_input(&["play", "--human", "both"], b"\xff\xfe\nc3\nquit\n");
    assert_eq!(status, 0);
    assert!(garbled.contains("that line is not UTF-8 text"), "{garbled}");
    assert!(garbled.contains("last move: c3"), "{garbled}");
    assert!(
        out.contains("'z99' is not a cell of the 4x4 board; type 'moves'"),
        "{out}"
    );
    assert!(
        out.contains("'hello world' is neither a move nor a command"),
        "{out}"
    );
    assert!(out.contains("nothing to undo: no move of yours"), "{out}");
    assert!(out.contains(&format!("took back: {}", moves[0])), "{out}");
    assert!(
        out.contains("eval: ") && out.contains("(the side to move), best "),
        "{out}"
    );
    assert!(out.contains(" legal moves: "), "{out}");
    assert!(out.contains("game over: p"), "{out}");
    assert!(out.contains("the game is over; commands:"), "{out}");
    assert!(out.contains("saved to"), "{out}");
    // Every answer to bad input was followed by a prompt, never an exit.
    assert!(out.matches("p1> ").count() + out.matches("p2> ").count() >= moves.len() + 6);
    let record = std::fs::read_to_string(&saved).unwrap();
    assert!(
        record.starts_with("# quintet play: you vs you, hadron size=4"),
        "{record}"
    );
    assert!(
        record.contains(&format!("moves=\"{}\"", moves.join(" "))),
        "{record}"
    );
    assert!(record.contains("result=p"), "{record}");
    // The saved game is a record the replay reads.
    let html = dir.join("game.html");
    let status = quintet()
        .args([
            "replay",
            saved.to_str().unwrap(),
            "--html",
            html.to_str().unwrap(),
        ])
        .status()
        .unwrap();
    assert!(status.success());
    let page = std::fs::read_to_string(&html).unwrap();
    assert_eq!(page.matches("<g class=\"ply\"").count(), moves.len() + 1);
    std::fs::remove_dir_all(&dir).ok();
}

/// The child's output as it arrives, in chunks (prompts end without a newline).
fn reader(mut stdout: impl Read + Send + 'static) -> Receiver<String> {
    let (tx, rx) = channel();
    thread::spawn(move || {
        let mut buf = [0u8; 4096];
        while let Ok(n) = stdout.read(&mut buf) {
            if n == 0
                || tx
                    .send(String::from_utf8_lossy(&buf[..n]).into_owned())
                    .is_err()
            {
                break;
            }
        }
    });
    rx
}

/// Reads until new output ends with one of `prompts`; returns the text
/// since the call and the prompt.
fn until_prompt(rx: &Receiver<String>, seen: &mut String, prompts: &[&str]) -> (String, String) {
    let start = Instant::now();
    let from = seen.len();
    loop {
        let fresh = seen.len() > from;
        if let Some(p) = prompts.iter().find(|p| fresh && seen.ends_with(*p)) {
            return (seen[from..].to_string(), p.to_string());
        }
        let left = PATIENCE.saturating_sub(start.elapsed());
        match rx.recv_timeout(left) {
            Ok(chunk) => seen.push_str(&chunk),
            Err(_) => panic!("no prompt {prompts:?} within {PATIENCE:?}; output:\n{seen}"),
        }
    }
}

#[test]
fn a_person_plays_the_engine_move_by_move() {
    let mut child = quintet()
        .args([
            "--game", "ihex", "--size", "4", "play", "--human", "p1", "--nodes", "200",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let rx = reader(child.stdout.take().unwrap());
    let mut stdin = child.stdin.take().unwrap();
    let mut seen = String::new();
    let mut turns = 0;
    loop {
        let (_, prompt) = until_prompt(&rx, &mut seen, &["p1> ", "game over> "]);
        if prompt == "game over> " {
            break;
        }
        // Ask for the legal moves as a person would, and play the last listed.
        writeln!(stdin, "moves").unwrap();
        let (text, _) = until_prompt(&rx, &mut seen, &["p1> "]);
        let list = text
            .lines()
            .find(|l| l.contains("legal moves"))
            .unwrap_or_else(|| panic!("no move list in {text}"));
        let mv = list.split_whitespace().last().unwrap().to_string();
        writeln!(stdin, "{mv}").unwrap();
        turns += 1;
        if turns == 3 {
            // Take back this move and the engine's replies (a capture in
            // Ihex lets a side move again), then go on.
            let (text, prompt) = until_prompt(&rx, &mut seen, &["p1> ", "game over> "]);
            let replies = text.matches("quintet (p2) plays").count();
            writeln!(stdin, "undo").unwrap();
            let (text, _) = until_prompt(&rx, &mut seen, &["p1> "]);
            let took = text.lines().find(|l| l.starts_with("took back: ")).unwrap();
            assert_eq!(
                took.split_whitespace().count(),
                3 + replies,
                "{took} ({prompt})"
            );
            assert!(took.starts_with(&format!("took back: {mv}")), "{took}");
            writeln!(stdin, "board").unwrap();
        }
        assert!(turns < 400, "the game does not end");
    }
    assert!(seen.contains("quintet (p2) plays"), "{seen}");
    assert!(seen.contains("game over: "), "{seen}");
    writeln!(stdin, "quit").unwrap();
    drop(stdin);
    let status = child.wait().unwrap();
    assert!(status.success());
}

#[test]
fn the_engine_plays_itself_and_input_may_end() {
    let (status, out, err) = run_with_input(
        &[
            "--game", "hadron", "--size", "4", "play", "--human", "none", "--nodes", "100",
        ],
        "",
    );
    assert_eq!(status, 0, "{err}");
    assert!(out.contains("quintet (p1) plays"), "{out}");
    assert!(out.contains("quintet (p2) plays"), "{out}");
    assert!(out.contains("game over: p"), "{out}");
    assert!(out.trim_end().ends_with("game over>"), "{out}");
}

#[test]
fn bad_command_lines_are_errors() {
    for args in [
        &["play", "--human", "p3"][..],
        &["play", "--movetime", "10", "--nodes", "10"][..],
        &["--game", "chess", "play"][..],
        &["--game", "hadron", "--size", "99", "play"][..],
    ] {
        let (status, _, err) = run_with_input(args, "quit\n");
        assert_eq!(status, 2, "{args:?}");
        // Ours say "quintet: ...", clap's (an unknown game name) "error: ...".
        assert!(
            err.starts_with("quintet: ") || err.starts_with("error: "),
            "{args:?}: {err}"
        );
    }
}

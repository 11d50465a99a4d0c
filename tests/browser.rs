//! The replay page in a real browser: `tests/browser/replay_check.py`
//! drives headless Chromium (Debian's `chromium`) through key presses and
//! clicks and checks the page after each step. Where Chromium or python3
//! is missing the test installs nothing: it says loudly that it skipped
//! (on stderr, past the test harness's capture) and passes.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

fn quintet() -> Command {
    Command::new(env!("CARGO_BIN_EXE_quintet"))
}

fn found(program: &str) -> bool {
    Command::new("sh")
        .args(["-c", &format!("command -v {program}")])
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Why the browser check cannot run here, if it cannot.
fn missing() -> Option<String> {
    if !found("python3") {
        return Some("python3 is not installed".into());
    }
    let chromium = std::env::var("QUINTET_CHROMIUM").unwrap_or_else(|_| "chromium".into());
    if !found(&chromium) {
        return Some(format!(
            "{chromium} is not installed (apt-get install -y chromium; CI installs it)"
        ));
    }
    None
}

fn check_page(page: &Path, plies: usize, scores: bool, screenshot: &Path) {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/browser/replay_check.py");
    let mut command = Command::new("python3");
    command
        .arg(script)
        .arg(page)
        .args(["--plies", &plies.to_string(), "--screenshot"])
        .arg(screenshot);
    if scores {
        command.arg("--scores");
    }
    let out = command.output().unwrap();
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{report}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(report.contains("replay_check: ok"), "{report}");
    let png = std::fs::read(screenshot).unwrap();
    assert!(png.starts_with(b"\x89PNG"), "the screenshot is a PNG");
}

fn plies_of(record: &str) -> usize {
    record
        .split_whitespace()
        .find_map(|w| w.strip_prefix("plies="))
        .unwrap()
        .parse()
        .unwrap()
}

#[test]
fn replay_pages_work_in_chromium() {
    if let Some(why) = missing() {
        let _ = writeln!(
            std::io::stderr(),
            "\n*** SKIPPED replay_pages_work_in_chromium: {why} ***\n"
        );
        return;
    }
    // Screenshots stay in target/ for a person to look at.
    let dir: PathBuf = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/replay-check");
    std::fs::create_dir_all(&dir).unwrap();

    // A Tritium game the engine played against itself, saved by `play`:
    // it carries the engine's scores, so the page has a graph.
    let record = dir.join("tritium.txt");
    let out = quintet()
        .args([
            "--game", "tritium", "--size", "4", "play", "--human", "none", "--nodes", "300",
        ])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .spawn()
        .and_then(|mut child| {
            let mut stdin = child.stdin.take().unwrap();
            // Saved once the game is over (the engine plays until then).
            writeln!(stdin, "save {}\nquit", record.display()).unwrap();
            drop(stdin);
            child.wait()
        })
        .unwrap();
    assert!(out.success());
    let text = std::fs::read_to_string(&record).unwrap();
    assert!(text.contains("scores="), "{text}");
    let page = dir.join("tritium.html");
    let status = quintet()
        .arg("replay")
        .arg(&record)
        .arg("--html")
        .arg(&page)
        .status()
        .unwrap();
    assert!(status.success());
    check_page(&page, plies_of(&text), true, &dir.join("tritium.png"));

    // A match record (no scores: no graph) of a hexhex game with eggs and
    // snakes, started from an opening.
    let bin = env!("CARGO_BIN_EXE_quintet");
    let record = dir.join("nadraz.txt");
    let openings = dir.join("openings.txt");
    // A record left by an earlier run would be refused (not this match's).
    let _ = std::fs::remove_file(&record);
    std::fs::write(&openings, "moves B@c3+W@e5 white\n").unwrap();
    let status = quintet()
        .args([
            "--game", "nadraz", "--size", "5", "match", "--nodes", "200", "--games", "2",
        ])
        .args(["--engine", &format!("name=auto cmd={bin}")])
        .args([
            "--engine",
            &format!("name=random cmd={bin} option.Search=random"),
        ])
        .arg("--openings")
        .arg(&openings)
        .arg("--record")
        .arg(&record)
        .output()
        .unwrap();
    assert!(
        status.status.success(),
        "{}",
        String::from_utf8_lossy(&status.stderr)
    );
    let text = std::fs::read_to_string(&record).unwrap();
    let line = text.lines().find(|l| l.starts_with("game=1 ")).unwrap();
    let page = dir.join("nadraz.html");
    let status = quintet()
        .arg("replay")
        .arg(&record)
        .args(["--number", "1", "--html"])
        .arg(&page)
        .status()
        .unwrap();
    assert!(status.success());
    // The page's plies include the opening's two.
    check_page(&page, plies_of(line) + 2, false, &dir.join("nadraz.png"));
}

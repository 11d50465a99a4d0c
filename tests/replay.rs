//! `quintet replay` through the built binary: a real `quintet match`
//! record, a record that carries engine scores and best moves, and bad
//! records. Checks the page's structure: one board layer per ply, the
//! move list, the score graph exactly when there are scores, and nothing
//! that would load from a network.

#[path = "common/temp_dir.rs"]
mod temp_dir;

use std::path::Path;
use std::process::Command;
use temp_dir::TempDir;

fn quintet() -> Command {
    Command::new(env!("CARGO_BIN_EXE_quintet"))
}

/// `quintet replay RECORD ARGS --html OUT`: (success, the page or stderr).
fn replay(record: &Path, args: &[&str], out: &Path) -> (bool, String) {
    let output = quintet()
        .arg("replay")
        .arg(record)
        .args(args)
        .arg("--html")
        .arg(out)
        .output()
        .unwrap();
    if output.status.success() {
        (true, std::fs::read_to_string(out).unwrap())
    } else {
        assert_eq!(output.status.code(), Some(2));
        (false, String::from_utf8(output.stderr).unwrap())
    }
}

/// The page's structure: (ply layers, move buttons, graph points).
fn structure(page: &str) -> (usize, usize, usize) {
    assert!(page.starts_with("<!DOCTYPE html>"));
    // Self-contained: no scripts, styles, fonts or images from elsewhere.
    for bad in ["src=", "href=", "@import", "url(", "<link", "@font-face"] {
        assert!(
            !page.contains(bad),
            "the page refers to something outside: {bad}"
        );
    }
    let without_namespace = page.replace("xmlns=\"http://www.w3.org/2000/svg\"", "");
    assert!(
        !without_namespace.contains("http"),
        "a network address in the page"
    );
    // The board is well-formed SVG with one layer per ply, numbered in order.
    let start = page.find("<svg id=\"board\"").expect("the board");
    let end = start + page[start..].find("</svg>").unwrap() + "</svg>".len();
    let doc = roxmltree::Document::parse(&page[start..end]).expect("the board parses as XML");
    let layers: Vec<usize> = doc
        .descendants()
        .filter(|n| n.attribute("class") == Some("ply"))
        .map(|n| n.attribute("data-ply").unwrap().parse().unwrap())
        .collect();
    assert_eq!(layers, (0..layers.len()).collect::<Vec<_>>());
    let buttons = page.matches("class=\"mv").count();
    let points = page.matches("<circle class=\"pt\"").count();
    for id in ["first", "prev", "next", "last", "counter", "moves"] {
        assert!(page.contains(&format!("id=\"{id}\"")), "no #{id}");
    }
    (layers.len(), buttons, points)
}

#[test]
fn a_match_record_replays_ply_by_ply() {
    let dir = TempDir::new("replay-match");
    let record = dir.path("games.txt");
    let bin = env!("CARGO_BIN_EXE_quintet");
    let status = quintet()
        .args(["--game", "ihex", "--size", "4", "match"])
        .args(["--engine", &format!("name=auto cmd={bin}")])
        .args([
            "--engine",
            &format!("name=random cmd={bin} option.Search=random"),
        ])
        .args(["--nodes", "100", "--games", "2", "--concurrency", "1"])
        .arg("--record")
        .arg(&record)
        .output()
        .unwrap()
        .status;
    assert!(status.success());
    let text = std::fs::read_to_string(&record).unwrap();
    let line = text.lines().find(|l| l.starts_with("game=2 ")).unwrap();
    let plies = line
        .split_whitespace()
        .find_map(|w| w.strip_prefix("plies="))
        .unwrap()
        .parse::<usize>()
        .unwrap();
    // The rules come from the record's header, whatever --game says.
    let html = dir.path("game2.html");
    let (ok, page) = replay(&record, &["--game", "atoms", "--number", "2"], &html);
    assert!(ok, "{page}");
    let (layers, buttons, points) = structure(&page);
    assert_eq!(layers, plies + 1);
    assert_eq!(buttons, plies + 1, "start plus one button per move");
    assert_eq!(points, 0, "no scores, no graph");
    assert!(!page.contains("id=\"scores\""));
    assert!(page.contains("game 2 (pair 1): random vs auto"));
    assert!(page.contains("ihex size=4"));
}

#[test]
fn scores_and_best_moves_are_shown() {
    let dir = TempDir::new("replay-scores");
    let record = dir.path("scored.txt");
    // Atoms 6x6 with 3 atoms each: an opening of two drops, then four
    // scored drops (one without a score), one with a better move named.
    std::fs::write(
        &record,
        "# quintet analyse: a vs b, atoms size=6 stones=3 variant=standard\n\
         game=7 pair=4 p1=a p2=b opening=\"moves c3 d4\" result=p1win reason=rules plies=4 \
         moves=\"e5 f6 b2 a1\" scores=\"35 -40 - #2\" best=\"e5 - c2 -\" final=\"\"\n",
    )
    .unwrap();
    let html = dir.path("scored.html");
    let (ok, page) = replay(&record, &["--number", "7"], &html);
    assert!(ok, "{page}");
    let (layers, buttons, points) = structure(&page);
    assert_eq!(layers, 2 + 4 + 1);
    assert_eq!(buttons, 2 + 4 + 1);
    assert_eq!(points, 3, "three scored moves");
    assert!(page.contains("id=\"scores\""));
    assert_eq!(page.matches("class=\"mv opening\"").count(), 2);
    // The best move is shown where it differs from the move played.
    assert!(page.contains("best: c2"));
    assert!(!page.contains("best: e5"), "e5 was played: no annotation");
    assert!(
        page.contains(">win in 2</span>"),
        "a proven score reads as words"
    );
    // Scores are from the mover's view; the graph shows p1's: after p2's
    // "-40" p1 stands better than even (the point is above the middle).
    let point = |ply: usize| -> f64 {
        let at = page.find(&format!("data-ply=\"{ply}\" cx=")).unwrap();
        let cy = &page[at..].split("cy=\"").nth(1).unwrap();
        cy.split('"').next().unwrap().parse().unwrap()
    };
    let middle = 10.0 + (120.0 - 20.0) / 2.0;
    assert!(point(3) < middle, "p1 scored +35: above the middle");
    assert!(point(4) < middle, "p2 scored -40: p1 above the middle");
    assert!(
        (point(6) - (120.0 - 10.0)).abs() < 0.1,
        "p2 mates: p1 at the bottom"
    );
}

#[test]
fn bad_records_are_clear_errors() {
    let dir = TempDir::new("replay-bad");
    let html = dir.path("out.html");
    let cases = [
        (
            "illegal.txt",
            "# quintet match: a vs b, hadron size=5, x\ngame=1 moves=\"c3 c3\"\n",
            vec![],
            "ply 2: illegal move 'c3'",
        ),
        ("empty.txt", "# nothing\n", vec![], "no game in the record"),
        (
            "number.txt",
            "game=1 moves=c3\ngame=2 moves=c3\n",
            vec!["--number", "5"],
            "no game 5 in the record (games: 1..2)",
        ),
        (
            "garbage.txt",
            "this is not a record\n",
            vec![],
            "line 1: not a key=value field",
        ),
        (
            "scores.txt",
            "game=1 moves=c3 scores=\"1 2\"\n",
            vec![],
            "scores: 2 entries for 1 moves",
        ),
    ];
    for (name, text, args, expected) in cases {
        let record = dir.path(name);
        std::fs::write(&record, text).unwrap();
        let (ok, err) = replay(&record, &args, &html);
        assert!(!ok, "{name}");
        assert!(err.contains(expected), "{name}: {err}");
    }
    let (ok, err) = replay(&dir.path("missing.txt"), &[], &html);
    assert!(!ok && err.contains("cannot read"), "{err}");
}

//! The match runner through the built binary: short real matches, fake
//! engines that fail in each way (tests/fixtures/*.sh), Ctrl-C, bad input;
//! and the statistics against values computed independently.

#[path = "common/temp_dir.rs"]
mod temp_dir;

use quintet::matches::record;
use quintet::matches::stats::{Pentanomial, Sprt, Trinomial, elo_of_score, score_of_elo};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};
use temp_dir::TempDir;

const QUINTET: &str = env!("CARGO_BIN_EXE_quintet");

fn fixture(name: &str) -> String {
    format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// A fresh scratch directory for one test (removed when it passes).
fn scratch(test: &str) -> TempDir {
    TempDir::new(&format!("match-{test}"))
}

fn quintet_engine(name: &str, search: &str) -> String {
    format!("name={name} cmd='{QUINTET}' option.Search={search} option.Hash=4")
}

fn run_match(args: &[&str]) -> Output {
    Command::new(QUINTET)
        .arg("match")
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("run quintet match")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// W, D, L from the summary line `A vs B: W-D-L w-d-l, ...`.
fn wdl(summary: &str) -> (u64, u64, u64) {
    let line = summary
        .lines()
        .find(|l| l.contains(": W-D-L "))
        .unwrap_or_else(|| panic!("no W-D-L line in:\n{summary}"));
    let numbers = line
        .split("W-D-L ")
        .nth(1)
        .unwrap()
        .split(',')
        .next()
        .unwrap();
    let n: Vec<u64> = numbers
        .split('-')
        .map(|x| x.trim().parse().unwrap())
        .collect();
    (n[0], n[1], n[2])
}

/// The game records of a record file, as field maps.
fn records(path: &PathBuf) -> Vec<std::collections::HashMap<String, String>> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| record::parse_line(l).unwrap().into_iter().collect())
        .collect()
}

#[test]
fn a_short_match_has_consistent_totals_and_records() {
    let dir = scratch("short");
    let openings = dir.join("openings.txt");
    std::fs::write(
        &openings,
        "# two openings\nmoves c3 d4\nstartpos # the start\n",
    )
    .unwrap();
    let record_file = dir.join("games.txt");
    let out = run_match(&[
        "--game",
        "hadron",
        "--size",
        "5",
        "--engine",
        &quintet_engine("mcts", "mcts"),
        "--engine",
        &quintet_engine("random", "random"),
        "--nodes",
        "300",
        "--games",
        "6",
        "--concurrency",
        "2",
        "--openings",
        openings.to_str().unwrap(),
        "--record",
        record_file.to_str().unwrap(),
        "--cross-check",
    ]);
    let summary = text(&out.stdout);
    assert!(out.status.success(), "{summary}\n{}", text(&out.stderr));
    let (w, d, l) = wdl(&summary);
    assert_eq!(w + d + l, 6, "{summary}");
    assert!(summary.contains("Games: 6 finished (3 complete pairs)"));
    assert!(summary.contains("Cross-check: 0 games with disagreements"));
    let games = records(&record_file);
    assert_eq!(games.len(), 6);
    let mut wins_of_mcts = 0;
    for game in &games {
        let n: u64 = game["game"].parse().unwrap();
        // A (mcts) sits at p1 in the first game of each pair.
        let (p1, p2) = if n % 2 == 1 {
            ("mcts", "random")
        } else {
            ("random", "mcts")
        };
        assert_eq!((game["p1"].as_str(), game["p2"].as_str()), (p1, p2));
        let opening = if ((n - 1) / 2).is_multiple_of(2) {
            "moves c3 d4"
        } else {
            "startpos"
        };
        assert_eq!(game["opening"], opening);
        assert_eq!(game["reason"], "rules");
        assert!(game["p1_ms"].parse::<u64>().is_ok() && game["p2_ms"].parse::<u64>().is_ok());
        let plies: usize = game["plies"].parse().unwrap();
        assert_eq!(game["moves"].split_whitespace().count(), plies);
        assert!(["p1win", "p2win", "draw"].contains(&game["result"].as_str()));
        if game.get("winner").map(String::as_str) == Some("mcts") {
            wins_of_mcts += 1;
        }
    }
    assert_eq!(wins_of_mcts, w);
}

/// Each fake engine loses every game, with the reason given, and the match
/// goes on to the end.
#[test]
fn failing_engines_lose_with_the_right_reason() {
    let dir = scratch("failures");
    let cases = [
        (
            "illegal-engine.sh",
            "illegal-move",
            "z99",
            &["--movetime", "20"][..],
        ),
        (
            "crash-engine.sh",
            "crash",
            "status 3",
            &["--movetime", "20"],
        ),
        (
            "hang-engine.sh",
            "timeout",
            "did not answer",
            &["--movetime", "20"],
        ),
        (
            "malformed-engine.sh",
            "malformed",
            "replied",
            &["--movetime", "20"],
        ),
        (
            "hang-engine.sh",
            "time-forfeit",
            "clock",
            &["--tc", "150ms+0ms"],
        ),
    ];
    for (index, (script, reason, detail, tc)) in cases.iter().enumerate() {
        let record_file = dir.join(format!("games-{index}.txt"));
        let mut args = vec![
            "--game".to_string(),
            "hadron".into(),
            "--size".into(),
            "5".into(),
            "--engine".into(),
            quintet_engine("quintet", "random"),
            "--engine".into(),
            format!("name=fake cmd='{}'", fixture(script)),
            "--timeout-margin".into(),
            "50".into(),
            "--games".into(),
            "4".into(),
            "--concurrency".into(),
            "2".into(),
            "--record".into(),
            record_file.to_str().unwrap().into(),
        ];
        args.extend(tc.iter().map(|s| s.to_string()));
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = run_match(&args);
        let summary = text(&out.stdout);
        assert!(out.status.success(), "{script}: {}", text(&out.stderr));
        assert_eq!(wdl(&summary), (4, 0, 0), "{script}:\n{summary}");
        assert!(
            summary.contains(&format!("Forfeits: fake {reason} 4")),
            "{script}:\n{summary}"
        );
        let games = records(&record_file);
        assert_eq!(games.len(), 4, "{script}");
        for game in games {
            assert_eq!(game["reason"], *reason, "{script}");
            assert_eq!(game["winner"], "quintet", "{script}");
            assert!(
                game["detail"].contains(detail),
                "{script}: {}",
                game["detail"]
            );
        }
    }
}

/// Sends `signal` (e.g. "-INT") to a running match and waits at most 10 s
/// for it to exit; its output.
fn stop_with(mut child: Child, signal: &str) -> Output {
    let sent = Command::new("kill")
        .args([signal, &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "no exit after kill {signal}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

#[test]
fn ctrl_c_ends_with_a_summary_of_finished_games() {
    let child = Command::new(QUINTET)
        .args([
            "match",
            "--game",
            "hadron",
            "--size",
            "5",
            "--movetime",
            "50",
        ])
        .args(["--engine", &quintet_engine("a", "mcts")])
        .args(["--engine", &quintet_engine("b", "uct-plain")])
        .args(["--games", "1000", "--concurrency", "1"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(1200));
    let out = stop_with(child, "-INT");
    let summary = text(&out.stdout);
    assert_eq!(out.status.code(), Some(130), "{summary}");
    assert!(summary.contains("Interrupted by Ctrl-C"), "{summary}");
    let (w, d, l) = wdl(&summary);
    assert!(w + d + l < 1000);
}

#[test]
fn bad_input_is_reported_not_panicked_on() {
    let dir = scratch("bad");
    let bad_openings = dir.join("bad.txt");
    std::fs::write(&bad_openings, "moves c3\nmoves c3 c3\n").unwrap();
    let good = quintet_engine("q", "random");
    let sometimes = format!("{good} restart=sometimes");
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["--engine", &good, "--movetime", "10"], "at least two"),
        (
            vec!["--engine", &good, "--engine", "name=x", "--movetime", "10"],
            "cmd=<program> is missing",
        ),
        (
            vec![
                "--engine",
                &good,
                "--engine",
                "cmd=/no/such/engine",
                "--movetime",
                "10",
            ],
            "cannot start engine",
        ),
        (
            vec!["--engine", &good, "--engine", &good],
            "choose a time control",
        ),
        (
            vec![
                "--engine",
                &good,
                "--engine",
                &good,
                "--movetime",
                "10",
                "--openings",
                bad_openings.to_str().unwrap(),
            ],
            "bad.txt:2",
        ),
        (
            vec![
                "--engine",
                &good,
                "--engine",
                &good,
                "--tc",
                "fast",
                "--movetime",
                "10",
            ],
            "is not a time",
        ),
        (
            vec![
                "--engine",
                &good,
                "--engine",
                &good,
                "--movetime",
                "10",
                "--sprt",
                "elo0=5 elo1=0",
            ],
            "elo1",
        ),
        (
            vec![
                "--engine",
                &good,
                "--engine",
                &good,
                "--engine",
                &good,
                "--movetime",
                "10",
                "--sprt",
                "0,5",
            ],
            "--sprt needs exactly two engines (got 3)",
        ),
        (
            vec![
                "--engine",
                &good,
                "--engine",
                &good,
                "--movetime",
                "10",
                "--sprt",
                "0,5",
                "--shard",
                "1/2",
            ],
            "--sprt cannot stop a match that runs in shards",
        ),
        (
            vec![
                "--engine",
                &good,
                "--engine",
                &good,
                "--movetime",
                "10",
                "--shard",
                "5/4",
            ],
            "expected K/N with 1 <= K <= N",
        ),
        (
            vec![
                "--engine",
                &good,
                "--engine",
                &good,
                "--movetime",
                "10",
                "--resume",
            ],
            "--resume continues the match in a --record file",
        ),
        (
            vec![
                "--engine",
                &good,
                "--engine",
                &good,
                "--movetime",
                "10",
                "--adjudicate-draw",
                "score=ten moves=3",
            ],
            "--adjudicate-draw 'score=ten moves=3'",
        ),
        (
            vec![
                "--engine",
                &good,
                "--engine",
                &sometimes,
                "--movetime",
                "10",
            ],
            "restart=sometimes: use restart=on or restart=off",
        ),
    ];
    for (args, expected) in cases {
        let out = run_match(&args);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}

#[test]
fn sprt_stops_a_lopsided_match_early() {
    let out = run_match(&[
        "--game",
        "hadron",
        "--size",
        "5",
        "--engine",
        &quintet_engine("quintet", "random"),
        "--engine",
        &format!("name=fake cmd='{}'", fixture("illegal-engine.sh")),
        "--movetime",
        "10",
        "--sprt",
        "elo0=0 elo1=50",
        "--games",
        "400",
    ]);
    let summary = text(&out.stdout);
    assert!(out.status.success());
    assert!(summary.contains("H1 accepted"), "{summary}");
    let (w, d, l) = wdl(&summary);
    assert!(w + d + l < 400 && l == 0, "{summary}");
}

// ---- statistics, against values computed independently ----

fn close(a: f64, b: f64, tolerance: f64) -> bool {
    (a - b).abs() <= tolerance
}

#[test]
fn trinomial_elo_matches_hand_computation() {
    // 60 wins, 20 draws, 20 losses: score 0.7, per-game standard
    // deviation sqrt((60·0.3² + 20·0.2² + 20·0.7²)/100) = 0.4, so the
    // standard error of the mean is 0.04 and the 95% interval of the score
    // is 0.7 ± 1.96·0.04. Elo = 400·log10(0.7/0.3).
    let t = Trinomial {
        wins: 60,
        draws: 20,
        losses: 20,
    };
    let e = t.estimate().unwrap();
    assert!(close(e.elo, 400.0 * (7.0f64 / 3.0).log10(), 1e-9));
    assert!(close(e.elo, 147.190_714, 1e-5));
    assert!(close(e.low, 86.225_015, 1e-5), "{e:?}");
    assert!(close(e.high, 218.251_778, 1e-5), "{e:?}");
    assert!(close(elo_of_score(score_of_elo(-123.4)), -123.4, 1e-9));
}

/// The exact generalized LLR (the multinomial maximum likelihood under
/// each hypothesis's mean), solved numerically: the constrained maximum is
/// p_i = q_i / (1 + λ(x_i − s)), with λ found by bisection.
fn llr_exact_mle(counts: [u64; 5], elo0: f64, elo1: f64) -> f64 {
    let n: f64 = counts.iter().sum::<u64>() as f64;
    let q: Vec<f64> = counts.iter().map(|&c| c as f64 / n).collect();
    let x = [0.0, 0.25, 0.5, 0.75, 1.0];
    let fit = |s: f64| -> Vec<f64> {
        let constraint = |lambda: f64| -> f64 {
            (0..5)
                .map(|i| q[i] * (x[i] - s) / (1.0 + lambda * (x[i] - s)))
                .sum()
        };
        let (mut lo, mut hi) = (-1.0 / (1.0 - s) + 1e-12, 1.0 / s - 1e-12);
        for _ in 0..200 {
            let mid = (lo + hi) / 2.0;
            if constraint(mid) > 0.0 {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        let lambda = (lo + hi) / 2.0;
        (0..5).map(|i| q[i] / (1.0 + lambda * (x[i] - s))).collect()
    };
    let (p0, p1) = (fit(score_of_elo(elo0)), fit(score_of_elo(elo1)));
    (0..5)
        .filter(|&i| counts[i] > 0)
        .map(|i| counts[i] as f64 * (p1[i] / p0[i]).ln())
        .sum()
}

#[test]
fn pentanomial_llr_matches_independent_computations() {
    // Every bin seen: the engine's LLR is the exact multinomial one.
    let cases: [([u64; 5], f64, f64); 5] = [
        ([10, 20, 40, 20, 10], 0.0, 5.0),
        ([5, 15, 40, 25, 15], 0.0, 5.0),
        ([20, 90, 300, 110, 30], 0.0, 10.0),
        ([31, 102, 250, 98, 29], -3.0, 1.0),
        ([1, 2, 6, 30, 161], 350.0, 450.0),
    ];
    for (counts, elo0, elo1) in cases {
        let llr = Pentanomial { counts }.llr(elo0, elo1);
        let exact = llr_exact_mle(counts, elo0, elo1);
        assert!(close(llr, exact, 1e-7), "{counts:?}: {llr} vs {exact}");
    }
    // Near the hypotheses it is close to the normal approximation
    // N·(s1 − s0)·(2m − s0 − s1) / (2s²): [10, 20, 40, 20, 10] has mean 1/2
    // and variance (2·10·0.5² + 2·20·0.25²) / 100 = 0.075.
    let s1 = 1.0 / (1.0 + 10f64.powf(-5.0 / 400.0));
    let normal = 100.0 * (s1 - 0.5) * (1.0 - 0.5 - s1) / (2.0 * 0.075);
    let llr = Pentanomial {
        counts: [10, 20, 40, 20, 10],
    }
    .llr(0.0, 5.0);
    assert!(close(normal, -0.034_512_800_5, 1e-9));
    assert!((llr - normal).abs() < 0.002, "{llr} vs {normal}");
    // The SPRT decides at the Wald bounds, and the LLR grows with the pairs.
    let counts = [20, 90, 300, 110, 30];
    let llr = Pentanomial { counts }.llr(0.0, 10.0);
    assert!(close(llr, 1.920_674_75, 1e-6), "{llr}");
    let sprt = Sprt::parse("elo0=0 elo1=10").unwrap();
    assert_eq!(sprt.decide(llr), None);
    let doubled = Pentanomial {
        counts: counts.map(|c| c * 2),
    };
    assert!(close(doubled.llr(0.0, 10.0), 2.0 * llr, 1e-9));
    assert_eq!(
        sprt.decide(doubled.llr(0.0, 10.0)),
        Some(quintet::matches::stats::Decision::H1)
    );
}

#[test]
fn an_sprt_far_from_even_needs_its_pairs() {
    // Every pair won, at elo0=400 elo1=500: the nearest distribution of
    // each hypothesis wins a pair with its expected score s and loses the
    // rest, so each pair adds ln(s1/s0) (about 0.041) and the upper bound
    // ln(19) needs about 72 pairs. (The normal approximation, with the
    // empty bins' tiny variance, crossed it on the first ten.)
    let sprt = Sprt::parse("elo0=400 elo1=500").unwrap();
    let per_pair = (score_of_elo(500.0) / score_of_elo(400.0)).ln();
    let all_won = |pairs: u64| Pentanomial {
        counts: [0, 0, 0, 0, pairs],
    };
    for pairs in [10, 50, 100] {
        let llr = all_won(pairs).llr(400.0, 500.0);
        let exact = llr_exact_mle([0, 0, 0, 0, pairs], 400.0, 500.0);
        assert!(close(llr, pairs as f64 * per_pair, 1e-3), "{pairs}: {llr}");
        assert!(close(llr, exact, 1e-3), "{pairs}: {llr} vs {exact}");
    }
    assert_eq!(sprt.decide_pairs(&all_won(10)), None);
    assert_eq!(sprt.decide_pairs(&all_won(70)), None);
    assert_eq!(
        sprt.decide_pairs(&all_won(75)),
        Some(quintet::matches::stats::Decision::H1)
    );
    // Hypotheses of a certain result still give a finite LLR.
    assert!(all_won(20).llr(5000.0, 9000.0).is_finite());
    assert!(all_won(20).llr(-9000.0, -5000.0).is_finite());
    // A lost pair among them weighs heavily against H1.
    let one_lost = Pentanomial {
        counts: [1, 0, 0, 0, 99],
    };
    assert!(one_lost.llr(400.0, 500.0) < all_won(99).llr(400.0, 500.0) - 0.5);
}

#[test]
fn pentanomial_elo_interval() {
    // [5, 15, 40, 25, 15]: mean 0.575, variance 0.069375 per pair, 100
    // pairs: the score interval is 0.575 ± 1.96·sqrt(0.00069375).
    let p = Pentanomial {
        counts: [5, 15, 40, 25, 15],
    };
    let e = p.estimate().unwrap();
    let half = 1.959_963_984_540_054 * 0.000_693_75f64.sqrt();
    assert!(close(e.elo, elo_of_score(0.575), 1e-9));
    assert!(close(e.low, elo_of_score(0.575 - half), 1e-9));
    assert!(close(e.high, elo_of_score(0.575 + half), 1e-9));
    assert!(close(e.elo, 52.511_566, 1e-5), "{e:?}");
}

// ---- validation, records, PGN, several engines, shards, adjudication ----

/// Runs `quintet` with these arguments (no `match` prepended).
fn run_quintet(args: &[&str]) -> Output {
    Command::new(QUINTET)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("run quintet")
}

/// The game records of a record file by game number, as field maps.
fn games_by_number(
    paths: &[&PathBuf],
) -> std::collections::BTreeMap<u64, std::collections::HashMap<String, String>> {
    let mut games = std::collections::BTreeMap::new();
    for path in paths {
        for game in records(path) {
            let n: u64 = game["game"].parse().unwrap();
            assert!(games.insert(n, game).is_none(), "game {n} twice");
        }
    }
    games
}

/// What two runs must agree on for each game.
fn game_facts(game: &std::collections::HashMap<String, String>) -> [String; 5] {
    ["p1", "p2", "result", "reason", "moves"].map(|k| game[k].clone())
}

/// The summary lines that start with one of `prefixes`.
fn lines_starting(text: &str, prefixes: &[&str]) -> Vec<String> {
    text.lines()
        .filter(|l| prefixes.iter().any(|p| l.starts_with(p)))
        .map(str::to_string)
        .collect()
}

/// Processes whose working directory is `dir` (the engines of a test run
/// there, given `dir=`).
fn processes_in(dir: &Path) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter(|e| std::fs::read_link(e.path().join("cwd")).is_ok_and(|cwd| cwd == *dir))
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect()
}

/// Writes an openings file into `dir`.
fn openings_file(dir: &Path, text: &str) -> String {
    let path = dir.join("openings.txt");
    std::fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_string()
}

#[test]
fn options_are_checked_before_the_first_game() {
    let dir = scratch("options");
    let record_file = dir.join("games.txt");
    let other = quintet_engine("other", "random");
    let cases = [
        (
            quintet_engine("q", "mtcs"),
            "engine 'q' refuses option.Search=mtcs (Search is a combo of auto, mcts",
        ),
        (
            format!("name=q cmd='{QUINTET}' option.Serch=mcts"),
            "engine 'q' has no option 'Serch' (option.Serch=mcts); it advertises: Game, Size",
        ),
        (
            format!("name=q cmd='{QUINTET}' option.Hash=0"),
            "engine 'q' refuses option.Hash=0 (Hash is a spin from 1 to",
        ),
        (
            format!("name=q cmd='{QUINTET}' option.Hash=lots"),
            "'lots' is not a whole number",
        ),
        (
            format!(
                "name=q cmd='{}' option.Hash=8",
                fixture("illegal-engine.sh")
            ),
            "engine 'q' has no option 'Hash' (option.Hash=8); it advertises: no options",
        ),
        (
            format!(
                "name=q cmd='{}' option.Hash=8",
                fixture("refusing-engine.sh")
            ),
            "engine 'q' refused an option: info string error: setoption",
        ),
    ];
    for (spec, expected) in cases {
        let out = run_match(&[
            "--game",
            "hadron",
            "--size",
            "4",
            "--engine",
            &other,
            "--engine",
            &spec,
            "--nodes",
            "50",
            "--games",
            "2",
            "--record",
            record_file.to_str().unwrap(),
        ]);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{spec}: {stderr}");
        assert!(stderr.contains(expected), "{spec}:\n{stderr}");
        assert!(out.stdout.is_empty(), "{spec}: a game was played");
        assert!(!record_file.exists(), "{spec}: a record was started");
    }
    // Case and the advertised bounds are respected, not just the syntax.
    let out = run_match(&[
        "--game",
        "hadron",
        "--size",
        "4",
        "--engine",
        &other,
        "--engine",
        &format!("name=q cmd='{QUINTET}' option.search=MCTS option.Hash=1"),
        "--nodes",
        "50",
        "--games",
        "2",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
}

/// The arguments of a short deterministic match: fresh processes per game
/// (restart=on) and node limits make every game a function of its number.
fn deterministic_match(openings: &str, games: &str) -> Vec<String> {
    [
        "--game",
        "hadron",
        "--size",
        "5",
        "--engine",
        &format!("name=m cmd='{QUINTET}' option.Search=mcts option.Seed=5"),
        "--engine",
        &format!("name=u cmd='{QUINTET}' option.Search=uct-plain option.Seed=9"),
        "--each",
        "restart=on option.Hash=4",
        "--nodes",
        "50",
        "--games",
        games,
        "--openings",
        openings,
    ]
    .map(str::to_string)
    .to_vec()
}

fn run_with(base: &[String], more: &[&str]) -> Output {
    let mut args: Vec<&str> = base.iter().map(String::as_str).collect();
    args.extend(more);
    run_match(&args)
}

#[test]
fn records_are_appended_and_resumed_without_losing_or_repeating_games() {
    let dir = scratch("resume");
    let openings = openings_file(&dir, "moves c3\nmoves b2 d4\nstartpos\n");
    let base = deterministic_match(&openings, "10");
    let full = dir.join("full.txt");
    let out = run_with(
        &base,
        &["--record", full.to_str().unwrap(), "--concurrency", "2"],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let content = std::fs::read_to_string(&full).unwrap();
    let header: Vec<&str> = content.lines().take_while(|l| l.starts_with('#')).collect();
    assert_eq!(header.len(), 2, "{content}");
    assert!(header[1].starts_with("# settings: version=1 game=hadron size=5 "));
    // Running the same match again on the same file would play games the
    // file holds: refused, the file untouched.
    let again = run_with(&base, &["--record", full.to_str().unwrap()]);
    assert_eq!(again.status.code(), Some(2));
    assert!(text(&again.stderr).contains("already holds 10 games of this match: add --resume"));
    // Another match is refused with what differs.
    let mut other = base.clone();
    let games_at = other.len() - 3;
    other[games_at] = "12".into();
    let refused = run_with(&other, &["--record", full.to_str().unwrap(), "--resume"]);
    let stderr = text(&refused.stderr);
    assert_eq!(refused.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains(
            "holds the record of another match (games_per_pairing: '12' here, '10' in the record)"
        ),
        "{stderr}"
    );
    assert_eq!(std::fs::read_to_string(&full).unwrap(), content);
    // An interrupted run: the header, 4 games, and half a line of a fifth
    // (a killed runner). --resume plays exactly the 6 missing games.
    let lines: Vec<&str> = content.lines().collect();
    let cut = dir.join("cut.txt");
    let kept = lines[..6].join("\n");
    std::fs::write(&cut, format!("{kept}\n{}", &lines[6][..20])).unwrap();
    let out = run_with(&base, &["--record", cut.to_str().unwrap(), "--resume"]);
    let summary = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("cutting off an unfinished last line"));
    assert!(
        summary.contains("Games: 10 finished (5 complete pairs) in "),
        "{summary}"
    );
    assert!(
        summary.contains("; 4 of them were in the record already"),
        "{summary}"
    );
    let resumed = std::fs::read_to_string(&cut).unwrap();
    assert!(
        resumed.starts_with(&format!("{kept}\n")),
        "the old lines changed"
    );
    let (a, b) = (games_by_number(&[&full]), games_by_number(&[&cut]));
    assert_eq!(a.keys().collect::<Vec<_>>(), b.keys().collect::<Vec<_>>());
    for (n, game) in &a {
        assert_eq!(game_facts(game), game_facts(&b[n]), "game {n}");
    }
    assert_eq!(
        wdl(&summary),
        wdl(&text(
            &run_quintet(&["ratings", full.to_str().unwrap()]).stdout
        ))
    );
    // Resuming a finished match plays nothing.
    let done = run_with(&base, &["--record", cut.to_str().unwrap(), "--resume"]);
    assert!(text(&done.stdout).contains("; 10 of them were in the record already"));
    assert_eq!(std::fs::read_to_string(&cut).unwrap(), resumed);
}

#[test]
fn an_engine_with_its_own_time_control_gets_it() {
    let dir = scratch("odds");
    let log_file = dir.join("traffic.log");
    let record_file = dir.join("odds.txt");
    let fast = format!("{} nodes=7", quintet_engine("fast", "mcts"));
    let slow = quintet_engine("slow", "mcts");
    let out = run_match(&[
        "--game",
        "hadron",
        "--size",
        "5",
        "--nodes",
        "300",
        "--games",
        "2",
        "--engine",
        &fast,
        "--engine",
        &slow,
        "--log",
        log_file.to_str().unwrap(),
        "--record",
        record_file.to_str().unwrap(),
    ]);
    let summary = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        summary.starts_with("quintet match: fast (7 nodes/move) vs slow, hadron"),
        "{summary}"
    );
    let log = std::fs::read_to_string(&log_file).unwrap();
    let gos = |name: &str| -> Vec<String> {
        log.lines()
            .filter(|l| l.contains(&format!("{name}#")) && l.contains(" > go "))
            .map(|l| l.split(" > ").nth(1).unwrap().to_string())
            .collect()
    };
    assert!(!gos("fast").is_empty() && gos("fast").iter().all(|g| g == "go nodes 7"));
    assert!(!gos("slow").is_empty() && gos("slow").iter().all(|g| g == "go nodes 300"));
    // The record keeps the engine's own limit, so a resumed match plays on with it.
    let header = std::fs::read_to_string(&record_file).unwrap();
    assert!(header.contains("nodes=7"), "{header}");
    // A bad limit is refused before any engine starts.
    for bad in ["nodes=0", "movetime=x", "tc=0+1", "depth=-2"] {
        let spec = format!("{} {bad}", quintet_engine("bad", "mcts"));
        let out = run_match(&[
            "--game", "hadron", "--size", "5", "--nodes", "30", "--games", "2", "--engine", &spec,
            "--engine", &slow,
        ]);
        assert!(!out.status.success(), "{bad}");
        let err = text(&out.stderr);
        assert!(
            err.contains("engine spec") && !err.contains("panicked"),
            "{bad}: {err}"
        );
    }
}

#[test]
fn sigterm_and_sighup_stop_a_match_like_ctrl_c() {
    for (signal, status, name) in [("-TERM", 143, "SIGTERM"), ("-HUP", 129, "SIGHUP")] {
        let dir = scratch(&format!("signal{status}"));
        let record_file = dir.join("games.txt");
        let engine = |name: &str, search: &str| {
            format!(
                "name={name} cmd='{QUINTET}' option.Search={search} option.Hash=4 dir='{}'",
                dir.display()
            )
        };
        let child = Command::new(QUINTET)
            .args([
                "match",
                "--game",
                "hadron",
                "--size",
                "5",
                "--movetime",
                "30",
            ])
            .args([
                "--engine",
                &engine("a", "mcts"),
                "--engine",
                &engine("b", "uct-plain"),
            ])
            .args(["--games", "1000", "--concurrency", "2"])
            .args(["--record", record_file.to_str().unwrap()])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(1200));
        assert!(
            !processes_in(&dir).is_empty(),
            "no engines in {}",
            dir.display()
        );
        let out = stop_with(child, signal);
        let summary = text(&out.stdout);
        assert_eq!(out.status.code(), Some(status), "{summary}");
        assert!(
            summary.contains(&format!("Interrupted by {name}: ")),
            "{summary}"
        );
        // The summary counts exactly the games in the record, whose last
        // line is complete, and no engine outlives the runner.
        let (w, d, l) = wdl(&summary);
        let content = std::fs::read_to_string(&record_file).unwrap();
        assert!(content.ends_with('\n'));
        assert_eq!(records(&record_file).len() as u64, w + d + l, "{name}");
        assert!(w + d + l > 0 && w + d + l < 1000);
        assert_eq!(
            processes_in(&dir),
            Vec::<String>::new(),
            "{name}: engines left"
        );
    }
}

#[test]
fn pgn_games_follow_the_cutegames_layout_and_replay_to_the_recorded_result() {
    use quintet::matches::openings::Opening;
    use quintet::registry::GameConfig;
    let dir = scratch("pgn");
    // A one-move opening leaves p2 to move first.
    let openings = openings_file(&dir, "moves c3\nstartpos\n");
    let record_file = dir.join("games.txt");
    let pgn_file = dir.join("games.pgn");
    let out = run_match(&[
        "--game",
        "hadron",
        "--size",
        "5",
        "--engine",
        &quintet_engine("mcts", "mcts"),
        "--engine",
        &quintet_engine("random", "random"),
        "--nodes",
        "50",
        "--games",
        "4",
        "--openings",
        &openings,
        "--record",
        record_file.to_str().unwrap(),
        "--pgn",
        pgn_file.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let recorded = games_by_number(&[&record_file]);
    let pgn = std::fs::read_to_string(&pgn_file).unwrap();
    let games: Vec<&str> = pgn.split("\n\n[").collect();
    assert_eq!(games.len(), 4, "{pgn}");
    let config = GameConfig {
        game: "hadron".into(),
        size: 5,
        variant: String::new(),
        stones: 0,
    };
    for game in games {
        let (tag_text, movetext) = game.split_once("\n\n").unwrap();
        let tags: Vec<(String, String)> = tag_text
            .lines()
            .map(|l| {
                let l = l.trim_start_matches('[').trim_end_matches(']');
                let (name, value) = l.split_once(' ').unwrap();
                (name.to_string(), value.trim_matches('"').to_string())
            })
            .collect();
        let names: Vec<&str> = tags.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(
            names[..7],
            ["Event", "Site", "Date", "Round", "White", "Black", "Result"]
        );
        let tag = |name: &str| {
            tags.iter()
                .find(|(n, _)| n == name)
                .map(|(_, v)| v.as_str())
        };
        let record = &recorded[&tag("Round").unwrap().parse::<u64>().unwrap()];
        assert_eq!(tag("White"), Some(record["p1"].as_str()));
        assert_eq!(tag("Black"), Some(record["p2"].as_str()));
        let result = match record["result"].as_str() {
            "p1win" => "1-0",
            "p2win" => "0-1",
            _ => "1/2-1/2",
        };
        assert_eq!(tag("Result"), Some(result));
        assert_eq!(tag("Termination"), Some("normal"));
        assert_eq!(tag("TimeControl"), Some("-"));
        assert_eq!(tag("Winner"), record.get("winner").map(String::as_str));
        let date = tag("Date").unwrap();
        assert!(date.len() == 10 && date.as_bytes()[4] == b'.', "{date}");
        // FEN (and SetUp) only for a game that did not start from the start
        // position: then it is the position after the opening.
        let opening = Opening::parse(&record["opening"]).unwrap();
        let mut session = opening.session(&config).unwrap();
        match tag("FEN") {
            Some(fen) => {
                assert_eq!(record["opening"], "moves c3");
                assert_eq!(tag("SetUp"), Some("1"));
                assert_eq!(fen, session.position_text());
            }
            None => assert_eq!(record["opening"], "startpos"),
        }
        // The movetext: numbered pairs (`1...` when p2 starts), then the
        // result; the moves replay to the recorded end.
        let tokens: Vec<&str> = movetext.split_whitespace().collect();
        assert_eq!(tokens.last(), Some(&result));
        assert_eq!(tokens[0] == "1...", tag("FEN").is_some(), "{movetext}");
        let moves: Vec<&str> = tokens[..tokens.len() - 1]
            .iter()
            .filter(|t| !t.ends_with('.'))
            .copied()
            .collect();
        assert_eq!(moves.join(" "), record["moves"]);
        assert_eq!(tag("PlyCount").unwrap(), moves.len().to_string());
        for mv in &moves {
            session.play(mv).unwrap();
        }
        assert_eq!(session.position_text(), record["final"]);
        assert_eq!(session.outcome().unwrap().ugi_word(), record["result"]);
    }
}

#[test]
fn fen_openings_play_the_same_games_as_move_openings() {
    let dir = scratch("fen");
    let moves_file = dir.join("moves.txt");
    let fen_file = dir.join("fen.txt");
    let made = run_quintet(&[
        "--game",
        "hadron",
        "--size",
        "5",
        "openings",
        "--count",
        "3",
        "--plies",
        "2-3",
        "--nodes",
        "50",
        "--balance",
        "0.5",
        "--output",
        moves_file.to_str().unwrap(),
    ]);
    assert!(made.status.success(), "{}", text(&made.stderr));
    let converted = run_quintet(&[
        "--game",
        "hadron",
        "--size",
        "5",
        "openings",
        "--from",
        moves_file.to_str().unwrap(),
        "--format",
        "fen",
        "--output",
        fen_file.to_str().unwrap(),
    ]);
    assert!(converted.status.success(), "{}", text(&converted.stderr));
    // The same generation written directly as position texts.
    let direct = run_quintet(&[
        "--game",
        "hadron",
        "--size",
        "5",
        "openings",
        "--count",
        "3",
        "--plies",
        "2-3",
        "--nodes",
        "50",
        "--balance",
        "0.5",
        "--format",
        "fen",
    ]);
    let body = |t: &str| -> Vec<String> {
        t.lines()
            .filter(|l| !l.starts_with('#'))
            .map(str::to_string)
            .collect()
    };
    let fen_text = std::fs::read_to_string(&fen_file).unwrap();
    assert_eq!(body(&fen_text), body(&text(&direct.stdout)));
    assert_eq!(body(&fen_text).len(), 3);
    for line in body(&fen_text) {
        // What cutegames sends as `position fen <line>`: a position text
        // ("5/5/5/5/5 r"-like), no moves.
        assert!(!line.contains("moves") && line.contains('/'), "{line}");
    }
    let record = |name: &str, openings: &PathBuf| {
        let path = dir.join(name);
        let out = run_with(
            &deterministic_match(openings.to_str().unwrap(), "6"),
            &["--record", path.to_str().unwrap()],
        );
        assert!(out.status.success(), "{}", text(&out.stderr));
        games_by_number(&[&path])
    };
    let (by_moves, by_fen) = (record("a.txt", &moves_file), record("b.txt", &fen_file));
    assert_eq!(by_moves.len(), 6);
    for (n, game) in &by_moves {
        assert_eq!(game_facts(game), game_facts(&by_fen[n]), "game {n}");
        assert!(by_fen[n]["opening"].starts_with("fen "));
    }
}

#[test]
fn three_engines_play_a_round_robin_or_a_gauntlet_with_joint_ratings() {
    let dir = scratch("several");
    let record_file = dir.join("rr.txt");
    let log_file = dir.join("traffic.log");
    let engines = [
        quintet_engine("mcts", "mcts"),
        quintet_engine("ab", "alphabeta"),
        quintet_engine("uct", "uct-plain"),
    ];
    let mut args = vec![
        "--game", "hadron", "--size", "5", "--nodes", "50", "--games", "4",
    ];
    for e in &engines {
        args.extend(["--engine", e.as_str()]);
    }
    let mut rr = args.clone();
    rr.extend([
        "--concurrency",
        "2",
        "--record",
        record_file.to_str().unwrap(),
        "--log",
        log_file.to_str().unwrap(),
    ]);
    let out = run_match(&rr);
    let summary = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        summary.starts_with("quintet match: round robin of mcts, ab, uct,"),
        "{summary}"
    );
    let games = records(&record_file);
    assert_eq!(games.len(), 12);
    // Every pairing 4 games, each pair from one opening with the seats swapped.
    let mut by_pair: std::collections::HashMap<String, Vec<(String, String)>> = Default::default();
    for g in &games {
        by_pair
            .entry(g["pair"].clone())
            .or_default()
            .push((g["p1"].clone(), g["p2"].clone()));
    }
    assert_eq!(by_pair.len(), 6);
    for seats in by_pair.values() {
        assert_eq!(seats.len(), 2);
        assert_eq!((&seats[0].0, &seats[0].1), (&seats[1].1, &seats[1].0));
    }
    // The cross table adds up the records: points of each engine.
    let mut points = std::collections::HashMap::new();
    for g in &games {
        for (seat, name) in [("p1win", &g["p1"]), ("p2win", &g["p2"])] {
            let p = match g["result"].as_str() {
                r if r == seat => 1.0,
                "draw" => 0.5,
                _ => 0.0,
            };
            *points.entry(name.clone()).or_insert(0.0) += p;
        }
    }
    let table_start = summary.find("Cross table").expect("a cross table");
    for line in summary[table_start..].lines().skip(2).take(3) {
        let cells: Vec<&str> = line.split_whitespace().collect();
        let total: f64 = cells[1..]
            .iter()
            .filter(|c| c.contains('/'))
            .map(|c| c.split('/').next().unwrap().parse::<f64>().unwrap())
            .sum();
        assert_eq!(total, points[cells[0]], "{line}");
    }
    assert!(
        summary.contains("Ratings (maximum likelihood over all games"),
        "{summary}"
    );
    assert!(!summary.contains("SPRT"));
    // The record alone gives the same ratings and table.
    let merged = text(&run_quintet(&["ratings", record_file.to_str().unwrap()]).stdout);
    let part = |t: &str| t[t.find("Ratings").unwrap()..].to_string();
    assert_eq!(part(&merged), part(&summary));
    // The traffic log: every line stamped, by engine process and direction.
    let log = std::fs::read_to_string(&log_file).unwrap();
    for line in log.lines() {
        let fields: Vec<&str> = line.splitn(4, ' ').collect();
        assert!(fields.len() >= 3, "{line}");
        assert!(fields[0].parse::<f64>().is_ok(), "{line}");
        let (engine, pid) = fields[1].split_once('#').unwrap();
        assert!(
            ["mcts", "ab", "uct"].contains(&engine) && pid.parse::<u32>().is_ok(),
            "{line}"
        );
        assert!(["<", ">", "!"].contains(&fields[2]), "{line}");
    }
    for name in ["mcts", "ab", "uct"] {
        for wanted in [
            "> ugi",
            "< ugiok",
            "> setoption name Search value",
            "> go nodes 50",
            "< bestmove ",
            "> quit",
        ] {
            let (arrow, what) = wanted.split_at(1);
            assert!(
                log.lines()
                    .any(|l| l.contains(&format!("{name}#"))
                        && l.contains(&format!(" {arrow}{what}"))),
                "{name}: no '{wanted}' in the log"
            );
        }
    }
    // A gauntlet: the first engine against each other one.
    let gauntlet_file = dir.join("gauntlet.txt");
    let mut gauntlet = args.clone();
    gauntlet.extend(["--gauntlet", "--record", gauntlet_file.to_str().unwrap()]);
    let out = run_match(&gauntlet);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).starts_with("quintet match: gauntlet of mcts against ab, uct"));
    let games = records(&gauntlet_file);
    assert_eq!(games.len(), 8);
    assert!(games.iter().all(|g| g["p1"] == "mcts" || g["p2"] == "mcts"));
}

#[test]
fn shards_merged_give_the_same_games_and_numbers_as_one_run() {
    let dir = scratch("shards");
    let openings = openings_file(&dir, "moves c3\nmoves b2 d4\nmoves a1\n");
    let base = deterministic_match(&openings, "16");
    let single = dir.join("single.txt");
    let out = run_with(
        &base,
        &["--record", single.to_str().unwrap(), "--concurrency", "2"],
    );
    let summary = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let mut shards = Vec::new();
    for k in 1..=4 {
        let path = dir.join(format!("shard-{k}.txt"));
        let shard = format!("{k}/4");
        let out = run_with(
            &base,
            &["--record", path.to_str().unwrap(), "--shard", &shard],
        );
        assert!(out.status.success(), "{}", text(&out.stderr));
        assert!(text(&out.stdout).contains(&format!("shard {k}/4 (4 games)")));
        shards.push(path);
    }
    // Every game exactly once over the shards, the same as in one run.
    let one = games_by_number(&[&single]);
    let merged_games = games_by_number(&shards.iter().collect::<Vec<_>>());
    assert_eq!(one.len(), 16);
    assert_eq!(
        one.keys().collect::<Vec<_>>(),
        merged_games.keys().collect::<Vec<_>>()
    );
    for (n, game) in &one {
        assert_eq!(game_facts(game), game_facts(&merged_games[n]), "game {n}");
    }
    let shard_args: Vec<&str> = shards.iter().map(|p| p.to_str().unwrap()).collect();
    let mut ratings = vec!["ratings"];
    ratings.extend(&shard_args);
    let merged = text(&run_quintet(&ratings).stdout);
    assert!(
        merged.contains("Games: 16 finished of 16 (8 complete pairs)"),
        "{merged}"
    );
    let same = [
        "m vs u: W-D-L",
        "Elo (games)",
        "Elo (pairs)",
        "Pairs by points",
        "Seats",
        "Endings",
    ];
    assert_eq!(
        lines_starting(&merged, &same),
        lines_starting(&summary, &same)
    );
    assert_eq!(lines_starting(&merged, &same).len(), same.len());
    // The SPRT numbers of the merged shards are those of the single run.
    let sprt_of = |records: &[&str]| {
        let mut args = vec!["ratings", "--sprt", "elo0=-20 elo1=20"];
        args.extend(records);
        lines_starting(&text(&run_quintet(&args).stdout), &["SPRT"])
    };
    let one_sprt = sprt_of(&[single.to_str().unwrap()]);
    assert_eq!(one_sprt.len(), 1);
    assert_eq!(sprt_of(&shard_args), one_sprt);
    // A shard given twice is refused, not counted twice.
    assert_refused_as_given_twice(&[shard_args[0], shard_args[1], shard_args[0]]);
}

/// `quintet ratings` of these records fails and says a shard or run is
/// among them twice.
fn assert_refused_as_given_twice(records: &[&str]) {
    let mut args = vec!["ratings"];
    args.extend(records);
    let twice = run_quintet(&args);
    assert_eq!(twice.status.code(), Some(2));
    assert!(text(&twice.stderr).contains("(the same shard or run twice?)"));
}

#[test]
fn separate_runs_of_one_match_add_up_and_a_run_given_twice_is_refused() {
    let dir = scratch("runs");
    let openings = openings_file(&dir, "moves c3\nmoves b2 d4\n");
    let base = deterministic_match(&openings, "4");
    let first = dir.join("first.txt");
    let out = run_with(&base, &["--record", first.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let wdl = |summary: &str| -> Vec<u32> {
        let line = lines_starting(summary, &["m vs u: W-D-L"]).remove(0);
        let counts = line
            .split_whitespace()
            .nth(4)
            .unwrap()
            .trim_end_matches(',')
            .to_string();
        counts.split('-').map(|n| n.parse().unwrap()).collect()
    };
    let single = wdl(&text(&out.stdout));
    // A second run with the same settings (the same match played again
    // later). These node-limited games would repeat exactly, so the copy
    // gets other clock times: a record with every game the same as
    // another's is taken for that record given twice.
    let second = dir.join("second.txt");
    let rerun = std::fs::read_to_string(&first)
        .unwrap()
        .replace(" p1_ms=", " p1_ms=1");
    std::fs::write(&second, rerun).unwrap();
    let merged = run_quintet(&["ratings", first.to_str().unwrap(), second.to_str().unwrap()]);
    assert!(merged.status.success(), "{}", text(&merged.stderr));
    let summary = text(&merged.stdout);
    assert!(summary.contains("2 record files of 2 matches"), "{summary}");
    assert!(
        summary.contains("Games: 8 finished (4 complete pairs)"),
        "{summary}"
    );
    assert_eq!(
        wdl(&summary),
        single.iter().map(|n| 2 * n).collect::<Vec<_>>()
    );
    // The same run given twice is refused, not counted twice.
    let first = first.to_str().unwrap();
    assert_refused_as_given_twice(&[first, first]);
}

#[test]
fn engine_flags_given_to_a_match_are_reported_unused() {
    let dir = scratch("unused-flags");
    let openings = openings_file(&dir, "moves c3\n");
    let base = deterministic_match(&openings, "2");
    let out = run_with(&base, &["--seed", "3", "--hash", "8"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let errors = text(&out.stderr);
    for (flag, option) in [
        ("--seed", "option.Seed=VALUE"),
        ("--hash", "option.Hash=VALUE"),
    ] {
        assert!(
            errors.contains(&format!("quintet match: {flag} is not used"))
                && errors.contains(option),
            "{errors}"
        );
    }
    // The game's own flags are the match's: no word about them.
    assert!(!errors.contains("--game is not used"), "{errors}");
    assert!(!errors.contains("--size is not used"), "{errors}");
}

#[test]
fn score_adjudication_ends_games_when_both_engines_agree() {
    let dir = scratch("adjudication");
    let scored = |name: &str, score: i32| {
        format!(
            "name={name} cmd=\"'{}' {score} '{QUINTET}'\" option.Search=alphabeta",
            fixture("score-engine.sh")
        )
    };
    let cases = [
        (
            scored("down", -900),
            scored("up", 900),
            "--adjudicate-resign",
            "adjudicated-resign",
        ),
        (
            scored("level", 0),
            scored("even", 5),
            "--adjudicate-draw",
            "adjudicated-draw",
        ),
    ];
    for (a, b, flag, reason) in cases {
        let record_file = dir.join(format!("{reason}.txt"));
        let rule = if reason == "adjudicated-resign" {
            "score=500 moves=3"
        } else {
            "score=10 moves=3"
        };
        let out = run_match(&[
            "--game",
            "hadron",
            "--size",
            "5",
            "--engine",
            &a,
            "--engine",
            &b,
            "--nodes",
            "50",
            "--games",
            "4",
            flag,
            rule,
            "--record",
            record_file.to_str().unwrap(),
        ]);
        let summary = text(&out.stdout);
        assert!(out.status.success(), "{}", text(&out.stderr));
        assert!(
            summary.contains(&format!("Endings: {reason} 4")),
            "{summary}"
        );
        for game in records(&record_file) {
            assert_eq!(game["reason"], reason);
            // Three moves of each engine.
            assert_eq!(game["plies"], "6");
            assert!(
                game["detail"].ends_with("for 3 moves each"),
                "{}",
                game["detail"]
            );
            if reason == "adjudicated-resign" {
                assert_eq!(game["winner"], "up");
            } else {
                assert_eq!(game["result"], "draw");
            }
        }
    }
    // No agreement, no adjudication: only one engine thinks it is lost.
    let record_file = dir.join("none.txt");
    let out = run_match(&[
        "--game",
        "hadron",
        "--size",
        "5",
        "--engine",
        &scored("down", -900),
        "--engine",
        &scored("level", 0),
        "--nodes",
        "50",
        "--games",
        "2",
        "--adjudicate-resign",
        "score=500 moves=1",
        "--record",
        record_file.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(records(&record_file).iter().all(|g| g["reason"] == "rules"));
}

/// The records of quintet 0.1 (bench/results, a headline and game lines)
/// merge to the summary that match printed then; a match does not append
/// to one.
#[test]
fn records_of_quintet_0_1_are_read_but_not_continued() {
    let root = env!("CARGO_MANIFEST_DIR");
    let record_file = format!("{root}/bench/results/auto-vs-plain-hadron.records");
    let then =
        std::fs::read_to_string(format!("{root}/bench/results/auto-vs-plain-hadron.summary"))
            .unwrap();
    let out = run_quintet(&["ratings", &record_file]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let same = [
        "auto vs uct-plain: W-D-L",
        "Elo (games)",
        "Elo (pairs)",
        "Pairs by points",
        "Seats",
        "Endings",
    ];
    let now = text(&out.stdout);
    assert_eq!(lines_starting(&now, &same), lines_starting(&then, &same));
    assert_eq!(lines_starting(&now, &same).len(), same.len());
    // Appending to a copy is refused before any engine starts.
    let dir = scratch("old-record");
    let copy = dir.join("old.records");
    std::fs::copy(&record_file, &copy).unwrap();
    let out = run_match(&[
        "--game",
        "hadron",
        "--size",
        "7",
        "--engine",
        &quintet_engine("auto", "auto"),
        "--engine",
        &quintet_engine("uct-plain", "uct-plain"),
        "--movetime",
        "100",
        "--record",
        copy.to_str().unwrap(),
        "--resume",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("(a record of quintet 0.1)"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(
        std::fs::read(&copy).unwrap(),
        std::fs::read(&record_file).unwrap()
    );
}

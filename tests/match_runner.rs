//! The match runner through the built binary: short real matches, fake
//! engines that fail in each way (tests/fixtures/*.sh), Ctrl-C, bad input;
//! and the statistics against values computed independently.

use quintet::matches::record;
use quintet::matches::stats::{Pentanomial, Sprt, Trinomial, elo_of_score, score_of_elo};
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

const QUINTET: &str = env!("CARGO_BIN_EXE_quintet");

fn fixture(name: &str) -> String {
    format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// A fresh scratch directory for one test.
fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("quintet-match-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
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

#[test]
fn ctrl_c_ends_with_a_summary_of_finished_games() {
    let mut child = Command::new(QUINTET)
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
    let sent = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "no exit after Ctrl-C"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
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

/// The LLR by brute force: expand the pentanomial counts into the list of
/// pair scores, estimate the variance from that list, and add up the log
/// ratio of the two normal densities pair by pair.
fn llr_by_brute_force(counts: [u64; 5], elo0: f64, elo1: f64) -> f64 {
    let mut scores = Vec::new();
    for (bin, &count) in counts.iter().enumerate() {
        for _ in 0..count {
            scores.push(bin as f64 / 4.0);
        }
    }
    let n = scores.len() as f64;
    let mean = scores.iter().sum::<f64>() / n;
    let variance = scores.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n;
    let log_density =
        |x: f64, mu: f64| -(x - mu).powi(2) / (2.0 * variance) - (variance.sqrt()).ln();
    let (s0, s1) = (score_of_elo(elo0), score_of_elo(elo1));
    scores
        .iter()
        .map(|&x| log_density(x, s1) - log_density(x, s0))
        .sum()
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
    let cases: [([u64; 5], f64, f64); 4] = [
        ([10, 20, 40, 20, 10], 0.0, 5.0),
        ([5, 15, 40, 25, 15], 0.0, 5.0),
        ([20, 90, 300, 110, 30], 0.0, 10.0),
        ([31, 102, 250, 98, 29], -3.0, 1.0),
    ];
    for (counts, elo0, elo1) in cases {
        let p = Pentanomial { counts };
        let llr = p.llr(elo0, elo1);
        let brute = llr_by_brute_force(counts, elo0, elo1);
        assert!(close(llr, brute, 1e-9), "{counts:?}: {llr} vs {brute}");
    }
    // Worked by hand: [10, 20, 40, 20, 10] has mean 1/2 and variance
    // (2·10·0.5² + 2·20·0.25²) / 100 = 0.075; s0 = 1/2, s1 = 1/(1+10^(-5/400)).
    let s1 = 1.0 / (1.0 + 10f64.powf(-5.0 / 400.0));
    let by_hand = 100.0 * (s1 - 0.5) * (1.0 - 0.5 - s1) / (2.0 * 0.075);
    let p = Pentanomial {
        counts: [10, 20, 40, 20, 10],
    };
    assert!(close(p.llr(0.0, 5.0), by_hand, 1e-9));
    assert!(close(p.llr(0.0, 5.0), -0.034_512_800_5, 1e-9));
    // Near the hypotheses the normal approximation is close to the exact
    // multinomial GSPRT.
    let counts = [20, 90, 300, 110, 30];
    let (approx, exact) = (
        Pentanomial { counts }.llr(0.0, 10.0),
        llr_exact_mle(counts, 0.0, 10.0),
    );
    assert!(close(approx, 1.926_898_36, 1e-6), "{approx}");
    assert!(close(exact, 1.920_674_75, 1e-6), "{exact}");
    assert!((approx - exact).abs() / exact < 0.01);
    // The SPRT decides at the Wald bounds.
    let sprt = Sprt::parse("elo0=0 elo1=10").unwrap();
    assert_eq!(sprt.decide(approx), None);
    let doubled = Pentanomial {
        counts: counts.map(|c| c * 2),
    };
    assert!(close(doubled.llr(0.0, 10.0), 2.0 * approx, 1e-9));
    assert_eq!(
        sprt.decide(doubled.llr(0.0, 10.0)),
        Some(quintet::matches::stats::Decision::H1)
    );
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

//! The perft vectors of `../shared/vectors/perft.txt`: every line must
//! match. Lines above `DEFAULT_RUN_LIMIT` leaves run only with `--ignored`.

mod common;

use quintet::registry::{self, GameConfig};

struct Vector {
    line: usize,
    config: GameConfig,
    depth: u32,
    nodes: u64,
    moves: Vec<String>,
}

const DEFAULT_RUN_LIMIT: u64 = 200_000_000;

fn vectors() -> Vec<Vector> {
    let path = common::shared_dir().join("vectors").join("perft.txt");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (head, moves) = match line.split_once("moves:") {
            Some((head, moves)) => (head, moves.split_whitespace().map(String::from).collect()),
            None => (line, Vec::new()),
        };
        let fields: Vec<&str> = head.split_whitespace().collect();
        assert_eq!(fields.len(), 4, "line {}: {line}", i + 1);
        let mut config = GameConfig {
            game: fields[0].to_string(),
            ..GameConfig::default()
        };
        for param in fields[1].split(',') {
            let (key, value) = param.split_once('=').expect("key=value");
            match key {
                "size" => config.size = value.parse().unwrap(),
                "stones" => config.stones = value.parse().unwrap(),
                "variant" => config.variant = value.to_string(),
                other => panic!("line {}: unknown parameter {other}", i + 1),
            }
        }
        out.push(Vector {
            line: i + 1,
            config,
            depth: fields[2].parse().unwrap(),
            nodes: fields[3].parse().unwrap(),
            moves,
        });
    }
    out
}

fn run(filter: impl Fn(&Vector) -> bool) -> usize {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut checked = 0;
    let mut failures = Vec::new();
    for v in vectors().iter().filter(|v| filter(v)) {
        if registry::find(&v.config.game).is_err() {
            eprintln!(
                "line {}: {} is not registered yet; skipped",
                v.line, v.config.game
            );
            continue;
        }
        let mut session = registry::create(&v.config).expect("vector parameters are valid");
        let moves: Vec<&str> = v.moves.iter().map(String::as_str).collect();
        session
            .set_position(None, &moves)
            .expect("vector moves are legal");
        let never = std::sync::atomic::AtomicBool::new(false);
        let rows = session
            .perft(v.depth, threads, false, &never)
            .expect("not stopped");
        let got = rows[0].1;
        if got != v.nodes {
            failures.push(format!(
                "line {}: {} perft({}) = {got}, expected {}",
                v.line,
                session.describe(),
                v.depth,
                v.nodes
            ));
        }
        checked += 1;
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    checked
}

#[test]
fn perft_vectors_match() {
    let checked = run(|v| v.nodes <= DEFAULT_RUN_LIMIT);
    assert!(checked > 0);
}

#[test]
#[ignore = "the deepest vectors take minutes; run with --ignored"]
fn deep_perft_vectors_match() {
    run(|v| v.nodes > DEFAULT_RUN_LIMIT);
}

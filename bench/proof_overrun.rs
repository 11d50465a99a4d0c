//! How far past its deadline the proof before a Hadron move runs: replays
//! the games of match records and, before every move, proves the position
//! as play does (`solve::prove`, the warm region caches and one proof
//! table kept through the run, the table emptied per game) with a deadline
//! `BUDGET_US` microseconds away, then counts how late each proof ended.
//!
//!     cargo run --release --example proof_overrun -- 22000 bench/results/s15-main-vs-v01.records
//!
//! (22 ms: a quarter of a 90 ms search, the share near the end of a game.)

use quintet::games::Game;
use quintet::games::hadron::Hadron;
use quintet::solve::{self, Budget, ProofTable};
use std::time::{Duration, Instant};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(budget_us) = args.first().and_then(|a| a.parse::<u64>().ok()) else {
        eprintln!("usage: proof_overrun BUDGET_US RECORDS...");
        std::process::exit(2);
    };
    let table = ProofTable::new(8);
    let mut late = [0u32; 4];
    let mut worst: Vec<(Duration, String)> = Vec::new();
    let mut proofs = 0;
    for file in &args[1..] {
        let text = std::fs::read_to_string(file).unwrap_or_else(|e| {
            eprintln!("cannot read {file}: {e}");
            std::process::exit(2);
        });
        for line in text.lines().filter(|l| l.starts_with("game=")) {
            let field = |name: &str| {
                let start = line.find(&format!(" {name}=\""))? + name.len() + 3;
                Some(&line[start..start + line[start..].find('"')?])
            };
            let opening = field("opening").unwrap_or("").trim_start_matches("moves");
            let size = field("final").map_or(7, |f| f.split('/').count());
            let mut state = Hadron::<u64>::new(size);
            table.clear();
            for text in opening
                .split_whitespace()
                .chain(field("moves").unwrap_or("").split_whitespace())
            {
                let Ok(mv) = state.parse_move(text) else {
                    break;
                };
                state.play(mv);
                let deadline = Instant::now() + Duration::from_micros(budget_us);
                let budget = Budget::until(Some(deadline), None);
                solve::on_big_stack(|| solve::prove(&state, &budget, &table, 1))
                    .expect("a proof on a solver's stack");
                proofs += 1;
                let over = Instant::now().saturating_duration_since(deadline);
                for (count, ms) in late.iter_mut().zip([1, 5, 20, 50]) {
                    *count += (over >= Duration::from_millis(ms)) as u32;
                }
                if over >= Duration::from_millis(3) {
                    worst.push((over, state.position_text()));
                }
            }
        }
    }
    worst.sort();
    println!(
        "{proofs} proofs of {budget_us} us: late by >= 1 ms {}, >= 5 ms {}, >= 20 ms {}, >= 50 ms {}",
        late[0], late[1], late[2], late[3]
    );
    for (over, position) in worst.iter().rev().take(5) {
        println!("  {over:?} late: {position}");
    }
}

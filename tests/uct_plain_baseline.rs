//! `uct-plain` is the fixed baseline: for the same seed, position and node
//! limit it must search exactly as v0.1 (commit 1e32da7) did. The expected
//! lines below are v0.1's own output, made with
//!
//!     old=$(bench/baseline.sh 1e32da7)
//!     printf 'setoption name Game value G\nsetoption name Size value N\nsetoption name Search value uct-plain\nsetoption name Seed value 3\nisready\nposition startpos\ngo nodes 5000\n' | $old
//!
//! (the last `info` line without `nps`/`time`, and the `bestmove`).

#[path = "common/untimed.rs"]
mod untimed;

use quintet::games::GameConfig;
use quintet::protocol::format;
use quintet::registry;
use quintet::search::{Limits, SearchSettings};
use quintet::session::{Engine, SearchRun};
use std::sync::atomic::AtomicBool;
use std::time::Instant;
use untimed::untimed;

const V01: &[(&str, usize, &str, &str)] = &[
    (
        "hadron",
        5,
        "info depth 3 seldepth 4 score cp 33 nodes 5000 hashfull 15 pv c3 e2 c5 b4",
        "c3",
    ),
    (
        "hadron",
        7,
        "info depth 3 seldepth 3 score cp 63 nodes 5000 hashfull 120 pv a5 b4 f4",
        "a5",
    ),
    (
        "atoms",
        8,
        "info depth 3 seldepth 6 score cp 61 nodes 5000 hashfull 16 pv c8 d8 b7 c6",
        "c8",
    ),
    (
        "tritium",
        5,
        "info depth 2 seldepth 2 score cp 149 nodes 5000 hashfull 51 pv R@h6 R@a1",
        "R@h6",
    ),
    (
        "nadraz",
        6,
        "info depth 1 seldepth 2 score cp 1200 nodes 5000 hashfull 10 pv B@c4+W@f5 white",
        "B@c4+W@f5",
    ),
    (
        "ihex",
        5,
        "info depth 2 seldepth 3 score cp 91 nodes 5000 hashfull 108 pv a2 d8 h6",
        "a2",
    ),
];

#[test]
fn uct_plain_searches_exactly_as_v0_1_did() {
    for &(game, size, info, best) in V01 {
        let mut session = registry::create(&GameConfig::named(game).with_size(size)).unwrap();
        session.prepare(&Engine {
            searcher: "uct-plain",
            hash_mb: 64,
            ..Engine::default()
        });
        let settings = SearchSettings {
            seed: 3,
            ..SearchSettings::default()
        };
        let stop = AtomicBool::new(false);
        let run = SearchRun {
            start: Instant::now(),
            stop: &stop,
            progress: &mut |_| {},
        };
        let result = session
            .search(&settings, &Limits::nodes(5000), run)
            .unwrap();
        assert_eq!(
            untimed(&format::info(&result.report)),
            info,
            "{game} {size}"
        );
        assert_eq!(result.best, best, "{game} {size}");
    }
}

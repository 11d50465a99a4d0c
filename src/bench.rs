//! `bench`: a fixed, deterministic workload over every game (perft, random
//! playouts, MCTS and alpha-beta searches with node or depth limits and
//! fixed seeds). The node total is the same on every run and machine; the
//! last line is `<nodes> nodes <nps> nps` (the OpenBench convention).

use crate::registry::{self, GameConfig};
use crate::search::{Algorithm, Context, Info, Limits, SearchSettings};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// One game's share of the workload.
pub struct Workload {
    pub game: &'static str,
    pub size: usize,
    pub variant: &'static str,
    pub perft_depth: u32,
    pub playouts: u64,
    pub mcts_nodes: u64,
    pub alphabeta_depth: u32,
}

pub const WORKLOADS: &[Workload] = &[
    Workload {
        game: "hadron",
        size: 5,
        variant: "",
        perft_depth: 5,
        playouts: 100_000,
        mcts_nodes: 100_000,
        alphabeta_depth: 6,
    },
    Workload {
        game: "hadron",
        size: 7,
        variant: "",
        perft_depth: 4,
        playouts: 20_000,
        mcts_nodes: 30_000,
        alphabeta_depth: 5,
    },
    Workload {
        game: "atoms",
        size: 8,
        variant: "",
        perft_depth: 4,
        playouts: 10_000,
        mcts_nodes: 10_000,
        alphabeta_depth: 5,
    },
    Workload {
        game: "atoms",
        size: 8,
        variant: "radioactive-isotopes",
        perft_depth: 4,
        playouts: 5_000,
        mcts_nodes: 5_000,
        alphabeta_depth: 4,
    },
    Workload {
        game: "tritium",
        size: 5,
        variant: "",
        perft_depth: 3,
        playouts: 50_000,
        mcts_nodes: 50_000,
        alphabeta_depth: 4,
    },
    Workload {
        game: "nadraz",
        size: 10,
        variant: "",
        perft_depth: 2,
        playouts: 2_000,
        mcts_nodes: 3_000,
        alphabeta_depth: 2,
    },
    Workload {
        game: "ihex",
        size: 6,
        variant: "",
        perft_depth: 3,
        playouts: 3_000,
        mcts_nodes: 3_000,
        alphabeta_depth: 4,
    },
];

/// One line of the bench report.
pub struct Line {
    pub label: String,
    pub nodes: u64,
    pub millis: u64,
}

impl Line {
    pub fn per_second(&self) -> u64 {
        self.nodes * 1000 / self.millis.max(1)
    }
}

fn timed(label: String, work: impl FnOnce() -> u64) -> Line {
    let start = Instant::now();
    let nodes = work();
    Line {
        label,
        nodes,
        millis: start.elapsed().as_millis() as u64,
    }
}

fn search(config: &GameConfig, algorithm: Algorithm, limits: Limits) -> u64 {
    let mut session = registry::create(config).expect("bench games build");
    let settings = SearchSettings {
        algorithm,
        threads: 1,
        hash_mb: 16,
        seed: 1,
        move_overhead_ms: 0,
        tuning: Default::default(),
    };
    session.prepare(&settings);
    let stop = AtomicBool::new(false);
    let mut last = None;
    let mut report = |info: &Info| last = Some(info.nodes);
    let mut ctx = Context {
        start: Instant::now(),
        stop: &stop,
        report: &mut report,
    };
    session
        .search(&settings, &limits, &mut ctx)
        .map_or(0, |(_, info)| info.nodes)
}

/// Runs the workload, calling `progress` with each line as it completes.
pub fn run(mut progress: impl FnMut(&Line)) -> Line {
    let mut lines = Vec::new();
    for w in WORKLOADS {
        let config = GameConfig {
            game: w.game.into(),
            size: w.size,
            variant: w.variant.into(),
            stones: 0,
        };
        let session = registry::create(&config).expect("bench games build");
        let name = session.describe();
        let mut add = |line: Line| {
            progress(&line);
            lines.push(line);
        };
        add(timed(format!("{name}: perft {}", w.perft_depth), || {
            session.perft(w.perft_depth, 1)
        }));
        add(timed(format!("{name}: random playouts (plies)"), || {
            session.random_playouts(w.playouts, 1).plies
        }));
        add(timed(format!("{name}: mcts playouts"), || {
            let limits = Limits {
                nodes: Some(w.mcts_nodes),
                ..Limits::default()
            };
            search(&config, Algorithm::Mcts, limits)
        }));
        add(timed(
            format!("{name}: alphabeta depth {}", w.alphabeta_depth),
            || {
                let limits = Limits {
                    depth: Some(w.alphabeta_depth),
                    ..Limits::default()
                };
                search(&config, Algorithm::AlphaBeta, limits)
            },
        ));
    }
    Line {
        label: "total".into(),
        nodes: lines.iter().map(|l| l.nodes).sum(),
        millis: lines.iter().map(|l| l.millis).sum(),
    }
}

//! `bench`: a fixed, deterministic workload over every game (perft, random
//! playouts, MCTS and alpha-beta searches with node or depth limits and
//! fixed seeds). The node total is the same on every run and machine; the
//! last line is `<nodes> nodes <nps> nps` (the OpenBench convention).

use crate::games::{Game, GameConfig, GameRng};
use crate::registry::{self, GameVisitor};
use crate::search::{Limits, SearchSettings};
use crate::session::{Engine, Profile, SearchRun};
use rand::SeedableRng;
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

fn search(config: &GameConfig, searcher: &'static str, limits: Limits) -> u64 {
    let mut session = registry::create(config).expect("bench games build");
    session.prepare(&Engine {
        searcher,
        hash_mb: 16,
        ..Engine::default()
    });
    let settings = SearchSettings {
        threads: 1,
        seed: 1,
        move_overhead_ms: 0,
        lag_ms: 0,
        ..SearchSettings::default()
    };
    let stop = AtomicBool::new(false);
    let run = SearchRun {
        start: Instant::now(),
        stop: &stop,
        progress: &mut |_| {},
    };
    session
        .search(&settings, &limits, run)
        .map_or(0, |result| result.report.nodes)
}

/// Plays `count` uniformly random games from the start; the plies played.
struct RandomPlayouts {
    count: u64,
    seed: u64,
}

impl GameVisitor for RandomPlayouts {
    type Output = u64;
    fn visit<G: Game>(self, _config: &GameConfig, start: G, _profile: &Profile) -> u64 {
        let mut rng = GameRng::seed_from_u64(self.seed);
        let mut scratch = Vec::new();
        let mut plies = 0;
        for _ in 0..self.count {
            let mut state = start.clone();
            while let Some(mv) = state.random_move(&mut rng, &mut scratch) {
                state.play(mv);
                plies += 1;
            }
        }
        plies
    }
}

/// Runs the workload, calling `progress` with each line as it completes.
pub fn run(mut progress: impl FnMut(&Line)) -> Line {
    let mut lines = Vec::new();
    let never = AtomicBool::new(false);
    for w in WORKLOADS {
        let config = GameConfig::named(w.game)
            .with_size(w.size)
            .with_variant(w.variant);
        let session = registry::create(&config).expect("bench games build");
        let name = session.describe();
        let mut add = |line: Line| {
            progress(&line);
            lines.push(line);
        };
        add(timed(format!("{name}: perft {}", w.perft_depth), || {
            let rows = session.perft(w.perft_depth, 1, false, &never);
            rows.map_or(0, |rows| rows[0].1)
        }));
        add(timed(format!("{name}: random playouts (plies)"), || {
            let playouts = RandomPlayouts {
                count: w.playouts,
                seed: 1,
            };
            registry::with_game(&config, playouts).expect("bench games build")
        }));
        add(timed(format!("{name}: mcts playouts"), || {
            search(&config, "mcts", Limits::nodes(w.mcts_nodes))
        }));
        add(timed(
            format!("{name}: alphabeta depth {}", w.alphabeta_depth),
            || search(&config, "alphabeta", Limits::depth(w.alphabeta_depth)),
        ));
    }
    Line {
        label: "total".into(),
        nodes: lines.iter().map(|l| l.nodes).sum(),
        millis: lines.iter().map(|l| l.millis).sum(),
    }
}

//! The command line: no subcommand runs the UGI loop on stdin/stdout;
//! subcommands run perft and the bench.

use crate::bench;
use crate::protocol::{self, Output};
use crate::registry::{self, GameConfig};
use anyhow::{Context as _, Result, anyhow};
use clap::{Args, Parser, Subcommand};
use std::io::{self, BufReader};
use std::time::Instant;

#[derive(Parser, Debug)]
#[command(
    name = "quintet",
    version,
    about = "A UGI engine for Hadron, Tritium, Nadraz, Ihex and Atoms"
)]
pub struct Cli {
    #[command(flatten)]
    pub game: GameArgs,
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// Which game and parameters (also settable over UGI with `setoption`).
#[derive(Args, Debug, Clone)]
pub struct GameArgs {
    /// Game: hadron, atoms, tritium, ihex, nadraz.
    #[arg(long, global = true, default_value = registry::DEFAULT_GAME)]
    pub game: String,
    /// Board size (0 = the game's default).
    #[arg(long, global = true, default_value_t = 0)]
    pub size: usize,
    /// Variant (empty = the game's default).
    #[arg(long, global = true, default_value = "")]
    pub variant: String,
    /// Stones per player, for games that have them (0 = default).
    #[arg(long, global = true, default_value_t = 0)]
    pub stones: usize,
}

impl GameArgs {
    pub fn config(&self) -> GameConfig {
        GameConfig {
            game: self.game.clone(),
            size: self.size,
            variant: self.variant.clone(),
            stones: self.stones,
        }
    }
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Run the UGI protocol on stdin/stdout (the default).
    Ugi,
    /// Count the leaves of the legal-move tree, depth 1 up to DEPTH.
    Perft {
        depth: u32,
        /// Start from this position text instead of the start position.
        #[arg(long)]
        fen: Option<String>,
        /// Moves to play first, space-separated.
        #[arg(long, default_value = "")]
        moves: String,
        /// Per-move counts at the last depth.
        #[arg(long)]
        split: bool,
        #[arg(long, default_value_t = 1)]
        threads: usize,
    },
    /// A fixed, deterministic workload over every game; prints `<N> nodes <M> nps`.
    Bench,
    /// Checks the rules' internal consistency over random games of the
    /// chosen game (or of every game and size with --all).
    Selfcheck {
        #[arg(long, default_value_t = 100)]
        games: u64,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Every registered game, size and variant.
        #[arg(long)]
        all: bool,
    },
}

pub fn run(cli: Cli) -> Result<()> {
    match cli.command.unwrap_or(Command::Ugi) {
        Command::Ugi => {
            let config = cli.game.config();
            // Fail early on a bad command line rather than inside the protocol.
            registry::resolve(&config).map_err(|e| anyhow!(e))?;
            protocol::run(
                BufReader::new(io::stdin()),
                Output::new(io::stdout()),
                config,
            );
            Ok(())
        }
        Command::Perft {
            depth,
            fen,
            moves,
            split,
            threads,
        } => perft(&cli.game, depth, fen.as_deref(), &moves, split, threads),
        Command::Bench => {
            let total = bench::run(|line| {
                println!(
                    "{:<55} {:>12} nodes {:>7} ms {:>12} /s",
                    line.label,
                    line.nodes,
                    line.millis,
                    line.per_second()
                )
            });
            println!("{} nodes {} nps", total.nodes, total.per_second());
            Ok(())
        }
        Command::Selfcheck { games, seed, all } => {
            let configs = if all {
                registry::all_configs()
            } else {
                vec![cli.game.config()]
            };
            for config in configs {
                let session = registry::create(&config).map_err(|e| anyhow!(e))?;
                let start = Instant::now();
                let coverage = session
                    .self_check(games, 10_000, seed)
                    .map_err(|e| anyhow!(e))?;
                println!(
                    "{}: ok, {} games, {} positions, {} finished, {} ms",
                    session.describe(),
                    coverage.games,
                    coverage.positions,
                    coverage.finished,
                    start.elapsed().as_millis()
                );
            }
            Ok(())
        }
    }
}

fn perft(
    game: &GameArgs,
    depth: u32,
    fen: Option<&str>,
    moves: &str,
    split: bool,
    threads: usize,
) -> Result<()> {
    let config = match fen {
        Some(text) => registry::config_for_text(&game.config(), text),
        None => game.config(),
    };
    let mut session = registry::create(&config).map_err(|e| anyhow!(e))?;
    let moves: Vec<&str> = moves.split_whitespace().collect();
    session
        .set_position(fen, &moves)
        .map_err(|e| anyhow!(e))
        .context("setting up the position")?;
    println!("{} from {}", session.describe(), session.position_text());
    for d in 1..=depth {
        let start = Instant::now();
        let nodes = if split && d == depth {
            let splits = session.split_perft(d, threads);
            for (mv, n) in &splits {
                println!("  {mv} {n}");
            }
            splits.iter().map(|(_, n)| n).sum()
        } else {
            session.perft(d, threads)
        };
        let ms = start.elapsed().as_millis() as u64;
        println!(
            "perft {d:>2} {nodes:>14} nodes {ms:>8} ms {:>12} nps",
            nodes * 1000 / ms.max(1)
        );
    }
    Ok(())
}

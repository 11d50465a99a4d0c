//! The command line: no subcommand runs the UGI loop on stdin/stdout;
//! subcommands run the tools (perft, bench, matches, the views for people).
//! The engine's options (the table in `protocol::options`) are global
//! flags: `--game atoms --hash 256`.

use crate::games::GameConfig;
use crate::learn;
use crate::matches::adjudicate::ScoreRule;
use crate::matches::openings::{self, Format, Opening};
use crate::matches::referee::Rules;
use crate::matches::schedule::{Shard, Tournament};
use crate::matches::spec::{EngineSpec, TimeControl};
use crate::matches::stats::Sprt;
use crate::matches::{self, MatchSettings, report, resume, signals};
use crate::protocol::options::{self, Kind, OPTIONS, OptionSpec, Options};
use crate::protocol::{self, Output};
use crate::registry;
use crate::runs::{self, bench, selfcheck};
use crate::search::searcher;
use crate::solve;
use crate::view;
use anyhow::{Context as _, Result, anyhow};
use clap::{Arg, ArgMatches, Args, CommandFactory, FromArgMatches, Parser, Subcommand};
use std::io::{self, BufReader, Write};
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

#[derive(Parser, Debug)]
#[command(
    name = "quintet",
    version,
    about = "A UGI engine for Hadron, Tritium, Nadraz, Ihex and Atoms"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The game the options name (what the subcommands play).
#[derive(Debug, Clone)]
pub struct GameArgs {
    config: GameConfig,
}

impl GameArgs {
    pub fn config(&self) -> GameConfig {
        self.config.clone()
    }
}

/// A parsed command line: the engine's options and what to do.
pub struct Invocation {
    pub options: Options,
    /// The options given as flags.
    pub given: Vec<&'static OptionSpec>,
    pub command: Command,
}

/// The flags of the option table, global to every subcommand.
fn option_flags() -> Vec<Arg> {
    OPTIONS
        .iter()
        .map(|spec| {
            let mut help = format!("{} [default: {}]", spec.help, spec.default_text());
            if let Kind::Combo { values, .. } = spec.kind {
                help.push_str(&format!(" [values: {}]", values().join(", ")));
            }
            if spec.name == "Search" {
                for s in std::iter::once(&searcher::AUTO).chain(searcher::SEARCHERS) {
                    help.push_str(&format!("\n  {}: {}", s.name, s.help));
                }
            }
            let parse = move |text: &str| spec.parse(text).map(|_| text.to_string());
            let arg = Arg::new(spec.name).long(spec.flag());
            let arg = match spec.old_flag() {
                Some(old) => arg.alias(old),
                None => arg,
            };
            arg.value_name("VALUE")
                .global(true)
                .help(help)
                .value_parser(clap::builder::ValueParser::new(parse))
        })
        .collect()
}

/// Parses the command line (clap prints help, version and errors, and
/// exits, as usual).
pub fn parse(args: impl IntoIterator<Item = std::ffi::OsString>) -> Result<Invocation> {
    let matches = Cli::command().args(option_flags()).get_matches_from(args);
    let cli = Cli::from_arg_matches(&matches).map_err(|e| anyhow!(e))?;
    let (options, given) = options_from(&matches)?;
    Ok(Invocation {
        options,
        given,
        command: cli.command.unwrap_or(Command::Ugi),
    })
}

/// The options given as flags (at any level), over the defaults, and
/// which those were.
fn options_from(matches: &ArgMatches) -> Result<(Options, Vec<&'static OptionSpec>)> {
    let mut options = Options::default();
    let mut given = Vec::new();
    let mut level = Some(matches);
    while let Some(m) = level {
        for spec in OPTIONS {
            if m.value_source(spec.name) == Some(clap::parser::ValueSource::CommandLine)
                && let Some(value) = m.get_one::<String>(spec.name)
            {
                options::set(&mut options, spec.name, value).map_err(|e| anyhow!(e))?;
                // A global flag shows at every level below where it is given.
                if !given.iter().any(|g: &&OptionSpec| g.name == spec.name) {
                    given.push(spec);
                }
            }
        }
        level = m.subcommand().map(|(_, sub)| sub);
    }
    Ok((options, given))
}

/// The options that name the game: the only ones a match reads from its
/// own flags (its engines take theirs from `--engine` and `--each`).
const GAME_OPTIONS: [&str; 4] = ["Game", "Size", "Variant", "Stones"];

/// Says which engine flags a match leaves unused, rather than ignoring
/// them silently.
fn warn_unused_by_match(given: &[&OptionSpec]) {
    for spec in given
        .iter()
        .filter(|spec| !GAME_OPTIONS.contains(&spec.name))
    {
        eprintln!(
            "quintet match: --{} is not used (it sets the engine of `quintet ugi`); \
             give the match's engines theirs with option.{}=VALUE in --engine or --each",
            spec.flag(),
            spec.name
        );
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
    },
    /// A fixed, deterministic workload over every game; prints `<N> nodes <M> nps`.
    Bench,
    /// Plays UGI engines against each other in game pairs, refereed by our
    /// own rules: two with live Elo and an optional SPRT, three or more in a
    /// round robin or gauntlet with joint ratings.
    Match(Box<MatchArgs>),
    /// Generates a suite of balanced openings (`moves ...` lines or
    /// position texts), or converts a suite to position texts.
    Openings(OpeningsArgs),
    /// Merges match records (shards or separate runs) into one result.
    Ratings(RatingsArgs),
    /// Proves the value of a position for perfect play (see README.md,
    /// "Solving"); the last line is `winner p1`, `winner p2`, `draw` or
    /// `unknown`, then the proof's size and time.
    Solve(SolveArgs),
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
    /// Prints the engine's options and searchers as the Markdown tables of
    /// protocol.md.
    Options,
    /// Draws a position: an SVG file with --svg, else text on stdout.
    Show {
        /// Start from this position text instead of the start position.
        #[arg(long)]
        fen: Option<String>,
        /// Moves to play first, space-separated.
        #[arg(long, default_value = "")]
        moves: String,
        /// Write the picture here as SVG.
        #[arg(long, value_name = "FILE")]
        svg: Option<PathBuf>,
    },
    /// One game of a `quintet match` record as a self-contained HTML page
    /// (the rules come from the record's header, else from --game/--size/...).
    Replay {
        record: PathBuf,
        #[arg(long, value_name = "FILE")]
        html: PathBuf,
        /// The record's game number (its game= field). Default: the file's
        /// first game.
        #[arg(long, value_name = "N")]
        number: Option<u64>,
    },
    /// The engine's view of every move of one game of a record: its score
    /// before the move, its best move, the score after the move played,
    /// mistakes marked (README.md, "Pictures, replays, play").
    Analyse {
        record: PathBuf,
        /// The record's game number (its game= field). Default: the first.
        #[arg(long, value_name = "N")]
        number: Option<u64>,
        /// Search time per position, ms (default 1000).
        #[arg(long, value_name = "MS")]
        movetime: Option<u64>,
        /// Nodes (playouts) per position instead of a time.
        #[arg(long)]
        nodes: Option<u64>,
        /// A move losing more than this many centipawns is a mistake (?),
        /// three times as many a blunder (??).
        #[arg(long, value_name = "CP", default_value_t = 100)]
        threshold: u32,
        /// Write the replay page with the analysis here.
        #[arg(long, value_name = "FILE")]
        html: Option<PathBuf>,
        /// Write the game's record line here with scores and best filled.
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
    },
    /// Plays in the terminal against the engine (moves in the game's
    /// notation; type help for the commands).
    Play {
        /// The seats a person plays: p1, p2, both or none.
        #[arg(long, default_value = "p1", value_name = "SEATS")]
        human: String,
        /// The engine's time per move, ms (default 1000).
        #[arg(long, value_name = "MS")]
        movetime: Option<u64>,
        /// The engine's nodes (playouts) per move instead of a time.
        #[arg(long)]
        nodes: Option<u64>,
    },
    /// Learns a policy and a value for the chosen game from self-play:
    /// generations of games and fits, resumable, in a training folder.
    Train(Box<TrainArgs>),
}

pub fn run(invocation: Invocation) -> Result<()> {
    let Invocation {
        options,
        given,
        command,
    } = invocation;
    let game = GameArgs {
        config: options.game.clone(),
    };
    match command {
        Command::Match(args) => {
            warn_unused_by_match(&given);
            match_command(&game, &args)
        }
        Command::Openings(args) => openings_command(&game, &args),
        Command::Ratings(args) => ratings_command(&args),
        Command::Solve(args) => runs::solve::run(&game.config(), &args.options(&options)),
        Command::Ugi => {
            // Fail early on a bad command line rather than inside the protocol.
            registry::resolve(&options.game).map_err(|e| anyhow!(e))?;
            protocol::run(
                BufReader::new(io::stdin()),
                Output::new(io::stdout()),
                options,
            );
            Ok(())
        }
        Command::Perft {
            depth,
            fen,
            moves,
            split,
        } => perft(
            &game,
            depth,
            fen.as_deref(),
            &moves,
            split,
            options.search.threads,
        ),
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
        Command::Show { fen, moves, svg } => {
            view::show::show(&game.config(), fen.as_deref(), &moves, svg.as_deref())
                .map_err(|e| anyhow!(e))
        }
        Command::Replay {
            record,
            html,
            number,
        } => view::replay_file(&record, number, &game.config(), &html).map_err(|e| anyhow!(e)),
        Command::Analyse {
            record,
            number,
            movetime,
            nodes,
            threshold,
            html,
            out,
        } => view::analyse::run(
            &view::analyse::Request {
                record,
                number,
                movetime,
                nodes,
                threshold,
                html,
                out,
            },
            &options,
        )
        .map_err(|e| anyhow!(e)),
        Command::Play {
            human,
            movetime,
            nodes,
        } => {
            view::play::play_in_terminal(&options, &human, movetime, nodes).map_err(|e| anyhow!(e))
        }
        Command::Selfcheck { games, seed, all } => {
            let configs = if all {
                registry::all_configs()
            } else {
                vec![game.config()]
            };
            for config in configs {
                let start = Instant::now();
                let (name, coverage) =
                    selfcheck::run(&config, games, 10_000, seed).map_err(|e| anyhow!(e))?;
                println!(
                    "{name}: ok, {} games, {} positions, {} finished, {} ms",
                    coverage.games,
                    coverage.positions,
                    coverage.finished,
                    start.elapsed().as_millis()
                );
            }
            Ok(())
        }
        Command::Train(args) => {
            let settings = train_settings(&options, &args)?;
            learn::run(&game.config(), &settings).map_err(|e| anyhow!(e))
        }
        Command::Options => {
            print!(
                "{}\n{}",
                protocol::format::option_table(),
                protocol::format::searcher_table()
            );
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
    let never = AtomicBool::new(false);
    for d in 1..=depth {
        let start = Instant::now();
        let last = split && d == depth;
        let rows = session
            .perft(d, threads, last, &never)
            .expect("perft without a stop flag finishes");
        if last {
            for (mv, n) in &rows {
                println!("  {mv} {n}");
            }
        }
        let nodes: u64 = rows.iter().map(|(_, n)| n).sum();
        let ms = start.elapsed().as_millis() as u64;
        println!(
            "perft {d:>2} {nodes:>14} nodes {ms:>8} ms {:>12} nps",
            nodes * 1000 / ms.max(1)
        );
    }
    Ok(())
}

/// `quintet match`: see README.md, "Matches".
#[derive(Args, Debug)]
pub struct MatchArgs {
    /// An engine, two or more times (the first is A: two-engine statistics
    /// are its, ratings are anchored at it): "name=A cmd='path/to/engine
    /// args' option.Hash=64 [dir=DIR] [restart=on]".
    #[arg(long = "engine", value_name = "SPEC", required = true)]
    pub engines: Vec<String>,
    /// With three or more engines: the first plays each of the others
    /// (instead of a round robin, where every engine plays every other).
    #[arg(long)]
    pub gauntlet: bool,
    /// Items for both engines, e.g. "option.Threads=1" (an engine's own
    /// items win).
    #[arg(long, value_name = "SPEC")]
    pub each: Vec<String>,
    /// Clock per engine, T+I in seconds ("10+0.1") or with ms ("500ms+5ms").
    #[arg(long, value_name = "T+I")]
    pub tc: Option<String>,
    /// Fixed time per move, ms.
    #[arg(long, value_name = "MS")]
    pub movetime: Option<u64>,
    /// Fixed nodes (playouts) per move.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Fixed depth per move.
    #[arg(long)]
    pub depth: Option<u32>,
    /// Lateness forgiven on a move time or a clock before a loss on time, ms.
    #[arg(long, value_name = "MS", default_value_t = 100)]
    pub timeout_margin: u64,
    /// The wait for a move under --nodes or --depth before a loss, ms.
    #[arg(long, value_name = "MS", default_value_t = 60_000)]
    pub move_timeout: u64,
    /// The wait for the handshake, readyok and query replies, ms.
    #[arg(long, value_name = "MS", default_value_t = 10_000)]
    pub ready_timeout: u64,
    /// Adjudicate a draw after this many plies past the opening (0 = never).
    #[arg(long, default_value_t = 0)]
    pub max_plies: usize,
    /// Adjudicate a draw when both engines' scores stay within ±S
    /// centipawns for K moves each: "score=S moves=K".
    #[arg(long, value_name = "RULE")]
    pub adjudicate_draw: Option<String>,
    /// Adjudicate a win when one engine's score stays at or below −S and
    /// the other's at or above +S for K moves each: "score=S moves=K".
    #[arg(long, value_name = "RULE")]
    pub adjudicate_resign: Option<String>,
    /// Games of each pairing of engines (of the match, for two), in pairs
    /// (an odd number is rounded up). Default: 100, or 20000 with --sprt
    /// (which stops when decided).
    #[arg(long)]
    pub games: Option<u64>,
    /// Openings file (one per line: startpos, moves ..., fen TEXT [moves ...]).
    #[arg(long, value_name = "FILE")]
    pub openings: Option<String>,
    /// Games played at once (default: cores / Threads per engine).
    #[arg(long)]
    pub concurrency: Option<usize>,
    /// SPRT on game pairs: "elo0=0 elo1=5 alpha=0.05 beta=0.05" or "0,5".
    #[arg(long, value_name = "SPEC")]
    pub sprt: Option<String>,
    /// Append one record line per game to this file (after a header, once).
    #[arg(long, value_name = "FILE")]
    pub record: Option<PathBuf>,
    /// Continue the match in the --record file: play only the games it
    /// does not hold yet.
    #[arg(long)]
    pub resume: bool,
    /// Play only shard K of N of the game list (by game pair; the N shards
    /// together play every game once).
    #[arg(long, value_name = "K/N")]
    pub shard: Option<String>,
    /// Append each finished game to this file as PGN.
    #[arg(long, value_name = "FILE")]
    pub pgn: Option<PathBuf>,
    /// Append every line sent to and received from the engines to this
    /// file (seconds since the start, engine#pid, direction, line).
    #[arg(long, value_name = "FILE")]
    pub log: Option<PathBuf>,
    /// Ask the engines' own view (query gameover/p1turn/result) and record
    /// disagreements with the referee (costs time).
    #[arg(long)]
    pub cross_check: bool,
    /// Without a terminal, print progress every this many games.
    #[arg(long, value_name = "N", default_value_t = 10)]
    pub progress_every: u64,
}

#[derive(Args, Debug)]
pub struct SolveArgs {
    /// Moves to play first, space-separated (after --fen if given).
    #[arg(long, default_value = "")]
    pub moves: String,
    /// Start from this position text instead of the start position.
    #[arg(long)]
    pub fen: Option<String>,
    /// Give up after this many seconds (the result is then `unknown`).
    #[arg(long, value_name = "S", value_parser = seconds)]
    pub time: Option<f64>,
    /// First print the value after each legal move.
    #[arg(long)]
    pub children: bool,
    /// The generic proof search only (no game-specific reductions).
    #[arg(long)]
    pub plain: bool,
    /// Hadron: regions of at most this many cells are summarised by their
    /// combinatorial game values (0..32).
    #[arg(long, value_name = "CELLS", default_value_t = solve::hadron::DEFAULT_SMALL)]
    pub small: u32,
    /// Hadron: do not use the mirror-strategy rule (to measure the search).
    #[arg(long)]
    pub no_mirror: bool,
    /// Prove every distinct position PLIES deep on its own (each within
    /// --each seconds), then back the values up to the root; prints how
    /// many positions of each ply are decided.
    #[arg(
        long,
        value_name = "PLIES",
        conflicts_with = "children",
        value_parser = clap::value_parser!(u32).range(0..=12)
    )]
    pub frontier: Option<u32>,
    /// With --frontier: seconds each frontier position may take.
    #[arg(
        long,
        value_name = "S",
        default_value_t = 10.0,
        requires = "frontier",
        value_parser = seconds
    )]
    pub each: f64,
}

/// A number of seconds a run may take: finite, not negative, at most a
/// year (a `Duration` holds it).
fn seconds(text: &str) -> Result<f64, String> {
    let value: f64 = text
        .parse()
        .map_err(|_| format!("'{text}' is not a number of seconds"))?;
    if value.is_finite() && (0.0..=31_536_000.0).contains(&value) {
        Ok(value)
    } else {
        Err(format!("{text} is not between 0 and 31536000 seconds"))
    }
}

impl SolveArgs {
    /// The solve settings; threads and the table's size come from the
    /// global `--threads` and `--hash`.
    fn options(&self, engine: &Options) -> runs::solve::SolveOptions {
        runs::solve::SolveOptions {
            moves: self.moves.clone(),
            fen: self.fen.clone(),
            time: self.time,
            threads: engine.search.threads,
            hash_mb: engine.engine.hash_mb,
            children: self.children,
            plain: self.plain,
            hadron: solve::hadron::Settings {
                small: self.small,
                mirror: !self.no_mirror,
                ..Default::default()
            },
            frontier: self.frontier,
            each: self.each,
        }
    }
}

/// `quintet train`: see README.md, "Learned knowledge". The seed is the
/// global `--seed`; `--search`, `--hash` and the tuning flags shape the
/// self-play searches.
#[derive(Args, Debug)]
pub struct TrainArgs {
    /// The training folder: self-play records, weights per generation, log.txt.
    #[arg(long, value_name = "DIR")]
    pub dir: PathBuf,
    /// Generations (self-play, then a fit) to run.
    #[arg(long, default_value_t = 2)]
    pub generations: u32,
    /// Self-play games per generation.
    #[arg(long, default_value_t = 1000)]
    pub games: u64,
    /// Search nodes (playouts) per self-play move.
    #[arg(long, default_value_t = 400)]
    pub nodes: u64,
    /// Each game starts with 0 to this many random plies.
    #[arg(long, default_value_t = 4)]
    pub opening_plies: u32,
    /// Plies after the opening that play a move drawn by its visit share.
    #[arg(long, default_value_t = 8)]
    pub sample_plies: u32,
    /// Games this long are stopped as draws.
    #[arg(long, default_value_t = 1000)]
    pub max_plies: u32,
    /// Prove each finished game's positions from its end backwards, each
    /// within this many solver nodes, until one is not settled; a proven
    /// value replaces the game's result as that position's value target
    /// (0: results only).
    #[arg(long, value_name = "NODES", default_value_t = 0)]
    pub exact_nodes: u64,
    /// Self-play games played at once.
    #[arg(long, default_value_t = 2)]
    pub concurrency: usize,
    /// Play only shard K of N of the current generation, then stop.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<String>,
    /// Fit on the data of this many generations (the newest).
    #[arg(long, default_value_t = 2)]
    pub window: u32,
    /// Passes over the data per fit.
    #[arg(long, default_value_t = 6)]
    pub epochs: u32,
    /// AdaGrad step size.
    #[arg(long, default_value_t = 0.05)]
    pub rate: f32,
    /// L2 regularisation per touched weight and sample.
    #[arg(long, default_value_t = 1e-4)]
    pub l2: f32,
    /// Policy targets: the root's visit counts to this power (1: visit
    /// shares; larger: closer to the most visited move).
    #[arg(long, default_value_t = 2.0)]
    pub sharpen: f32,
    /// Copy the last generation's weights here.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Fit the last generation again from its data (no self-play).
    #[arg(long)]
    pub refit: bool,
    /// Units in a hidden layer of the value (0: a linear value; at most 64).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=64))]
    pub hidden: u32,
}

fn train_settings(options: &Options, args: &TrainArgs) -> Result<learn::TrainSettings> {
    let shard = match &args.shard {
        None => None,
        Some(text) => {
            let parsed = text
                .split_once('/')
                .and_then(|(k, n)| {
                    Some((k.trim().parse::<u64>().ok()?, n.trim().parse::<u64>().ok()?))
                })
                .filter(|&(k, n)| n >= 1 && (1..=n).contains(&k));
            Some(parsed.ok_or_else(|| anyhow!("--shard '{text}' is not K/N with 1 <= K <= N"))?)
        }
    };
    if args.games == 0 || args.nodes == 0 || args.generations == 0 {
        return Err(anyhow!(
            "--games, --nodes and --generations must be at least 1"
        ));
    }
    Ok(learn::TrainSettings {
        dir: args.dir.clone(),
        generations: args.generations,
        games: args.games,
        selfplay: learn::selfplay::SelfPlay {
            nodes: args.nodes,
            opening_plies: args.opening_plies,
            sample_plies: args.sample_plies,
            max_plies: args.max_plies.max(1),
            seed: options.search.seed,
            tuning: options.search.tuning.clone(),
        },
        exact_nodes: args.exact_nodes,
        threads: args.concurrency.max(1),
        shard,
        window: args.window.max(1),
        fit: learn::fit::FitSettings {
            epochs: args.epochs,
            rate: args.rate,
            l2: args.l2,
            seed: options.search.seed,
            sharpen: args.sharpen.clamp(0.0, 64.0),
            hidden: args.hidden as usize,
        },
        out: args.out.clone(),
        searcher: options.engine.searcher,
        hash_mb: options.engine.hash_mb.min(256),
        refit: args.refit,
    })
}

/// `quintet openings`.
#[derive(Args, Debug)]
pub struct OpeningsArgs {
    /// Openings to generate.
    #[arg(long, default_value_t = 100)]
    pub count: usize,
    /// Random plies from the start: N or MIN-MAX.
    #[arg(long, default_value = "4-8")]
    pub plies: String,
    /// MCTS playouts of the balance check.
    #[arg(long, default_value_t = 3000)]
    pub nodes: u64,
    /// Keep a position when the side to move's searched win rate is within
    /// this distance of 0.5.
    #[arg(long, default_value_t = 0.1)]
    pub balance: f64,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// moves: `moves m1 m2 ...` lines; fen: one position text per line
    /// (what cutegames reads).
    #[arg(long, default_value = "moves")]
    pub format: String,
    /// Convert this openings file to --format instead of generating.
    #[arg(long, value_name = "FILE")]
    pub from: Option<String>,
    /// Write here instead of stdout.
    #[arg(long, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

/// `quintet ratings`.
#[derive(Args, Debug)]
pub struct RatingsArgs {
    /// Record files of `quintet match --record` (shards of one match, or
    /// separate runs).
    #[arg(required = true, value_name = "RECORD")]
    pub records: Vec<PathBuf>,
    /// The SPRT to report for two engines (default: the one in the records).
    #[arg(long, value_name = "SPEC")]
    pub sprt: Option<String>,
}

fn time_control(args: &MatchArgs) -> Result<TimeControl> {
    let mut chosen = Vec::new();
    if let Some(tc) = &args.tc {
        chosen.push(TimeControl::parse_clock(tc).map_err(|e| anyhow!(e))?);
    }
    if let Some(ms) = args.movetime {
        chosen.push(TimeControl::MoveTime(ms.max(1)));
    }
    if let Some(n) = args.nodes {
        chosen.push(TimeControl::Nodes(n.max(1)));
    }
    if let Some(d) = args.depth {
        chosen.push(TimeControl::Depth(d.max(1)));
    }
    match chosen.as_slice() {
        [tc] => Ok(*tc),
        [] => Err(anyhow!(
            "choose a time control: --tc T+I, --movetime MS, --nodes N or --depth D"
        )),
        _ => Err(anyhow!(
            "choose one time control of --tc, --movetime, --nodes and --depth"
        )),
    }
}

/// Builds the match settings from the command line (every check that can
/// fail before an engine starts).
pub fn match_settings(game: &GameArgs, args: &MatchArgs) -> Result<MatchSettings> {
    let config = registry::resolve(&game.config()).map_err(|e| anyhow!(e))?;
    if args.engines.len() < 2 {
        return Err(anyhow!(
            "a match needs at least two --engine specs (got {})",
            args.engines.len()
        ));
    }
    let mut engines = Vec::new();
    for text in &args.engines {
        engines.push(EngineSpec::parse(text, &args.each).map_err(|e| anyhow!(e))?);
    }
    // Engines of the same name are told apart by their place.
    let names: Vec<String> = engines.iter().map(|e| e.name.clone()).collect();
    for (k, spec) in engines.iter_mut().enumerate() {
        if names.iter().filter(|n| **n == spec.name).count() > 1 {
            spec.name = format!("{}-{}", spec.name, k + 1);
        }
    }
    let tc = time_control(args)?;
    let (openings, source) = match &args.openings {
        Some(path) => (
            openings::read_file(path, &config).map_err(|e| anyhow!(e))?,
            path.clone(),
        ),
        None => (vec![Opening::startpos()], "startpos".to_string()),
    };
    let sprt = match &args.sprt {
        Some(text) => Some(Sprt::parse(text).map_err(|e| anyhow!(e))?),
        None => None,
    };
    let shard = match &args.shard {
        Some(text) => Shard::parse(text).map_err(|e| anyhow!(e))?,
        None => Shard::WHOLE,
    };
    if sprt.is_some() && engines.len() != 2 {
        return Err(anyhow!(
            "--sprt needs exactly two engines (got {})",
            engines.len()
        ));
    }
    if sprt.is_some() && !shard.is_whole() {
        return Err(anyhow!(
            "--sprt cannot stop a match that runs in shards; run the shards without it and \
             read the merged records with `quintet ratings --sprt ...`"
        ));
    }
    if args.resume && args.record.is_none() {
        return Err(anyhow!(
            "--resume continues the match in a --record file: give one"
        ));
    }
    let adjudicate = |flag: &str, text: &Option<String>| -> Result<Option<ScoreRule>> {
        text.as_deref()
            .map(|t| ScoreRule::parse(flag, t).map_err(|e| anyhow!(e)))
            .transpose()
    };
    let games = args
        .games
        .unwrap_or(if sprt.is_some() { 20_000 } else { 100 });
    if games == 0 {
        return Err(anyhow!("--games must be at least 1"));
    }
    let threads = engines
        .iter()
        .filter_map(|e| e.option("Threads"))
        .filter_map(|t| t.trim().parse::<usize>().ok())
        .max()
        .unwrap_or(1)
        .max(1);
    // With two engines both kinds are the same game list.
    let tournament = if args.gauntlet && engines.len() > 2 {
        Tournament::Gauntlet
    } else {
        Tournament::RoundRobin
    };
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let concurrency = args.concurrency.unwrap_or(cores / threads).max(1);
    Ok(MatchSettings {
        rules: Rules {
            config,
            tc,
            margin_ms: args.timeout_margin,
            move_timeout_ms: args.move_timeout.max(1),
            ready_timeout: Duration::from_millis(args.ready_timeout.max(1)),
            max_plies: args.max_plies,
            cross_check: args.cross_check,
            adjudicate_draw: adjudicate("--adjudicate-draw", &args.adjudicate_draw)?,
            adjudicate_resign: adjudicate("--adjudicate-resign", &args.adjudicate_resign)?,
        },
        engines,
        tournament,
        games_per_pairing: games.div_ceil(2) * 2,
        openings,
        openings_source: source,
        shard,
        concurrency,
        sprt,
        record: args.record.clone(),
        resume: args.resume,
        pgn: args.pgn.clone(),
        log: args.log.clone(),
        progress_every: args.progress_every,
    })
}

/// Prints to stdout without panicking when stdout is gone (a closed
/// terminal after SIGHUP, a closed pipe).
fn print_text(text: &str) {
    let mut out = io::stdout();
    let _ = out.write_all(text.as_bytes()).and_then(|_| out.flush());
}

fn match_command(game: &GameArgs, args: &MatchArgs) -> Result<()> {
    let settings = match_settings(game, args)?;
    signals::install_interrupt_handler();
    let summary = matches::run(settings).map_err(|e| anyhow!(e))?;
    print_text(&report::summary_text(&summary));
    if let Some(stop) = summary.interrupted {
        std::process::exit(stop.exit_status());
    }
    Ok(())
}

fn ratings_command(args: &RatingsArgs) -> Result<()> {
    let merged = resume::merge(&args.records).map_err(|e| anyhow!(e))?;
    let sprt = match &args.sprt {
        Some(text) => Some(Sprt::parse(text).map_err(|e| anyhow!(e))?),
        None => merged.sprt,
    };
    print_text(&report::merged_text(&merged, sprt.as_ref()));
    Ok(())
}

fn openings_command(game: &GameArgs, args: &OpeningsArgs) -> Result<()> {
    let config = registry::resolve(&game.config()).map_err(|e| anyhow!(e))?;
    let format = Format::parse(&args.format).map_err(|e| anyhow!(e))?;
    if let Some(path) = &args.from {
        let text = openings::convert_file(path, &config, format).map_err(|e| anyhow!(e))?;
        return write_output(args.output.as_ref(), &text);
    }
    let (min_plies, max_plies) = match args.plies.split_once('-') {
        Some((a, b)) => (a.trim().parse().ok(), b.trim().parse().ok()),
        None => {
            let n = args.plies.trim().parse().ok();
            (n, n)
        }
    };
    let (Some(min_plies), Some(max_plies)) = (min_plies, max_plies) else {
        return Err(anyhow!(
            "--plies: expected N or MIN-MAX, got '{}'",
            args.plies
        ));
    };
    if !(args.balance >= 0.0 && args.balance <= 0.5) {
        return Err(anyhow!("--balance must lie in 0..0.5"));
    }
    let generator = openings::Generator {
        count: args.count,
        min_plies,
        max_plies,
        nodes: args.nodes,
        balance: args.balance,
        seed: args.seed,
        tries_per_opening: 200,
    };
    let start = Instant::now();
    let suite = openings::generate(&config, &generator).map_err(|e| anyhow!(e))?;
    let describe = registry::create(&config)
        .map(|s| s.describe())
        .unwrap_or_default();
    // The command that makes this file again (generation is deterministic).
    let mut game_flags = format!("--game {} --size {}", config.game, config.size);
    if let Ok(entry) = registry::find(&config.game) {
        if entry.variants.len() > 1 {
            game_flags.push_str(&format!(" --variant {}", config.variant));
        }
        if entry.stones.is_some() {
            game_flags.push_str(&format!(" --stones {}", config.stones));
        }
    }
    let mut text = format!(
        "# quintet openings: {describe}; {} openings, {}-{} random plies, kept when an \
         MCTS search of {} playouts gives the side to move a win rate within {} of 0.5\n\
         # tried {}: {} duplicates or finished, {} unbalanced\n\
         # made by: quintet {game_flags} openings --count {} --plies {min_plies}-{max_plies} \
         --nodes {} --balance {} --seed {} --format {}\n",
        suite.openings.len(),
        min_plies,
        max_plies,
        args.nodes,
        args.balance,
        suite.tried,
        suite.duplicates,
        suite.unbalanced,
        args.count,
        args.nodes,
        args.balance,
        args.seed,
        args.format
    );
    for opening in &suite.openings {
        text.push_str(&format.line(opening, &config).map_err(|e| anyhow!(e))?);
        text.push('\n');
    }
    write_output(args.output.as_ref(), &text)?;
    eprintln!(
        "{} openings in {:.1} s",
        suite.openings.len(),
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

fn write_output(path: Option<&PathBuf>, text: &str) -> Result<()> {
    match path {
        Some(path) => {
            std::fs::write(path, text).with_context(|| format!("writing {}", path.display()))
        }
        None => {
            print_text(text);
            Ok(())
        }
    }
}

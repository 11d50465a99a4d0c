//! `quintet solve`: sets up the position, runs the solver with live
//! progress on stderr, and prints the values on stdout (the last line
//! starts with `winner p1`, `winner p2`, `draw` or `unknown`).

use crate::games::{Game, Outcome, Seat};
use crate::registry::{self, GameConfig, GameVisitor};
use crate::session::Profile;
use crate::solve::frontier::{FrontierBudget, FrontierProgress, solve_frontier};
use crate::solve::node::GameNode;
use crate::solve::{self, Budget, Progress, Proof, ProofTable, hadron, solve};
use anyhow::{Result, anyhow};
use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// What the command line asked for.
#[derive(Clone, Debug, Default)]
pub struct SolveOptions {
    /// Moves to play first (space-separated), after `fen` if given.
    pub moves: String,
    pub fen: Option<String>,
    /// Give up after this many seconds (whole command).
    pub time: Option<f64>,
    pub threads: usize,
    pub hash_mb: usize,
    /// Also print the value after every legal move.
    pub children: bool,
    /// Use the generic search even where a game-specific solver exists.
    pub plain: bool,
    /// Hadron's region solver settings.
    pub hadron: hadron::Settings,
    /// Prove every position this many plies deep on its own, then back
    /// the values up (see `solve::frontier`).
    pub frontier: Option<u32>,
    /// Seconds each frontier position may take.
    pub each: f64,
}

/// Runs `quintet solve` for `config`.
pub fn run(config: &GameConfig, options: &SolveOptions) -> Result<()> {
    let config = match &options.fen {
        Some(text) => registry::config_for_text(config, text),
        None => config.clone(),
    };
    // Proofs recurse one frame per ply: give them room.
    let options = options.clone();
    std::thread::Builder::new()
        .stack_size(solve::STACK_BYTES)
        .spawn(move || registry::with_game(&config, Command { options: &options }))
        .map_err(|e| anyhow!("cannot start the solver thread: {e}"))?
        .join()
        .map_err(|_| anyhow!("the solver failed"))?
        .map_err(|e| anyhow!(e))?
}

struct Command<'a> {
    options: &'a SolveOptions,
}

impl GameVisitor for Command<'_> {
    type Output = Result<()>;

    fn visit<G: Game>(self, _config: &GameConfig, start: G, _auto: &Profile) -> Result<()> {
        let root = set_up(&start, self.options)?;
        solve_command(&root, self.options)
    }
}

/// The position asked for: the start or `--fen`, then `--moves`.
pub fn set_up<G: Game>(start: &G, options: &SolveOptions) -> Result<G> {
    let mut game = match &options.fen {
        Some(text) => start
            .read_position(text)
            .map_err(|e| anyhow!("bad position text: {e}"))?,
        None => start.clone(),
    };
    let mut legal = Vec::new();
    for (i, text) in options.moves.split_whitespace().enumerate() {
        let mv = game
            .parse_move(text)
            .map_err(|e| anyhow!("move {} of --moves: {e}", i + 1))?;
        game.legal_moves(&mut legal);
        if !legal.contains(&mv) {
            return Err(anyhow!(
                "move {} of --moves, '{text}', is illegal in {}",
                i + 1,
                game.position_text()
            ));
        }
        game.play(mv);
    }
    Ok(game)
}

/// `winner p1`, `winner p2`, `draw` or `unknown`.
pub fn value_text(value: Option<Outcome>) -> &'static str {
    match value {
        Some(Outcome::Win(Seat::P1)) => "winner p1",
        Some(Outcome::Win(Seat::P2)) => "winner p2",
        Some(Outcome::Draw) => "draw",
        None => "unknown",
    }
}

/// The three-valued solve of `game` by the best solver for it.
pub fn solve_game<G: Game>(
    game: &G,
    budget: &Budget,
    table: &ProofTable,
    progress: Option<&Progress>,
    threads: usize,
    options: &SolveOptions,
) -> Proof<G::Move> {
    if !options.plain
        && let Some(proof) =
            hadron::prove_if_hadron(game, options.hadron, budget, table, progress, threads)
    {
        return proof;
    }
    solve(
        GameNode::new(game.clone()),
        &|| (),
        table,
        budget,
        progress,
        threads,
    )
}

fn solve_command<G: Game>(root: &G, options: &SolveOptions) -> Result<()> {
    let started = Instant::now();
    let deadline = options
        .time
        .filter(|t| *t > 0.0)
        .map(|t| started + Duration::from_secs_f64(t));
    let table = ProofTable::new(options.hash_mb.max(1));
    let progress = Progress::default();
    let budget = Budget::until(deadline, None);
    println!(
        "solve {} from {} ({} to move)",
        root.describe(),
        root.position_text(),
        root.side_to_move().name()
    );
    if root.outcome().is_some() {
        println!(
            "{} nodes 0 time 0.000s (the game is over)",
            value_text(root.outcome())
        );
        return Ok(());
    }
    if let Some(depth) = options.frontier {
        return frontier_command(root, depth, options, &table, started, deadline);
    }
    let done = AtomicBool::new(false);
    let threads = options.threads.max(1);
    let proof = std::thread::scope(|s| {
        s.spawn(|| show_progress(&progress, &table, started, &done));
        let proof = solve_all(root, options, &budget, &table, &progress, threads);
        done.store(true, Ordering::Relaxed);
        proof
    });
    let plies = proof
        .plies
        .map(|p| format!(" plies {p}"))
        .unwrap_or_default();
    println!(
        "{}",
        result_line(root, proof.value, proof.nodes, started, &plies, proof.best)
    );
    Ok(())
}

/// The last line: value, nodes, time, `extra`, and on a win for the side
/// to move the winning move.
fn result_line<G: Game>(
    root: &G,
    value: Option<Outcome>,
    nodes: u64,
    started: Instant,
    extra: &str,
    best: Option<G::Move>,
) -> String {
    let mut line = format!(
        "{} nodes {nodes} time {:.3}s{extra}",
        value_text(value),
        started.elapsed().as_secs_f64()
    );
    if value == Some(Outcome::Win(root.side_to_move()))
        && let Some(mv) = best
    {
        line.push_str(&format!(" move {}", root.format_move(mv)));
    }
    line
}

/// `--frontier D`: every position D plies deep proven on its own (each
/// within `--each` seconds, `--threads` at a time), then backed up.
fn frontier_command<G: Game>(
    root: &G,
    depth: u32,
    options: &SolveOptions,
    table: &ProofTable,
    started: Instant,
    deadline: Option<Instant>,
) -> Result<()> {
    let progress = FrontierProgress::default();
    let nodes = Progress::default();
    let budget = FrontierBudget {
        each: Duration::from_secs_f64(options.each.max(0.001)),
        deadline,
    };
    let done = AtomicBool::new(false);
    let result = std::thread::scope(|s| {
        s.spawn(|| show_frontier_progress(depth, &progress, &nodes, started, &done));
        let result = solve_frontier(
            root,
            depth,
            budget,
            options.threads.max(1),
            &progress,
            |game: &G, budget: &Budget| solve_game(game, budget, table, Some(&nodes), 1, options),
        );
        done.store(true, Ordering::Relaxed);
        result
    });
    let result = result.map_err(|e| anyhow!(e))?;
    for (ply, count) in result.plies.iter().enumerate() {
        println!(
            "ply {ply} positions {} decided {} p1 {} p2 {} draw {} unknown {} over {}",
            count.positions,
            count.decided(),
            count.p1,
            count.p2,
            count.draws,
            count.positions - count.decided(),
            count.finished
        );
    }
    let extra = format!(" frontier {depth}");
    println!(
        "{}",
        result_line(
            root,
            result.value,
            result.nodes,
            started,
            &extra,
            result.best
        )
    );
    Ok(())
}

/// Frontier progress on stderr about once a second.
fn show_frontier_progress(
    depth: u32,
    progress: &FrontierProgress,
    nodes: &Progress,
    started: Instant,
    done: &AtomicBool,
) {
    every_second(started, done, || {
        let elapsed = started.elapsed().as_secs_f64();
        if progress.total.load(Ordering::Relaxed) == 0 {
            return format!("{elapsed:7.1}s  ply {depth}: listing the positions");
        }
        format!(
            "{elapsed:7.1}s  ply {depth}: {}/{} tried, {} decided  nodes {:>12}  {:>9}/s",
            progress.done.load(Ordering::Relaxed),
            progress.total.load(Ordering::Relaxed),
            progress.decided.load(Ordering::Relaxed),
            nodes.nodes(),
            (nodes.nodes() as f64 / elapsed) as u64,
        )
    });
}

/// The root (after its children with `--children`).
fn solve_all<G: Game>(
    root: &G,
    options: &SolveOptions,
    budget: &Budget,
    table: &ProofTable,
    progress: &Progress,
    threads: usize,
) -> Proof<G::Move> {
    let mut child_nodes = 0;
    if options.children {
        let mut moves = Vec::new();
        root.legal_moves(&mut moves);
        for mv in moves {
            let started = Instant::now();
            let mut child = root.clone();
            child.play(mv);
            let proof = solve_game(&child, budget, table, Some(progress), threads, options);
            child_nodes += proof.nodes;
            println!(
                "child {} {} nodes {} time {:.3}s",
                root.format_move(mv),
                value_text(proof.value),
                proof.nodes,
                started.elapsed().as_secs_f64()
            );
            let _ = std::io::stdout().flush();
        }
    }
    let mut proof = solve_game(root, budget, table, Some(progress), threads, options);
    proof.nodes += child_nodes;
    proof
}

/// Prints nodes, speed and the root's numbers about once a second on
/// stderr.
fn show_progress(progress: &Progress, table: &ProofTable, started: Instant, done: &AtomicBool) {
    every_second(started, done, || {
        let elapsed = started.elapsed().as_secs_f64();
        let nodes = progress.nodes();
        let (phi, delta) = progress.root();
        format!(
            "{elapsed:7.1}s  nodes {:>12}  {:>9}/s  root pn {} dn {}  table {:.1}%",
            nodes,
            (nodes as f64 / elapsed) as u64,
            number_text(phi),
            number_text(delta),
            table.permille_used() as f64 / 10.0
        )
    });
}

/// Writes `line()` on stderr about once a second until `done` (one line
/// rewritten in place on a terminal).
fn every_second(started: Instant, done: &AtomicBool, line: impl Fn() -> String) {
    let terminal = std::io::stderr().is_terminal();
    let mut next = Duration::from_secs(1);
    let mut printed = false;
    while !done.load(Ordering::Relaxed) {
        std::thread::sleep(Duration::from_millis(50));
        if started.elapsed() < next {
            continue;
        }
        next += Duration::from_secs(1);
        let line = line();
        let mut err = std::io::stderr().lock();
        if terminal {
            let _ = write!(err, "\r{line}\x1b[K");
        } else {
            let _ = writeln!(err, "{line}");
        }
        let _ = err.flush();
        printed = true;
    }
    if printed && terminal {
        let _ = writeln!(std::io::stderr());
    }
}

fn number_text(n: u32) -> String {
    if n == solve::table::INF {
        "inf".into()
    } else {
        n.to_string()
    }
}

//! `quintet match`: two UGI engines play a series of game pairs, refereed
//! by our own rules code, with live statistics and an optional SPRT.
//!
//! Layout: `spec` (engine and time-control syntax), `engine` (the child
//! process), `referee` (one game), `openings` (files and generation),
//! `stats` (Elo, SPRT), `tally` (results so far), `report` (progress line
//! and summary), `record` (the game-record file), `signals` (Ctrl-C).
//!
//! Threads: each worker owns one process of each engine, reused across its
//! games and restarted when it dies; workers take game numbers from a
//! shared counter and send results to the main thread, which keeps the
//! tally, the record file and the progress line, and decides when to stop.

pub mod engine;
pub mod openings;
pub mod record;
pub mod referee;
pub mod report;
pub mod signals;
pub mod spec;
pub mod stats;
pub mod tally;

use engine::Engine;
use openings::Opening;
use referee::{GameResult, Reason, Rules};
use spec::EngineSpec;
use stats::{Decision, Sprt};
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError, Sender};
use std::thread;
use std::time::{Duration, Instant};
use tally::Tally;

use crate::games::{Outcome, Seat};
use crate::registry;

/// Everything a match needs, checked.
#[derive(Clone, Debug)]
pub struct MatchSettings {
    pub rules: Rules,
    /// Engine A (the one the statistics speak for) and engine B.
    pub engines: [EngineSpec; 2],
    /// Games to play (an even number: pairs).
    pub games: u64,
    pub openings: Vec<Opening>,
    /// Where the openings came from, for the summary.
    pub openings_source: String,
    pub concurrency: usize,
    pub sprt: Option<Sprt>,
    pub record: Option<PathBuf>,
    /// Without a terminal, a progress line every this many games.
    pub progress_every: u64,
}

/// How a match ended.
pub struct Summary {
    pub settings: MatchSettings,
    /// What the engines call themselves (`id name`).
    pub id_names: [Option<String>; 2],
    pub tally: Tally,
    pub decision: Option<Decision>,
    pub interrupted: bool,
    /// Games that were running when the match stopped (not counted).
    pub abandoned: u64,
    pub elapsed: Duration,
}

enum Message {
    Finished { index: u64, result: GameResult },
    Abandoned,
}

/// The state the workers share.
struct Shared<'a> {
    settings: &'a MatchSettings,
    game_options: Vec<(String, String)>,
    next: AtomicU64,
    stop: AtomicBool,
}

/// Which engine (0 = A, 1 = B) sits at p1 in game `index`: A takes p1 in
/// the first game of each pair, B in the second.
pub fn engine_at_p1(index: u64) -> usize {
    (index % 2) as usize
}

/// The pair game `index` belongs to: games 2k and 2k+1 share an opening.
pub fn opening_pair(index: u64) -> u64 {
    index / 2
}

/// The opening of game `index`: pairs walk through the openings in order.
pub fn opening_of(index: u64, openings: &[Opening]) -> &Opening {
    &openings[(opening_pair(index) % openings.len() as u64) as usize]
}

/// The UGI options that select the game, sent to every engine before its
/// own options.
fn game_options(settings: &MatchSettings) -> Vec<(String, String)> {
    let config = &settings.rules.config;
    let mut options = vec![
        ("Game".to_string(), config.game.clone()),
        ("Size".to_string(), config.size.to_string()),
        ("Variant".to_string(), config.variant.clone()),
    ];
    if registry::find(&config.game).is_ok_and(|g| g.stones.is_some()) {
        options.push(("Stones".to_string(), config.stones.to_string()));
    }
    options
}

/// Runs the match to its end (all games, an SPRT decision or Ctrl-C).
/// `progress` receives the live progress text.
pub fn run(settings: MatchSettings) -> Result<Summary, String> {
    let started = Instant::now();
    let shared = Shared {
        game_options: game_options(&settings),
        settings: &settings,
        next: AtomicU64::new(0),
        stop: AtomicBool::new(false),
    };
    let mut record = match &settings.record {
        Some(path) => {
            let file = File::create(path)
                .map_err(|e| format!("cannot create the record file {}: {e}", path.display()))?;
            let mut writer = BufWriter::new(file);
            writeln!(writer, "# {}", report::headline(&settings))
                .and_then(|_| writer.flush())
                .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
            Some(writer)
        }
        None => None,
    };
    // Both engines start once here, so a wrong command fails the match at
    // once with its own message; these processes serve the first worker.
    let mut first = Vec::new();
    for spec in &settings.engines {
        let engine = Engine::start(
            spec,
            &shared.game_options,
            settings.rules.ready_timeout,
            &shared.stop,
        )?;
        first.push(Some(engine));
    }
    let id_names = [0, 1].map(|k| first[k].as_ref().and_then(|e| e.id_name.clone()));
    let mut first = Some([first[0].take(), first[1].take()]);
    let mut tally = Tally::default();
    let mut progress = report::Progress::new(settings.progress_every);
    let mut decision = None;
    let mut interrupted = false;
    let mut abandoned = 0;
    let (sender, receiver) = mpsc::channel();
    thread::scope(|scope| {
        for worker in 0..settings.concurrency.max(1) {
            let engines = first.take().unwrap_or([None, None]);
            let sender = sender.clone();
            let shared = &shared;
            thread::Builder::new()
                .name(format!("match-worker-{worker}"))
                .spawn_scoped(scope, move || run_worker(shared, engines, sender))
                .expect("spawn a match worker");
        }
        drop(sender);
        loop {
            if !interrupted && signals::interrupted() {
                interrupted = true;
                shared.stop.store(true, Ordering::SeqCst);
            }
            match receiver.recv_timeout(Duration::from_millis(100)) {
                Ok(Message::Finished { index, result }) => {
                    tally.add(index, &result, &settings.engines);
                    if let Some(writer) = &mut record {
                        let line = report::record_line(&settings, index, &result);
                        if let Err(e) = writeln!(writer, "{line}").and_then(|_| writer.flush()) {
                            log::error!("writing the record file: {e}");
                        }
                    }
                    if decision.is_none()
                        && let Some(sprt) = &settings.sprt
                    {
                        decision = sprt.decide_pairs(&tally.pentanomial);
                        if decision.is_some() {
                            shared.stop.store(true, Ordering::SeqCst);
                        }
                    }
                    progress.update(&settings, &tally);
                }
                Ok(Message::Abandoned) => abandoned += 1,
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => break,
            }
        }
    });
    progress.finish(&settings, &tally);
    Ok(Summary {
        settings,
        id_names,
        tally,
        decision,
        interrupted,
        abandoned,
        elapsed: started.elapsed(),
    })
}

fn run_worker(shared: &Shared, mut engines: [Option<Engine>; 2], sender: Sender<Message>) {
    let settings = shared.settings;
    let rules = &settings.rules;
    while !shared.stop.load(Ordering::SeqCst) {
        let index = shared.next.fetch_add(1, Ordering::SeqCst);
        if index >= settings.games {
            break;
        }
        // (Re)start what is missing, dead or in doubt.
        let mut failures: [Option<String>; 2] = [None, None];
        for k in 0..2 {
            if engines[k].as_ref().is_none_or(|e| e.needs_restart) {
                engines[k] = None;
                match Engine::start(
                    &settings.engines[k],
                    &shared.game_options,
                    rules.ready_timeout,
                    &shared.stop,
                ) {
                    Ok(engine) => engines[k] = Some(engine),
                    Err(e) => failures[k] = Some(e),
                }
            }
        }
        let at_p1 = engine_at_p1(index);
        let opening = opening_of(index, &settings.openings);
        if shared.stop.load(Ordering::SeqCst) {
            break;
        }
        let message = if let [Some(a), Some(b)] = &mut engines {
            let seated = if at_p1 == 0 { [a, b] } else { [b, a] };
            match referee::play(rules, opening, seated, &shared.stop) {
                Ok(result) => Message::Finished { index, result },
                Err(referee::Abandoned) => Message::Abandoned,
            }
        } else {
            Message::Finished {
                index,
                result: start_failure(&failures, at_p1),
            }
        };
        if sender.send(message).is_err() {
            break;
        }
    }
}

/// The result of a game that could not begin: the engine that failed to
/// start loses (a draw when both failed).
fn start_failure(failures: &[Option<String>; 2], at_p1: usize) -> GameResult {
    let seat_of = |k: usize| if k == at_p1 { Seat::P1 } else { Seat::P2 };
    let outcome = match failures {
        [Some(_), Some(_)] => Outcome::Draw,
        [Some(_), None] => Outcome::Win(seat_of(1)),
        _ => Outcome::Win(seat_of(0)),
    };
    GameResult {
        outcome,
        reason: Reason::StartFailure,
        detail: failures
            .iter()
            .flatten()
            .cloned()
            .collect::<Vec<_>>()
            .join("; "),
        moves: Vec::new(),
        time_ms: [0, 0],
        final_text: String::new(),
        disagreements: Vec::new(),
    }
}

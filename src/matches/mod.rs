//! `quintet match`: UGI engines play a list of game pairs, refereed by our
//! own rules code, with live statistics, joint ratings for three or more
//! engines and an optional SPRT for two; `quintet ratings` merges the
//! records of several runs or shards into one result.
//!
//! Layout: `spec` (engine and time-control syntax), `advertised` (the
//! options an engine offers, checked before the first game), `engine` (the
//! child process), `traffic` (`--log`), `referee` (one game), `adjudicate`
//! (score adjudication), `openings` (files and generation), `schedule` (the
//! game list and its shards), `stats` (Elo, SPRT), `ratings` (joint
//! maximum-likelihood ratings), `tally` (results so far), `record` (the
//! record file), `resume` (continuing a record, merging records), `pgn`,
//! `report` (progress line and summary), `signals` (Ctrl-C, SIGTERM,
//! SIGHUP).
//!
//! Threads: each worker owns processes of the engines, reused across its
//! games (unless `restart=on`) and restarted when one dies; workers take
//! game numbers from the shared list of this run and send results to the
//! main thread, which keeps the tally, the record and PGN files and the
//! progress line, and decides when to stop.

pub mod adjudicate;
pub mod advertised;
pub mod engine;
pub mod openings;
pub mod pgn;
pub mod ratings;
pub mod record;
pub mod referee;
pub mod report;
pub mod resume;
pub mod schedule;
pub mod signals;
pub mod spec;
pub mod stats;
pub mod tally;
pub mod traffic;

use engine::{Engine, Launch};
use openings::Opening;
use record::Fields;
use referee::{GameResult, Reason, Rules};
use schedule::{Schedule, Shard, Slot, Tournament};
use spec::EngineSpec;
use stats::{Decision, Sprt};
use std::fs::File;
use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError, Sender};
use std::thread;
use std::time::{Duration, Instant};
use tally::{Finished, Tally};
use traffic::TrafficLog;

use crate::games::{Outcome, Seat};
use crate::registry;

/// Everything a match needs, checked.
#[derive(Clone, Debug)]
pub struct MatchSettings {
    pub rules: Rules,
    /// The engines; the first is the one two-engine statistics speak for,
    /// the anchor of the ratings and the gauntlet's player.
    pub engines: Vec<EngineSpec>,
    pub tournament: Tournament,
    /// Games of each pairing of engines (an even number: pairs).
    pub games_per_pairing: u64,
    pub openings: Vec<Opening>,
    /// Where the openings came from, for the summary.
    pub openings_source: String,
    /// The slice of the game list this run plays.
    pub shard: Shard,
    pub concurrency: usize,
    pub sprt: Option<Sprt>,
    pub record: Option<PathBuf>,
    /// Continue the match in `record`, skipping the games it holds.
    pub resume: bool,
    pub pgn: Option<PathBuf>,
    pub log: Option<PathBuf>,
    /// Without a terminal, a progress line every this many games.
    pub progress_every: u64,
}

impl MatchSettings {
    pub fn schedule(&self) -> Schedule {
        Schedule {
            tournament: self.tournament,
            engines: self.engines.len(),
            games_per_pairing: self.games_per_pairing,
            openings: self.openings.len(),
        }
    }

    pub fn names(&self) -> Vec<String> {
        self.engines.iter().map(|e| e.name.clone()).collect()
    }

    /// The record header's settings: what decides which games are played
    /// and how (see `record`).
    pub fn identity(&self) -> Fields {
        let rules = &self.rules;
        let config = &rules.config;
        let rule = |r: Option<adjudicate::ScoreRule>| r.map_or("-".to_string(), |r| r.describe());
        let fields = [
            ("version", record::VERSION.to_string()),
            ("game", config.game.clone()),
            ("size", config.size.to_string()),
            ("variant", config.variant.clone()),
            ("stones", config.stones.to_string()),
            ("tc", rules.tc.describe()),
            ("max_plies", rules.max_plies.to_string()),
            ("adjudicate_draw", rule(rules.adjudicate_draw)),
            ("adjudicate_resign", rule(rules.adjudicate_resign)),
            ("tournament", self.tournament.name().to_string()),
            ("games_per_pairing", self.games_per_pairing.to_string()),
            ("openings", self.openings.len().to_string()),
            ("openings_digest", openings_digest(&self.openings)),
            (
                "sprt",
                self.sprt.map_or("-".to_string(), |s| {
                    format!(
                        "elo0={} elo1={} alpha={} beta={}",
                        s.elo0, s.elo1, s.alpha, s.beta
                    )
                }),
            ),
            ("shard", self.shard.describe()),
            ("engines", self.engines.len().to_string()),
        ];
        let mut all: Vec<(String, String)> = fields
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect();
        for (k, engine) in self.engines.iter().enumerate() {
            all.push((format!("engine{}", k + 1), engine.to_text()));
        }
        Fields(all)
    }
}

/// A short fingerprint of the openings (FNV-1a over their lines), so a
/// resumed match can tell that its openings file changed.
fn openings_digest(openings: &[Opening]) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for opening in openings {
        for byte in opening.to_line().bytes().chain([b'\n']) {
            hash ^= u64::from(byte);
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
    }
    format!("{hash:016x}")
}

/// How a match ended.
pub struct Summary {
    pub settings: MatchSettings,
    /// What the engines call themselves (`id name`).
    pub id_names: Vec<Option<String>>,
    pub tally: Tally,
    /// Games recorded by an earlier run that this one resumed.
    pub resumed: u64,
    pub decision: Option<Decision>,
    /// The signal that stopped the match, if one did.
    pub interrupted: Option<signals::Stop>,
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
    schedule: Schedule,
    game_options: Vec<(String, String)>,
    /// The game numbers this run plays, and the next one to hand out.
    todo: Vec<u64>,
    next: AtomicUsize,
    stop: AtomicBool,
    log: Option<Arc<TrafficLog>>,
}

impl Shared<'_> {
    fn launch(&self) -> Launch<'_> {
        Launch {
            game_options: &self.game_options,
            timeout: self.settings.rules.ready_timeout,
            stop: &self.stop,
            log: self.log.as_ref(),
        }
    }
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

/// The output files of a run, opened for appending.
struct Outputs {
    record: Option<(PathBuf, File)>,
    pgn: Option<(PathBuf, File)>,
    event: String,
}

impl Outputs {
    fn write(&mut self, settings: &MatchSettings, slot: &Slot, result: &GameResult) {
        let names = settings.names();
        if let Some((path, file)) = &mut self.record {
            let line = report::record_line(settings, &names, slot, result);
            // One write per line: a stop between games never cuts a line.
            if let Err(e) = file.write_all(format!("{line}\n").as_bytes()) {
                log::error!("writing the record {}: {e}", path.display());
            }
        }
        if let Some((path, file)) = &mut self.pgn {
            let game = pgn::PgnGame {
                event: &self.event,
                round: slot.index + 1,
                date: pgn::today(),
                white: &names[slot.p1],
                black: &names[slot.p2],
                tc: settings.rules.tc,
                result,
            };
            if let Err(e) = file.write_all(pgn::format(&game).as_bytes()) {
                log::error!("writing the PGN file {}: {e}", path.display());
            }
        }
    }
}

fn append_to(path: &PathBuf, what: &str) -> Result<File, String> {
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|e| format!("cannot open the {what} {}: {e}", path.display()))
}

/// Runs the match to its end (all games of this run, an SPRT decision or
/// a stopping signal).
pub fn run(settings: MatchSettings) -> Result<Summary, String> {
    let started = Instant::now();
    let schedule = settings.schedule();
    let names = settings.names();
    // What an earlier run recorded (checked against these settings), before
    // anything starts or is written.
    let earlier = match &settings.record {
        Some(path) => Some(resume::prepare(path, &settings, &schedule)?),
        None => None,
    };
    let log = match &settings.log {
        Some(path) => Some(Arc::new(TrafficLog::open(path, started)?)),
        None => None,
    };
    let recorded: Vec<(u64, Finished)> = earlier
        .as_ref()
        .map(|e| e.games.clone())
        .unwrap_or_default();
    let done: std::collections::HashSet<u64> = recorded.iter().map(|(index, _)| *index).collect();
    let todo: Vec<u64> = schedule
        .games_of(settings.shard)
        .into_iter()
        .filter(|index| !done.contains(index))
        .collect();
    let shared = Shared {
        game_options: game_options(&settings),
        settings: &settings,
        schedule: schedule.clone(),
        todo,
        next: AtomicUsize::new(0),
        stop: AtomicBool::new(false),
        log,
    };
    // Every engine starts once here and is checked (handshake, options), so
    // a wrong command or option fails the match before the first game;
    // these processes serve the first worker.
    let mut first = Vec::new();
    for spec in &settings.engines {
        first.push(Some(Engine::start(spec, shared.launch())?));
    }
    let id_names: Vec<Option<String>> = first
        .iter()
        .map(|e| e.as_ref().and_then(|e| e.id_name.clone()))
        .collect();
    let mut outputs = Outputs {
        record: match (&settings.record, &earlier) {
            (Some(path), Some(earlier)) => {
                Some((path.clone(), earlier.open_for_append(&settings)?))
            }
            _ => None,
        },
        pgn: match &settings.pgn {
            Some(path) => Some((path.clone(), append_to(path, "PGN file")?)),
            None => None,
        },
        event: format!("quintet match: {}", report::game_description(&settings)),
    };
    let mut tally = Tally::new(names.clone());
    for (_, game) in &recorded {
        tally.add(game);
    }
    let resumed = recorded.len() as u64;
    let mut progress = report::Progress::new(settings.progress_every);
    let mut decision = settings
        .sprt
        .and_then(|sprt| sprt.decide_pairs(&tally.head_to_head().pentanomial));
    if decision.is_some() {
        shared.stop.store(true, Ordering::SeqCst);
    }
    let mut interrupted = None;
    let mut abandoned = 0;
    let (sender, receiver) = mpsc::channel();
    thread::scope(|scope| {
        let mut first = Some(first);
        for worker in 0..settings.concurrency.max(1) {
            let engines = first
                .take()
                .unwrap_or_else(|| (0..settings.engines.len()).map(|_| None).collect());
            let sender = sender.clone();
            let shared = &shared;
            thread::Builder::new()
                .name(format!("match-worker-{worker}"))
                .spawn_scoped(scope, move || run_worker(shared, engines, sender))
                .expect("spawn a match worker");
        }
        drop(sender);
        loop {
            if interrupted.is_none()
                && let Some(stop) = signals::interrupted()
            {
                interrupted = Some(stop);
                shared.stop.store(true, Ordering::SeqCst);
            }
            match receiver.recv_timeout(Duration::from_millis(100)) {
                Ok(Message::Finished { index, result }) => {
                    let slot = schedule.slot(index);
                    tally.add(&Finished {
                        pair: (0, slot.pair),
                        p1: slot.p1,
                        p2: slot.p2,
                        outcome: result.outcome,
                        reason: result.reason,
                        disagreements: !result.disagreements.is_empty(),
                    });
                    outputs.write(&settings, &slot, &result);
                    if decision.is_none()
                        && let Some(sprt) = &settings.sprt
                    {
                        decision = sprt.decide_pairs(&tally.head_to_head().pentanomial);
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
    if let Some(log) = &shared.log {
        log.flush();
    }
    progress.finish(&settings, &tally);
    Ok(Summary {
        settings,
        id_names,
        tally,
        resumed,
        decision,
        interrupted,
        abandoned,
        elapsed: started.elapsed(),
    })
}

fn run_worker(shared: &Shared, mut engines: Vec<Option<Engine>>, sender: Sender<Message>) {
    let settings = shared.settings;
    let rules = &settings.rules;
    while !shared.stop.load(Ordering::SeqCst) {
        let Some(&index) = shared.todo.get(shared.next.fetch_add(1, Ordering::SeqCst)) else {
            break;
        };
        let slot = shared.schedule.slot(index);
        let seated = [slot.p1, slot.p2];
        // (Re)start what is missing, dead or in doubt.
        let mut failures: [Option<String>; 2] = [None, None];
        for (seat, &k) in seated.iter().enumerate() {
            if engines[k].as_ref().is_none_or(|e| e.needs_restart) {
                engines[k] = None;
                match Engine::start(&settings.engines[k], shared.launch()) {
                    Ok(engine) => engines[k] = Some(engine),
                    Err(e) => failures[seat] = Some(e),
                }
            }
        }
        if shared.stop.load(Ordering::SeqCst) {
            break;
        }
        let opening = &settings.openings[slot.opening];
        let message = match take_two(&mut engines, slot.p1, slot.p2) {
            Some(pair) => match referee::play(rules, opening, pair, &shared.stop) {
                Ok(result) => Message::Finished { index, result },
                Err(referee::Abandoned) => Message::Abandoned,
            },
            None => Message::Finished {
                index,
                result: start_failure(rules, opening, &failures),
            },
        };
        for k in seated {
            // A fresh process for the next game of an engine that asks
            // for one.
            if settings.engines[k].restart {
                engines[k] = None;
            }
        }
        if sender.send(message).is_err() {
            break;
        }
    }
}

/// Mutable borrows of two different engines, p1's first; None when one of
/// them is not running.
fn take_two(engines: &mut [Option<Engine>], p1: usize, p2: usize) -> Option<[&mut Engine; 2]> {
    let (low, high) = (p1.min(p2), p1.max(p2));
    let (left, right) = engines.split_at_mut(high);
    let (a, b) = (left[low].as_mut()?, right[0].as_mut()?);
    Some(if p1 < p2 { [a, b] } else { [b, a] })
}

/// The result of a game that could not begin: the engine that failed to
/// start loses (a draw when both failed). `failures` is by seat.
fn start_failure(rules: &Rules, opening: &Opening, failures: &[Option<String>; 2]) -> GameResult {
    let outcome = match failures {
        [Some(_), Some(_)] => Outcome::Draw,
        [Some(_), None] => Outcome::Win(Seat::P2),
        _ => Outcome::Win(Seat::P1),
    };
    let session = opening.session(&rules.config).ok();
    GameResult {
        outcome,
        reason: Reason::StartFailure,
        detail: failures
            .iter()
            .flatten()
            .cloned()
            .collect::<Vec<_>>()
            .join("; "),
        start: session
            .as_ref()
            .and_then(|s| opening.start_text(s.as_ref())),
        first_mover: session.as_ref().map_or(Seat::P1, |s| s.side_to_move()),
        moves: Vec::new(),
        time_ms: [0, 0],
        final_text: session.map(|s| s.position_text()).unwrap_or_default(),
        disagreements: Vec::new(),
    }
}

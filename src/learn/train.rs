//! `quintet train`: generations of self-play and fitting, resumable.
//!
//! In the training folder, generation g's games go to `gen-g/` (one file
//! per shard) and the weights fitted to them (with the generations before
//! it, up to a window) to `weights-(g+1).qw`; generation g plays with
//! `weights-g.qw` (generation 0 with no weights). A run picks up where the
//! folder stands: finished generations are skipped, recorded games are not
//! played again. With `--shard K/N` a run plays only its share of the
//! current generation's games and stops, so many machines can play one
//! generation; their files, copied into one folder, merge.

use super::data::{Appender, GenerationData};
use super::dataset::Dataset;
use super::exact::Labeler;
use super::fit::{self, FitSettings, Metrics};
use super::selfplay::{self, SelfPlay};
use crate::games::{Game, GameConfig};
use crate::model::weights::Hidden;
use crate::model::{Model, Weights};
use crate::registry::{self, GameVisitor};
use crate::search::{Evaluator, Setup, searcher};
use crate::session::Profile;
use std::collections::VecDeque;
use std::fs;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Everything a training run needs to know.
#[derive(Clone, Debug)]
pub struct TrainSettings {
    pub dir: PathBuf,
    pub generations: u32,
    /// Self-play games per generation.
    pub games: u64,
    pub selfplay: SelfPlay,
    /// Solver nodes per position for exact value targets (0: none).
    pub exact_nodes: u64,
    /// Games played at once.
    pub threads: usize,
    /// Play only shard K of N (1-based) of the current generation.
    pub shard: Option<(u64, u64)>,
    /// Fit on the data of this many generations (the newest ones).
    pub window: u32,
    pub fit: FitSettings,
    /// Where to copy the last generation's weights.
    pub out: Option<PathBuf>,
    /// The searcher that plays (`auto`: the game's).
    pub searcher: &'static str,
    pub hash_mb: usize,
    /// Refit the last generation from its data without playing.
    pub refit: bool,
}

/// Every game whose index leaves this remainder is held out.
const HELD_OUT_EVERY: u64 = 10;

/// The proof table of each self-play thread's exact values.
const LABEL_TABLE_MB: usize = 16;

/// What the self-play threads count for the progress line and the log.
#[derive(Clone, Copy)]
struct Counts<'a> {
    positions: &'a AtomicU64,
    proven: &'a AtomicU64,
    finished: &'a AtomicU64,
}

/// Runs training for `config` (see the module comment).
pub fn run(config: &GameConfig, settings: &TrainSettings) -> Result<(), String> {
    registry::with_game(config, Trainer { settings })?
}

struct Trainer<'a> {
    settings: &'a TrainSettings,
}

impl GameVisitor for Trainer<'_> {
    type Output = Result<(), String>;
    fn visit<G: Game>(self, config: &GameConfig, game: G, profile: &Profile) -> Self::Output {
        let learned = registry::find(&config.game)?.learned.clone();
        Run {
            game,
            plain: profile.clone(),
            learned: learned.unwrap_or_else(|| profile.clone()),
            settings: self.settings,
            log: Log::open(&self.settings.dir)?,
        }
        .train()
    }
}

struct Run<'a, G: Game> {
    game: G,
    plain: Profile,
    learned: Profile,
    settings: &'a TrainSettings,
    log: Log,
}

impl<G: Game> Run<'_, G> {
    fn weights_path(&self, generation: u32) -> PathBuf {
        self.settings.dir.join(format!("weights-{generation}.qw"))
    }

    fn data(&self, generation: u32) -> GenerationData {
        GenerationData::new(self.settings.dir.join(format!("gen-{generation}")))
    }

    fn train(mut self) -> Result<(), String> {
        let s = self.settings;
        if self.game.feature_set().is_none() {
            return Err(format!(
                "{} describes no features to learn",
                self.game.describe()
            ));
        }
        let mut last = None;
        for generation in 0..s.generations {
            let path = self.weights_path(generation + 1);
            let finished = path.exists();
            if finished && !(s.refit && generation + 1 == s.generations) {
                last = Some(path);
                continue;
            }
            if !s.refit {
                self.play_generation(generation)?;
                if s.shard.is_some() {
                    return Ok(());
                }
            }
            let weights = self.fit_generation(generation)?;
            weights.write(&path)?;
            self.log.line(&format!("wrote {}", path.display()));
            last = Some(path);
        }
        if s.shard.is_some() {
            self.log
                .line("every generation is fitted: nothing left to play");
            return Ok(());
        }
        if let (Some(out), Some(last)) = (&s.out, last) {
            fs::copy(&last, out)
                .map_err(|e| format!("cannot copy {} to {}: {e}", last.display(), out.display()))?;
            self.log
                .line(&format!("copied {} to {}", last.display(), out.display()));
        }
        Ok(())
    }

    /// The setup self-play of `generation` searches with.
    fn setup(&self, generation: u32) -> Result<(Setup<G>, &'static str), String> {
        let (profile, evaluator) = if generation == 0 {
            (&self.plain, None)
        } else {
            let weights = Weights::read(&self.weights_path(generation))?;
            let model = Model::new(weights, &self.game)?;
            (
                &self.learned,
                Some(Arc::new(model) as Arc<dyn Evaluator<G>>),
            )
        };
        let name = if self.settings.searcher == searcher::AUTO.name {
            profile.searcher
        } else {
            self.settings.searcher
        };
        let setup = Setup {
            // Self-play takes the priors as fitted, whatever temperature
            // a profile plays them at: a sharpening would otherwise feed
            // back into the visit shares the next policy is fitted to.
            mcts: profile.mcts.clone().with_prior_temperature(1.0),
            evaluator,
            oracle: None,
            alphabeta: profile.alphabeta.clone(),
        };
        Ok((setup, name))
    }

    fn play_generation(&mut self, generation: u32) -> Result<(), String> {
        let s = self.settings;
        let data = self.data(generation);
        let (k, n) = s.shard.unwrap_or((1, 1));
        let done = data.done()?;
        let todo: VecDeque<u64> = (0..s.games)
            .filter(|i| i % n == k - 1 && !done.contains(i))
            .collect();
        let share = (0..s.games).filter(|i| i % n == k - 1).count() as u64;
        if todo.is_empty() {
            return Ok(());
        }
        let (setup, name) = self.setup(generation)?;
        self.log.line(&format!(
            "generation {generation}: {} self-play games to play (shard {k}/{n}, {} already recorded), {name}, {} nodes per move, {} threads",
            todo.len(),
            share - todo.len() as u64,
            s.selfplay.nodes,
            s.threads
        ));
        let appender = Mutex::new(Appender::open(&data.shard_file(k, n))?);
        let queue = Mutex::new(todo);
        let total = queue.lock().map(|q| q.len()).unwrap_or(0) as u64;
        let finished = AtomicU64::new(0);
        let positions = AtomicU64::new(0);
        let proven = AtomicU64::new(0);
        let failed: Mutex<Option<String>> = Mutex::new(None);
        let all_done = AtomicBool::new(false);
        let start = Instant::now();
        std::thread::scope(|scope| {
            let players: Vec<_> = (0..s.threads.max(1))
                .map(|_| {
                    scope.spawn(|| {
                        let counts = Counts {
                            positions: &positions,
                            proven: &proven,
                            finished: &finished,
                        };
                        self.play_games(&setup, name, generation, &queue, &appender, counts)
                    })
                })
                .collect();
            scope.spawn(|| {
                let mut bar = Progress::new(format!("generation {generation} self-play"));
                let show = |bar: &mut Progress, last| {
                    let (done, seen) = (
                        finished.load(Ordering::Relaxed),
                        positions.load(Ordering::Relaxed),
                    );
                    bar.show(done, total, seen, start.elapsed(), last);
                };
                while !all_done.load(Ordering::Relaxed) {
                    std::thread::sleep(Duration::from_millis(500));
                    show(&mut bar, false);
                }
                show(&mut bar, true);
            });
            for player in players {
                let result = player
                    .join()
                    .unwrap_or_else(|_| Err("a self-play thread failed".into()));
                if let Err(e) = result {
                    // The others stop at their next game.
                    queue.lock().unwrap_or_else(|e| e.into_inner()).clear();
                    failed
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .get_or_insert(e);
                }
            }
            all_done.store(true, Ordering::Relaxed);
        });
        if let Some(e) = failed.into_inner().unwrap_or_else(|e| e.into_inner()) {
            return Err(e);
        }
        let exact = if s.exact_nodes > 0 {
            format!(
                " ({} with exact values, at most {} solver nodes each)",
                proven.load(Ordering::Relaxed),
                s.exact_nodes
            )
        } else {
            String::new()
        };
        self.log.line(&format!(
            "generation {generation}: {total} games, {} positions{exact} in {:.0} s",
            positions.load(Ordering::Relaxed),
            start.elapsed().as_secs_f64()
        ));
        Ok(())
    }

    /// One player thread: takes games from the queue until it is empty.
    fn play_games(
        &self,
        setup: &Setup<G>,
        name: &'static str,
        generation: u32,
        queue: &Mutex<VecDeque<u64>>,
        appender: &Mutex<Appender>,
        counts: Counts,
    ) -> Result<(), String> {
        let mut searcher =
            searcher::build(name, setup).ok_or_else(|| format!("unknown searcher '{name}'"))?;
        searcher.allocate(self.settings.hash_mb);
        let labeler = (self.settings.exact_nodes > 0)
            .then(|| Labeler::new(self.settings.exact_nodes, LABEL_TABLE_MB));
        loop {
            let next = queue
                .lock()
                .map_err(|_| "a self-play thread failed")?
                .pop_front();
            let Some(index) = next else {
                return Ok(());
            };
            let mut record = selfplay::play(
                &self.game,
                searcher.as_mut(),
                &self.settings.selfplay,
                generation,
                index,
            );
            if let Some(labeler) = &labeler {
                let proven = labeler.label(&self.game, &mut record)?;
                counts.proven.fetch_add(proven as u64, Ordering::Relaxed);
            }
            appender
                .lock()
                .map_err(|_| "a self-play thread failed".to_string())?
                .append(&record)?;
            counts
                .positions
                .fetch_add(record.plies.len() as u64, Ordering::Relaxed);
            counts.finished.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// Fits weights to the data of `generation` and the window before it.
    fn fit_generation(&mut self, generation: u32) -> Result<Weights, String> {
        let s = self.settings;
        let first = (generation + 1).saturating_sub(s.window.max(1));
        let mut train = Dataset::default();
        let mut valid = Dataset::default();
        let mut games = 0;
        let start = Instant::now();
        for g in first..=generation {
            let records = self.data(g).load()?;
            if g == generation && (records.len() as u64) < s.games {
                return Err(format!(
                    "generation {g} has {} of its {} games: play the missing shards first",
                    records.len(),
                    s.games
                ));
            }
            for record in records.values() {
                let set = if record.index % HELD_OUT_EVERY == HELD_OUT_EVERY - 1 {
                    &mut valid
                } else {
                    &mut train
                };
                set.add_game(&self.game, record, s.fit.sharpen)?;
                games += 1;
            }
        }
        self.log.line(&format!(
            "fitting generation {generation} (data of generations {first}..={generation}): {games} games, {} positions ({} with a policy target) to fit, {} held out, features read in {:.1} s",
            train.len(),
            train.policy_len(),
            valid.len(),
            start.elapsed().as_secs_f64()
        ));
        let mut weights = Weights::zeros(&self.game).expect("the game has features");
        if s.fit.hidden > 0 {
            weights.hidden = Hidden::random(s.fit.hidden, weights.value.len(), s.fit.seed);
        }
        let log = &mut self.log;
        fit::fit(
            &mut weights,
            &train,
            &valid,
            &s.fit,
            |epoch, on_train, on_valid| {
                log.line(&format!(
                    "generation {generation} epoch {epoch}: held-out {on_valid}; training {}",
                    brief(on_train)
                ));
            },
        );
        let held_out = fit::evaluate(&weights, &valid);
        let layer = match s.fit.hidden {
            0 => String::new(),
            units => format!(", a value hidden layer of {units} units"),
        };
        weights.note = format!(
            "quintet train: generation {generation}, {games} games at {} nodes per move, seed {}{layer}; held-out {held_out}",
            s.selfplay.nodes, s.selfplay.seed
        );
        self.log.line(&format!(
            "generation {generation} kept: held-out {held_out} ({:.0} s)",
            start.elapsed().as_secs_f64()
        ));
        Ok(weights)
    }
}

fn brief(m: &Metrics) -> String {
    format!(
        "policy loss {:.4} top-1 {:.1}% value loss {:.4}",
        m.policy_loss,
        100.0 * m.top1,
        m.value_loss
    )
}

/// Lines to stderr and to `log.txt` in the training folder.
struct Log {
    file: Option<fs::File>,
}

impl Log {
    fn open(dir: &Path) -> Result<Log, String> {
        fs::create_dir_all(dir).map_err(|e| format!("cannot make {}: {e}", dir.display()))?;
        let path = dir.join("log.txt");
        let file = fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        Ok(Log { file: Some(file) })
    }

    fn line(&mut self, text: &str) {
        eprintln!("{text}");
        if let Some(file) = &mut self.file {
            let _ = writeln!(file, "{text}");
        }
    }
}

/// A progress line on stderr: rewritten in place on a terminal, else a
/// line every half minute.
struct Progress {
    label: String,
    terminal: bool,
    last_line: Instant,
}

impl Progress {
    fn new(label: String) -> Progress {
        Progress {
            label,
            terminal: std::io::stderr().is_terminal(),
            last_line: Instant::now(),
        }
    }

    fn show(&mut self, done: u64, total: u64, positions: u64, elapsed: Duration, last: bool) {
        let rate = done as f64 / elapsed.as_secs_f64().max(1e-3);
        let eta = if done > 0 {
            (total - done.min(total)) as f64 / rate
        } else {
            f64::NAN
        };
        let width = 30;
        let filled = (width as u64 * done / total.max(1)) as usize;
        let line = format!(
            "{}: [{}{}] {done}/{total} games, {positions} positions, {:.2} games/s, eta {}",
            self.label,
            "#".repeat(filled),
            "-".repeat(width - filled),
            rate,
            clock(eta)
        );
        if self.terminal {
            eprint!("\r{line}\x1b[K");
            if last {
                eprintln!();
            }
        } else if last || self.last_line.elapsed() >= Duration::from_secs(30) {
            eprintln!("{line}");
            self.last_line = Instant::now();
        }
    }
}

fn clock(seconds: f64) -> String {
    if !seconds.is_finite() {
        return "?".into();
    }
    let s = seconds as u64;
    format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

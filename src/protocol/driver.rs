//! The command dispatcher: one method per UGI command, the session it acts
//! on, and the search thread. No game rules live here.
//!
//! Memory is allocated once per game and searcher, before `readyok` (or
//! before the search when no `isready` came): a changed game or `Hash`
//! takes effect at the next `isready`, `uginewgame`, `position` or `go`.

use super::Output;
use super::command::{self, Board, Command, Query};
use super::format;
use super::options::{self, Effect, Options};
use crate::draw::svg;
use crate::games::{GameConfig, Seat};
use crate::model;
use crate::registry;
use crate::search::Limits;
use crate::session::{SearchRun, Session};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::{self, JoinHandle};
use std::time::Instant;

pub const ENGINE_NAME: &str = "quintet";
pub const AUTHOR: &str = "the quintet developers";
/// The move sent when there is no move to play (UCI's null move).
pub const NO_MOVE: &str = "0000";

#[derive(Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Quit,
}

/// Work on its own thread (a search or a perft) that hands the session
/// back when done.
struct Running {
    stop: Arc<AtomicBool>,
    handle: JoinHandle<Box<dyn Session>>,
    infinite: bool,
    /// A copy of the position for queries meanwhile.
    view: Box<dyn Session>,
}

pub struct Driver {
    out: Output,
    options: Options,
    /// The current game; `None` only while the search thread holds it.
    session: Option<Box<dyn Session>>,
    running: Option<Running>,
    /// The game options changed since the session was made.
    game_changed: bool,
    /// The session's searcher and memory match the options.
    prepared: bool,
    /// Why the last `position` (or game option) failed: `go` refuses to
    /// play until a valid position arrives.
    invalid_position: Option<String>,
    /// The session reads the weights the `Weights` option names.
    weights_applied: bool,
}

impl Driver {
    /// A driver for `game` with the options' other values; an unknown game
    /// falls back to the default one (with an error line).
    pub fn new(out: Output, mut options: Options) -> Self {
        let session = match registry::create(&options.game) {
            Ok(session) => session,
            Err(e) => {
                out.line(&format!(
                    "info string error: {}; playing the default game",
                    format::safe(&e)
                ));
                options.game = GameConfig::default();
                registry::create(&options.game).expect("the default game builds")
            }
        };
        let mut driver = Driver {
            out,
            options,
            session: Some(session),
            running: None,
            game_changed: false,
            prepared: false,
            invalid_position: None,
            weights_applied: false,
        };
        driver.apply_weights();
        driver
    }

    /// Gives the session the weights of the `Weights` option (a fresh
    /// session has the embedded ones); an error keeps the embedded ones.
    fn apply_weights(&mut self) {
        if self.weights_applied {
            return;
        }
        self.weights_applied = true;
        let option = self.options.engine.weights.clone();
        if self.session().weights_in_use() == model::Source::parse(&option).to_string() {
            return;
        }
        self.prepared = false;
        if let Err(e) = self.session().set_weights(&option) {
            self.error(&format!("Weights: {e}; keeping the built-in weights"));
        }
    }

    pub fn options(&self) -> &Options {
        &self.options
    }

    fn error(&self, message: &str) {
        self.out
            .line(&format!("info string error: {}", format::safe(message)));
    }

    fn warning(&self, message: &str) {
        self.out
            .line(&format!("info string warning: {}", format::safe(message)));
    }

    /// Handles one input line.
    pub fn handle(&mut self, line: &str) -> Flow {
        let command = command::parse(line);
        // A bug must cost one command, not the session.
        let outcome = catch_unwind(AssertUnwindSafe(|| self.dispatch(command)));
        match outcome {
            Ok(flow) => flow,
            Err(_) => {
                self.error(&format!("internal error while handling '{}'", line.trim()));
                if self.session.is_none() && self.running.is_none() {
                    self.session = registry::create(&self.options.game).ok();
                    self.prepared = false;
                    self.weights_applied = false;
                }
                Flow::Continue
            }
        }
    }

    fn dispatch(&mut self, command: Command) -> Flow {
        match command {
            Command::Nothing => {}
            Command::Ugi => self.handshake("ugiok"),
            Command::Uci => self.handshake("uciok"),
            Command::IsReady => self.isready(),
            Command::SetOption { name, value } => self.setoption(&name, &value),
            Command::NewGame => self.new_game(),
            Command::Position { text, moves } => self.position(text.as_deref(), &moves),
            Command::Go { limits, warnings } => {
                for w in warnings {
                    self.warning(&w);
                }
                self.go(limits)
            }
            Command::Perft { depth, split } => self.perft(depth, split),
            Command::Stop => self.wait_for_work(true),
            Command::Query(query) => self.query(query),
            Command::Display(Board::Text) => self.display(),
            Command::Display(Board::Svg(file)) => self.display_svg(file.as_deref()),
            Command::Quit => return Flow::Quit,
            Command::Invalid(reason) => self.error(&reason),
            Command::InvalidPosition(reason) => {
                self.error(&reason);
                self.invalid_position = Some(reason);
            }
        }
        Flow::Continue
    }

    /// Ends the session: an infinite search (or a perft) is stopped, a
    /// bounded search may finish and report its move.
    pub fn finish(&mut self) {
        let infinite = self.running.as_ref().is_some_and(|r| r.infinite);
        self.wait_for_work(infinite);
    }

    /// Joins the work thread (stopping it first if asked) and takes the
    /// session back.
    fn wait_for_work(&mut self, stop: bool) {
        let Some(running) = self.running.take() else {
            return;
        };
        if stop {
            running.stop.store(true, Ordering::Relaxed);
        }
        match running.handle.join() {
            Ok(session) => self.session = Some(session),
            Err(_) => {
                // The work thread catches its own panics; this is a last resort.
                self.error("the search thread failed; the game is restarted");
                self.session = registry::create(&self.options.game).ok();
                self.prepared = false;
                self.weights_applied = false;
            }
        }
    }

    /// The session, once no work holds it.
    fn session(&mut self) -> &mut Box<dyn Session> {
        self.wait_for_work(true);
        if self.session.is_none() {
            // Only after a failed recovery: the configured game, afresh.
            let game = registry::create(&self.options.game)
                .or_else(|_| registry::create(&GameConfig::default()))
                .expect("the default game builds");
            self.session = Some(game);
            self.prepared = false;
            self.weights_applied = false;
        }
        self.session.as_mut().expect("a session exists")
    }

    /// The position to answer questions about (a copy while working).
    fn view(&mut self) -> &dyn Session {
        let busy = self
            .running
            .as_ref()
            .is_some_and(|r| !r.handle.is_finished());
        if !busy {
            self.session();
        }
        match (&self.running, &self.session) {
            (Some(running), _) => running.view.as_ref(),
            (None, Some(session)) => session.as_ref(),
            (None, None) => unreachable!("session() provides a session"),
        }
    }

    /// Makes the session the configured game: a new one at its start
    /// position when the game or its parameters (or the size a position
    /// `text` asks for) differ from the session's; then prepares it.
    fn sync(&mut self, text: Option<&str>) -> Result<(), String> {
        let wanted = match text {
            Some(text) => registry::config_for_text(&self.options.game, text),
            None => self.options.game.clone(),
        };
        let resolved = registry::resolve(&wanted)?;
        if self.session().config() != &resolved {
            // The old game's memory goes before the new game's comes.
            self.session = None;
            self.session = Some(registry::create(&resolved)?);
            self.prepared = false;
            self.weights_applied = false;
        }
        self.game_changed = false;
        self.apply_weights();
        self.prepare();
        Ok(())
    }

    /// Gives the session the configured searcher and memory, if it has
    /// not got them yet.
    fn prepare(&mut self) {
        if self.prepared {
            return;
        }
        let engine = self.options.engine.clone();
        let warnings = self.session().prepare(&engine);
        for w in warnings {
            self.warning(&w);
        }
        self.prepared = true;
    }

    fn handshake(&mut self, done: &str) {
        self.out.line(&format!(
            "id name {ENGINE_NAME} {}",
            env!("CARGO_PKG_VERSION")
        ));
        self.out.line(&format!("id author {AUTHOR}"));
        for spec in options::OPTIONS {
            self.out.line(&format::option(spec));
        }
        self.out.line(done);
    }

    fn isready(&mut self) {
        // While a search runs, its memory is in use: answer at once.
        if self.running.is_none() {
            // Only changed game options make a new game: a position whose
            // text chose another board size stays.
            if !self.game_changed {
                self.prepare();
            } else if let Err(e) = self.sync(None) {
                self.game_error(e);
            }
        }
        self.out.line("readyok");
    }

    /// The configured game cannot be made: say so (once per reason) and
    /// refuse to search until a valid position is set.
    fn game_error(&mut self, reason: String) {
        if self.invalid_position.as_ref() != Some(&reason) {
            let current = self.session().describe();
            self.error(&format!("{reason}; keeping {current}"));
        }
        self.invalid_position = Some(reason);
    }

    fn setoption(&mut self, name: &str, value: &str) {
        let spec = options::find(name);
        match options::set(&mut self.options, name, value) {
            Ok(Effect::Game) => self.game_changed = true,
            Ok(Effect::Engine) => self.prepared = false,
            Ok(Effect::Weights) => {
                self.weights_applied = false;
                self.game_changed = true;
            }
            Ok(Effect::Search) => {}
            Err(e) => {
                let message = format!("setoption {name}: {e}");
                if spec.is_some_and(|s| s.effect() == Effect::Game) {
                    // The game asked for is not the one the engine has.
                    self.error(&format!("{message}; no position until a valid one is set"));
                    self.invalid_position = Some(message);
                } else {
                    self.warning(&message);
                }
            }
        }
    }

    fn new_game(&mut self) {
        if let Err(e) = self.sync(None) {
            self.game_error(e);
            return;
        }
        let session = self.session();
        session.new_game();
        match session.set_position(None, &[]) {
            Ok(()) => self.invalid_position = None,
            Err(e) => self.error(&e),
        }
    }

    fn position(&mut self, text: Option<&str>, moves: &[String]) {
        // A text that does not read keeps the position, also when it asks
        // for another board size: read it before the game changes for it.
        self.session();
        if let Some(text) = text
            && let Err(e) = read_text(&self.options.game, text)
        {
            self.error(&e);
            self.invalid_position = Some(e);
            return;
        }
        if let Err(e) = self.sync(text) {
            let prefix = if text.is_some() {
                "bad position text: "
            } else {
                ""
            };
            self.error(&format!("{prefix}{e}"));
            self.invalid_position = Some(format!("{prefix}{e}"));
            return;
        }
        let moves: Vec<&str> = moves.iter().map(String::as_str).collect();
        match self.session().set_position(text, &moves) {
            Ok(()) => self.invalid_position = None,
            Err(e) => {
                self.error(&e);
                self.invalid_position = Some(e);
            }
        }
    }

    fn go(&mut self, mut limits: Limits) {
        let start = Instant::now();
        // A search already running (protocol misuse) ends first.
        self.wait_for_work(true);
        if let Some(reason) = &self.invalid_position {
            self.error(&format!("no valid position to search ({reason})"));
            self.out.line(&format!("bestmove {NO_MOVE}"));
            return;
        }
        if self.game_changed
            && let Err(e) = self.sync(None)
        {
            self.error(&e);
            self.out.line(&format!("bestmove {NO_MOVE}"));
            return;
        }
        self.prepare();
        let session = self.session();
        if let Some(outcome) = session.outcome() {
            let word = outcome.ugi_word();
            self.error(&format!("the game is over ({word})"));
            self.out.line(&format!("bestmove {NO_MOVE}"));
            return;
        }
        let side = session.side_to_move();
        if let Some(warning) = fill_missing_clock(&mut limits, side) {
            self.warning(&warning);
        }
        let mut session = self.session.take().expect("a session exists");
        let view = session.snapshot();
        let settings = self.options.search.clone();
        let style = self.options.style;
        let stop = Arc::new(AtomicBool::new(false));
        let out = self.out.clone();
        let thread_stop = Arc::clone(&stop);
        let infinite = limits.infinite;
        let handle = spawn_worker(move || {
            let job = SearchJob {
                settings: &settings,
                limits: &limits,
                start,
                stop: &thread_stop,
                style,
            };
            run_search(&mut session, job, &out);
            session
        });
        self.running = Some(Running {
            stop,
            handle,
            infinite,
            view,
        });
    }

    /// Perft runs like a search: on its own thread, stopped by `stop` and
    /// `quit`, with `isready` and queries answered meanwhile.
    fn perft(&mut self, depth: u32, split: bool) {
        let threads = self.options.search.threads;
        self.session();
        let session = self.session.take().expect("a session exists");
        let view = session.snapshot();
        let stop = Arc::new(AtomicBool::new(false));
        let thread_stop = Arc::clone(&stop);
        let out = self.out.clone();
        let handle = spawn_worker(move || {
            let start = Instant::now();
            match session.perft(depth, threads, split, &thread_stop) {
                Some(rows) => {
                    if split {
                        for (mv, count) in &rows {
                            out.line(&format!("{mv} {count}"));
                        }
                    }
                    let total: u64 = if split && depth == 0 {
                        1
                    } else {
                        rows.iter().map(|(_, n)| n).sum()
                    };
                    let ms = start.elapsed().as_millis() as u64;
                    out.line(&format!(
                        "perft depth {depth} nodes {total} time {ms} nps {}",
                        total * 1000 / ms.max(1)
                    ));
                }
                None => out.line(&format!("info string perft {depth} stopped")),
            }
            session
        });
        self.running = Some(Running {
            stop,
            handle,
            infinite: true,
            view,
        });
    }

    fn query(&mut self, query: Query) {
        let view = self.view();
        let answer = match query {
            Query::GameOver => view.outcome().is_some().to_string(),
            Query::P1Turn => (view.side_to_move() == Seat::P1).to_string(),
            Query::Result => view.outcome().map_or("none", |o| o.ugi_word()).to_string(),
            Query::Moves => {
                let moves = view.legal_moves();
                if moves.is_empty() {
                    "none".to_string()
                } else {
                    moves.join(" ")
                }
            }
            Query::Fen => view.position_text(),
            Query::IsLegal(mv) => view.is_legal(&mv).to_string(),
            Query::Game => view.describe(),
            Query::Unknown(reason) => {
                self.error(&reason);
                "unknown".to_string()
            }
        };
        self.out.line(&format!("response {answer}"));
    }

    fn display(&mut self) {
        let view = self.view();
        let mut text = view.render();
        let moves = view.moves_played();
        text.push_str(&format!("game: {}\n", view.describe()));
        text.push_str(&format!("side to move: {}\n", view.side_to_move().name()));
        text.push_str(&format!(
            "result: {}\n",
            view.outcome().map_or("none", |o| o.ugi_word())
        ));
        text.push_str(&format!("hash: {:016x}\n", view.hash()));
        text.push_str(&format!("position: {}\n", view.position_text()));
        if !moves.is_empty() {
            text.push_str(&format!("moves: {}\n", moves.join(" ")));
        }
        for line in text.lines() {
            self.out.line(line);
        }
    }

    /// `d svg`: the picture on one line, or written to a file.
    fn display_svg(&mut self, file: Option<&str>) {
        let picture = self.view().picture();
        match file {
            None => {
                let line = svg::render_one_line(&picture);
                self.out.line(&format!("info string svg {line}"));
            }
            Some(path) => match std::fs::write(path, svg::render(&picture)) {
                Ok(()) => self.out.line(&format!(
                    "info string svg written to {}",
                    format::safe(path)
                )),
                Err(e) => self.error(&format!("cannot write {path}: {e}")),
            },
        }
    }
}

/// Whether `text` reads as a position of the configured game, at the size
/// it asks for (the error says why not).
fn read_text(game: &GameConfig, text: &str) -> Result<(), String> {
    let wanted = registry::config_for_text(game, text);
    let mut probe = registry::create(&wanted).map_err(|e| format!("bad position text: {e}"))?;
    probe.set_position(Some(text), &[])
}

/// A clock for one side only: the side to move gets the other's clock (a
/// safe guess) and a warning, instead of a search without a limit.
fn fill_missing_clock(limits: &mut Limits, side: Seat) -> Option<String> {
    let mine = side.index();
    let theirs = side.other().index();
    if limits.time[mine].is_some() || limits.time[theirs].is_none() {
        return None;
    }
    limits.time[mine] = limits.time[theirs];
    if limits.inc[mine] == 0 {
        limits.inc[mine] = limits.inc[theirs];
    }
    Some(format!(
        "go gave no clock for {}, the side to move; using {}'s",
        side.name(),
        side.other().name()
    ))
}

fn spawn_worker(
    work: impl FnOnce() -> Box<dyn Session> + Send + 'static,
) -> JoinHandle<Box<dyn Session>> {
    thread::Builder::new()
        .name("search".into())
        .stack_size(32 << 20)
        .spawn(work)
        .expect("spawn the search thread")
}

/// What one `go` asks of the search thread.
struct SearchJob<'a> {
    settings: &'a crate::search::SearchSettings,
    limits: &'a Limits,
    start: Instant,
    stop: &'a AtomicBool,
    style: format::InfoStyle,
}

/// The body of the search thread: search, report, answer `bestmove`.
fn run_search(session: &mut Box<dyn Session>, job: SearchJob, out: &Output) {
    let style = job.style;
    let result = catch_unwind(AssertUnwindSafe(|| {
        let progress_out = out.clone();
        let mut progress = move |report: &_| {
            for line in format::info_lines(report, style) {
                progress_out.line(&line);
            }
        };
        let run = SearchRun {
            start: job.start,
            stop: job.stop,
            progress: &mut progress,
        };
        session.search(job.settings, job.limits, run)
    }));
    match result {
        Ok(Some(result)) => {
            for line in format::move_stats(&result.report) {
                out.line(&line);
            }
            for line in format::info_lines(&result.report, style) {
                out.line(&line);
            }
            out.line(&format!("bestmove {}", result.best));
        }
        Ok(None) => out.line(&format!("bestmove {NO_MOVE}")),
        Err(_) => {
            // Never leave the manager without a (legal) move.
            out.line(
                "info string error: internal error during search; playing the first legal move",
            );
            let fallback = session.legal_moves().into_iter().next();
            out.line(&format!(
                "bestmove {}",
                fallback.as_deref().unwrap_or(NO_MOVE)
            ));
        }
    }
}

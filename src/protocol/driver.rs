//! The command dispatcher: one method per UGI command, the session it acts
//! on, and the search thread. No game rules live here.

use super::Output;
use super::go;
use super::options::{self, Changed, Options};
use crate::registry::{self, GameConfig};
use crate::search::{Context, Info, Limits, SearchSettings};
use crate::session::Session;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::{self, JoinHandle};
use std::time::Instant;

pub const ENGINE_NAME: &str = "quintet";
pub const AUTHOR: &str = "the quintet developers";

#[derive(Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Quit,
}

/// A search running on its own thread; it hands the session back when done.
struct Running {
    stop: Arc<AtomicBool>,
    handle: JoinHandle<Box<dyn Session>>,
    infinite: bool,
    /// A copy of the searched position for queries meanwhile.
    view: Box<dyn Session>,
}

pub struct Driver {
    out: Output,
    options: Options,
    /// The current game; `None` only while a search owns it.
    session: Option<Box<dyn Session>>,
    running: Option<Running>,
    /// The first `isready` arrived: memory may be allocated.
    ready: bool,
}

impl Driver {
    pub fn new(out: Output, game: GameConfig) -> Self {
        let mut options = Options::default();
        let session = match registry::create(&game) {
            Ok(session) => {
                options.game = game;
                session
            }
            Err(e) => {
                out.line(&format!("info string error: {e}; playing the default game"));
                registry::create(&options.game).expect("the default game builds")
            }
        };
        Driver {
            out,
            options,
            session: Some(session),
            running: None,
            ready: false,
        }
    }

    fn error(&self, message: &str) {
        self.out.line(&format!("info string error: {message}"));
    }

    fn warning(&self, message: &str) {
        self.out.line(&format!("info string warning: {message}"));
    }

    /// Handles one input line.
    pub fn handle(&mut self, line: &str) -> Flow {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let Some(command) = tokens.first() else {
            return Flow::Continue;
        };
        let command = command.to_ascii_lowercase();
        let args = &tokens[1..];
        // A bug must cost one command, not the session.
        let outcome = catch_unwind(AssertUnwindSafe(|| self.dispatch(&command, args, line)));
        match outcome {
            Ok(flow) => flow,
            Err(_) => {
                self.error(&format!("internal error while handling '{}'", line.trim()));
                if self.session.is_none() && self.running.is_none() {
                    self.session = registry::create(&self.options.game).ok();
                }
                Flow::Continue
            }
        }
    }

    fn dispatch(&mut self, command: &str, args: &[&str], line: &str) -> Flow {
        match command {
            "ugi" | "uci" => self.ugi(),
            "isready" => self.isready(),
            "setoption" => self.setoption(args),
            "uginewgame" | "ucinewgame" => self.new_game(),
            "position" => self.position(args),
            "go" => self.go(args),
            "stop" => self.stop_search(),
            "query" => self.query(args),
            "d" => self.display(),
            "perft" => self.perft(args, false),
            "splitperft" => self.perft(args, true),
            "quit" => return Flow::Quit,
            _ => self.error(&format!("unknown command '{}'", line.trim())),
        }
        Flow::Continue
    }

    /// Ends the session: an infinite search is stopped, a bounded one may
    /// finish and report its move.
    pub fn finish(&mut self) {
        let infinite = self.running.as_ref().is_some_and(|r| r.infinite);
        self.wait_for_search(infinite);
    }

    /// Joins the search thread (stopping it first if asked) and takes the
    /// session back.
    fn wait_for_search(&mut self, stop: bool) {
        let Some(running) = self.running.take() else {
            return;
        };
        if stop {
            running.stop.store(true, Ordering::Relaxed);
        }
        match running.handle.join() {
            Ok(session) => self.session = Some(session),
            Err(_) => {
                // The search thread catches its own panics; this is a last resort.
                self.error("the search thread failed; the game is restarted");
                self.session = registry::create(&self.options.game).ok();
            }
        }
    }

    /// The session, once no search holds it.
    fn session(&mut self) -> &mut Box<dyn Session> {
        self.wait_for_search(true);
        if self.session.is_none() {
            self.session = registry::create(&GameConfig::default()).ok();
        }
        self.session.as_mut().expect("a session exists")
    }

    /// The position to answer questions about (a copy while searching).
    fn view(&mut self) -> &dyn Session {
        let searching = self
            .running
            .as_ref()
            .is_some_and(|r| !r.handle.is_finished());
        if !searching {
            self.session();
        }
        match (&self.running, &self.session) {
            (Some(running), _) => running.view.as_ref(),
            (None, Some(session)) => session.as_ref(),
            (None, None) => unreachable!("session() provides a session"),
        }
    }

    fn ugi(&mut self) {
        self.out.line(&format!(
            "id name {ENGINE_NAME} {}",
            env!("CARGO_PKG_VERSION")
        ));
        self.out.line(&format!("id author {AUTHOR}"));
        for line in options::option_lines(&self.options) {
            self.out.line(&line);
        }
        self.out.line("ugiok");
    }

    fn isready(&mut self) {
        if !self.ready {
            self.ready = true;
            if let Some(session) = &mut self.session {
                session.prepare(&self.options.search);
            }
        }
        self.out.line("readyok");
    }

    fn setoption(&mut self, args: &[&str]) {
        // setoption name <name words> [value <value words>]
        let lower: Vec<String> = args.iter().map(|a| a.to_ascii_lowercase()).collect();
        let Some(name_at) = lower.iter().position(|a| a == "name") else {
            self.warning("setoption needs 'name <option> value <value>'");
            return;
        };
        let value_at = lower
            .iter()
            .position(|a| a == "value")
            .unwrap_or(args.len());
        if value_at < name_at {
            self.warning("setoption needs 'name <option> value <value>'");
            return;
        }
        let name = args[name_at + 1..value_at].join(" ");
        let value = args
            .get(value_at + 1..)
            .map(|v| v.join(" "))
            .unwrap_or_default();
        match options::set(&mut self.options, &name, &value) {
            Ok(Changed::Memory) => {
                if self.ready
                    && let Some(session) = &mut self.session
                {
                    session.prepare(&self.options.search);
                }
            }
            Ok(Changed::Game | Changed::Search) => {}
            Err(e) => self.warning(&format!("setoption {name}: {e}")),
        }
    }

    /// Makes the session match the options (and the size of `text`, a
    /// position text, if given); keeps it when nothing changed.
    fn sync_game(&mut self, text: Option<&str>) -> Result<(), String> {
        let wanted = match text {
            Some(text) => registry::config_for_text(&self.options.game, text),
            None => self.options.game.clone(),
        };
        let resolved = registry::resolve(&wanted)?;
        if self.session().config() != &resolved {
            let mut session = registry::create(&resolved)?;
            if self.ready {
                session.prepare(&self.options.search);
            }
            self.session = Some(session);
        }
        Ok(())
    }

    fn new_game(&mut self) {
        if let Err(e) = self.sync_game(None) {
            let current = self.session().describe();
            self.error(&format!("{e}; keeping {current}"));
            return;
        }
        let session = self.session();
        session.new_game();
        if let Err(e) = session.set_position(None, &[]) {
            self.error(&e);
        }
    }

    fn position(&mut self, args: &[&str]) {
        let moves_at = args
            .iter()
            .position(|a| a.eq_ignore_ascii_case("moves"))
            .unwrap_or(args.len());
        let moves = args.get(moves_at + 1..).unwrap_or(&[]);
        let text = match args.first().map(|a| a.to_ascii_lowercase()).as_deref() {
            Some("startpos") if moves_at == 1 => None,
            Some("fen") if moves_at > 1 => Some(args[1..moves_at].join(" ")),
            _ => {
                self.error("position needs 'startpos' or 'fen <position text>', then optionally 'moves ...'");
                return;
            }
        };
        if let Err(e) = self.sync_game(text.as_deref()) {
            let prefix = if text.is_some() {
                "bad position text: "
            } else {
                ""
            };
            self.error(&format!("{prefix}{e}"));
            return;
        }
        if let Err(e) = self.session().set_position(text.as_deref(), moves) {
            self.error(&e);
        }
    }

    fn go(&mut self, args: &[&str]) {
        let start = Instant::now();
        let (limits, warnings) = go::parse(args);
        for w in warnings {
            self.warning(&w);
        }
        let settings = self.options.search.clone();
        let mut session = self.session.take().filter(|_| self.running.is_none());
        if session.is_none() {
            // A search already runs (protocol misuse): end it first.
            self.wait_for_search(true);
            session = self.session.take();
        }
        let Some(mut session) = session else {
            self.error("no game to search");
            self.out.line("bestmove none");
            return;
        };
        if let Some(outcome) = session.outcome() {
            self.error(&format!("the game is over ({})", outcome.ugi_word()));
            self.out.line("bestmove none");
            self.session = Some(session);
            return;
        }
        session.prepare(&settings);
        let view = session.fork();
        let stop = Arc::new(AtomicBool::new(false));
        let out = self.out.clone();
        let thread_stop = Arc::clone(&stop);
        let infinite = limits.infinite;
        let handle = thread::Builder::new()
            .name("search".into())
            .stack_size(32 << 20)
            .spawn(move || {
                run_search(&mut session, &settings, &limits, start, &thread_stop, &out);
                session
            })
            .expect("spawn the search thread");
        self.running = Some(Running {
            stop,
            handle,
            infinite,
            view,
        });
    }

    fn stop_search(&mut self) {
        self.wait_for_search(true);
    }

    fn query(&mut self, args: &[&str]) {
        let Some(question) = args.first().map(|q| q.to_ascii_lowercase()) else {
            self.error("query needs a question: gameover, p1turn, result, moves, fen, islegal <move>, game");
            return;
        };
        let view = self.view();
        let answer = match question.as_str() {
            "gameover" => view.outcome().is_some().to_string(),
            "p1turn" => (view.side_to_move() == crate::games::Seat::P1).to_string(),
            "result" => view.outcome().map_or("none", |o| o.ugi_word()).to_string(),
            "moves" => {
                let moves = view.legal_moves();
                if moves.is_empty() {
                    "none".to_string()
                } else {
                    moves.join(" ")
                }
            }
            "fen" | "position" => view.position_text(),
            "islegal" => match args.get(1) {
                Some(mv) => view.is_legal(mv).to_string(),
                None => {
                    self.error("query islegal needs a move");
                    return;
                }
            },
            "game" => view.describe(),
            _ => {
                self.error(&format!("unknown query '{question}'"));
                return;
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

    fn perft(&mut self, args: &[&str], split: bool) {
        let depth = match args.first().map(|d| d.parse::<u32>()) {
            Some(Ok(depth)) if depth <= 64 => depth,
            _ => {
                self.error("perft needs a depth from 0 to 64");
                return;
            }
        };
        let threads = self.options.search.threads;
        let out = self.out.clone();
        let session = self.session();
        let start = Instant::now();
        let total = if split {
            let splits = session.split_perft(depth, threads);
            for (mv, count) in &splits {
                out.line(&format!("{mv} {count}"));
            }
            if depth == 0 {
                1
            } else {
                splits.iter().map(|(_, n)| n).sum()
            }
        } else {
            session.perft(depth, threads)
        };
        let ms = start.elapsed().as_millis() as u64;
        out.line(&format!(
            "perft depth {depth} nodes {total} time {ms} nps {}",
            total * 1000 / ms.max(1)
        ));
    }
}

/// The body of the search thread: search, report, answer `bestmove`.
fn run_search(
    session: &mut Box<dyn Session>,
    settings: &SearchSettings,
    limits: &Limits,
    start: Instant,
    stop: &AtomicBool,
    out: &Output,
) {
    let result = catch_unwind(AssertUnwindSafe(|| {
        let report_out = out.clone();
        let mut report = move |info: &Info| report_out.line(&info.to_line());
        let mut ctx = Context {
            start,
            stop,
            report: &mut report,
        };
        session.search(settings, limits, &mut ctx)
    }));
    match result {
        Ok(Some((mv, _))) => out.line(&format!("bestmove {mv}")),
        Ok(None) => {
            out.line("info string error: the game is over");
            out.line("bestmove none");
        }
        Err(_) => {
            // Never leave the manager without a (legal) move.
            out.line(
                "info string error: internal error during search; playing the first legal move",
            );
            let fallback = session.legal_moves().into_iter().next();
            out.line(&format!(
                "bestmove {}",
                fallback.as_deref().unwrap_or("none")
            ));
        }
    }
}

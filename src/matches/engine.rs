//! One UGI engine as a child process: a thread reads its stdout into a
//! channel (each line stamped with its arrival time, so think times do not
//! include our own scheduling delays), another keeps the last lines of its
//! stderr for crash reports. Every wait has a deadline and watches the
//! match's stop flag.

use super::advertised::{self, Advertised};
use super::signals;
use super::spec::{EngineSpec, TimeControl};
use super::traffic::{Direction, TrafficLog};
use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Write};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, TryRecvError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// Lines of stderr kept for the crash report.
const STDERR_TAIL: usize = 5;
/// How long a wait sleeps before looking at the stop flag again.
const POLL: Duration = Duration::from_millis(25);
/// How long an engine gets to exit after `quit` before it is killed.
const QUIT_GRACE: Duration = Duration::from_millis(300);

enum Event {
    Line(String, Instant),
    Closed,
}

/// Why a wait for a reply ended without one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Failure {
    /// The engine closed its output or its input (it exited); the text
    /// says how, with the end of its stderr.
    Crashed(String),
    /// No fitting reply before the deadline.
    Timeout,
    /// The match is stopping.
    Stopped,
}

pub struct Engine {
    pub name: String,
    /// The engine's own time control (`tc=`, `movetime=`, `nodes=`,
    /// `depth=` in its spec), instead of the match's.
    pub tc: Option<TimeControl>,
    /// What the engine calls itself (`id name`), once the handshake is done.
    pub id_name: Option<String>,
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Event>,
    stderr_tail: Arc<Mutex<VecDeque<String>>>,
    stderr_reader: Option<thread::JoinHandle<()>>,
    closed: bool,
    /// Set when the engine's state is doubtful (a late reply may still
    /// come): the owner restarts it before the next game.
    pub needs_restart: bool,
    /// The traffic log and this process's name in it.
    traffic: Option<(Arc<TrafficLog>, String)>,
}

/// What every engine start of a match shares.
#[derive(Copy, Clone)]
pub struct Launch<'a> {
    /// The options that select the game, sent before the engine's own.
    pub game_options: &'a [(String, String)],
    /// The wait for the handshake and `readyok`.
    pub timeout: Duration,
    pub stop: &'a AtomicBool,
    pub log: Option<&'a Arc<TrafficLog>>,
}

impl Engine {
    /// Starts the engine and runs the handshake: `ugi`/`ugiok` (reading the
    /// options it advertises), a check of every option to be set (game
    /// options first, then the engine's own), the `setoption`s, then
    /// `isready`/`readyok`. An option the engine does not advertise, a
    /// value outside what it advertises, or an `info string` that says it
    /// refused an option is an error naming the engine, option and value.
    pub fn start(spec: &EngineSpec, launch: Launch) -> Result<Engine, String> {
        let mut engine = Engine::spawn(spec, launch.log)?;
        let timeout = launch.timeout;
        let stop = launch.stop;
        let describe = |what: &str, failure: Failure| match failure {
            Failure::Crashed(how) => format!("engine '{}' {how} during {what}", spec.name),
            Failure::Timeout => format!(
                "engine '{}' did not answer {what} within {} ms ({})",
                spec.name,
                timeout.as_millis(),
                spec.command_line()
            ),
            Failure::Stopped => "the match is stopping".to_string(),
        };
        engine.send("ugi").map_err(|f| describe("ugi", f))?;
        let deadline = Instant::now() + timeout;
        let mut id_name = None;
        let mut options = Vec::new();
        loop {
            let (line, _) = engine
                .wait_for(deadline, stop, |_| true)
                .map_err(|f| describe("ugi", f))?;
            if let Some(name) = line.strip_prefix("id name ") {
                id_name = Some(name.trim().to_string());
            }
            options.extend(Advertised::parse(&line));
            if line.trim() == "ugiok" {
                break;
            }
        }
        engine.id_name = id_name;
        let refused = |why: String| format!("engine '{}' {why}", spec.name);
        advertised::check(&options, launch.game_options, false).map_err(refused)?;
        advertised::check(&options, &spec.options, true).map_err(refused)?;
        for (name, value) in launch.game_options.iter().chain(&spec.options) {
            engine
                .send(&format!("setoption name {name} value {value}"))
                .map_err(|f| describe("setoption", f))?;
        }
        engine.send("isready").map_err(|f| describe("isready", f))?;
        let deadline = Instant::now() + timeout;
        let mut refusal = None;
        engine
            .wait_for(deadline, stop, |line| {
                if refusal.is_none() && advertised::is_refusal(line) {
                    refusal = Some(line.trim().to_string());
                }
                line.trim() == "readyok"
            })
            .map_err(|f| describe("isready", f))?;
        if let Some(line) = refusal {
            return Err(refused(format!("refused an option: {line}")));
        }
        Ok(engine)
    }

    fn spawn(spec: &EngineSpec, log: Option<&Arc<TrafficLog>>) -> Result<Engine, String> {
        // A relative program path is taken from our working directory, even
        // when the engine runs in another one.
        let program = Path::new(&spec.cmd[0]);
        let program = if program.components().count() > 1 && program.is_relative() {
            std::env::current_dir()
                .map(|d| d.join(program))
                .unwrap_or_else(|_| program.to_path_buf())
        } else {
            program.to_path_buf()
        };
        let mut command = Command::new(&program);
        command
            .args(&spec.cmd[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            // Its own process group: the terminal's Ctrl-C reaches only us,
            // and we end the engine when we choose to.
            .process_group(0);
        if let Some(dir) = &spec.dir {
            command.current_dir(dir);
        }
        let mut child = command.spawn().map_err(|e| {
            format!(
                "cannot start engine '{}' ({}): {e}",
                spec.name,
                spec.command_line()
            )
        })?;
        let stdout = child.stdout.take().expect("stdout is piped");
        let stderr = child.stderr.take().expect("stderr is piped");
        // The log names each process: one engine may run in several.
        let traffic = log.map(|log| (Arc::clone(log), format!("{}#{}", spec.name, child.id())));
        let stdout_traffic = traffic.clone();
        let stderr_traffic = traffic.clone();
        let (sender, lines) = mpsc::channel();
        thread::Builder::new()
            .name(format!("{}-stdout", spec.name))
            .spawn(move || {
                let mut reader = BufReader::new(stdout);
                let mut buffer = Vec::new();
                loop {
                    buffer.clear();
                    match reader.read_until(b'\n', &mut buffer) {
                        Ok(0) | Err(_) => break,
                        Ok(_) => {
                            let line = String::from_utf8_lossy(&buffer).trim_end().to_string();
                            let at = Instant::now();
                            log::trace!("<< {line}");
                            if let Some((log, label)) = &stdout_traffic {
                                log.line(at, label, Direction::FromEngine, &line);
                            }
                            if sender.send(Event::Line(line, at)).is_err() {
                                return;
                            }
                        }
                    }
                }
                let _ = sender.send(Event::Closed);
            })
            .map_err(|e| format!("cannot start a reader thread: {e}"))?;
        let stderr_tail = Arc::new(Mutex::new(VecDeque::new()));
        let tail = Arc::clone(&stderr_tail);
        let stderr_reader = thread::Builder::new()
            .name(format!("{}-stderr", spec.name))
            .spawn(move || {
                for line in BufReader::new(stderr).lines() {
                    let Ok(line) = line else { break };
                    if let Some((log, label)) = &stderr_traffic {
                        log.line(Instant::now(), label, Direction::Stderr, &line);
                    }
                    let mut tail = tail.lock().unwrap_or_else(|e| e.into_inner());
                    if tail.len() == STDERR_TAIL {
                        tail.pop_front();
                    }
                    tail.push_back(line);
                }
            })
            .map_err(|e| format!("cannot start a reader thread: {e}"))?;
        Ok(Engine {
            name: spec.name.clone(),
            tc: spec.tc,
            id_name: None,
            stdin: child.stdin.take(),
            child,
            lines,
            stderr_tail,
            stderr_reader: Some(stderr_reader),
            closed: false,
            needs_restart: false,
            traffic,
        })
    }

    /// Sends one command line.
    pub fn send(&mut self, line: &str) -> Result<(), Failure> {
        log::trace!(">> {}: {line}", self.name);
        if let Some((log, label)) = &self.traffic {
            log.line(Instant::now(), label, Direction::ToEngine, line);
        }
        let written = match &mut self.stdin {
            Some(stdin) => writeln!(stdin, "{line}").and_then(|_| stdin.flush()),
            None => Err(std::io::ErrorKind::BrokenPipe.into()),
        };
        written.map_err(|_| {
            self.closed = true;
            self.needs_restart = true;
            Failure::Crashed(self.exit_report())
        })
    }

    /// Waits until a line satisfying `accept` arrives (other lines are
    /// skipped) and returns it with its arrival time.
    pub fn wait_for(
        &mut self,
        deadline: Instant,
        stop: &AtomicBool,
        mut accept: impl FnMut(&str) -> bool,
    ) -> Result<(String, Instant), Failure> {
        loop {
            if self.closed {
                return Err(Failure::Crashed(self.exit_report()));
            }
            if stop.load(Ordering::Relaxed) {
                return Err(Failure::Stopped);
            }
            let now = Instant::now();
            if now >= deadline {
                self.needs_restart = true;
                return Err(Failure::Timeout);
            }
            match self.lines.recv_timeout((deadline - now).min(POLL)) {
                Ok(Event::Line(line, at)) => {
                    if accept(&line) {
                        return Ok((line, at));
                    }
                }
                Ok(Event::Closed) | Err(RecvTimeoutError::Disconnected) => {
                    self.closed = true;
                    self.needs_restart = true;
                }
                Err(RecvTimeoutError::Timeout) => {}
            }
        }
    }

    /// Drops lines that arrived unasked (a late `response`, stray `info`),
    /// so the next wait sees only replies to what comes next.
    pub fn drain(&mut self) {
        loop {
            match self.lines.try_recv() {
                Ok(Event::Line(..)) => {}
                Ok(Event::Closed) | Err(TryRecvError::Disconnected) => {
                    self.closed = true;
                    self.needs_restart = true;
                    return;
                }
                Err(TryRecvError::Empty) => return,
            }
        }
    }

    /// `isready` and its `readyok`: everything sent before has been taken in.
    pub fn sync(&mut self, timeout: Duration, stop: &AtomicBool) -> Result<(), Failure> {
        self.send("isready")?;
        let deadline = Instant::now() + timeout;
        self.wait_for(deadline, stop, |line| line.trim() == "readyok")
            .map(|_| ())
    }

    /// Asks `query <what>` and returns the text after `response`.
    pub fn query(
        &mut self,
        what: &str,
        timeout: Duration,
        stop: &AtomicBool,
    ) -> Result<String, Failure> {
        self.drain();
        self.send(&format!("query {what}"))?;
        let deadline = Instant::now() + timeout;
        let (line, _) = self.wait_for(deadline, stop, |line| {
            line.split_whitespace().next() == Some("response")
        })?;
        Ok(line
            .trim()
            .strip_prefix("response")
            .unwrap_or("")
            .trim()
            .to_string())
    }

    /// How the engine ended, for a crash report: its exit status (when it
    /// has exited by now) and the last line it wrote to stderr.
    fn exit_report(&mut self) -> String {
        let mut status = None;
        // The process closes its pipes as it exits; give it a moment.
        for _ in 0..20 {
            if let Ok(Some(s)) = self.child.try_wait() {
                status = Some(s);
                break;
            }
            thread::sleep(Duration::from_millis(10));
        }
        let mut report = match status {
            Some(s) => match s.code() {
                Some(code) => format!("exited with status {code}"),
                None => format!("was ended by a signal ({s})"),
            },
            None => "closed its pipes".to_string(),
        };
        // Its last words may still be in the pipe: let the reader finish.
        if let Some(reader) = &self.stderr_reader {
            for _ in 0..10 {
                if reader.is_finished() {
                    break;
                }
                thread::sleep(Duration::from_millis(10));
            }
        }
        let tail = self.stderr_tail.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(last) = tail.back() {
            report.push_str(&format!("; stderr: {last}"));
        }
        report
    }
}

impl Drop for Engine {
    /// Asks the engine to quit, and kills its process group if it has not
    /// exited after a short grace period.
    fn drop(&mut self) {
        if let Some(mut stdin) = self.stdin.take() {
            if let Some((log, label)) = &self.traffic {
                log.line(Instant::now(), label, Direction::ToEngine, "quit");
            }
            let _ = writeln!(stdin, "quit").and_then(|_| stdin.flush());
        }
        let start = Instant::now();
        let mut exited = false;
        while start.elapsed() < QUIT_GRACE {
            if let Ok(Some(_)) = self.child.try_wait() {
                exited = true;
                break;
            }
            thread::sleep(Duration::from_millis(5));
        }
        if !exited {
            // Not reaped yet, so the group id is still ours to signal:
            // whatever the engine started itself goes too.
            signals::kill_group(self.child.id());
            let _ = self.child.wait();
        }
    }
}

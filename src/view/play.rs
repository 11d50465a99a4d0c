//! `quintet play`: a game in the terminal against the engine (or the engine
//! against itself, or two people). The board is drawn after every move;
//! moves are typed in the game's notation; `undo`, `hint`, `eval`, `moves`,
//! `save FILE`, `board`, `help` and `quit` are commands. Bad input gets a
//! one-line answer and a new prompt. Reads any `BufRead` and writes any
//! `Write`, so a pipe (or a test) can play it.

use super::game_record::{describe_score, format_score};
use crate::draw::terminal;
use crate::games::Seat;
use crate::matches::record;
use crate::protocol::options::Options;
use crate::registry::{self, GameConfig};
use crate::search::{Limits, Report, Score, SearchSettings};
use crate::session::{Engine, SearchRun, Session};
use std::io::{BufRead, Write};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

pub struct PlaySettings {
    pub config: GameConfig,
    /// Which seats a person plays (p1 first).
    pub humans: [bool; 2],
    /// The engine's budget per move.
    pub limits: Limits,
    /// Draw with ANSI colours.
    pub colour: bool,
    /// The engine's searcher, `Hash` and weights (the global flags).
    pub engine: Engine,
    /// Threads and the other search options (the global flags).
    pub search: SearchSettings,
}

/// Which seats `--human` names: `p1`, `p2`, `both` or `none`.
pub fn humans(choice: &str) -> Result<[bool; 2], String> {
    match choice.to_ascii_lowercase().as_str() {
        "p1" => Ok([true, false]),
        "p2" => Ok([false, true]),
        "both" => Ok([true, true]),
        "none" => Ok([false, false]),
        _ => Err(format!(
            "--human: expected p1, p2, both or none, got '{choice}'"
        )),
    }
}

/// `quintet play` on stdin/stdout: `human` is `--human`, and one of
/// `movetime` (default 1000 ms) and `nodes` the engine's budget per move;
/// `options` are the global flags (game, `--search`, `--hash`, `--threads`).
pub fn play_in_terminal(
    options: &Options,
    human: &str,
    movetime: Option<u64>,
    nodes: Option<u64>,
) -> Result<(), String> {
    let limits = match (movetime, nodes) {
        (Some(_), Some(_)) => return Err("choose one of --movetime and --nodes".into()),
        (_, Some(n)) => Limits {
            nodes: Some(n.max(1)),
            ..Limits::default()
        },
        (ms, None) => Limits {
            movetime: Some(ms.unwrap_or(1000).max(1)),
            ..Limits::default()
        },
    };
    let settings = PlaySettings {
        config: registry::resolve(&options.game)?,
        humans: humans(human)?,
        limits,
        colour: terminal::colour_wanted(),
        engine: options.engine.clone(),
        search: options.search.clone(),
    };
    run(&settings, std::io::stdin().lock(), std::io::stdout().lock())
}

/// At most this many moves are listed by `moves` (a Nadraz pie has 200k).
const LISTED_MOVES: usize = 120;

const HELP: &str = "type a move (e.g. as listed by 'moves'), or: undo, hint, eval, moves, \
                    save FILE, board, help, quit";

/// The game so far: the session, and who made each move with what score.
struct Game {
    session: Box<dyn Session>,
    /// Per move: whether a person made it, and the engine's score before
    /// it (engine moves only).
    made: Vec<(bool, Option<Score>)>,
    settings: SearchSettings,
}

/// Plays until the input ends or `quit`. Errors only for a bad game
/// configuration or a broken output.
pub fn run(
    settings: &PlaySettings,
    input: impl BufRead,
    mut out: impl Write,
) -> Result<(), String> {
    let session = registry::create(&settings.config)?;
    let mut game = Game {
        session,
        made: Vec::new(),
        settings: settings.search.clone(),
    };
    for warning in game.session.prepare(&settings.engine) {
        eprintln!("play: {warning}");
    }
    let io = |e: std::io::Error| format!("play: {e}");
    writeln!(out, "{}", seats_line(settings)).map_err(io)?;
    writeln!(out, "{HELP}").map_err(io)?;
    draw(&mut out, &game, settings.colour).map_err(io)?;
    let mut lines = input.lines();
    loop {
        let over = game.session.outcome().is_some();
        let to_move = game.session.side_to_move();
        if !over && !settings.humans[to_move.index()] {
            engine_turn(&mut out, &mut game, settings).map_err(io)?;
            continue;
        }
        let prompt = if over {
            "game over> ".to_string()
        } else {
            format!("{}> ", to_move.name())
        };
        write!(out, "{prompt}").map_err(io)?;
        out.flush().map_err(io)?;
        let line = match lines.next() {
            Some(Ok(line)) => line,
            Some(Err(e)) if e.kind() == std::io::ErrorKind::InvalidData => {
                writeln!(out, "that line is not UTF-8 text; {HELP}").map_err(io)?;
                continue;
            }
            // The end of the input (or a broken one) ends the game quietly.
            _ => {
                writeln!(out).map_err(io)?;
                return Ok(());
            }
        };
        match command(&mut out, &mut game, settings, line.trim()).map_err(io)? {
            Flow::Continue => {}
            Flow::Quit => return Ok(()),
        }
    }
}

enum Flow {
    Continue,
    Quit,
}

fn seats_line(settings: &PlaySettings) -> String {
    let who = |seat: Seat| {
        if settings.humans[seat.index()] {
            "you"
        } else {
            "quintet"
        }
    };
    format!("p1: {}, p2: {}", who(Seat::P1), who(Seat::P2))
}

fn draw(out: &mut impl Write, game: &Game, colour: bool) -> std::io::Result<()> {
    writeln!(out)?;
    write!(out, "{}", terminal::draw(&game.session.picture(), colour))?;
    if let Some(outcome) = game.session.outcome() {
        writeln!(
            out,
            "game over: {} (save FILE keeps it, undo takes moves back, quit ends)",
            outcome.ugi_word()
        )?;
    }
    Ok(())
}

/// The engine's choice for the side to move: the one place that calls the
/// searcher.
fn engine_move(game: &mut Game, limits: &Limits) -> Option<(String, Report<String>)> {
    let stop = AtomicBool::new(false);
    let mut progress = |_: &Report<String>| {};
    let run = SearchRun {
        start: Instant::now(),
        stop: &stop,
        progress: &mut progress,
    };
    let result = game.session.search(&game.settings, limits, run)?;
    Some((result.best, result.report))
}

fn engine_turn(
    out: &mut impl Write,
    game: &mut Game,
    settings: &PlaySettings,
) -> std::io::Result<()> {
    let mover = game.session.side_to_move();
    let Some((mv, info)) = engine_move(game, &settings.limits) else {
        return Ok(());
    };
    if let Err(e) = game.session.play(&mv) {
        // The searcher only returns legal moves; stop loudly if not.
        return Err(std::io::Error::other(format!(
            "the engine chose an illegal move: {e}"
        )));
    }
    game.made.push((false, Some(info.score)));
    writeln!(
        out,
        "quintet ({}) plays {mv}   [{}, {} nodes, {} ms]",
        mover.name(),
        describe_score(info.score),
        info.nodes,
        info.time_ms
    )?;
    draw(out, game, settings.colour)
}

fn command(
    out: &mut impl Write,
    game: &mut Game,
    settings: &PlaySettings,
    line: &str,
) -> std::io::Result<Flow> {
    let (word, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
    let rest = rest.trim();
    match word.to_ascii_lowercase().as_str() {
        "" => {}
        "quit" | "exit" | "q" => return Ok(Flow::Quit),
        "help" | "?" => writeln!(out, "{HELP}")?,
        "board" | "d" => draw(out, game, settings.colour)?,
        "undo" => {
            if undo(out, game)? {
                draw(out, game, settings.colour)?;
            }
        }
        "moves" => {
            let mut moves = game.session.legal_moves();
            moves.sort();
            let count = moves.len();
            if count == 0 {
                writeln!(out, "no legal moves: the game is over")?;
            } else if count > LISTED_MOVES {
                writeln!(
                    out,
                    "{count} legal moves, the first {LISTED_MOVES}: {}",
                    moves[..LISTED_MOVES].join(" ")
                )?;
            } else {
                writeln!(out, "{count} legal moves: {}", moves.join(" "))?;
            }
        }
        "hint" => match engine_move(game, &settings.limits) {
            Some((mv, info)) => writeln!(
                out,
                "hint: {mv}   [{}, {} nodes]",
                describe_score(info.score),
                info.nodes
            )?,
            None => writeln!(out, "no hint: the game is over")?,
        },
        "eval" => match engine_move(game, &settings.limits) {
            Some((mv, info)) => {
                let seat = game.session.side_to_move();
                writeln!(
                    out,
                    "eval: {} for {} (the side to move), best {mv}, {} nodes",
                    describe_score(info.score),
                    seat.name(),
                    info.nodes
                )?
            }
            None => writeln!(out, "no evaluation: the game is over")?,
        },
        "save" => {
            if rest.is_empty() {
                writeln!(out, "save needs a file name: save FILE")?;
            } else {
                match std::fs::write(rest, record_text(game, settings)) {
                    Ok(()) => writeln!(
                        out,
                        "saved to {rest} (quintet replay {rest} --html FILE.html shows it)"
                    )?,
                    Err(e) => writeln!(out, "cannot save to {rest}: {e}")?,
                }
            }
        }
        _ if game.session.outcome().is_some() => writeln!(
            out,
            "the game is over; commands: undo, save FILE, board, moves, quit"
        )?,
        _ if rest.is_empty() => match game.session.play(word) {
            Ok(_) => {
                game.made.push((true, None));
                draw(out, game, settings.colour)?;
            }
            Err(e) => writeln!(
                out,
                "{e}; type 'moves' for the legal moves, 'help' for commands"
            )?,
        },
        _ => writeln!(out, "'{line}' is neither a move nor a command; {HELP}")?,
    }
    Ok(Flow::Continue)
}

/// Takes back the last move a person made, and the engine's replies
/// after it, so that the person is to move again. Whether it did.
fn undo(out: &mut impl Write, game: &mut Game) -> std::io::Result<bool> {
    let Some(last_own) = game.made.iter().rposition(|&(human, _)| human) else {
        writeln!(out, "nothing to undo: no move of yours on the board")?;
        return Ok(false);
    };
    let mut moves = game.session.moves_played();
    let taken = moves.split_off(last_own);
    let texts: Vec<&str> = moves.iter().map(String::as_str).collect();
    if let Err(e) = game.session.set_position(None, &texts) {
        writeln!(out, "cannot undo: {e}")?;
        return Ok(false);
    }
    game.made.truncate(last_own);
    writeln!(out, "took back: {}", taken.join(" "))?;
    Ok(true)
}

/// The game as a record file that `quintet replay` reads (the format of
/// `quintet match --record`, with the engine's scores).
fn record_text(game: &Game, settings: &PlaySettings) -> String {
    let name = |seat: Seat| {
        if settings.humans[seat.index()] {
            "you"
        } else {
            "quintet"
        }
    };
    let moves = game.session.moves_played();
    let mut fields = vec![
        ("game", "1".to_string()),
        ("p1", name(Seat::P1).to_string()),
        ("p2", name(Seat::P2).to_string()),
        ("opening", "startpos".to_string()),
    ];
    if let Some(outcome) = game.session.outcome() {
        fields.push(("result", outcome.ugi_word().to_string()));
        if let crate::games::Outcome::Win(seat) = outcome {
            fields.push(("winner", name(seat).to_string()));
        }
        fields.push(("reason", "rules".to_string()));
    }
    fields.push(("plies", moves.len().to_string()));
    fields.push(("moves", moves.join(" ")));
    if game.made.iter().any(|(_, score)| score.is_some()) {
        let scores: Vec<String> = game.made.iter().map(|&(_, s)| format_score(s)).collect();
        fields.push(("scores", scores.join(" ")));
    }
    fields.push(("final", game.session.position_text()));
    format!(
        "# quintet play: {} vs {}, {}, {}\n{}\n",
        name(Seat::P1),
        name(Seat::P2),
        game.session.describe(),
        limits_text(&settings.limits),
        record::format_line(&fields)
    )
}

fn limits_text(limits: &Limits) -> String {
    match (limits.movetime, limits.nodes) {
        (_, Some(nodes)) => format!("{nodes} nodes per move"),
        (Some(ms), None) => format!("movetime {ms} ms"),
        (None, None) => "no limit".to_string(),
    }
}

//! One game between two engines, refereed by our own rules code: every
//! move is checked by a [`Session`] before the other engine sees it, and
//! the session alone decides when the game ends and how. Failures of an
//! engine (an illegal move, a crash, a hang, a flag, a malformed reply)
//! lose the game for it, with the reason recorded.

use super::adjudicate::{self, Adjudicator, ScoreRule};
use super::engine::{Engine, Failure};
use super::openings::Opening;
use super::spec::TimeControl;
use crate::games::{Outcome, Seat};
use crate::registry::GameConfig;
use crate::session::Session;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// The rules of play that are the same for every game of a match.
#[derive(Clone, Debug)]
pub struct Rules {
    pub config: GameConfig,
    pub tc: TimeControl,
    /// Lateness forgiven on a move time or a clock, ms.
    pub margin_ms: u64,
    /// The wait for a move under `nodes`/`depth` limits, ms.
    pub move_timeout_ms: u64,
    /// The wait for replies that take no thinking (`readyok`, queries).
    pub ready_timeout: Duration,
    /// Plies after the opening before the game is adjudicated a draw; 0 =
    /// no limit.
    pub max_plies: usize,
    /// Ask the engines `query gameover`/`p1turn`/`result` and record where
    /// they disagree with the referee.
    pub cross_check: bool,
    /// Score adjudication (see `adjudicate`).
    pub adjudicate_draw: Option<ScoreRule>,
    pub adjudicate_resign: Option<ScoreRule>,
}

/// Why a game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Reason {
    /// The rules ended it (a win or a draw on the board).
    Rules,
    /// Adjudicated a draw at the ply limit.
    MaxPlies,
    /// Adjudicated a draw: both engines' scores stayed level.
    AdjudicatedDraw,
    /// Adjudicated a win: both engines' scores agreed on the winner.
    AdjudicatedResign,
    IllegalMove,
    Crash,
    /// No move within a move time (+ margin), or within the move timeout
    /// of a nodes/depth limit.
    Timeout,
    /// The clock ran out (beyond the margin).
    TimeForfeit,
    /// A reply that is not `bestmove <move>`.
    Malformed,
    /// The engine could not be (re)started for the game.
    StartFailure,
}

impl Reason {
    pub const ALL: [Reason; 10] = [
        Reason::Rules,
        Reason::MaxPlies,
        Reason::AdjudicatedDraw,
        Reason::AdjudicatedResign,
        Reason::IllegalMove,
        Reason::Crash,
        Reason::Timeout,
        Reason::TimeForfeit,
        Reason::Malformed,
        Reason::StartFailure,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Reason::Rules => "rules",
            Reason::MaxPlies => "max-plies",
            Reason::AdjudicatedDraw => "adjudicated-draw",
            Reason::AdjudicatedResign => "adjudicated-resign",
            Reason::IllegalMove => "illegal-move",
            Reason::Crash => "crash",
            Reason::Timeout => "timeout",
            Reason::TimeForfeit => "time-forfeit",
            Reason::Malformed => "malformed",
            Reason::StartFailure => "start-failure",
        }
    }

    /// Whether the game was lost by a failure rather than played out.
    pub fn is_forfeit(self) -> bool {
        !matches!(
            self,
            Reason::Rules | Reason::MaxPlies | Reason::AdjudicatedDraw | Reason::AdjudicatedResign
        )
    }

    /// Reads a name written by [`Reason::name`].
    pub fn from_name(name: &str) -> Option<Reason> {
        Reason::ALL.into_iter().find(|r| r.name() == name)
    }
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct GameResult {
    pub outcome: Outcome,
    pub reason: Reason,
    /// Human-readable details of a forfeit or adjudication.
    pub detail: String,
    /// The position text the game started from (after the opening's
    /// moves); None for the start position itself.
    pub start: Option<String>,
    /// Who moved first in the game.
    pub first_mover: Seat,
    /// The moves after the opening, in the referee's canonical text.
    pub moves: Vec<String>,
    /// Thinking time used per seat, ms.
    pub time_ms: [u64; 2],
    /// The position text at the end.
    pub final_text: String,
    /// Where an engine's own view of the game differed (--cross-check).
    pub disagreements: Vec<String>,
}

/// The game was abandoned (the match is stopping).
#[derive(Debug)]
pub struct Abandoned;

/// Plays one game from `opening`; `engines[0]` sits at p1. The opening
/// must have been checked (see [`Opening::session`]).
pub fn play(
    rules: &Rules,
    opening: &Opening,
    engines: [&mut Engine; 2],
    stop: &AtomicBool,
) -> Result<GameResult, Abandoned> {
    let mut game = Game {
        rules,
        opening,
        engines,
        stop,
        moves: Vec::new(),
        time_ms: [0, 0],
        disagreements: Vec::new(),
        adjudicator: Adjudicator::new(rules.adjudicate_draw, rules.adjudicate_resign),
        start: None,
        first_mover: Seat::P1,
    };
    game.run()
}

struct Game<'a> {
    rules: &'a Rules,
    opening: &'a Opening,
    engines: [&'a mut Engine; 2],
    stop: &'a AtomicBool,
    moves: Vec<String>,
    time_ms: [u64; 2],
    disagreements: Vec<String>,
    adjudicator: Adjudicator,
    start: Option<String>,
    first_mover: Seat,
}

/// How a seat's move attempt ended when it does not produce a legal move.
struct Forfeit {
    seat: Seat,
    reason: Reason,
    detail: String,
}

impl Game<'_> {
    /// The time control of the engine at `seat`: its own, or the match's.
    fn tc(&self, seat: Seat) -> TimeControl {
        self.engines[seat.index()].tc.unwrap_or(self.rules.tc)
    }

    fn run(&mut self) -> Result<GameResult, Abandoned> {
        let mut session = match self.opening.session(&self.rules.config) {
            Ok(session) => session,
            // Openings are checked when they are read; should one fail here
            // all the same, the game is not counted.
            Err(e) => {
                log::error!("opening {}: {e}", self.opening.to_line());
                return Err(Abandoned);
            }
        };
        self.start = self.opening.start_text(session.as_ref());
        self.first_mover = session.side_to_move();
        for seat in [Seat::P1, Seat::P2] {
            if let Err(forfeit) = self.new_game(seat)? {
                return Ok(self.forfeited(session.as_ref(), forfeit));
            }
        }
        let mut clocks: [i64; 2] = [Seat::P1, Seat::P2].map(|seat| match self.tc(seat) {
            TimeControl::Clock { base_ms, .. } => base_ms as i64,
            _ => 0,
        });
        loop {
            if let Some(outcome) = session.outcome() {
                if self.rules.cross_check {
                    self.check_result(outcome)?;
                }
                return Ok(self.finish(session.as_ref(), outcome, Reason::Rules, String::new()));
            }
            if self.rules.max_plies > 0 && self.moves.len() >= self.rules.max_plies {
                let detail = format!("{} plies without a result", self.moves.len());
                return Ok(self.finish(session.as_ref(), Outcome::Draw, Reason::MaxPlies, detail));
            }
            let names = [self.engines[0].name.as_str(), self.engines[1].name.as_str()];
            if let Some((outcome, reason, detail)) = self.adjudicator.verdict(names) {
                return Ok(self.finish(session.as_ref(), outcome, reason, detail));
            }
            let seat = session.side_to_move();
            let (reply, score) = match self.one_move(seat, &mut clocks)? {
                Ok(reply) => reply,
                Err(forfeit) => return Ok(self.forfeited(session.as_ref(), forfeit)),
            };
            if let Err(e) = session.play(&reply) {
                let forfeit = Forfeit {
                    seat,
                    reason: Reason::IllegalMove,
                    detail: format!(
                        "{} played {reply} at ply {}: {e}",
                        self.engines[seat.index()].name,
                        self.moves.len() + 1
                    ),
                };
                return Ok(self.forfeited(session.as_ref(), forfeit));
            }
            // The other engine hears the move in our canonical text.
            let canonical = session.moves_played().pop().unwrap_or(reply);
            self.moves.push(canonical);
            self.adjudicator.record(seat, score);
        }
    }

    fn finish(
        &mut self,
        session: &dyn Session,
        outcome: Outcome,
        reason: Reason,
        detail: String,
    ) -> GameResult {
        GameResult {
            outcome,
            reason,
            detail,
            start: self.start.take(),
            first_mover: self.first_mover,
            moves: std::mem::take(&mut self.moves),
            time_ms: self.time_ms,
            final_text: session.position_text(),
            disagreements: std::mem::take(&mut self.disagreements),
        }
    }

    fn forfeited(&mut self, session: &dyn Session, forfeit: Forfeit) -> GameResult {
        let outcome = Outcome::Win(forfeit.seat.other());
        self.finish(session, outcome, forfeit.reason, forfeit.detail)
    }

    /// `uginewgame` and a `readyok` round trip for one seat's engine.
    fn new_game(&mut self, seat: Seat) -> Result<Result<(), Forfeit>, Abandoned> {
        let timeout = self.rules.ready_timeout;
        let engine = &mut *self.engines[seat.index()];
        engine.drain();
        let synced = engine
            .send("uginewgame")
            .and_then(|_| engine.sync(timeout, self.stop));
        match synced {
            Ok(()) => Ok(Ok(())),
            Err(failure) => match self.forfeit(seat, failure, "at the start of the game", None) {
                Some(forfeit) => Ok(Err(forfeit)),
                None => Err(Abandoned),
            },
        }
    }

    /// Turns a failed wait into the forfeit it stands for (None: the match
    /// is stopping).
    fn forfeit(
        &self,
        seat: Seat,
        failure: Failure,
        when: &str,
        timeout: Option<(Reason, String)>,
    ) -> Option<Forfeit> {
        let name = &self.engines[seat.index()].name;
        match failure {
            Failure::Stopped => None,
            Failure::Crashed(how) => Some(Forfeit {
                seat,
                reason: Reason::Crash,
                detail: format!("{name} {how} {when}"),
            }),
            Failure::Timeout => {
                let (reason, limit) = timeout.unwrap_or((
                    Reason::Timeout,
                    format!("{} ms", self.rules.ready_timeout.as_millis()),
                ));
                Some(Forfeit {
                    seat,
                    reason,
                    detail: format!("{name} did not answer within {limit} {when}"),
                })
            }
        }
    }

    /// Asks `seat` for a move and checks its timing and form (not its
    /// legality). Updates the clocks and the time used. The move comes with
    /// the last score the engine reported while searching it.
    fn one_move(
        &mut self,
        seat: Seat,
        clocks: &mut [i64; 2],
    ) -> Result<Result<(String, Option<i64>), Forfeit>, Abandoned> {
        let ply = self.moves.len() + 1;
        if self.rules.cross_check {
            self.check_turn(seat)?;
        }
        let margin = self.rules.margin_ms;
        let tc = self.tc(seat);
        let (go, wait_ms, timeout) = match tc {
            TimeControl::MoveTime(ms) => (
                format!("go movetime {ms}"),
                ms + margin,
                (Reason::Timeout, format!("{ms} ms + {margin} ms margin")),
            ),
            TimeControl::Clock { inc_ms, .. } => {
                // An opponent without a clock (time odds) is shown ours.
                let [(p1, i1), (p2, i2)] = [Seat::P1, Seat::P2].map(|s| match self.tc(s) {
                    TimeControl::Clock { inc_ms, .. } => (clocks[s.index()].max(0), inc_ms),
                    _ => (clocks[seat.index()].max(0), inc_ms),
                });
                let left = clocks[seat.index()].max(0) as u64;
                (
                    format!("go p1time {p1} p2time {p2} p1inc {i1} p2inc {i2}"),
                    left + margin,
                    (
                        Reason::TimeForfeit,
                        format!("its clock of {left} ms + {margin} ms margin"),
                    ),
                )
            }
            TimeControl::Nodes(n) => (
                format!("go nodes {n}"),
                self.rules.move_timeout_ms,
                (
                    Reason::Timeout,
                    format!("the move timeout of {} ms", self.rules.move_timeout_ms),
                ),
            ),
            TimeControl::Depth(d) => (
                format!("go depth {d}"),
                self.rules.move_timeout_ms,
                (
                    Reason::Timeout,
                    format!("the move timeout of {} ms", self.rules.move_timeout_ms),
                ),
            ),
        };
        let position = self.opening.position_command(&self.moves);
        let when = format!("at ply {ply}");
        let engine = &mut *self.engines[seat.index()];
        engine.drain();
        let sent = engine.send(&position).and_then(|_| engine.send(&go));
        let start = Instant::now();
        let mut score = None;
        let reply = sent.and_then(|_| {
            engine.wait_for(start + Duration::from_millis(wait_ms), self.stop, |line| {
                if let Some(s) = adjudicate::info_score(line) {
                    score = Some(s);
                }
                line.split_whitespace().next() == Some("bestmove")
            })
        });
        let (line, arrived) = match reply {
            Ok(reply) => reply,
            Err(failure) => {
                if failure == Failure::Timeout {
                    self.time_ms[seat.index()] += wait_ms;
                }
                return match self.forfeit(seat, failure, &when, Some(timeout)) {
                    Some(f) => Ok(Err(f)),
                    None => Err(Abandoned),
                };
            }
        };
        let used = arrived.saturating_duration_since(start).as_millis() as u64;
        self.time_ms[seat.index()] += used;
        let name = self.engines[seat.index()].name.clone();
        match tc {
            TimeControl::MoveTime(ms) if used > ms + margin => {
                return Ok(Err(Forfeit {
                    seat,
                    reason: Reason::Timeout,
                    detail: format!("{name} took {used} ms for a {ms} ms move {when}"),
                }));
            }
            TimeControl::Clock { inc_ms, .. } => {
                let clock = &mut clocks[seat.index()];
                *clock -= used as i64;
                if *clock < -(margin as i64) {
                    return Ok(Err(Forfeit {
                        seat,
                        reason: Reason::TimeForfeit,
                        detail: format!("{name} overstepped its clock by {} ms {when}", -*clock),
                    }));
                }
                *clock += inc_ms as i64;
            }
            _ => {}
        }
        let mut words = line.split_whitespace().skip(1);
        match (words.next(), words.next()) {
            (Some(mv), None) if !mv.eq_ignore_ascii_case("none") => Ok(Ok((mv.to_string(), score))),
            _ => Ok(Err(Forfeit {
                seat,
                reason: Reason::Malformed,
                detail: format!("{name} replied '{line}' {when}"),
            })),
        }
    }

    /// Cross-check before a move: the engine to move must see a game in
    /// progress with itself to move.
    fn check_turn(&mut self, seat: Seat) -> Result<(), Abandoned> {
        let position = self.opening.position_command(&self.moves);
        let ply = self.moves.len() + 1;
        let expected_turn = if seat == Seat::P1 { "true" } else { "false" };
        for (what, expected) in [("gameover", "false"), ("p1turn", expected_turn)] {
            self.ask(seat, &position, what, expected, ply)?;
        }
        Ok(())
    }

    /// Cross-check at the end: both engines must see the same result.
    fn check_result(&mut self, outcome: Outcome) -> Result<(), Abandoned> {
        let position = self.opening.position_command(&self.moves);
        let ply = self.moves.len();
        for seat in [Seat::P1, Seat::P2] {
            self.ask(seat, &position, "gameover", "true", ply)?;
            self.ask(seat, &position, "result", outcome.ugi_word(), ply)?;
        }
        Ok(())
    }

    /// Sends `position` and `query what` to `seat`'s engine; a different
    /// answer (or none) is recorded, not held against the engine.
    fn ask(
        &mut self,
        seat: Seat,
        position: &str,
        what: &str,
        expected: &str,
        ply: usize,
    ) -> Result<(), Abandoned> {
        let timeout = self.rules.ready_timeout;
        let engine = &mut *self.engines[seat.index()];
        let answer = engine
            .send(position)
            .and_then(|_| engine.query(what, timeout, self.stop));
        let name = engine.name.clone();
        match answer {
            Ok(answer) if answer.eq_ignore_ascii_case(expected) => {}
            Ok(answer) => self.disagreements.push(format!(
                "{name}: query {what} answered '{answer}', the referee says '{expected}' (ply {ply})"
            )),
            Err(Failure::Stopped) => return Err(Abandoned),
            Err(Failure::Timeout) => self
                .disagreements
                .push(format!("{name}: no answer to query {what} (ply {ply})")),
            // The crash shows in the next command that needs the engine.
            Err(Failure::Crashed(_)) => self
                .disagreements
                .push(format!("{name}: exited on query {what} (ply {ply})")),
        }
        Ok(())
    }
}

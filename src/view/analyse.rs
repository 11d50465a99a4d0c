//! `quintet analyse`: the engine's view of every move of a recorded game.
//! A search of the position before each move gives the mover's score and
//! the engine's best move; a search of the position after the move played
//! (which is the position before the next move), negated, the played
//! move's score. When the engine preferred another move, the position
//! after that one is searched too, so that both moves are judged alike.
//! A move that loses more than a threshold is marked `?`, more than three
//! times that (or a proven win given away) `??`.

use super::game_record::{Mark, ReplayGame, describe_score, format_score};
use crate::games::{Outcome, Seat};
use crate::matches::record;
use crate::protocol::options::Options;
use crate::registry::GameConfig;
use crate::search::{Limits, Score};
use crate::session::{SearchRun, Session};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// Scores count at most this much either way when losses are measured: a
/// proven win is worth this, and a 3000-point lead losing 1000 points is
/// no mistake.
pub const SCORE_CAP: i32 = 1000;

/// Losses over three times the threshold are blunders.
const BLUNDER_FACTOR: i32 = 3;

/// The engine's move in a position and its score there.
type Choice = (String, Score);

/// What `quintet analyse` was asked.
#[derive(Clone, Debug, Default)]
pub struct Request {
    pub record: PathBuf,
    /// The record's game number (default: its first game).
    pub number: Option<u64>,
    pub movetime: Option<u64>,
    pub nodes: Option<u64>,
    /// A move losing more than this many centipawns is a mistake.
    pub threshold: u32,
    pub html: Option<PathBuf>,
    pub out: Option<PathBuf>,
}

/// The engine's view of one move.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveReview {
    /// The ply from the game's start (opening moves count).
    pub ply: usize,
    pub mover: Seat,
    pub played: String,
    /// The mover's score before the move.
    pub before: Score,
    /// The engine's choice in the position before the move.
    pub best: String,
    /// The score of the move played, from the mover's side.
    pub after: Score,
    /// The move ended the game (`after` is then the result: a win in 1, a
    /// loss in 1 or 0).
    pub ends: bool,
    /// The best move's score minus the played move's (both by a search
    /// after the move) on the capped scale: 0 when the best move was played
    /// or the move did better.
    pub loss: i32,
    pub mark: Option<Mark>,
}

/// `quintet analyse` from the command line: the table on stdout, progress
/// on stderr, and the files asked for.
pub fn run(request: &Request, options: &Options) -> Result<(), String> {
    let limits = limits(request.movetime, request.nodes)?;
    let (mut game, mut line) = super::load_game(&request.record, request.number, &options.game)?;
    let settings = Settings {
        limits,
        threshold: i32::try_from(request.threshold).unwrap_or(i32::MAX / 4),
        options: options.clone(),
    };
    let progress_on_terminal = std::io::stderr().is_terminal();
    let mut progress = |k: usize, n: usize| {
        let end = if progress_on_terminal && k < n {
            "\r"
        } else {
            "\n"
        };
        eprint!("analysing ply {k}/{n}{end}");
    };
    let reviews = analyse(&game, &settings, &mut progress)?;
    let mut out = std::io::stdout().lock();
    let text = format!(
        "{}\n{}\n{}",
        heading(&game, &settings),
        table(&reviews),
        summary(&game, &reviews)
    );
    // A closed stdout (a pipe into `head`) is no error worth a panic.
    let _ = out.write_all(text.as_bytes()).and_then(|_| out.flush());
    annotate(&mut game, &reviews);
    if let Some(path) = &request.out {
        line.set("scores", tokens(&reviews, |r| format_score(Some(r.before))));
        line.set("best", tokens(&reviews, |r| r.best.clone()));
        let mut file = line.header.join("\n");
        if !file.is_empty() {
            file.push('\n');
        }
        file.push_str(&format!(
            "# quintet analyse, {}, {}, threshold {}\n{}\n",
            describe(&game.config),
            limits_text(&settings.limits),
            settings.threshold,
            record::format_line(&line.fields)
        ));
        std::fs::write(path, file).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    if let Some(path) = &request.html {
        super::write_page(&game, path)?;
    }
    Ok(())
}

/// The analysis budget and judgement.
pub struct Settings {
    pub limits: Limits,
    pub threshold: i32,
    /// The engine's options (searcher, hash, threads).
    pub options: Options,
}

/// The search budget per position: `--movetime MS` (default 1000) or
/// `--nodes N`, both at least 1.
pub fn limits(movetime: Option<u64>, nodes: Option<u64>) -> Result<Limits, String> {
    match (movetime, nodes) {
        (Some(_), Some(_)) => Err("choose one of --movetime and --nodes".into()),
        (Some(0), None) => Err("--movetime must be at least 1 ms".into()),
        (None, Some(0)) => Err("--nodes must be at least 1".into()),
        (None, Some(n)) => Ok(Limits::nodes(n)),
        (ms, None) => Ok(Limits::movetime(ms.unwrap_or(1000))),
    }
}

/// Reviews every move after the opening; `progress(k, n)` is called before
/// the k-th of n moves is looked at.
pub fn analyse(
    game: &ReplayGame,
    settings: &Settings,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Vec<MoveReview>, String> {
    let mut session = game.start_session()?;
    for warning in session.prepare(&settings.options.engine) {
        eprintln!("analyse: {warning}");
    }
    for (ply, mv) in game.opening.iter().enumerate() {
        session
            .play(mv)
            .map_err(|e| format!("ply {} (opening): {e}", ply + 1))?;
    }
    let total = game.moves.len();
    let mut reviews = Vec::with_capacity(total);
    let mut before = None;
    for (k, note) in game.moves.iter().enumerate() {
        let ply = game.opening.len() + k + 1;
        progress(k + 1, total);
        if before.is_none() {
            before = search(session.as_mut(), settings, &settings.limits);
        }
        let Some((best, score)) = before.take() else {
            return Err(format!(
                "ply {ply}: the game is over before the move {}",
                note.text
            ));
        };
        let mover = session.side_to_move();
        let same = canonical(session.as_ref(), &note.text).as_deref() == Some(best.as_str());
        let base = session.moves_played();
        let mut budget = settings.limits.clone();
        let mut looks = 0;
        let (loss, mark, after, ends) = loop {
            let scored = score_moves(
                session.as_mut(),
                (game.start.as_deref(), &base),
                (&best, &note.text, same),
                mover,
                (settings, &budget),
            )
            .map_err(|e| format!("ply {ply}: {e}"))?;
            before = scored.next;
            let (loss, mark) = match scored.best {
                None => (0, None),
                Some(value) => judge(score, value, scored.played, settings.threshold),
            };
            looks += 1;
            // Before a move is called a mistake both moves are looked at
            // again, longer: search noise and horizons make false alarms.
            if mark.is_none() || scored.ends || looks == LOOKS {
                break (loss, mark, scored.played, scored.ends);
            }
            budget = longer(&budget);
            let base: Vec<&str> = base.iter().map(String::as_str).collect();
            session
                .set_position(game.start.as_deref(), &base)
                .map_err(|e| format!("ply {ply}: {e}"))?;
        };
        reviews.push(MoveReview {
            ply,
            mover,
            played: note.text.clone(),
            before: score,
            best,
            after,
            ends,
            loss,
            mark,
        });
    }
    Ok(reviews)
}

/// A move's text as the session writes it (`None` when illegal).
fn canonical(session: &dyn Session, mv: &str) -> Option<String> {
    let mut copy = session.snapshot();
    copy.play(mv).ok()
}

/// How often a move about to be marked is searched (each time with
/// [`LONGER`] times the budget of the last).
const LOOKS: usize = 2;
const LONGER: u64 = 4;

fn longer(limits: &Limits) -> Limits {
    Limits {
        movetime: limits.movetime.map(|ms| ms.saturating_mul(LONGER)),
        nodes: limits.nodes.map(|n| n.saturating_mul(LONGER)),
        ..limits.clone()
    }
}

/// The scores of the engine's move (unless it was played) and of the
/// played move, each by a search after it.
struct Scored {
    best: Option<Score>,
    played: Score,
    /// The played move ended the game.
    ends: bool,
    /// The engine's move and score after the played move.
    next: Option<Choice>,
}

/// Scores the engine's move `best` (unless `same`) and the played move
/// from the position `start` + `base`, leaving the session after the
/// played move.
fn score_moves(
    session: &mut dyn Session,
    (start, base): (Option<&str>, &[String]),
    (best, played, same): (&str, &str, bool),
    mover: Seat,
    (settings, limits): (&Settings, &Limits),
) -> Result<Scored, String> {
    let base: Vec<&str> = base.iter().map(String::as_str).collect();
    // The best move is judged as the played one is, by a search of the
    // position after it: scores of searches from different sides of the
    // move (or of different depths) are not comparable.
    let best_value = if same {
        None
    } else {
        let (value, _, _) = after_move(session, best, mover, settings, limits)
            .map_err(|e| format!("the engine's move {best}: {e}"))?;
        session.set_position(start, &base)?;
        Some(value)
    };
    let (after, ends, next) = after_move(session, played, mover, settings, limits)?;
    Ok(Scored {
        best: best_value,
        played: after,
        ends,
        next,
    })
}

/// Plays `mv` and scores it for `mover`: by the result when the game ends,
/// else by a search of the position after it (whose best move and score
/// are returned too). Whether the game ended.
fn after_move(
    session: &mut dyn Session,
    mv: &str,
    mover: Seat,
    settings: &Settings,
    limits: &Limits,
) -> Result<(Score, bool, Option<Choice>), String> {
    session.play(mv)?;
    Ok(match session.outcome() {
        Some(outcome) => (result_score(outcome, mover), true, None),
        None => {
            let next = search(session, settings, limits);
            let score = next.as_ref().map_or(Score::Cp(0), |(_, s)| negate(*s));
            (score, false, next)
        }
    })
}

/// The engine's best move and score in the session's position; `None`
/// when the game is over.
fn search(session: &mut dyn Session, settings: &Settings, limits: &Limits) -> Option<Choice> {
    let stop = AtomicBool::new(false);
    let mut quiet = |_: &crate::search::Report<String>| {};
    let run = SearchRun {
        start: Instant::now(),
        stop: &stop,
        progress: &mut quiet,
    };
    let result = session.search(&settings.options.search, limits, run)?;
    Some((result.best, result.report.score))
}

fn negate(score: Score) -> Score {
    match score {
        Score::Cp(cp) => Score::Cp(-cp),
        Score::Mate(n) => Score::Mate(-n),
    }
}

/// A finished game's result as the mover's score for the last move.
fn result_score(outcome: Outcome, mover: Seat) -> Score {
    match outcome {
        Outcome::Win(seat) if seat == mover => Score::Mate(1),
        Outcome::Win(_) => Score::Mate(-1),
        Outcome::Draw => Score::Cp(0),
    }
}

/// A score on the capped centipawn scale.
fn capped(score: Score) -> i32 {
    match score {
        Score::Cp(cp) => cp.clamp(-SCORE_CAP, SCORE_CAP),
        Score::Mate(n) if n > 0 => SCORE_CAP,
        Score::Mate(_) => -SCORE_CAP,
    }
}

fn is_win(score: Score) -> bool {
    matches!(score, Score::Mate(n) if n > 0)
}

/// The loss of a move other than the engine's choice, and its mark: the
/// best move's value minus the played move's (both searched after the
/// move; no less than 0), `?` past the threshold, `??` past three times it
/// or when a proven win (by either search of the best move) became
/// anything else.
pub fn judge(before: Score, best: Score, played: Score, threshold: i32) -> (i32, Option<Mark>) {
    let loss = (capped(best) - capped(played)).max(0);
    let thrown = (is_win(before) || is_win(best)) && !is_win(played);
    let symbol = if thrown || loss > threshold.saturating_mul(BLUNDER_FACTOR) {
        "??"
    } else if loss > threshold {
        "?"
    } else {
        return (loss, None);
    };
    let comment = if thrown {
        format!(
            "the proven win is gone: {} after it",
            describe_score(played)
        )
    } else {
        format!("loses {loss}")
    };
    (loss, Some(Mark { symbol, comment }))
}

/// The game's moves with the analysis's scores, best moves and marks.
pub fn annotate(game: &mut ReplayGame, reviews: &[MoveReview]) {
    for (note, review) in game.moves.iter_mut().zip(reviews) {
        note.score = Some(review.before);
        note.best = Some(review.best.clone());
        note.mark = review.mark.clone();
    }
}

fn tokens(reviews: &[MoveReview], token: impl Fn(&MoveReview) -> String) -> String {
    reviews.iter().map(token).collect::<Vec<_>>().join(" ")
}

fn describe(config: &GameConfig) -> String {
    crate::registry::create(config)
        .map(|s| s.describe())
        .unwrap_or_else(|_| config.game.clone())
}

fn limits_text(limits: &Limits) -> String {
    match (limits.movetime, limits.nodes) {
        (_, Some(nodes)) => format!("{nodes} nodes per position"),
        (Some(ms), None) => format!("movetime {ms} ms per position"),
        (None, None) => "no limit".to_string(),
    }
}

fn heading(game: &ReplayGame, settings: &Settings) -> String {
    format!(
        "{}, {}; {}; scores from the mover's side; ? loses more than {}, ?? more than {} \
         or a proven win",
        game.title,
        describe(&game.config),
        limits_text(&settings.limits),
        settings.threshold,
        settings.threshold.saturating_mul(BLUNDER_FACTOR)
    )
}

/// A score for the table; a move that ended the game says how.
fn after_text(review: &MoveReview) -> String {
    if !review.ends {
        return describe_score(review.after);
    }
    match review.after {
        Score::Mate(n) if n > 0 => "wins".to_string(),
        Score::Mate(_) => "loses".to_string(),
        Score::Cp(_) => "draws".to_string(),
    }
}

/// One row per move: ply, mover, move, score before, best move, score
/// after, loss, mark.
pub fn table(reviews: &[MoveReview]) -> String {
    let header = [
        "ply", "mover", "move", "before", "best", "after", "loss", "",
    ];
    let mut rows: Vec<[String; 8]> = vec![header.map(str::to_string)];
    for r in reviews {
        rows.push([
            r.ply.to_string(),
            r.mover.name().to_string(),
            r.played.clone(),
            describe_score(r.before),
            r.best.clone(),
            after_text(r),
            r.loss.to_string(),
            r.mark.as_ref().map_or("", |m| m.symbol).to_string(),
        ]);
    }
    let mut widths = [0; 8];
    for row in &rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let mut text = String::new();
    for row in &rows {
        let mut line = String::new();
        for (i, cell) in row.iter().enumerate() {
            // Numbers to the right, words to the left.
            let right = matches!(i, 0 | 3 | 5 | 6);
            let cell = if right {
                format!("{cell:>w$}", w = widths[i])
            } else {
                format!("{cell:<w$}", w = widths[i])
            };
            line.push_str(&cell);
            line.push_str("  ");
        }
        text.push_str(line.trim_end());
        text.push('\n');
    }
    text
}

/// Per player: moves, mistakes, blunders and the average loss.
pub fn summary(game: &ReplayGame, reviews: &[MoveReview]) -> String {
    let mut text = String::new();
    for seat in [Seat::P1, Seat::P2] {
        let own: Vec<&MoveReview> = reviews.iter().filter(|r| r.mover == seat).collect();
        let count = |symbol: &str| {
            own.iter()
                .filter(|r| r.mark.as_ref().is_some_and(|m| m.symbol == symbol))
                .count()
        };
        let total: i64 = own.iter().map(|r| i64::from(r.loss)).sum();
        let average = if own.is_empty() {
            0
        } else {
            total / own.len() as i64
        };
        text.push_str(&format!(
            "{} ({}): {} moves, mistakes (?) {}, blunders (??) {}, average loss {average}\n",
            seat.name(),
            game.players[seat.index()],
            own.len(),
            count("?"),
            count("??"),
        ));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn losses_and_marks() {
        let cp = Score::Cp;
        assert_eq!(judge(cp(0), cp(50), cp(-30), 100), (80, None));
        let (loss, mark) = judge(cp(0), cp(50), cp(-100), 100);
        assert_eq!((loss, mark.unwrap().symbol), (150, "?"));
        let (loss, mark) = judge(cp(0), cp(50), cp(-300), 100);
        assert_eq!((loss, mark.unwrap().symbol), (350, "??"));
        // A move better than the engine's loses nothing.
        assert_eq!(judge(cp(0), cp(50), cp(90), 100), (0, None));
        // A proven win given away is a blunder whatever the numbers say.
        let (_, mark) = judge(Score::Mate(5), cp(900), cp(950), 2000);
        assert_eq!(mark.unwrap().symbol, "??");
        let (_, mark) = judge(cp(0), Score::Mate(5), cp(950), 2000);
        assert_eq!(mark.unwrap().symbol, "??");
        assert_eq!(
            judge(Score::Mate(5), Score::Mate(5), Score::Mate(9), 100),
            (0, None)
        );
        // Scores beyond the cap count as the cap.
        assert_eq!(judge(cp(0), cp(4000), cp(1500), 100), (0, None));
    }

    #[test]
    fn budgets() {
        assert_eq!(limits(None, None).unwrap().movetime, Some(1000));
        assert_eq!(limits(None, Some(5)).unwrap().nodes, Some(5));
        assert!(limits(Some(0), None).is_err());
        assert!(limits(None, Some(0)).is_err());
        assert!(limits(Some(5), Some(5)).is_err());
    }
}

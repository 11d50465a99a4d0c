//! What a person sees: the live progress line (stderr), the summary
//! (stdout) of a match or of merged records, and the record lines.

use super::ratings::{self, NoFit, Results};
use super::referee::{GameResult, Reason};
use super::resume::Merged;
use super::schedule::{Slot, Tournament};
use super::stats::{self, Decision, Estimate, Sprt};
use super::tally::Tally;
use super::{MatchSettings, Summary, record};
use crate::games::{Outcome, Seat};
use crate::registry;
use std::fmt::Write as _;
use std::io::{IsTerminal, Write as _};

/// `hadron size=7` (the game with its parameters).
pub fn game_description(settings: &MatchSettings) -> String {
    registry::create(&settings.rules.config)
        .map(|s| s.describe())
        .unwrap_or_else(|_| settings.rules.config.game.clone())
}

/// Who plays: `A vs B`, `round robin of A, B, C`, `gauntlet of A against
/// B, C`.
fn players(settings: &MatchSettings) -> String {
    // An engine with its own time control (time odds) shows it by its name.
    let names: Vec<String> = settings
        .engines
        .iter()
        .map(|e| match e.tc {
            Some(tc) => format!("{} ({})", e.name, tc.describe()),
            None => e.name.clone(),
        })
        .collect();
    match (names.len(), settings.tournament) {
        (2, _) => format!("{} vs {}", names[0], names[1]),
        (_, Tournament::RoundRobin) => format!("round robin of {}", names.join(", ")),
        (_, Tournament::Gauntlet) => {
            format!("gauntlet of {} against {}", names[0], names[1..].join(", "))
        }
    }
}

/// `quintet match: A vs B, hadron size=7, 50 ms/move, ...` (the record
/// file's first line and the summary's title).
pub fn headline(settings: &MatchSettings) -> String {
    let schedule = settings.schedule();
    let games = if settings.engines.len() == 2 {
        format!("{} games", schedule.total())
    } else {
        format!(
            "{} games per pairing ({} in all)",
            settings.games_per_pairing,
            schedule.total()
        )
    };
    let mut line = format!(
        "quintet match: {}, {}, {}, openings {} ({}), {games}",
        players(settings),
        game_description(settings),
        settings.rules.tc.describe(),
        settings.openings_source,
        settings.openings.len(),
    );
    if !settings.shard.is_whole() {
        let _ = write!(
            line,
            ", shard {} ({} games)",
            settings.shard.describe(),
            schedule.count_of(settings.shard)
        );
    }
    line
}

/// The record of one game (see `record` for the format).
pub fn record_line(
    settings: &MatchSettings,
    names: &[String],
    slot: &Slot,
    result: &GameResult,
) -> String {
    let seated = [names[slot.p1].clone(), names[slot.p2].clone()];
    let mut fields = vec![
        ("game", (slot.index + 1).to_string()),
        ("pair", (slot.pair + 1).to_string()),
        ("p1", seated[0].clone()),
        ("p2", seated[1].clone()),
        ("opening", settings.openings[slot.opening].to_line()),
        ("result", result.outcome.ugi_word().to_string()),
    ];
    if let Outcome::Win(seat) = result.outcome {
        fields.push(("winner", seated[seat.index()].clone()));
    }
    fields.push(("reason", result.reason.name().to_string()));
    if !result.detail.is_empty() {
        fields.push(("detail", result.detail.clone()));
    }
    fields.extend([
        ("plies", result.moves.len().to_string()),
        ("p1_ms", result.time_ms[Seat::P1.index()].to_string()),
        ("p2_ms", result.time_ms[Seat::P2.index()].to_string()),
        ("moves", result.moves.join(" ")),
        ("final", result.final_text.clone()),
    ]);
    if !result.disagreements.is_empty() {
        fields.push(("disagreements", result.disagreements.join(" | ")));
    }
    record::format_line(&fields)
}

fn estimate_text(estimate: Option<Estimate>) -> String {
    estimate.map_or_else(|| "-".to_string(), |e| e.display())
}

/// Points as text: `7`, `7.5`.
fn points(p: f64) -> String {
    if p.fract() == 0.0 {
        format!("{p:.0}")
    } else {
        format!("{p:.1}")
    }
}

/// The one-line state of the match.
pub fn progress_line(settings: &MatchSettings, tally: &Tally) -> String {
    let total = settings.schedule().count_of(settings.shard);
    let names = settings.names();
    if names.len() > 2 {
        let standings: Vec<String> = (0..names.len())
            .map(|k| {
                let t = tally.of_engine(k);
                format!(
                    "{} {}/{}",
                    names[k],
                    points(t.wins as f64 + 0.5 * t.draws as f64),
                    t.games()
                )
            })
            .collect();
        return format!("[{}/{total}] {}", tally.games(), standings.join(", "));
    }
    let pairing = tally.head_to_head();
    let t = &pairing.trinomial;
    let mut line = format!(
        "[{}/{total}] {} vs {}: W-D-L {}-{}-{}  score {:.3}  Elo {}",
        tally.games(),
        names[0],
        names[1],
        t.wins,
        t.draws,
        t.losses,
        t.score(),
        estimate_text(t.estimate()),
    );
    if let Some(sprt) = &settings.sprt {
        let (lower, upper) = sprt.bounds();
        let llr = pairing.pentanomial.llr(sprt.elo0, sprt.elo1);
        let _ = write!(line, "  LLR {llr:.2} ({lower:.2}, {upper:.2})");
    }
    line
}

/// Writes to stderr, ignoring failures (a closed terminal after SIGHUP
/// must not end the wind-down).
fn to_stderr(text: &str) {
    let _ = std::io::stderr().write_all(text.as_bytes());
}

/// The live progress line: rewritten in place on a terminal, a new line
/// every few games otherwise (logs, CI).
pub struct Progress {
    terminal: bool,
    every: u64,
    shown: u64,
}

impl Progress {
    pub fn new(every: u64) -> Progress {
        Progress {
            terminal: std::io::stderr().is_terminal(),
            every: every.max(1),
            shown: 0,
        }
    }

    pub fn update(&mut self, settings: &MatchSettings, tally: &Tally) {
        let line = progress_line(settings, tally);
        if self.terminal {
            to_stderr(&format!("\r{line}\x1b[K"));
            self.shown = tally.games();
        } else if tally.games().is_multiple_of(self.every) {
            to_stderr(&format!("{line}\n"));
            self.shown = tally.games();
        }
    }

    /// Ends the live line (and shows the last state if it was not shown).
    pub fn finish(&mut self, settings: &MatchSettings, tally: &Tally) {
        if self.terminal {
            if self.shown > 0 {
                to_stderr("\n");
            }
        } else if self.shown != tally.games() {
            to_stderr(&format!("{}\n", progress_line(settings, tally)));
        }
    }
}

/// `+12.3 ± 20.1 (95%: -7.8 .. +32.4)`.
fn interval(e: Option<Estimate>) -> String {
    e.map_or_else(
        || "-".to_string(),
        |e| {
            format!(
                "{} (95%: {} .. {})",
                e.display(),
                stats::signed(e.low),
                stats::signed(e.high)
            )
        },
    )
}

/// The results of two engines: W/D/L, Elo from games and pairs, pairs.
fn two_engines(out: &mut String, names: &[String], tally: &Tally) {
    let pairing = tally.head_to_head();
    let t = &pairing.trinomial;
    let _ = writeln!(
        out,
        "{} vs {}: W-D-L {}-{}-{}, score {:.1}/{} = {:.3}",
        names[0],
        names[1],
        t.wins,
        t.draws,
        t.losses,
        t.wins as f64 + 0.5 * t.draws as f64,
        t.games(),
        t.score()
    );
    let _ = writeln!(out, "Elo (games): {}", interval(t.estimate()));
    let _ = writeln!(
        out,
        "Elo (pairs): {}",
        interval(pairing.pentanomial.estimate())
    );
    let c = pairing.pentanomial.counts;
    let _ = writeln!(
        out,
        "Pairs by points 0/0.5/1/1.5/2: {} {} {} {} {}",
        c[0], c[1], c[2], c[3], c[4]
    );
}

/// The joint ratings and the cross table of any number of engines.
fn several_engines(out: &mut String, names: &[String], tally: &Tally) {
    let n = names.len();
    let results: Results = tally
        .pairings
        .iter()
        .map(|(&key, p)| {
            let t = &p.trinomial;
            (
                key,
                (t.wins as f64 + 0.5 * t.draws as f64, t.games() as f64),
            )
        })
        .collect();
    let width = names.iter().map(|s| s.len()).max().unwrap_or(0).max(6);
    let _ = writeln!(
        out,
        "Ratings (maximum likelihood over all games: logistic Elo, a draw half a point; \
         {} = 0; 95% intervals from the Hessian):",
        names[0]
    );
    match ratings::fit(n, &results) {
        Ok(fit) => {
            let mut order: Vec<usize> = (0..n).collect();
            order.sort_by(|&a, &b| fit.elo[b].total_cmp(&fit.elo[a]));
            let _ = writeln!(
                out,
                "  {:>4}  {:<width$}  {:>7}  {:>7}  {:>5}  {:>6}",
                "rank", "engine", "Elo", "±95%", "games", "score"
            );
            for (rank, &k) in order.iter().enumerate() {
                let t = tally.of_engine(k);
                let margin = fit.margin[k].map_or("anchor".to_string(), |m| format!("{m:.1}"));
                let _ = writeln!(
                    out,
                    "  {:>4}  {:<width$}  {:>7}  {:>7}  {:>5}  {:>5.1}%",
                    rank + 1,
                    names[k],
                    stats::signed(fit.elo[k]),
                    margin,
                    t.games(),
                    100.0 * t.score()
                );
            }
        }
        Err(why) => {
            let list = |ks: &[usize]| {
                ks.iter()
                    .map(|&k| names[k].as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            let _ = writeln!(
                out,
                "  no finite ratings: {}",
                match why {
                    NoFit::Unconnected(ks) => format!("{} played none of the others", list(&ks)),
                    NoFit::Unbounded { group, every } => {
                        let rest: Vec<usize> = (0..n).filter(|k| !group.contains(k)).collect();
                        let how = if every { "every point" } else { "no point" };
                        format!("{} scored {how} against {}", list(&group), list(&rest))
                    }
                }
            );
        }
    }
    let _ = writeln!(
        out,
        "Cross table (points of the row engine against the column engine / games):"
    );
    let cell = 9;
    let mut header = format!("  {:<width$}", "");
    for name in names {
        let _ = write!(header, "  {:>cell$}", truncate(name, cell));
    }
    let _ = writeln!(out, "{}", header.trim_end());
    for (i, name) in names.iter().enumerate() {
        let mut row = format!("  {name:<width$}");
        for j in 0..n {
            let text = if i == j {
                "-".to_string()
            } else {
                let (a, b) = (i.min(j), i.max(j));
                match tally.pairings.get(&(a, b)) {
                    Some(p) => {
                        let t = &p.trinomial;
                        let mine = if i == a {
                            t.wins as f64 + 0.5 * t.draws as f64
                        } else {
                            t.losses as f64 + 0.5 * t.draws as f64
                        };
                        format!("{}/{}", points(mine), t.games())
                    }
                    None => ".".to_string(),
                }
            };
            let _ = write!(row, "  {text:>cell$}");
        }
        let _ = writeln!(out, "{row}");
    }
}

fn truncate(text: &str, width: usize) -> String {
    text.chars().take(width).collect()
}

/// What every summary shows after its title: results, seats, endings,
/// forfeits, cross-check and SPRT.
fn results_text(
    out: &mut String,
    names: &[String],
    tally: &Tally,
    cross_check: bool,
    sprt: Option<&Sprt>,
    decision: Option<Decision>,
) {
    if names.len() == 2 {
        two_engines(out, names, tally);
    } else {
        several_engines(out, names, tally);
    }
    let _ = writeln!(
        out,
        "Seats: p1 won {}, p2 won {}, draws {}",
        tally.by_seat[0], tally.by_seat[1], tally.by_seat[2]
    );
    let endings: Vec<String> = Reason::ALL
        .iter()
        .filter_map(|r| tally.by_reason.get(r).map(|n| format!("{} {n}", r.name())))
        .collect();
    let _ = writeln!(
        out,
        "Endings: {}",
        if endings.is_empty() {
            "-".to_string()
        } else {
            endings.join(", ")
        }
    );
    if !tally.forfeits.is_empty() {
        let forfeits: Vec<String> = tally
            .forfeits
            .iter()
            .map(|((name, reason), n)| format!("{name} {} {n}", reason.name()))
            .collect();
        let _ = writeln!(out, "Forfeits: {}", forfeits.join(", "));
    }
    if cross_check || tally.disagreeing_games > 0 {
        let _ = writeln!(
            out,
            "Cross-check: {} games with disagreements",
            tally.disagreeing_games
        );
    }
    if let Some(sprt) = sprt
        && names.len() == 2
    {
        let pentanomial = tally.head_to_head().pentanomial;
        let (lower, upper) = sprt.bounds();
        let llr = pentanomial.llr(sprt.elo0, sprt.elo1);
        let decision = decision.or_else(|| sprt.decide_pairs(&pentanomial));
        let verdict = match decision {
            Some(Decision::H1) => {
                "H1 accepted (the results favour elo1 over elo0: A is stronger)".to_string()
            }
            Some(Decision::H0) => {
                "H0 accepted (the results favour elo0 over elo1: no gain shown)".to_string()
            }
            None if pentanomial.pairs() < stats::MIN_PAIRS_TO_DECIDE => format!(
                "undecided (no decision before {} pairs)",
                stats::MIN_PAIRS_TO_DECIDE
            ),
            None => "undecided".to_string(),
        };
        let _ = writeln!(
            out,
            "SPRT elo0={} elo1={} alpha={} beta={}: LLR {llr:.2} ({lower:.2}, {upper:.2}) {verdict}",
            sprt.elo0, sprt.elo1, sprt.alpha, sprt.beta
        );
    }
}

/// The summary printed at the end of a match.
pub fn summary_text(summary: &Summary) -> String {
    let settings = &summary.settings;
    let tally = &summary.tally;
    let names = settings.names();
    let mut out = String::new();
    let _ = writeln!(out, "{}", headline(settings));
    for (k, spec) in settings.engines.iter().enumerate() {
        let label = if settings.engines.len() == 2 {
            ["A", "B"][k].to_string()
        } else {
            (k + 1).to_string()
        };
        let _ = writeln!(
            out,
            "  engine {label}: {} = {} ({})",
            spec.name,
            summary.id_names[k].as_deref().unwrap_or("?"),
            spec.command_line()
        );
    }
    let resumed = if summary.resumed > 0 {
        format!("; {} of them were in the record already", summary.resumed)
    } else {
        String::new()
    };
    let _ = writeln!(
        out,
        "Games: {} finished ({} complete pairs) in {:.1} s{resumed}",
        tally.games(),
        tally.complete_pairs(),
        summary.elapsed.as_secs_f64()
    );
    results_text(
        &mut out,
        &names,
        tally,
        settings.rules.cross_check,
        settings.sprt.as_ref(),
        summary.decision,
    );
    if let Some(stop) = summary.interrupted {
        let _ = writeln!(
            out,
            "Interrupted by {}: {} running games abandoned (not counted)",
            stop.name(),
            summary.abandoned
        );
    } else if summary.abandoned > 0 {
        let _ = writeln!(
            out,
            "Stopped early: {} running games abandoned (not counted)",
            summary.abandoned
        );
    }
    out
}

/// The summary of merged records (`quintet ratings`): the same results
/// as a match's summary.
pub fn merged_text(merged: &Merged, sprt: Option<&Sprt>) -> String {
    let tally = &merged.tally;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "quintet ratings: {} record files of {} {}",
        merged.files,
        merged.matches,
        if merged.matches == 1 {
            "match"
        } else {
            "matches"
        }
    );
    if !merged.headline.is_empty() {
        let _ = writeln!(out, "  first: {}", merged.headline);
    }
    for (k, spec) in merged.specs.iter().enumerate() {
        let label = if merged.names.len() == 2 {
            ["A", "B"][k].to_string()
        } else {
            (k + 1).to_string()
        };
        let _ = writeln!(
            out,
            "  engine {label}: {} ({})",
            spec.name,
            spec.command_line()
        );
    }
    let expected = merged
        .expected
        .map_or(String::new(), |n| format!(" of {n}"));
    let _ = writeln!(
        out,
        "Games: {} finished{expected} ({} complete pairs)",
        tally.games(),
        tally.complete_pairs()
    );
    results_text(&mut out, &merged.names, tally, false, sprt, None);
    out
}

//! What a person sees: the live progress line (stderr), the summary
//! (stdout) and the record lines.

use super::referee::{GameResult, Reason};
use super::stats::{self, Decision, Estimate};
use super::tally::Tally;
use super::{MatchSettings, Summary, engine_at_p1, opening_of, opening_pair, record};
use crate::games::{Outcome, Seat};
use crate::registry;
use std::fmt::Write as _;
use std::io::IsTerminal;

/// `quintet match: A vs B, hadron size=7, 50 ms/move, ...` (the record
/// file's first line and the summary's title).
pub fn headline(settings: &MatchSettings) -> String {
    let game = registry::create(&settings.rules.config)
        .map(|s| s.describe())
        .unwrap_or_else(|_| settings.rules.config.game.clone());
    format!(
        "quintet match: {} vs {}, {game}, {}, openings {} ({}), {} games, concurrency {}",
        settings.engines[0].name,
        settings.engines[1].name,
        settings.rules.tc.describe(),
        settings.openings_source,
        settings.openings.len(),
        settings.games,
        settings.concurrency
    )
}

/// The record of game `index` (see `record` for the format).
pub fn record_line(settings: &MatchSettings, index: u64, result: &GameResult) -> String {
    let at_p1 = engine_at_p1(index);
    let names = [
        settings.engines[at_p1].name.clone(),
        settings.engines[1 - at_p1].name.clone(),
    ];
    let mut fields = vec![
        ("game", (index + 1).to_string()),
        ("pair", (opening_pair(index) + 1).to_string()),
        ("p1", names[0].clone()),
        ("p2", names[1].clone()),
        ("opening", opening_of(index, &settings.openings).to_line()),
        ("result", result.outcome.ugi_word().to_string()),
    ];
    if let Outcome::Win(seat) = result.outcome {
        fields.push(("winner", names[seat.index()].clone()));
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

/// The one-line state of the match.
pub fn progress_line(settings: &MatchSettings, tally: &Tally) -> String {
    let t = &tally.trinomial;
    let mut line = format!(
        "[{}/{}] {} vs {}: W-D-L {}-{}-{}  score {:.3}  Elo {}",
        tally.games(),
        settings.games,
        settings.engines[0].name,
        settings.engines[1].name,
        t.wins,
        t.draws,
        t.losses,
        t.score(),
        estimate_text(t.estimate()),
    );
    if let Some(sprt) = &settings.sprt {
        let (lower, upper) = sprt.bounds();
        let llr = tally.pentanomial.llr(sprt.elo0, sprt.elo1);
        let _ = write!(line, "  LLR {llr:.2} ({lower:.2}, {upper:.2})");
    }
    line
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
            eprint!("\r{line}\x1b[K");
            self.shown = tally.games();
        } else if tally.games().is_multiple_of(self.every) {
            eprintln!("{line}");
            self.shown = tally.games();
        }
    }

    /// Ends the live line (and shows the last state if it was not shown).
    pub fn finish(&mut self, settings: &MatchSettings, tally: &Tally) {
        if self.terminal {
            if self.shown > 0 {
                eprintln!();
            }
        } else if self.shown != tally.games() {
            eprintln!("{}", progress_line(settings, tally));
        }
    }
}

/// The summary printed at the end of a match.
pub fn summary_text(summary: &Summary) -> String {
    let settings = &summary.settings;
    let tally = &summary.tally;
    let t = &tally.trinomial;
    let mut out = String::new();
    let _ = writeln!(out, "{}", headline(settings));
    for (k, spec) in settings.engines.iter().enumerate() {
        let _ = writeln!(
            out,
            "  engine {}: {} = {} ({})",
            ["A", "B"][k],
            spec.name,
            summary.id_names[k].as_deref().unwrap_or("?"),
            spec.command_line()
        );
    }
    let _ = writeln!(
        out,
        "Games: {} finished ({} complete pairs) in {:.1} s",
        tally.games(),
        tally.pentanomial.pairs(),
        summary.elapsed.as_secs_f64()
    );
    let _ = writeln!(
        out,
        "{} vs {}: W-D-L {}-{}-{}, score {:.1}/{} = {:.3}",
        settings.engines[0].name,
        settings.engines[1].name,
        t.wins,
        t.draws,
        t.losses,
        t.wins as f64 + 0.5 * t.draws as f64,
        tally.games(),
        t.score()
    );
    let interval = |e: Option<Estimate>| {
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
    };
    let _ = writeln!(out, "Elo (games): {}", interval(t.estimate()));
    let _ = writeln!(
        out,
        "Elo (pairs): {}",
        interval(tally.pentanomial.estimate())
    );
    let c = tally.pentanomial.counts;
    let _ = writeln!(
        out,
        "Pairs by points 0/0.5/1/1.5/2: {} {} {} {} {}",
        c[0], c[1], c[2], c[3], c[4]
    );
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
    if settings.rules.cross_check {
        let _ = writeln!(
            out,
            "Cross-check: {} games with disagreements",
            tally.disagreeing_games
        );
    }
    if let Some(sprt) = &settings.sprt {
        let (lower, upper) = sprt.bounds();
        let llr = tally.pentanomial.llr(sprt.elo0, sprt.elo1);
        let verdict = match summary.decision {
            Some(Decision::H1) => {
                "H1 accepted (the results favour elo1 over elo0: A is stronger)".to_string()
            }
            Some(Decision::H0) => {
                "H0 accepted (the results favour elo0 over elo1: no gain shown)".to_string()
            }
            None if tally.pentanomial.pairs() < stats::MIN_PAIRS_TO_DECIDE => format!(
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
    if summary.interrupted {
        let _ = writeln!(
            out,
            "Interrupted by Ctrl-C: {} running games abandoned (not counted)",
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

//! Protocol text out: `info` lines, `option` lines, and input made safe to
//! echo. The only place that writes UGI text for search results.

use super::options::{Kind, OptionSpec};
use crate::search::{Report, Score};

/// How `info` lines are written (from the options).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct InfoStyle {
    /// Add `wdl <win> <draw> <loss>` in permille after the score.
    pub wdl: bool,
}

/// The `info` lines of a report: one, or with alternatives (MultiPV) one
/// per root move, `multipv 1` being the best.
pub fn info_lines(report: &Report<String>, style: InfoStyle) -> Vec<String> {
    if report.alternatives.is_empty() {
        return vec![info_line(report, None, report.score, &report.pv, style)];
    }
    let mut lines = vec![info_line(report, Some(1), report.score, &report.pv, style)];
    for (k, v) in report.alternatives.iter().enumerate() {
        lines.push(info_line(report, Some(k + 2), v.score, &v.pv, style));
    }
    lines
}

/// The single `info` line of a report (its best line).
pub fn info(report: &Report<String>) -> String {
    info_line(report, None, report.score, &report.pv, InfoStyle::default())
}

fn info_line(
    report: &Report<String>,
    multipv: Option<usize>,
    score: Score,
    pv: &[String],
    style: InfoStyle,
) -> String {
    let mut line = format!("info depth {} seldepth {}", report.depth, report.seldepth);
    if let Some(k) = multipv {
        line.push_str(&format!(" multipv {k}"));
    }
    line.push_str(&format!(" score {}", score_text(score)));
    if style.wdl {
        let [w, d, l] = wdl(score);
        line.push_str(&format!(" wdl {w} {d} {l}"));
    }
    line.push_str(&format!(
        " nodes {} nps {} time {}",
        report.nodes,
        report.nps(),
        report.time_ms
    ));
    if let Some(full) = report.hashfull {
        line.push_str(&format!(" hashfull {full}"));
    }
    if !pv.is_empty() {
        line.push_str(" pv ");
        line.push_str(&pv.join(" "));
    }
    line
}

fn score_text(score: Score) -> String {
    match score {
        Score::Cp(cp) => format!("cp {cp}"),
        Score::Mate(n) => format!("mate {n}"),
    }
}

/// Win, draw and loss chances in permille for the side to move: a proven
/// result is certain; otherwise the score's logistic win chance (the cp
/// scale is 400 * log10(p / (1 - p))), with no share of draws modelled.
pub fn wdl(score: Score) -> [u32; 3] {
    match score {
        Score::Mate(n) if n > 0 => [1000, 0, 0],
        Score::Mate(_) => [0, 0, 1000],
        Score::Cp(cp) => {
            let p = 1.0 / (1.0 + 10f64.powf(-cp as f64 / 400.0));
            let win = (p * 1000.0).round() as u32;
            [win, 0, 1000 - win]
        }
    }
}

/// One `info string movestats ...` line per root move (MCTS, with the
/// final report when `MoveStats` is on), best first.
pub fn move_stats(report: &Report<String>) -> Vec<String> {
    report
        .root_moves
        .iter()
        .map(|r| {
            let mut line = format!(
                "info string movestats {} visits {} winrate {:.3} prior {:.3}",
                r.mv, r.visits, r.win_rate, r.prior
            );
            if let Some(score) = r.proven {
                line.push_str(&format!(" proven {}", score_text(score)));
            }
            line
        })
        .collect()
}

/// The `option` line announced for an option after `ugi`/`uci`.
pub fn option(spec: &OptionSpec) -> String {
    let name = spec.name;
    match spec.kind {
        Kind::Spin { default, min, max } => {
            format!("option name {name} type spin default {default} min {min} max {max}")
        }
        Kind::Combo { default, values } => {
            let vars: Vec<String> = values().iter().map(|v| format!("var {v}")).collect();
            format!(
                "option name {name} type combo default {default} {}",
                vars.join(" ")
            )
        }
        Kind::Check { default } => format!("option name {name} type check default {default}"),
        Kind::Text { default } => {
            let default = if default.is_empty() {
                "<empty>"
            } else {
                default
            };
            format!("option name {name} type string default {default}")
        }
    }
}

/// The searcher table of protocol.md, in Markdown (`quintet options`).
pub fn searcher_table() -> String {
    use crate::search::searcher::{AUTO, SEARCHERS};
    let mut table = String::from("| `Search` value | searcher |\n|---|---|\n");
    for s in std::iter::once(&AUTO).chain(SEARCHERS) {
        table.push_str(&format!("| `{}` | {} |\n", s.name, s.help));
    }
    table
}

/// The option table of protocol.md, in Markdown (`quintet options`).
pub fn option_table() -> String {
    let mut table = String::from(
        "| option | type | default | range or values | what it sets |\n|---|---|---|---|---|\n",
    );
    for spec in super::options::OPTIONS {
        let (kind, range) = match spec.kind {
            Kind::Spin { min, max, .. } => ("spin", format!("{min}..{max}")),
            Kind::Combo { values, .. } => ("combo", values().join(", ")),
            Kind::Check { .. } => ("check", "true, false".to_string()),
            Kind::Text { .. } => ("string", "any text".to_string()),
        };
        table.push_str(&format!(
            "| `{}` | {kind} | {} | {range} | {} |\n",
            spec.name,
            spec.default_text(),
            spec.help
        ));
    }
    table
}

/// Longest piece of input echoed back in a reply.
const ECHO_LIMIT: usize = 200;

/// Text from outside made safe for one protocol line: control characters
/// (a `\r` could end the line early for a client that splits on it) are
/// written as `\xNN`, and long text is cut with a note of its length.
pub fn safe(text: &str) -> String {
    let trimmed = text.trim_end_matches(['\n', '\r']);
    let mut out = String::new();
    for (count, c) in trimmed.chars().enumerate() {
        if count == ECHO_LIMIT {
            out.push_str(&format!("... ({} characters)", trimmed.chars().count()));
            break;
        }
        // Line and paragraph separators end lines for some clients too.
        if c.is_control() || matches!(c, '\u{2028}' | '\u{2029}') {
            if (c as u32) < 0x100 {
                out.push_str(&format!("\\x{:02x}", c as u32));
            } else {
                out.push_str(&c.escape_unicode().to_string());
            }
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn echoed_input_is_one_short_clean_line() {
        assert_eq!(safe("foo\rbestmove a1\n"), "foo\\x0dbestmove a1");
        let long = "x".repeat(1 << 20);
        let echoed = safe(&long);
        assert!(echoed.len() < 300, "{}", echoed.len());
        assert!(echoed.ends_with("(1048576 characters)"));
        assert!(!safe("a\u{0}b\tc").chars().any(|c| c.is_control()));
        assert_eq!(safe("a\u{2028}b"), "a\\u{2028}b");
    }

    #[test]
    fn multipv_lines_are_numbered_best_first() {
        let mut report = sample();
        report.alternatives = vec![crate::search::Variation {
            score: Score::Cp(-30),
            pv: vec!["c3".to_string()],
        }];
        let lines = info_lines(&report, InfoStyle { wdl: true });
        assert_eq!(lines.len(), 2);
        assert!(
            lines[0].contains(" multipv 1 score mate -2 wdl 0 0 1000 "),
            "{}",
            lines[0]
        );
        assert!(
            lines[1].contains(" multipv 2 score cp -30 wdl 457 0 543 "),
            "{}",
            lines[1]
        );
        assert!(lines[1].ends_with(" pv c3"));
    }

    fn sample() -> Report<String> {
        Report {
            depth: 3,
            seldepth: 7,
            score: Score::Mate(-2),
            nodes: 5000,
            time_ms: 250,
            pv: vec!["a1".to_string(), "b2".to_string()],
            hashfull: Some(12),
            alternatives: Vec::new(),
            root_moves: Vec::new(),
        }
    }

    #[test]
    fn info_lines_carry_every_field() {
        let report = Report {
            depth: 3,
            seldepth: 7,
            score: Score::Mate(-2),
            nodes: 5000,
            time_ms: 250,
            pv: vec!["a1".to_string(), "b2".to_string()],
            hashfull: Some(12),
            alternatives: Vec::new(),
            root_moves: Vec::new(),
        };
        assert_eq!(
            info(&report),
            "info depth 3 seldepth 7 score mate -2 nodes 5000 nps 20000 time 250 hashfull 12 pv a1 b2"
        );
    }
}

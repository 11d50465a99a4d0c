//! Protocol text out: `info` lines, `option` lines, and input made safe to
//! echo. The only place that writes UGI text for search results.

use super::options::{Kind, OptionSpec};
use crate::search::{Report, Score};

/// The `info` line of a report.
pub fn info(report: &Report<String>) -> String {
    let score = match report.score {
        Score::Cp(cp) => format!("cp {cp}"),
        Score::Mate(n) => format!("mate {n}"),
    };
    let mut line = format!(
        "info depth {} seldepth {} score {score} nodes {} nps {} time {}",
        report.depth,
        report.seldepth,
        report.nodes,
        report.nps(),
        report.time_ms
    );
    if let Some(full) = report.hashfull {
        line.push_str(&format!(" hashfull {full}"));
    }
    if !report.pv.is_empty() {
        line.push_str(" pv ");
        line.push_str(&report.pv.join(" "));
    }
    line
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
        if c.is_control() {
            out.push_str(&format!("\\x{:02x}", c as u32 & 0xff));
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
        };
        assert_eq!(
            info(&report),
            "info depth 3 seldepth 7 score mate -2 nodes 5000 nps 20000 time 250 hashfull 12 pv a1 b2"
        );
    }
}

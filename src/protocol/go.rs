//! Parsing the arguments of `go` into search limits.

use crate::search::Limits;

/// The limits of `go <args>`, plus warnings about arguments that were
/// ignored. Bare `go` searches until `stop`, as in UCI.
pub fn parse(args: &[&str]) -> (Limits, Vec<String>) {
    let mut limits = Limits::default();
    let mut warnings = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let word = args[i].to_ascii_lowercase();
        if word == "infinite" {
            limits.infinite = true;
            i += 1;
            continue;
        }
        let known = [
            "p1time",
            "wtime",
            "p2time",
            "btime",
            "p1inc",
            "winc",
            "p2inc",
            "binc",
            "movestogo",
            "movetime",
            "depth",
            "nodes",
        ];
        if !known.contains(&word.as_str()) {
            warnings.push(format!("unknown go argument '{}' ignored", args[i]));
            i += 1;
            continue;
        }
        let Some(raw) = args.get(i + 1) else {
            warnings.push(format!("go {word} needs a value"));
            break;
        };
        i += 2;
        // Clocks may run negative in some managers: treat as zero left.
        let value = match raw.parse::<i64>() {
            Ok(v) => v.max(0) as u64,
            Err(_) => {
                warnings.push(format!("go {word} '{raw}' is not a number; ignored"));
                continue;
            }
        };
        match word.as_str() {
            "p1time" | "wtime" => limits.time[0] = Some(value),
            "p2time" | "btime" => limits.time[1] = Some(value),
            "p1inc" | "winc" => limits.inc[0] = value,
            "p2inc" | "binc" => limits.inc[1] = value,
            "movestogo" => limits.movestogo = Some(value.clamp(1, u32::MAX as u64) as u32),
            "movetime" => limits.movetime = Some(value),
            "depth" => limits.depth = Some(value.clamp(1, 1000) as u32),
            "nodes" => limits.nodes = Some(value.max(1)),
            _ => unreachable!("checked against the known list"),
        }
    }
    if !limits.is_bounded() {
        limits.infinite = true;
    }
    (limits, warnings)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clocks_and_aliases() {
        let (l, w) = parse(&[
            "p1time", "1000", "btime", "2000", "winc", "10", "p2inc", "20",
        ]);
        assert!(w.is_empty());
        assert_eq!(l.time, [Some(1000), Some(2000)]);
        assert_eq!(l.inc, [10, 20]);
        assert!(!l.infinite);
    }

    #[test]
    fn bad_arguments_warn_and_bare_go_is_infinite() {
        let (l, w) = parse(&["movetime", "abc", "bogus"]);
        assert_eq!(w.len(), 2);
        assert!(l.infinite);
        let (l, _) = parse(&[]);
        assert!(l.infinite);
        let (l, w) = parse(&["depth"]);
        assert_eq!(w.len(), 1);
        assert!(l.infinite);
        let (l, _) = parse(&["nodes", "500", "depth", "3"]);
        assert_eq!((l.nodes, l.depth), (Some(500), Some(3)));
    }
}

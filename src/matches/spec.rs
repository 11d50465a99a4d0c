//! What the user writes on the command line: engine specifications
//! (`name=A cmd="prog args" option.Hash=64`) and time controls.

use std::path::{Path, PathBuf};

/// Splits `text` into words as a POSIX shell does (quotes, backslash
/// escapes, `#` comments), by the `shlex` crate.
pub fn split_words(text: &str) -> Result<Vec<String>, String> {
    shlex::split(text).ok_or_else(|| format!("unbalanced quotes or a trailing \\ in: {text}"))
}

/// One word quoted for [`split_words`] (as a shell would need it).
pub fn quote_word(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_-./:=,+@%".contains(c));
    if plain {
        return word.to_string();
    }
    match shlex::try_quote(word) {
        Ok(quoted) => quoted.into_owned(),
        // Only a NUL byte cannot be quoted; no command line holds one.
        Err(_) => shlex::try_quote(&word.replace('\0', ""))
            .map_or_else(|_| String::new(), |q| q.into_owned()),
    }
}

/// The keys of an engine spec, for messages.
const KEYS: &str = "name, cmd, dir, restart, tc, movetime, nodes, depth, option.<Name>";

/// One engine of a match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    pub name: String,
    /// The program and its arguments.
    pub cmd: Vec<String>,
    /// The working directory of the engine process.
    pub dir: Option<PathBuf>,
    /// UGI options, sent in this order after the game options.
    pub options: Vec<(String, String)>,
    /// A new process for every game (`restart=on`): games then do not
    /// depend on what the process played before.
    pub restart: bool,
    /// This engine's own time control (time odds), instead of the match's.
    pub tc: Option<TimeControl>,
}

impl EngineSpec {
    /// Reads an engine specification; `each` holds the `--each` items,
    /// which the engine's own items override.
    pub fn parse(text: &str, each: &[String]) -> Result<EngineSpec, String> {
        let mut name = None;
        let mut cmd = None;
        let mut dir = None;
        let mut restart = false;
        let mut tc = None;
        let mut options: Vec<(String, String)> = Vec::new();
        let mut items = Vec::new();
        for source in each.iter().map(String::as_str).chain([text]) {
            items.extend(split_words(source)?);
        }
        for item in items {
            let Some((key, value)) = item.split_once('=') else {
                return Err(format!(
                    "engine spec '{text}': expected key=value, got '{item}' \
                     (keys: {KEYS})"
                ));
            };
            if let Some(option) = key.strip_prefix("option.") {
                if option.trim().is_empty() {
                    return Err(format!("engine spec '{text}': an option needs a name"));
                }
                // A later value of the same option (the engine's own over
                // --each) replaces the earlier one.
                options.retain(|(n, _)| !n.eq_ignore_ascii_case(option));
                options.push((option.to_string(), value.to_string()));
                continue;
            }
            match key {
                "name" => name = Some(value.to_string()),
                "cmd" => cmd = Some(split_words(value)?),
                "dir" => dir = Some(PathBuf::from(value)),
                "restart" => {
                    restart = match value {
                        "on" => true,
                        "off" => false,
                        _ => {
                            return Err(format!(
                                "engine spec '{text}': restart={value}: use restart=on or restart=off"
                            ));
                        }
                    }
                }
                "tc" | "movetime" | "nodes" | "depth" => {
                    tc = Some(
                        TimeControl::parse_key(key, value)
                            .map_err(|e| format!("engine spec '{text}': {e}"))?,
                    );
                }
                _ => {
                    return Err(format!(
                        "engine spec '{text}': unknown key '{key}' (keys: {KEYS})"
                    ));
                }
            }
        }
        let cmd = match cmd {
            Some(cmd) if !cmd.is_empty() => cmd,
            _ => return Err(format!("engine spec '{text}': cmd=<program> is missing")),
        };
        let name = name.unwrap_or_else(|| {
            Path::new(&cmd[0])
                .file_name()
                .map_or_else(|| cmd[0].clone(), |n| n.to_string_lossy().into_owned())
        });
        if name.trim().is_empty() {
            return Err(format!("engine spec '{text}': the name is empty"));
        }
        Ok(EngineSpec {
            name,
            cmd,
            dir,
            options,
            restart,
            tc,
        })
    }

    /// The spec as text that [`EngineSpec::parse`] reads back to the same
    /// spec (record headers keep it).
    pub fn to_text(&self) -> String {
        let cmd = self
            .cmd
            .iter()
            .map(|w| quote_word(w))
            .collect::<Vec<_>>()
            .join(" ");
        let mut items = vec![format!("name={}", self.name), format!("cmd={cmd}")];
        if let Some(dir) = &self.dir {
            items.push(format!("dir={}", dir.display()));
        }
        if self.restart {
            items.push("restart=on".to_string());
        }
        if let Some(tc) = self.tc {
            items.push(tc.spec_item());
        }
        for (name, value) in &self.options {
            items.push(format!("option.{name}={value}"));
        }
        items
            .iter()
            .map(|item| quote_word(item))
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// The value of a UGI option, if this spec sets it.
    pub fn option(&self, name: &str) -> Option<&str> {
        self.options
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The command line as one string, for messages.
    pub fn command_line(&self) -> String {
        self.cmd.join(" ")
    }
}

/// How long the engines may think.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum TimeControl {
    /// A fixed time per move, ms.
    MoveTime(u64),
    /// A clock per engine: starting time and increment per move, ms.
    Clock { base_ms: u64, inc_ms: u64 },
    /// A node (playout) budget per move.
    Nodes(u64),
    /// A depth limit per move.
    Depth(u32),
}

impl TimeControl {
    /// Reads a clock `T+I` in seconds (decimals allowed), or in ms with an
    /// `ms` suffix on either part: `10+0.1`, `60`, `500ms+5ms`.
    pub fn parse_clock(text: &str) -> Result<TimeControl, String> {
        let (base, inc) = text.split_once('+').unwrap_or((text, "0"));
        let ms = |part: &str| -> Result<u64, String> {
            let part = part.trim();
            let (number, scale) = match part.strip_suffix("ms") {
                Some(n) => (n, 1.0),
                None => (part.strip_suffix('s').unwrap_or(part), 1000.0),
            };
            let value: f64 = number.trim().parse().map_err(|_| {
                format!("--tc '{text}': '{part}' is not a time (use e.g. 10+0.1 or 500ms+5ms)")
            })?;
            if !value.is_finite() || value < 0.0 {
                return Err(format!("--tc '{text}': '{part}' must be a positive time"));
            }
            Ok((value * scale).round() as u64)
        };
        let (base_ms, inc_ms) = (ms(base)?, ms(inc)?);
        if base_ms == 0 {
            return Err(format!("--tc '{text}': the starting clock must be above 0"));
        }
        Ok(TimeControl::Clock { base_ms, inc_ms })
    }

    /// Reads an engine spec's time item: `tc=T+I` (as `--tc`),
    /// `movetime=MS`, `nodes=N` or `depth=D`.
    pub fn parse_key(key: &str, value: &str) -> Result<TimeControl, String> {
        let number = |what: &str| -> Result<u64, String> {
            match value.trim().parse::<u64>() {
                Ok(n) if n > 0 => Ok(n),
                _ => Err(format!(
                    "{key}={value}: expected {what}, a whole number above 0"
                )),
            }
        };
        match key {
            "tc" => TimeControl::parse_clock(value),
            "movetime" => Ok(TimeControl::MoveTime(number("milliseconds")?)),
            "nodes" => Ok(TimeControl::Nodes(number("nodes")?)),
            "depth" => {
                let d = number("a depth")?;
                u32::try_from(d)
                    .map(TimeControl::Depth)
                    .map_err(|_| format!("{key}={value}: the depth is too large"))
            }
            _ => Err(format!("'{key}' is not a time control key")),
        }
    }

    /// The engine-spec item that [`TimeControl::parse_key`] reads back.
    pub fn spec_item(&self) -> String {
        match *self {
            TimeControl::MoveTime(ms) => format!("movetime={ms}"),
            TimeControl::Clock { base_ms, inc_ms } => format!("tc={base_ms}ms+{inc_ms}ms"),
            TimeControl::Nodes(n) => format!("nodes={n}"),
            TimeControl::Depth(d) => format!("depth={d}"),
        }
    }

    pub fn describe(&self) -> String {
        match *self {
            TimeControl::MoveTime(ms) => format!("{ms} ms/move"),
            TimeControl::Clock { base_ms, inc_ms } => {
                format!("{}+{} s", base_ms as f64 / 1000.0, inc_ms as f64 / 1000.0)
            }
            TimeControl::Nodes(n) => format!("{n} nodes/move"),
            TimeControl::Depth(d) => format!("depth {d}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        split_words(text).unwrap()
    }

    #[test]
    fn words_and_quotes() {
        assert_eq!(words("  a  b "), ["a", "b"]);
        assert_eq!(words(r#"cmd="x y" 'z w' a\ b"#), ["cmd=x y", "z w", "a b"]);
        assert_eq!(words(r#""say \"hi\"" '' x"#), ["say \"hi\"", "", "x"]);
        // A `#` starts a comment only at the start of a word, as in a shell.
        assert_eq!(words("a b#c # d"), ["a", "b#c"]);
        assert!(split_words("'open").is_err());
        assert!(split_words("\"open").is_err());
        assert!(split_words("end\\").is_err());
    }

    #[test]
    fn engine_specs() {
        let each = vec!["option.Threads=1 option.Hash=16".to_string()];
        let spec = EngineSpec::parse(
            r#"name=A cmd="target/release/quintet --game hadron" option.Hash=64 "option.Move Overhead=30""#,
            &each,
        )
        .unwrap();
        assert_eq!(spec.name, "A");
        assert_eq!(spec.cmd, ["target/release/quintet", "--game", "hadron"]);
        assert_eq!(
            spec.options,
            [
                ("Threads".to_string(), "1".to_string()),
                ("Hash".to_string(), "64".to_string()),
                ("Move Overhead".to_string(), "30".to_string()),
            ]
        );
        assert_eq!(spec.option("threads"), Some("1"));
        let unnamed = EngineSpec::parse("cmd=/usr/bin/engine", &[]).unwrap();
        assert_eq!(unnamed.name, "engine");
        assert!(EngineSpec::parse("name=A", &[]).is_err());
        assert!(EngineSpec::parse("cmd=x speed=3", &[]).is_err());
        assert!(EngineSpec::parse("cmd=x loose", &[]).is_err());
        assert!(EngineSpec::parse("cmd=\"x", &[]).is_err());
        assert!(EngineSpec::parse("cmd=x restart=maybe", &[]).is_err());
    }

    #[test]
    fn specs_written_as_text_read_back_the_same() {
        let specs = [
            r#"name=A cmd="target/release/quintet --game hadron" option.Hash=64 restart=on"#,
            r#"name='my engine' cmd="'/opt/my dir/engine' --say \"hi\"" dir=/tmp "option.Move Overhead=30""#,
            "name=x cmd=x option.Book=#1 option.Empty=",
        ];
        for text in specs {
            let spec = EngineSpec::parse(text, &[]).unwrap();
            let written = spec.to_text();
            assert_eq!(
                EngineSpec::parse(&written, &[]).unwrap(),
                spec,
                "{text} -> {written}"
            );
        }
        let spec = EngineSpec::parse(specs[1], &[]).unwrap();
        assert_eq!(spec.cmd, ["/opt/my dir/engine", "--say", "hi"]);
        assert!(EngineSpec::parse(specs[0], &[]).unwrap().restart);
    }

    #[test]
    fn clocks() {
        assert_eq!(
            TimeControl::parse_clock("10+0.1"),
            Ok(TimeControl::Clock {
                base_ms: 10_000,
                inc_ms: 100
            })
        );
        assert_eq!(
            TimeControl::parse_clock("500ms+5ms"),
            Ok(TimeControl::Clock {
                base_ms: 500,
                inc_ms: 5
            })
        );
        assert_eq!(
            TimeControl::parse_clock("60"),
            Ok(TimeControl::Clock {
                base_ms: 60_000,
                inc_ms: 0
            })
        );
        assert!(TimeControl::parse_clock("ten").is_err());
        assert!(TimeControl::parse_clock("0+1").is_err());
        assert!(TimeControl::parse_clock("-1+0").is_err());
    }
}

//! The game-record file: a header, then one line per finished game of
//! `key=value` fields separated by spaces. A value with spaces, quotes,
//! `=` or `#` (or an empty one) is written in double quotes with `\"` and
//! `\\` escaped, so Python's `shlex.split` or [`parse_line`] reads a line
//! back. Lines starting with `#` are comments; the header is two of them:
//!
//! ```text
//! # quintet match: a vs b, hadron size=5, ...        (for people)
//! # settings: version=1 game=hadron size=5 ... engine2="name=b cmd=..."
//! ```
//!
//! The settings line says everything that decides which games a match
//! plays and how (not where or how fast it runs them): a resumed match
//! must have the same, and records that differ only in `shard` are parts
//! of one match.
//!
//! Every game line is written and flushed whole, so a stopped match leaves
//! complete lines; only a killed one can leave a partial last line, which
//! [`read`] reports so that a resumed match cuts it off.

use std::path::{Path, PathBuf};

/// The start of the settings line.
pub const SETTINGS: &str = "# settings: ";
/// The version of the settings line's layout.
pub const VERSION: &str = "1";

/// A value as written in a record.
pub fn quote(value: &str) -> String {
    let plain = !value.is_empty()
        && !value
            .chars()
            .any(|c| c.is_whitespace() || matches!(c, '"' | '\'' | '\\' | '=' | '#'));
    if plain {
        return value.to_string();
    }
    let mut quoted = String::with_capacity(value.len() + 2);
    quoted.push('"');
    for c in value.chars() {
        match c {
            '"' | '\\' => {
                quoted.push('\\');
                quoted.push(c);
            }
            // A record is one line, whatever the engine wrote.
            '\n' | '\r' => quoted.push(' '),
            c => quoted.push(c),
        }
    }
    quoted.push('"');
    quoted
}

/// One record line from its fields, in order.
pub fn format_line<K: AsRef<str>>(fields: &[(K, String)]) -> String {
    fields
        .iter()
        .map(|(key, value)| format!("{}={}", key.as_ref(), quote(value)))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The fields of one record line.
pub fn parse_line(line: &str) -> Result<Vec<(String, String)>, String> {
    super::spec::split_words(line)?
        .into_iter()
        .map(|item| {
            item.split_once('=')
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .ok_or_else(|| format!("not a key=value field: '{item}'"))
        })
        .collect()
}

/// Fields by key.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Fields(pub Vec<(String, String)>);

impl Fields {
    pub fn get(&self, key: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// A field that must be there.
    pub fn need(&self, key: &str) -> Result<&str, String> {
        self.get(key)
            .ok_or_else(|| format!("the field '{key}' is missing"))
    }

    /// The keys whose values differ between two field lists (either side
    /// may lack a key), leaving out `ignore`.
    pub fn differences(&self, other: &Fields, ignore: &[&str]) -> Vec<String> {
        let mut keys: Vec<&str> = self.0.iter().map(|(k, _)| k.as_str()).collect();
        for (k, _) in &other.0 {
            if !keys.contains(&k.as_str()) {
                keys.push(k);
            }
        }
        keys.into_iter()
            .filter(|k| !ignore.contains(k) && self.get(k) != other.get(k))
            .map(str::to_string)
            .collect()
    }

    /// The settings line of a header.
    pub fn settings_line(&self) -> String {
        format!("{SETTINGS}{}", format_line(&self.0))
    }
}

/// One game line of a record.
#[derive(Clone, Debug)]
pub struct GameLine {
    /// Line number in the file (1-based), for messages.
    pub line: usize,
    pub fields: Fields,
}

/// A record file as read back.
#[derive(Clone, Debug)]
pub struct RecordFile {
    pub path: PathBuf,
    /// The header's first line, without `# `.
    pub headline: Option<String>,
    /// The header's settings; None in an empty file, or in a record of
    /// quintet 0.1 (which had only the headline).
    pub settings: Option<Fields>,
    pub games: Vec<GameLine>,
    /// Bytes up to the end of the last complete line: a partial line
    /// after it (a killed run) is to be cut off before appending.
    pub complete_len: u64,
    /// Whether there is such a partial line.
    pub partial_tail: bool,
}

/// Reads a record file. A missing file reads as empty.
pub fn read(path: &Path) -> Result<RecordFile, String> {
    let text = match std::fs::read(path) {
        Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(format!("cannot read the record {}: {e}", path.display())),
    };
    let complete_len = text.rfind('\n').map_or(0, |i| i + 1);
    let mut record = RecordFile {
        path: path.to_path_buf(),
        headline: None,
        settings: None,
        games: Vec::new(),
        complete_len: complete_len as u64,
        partial_tail: complete_len < text.len(),
    };
    let at = |n: usize, e: String| format!("{}:{n}: {e}", path.display());
    for (index, line) in text[..complete_len].lines().enumerate() {
        let n = index + 1;
        if let Some(settings) = line.strip_prefix(SETTINGS) {
            if record.settings.is_some() {
                return Err(at(
                    n,
                    "a second settings line (records of two matches in one file?)".into(),
                ));
            }
            record.settings = Some(Fields(parse_line(settings).map_err(|e| at(n, e))?));
        } else if let Some(comment) = line.strip_prefix('#') {
            if record.headline.is_none() {
                record.headline = Some(comment.trim().to_string());
            }
        } else if !line.trim().is_empty() {
            // Games before any settings line: a record of quintet 0.1
            // (headline only), readable but not to be continued.
            let fields = Fields(parse_line(line).map_err(|e| at(n, e))?);
            record.games.push(GameLine { line: n, fields });
        }
    }
    Ok(record)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        let fields = [
            ("game", "3".to_string()),
            ("moves", "c3 d4".to_string()),
            ("detail", r#"said "bestmove z99" \ done"#.to_string()),
            ("winner", String::new()),
            ("opening", "fen 5/5/5/5/5 r".to_string()),
            ("note", "#1 = first".to_string()),
        ];
        let line = format_line(&fields);
        assert!(line.starts_with("game=3 moves=\"c3 d4\" "));
        let parsed = parse_line(&line).unwrap();
        assert_eq!(parsed.len(), fields.len());
        for ((k, v), (pk, pv)) in fields.iter().zip(&parsed) {
            assert_eq!((*k, v.as_str()), (pk.as_str(), pv.as_str()));
        }
    }

    #[test]
    fn files_are_read_with_their_partial_tail() {
        let dir = std::env::temp_dir().join(format!("quintet-record-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("r.txt");
        let settings = Fields(vec![
            ("version".into(), "1".into()),
            ("engines".into(), "2".into()),
        ]);
        let text = format!(
            "# quintet match: a vs b\n{}\ngame=1 result=draw\ngame=2 resu",
            settings.settings_line()
        );
        std::fs::write(&path, &text).unwrap();
        let record = read(&path).unwrap();
        assert_eq!(record.headline.as_deref(), Some("quintet match: a vs b"));
        assert_eq!(record.settings.as_ref(), Some(&settings));
        assert_eq!(record.games.len(), 1);
        assert_eq!(record.games[0].fields.get("result"), Some("draw"));
        assert!(record.partial_tail);
        assert_eq!(record.complete_len as usize, text.rfind('\n').unwrap() + 1);
        let other = Fields(vec![
            ("version".into(), "1".into()),
            ("engines".into(), "3".into()),
        ]);
        assert_eq!(settings.differences(&other, &[]), ["engines"]);
        assert!(settings.differences(&other, &["engines"]).is_empty());
        std::fs::write(&path, "# quintet match: a vs b\ngame=1 result=draw\n").unwrap();
        let old = read(&path).unwrap();
        assert!(old.settings.is_none() && old.games.len() == 1);
        std::fs::write(&path, "game=1 result=draw\ngame=2 loose\n").unwrap();
        assert!(
            read(&path)
                .unwrap_err()
                .contains(":2: not a key=value field")
        );
        assert!(read(&dir.join("missing.txt")).unwrap().settings.is_none());
        let _ = std::fs::remove_dir_all(&dir);
    }
}

//! The game-record file: one line per finished game of `key=value` fields
//! separated by spaces. A value with spaces, quotes, `=` or `#` (or an
//! empty one) is written in double quotes with `\"` and `\\` escaped, so
//! Python's `shlex.split` or [`parse_line`] reads a line back. Lines
//! starting with `#` are comments (the file starts with one describing the
//! match).

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
pub fn format_line(fields: &[(&str, String)]) -> String {
    fields
        .iter()
        .map(|(key, value)| format!("{key}={}", quote(value)))
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
        ];
        let line = format_line(&fields);
        assert!(line.starts_with("game=3 moves=\"c3 d4\" "));
        let parsed = parse_line(&line).unwrap();
        assert_eq!(parsed.len(), fields.len());
        for ((k, v), (pk, pv)) in fields.iter().zip(&parsed) {
            assert_eq!((*k, v.as_str()), (pk.as_str(), pv.as_str()));
        }
    }
}

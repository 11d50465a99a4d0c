//! The options an engine advertises in its handshake (`option name N type
//! T default D min A max B var V ...`), and the check of the values a
//! match gives it before the first game.

/// One advertised option.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Advertised {
    pub name: String,
    pub kind: Kind,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    Check,
    Spin {
        min: Option<i64>,
        max: Option<i64>,
    },
    Combo {
        values: Vec<String>,
    },
    Button,
    String,
    /// A type this runner does not know: any value passes.
    Other(String),
}

impl Advertised {
    /// Reads an `option name ...` line; None when it is not one.
    pub fn parse(line: &str) -> Option<Advertised> {
        let mut words = line.split_whitespace();
        if words.next() != Some("option") || words.next() != Some("name") {
            return None;
        }
        let mut name = Vec::new();
        let mut kind = None;
        let (mut min, mut max) = (None, None);
        let mut values = Vec::new();
        let mut field = "name";
        let mut value: Vec<&str> = Vec::new();
        let mut close = |field: &str, value: &mut Vec<&str>| {
            let text = value.join(" ");
            value.clear();
            match field {
                "name" => name.push(text),
                "type" => kind = Some(text.to_ascii_lowercase()),
                "min" => min = text.parse().ok(),
                "max" => max = text.parse().ok(),
                "var" => values.push(text),
                _ => {}
            }
        };
        for word in words {
            // The name runs to `type` (it may hold spaces); later fields
            // run to the next field word.
            let starts = if field == "name" {
                word == "type"
            } else {
                matches!(word, "type" | "default" | "min" | "max" | "var")
            };
            if starts {
                close(field, &mut value);
                field = word;
            } else {
                value.push(word);
            }
        }
        close(field, &mut value);
        let name = name.join(" ").trim().to_string();
        if name.is_empty() {
            return None;
        }
        let kind = match kind.as_deref() {
            Some("check") => Kind::Check,
            Some("spin") => Kind::Spin { min, max },
            Some("combo") => Kind::Combo { values },
            Some("button") => Kind::Button,
            Some("string") => Kind::String,
            other => Kind::Other(other.unwrap_or("").to_string()),
        };
        Some(Advertised { name, kind })
    }

    /// Why the option refuses `value`, if it does.
    pub fn refuses(&self, value: &str) -> Option<String> {
        let value = value.trim();
        match &self.kind {
            Kind::Check
                if !value.eq_ignore_ascii_case("true") && !value.eq_ignore_ascii_case("false") =>
            {
                Some(format!("{} is a check: true or false", self.name))
            }
            Kind::Spin { min, max } => {
                let range = format!(
                    "{} is a spin from {} to {}",
                    self.name,
                    min.map_or("?".to_string(), |m| m.to_string()),
                    max.map_or("?".to_string(), |m| m.to_string())
                );
                match value.parse::<i64>() {
                    Ok(n) if min.is_none_or(|m| n >= m) && max.is_none_or(|m| n <= m) => None,
                    Ok(_) => Some(range),
                    Err(_) => Some(format!("{range}; '{value}' is not a whole number")),
                }
            }
            Kind::Combo { values } if !values.iter().any(|v| v.eq_ignore_ascii_case(value)) => {
                Some(format!("{} is a combo of {}", self.name, values.join(", ")))
            }
            _ => None,
        }
    }
}

/// Checks `options` against what the engine advertised. `required`: an
/// option the engine does not advertise is an error (the user's own
/// options); otherwise it is skipped (the game options, which engines of
/// one game need not have). The error names the option as `option.N=V`.
pub fn check(
    advertised: &[Advertised],
    options: &[(String, String)],
    required: bool,
) -> Result<(), String> {
    for (name, value) in options {
        let item = format!("option.{name}={value}");
        match advertised
            .iter()
            .find(|a| a.name.eq_ignore_ascii_case(name))
        {
            Some(option) => {
                if let Some(why) = option.refuses(value) {
                    return Err(format!("refuses {item} ({why})"));
                }
            }
            None if required => {
                let names: Vec<&str> = advertised.iter().map(|a| a.name.as_str()).collect();
                return Err(format!(
                    "has no option '{name}' ({item}); it advertises: {}",
                    if names.is_empty() {
                        "no options".to_string()
                    } else {
                        names.join(", ")
                    }
                ));
            }
            None => {}
        }
    }
    Ok(())
}

/// Whether a line the engine wrote while taking its options says that it
/// refused one (`info string error: ... option ...`, or a warning).
pub fn is_refusal(line: &str) -> bool {
    let lower = line.to_ascii_lowercase();
    lower.starts_with("info string")
        && (lower.contains("error") || lower.contains("warning"))
        && lower.contains("option")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options(lines: &[&str]) -> Vec<Advertised> {
        lines.iter().filter_map(|l| Advertised::parse(l)).collect()
    }

    #[test]
    fn option_lines_are_read() {
        let parsed = options(&[
            "option name Search type combo default auto var auto var mcts var uct-plain",
            "option name Hash type spin default 64 min 1 max 65536",
            "option name Move Overhead type spin default 20 min 0 max 5000",
            "option name Ponder type check default false",
            "option name Book File type string default <empty>",
            "option name Clear Hash type button",
            "id name not an option",
        ]);
        assert_eq!(parsed.len(), 6);
        assert_eq!(
            parsed[0].kind,
            Kind::Combo {
                values: vec!["auto".into(), "mcts".into(), "uct-plain".into()]
            }
        );
        assert_eq!(
            parsed[2],
            Advertised {
                name: "Move Overhead".into(),
                kind: Kind::Spin {
                    min: Some(0),
                    max: Some(5000)
                }
            }
        );
        assert_eq!(parsed[3].kind, Kind::Check);
        assert_eq!(parsed[4].name, "Book File");
        assert_eq!(parsed[5].kind, Kind::Button);
    }

    #[test]
    fn values_are_checked_by_type() {
        let advertised = options(&[
            "option name Search type combo default auto var auto var mcts",
            "option name Hash type spin default 64 min 1 max 65536",
            "option name Ponder type check default false",
            "option name Book type string default x",
        ]);
        let set = |name: &str, value: &str| vec![(name.to_string(), value.to_string())];
        assert!(check(&advertised, &set("search", "MCTS"), true).is_ok());
        let typo = check(&advertised, &set("Search", "mtcs"), true).unwrap_err();
        assert!(
            typo.contains("option.Search=mtcs") && typo.contains("auto, mcts"),
            "{typo}"
        );
        assert!(check(&advertised, &set("Hash", "0"), true).is_err());
        assert!(check(&advertised, &set("Hash", "65536"), true).is_ok());
        assert!(check(&advertised, &set("Hash", "big"), true).is_err());
        assert!(check(&advertised, &set("Ponder", "yes"), true).is_err());
        assert!(check(&advertised, &set("ponder", "TRUE"), true).is_ok());
        assert!(check(&advertised, &set("Book", "any thing"), true).is_ok());
        let unknown = check(&advertised, &set("Serch", "mcts"), true).unwrap_err();
        assert!(
            unknown.contains("option.Serch=mcts") && unknown.contains("Search, Hash"),
            "{unknown}"
        );
        assert!(check(&advertised, &set("Size", "7"), false).is_ok());
        assert!(is_refusal(
            "info string warning: setoption Foo: unknown option 'Foo'"
        ));
        assert!(!is_refusal("info string loaded 3 books"));
    }
}

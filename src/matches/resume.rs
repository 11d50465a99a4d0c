//! Records read back: continuing a match from its record (`--record` on
//! an existing file, `--resume`), and merging the records of shards or of
//! separate runs into one result (`quintet ratings`).

use super::record::{self, Fields, GameLine, RecordFile};
use super::referee::Reason;
use super::schedule::Schedule;
use super::spec::EngineSpec;
use super::stats::Sprt;
use super::tally::{Finished, Tally};
use super::{MatchSettings, report};
use crate::games::{Outcome, Seat};
use std::collections::HashMap;
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

/// A record file as the start of a run finds it.
pub struct Earlier {
    record: RecordFile,
    /// The games it holds: game number (0-based) and result.
    pub games: Vec<(u64, Finished)>,
}

/// The outcome a record's `result` field names.
fn outcome_of(word: &str) -> Option<Outcome> {
    match word {
        "p1win" => Some(Outcome::Win(Seat::P1)),
        "p2win" => Some(Outcome::Win(Seat::P2)),
        "draw" => Some(Outcome::Draw),
        _ => None,
    }
}

/// One game line: its game number (0-based), the names at p1 and p2, and
/// the game as the tally counts it (engine indices and pair left to the
/// caller).
fn read_game(line: &GameLine) -> Result<(u64, String, String, Finished), String> {
    let f = &line.fields;
    let game: u64 = f
        .need("game")?
        .parse()
        .ok()
        .filter(|&n| n >= 1)
        .ok_or("the game number is not a number from 1")?;
    let outcome = outcome_of(f.need("result")?).ok_or("result is not p1win, p2win or draw")?;
    let reason = Reason::from_name(f.need("reason")?).ok_or("an unknown reason")?;
    let finished = Finished {
        pair: (0, (game - 1) / 2),
        p1: 0,
        p2: 0,
        outcome,
        reason,
        disagreements: f.get("disagreements").is_some_and(|d| !d.is_empty()),
    };
    Ok((
        game - 1,
        f.need("p1")?.to_string(),
        f.need("p2")?.to_string(),
        finished,
    ))
}

/// Reads the record at `path` for a run with `settings`, and checks that
/// the run may write there: an empty or missing file, or one of the same
/// match (then only with `--resume` if it holds games). The games it holds
/// must be games of this match and shard, each once.
pub fn prepare(
    path: &Path,
    settings: &MatchSettings,
    schedule: &Schedule,
) -> Result<Earlier, String> {
    let record = record::read(path)?;
    let shown = path.display();
    let Some(found) = &record.settings else {
        if !record.games.is_empty() {
            return Err(format!(
                "{shown} holds games but no '{}' line (a record of quintet 0.1): \
                 `quintet ratings` reads it, but a match cannot continue it; give another --record file",
                record::SETTINGS.trim()
            ));
        }
        return Ok(Earlier {
            record,
            games: Vec::new(),
        });
    };
    let wanted = settings.identity();
    let differences = wanted.differences(found, &[]);
    if !differences.is_empty() {
        let detail: Vec<String> = differences
            .iter()
            .map(|k| {
                format!(
                    "{k}: '{}' here, '{}' in the record",
                    wanted.get(k).unwrap_or("-"),
                    found.get(k).unwrap_or("-")
                )
            })
            .collect();
        return Err(format!(
            "{shown} holds the record of another match ({}); give another --record file",
            detail.join("; ")
        ));
    }
    if !record.games.is_empty() && !settings.resume {
        return Err(format!(
            "{shown} already holds {} games of this match: add --resume to play the rest, \
             or give another --record file",
            record.games.len()
        ));
    }
    let names = settings.names();
    let mut games: Vec<(u64, Finished)> = Vec::new();
    let mut seen: HashMap<u64, usize> = HashMap::new();
    for line in &record.games {
        let at = |e: String| format!("{shown}:{}: {e}", line.line);
        let (index, p1, p2, mut finished) = read_game(line).map_err(|e| at(e.to_string()))?;
        if index >= schedule.total() || !settings.shard.holds_pair(index / 2) {
            return Err(at(format!(
                "game {} is not a game of this match{}",
                index + 1,
                if settings.shard.is_whole() {
                    String::new()
                } else {
                    format!(" shard {}", settings.shard.describe())
                }
            )));
        }
        let slot = schedule.slot(index);
        if (p1.as_str(), p2.as_str()) != (names[slot.p1].as_str(), names[slot.p2].as_str()) {
            return Err(at(format!(
                "game {} was {p1} vs {p2}, but this match seats {} vs {}",
                index + 1,
                names[slot.p1],
                names[slot.p2]
            )));
        }
        if let Some(first) = seen.insert(index, line.line) {
            return Err(at(format!(
                "game {} was recorded before, on line {first}",
                index + 1
            )));
        }
        finished.p1 = slot.p1;
        finished.p2 = slot.p2;
        games.push((index, finished));
    }
    Ok(Earlier { record, games })
}

impl Earlier {
    /// Opens the record for appending: a partial last line left by a
    /// killed run is cut off (its game is played again), and a new file
    /// gets the header.
    pub fn open_for_append(&self, settings: &MatchSettings) -> Result<File, String> {
        let path = &self.record.path;
        let shown = path.display();
        let fail = |e: std::io::Error| format!("cannot write the record {shown}: {e}");
        let mut file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(fail)?;
        if self.record.partial_tail {
            eprintln!(
                "quintet: {shown}: cutting off an unfinished last line (its game is played again)"
            );
            file.set_len(self.record.complete_len).map_err(fail)?;
        }
        if self.record.settings.is_none() {
            let header = format!(
                "# {}\n{}\n",
                report::headline(settings),
                settings.identity().settings_line()
            );
            file.write_all(header.as_bytes()).map_err(fail)?;
        }
        Ok(file)
    }
}

/// Records merged into one result.
pub struct Merged {
    /// Every engine named in the headers, in the order first seen.
    pub names: Vec<String>,
    /// The engines' specs, by name order.
    pub specs: Vec<EngineSpec>,
    pub tally: Tally,
    /// The first record's headline.
    pub headline: String,
    /// How many distinct matches the records hold (shards of one match
    /// count once).
    pub matches: usize,
    pub files: usize,
    /// The SPRT of the match, when every record names the same one.
    pub sprt: Option<Sprt>,
    /// Games the records' matches hold in all shards (when one match).
    pub expected: Option<u64>,
}

/// Adds the games of `record` (of match `match_id`) to `games`; a game
/// number of a match already seen is an error.
fn add_games(
    record: &RecordFile,
    match_id: usize,
    names: &[String],
    seen: &mut HashMap<(usize, u64), String>,
    games: &mut Vec<Finished>,
) -> Result<(), String> {
    let shown = record.path.display();
    for line in &record.games {
        let at = |e: String| format!("{shown}:{}: {e}", line.line);
        let (index, p1, p2, mut finished) = read_game(line).map_err(|e| at(e.to_string()))?;
        let find = |name: &str| {
            names
                .iter()
                .position(|n| n == name)
                .ok_or_else(|| at(format!("'{name}' is not an engine of the header")))
        };
        finished.p1 = find(&p1)?;
        finished.p2 = find(&p2)?;
        finished.pair = (match_id, index / 2);
        let place = format!("{shown}:{}", line.line);
        if let Some(first) = seen.insert((match_id, index), place) {
            return Err(at(format!(
                "game {} of this match is also in {first} (the same shard or run twice?)",
                index + 1
            )));
        }
        games.push(finished);
    }
    Ok(())
}

/// Refuses a whole run whose games are all those of one already read
/// (the same file twice, or a copy). Two runs of the same settings may
/// share single games (node limits, short forced games) and still count.
fn same_run_twice(record: &RecordFile, runs: &mut HashMap<u64, String>) -> Result<(), String> {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    for line in &record.games {
        line.fields.0.hash(&mut hasher);
    }
    let shown = record.path.display().to_string();
    match runs.insert(hasher.finish(), shown.clone()) {
        Some(first) if !record.games.is_empty() => Err(format!(
            "{shown}: the same games as {first} (the same shard or run twice?)"
        )),
        _ => Ok(()),
    }
}

/// Merges record files: shards of one match (same settings but `shard`)
/// join into that match; whole runs (no shards), even of the same
/// settings, and records of other matches add their games as matches of
/// their own. A game recorded twice is an error.
pub fn merge(paths: &[PathBuf]) -> Result<Merged, String> {
    // Per match: its settings but the shard, and whether shards join it.
    let mut identities: Vec<(Fields, bool)> = Vec::new();
    let mut names: Vec<String> = Vec::new();
    let mut specs: Vec<EngineSpec> = Vec::new();
    let mut games: Vec<Finished> = Vec::new();
    let mut seen: HashMap<(usize, u64), String> = HashMap::new();
    // Whole runs by their games: a record file given twice, or a copy.
    let mut runs: HashMap<u64, String> = HashMap::new();
    let mut headline = None;
    let mut sprts: Vec<String> = Vec::new();
    let mut expected = None;
    for path in paths {
        let record = record::read(path)?;
        let shown = path.display().to_string();
        let Some(settings) = record.settings.as_ref() else {
            // A record of quintet 0.1: a match of its own, its engines
            // named by the games.
            if record.games.is_empty() {
                return Err(format!(
                    "{shown}: no games and no settings: not a quintet match record"
                ));
            }
            same_run_twice(&record, &mut runs)?;
            identities.push((Fields(vec![("file".into(), shown.clone())]), false));
            headline.get_or_insert_with(|| record.headline.clone().unwrap_or_default());
            sprts.push("-".into());
            for line in &record.games {
                for seat in ["p1", "p2"] {
                    let name = line.fields.get(seat).unwrap_or_default().to_string();
                    if !name.is_empty() && !names.contains(&name) {
                        specs.push(EngineSpec {
                            name: name.clone(),
                            cmd: vec!["?".into()],
                            dir: None,
                            options: Vec::new(),
                            restart: false,
                            tc: None,
                        });
                        names.push(name);
                    }
                }
            }
            add_games(&record, identities.len() - 1, &names, &mut seen, &mut games)?;
            continue;
        };
        let identity = Fields(
            settings
                .0
                .iter()
                .filter(|(k, _)| k != "shard")
                .cloned()
                .collect(),
        );
        let sharded = settings.get("shard").is_some_and(|shard| shard != "1/1");
        let joins = |(i, s): &(Fields, bool)| sharded && *s && *i == identity;
        if !sharded {
            same_run_twice(&record, &mut runs)?;
        }
        let match_id = match identities.iter().position(joins) {
            Some(id) => id,
            None => {
                identities.push((identity, sharded));
                identities.len() - 1
            }
        };
        headline.get_or_insert_with(|| record.headline.clone().unwrap_or_default());
        sprts.push(settings.get("sprt").unwrap_or("-").to_string());
        expected = settings.get("games_per_pairing").and_then(|g| {
            let g: u64 = g.parse().ok()?;
            let n: u64 = settings.get("engines")?.parse().ok()?;
            let pairings = match settings.get("tournament")? {
                "gauntlet" => n - 1,
                _ => n * (n - 1) / 2,
            };
            Some(g * pairings)
        });
        let count: usize = settings
            .need("engines")
            .ok()
            .and_then(|n| n.parse().ok())
            .ok_or_else(|| format!("{shown}: the settings line has no engine count"))?;
        for k in 1..=count {
            let text = settings
                .need(&format!("engine{k}"))
                .map_err(|e| format!("{shown}: {e}"))?;
            let spec = EngineSpec::parse(text, &[]).map_err(|e| format!("{shown}: {e}"))?;
            if !names.contains(&spec.name) {
                names.push(spec.name.clone());
                specs.push(spec);
            }
        }
        add_games(&record, match_id, &names, &mut seen, &mut games)?;
    }
    let mut tally = Tally::new(names.clone());
    for game in &games {
        tally.add(game);
    }
    let sprt = match sprts.first() {
        Some(first) if first != "-" && sprts.iter().all(|s| s == first) => Sprt::parse(first).ok(),
        _ => None,
    };
    Ok(Merged {
        names,
        specs,
        tally,
        headline: headline.unwrap_or_default(),
        matches: identities.len(),
        files: paths.len(),
        sprt,
        expected: if identities.len() == 1 {
            expected
        } else {
            None
        },
    })
}

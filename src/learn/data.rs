//! Self-play records: one line per finished game, in move text, so that
//! data outlives feature changes (features are computed again when the
//! data is fitted) and any game can be replayed by hand.
//!
//! A line is tab-separated: `game`, the game's index in its generation,
//! the result (`p1win`, `p2win`, `draw`), the start position text, the
//! plies, and `end`. Plies are space-separated `MOVE|VISITS`, where VISITS
//! is `-` for a ply that was not searched (a random opening move) or the
//! searched root moves with their visit counts, `MOVE:N` joined by `,`;
//! a third field, `MOVE|VISITS|RESULT`, is the exact value of the position
//! before the ply (`p1win`, `p2win`, `draw`) where the solver settled it.
//! A line without its `end` (a run killed mid-write) is ignored.

use crate::games::Outcome;
use crate::games::Seat;
use std::collections::BTreeMap;
use std::fs::{self, File, OpenOptions};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};

/// One ply of a recorded game.
#[derive(Clone, Debug, PartialEq)]
pub struct Ply {
    pub played: String,
    /// The searched root moves and their visits; `None` for an unsearched ply.
    pub visits: Option<Vec<(String, u32)>>,
    /// The position's value for perfect play, where a proof settled it.
    pub exact: Option<Outcome>,
}

/// One recorded game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    pub index: u64,
    pub outcome: Outcome,
    pub start: String,
    pub plies: Vec<Ply>,
}

impl GameRecord {
    pub fn to_line(&self) -> String {
        let plies: Vec<String> = self
            .plies
            .iter()
            .map(|ply| {
                let visits = match &ply.visits {
                    None => "-".to_string(),
                    Some(visits) => {
                        let list: Vec<String> =
                            visits.iter().map(|(mv, n)| format!("{mv}:{n}")).collect();
                        list.join(",")
                    }
                };
                match ply.exact {
                    None => format!("{}|{visits}", ply.played),
                    Some(exact) => format!("{}|{visits}|{}", ply.played, exact.ugi_word()),
                }
            })
            .collect();
        format!(
            "game\t{}\t{}\t{}\t{}\tend\n",
            self.index,
            self.outcome.ugi_word(),
            self.start,
            plies.join(" ")
        )
    }

    pub fn from_line(line: &str) -> Result<GameRecord, String> {
        let fields: Vec<&str> = line.trim_end_matches(['\n', '\r']).split('\t').collect();
        let ["game", index, result, start, plies, "end"] = fields[..] else {
            return Err("not a complete game line".into());
        };
        let index = index
            .parse()
            .map_err(|_| format!("bad game index '{index}'"))?;
        let outcome = parse_result(result)?;
        let plies = plies
            .split_whitespace()
            .map(parse_ply)
            .collect::<Result<Vec<_>, _>>()?;
        Ok(GameRecord {
            index,
            outcome,
            start: start.to_string(),
            plies,
        })
    }
}

fn parse_result(word: &str) -> Result<Outcome, String> {
    match word {
        "p1win" => Ok(Outcome::Win(Seat::P1)),
        "p2win" => Ok(Outcome::Win(Seat::P2)),
        "draw" => Ok(Outcome::Draw),
        _ => Err(format!("bad result '{word}'")),
    }
}

fn parse_ply(text: &str) -> Result<Ply, String> {
    let (played, rest) = text
        .split_once('|')
        .ok_or_else(|| format!("bad ply '{text}'"))?;
    let (visits, exact) = match rest.split_once('|') {
        None => (rest, None),
        Some((visits, exact)) => (visits, Some(parse_result(exact)?)),
    };
    let visits = if visits == "-" {
        None
    } else {
        let list = visits
            .split(',')
            .map(|item| {
                let (mv, n) = item
                    .rsplit_once(':')
                    .ok_or_else(|| format!("bad visit count '{item}'"))?;
                let n = n.parse().map_err(|_| format!("bad visit count '{item}'"))?;
                Ok((mv.to_string(), n))
            })
            .collect::<Result<Vec<_>, String>>()?;
        Some(list)
    };
    Ok(Ply {
        played: played.to_string(),
        visits,
        exact,
    })
}

/// The record files of one generation: a folder with one file per shard.
#[derive(Clone, Debug)]
pub struct GenerationData {
    pub folder: PathBuf,
}

impl GenerationData {
    pub fn new(folder: PathBuf) -> GenerationData {
        GenerationData { folder }
    }

    /// The file a shard (1-based `k` of `n`) appends to.
    pub fn shard_file(&self, k: u64, n: u64) -> PathBuf {
        self.folder.join(format!("games-{k}of{n}.txt"))
    }

    /// Every complete game of every shard file, by index (the first copy
    /// of a game recorded twice wins).
    pub fn load(&self) -> Result<BTreeMap<u64, GameRecord>, String> {
        let mut games = BTreeMap::new();
        let Ok(entries) = fs::read_dir(&self.folder) else {
            return Ok(games);
        };
        let mut files: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| {
                p.file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n.starts_with("games-") && n.ends_with(".txt"))
            })
            .collect();
        files.sort();
        for file in files {
            let reader = BufReader::new(
                File::open(&file).map_err(|e| format!("cannot read {}: {e}", file.display()))?,
            );
            for line in reader.lines() {
                let line = line.map_err(|e| format!("cannot read {}: {e}", file.display()))?;
                if let Ok(record) = GameRecord::from_line(&line) {
                    games.entry(record.index).or_insert(record);
                }
            }
        }
        Ok(games)
    }

    /// The indices of the games already recorded.
    pub fn done(&self) -> Result<std::collections::BTreeSet<u64>, String> {
        Ok(self.load()?.into_keys().collect())
    }
}

/// Appends whole lines to a shard file (one write each, so a killed run
/// leaves at most one partial line, which readers skip).
pub struct Appender {
    file: File,
    path: PathBuf,
}

impl Appender {
    pub fn open(path: &Path) -> Result<Appender, String> {
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent)
                .map_err(|e| format!("cannot make {}: {e}", parent.display()))?;
        }
        let mut file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        // A partial line left by a killed run must not glue onto ours.
        let length = file.metadata().map(|m| m.len()).unwrap_or(0);
        if length > 0 && !ends_with_newline(path) {
            file.write_all(b"\n")
                .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        }
        Ok(Appender {
            file,
            path: path.to_path_buf(),
        })
    }

    pub fn append(&mut self, record: &GameRecord) -> Result<(), String> {
        self.file
            .write_all(record.to_line().as_bytes())
            .and_then(|_| self.file.flush())
            .map_err(|e| format!("cannot write {}: {e}", self.path.display()))
    }
}

fn ends_with_newline(path: &Path) -> bool {
    use std::io::{Read, Seek, SeekFrom};
    let Ok(mut file) = File::open(path) else {
        return true;
    };
    let mut last = [0u8; 1];
    file.seek(SeekFrom::End(-1)).is_ok() && file.read_exact(&mut last).is_ok() && last[0] == b'\n'
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(index: u64) -> GameRecord {
        GameRecord {
            index,
            outcome: Outcome::Win(Seat::P2),
            start: "7/7/7/7/7/7/7 r".into(),
            plies: vec![
                Ply {
                    played: "a1".into(),
                    visits: None,
                    exact: None,
                },
                Ply {
                    played: "B@e5+W@f7".into(),
                    visits: Some(vec![("B@e5+W@f7".into(), 12), ("c3".into(), 0)]),
                    exact: Some(Outcome::Draw),
                },
                Ply {
                    played: "c3".into(),
                    visits: None,
                    exact: Some(Outcome::Win(Seat::P1)),
                },
            ],
        }
    }

    #[test]
    fn lines_round_trip() {
        let r = record(7);
        assert_eq!(GameRecord::from_line(&r.to_line()).unwrap(), r);
        let line = r.to_line();
        assert!(GameRecord::from_line(&line[..line.len() - 5]).is_err());
        assert!(line.contains("B@e5+W@f7:12,c3:0|draw c3|-|p1win\tend"));
        // Records written before exact values existed still read.
        let old = "game\t3\tdraw\tS\ta1|- b2|b2:3,c3:1\tend\n";
        let plies = GameRecord::from_line(old).unwrap().plies;
        assert_eq!((plies.len(), plies[1].exact), (2, None));
        assert!(GameRecord::from_line(&old.replace("b2:3,c3:1", "b2:3|p3win")).is_err());
    }

    #[test]
    fn shards_merge_and_partial_lines_are_skipped() {
        let dir = std::env::temp_dir().join(format!("quintet-data-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        let data = GenerationData::new(dir.clone());
        let mut a = Appender::open(&data.shard_file(1, 2)).unwrap();
        a.append(&record(0)).unwrap();
        a.append(&record(2)).unwrap();
        drop(a);
        // A killed writer: half a line at the end of shard 2.
        let half = record(1).to_line();
        fs::write(data.shard_file(2, 2), &half[..20]).unwrap();
        assert_eq!(
            data.done().unwrap().into_iter().collect::<Vec<_>>(),
            vec![0, 2]
        );
        let mut b = Appender::open(&data.shard_file(2, 2)).unwrap();
        b.append(&record(1)).unwrap();
        b.append(&record(3)).unwrap();
        let games = data.load().unwrap();
        assert_eq!(games.keys().copied().collect::<Vec<_>>(), vec![0, 1, 2, 3]);
        let _ = fs::remove_dir_all(&dir);
    }
}

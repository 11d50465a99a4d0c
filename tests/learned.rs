//! Learned knowledge end to end: training is deterministic, resumable and
//! shardable; weight files load through the `Weights` option, and bad or
//! mismatched files are refused with an error while the engine plays on.

#[path = "common/untimed.rs"]
mod untimed;

use quintet::games::GameConfig;
use quintet::games::hadron::Hadron;
use quintet::learn::data::GenerationData;
use quintet::learn::fit::FitSettings;
use quintet::learn::selfplay::SelfPlay;
use quintet::learn::{self, TrainSettings};
use quintet::model::Weights;
use quintet::protocol::{self, Output, options::Options};
use quintet::search::Tuning;
use std::io::{Cursor, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use untimed::untimed;

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("quintet-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn settings(dir: &Path, shard: Option<(u64, u64)>) -> TrainSettings {
    TrainSettings {
        dir: dir.to_path_buf(),
        generations: 2,
        games: 12,
        selfplay: SelfPlay {
            nodes: 60,
            opening_plies: 2,
            sample_plies: 4,
            max_plies: 200,
            seed: 5,
            tuning: Tuning::default(),
        },
        exact_nodes: 0,
        threads: 2,
        shard,
        window: 2,
        fit: FitSettings {
            epochs: 2,
            ..FitSettings::default()
        },
        out: None,
        searcher: "auto",
        hash_mb: 4,
        refit: false,
    }
}

fn hadron(size: usize) -> GameConfig {
    GameConfig::named("hadron").with_size(size)
}

#[test]
fn training_is_deterministic_resumable_and_shardable() {
    let whole = temp("train-whole");
    learn::run(&hadron(4), &settings(&whole, None)).unwrap();
    let first = Weights::read(&whole.join("weights-2.qw")).unwrap();
    assert_eq!(first.game, "hadron size=4");
    assert!(first.note.contains("generation 1"), "{}", first.note);

    // Played again from scratch elsewhere: the same games, the same weights.
    let again = temp("train-again");
    learn::run(&hadron(4), &settings(&again, None)).unwrap();
    assert_eq!(Weights::read(&again.join("weights-2.qw")).unwrap(), first);

    // Resumed: nothing is played or fitted again.
    let stamp = std::fs::metadata(whole.join("weights-2.qw"))
        .unwrap()
        .modified()
        .unwrap();
    learn::run(&hadron(4), &settings(&whole, None)).unwrap();
    let later = std::fs::metadata(whole.join("weights-2.qw"))
        .unwrap()
        .modified()
        .unwrap();
    assert_eq!(stamp, later);

    // Two shards, then a plain run: the same generation 0 and weights.
    let sharded = temp("train-shards");
    learn::run(&hadron(4), &settings(&sharded, Some((2, 2)))).unwrap();
    assert!(!sharded.join("weights-1.qw").exists(), "a shard only plays");
    learn::run(&hadron(4), &settings(&sharded, Some((1, 2)))).unwrap();
    let games = |dir: &Path| GenerationData::new(dir.join("gen-0")).load().unwrap();
    assert_eq!(games(&sharded), games(&whole));
    learn::run(&hadron(4), &settings(&sharded, None)).unwrap();
    assert_eq!(Weights::read(&sharded.join("weights-2.qw")).unwrap(), first);
    for dir in [whole, again, sharded] {
        let _ = std::fs::remove_dir_all(dir);
    }
}

#[test]
fn exact_targets_are_recorded_and_shards_agree() {
    let exact = |dir: &Path, shard| TrainSettings {
        generations: 1,
        exact_nodes: 2_000,
        ..settings(dir, shard)
    };
    let whole = temp("train-exact");
    learn::run(&hadron(5), &exact(&whole, None)).unwrap();
    let games = |dir: &Path| GenerationData::new(dir.join("gen-0")).load().unwrap();
    let recorded = games(&whole);
    let (proven, plies) = recorded.values().fold((0, 0), |(p, n), game| {
        let proven = game.plies.iter().filter(|ply| ply.exact.is_some()).count();
        // The proven plies are the game's last ones.
        assert!(
            game.plies[game.plies.len() - proven..]
                .iter()
                .all(|ply| ply.exact.is_some())
        );
        (p + proven, n + game.plies.len())
    });
    assert!(
        proven > 0 && proven < plies,
        "{proven} of {plies} plies proven"
    );
    let log = std::fs::read_to_string(whole.join("log.txt")).unwrap();
    assert!(
        log.contains(&format!("({proven} with exact values")),
        "{log}"
    );

    // Shards prove the same positions.
    let sharded = temp("train-exact-shards");
    learn::run(&hadron(5), &exact(&sharded, Some((2, 2)))).unwrap();
    learn::run(&hadron(5), &exact(&sharded, Some((1, 2)))).unwrap();
    assert_eq!(games(&sharded), recorded);

    for dir in [whole, sharded] {
        let _ = std::fs::remove_dir_all(dir);
    }
}

/// A writer the test can read back.
#[derive(Clone, Default)]
struct Shared(Arc<Mutex<Vec<u8>>>);

impl Write for Shared {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn session(input: &str) -> Vec<String> {
    let out = Shared::default();
    protocol::run(
        Cursor::new(input.to_string().into_bytes()),
        Output::new(out.clone()),
        Options::default(),
    );
    let bytes = out.0.lock().unwrap().clone();
    String::from_utf8(bytes)
        .unwrap()
        .lines()
        .map(String::from)
        .collect()
}

#[test]
fn weights_option_loads_files_and_refuses_bad_ones() {
    let dir = temp("weights-option");
    std::fs::create_dir_all(&dir).unwrap();
    let five = Weights::zeros(&Hadron::<u64>::new(5)).unwrap();
    let good = dir.join("hadron-5.qw");
    five.write(&good).unwrap();
    let seven = dir.join("hadron-7.qw");
    Weights::zeros(&Hadron::<u64>::new(7))
        .unwrap()
        .write(&seven)
        .unwrap();
    let broken = dir.join("broken.qw");
    std::fs::write(&broken, b"QWTS and then nonsense").unwrap();

    let play = |weights: &Path| {
        session(&format!(
            "setoption name Game value hadron\nsetoption name Size value 5\nsetoption name Weights value {}\nisready\nposition startpos\ngo nodes 200\nquit\n",
            weights.display()
        ))
    };
    let errors = |lines: &[String]| -> Vec<String> {
        lines
            .iter()
            .filter(|l| l.starts_with("info string error"))
            .cloned()
            .collect()
    };
    let plays = |lines: &[String]| {
        lines
            .iter()
            .any(|l| l.starts_with("bestmove ") && l != "bestmove 0000")
    };

    let lines = play(&good);
    assert!(errors(&lines).is_empty(), "{lines:?}");
    assert!(plays(&lines));

    for (file, reason) in [
        (seven.clone(), "hadron size=7"),
        (broken, "checksum"),
        (dir.join("missing.qw"), "cannot read"),
    ] {
        let lines = play(&file);
        let errors = errors(&lines);
        assert_eq!(errors.len(), 1, "{lines:?}");
        assert!(
            errors[0].contains("Weights") && errors[0].contains(reason),
            "{errors:?}"
        );
        assert!(plays(&lines), "the engine plays on with its own weights");
    }

    // The option is read again at a new game size: a 7x7 file fits 7x7.
    let lines = session(&format!(
        "setoption name Game value hadron\nsetoption name Weights value {}\nsetoption name Size value 7\nisready\nposition startpos\ngo nodes 100\nquit\n",
        seven.display()
    ));
    assert!(errors(&lines).is_empty(), "{lines:?}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn embedded_weights_fit_their_configurations() {
    use quintet::games::tritium::{Tritium, Variant};
    let configurations = quintet::model::embedded_configurations();
    assert!(
        configurations.contains(&"hadron size=7"),
        "{configurations:?}"
    );
    assert!(quintet::model::embedded(&Hadron::<u64>::new(7)).is_some());
    // Another size has none (and plays without).
    assert!(quintet::model::embedded(&Hadron::<u64>::new(6)).is_none());
    assert!(quintet::model::embedded(&Tritium::new(5, Variant::Standard)).is_some());
}

/// A 3000-node search of Tritium 5's start after `options` (setoption
/// lines): the last report's node count, score and line (not the clock),
/// and the move.
fn tritium_5_search(options: &str) -> Vec<String> {
    search_of("tritium", 5, options)
}

/// The same for `game` at `size`.
fn search_of(game: &str, size: usize, options: &str) -> Vec<String> {
    let lines = session(&format!(
        "setoption name Game value {game}\nsetoption name Size value {size}\n{options}isready\nposition startpos\ngo nodes 3000\nquit\n"
    ));
    assert!(
        !lines.iter().any(|l| l.starts_with("info string error")),
        "{lines:?}"
    );
    let last_info = lines.iter().rfind(|l| l.starts_with("info depth"));
    let bestmove = lines.iter().find(|l| l.starts_with("bestmove"));
    [last_info, bestmove]
        .into_iter()
        .flatten()
        .map(|l| untimed(l))
        .collect()
}

/// Tritium 5's learned profile is the plain one with the learned value
/// scoring its cut playouts and a lower exploration (0.25, not 0.35), and
/// nothing else: with `CutoffValue off` and `Exploration 35` the built-in
/// weights search exactly as no weights, and with `CutoffValue off` alone
/// (the profile's own exploration) or as built in, the search differs.
#[test]
fn tritium_5_uses_its_weights_only_to_score_cut_playouts() {
    let search = tritium_5_search;
    let none = search("setoption name Weights value none\n");
    let as_plain =
        search("setoption name CutoffValue value off\nsetoption name Exploration value 35\n");
    let value_off = search("setoption name CutoffValue value off\n");
    let built_in = search("");
    assert!(
        none.len() == 2 && none[1].starts_with("bestmove "),
        "{none:?}"
    );
    assert_eq!(as_plain, none);
    assert_ne!(value_off, none, "the profile's own exploration");
    assert_ne!(built_in, none);
}

/// `PriorTemperature` reaches Hadron 7's learned search: at 100 (the
/// priors as fitted, the profile's own) it searches exactly as built in,
/// at 70 or 150 otherwise; without weights there are no priors to take at
/// any temperature.
#[test]
fn the_prior_temperature_option_shapes_a_learned_search_only() {
    let search = |options: &str| search_of("hadron", 7, options);
    let built_in = search("");
    assert!(
        built_in.len() == 2 && built_in[1].starts_with("bestmove "),
        "{built_in:?}"
    );
    assert_eq!(
        search("setoption name PriorTemperature value 100\n"),
        built_in
    );
    let sharper = search("setoption name PriorTemperature value 70\n");
    let flatter = search("setoption name PriorTemperature value 150\n");
    assert_ne!(sharper, built_in);
    assert_ne!(flatter, built_in);
    assert_ne!(sharper, flatter);
    let none = search("setoption name Weights value none\n");
    assert_eq!(
        search("setoption name Weights value none\nsetoption name PriorTemperature value 30\n"),
        none
    );
}

/// The built-in Tritium 5 value has a hidden layer; a file holding the
/// same weights searches exactly as the built-in ones, and the same file
/// without its hidden layer searches otherwise (the layer is read and
/// used).
#[test]
fn a_value_hidden_layer_loads_from_a_file_and_shapes_the_search() {
    use quintet::games::tritium::{Tritium, Variant};
    use quintet::model::weights::Hidden;
    let built_in = quintet::model::embedded(&Tritium::new(5, Variant::Standard)).unwrap();
    let layered = built_in.weights().clone();
    assert_eq!(layered.hidden.width, 16);
    let dir = temp("hidden-layer");
    std::fs::create_dir_all(&dir).unwrap();
    let with_layer = dir.join("layered.qw");
    layered.write(&with_layer).unwrap();
    let without_layer = dir.join("linear.qw");
    Weights {
        hidden: Hidden::default(),
        ..layered
    }
    .write(&without_layer)
    .unwrap();
    let search =
        |weights: &str| tritium_5_search(&format!("setoption name Weights value {weights}\n"));
    let embedded = search("");
    assert_eq!(embedded.len(), 2, "{embedded:?}");
    assert_eq!(search(&with_layer.display().to_string()), embedded);
    assert_ne!(search(&without_layer.display().to_string()), embedded);
    let _ = std::fs::remove_dir_all(dir);
}

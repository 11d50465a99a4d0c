//! What MCTS takes from an evaluator, switch by switch: PUCT priors (or
//! none at all), and cut-off playouts scored by the learned value instead
//! of the game's evaluation; and what playouts take from an exact oracle.

use quintet::games::hadron::Hadron;
use quintet::games::{Game, Outcome, Seat};
use quintet::search::mcts::MctsConfig;
use quintet::search::searcher::{Evaluator, GamePath, build};
use quintet::search::{
    Context, Limits, Oracle as ExactOracle, Report, Root, Score, SearchSettings, Setup,
};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

/// An evaluator that says one seat always wins, and counts its calls.
struct Oracle {
    winner: Seat,
    priors: AtomicU64,
    values: AtomicU64,
}

impl Oracle {
    fn new(winner: Seat) -> Arc<Oracle> {
        Arc::new(Oracle {
            winner,
            priors: AtomicU64::new(0),
            values: AtomicU64::new(0),
        })
    }

    fn calls(&self) -> (u64, u64) {
        (
            self.priors.load(Ordering::Relaxed),
            self.values.load(Ordering::Relaxed),
        )
    }
}

impl<G: Game> Evaluator<G> for Oracle {
    fn priors(&self, _: &G, moves: &[G::Move], out: &mut Vec<f32>) {
        self.priors.fetch_add(1, Ordering::Relaxed);
        out.clear();
        out.extend(moves.iter().map(|_| 1.0 / moves.len() as f32));
    }

    fn value(&self, state: &G) -> f32 {
        self.values.fetch_add(1, Ordering::Relaxed);
        if state.side_to_move() == self.winner {
            1.0
        } else {
            0.0
        }
    }
}

/// The root score (for the side to move, P1) of a 2,000-node search of
/// Hadron 5 from the start with playouts cut after two plies.
fn root_score(config: MctsConfig, oracle: &Arc<Oracle>) -> i32 {
    start_score(&Setup::<Hadron<u64>> {
        mcts: config.with_cutoff(2, 100.0).with_value_weight(0.0),
        evaluator: Some(oracle.clone() as Arc<dyn Evaluator<Hadron<u64>>>),
        ..Setup::default()
    })
}

/// The root score (for P1, to move) of a 2,000-node MCTS search of Hadron 5
/// from the start with `setup`.
fn start_score(setup: &Setup<Hadron<u64>>) -> i32 {
    match search_start(setup, &Limits::nodes(2000)) {
        Score::Cp(cp) => cp,
        Score::Mate(m) => panic!("Hadron 5's start is not proven in 2000 nodes (mate {m})"),
    }
}

/// The root score of a search of Hadron 5 from the start under `limits`.
fn search_start(setup: &Setup<Hadron<u64>>, limits: &Limits) -> Score {
    let mut searcher = build("mcts", setup).unwrap();
    assert_eq!(searcher.allocate(4), None);
    let stop = AtomicBool::new(false);
    let mut ignore = |_: &Report<u16>| {};
    let mut ctx = Context::new(Instant::now(), &stop, &mut ignore);
    let start = Hadron::<u64>::new(5);
    let path = GamePath::default();
    let root = Root {
        position: &start,
        path: &path,
    };
    let settings = SearchSettings {
        seed: 3,
        move_overhead_ms: 0,
        ..SearchSettings::default()
    };
    searcher
        .search(&root, &settings, limits, &mut ctx)
        .report
        .score
}

#[test]
fn cut_playouts_take_the_learned_value_only_when_asked() {
    // With the value at the cutoff, the oracle decides the root's score.
    let config = MctsConfig {
        priors: false,
        value_at_cutoff: true,
        ..MctsConfig::tuned()
    };
    let (p1_wins, p2_wins) = (Oracle::new(Seat::P1), Oracle::new(Seat::P2));
    let (for_p1, for_p2) = (
        root_score(config.clone(), &p1_wins),
        root_score(config, &p2_wins),
    );
    assert!(for_p1 > 300 && for_p2 < -300, "{for_p1} {for_p2}");
    // Never its priors: UCT, and no features spent on them.
    let (priors, values) = p1_wins.calls();
    assert_eq!(priors, 0);
    assert!(
        (1000..=2000).contains(&values),
        "{values} values for 2000 playouts"
    );

    // Without it the game's evaluation scores them: the oracle is asked
    // for priors only, and its verdict does not reach the score.
    let config = MctsConfig::tuned();
    let (p1_wins, p2_wins) = (Oracle::new(Seat::P1), Oracle::new(Seat::P2));
    let (for_p1, for_p2) = (
        root_score(config.clone(), &p1_wins),
        root_score(config, &p2_wins),
    );
    assert!(
        for_p1.abs() < 300 && for_p2.abs() < 300,
        "{for_p1} {for_p2}"
    );
    let (priors, values) = p1_wins.calls();
    assert!(priors > 0);
    assert_eq!(values, 0);
}

/// An exact oracle that never decides a tree leaf but says, whenever a
/// playout asks, that one seat wins; and counts the playouts' questions.
struct PlayoutVerdict {
    winner: Seat,
    asked: AtomicU64,
}

impl<G: Game> ExactOracle<G> for PlayoutVerdict {
    fn decide(&self, _: &G, _: Option<Instant>) -> Option<(Outcome, u32)> {
        None
    }

    fn decide_in_playout(&self, _: &G, _: Option<Instant>, _: bool) -> Option<Outcome> {
        self.asked.fetch_add(1, Ordering::Relaxed);
        Some(Outcome::Win(self.winner))
    }
}

/// The root score (P1 to move) of a 2,000-node search of Hadron 5 from the
/// start with `verdict` as the oracle, and how often playouts asked it.
fn score_with_verdict(config: MctsConfig, winner: Seat) -> (i32, u64) {
    let verdict = Arc::new(PlayoutVerdict {
        winner,
        asked: AtomicU64::new(0),
    });
    let score = start_score(&Setup::<Hadron<u64>> {
        mcts: config,
        oracle: Some(verdict.clone() as Arc<dyn ExactOracle<Hadron<u64>>>),
        ..Setup::default()
    });
    (score, verdict.asked.load(Ordering::Relaxed))
}

#[test]
fn playouts_end_where_the_oracle_decides_only_when_asked() {
    // Asked every ply, the oracle's verdict ends every playout at once.
    let config = MctsConfig::tuned().with_playout_oracle(1);
    let (for_p1, asked_p1) = score_with_verdict(config.clone(), Seat::P1);
    let (for_p2, _) = score_with_verdict(config, Seat::P2);
    assert!(for_p1 > 300 && for_p2 < -300, "{for_p1} {for_p2}");
    assert!(
        (1000..=2000).contains(&asked_p1),
        "{asked_p1} questions for 2000 playouts"
    );
    // Every third ply: still asked, once per playout that gets that far.
    let config = MctsConfig::tuned().with_playout_oracle(3);
    let (for_p1, asked) = score_with_verdict(config, Seat::P1);
    assert!(for_p1 > 300 && asked > 1000, "{for_p1} {asked}");

    // Not asked (the default), playouts run to the end.
    let (for_p1, asked_p1) = score_with_verdict(MctsConfig::tuned(), Seat::P1);
    let (for_p2, _) = score_with_verdict(MctsConfig::tuned(), Seat::P2);
    assert_eq!(asked_p1, 0);
    assert!(
        for_p1.abs() < 300 && for_p2.abs() < 300,
        "{for_p1} {for_p2}"
    );
}

/// An oracle that never decides and counts the playouts' quick and full
/// questions.
#[derive(Default)]
struct QuestionKinds {
    quick: AtomicU64,
    full: AtomicU64,
}

impl<G: Game> ExactOracle<G> for QuestionKinds {
    fn decide(&self, _: &G, _: Option<Instant>) -> Option<(Outcome, u32)> {
        None
    }

    fn decide_in_playout(&self, _: &G, _: Option<Instant>, quick: bool) -> Option<Outcome> {
        let count = if quick { &self.quick } else { &self.full };
        count.fetch_add(1, Ordering::Relaxed);
        None
    }
}

/// How many quick and full questions the playouts of a search under
/// `limits` ask, with quick ones for searches of at most 200 ms.
fn question_kinds(limits: Limits) -> (u64, u64) {
    let kinds = Arc::new(QuestionKinds::default());
    search_start(
        &Setup::<Hadron<u64>> {
            mcts: MctsConfig::tuned()
                .with_playout_oracle(1)
                .with_quick_oracle(200),
            oracle: Some(kinds.clone() as Arc<dyn ExactOracle<Hadron<u64>>>),
            ..Setup::default()
        },
        &limits,
    );
    (
        kinds.quick.load(Ordering::Relaxed),
        kinds.full.load(Ordering::Relaxed),
    )
}

#[test]
fn short_timed_searches_ask_quick_questions_from_their_playouts() {
    let (quick, full) = question_kinds(Limits::movetime(50));
    assert!(
        quick > 100 && full == 0,
        "50 ms: {quick} quick, {full} full"
    );
    let (quick, full) = question_kinds(Limits::movetime(400));
    assert!(
        quick == 0 && full > 100,
        "400 ms: {quick} quick, {full} full"
    );
    // Untimed searches (training's self-play, `go nodes`) ask in full.
    let (quick, full) = question_kinds(Limits::nodes(2000));
    assert!(
        quick == 0 && full > 1000,
        "2000 nodes: {quick} quick, {full} full"
    );
}

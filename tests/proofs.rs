//! Proofs during play (the `Proofs` option), through the UGI driver
//! in-process: positions of small boards proven won are answered with a
//! winning move and `score mate N` (N the exact quickest win where an
//! independent minimax can check it), proven losses with a negative mate,
//! even by the `random` searcher, which knows nothing of mates.

#[path = "common/line_sink.rs"]
mod line_sink;

use line_sink::LineSink;
use quintet::games::{Game, GameConfig, GameRng, Outcome};
use quintet::protocol::Output;
use quintet::protocol::driver::Driver;
use quintet::protocol::options::Options;
use quintet::registry::{self, GameVisitor};
use quintet::session::Profile;
use quintet::solve::{self, Budget, ProofTable};
use rand::SeedableRng;
use std::sync::mpsc::Receiver;
use std::time::Duration;

struct Engine {
    driver: Driver,
    lines: Receiver<String>,
}

impl Engine {
    fn new(config: &GameConfig) -> Engine {
        let (sink, lines) = LineSink::new();
        let mut engine = Engine {
            driver: Driver::new(Output::new(sink), Options::default()),
            lines,
        };
        engine.send(&format!("setoption name Game value {}", config.game));
        engine.send(&format!("setoption name Size value {}", config.size));
        if !config.variant.is_empty() {
            engine.send(&format!("setoption name Variant value {}", config.variant));
        }
        engine
    }

    fn send(&mut self, line: &str) {
        self.driver.handle(&format!("{line}\n"));
    }

    /// `go movetime ms` at the position after `moves`: the last score
    /// reported and the move played.
    fn play(&mut self, moves: &[String], ms: u64) -> (String, String) {
        self.send(&format!("position startpos moves {}", moves.join(" ")));
        let (lines, mv) = self.go(&format!("go movetime {ms}"));
        let score = last_field(&lines, "score", 2);
        (score, mv)
    }

    /// Sends a `go` command: the lines before `bestmove` (none an error)
    /// and the move.
    fn go(&mut self, command: &str) -> (Vec<String>, String) {
        self.send(command);
        let mut lines = Vec::new();
        loop {
            let line = self
                .lines
                .recv_timeout(Duration::from_secs(30))
                .expect("a reply");
            assert!(!line.contains("error"), "{line}");
            if let Some(mv) = line.strip_prefix("bestmove ") {
                return (lines, mv.to_string());
            }
            lines.push(line);
        }
    }
}

/// The last value the `info` lines gave `field` (its next `words` words),
/// or an empty string.
fn last_field(lines: &[String], field: &str, words: usize) -> String {
    let marker = format!(" {field} ");
    lines
        .iter()
        .rev()
        .find_map(|line| {
            let at = line.find(&marker)?;
            let value: Vec<&str> = line[at + marker.len()..]
                .split_whitespace()
                .take(words)
                .collect();
            Some(value.join(" "))
        })
        .unwrap_or_default()
}

/// Whether the side to move wins and in how many plies under perfect
/// play (the winner hurrying, the loser delaying): plain minimax, for
/// small positions of games without draws.
fn distance<G: Game>(state: &mut G) -> (bool, u32) {
    let mover = state.side_to_move();
    if let Some(outcome) = state.outcome() {
        return (outcome == Outcome::Win(mover), 0);
    }
    let mut moves = Vec::new();
    state.legal_moves(&mut moves);
    let mut best: Option<(bool, u32)> = None;
    for mv in moves {
        let undo = state.make(mv);
        let (won, plies) = distance(state);
        let wins = if state.side_to_move() == mover {
            won
        } else {
            !won
        };
        state.unmake(mv, undo);
        let ours = (wins, plies + 1);
        best = Some(match best {
            None => ours,
            Some(b) if ours.0 && (!b.0 || ours.1 < b.1) => ours,
            Some(b) if !ours.0 && !b.0 && ours.1 > b.1 => ours,
            Some(b) => b,
        });
    }
    best.expect("a game not over has moves")
}

/// A position of a small board proven won or lost for the side to move,
/// a few plies before the end of a random game, with its winning moves.
struct Case {
    moves: Vec<String>,
    wins: Vec<String>,
    lost: bool,
    /// The exact quickest win in plies, where minimax can tell.
    quickest: Option<u32>,
}

struct MakeCases {
    seed: u64,
    count: usize,
    back: usize,
    exact: bool,
}

impl GameVisitor for MakeCases {
    type Output = Vec<Case>;

    fn visit<G: Game>(self, _c: &GameConfig, start: G, _p: &Profile) -> Vec<Case> {
        let mut rng = GameRng::seed_from_u64(self.seed);
        let table = ProofTable::new(16);
        let mut budget = Budget::default();
        budget.nodes = Some(200_000);
        let mut scratch = Vec::new();
        let mut cases = Vec::new();
        for _ in 0..200 {
            if cases.len() >= self.count {
                break;
            }
            let mut line = vec![start.clone()];
            let mut played = Vec::new();
            while let Some(mv) = line.last().unwrap().random_move(&mut rng, &mut scratch) {
                let mut next = line.last().unwrap().clone();
                played.push(next.format_move(mv));
                next.play(mv);
                line.push(next);
                if line.len() > 400 {
                    break;
                }
            }
            let at = line.len().saturating_sub(self.back + 1);
            let game = &line[at];
            if game.outcome().is_some() {
                continue;
            }
            let proof = solve::prove(game, &budget, &table, 1);
            let mover = game.side_to_move();
            let lost = match proof.value {
                Some(Outcome::Win(seat)) => seat != mover,
                _ => continue,
            };
            let mut wins = Vec::new();
            let mut moves = Vec::new();
            game.legal_moves(&mut moves);
            for mv in moves {
                let mut child = game.clone();
                child.play(mv);
                let value = child
                    .outcome()
                    .or_else(|| solve::prove(&child, &budget, &table, 1).value);
                if value == Some(Outcome::Win(mover)) {
                    wins.push(game.format_move(mv));
                }
            }
            assert_eq!(wins.is_empty(), lost);
            let quickest = self.exact.then(|| distance(&mut game.clone()).1);
            cases.push(Case {
                moves: played[..at].to_vec(),
                wins,
                lost,
                quickest,
            });
        }
        cases
    }
}

fn config(game: &str, size: usize, variant: &str) -> GameConfig {
    GameConfig {
        game: game.into(),
        size,
        variant: variant.into(),
        stones: 0,
    }
}

/// The `random` searcher plays a proven win and reports its mate; with
/// `Proofs` off it reports none.
fn check(config: &GameConfig, back: usize, exact: bool) {
    let cases = registry::with_game(
        config,
        MakeCases {
            seed: 7,
            count: 4,
            back,
            exact,
        },
    )
    .expect("a registered game");
    assert!(cases.len() >= 2, "{config:?}: {} cases", cases.len());
    let mut engine = Engine::new(config);
    engine.send("setoption name Search value random");
    for case in &cases {
        let (score, mv) = engine.play(&case.moves, 2000);
        let mate: i32 = score
            .strip_prefix("mate ")
            .unwrap_or_else(|| panic!("{config:?} {:?}: '{score}'", case.moves))
            .parse()
            .unwrap();
        if case.lost {
            assert!(mate < 0, "{config:?} {:?}: {score}", case.moves);
        } else {
            assert!(mate > 0, "{config:?} {:?}: {score}", case.moves);
            assert!(case.wins.contains(&mv), "{config:?} {:?}: {mv}", case.moves);
            if let Some(plies) = case.quickest {
                assert_eq!(
                    mate,
                    plies.div_ceil(2) as i32,
                    "{config:?} {:?}",
                    case.moves
                );
            }
        }
    }
    // Without proofs, the random searcher proves nothing.
    engine.send("setoption name Proofs value false");
    let (score, _) = engine.play(&cases[0].moves, 100);
    assert!(!score.starts_with("mate"), "{score}");
}

#[test]
fn hadron_small_boards_play_proven_wins_with_exact_distances() {
    check(&config("hadron", 5, ""), 6, true);
    check(&config("hadron", 4, ""), 6, true);
}

#[test]
fn atoms_and_nadraz_small_boards_play_proven_wins() {
    check(&config("atoms", 6, ""), 4, false);
    check(&config("nadraz", 5, ""), 4, false);
}

/// Positions a few plies from the end, so that the proof takes
/// milliseconds even on a loaded machine.
#[test]
fn a_proven_loss_is_a_negative_mate() {
    let mut found = 0;
    for seed in 0..6 {
        let cases = registry::with_game(
            &config("hadron", 5, ""),
            MakeCases {
                seed,
                count: 6,
                back: 5,
                exact: false,
            },
        )
        .unwrap();
        let mut engine = Engine::new(&config("hadron", 5, ""));
        for case in cases.iter().filter(|c| c.lost) {
            let (score, _) = engine.play(&case.moves, 1000);
            assert!(score.starts_with("mate -"), "{:?}: {score}", case.moves);
            found += 1;
        }
    }
    assert!(found >= 2, "{found} lost positions");
}

/// On a clock the proof takes its share of the move first (a quarter near
/// the end); the search after it must still search. It used to judge its
/// rate of iterations over the proof's time too, find none, and stop at
/// once: one node, a move at random.
#[test]
fn a_search_on_a_clock_still_searches_after_the_proofs_share() {
    let mut engine = Engine::new(&config("hadron", 7, ""));
    engine.send("position startpos moves b6 e1 g5 c2 a5 g7 d4 g1");
    let (lines, _) = engine.go("go wtime 4000 btime 4000");
    let nodes: u64 = last_field(&lines, "nodes", 1).parse().unwrap_or(0);
    // About 40 k on a quiet machine in its ~150 ms after the proof.
    assert!(nodes >= 500, "{nodes} nodes");
}

/// Hadron 7x7 twelve plies in: the proof during play sums the board's
/// regions by their game values and proves the win within its share of a
/// two-second move (well under 100 ms on a quiet machine). The generic
/// df-pn, which proofs during play used until session 14, needs about
/// 400 k nodes and 5 s for it. The `random` searcher knows no mates, so a
/// mate score can only come from the proof.
#[test]
fn hadron_7_mid_game_is_proven_during_play_by_its_regions() {
    let moves: Vec<String> = "b6 e1 g5 c2 a5 g7 d4 g1 f3 e5 f5 d7"
        .split(' ')
        .map(String::from)
        .collect();
    let mut engine = Engine::new(&config("hadron", 7, ""));
    engine.send("setoption name Search value random");
    let (score, mv) = engine.play(&moves, 2000);
    let mate: i32 = score
        .strip_prefix("mate ")
        .unwrap_or_else(|| panic!("no proof: score '{score}'"))
        .parse()
        .unwrap();
    assert!(mate > 0, "{score}");
    // The move played keeps the win: the opponent, to move, is lost.
    let mut after = moves.clone();
    after.push(mv.clone());
    let (score, _) = engine.play(&after, 2000);
    assert!(score.starts_with("mate -"), "after {mv}: '{score}'");
}

/// MCTS asks the game's oracle at its leaves (Hadron: the sum of the
/// values of small regions), so it proves a Hadron 7x7 position sixteen
/// plies in under a node limit, where no proof runs before the search;
/// with `Proofs false` it searches without the oracle and proves nothing.
#[test]
fn mcts_proves_hadron_7_at_its_leaves_unless_proofs_are_off() {
    let position = "position startpos moves b6 e1 g5 c2 a5 g7 d4 g1 f3 e5 f5 d7 b3 a2 c5 a3";
    let mut engine = Engine::new(&config("hadron", 7, ""));
    engine.send("setoption name Search value mcts");
    engine.send(position);
    let (lines, _) = engine.go("go nodes 20000");
    let score = last_field(&lines, "score", 2);
    assert!(score.starts_with("mate"), "with leaf proofs: '{score}'");
    engine.send("setoption name Proofs value false");
    engine.send(position);
    let (lines, _) = engine.go("go nodes 20000");
    let score = last_field(&lines, "score", 2);
    assert!(!score.starts_with("mate"), "without: '{score}'");
}

/// A proven loss plays a swindle: the move that leaves the opponent the
/// fewest winning replies. Hadron 7x7 seventeen plies in (session 40's game
/// 2, where Blue was lost): each move's replies are proven here by the
/// library's solver, and the engine's move must have the fewest winning
/// ones, its line naming the lone winning reply where there is one. The
/// `random` searcher knows no mates, so the move can only be the swindle's.
/// With `SwindleModel` (the default) a trap may leave up to two more.
#[test]
fn a_proven_loss_plays_the_move_with_the_fewest_winning_replies() {
    let moves: Vec<String> = "b6 e1 g5 c2 a5 g7 d4 g1 f3 b4 e6 c5 a2 b5 d5 d7 a7"
        .split(' ')
        .map(String::from)
        .collect();
    let config = config("hadron", 7, "");
    let counts = registry::with_game(
        &config,
        WinningReplies {
            moves: moves.clone(),
        },
    )
    .unwrap();
    let fewest = counts.iter().map(|c| c.1).min().expect("moves");
    assert!(
        fewest < counts.iter().map(|c| c.1).max().unwrap(),
        "{counts:?}"
    );
    let mut engine = Engine::new(&config);
    engine.send("setoption name Search value random");
    engine.send(&format!("position startpos moves {}", moves.join(" ")));
    // With the model of the opponent, a trap may leave a little more.
    let (lines, mv) = engine.go("go movetime 2000");
    assert!(
        last_field(&lines, "score", 2).starts_with("mate -"),
        "{lines:?}"
    );
    let (_, winning, _) = counts.iter().find(|c| c.0 == mv).expect("a legal move");
    assert!(*winning <= fewest + 2, "{mv} of {counts:?}");
    engine.send("setoption name SwindleModel value false");
    let (lines, mv) = engine.go("go movetime 2000");
    assert!(
        last_field(&lines, "score", 2).starts_with("mate -"),
        "{lines:?}"
    );
    let (_, winning, _) = counts.iter().find(|c| c.0 == mv).expect("a legal move");
    assert_eq!(*winning, fewest, "{mv} of {counts:?}");
    let pv = last_field(&lines, "pv", 2);
    if fewest == 1 {
        let answer = counts.iter().find(|c| c.0 == mv).and_then(|c| c.2.clone());
        assert_eq!(
            pv,
            format!("{mv} {}", answer.expect("the lone winning reply"))
        );
    }
    // Off, the searcher chooses: `random` has no line of two.
    engine.send("setoption name Swindles value false");
    let (lines, _) = engine.go("go movetime 2000");
    assert!(
        last_field(&lines, "score", 2).starts_with("mate -"),
        "{lines:?}"
    );
    assert_eq!(
        last_field(&lines, "pv", 2).split(' ').count(),
        1,
        "{lines:?}"
    );
}

/// After `moves` (the side to move lost): per legal move, its text, the
/// opponent's winning replies and the last of them, each proven exactly.
struct WinningReplies {
    moves: Vec<String>,
}

impl GameVisitor for WinningReplies {
    type Output = Vec<(String, usize, Option<String>)>;
    fn visit<G: Game>(self, _c: &GameConfig, mut state: G, _p: &Profile) -> Self::Output {
        for text in &self.moves {
            let mv = state.parse_move(text).expect("a legal move");
            state.play(mv);
        }
        let winner = state.side_to_move().other();
        let table = ProofTable::new(16);
        let value = |s: &G| {
            s.outcome()
                .or_else(|| solve::prove(s, &Budget::default(), &table, 1).value)
        };
        assert_eq!(value(&state), Some(Outcome::Win(winner)), "not lost");
        let mut counts = Vec::new();
        for mv in legal(&state) {
            let mut child = state.clone();
            child.play(mv);
            let (mut winning, mut last) = (0, None);
            for reply in legal(&child) {
                let mut grandchild = child.clone();
                grandchild.play(reply);
                if value(&grandchild) == Some(Outcome::Win(winner)) {
                    winning += 1;
                    last = Some(child.format_move(reply));
                }
            }
            counts.push((state.format_move(mv), winning, last));
        }
        counts
    }
}

fn legal<G: Game>(state: &G) -> Vec<G::Move> {
    let mut moves = Vec::new();
    state.legal_moves(&mut moves);
    moves
}

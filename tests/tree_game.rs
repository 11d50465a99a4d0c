//! The searchers on small games whose trees are written out (see
//! `common/tree_game.rs`): MCTS-Solver proofs and mate distances,
//! alpha-beta's exact minimax values (against a naive minimax over the
//! same tree) with and without transpositions, exact `nodes` and `depth`
//! limits, and the same proven results with two threads.

#[path = "common/tree_game.rs"]
mod tree_game;

use quintet::games::{Game, Outcome};
use quintet::search::alphabeta::{MATE, MATE_BOUND, to_score};
use quintet::search::searcher::{GamePath, build};
use quintet::search::{
    Context, Limits, Report, Root, Score, SearchResult, SearchSettings, Searcher, Setup,
};
use std::collections::HashMap;
use std::sync::atomic::AtomicBool;
use std::time::Instant;
use tree_game::{Tree, TreeGame};

/// One search by a fresh searcher of this name (1 MiB of memory).
fn search(
    name: &str,
    game: &TreeGame,
    threads: usize,
    seed: u64,
    limits: Limits,
) -> SearchResult<u16> {
    let mut searcher = build::<TreeGame>(name, &Setup::default()).expect(name);
    assert_eq!(searcher.allocate(1), None, "1 MiB is there");
    let settings = SearchSettings {
        threads,
        seed,
        move_overhead_ms: 0,
        ..SearchSettings::default()
    };
    let stop = AtomicBool::new(false);
    let mut reports = 0;
    let mut progress = |_: &Report<u16>| reports += 1;
    let mut ctx = Context::new(Instant::now(), &stop, &mut progress);
    let path = GamePath::default();
    let root = Root {
        position: game,
        path: &path,
    };
    searcher.search(&root, &settings, &limits, &mut ctx)
}

/// The negamax value of `at` searched `depth` plies deep, as alpha-beta
/// scores it: results are wins and losses `ply` plies from the root (the
/// winner prefers the nearer), the horizon takes the node's evaluation,
/// and a child with the same side to move is not negated.
fn minimax(tree: &Tree, at: u16, depth: u32, ply: i32) -> i32 {
    let node = &tree.nodes[at as usize];
    if let Some(result) = node.result {
        return match result {
            Outcome::Draw => 0,
            Outcome::Win(seat) if seat == node.side => MATE - ply,
            Outcome::Win(_) => -(MATE - ply),
        };
    }
    if depth == 0 {
        return node.eval;
    }
    node.children
        .iter()
        .map(|&c| {
            let value = minimax(tree, c, depth - 1, ply + 1);
            if tree.nodes[c as usize].side == node.side {
                value
            } else {
                -value
            }
        })
        .max()
        .expect("an inner node has children")
}

/// The game-theoretic value of `at` with results counted from `at`
/// (memoised, so that it also solves DAGs with many paths): a child's
/// result is one ply further away from its parent.
fn solve(tree: &Tree, at: u16, memo: &mut HashMap<u16, i32>) -> i32 {
    if let Some(&value) = memo.get(&at) {
        return value;
    }
    let node = &tree.nodes[at as usize];
    let value = match node.result {
        Some(Outcome::Draw) => 0,
        Some(Outcome::Win(seat)) if seat == node.side => MATE,
        Some(Outcome::Win(_)) => -MATE,
        None => node
            .children
            .iter()
            .map(|&c| {
                let v = solve(tree, c, memo);
                let v = if tree.nodes[c as usize].side == node.side {
                    v
                } else {
                    -v
                };
                v - v.signum() * (v.abs() > MATE_BOUND) as i32
            })
            .max()
            .expect("an inner node has children"),
    };
    memo.insert(at, value);
    value
}

/// The game-theoretic value of the position (searched to the end).
fn solved(game: &TreeGame) -> i32 {
    let at = game.tree().id(&game.position_text());
    solve(game.tree(), at, &mut HashMap::new())
}

/// The value of the move `mv` at `game` for the side to move there.
fn value_of_move(game: &TreeGame, mv: u16, depth: u32) -> i32 {
    let tree = game.tree();
    let value = minimax(tree, mv, depth.saturating_sub(1), 1);
    if tree.nodes[mv as usize].side == game.side_to_move() {
        value
    } else {
        -value
    }
}

fn name(game: &TreeGame, mv: u16) -> String {
    game.format_move(mv)
}

/// p1 wins in 3 plies with `a` only: whatever p2 answers, p1 has a win.
const WIN_IN_3: &str = "
    root p1 : b c a
    a    p2 : a1 a2
    a1   p1 : a1l a1w
    a1w  p2 = p1
    a1l  p2 = p2
    a2   p1 : a2d a2w
    a2d  p2 = draw
    a2w  p2 = p1
    b    p2 : b1 b2     # p2 wins at once with b1
    b1   p1 = p2
    b2   p1 : b2w
    b2w  p2 = p1
    c    p2 : c1        # a draw
    c1   p1 = draw
";

/// p1 wins in 5 plies with `a` only (through either answer of p2).
const WIN_IN_5: &str = "
    root  p1 : b a
    a     p2 : a1 a2
    a1    p1 : a1y a1x
    a1y   p2 = p2       # a blunder
    a1x   p2 : a1x1 a1x2
    a1x1  p1 : a1x1d a1x1w
    a1x1w p2 = p1
    a1x1d p2 = draw
    a1x2  p1 : a1x2w
    a1x2w p2 = p1
    a2    p1 : a2x
    a2x   p2 : a2x1
    a2x1  p1 : a2x1l a2x1w
    a2x1w p2 = p1
    a2x1l p2 = p2
    b     p2 : b1 b2
    b1    p1 = draw
    b2    p1 = p2
";

/// Every move of p1 loses: `quick` in 2 plies, `slow` in 4 (p2's other
/// answer there would let p1 draw).
const LOSS_IN_4: &str = "
    root    p1 : quick slow
    quick   p2 : quick2 quick1
    quick1  p1 = p2
    quick2  p1 = draw
    slow    p2 : slow2 slow1
    slow1   p1 : slow1a
    slow1a  p2 : slow1a1
    slow1a1 p1 = p2
    slow2   p1 : slow2a slow2b
    slow2a  p2 = draw
    slow2b  p2 = p2
";

/// The best p1 can do is a draw, through `b`.
const DRAW: &str = "
    root p1 : a c b
    a    p2 : a2 a1
    a1   p1 = p2
    a2   p1 = p1
    b    p2 : b2 b1
    b1   p1 = draw
    b2   p1 : b2b b2a
    b2a  p2 = draw
    b2b  p2 = p2
    c    p2 : c1 c2
    c1   p1 : c1w
    c1w  p2 = p1
    c2   p1 = p2
";

/// Two wins: `short` in 3 plies (p2 has four answers, each needing the
/// right reply), `long` in 5 plies (everything forced); `lose` loses.
const TWO_WINS: &str = "
    root  p1 : long lose short
    long  p2 : long1
    long1 p1 : long2
    long2 p2 : long3
    long3 p1 : long4
    long4 p2 = p1
    lose  p2 = p2
    short p2 : s1 s2 s3 s4
    s1    p1 : s1l s1w
    s1w   p2 = p1
    s1l   p2 = p2
    s2    p1 : s2w s2l
    s2w   p2 = p1
    s2l   p2 = p2
    s3    p1 : s3l s3w
    s3w   p2 = p1
    s3l   p2 = p2
    s4    p1 : s4w s4l
    s4w   p2 = p1
    s4l   p2 = p2
";

/// Turns that do not alternate: after `a` p1 moves again, after `a1x`
/// p2 does. p1's double move leads to a p2 win; `b` draws.
const DOUBLE_MOVES: &str = "
    root p1 : a b
    a    p1 : a1 a2
    a1   p2 : a1y a1x
    a1x  p2 : a1xl a1xw
    a1xw p1 = p2
    a1xl p1 = p1
    a1y  p1 = draw
    a2   p2 = p2
    b    p2 : b1
    b1   p1 = draw
";

/// p1 to move twice in a row wins at once: a proof through a double move.
const DOUBLE_MOVE_WIN: &str = "
    root p1 : b a
    a    p1 : a2 a1
    a1   p2 = p1
    a2   p2 = p2
    b    p2 : b1
    b1   p1 = p2
";

/// Proven cases: (tree, best move, proven score).
const PROVEN: &[(&str, &str, Score)] = &[
    (WIN_IN_3, "a", Score::Mate(2)),
    (WIN_IN_5, "a", Score::Mate(3)),
    (LOSS_IN_4, "slow", Score::Mate(-2)),
    (DOUBLE_MOVE_WIN, "a", Score::Mate(1)),
];

#[test]
fn the_written_trees_mean_what_their_comments_say() {
    for &(text, best, score) in PROVEN {
        let game = Tree::parse(text).root();
        assert_eq!(to_score(solved(&game)), score, "{text}");
        let mv = game.parse_move(best).unwrap();
        assert_eq!(value_of_move(&game, mv, 1000), solved(&game), "{text}");
    }
    for text in [DRAW, DOUBLE_MOVES] {
        assert_eq!(solved(&Tree::parse(text).root()), 0);
    }
    let two = Tree::parse(TWO_WINS).root();
    assert_eq!(to_score(solved(&two)), Score::Mate(2));
    assert_eq!(to_score(solved(&two.after("long"))), Score::Mate(-2));
    // The helper checks what it reads.
    for bad in [
        "r p1 : x",
        "r p1 : r",
        "r p1 = maybe",
        "r p3 = p1",
        "r p1 : x x\nx p2 = p1",
        "r p1 : x\nx p2 : r",
    ] {
        assert!(Tree::try_parse(bad).is_err(), "{bad}");
    }
}

#[test]
fn mcts_proves_wins_and_losses_with_their_distances() {
    for &(text, best, score) in PROVEN {
        let game = Tree::parse(text).root();
        for seed in 0..4 {
            let result = search("mcts", &game, 1, seed, Limits::nodes(20_000));
            assert_eq!(name(&game, result.best), best, "seed {seed}: {text}");
            assert_eq!(result.report.score, score, "seed {seed}: {text}");
            assert!(
                result.report.nodes < 20_000,
                "a proven root ends the search"
            );
            assert_eq!(result.report.pv.first(), Some(&result.best));
        }
    }
}

#[test]
fn mcts_proves_draws() {
    for (text, best) in [(DRAW, "b"), (DOUBLE_MOVES, "b")] {
        let game = Tree::parse(text).root();
        for seed in 0..4 {
            let result = search("mcts", &game, 1, seed, Limits::nodes(20_000));
            assert_eq!(name(&game, result.best), best, "seed {seed}: {text}");
            assert_eq!(result.report.score, Score::Cp(0));
            // Only a proof stops a node-limited search early.
            assert!(result.report.nodes < 20_000, "seed {seed}: {text}");
        }
    }
}

#[test]
fn mcts_plays_a_proven_win_when_two_exist() {
    let game = Tree::parse(TWO_WINS).root();
    for seed in 0..8 {
        let result = search("mcts", &game, 1, seed, Limits::nodes(20_000));
        let best = name(&game, result.best);
        assert!(best == "short" || best == "long", "seed {seed}: {best}");
        let Score::Mate(n) = result.report.score else {
            panic!("seed {seed}: no proof: {:?}", result.report.score);
        };
        // The distance reported is that of the win played.
        assert_eq!(n, if best == "short" { 2 } else { 3 }, "seed {seed}");
    }
}

/// The quickest of two proven wins: MCTS proves the root by the first win
/// it backs up (here often the forced but longer line), then a mate search
/// looks for a quicker one.
#[test]
fn mcts_plays_the_quickest_of_two_wins() {
    let game = Tree::parse(TWO_WINS).root();
    for seed in 0..8 {
        let result = search("mcts", &game, 1, seed, Limits::nodes(20_000));
        assert_eq!(name(&game, result.best), "short", "seed {seed}");
        assert_eq!(result.report.score, Score::Mate(2), "seed {seed}");
    }
}

#[test]
fn alphabeta_proves_the_quickest_win_and_the_longest_defence() {
    for &(text, best, score) in PROVEN.iter().chain(&[(TWO_WINS, "short", Score::Mate(2))]) {
        let game = Tree::parse(text).root();
        let result = search("alphabeta", &game, 1, 0, Limits::nodes(1_000_000));
        assert_eq!(name(&game, result.best), best, "{text}");
        assert_eq!(result.report.score, score, "{text}");
        // Iterative deepening ends at the first depth that proves it.
        let plies = match score {
            Score::Mate(n) if n > 0 => (2 * n - 1) as u32,
            Score::Mate(n) => (-2 * n) as u32,
            Score::Cp(_) => unreachable!(),
        };
        assert!(result.report.depth <= plies.max(2), "{text}");
    }
    for text in [DRAW, DOUBLE_MOVES] {
        let game = Tree::parse(text).root();
        let result = search("alphabeta", &game, 1, 0, Limits::depth(8));
        assert_eq!(name(&game, result.best), "b");
        assert_eq!(result.report.score, Score::Cp(0));
    }
}

#[test]
fn both_searchers_agree_with_the_solution_of_random_trees() {
    for seed in 0..12 {
        let tree = Tree::parse(&Tree::random_text(3, 5, seed));
        let game = tree.root();
        let truth = solved(&game);
        for searcher in ["mcts", "alphabeta"] {
            let limits = if searcher == "mcts" {
                Limits::nodes(50_000)
            } else {
                Limits::depth(6)
            };
            let result = search(searcher, &game, 1, seed, limits);
            let played = value_of_move(&game, result.best, 1000);
            assert_eq!(
                played.signum(),
                truth.signum(),
                "{searcher}, tree {seed}: plays a move of the game's value"
            );
            match result.report.score {
                Score::Mate(n) => assert_eq!(n.signum(), truth.signum(), "{searcher} {seed}"),
                Score::Cp(cp) => {
                    assert_eq!(truth, 0, "{searcher} {seed}: {cp}");
                    assert_eq!(cp, 0, "{searcher} {seed}")
                }
            }
            if searcher == "alphabeta" {
                // A complete search: the exact distances too.
                assert_eq!(result.report.score, to_score(truth), "tree {seed}");
                assert_eq!(played, truth, "tree {seed}");
            } else {
                assert!(result.report.nodes < 50_000, "tree {seed}: proven");
            }
        }
    }
}

#[test]
fn alphabeta_values_are_exact_minimax_at_every_depth() {
    for seed in 0..6 {
        let tree = Tree::parse(&Tree::random_text(3, 7, 100 + seed));
        let game = tree.root();
        for depth in 1..=8 {
            let expected = minimax(&tree, 0, depth, 0);
            let result = search("alphabeta", &game, 1, 0, Limits::depth(depth));
            assert_eq!(result.report.depth, depth, "tree {seed}");
            assert_eq!(
                result.report.score,
                to_score(expected),
                "tree {seed} depth {depth}"
            );
            assert_eq!(
                value_of_move(&game, result.best, depth),
                expected,
                "tree {seed} depth {depth}: the move played has the value reported"
            );
        }
    }
}

#[test]
fn transpositions_give_the_values_of_the_unfolded_tree() {
    for seed in 0..4 {
        let dag = Tree::parse(&Tree::layered_text(6, 9, 3, seed));
        let unfolded = Tree::parse(&dag.unfolded_text());
        assert!(
            unfolded.nodes.len() > 5 * dag.nodes.len(),
            "many transpositions"
        );
        let mut dag_nodes = 0;
        let mut tree_nodes = 0;
        for depth in 1..=9 {
            let expected = minimax(&dag, 0, depth, 0);
            assert_eq!(minimax(&unfolded, 0, depth, 0), expected);
            let through_tt = search("alphabeta", &dag.root(), 1, 0, Limits::depth(depth));
            let without = search("alphabeta", &unfolded.root(), 1, 0, Limits::depth(depth));
            assert_eq!(
                through_tt.report.score,
                to_score(expected),
                "dag {seed} depth {depth}"
            );
            assert_eq!(without.report.score, to_score(expected));
            dag_nodes += through_tt.report.nodes;
            tree_nodes += without.report.nodes;
        }
        // The table recognises the transpositions: far fewer nodes.
        assert!(
            dag_nodes * 2 < tree_nodes,
            "dag {seed}: {dag_nodes} nodes against {tree_nodes}"
        );
    }
}

#[test]
fn transpositions_at_different_plies_keep_mate_distances() {
    // `t` is reached after 2 plies through `x` and after 4 through `y`:
    // the table's entry for it must be read relative to the ply it is met
    // at (were it not, `y`, searched first, would tie with `x`).
    let text = "
        root p1 : y x
        x    p2 : t
        y    p2 : y1
        y1   p1 : y2
        y2   p2 : t
        t    p1 : t1 t2
        t1   p2 = p1
        t2   p2 : t3
        t3   p1 = p2
    ";
    let game = Tree::parse(text).root();
    assert_eq!(to_score(solved(&game)), Score::Mate(2));
    for depth in 3..=7 {
        let result = search("alphabeta", &game, 1, 0, Limits::depth(depth));
        assert_eq!(name(&game, result.best), "x", "depth {depth}");
        assert_eq!(result.report.score, Score::Mate(2), "depth {depth}");
    }
    let result = search("mcts", &game, 1, 0, Limits::nodes(10_000));
    assert_eq!(name(&game, result.best), "x");
    assert_eq!(result.report.score, Score::Mate(2));
}

#[test]
fn the_solver_of_this_test_agrees_with_plain_minimax() {
    for seed in 0..6 {
        let tree = Tree::parse(&Tree::random_text(3, 6, 300 + seed));
        assert_eq!(solved(&tree.root()), minimax(&tree, 0, 1000, 0));
    }
}

#[test]
fn alphabeta_solves_dags_with_transpositions_at_any_ply() {
    for seed in 0..20 {
        let dag = Tree::parse(&Tree::random_dag_text(40, 3, seed));
        let game = dag.root();
        let truth = solved(&game);
        for threads in [1, 2] {
            let result = search("alphabeta", &game, threads, seed, Limits::depth(40));
            assert_eq!(
                result.report.score,
                to_score(truth),
                "dag {seed}, {threads} threads"
            );
            let mut memo = HashMap::new();
            let child = solve(&dag, result.best, &mut memo);
            let played = if dag.nodes[result.best as usize].side == game.side_to_move() {
                child
            } else {
                -child
            };
            assert_eq!(
                played - played.signum() * (played.abs() > MATE_BOUND) as i32,
                truth
            );
        }
    }
}

/// A tree far larger than the searches below: nothing ends them but the
/// limit.
fn big_game() -> TreeGame {
    // Drawn leaves only: no proof ends a search early.
    let text = Tree::random_text(4, 8, 7)
        .replace("= p1", "= draw")
        .replace("= p2", "= draw");
    let tree = Tree::parse(&text);
    assert!(tree.nodes.len() > 10_000, "{}", tree.nodes.len());
    tree.root()
}

#[test]
fn node_limits_are_exact_with_one_thread() {
    let game = big_game();
    for searcher in ["alphabeta", "mcts", "uct-plain"] {
        for nodes in [1, 7, 100, 1_234, 5_000] {
            let result = search(searcher, &game, 1, 3, Limits::nodes(nodes));
            assert_eq!(result.report.nodes, nodes, "{searcher}");
            // A search cut before its first move was searched has no
            // result to report: never a mate.
            assert!(
                matches!(result.report.score, Score::Cp(_)),
                "{searcher} {nodes}: {:?}",
                result.report.score
            );
            assert!(game.node().children.contains(&result.best));
        }
    }
}

#[test]
fn depth_limits_are_reached_exactly() {
    let game = big_game();
    for depth in 1..=6 {
        let ab = search("alphabeta", &game, 1, 0, Limits::depth(depth));
        assert_eq!(ab.report.depth, depth);
        assert_eq!(ab.report.score, to_score(minimax(game.tree(), 0, depth, 0)));
        // MCTS grows its tree one ply per iteration at most: it stops on
        // the first path that reaches the depth.
        let mcts = search("mcts", &game, 1, 0, Limits::depth(depth));
        assert_eq!(mcts.report.seldepth, depth);
        let plain = search("uct-plain", &game, 1, 0, Limits::depth(depth));
        assert_eq!(plain.report.seldepth, depth);
    }
}

#[test]
fn two_threads_find_the_same_proofs() {
    let cases = PROVEN
        .iter()
        .map(|&(text, best, score)| (text, best, score))
        .chain([(DRAW, "b", Score::Cp(0)), (DOUBLE_MOVES, "b", Score::Cp(0))]);
    for (text, best, score) in cases {
        let game = Tree::parse(text).root();
        for seed in 0..4 {
            // Once the root is proven, a helper thread may claim (empty)
            // iterations until the main thread sees it: the limit is far
            // above what a proof takes, and what the search would reach
            // without one in a second.
            let mcts = search("mcts", &game, 2, seed, Limits::nodes(20_000_000));
            assert_eq!(name(&game, mcts.best), best, "mcts seed {seed}: {text}");
            assert_eq!(mcts.report.score, score, "mcts seed {seed}: {text}");
            assert!(mcts.report.nodes < 20_000_000, "proven: {text}");
        }
        let ab = search("alphabeta", &game, 2, 0, Limits::depth(9));
        assert_eq!(name(&game, ab.best), best, "alphabeta: {text}");
        assert_eq!(ab.report.score, score, "alphabeta: {text}");
    }
    for seed in 0..6 {
        let tree = Tree::parse(&Tree::random_text(3, 5, 200 + seed));
        let game = tree.root();
        let truth = solved(&game);
        let ab = search("alphabeta", &game, 2, seed, Limits::depth(7));
        assert_eq!(ab.report.score, to_score(truth), "tree {seed}");
        let mcts = search("mcts", &game, 2, seed, Limits::nodes(20_000_000));
        assert_eq!(
            value_of_move(&game, mcts.best, 1000).signum(),
            truth.signum()
        );
        assert!(mcts.report.nodes < 20_000_000, "tree {seed}: proven");
    }
}

/// Searches `game` at the end of `path` with a searcher kept between
/// moves (as a session does).
fn search_along(
    searcher: &mut Box<dyn Searcher<TreeGame>>,
    settings: &SearchSettings,
    start: &TreeGame,
    moves: &[&str],
    limits: Limits,
) -> SearchResult<u16> {
    let mut game = start.clone();
    let mut path = GamePath {
        start_key: start.hash(),
        moves: Vec::new(),
    };
    for mv in moves {
        let mv = game.parse_move(mv).unwrap();
        path.moves.push(mv as u32);
        game.play(mv);
    }
    let stop = AtomicBool::new(false);
    let mut progress = |_: &Report<u16>| {};
    let mut ctx = Context::new(Instant::now(), &stop, &mut progress);
    let root = Root {
        position: &game,
        path: &path,
    };
    searcher.search(&root, settings, &limits, &mut ctx)
}

#[test]
fn mcts_reuses_a_tree_cut_down_to_its_budget() {
    // At `a`, p2 has 100 quiet moves of 200 answers each and two moves,
    // `b` and `c`, that lose to one of p1's 200 answers. The first search
    // expands everything and proves `b` and `c`; when the tree moves to
    // `a`, 1 MiB keeps (an eighth of it, 5,461 nodes) only the children of
    // the first 27 or so of a's moves: the others stay, proven or not, but
    // without children. Then the game goes on to `b` or `c`.
    let mut text = String::from("root p1 : a\n");
    let moves: Vec<String> = (0..100)
        .map(|i| format!("d{i}"))
        .chain(["b".to_string(), "c".to_string()])
        .collect();
    text.push_str(&format!("a p2 : {}\n", moves.join(" ")));
    for parent in &moves {
        let children: Vec<String> = (0..200).map(|i| format!("{parent}.{i}")).collect();
        text.push_str(&format!("{parent} p1 : {}\n", children.join(" ")));
        for (i, child) in children.iter().enumerate() {
            let won = parent.len() == 1 && i == 123;
            let result = if won { "p1" } else { "draw" };
            text.push_str(&format!("{child} p2 = {result}\n"));
        }
    }
    let start = Tree::parse(&text).root();
    for seed in 0..3 {
        for next in ["b", "c"] {
            let mut mcts = build::<TreeGame>("mcts", &Setup::default()).unwrap();
            assert_eq!(mcts.allocate(1), None);
            let settings = SearchSettings {
                seed,
                ..SearchSettings::default()
            };
            search_along(&mut mcts, &settings, &start, &[], Limits::nodes(60_000));
            search_along(&mut mcts, &settings, &start, &["a"], Limits::nodes(1_000));
            let third = search_along(
                &mut mcts,
                &settings,
                &start,
                &["a", next],
                Limits::nodes(5_000),
            );
            let winner = format!("{next}.123");
            let position = start.after("a").after(next);
            assert_eq!(position.format_move(third.best), winner, "seed {seed}");
            assert_eq!(third.report.score, Score::Mate(1), "seed {seed}");
        }
    }
}

/// A root proven drawn: `draw` holds it, `lose` and `deep` lose (the
/// latter only after p2's right reply), `safe` draws too.
const DRAWN: &str = "
root p1 : lose draw deep safe
lose p2 : l1
l1   p1 = p2
draw p2 = draw
deep p2 : d1 d2
d1   p1 = p2
d2   p1 = draw
safe p2 : s1
s1   p1 = draw
";

/// After a proven draw the searched move is kept unless a proof shows it
/// loses; then the move holding the draw is played, reported as a draw.
#[test]
fn a_proven_draw_keeps_a_searched_move_only_if_it_does_not_lose() {
    use quintet::session::proofs::hold_the_draw;
    use quintet::solve::{self, Budget, ProofTable};
    let game = Tree::parse(DRAWN).root();
    let table = ProofTable::new(1);
    let proof = solve::prove(&game, &Budget::default(), &table, 1);
    assert_eq!(proof.value, Some(Outcome::Draw));
    let holding = game.parse_move("draw").unwrap();
    let stop = AtomicBool::new(false);
    for (searched, kept) in [
        ("lose", false),
        ("deep", false),
        ("safe", true),
        ("draw", true),
    ] {
        let mv = game.parse_move(searched).unwrap();
        let mut result = SearchResult {
            best: mv,
            report: Report {
                score: Score::Cp(250),
                pv: vec![mv],
                ..Report::empty(10, 1)
            },
        };
        hold_the_draw(&game, &mut result, holding, &table, None, &stop);
        let expected = if kept { mv } else { holding };
        assert_eq!(result.best, expected, "{searched}");
        assert_eq!(result.report.pv, vec![expected], "{searched}");
        let score = if kept { Score::Cp(250) } else { Score::Cp(0) };
        assert_eq!(result.report.score, score, "{searched}");
    }
}

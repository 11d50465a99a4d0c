//! A test game whose whole tree is written out: every node names its side
//! to move, its evaluation (for alpha-beta's horizon) and either its
//! children or its result. Turns need not alternate, and two parents may
//! share a child (a transposition: the same node, the same hash).
//!
//! The text has one node per line, the root first:
//!
//! ```text
//! root p1 5 : a b      # name, side to move, evaluation (optional), children
//! a    p2   : c
//! b    p2   : c        # `c` is reached twice: a transposition
//! c    p1   = p2       # a leaf: p1 (first seat) wins, p2 wins, or draw
//! ```
//!
//! A move is the node it leads to; its text is that node's name, and the
//! position text is the name of the current node.

use quintet::games::{Game, GameRng, Outcome, Seat};
use rand::{Rng, SeedableRng};
use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

/// One node of the written tree.
#[derive(Clone, Debug)]
pub struct TreeNode {
    pub name: String,
    pub side: Seat,
    /// The side to move's static evaluation.
    pub eval: i32,
    /// Node indices of the children (empty at a leaf).
    pub children: Vec<u16>,
    /// The result at a leaf.
    pub result: Option<Outcome>,
}

/// A whole game tree (a DAG) with its Zobrist keys.
pub struct Tree {
    pub nodes: Vec<TreeNode>,
    keys: Vec<u64>,
}

fn seat(word: &str) -> Result<Seat, String> {
    match word {
        "p1" => Ok(Seat::P1),
        "p2" => Ok(Seat::P2),
        _ => Err(format!("'{word}' is not p1 or p2")),
    }
}

impl Tree {
    /// Reads the text described above; panics with the reason when it is
    /// malformed (a test's own tree).
    pub fn parse(text: &str) -> Arc<Tree> {
        Self::try_parse(text).unwrap_or_else(|e| panic!("bad tree: {e}"))
    }

    pub fn try_parse(text: &str) -> Result<Arc<Tree>, String> {
        struct Line<'a> {
            name: &'a str,
            side: Seat,
            eval: i32,
            children: Vec<&'a str>,
            result: Option<Outcome>,
        }
        let mut lines = Vec::new();
        for raw in text.lines() {
            let line = raw.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let (head, tail, leaf) = match (line.split_once(':'), line.split_once('=')) {
                (Some((h, t)), None) => (h, t, false),
                (None, Some((h, t))) => (h, t, true),
                _ => return Err(format!("'{line}' needs one ':' or one '='")),
            };
            let head: Vec<&str> = head.split_whitespace().collect();
            let (name, side, eval) = match head[..] {
                [name, side] => (name, seat(side)?, 0),
                [name, side, eval] => (
                    name,
                    seat(side)?,
                    eval.parse()
                        .map_err(|_| format!("bad evaluation '{eval}'"))?,
                ),
                _ => return Err(format!("'{line}': name, side and evaluation expected")),
            };
            let (children, result) = if leaf {
                let result = match tail.trim() {
                    "p1" => Outcome::Win(Seat::P1),
                    "p2" => Outcome::Win(Seat::P2),
                    "draw" => Outcome::Draw,
                    other => return Err(format!("'{other}' is not p1, p2 or draw")),
                };
                (Vec::new(), Some(result))
            } else {
                let children: Vec<&str> = tail.split_whitespace().collect();
                if children.is_empty() {
                    return Err(format!("'{name}' has neither children nor a result"));
                }
                (children, None)
            };
            lines.push(Line {
                name,
                side,
                eval,
                children,
                result,
            });
        }
        if lines.is_empty() || lines.len() > u16::MAX as usize {
            return Err("a tree has 1 to 65535 nodes".into());
        }
        let mut ids: HashMap<&str, usize> = HashMap::new();
        for (i, line) in lines.iter().enumerate() {
            if ids.insert(line.name, i).is_some() {
                return Err(format!("'{}' is defined twice", line.name));
            }
        }
        let index = |name: &str| ids.get(name).copied();
        let mut nodes = Vec::with_capacity(lines.len());
        for line in &lines {
            let mut children = Vec::new();
            for child in &line.children {
                let c = index(child)
                    .ok_or_else(|| format!("'{}' names an undefined child '{child}'", line.name))?;
                if children.contains(&(c as u16)) {
                    return Err(format!("'{}' lists '{child}' twice", line.name));
                }
                children.push(c as u16);
            }
            nodes.push(TreeNode {
                name: line.name.to_string(),
                side: line.side,
                eval: line.eval,
                children,
                result: line.result,
            });
        }
        // A game ends: no node may be reached from itself.
        fn acyclic(nodes: &[TreeNode], at: usize, mark: &mut [u8]) -> bool {
            match mark[at] {
                1 => return false,
                2 => return true,
                _ => {}
            }
            mark[at] = 1;
            let ok = nodes[at]
                .children
                .iter()
                .all(|&c| acyclic(nodes, c as usize, mark));
            mark[at] = 2;
            ok
        }
        let mut mark = vec![0u8; nodes.len()];
        if !acyclic(&nodes, 0, &mut mark) {
            return Err("the tree has a cycle".into());
        }
        // A fixed random table: the same tree text always has the same keys.
        let mut rng = GameRng::seed_from_u64(0x7ee0_6a3e);
        let keys = (0..nodes.len()).map(|_| rng.next_u64()).collect();
        Ok(Arc::new(Tree { nodes, keys }))
    }

    /// The index of the node named `name`.
    pub fn id(&self, name: &str) -> u16 {
        self.nodes
            .iter()
            .position(|n| n.name == name)
            .unwrap_or_else(|| panic!("no node '{name}'")) as u16
    }

    /// The game at the root.
    pub fn root(self: &Arc<Self>) -> TreeGame {
        TreeGame {
            tree: Arc::clone(self),
            at: 0,
        }
    }

    /// A random tree as text: `depth` plies of `branching` children,
    /// leaves with random results (some branches end early), random
    /// evaluations, and a side to move that usually alternates but now and
    /// then stays (a turn of two moves).
    pub fn random_text(branching: usize, depth: u32, seed: u64) -> String {
        let mut rng = GameRng::seed_from_u64(seed);
        let mut text = String::new();
        let mut queue = vec![("n".to_string(), Seat::P1, 0u32)];
        while let Some((name, side, ply)) = queue.pop() {
            let roll = rng.next_u32() % 100;
            let eval = (rng.next_u32() % 201) as i32 - 100;
            let leaf = ply == depth || (ply >= 2 && roll < 12);
            if leaf {
                let result = ["p1", "p2", "draw"][(rng.next_u32() % 3) as usize];
                text.push_str(&format!("{name} {} = {result}\n", side.name()));
                continue;
            }
            let names: Vec<String> = (0..branching).map(|i| format!("{name}.{i}")).collect();
            text.push_str(&format!(
                "{name} {} {eval} : {}\n",
                side.name(),
                names.join(" ")
            ));
            for child in names.into_iter().rev() {
                let next = if rng.next_u32() % 100 < 15 {
                    side
                } else {
                    side.other()
                };
                queue.push((child, next, ply + 1));
            }
        }
        text
    }

    /// A random DAG as text: `count` nodes in order, each with up to
    /// `branching` children among the next few nodes (so a node is often
    /// reached along paths of different lengths); the last nodes, and a
    /// few others, are leaves with random results; sides to move random.
    pub fn random_dag_text(count: usize, branching: usize, seed: u64) -> String {
        let mut rng = GameRng::seed_from_u64(seed);
        let mut text = String::new();
        for i in 0..count {
            let side = if rng.next_u32().is_multiple_of(2) {
                "p1"
            } else {
                "p2"
            };
            let later = count - i - 1;
            if later == 0 || (i > 0 && rng.next_u32() % 100 < 10) {
                let result = ["p1", "p2", "draw"][(rng.next_u32() % 3) as usize];
                text.push_str(&format!("d{i} {side} = {result}\n"));
                continue;
            }
            let mut children: Vec<usize> = Vec::new();
            while children.len() < branching.min(later.min(6)) {
                let c = i + 1 + (rng.next_u32() as usize) % later.min(6);
                if !children.contains(&c) {
                    children.push(c);
                }
            }
            let names: Vec<String> = children.iter().map(|c| format!("d{c}")).collect();
            let eval = (rng.next_u32() % 201) as i32 - 100;
            text.push_str(&format!("d{i} {side} {eval} : {}\n", names.join(" ")));
        }
        text
    }

    /// A random layered DAG as text: `layers` layers of `width` nodes;
    /// each node has `branching` children in the next layer, so every
    /// path to a node has the same length (transpositions meet at the same
    /// ply). The last layer holds leaves.
    pub fn layered_text(width: usize, layers: usize, branching: usize, seed: u64) -> String {
        let mut rng = GameRng::seed_from_u64(seed);
        let name = |layer: usize, i: usize| format!("l{layer}n{i}");
        let side = |layer: usize| if layer.is_multiple_of(2) { "p1" } else { "p2" };
        let mut text = String::new();
        for layer in 0..layers {
            let count = if layer == 0 { 1 } else { width };
            for i in 0..count {
                if layer + 1 == layers {
                    let result = ["p1", "p2", "draw"][(rng.next_u32() % 3) as usize];
                    text.push_str(&format!("{} {} = {result}\n", name(layer, i), side(layer)));
                    continue;
                }
                let mut children: Vec<usize> = Vec::new();
                while children.len() < branching.min(width) {
                    let c = (rng.next_u32() as usize) % width;
                    if !children.contains(&c) {
                        children.push(c);
                    }
                }
                let eval = (rng.next_u32() % 201) as i32 - 100;
                let children: Vec<String> = children.iter().map(|&c| name(layer + 1, c)).collect();
                text.push_str(&format!(
                    "{} {} {eval} : {}\n",
                    name(layer, i),
                    side(layer),
                    children.join(" ")
                ));
            }
        }
        text
    }

    /// The same game with every transposition written out as its own
    /// nodes (new names, so new hashes): a tree.
    pub fn unfolded_text(&self) -> String {
        let mut text = String::new();
        let mut counter = 0usize;
        fn walk(tree: &Tree, at: u16, label: String, counter: &mut usize, text: &mut String) {
            let node = &tree.nodes[at as usize];
            let side = node.side.name();
            match node.result {
                Some(result) => {
                    let word = match result {
                        Outcome::Win(s) => s.name(),
                        Outcome::Draw => "draw",
                    };
                    text.push_str(&format!("{label} {side} = {word}\n"));
                }
                None => {
                    let labels: Vec<String> = node
                        .children
                        .iter()
                        .map(|_| {
                            *counter += 1;
                            format!("u{counter}")
                        })
                        .collect();
                    text.push_str(&format!(
                        "{label} {side} {} : {}\n",
                        node.eval,
                        labels.join(" ")
                    ));
                    for (&child, label) in node.children.iter().zip(labels) {
                        walk(tree, child, label, counter, text);
                    }
                }
            }
        }
        walk(self, 0, "u0".into(), &mut counter, &mut text);
        text
    }
}

/// A position of a [`Tree`]: the node the game is at.
#[derive(Clone)]
pub struct TreeGame {
    tree: Arc<Tree>,
    at: u16,
}

impl TreeGame {
    pub fn node(&self) -> &TreeNode {
        &self.tree.nodes[self.at as usize]
    }

    pub fn tree(&self) -> &Arc<Tree> {
        &self.tree
    }

    /// The position after the move to the child named `name`.
    pub fn after(&self, name: &str) -> TreeGame {
        let mv = self.parse_move(name).expect("a child of this node");
        let mut next = self.clone();
        next.play(mv);
        next
    }
}

impl PartialEq for TreeGame {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.tree, &other.tree) && self.at == other.at
    }
}

impl fmt::Debug for TreeGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "TreeGame({})", self.node().name)
    }
}

impl Game for TreeGame {
    type Move = u16;
    type Undo = u16;

    fn describe(&self) -> String {
        format!("tree nodes={}", self.tree.nodes.len())
    }

    fn side_to_move(&self) -> Seat {
        self.node().side
    }

    fn legal_moves(&self, moves: &mut Vec<u16>) {
        moves.clear();
        moves.extend_from_slice(&self.node().children);
    }

    fn make(&mut self, mv: u16) -> u16 {
        debug_assert!(self.node().children.contains(&mv), "an illegal move");
        std::mem::replace(&mut self.at, mv)
    }

    fn unmake(&mut self, _mv: u16, undo: u16) {
        self.at = undo;
    }

    fn outcome(&self) -> Option<Outcome> {
        self.node().result
    }

    fn hash(&self) -> u64 {
        self.tree.keys[self.at as usize]
    }

    fn hash_from_scratch(&self) -> u64 {
        self.hash()
    }

    fn parse_move(&self, text: &str) -> Result<u16, String> {
        self.node()
            .children
            .iter()
            .copied()
            .find(|&c| {
                self.tree.nodes[c as usize]
                    .name
                    .eq_ignore_ascii_case(text.trim())
            })
            .ok_or_else(|| format!("'{text}' is not a child of '{}'", self.node().name))
    }

    fn format_move(&self, mv: u16) -> String {
        self.tree.nodes[mv as usize].name.clone()
    }

    fn position_text(&self) -> String {
        self.node().name.clone()
    }

    fn read_position(&self, text: &str) -> Result<Self, String> {
        let at = self
            .tree
            .nodes
            .iter()
            .position(|n| n.name.eq_ignore_ascii_case(text.trim()))
            .ok_or_else(|| format!("no node '{text}'"))?;
        Ok(TreeGame {
            tree: Arc::clone(&self.tree),
            at: at as u16,
        })
    }

    fn render(&self) -> String {
        let names: Vec<String> = self
            .node()
            .children
            .iter()
            .map(|&c| self.format_move(c))
            .collect();
        format!(
            "{} ({} to move): {}\n",
            self.node().name,
            self.node().side.name(),
            names.join(" ")
        )
    }

    fn evaluate(&self) -> i32 {
        self.node().eval
    }
}

//! What the proof search needs of a position: a small trait, implemented
//! for every [`Game`] by [`GameNode`] and by solvers that know more about
//! one game (Hadron's sums of regions).

use crate::games::{Game, Outcome, Seat};

/// A position the proof search can walk.
pub trait Node {
    type Move: Copy + Eq + std::fmt::Debug;
    type Undo;
    /// Per-thread caches the position needs (`()` for plain games).
    type Context;

    fn mover(&self) -> Seat;
    /// The value, where it is known without search: the game is over, or an
    /// exact reduction decides it.
    fn exact(&mut self, ctx: &mut Self::Context) -> Option<Outcome>;
    /// The moves; not empty where `exact` is `None`.
    fn moves(&mut self, ctx: &mut Self::Context, out: &mut Vec<Self::Move>);
    fn make(&mut self, ctx: &mut Self::Context, mv: Self::Move) -> Self::Undo;
    fn unmake(&mut self, mv: Self::Move, undo: Self::Undo);
    /// The table key: equal exactly for positions whose value is equal for
    /// every question (symmetric images included), whatever the path.
    fn key(&self, ctx: &mut Self::Context) -> u64;
    /// The key by which the rules recognise a repeated position, or `None`
    /// where positions never recur (then the search skips cycle checks).
    fn repetition_key(&self) -> Option<u64>;
    /// Whether the game can be drawn (then the two sides' goals are not a
    /// win each, and table keys must say which side asks).
    fn can_draw(&self) -> bool;
    /// Initial (phi, delta) of an unexplored position, from the side to
    /// move's view; (1, 1) knows nothing.
    fn estimate(&mut self, _ctx: &mut Self::Context) -> (u32, u32) {
        (1, 1)
    }
    /// Whether the context stopped work inside a move at the budget's
    /// deadline: positions made since then may be wrong, so the search
    /// must neither store nor report anything from there on.
    fn interrupted(_ctx: &Self::Context) -> bool {
        false
    }
    /// Takes a search's context when the search is done (a solver that
    /// keeps caches from one proof to the next keeps it).
    fn release(_ctx: Self::Context) {}
}

/// Any [`Game`] as a proof-search node, with the game's symmetries in its
/// key and repetitions watched where the game has them.
#[derive(Clone, Debug)]
pub struct GameNode<G: Game> {
    pub game: G,
    /// Mixed into every key: the positions the history already holds twice
    /// (their next occurrence is a draw), which the values depend on.
    history_salt: u64,
    repeats: bool,
    draws: bool,
}

impl<G: Game> GameNode<G> {
    pub fn new(game: G) -> Self {
        GameNode {
            repeats: game.can_repeat(),
            draws: game.can_draw(),
            history_salt: game.history_salt(),
            game,
        }
    }

    /// The key [`Node::key`] gives `game`, without building a node.
    pub fn table_key(game: &G) -> u64 {
        game.canonical_key() ^ game.history_salt()
    }
}

impl<G: Game> Node for GameNode<G> {
    type Move = G::Move;
    type Undo = G::Undo;
    type Context = ();

    fn mover(&self) -> Seat {
        self.game.side_to_move()
    }

    /// `outcome` is `Some` exactly when the game is over (the trait's
    /// contract), and in every game it is cheaper than listing the moves,
    /// which this asks of every child at expansion (a third of Tritium's
    /// solve time when it listed them).
    fn exact(&mut self, _ctx: &mut ()) -> Option<Outcome> {
        self.game.outcome()
    }

    fn moves(&mut self, _ctx: &mut (), out: &mut Vec<G::Move>) {
        self.game.legal_moves(out);
    }

    fn make(&mut self, _ctx: &mut (), mv: G::Move) -> G::Undo {
        self.game.make(mv)
    }

    fn unmake(&mut self, mv: G::Move, undo: G::Undo) {
        self.game.unmake(mv, undo);
    }

    fn key(&self, _ctx: &mut ()) -> u64 {
        self.game.canonical_key() ^ self.history_salt
    }

    fn repetition_key(&self) -> Option<u64> {
        self.repeats.then(|| self.game.hash())
    }

    fn can_draw(&self) -> bool {
        self.draws
    }
}

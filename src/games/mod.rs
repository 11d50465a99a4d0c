//! The games and the one trait every game implements.
//!
//! A game is a position type: it knows its rules, its move and position text,
//! its Zobrist hash and a static evaluation, and nothing about I/O or search.
//! Searchers and the protocol only ever talk to [`Game`].

pub mod atoms;
pub mod bitboard;
pub mod config;
pub mod features;
pub mod hadron;
pub mod hexhex;
pub mod ihex;
pub mod nadraz;
pub mod picture;
pub mod rhombus;
pub mod square;
pub mod tritium;
pub mod zobrist;

pub use config::{DEFAULT_GAME, GameConfig};
pub use features::{FeatureRows, FeatureSet};

use rand::Rng;
use rand_xoshiro::Xoshiro256PlusPlus;
use std::fmt::Debug;
use std::hash::Hash;

/// The random number generator used by playouts and searchers.
pub type GameRng = Xoshiro256PlusPlus;

/// A uniformly random index below `n` (n > 0), by multiply-high: no division.
#[inline]
pub fn random_below(rng: &mut GameRng, n: usize) -> usize {
    Dice(rng.next_u64()).roll(n)
}

/// Several small uniform draws from one random word: each roll takes the
/// high part of word * n and keeps the low part as the next fraction (the
/// bias is of the order n / 2^64 per roll).
pub struct Dice(pub u64);

impl Dice {
    #[inline]
    pub fn roll(&mut self, n: usize) -> usize {
        let product = self.0 as u128 * n as u128;
        self.0 = product as u64;
        (product >> 64) as usize
    }
}

/// A seat at the table: `P1` moves first in the game.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Seat {
    P1 = 0,
    P2 = 1,
}

impl Seat {
    pub fn other(self) -> Seat {
        match self {
            Seat::P1 => Seat::P2,
            Seat::P2 => Seat::P1,
        }
    }

    pub fn index(self) -> usize {
        self as usize
    }

    pub fn name(self) -> &'static str {
        match self {
            Seat::P1 => "p1",
            Seat::P2 => "p2",
        }
    }
}

/// How a finished game ended, per seat.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    Win(Seat),
    Draw,
}

impl Outcome {
    /// 1 for a win, 0.5 for a draw, 0 for a loss, seen from `seat`.
    #[inline]
    pub fn reward_for(self, seat: Seat) -> f32 {
        match self {
            Outcome::Win(winner) if winner == seat => 1.0,
            Outcome::Win(_) => 0.0,
            Outcome::Draw => 0.5,
        }
    }

    /// The UGI word: `p1win`, `p2win` or `draw`.
    pub fn ugi_word(self) -> &'static str {
        match self {
            Outcome::Win(Seat::P1) => "p1win",
            Outcome::Win(Seat::P2) => "p2win",
            Outcome::Draw => "draw",
        }
    }
}

/// A move that packs into 32 bits (transposition tables store it so).
pub trait CompactMove: Copy + Eq + Hash + Debug + Default + Send + Sync + 'static {
    fn pack(self) -> u32;
    fn unpack(bits: u32) -> Self;
}

impl CompactMove for u16 {
    #[inline]
    fn pack(self) -> u32 {
        self as u32
    }
    #[inline]
    fn unpack(bits: u32) -> Self {
        bits as u16
    }
}

impl CompactMove for u32 {
    #[inline]
    fn pack(self) -> u32 {
        self
    }
    #[inline]
    fn unpack(bits: u32) -> Self {
        bits
    }
}

/// The rules of one game, as one position type.
///
/// Conventions every implementation follows:
/// - `legal_moves` clears the buffer and fills it; it is empty exactly when
///   the game is over (a forced pass is a legal move, not an empty list);
/// - `outcome` is `Some` exactly when the game is over (it may be slower
///   than `legal_moves`; searchers call it only at terminal positions);
/// - `make` followed by `unmake` restores the position exactly;
/// - `hash` is maintained incrementally and always equals `hash_from_scratch`;
/// - `evaluate` scores the position for the side to move (about 100 per
///   "unit" of advantage; it never returns values near the mate range).
pub trait Game: Clone + PartialEq + Debug + Send + Sync + 'static {
    type Move: CompactMove;
    /// What `unmake` needs to take a move back.
    type Undo;

    /// The game and its parameters, e.g. `hadron size=5`.
    fn describe(&self) -> String;
    fn side_to_move(&self) -> Seat;
    fn legal_moves(&self, moves: &mut Vec<Self::Move>);
    /// The legal moves a search needs to look at: `legal_moves` less any
    /// that give the same game as a move kept (in Tritium a flag on any
    /// tile of one free region). Rules, perft and `uct-plain` keep
    /// `legal_moves`.
    fn search_moves(&self, moves: &mut Vec<Self::Move>) {
        self.legal_moves(moves);
    }
    fn make(&mut self, mv: Self::Move) -> Self::Undo;
    fn unmake(&mut self, mv: Self::Move, undo: Self::Undo);
    fn outcome(&self) -> Option<Outcome>;
    fn hash(&self) -> u64;
    fn hash_from_scratch(&self) -> u64;

    /// Reads a move in this game's notation (case-insensitive). Only the
    /// syntax and the board's bounds are checked here, not legality.
    fn parse_move(&self, text: &str) -> Result<Self::Move, String>;
    /// The canonical text of a move.
    fn format_move(&self, mv: Self::Move) -> String;

    /// The position text (round-trips through `read_position`).
    fn position_text(&self) -> String;
    /// A position of this game (same variant) read from its text. The board
    /// size comes from the text and must be one `self`'s type can hold.
    fn read_position(&self, text: &str) -> Result<Self, String>;
    /// The board drawn as text, with coordinates.
    fn render(&self) -> String;

    fn evaluate(&self) -> i32;

    /// The evaluation in a search played for `root`: a game may judge a
    /// position for the side it plays otherwise than for its opponent
    /// (Atoms scores a lead the opponent can hold off as mostly a draw,
    /// but its own deficit in full). `evaluate` by default.
    fn evaluate_for(&self, _root: Seat) -> i32 {
        self.evaluate()
    }

    /// Whether `mv` (legal here) takes material, e.g. removes an enemy
    /// atom in Atoms. Alpha-beta goes on searching such moves past its
    /// horizon, so that it does not score a position halfway through an
    /// exchange. None by default.
    fn is_tactical(&self, _mv: Self::Move) -> bool {
        false
    }

    /// A rough number of moves the side to move still has to play (time
    /// management divides the clock by it).
    fn moves_left_estimate(&self) -> u32 {
        30
    }

    /// A uniformly random legal move (`None` when the game is over). Games
    /// override this when they can pick without listing every move.
    fn random_move(&self, rng: &mut GameRng, scratch: &mut Vec<Self::Move>) -> Option<Self::Move> {
        self.legal_moves(scratch);
        if scratch.is_empty() {
            None
        } else {
            Some(scratch[random_below(rng, scratch.len())])
        }
    }

    /// The move a playout plays: by default uniformly random; a game may
    /// bias it with light knowledge (e.g. take an immediate win). It must
    /// return a legal move, and `None` exactly when the game is over.
    fn playout_move(&self, rng: &mut GameRng, scratch: &mut Vec<Self::Move>) -> Option<Self::Move> {
        self.random_move(rng, scratch)
    }

    /// Plays a move that will never be taken back (playouts). Games override
    /// this when skipping the undo record is faster.
    fn play(&mut self, mv: Self::Move) {
        let _ = self.make(mv);
    }

    /// The position as a picture to draw: cells, pieces with their meaning
    /// in the game, and notes (whose turn, counts). `view` turns it into SVG
    /// or coloured text. By default, the text board of `render`.
    fn picture(&self) -> picture::Picture {
        picture::Picture::text(self.describe(), &self.render())
    }

    // ----- For exact solving (src/solve) -----

    /// How many board symmetries preserve the rules of this game (index 0
    /// is the identity). Default: the identity only.
    fn symmetry_count(&self) -> usize {
        1
    }

    /// The position mapped by symmetry `sym` (< `symmetry_count`). The
    /// repetition history is not carried over: the image starts a fresh
    /// one, as a position text does.
    fn symmetric(&self, sym: usize) -> Self {
        let _ = sym;
        self.clone()
    }

    /// A move mapped by symmetry `sym`: legal in `self.symmetric(sym)`
    /// exactly when `mv` is legal here.
    fn symmetric_move(&self, mv: Self::Move, sym: usize) -> Self::Move {
        let _ = sym;
        mv
    }

    /// A key of everything the value of this position depends on except the
    /// repetition history: the hash, plus any state the hash leaves out.
    fn state_key(&self) -> u64 {
        self.hash()
    }

    /// `state_key` made equal for symmetric positions: the least over the
    /// symmetric images. Games override it with something faster.
    fn canonical_key(&self) -> u64 {
        (1..self.symmetry_count())
            .map(|s| self.symmetric(s).state_key())
            .fold(self.state_key(), u64::min)
    }

    /// Whether the game can end in a draw at all.
    fn can_draw(&self) -> bool {
        true
    }

    /// Whether a position can occur twice in a game (a repetition rule
    /// applies), so that a solver must watch for cycles.
    fn can_repeat(&self) -> bool {
        false
    }

    /// The hashes of the positions the game's history already holds twice:
    /// reaching one again is a draw by repetition.
    fn seen_twice(&self) -> Vec<u64> {
        Vec::new()
    }

    /// A salt for search tables from the history: the positions it holds
    /// twice (0 when none). A position's value depends on which lines a
    /// third occurrence draws, so tables mix this into their keys and
    /// never carry a value over to another history.
    fn history_salt(&self) -> u64 {
        let mut twice = self.seen_twice();
        twice.sort_unstable();
        twice
            .iter()
            .fold(0u64, |acc, &h| zobrist::mix64(acc ^ h).wrapping_add(1))
    }

    /// The features a learned model reads (`model`), or `None` when the
    /// game describes none (then it has no learned knowledge).
    fn feature_set(&self) -> Option<FeatureSet> {
        None
    }

    /// The active features of the position (not finished), seen from the
    /// side to move, as indices below `feature_set().position`.
    fn position_features(&self, _out: &mut Vec<u32>) {}

    /// One row of active features per move of `moves` (legal moves of this
    /// position, in order), seen from the side to move, as indices below
    /// `feature_set().moves`.
    fn move_features(&self, moves: &[Self::Move], out: &mut FeatureRows) {
        out.clear();
        for _ in moves {
            out.end_row();
        }
    }
}

/// Splits move text like `R@c3` into its upper-cased piece letter and the rest.
pub fn split_drop(text: &str) -> Option<(char, &str)> {
    let (piece, cell) = text.split_once('@')?;
    let mut chars = piece.chars();
    let letter = chars.next()?.to_ascii_uppercase();
    if chars.next().is_some() {
        return None;
    }
    Some((letter, cell))
}

/// A playout move drawn for a test, checked against the position's legal
/// moves: one of them, and `None` exactly when there are none.
#[cfg(test)]
pub(crate) fn checked_playout_move<G: Game>(
    g: &G,
    legal: &[G::Move],
    rng: &mut GameRng,
    scratch: &mut Vec<G::Move>,
) -> Option<G::Move> {
    let drawn = g.playout_move(rng, scratch);
    assert_eq!(drawn.is_none(), legal.is_empty(), "{}", g.position_text());
    if let Some(mv) = drawn {
        assert!(legal.contains(&mv), "{} not legal", g.format_move(mv));
    }
    drawn
}

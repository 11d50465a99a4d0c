//! A game in progress, behind one object-safe trait: the protocol and the
//! match referee drive any registered game through [`Session`], in move
//! text, without knowing its types. The generic implementation joins a
//! [`Game`] to its [`Searcher`].

use crate::games::CompactMove;
use crate::games::picture::Picture;
use crate::games::{Game, GameRng, Outcome, Seat};
use crate::perft;
use crate::registry::GameConfig;
use crate::search::mcts::Line;
use crate::search::{Context, Info, Limits, Profile, SearchSettings, Searcher};
use crate::selfcheck::{self, Coverage};
use rand::SeedableRng;

/// Totals of a batch of random playouts (the bench and speed reports).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PlayoutStats {
    pub games: u64,
    pub plies: u64,
    pub wins: [u64; 2],
    pub draws: u64,
}

pub trait Session: Send {
    /// The resolved game parameters (sizes and variants filled in).
    fn config(&self) -> &GameConfig;
    /// The game and parameters as text, e.g. `hadron size=5`.
    fn describe(&self) -> String;
    /// Sets the position: the start position or a position text, then the
    /// moves. A bad text leaves the position unchanged; a bad move stops
    /// there, leaving the last legal prefix. Either way the error says why.
    fn set_position(&mut self, text: Option<&str>, moves: &[&str]) -> Result<(), String>;
    /// Plays one move (it must be legal).
    fn play(&mut self, mv: &str) -> Result<(), String>;
    fn side_to_move(&self) -> Seat;
    fn outcome(&self) -> Option<Outcome>;
    fn legal_moves(&self) -> Vec<String>;
    fn is_legal(&self, mv: &str) -> bool;
    fn position_text(&self) -> String;
    /// The start position's text (what `startpos` means here).
    fn start_text(&self) -> String;
    /// The moves played since the last `set_position` base, as text.
    fn moves_played(&self) -> Vec<String>;
    fn render(&self) -> String;
    fn hash(&self) -> u64;
    fn evaluate(&self) -> i32;
    fn perft(&self, depth: u32, threads: usize) -> u64;
    fn split_perft(&self, depth: u32, threads: usize) -> Vec<(String, u64)>;
    /// Allocates search memory now (UGI: after the first `isready`).
    fn prepare(&mut self, settings: &SearchSettings);
    /// Forgets what searches learned (a new game starts).
    fn new_game(&mut self);
    /// Searches the current position; None when the game is over.
    fn search(
        &mut self,
        settings: &SearchSettings,
        limits: &Limits,
        ctx: &mut Context,
    ) -> Option<(String, Info)>;
    /// Plays `count` uniformly random games from the current position.
    fn random_playouts(&self, count: u64, seed: u64) -> PlayoutStats;
    /// Runs the generic consistency check over `games` random games from
    /// the current position.
    fn self_check(&self, games: u64, max_plies: usize, seed: u64) -> Result<Coverage, String>;
    /// A copy of the game so far, with a fresh searcher (answers queries
    /// while this one searches).
    fn fork(&self) -> Box<dyn Session>;
    /// The current position as a picture to draw, the last move marked.
    fn picture(&self) -> Picture;
}

pub struct GameSession<G: Game> {
    config: GameConfig,
    /// The start position of this game (parameters included).
    initial: G,
    /// Where the current move list starts.
    base: G,
    current: G,
    moves: Vec<G::Move>,
    profile: Profile,
    searcher: Searcher<G>,
}

impl<G: Game> GameSession<G> {
    pub fn new(config: GameConfig, initial: G, profile: Profile) -> Self {
        GameSession {
            config,
            base: initial.clone(),
            current: initial.clone(),
            initial,
            moves: Vec::new(),
            searcher: Searcher::new(profile.clone()),
            profile,
        }
    }

    pub fn boxed(config: GameConfig, initial: G, profile: Profile) -> Box<dyn Session> {
        Box::new(Self::new(config, initial, profile))
    }

    fn legal_move(&self, text: &str) -> Result<G::Move, String> {
        let mv = self.current.parse_move(text.trim())?;
        let mut moves = Vec::new();
        self.current.legal_moves(&mut moves);
        if moves.contains(&mv) {
            Ok(mv)
        } else if moves.is_empty() {
            Err(format!("illegal move '{text}': the game is over"))
        } else {
            Err(format!("illegal move '{text}'"))
        }
    }
}

impl<G: Game> Session for GameSession<G> {
    fn config(&self) -> &GameConfig {
        &self.config
    }

    fn describe(&self) -> String {
        self.initial.describe()
    }

    fn set_position(&mut self, text: Option<&str>, moves: &[&str]) -> Result<(), String> {
        let base = match text {
            None => self.initial.clone(),
            Some(text) => self
                .initial
                .read_position(text)
                .map_err(|e| format!("bad position text: {e}"))?,
        };
        self.base = base.clone();
        self.current = base;
        self.moves.clear();
        for (ply, text) in moves.iter().enumerate() {
            self.play(text).map_err(|e| {
                format!(
                    "{e} (move {} of the list; kept the {ply} before it)",
                    ply + 1
                )
            })?;
        }
        Ok(())
    }

    fn play(&mut self, text: &str) -> Result<(), String> {
        let mv = self.legal_move(text)?;
        self.current.play(mv);
        self.moves.push(mv);
        Ok(())
    }

    fn side_to_move(&self) -> Seat {
        self.current.side_to_move()
    }

    fn outcome(&self) -> Option<Outcome> {
        self.current.outcome()
    }

    fn legal_moves(&self) -> Vec<String> {
        let mut moves = Vec::new();
        self.current.legal_moves(&mut moves);
        moves.iter().map(|&m| self.current.format_move(m)).collect()
    }

    fn is_legal(&self, mv: &str) -> bool {
        self.legal_move(mv).is_ok()
    }

    fn position_text(&self) -> String {
        self.current.position_text()
    }

    fn start_text(&self) -> String {
        self.initial.position_text()
    }

    fn moves_played(&self) -> Vec<String> {
        let mut state = self.base.clone();
        self.moves
            .iter()
            .map(|&mv| {
                let text = state.format_move(mv);
                state.play(mv);
                text
            })
            .collect()
    }

    fn render(&self) -> String {
        self.current.render()
    }

    fn hash(&self) -> u64 {
        self.current.hash()
    }

    fn evaluate(&self) -> i32 {
        self.current.evaluate()
    }

    fn perft(&self, depth: u32, threads: usize) -> u64 {
        perft::parallel_perft(&self.current, depth, threads)
    }

    fn split_perft(&self, depth: u32, threads: usize) -> Vec<(String, u64)> {
        perft::split_perft(&self.current, depth, threads)
            .into_iter()
            .map(|(mv, n)| (self.current.format_move(mv), n))
            .collect()
    }

    fn prepare(&mut self, settings: &SearchSettings) {
        self.searcher.prepare(settings);
    }

    fn new_game(&mut self) {
        self.searcher.clear();
    }

    fn search(
        &mut self,
        settings: &SearchSettings,
        limits: &Limits,
        ctx: &mut Context,
    ) -> Option<(String, Info)> {
        if self.current.outcome().is_some() {
            return None;
        }
        let line = Line {
            base_key: self.base.hash(),
            moves: self.moves.iter().map(|m| m.pack()).collect(),
        };
        let result = self
            .searcher
            .search(&self.current, &line, settings, limits, ctx);
        Some((self.current.format_move(result.best), result.info))
    }

    fn random_playouts(&self, count: u64, seed: u64) -> PlayoutStats {
        let mut rng = GameRng::seed_from_u64(seed);
        let mut scratch = Vec::new();
        let mut stats = PlayoutStats::default();
        for _ in 0..count {
            let mut state = self.current.clone();
            while let Some(mv) = state.random_move(&mut rng, &mut scratch) {
                state.play(mv);
                stats.plies += 1;
            }
            match state.outcome().expect("a position without moves is over") {
                Outcome::Win(seat) => stats.wins[seat.index()] += 1,
                Outcome::Draw => stats.draws += 1,
            }
            stats.games += 1;
        }
        stats
    }

    fn self_check(&self, games: u64, max_plies: usize, seed: u64) -> Result<Coverage, String> {
        selfcheck::check(&self.current, games, max_plies, seed)
    }

    fn fork(&self) -> Box<dyn Session> {
        Box::new(GameSession {
            config: self.config.clone(),
            initial: self.initial.clone(),
            base: self.base.clone(),
            current: self.current.clone(),
            moves: self.moves.clone(),
            profile: self.profile.clone(),
            searcher: Searcher::new(self.profile.clone()),
        })
    }

    fn picture(&self) -> Picture {
        let mut picture = self.current.picture();
        if let Some((&last, earlier)) = self.moves.split_last() {
            let mut before = self.base.clone();
            for &mv in earlier {
                before.play(mv);
            }
            picture.mark_move(&before.format_move(last), &before.picture());
        }
        picture
    }
}

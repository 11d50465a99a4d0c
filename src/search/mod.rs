//! Searchers that work over any [`Game`]: MCTS and alpha-beta, with the
//! limits, time management and reporting they share. Nothing in here knows
//! a particular game.

pub mod alphabeta;
pub mod mcts;
pub mod position_stats;
pub mod time;
pub mod tt;

use crate::games::{Game, GameRng, random_below};
use rand::SeedableRng;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// Which searcher answers `go`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Algorithm {
    /// Per game, the configuration that measured strongest.
    Auto,
    Mcts,
    AlphaBeta,
    /// The fixed baseline: UCB1 (c = sqrt 2), uniform random playouts,
    /// robust child, no reuse, no solver, one thread.
    UctPlain,
    /// A uniformly random legal move.
    Random,
}

impl Algorithm {
    pub const NAMES: [&'static str; 5] = ["auto", "mcts", "alphabeta", "uct-plain", "random"];

    pub fn parse(name: &str) -> Option<Algorithm> {
        match name.to_ascii_lowercase().as_str() {
            "auto" => Some(Algorithm::Auto),
            "mcts" => Some(Algorithm::Mcts),
            "alphabeta" | "alpha-beta" | "ab" => Some(Algorithm::AlphaBeta),
            "uct-plain" | "uct" => Some(Algorithm::UctPlain),
            "random" => Some(Algorithm::Random),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }
}

/// Engine-wide settings that shape a search (from the UGI options).
#[derive(Clone, Debug, PartialEq)]
pub struct SearchSettings {
    pub algorithm: Algorithm,
    pub threads: usize,
    pub hash_mb: usize,
    pub seed: u64,
    /// Milliseconds kept back from every clock-based budget for I/O lag.
    pub move_overhead_ms: u64,
    /// Tuning overrides of the game's MCTS settings (UGI options).
    pub tuning: Tuning,
}

/// MCTS parameters set by hand (for tuning matches); `None` keeps the
/// game's own.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tuning {
    pub exploration: Option<f32>,
    pub expand_after: Option<u32>,
    /// `Some(0)` turns the cutoff off.
    pub playout_cutoff: Option<u32>,
    pub eval_scale: Option<f32>,
    pub rave: Option<f32>,
    pub transpositions: Option<bool>,
    /// `Some(None)` turns the alpha-beta probe off.
    pub probe: Option<Option<f32>>,
}

impl Tuning {
    pub fn apply(&self, config: &mut mcts::MctsConfig) {
        if let Some(c) = self.exploration {
            config.exploration = c;
        }
        if let Some(n) = self.expand_after {
            config.expand_after = n;
        }
        if let Some(cutoff) = self.playout_cutoff {
            config.playout_cutoff = (cutoff > 0).then_some(cutoff);
        }
        if let Some(scale) = self.eval_scale {
            config.eval_scale = scale;
        }
        if let Some(k) = self.rave {
            config.rave = Some(k);
        }
        if let Some(on) = self.transpositions {
            config.transpositions = on;
        }
        // (The probe share is read by the searcher, not the MCTS config.)
    }
}

impl Default for SearchSettings {
    fn default() -> Self {
        SearchSettings {
            algorithm: Algorithm::Auto,
            threads: 1,
            hash_mb: 64,
            seed: 0,
            move_overhead_ms: 20,
            tuning: Tuning::default(),
        }
    }
}

/// The limits of one `go`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Limits {
    /// Remaining clock time per seat, milliseconds.
    pub time: [Option<u64>; 2],
    /// Increment per seat, milliseconds.
    pub inc: [u64; 2],
    pub movestogo: Option<u32>,
    pub movetime: Option<u64>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub infinite: bool,
}

impl Limits {
    /// Whether anything but `stop` ends the search.
    pub fn is_bounded(&self) -> bool {
        !self.infinite
            && (self.time.iter().any(Option::is_some)
                || self.movetime.is_some()
                || self.depth.is_some()
                || self.nodes.is_some())
    }

    /// Whether the search is bounded by time (where a forced move may be
    /// answered at once).
    pub fn is_timed(&self) -> bool {
        !self.infinite
            && self.depth.is_none()
            && self.nodes.is_none()
            && (self.movetime.is_some() || self.time.iter().any(Option::is_some))
    }
}

/// A score from the side to move's point of view.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawn-like units (MCTS maps its win rate onto this scale).
    Cp(i32),
    /// A proven result: win in N moves (N > 0) or loss in -N moves.
    Mate(i32),
}

impl std::fmt::Display for Score {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Score::Cp(cp) => write!(f, "cp {cp}"),
            Score::Mate(n) => write!(f, "mate {n}"),
        }
    }
}

/// One `info` line's worth of search progress.
#[derive(Clone, Debug, PartialEq)]
pub struct Info {
    pub depth: u32,
    pub seldepth: u32,
    pub score: Score,
    pub nodes: u64,
    pub time_ms: u64,
    pub pv: Vec<String>,
    /// Permille of the hash in use, where known.
    pub hashfull: Option<u32>,
}

impl Info {
    pub fn nps(&self) -> u64 {
        self.nodes * 1000 / self.time_ms.max(1)
    }

    /// The UGI `info` line.
    pub fn to_line(&self) -> String {
        let mut line = format!(
            "info depth {} seldepth {} score {} nodes {} nps {} time {}",
            self.depth,
            self.seldepth,
            self.score,
            self.nodes,
            self.nps(),
            self.time_ms
        );
        if let Some(full) = self.hashfull {
            line.push_str(&format!(" hashfull {full}"));
        }
        if !self.pv.is_empty() {
            line.push_str(" pv ");
            line.push_str(&self.pv.join(" "));
        }
        line
    }
}

/// What a finished search hands back.
#[derive(Clone, Debug)]
pub struct SearchResult<M> {
    pub best: M,
    pub info: Info,
}

/// The run-time context of one search: clock, stop flag and reporting.
pub struct Context<'a> {
    pub start: Instant,
    pub stop: &'a AtomicBool,
    pub report: &'a mut (dyn FnMut(&Info) + Send),
}

impl Context<'_> {
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    pub fn elapsed_ms(&self) -> u64 {
        self.start.elapsed().as_millis() as u64
    }
}

/// What `Search auto` means for one game: the searcher and MCTS settings
/// that measured strongest there (chosen per game in the registry).
#[derive(Clone, Debug, PartialEq)]
pub struct Profile {
    /// `Mcts` or `AlphaBeta`.
    pub algorithm: Algorithm,
    pub mcts: mcts::MctsConfig,
    /// MCTS only: first spend this share of a timed move on alpha-beta,
    /// and play its move at once if it proves a win (exact endgames).
    pub probe: Option<f32>,
}

impl Profile {
    pub const fn mcts(config: mcts::MctsConfig) -> Profile {
        Profile {
            algorithm: Algorithm::Mcts,
            mcts: config,
            probe: None,
        }
    }

    pub const fn alphabeta() -> Profile {
        Profile {
            algorithm: Algorithm::AlphaBeta,
            mcts: mcts::MctsConfig::tuned(),
            probe: None,
        }
    }
}

/// The searchers of one game and what they keep between moves (the MCTS
/// tree for reuse, the transposition table).
pub struct Searcher<G: Game> {
    profile: Profile,
    mcts: mcts::Mcts<G>,
    alphabeta: alphabeta::AlphaBeta<G>,
}

impl<G: Game> Searcher<G> {
    pub fn new(profile: Profile) -> Self {
        Searcher {
            profile,
            mcts: mcts::Mcts::new(),
            alphabeta: alphabeta::AlphaBeta::new(),
        }
    }

    /// Allocates (or resizes) the memory of the searcher the settings
    /// select, and frees the other's; called after the first `isready`.
    pub fn prepare(&mut self, settings: &SearchSettings) {
        match self.algorithm(settings) {
            Algorithm::AlphaBeta => {
                self.mcts.release();
                self.alphabeta.prepare(settings);
            }
            Algorithm::Random => {}
            Algorithm::UctPlain => {
                self.alphabeta.release();
                self.mcts.prepare(settings);
            }
            Algorithm::Mcts | Algorithm::Auto => match self.probe_share(settings) {
                Some(_) => {
                    let (probe, mcts) = split_memory(settings);
                    self.alphabeta.prepare(&probe);
                    self.mcts.prepare(&mcts);
                }
                None => {
                    self.alphabeta.release();
                    self.mcts.prepare(settings);
                }
            },
        }
    }

    /// The share of a timed move the alpha-beta probe gets, if any.
    fn probe_share(&self, settings: &SearchSettings) -> Option<f32> {
        let probe = settings.tuning.probe.unwrap_or(self.profile.probe);
        probe.filter(|&share| share > 0.0)
    }

    fn algorithm(&self, settings: &SearchSettings) -> Algorithm {
        match settings.algorithm {
            Algorithm::Auto => self.profile.algorithm,
            other => other,
        }
    }

    /// Forgets everything learned in earlier searches.
    pub fn clear(&mut self) {
        self.mcts.clear();
        self.alphabeta.clear();
    }

    /// Searches `root` (which must not be terminal) within `limits`;
    /// `line` tells where `root` stands in the game (for tree reuse).
    pub fn search(
        &mut self,
        root: &G,
        line: &mcts::Line,
        settings: &SearchSettings,
        limits: &Limits,
        ctx: &mut Context,
    ) -> SearchResult<G::Move> {
        self.prepare(settings);
        match self.algorithm(settings) {
            Algorithm::Random => random_move(root, settings, ctx),
            Algorithm::AlphaBeta => self.alphabeta.search(root, settings, limits, ctx),
            Algorithm::UctPlain => {
                let plain = mcts::MctsConfig::plain();
                self.mcts.search(root, line, &plain, settings, limits, ctx)
            }
            Algorithm::Mcts | Algorithm::Auto => {
                let mut config = self.profile.mcts.clone();
                settings.tuning.apply(&mut config);
                let Some(share) = self.probe_share(settings) else {
                    return self.mcts.search(root, line, &config, settings, limits, ctx);
                };
                let (probe_settings, mcts_settings) = split_memory(settings);
                if limits.is_timed()
                    && let Some(win) = self.probe_for_win(root, share, &probe_settings, limits, ctx)
                {
                    return win;
                }
                self.mcts
                    .search(root, line, &config, &mcts_settings, limits, ctx)
            }
        }
    }

    /// Alpha-beta on `share` of the move's time; its result if it proves a
    /// win. The MCTS that follows keeps the same clock, so the probe's time
    /// comes out of its budget.
    fn probe_for_win(
        &mut self,
        root: &G,
        share: f32,
        settings: &SearchSettings,
        limits: &Limits,
        ctx: &mut Context,
    ) -> Option<SearchResult<G::Move>> {
        let budget = time::budget(
            limits,
            root.side_to_move(),
            settings.move_overhead_ms,
            root.moves_left_estimate(),
        );
        let target = budget.target()?.as_millis() as f32;
        let probe_limits = Limits {
            movetime: Some((target * share).max(1.0) as u64),
            ..Limits::default()
        };
        let result = self.alphabeta.search(root, settings, &probe_limits, ctx);
        matches!(result.info.score, Score::Mate(n) if n > 0).then_some(result)
    }
}

/// With an alpha-beta probe before MCTS, the probe's table gets a quarter
/// of `Hash` and the tree the rest.
fn split_memory(settings: &SearchSettings) -> (SearchSettings, SearchSettings) {
    let quarter = settings.hash_mb.div_ceil(4);
    let rest = settings.hash_mb.saturating_sub(quarter).max(1);
    (
        SearchSettings {
            hash_mb: quarter,
            ..settings.clone()
        },
        SearchSettings {
            hash_mb: rest,
            ..settings.clone()
        },
    )
}

fn random_move<G: Game>(
    root: &G,
    settings: &SearchSettings,
    ctx: &mut Context,
) -> SearchResult<G::Move> {
    let mut rng = GameRng::seed_from_u64(settings.seed ^ root.hash());
    let mut moves = Vec::new();
    root.legal_moves(&mut moves);
    let best = moves[random_below(&mut rng, moves.len())];
    let info = Info {
        depth: 1,
        seldepth: 1,
        score: Score::Cp(0),
        nodes: 1,
        time_ms: ctx.elapsed_ms(),
        pv: vec![root.format_move(best)],
        hashfull: None,
    };
    (ctx.report)(&info);
    SearchResult { best, info }
}

/// Maps a win probability (for the side to move) onto the centipawn scale.
pub fn win_rate_to_cp(p: f64) -> i32 {
    let p = p.clamp(0.001, 0.999);
    (400.0 * (p / (1.0 - p)).log10()).round() as i32
}

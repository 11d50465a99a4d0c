//! A game in progress, behind one object-safe trait: the protocol driver
//! and the match referee drive any registered game through [`Session`], in
//! move text, without knowing its types. [`GameSession`] joins a [`Game`]
//! to the searcher chosen for it.

use crate::games::picture::Picture;
use crate::games::{CompactMove, Game, GameConfig, Outcome, Seat};
use crate::model::{self, Source};
use crate::search::alphabeta::AlphaBetaConfig;
use crate::search::mcts::MctsConfig;
use crate::search::searcher::{self, GamePath};
use crate::search::time::{LagMeter, TimeManager};
use crate::search::{
    Context, Evaluator, Limits, Report, Root, SearchResult, SearchSettings, Searcher, Setup,
};
use crate::solve::{self, ProofTable};
use crate::tools::perft;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

pub mod long_shot;
pub mod proofs;
pub mod swindle;
pub mod trap_model;

use trap_model::TrapModel;

/// What `Search auto` means for one game: the searcher and the settings
/// that measured strongest there.
#[derive(Clone, Debug, PartialEq)]
pub struct Profile {
    pub searcher: &'static str,
    pub mcts: MctsConfig,
    pub alphabeta: AlphaBetaConfig,
    /// Whether `Search auto` proves positions during play (when the
    /// `Proofs` option allows it): off where that measured weaker.
    pub proofs: bool,
    /// With proofs on, share a clock over at most this many of our moves:
    /// where proofs settle the rest of the game in an instant, the moves
    /// before them are the ones worth the time. `None`: the game's estimate.
    pub plan_moves: Option<u32>,
    /// With proofs on, on a clock and the `LongShots` option on: long shots
    /// (traps set among moves the search thinks about as good) before a
    /// proof settles the position (`long_shot.rs`).
    pub long_shots: bool,
    /// On a clock, `Search auto` aims at this percentage of the time the
    /// time manager plans for a move (100, or less: as planned; never past
    /// the hard limit): where iterations stop well short of the plan, the
    /// rest of the clock is otherwise never spent.
    pub clock_stretch_pct: u32,
}

impl Profile {
    /// A profile that uses no learned knowledge.
    pub const fn plain(searcher: &'static str, mcts: MctsConfig) -> Profile {
        Profile {
            searcher,
            mcts,
            alphabeta: AlphaBetaConfig {
                learned_eval: false,
                reductions: false,
                contempt: 0,
            },
            proofs: true,
            plan_moves: None,
            long_shots: false,
            clock_stretch_pct: 100,
        }
    }

    /// The same profile sharing a clock over at most `moves` of its moves
    /// while it proves positions during play.
    pub const fn with_plan_moves(mut self, moves: u32) -> Profile {
        self.plan_moves = Some(moves);
        self
    }

    /// The same profile playing long shots while it proves positions
    /// during play.
    pub const fn with_long_shots(mut self) -> Profile {
        self.long_shots = true;
        self
    }

    /// The same profile with alpha-beta's late-move reductions on.
    pub const fn with_reductions(mut self) -> Profile {
        self.alphabeta.reductions = true;
        self
    }

    /// The same profile scoring a draw `cp` centipawns below level for the
    /// side to move at alpha-beta's root (the `Contempt` option overrides it).
    pub const fn with_contempt(mut self, cp: i32) -> Profile {
        self.alphabeta.contempt = cp;
        self
    }

    /// The same profile aiming at `pct` percent of each move's planned
    /// time on a clock.
    pub const fn with_clock_stretch(mut self, pct: u32) -> Profile {
        self.clock_stretch_pct = pct;
        self
    }

    /// The same profile without proofs during play.
    pub const fn without_proofs(mut self) -> Profile {
        self.proofs = false;
        self
    }
}

/// The profiles of a game: without learned weights, and with them (where
/// the configuration has weights and the game a profile for them).
#[derive(Clone, Debug, PartialEq)]
pub struct Profiles {
    pub plain: Profile,
    pub learned: Option<Profile>,
}

/// Which searcher to use, how much memory it gets and which learned
/// weights it reads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Engine {
    /// `auto` or a name of the searcher table.
    pub searcher: &'static str,
    pub hash_mb: usize,
    /// The `Weights` option (see [`Session::set_weights`]).
    pub weights: String,
    /// The `Proofs` option: try to prove the position before searching
    /// (see `proofs.rs`); its table is a share of `hash_mb`.
    pub proofs: bool,
}

impl Default for Engine {
    fn default() -> Self {
        Engine {
            searcher: searcher::AUTO.name,
            hash_mb: 64,
            weights: String::new(),
            proofs: true,
        }
    }
}

/// The search thread's view of one `go`: when it started, the stop flag,
/// and where progress goes (moves as text).
pub struct SearchRun<'a> {
    pub start: Instant,
    pub stop: &'a AtomicBool,
    pub progress: &'a mut (dyn FnMut(&Report<String>) + Send),
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
    /// Plays one legal move; its canonical text.
    fn play(&mut self, mv: &str) -> Result<String, String>;
    fn side_to_move(&self) -> Seat;
    fn outcome(&self) -> Option<Outcome>;
    fn legal_moves(&self) -> Vec<String>;
    fn is_legal(&self, mv: &str) -> bool;
    fn position_text(&self) -> String;
    /// The moves played since the last `set_position` base, as text.
    fn moves_played(&self) -> Vec<String>;
    fn render(&self) -> String;
    fn hash(&self) -> u64;
    /// Perft below every legal move (`split`) or in total (one row with an
    /// empty move); `None` when stopped.
    fn perft(
        &self,
        depth: u32,
        threads: usize,
        split: bool,
        stop: &AtomicBool,
    ) -> Option<Vec<(String, u64)>>;
    /// Chooses the searcher and sizes its memory now (before `readyok`,
    /// never inside a search). Warnings say what could not be had.
    fn prepare(&mut self, engine: &Engine) -> Vec<String>;
    /// Forgets what searches learned (a new game starts).
    fn new_game(&mut self);
    /// Uses the learned weights the `Weights` option names (empty: the
    /// embedded ones, `none`: none, else a file). On an error the embedded
    /// weights stay in use and the error says why.
    fn set_weights(&mut self, option: &str) -> Result<(), String>;
    /// Where the weights in use came from: `embedded` (the built-in
    /// weights, if the configuration has any), `none` or a path.
    fn weights_in_use(&self) -> String;
    /// Searches the current position; `None` when the game is over.
    fn search(
        &mut self,
        settings: &SearchSettings,
        limits: &Limits,
        run: SearchRun,
    ) -> Option<SearchResult<String>>;
    /// A copy of the game so far without search memory (answers queries
    /// while this one searches).
    fn snapshot(&self) -> Box<dyn Session>;
    /// The current position as a picture to draw, the last move marked.
    fn picture(&self) -> Picture;
}

/// What a searcher was built for: a searcher by name, with or without
/// the game's oracle (which proofs during play bring).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct BuiltFor {
    name: &'static str,
    proving: bool,
    /// The profile's cap on the moves a clock is shared over (`auto` with
    /// proofs only).
    plan_moves: Option<u32>,
    /// Whether the profile plays long shots (`auto` with proofs only).
    long_shots: bool,
    /// The profile's aim on a clock, in percent of the planned time
    /// (`auto` only; 100 otherwise).
    clock_stretch_pct: u32,
}

pub struct GameSession<G: Game> {
    config: GameConfig,
    /// The start position of this game (parameters included).
    initial: G,
    /// Where the current move list starts.
    base: G,
    current: G,
    moves: Vec<G::Move>,
    profiles: Profiles,
    /// The knowledge in use and where it came from.
    source: Source,
    /// The profile in use (learned when there is knowledge) and the setup
    /// searchers are built with.
    profile: Profile,
    setup: Setup<G>,
    /// The searcher, by what it was built for.
    searcher: Option<(BuiltFor, Box<dyn Searcher<G>>)>,
    /// How late this engine's moves have been on the clock.
    lag: LagMeter,
    /// The proof table while `Proofs` is on (and `Hash` leaves room for it).
    proofs: Option<ProofTable>,
    /// The swindles' model of the opponent, made when first asked for.
    trap_model: Option<TrapModel<G>>,
}

impl<G: Game> GameSession<G> {
    /// A session at `initial` with the embedded weights, if any.
    pub fn new(config: GameConfig, initial: G, profiles: Profiles) -> Self {
        let evaluator = model::embedded(&initial).map(|m| m as Arc<dyn Evaluator<G>>);
        let (profile, setup) = Self::setup_for(&profiles, evaluator);
        GameSession {
            config,
            base: initial.clone(),
            current: initial.clone(),
            initial,
            moves: Vec::new(),
            profiles,
            source: Source::Embedded,
            profile,
            setup,
            searcher: None,
            lag: LagMeter::default(),
            proofs: None,
            trap_model: None,
        }
    }

    /// The profile and setup with `evaluator` (the learned profile where
    /// there is knowledge and a learned profile).
    fn setup_for(
        profiles: &Profiles,
        evaluator: Option<Arc<dyn Evaluator<G>>>,
    ) -> (Profile, Setup<G>) {
        let profile = match (&evaluator, &profiles.learned) {
            (Some(_), Some(learned)) => learned.clone(),
            _ => profiles.plain.clone(),
        };
        let setup = Setup {
            mcts: profile.mcts.clone(),
            evaluator: evaluator.filter(|_| profiles.learned.is_some()),
            oracle: solve::oracle::<G>(),
            alphabeta: profile.alphabeta.clone(),
        };
        (profile, setup)
    }

    fn use_knowledge(&mut self, source: Source, evaluator: Option<Arc<dyn Evaluator<G>>>) {
        let (profile, setup) = Self::setup_for(&self.profiles, evaluator);
        self.source = source;
        self.profile = profile;
        self.setup = setup;
        // Searchers copy their setup: the next search builds a new one.
        self.searcher = None;
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

    fn resolve(&self, name: &'static str) -> &'static str {
        if name == searcher::AUTO.name {
            self.profile.searcher
        } else {
            name
        }
    }

    /// The time plan for a move of the prepared searcher: the game's
    /// plan, stretched on a clock by the profile's aim.
    fn move_plan(&self, limits: &Limits, settings: &SearchSettings) -> TimeManager {
        let stretch = self
            .searcher
            .as_ref()
            .map_or(100, |(built, _)| built.clock_stretch_pct);
        TimeManager::for_search(limits, &self.current, settings).stretched(stretch as f64 / 100.0)
    }

    /// One search of the current position (not over) with `lag_ms` of
    /// measured lateness planned for: proofs first where on, then the
    /// searcher.
    fn search_planned(
        &mut self,
        settings: &SearchSettings,
        limits: &Limits,
        run: SearchRun,
        lag_ms: u64,
    ) -> Option<SearchResult<String>> {
        if self.searcher.is_none() {
            self.prepare(&Engine::default());
        }
        let path = GamePath {
            start_key: self.base.hash(),
            moves: self.moves.iter().map(|m| m.pack()).collect(),
        };
        let current = &self.current;
        let long_shots = settings.long_shots
            && self
                .searcher
                .as_ref()
                .is_some_and(|(built, _)| built.long_shots);
        let settings = &SearchSettings {
            lag_ms,
            plan_moves: self
                .searcher
                .as_ref()
                .and_then(|(built, _)| built.plan_moves),
            ..settings.clone()
        };
        let plan = self.move_plan(limits, settings);
        let clock = proofs::MoveClock {
            plan: &plan,
            start: run.start,
            stop: run.stop,
        };
        let proven = match &self.proofs {
            Some(table) => proofs::try_prove(current, table, settings, limits, &clock),
            None => None,
        };
        // In a proven loss on a clock, the swindle (and the search after
        // one that found nothing) may take longer than planned.
        let plan = match proven {
            Some(proofs::Proven::Lost { .. }) if settings.swindles => {
                plan.stretched(swindle::LOST_TIME)
            }
            _ => plan,
        };
        let clock = proofs::MoveClock {
            plan: &plan,
            ..clock
        };
        let (mut proven_loss, mut holding) = (None, None);
        match proven {
            Some(proofs::Proven::Settled(result)) => return Some(result_in_text(current, result)),
            Some(proofs::Proven::Lost { plies }) => {
                let model = (settings.swindles && settings.swindle_model)
                    .then(|| self.trap_model.get_or_insert_with(TrapModel::timed));
                let swindle = self
                    .proofs
                    .as_ref()
                    .filter(|_| settings.swindles)
                    .and_then(|table| swindle::try_swindle(current, table, plies, &clock, model));
                if let Some(result) = swindle {
                    return Some(result_in_text(current, result));
                }
                proven_loss = Some(plies)
            }
            Some(proofs::Proven::Draw { holding: mv }) => holding = Some(mv),
            None => {}
        }
        // A proven draw: the search looks for an opponent's mistakes in
        // all but the last share of the time, which checks its move.
        let search_plan = match holding {
            Some(_) => plan.shortened(proofs::DRAW_CHECK_SHARE),
            None => plan,
        };
        let progress = run.progress;
        let mut typed = |report: &Report<G::Move>| progress(&in_text(current, report.clone()));
        let mut ctx = Context::new(run.start, run.stop, &mut typed).with_plan(search_plan);
        let (_, searcher) = self.searcher.as_mut().expect("prepared above");
        let root = Root {
            position: current,
            path: &path,
        };
        // A long shot needs the root moves' statistics, and a clock.
        let long_shot_table = self
            .proofs
            .as_ref()
            .filter(|_| long_shots && proven.is_none() && plan.soft().is_some());
        let search_settings = SearchSettings {
            move_stats: settings.move_stats || long_shot_table.is_some(),
            ..settings.clone()
        };
        let mut result = searcher.search(&root, &search_settings, limits, &mut ctx);
        if let Some(table) = long_shot_table {
            // Like a swindle, a long shot may take longer than planned.
            let stretched = plan.stretched(swindle::LOST_TIME);
            let clock = proofs::MoveClock {
                plan: &stretched,
                ..clock
            };
            let model = self.trap_model.get_or_insert_with(TrapModel::timed);
            long_shot::try_long_shot(current, &mut result, table, model, &clock);
            if !settings.move_stats {
                result.report.root_moves.clear();
            }
        }
        if let Some(plies) = proven_loss {
            proofs::mark_lost(&mut result.report, plies);
        }
        if let (Some(mv), Some(table)) = (holding, &self.proofs) {
            let deadline = plan.target().map(|target| run.start + target);
            proofs::hold_the_draw(current, &mut result, mv, table, deadline, run.stop);
        }
        Some(result_in_text(current, result))
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

    fn play(&mut self, text: &str) -> Result<String, String> {
        let mv = self.legal_move(text)?;
        let canonical = self.current.format_move(mv);
        self.current.play(mv);
        self.moves.push(mv);
        Ok(canonical)
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

    fn perft(
        &self,
        depth: u32,
        threads: usize,
        split: bool,
        stop: &AtomicBool,
    ) -> Option<Vec<(String, u64)>> {
        if split {
            let rows = perft::split_perft(&self.current, depth, threads, stop)?;
            Some(
                rows.into_iter()
                    .map(|(mv, n)| (self.current.format_move(mv), n))
                    .collect(),
            )
        } else {
            let total = perft::parallel_perft(&self.current, depth, threads, stop)?;
            Some(vec![(String::new(), total)])
        }
    }

    fn prepare(&mut self, engine: &Engine) -> Vec<String> {
        let name = self.resolve(engine.searcher);
        let auto = engine.searcher == searcher::AUTO.name;
        let proving = engine.proofs && (!auto || self.profile.proofs);
        let plan_moves = self.profile.plan_moves.filter(|_| auto && proving);
        let built_for = BuiltFor {
            name,
            proving,
            plan_moves,
            long_shots: self.profile.long_shots && auto && proving,
            clock_stretch_pct: if auto {
                self.profile.clock_stretch_pct
            } else {
                100
            },
        };
        if self.searcher.as_ref().is_none_or(|(k, _)| *k != built_for) {
            // The old searcher's memory goes before the new one's comes.
            self.searcher = None;
            // Exact values at leaves are proofs during play too.
            let mut setup = self.setup.clone();
            setup.oracle = setup.oracle.filter(|_| proving);
            match searcher::build::<G>(name, &setup) {
                Some(built) => self.searcher = Some((built_for, built)),
                None => return vec![format!("unknown searcher '{name}'")],
            }
        }
        let (_, searcher) = self.searcher.as_ref().expect("built above");
        let table_mb = if proving && searcher.takes_proofs() {
            proofs::table_mb(engine.hash_mb)
        } else {
            0
        };
        if self.proofs.as_ref().map_or(0, |t| t.bytes() >> 20) != table_mb {
            self.proofs = None;
            self.proofs = (table_mb > 0).then(|| ProofTable::new(table_mb));
        }
        let (_, searcher) = self.searcher.as_mut().expect("built above");
        searcher
            .allocate(engine.hash_mb - table_mb)
            .into_iter()
            .collect()
    }

    fn set_weights(&mut self, option: &str) -> Result<(), String> {
        let source = Source::parse(option);
        match model::load(&self.initial, &source) {
            Ok(model) => {
                self.use_knowledge(source, model.map(|m| m as Arc<dyn Evaluator<G>>));
                Ok(())
            }
            Err(e) => {
                let embedded = model::embedded(&self.initial).map(|m| m as Arc<dyn Evaluator<G>>);
                self.use_knowledge(Source::Embedded, embedded);
                Err(e)
            }
        }
    }

    fn weights_in_use(&self) -> String {
        self.source.to_string()
    }

    fn new_game(&mut self) {
        if let Some((_, searcher)) = &mut self.searcher {
            searcher.clear();
        }
        self.lag.reset();
        if let Some(table) = &self.proofs {
            table.clear();
        }
    }

    fn search(
        &mut self,
        settings: &SearchSettings,
        limits: &Limits,
        run: SearchRun,
    ) -> Option<SearchResult<String>> {
        if self.current.outcome().is_some() {
            return None;
        }
        // Plan for the lateness the clocks have shown, and remember what
        // this move took, to see next time what it really cost.
        let side = self.current.side_to_move();
        let lag_ms = self.lag.lag_before(limits, side);
        let start = run.start;
        let result = self.search_planned(settings, limits, run, lag_ms);
        self.lag.spent(limits, side, start.elapsed());
        result
    }

    fn snapshot(&self) -> Box<dyn Session> {
        Box::new(GameSession {
            config: self.config.clone(),
            initial: self.initial.clone(),
            base: self.base.clone(),
            current: self.current.clone(),
            moves: self.moves.clone(),
            profiles: self.profiles.clone(),
            source: self.source.clone(),
            profile: self.profile.clone(),
            setup: self.setup.clone(),
            searcher: None,
            lag: LagMeter::default(),
            proofs: None,
            trap_model: None,
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

/// A search's result with its moves as text.
fn result_in_text<G: Game>(root: &G, result: SearchResult<G::Move>) -> SearchResult<String> {
    SearchResult {
        best: root.format_move(result.best),
        report: in_text(root, result.report),
    }
}

/// A report with its line of moves from `root` written out as text (each
/// move in the position it is played in).
fn in_text<G: Game>(root: &G, report: Report<G::Move>) -> Report<String> {
    let line = |moves: Vec<G::Move>| {
        let mut state = root.clone();
        moves
            .into_iter()
            .map(|mv| {
                let text = state.format_move(mv);
                state.play(mv);
                text
            })
            .collect()
    };
    report.map_moves(line, |mv| root.format_move(mv))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::atoms::{self, Atoms, Variant};

    fn atoms_session(profile: Profile) -> GameSession<Atoms> {
        let initial = Atoms::new(
            atoms::DEFAULT_SIZE,
            atoms::DEFAULT_STONES,
            Variant::Standard,
        );
        let profiles = Profiles {
            plain: profile,
            learned: None,
        };
        GameSession::new(GameConfig::named("atoms"), initial, profiles)
    }

    fn plan_with(
        session: &mut GameSession<Atoms>,
        searcher: &'static str,
        limits: &Limits,
    ) -> TimeManager {
        let engine = Engine {
            searcher,
            proofs: false,
            ..Engine::default()
        };
        assert!(session.prepare(&engine).is_empty());
        session.move_plan(limits, &SearchSettings::default())
    }

    #[test]
    fn auto_aims_at_its_profiles_share_of_a_clock_and_a_named_searcher_at_the_plan() {
        let profile = Profile::plain("alphabeta", MctsConfig::tuned())
            .without_proofs()
            .with_clock_stretch(160);
        let mut session = atoms_session(profile);
        let clock = Limits {
            time: [Some(10_000), Some(10_000)],
            inc: [100, 100],
            ..Limits::default()
        };
        let auto = plan_with(&mut session, searcher::AUTO.name, &clock);
        let named = plan_with(&mut session, "alphabeta", &clock);
        let (auto_soft, named_soft) = (auto.soft().unwrap(), named.soft().unwrap());
        assert_eq!(
            auto_soft,
            named_soft.mul_f64(1.6),
            "{auto_soft:?} vs {named_soft:?}"
        );
        assert_eq!(auto.hard(), named.hard(), "the hard limit stays");
        // A fixed move time is spent whole either way.
        let fixed = Limits::movetime(100);
        let auto = plan_with(&mut session, searcher::AUTO.name, &fixed);
        assert_eq!(auto, plan_with(&mut session, "alphabeta", &fixed));
    }

    #[test]
    fn a_profile_at_one_hundred_percent_keeps_the_plan() {
        let profile = Profile::plain("alphabeta", MctsConfig::tuned()).without_proofs();
        let mut session = atoms_session(profile);
        let clock = Limits {
            time: [Some(3_000), Some(3_000)],
            ..Limits::default()
        };
        let auto = plan_with(&mut session, searcher::AUTO.name, &clock);
        assert_eq!(auto, plan_with(&mut session, "alphabeta", &clock));
        assert!(auto.soft().is_some());
    }
}

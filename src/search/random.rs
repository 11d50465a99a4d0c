//! `random`: a uniformly random legal move (for tests and as the weakest
//! opponent).

use super::{
    Context, Limits, Plugin, Report, Root, Score, SearchResult, SearchSettings, Searcher, Setup,
};
use crate::games::{Game, GameRng, random_below};
use rand::SeedableRng;

pub struct RandomMover<G>(std::marker::PhantomData<G>);

impl<G: Game> Plugin<G> for RandomMover<G> {
    fn new(_setup: &Setup<G>) -> Self {
        RandomMover(std::marker::PhantomData)
    }
}

impl<G: Game> Searcher<G> for RandomMover<G> {
    fn allocate(&mut self, _hash_mb: usize) -> Option<String> {
        None
    }

    fn memory_bytes(&self) -> usize {
        0
    }

    fn clear(&mut self) {}

    fn search(
        &mut self,
        root: &Root<G>,
        settings: &SearchSettings,
        limits: &Limits,
        ctx: &mut Context<G::Move>,
    ) -> SearchResult<G::Move> {
        let position = root.position;
        let mut rng = GameRng::seed_from_u64(settings.seed ^ position.hash());
        let moves = super::legal_moves(position);
        let best = moves[random_below(&mut rng, moves.len())];
        if limits.infinite {
            ctx.wait_for_stop();
        }
        let report = Report {
            depth: 1,
            seldepth: 1,
            score: Score::Cp(0),
            nodes: 1,
            time_ms: ctx.elapsed_ms(),
            pv: vec![best],
            hashfull: None,
            alternatives: Vec::new(),
            root_moves: Vec::new(),
        };
        SearchResult { best, report }
    }
}

//! Training samples: recorded games replayed, each position turned into
//! its features, its moves' features, the policy target (the root's visit
//! shares) and the value target (the position's exact value for the side
//! to move where a proof settled it, else the game's result).

use super::data::GameRecord;
use crate::games::{CompactMove, FeatureRows, Game};
use fxhash::FxHashMap;

/// Positions with more legal moves than this train the value only (a
/// Nadraz pie has tens of thousands of moves and a few visited ones).
pub const MAX_POLICY_MOVES: usize = 2048;

/// Samples in flat arrays.
#[derive(Default, Debug)]
pub struct Dataset {
    /// Per sample: its position features `pos_feats[pos_ends[i-1]..pos_ends[i]]`.
    pos_feats: Vec<u32>,
    pos_ends: Vec<u32>,
    value_target: Vec<f32>,
    /// Per sample: its first move row and the number of rows (0: no policy).
    rows: Vec<(u32, u32)>,
    /// Per move row: its features and its target share.
    move_feats: Vec<u32>,
    move_ends: Vec<u32>,
    move_target: Vec<f32>,
}

impl Dataset {
    pub fn len(&self) -> usize {
        self.value_target.len()
    }

    pub fn is_empty(&self) -> bool {
        self.value_target.is_empty()
    }

    /// Samples with a policy target.
    pub fn policy_len(&self) -> usize {
        self.rows.iter().filter(|r| r.1 > 0).count()
    }

    pub fn position(&self, i: usize) -> &[u32] {
        let start = if i == 0 { 0 } else { self.pos_ends[i - 1] };
        &self.pos_feats[start as usize..self.pos_ends[i] as usize]
    }

    pub fn value_target(&self, i: usize) -> f32 {
        self.value_target[i]
    }

    /// The move rows of sample `i` (empty without a policy target).
    pub fn move_rows(&self, i: usize) -> std::ops::Range<usize> {
        let (first, count) = self.rows[i];
        first as usize..(first + count) as usize
    }

    pub fn row(&self, r: usize) -> &[u32] {
        let start = if r == 0 { 0 } else { self.move_ends[r - 1] };
        &self.move_feats[start as usize..self.move_ends[r] as usize]
    }

    pub fn row_target(&self, r: usize) -> f32 {
        self.move_target[r]
    }

    /// A sample of given features and value target with no policy target
    /// (tests build data sets with exactly the structure they need).
    #[cfg(test)]
    pub fn add_value_sample(&mut self, features: &[u32], target: f32) {
        self.pos_feats.extend_from_slice(features);
        self.pos_ends.push(self.pos_feats.len() as u32);
        self.value_target.push(target);
        self.rows.push((self.move_ends.len() as u32, 0));
    }

    /// Replays `record` from its start and adds a sample per position.
    /// The policy target of a position is its visit counts raised to the
    /// power `sharpen` (1: the visit shares; more: closer to the most
    /// visited move, which a short search's nearly flat visits need).
    pub fn add_game<G: Game>(
        &mut self,
        game: &G,
        record: &GameRecord,
        sharpen: f32,
    ) -> Result<(), String> {
        let mut state = game
            .read_position(&record.start)
            .map_err(|e| format!("game {}: {e}", record.index))?;
        let mut moves = Vec::new();
        let mut rows = FeatureRows::default();
        let mut index: FxHashMap<u32, usize> = FxHashMap::default();
        for (ply, step) in record.plies.iter().enumerate() {
            let bad = |what: &str| format!("game {} ply {}: {what}", record.index, ply + 1);
            state.legal_moves(&mut moves);
            let played = state.parse_move(&step.played).map_err(|e| bad(&e))?;
            if !moves.contains(&played) {
                return Err(bad(&format!("illegal move {}", step.played)));
            }
            state.position_features(&mut self.pos_feats);
            self.pos_ends.push(self.pos_feats.len() as u32);
            let value = step.exact.unwrap_or(record.outcome);
            self.value_target
                .push(value.reward_for(state.side_to_move()));
            let first = self.move_ends.len() as u32;
            let mut count = 0;
            if let Some(visits) = &step.visits
                && moves.len() > 1
                && moves.len() <= MAX_POLICY_MOVES
            {
                index.clear();
                index.extend(moves.iter().enumerate().map(|(i, m)| (m.pack(), i)));
                let mut target = vec![0.0f32; moves.len()];
                let mut total = 0.0;
                for (text, n) in visits {
                    let mv = state.parse_move(text).map_err(|e| bad(&e))?;
                    let i = *index
                        .get(&mv.pack())
                        .ok_or_else(|| bad(&format!("visited move {text} is not legal")))?;
                    target[i] += *n as f32;
                }
                let most = target.iter().copied().fold(0.0f32, f32::max);
                for t in target.iter_mut() {
                    *t = (*t / most.max(1.0)).powf(sharpen);
                    total += *t;
                }
                if total > 0.0 {
                    state.move_features(&moves, &mut rows);
                    for (i, t) in target.iter().enumerate() {
                        self.move_feats.extend_from_slice(rows.row(i));
                        self.move_ends.push(self.move_feats.len() as u32);
                        self.move_target.push(t / total);
                    }
                    count = moves.len() as u32;
                }
            }
            self.rows.push((first, count));
            state.play(played);
        }
        Ok(())
    }
}

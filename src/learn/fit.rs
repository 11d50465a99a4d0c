//! Fitting a model to samples: the value by logistic regression on the
//! games' results (with the weights' hidden layer, if they have one, by
//! backpropagation through it), the policy by a softmax over the legal
//! moves fitted to the search's visit shares (cross-entropy). Stochastic
//! gradient with per-weight AdaGrad steps (features are sparse: rare ones
//! keep large steps) and L2 on the weights a sample touches. Deterministic
//! for a seed.

use super::dataset::Dataset;
use crate::games::GameRng;
use crate::model::weights::{Hidden, MAX_HIDDEN};
use crate::model::{Weights, sigmoid, softmax_in_place};
use rand::SeedableRng;

#[derive(Clone, Debug)]
pub struct FitSettings {
    pub epochs: u32,
    /// AdaGrad's step size.
    pub rate: f32,
    /// L2 strength, per touched weight and sample.
    pub l2: f32,
    pub seed: u64,
    /// Policy targets are the visit counts to this power (see
    /// `Dataset::add_game`).
    pub sharpen: f32,
    /// Units in the value's hidden layer (0: a linear value).
    pub hidden: usize,
}

impl Default for FitSettings {
    fn default() -> Self {
        FitSettings {
            epochs: 6,
            rate: 0.05,
            l2: 1e-4,
            seed: 1,
            sharpen: 2.0,
            hidden: 0,
        }
    }
}

/// How well weights predict a data set.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Metrics {
    /// Mean cross-entropy of the visit shares under the policy (nats).
    pub policy_loss: f64,
    /// Share of positions where the policy's top move is the most visited.
    pub top1: f64,
    /// Mean log-loss of the results under the value (nats; 0.693 is a coin).
    pub value_loss: f64,
    pub samples: usize,
    pub policy_samples: usize,
}

impl std::fmt::Display for Metrics {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "policy loss {:.4} top-1 {:.1}% value loss {:.4} ({} positions, {} with a policy target)",
            self.policy_loss,
            100.0 * self.top1,
            self.value_loss,
            self.samples,
            self.policy_samples
        )
    }
}

fn log_loss(p: f32, target: f32) -> f64 {
    let p = p.clamp(1e-6, 1.0 - 1e-6) as f64;
    let t = target as f64;
    -(t * p.ln() + (1.0 - t) * (1.0 - p).ln())
}

/// The metrics of `w` on `data`.
pub fn evaluate(w: &Weights, data: &Dataset) -> Metrics {
    let mut m = Metrics {
        samples: data.len(),
        ..Metrics::default()
    };
    let mut probs = Vec::new();
    for i in 0..data.len() {
        let p = sigmoid(w.value_logit(data.position(i)));
        m.value_loss += log_loss(p, data.value_target(i));
        let rows = data.move_rows(i);
        if rows.is_empty() {
            continue;
        }
        m.policy_samples += 1;
        probs.clear();
        probs.extend(rows.clone().map(|r| w.move_logit(data.row(r))));
        softmax_in_place(&mut probs);
        let mut best_p = (f32::NEG_INFINITY, 0);
        let mut best_t = (f32::NEG_INFINITY, 0);
        for (j, r) in rows.enumerate() {
            let t = data.row_target(r);
            if t > 0.0 {
                m.policy_loss -= t as f64 * (probs[j].max(1e-9) as f64).ln();
            }
            if probs[j] > best_p.0 {
                best_p = (probs[j], j);
            }
            if t > best_t.0 {
                best_t = (t, j);
            }
        }
        m.top1 += (best_p.1 == best_t.1) as u32 as f64;
    }
    m.value_loss /= m.samples.max(1) as f64;
    m.policy_loss /= m.policy_samples.max(1) as f64;
    m.top1 /= m.policy_samples.max(1) as f64;
    m
}

/// Gradients of one sample, dense over the weights with the touched
/// indices listed.
struct Gradient {
    values: Vec<f32>,
    touched: Vec<u32>,
}

impl Gradient {
    fn new(len: usize) -> Self {
        Gradient {
            values: vec![0.0; len],
            touched: Vec::new(),
        }
    }

    #[inline]
    fn add(&mut self, index: u32, g: f32) {
        let slot = &mut self.values[index as usize];
        if *slot == 0.0 {
            self.touched.push(index);
        }
        *slot += g;
        if *slot == 0.0 {
            // Keep it listed (a cancelled gradient still needs its L2).
            *slot = f32::MIN_POSITIVE;
        }
    }

    /// AdaGrad steps on `weights` (with their squared-gradient sums).
    fn apply(&mut self, weights: &mut [f32], sums: &mut [f32], rate: f32, l2: f32) {
        for &i in &self.touched {
            let i = i as usize;
            let g = self.values[i] + l2 * weights[i];
            adagrad_step(&mut weights[i], &mut sums[i], g, rate);
            self.values[i] = 0.0;
        }
        self.touched.clear();
    }
}

/// One AdaGrad step of a weight given its gradient and its running sum of
/// squared gradients.
#[inline]
fn adagrad_step(weight: &mut f32, sum: &mut f32, gradient: f32, rate: f32) {
    *sum += gradient * gradient;
    *weight -= rate * gradient / (sum.sqrt() + 1e-8);
}

/// The AdaGrad state of a hidden layer.
struct HiddenFit {
    bias_sums: Vec<f32>,
    output_sums: Vec<f32>,
    input_sums: Vec<f32>,
    input_grad: Gradient,
    /// The logit's gradient at each unit's input sum, for one sample.
    deltas: Vec<f32>,
}

impl HiddenFit {
    fn new(h: &Hidden) -> Self {
        HiddenFit {
            bias_sums: vec![0.0; h.width],
            output_sums: vec![0.0; h.width],
            input_sums: vec![0.0; h.inputs.len()],
            input_grad: Gradient::new(h.inputs.len()),
            deltas: vec![0.0; h.width],
        }
    }

    /// One step on a sample whose unit input sums were `sums` and whose
    /// logit's loss gradient is `g`.
    fn step(&mut self, h: &mut Hidden, features: &[u32], sums: &[f32], g: f32, s: &FitSettings) {
        let units = sums[..h.width].iter().zip(&mut self.deltas);
        let outputs = h.output.iter_mut().zip(&mut self.output_sums);
        let biases = h.bias.iter_mut().zip(&mut self.bias_sums);
        for (((&sum, delta), (output, output_sum)), (bias, bias_sum)) in
            units.zip(outputs).zip(biases)
        {
            // The unit's delta uses its output weight before this step.
            *delta = if sum > 0.0 { g * *output } else { 0.0 };
            let out_grad = g * sum.max(0.0) + s.l2 * *output;
            adagrad_step(output, output_sum, out_grad, s.rate);
            adagrad_step(bias, bias_sum, *delta, s.rate);
        }
        for &f in features {
            let start = f as usize * h.width;
            for (j, &d) in self.deltas.iter().enumerate() {
                if d != 0.0 {
                    self.input_grad.add((start + j) as u32, d);
                }
            }
        }
        self.input_grad
            .apply(&mut h.inputs, &mut self.input_sums, s.rate, s.l2);
    }
}

/// Fits `w` to `train` (starting from its current values), reporting the
/// metrics on `train` and `valid` after every epoch. The value and the
/// policy each keep the weights of their best epoch on `valid` (on
/// `train` if `valid` is empty).
pub fn fit(
    w: &mut Weights,
    train: &Dataset,
    valid: &Dataset,
    settings: &FitSettings,
    mut report: impl FnMut(u32, &Metrics, &Metrics),
) {
    let judge = if valid.is_empty() { train } else { valid };
    let start = evaluate(w, judge);
    report(0, &evaluate(w, train), &start);
    let mut best_value = (
        start.value_loss,
        w.value.clone(),
        w.value_bias,
        w.hidden.clone(),
    );
    let mut hidden_fit = HiddenFit::new(&w.hidden);
    let mut sums = [0.0f32; MAX_HIDDEN];
    let mut best_policy = (start.policy_loss, w.policy.clone());
    let mut value_sums = vec![0.0f32; w.value.len()];
    let mut bias_sum = 0.0f32;
    let mut policy_sums = vec![0.0f32; w.policy.len()];
    let mut value_grad = Gradient::new(w.value.len());
    let mut policy_grad = Gradient::new(w.policy.len());
    let mut rng = GameRng::seed_from_u64(settings.seed);
    let mut order: Vec<usize> = (0..train.len()).collect();
    let mut probs = Vec::new();
    for epoch in 1..=settings.epochs {
        shuffle(&mut order, &mut rng);
        for &i in &order {
            // Value: logistic regression on the result.
            let features = train.position(i);
            let logit = w.value_logit_with(features, &mut sums);
            let g = sigmoid(logit) - train.value_target(i);
            if !w.hidden.is_empty() {
                hidden_fit.step(&mut w.hidden, features, &sums, g, settings);
            }
            for &f in features {
                value_grad.add(f, g);
            }
            value_grad.apply(&mut w.value, &mut value_sums, settings.rate, settings.l2);
            adagrad_step(&mut w.value_bias, &mut bias_sum, g, settings.rate);
            // Policy: softmax cross-entropy against the visit shares.
            let rows = train.move_rows(i);
            if rows.is_empty() {
                continue;
            }
            probs.clear();
            probs.extend(rows.clone().map(|r| w.move_logit(train.row(r))));
            softmax_in_place(&mut probs);
            for (j, r) in rows.enumerate() {
                let c = probs[j] - train.row_target(r);
                if c != 0.0 {
                    for &f in train.row(r) {
                        policy_grad.add(f, c);
                    }
                }
            }
            policy_grad.apply(&mut w.policy, &mut policy_sums, settings.rate, settings.l2);
        }
        let on_valid = evaluate(w, judge);
        report(epoch, &evaluate(w, train), &on_valid);
        if on_valid.value_loss < best_value.0 {
            best_value = (
                on_valid.value_loss,
                w.value.clone(),
                w.value_bias,
                w.hidden.clone(),
            );
        }
        if on_valid.policy_loss < best_policy.0 {
            best_policy = (on_valid.policy_loss, w.policy.clone());
        }
    }
    w.value = best_value.1;
    w.value_bias = best_value.2;
    w.hidden = best_value.3;
    w.policy = best_policy.1;
}

fn shuffle(order: &mut [usize], rng: &mut GameRng) {
    for i in (1..order.len()).rev() {
        let j = crate::games::random_below(rng, i + 1);
        order.swap(i, j);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::hadron::Hadron;
    use crate::games::{Game, random_below};
    use crate::learn::data::{GameRecord, Ply};
    use crate::search::legal_moves;

    /// Random games whose "visits" go to the moves farthest from the edge:
    /// a policy the edge-distance feature can learn.
    fn centre_loving_games(count: u64, seed: u64) -> (Hadron<u64>, Dataset) {
        let start = Hadron::<u64>::new(6);
        let mut rng = GameRng::seed_from_u64(seed);
        let mut data = Dataset::default();
        let depth = |mv: u16| {
            let (x, y) = (mv as usize % 6, mv as usize / 6);
            x.min(5 - x).min(y).min(5 - y)
        };
        for index in 0..count {
            let mut state = start.clone();
            let mut plies = Vec::new();
            loop {
                let moves = legal_moves(&state);
                if moves.is_empty() {
                    break;
                }
                let deepest = moves.iter().map(|&m| depth(m)).max().unwrap();
                let visits = moves
                    .iter()
                    .filter(|&&m| depth(m) == deepest)
                    .map(|&m| (state.format_move(m), 1))
                    .collect();
                let mv = moves[random_below(&mut rng, moves.len())];
                plies.push(Ply {
                    played: state.format_move(mv),
                    visits: Some(visits),
                    exact: None,
                });
                state.play(mv);
            }
            let record = GameRecord {
                index,
                outcome: state.outcome().unwrap(),
                start: start.position_text(),
                plies,
            };
            data.add_game(&start, &record, 1.0).unwrap();
        }
        (start, data)
    }

    /// Four features, two pairs: the value is 1 exactly when one of
    /// features 0 and 2 is present (an exclusive or, which no weighting of
    /// the features alone expresses).
    fn exclusive_or(samples: usize) -> Dataset {
        let mut data = Dataset::default();
        for i in 0..samples {
            let (a, b) = (i % 2, (i / 2) % 2);
            let features = [if a == 1 { 0 } else { 1 }, if b == 1 { 2 } else { 3 }];
            data.add_value_sample(&features, (a ^ b) as f32);
        }
        data
    }

    fn four_features(hidden: Hidden) -> Weights {
        Weights {
            game: "test".into(),
            feature_set: "test".into(),
            feature_version: 1,
            note: String::new(),
            value_bias: 0.0,
            value: vec![0.0; 4],
            policy: Vec::new(),
            hidden,
        }
    }

    #[test]
    fn a_hidden_layer_learns_what_a_linear_value_cannot() {
        let (train, valid) = (exclusive_or(400), exclusive_or(40));
        let settings = FitSettings {
            epochs: 20,
            ..FitSettings::default()
        };
        let mut linear = four_features(Hidden::default());
        fit(&mut linear, &train, &valid, &settings, |_, _, _| {});
        let linear_loss = evaluate(&linear, &valid).value_loss;
        assert!(linear_loss > 0.69, "linear: {linear_loss}");
        let mut layered = four_features(Hidden::random(8, 4, 1));
        fit(&mut layered, &train, &valid, &settings, |_, _, _| {});
        let layered_loss = evaluate(&layered, &valid).value_loss;
        assert!(layered_loss < 0.2, "hidden layer: {layered_loss}");
        let mut again = four_features(Hidden::random(8, 4, 1));
        fit(&mut again, &train, &valid, &settings, |_, _, _| {});
        assert_eq!(again, layered, "deterministic");
    }

    #[test]
    fn the_fit_learns_a_learnable_policy_and_is_deterministic() {
        let (start, train) = centre_loving_games(60, 1);
        let (_, valid) = centre_loving_games(20, 2);
        let zeros = Weights::zeros(&start).unwrap();
        let before = evaluate(&zeros, &valid);
        let settings = FitSettings {
            epochs: 3,
            ..FitSettings::default()
        };
        let mut fitted = zeros.clone();
        let mut epochs = 0;
        fit(&mut fitted, &train, &valid, &settings, |_, _, _| {
            epochs += 1
        });
        assert_eq!(epochs, 4, "the start and every epoch are reported");
        let after = evaluate(&fitted, &valid);
        assert!(
            after.policy_loss < 0.7 * before.policy_loss,
            "{before} -> {after}"
        );
        let mut again = zeros.clone();
        fit(&mut again, &train, &valid, &settings, |_, _, _| {});
        assert_eq!(again, fitted);
    }
}

//! Match statistics, from the first engine's point of view: W/D/L, the
//! logistic Elo difference with a 95% interval, and the generalized SPRT
//! on game pairs (pentanomial counts): under each hypothesis, the
//! distribution of the pair score nearest the observed one (its maximum
//! likelihood) that has the hypothesis's expected score.
//!
//! Scores are fractions: a game scores 1, 1/2 or 0; a pair scores the mean
//! of its two games, so 0, 1/4, 1/2, 3/4 or 1.

/// The two-sided 95% quantile of the standard normal distribution.
pub const Z95: f64 = 1.959_963_984_540_054;
/// The probability beyond each end of a two-sided 95% interval.
const TAIL95: f64 = 0.025;

/// Counts of zero are replaced by this in the SPRT, so every pair score
/// keeps some probability and a hypothesis's nearest distribution exists.
const EMPTY_BIN: f64 = 1e-3;

/// The expected score of a player `elo` points stronger (logistic model).
pub fn score_of_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The Elo difference that makes `score` the expected score; infinite at
/// 0 and 1.
pub fn elo_of_score(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

/// An Elo estimate with the bounds of its 95% confidence interval.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Estimate {
    pub elo: f64,
    pub low: f64,
    pub high: f64,
}

impl Estimate {
    /// From the mean and variance of `n` independent observations of the
    /// score: the interval of the mean, mapped onto the Elo scale.
    fn from_moments(mean: f64, variance: f64, n: f64) -> Estimate {
        if variance == 0.0 && (mean == 0.0 || mean == 1.0) {
            // All n observations at one extreme: the normal interval has no
            // width. The exact (Clopper-Pearson) bound is the score s whose
            // chance of n such results, s^n, is 2.5%.
            let bound = TAIL95.powf(1.0 / n);
            let (low, high) = if mean == 1.0 {
                (bound, 1.0)
            } else {
                (0.0, 1.0 - bound)
            };
            return Estimate {
                elo: elo_of_score(mean),
                low: elo_of_score(low),
                high: elo_of_score(high),
            };
        }
        let half = Z95 * (variance / n).sqrt();
        Estimate {
            elo: elo_of_score(mean),
            low: elo_of_score(mean - half),
            high: elo_of_score(mean + half),
        }
    }

    /// Half the width of the interval (the "±" that is usually shown).
    pub fn margin(&self) -> f64 {
        (self.high - self.low) / 2.0
    }

    /// `+12.3 ± 20.1`, with `inf` where a bound is infinite.
    pub fn display(&self) -> String {
        format!("{} ± {}", signed(self.elo), unsigned(self.margin()))
    }
}

/// An Elo value for display: `+12.3`, `-4.0`, `+inf`.
pub fn signed(x: f64) -> String {
    if x.is_infinite() {
        if x > 0.0 { "+inf" } else { "-inf" }.to_string()
    } else {
        // Adding 0.0 turns -0.0 into 0.0.
        format!("{:+.1}", x + 0.0)
    }
}

fn unsigned(x: f64) -> String {
    if x.is_finite() {
        format!("{x:.1}")
    } else {
        "inf".to_string()
    }
}

/// Mean and (population) variance of values `x[i]` seen `count[i]` times.
fn moments(values: &[f64], counts: &[f64]) -> (f64, f64) {
    let n: f64 = counts.iter().sum();
    let mean = values.iter().zip(counts).map(|(x, c)| x * c).sum::<f64>() / n;
    let variance = values
        .iter()
        .zip(counts)
        .map(|(x, c)| c * (x - mean) * (x - mean))
        .sum::<f64>()
        / n;
    (mean, variance)
}

/// Game results of the first engine.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Trinomial {
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
}

impl Trinomial {
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Adds one game scored 1, 1/2 or 0 (given in half points: 2, 1, 0).
    pub fn add(&mut self, half_points: u8) {
        match half_points {
            2 => self.wins += 1,
            1 => self.draws += 1,
            _ => self.losses += 1,
        }
    }

    /// The score fraction; 1/2 before any game.
    pub fn score(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            return 0.5;
        }
        (self.wins as f64 + 0.5 * self.draws as f64) / n as f64
    }

    /// The Elo estimate, treating games as independent.
    pub fn estimate(&self) -> Option<Estimate> {
        let n = self.games();
        if n == 0 {
            return None;
        }
        let counts = [self.losses as f64, self.draws as f64, self.wins as f64];
        let (mean, variance) = moments(&[0.0, 0.5, 1.0], &counts);
        Some(Estimate::from_moments(mean, variance, n as f64))
    }
}

/// Game pairs of the first engine by the points the pair scored: index
/// 0..=4 holds the pairs with 0, 1/2, 1, 3/2 and 2 points.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial {
    pub counts: [u64; 5],
}

/// The score fraction of each pentanomial bin.
const PAIR_SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

impl Pentanomial {
    pub fn pairs(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// Adds a pair from the half points of its two games (0..=4 in all).
    pub fn add(&mut self, half_points: u8) {
        self.counts[usize::from(half_points.min(4))] += 1;
    }

    /// The observed share of each bin, empty bins counted as
    /// [`EMPTY_BIN`] pairs.
    fn regularized_shares(&self) -> [f64; 5] {
        let counts = self.counts.map(|c| (c as f64).max(EMPTY_BIN));
        let total: f64 = counts.iter().sum();
        counts.map(|c| c / total)
    }

    /// The Elo estimate from the pairs (the pair is the independent unit,
    /// which accounts for the correlation of the two games of an opening).
    pub fn estimate(&self) -> Option<Estimate> {
        let n = self.pairs();
        if n == 0 {
            return None;
        }
        let counts = self.counts.map(|c| c as f64);
        let (mean, variance) = moments(&PAIR_SCORES, &counts);
        Some(Estimate::from_moments(mean, variance, n as f64))
    }

    /// The log-likelihood ratio of H1 (Elo = `elo1`) against H0 (Elo =
    /// `elo0`), the generalized SPRT: each hypothesis stands for the
    /// distribution of pair scores that is most likely to have given the
    /// observed shares q among those whose mean is its expected score s.
    /// That distribution is p_i = q_i / (1 + λ(x_i − s)) for pair scores x_i
    /// (a Lagrange multiplier; λ makes the mean s), so for N pairs
    ///   LLR = N · Σ q_i · ln((1 + λ0(x_i − s0)) / (1 + λ1(x_i − s1))).
    /// Unlike a normal approximation it stays honest far from an even
    /// score: N pairs all won give about N · ln(s1 / s0), not a bound
    /// crossed after a handful.
    pub fn llr(&self, elo0: f64, elo1: f64) -> f64 {
        let n = self.pairs() as f64;
        if n == 0.0 {
            return 0.0;
        }
        let q = self.regularized_shares();
        // A hypothesis of thousands of Elo would mean a certain result,
        // which no distribution with every bin in it can have.
        let expected = |elo: f64| score_of_elo(elo).clamp(1e-9, 1.0 - 1e-9);
        let (s0, s1) = (expected(elo0), expected(elo1));
        let (lambda0, lambda1) = (multiplier(&q, s0), multiplier(&q, s1));
        let per_pair: f64 = (0..5)
            .map(|i| {
                let x = PAIR_SCORES[i];
                q[i] * ((1.0 + lambda0 * (x - s0)) / (1.0 + lambda1 * (x - s1))).ln()
            })
            .sum();
        n * per_pair
    }
}

/// The multiplier λ that gives the distribution q_i / (1 + λ(x_i − s)) the
/// mean `s` (0 < s < 1; every q_i > 0). The mean's deviation
/// f(λ) = Σ q_i (x_i − s) / (1 + λ(x_i − s)) falls strictly from +∞ to −∞
/// between the poles −1/(1 − s) and 1/s, so the root is unique: Newton's
/// steps, kept inside the bracket that holds it (halving it where a step
/// would leave it).
fn multiplier(q: &[f64; 5], s: f64) -> f64 {
    let (mut low, mut high) = (-1.0 / (1.0 - s), 1.0 / s);
    let mut lambda = 0.0;
    for _ in 0..200 {
        let (mut f, mut slope) = (0.0, 0.0);
        for (&x, &qi) in PAIR_SCORES.iter().zip(q) {
            let d = x - s;
            let denominator = 1.0 + lambda * d;
            f += qi * d / denominator;
            slope -= qi * d * d / (denominator * denominator);
        }
        if f == 0.0 {
            // The root itself (the observed mean is s when λ = 0).
            return lambda;
        }
        if f > 0.0 {
            low = lambda;
        } else {
            high = lambda;
        }
        let newton = lambda - f / slope;
        let next = if newton > low && newton < high {
            newton
        } else {
            (low + high) / 2.0
        };
        if (next - lambda).abs() <= 1e-15 * (1.0 + lambda.abs()) {
            return next;
        }
        lambda = next;
    }
    lambda
}

/// The SPRT takes no decision on fewer complete pairs than this.
pub const MIN_PAIRS_TO_DECIDE: u64 = 10;

/// The parameters of a sequential probability ratio test.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Decision {
    /// H0 accepted: the first engine is not `elo1` stronger.
    H0,
    /// H1 accepted: the first engine is at least `elo0` stronger.
    H1,
}

impl Sprt {
    /// The LLR bounds (Wald): below the lower one H0 is accepted, above the
    /// upper one H1.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The decision the pairs so far support. None before
    /// [`MIN_PAIRS_TO_DECIDE`] pairs: the shares of a handful of pairs are
    /// no estimate of their distribution.
    pub fn decide_pairs(&self, pairs: &Pentanomial) -> Option<Decision> {
        if pairs.pairs() < MIN_PAIRS_TO_DECIDE {
            return None;
        }
        self.decide(pairs.llr(self.elo0, self.elo1))
    }

    pub fn decide(&self, llr: f64) -> Option<Decision> {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            Some(Decision::H1)
        } else if llr <= lower {
            Some(Decision::H0)
        } else {
            None
        }
    }

    /// Reads `elo0=0 elo1=5 alpha=0.05 beta=0.05` (any order, alpha and
    /// beta optional) or the short form `0,5` / `0,5,0.05,0.05`.
    pub fn parse(text: &str) -> Result<Sprt, String> {
        let mut sprt = Sprt {
            elo0: f64::NAN,
            elo1: f64::NAN,
            alpha: 0.05,
            beta: 0.05,
        };
        let number = |key: &str, value: &str| {
            value
                .trim()
                .parse::<f64>()
                .ok()
                .filter(|x| x.is_finite())
                .ok_or_else(|| format!("--sprt: {key} '{value}' is not a number"))
        };
        if text.contains('=') {
            for item in text.split([' ', ',']).filter(|s| !s.is_empty()) {
                let (key, value) = item
                    .split_once('=')
                    .ok_or_else(|| format!("--sprt: expected key=value, got '{item}'"))?;
                let slot = match key.to_ascii_lowercase().as_str() {
                    "elo0" => &mut sprt.elo0,
                    "elo1" => &mut sprt.elo1,
                    "alpha" => &mut sprt.alpha,
                    "beta" => &mut sprt.beta,
                    _ => {
                        return Err(format!(
                            "--sprt: unknown key '{key}' (keys: elo0, elo1, alpha, beta)"
                        ));
                    }
                };
                *slot = number(key, value)?;
            }
        } else {
            let parts: Vec<&str> = text.split(',').collect();
            if parts.len() != 2 && parts.len() != 4 {
                return Err(format!(
                    "--sprt: expected 'elo0=A elo1=B [alpha=X beta=Y]' or 'A,B[,X,Y]', got '{text}'"
                ));
            }
            let keys = ["elo0", "elo1", "alpha", "beta"];
            let slots = [
                &mut sprt.elo0,
                &mut sprt.elo1,
                &mut sprt.alpha,
                &mut sprt.beta,
            ];
            for ((part, key), slot) in parts.iter().zip(keys).zip(slots) {
                *slot = number(key, part)?;
            }
        }
        if sprt.elo0.is_nan() || sprt.elo1.is_nan() {
            return Err("--sprt: both elo0 and elo1 are needed".into());
        }
        if sprt.elo1 <= sprt.elo0 {
            return Err(format!(
                "--sprt: elo1 ({}) must be greater than elo0 ({})",
                sprt.elo1, sprt.elo0
            ));
        }
        for (name, p) in [("alpha", sprt.alpha), ("beta", sprt.beta)] {
            if !(p > 0.0 && p < 0.5) {
                return Err(format!("--sprt: {name} must lie in (0, 0.5), got {p}"));
            }
        }
        Ok(sprt)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_perfect_score_has_an_exact_finite_bound() {
        let all_wins = Trinomial {
            wins: 200,
            draws: 0,
            losses: 0,
        };
        let e = all_wins.estimate().unwrap();
        assert!(e.elo.is_infinite() && e.high.is_infinite());
        // 200 wins in a row have a 2.5% chance at the lower bound's score.
        let chance = score_of_elo(e.low).powi(200);
        assert!((chance - 0.025).abs() < 1e-6, "{chance}");
        assert!(e.low > 650.0 && e.low < 750.0, "{}", e.low);
        let all_losses = Trinomial {
            wins: 0,
            draws: 0,
            losses: 200,
        };
        let e = all_losses.estimate().unwrap();
        assert!(
            e.low.is_infinite() && (e.high + 692.0).abs() < 5.0,
            "{}",
            e.high
        );
    }

    #[test]
    fn elo_and_score_are_inverse() {
        for elo in [-800.0, -100.0, -5.0, 0.0, 3.5, 191.0, 700.0] {
            assert!((elo_of_score(score_of_elo(elo)) - elo).abs() < 1e-9);
        }
        // 3:1 odds are 400·log10(3) Elo.
        assert!((elo_of_score(0.75) - 190.848_501_887_865).abs() < 1e-9);
        assert_eq!(elo_of_score(1.0), f64::INFINITY);
        assert_eq!(elo_of_score(0.0), f64::NEG_INFINITY);
    }

    #[test]
    fn sprt_parsing() {
        let s = Sprt::parse("elo0=0 elo1=5 alpha=0.1").unwrap();
        assert_eq!((s.elo0, s.elo1, s.alpha, s.beta), (0.0, 5.0, 0.1, 0.05));
        let s = Sprt::parse("-2,3,0.05,0.1").unwrap();
        assert_eq!((s.elo0, s.elo1, s.alpha, s.beta), (-2.0, 3.0, 0.05, 0.1));
        assert!(Sprt::parse("elo0=5 elo1=0").is_err());
        assert!(Sprt::parse("elo1=5").is_err());
        assert!(Sprt::parse("0").is_err());
        assert!(Sprt::parse("elo0=0 elo1=x").is_err());
        assert!(Sprt::parse("elo0=0 elo1=5 gamma=1").is_err());
    }

    #[test]
    fn wald_bounds() {
        let s = Sprt::parse("0,5").unwrap();
        let (lower, upper) = s.bounds();
        // ln(0.05 / 0.95) and ln(0.95 / 0.05).
        assert!((lower + 2.944_438_979_166_440_5).abs() < 1e-12);
        assert!((upper - 2.944_438_979_166_440_5).abs() < 1e-12);
        assert_eq!(s.decide(3.0), Some(Decision::H1));
        assert_eq!(s.decide(-3.0), Some(Decision::H0));
        assert_eq!(s.decide(0.0), None);
        // No decision on a handful of pairs, however lopsided (at these
        // bounds each pair won adds about ln(0.5 / 0.091) = 1.7 to the LLR).
        let s = Sprt::parse("elo0=-400 elo1=0").unwrap();
        let mut pairs = Pentanomial::default();
        for n in 1..=MIN_PAIRS_TO_DECIDE {
            pairs.add(4);
            let expected = (n == MIN_PAIRS_TO_DECIDE).then_some(Decision::H1);
            assert_eq!(s.decide_pairs(&pairs), expected, "{n} pairs");
        }
    }
}

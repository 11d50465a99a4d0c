//! Ratings of all engines of a match, fitted jointly by maximum likelihood
//! over all games, as Ordo and BayesElo do: engine i scores against j with
//! the logistic expectation P = 1 / (1 + 10^((r_j − r_i)/400)), each game
//! counting its points (a draw half a point for each side), and the
//! ratings maximize
//!   L = Σ over pairings (s_ij ln P_ij + (n_ij − s_ij) ln(1 − P_ij)).
//! The first engine is the anchor (rating 0); the others are relative to
//! it. The 95% interval of each is ±1.96 standard errors from the inverse
//! of the Hessian of −L (the observed information), i.e. of its Elo
//! difference to the anchor.

use super::stats::Z95;
use std::collections::BTreeMap;

/// The natural-log scale of one Elo point.
const C: f64 = std::f64::consts::LN_10 / 400.0;

/// Points and games of engine a against engine b (a < b), from a's side.
pub type Results = BTreeMap<(usize, usize), (f64, f64)>;

#[derive(Clone, Debug, PartialEq)]
pub struct Ratings {
    /// Elo of each engine, the first one 0.
    pub elo: Vec<f64>,
    /// Half the width of the 95% interval (None for the anchor).
    pub margin: Vec<Option<f64>>,
}

/// Why there are no finite ratings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NoFit {
    /// Some engines are not linked to the rest by games at all.
    Unconnected(Vec<usize>),
    /// A group of engines scored every point against the rest (`every`),
    /// or none: the likelihood grows without end as the gap widens.
    Unbounded { group: Vec<usize>, every: bool },
}

/// P(a beats b) for a rating gap `d` = r_a − r_b.
fn expected(d: f64) -> f64 {
    1.0 / (1.0 + (-C * d).exp())
}

/// The log-likelihood of `ratings`.
pub fn log_likelihood(ratings: &[f64], results: &Results) -> f64 {
    results
        .iter()
        .map(|(&(a, b), &(points, games))| {
            let p = expected(ratings[a] - ratings[b]);
            points * p.ln() + (games - points) * (1.0 - p).ln()
        })
        .sum()
}

/// Engines reachable from engine 0 along `edge(from, to)`.
fn reachable(n: usize, edge: impl Fn(usize, usize) -> bool) -> Vec<bool> {
    let mut seen = vec![false; n];
    let mut stack = vec![0];
    seen[0] = true;
    while let Some(i) = stack.pop() {
        for (j, seen) in seen.iter_mut().enumerate() {
            if !*seen && edge(i, j) {
                *seen = true;
                stack.push(j);
            }
        }
    }
    seen
}

/// Checks that finite ratings exist: every engine must be reachable from
/// every other along "scored a point against" (the scores graph is
/// strongly connected; Zermelo's and Ford's condition).
fn check_fit(n: usize, results: &Results) -> Result<(), NoFit> {
    let points = |i: usize, j: usize| -> (f64, f64) {
        let (a, b) = (i.min(j), i.max(j));
        match results.get(&(a, b)) {
            Some(&(p, g)) if i == a => (p, g),
            Some(&(p, g)) => (g - p, g),
            None => (0.0, 0.0),
        }
    };
    let played = reachable(n, |i, j| i != j && points(i, j).1 > 0.0);
    let outside: Vec<usize> = (0..n).filter(|&k| !played[k]).collect();
    if !outside.is_empty() {
        return Err(NoFit::Unconnected(outside));
    }
    // Forward: whom engine 0's group scored against. Nobody it reaches
    // scored against anyone outside, so the engines outside scored every
    // point against it.
    let forward = reachable(n, |i, j| i != j && points(i, j).0 > 0.0);
    let group: Vec<usize> = (0..n).filter(|&k| !forward[k]).collect();
    if !group.is_empty() {
        return Err(NoFit::Unbounded { group, every: true });
    }
    // Backward: who scored against engine 0's group; the engines outside
    // scored no point against it.
    let backward = reachable(n, |i, j| i != j && points(j, i).0 > 0.0);
    let group: Vec<usize> = (0..n).filter(|&k| !backward[k]).collect();
    if !group.is_empty() {
        return Err(NoFit::Unbounded {
            group,
            every: false,
        });
    }
    Ok(())
}

/// Inverts a symmetric positive-definite matrix (Gauss-Jordan with
/// partial pivoting); None when it is singular.
fn invert(mut m: Vec<Vec<f64>>) -> Option<Vec<Vec<f64>>> {
    let n = m.len();
    let mut inv: Vec<Vec<f64>> = (0..n)
        .map(|i| (0..n).map(|j| if i == j { 1.0 } else { 0.0 }).collect())
        .collect();
    for col in 0..n {
        let pivot = (col..n).max_by(|&a, &b| m[a][col].abs().total_cmp(&m[b][col].abs()))?;
        if m[pivot][col].abs() < 1e-300 {
            return None;
        }
        m.swap(col, pivot);
        inv.swap(col, pivot);
        let scale = m[col][col];
        for j in 0..n {
            m[col][j] /= scale;
            inv[col][j] /= scale;
        }
        for row in 0..n {
            if row != col {
                let factor = m[row][col];
                if factor != 0.0 {
                    for j in 0..n {
                        m[row][j] -= factor * m[col][j];
                        inv[row][j] -= factor * inv[col][j];
                    }
                }
            }
        }
    }
    Some(inv)
}

/// The gradient of L and the matrix −∂²L (the information), both over
/// the engines other than the anchor.
fn derivatives(ratings: &[f64], results: &Results) -> (Vec<f64>, Vec<Vec<f64>>) {
    let n = ratings.len();
    let mut gradient = vec![0.0; n];
    let mut information = vec![vec![0.0; n]; n];
    for (&(a, b), &(points, games)) in results {
        let p = expected(ratings[a] - ratings[b]);
        let g = C * (points - games * p);
        gradient[a] += g;
        gradient[b] -= g;
        let w = C * C * games * p * (1.0 - p);
        information[a][a] += w;
        information[b][b] += w;
        information[a][b] -= w;
        information[b][a] -= w;
    }
    let reduced = information[1..]
        .iter()
        .map(|row| row[1..].to_vec())
        .collect();
    (gradient[1..].to_vec(), reduced)
}

/// Fits the ratings of `n` engines to `results` (Newton's method on the
/// log-likelihood, halving steps that do not improve it).
pub fn fit(n: usize, results: &Results) -> Result<Ratings, NoFit> {
    if n < 2 {
        return Ok(Ratings {
            elo: vec![0.0; n],
            margin: vec![None; n],
        });
    }
    check_fit(n, results)?;
    let mut ratings = vec![0.0; n];
    let mut likelihood = log_likelihood(&ratings, results);
    for _ in 0..100 {
        let (gradient, information) = derivatives(&ratings, results);
        let Some(inverse) = invert(information) else {
            break;
        };
        let step: Vec<f64> = inverse
            .iter()
            .map(|row| row.iter().zip(&gradient).map(|(a, g)| a * g).sum())
            .collect();
        let mut scale = 1.0;
        let mut improved = false;
        for _ in 0..40 {
            let trial: Vec<f64> = std::iter::once(0.0)
                .chain(ratings[1..].iter().zip(&step).map(|(r, s)| r + scale * s))
                .collect();
            let value = log_likelihood(&trial, results);
            if value >= likelihood {
                ratings = trial;
                likelihood = value;
                improved = true;
                break;
            }
            scale /= 2.0;
        }
        let size = step.iter().fold(0.0f64, |m, s| m.max(s.abs())) * scale;
        if !improved || size < 1e-9 {
            break;
        }
    }
    let (_, information) = derivatives(&ratings, results);
    let covariance = invert(information);
    let margin = (0..n)
        .map(|k| {
            let variance = covariance.as_ref()?.get(k.checked_sub(1)?)?[k - 1];
            Some(Z95 * variance.max(0.0).sqrt())
        })
        .collect();
    Ok(Ratings {
        elo: ratings,
        margin,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matches::stats::elo_of_score;

    #[test]
    fn two_engines_give_the_elo_of_the_score() {
        // 30 points of 50: the ML gap is the Elo of a 0.6 score, and the
        // information is n·p(1−p)·C², so the margin is
        // 1.96 / (C·sqrt(50·0.6·0.4)).
        let results = Results::from([((0, 1), (30.0, 50.0))]);
        let r = fit(2, &results).unwrap();
        assert_eq!(r.elo[0], 0.0);
        assert!((r.elo[1] + elo_of_score(0.6)).abs() < 1e-6, "{r:?}");
        let margin = Z95 / (C * (50.0f64 * 0.6 * 0.4).sqrt());
        assert!((r.margin[1].unwrap() - margin).abs() < 1e-6, "{r:?}");
        assert!(r.margin[0].is_none());
    }

    /// The maximum found by a slow independent search: coordinate steps
    /// of shrinking size on the likelihood.
    fn brute_force(n: usize, results: &Results) -> Vec<f64> {
        let mut r = vec![0.0; n];
        let mut step = 256.0;
        while step > 1e-7 {
            let mut moved = false;
            for k in 1..n {
                for delta in [step, -step] {
                    let mut trial = r.clone();
                    trial[k] += delta;
                    if log_likelihood(&trial, results) > log_likelihood(&r, results) {
                        r = trial;
                        moved = true;
                    }
                }
            }
            if !moved {
                step /= 2.0;
            }
        }
        r
    }

    #[test]
    fn several_engines_agree_with_a_brute_force_maximum() {
        let results = Results::from([
            ((0, 1), (12.5, 20.0)),
            ((0, 2), (15.0, 20.0)),
            ((1, 2), (11.0, 20.0)),
            ((0, 3), (7.0, 10.0)),
            ((2, 3), (4.5, 10.0)),
        ]);
        let r = fit(4, &results).unwrap();
        let brute = brute_force(4, &results);
        for k in 0..4 {
            assert!(
                (r.elo[k] - brute[k]).abs() < 1e-3,
                "{k}: {r:?} vs {brute:?}"
            );
        }
        // At the maximum, each engine's expected points equal its points.
        for k in 0..4 {
            let (mut actual, mut wanted) = (0.0, 0.0);
            for (&(a, b), &(points, games)) in &results {
                let p = expected(r.elo[a] - r.elo[b]);
                if a == k {
                    actual += points;
                    wanted += games * p;
                } else if b == k {
                    actual += games - points;
                    wanted += games * (1.0 - p);
                }
            }
            assert!((actual - wanted).abs() < 1e-6, "{k}: {actual} vs {wanted}");
        }
        // The engine with fewer games has the wider interval.
        assert!(r.margin[3].unwrap() > r.margin[1].unwrap());
    }

    #[test]
    fn a_clean_sweep_or_a_missing_link_has_no_finite_fit() {
        let sweep = Results::from([((0, 1), (10.0, 10.0)), ((1, 2), (5.0, 10.0))]);
        assert_eq!(
            fit(3, &sweep),
            Err(NoFit::Unbounded {
                group: vec![1, 2],
                every: false
            })
        );
        let beaten = Results::from([((0, 1), (0.0, 4.0)), ((1, 2), (2.0, 4.0))]);
        assert_eq!(
            fit(3, &beaten),
            Err(NoFit::Unbounded {
                group: vec![1, 2],
                every: true
            })
        );
        let apart = Results::from([((0, 1), (5.0, 10.0))]);
        assert_eq!(fit(3, &apart), Err(NoFit::Unconnected(vec![2])));
        // A draw links both ways.
        let drawn = Results::from([((0, 1), (0.5, 1.0))]);
        assert!(fit(2, &drawn).unwrap().elo[1].abs() < 1e-9);
    }
}

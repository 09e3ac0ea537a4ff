//! Statistics of results: confidence intervals, the sign test, and Elo (a match's
//! difference with its interval and likelihood of superiority, a round robin's ratings),
//! on the distributions of `statrs`.

use statrs::distribution::{Binomial, ContinuousCDF, DiscreteCDF, Normal, StudentsT};

/// The two-sided 95% critical value of Student's t with `df` degrees of freedom (NaN for
/// none).
pub fn t_critical_95(df: u64) -> f64 {
    match StudentsT::new(0.0, 1.0, df as f64) {
        Ok(t) if df > 0 => t.inverse_cdf(0.975),
        _ => f64::NAN,
    }
}

/// The two-sided 95% critical value of the standard normal distribution.
pub fn z_critical_95() -> f64 {
    standard_normal().inverse_cdf(0.975)
}

fn standard_normal() -> Normal {
    Normal::standard()
}

/// Two-sided exact sign test: the chance of a split at least this uneven between wins
/// and losses if each were equally likely (draws are left out).
pub fn sign_test(wins: u64, losses: u64) -> f64 {
    let n = wins + losses;
    if n == 0 {
        return 1.0;
    }
    let binomial = Binomial::new(0.5, n).expect("p = 0.5 is a probability");
    (2.0 * binomial.cdf(wins.min(losses))).min(1.0)
}

/// The expected score of a player `elo` points stronger than its opponent.
pub fn expected_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The Elo difference that expects `score` (0 to 1; infinite at the ends).
pub fn elo_of_score(score: f64) -> f64 {
    // Adding 0 turns the -0 of an even score into 0.
    -400.0 * (1.0 / score - 1.0).log10() + 0.0
}

/// A match's result from the first player's side, and what it says about their strength.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct MatchScore {
    /// Games won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games lost.
    pub losses: u64,
}

impl MatchScore {
    /// The same games from the other player's side.
    pub fn swapped(&self) -> MatchScore {
        MatchScore {
            wins: self.losses,
            draws: self.draws,
            losses: self.wins,
        }
    }

    /// Games played.
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Points: a win 1, a draw 1/2.
    pub fn points(&self) -> f64 {
        self.wins as f64 + self.draws as f64 / 2.0
    }

    /// Points per game (NaN for no game).
    pub fn score(&self) -> f64 {
        self.points() / self.games() as f64
    }

    /// The Elo difference and its 95% interval, as chess engine testers compute them:
    /// the score's standard error from the games' own spread of results, its 95% bounds
    /// mapped to Elo. Infinite where the score is 0 or 1 (a sweep).
    pub fn elo(&self) -> (f64, f64, f64) {
        let n = self.games() as f64;
        let s = self.score();
        let (w, d, l) = (self.wins as f64 / n, self.draws as f64 / n, self.losses as f64 / n);
        let variance = w * (1.0 - s).powi(2) + d * (0.5 - s).powi(2) + l * s.powi(2);
        let margin = z_critical_95() * (variance / n).sqrt();
        let bound = |score: f64| elo_of_score(score.clamp(0.0, 1.0));
        (elo_of_score(s), bound(s - margin), bound(s + margin))
    }

    /// The likelihood of superiority: the chance, from wins against losses (draws say
    /// nothing), that the first player is the stronger. 1/2 with no decisive game.
    pub fn likelihood_of_superiority(&self) -> f64 {
        let decisive = (self.wins + self.losses) as f64;
        if decisive == 0.0 {
            return 0.5;
        }
        standard_normal().cdf((self.wins as f64 - self.losses as f64) / decisive.sqrt())
    }
}

/// One player's rating from a round robin.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Rating {
    /// Elo, the players' mean 0.
    pub elo: f64,
    /// Half-width of its 95% interval.
    pub ci95: f64,
}

/// Maximum-likelihood Elo ratings of `players` from the pairwise results `results`
/// (`(a, b, score of a against b)`), a draw half a win, the finite ratings' mean 0 (as Ordo
/// and BayesElo anchor them). Each interval is the normal one from the likelihood's
/// curvature in that player's rating, others held at theirs.
///
/// A player who won every game it played is rated plus infinity, one who scored nothing
/// minus infinity (no finite rating is likelier); their games say nothing about the others,
/// who are rated on the rest, again and again until no such player is left.
pub fn ratings(players: usize, results: &[(usize, usize, MatchScore)]) -> Vec<Rating> {
    let scale = 400.0 / std::f64::consts::LN_10;
    let mut unbounded: Vec<Option<f64>> = vec![None; players];
    let mut rest: Vec<(usize, usize, MatchScore)> = results.to_vec();
    let (points, games) = loop {
        let mut points = vec![0.0; players];
        let mut games = vec![0.0; players];
        for &(a, b, score) in &rest {
            points[a] += score.points();
            points[b] += score.games() as f64 - score.points();
            games[a] += score.games() as f64;
            games[b] += score.games() as f64;
        }
        let mut found = false;
        for i in (0..players).filter(|&i| games[i] > 0.0) {
            if points[i] == 0.0 || points[i] == games[i] {
                unbounded[i] = Some(if points[i] == 0.0 {
                    f64::NEG_INFINITY
                } else {
                    f64::INFINITY
                });
                found = true;
            }
        }
        if !found {
            break (points, games);
        }
        rest.retain(|&(a, b, _)| unbounded[a].is_none() && unbounded[b].is_none());
    };
    // Minorization-maximization on strengths (Hunter 2004): each step moves a player's
    // strength to its points over the games it was expected to win per unit strength.
    let mut strength = vec![1.0f64; players];
    for _ in 0..100_000 {
        let mut largest_step = 0.0f64;
        for i in (0..players).filter(|&i| games[i] > 0.0) {
            let mut weighted = 0.0;
            for &(a, b, score) in &rest {
                if a == i || b == i {
                    weighted += score.games() as f64 / (strength[a] + strength[b]);
                }
            }
            let next = points[i] / weighted;
            largest_step = largest_step.max((next.ln() - strength[i].ln()).abs());
            strength[i] = next;
        }
        if largest_step < 1e-12 {
            break;
        }
    }
    let finite: Vec<usize> = (0..players).filter(|&i| unbounded[i].is_none()).collect();
    let mean = finite.iter().map(|&i| strength[i].ln()).sum::<f64>() / finite.len().max(1) as f64;
    (0..players)
        .map(|i| {
            let mut information = 0.0;
            for &(a, b, score) in &rest {
                if a == i || b == i {
                    let p = strength[a] / (strength[a] + strength[b]);
                    information += score.games() as f64 * p * (1.0 - p);
                }
            }
            Rating {
                elo: unbounded[i].unwrap_or(scale * (strength[i].ln() - mean)),
                ci95: z_critical_95() * scale / information.sqrt(),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tolerance: f64) -> bool {
        (a - b).abs() <= tolerance
    }

    #[test]
    fn critical_values_match_the_tables() {
        assert!(close(t_critical_95(1), 12.706, 0.001));
        assert!(close(t_critical_95(30), 2.042, 0.001));
        assert!(close(t_critical_95(100), 1.984, 0.001));
        assert!(close(z_critical_95(), 1.960, 0.001));
        assert!(t_critical_95(0).is_nan());
    }

    #[test]
    fn sign_test_matches_the_binomial_by_hand() {
        // 2 wins, 8 losses: P(X <= 2) for Binomial(10, 1/2) is 56/1024; doubled.
        assert!(close(sign_test(2, 8), 2.0 * 56.0 / 1024.0, 1e-12));
        // 9 wins, 1 loss: P(X <= 1) = 11/1024; two-sided 22/1024.
        assert!(close(sign_test(9, 1), 22.0 / 1024.0, 1e-12));
        assert!(sign_test(1000, 0) < 1e-300);
        assert_eq!(sign_test(5, 5), 1.0);
        assert_eq!(sign_test(0, 0), 1.0);
    }

    #[test]
    fn a_match_gives_elo_its_interval_and_superiority() {
        // 60 wins, 20 draws, 20 losses: score 0.7, 147.2 Elo.
        let score = MatchScore {
            wins: 60,
            draws: 20,
            losses: 20,
        };
        let (elo, low, high) = score.elo();
        assert!(close(elo, 147.19, 0.01));
        // Variance 0.6 x 0.09 + 0.2 x 0.04 + 0.2 x 0.49 = 0.16; standard error 0.04.
        assert!(close(low, elo_of_score(0.7 - 1.959964 * 0.04), 0.01));
        assert!(close(high, elo_of_score(0.7 + 1.959964 * 0.04), 0.01));
        // (60 - 20) / sqrt(80) = 4.47 standard deviations.
        assert!(score.likelihood_of_superiority() > 0.99999);
        let even = MatchScore {
            wins: 3,
            draws: 4,
            losses: 3,
        };
        assert_eq!(even.elo().0, 0.0);
        assert_eq!(even.likelihood_of_superiority(), 0.5);
        let sweep = MatchScore {
            wins: 10,
            draws: 0,
            losses: 0,
        };
        assert_eq!(sweep.elo().0, f64::INFINITY);
    }

    #[test]
    fn ratings_reproduce_a_known_difference_and_center_on_zero() {
        // A scores 0.75 against B in 400 games; alone, that is 190.8 Elo.
        let score = MatchScore {
            wins: 250,
            draws: 100,
            losses: 50,
        };
        let rated = ratings(2, &[(0, 1, score)]);
        assert!(close(rated[0].elo - rated[1].elo, elo_of_score(0.75), 0.01));
        assert!(close(rated[0].elo + rated[1].elo, 0.0, 1e-9));
        // Three players in a chain, each scoring 0.64 against the next: A-B and B-C are
        // 100 Elo each apart, and A-C (not played) about 200.
        let chain = MatchScore {
            wins: 64,
            draws: 0,
            losses: 36,
        };
        let rated = ratings(3, &[(0, 1, chain), (1, 2, chain)]);
        assert!(close(rated[0].elo - rated[1].elo, elo_of_score(0.64), 0.5));
        assert!(close(rated[1].elo - rated[2].elo, elo_of_score(0.64), 0.5));
        assert!(rated.iter().all(|r| r.ci95 > 0.0 && r.ci95.is_finite()));
        // A third player who lost every game is minus infinity; the other two keep the
        // difference of their own games.
        let lost_all = MatchScore {
            wins: 0,
            draws: 0,
            losses: 10,
        };
        let rated = ratings(3, &[(0, 1, score), (2, 0, lost_all), (2, 1, lost_all)]);
        assert_eq!(rated[2].elo, f64::NEG_INFINITY);
        assert!(close(rated[0].elo - rated[1].elo, elo_of_score(0.75), 0.01));
        // One who won everything is plus infinity, and the rest are rated without it.
        let rated = ratings(3, &[(0, 1, score), (2, 0, lost_all.swapped()), (1, 2, lost_all)]);
        assert_eq!(rated[2].elo, f64::INFINITY);
        assert!(close(rated[0].elo + rated[1].elo, 0.0, 1e-9));
        assert!(close(rated[0].elo - rated[1].elo, elo_of_score(0.75), 0.01));
    }
}

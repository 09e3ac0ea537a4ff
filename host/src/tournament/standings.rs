//! Standings: each entrant's statistics, the pairwise matrix on common seeds with a paired
//! sign test, and the sequential probability ratio test for two entrants.

use super::record::{FixtureRecord, GameRecord};
use crate::referee::End;
use crate::report::{mean_ci95, median, LinesSummary};
use crate::runner::new_histogram;
pub use crate::stats::sign_test;
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};

/// One entrant's line in the standings.
#[derive(Clone, Debug, Serialize)]
pub struct Standing {
    /// The entrant's label.
    pub label: String,
    /// Games finished.
    pub games: u64,
    /// Lines cleared (a forfeited game counts the lines it cleared before it ended).
    pub lines: LinesSummary,
    /// Mean pieces locked.
    pub pieces: f64,
    /// Mean points.
    pub score: f64,
    /// Games that ended by topping out.
    pub topped_out: u64,
    /// Games that reached the piece cap.
    pub capped: u64,
    /// Mean microseconds per update.
    pub update_us_mean: f64,
    /// 99th percentile of microseconds per update, over every update.
    pub update_us_p99: f64,
    /// The slowest update, in microseconds: a rare slow one lifts the mean above the p99.
    pub update_us_max: f64,
    /// Protocol violations, over all games.
    pub violations: u64,
    /// Forfeited games by cause: plugin_error (a panic or error status), crashed,
    /// timeout, violation, stalled.
    pub forfeits: BTreeMap<&'static str, u64>,
}

/// Two entrants compared seed by seed.
#[derive(Clone, Debug, Serialize)]
pub struct Pairing {
    /// The first entrant's label.
    pub a: String,
    /// The second entrant's label.
    pub b: String,
    /// Seeds where `a` did better.
    pub wins: u64,
    /// Seeds where they did equally.
    pub draws: u64,
    /// Seeds where `b` did better.
    pub losses: u64,
    /// Two-sided p-value of the sign test on wins against losses.
    pub p_value: f64,
}

/// Outcome of one seed for two entrants: more lines wins, and a forfeit loses to any
/// game played out; two forfeits draw.
pub fn outcome(a: (End, u64), b: (End, u64)) -> std::cmp::Ordering {
    match (a.0.is_forfeit(), b.0.is_forfeit()) {
        (false, true) => std::cmp::Ordering::Greater,
        (true, false) => std::cmp::Ordering::Less,
        (true, true) => std::cmp::Ordering::Equal,
        (false, false) => a.1.cmp(&b.1),
    }
}

/// The GSPRT log-likelihood ratio of Elo `elo1` against `elo0` for a win/draw/loss
/// record, in the normal approximation chess engine testing uses. A "win" is a seed on
/// which the first entrant cleared more lines.
///
/// A record with no wins, no draws or no losses has an estimated variance of zero (a
/// sweep has none at all), which would leave the test undecided forever. Such a record is
/// estimated with half a game added to each outcome, so that a one-sided match is decided
/// after a dozen games instead of never.
pub fn sprt_llr(wins: u64, draws: u64, losses: u64, elo0: f64, elo1: f64) -> f64 {
    if wins + draws + losses == 0 {
        return 0.0;
    }
    let prior = if wins == 0 || draws == 0 || losses == 0 {
        0.5
    } else {
        0.0
    };
    let (wins, draws, losses) = (wins as f64 + prior, draws as f64 + prior, losses as f64 + prior);
    let n = wins + draws + losses;
    let (w, d, l) = (wins / n, draws / n, losses / n);
    let score = w + d / 2.0;
    let variance = w * (1.0 - score).powi(2) + d * (0.5 - score).powi(2) + l * score.powi(2);
    let expected = |elo: f64| 1.0 / (1.0 + 10f64.powf(-elo / 400.0));
    let (s0, s1) = (expected(elo0), expected(elo1));
    n * (s1 - s0) * (2.0 * score - s0 - s1) / (2.0 * variance)
}

/// The SPRT's verdict bounds for error rates alpha = beta = 0.05.
pub fn sprt_bounds() -> (f64, f64) {
    let (alpha, beta) = (0.05f64, 0.05f64);
    ((beta / (1.0 - alpha)).ln(), ((1.0 - beta) / alpha).ln())
}

/// The standings of `labels` from their game records.
pub fn standings(labels: &[String], records: &[GameRecord]) -> Vec<Standing> {
    labels
        .iter()
        .enumerate()
        .map(|(entrant, label)| {
            let mine: Vec<&GameRecord> = records.iter().filter(|r| r.entrant == entrant).collect();
            let lines: Vec<f64> = mine.iter().map(|r| r.result.lines as f64).collect();
            let (mean, ci95) = mean_ci95(&lines);
            let games = mine.len() as u64;
            let average = |f: fn(&GameRecord) -> u64| {
                if mine.is_empty() {
                    0.0
                } else {
                    mine.iter().map(|r| f(r) as f64).sum::<f64>() / mine.len() as f64
                }
            };
            let count = |end: End| mine.iter().filter(|r| r.result.end == end).count() as u64;
            let mut times = new_histogram();
            for record in &mine {
                let _ = times.add(record.histogram());
            }
            // Saturating: the counts come from files, which may hold any number.
            let updates = mine.iter().map(|r| r.result.updates).fold(0, u64::saturating_add);
            let total_us: f64 = mine
                .iter()
                .map(|r| r.result.update_us_mean * r.result.updates as f64)
                .sum();
            let forfeits = End::ALL
                .iter()
                .filter(|e| e.is_forfeit())
                .map(|&e| (e.name(), count(e)))
                .collect();
            Standing {
                label: label.clone(),
                games,
                lines: LinesSummary {
                    mean,
                    ci95,
                    median: median(&lines),
                    max: mine.iter().map(|r| r.result.lines).max().unwrap_or(0),
                },
                pieces: average(|r| r.result.pieces),
                score: average(|r| r.result.score),
                topped_out: count(End::ToppedOut),
                capped: count(End::Capped),
                update_us_mean: total_us / updates.max(1) as f64,
                update_us_p99: times.value_at_quantile(0.99) as f64 / 1000.0,
                update_us_max: times.max() as f64 / 1000.0,
                violations: mine.iter().map(|r| r.result.violations).fold(0, u64::saturating_add),
                forfeits,
            }
        })
        .collect()
}

/// Win, draw and loss counts of every pair of entrants over the seeds both finished.
pub fn pairings(labels: &[String], records: &[GameRecord]) -> Vec<Pairing> {
    let mut by_game: HashMap<(usize, u64), (End, u64)> = HashMap::new();
    for record in records {
        by_game.insert(
            (record.entrant, record.result.index),
            (record.result.end, record.result.lines),
        );
    }
    let mut games: Vec<u64> = records.iter().map(|r| r.result.index).collect();
    games.sort_unstable();
    games.dedup();
    let mut out = Vec::new();
    for a in 0..labels.len() {
        for b in a + 1..labels.len() {
            let (mut wins, mut draws, mut losses) = (0, 0, 0);
            for game in &games {
                if let (Some(&x), Some(&y)) = (by_game.get(&(a, *game)), by_game.get(&(b, *game))) {
                    match outcome(x, y) {
                        std::cmp::Ordering::Greater => wins += 1,
                        std::cmp::Ordering::Equal => draws += 1,
                        std::cmp::Ordering::Less => losses += 1,
                    }
                }
            }
            out.push(Pairing {
                a: labels[a].clone(),
                b: labels[b].clone(),
                wins,
                draws,
                losses,
                p_value: sign_test(wins, losses),
            });
        }
    }
    out
}

/// The pairwise results of versus fixtures: for each pair, the games the first entrant
/// won (the other's game ended first), drew, and lost.
pub fn versus_pairings(labels: &[String], fixtures: &[FixtureRecord]) -> Vec<Pairing> {
    let mut score: HashMap<(usize, usize), (u64, u64, u64)> = HashMap::new();
    for fixture in fixtures {
        let [x, y] = fixture.seats.as_slice() else {
            continue;
        };
        let (a, b) = if x.entrant < y.entrant { (x, y) } else { (y, x) };
        let tally = score.entry((a.entrant, b.entrant)).or_default();
        match (a.result.end, b.result.end) {
            (End::Won, _) => tally.0 += 1,
            (_, End::Won) => tally.2 += 1,
            _ => tally.1 += 1,
        }
    }
    let mut out = Vec::new();
    for a in 0..labels.len() {
        for b in a + 1..labels.len() {
            let (wins, draws, losses) = score.get(&(a, b)).copied().unwrap_or_default();
            out.push(Pairing {
                a: labels[a].clone(),
                b: labels[b].clone(),
                wins,
                draws,
                losses,
                p_value: sign_test(wins, losses),
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forfeits_lose_to_games_played_out() {
        use std::cmp::Ordering::*;
        assert_eq!(outcome((End::ToppedOut, 3), (End::Crashed, 50)), Greater);
        assert_eq!(outcome((End::Timeout, 9), (End::Stalled, 1)), Equal);
        assert_eq!(outcome((End::Capped, 10), (End::ToppedOut, 12)), Less);
    }

    #[test]
    fn sprt_moves_toward_the_truth() {
        let (lower, upper) = sprt_bounds();
        assert!((upper - 2.944).abs() < 1e-3 && (lower + 2.944).abs() < 1e-3);
        // A clearly stronger first entrant: the LLR for [0, 20] rises past the bound.
        assert!(sprt_llr(70, 10, 20, 0.0, 20.0) > upper);
        // Evenly matched: it leans toward H0.
        assert!(sprt_llr(400, 200, 400, 0.0, 20.0) < 0.0);
        // Nothing played: no evidence either way.
        assert_eq!(sprt_llr(0, 0, 0, 0.0, 20.0), 0.0);
        // Draws alone: no difference, so toward H0.
        assert!(sprt_llr(0, 5, 0, 0.0, 20.0) < 0.0);
    }

    #[test]
    fn sprt_decides_a_sweep() {
        let (lower, upper) = sprt_bounds();
        // Regression (issue: SPRT never decides a one-sided match): a sweep has zero
        // variance, and its LLR used to be 0 whatever the number of games.
        let first_decided = (1..=200).find(|&n| sprt_llr(n, 0, 0, 0.0, 20.0) >= upper);
        assert!(first_decided.is_some_and(|n| n <= 20), "{first_decided:?}");
        assert!(sprt_llr(0, 0, 200, 0.0, 20.0) <= lower);
        // The LLR grows with every further win.
        assert!(sprt_llr(30, 0, 0, 0.0, 20.0) > sprt_llr(29, 0, 0, 0.0, 20.0));
    }
}

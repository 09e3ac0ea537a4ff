//! Summaries of finished games and their output as a table, JSON or CSV.

use crate::referee::End;
use crate::runner::GameResult;
use hdrhistogram::Histogram;
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// Lines cleared across games.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct LinesSummary {
    /// Mean.
    pub mean: f64,
    /// Half-width of the 95% confidence interval of the mean (Student's t).
    pub ci95: f64,
    /// Median.
    pub median: f64,
    /// Most in one game.
    pub max: u64,
}

/// A mean.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Mean {
    /// The mean.
    pub mean: f64,
}

/// Time per `update` call, over every call of every game.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct UpdateTimes {
    /// Mean microseconds.
    pub mean: f64,
    /// 99th percentile, microseconds.
    pub p99: f64,
    /// The slowest, microseconds: a rare slow update lifts the mean above the p99.
    pub max: f64,
}

/// The summary of a set of games of one plugin.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Summary {
    /// Games played.
    pub games: u64,
    /// Lines cleared.
    pub lines: LinesSummary,
    /// Pieces locked.
    pub pieces: Mean,
    /// Points.
    pub score: Mean,
    /// Microseconds per update.
    pub update_us: UpdateTimes,
    /// Protocol violations, over all games.
    pub violations: u64,
    /// How many games ended each way.
    pub ends: BTreeMap<&'static str, u64>,
}

/// Mean and 95% half-width of `values` (0 half-width for fewer than two values).
pub fn mean_ci95(values: &[f64]) -> (f64, f64) {
    let n = values.len();
    if n == 0 {
        return (0.0, 0.0);
    }
    let mean = values.iter().sum::<f64>() / n as f64;
    if n < 2 {
        return (mean, 0.0);
    }
    let variance = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
    (
        mean,
        crate::stats::t_critical_95(n as u64 - 1) * (variance / n as f64).sqrt(),
    )
}

/// The median of `values` (the mean of the middle two for an even count).
pub fn median(values: &[f64]) -> f64 {
    if values.is_empty() {
        return 0.0;
    }
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    let mid = sorted.len() / 2;
    if sorted.len().is_multiple_of(2) {
        (sorted[mid - 1] + sorted[mid]) / 2.0
    } else {
        sorted[mid]
    }
}

/// Summarises finished games, with `update_ns` the durations of all their updates.
pub fn summarize(results: &[GameResult], update_ns: &Histogram<u64>) -> Summary {
    let lines: Vec<f64> = results.iter().map(|r| r.lines as f64).collect();
    let (mean, ci95) = mean_ci95(&lines);
    let average = |f: fn(&GameResult) -> u64| {
        if results.is_empty() {
            0.0
        } else {
            results.iter().map(|r| f(r) as f64).sum::<f64>() / results.len() as f64
        }
    };
    // A fold from +0.0: the sum of no floats is -0.0, which prints as "-0.00".
    let total_ns: f64 = results
        .iter()
        .map(|r| r.update_us_mean * 1000.0 * r.updates as f64)
        .fold(0.0, |total, ns| total + ns);
    let calls = results.iter().map(|r| r.updates).sum::<u64>().max(1) as f64;
    let ends = End::ALL
        .iter()
        .map(|&end| (end.name(), results.iter().filter(|r| r.end == end).count() as u64))
        .collect();
    Summary {
        games: results.len() as u64,
        lines: LinesSummary {
            mean,
            ci95,
            median: median(&lines),
            max: results.iter().map(|r| r.lines).max().unwrap_or(0),
        },
        pieces: Mean {
            mean: average(|r| r.pieces),
        },
        score: Mean {
            mean: average(|r| r.score),
        },
        update_us: UpdateTimes {
            mean: total_ns / calls / 1000.0,
            p99: update_ns.value_at_quantile(0.99) as f64 / 1000.0,
            max: update_ns.max() as f64 / 1000.0,
        },
        violations: results.iter().map(|r| r.violations).sum(),
        ends,
    }
}

/// One line per game, for the table format.
pub fn game_line(result: &GameResult) -> String {
    let mut line = format!(
        "{:>5}  {:>18}  {:>8}  {:>8}  {:>9}  {:>9}  {}",
        result.index,
        format!("{:#018x}", result.seed),
        result.lines,
        result.pieces,
        result.score,
        result.ticks,
        result.end.name()
    );
    if result.violations > 0 {
        let _ = write!(line, " ({} violations)", result.violations);
    }
    if let Some(error) = &result.error {
        let _ = write!(line, ": {error}");
    }
    line
}

/// The header over [`game_line`]s.
pub fn game_header() -> String {
    format!(
        "{:>5}  {:>18}  {:>8}  {:>8}  {:>9}  {:>9}  end",
        "game", "seed", "lines", "pieces", "score", "ticks"
    )
}

/// `n` and `noun`, made plural unless `n` is 1: "1 game", "2 games".
pub fn plural(n: u64, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// The summary as a few human-readable lines.
pub fn summary_text(summary: &Summary) -> String {
    let ends: Vec<String> = summary
        .ends
        .iter()
        .filter(|(_, &n)| n > 0)
        .map(|(name, n)| format!("{n} {}", name.replace('_', " ")))
        .collect();
    format!(
        "games       {}\n\
         lines       mean {:.2} ± {:.2} (95% CI), median {}, max {}\n\
         pieces      mean {:.1}\n\
         score       mean {:.1}\n\
         update      mean {:.2} µs, p99 {:.2} µs, max {:.2} µs\n\
         violations  {}\n\
         ended       {}",
        summary.games,
        summary.lines.mean,
        summary.lines.ci95,
        summary.lines.median,
        summary.lines.max,
        summary.pieces.mean,
        summary.score.mean,
        summary.update_us.mean,
        summary.update_us.p99,
        summary.update_us.max,
        summary.violations,
        if ends.is_empty() {
            "no games".to_string()
        } else {
            ends.join(", ")
        }
    )
}

/// The games as CSV, one row per game with a header row.
pub fn games_csv(results: &[GameResult]) -> String {
    let mut out = String::from("index,seed,lines,pieces,score,ticks,end,violations,update_us_mean,error\n");
    for r in results {
        let error = r.error.as_deref().unwrap_or("").replace('"', "\"\"");
        let _ = writeln!(
            out,
            "{},{},{},{},{},{},{},{},{:.3},\"{}\"",
            r.index,
            r.seed,
            r.lines,
            r.pieces,
            r.score,
            r.ticks,
            r.end.name(),
            r.violations,
            r.update_us_mean,
            error
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn confidence_interval_uses_students_t() {
        // 1, 2, 3, 4, 5: mean 3, sample sd sqrt(2.5), t(4) = 2.776.
        let (mean, half) = mean_ci95(&[1.0, 2.0, 3.0, 4.0, 5.0]);
        assert_eq!(mean, 3.0);
        assert!((half - 2.776_445 * (2.5f64 / 5.0).sqrt()).abs() < 1e-5);
    }

    #[test]
    fn median_of_even_and_odd_counts() {
        assert_eq!(median(&[5.0, 1.0, 3.0]), 3.0);
        assert_eq!(median(&[4.0, 1.0, 3.0, 2.0]), 2.5);
        assert_eq!(median(&[]), 0.0);
    }
}

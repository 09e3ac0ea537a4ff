//! The numbers behind the charts: survival curves, histogram bins, update-time
//! percentiles and the pairwise matrix, computed from the game records.

use crate::referee::End;
use crate::runner::{new_histogram, GameResult};
use crate::tournament::{GameRecord, Pairing};

/// The survival curve of `games` as the corners of a step function: `(pieces, share)`
/// with `share` the fraction of games that played more than `pieces` pieces. A capped
/// game counts as alive up to its cap (it did not die; the cap ended it); every other
/// ending, a forfeit included, is a death at the game's piece count.
///
/// The curve starts at `(0, 1)` and ends at the longest game; it has two corners per
/// distinct death count, so its size follows the games, not their lengths.
pub fn survival(games: &[&GameResult]) -> Vec<(u64, f64)> {
    if games.is_empty() {
        return Vec::new();
    }
    let total = games.len() as f64;
    let mut deaths: Vec<u64> = games
        .iter()
        .filter(|g| g.end != End::Capped)
        .map(|g| g.pieces)
        .collect();
    deaths.sort_unstable();
    let end = games.iter().map(|g| g.pieces).max().unwrap_or(0);
    let mut points = vec![(0, 1.0)];
    let mut alive = games.len();
    let mut i = 0;
    while i < deaths.len() {
        let at = deaths[i];
        let same = deaths[i..].iter().take_while(|&&d| d == at).count();
        points.push((at, alive as f64 / total));
        alive -= same;
        points.push((at, alive as f64 / total));
        i += same;
    }
    if points.last().is_some_and(|&(x, _)| x < end) {
        points.push((end, alive as f64 / total));
    }
    points
}

/// A bin width for `max` spread over about `bins` bins: 1, 2 or 5 times a power of ten.
pub fn bin_width(max: u64, bins: u64) -> u64 {
    let raw = max.div_ceil(bins.max(1)).max(1);
    let mut power = 1u64;
    loop {
        for step in [1, 2, 5] {
            let width = step * power;
            if width >= raw {
                return width;
            }
        }
        power = power.saturating_mul(10);
    }
}

/// How many of `values` fall in each bin `[k * width, (k + 1) * width)`, for `bins` bins.
pub fn histogram(values: impl IntoIterator<Item = u64>, width: u64, bins: usize) -> Vec<u64> {
    let mut counts = vec![0; bins];
    for value in values {
        let bin = ((value / width.max(1)) as usize).min(bins.saturating_sub(1));
        if let Some(count) = counts.get_mut(bin) {
            *count += 1;
        }
    }
    counts
}

/// Update-time percentiles of one entrant, in microseconds, over every update of its
/// games.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct UpdateTimes {
    /// Median.
    pub p50: f64,
    /// 90th percentile.
    pub p90: f64,
    /// 99th percentile.
    pub p99: f64,
    /// Slowest.
    pub max: f64,
    /// How many updates were timed.
    pub count: u64,
}

impl UpdateTimes {
    /// The four values in chart order, with their names.
    pub fn named(&self) -> [(&'static str, f64); 4] {
        [
            ("p50", self.p50),
            ("p90", self.p90),
            ("p99", self.p99),
            ("max", self.max),
        ]
    }
}

/// The update-time percentiles of `records`, from their histograms.
pub fn update_times(records: &[&GameRecord]) -> UpdateTimes {
    let mut times = new_histogram();
    for record in records {
        let _ = times.add(record.histogram());
    }
    if times.is_empty() {
        return UpdateTimes::default();
    }
    let us = |ns: u64| ns as f64 / 1000.0;
    UpdateTimes {
        p50: us(times.value_at_quantile(0.5)),
        p90: us(times.value_at_quantile(0.9)),
        p99: us(times.value_at_quantile(0.99)),
        max: us(times.max()),
        count: times.len(),
    }
}

/// Seeds won, drawn and lost by one entrant against another.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WonDrawnLost {
    /// Seeds won.
    pub won: u64,
    /// Seeds drawn.
    pub drawn: u64,
    /// Seeds lost.
    pub lost: u64,
}

impl WonDrawnLost {
    /// The share of seeds counted as won (a draw is half), if any were played.
    pub fn share(self) -> Option<f64> {
        let total = self.won + self.drawn + self.lost;
        (total > 0).then(|| (self.won as f64 + self.drawn as f64 / 2.0) / total as f64)
    }
}

/// The record of row `i` against column `j`; `None` on the diagonal.
pub fn matrix(labels: &[String], pairings: &[Pairing]) -> Vec<Vec<Option<WonDrawnLost>>> {
    let record = |a: &String, b: &String| {
        pairings.iter().find_map(|p| {
            let (won, lost) = if (&p.a, &p.b) == (a, b) {
                (p.wins, p.losses)
            } else if (&p.a, &p.b) == (b, a) {
                (p.losses, p.wins)
            } else {
                return None;
            };
            Some(WonDrawnLost {
                won,
                drawn: p.draws,
                lost,
            })
        })
    };
    labels
        .iter()
        .enumerate()
        .map(|(i, a)| {
            labels
                .iter()
                .enumerate()
                .map(|(j, b)| if i == j { None } else { record(a, b) })
                .collect()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(pieces: u64, end: End) -> GameResult {
        GameResult {
            pieces,
            ..GameResult::unplayed(0, 0, end)
        }
    }

    #[test]
    fn survival_steps_down_at_each_death_and_keeps_capped_games_alive() {
        let games = [
            game(10, End::ToppedOut),
            game(10, End::ToppedOut),
            game(30, End::Timeout),
            game(50, End::Capped),
        ];
        let refs: Vec<&GameResult> = games.iter().collect();
        assert_eq!(
            survival(&refs),
            vec![(0, 1.0), (10, 1.0), (10, 0.5), (30, 0.5), (30, 0.25), (50, 0.25)]
        );
        assert!(survival(&[]).is_empty());
        // Every game capped: alive all the way.
        let capped = [game(20, End::Capped)];
        assert_eq!(survival(&[&capped[0]]), vec![(0, 1.0), (20, 1.0)]);
    }

    #[test]
    fn bins_are_round_and_cover_the_maximum() {
        assert_eq!(bin_width(0, 20), 1);
        assert_eq!(bin_width(19, 20), 1);
        assert_eq!(bin_width(30, 20), 2);
        assert_eq!(bin_width(799, 20), 50);
        assert_eq!(histogram([0, 1, 49, 50, 799], 50, 16), {
            let mut expected = vec![0; 16];
            expected[0] = 3;
            expected[1] = 1;
            expected[15] = 1;
            expected
        });
    }

    #[test]
    fn the_matrix_reads_pairings_both_ways() {
        let labels = ["a".to_string(), "b".to_string()];
        let pairings = [Pairing {
            a: "a".to_string(),
            b: "b".to_string(),
            wins: 3,
            draws: 1,
            losses: 2,
            p_value: 1.0,
        }];
        let record = |won, drawn, lost| Some(WonDrawnLost { won, drawn, lost });
        let m = matrix(&labels, &pairings);
        assert_eq!(m, vec![vec![None, record(3, 1, 2)], vec![record(2, 1, 3), None]]);
        assert_eq!(record(1, 2, 1).and_then(WonDrawnLost::share), Some(0.5));
        assert_eq!(record(0, 0, 0).and_then(WonDrawnLost::share), None);
    }
}

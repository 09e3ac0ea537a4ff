//! Ranking a generation's candidates (by versus points against an opponent, or by solo
//! lines), and the closing sequential test of the tuned mean.

use crate::plugin::Plugin;
use crate::referee::End;
use crate::runner::{self, RunSpec};
use crate::stats::MatchScore;
use crate::tournament::{match_report, Entrant, Shard, Sprt, Tournament, Writer};
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

/// One candidate's games in a generation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Score {
    /// The candidate's place in its generation (0 is the mean it was drawn around).
    pub candidate: usize,
    /// Games it played.
    pub games: u64,
    /// In versus, its points per game against the opponent: a win 1, a draw a half.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub points: Option<f64>,
    /// Its mean lines per game.
    pub lines: f64,
    /// In versus, the rows of garbage it sent per piece it placed.
    #[serde(default)]
    pub sent_per_piece: f64,
}

/// Sorts `scores` best first: by points (in versus), then rows sent per piece, then mean
/// lines, then the lower candidate number, so the order is total and reproducible.
pub fn rank(scores: &mut [Score]) {
    scores.sort_by(|a, b| {
        let points = |s: &Score| s.points.unwrap_or(0.0);
        points(b)
            .total_cmp(&points(a))
            .then(b.sent_per_piece.total_cmp(&a.sent_per_piece))
            .then(b.lines.total_cmp(&a.lines))
            .then(a.candidate.cmp(&b.candidate))
    });
}

/// Sums of one candidate's versus games, whole numbers so that the order the games end in
/// changes nothing.
#[derive(Clone, Copy, Default)]
struct Tally {
    games: u64,
    half_points: u64,
    lines: u64,
    sent: u64,
    pieces: u64,
}

/// Plays each of `candidates` (its number and options) against `opponent` on games
/// `0..spec.games`, each game from both seats, and scores them. A plugin that refuses
/// the setup ends the generation with its message.
pub fn play_generation(
    plugin: &Plugin,
    candidates: &[(usize, String)],
    opponent: (&Plugin, &str),
    spec: &RunSpec,
) -> anyhow::Result<Vec<Score>> {
    let queue: VecDeque<(usize, u64, bool)> = (0..candidates.len())
        .flat_map(|c| (0..spec.games).flat_map(move |game| [(c, game, false), (c, game, true)]))
        .collect();
    let queue = Mutex::new(queue);
    let tallies = Mutex::new(vec![Tally::default(); candidates.len()]);
    let failure = Mutex::new(None);
    std::thread::scope(|scope| {
        for _ in 0..spec.jobs.max(1) {
            scope.spawn(|| loop {
                if failure.lock().expect("failure lock").is_some() {
                    break;
                }
                let Some((c, game, swapped)) = queue.lock().expect("queue lock").pop_front() else {
                    break;
                };
                let candidate = (plugin, candidates[c].1.as_str());
                let seats = match swapped {
                    false => [candidate, opponent],
                    true => [opponent, candidate],
                };
                let results = match runner::play_fixture(seats, spec, game, [None, None]) {
                    Ok(results) => results,
                    Err(err) => {
                        failure.lock().expect("failure lock").get_or_insert(err);
                        break;
                    }
                };
                let [ours, theirs] = match swapped {
                    false => [&results[0], &results[1]],
                    true => [&results[1], &results[0]],
                };
                let half_points = match (ours.end, theirs.end) {
                    (End::Won, _) => 2,
                    (_, End::Won) => 0,
                    _ => 1,
                };
                let mut tallies = tallies.lock().expect("tally lock");
                let tally = &mut tallies[c];
                tally.games += 1;
                tally.half_points += half_points;
                tally.lines += ours.lines;
                tally.sent += ours.sent;
                tally.pieces += ours.pieces;
            });
        }
    });
    if let Some(err) = failure.into_inner().expect("failure lock") {
        anyhow::bail!("{err}");
    }
    let tallies = tallies.into_inner().expect("tally lock");
    Ok(candidates
        .iter()
        .zip(tallies)
        .map(|((candidate, _), t)| Score {
            candidate: *candidate,
            games: t.games,
            points: Some(t.half_points as f64 / 2.0 / t.games.max(1) as f64),
            lines: t.lines as f64 / t.games.max(1) as f64,
            sent_per_piece: t.sent as f64 / t.pieces.max(1) as f64,
        })
        .collect())
}

/// The closing match of the tuned mean against a yardstick, as the checkpoint keeps it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SprtOutcome {
    /// What the tuned mean played.
    pub against: String,
    /// The Elo of the null hypothesis.
    pub elo0: f64,
    /// The Elo of the alternative.
    pub elo1: f64,
    /// Most games the match could play.
    pub limit: u64,
    /// "H1" (the tuned mean is stronger by elo1), "H0" (it is not stronger by elo0 or
    /// more) or "undecided" (the limit came first).
    pub verdict: String,
    /// The log-likelihood ratio when the match ended.
    pub llr: f64,
    /// Wins, draws and losses of the tuned mean.
    pub wins: u64,
    /// Draws.
    pub draws: u64,
    /// Losses.
    pub losses: u64,
}

impl SprtOutcome {
    /// The match's score from the tuned mean's side.
    pub fn score(&self) -> MatchScore {
        MatchScore {
            wins: self.wins,
            draws: self.draws,
            losses: self.losses,
        }
    }

    /// One line: the decision, the score and the Elo with its 95% interval.
    pub fn summary(&self) -> String {
        let score = self.score();
        let (elo, low, high) = score.elo();
        let verdict = match self.verdict.as_str() {
            "H1" => format!("H1 accepted (the tuned mean is at least {} Elo stronger)", self.elo1),
            "H0" => format!("H0 accepted (the tuned mean is at most {} Elo stronger)", self.elo0),
            _ => format!("undecided after the limit of {} games", self.limit),
        };
        format!(
            "sprt [{}, {}] against {}: {verdict}; {}-{}-{} in {} games, {:.1}% of the points, Elo {} ({} to {}), llr {:.2}",
            self.elo0,
            self.elo1,
            self.against,
            self.wins,
            self.draws,
            self.losses,
            score.games(),
            100.0 * score.score(),
            signed(elo),
            signed(low),
            signed(high),
            self.llr
        )
    }
}

/// An Elo as `+12.3`, `-inf` or `+inf`.
fn signed(elo: f64) -> String {
    match (elo.is_finite(), elo > 0.0) {
        (true, _) => format!("{elo:+.1}"),
        (false, true) => "+inf".to_string(),
        (false, false) => "-inf".to_string(),
    }
}

/// Plays `tuned` (seat 0) against `against` in versus under `spec` (its games the
/// limit) until the test `test` decides or the limit is reached.
pub fn sprt_match(tuned: Entrant, against: Entrant, spec: RunSpec, test: Sprt) -> anyhow::Result<SprtOutcome> {
    let limit = spec.games;
    let (a, b) = (tuned.label.clone(), against.label.clone());
    let tournament = Tournament {
        entrants: vec![tuned, against],
        spec,
        shard: Shard::ALL,
        isolation: None,
        sprt: Some(test),
        record: None,
        record_games: None,
    };
    let (fixtures, state) = tournament.play(Vec::new(), &mut Writer::none(), |_| {})?;
    let state = state.expect("a test was asked for");
    let report = match_report(&a, &b, &fixtures, limit, None);
    Ok(SprtOutcome {
        against: b,
        elo0: test.elo0,
        elo1: test.elo1,
        limit,
        verdict: state.verdict.to_string(),
        llr: state.llr,
        wins: report.score.wins,
        draws: report.score.draws,
        losses: report.score.losses,
    })
}

/// A plugin with options, as a generation's opponent.
pub fn entrant(label: &str, plugin: &Arc<Plugin>, options: String) -> Entrant {
    Entrant {
        label: label.to_string(),
        plugin: Arc::clone(plugin),
        options,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn score(candidate: usize, points: Option<f64>, sent_per_piece: f64, lines: f64) -> Score {
        Score {
            candidate,
            games: 4,
            points,
            lines,
            sent_per_piece,
        }
    }

    fn order(scores: &mut [Score]) -> Vec<usize> {
        rank(scores);
        scores.iter().map(|s| s.candidate).collect()
    }

    #[test]
    fn versus_candidates_rank_by_points_before_lines_or_attack() {
        let mut scores = vec![
            score(0, Some(0.25), 0.9, 300.0),
            score(1, Some(0.75), 0.1, 10.0),
            score(2, Some(0.5), 0.5, 50.0),
        ];
        assert_eq!(order(&mut scores), [1, 2, 0]);
    }

    #[test]
    fn equal_points_fall_to_rows_sent_per_piece_then_lines_then_the_lower_number() {
        let mut scores = vec![
            score(3, Some(0.5), 0.2, 40.0),
            score(1, Some(0.5), 0.4, 10.0),
            score(2, Some(0.5), 0.2, 60.0),
            score(0, Some(0.5), 0.2, 60.0),
        ];
        assert_eq!(order(&mut scores), [1, 0, 2, 3]);
    }

    #[test]
    fn solo_candidates_rank_by_lines() {
        let mut scores = vec![
            score(0, None, 0.0, 5.0),
            score(1, None, 0.0, 9.0),
            score(2, None, 0.0, 7.0),
        ];
        assert_eq!(order(&mut scores), [1, 2, 0]);
    }

    #[test]
    fn the_summary_gives_the_decision_score_and_elo() {
        let outcome = SprtOutcome {
            against: "bcts@hold=true".into(),
            elo0: 0.0,
            elo1: 20.0,
            limit: 100,
            verdict: "undecided".into(),
            llr: 0.5,
            wins: 6,
            draws: 0,
            losses: 4,
        };
        let line = outcome.summary();
        assert!(line.contains("undecided after the limit of 100 games"), "{line}");
        assert!(
            line.contains("6-0-4 in 10 games, 60.0% of the points, Elo +70.4"),
            "{line}"
        );
        let sweep = SprtOutcome {
            verdict: "H1".into(),
            wins: 10,
            losses: 0,
            ..outcome
        };
        assert!(sweep.summary().contains("Elo +inf"), "{}", sweep.summary());
    }
}

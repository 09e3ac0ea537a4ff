//! Versus results: each game's winner and why, a match's score with its Elo difference
//! and likelihood of superiority, and a round robin's maximum-likelihood ratings.

use super::{FixtureRecord, Pairing, SprtResult};
use crate::referee::End;
use crate::stats::{ratings, MatchScore};
use serde::Serialize;
use std::fmt::Write as _;

/// One entrant's line in a rated round robin.
#[derive(Clone, Debug, Serialize)]
pub struct Rated {
    /// The entrant's label.
    pub label: String,
    /// Versus games played.
    pub games: u64,
    /// Points: a win 1, a draw 1/2.
    pub points: f64,
    /// Maximum-likelihood Elo, the entrants' mean 0.
    pub elo: f64,
    /// Half-width of its 95% interval.
    pub ci95: f64,
}

/// The rated table of `labels` from their pairwise versus results, best first.
pub fn rated(labels: &[String], pairings: &[Pairing]) -> Vec<Rated> {
    let index = |label: &String| {
        labels
            .iter()
            .position(|l| l == label)
            .expect("a pairing's entrant is listed")
    };
    let results: Vec<(usize, usize, MatchScore)> =
        pairings.iter().map(|p| (index(&p.a), index(&p.b), score(p))).collect();
    let mut table: Vec<Rated> = ratings(labels.len(), &results)
        .into_iter()
        .enumerate()
        .map(|(i, rating)| {
            let (mut games, mut points) = (0, 0.0);
            for &(a, b, score) in &results {
                if a == i || b == i {
                    games += score.games();
                    points += if a == i {
                        score.points()
                    } else {
                        score.games() as f64 - score.points()
                    };
                }
            }
            Rated {
                label: labels[i].clone(),
                games,
                points,
                elo: rating.elo,
                ci95: rating.ci95,
            }
        })
        .collect();
    table.sort_by(|x, y| y.elo.total_cmp(&x.elo).then(y.points.total_cmp(&x.points)));
    table
}

fn score(pairing: &Pairing) -> MatchScore {
    MatchScore {
        wins: pairing.wins,
        draws: pairing.draws,
        losses: pairing.losses,
    }
}

/// One versus game as a match report lists it.
#[derive(Clone, Debug, Serialize)]
pub struct GameOutcome {
    /// The game's index.
    pub game: u64,
    /// Its seed.
    pub seed: u64,
    /// The winner's label; `None` for a draw.
    pub winner: Option<String>,
    /// How it ended: the loser's end, or both ends for a draw.
    pub why: String,
    /// Lines each player cleared, in seat order.
    pub lines: [u64; 2],
    /// Garbage rows each player sent.
    pub sent: [u64; 2],
    /// Pieces each player locked.
    pub pieces: [u64; 2],
}

/// A match between two entrants.
#[derive(Clone, Debug, Serialize)]
pub struct MatchReport {
    /// The first entrant: the match is scored from its side.
    pub a: String,
    /// The second entrant.
    pub b: String,
    /// Every game, in order.
    pub games: Vec<GameOutcome>,
    /// Games scheduled.
    pub scheduled: u64,
    /// Wins, draws and losses of the first entrant.
    pub score: MatchScore,
    /// Points per game of the first entrant.
    pub points_per_game: f64,
    /// The Elo difference, first minus second.
    pub elo: f64,
    /// Its 95% interval.
    pub elo_ci95: (f64, f64),
    /// The likelihood that the first entrant is the stronger.
    pub los: f64,
    /// The SPRT, when asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sprt: Option<SprtResult>,
}

/// The match between `a` and `b` from their versus fixtures.
pub fn match_report(
    a: &str,
    b: &str,
    fixtures: &[FixtureRecord],
    scheduled: u64,
    sprt: Option<SprtResult>,
) -> MatchReport {
    let games: Vec<GameOutcome> = fixtures.iter().filter_map(|f| outcome([a, b], f)).collect();
    let count = |winner: Option<&str>| games.iter().filter(|g| g.winner.as_deref() == winner).count() as u64;
    let score = MatchScore {
        wins: count(Some(a)),
        draws: count(None),
        losses: count(Some(b)),
    };
    let (elo, low, high) = score.elo();
    MatchReport {
        a: a.to_string(),
        b: b.to_string(),
        scheduled,
        points_per_game: score.score(),
        elo,
        elo_ci95: (low, high),
        los: score.likelihood_of_superiority(),
        score,
        games,
        sprt,
    }
}

/// The game of a versus fixture of two seats, named by `labels` in seat order.
fn outcome(labels: [&str; 2], fixture: &FixtureRecord) -> Option<GameOutcome> {
    let [x, y] = fixture.seats.as_slice() else {
        return None;
    };
    let (winner, why) = match (x.result.end, y.result.end) {
        (End::Won, end) => (Some(labels[0]), format!("{} {}", labels[1], end.name())),
        (end, End::Won) => (Some(labels[1]), format!("{} {}", labels[0], end.name())),
        (p, q) => (None, format!("{} {}, {} {}", labels[0], p.name(), labels[1], q.name())),
    };
    Some(GameOutcome {
        game: fixture.game,
        seed: fixture.seed,
        winner: winner.map(str::to_string),
        why,
        lines: [x.result.lines, y.result.lines],
        sent: [x.result.sent, y.result.sent],
        pieces: [x.result.pieces, y.result.pieces],
    })
}

fn elo_text(elo: f64) -> String {
    if elo.is_finite() {
        format!("{elo:+.1}")
    } else if elo > 0.0 {
        "+inf".to_string()
    } else {
        "-inf".to_string()
    }
}

/// The match as aligned text: a line per game, then the score.
pub fn match_table(report: &MatchReport) -> String {
    let mut out = String::from("  game  winner                why\n");
    for g in &report.games {
        let winner = g.winner.as_deref().unwrap_or("draw");
        let _ = writeln!(
            out,
            "{:>6}  {winner:<20}  {} (lines {}-{}, sent {}-{})",
            g.game, g.why, g.lines[0], g.lines[1], g.sent[0], g.sent[1]
        );
    }
    let s = &report.score;
    let _ = writeln!(
        out,
        "\n{} against {}: {} games of {}",
        report.a,
        report.b,
        s.games(),
        report.scheduled
    );
    let _ = writeln!(
        out,
        "score {}-{}-{} (won-drawn-lost)  {:.1}/{}  {:.3} a game",
        s.wins,
        s.draws,
        s.losses,
        s.points(),
        s.games(),
        report.points_per_game
    );
    let _ = writeln!(
        out,
        "elo difference {} (95% CI {} to {})  LOS {:.1}%",
        elo_text(report.elo),
        elo_text(report.elo_ci95.0),
        elo_text(report.elo_ci95.1),
        100.0 * report.los
    );
    if let Some(sprt) = &report.sprt {
        let _ = writeln!(out, "{}", super::output::sprt_line(sprt));
    }
    out
}

/// The match as CSV: a row per game.
pub fn match_csv(report: &MatchReport) -> String {
    let mut out = String::from("game,seed,winner,why,lines_a,lines_b,sent_a,sent_b,pieces_a,pieces_b\n");
    for g in &report.games {
        let _ = writeln!(
            out,
            "{},{},{},\"{}\",{},{},{},{},{},{}",
            g.game,
            g.seed,
            g.winner.as_deref().unwrap_or(""),
            g.why.replace('"', "\"\""),
            g.lines[0],
            g.lines[1],
            g.sent[0],
            g.sent[1],
            g.pieces[0],
            g.pieces[1]
        );
    }
    out
}

/// The rated table as aligned text.
pub fn rated_table(table: &[Rated]) -> String {
    let width = table.iter().map(|r| r.label.chars().count()).max().unwrap_or(6).max(6);
    let mut out = format!(
        "{:<width$}  {:>6}  {:>8}  {:>8}  {:>7}\n",
        "rated", "games", "points", "elo", "± 95%"
    );
    for r in table {
        let _ = writeln!(
            out,
            "{:<width$}  {:>6}  {:>8.1}  {:>8}  {:>7.1}",
            r.label,
            r.games,
            r.points,
            elo_text(r.elo),
            r.ci95
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runner::GameResult;
    use crate::tournament::GameRecord;

    fn fixture(game: u64, ends: [End; 2]) -> FixtureRecord {
        let seat = |entrant, end| GameRecord::new(entrant, &GameResult::unplayed(game, 7, end));
        FixtureRecord {
            game,
            seed: 7,
            seats: vec![seat(0, ends[0]), seat(1, ends[1])],
        }
    }

    #[test]
    fn a_match_counts_wins_draws_and_losses_from_the_ends() {
        let fixtures = [
            fixture(0, [End::Won, End::ToppedOut]),
            fixture(1, [End::Won, End::Timeout]),
            fixture(2, [End::ToppedOut, End::ToppedOut]),
            fixture(3, [End::ToppedOut, End::Won]),
            fixture(4, [End::Capped, End::Capped]),
        ];
        let report = match_report("a", "b", &fixtures, 5, None);
        assert_eq!((report.score.wins, report.score.draws, report.score.losses), (2, 2, 1));
        assert_eq!(report.games[1].why, "b timeout");
        assert_eq!(report.games[2].winner, None);
        assert_eq!(report.points_per_game, 0.6);
        assert!(report.elo > 0.0 && report.elo_ci95.0 < report.elo && report.elo < report.elo_ci95.1);
        let text = match_table(&report);
        assert!(text.contains("score 2-2-1"), "{text}");
        assert!(match_csv(&report)
            .lines()
            .nth(2)
            .unwrap()
            .starts_with("1,7,a,\"b timeout\""));
    }

    #[test]
    fn the_rated_table_puts_the_stronger_first() {
        let labels = ["x".to_string(), "y".to_string(), "z".to_string()];
        let pair = |a: &str, b: &str, wins, draws, losses| Pairing {
            a: a.to_string(),
            b: b.to_string(),
            wins,
            draws,
            losses,
            p_value: 1.0,
        };
        let table = rated(
            &labels,
            &[
                pair("x", "y", 10, 10, 30),
                pair("x", "z", 25, 10, 15),
                pair("y", "z", 30, 10, 10),
            ],
        );
        let order: Vec<&str> = table.iter().map(|r| r.label.as_str()).collect();
        assert_eq!(order, ["y", "x", "z"]);
        assert_eq!((table[0].games, table[0].points), (100, 70.0));
        assert!(rated_table(&table).lines().nth(1).unwrap().starts_with("y "));
    }
}

//! The tournament report as text, markdown, CSV or JSON.

use super::rated::{rated_table, Rated};
use super::{FixtureRecord, Pairing, SprtResult, Standing};
use crate::referee::End;
use std::fmt::Write as _;

/// Everything a tournament report shows.
#[derive(serde::Serialize)]
pub struct Report {
    /// Fixtures finished: games, over all entrants (solo) or all pairs (versus).
    pub games: u64,
    /// Fixtures in the tournament's share.
    pub scheduled: u64,
    /// Per entrant.
    pub standings: Vec<Standing>,
    /// Per pair of entrants.
    pub pairings: Vec<Pairing>,
    /// The SPRT, for two entrants when asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sprt: Option<SprtResult>,
    /// In versus, the rated table: points and Elo ratings, best first.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rated: Option<Vec<Rated>>,
}

impl Report {
    /// The report of `fixtures` of a tournament of `labels` (versus if `versus`), with
    /// `scheduled` fixtures in its share.
    pub fn new(
        labels: &[String],
        versus: bool,
        fixtures: &[FixtureRecord],
        scheduled: u64,
        sprt: Option<SprtResult>,
    ) -> Report {
        let pairings = super::pairings_of(labels, versus, fixtures);
        Report {
            games: fixtures.len() as u64,
            scheduled,
            standings: super::standings(labels, &super::seats_of(fixtures)),
            rated: versus.then(|| super::rated(labels, &pairings)),
            pairings,
            sprt,
        }
    }
}

fn forfeits(standing: &Standing) -> String {
    let parts: Vec<String> = standing
        .forfeits
        .iter()
        .filter(|(_, &n)| n > 0)
        .map(|(k, n)| format!("{n} {k}"))
        .collect();
    if parts.is_empty() {
        "-".to_string()
    } else {
        parts.join(", ")
    }
}

fn lines(standing: &Standing) -> String {
    format!("{:.2} ± {:.2}", standing.lines.mean, standing.lines.ci95)
}

pub(super) fn sprt_line(sprt: &SprtResult) -> String {
    format!(
        "SPRT elo0={} elo1={}: LLR {:.3} in ({:.3}, {:.3}): {}",
        sprt.elo0, sprt.elo1, sprt.llr, sprt.bounds.0, sprt.bounds.1, sprt.verdict
    )
}

/// The won-drawn-lost record of row `i` against column `j`, from the pairings.
fn cell(report: &Report, i: usize, j: usize) -> String {
    let (a, b) = (&report.standings[i].label, &report.standings[j].label);
    let found = report.pairings.iter().find_map(|p| {
        if (&p.a, &p.b) == (a, b) {
            Some((p.wins, p.draws, p.losses))
        } else if (&p.a, &p.b) == (b, a) {
            Some((p.losses, p.draws, p.wins))
        } else {
            None
        }
    });
    match found {
        Some((w, d, l)) => format!("{w}-{d}-{l}"),
        None => "-".to_string(),
    }
}

/// Rows of the matrix: each entrant's record against every other, by column number.
fn matrix_rows(report: &Report) -> Vec<(String, Vec<String>)> {
    let n = report.standings.len();
    (0..n)
        .map(|i| {
            let label = format!("{}. {}", i + 1, report.standings[i].label);
            let cells = (0..n)
                .map(|j| if i == j { "·".to_string() } else { cell(report, i, j) })
                .collect();
            (label, cells)
        })
        .collect()
}

/// Aligned text for a terminal.
pub fn table(report: &Report) -> String {
    let width = report
        .standings
        .iter()
        .map(|s| s.label.chars().count())
        .max()
        .unwrap_or(5)
        .max(5);
    let mut out = report
        .rated
        .as_deref()
        .map(|r| rated_table(r) + "\n")
        .unwrap_or_default();
    let _ = writeln!(
        out,
        "{:<width$}  {:>6}  {:>18}  {:>8}  {:>8}  {:>10}  {:>9}  {:>7}  {:>9}  {:>9}  {:>9}  forfeits",
        "plugin",
        "games",
        "lines (95% CI)",
        "median",
        "max",
        "pieces",
        "points",
        "topped",
        "µs/upd",
        "p99 µs",
        "max µs"
    );
    for s in &report.standings {
        let _ = writeln!(
            out,
            "{:<width$}  {:>6}  {:>18}  {:>8}  {:>8}  {:>10.1}  {:>9.0}  {:>7}  {:>9.2}  {:>9.2}  {:>9.2}  {}{}",
            s.label,
            s.games,
            lines(s),
            s.lines.median,
            s.lines.max,
            s.pieces,
            s.score,
            s.topped_out,
            s.update_us_mean,
            s.update_us_p99,
            s.update_us_max,
            forfeits(s),
            if s.capped > 0 {
                format!(" ({} capped)", s.capped)
            } else {
                String::new()
            },
        );
    }
    if report.standings.len() > 1 {
        let rows = matrix_rows(report);
        let label_width = rows.iter().map(|(l, _)| l.chars().count()).max().unwrap_or(0);
        let cell_width = rows
            .iter()
            .flat_map(|(_, c)| c.iter().map(|c| c.chars().count()))
            .max()
            .unwrap_or(1)
            .max(3);
        let unit = if report.rated.is_some() { "games" } else { "seeds" };
        let _ = write!(out, "\n{unit} won-drawn-lost, row against column\n{:label_width$}", "");
        for j in 1..=rows.len() {
            let _ = write!(out, "  {j:>cell_width$}");
        }
        out.push('\n');
        for (label, cells) in &rows {
            let _ = write!(out, "{label:<label_width$}");
            for c in cells {
                let _ = write!(out, "  {c:>cell_width$}");
            }
            out.push('\n');
        }
    }
    if !report.pairings.is_empty() {
        let unit = if report.rated.is_some() { "games" } else { "seeds" };
        let _ = writeln!(out, "\npairs ({unit} won-drawn-lost by the first, sign test p-value)");
        for p in &report.pairings {
            let _ = writeln!(
                out,
                "  {} vs {}: {}-{}-{}, p = {:.4}",
                p.a, p.b, p.wins, p.draws, p.losses, p.p_value
            );
        }
    }
    if let Some(sprt) = &report.sprt {
        let _ = writeln!(out, "\n{}", sprt_line(sprt));
    }
    let _ = writeln!(
        out,
        "\n{} of {} played",
        report.games,
        crate::report::plural(report.scheduled, "game")
    );
    out
}

/// Markdown tables.
pub fn markdown(report: &Report) -> String {
    let mut out = String::new();
    if let Some(rated) = &report.rated {
        out.push_str("| rated | games | points | elo | ± 95% |\n|---|---|---|---|---|\n");
        for r in rated {
            let _ = writeln!(
                out,
                "| {} | {} | {:.1} | {:.1} | {:.1} |",
                r.label, r.games, r.points, r.elo, r.ci95
            );
        }
        out.push('\n');
    }
    out.push_str(
        "| plugin | games | lines (95% CI) | median | max | pieces | points | topped out | capped | µs/update | p99 µs | max µs | violations | forfeits |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n",
    );
    for s in &report.standings {
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {:.1} | {:.0} | {} | {} | {:.2} | {:.2} | {:.2} | {} | {} |",
            s.label,
            s.games,
            lines(s),
            s.lines.median,
            s.lines.max,
            s.pieces,
            s.score,
            s.topped_out,
            s.capped,
            s.update_us_mean,
            s.update_us_p99,
            s.update_us_max,
            s.violations,
            forfeits(s)
        );
    }
    if report.standings.len() > 1 {
        let rows = matrix_rows(report);
        out.push_str("\n| won-drawn-lost |");
        for j in 1..=rows.len() {
            let _ = write!(out, " {j} |");
        }
        out.push_str("\n|---|");
        out.push_str(&"---|".repeat(rows.len()));
        out.push('\n');
        for (label, cells) in &rows {
            let _ = writeln!(out, "| {label} | {} |", cells.join(" | "));
        }
    }
    if !report.pairings.is_empty() {
        out.push_str("\n| pair | won | drawn | lost | p-value (sign test) |\n|---|---|---|---|---|\n");
        for p in &report.pairings {
            let _ = writeln!(
                out,
                "| {} vs {} | {} | {} | {} | {:.4} |",
                p.a, p.b, p.wins, p.draws, p.losses, p.p_value
            );
        }
    }
    if let Some(sprt) = &report.sprt {
        let _ = writeln!(out, "\n{}", sprt_line(sprt));
    }
    out
}

/// CSV: the standings, a blank line, then the pairings.
pub fn csv(report: &Report) -> String {
    let mut out = String::from(
        "plugin,games,lines_mean,lines_ci95,lines_median,lines_max,pieces_mean,score_mean,topped_out,capped,update_us_mean,update_us_p99,update_us_max,violations,forfeits\n",
    );
    for s in &report.standings {
        let _ = writeln!(
            out,
            "\"{}\",{},{:.4},{:.4},{},{},{:.4},{:.4},{},{},{:.4},{:.4},{:.4},{},{}",
            s.label.replace('"', "\"\""),
            s.games,
            s.lines.mean,
            s.lines.ci95,
            s.lines.median,
            s.lines.max,
            s.pieces,
            s.score,
            s.topped_out,
            s.capped,
            s.update_us_mean,
            s.update_us_p99,
            s.update_us_max,
            s.violations,
            s.forfeits.values().sum::<u64>()
        );
    }
    if let Some(rated) = &report.rated {
        out.push_str("\nrated,games,points,elo,elo_ci95\n");
        for r in rated {
            let _ = writeln!(
                out,
                "\"{}\",{},{:.1},{:.4},{:.4}",
                r.label.replace('"', "\"\""),
                r.games,
                r.points,
                r.elo,
                r.ci95
            );
        }
    }
    out.push_str("\na,b,wins,draws,losses,p_value\n");
    for p in &report.pairings {
        let _ = writeln!(
            out,
            "\"{}\",\"{}\",{},{},{},{:.6}",
            p.a, p.b, p.wins, p.draws, p.losses, p.p_value
        );
    }
    out
}

/// A finished fixture in one line, for progress: `bcts game 3: 120 lines, topped_out`
/// solo, `bcts against chasm game 3: bcts won (chasm topped_out)` in versus.
pub fn fixture_line(labels: &[&str], fixture: &FixtureRecord) -> String {
    let game = fixture.game;
    match (labels, fixture.seats.as_slice()) {
        ([a, b], [x, y]) => {
            let verdict = match (x.result.end, y.result.end) {
                (End::Won, end) => format!("{a} won ({b} {})", end.name()),
                (end, End::Won) => format!("{b} won ({a} {})", end.name()),
                (p, q) => format!("draw ({a} {}, {b} {})", p.name(), q.name()),
            };
            format!("{a} against {b} game {game}: {verdict}")
        }
        _ => {
            let label = labels.first().copied().unwrap_or_default();
            let result = fixture.seats.first().map(|s| &s.result);
            let (lines, end) = result.map_or((0, "unplayed"), |r| (r.lines, r.end.name()));
            format!("{label} game {game}: {}, {end}", crate::report::plural(lines, "line"))
        }
    }
}

//! The report's versus sections (ratings with their intervals, garbage and time per piece)
//! and its list of recorded games, each linked to its replay page.

use super::escape;
use crate::tournament::record::Contents;
use crate::tournament::{rated, versus_pairings, FixtureRecord};
use std::fmt::Write as _;

/// Each entrant's maximum-likelihood rating with its 95% interval, from the versus games'
/// winners.
pub fn ratings(contents: &Contents) -> String {
    let labels = labels(contents);
    let table = rated(&labels, &versus_pairings(&labels, &contents.fixtures));
    let mut out = String::from(
        "<div class=\"wide\"><table id=\"ratings\">\n<tr><th>#</th><th class=\"label\">plugin</th><th>games</th>\
         <th>points</th><th>Elo</th><th>95% interval</th></tr>\n",
    );
    for (i, r) in table.iter().enumerate() {
        let _ = writeln!(
            out,
            "<tr><td>{}</td><td class=\"label\">{}</td><td>{}</td><td>{:.1}</td><td>{:+.0}</td><td>{:+.0} to {:+.0}</td></tr>",
            i + 1,
            escape(&r.label),
            r.games,
            r.points,
            r.elo + 0.0,
            r.elo - r.ci95 + 0.0,
            r.elo + r.ci95 + 0.0
        );
    }
    out.push_str("</table></div>\n");
    out
}

/// Per entrant, over its versus games: rows of garbage sent and received per piece it
/// locked, and the time it used per move (its clock under a time control, else its
/// `update` calls).
pub fn garbage_and_time(contents: &Contents) -> String {
    let labels = labels(contents);
    let mut out = String::from(
        "<div class=\"wide\"><table id=\"garbage\">\n<tr><th class=\"label\">plugin</th><th>games</th><th>pieces</th>\
         <th>sent / piece</th><th>received / piece</th><th>ms / move</th><th>timed by</th></tr>\n",
    );
    for (entrant, label) in labels.iter().enumerate() {
        let games: Vec<_> = contents
            .fixtures
            .iter()
            .flat_map(|f| &f.seats)
            .filter(|s| s.entrant == entrant)
            .map(|s| &s.result)
            .collect();
        let pieces: u64 = games.iter().map(|g| g.pieces).sum();
        let per_piece = |rows: u64| match pieces {
            0 => "–".to_string(),
            _ => format!("{:.3}", rows as f64 / pieces as f64),
        };
        let clock: Option<f64> = games.iter().map(|g| g.time_used_ms).sum();
        let (used_ms, timed_by) = match clock {
            Some(ms) => (ms, "clock"),
            None => (
                games.iter().map(|g| g.update_us_mean * g.updates as f64).sum::<f64>() / 1000.0,
                "updates",
            ),
        };
        let per_move = match pieces {
            0 => "–".to_string(),
            _ => format!("{:.3}", used_ms / pieces as f64),
        };
        let _ = writeln!(
            out,
            "<tr><td class=\"label\">{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            escape(label),
            games.len(),
            pieces,
            per_piece(games.iter().map(|g| g.sent).sum()),
            per_piece(games.iter().map(|g| g.received).sum()),
            per_move,
            timed_by
        );
    }
    out.push_str("</table></div>\n");
    out
}

/// One recorded game of the results file, and the page it was drawn as, if it was.
pub struct GameLink<'a> {
    /// The fixture.
    pub fixture: &'a FixtureRecord,
    /// The page's address relative to the report, or why there is none.
    pub page: Result<String, String>,
}

/// The recorded games, each with its result and a link to its page.
pub fn games(contents: &Contents, links: &[GameLink]) -> String {
    let labels = labels(contents);
    let mut out = String::from(
        "<div class=\"wide\"><table id=\"games\">\n<tr><th>game</th><th class=\"label\">played by</th>\
         <th class=\"label\">ended</th><th>lines</th><th>pieces</th><th class=\"label\">page</th></tr>\n",
    );
    for link in links {
        let seats = &link.fixture.seats;
        let who: Vec<String> = seats.iter().map(|s| escape(&labels[s.entrant])).collect();
        let ends: Vec<&str> = seats.iter().map(|s| s.result.end.name()).collect();
        let lines: Vec<String> = seats.iter().map(|s| s.result.lines.to_string()).collect();
        let pieces: Vec<String> = seats.iter().map(|s| s.result.pieces.to_string()).collect();
        let page = match &link.page {
            Ok(href) => format!("<a href=\"{}\">watch</a>", escape(href)),
            Err(why) => escape(why),
        };
        let _ = writeln!(
            out,
            "<tr><td>{}</td><td class=\"label\">{}</td><td class=\"label\">{}</td><td>{}</td><td>{}</td><td class=\"label\">{page}</td></tr>",
            link.fixture.game,
            who.join(" v "),
            ends.join(" / "),
            lines.join(" / "),
            pieces.join(" / ")
        );
    }
    out.push_str("</table></div>\n");
    out
}

fn labels(contents: &Contents) -> Vec<String> {
    contents.config.entrants.iter().map(|e| e.label.clone()).collect()
}

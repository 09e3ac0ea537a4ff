//! A tournament's results file as one self-contained HTML page: the standings, and charts
//! of game lengths, lines, update times and the pairwise matrix as inline SVG. The page
//! loads no script, style sheet, font or image.

mod charts;
pub mod data;
mod versus;

pub use charts::ChartError;
pub use versus::GameLink;

use crate::report::plural;
use crate::setup::Setup;
use crate::tournament::{pairings, record::Contents, standings, versus_pairings, GameRecord, Standing};
use std::fmt::Write as _;

/// Text made safe to put in HTML, as element content or as a quoted attribute value.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// The page for the tournament in `contents`, with its recorded games in `games` (each
/// linked to its replay page).
pub fn page(contents: &Contents, games: &[GameLink]) -> Result<String, ChartError> {
    let config = &contents.config;
    let labels: Vec<String> = config.entrants.iter().map(|e| e.label.clone()).collect();
    let records = &contents.seats();
    let table = standings(&labels, records);
    let versus = config.setup.attack.is_some();
    let pairs = match versus {
        true => versus_pairings(&labels, &contents.fixtures),
        false => pairings(&labels, records),
    };
    let matrix = data::matrix(&labels, &pairs);
    let mine = |entrant: usize| -> Vec<&GameRecord> { records.iter().filter(|r| r.entrant == entrant).collect() };

    let curves: Vec<(&str, Vec<(u64, f64)>)> = labels
        .iter()
        .enumerate()
        .map(|(i, label)| {
            let games: Vec<_> = mine(i).iter().map(|r| &r.result).collect();
            (label.as_str(), data::survival(&games))
        })
        .collect();
    let most_lines = records.iter().map(|r| r.result.lines).max().unwrap_or(0);
    let width = data::bin_width(most_lines + 1, 20);
    let bins = (most_lines / width + 1) as usize;
    let lines: Vec<(&str, Vec<u64>)> = labels
        .iter()
        .enumerate()
        .map(|(i, label)| {
            let counts = data::histogram(mine(i).iter().map(|r| r.result.lines), width, bins);
            (label.as_str(), counts)
        })
        .collect();
    let times: Vec<(&str, data::UpdateTimes)> = labels
        .iter()
        .enumerate()
        .map(|(i, label)| (label.as_str(), data::update_times(&mine(i))))
        .collect();

    let mut html = String::new();
    let title = format!("tetrad tournament: {}", rules_text(&config.setup));
    let _ = writeln!(html, "<h1>{}</h1>", escape(&title));
    let _ = writeln!(html, "<p class=\"size\">{}</p>", escape(&size_text(contents)));
    if versus {
        html.push_str(
            "<h2>Ratings</h2>\n<p>Maximum-likelihood Elo from the versus games' winners, the \
             entrants' mean 0, with 95% intervals; a win scores 1, a draw 1/2.</p>\n",
        );
        html.push_str(&versus::ratings(contents));
        html.push_str(
            "<h2>Garbage and time</h2>\n<p>Over each entrant's versus games: rows of garbage sent \
             (after cancelling) and risen into its board, per piece it locked, and the time it \
             used per move: its clock under a time control, else its <code>update</code> calls.</p>\n",
        );
        html.push_str(&versus::garbage_and_time(contents));
    }
    html.push_str("<h2>Standings</h2>\n");
    html.push_str(&standings_table(&table));
    let _ = write!(
        html,
        "<h2>Survival</h2>\n<p>The share of each entrant's games still alive after each number of \
         pieces, on a logarithmic axis so that short and long games both show. A Tetris \
         player's game lengths are roughly exponentially distributed: each piece carries about \
         the same risk of ending the game.{}</p>\n<figure id=\"survival\">\n{}</figure>\n",
        match config.setup.max_pieces {
            Some(cap) => format!(" Games that reach the cap of {cap} pieces count as alive to the cap."),
            None => String::new(),
        },
        charts::survival(&curves)?
    );
    let _ = write!(
        html,
        "<h2>Lines cleared per game</h2>\n<p>Bins of {}, the same axes for every entrant.</p>\n\
         <figure id=\"lines\">\n{}</figure>\n",
        plural(width, "line"),
        charts::lines(&lines, width)?
    );
    html.push_str(
        "<h2>Update time</h2>\n<p>Percentiles over every call to <code>update</code>. A plugin that \
         plans once per piece answers most calls from its plan, so its median lies far below its \
         90th percentile.</p>\n",
    );
    html.push_str(&times_table(&times));
    let _ = write!(
        html,
        "<figure id=\"update-time\">\n{}</figure>\n",
        charts::update_times(&times)?
    );
    let searched: Vec<(&str, &GameRecord)> = records
        .iter()
        .filter(|r| r.result.move_info.is_some())
        .map(|r| (labels[r.entrant].as_str(), r))
        .collect();
    if !searched.is_empty() {
        html.push_str(
            "<h2>Search</h2>\n<p>What a TBP bot's search reported with its moves (the protocol's \
             <code>move_info</code>), per game: the mean over the game's moves of the nodes in its \
             game tree, the tree's depth, and nodes created per second. Each bot counts them its own \
             way; a dash is a number it did not report.</p>\n",
        );
        html.push_str(&search_table(&searched));
    }
    if labels.len() > 1 {
        let rule = match versus {
            true => "The winner of each versus game wins its seed",
            false => "More lines wins a seed; a forfeit loses to any game played out",
        };
        let _ = write!(
            html,
            "<h2>Pairwise</h2>\n<p>Seeds won by the row's entrant against the column's: \
             the large number is the seeds won, below it won-drawn-lost. {rule}. Blue cells \
             won more than they lost, red cells lost more.</p>\n<figure id=\"pairwise\">\n{}</figure>\n",
            charts::pairwise(&labels, &matrix)?
        );
    }
    if !games.is_empty() {
        html.push_str(
            "<h2>Games</h2>\n<p>Every recorded game, each linked to a page that plays it back, \
             drawn from the engine's re-simulation of its replay.</p>\n",
        );
        html.push_str(&versus::games(contents, games));
    }
    Ok(frame(&title, STYLE, &html))
}

/// A whole page: `body` under a head with `title` and the style sheet `style`, nothing
/// loaded from elsewhere. Every page tetrad writes has this frame.
pub fn frame(title: &str, style: &str, body: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{}</title>\n<style>\n{style}</style>\n</head>\n<body>\n{body}</body>\n</html>\n",
        escape(title)
    )
}

/// The per-game `move_info` means of the games that have them, by entrant.
fn search_table(games: &[(&str, &GameRecord)]) -> String {
    let mut out = String::from(
        "<div class=\"wide\"><table id=\"search\">\n<tr><th class=\"label\">plugin</th><th>game</th>\
         <th>moves</th><th>nodes</th><th>depth</th><th>nodes/s</th></tr>\n",
    );
    let number = |value: Option<f64>, decimals: usize| match value {
        Some(v) => format!("{v:.decimals$}"),
        None => "–".to_string(),
    };
    for (label, record) in games {
        let Some(info) = &record.result.move_info else {
            continue;
        };
        let _ = writeln!(
            out,
            "<tr><td class=\"label\">{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            escape(label),
            record.result.index,
            info.moves,
            number(info.nodes, 0),
            number(info.depth, 1),
            number(info.nps, 0)
        );
    }
    out.push_str("</table></div>\n");
    out
}

/// The page's style sheet.
const STYLE: &str = "body { font-family: system-ui, sans-serif; color: #222; max-width: 1200px; \
margin: 2em auto; padding: 0 1em; }
h1 { font-size: 1.6em; margin-bottom: 0.2em; }
h2 { font-size: 1.25em; margin-top: 2em; border-bottom: 1px solid #ddd; }
p.size { color: #555; margin-top: 0; }
table { border-collapse: collapse; font-variant-numeric: tabular-nums; font-size: 0.92em; }
th, td { padding: 0.25em 0.45em; border-bottom: 1px solid #eee; white-space: nowrap; }
th { text-align: right; font-weight: 600; border-bottom: 1px solid #bbb; }
td { text-align: right; }
th.label, td.label { text-align: left; }
div.wide { overflow-x: auto; }
td.swatch { width: 0.8em; padding: 0; }
figure { margin: 1em 0; }
svg { max-width: 100%; height: auto; display: block; }
";

/// The rules in one line, with the number of piece kinds when it is not the seven
/// tetrominoes'.
fn rules_text(setup: &Setup) -> String {
    let kinds = setup.pieces.len();
    let pieces = if kinds == 7 {
        String::new()
    } else {
        format!(" ({})", plural(kinds as u64, "piece kind"))
    };
    format!("{}{pieces}", setup.rules_text())
}

/// The tournament's size: entrants, the games each plays, seed, games played of those
/// scheduled, cap and shard. A versus game seats two entrants: it is one game played,
/// and one of each seated entrant's.
fn size_text(contents: &Contents) -> String {
    let config = &contents.config;
    let entrants = config.entrants.len();
    let versus = config.setup.attack.is_some();
    let seatings = crate::tournament::seatings(entrants, versus);
    // Every entrant sits in as many seatings as entrant 0.
    let each = seatings.iter().filter(|s| s.contains(&0)).count() as u64;
    let seeds = match versus && each > 1 {
        true => format!(" ({} against each other entrant)", config.games),
        false => String::new(),
    };
    let scheduled = config.games.saturating_mul(seatings.len() as u64);
    let mut text = format!(
        "{}, {} each{seeds}, seed {}: {} of {} played",
        plural(entrants as u64, "entrant"),
        plural(config.games.saturating_mul(each), "game"),
        config.seed,
        contents.fixtures.len(),
        plural(scheduled, "game")
    );
    if let Some(cap) = config.setup.max_pieces {
        let _ = write!(text, "; capped at {}", plural(cap, "piece"));
    }
    if contents.shard != "1/1" {
        let _ = write!(text, "; this file holds shard {}", contents.shard);
    }
    text
}

/// The standings as the text report has them, with each entrant's chart colour.
fn standings_table(table: &[Standing]) -> String {
    let mut out = String::from(
        "<div class=\"wide\"><table id=\"standings\">\n<tr><th></th><th>#</th><th class=\"label\">plugin</th><th>games</th><th>lines (95% CI)</th>\
         <th>median</th><th>max</th><th>pieces</th><th>points</th><th>topped</th><th>capped</th>\
         <th>µs/upd</th><th>p99 µs</th><th>max µs</th><th>violations</th><th>forfeits</th></tr>\n",
    );
    // Adding 0.0 turns a negative zero positive: "0.00", never "-0.00".
    for (i, s) in table.iter().enumerate() {
        let forfeits: Vec<String> = s
            .forfeits
            .iter()
            .filter(|(_, &n)| n > 0)
            .map(|(kind, n)| format!("{n} {kind}"))
            .collect();
        let _ = writeln!(
            out,
            "<tr><td class=\"swatch\" style=\"background:{}\"></td><td>{}</td><td class=\"label\">{}</td><td>{}</td>\
             <td>{:.2} ± {:.2}</td><td>{}</td><td>{}</td><td>{:.1}</td><td>{:.0}</td><td>{}</td>\
             <td>{}</td><td>{:.2}</td><td>{:.2}</td><td>{:.2}</td><td>{}</td><td>{}</td></tr>",
            css_color(i),
            i + 1,
            escape(&s.label),
            s.games,
            s.lines.mean + 0.0,
            s.lines.ci95 + 0.0,
            s.lines.median,
            s.lines.max,
            s.pieces + 0.0,
            s.score + 0.0,
            s.topped_out,
            s.capped,
            s.update_us_mean + 0.0,
            s.update_us_p99 + 0.0,
            s.update_us_max + 0.0,
            s.violations,
            if forfeits.is_empty() {
                "-".to_string()
            } else {
                escape(&forfeits.join(", "))
            },
        );
    }
    out.push_str("</table></div>\n");
    out
}

/// The update-time percentiles as a table, in microseconds.
fn times_table(times: &[(&str, data::UpdateTimes)]) -> String {
    let mut out = String::from(
        "<table id=\"update-times\">\n<tr><th></th><th>#</th><th class=\"label\">plugin</th><th>updates</th><th>p50 µs</th>\
         <th>p90 µs</th><th>p99 µs</th><th>max µs</th></tr>\n",
    );
    for (i, (label, t)) in times.iter().enumerate() {
        let _ = writeln!(
            out,
            "<tr><td class=\"swatch\" style=\"background:{}\"></td><td>{}</td><td class=\"label\">{}</td><td>{}</td>\
             <td>{:.2}</td><td>{:.2}</td><td>{:.2}</td><td>{:.2}</td></tr>",
            css_color(i),
            i + 1,
            escape(label),
            t.count,
            t.p50,
            t.p90,
            t.p99,
            t.max
        );
    }
    out.push_str("</table>\n");
    out
}

/// Entrant `i`'s chart colour for CSS.
fn css_color(i: usize) -> String {
    let c = charts::color(i);
    format!("#{:02x}{:02x}{:02x}", c.0, c.1, c.2)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markup_is_escaped() {
        assert_eq!(
            escape(r#"<b>bot</b> & "friends' "#),
            "&lt;b&gt;bot&lt;/b&gt; &amp; &quot;friends&#39; "
        );
        assert_eq!(escape("tree-search@depth=1"), "tree-search@depth=1");
    }

    #[test]
    fn rules_read_from_the_header() {
        assert_eq!(
            rules_text(&Setup::default()),
            "classic 10x20, preview 1, uniform pieces"
        );
    }
}

//! A verified replay as one self-contained HTML page that plays the game back: the engine
//! re-simulates the replay, and the page embeds what it produced (see [`trace`]); the
//! page's script and style sheet are files beside this one, and its frame and escaping
//! are the HTML report's.

pub mod trace;

use crate::html_report::{escape, frame};
use crate::palette;
use crate::replay::{Replay, ReplayError};
use serde_json::{json, Value};
use tetrad_plugin_api::PieceId;
use trace::{SeatTrace, Trace};

/// The page's script: the decoder of the embedded data and the player that draws it on
/// canvases, in one function so that they share its names and leave none behind.
const SCRIPT: &str = concat!(
    "\"use strict\";\n(function () {\n",
    include_str!("decode.js"),
    include_str!("view.js"),
    "})();\n"
);
/// The page's style sheet.
const STYLE: &str = include_str!("page.css");

/// Why a replay has no page.
#[derive(Debug, thiserror::Error)]
pub enum PageError {
    /// The replay does not verify (or cannot be read).
    #[error(transparent)]
    Replay(#[from] ReplayError),
    /// The game is too wide for the page's packing of places (more than 32 columns).
    #[error("a board {0} columns wide is wider than a replay page draws (32)")]
    TooWide(usize),
    /// The engine's queue fell out of step with what the page was told (a fault of tetrad).
    #[error("the page's record of the game fell out of step with the engine: {0}")]
    OutOfStep(String),
}

/// The page for `replay`, drawn from the engine's re-simulation of it; a replay that does
/// not verify has none. `name` titles the page (the file's name); `back`, the address of
/// the report that links the page, gets a link to it.
pub fn page(replay: &Replay, name: &str, back: Option<&str>) -> Result<String, PageError> {
    let data = data(replay, name)?;
    // Inside a script element only `</script` could end it early: `<` is written escaped.
    let json = serde_json::to_string(&data)
        .expect("JSON values serialize")
        .replace('<', "\\u003c");
    let title = format!("tetrad replay: {name}");
    let back = back.map_or_else(String::new, |href| {
        format!(
            "<p class=\"back\"><a href=\"{}\">back to the report</a></p>\n",
            escape(href)
        )
    });
    let body = format!(
        "{back}<noscript>This page plays the game back with its script.</noscript>\n\
         <main id=\"app\" data-title=\"{}\"></main>\n{}\
         <script type=\"application/json\" id=\"game\">{json}</script>\n<script>\n{SCRIPT}</script>\n",
        escape(&title),
        legend(replay)
    );
    Ok(frame(&title, STYLE, &body))
}

/// The pieces' names, each beside a swatch of its colour.
fn legend(replay: &Replay) -> String {
    let entries: Vec<String> = replay
        .setup
        .pieces
        .kinds()
        .iter()
        .enumerate()
        .map(|(index, kind)| {
            format!(
                "<span class=\"piece\"><span class=\"swatch\" style=\"background:{}\"></span>{}</span>",
                palette::piece(PieceId(index as u8)).hex(),
                escape(kind.name())
            )
        })
        .collect();
    format!(
        "<p class=\"legend\">{}<span class=\"piece\"><span class=\"swatch\" style=\"background:{}\"></span>garbage</span></p>\n",
        entries.join(""),
        palette::GARBAGE.hex()
    )
}

/// What the page's script reads: the rules, the pieces and their colours, and each seat's
/// verified game as [`trace`] encodes it.
pub fn data(replay: &Replay, name: &str) -> Result<Value, PageError> {
    let setup = &replay.setup;
    let rules = &setup.rules;
    if rules.width > 32 {
        return Err(PageError::TooWide(rules.width));
    }
    let mut trace = Trace::new();
    let outcomes = replay.verify_watched(&mut trace)?;
    trace.finish();
    if let Some(fault) = trace.fault.take() {
        return Err(PageError::OutOfStep(fault));
    }
    // A game on the wall clock is played back at its recorded times.
    for (seat, record) in trace.seats.iter_mut().zip(&replay.seats) {
        if let Some(times_us) = &record.times_us {
            let ms: Vec<u64> = times_us.iter().map(|us| us / 1000).collect();
            seat.set_times(&ms);
        }
    }
    let pieces: Vec<Value> = setup
        .pieces
        .kinds()
        .iter()
        .enumerate()
        .map(|(index, kind)| {
            let shapes: Vec<Vec<[i8; 2]>> = kind
                .orientations()
                .iter()
                .map(|o| o.cells().iter().map(|&(x, y)| [x, y]).collect())
                .collect();
            json!({
                "name": kind.name(),
                "colour": palette::piece(PieceId(index as u8)).hex(),
                "shapes": shapes,
            })
        })
        .collect();
    let seats: Vec<Value> = trace
        .seats
        .iter()
        .zip(&replay.seats)
        .zip(&outcomes)
        .map(|((seat, record), outcome)| {
            let players: Vec<String> = record.players.iter().map(|p| p.label()).collect();
            seat_data(seat, players, outcome)
        })
        .collect();
    let shown = rules.shown_rows();
    Ok(json!({
        "format": 1,
        "name": name,
        "rules": {
            "text": setup.rules_text(),
            "width": rules.width,
            "height": rules.height,
            "shown": [shown.start, shown.end],
            "buffer": rules.buffer_rows(),
            "preview": rules.preview,
            "hold": rules.has_hold(),
        },
        "pace": setup.pace.name(),
        "seed": format!("{:#018x}", replay.seed),
        "colours": {
            "garbage": palette::GARBAGE.hex(),
            "empty": palette::GARBAGE.hex(),
        },
        "pieces": pieces,
        "seats": seats,
        "turns": trace.turns.0,
    }))
}

fn seat_data(seat: &SeatTrace, players: Vec<String>, outcome: &crate::replay::Outcome) -> Value {
    json!({
        "players": players,
        "end": outcome.end.name(),
        "result": {
            "lines": outcome.lines,
            "pieces": outcome.pieces,
            "score": outcome.score,
            "ticks": outcome.ticks,
            "sent": outcome.sent,
            "received": outcome.received,
        },
        "start": [seat.start.0, seat.start.1],
        "order": seat.order.0,
        "ticks": seat.ticks.0,
        "locks": seat.locks.0,
        "pending": seat.pending.0,
        "tickCount": seat.tick_count,
        "lockCount": seat.lock_count,
        "times": seat.times.as_ref().map(|t| t.0.clone()),
    })
}

#[cfg(test)]
mod tests;

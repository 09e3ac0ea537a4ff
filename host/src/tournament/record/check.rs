//! The checks a results file's lines pass before they are believed: the header's format
//! version and shard, and each fixture's seats, seeds, ends and numbers against the
//! tournament's configuration, so a forged or damaged line is refused with its reason.

use super::{Config, FixtureRecord, GameRecord, VERSION};
use crate::plugin::printable;
use crate::referee::End;
use crate::replay::ends::{self, Played, SeatEnd};
use crate::runner::{game_seed, GameResult};
use crate::tournament::Shard;
use serde::Deserialize;

/// Refuses a header line of another format version than [`VERSION`], naming it. A header
/// without a version is of version 1.
pub(super) fn check_version(text: &[u8]) -> Result<(), String> {
    #[derive(Deserialize)]
    struct Stamp {
        kind: String,
        #[serde(default)]
        version: Option<u32>,
    }
    let Ok(stamp) = serde_json::from_slice::<Stamp>(text) else {
        // Not a header: the full parse says what is wrong.
        return Ok(());
    };
    match (stamp.kind.as_str(), stamp.version) {
        ("header", Some(VERSION)) | ("fixture", _) => Ok(()),
        ("header", version) => Err(format!(
            "a results file of format version {}; this tetrad reads version {VERSION} (finish or merge it with the tetrad that wrote it, or start a new --out file)",
            version.unwrap_or(1)
        )),
        _ => Ok(()),
    }
}

/// `entrant 0 (`label`)`, or the seats of a fixture of several.
pub(super) fn seating(config: &Config, fixture: &FixtureRecord) -> String {
    let seats: Vec<String> = fixture
        .seats
        .iter()
        .map(|seat| {
            let label = printable(config.entrants[seat.entrant].label.clone());
            format!("entrant {} (`{label}`)", seat.entrant)
        })
        .collect();
    seats.join(" against ")
}

/// What is wrong with a fixture line of the tournament `config`, in the file of `shard`.
pub(super) fn check_fixture(config: &Config, shard: Shard, fixture: &FixtureRecord) -> Result<(), String> {
    if fixture.seats.is_empty() {
        return Err(format!("game {} has no seat", fixture.game));
    }
    for record in &fixture.seats {
        check_game(config, shard, record)?;
        if (record.result.index, record.result.seed) != (fixture.game, fixture.seed) {
            return Err(format!(
                "a seat of game {} (seed {}) holds game {} (seed {})",
                fixture.game, fixture.seed, record.result.index, record.result.seed
            ));
        }
    }
    let seated: Vec<usize> = fixture.seats.iter().map(|s| s.entrant).collect();
    let versus = config.setup.attack.is_some();
    if !crate::tournament::seatings(config.entrants.len(), versus).contains(&seated) {
        let kind = match versus {
            true => "a versus tournament seats two entrants, the lower index first",
            false => "a solo tournament seats one entrant a game",
        };
        return Err(format!(
            "{} is not a seating of this tournament ({kind})",
            seating(config, fixture)
        ));
    }
    for (index, record) in fixture.seats.iter().enumerate() {
        check_numbers(config, &record.result).map_err(|problem| match fixture.seats.len() {
            1 => problem,
            _ => format!("seat {}: {problem}", index + 1),
        })?;
    }
    let ends: Vec<SeatEnd> = fixture
        .seats
        .iter()
        .map(|record| SeatEnd {
            end: record.result.end.into(),
            ticks: record.result.ticks,
            pieces: record.result.pieces,
        })
        .collect();
    ends::impossible(&ends, Played::Headless, config.setup.pace).map_or(Ok(()), Err)
}

/// What no game under the tournament's setup can give, in one seat's numbers: more pieces
/// than ticks (a tick locks one piece at most), more than the piece cap, more T-spins than
/// pieces, a forfeit for
/// violations with no limit on them, or more lines than the cells of its pieces and of
/// the garbage that rose into its board can fill (each line clears a row of the board's
/// width; a piece has at most as many cells as the largest of the set, a garbage row at
/// most the board's width).
fn check_numbers(config: &Config, result: &GameResult) -> Result<(), String> {
    let setup = &config.setup;
    if result.pieces > result.ticks {
        return Err(format!(
            "{} pieces in {} ticks (a tick locks one piece at most)",
            result.pieces, result.ticks
        ));
    }
    if let Some(max) = setup.max_pieces.filter(|&max| result.pieces > max) {
        return Err(format!("{} pieces, past the cap of {max}", result.pieces));
    }
    if result.t_spins > result.pieces {
        return Err(format!("{} T-spins from {} pieces", result.t_spins, result.pieces));
    }
    if result.end == End::Violation && setup.limits.max_violations.is_none() {
        return Err("ended violation, but the tournament allows any number of violations".to_string());
    }
    let width = setup.rules.width as u128;
    let most_cells = setup
        .pieces
        .kinds()
        .iter()
        .map(|kind| kind.orientation(0).cells().len())
        .max()
        .unwrap_or(0) as u128;
    let filled = u128::from(result.pieces) * most_cells + u128::from(result.received) * width;
    if u128::from(result.lines) * width > filled {
        let garbage = match result.received {
            0 => String::new(),
            rows => format!(" and {rows} rows of garbage"),
        };
        return Err(format!(
            "{} lines from {} pieces{garbage}, more than their cells fill ({width} a line, at most {most_cells} a piece)",
            result.lines, result.pieces
        ));
    }
    if let Some(info) = &result.move_info {
        // One move a piece, and the last one may be cut short by the game's end.
        if info.moves == 0 || info.moves > result.pieces + 1 {
            return Err(format!(
                "move_info over {} moves of a game of {} pieces",
                info.moves, result.pieces
            ));
        }
        for (what, mean) in [("nodes", info.nodes), ("nps", info.nps), ("depth", info.depth)] {
            if mean.is_some_and(|m| !m.is_finite() || m < 0.0) {
                return Err(format!("move_info {what} is not a count"));
            }
        }
    }
    Ok(())
}

/// What is wrong with one seat's game of the tournament `config`, in the file of `shard`.
fn check_game(config: &Config, shard: Shard, record: &GameRecord) -> Result<(), String> {
    let (entrant, index) = (record.entrant, record.result.index);
    if entrant >= config.entrants.len() {
        return Err(format!(
            "entrant {entrant} does not exist (the header lists {})",
            config.entrants.len()
        ));
    }
    if index >= config.games {
        return Err(format!(
            "game {index} is past the tournament's {} games (0 to {})",
            config.games,
            config.games.saturating_sub(1)
        ));
    }
    if !shard.contains(index) {
        return Err(format!("game {index} is not in this file's shard {}", shard.label()));
    }
    let seed = game_seed(config.seed, index);
    if record.result.seed != seed {
        return Err(format!(
            "game {index} has seed {}, but game {index} of the tournament's seed {} has seed {seed}",
            record.result.seed, config.seed
        ));
    }
    Ok(())
}

/// The shard written as "K/N", with K from 1.
pub(super) fn parse_shard(label: &str) -> Option<Shard> {
    let (k, n) = label.split_once('/')?;
    let (k, n): (u64, u64) = (k.parse().ok()?, n.parse().ok()?);
    (1..=n).contains(&k).then(|| Shard { index: k - 1, count: n })
}

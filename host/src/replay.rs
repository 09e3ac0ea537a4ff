//! Replay files: a fixture's setup, its game seed, and for each seat who played and every
//! tick's applied actions, as JSON. The engine is deterministic, so re-simulating the
//! actions gives the same game; [`Replay::verify`] checks that it also gives the recorded
//! result. Files of format version 1 (one player, written before fixtures had seats) are
//! still read, as a fixture of one seat. A game at the realtime pace adds each tick's time
//! (a field absent from every other replay), and verification plays the seats' ticks in
//! the order of their times.

use crate::engine::Stats;
use crate::handling::KeyEvent;
use crate::input::{self, InputError, REPLAY_CAP};
use crate::plugin::Plugin;
use crate::runner::{GameResult, RunSpec};
use crate::setup::{PieceRecord, RulesRecord, Setup, SetupRecord};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The `format` field of every replay file.
pub const FORMAT: &str = "tetrad-replay";
/// The replay format's version. Version 1 is read too; any other is refused.
pub const VERSION: u32 = 2;

/// Why a replay cannot be read, or does not replay.
#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    /// The file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The file could not be read, or is larger than [`REPLAY_CAP`].
    #[error(transparent)]
    Input(#[from] InputError),
    /// Not JSON of the documented form.
    #[error("{path}: not a replay file ({message})")]
    Syntax {
        /// The file.
        path: PathBuf,
        /// The parser's message.
        message: String,
    },
    /// Readable, but its rules, pieces or version cannot be played.
    #[error("{0}")]
    Invalid(String),
    /// Re-simulating the actions does not give the recorded game.
    #[error("does not replay: {0}")]
    Mismatch(String),
}

/// One recorded fixture.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Replay {
    /// Always [`FORMAT`].
    pub format: String,
    /// The format's version, [`VERSION`].
    pub version: u32,
    /// The rules, pieces, piece cap and limits.
    pub setup: Setup,
    /// The game's seed (it decides the pieces).
    pub seed: u64,
    /// Each seat's players, actions and result: one seat alone, two in versus.
    pub seats: Vec<SeatRecord>,
}

/// One seat of a recorded fixture.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SeatRecord {
    /// Who played, in the order they took over.
    pub players: Vec<PlayerRecord>,
    /// The actions applied at each tick (after violations were filtered out), as bits.
    pub actions: Vec<u32>,
    /// How the seat's game ended.
    pub result: Outcome,
    /// Under the realtime pace, when each tick happened (one time for each of `actions`),
    /// in microseconds from the game's start; absent under the other paces.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub times_us: Option<Vec<u64>>,
    /// Under the realtime pace or timing rules, when the seat's game ended, in
    /// microseconds from its start.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end_us: Option<u64>,
    /// Under timing rules, a person's key presses and releases, from which their
    /// handling (in their [`PlayerRecord`]) re-derives every tick.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub keys: Option<Vec<KeyEvent>>,
}

impl SeatRecord {
    /// The player who chose the action at tick `tick`.
    pub fn player_at(&self, tick: u64) -> Option<&PlayerRecord> {
        self.players.iter().rev().find(|p| p.from_tick <= tick)
    }
}

/// A replay file as read, its setup not yet checked.
#[derive(Deserialize)]
struct ReplayRecord {
    setup: SetupRecord,
    seed: u64,
    seats: Vec<SeatRecord>,
}

/// A replay file of format version 1: one game of one player.
#[derive(Deserialize)]
struct ReplayV1 {
    rules: RulesRecord,
    pieces: Vec<PieceRecord>,
    seed: u64,
    max_pieces: Option<u64>,
    players: Vec<PlayerRecord>,
    actions: Vec<u32>,
    result: Outcome,
}

impl ReplayV1 {
    /// The same game as a fixture of one seat.
    fn upgrade(self) -> ReplayRecord {
        ReplayRecord {
            setup: SetupRecord {
                rules: self.rules,
                pieces: self.pieces,
                sequence: None,
                max_pieces: self.max_pieces,
                think_limit_us: None,
                max_violations: None,
                tc: None,
                st: None,
                attack: None,
                garbage: Default::default(),
                pace: Default::default(),
                speed: Default::default(),
                timing: None,
            },
            seed: self.seed,
            seats: vec![SeatRecord {
                players: self.players,
                actions: self.actions,
                result: self.result,
                times_us: None,
                end_us: None,
                keys: None,
            }],
        }
    }
}

impl Replay {
    /// An empty recording of a game under `setup` (two seats in versus, else one), with
    /// this game seed.
    pub fn new(setup: &Setup, seed: u64) -> Replay {
        let seat = SeatRecord {
            players: Vec::new(),
            actions: Vec::new(),
            result: Outcome::new(Stats::default(), RecordedEnd::Unfinished),
            times_us: None,
            end_us: None,
            keys: None,
        };
        let mut replay = Replay {
            format: FORMAT.to_string(),
            version: VERSION,
            setup: setup.clone(),
            seed,
            seats: Vec::new(),
        };
        replay.seats = vec![seat; replay.seats()];
        replay
    }

    /// How many seats a game of this setup has: two in versus, one alone.
    pub fn seats(&self) -> usize {
        if self.setup.attack.is_some() {
            2
        } else {
            1
        }
    }

    /// The recording of game 0 of a run: `actions` as collected by
    /// [`crate::runner::run_recorded`], `result` that game's result.
    pub fn of_run_game(plugin: &Plugin, spec: &RunSpec, result: &GameResult, actions: Vec<u32>) -> Replay {
        let player = PlayerRecord::plugin(plugin, &spec.options, 0);
        Replay::of_played(&spec.setup, result.seed, vec![(player, actions, result)])
    }

    /// The recording of a game played headless under `setup` with seed `seed`: each seat's
    /// player, the actions applied at its ticks, and its result, in seat order.
    pub fn of_played(setup: &Setup, seed: u64, seats: Vec<(PlayerRecord, Vec<u32>, &GameResult)>) -> Replay {
        let mut replay = Replay::new(setup, seed);
        for (seat, (player, actions, result)) in replay.seats.iter_mut().zip(seats) {
            seat.players.push(player);
            seat.actions = actions;
            seat.result = Outcome {
                lines: result.lines,
                pieces: result.pieces,
                score: result.score,
                ticks: result.ticks,
                end: result.end.into(),
                sent: result.sent,
                received: result.received,
            };
            if let Some(timeline) = &result.timeline {
                seat.times_us = Some(timeline.ticks_us.clone());
                seat.end_us = Some(timeline.end_us);
            }
        }
        replay
    }

    /// Reads and checks a replay file (at most [`REPLAY_CAP`] bytes).
    pub fn load(path: &Path) -> Result<Replay, ReplayError> {
        let text = input::read_text(path, REPLAY_CAP)?;
        Replay::parse(path, &text)
    }

    /// Reads and checks the text of a replay file, of this version or version 1; `path`
    /// is only used in messages.
    pub fn parse(path: &Path, text: &str) -> Result<Replay, ReplayError> {
        let syntax = |err: serde_json::Error| ReplayError::Syntax {
            path: path.to_path_buf(),
            message: err.to_string(),
        };
        let invalid = |problem: String| ReplayError::Invalid(format!("{}: {problem}", path.display()));
        #[derive(Deserialize)]
        struct Stamp {
            format: String,
            version: u32,
        }
        let stamp: Stamp = serde_json::from_str(text).map_err(syntax)?;
        if stamp.format != FORMAT {
            return Err(invalid(format!("format is `{}`, expected `{FORMAT}`", stamp.format)));
        }
        let record = match stamp.version {
            1 => serde_json::from_str::<ReplayV1>(text).map_err(syntax)?.upgrade(),
            VERSION => serde_json::from_str::<ReplayRecord>(text).map_err(syntax)?,
            other => {
                return Err(invalid(format!(
                    "replay format version {other}; this tetrad reads versions 1 and {VERSION}"
                )))
            }
        };
        let replay = Replay {
            format: FORMAT.to_string(),
            version: VERSION,
            setup: Setup::try_from(record.setup).map_err(invalid)?,
            seed: record.seed,
            seats: record.seats,
        };
        let seats = replay.seats();
        if replay.seats.len() != seats {
            return Err(invalid(format!(
                "{} seats; a {} game has {seats}",
                replay.seats.len(),
                if seats == 1 { "solo" } else { "versus" }
            )));
        }
        Ok(replay)
    }

    /// The first seat (the only one of a solo fixture).
    pub fn seat(&self) -> &SeatRecord {
        &self.seats[0]
    }

    /// The first seat (the only one of a solo fixture), to record into.
    pub fn seat_mut(&mut self) -> &mut SeatRecord {
        &mut self.seats[0]
    }

    /// Writes the replay as one line of JSON.
    pub fn save(&self, path: &Path) -> Result<(), ReplayError> {
        let io = |source| ReplayError::Io {
            path: path.to_path_buf(),
            source,
        };
        let mut text = serde_json::to_string(self).map_err(|err| io(err.into()))?;
        text.push('\n');
        std::fs::write(path, text).map_err(io)
    }
}

mod clocked;
pub mod ends;
mod forfeits;
mod hands;
mod live;
mod record;
mod timed;
mod verify;
pub use record::{Outcome, PlayerRecord, RecordedEnd};
pub use verify::Watcher;

#[cfg(test)]
mod tests;

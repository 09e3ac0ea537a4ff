//! Replay files: a fixture's setup, its game seed, and for each seat who played and every
//! tick's applied actions, as JSON. The engine is deterministic, so re-simulating the
//! actions gives the same game; [`Replay::verify`] checks that it also gives the recorded
//! result. Files of format version 1 (one player, written before fixtures had seats) are
//! still read, as a fixture of one seat. A game at the realtime pace adds each tick's time
//! (a field absent from every other replay), and verification plays the seats' ticks in
//! the order of their times.

use crate::engine::{Game, Stats};
use crate::input::{self, InputError, REPLAY_CAP};
use crate::plugin::{printable, Plugin};
use crate::referee::End;
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
    /// Under the realtime pace, when the seat's game ended, in microseconds from its start.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end_us: Option<u64>,
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
            },
            seed: self.seed,
            seats: vec![SeatRecord {
                players: self.players,
                actions: self.actions,
                result: self.result,
                times_us: None,
                end_us: None,
            }],
        }
    }
}

/// Who played from a given tick on: a plugin, or a person.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerRecord {
    /// The first tick this player chose the actions of.
    pub from_tick: u64,
    /// The plugin's name, or `human`.
    pub name: String,
    /// The plugin's version.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    /// The plugin's file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<PathBuf>,
    /// The plugin's options.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub options: String,
}

impl PlayerRecord {
    /// A person at the keyboard, from `from_tick` on.
    pub fn human(from_tick: u64) -> PlayerRecord {
        PlayerRecord {
            from_tick,
            name: "human".to_string(),
            version: None,
            path: None,
            options: String::new(),
        }
    }

    /// An instance of `plugin` with `options`, from `from_tick` on.
    pub fn plugin(plugin: &Plugin, options: &str, from_tick: u64) -> PlayerRecord {
        PlayerRecord {
            from_tick,
            name: plugin.info().name.clone(),
            version: Some(plugin.info().version.clone()),
            path: Some(plugin.path().to_path_buf()),
            options: options.to_string(),
        }
    }

    /// `name version`, or the name alone, safe to print: both are read from a file, so
    /// their control characters are shown escaped (see [`printable`]).
    pub fn label(&self) -> String {
        printable(match &self.version {
            Some(version) => format!("{} {version}", self.name),
            None => self.name.clone(),
        })
    }
}

/// How a recorded game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RecordedEnd {
    /// The rules ended the game.
    ToppedOut,
    /// It reached `max_pieces`.
    Capped,
    /// The plugin failed.
    PluginError,
    /// The piece was not dropped in time (presets without gravity).
    Stalled,
    /// An update was slower than the think limit.
    Timeout,
    /// More protocol violations than allowed.
    Violation,
    /// The plugin took its worker process down.
    Crashed,
    /// The sandbox ended it.
    Sandbox,
    /// Under a time control, the player's clock fell below zero.
    TimeLoss,
    /// In versus: the opponent's game ended first.
    Won,
    /// Someone stopped or restarted the game before it ended.
    Unfinished,
}

impl From<End> for RecordedEnd {
    fn from(end: End) -> RecordedEnd {
        match end {
            End::ToppedOut => RecordedEnd::ToppedOut,
            End::Capped => RecordedEnd::Capped,
            End::PluginError => RecordedEnd::PluginError,
            End::Stalled => RecordedEnd::Stalled,
            End::Timeout => RecordedEnd::Timeout,
            End::Violation => RecordedEnd::Violation,
            End::Crashed => RecordedEnd::Crashed,
            End::Sandbox => RecordedEnd::Sandbox,
            End::TimeLoss => RecordedEnd::TimeLoss,
            End::Won => RecordedEnd::Won,
        }
    }
}

impl RecordedEnd {
    /// Whether the seat lost: its rules or its player ended its game, rather than the cap,
    /// the opponent, or someone at the keyboard.
    pub fn is_loss(self) -> bool {
        !matches!(self, RecordedEnd::Capped | RecordedEnd::Won | RecordedEnd::Unfinished)
    }

    /// The name in the file and in reports.
    pub fn name(self) -> &'static str {
        match self {
            RecordedEnd::ToppedOut => "topped_out",
            RecordedEnd::Capped => "capped",
            RecordedEnd::PluginError => "plugin_error",
            RecordedEnd::Stalled => "stalled",
            RecordedEnd::Timeout => "timeout",
            RecordedEnd::Violation => "violation",
            RecordedEnd::Crashed => "crashed",
            RecordedEnd::Sandbox => "sandbox",
            RecordedEnd::TimeLoss => "time_loss",
            RecordedEnd::Won => "won",
            RecordedEnd::Unfinished => "unfinished",
        }
    }
}

/// The result of a recorded game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    /// Rows cleared.
    pub lines: u64,
    /// Pieces locked.
    pub pieces: u64,
    /// Points.
    pub score: u64,
    /// Ticks played.
    pub ticks: u64,
    /// How it ended.
    pub end: RecordedEnd,
    /// In versus, garbage rows sent to the opponent after cancelling.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub sent: u64,
    /// In versus, garbage rows risen into this seat's board.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub received: u64,
}

fn is_zero(count: &u64) -> bool {
    *count == 0
}

impl Outcome {
    /// The totals of `stats`, ended as `end`, with no garbage.
    pub fn new(stats: Stats, end: RecordedEnd) -> Outcome {
        Outcome {
            lines: stats.lines,
            pieces: stats.pieces,
            score: stats.score,
            ticks: stats.ticks,
            end,
            sent: 0,
            received: 0,
        }
    }

    /// The totals of `game`, its garbage included, ended as `end`.
    pub fn of_game(game: &Game, end: RecordedEnd) -> Outcome {
        let (sent, received) = game.garbage().map_or((0, 0), |g| (g.sent, g.received));
        Outcome {
            sent,
            received,
            ..Outcome::new(game.stats(), end)
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

pub mod ends;
mod timed;
mod verify;
pub use verify::Watcher;

#[cfg(test)]
mod tests;

//! How a game ends, what it records, and the limits whose breach forfeits it.

use hdrhistogram::Histogram;
use serde::{Deserialize, Serialize};

/// Limits whose breach forfeits a game. `tetrad run` sets none: violations are counted
/// and not applied, and no update is too slow.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// An update that takes longer forfeits the game as `timeout` (checked after it returns).
    pub think_limit_ns: Option<u64>,
    /// More violations than this in one game forfeit it as `violation`.
    pub max_violations: Option<u64>,
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum End {
    /// A piece could not enter, or locked where the preset says the game is over.
    ToppedOut,
    /// It reached `--max-pieces`, or played every piece of its `--sequence` line.
    Capped,
    /// The plugin failed (a panic, or a C plugin's error status).
    PluginError,
    /// Under a preset without gravity, the piece was not dropped in time.
    Stalled,
    /// An update took longer than the think limit.
    Timeout,
    /// More protocol violations than allowed.
    Violation,
    /// The plugin took its worker process down (isolation only).
    Crashed,
}

impl End {
    /// Every way a game can end, in report order.
    pub const ALL: [End; 7] = [
        End::ToppedOut,
        End::Capped,
        End::PluginError,
        End::Stalled,
        End::Timeout,
        End::Violation,
        End::Crashed,
    ];

    /// The name used in reports.
    pub fn name(self) -> &'static str {
        match self {
            End::ToppedOut => "topped_out",
            End::Capped => "capped",
            End::PluginError => "plugin_error",
            End::Stalled => "stalled",
            End::Timeout => "timeout",
            End::Violation => "violation",
            End::Crashed => "crashed",
        }
    }

    /// Whether the plugin forfeited the game, rather than playing it out.
    pub fn is_forfeit(self) -> bool {
        !matches!(self, End::ToppedOut | End::Capped)
    }
}

/// One finished game.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct GameResult {
    /// Index of the game in the run.
    pub index: u64,
    /// The game's seed (it decides the pieces).
    pub seed: u64,
    /// Rows cleared.
    pub lines: u64,
    /// Pieces locked.
    pub pieces: u64,
    /// Points.
    pub score: u64,
    /// Ticks played.
    pub ticks: u64,
    /// How it ended.
    pub end: End,
    /// The plugin's error text, for `plugin_error`; what happened, for `stalled`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// Updates whose bits broke the protocol (not applied).
    pub violations: u64,
    /// Calls to `update` (one per tick, plus the failed one of a plugin error).
    pub updates: u64,
    /// Mean microseconds per `update`.
    pub update_us_mean: f64,
    /// 99th percentile of this game's updates, in microseconds.
    pub update_us_p99: f64,
    /// Slowest update of this game, in microseconds.
    pub update_us_max: f64,
    /// Every update's duration in nanoseconds. [`run`](super::run) folds it into the run's histogram
    /// and leaves this one empty, so a long run keeps one histogram, not one per game.
    #[serde(skip, default = "new_histogram")]
    pub update_ns: Histogram<u64>,
}

impl GameResult {
    /// Game `index` (of seed `seed`) ended as `end` with nothing played: no lines, pieces,
    /// ticks or updates. Callers fill in what they know.
    pub fn unplayed(index: u64, seed: u64, end: End) -> GameResult {
        GameResult {
            index,
            seed,
            lines: 0,
            pieces: 0,
            score: 0,
            ticks: 0,
            end,
            error: None,
            violations: 0,
            updates: 0,
            update_us_mean: 0.0,
            update_us_p99: 0.0,
            update_us_max: 0.0,
            update_ns: new_histogram(),
        }
    }
}

/// An empty update-time histogram: 1% precision, growing to fit any value.
pub fn new_histogram() -> Histogram<u64> {
    Histogram::new(2).expect("2 significant figures is a valid precision")
}

/// A run that could not go on.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// The plugin refused to create an instance (bad options, unsupported rules...).
    #[error("plugin `{plugin}` ({path}): create failed: {message}")]
    CreateFailed {
        /// The plugin's name.
        plugin: String,
        /// Its file.
        path: String,
        /// Its message, verbatim.
        message: String,
    },
}

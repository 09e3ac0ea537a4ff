//! What a finished game records.

pub use crate::player::MoveInfoMeans;
use crate::referee::End;
use hdrhistogram::Histogram;
use serde::{Deserialize, Serialize};

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
    /// In versus: rows of garbage sent to the opponent (after cancelling).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub sent: u64,
    /// In versus: rows of garbage risen into this board.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub received: u64,
    /// Locks scored as a T-spin, full or mini (under `guideline`).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub t_spins: u64,
    /// Calls to `update` (one per tick, plus the failed one of a plugin error).
    pub updates: u64,
    /// Mean microseconds per `update`.
    pub update_us_mean: f64,
    /// 99th percentile of this game's updates, in microseconds.
    pub update_us_p99: f64,
    /// Slowest update of this game, in microseconds.
    pub update_us_max: f64,
    /// What a TBP bot's search reported with its moves (the `move_info` extension), as
    /// means over the game's moves; absent for every other player, and in results files
    /// written before it was recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub move_info: Option<MoveInfoMeans>,
    /// Under a time control, the time the player used in all, in milliseconds; absent
    /// without one, and in results files written before time controls.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_used_ms: Option<f64>,
    /// Every update's duration in nanoseconds. [`run`](super::run) folds it into the run's histogram
    /// and leaves this one empty, so a long run keeps one histogram, not one per game.
    #[serde(skip, default = "new_histogram")]
    pub update_ns: Histogram<u64>,
    /// Under the realtime pace, when a recorded seat's ticks happened (for its replay);
    /// `None` for every other game. Not part of a results file.
    #[serde(skip)]
    pub timeline: Option<Timeline>,
}

/// When a seat's ticks happened and when its game ended, in microseconds from the game's
/// start, under the realtime pace.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Timeline {
    /// The time of each tick, in the order played.
    pub ticks_us: Vec<u64>,
    /// When the game ended.
    pub end_us: u64,
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
            sent: 0,
            received: 0,
            t_spins: 0,
            updates: 0,
            update_us_mean: 0.0,
            update_us_p99: 0.0,
            update_us_max: 0.0,
            move_info: None,
            time_used_ms: None,
            update_ns: new_histogram(),
            timeline: None,
        }
    }
}

/// For serde's `skip_serializing_if`: counts of zero are left out of a file.
pub(crate) fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// An empty update-time histogram: 1% precision, growing to fit any value.
pub fn new_histogram() -> Histogram<u64> {
    Histogram::new(2).expect("2 significant figures is a valid precision")
}

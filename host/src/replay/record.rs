//! What a replay records of each seat: who played from which tick, and the result.

use crate::engine::{Game, Stats};
use crate::handling::Handling;
use crate::plugin::{printable, Plugin};
use crate::referee::End;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

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
    /// A person's handling, when their seat records key events (under timing rules).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub handling: Option<Handling>,
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
            handling: None,
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
            handling: None,
        }
    }

    /// `name@options version` as a tournament names an entrant, without the parts the
    /// record lacks (`bcts 0.1.0`, `human`), so that two instances of one plugin with
    /// different options read apart; safe to print: all three are read from a file, so
    /// their control characters are shown escaped (see [`printable`]).
    pub fn label(&self) -> String {
        let mut label = self.name.clone();
        if !self.options.is_empty() {
            label = format!("{label}@{}", self.options);
        }
        if let Some(version) = &self.version {
            label = format!("{label} {version}");
        }
        printable(label)
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

    /// Whether the seat's player or the referee ended its game (a failure, a limit, a
    /// stall), rather than the rules, the cap, the opponent or someone at the keyboard.
    pub fn is_forfeit(self) -> bool {
        !matches!(
            self,
            RecordedEnd::ToppedOut | RecordedEnd::Capped | RecordedEnd::Won | RecordedEnd::Unfinished
        )
    }

    /// Whether the game ended at an answer rather than by a move: a player that failed
    /// or ran out of time, or someone who stopped it at the keyboard.
    pub fn is_failure(self) -> bool {
        (self.is_forfeit() && self != RecordedEnd::Stalled) || self == RecordedEnd::Unfinished
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

//! Replay files: the rules, piece set, seed, players and every tick's applied actions of
//! one game, as JSON. The engine is deterministic, so re-simulating the actions gives the
//! same game; [`Replay::verify`] checks that it also gives the recorded result.

use crate::engine::{Game, Stats};
use crate::input::{self, InputError, REPLAY_CAP};
use crate::plugin::Plugin;
use crate::referee::{ended, Referee};
use crate::runner::{End, GameResult, Limits, RunSpec};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use tetrad_plugin_api::{Actions, PieceSet, Rules};

/// The `format` field of every replay file.
pub const FORMAT: &str = "tetrad-replay";
/// The replay format's version; a file of another version is refused.
pub const VERSION: u32 = 1;

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

/// One recorded game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Replay {
    /// Always [`FORMAT`].
    pub format: String,
    /// The format's version, [`VERSION`].
    pub version: u32,
    /// The rules the game was played under.
    pub rules: RulesRecord,
    /// The piece set, in piece-index order.
    pub pieces: Vec<PieceRecord>,
    /// The game's seed (it decides the pieces).
    pub seed: u64,
    /// The `--max-pieces` cap, if there was one.
    pub max_pieces: Option<u64>,
    /// Who played, in the order they took over.
    pub players: Vec<Player>,
    /// The actions applied at each tick (after violations were filtered out), as bits.
    pub actions: Vec<u32>,
    /// How the game ended.
    pub result: Outcome,
}

/// Who played from a given tick on: a plugin, or a person.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
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

impl Player {
    /// A person at the keyboard, from `from_tick` on.
    pub fn human(from_tick: u64) -> Player {
        Player {
            from_tick,
            name: "human".to_string(),
            version: None,
            path: None,
            options: String::new(),
        }
    }

    /// An instance of `plugin` with `options`, from `from_tick` on.
    pub fn plugin(plugin: &Plugin, options: &str, from_tick: u64) -> Player {
        Player {
            from_tick,
            name: plugin.info().name.clone(),
            version: Some(plugin.info().version.clone()),
            path: Some(plugin.path().to_path_buf()),
            options: options.to_string(),
        }
    }

    /// `name version`, or the name alone.
    pub fn label(&self) -> String {
        match &self.version {
            Some(version) => format!("{} {version}", self.name),
            None => self.name.clone(),
        }
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
        }
    }
}

impl RecordedEnd {
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
}

impl Outcome {
    /// The totals of `stats`, ended as `end`.
    pub fn new(stats: Stats, end: RecordedEnd) -> Outcome {
        Outcome {
            lines: stats.lines,
            pieces: stats.pieces,
            score: stats.score,
            ticks: stats.ticks,
            end,
        }
    }
}

impl Replay {
    /// An empty recording of a game under these rules and pieces, with this game seed.
    pub fn new(rules: &Rules, pieces: &PieceSet, seed: u64, max_pieces: Option<u64>) -> Replay {
        Replay {
            format: FORMAT.to_string(),
            version: VERSION,
            rules: RulesRecord {
                preset: rules.preset.name().to_string(),
                width: rules.width,
                height: rules.height,
                preview: rules.preview,
                randomizer: rules.randomizer.name().to_string(),
            },
            pieces: pieces
                .kinds()
                .iter()
                .map(|kind| PieceRecord {
                    name: kind.name().to_string(),
                    box_size: kind.box_size(),
                    cells: kind.orientation(0).cells().iter().map(|&(x, y)| [x, y]).collect(),
                })
                .collect(),
            seed,
            max_pieces,
            players: Vec::new(),
            actions: Vec::new(),
            result: Outcome::new(Stats::default(), RecordedEnd::Unfinished),
        }
    }

    /// The recording of game 0 of a run: `actions` as collected by
    /// [`crate::runner::run_recorded`], `result` that game's result.
    pub fn of_run_game(plugin: &Plugin, spec: &RunSpec, result: &GameResult, actions: Vec<u32>) -> Replay {
        let mut replay = Replay::new(&spec.rules, &spec.pieces, result.seed, spec.max_pieces);
        replay.players.push(Player::plugin(plugin, &spec.options, 0));
        replay.actions = actions;
        replay.result = Outcome {
            lines: result.lines,
            pieces: result.pieces,
            score: result.score,
            ticks: result.ticks,
            end: result.end.into(),
        };
        replay
    }

    /// Reads and checks a replay file (at most [`REPLAY_CAP`] bytes).
    pub fn load(path: &Path) -> Result<Replay, ReplayError> {
        let text = input::read_text(path, REPLAY_CAP)?;
        Replay::parse(path, &text)
    }

    /// Reads and checks the text of a replay file; `path` is only used in messages.
    pub fn parse(path: &Path, text: &str) -> Result<Replay, ReplayError> {
        let replay: Replay = serde_json::from_str(text).map_err(|err| ReplayError::Syntax {
            path: path.to_path_buf(),
            message: err.to_string(),
        })?;
        replay
            .setup()
            .map_err(|err| ReplayError::Invalid(format!("{}: {err}", path.display())))?;
        Ok(replay)
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

    /// The rules and piece set, checked to be playable.
    pub fn setup(&self) -> Result<(Rules, Arc<PieceSet>), ReplayError> {
        let invalid = ReplayError::Invalid;
        if self.format != FORMAT {
            return Err(invalid(format!("format is `{}`, expected `{FORMAT}`", self.format)));
        }
        if self.version != VERSION {
            return Err(invalid(format!(
                "replay format version {}, this tetrad reads version {VERSION}",
                self.version
            )));
        }
        let r = &self.rules;
        let rules = Rules {
            preset: r.preset.parse().map_err(|e| invalid(format!("{e}")))?,
            width: r.width,
            height: r.height,
            preview: r.preview,
            randomizer: r.randomizer.parse().map_err(|e| invalid(format!("{e}")))?,
        };
        if self.pieces.is_empty() || self.pieces.len() > 255 {
            return Err(invalid(format!("{} pieces; 1 to 255 are needed", self.pieces.len())));
        }
        let kinds = self
            .pieces
            .iter()
            .map(PieceRecord::kind)
            .collect::<Result<Vec<_>, _>>()?;
        let pieces = PieceSet::new(kinds);
        rules.validate(&pieces).map_err(|e| invalid(e.to_string()))?;
        Ok((rules, Arc::new(pieces)))
    }

    /// The player who chose the actions of `tick`.
    pub fn player_at(&self, tick: u64) -> Option<&Player> {
        self.players.iter().rev().find(|p| p.from_tick <= tick)
    }

    /// Re-simulates the game and checks that it gives the recorded result.
    pub fn verify(&self) -> Result<Outcome, ReplayError> {
        let (rules, pieces) = self.setup()?;
        let mut game = Game::new(rules, pieces, self.seed);
        let total = self.actions.len();
        for (tick, &bits) in self.actions.iter().enumerate() {
            if let Some(end) = ended(&game, self.max_pieces) {
                return Err(ReplayError::Mismatch(format!(
                    "the game ended ({}) after tick {tick}, but the replay has {total} ticks",
                    end.name()
                )));
            }
            let actions = Actions(bits);
            if actions.is_violation() {
                return Err(ReplayError::Mismatch(format!(
                    "tick {tick} holds {actions:?}, which no player can have applied"
                )));
            }
            game.tick(actions);
        }
        let replayed = Outcome::new(game.stats(), self.replayed_end(&game));
        let recorded = self.result;
        let mut differences = Vec::new();
        for (what, r, s) in [
            ("lines", recorded.lines, replayed.lines),
            ("pieces", recorded.pieces, replayed.pieces),
            ("points", recorded.score, replayed.score),
            ("ticks", recorded.ticks, replayed.ticks),
        ] {
            if r != s {
                differences.push(format!("recorded {r} {what}, re-simulated {s}"));
            }
        }
        if recorded.end != replayed.end {
            differences.push(format!(
                "recorded end {}, re-simulated {}",
                recorded.end.name(),
                replayed.end.name()
            ));
        }
        if differences.is_empty() {
            Ok(replayed)
        } else {
            Err(ReplayError::Mismatch(differences.join("; ")))
        }
    }

    /// How the re-simulated game ended. The rules decide a top-out and the cap; a plugin
    /// error or an unfinished game leaves the game running, so the record decides those,
    /// and a stall must show in the piece's ticks.
    fn replayed_end(&self, game: &Game) -> RecordedEnd {
        if let Some(end) = ended(game, self.max_pieces) {
            return end.into();
        }
        let referee = Referee::new(game.rules(), self.max_pieces, Limits::default());
        let stalled = referee.after_tick(game).is_some();
        match self.result.end {
            RecordedEnd::Stalled if stalled => RecordedEnd::Stalled,
            RecordedEnd::PluginError | RecordedEnd::Unfinished => self.result.end,
            _ => RecordedEnd::Unfinished,
        }
    }
}

mod records;
#[cfg(test)]
mod tests;

pub use records::{PieceRecord, RulesRecord};

//! `--record FILE` on the screens: the replay of the game in progress, saved when the
//! game ends, when a new game starts and when the screen closes. The file holds the last
//! game that had at least one tick.

use crate::engine::Stats;
use crate::replay::{Outcome, PlayerRecord, RecordedEnd, Replay, ReplayError};
use crate::setup::Setup;
use std::path::PathBuf;
use tetrad_plugin_api::Actions;

/// The recording of the game on screen.
pub struct Recorder {
    path: PathBuf,
    replay: Replay,
    unsaved: bool,
}

impl Recorder {
    /// Starts recording a game with this seed, played first by `player`, for `path`.
    pub fn new(path: PathBuf, setup: &Setup, game_seed: u64, player: PlayerRecord) -> Recorder {
        let mut replay = Replay::new(setup, game_seed);
        replay.seat_mut().players.push(player);
        Recorder {
            path,
            replay,
            unsaved: false,
        }
    }

    /// Notes the actions applied at the next tick.
    pub fn tick(&mut self, actions: Actions) {
        self.replay.seat_mut().actions.push(actions.0);
        self.unsaved = true;
    }

    /// Notes that `player` chooses the actions from now on.
    pub fn take_over(&mut self, player: PlayerRecord) {
        self.replay.seat_mut().players.push(player);
    }

    /// Saves the game so far, with these totals and end, unless there is nothing new to
    /// save. Returns the file written.
    pub fn save(&mut self, stats: Stats, end: Option<RecordedEnd>) -> Result<Option<&PathBuf>, ReplayError> {
        if !self.unsaved {
            return Ok(None);
        }
        self.replay.seat_mut().result = Outcome::new(stats, end.unwrap_or(RecordedEnd::Unfinished));
        self.replay.save(&self.path)?;
        self.unsaved = false;
        Ok(Some(&self.path))
    }
}

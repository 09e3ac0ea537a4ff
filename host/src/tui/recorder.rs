//! `--record FILE` on the screens: the replay of the game in progress, saved when the
//! game ends, when a new game starts and when the screen closes. The file holds the last
//! game that had at least one tick.

use crate::engine::Stats;
use crate::replay::{Outcome, Player, RecordedEnd, Replay, ReplayError};
use std::path::PathBuf;
use tetrad_plugin_api::{Actions, PieceSet, Rules};

/// The recording of the game on screen.
pub struct Recorder {
    path: PathBuf,
    replay: Replay,
    unsaved: bool,
}

impl Recorder {
    /// Starts recording a game with this seed, played first by `player`, for `path`.
    pub fn new(
        path: PathBuf,
        rules: &Rules,
        pieces: &PieceSet,
        game_seed: u64,
        max_pieces: Option<u64>,
        player: Player,
    ) -> Recorder {
        let mut replay = Replay::new(rules, pieces, game_seed, max_pieces);
        replay.players.push(player);
        Recorder {
            path,
            replay,
            unsaved: false,
        }
    }

    /// Notes the actions applied at the next tick.
    pub fn tick(&mut self, actions: Actions) {
        self.replay.actions.push(actions.0);
        self.unsaved = true;
    }

    /// Notes that `player` chooses the actions from now on.
    pub fn take_over(&mut self, player: Player) {
        self.replay.players.push(player);
    }

    /// Saves the game so far, with these totals and end, unless there is nothing new to
    /// save. Returns the file written.
    pub fn save(&mut self, stats: Stats, end: Option<RecordedEnd>) -> Result<Option<&PathBuf>, ReplayError> {
        if !self.unsaved {
            return Ok(None);
        }
        self.replay.result = Outcome::new(stats, end.unwrap_or(RecordedEnd::Unfinished));
        self.replay.save(&self.path)?;
        self.unsaved = false;
        Ok(Some(&self.path))
    }
}

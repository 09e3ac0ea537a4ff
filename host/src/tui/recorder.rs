//! `--record FILE` on the screens: the replay of the game in progress, saved when the
//! game ends, when a new game starts and when the screen closes. The file holds the last
//! game that had at least one tick; a versus game with both its seats.

use crate::handling::KeyEvent;
use crate::replay::{Outcome, PlayerRecord, Replay, ReplayError};
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
    /// Starts recording a game with this seed for `path`, each seat played first by its
    /// entry of `players`.
    pub fn new(path: PathBuf, setup: &Setup, game_seed: u64, players: Vec<PlayerRecord>) -> Recorder {
        let mut replay = Replay::new(setup, game_seed);
        for (seat, player) in replay.seats.iter_mut().zip(players) {
            seat.players.push(player);
        }
        Recorder {
            path,
            replay,
            unsaved: false,
        }
    }

    /// Notes the actions applied at seat `seat`'s next tick.
    pub fn tick(&mut self, seat: usize, actions: Actions) {
        self.replay.seats[seat].actions.push(actions.0);
        self.unsaved = true;
    }

    /// Notes the actions applied at seat `seat`'s next tick, at `time_us` of a game under
    /// timing rules.
    pub fn tick_at(&mut self, seat: usize, actions: Actions, time_us: u64) {
        self.tick(seat, actions);
        self.replay.seats[seat]
            .times_us
            .get_or_insert_with(Vec::new)
            .push(time_us);
    }

    /// Notes a key event of the person at seat `seat`, under timing rules.
    pub fn key(&mut self, seat: usize, event: KeyEvent) {
        self.replay.seats[seat].keys.get_or_insert_with(Vec::new).push(event);
        self.unsaved = true;
    }

    /// Notes the time seat `seat`'s game under timing rules has reached (its end, if
    /// saved now).
    pub fn set_end(&mut self, seat: usize, time_us: u64) {
        let record = &mut self.replay.seats[seat];
        record.times_us.get_or_insert_with(Vec::new);
        record.end_us = Some(time_us);
    }

    /// Notes that `player` chooses seat `seat`'s actions from now on.
    pub fn take_over(&mut self, seat: usize, player: PlayerRecord) {
        self.replay.seats[seat].players.push(player);
    }

    /// Saves the game so far, with each seat's totals and end, unless there is nothing
    /// new to save. Returns the file written.
    pub fn save(&mut self, outcomes: impl IntoIterator<Item = Outcome>) -> Result<Option<&PathBuf>, ReplayError> {
        if !self.unsaved {
            return Ok(None);
        }
        for (seat, outcome) in self.replay.seats.iter_mut().zip(outcomes) {
            seat.result = outcome;
        }
        self.replay.save(&self.path)?;
        self.unsaved = false;
        Ok(Some(&self.path))
    }
}

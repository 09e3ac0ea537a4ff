//! Recording the game on screen: the recorder started with each seat's player, and the
//! replay saved when the game holds ticks not yet saved.

use super::{App, Driver, Side};
use crate::replay::PlayerRecord;
use crate::tui::recorder::Recorder;

impl App {
    pub(super) fn start_recording(&mut self) {
        let Some(path) = &self.session.record else {
            return;
        };
        let players = self
            .sides
            .iter()
            .map(|side| match &side.driver {
                Driver::Plugin(seat) => {
                    PlayerRecord::plugin(self.roster.plugin(seat.index()), self.roster.options(seat.index()), 0)
                }
                _ => self.timed_player().unwrap_or_else(|| PlayerRecord::human(0)),
            })
            .collect();
        self.recorder = Some(Recorder::new(
            path.clone(),
            &self.session.setup,
            self.game_seed,
            players,
        ));
    }

    /// Saves the game's replay, if recording and it holds ticks not yet saved.
    pub(super) fn save_if_unsaved(&mut self) {
        if self.live.is_some() {
            return self.live_save();
        }
        let now_us = self.timed_now_us();
        let Some(recorder) = &mut self.recorder else {
            return;
        };
        if let Some(now_us) = now_us {
            recorder.set_end(0, now_us);
        }
        match recorder.save(self.sides.iter().map(Side::outcome)) {
            Ok(None) => {}
            Ok(Some(path)) => self.status = Some(format!("replay saved to {}", path.display())),
            Err(err) => {
                self.status = Some(format!("cannot save the replay: {err}"));
                self.save_error = Some(err);
            }
        }
    }
}

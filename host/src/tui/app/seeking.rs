//! Seeking in a replay: the games set to a recorded tick, and where the recorded ticks run
//! out, the ends the file gives.

use super::App;
use crate::referee::ended;
use crate::replay::RecordedEnd;
use crate::tui::speed::Rate;
use std::time::Duration;

impl App {
    pub(super) fn seek_pieces(&mut self, pieces: i32) {
        if let Some(playback) = &self.playback {
            let target = playback.seek_pieces(self.ticks, pieces);
            self.seek(target);
        }
    }

    pub(super) fn seek(&mut self, tick: u64) {
        let Some(playback) = &self.playback else {
            return;
        };
        let max_pieces = self.session.setup.max_pieces;
        self.ticks = tick.min(playback.len());
        for (side, tracked) in self.sides.iter_mut().zip(playback.at(tick)) {
            side.end = ended(tracked.game(), max_pieces).map(RecordedEnd::from);
            side.tracked = tracked;
        }
        self.due = Duration::ZERO;
        self.rate = Rate::default();
        self.check_replay_end();
    }

    /// In a replay, the games end where the recorded ticks run out, as the file says
    /// where the rules do not (a win, a forfeit, a game stopped unfinished).
    pub(super) fn check_replay_end(&mut self) {
        let Some(playback) = &self.playback else {
            return;
        };
        let max_pieces = self.session.setup.max_pieces;
        let over = self.ticks >= playback.len();
        for (seat, side) in self.sides.iter_mut().enumerate() {
            if let Some(end) = ended(side.tracked.game(), max_pieces) {
                side.end = Some(end.into());
            } else if over {
                side.end = Some(playback.replay().seats[seat].result.end);
            }
        }
    }
}

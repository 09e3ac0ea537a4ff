//! What the screen shows of the app: read-only views for the drawing code and tests.

use super::{App, Driver, Side};
use crate::engine::Stats;
use crate::replay::{PlayerRecord, RecordedEnd};
use crate::tracked::Tracked;
use crate::tui::keys::Mode;
use crate::tui::speed::Speed;

impl App {
    /// Which screen this is.
    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// The boards: one, or two in versus, left to right.
    pub fn sides(&self) -> &[Side] {
        &self.sides
    }

    /// The board the plugin keys act on.
    pub fn selected(&self) -> usize {
        self.selected
    }

    /// The first board's game and its cell colours.
    pub fn tracked(&self) -> &Tracked {
        self.sides[0].tracked()
    }

    /// The first board's totals.
    pub fn stats(&self) -> Stats {
        self.sides[0].stats()
    }

    /// How the first board's game ended, once it has.
    pub fn end(&self) -> Option<RecordedEnd> {
        self.sides[0].end()
    }

    /// The first board's plugin error, or what stalled.
    pub fn error(&self) -> Option<&str> {
        self.sides[0].error()
    }

    /// The seed of the game on screen.
    pub fn game_seed(&self) -> u64 {
        self.game_seed
    }

    /// Who plays board `board` now: the plugin's name and version, `you`, or the replay's
    /// player.
    pub fn player(&self, board: usize) -> String {
        let side = &self.sides[board];
        match &side.driver {
            Driver::Plugin(seat) => {
                let info = self.roster.plugin(seat.index()).info();
                format!("{} {}", info.name, info.version)
            }
            Driver::Person => "you".to_string(),
            Driver::Bot => self.live_bot_label().unwrap_or_default(),
            Driver::Replay(seat) => self
                .playback
                .as_ref()
                .and_then(|playback| playback.replay().seats[*seat].player_at(side.stats().ticks))
                .map_or_else(|| "unknown".to_string(), PlayerRecord::label),
        }
    }

    /// For a plugin's board, the plugin's place among the loaded ones: (index, count).
    pub fn plugin_slot(&self, board: usize) -> Option<(usize, usize)> {
        match &self.sides[board].driver {
            Driver::Plugin(seat) => Some((seat.index(), self.roster.len())),
            _ => None,
        }
    }

    /// In a replay: the tick on screen and the number of ticks.
    pub fn progress(&self) -> Option<(u64, u64)> {
        self.playback.as_ref().map(|playback| (self.ticks, playback.len()))
    }

    /// Pieces per second of play, over the last two seconds.
    pub fn pieces_per_second(&self) -> Option<f64> {
        self.rate.per_second()
    }

    /// The speed setting.
    pub fn speed(&self) -> Speed {
        self.speed
    }

    /// Whether the game is paused.
    pub fn paused(&self) -> bool {
        self.paused
    }

    /// Whether the keys are shown.
    pub fn help_shown(&self) -> bool {
        self.help
    }

    /// The text typed so far, while asking for a plugin to open.
    pub fn prompt(&self) -> Option<&str> {
        self.prompt.as_deref()
    }

    /// The last message for the status line.
    pub fn status(&self) -> Option<&str> {
        self.status.as_deref()
    }

    /// Whether the user asked to leave.
    pub fn should_quit(&self) -> bool {
        self.quit
    }
}

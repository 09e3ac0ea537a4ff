//! What the screen shows of the app: read-only views for the drawing code and tests.

use super::{App, Driver};
use crate::engine::Stats;
use crate::replay::{PlayerRecord, RecordedEnd};
use crate::tui::keys::Mode;
use crate::tui::speed::Speed;
use crate::tui::tracked::Tracked;

impl App {
    /// Which screen this is.
    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// The game and its cell colours.
    pub fn tracked(&self) -> &Tracked {
        &self.tracked
    }

    /// The game's totals.
    pub fn stats(&self) -> Stats {
        self.tracked.game().stats()
    }

    /// The seed of the game on screen.
    pub fn game_seed(&self) -> u64 {
        self.game_seed
    }

    /// Who plays now: the plugin's name and version, `you`, or the replay's player.
    pub fn player(&self) -> String {
        match &self.driver {
            Driver::Demo(pilots) => {
                let info = pilots.current().info();
                format!("{} {}", info.name, info.version)
            }
            Driver::Play => "you".to_string(),
            Driver::Replay(playback) => playback
                .replay()
                .player_at(self.stats().ticks)
                .map_or_else(|| "unknown".to_string(), PlayerRecord::label),
        }
    }

    /// In a demo, the playing plugin's place among the loaded ones: (index, count).
    pub fn plugin_slot(&self) -> Option<(usize, usize)> {
        match &self.driver {
            Driver::Demo(pilots) => Some((pilots.index(), pilots.count())),
            _ => None,
        }
    }

    /// Mean microseconds per `update` of the playing instance.
    pub fn update_us(&self) -> Option<f64> {
        match &self.driver {
            Driver::Demo(pilots) => pilots.update_us(),
            _ => None,
        }
    }

    /// Protocol violations of the playing instance.
    pub fn violations(&self) -> u64 {
        match &self.driver {
            Driver::Demo(pilots) => pilots.violations(),
            _ => 0,
        }
    }

    /// In a replay: the tick on screen and the number of ticks.
    pub fn progress(&self) -> Option<(u64, u64)> {
        match &self.driver {
            Driver::Replay(playback) => Some((self.stats().ticks, playback.len())),
            _ => None,
        }
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

    /// How the game ended, once it has.
    pub fn end(&self) -> Option<RecordedEnd> {
        self.end
    }

    /// The plugin's error, or what stalled.
    pub fn error(&self) -> Option<&str> {
        self.error.as_deref()
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

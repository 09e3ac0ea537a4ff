//! A seat's pace in a live game, as both faces (the terminal and the browser) show it
//! under each board.

use crate::engine::Game;

/// A seat's pace so far: pieces a second, garbage rows sent a minute (APM), and sent a
/// second times 100 (VS; TETR.IO also counts garbage cleared, which the engine does not
/// count apart, so this VS counts attack alone).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rates {
    /// Pieces a second.
    pub pps: f64,
    /// Rows of garbage sent a minute.
    pub apm: f64,
    /// Rows sent a second, times 100.
    pub vs: f64,
}

impl Rates {
    /// `game`'s pace over `seconds` of play; all zero before any time has passed.
    pub fn of(game: &Game, seconds: f64) -> Rates {
        let sent = game.garbage().map_or(0, |garbage| garbage.sent) as f64;
        let per = |n: f64| if seconds > 0.0 { n / seconds } else { 0.0 };
        Rates {
            pps: per(game.stats().pieces as f64),
            apm: per(sent) * 60.0,
            vs: per(sent) * 100.0,
        }
    }
}

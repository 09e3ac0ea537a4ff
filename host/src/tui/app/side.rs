//! One board of the screen and who plays it; the session the boards are dealt from.

use super::super::pilots::PluginSeat;
use crate::engine::{Game, Stats};
use crate::referee::Referee;
use crate::replay::{Outcome, RecordedEnd};
use crate::setup::Setup;
use crate::tracked::Tracked;
use std::path::PathBuf;

/// What a screen plays: the setup of its games, the seeds, and where to record. With an
/// attack table in the setup, it plays versus: two boards, garbage between them.
#[derive(Clone, Debug)]
pub struct Session {
    /// The rules, pieces, piece cap, limits and attack table of every game.
    pub setup: Setup,
    /// The session's seed: its k-th new seed plays the pieces of game k of `tetrad run`
    /// with this seed.
    pub seed: u64,
    /// Save each game's replay here (the file holds the last game played).
    pub record: Option<PathBuf>,
}

impl Session {
    /// Whether the session plays versus.
    pub fn is_versus(&self) -> bool {
        self.setup.attack.is_some()
    }

    /// The game of seed `seed` under the session's setup, taking garbage in versus.
    pub(super) fn deal(&self, seed: u64) -> Tracked {
        let setup = &self.setup;
        let mut game = Game::new(setup.rules, setup.pieces.clone(), seed);
        if let Some(attack) = &setup.attack {
            game.enable_garbage(attack.clone(), seed);
        }
        if let Some(timing) = setup.timing {
            // Checked when the session was made: guideline, one board.
            let _ = game.enable_timing(timing);
        }
        Tracked::new(game)
    }
}

/// Who plays a board.
pub(super) enum Driver {
    /// A plugin of the roster.
    Plugin(Box<PluginSeat>),
    /// The person at the keyboard.
    Person,
    /// The recorded actions of this seat of the replay.
    Replay(usize),
    /// The bot of a live game, which plays it.
    Bot,
}

/// The referee of a board: a plugin is judged as in headless games, under the setup's
/// limits; a person, and a replay, which ends where its recorded ticks do, only by the
/// game itself.
pub(super) fn referee_for(driver: &Driver, setup: &Setup) -> Referee {
    match driver {
        Driver::Plugin(_) => Referee::new(&setup.rules, setup.max_pieces, setup.limits),
        // A live game's referee is the live game's.
        Driver::Person | Driver::Replay(_) | Driver::Bot => Referee::for_person(setup.max_pieces),
    }
}

/// One board on the screen: its game, who plays it, and how its game ended.
pub struct Side {
    pub(super) tracked: Tracked,
    pub(super) driver: Driver,
    /// Decides when the game ends, as in headless games.
    pub(super) referee: Referee,
    pub(super) end: Option<RecordedEnd>,
    pub(super) error: Option<String>,
}

impl Side {
    pub(super) fn new(driver: Driver, session: &Session, seed: u64) -> Side {
        Side {
            tracked: session.deal(seed),
            referee: referee_for(&driver, &session.setup),
            driver,
            end: None,
            error: None,
        }
    }

    /// The game and its cell colours.
    pub fn tracked(&self) -> &Tracked {
        &self.tracked
    }

    /// The game's totals.
    pub fn stats(&self) -> Stats {
        self.tracked.game().stats()
    }

    /// How the game ended, once it has.
    pub fn end(&self) -> Option<RecordedEnd> {
        self.end
    }

    /// The plugin's error, or what stalled.
    pub fn error(&self) -> Option<&str> {
        self.error.as_deref()
    }

    /// Mean microseconds per `update` of the playing instance, for a plugin.
    pub fn update_us(&self) -> Option<f64> {
        match &self.driver {
            Driver::Plugin(seat) => seat.update_us(),
            _ => None,
        }
    }

    /// Protocol violations of the playing instance.
    pub fn violations(&self) -> u64 {
        match &self.driver {
            Driver::Plugin(seat) => seat.violations(),
            _ => 0,
        }
    }

    /// The garbage rows waiting to rise, sent and received, in versus.
    pub fn garbage(&self) -> Option<Garbage> {
        self.tracked.game().garbage().map(|garbage| Garbage {
            pending: garbage.pending(),
            sent: garbage.sent,
            received: garbage.received,
        })
    }

    pub(super) fn finish(&mut self, end: RecordedEnd, error: Option<String>) {
        self.end = Some(end);
        self.error = error;
    }

    pub(super) fn outcome(&self) -> Outcome {
        Outcome::of_game(self.tracked.game(), self.end.unwrap_or(RecordedEnd::Unfinished))
    }
}

/// A board's garbage, as the screen shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Garbage {
    /// Rows waiting to rise when the board's piece locks.
    pub pending: u32,
    /// Rows sent to the opponent after cancelling.
    pub sent: u64,
    /// Rows risen into the board.
    pub received: u64,
}

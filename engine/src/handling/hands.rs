//! A person's hands on a timed game: their key events through the [`Handler`], and the
//! game's own events (rows falling, locks by delay), played in the order of their times.
//! At one moment the game's events come first, then the person's commands. A command is
//! one or more ticks of the engine, each recorded with its time.

use super::{Command, Handler, Handling, KeyEvent, SoftDrop, Timed};
use crate::engine::{Game, TickReport};
use tetrad_plugin_api::Actions;

/// What happened at one moment: a tick the person played, or a lock the game's timing
/// brought.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Played {
    /// When, in microseconds from the game's start.
    pub time_us: u64,
    /// The tick's actions; `None` for a lock by the lock delay.
    pub actions: Option<Actions>,
    /// What it did.
    pub report: TickReport,
}

/// One person's handling, playing on a game under timing rules.
#[derive(Clone, Debug)]
pub struct Hands {
    handler: Handler,
}

impl Hands {
    /// Hands with this handling and no key down.
    pub fn new(handling: Handling) -> Hands {
        Hands {
            handler: Handler::new(handling),
        }
    }

    /// The handling.
    pub fn handling(&self) -> &Handling {
        self.handler.handling()
    }

    /// Where the handler is between events.
    pub fn handler(&self) -> &Handler {
        &self.handler
    }

    /// When something next happens by itself (a repeated shift, a row falling, a lock):
    /// the latest time to call [`Hands::until`] with.
    pub fn next_event_us(&self, game: &Game) -> Option<u64> {
        match (self.handler.next_due_us(), game.next_event_us()) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// Plays `event` on `game`: what fell due before it, then its commands.
    pub fn key(&mut self, game: &mut Game, event: &KeyEvent) -> Vec<Played> {
        let commands = self.handler.key(event);
        let mut out = Vec::new();
        self.play(game, commands, &mut out);
        self.advance(game, event.time_us, &mut out);
        out
    }

    /// Plays on `game` what falls due by `time_us`.
    pub fn until(&mut self, game: &mut Game, time_us: u64) -> Vec<Played> {
        let commands = self.handler.until(time_us);
        let mut out = Vec::new();
        self.play(game, commands, &mut out);
        self.advance(game, time_us, &mut out);
        out
    }

    fn play(&mut self, game: &mut Game, commands: Vec<Timed>, out: &mut Vec<Played>) {
        for (time, command) in commands {
            self.advance(game, time, out);
            self.command(game, time, command, out);
        }
    }

    /// The game's own events up to `time`; after each lock, a shift held to the wall
    /// takes the new piece there.
    fn advance(&mut self, game: &mut Game, time: u64, out: &mut Vec<Played>) {
        while let Some(report) = game.advance(time) {
            let at = game.now_us().unwrap_or(time);
            out.push(Played {
                time_us: at,
                actions: None,
                report,
            });
            self.entered(game, at, out);
        }
    }

    fn entered(&mut self, game: &mut Game, time: u64, out: &mut Vec<Played>) {
        if let Some(direction) = self.handler.charged_to_wall() {
            self.command(game, time, Command::ShiftToWall(direction), out);
        }
    }

    /// Plays one command at `time` as the ticks it takes.
    fn command(&mut self, game: &mut Game, time: u64, command: Command, out: &mut Vec<Played>) {
        let (actions, repeat) = match command {
            Command::Shift(direction) => (Actions::shifting(direction), 1),
            Command::ShiftToWall(direction) => (Actions::shifting(direction), game.rules().width),
            Command::Turn(2) => (Actions::CW, 2),
            Command::Turn(direction) => (Actions::turning(direction), 1),
            Command::HardDrop => (Actions::DROP, 1),
            Command::Hold => (Actions::HOLD, 1),
            Command::SoftDrop(false) => {
                game.set_soft_drop(None);
                return;
            }
            Command::SoftDrop(true) => match self.handler.handling().soft_drop {
                SoftDrop::Factor(factor) => {
                    game.set_soft_drop(Some(factor));
                    return;
                }
                SoftDrop::Instant => {
                    // Held, it keeps the next pieces on the floor too.
                    game.set_soft_drop(Some(u32::MAX));
                    (Actions::SOFT_DROP, 1)
                }
            },
        };
        for _ in 0..repeat {
            let Some(before) = game.current().filter(|_| !game.is_over()) else {
                return;
            };
            let report = game.tick(actions);
            out.push(Played {
                time_us: time,
                actions: Some(actions),
                report,
            });
            if report.locked.is_some() {
                self.entered(game, time, out);
                return;
            }
            if game.current() == Some(before) {
                // A shift to the wall stops at it.
                return;
            }
        }
    }
}

//! A game under timing rules: gravity and lock delay applied at the times the game is
//! told. The engine reads no clock: [`Game::advance`] moves its time forward and plays what
//! fell due by then, each event at its own time, so advancing in one step or in many gives
//! the same game; [`Game::tick`] then plays the player's actions at that time.
//!
//! The lock delay and its move reset, exactly: a piece that comes to rest locks the lock
//! delay later; a shift or turn that succeeds while it rests restarts that delay, at most
//! `move_reset_limit` times; reaching a row lower than any it reached before gives all
//! the resets back. Once they are spent, the delay runs on through moves, and a piece that
//! comes to rest again (not on a new lowest row) locks at once.

use super::{Game, TickReport, Timing, TimingError};
use tetrad_plugin_api::{PiecePos, Preset, Step};

/// The time, and what the falling piece is waiting for.
#[derive(Clone, Debug)]
pub(super) struct Clock {
    timing: Timing,
    /// Microseconds from the game's start.
    now_us: u64,
    /// While the piece hangs in the air: when its next row falls.
    fall_at_us: Option<u64>,
    /// While it rests: when it locks.
    lock_at_us: Option<u64>,
    /// Move resets used since the piece entered or last reached a new lowest row.
    resets: u32,
    /// The lowest row the piece reached (rows count down from the top).
    lowest_y: i8,
    /// While a soft drop is held: how many times faster than gravity the piece falls.
    soft_drop: Option<u32>,
}

impl Game {
    /// Plays this game under `timing`, its time 0 now: the falling piece starts to fall.
    /// Refused under presets other than `guideline`, whose pieces fall by ticks.
    pub fn enable_timing(&mut self, timing: Timing) -> Result<(), TimingError> {
        if self.rules.preset != Preset::Guideline {
            return Err(TimingError::Preset(self.rules.preset.name().to_string()));
        }
        timing.check()?;
        self.clock = Some(Box::new(Clock {
            timing,
            now_us: 0,
            fall_at_us: None,
            lock_at_us: None,
            resets: 0,
            lowest_y: 0,
            soft_drop: None,
        }));
        self.clock_entered();
        Ok(())
    }

    /// The timing rules the game plays under, if any.
    pub fn timing(&self) -> Option<Timing> {
        self.clock.as_ref().map(|clock| clock.timing)
    }

    /// Under timing rules, the game's time in microseconds from its start.
    pub fn now_us(&self) -> Option<u64> {
        self.clock.as_ref().map(|clock| clock.now_us)
    }

    /// Under timing rules, when the falling piece next falls a row or locks by itself, if
    /// nothing else happens first: the time to call [`Game::advance`] with.
    pub fn next_event_us(&self) -> Option<u64> {
        let clock = self.clock.as_ref().filter(|_| self.current.is_some() && !self.over)?;
        clock.lock_at_us.or(clock.fall_at_us)
    }

    /// Moves the game's time forward to `to_us` (never back), playing the rows that fall
    /// and the lock that comes due by then, each at its own time. Stops at a lock, with
    /// the game's time at the lock and the next piece in, and returns it: call again
    /// until it returns `None`. Without timing rules it does nothing.
    pub fn advance(&mut self, to_us: u64) -> Option<TickReport> {
        loop {
            let falling = self.current.filter(|_| !self.over);
            let clock = self.clock.as_deref_mut()?;
            let Some(mut falling) = falling else {
                clock.now_us = clock.now_us.max(to_us);
                return None;
            };
            match (clock.lock_at_us, clock.fall_at_us) {
                (Some(lock), _) if lock <= to_us => {
                    clock.now_us = clock.now_us.max(lock);
                    return Some(self.lock(falling));
                }
                (None, Some(fall)) if fall <= to_us => {
                    clock.now_us = clock.now_us.max(fall);
                    clock.fall_at_us = None;
                    falling.pos.y += 1;
                    self.current = Some(falling);
                    self.last_kick = None;
                    self.clock_settle(false);
                }
                _ => {
                    clock.now_us = clock.now_us.max(to_us);
                    return None;
                }
            }
        }
    }

    /// Holds (`Some(factor)`: the piece falls `factor` times faster than gravity) or
    /// releases (`None`) a soft drop at the game's time. Without timing rules, or with a
    /// factor of 0, it does nothing.
    pub fn set_soft_drop(&mut self, factor: Option<u32>) {
        let level = self.stats.level();
        let Some(clock) = self.clock.as_deref_mut() else {
            return;
        };
        clock.soft_drop = factor.filter(|&factor| factor > 0);
        if clock.fall_at_us.is_some() {
            // The new rate counts from now.
            clock.fall_at_us = Some(clock.now_us + clock.row_us(level));
        }
    }

    /// A piece entered (or the game ended): its delays start now.
    pub(super) fn clock_entered(&mut self) {
        let lowest = self.current.map_or(0, |falling| falling.pos.y);
        if let Some(clock) = self.clock.as_deref_mut() {
            clock.resets = 0;
            clock.lowest_y = lowest;
            clock.fall_at_us = None;
            clock.lock_at_us = None;
        }
        self.clock_settle(false);
    }

    /// After a tick that moved the piece from `before` without locking it: a move or turn
    /// of a resting piece restarts the lock delay while resets are left, and a piece that
    /// comes to rest with none left locks at once.
    pub(super) fn clock_moved(&mut self, before: PiecePos, moved: Step) -> TickReport {
        let Some(falling) = self.current else {
            return TickReport::default();
        };
        let shape = self.pieces.kind(falling.piece).orientation(before.orientation);
        let rested = self.board.rests(shape, before.x, before.y);
        let Some(clock) = self.clock.as_deref_mut() else {
            return TickReport::default();
        };
        let restart = rested && (moved.shifted || moved.turned) && clock.resets < clock.timing.move_reset_limit;
        if restart {
            clock.resets += 1;
            clock.lock_at_us = None;
        }
        self.clock_settle(restart);
        match self.clock.as_deref() {
            Some(clock) if clock.lock_at_us.is_some_and(|lock| lock <= clock.now_us) => self.lock(falling),
            _ => TickReport::default(),
        }
    }

    /// Brings the delays in line with where the piece is, at the game's time: a new lowest
    /// row gives the resets back; a resting piece waits to lock (at once if it came to
    /// rest with its resets spent, unless `restarted` by a move); a piece in the air
    /// waits to fall.
    fn clock_settle(&mut self, restarted: bool) {
        let level = self.stats.level();
        let (Some(falling), Some(clock)) = (self.current, self.clock.as_deref_mut()) else {
            return;
        };
        if falling.pos.y > clock.lowest_y {
            clock.lowest_y = falling.pos.y;
            clock.resets = 0;
        }
        let shape = self.pieces.kind(falling.piece).orientation(falling.pos.orientation);
        if self.board.rests(shape, falling.pos.x, falling.pos.y) {
            clock.fall_at_us = None;
            if clock.lock_at_us.is_none() {
                let spent = !restarted && clock.resets >= clock.timing.move_reset_limit;
                let delay = if spent { 0 } else { clock.timing.lock_delay_us() };
                clock.lock_at_us = Some(clock.now_us + delay);
            }
        } else {
            clock.lock_at_us = None;
            if clock.fall_at_us.is_none() {
                clock.fall_at_us = Some(clock.now_us + clock.row_us(level));
            }
        }
    }
}

impl Clock {
    /// Microseconds a row takes at `level`, under a held soft drop too.
    fn row_us(&self, level: u32) -> u64 {
        let row = self.timing.gravity.row_us(level);
        match self.soft_drop {
            Some(factor) => (row / u64::from(factor)).max(1),
            None => row,
        }
    }
}

/// A falling piece, for the tests' convenience.
#[cfg(test)]
pub(super) fn position(game: &Game) -> Option<PiecePos> {
    game.current().map(|falling| falling.pos)
}

#[cfg(test)]
#[path = "clock_tests.rs"]
mod tests;

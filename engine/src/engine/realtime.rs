//! The realtime pace's rules of time, which order events and never change them: when a
//! seat's tick happens (its thinking, its path played at a set [`Speed`]), and when the
//! garbage between seats may rise ([`Deliveries`]). The engine itself reads no clock; the
//! game loop measures the thinking, and replay checks read the recorded times.

use super::{Game, GarbageRules};
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

/// How fast a seat plays its paths under the realtime pace.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Speed {
    /// Most pieces a second: a lock comes no sooner than `1/pps` seconds after the seat's
    /// previous lock. `None`: no limit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pps: Option<f64>,
    /// Milliseconds each tick of a path takes (a shift, a turn, a step down, a hold, the
    /// drop). 0: a path takes no time.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub move_ms: f64,
}

fn is_zero(value: &f64) -> bool {
    *value == 0.0
}

// The numbers are always finite (they are checked where they are read).
impl Eq for Speed {}

impl Speed {
    /// Whether this is the default speed (no limit, paths free), which files leave out.
    pub fn is_free(&self) -> bool {
        *self == Speed::default()
    }

    /// Checks values read from a file or the command line.
    pub fn check(&self) -> Result<(), String> {
        if let Some(pps) = self.pps.filter(|pps| !(pps.is_finite() && *pps > 0.0)) {
            return Err(format!("a pieces-per-second limit of {pps} is not a positive number"));
        }
        if !(self.move_ms.is_finite() && self.move_ms >= 0.0) {
            return Err(format!(
                "a move time of {} ms is not a number of milliseconds >= 0",
                self.move_ms
            ));
        }
        Ok(())
    }

    /// The time a tick of a path takes, in microseconds.
    pub fn move_us(&self) -> u64 {
        (self.move_ms * 1000.0).round() as u64
    }

    /// The least time between two locks of a seat, in microseconds (rounded up, so the
    /// limit is never exceeded).
    pub fn lock_gap_us(&self) -> u64 {
        self.pps.map_or(0, |pps| (1e6 / pps).ceil() as u64)
    }

    /// When a seat's tick happens, in microseconds from the game's start: after its
    /// previous tick at `previous_us`, the `think_us` its player spent deciding it (0 for
    /// a tick of a path already decided) and the move time; a tick that `locks` no sooner
    /// than the lock gap after the seat's previous lock (`last_lock_us`, if any).
    pub fn tick_time(&self, previous_us: u64, think_us: u64, locks: bool, last_lock_us: Option<u64>) -> u64 {
        let moved = previous_us.saturating_add(think_us).saturating_add(self.move_us());
        match last_lock_us.filter(|_| locks) {
            Some(last) => moved.max(last.saturating_add(self.lock_gap_us())),
            None => moved,
        }
    }
}

impl std::fmt::Display for Speed {
    /// `pps 2.5, move 10 ms`: the parts that are set.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut parts = Vec::new();
        if let Some(pps) = self.pps {
            parts.push(format!("pps {pps}"));
        }
        if self.move_ms > 0.0 {
            parts.push(format!("move {} ms", self.move_ms));
        }
        f.write_str(&parts.join(", "))
    }
}

/// The garbage between the seats of a realtime game: rows sent at a tick are delivered at
/// once to the next seat's queue (where they can be cancelled and the bot sees them), and
/// a batch may rise only at a lock at least the garbage delay (milliseconds, under this
/// pace) after it arrived.
#[derive(Clone, Debug)]
pub struct Deliveries {
    delay_us: u64,
    /// For each seat, when each batch in its queue arrived, oldest first.
    arrivals: Vec<VecDeque<u64>>,
}

impl Deliveries {
    /// The deliveries of a game of `seats` seats under `garbage`, whose delay counts
    /// milliseconds.
    pub fn new(seats: usize, garbage: &GarbageRules) -> Deliveries {
        Deliveries {
            delay_us: u64::from(garbage.delay) * 1000,
            arrivals: vec![VecDeque::new(); seats],
        }
    }

    /// The garbage rules the engine plays under this pace: the delay is counted here, in
    /// time, not in the receiver's locks.
    pub fn engine_rules(garbage: &GarbageRules) -> GarbageRules {
        GarbageRules { delay: 0, ..*garbage }
    }

    /// The seat after `seat`, which its garbage goes to.
    pub fn receiver(&self, seat: usize) -> usize {
        (seat + 1) % self.arrivals.len()
    }

    /// `rows` sent at `time_us` arrive in the queue of `seat`'s `game`.
    pub fn deliver(&mut self, seat: usize, game: &mut Game, rows: u32, time_us: u64) {
        if rows == 0 {
            return;
        }
        game.receive(rows);
        if self.delay_us > 0 {
            self.arrivals[seat].push_back(time_us);
        }
    }

    /// Before `seat`'s tick at `time_us`: only the batches that have waited the delay may
    /// rise if the tick locks.
    pub fn before_tick(&mut self, seat: usize, game: &mut Game, time_us: u64) {
        if self.delay_us == 0 {
            return;
        }
        let Some(garbage) = game.garbage_mut() else {
            return;
        };
        // Batches leave the queue from its front only (cancelled or risen), so the
        // arrivals of those still waiting are the last ones.
        let arrivals = &mut self.arrivals[seat];
        while arrivals.len() > garbage.batches() {
            arrivals.pop_front();
        }
        let ready = arrivals
            .iter()
            .take_while(|&&arrived| arrived.saturating_add(self.delay_us) <= time_us)
            .count();
        garbage.hold_after(ready);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::AttackTable;
    use std::sync::Arc;
    use tetrad_plugin_api::{Actions, PieceSet, Preset, Rules};

    #[test]
    fn a_tick_waits_for_its_thinking_and_move_and_a_lock_for_the_pps_limit() {
        let speed = Speed {
            pps: Some(4.0),
            move_ms: 2.0,
        };
        assert_eq!((speed.move_us(), speed.lock_gap_us()), (2_000, 250_000));
        // A step of a path: the move time alone.
        assert_eq!(speed.tick_time(10_000, 0, false, Some(0)), 12_000);
        // A decision: its thinking first.
        assert_eq!(speed.tick_time(10_000, 5_000, false, Some(0)), 17_000);
        // A lock too soon after the last waits for the limit; the first lock does not.
        assert_eq!(speed.tick_time(10_000, 0, true, Some(100_000)), 350_000);
        assert_eq!(speed.tick_time(10_000, 0, true, None), 12_000);
        assert_eq!(speed.tick_time(400_000, 0, true, Some(100_000)), 402_000);
        let thirds = Speed {
            pps: Some(3.0),
            move_ms: 0.0,
        };
        assert_eq!(thirds.lock_gap_us(), 333_334, "rounded up, never faster than the limit");
        assert_eq!(Speed::default().tick_time(7, 0, true, Some(7)), 7);
    }

    #[test]
    fn speeds_out_of_range_are_refused() {
        for (pps, move_ms) in [
            (Some(0.0), 0.0),
            (Some(-1.0), 0.0),
            (Some(f64::INFINITY), 0.0),
            (None, -0.5),
        ] {
            assert!(Speed { pps, move_ms }.check().is_err(), "{pps:?} {move_ms}");
        }
        assert!(Speed {
            pps: Some(0.5),
            move_ms: 0.0
        }
        .check()
        .is_ok());
    }

    #[test]
    fn a_batch_rises_only_at_a_lock_the_delay_after_it_arrived() {
        let rules = Rules::preset(Preset::Classic);
        let garbage = GarbageRules {
            delay: 100,
            ..GarbageRules::default()
        };
        let mut game = Game::new(rules, Arc::new(PieceSet::tetrominoes()), 3);
        game.enable_garbage_with(AttackTable::default(), Deliveries::engine_rules(&garbage), 3);
        let mut deliveries = Deliveries::new(2, &garbage);
        assert_eq!(deliveries.receiver(1), 0);
        deliveries.deliver(0, &mut game, 2, 50_000);
        deliveries.deliver(0, &mut game, 1, 120_000);
        let lock = |game: &mut Game, deliveries: &mut Deliveries, time| {
            deliveries.before_tick(0, game, time);
            let pieces = game.stats().pieces;
            while game.stats().pieces == pieces {
                game.tick(Actions::DROP);
            }
            game.garbage().map(|g| g.received)
        };
        // At 149 ms neither batch has waited 100 ms: nothing rises, both can be seen.
        assert_eq!(lock(&mut game, &mut deliveries, 149_000), Some(0));
        assert_eq!(game.garbage().map(|g| g.pending()), Some(3));
        // At 150 ms the first has.
        assert_eq!(lock(&mut game, &mut deliveries, 150_000), Some(2));
        assert_eq!(lock(&mut game, &mut deliveries, 219_999), Some(2));
        assert_eq!(lock(&mut game, &mut deliveries, 220_000), Some(3));
    }
}

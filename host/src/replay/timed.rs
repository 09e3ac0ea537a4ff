//! Checking a replay at the realtime pace: the seats' ticks played in the order of their
//! recorded times, the garbage delivered as it was sent, and the times themselves checked
//! against the setup's speed and against the game's one end.

use super::{RecordedEnd, Replay, ReplayError, Watcher};
use crate::engine::{Deliveries, Game};
use crate::referee::ended;
use tetrad_plugin_api::Actions;

impl Replay {
    /// Plays every seat's ticks in the order of their times (seat order at the same
    /// microsecond), as the game loop played them. Each tick must come at least the move
    /// time after the seat's previous one (or the start), and each lock at least the lock
    /// gap of the pieces-per-second limit after the seat's previous lock.
    pub(super) fn play_timed(&self, games: &mut [Game], watcher: &mut dyn Watcher) -> Result<(), ReplayError> {
        let setup = &self.setup;
        let speed = setup.speed;
        let mut times = Vec::with_capacity(self.seats.len());
        for (index, seat) in self.seats.iter().enumerate() {
            let (Some(ticks), Some(_)) = (&seat.times_us, seat.end_us) else {
                return Err(self.mismatch(
                    index,
                    "a game at the realtime pace records each tick's time and its end's (`times_us`, `end_us`); this seat does not".to_string(),
                ));
            };
            if ticks.len() != seat.actions.len() {
                return Err(self.mismatch(index, format!("{} ticks but {} times", seat.actions.len(), ticks.len())));
            }
            times.push(ticks.as_slice());
        }
        let mut deliveries = Deliveries::new(games.len(), &setup.garbage);
        let mut played = vec![0usize; games.len()];
        let mut previous_us = vec![0u64; games.len()];
        let mut last_lock_us: Vec<Option<u64>> = vec![None; games.len()];
        while let Some(index) = (0..games.len())
            .filter(|&i| played[i] < times[i].len())
            .min_by_key(|&i| (times[i][played[i]], i))
        {
            let tick = played[index];
            let time = times[index][tick];
            let bits = self.seats[index].actions[tick];
            let since = time.checked_sub(previous_us[index]);
            if since.is_none_or(|since| since < speed.move_us()) {
                return Err(self.mismatch(
                    index,
                    format!(
                        "tick {tick} at {time} µs comes before {} µs, its previous tick's time ({} µs) and the move time ({} µs)",
                        previous_us[index].saturating_add(speed.move_us()),
                        previous_us[index],
                        speed.move_us()
                    ),
                ));
            }
            let game = &mut games[index];
            if let Some(end) = ended(game, setup.max_pieces) {
                return Err(self.mismatch(
                    index,
                    format!(
                        "the game ended ({}) after tick {tick}, but the replay has {} ticks",
                        end.name(),
                        times[index].len()
                    ),
                ));
            }
            let actions = Actions(bits);
            if actions.is_unplayable() {
                return Err(self.mismatch(
                    index,
                    format!("tick {tick} holds {actions:?}, which no player can have applied"),
                ));
            }
            deliveries.before_tick(index, game, time);
            let pieces = game.stats().pieces;
            let report = game.tick(actions);
            watcher.tick(index, actions, &report, game);
            if game.stats().pieces != pieces {
                if let Some(last) = last_lock_us[index].filter(|&last| time < last.saturating_add(speed.lock_gap_us()))
                {
                    return Err(self.mismatch(
                        index,
                        format!(
                            "the lock at tick {tick} ({time} µs) comes {} µs after the previous lock; {} allows one every {} µs",
                            time - last,
                            speed,
                            speed.lock_gap_us()
                        ),
                    ));
                }
                last_lock_us[index] = Some(time);
            }
            previous_us[index] = time;
            played[index] += 1;
            let rows = game.take_outgoing();
            let to = deliveries.receiver(index);
            deliveries.deliver(to, &mut games[to], rows, time);
            watcher.round_over(games);
        }
        Ok(())
    }

    /// Checks the seats' end times: the game ends at one moment for every seat, after
    /// every seat's last tick; a seat whose rules ended it (a top-out, a stall) ended at
    /// its last tick, and a tick of another seat at that same moment was played before it,
    /// so comes from a seat before it.
    pub(super) fn check_end_times(&self) -> Result<(), ReplayError> {
        let end_of = |index: usize| self.seats[index].end_us.unwrap_or_default();
        let end = end_of(0);
        for (index, seat) in self.seats.iter().enumerate() {
            if end_of(index) != end {
                return Err(ReplayError::Mismatch(format!(
                    "seat {} ended at {} µs and seat 1 at {end} µs: the seats of a realtime game end together",
                    index + 1,
                    end_of(index)
                )));
            }
            let last = seat.times_us.as_deref().and_then(<[u64]>::last).copied();
            if last.is_some_and(|last| last > end) {
                return Err(self.mismatch(
                    index,
                    format!(
                        "a tick at {} µs, after the game ended at {end} µs",
                        last.unwrap_or_default()
                    ),
                ));
            }
            let by_its_tick = matches!(seat.result.end, RecordedEnd::ToppedOut | RecordedEnd::Stalled);
            if by_its_tick && last.is_some_and(|last| last != end) {
                return Err(self.mismatch(
                    index,
                    format!(
                        "ended {} at {end} µs, but its last tick was at {} µs",
                        seat.result.end.name(),
                        last.unwrap_or_default()
                    ),
                ));
            }
            if by_its_tick {
                let later_at_end = self.seats.iter().enumerate().skip(index + 1).find(|(_, other)| {
                    other.result.end == RecordedEnd::Won
                        && other.times_us.as_deref().and_then(<[u64]>::last) == Some(&end)
                });
                if let Some((other, _)) = later_at_end {
                    return Err(ReplayError::Mismatch(format!(
                        "seat {} played a tick at {end} µs, the moment seat {} ended, which comes first in seat order",
                        other + 1,
                        index + 1
                    )));
                }
            }
        }
        Ok(())
    }
}

//! Checking a replay at the realtime pace: the seats' ticks played in the order of their
//! recorded times, the garbage delivered as it was sent, and the times themselves checked
//! against the setup's speed and against the game's one end.

use super::hands::Person;
use super::{RecordedEnd, Replay, ReplayError, Watcher};
use crate::engine::{Deliveries, Game, Timing};
use crate::referee::{ended, Limits, Referee};
use tetrad_plugin_api::Actions;

impl Replay {
    /// Plays every seat's ticks in the order of their times (seat order at the same
    /// microsecond), as the game loop played them. Each tick must come at least the move
    /// time after the seat's previous one (or the start), and each lock at least the lock
    /// gap of the pieces-per-second limit after the seat's previous lock.
    /// Under timing rules, each game's own events (a row that falls, a lock when the delay
    /// runs out) take their place among the ticks, before a tick at the same microsecond.
    pub(super) fn play_timed(
        &self,
        games: &mut [Game],
        timing: Option<Timing>,
        watcher: &mut dyn Watcher,
    ) -> Result<(), ReplayError> {
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
        if let Some(timing) = timing {
            for game in games.iter_mut() {
                game.enable_timing(timing)
                    .map_err(|err| ReplayError::Invalid(err.to_string()))?;
            }
        }
        let end_us = self.seats.first().and_then(|seat| seat.end_us).unwrap_or_default();
        // Under timing rules the games' own events go on past the end, unrecorded: the
        // re-simulation stops where the game loop did, at the first game to end, or at a
        // player's failure, which comes after its own seat's events at that moment and
        // before the later seats'.
        let failed = self.seats.iter().position(|seat| seat.result.end.is_failure());
        let mut referees: Vec<Referee> = (0..games.len())
            .map(|_| Referee::new(&setup.rules, setup.max_pieces, Limits::default()))
            .collect();
        let mut deliveries = Deliveries::new(games.len(), &setup.garbage);
        let mut played = vec![0usize; games.len()];
        let mut previous_us = vec![0u64; games.len()];
        let mut last_lock_us: Vec<Option<u64>> = vec![None; games.len()];
        let mut ended_at = None;
        let mut people = Vec::with_capacity(games.len());
        for (index, seat) in self.seats.iter().enumerate() {
            let person = Person::of(self, index, seat)?;
            if person.is_some() && timing.is_none() {
                return Err(self.mismatch(index, "key events, but no timing rules to play them by".to_string()));
            }
            people.push(person);
        }
        while let Some((index, time, timed)) = (0..games.len())
            .filter_map(|i| {
                if let Some(person) = &people[i] {
                    return person.due(&games[i]).map(|(time, by_itself)| (i, time, by_itself));
                }
                let tick = times[i].get(played[i]).copied();
                match games[i].next_event_us() {
                    Some(at) if tick.is_none_or(|tick| at <= tick) => Some((i, at, true)),
                    _ => tick.map(|tick| (i, tick, false)),
                }
            })
            .min_by_key(|&(i, time, _)| (time, i))
        {
            if timing.is_some()
                && (time > end_us || (time == end_us && failed.is_some_and(|k| index > k || (index == k && !timed))))
            {
                break;
            }
            if let Some(person) = &mut people[index] {
                // A person's seat: their keys through their handling, with no speed limit.
                let game = &mut games[index];
                deliveries.before_tick(index, game, time);
                person.play(index, game, time, timed, watcher);
                let over = ended(game, setup.max_pieces).is_some();
                hand_on(games, index, &mut deliveries, time, watcher);
                if over {
                    ended_at = Some(time);
                    break;
                }
                continue;
            }
            if timed {
                let game = &mut games[index];
                deliveries.before_tick(index, game, time);
                if let Some(report) = game.advance(time) {
                    watcher.tick(index, Actions::NONE, &report, game);
                }
                let over = ended(game, setup.max_pieces).is_some();
                hand_on(games, index, &mut deliveries, time, watcher);
                if over {
                    ended_at = Some(time);
                    break;
                }
                continue;
            }
            let tick = played[index];
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
            // Every event of the game due by then was played: this moves its time only.
            game.advance(time);
            deliveries.before_tick(index, game, time);
            let pieces = game.stats().pieces;
            let report = game.tick(actions);
            watcher.tick(index, actions, &report, game);
            // Under timing rules a piece may lock without a drop (its resets spent); the
            // pieces-per-second limit holds the drops back.
            let chosen = timing.is_none() || actions.contains(Actions::DROP);
            if game.stats().pieces != pieces && chosen {
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
            let over = referees[index].after_tick(game).is_some() || ended(game, setup.max_pieces).is_some();
            hand_on(games, index, &mut deliveries, time, watcher);
            if over && timing.is_some() {
                ended_at = Some(time);
                break;
            }
        }
        for (index, person) in people.iter().enumerate() {
            let Some(person) = person else { continue };
            if let Some(event) = person.unplayed() {
                return Err(self.mismatch(
                    index,
                    format!("a key event at {} µs comes after the game ended", event.time_us),
                ));
            }
            person.check(self, index, &self.seats[index])?;
        }
        if timing.is_some() {
            if let Some(index) = (0..games.len()).find(|&i| people[i].is_none() && played[i] < times[i].len()) {
                return Err(self.mismatch(
                    index,
                    format!(
                        "tick {} at {} µs comes after the game ended",
                        played[index], times[index][played[index]]
                    ),
                ));
            }
            if failed.is_none() && ended_at != Some(end_us) {
                return Err(ReplayError::Mismatch(format!(
                    "the game ended at {end_us} µs, but the re-simulated game ended {}",
                    ended_at.map_or("later".to_string(), |at| format!("at {at} µs"))
                )));
            }
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
            // Under timing rules a lock by the delay can top a game out with no tick of
            // its own; the re-simulation checked where it stopped.
            let by_its_tick =
                matches!(seat.result.end, RecordedEnd::ToppedOut | RecordedEnd::Stalled) && self.setup.timing.is_none();
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

/// The end of seat `index`'s moment at `time`: the garbage it sent goes to its receiver,
/// and the watcher sees the round over.
fn hand_on(games: &mut [Game], index: usize, deliveries: &mut Deliveries, time: u64, watcher: &mut dyn Watcher) {
    let rows = games[index].take_outgoing();
    let to = deliveries.receiver(index);
    deliveries.deliver(to, &mut games[to], rows, time);
    watcher.round_over(games);
}

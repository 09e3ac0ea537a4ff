//! Checking a replay of a game under timing rules: the engine told each recorded tick's
//! time before the tick, so rows fall and pieces lock by delay as they did; a person's
//! seat re-derived from their key events through their handling, its ticks checked
//! against the recorded ones.

use super::{Replay, ReplayError, SeatRecord, Watcher};
use crate::engine::{Game, Timing};
use crate::handling::{Hands, Played};
use tetrad_plugin_api::Actions;

impl Replay {
    /// Plays the one seat of a game under `timing`: from its key events if it records
    /// them, else its ticks at their times; then on to its end's time.
    pub(super) fn play_clocked(
        &self,
        timing: Timing,
        games: &mut [Game],
        watcher: &mut dyn Watcher,
    ) -> Result<(), ReplayError> {
        if games.len() != 1 {
            return Err(ReplayError::Invalid(
                "timing rules (gravity, lock delay) with several seats are played at the realtime pace only"
                    .to_string(),
            ));
        }
        let seat = &self.seats[0];
        let game = &mut games[0];
        game.enable_timing(timing)
            .map_err(|err| ReplayError::Invalid(err.to_string()))?;
        let (Some(times), Some(end_us)) = (&seat.times_us, seat.end_us) else {
            return Err(self.mismatch(
                0,
                "a game under timing rules records each tick's time and its end's (`times_us`, `end_us`); this one does not"
                    .to_string(),
            ));
        };
        if times.len() != seat.actions.len() {
            return Err(self.mismatch(0, format!("{} ticks but {} times", seat.actions.len(), times.len())));
        }
        if times.windows(2).any(|pair| pair[1] < pair[0]) || times.last().is_some_and(|&last| last > end_us) {
            return Err(self.mismatch(
                0,
                format!("the ticks' times do not rise to the game's end at {end_us} µs"),
            ));
        }
        match &seat.keys {
            Some(_) => self.play_keys(seat, game, end_us, watcher),
            None => {
                for (tick, (&bits, &time)) in seat.actions.iter().zip(times).enumerate() {
                    advance(game, time, watcher);
                    let actions = Actions(bits);
                    if actions.is_unplayable() || game.current().is_none() {
                        return Err(
                            self.mismatch(0, format!("tick {tick} ({actions:?} at {time} µs) cannot be played"))
                        );
                    }
                    let report = game.tick(actions);
                    watcher.tick(0, actions, &report, game);
                }
                advance(game, end_us, watcher);
                Ok(())
            }
        }
    }

    /// Re-derives the seat's ticks from its key events and its player's handling, and
    /// checks them against the recorded ticks and their times.
    fn play_keys(
        &self,
        seat: &SeatRecord,
        game: &mut Game,
        end_us: u64,
        watcher: &mut dyn Watcher,
    ) -> Result<(), ReplayError> {
        let keys = seat.keys.as_deref().unwrap_or_default();
        let handling = match seat.players.as_slice() {
            [player] => player.handling.clone(),
            _ => None,
        };
        let Some(handling) = handling else {
            return Err(self.mismatch(
                0,
                "key events are recorded, but not the handling of the seat's one player".to_string(),
            ));
        };
        if let Some(index) = keys.windows(2).position(|pair| pair[1].time_us < pair[0].time_us) {
            return Err(self.mismatch(0, format!("key event {} comes before the one ahead of it", index + 1)));
        }
        if keys.last().is_some_and(|last| last.time_us > end_us) {
            return Err(self.mismatch(0, format!("a key event after the game's end at {end_us} µs")));
        }
        let mut hands = Hands::new(handling);
        let mut played: Vec<Played> = Vec::new();
        // The watcher sees the game after each key event's ticks, not between them.
        let mut watch = |new: Vec<Played>, game: &Game, played: &mut Vec<Played>| {
            for p in &new {
                watcher.tick(0, p.actions.unwrap_or(Actions::NONE), &p.report, game);
            }
            played.extend(new);
        };
        for event in keys {
            let new = hands.key(game, event);
            watch(new, game, &mut played);
        }
        let new = hands.until(game, end_us);
        watch(new, game, &mut played);
        let ticks: Vec<(u32, u64)> = played
            .iter()
            .filter_map(|p| p.actions.map(|actions| (actions.0, p.time_us)))
            .collect();
        let recorded: Vec<(u32, u64)> = seat
            .actions
            .iter()
            .copied()
            .zip(seat.times_us.iter().flatten().copied())
            .collect();
        if let Some(tick) = (0..ticks.len().max(recorded.len())).find(|&i| ticks.get(i) != recorded.get(i)) {
            return Err(self.mismatch(
                0,
                format!(
                    "the key events give tick {tick} as {:?}, the record as {:?} (actions, µs)",
                    ticks.get(tick).map(|&(bits, time)| (Actions(bits), time)),
                    recorded.get(tick).map(|&(bits, time)| (Actions(bits), time)),
                ),
            ));
        }
        Ok(())
    }
}

/// Moves `game` to `time`, showing `watcher` each lock its timing brings (as a tick of no
/// actions).
fn advance(game: &mut Game, time: u64, watcher: &mut dyn Watcher) {
    while let Some(report) = game.advance(time) {
        watcher.tick(0, Actions::NONE, &report, game);
    }
}

#[cfg(test)]
#[path = "clocked_tests.rs"]
mod tests;

//! A person's seat in a realtime replay with other seats: their key events played through
//! their handling, one moment at a time, so the other seats' ticks and garbage come
//! between them in the order of their times; the ticks they give are checked against the
//! recorded ones.

use super::{Replay, ReplayError, SeatRecord, Watcher};
use crate::engine::Game;
use crate::handling::{Hands, KeyEvent, Played};
use tetrad_plugin_api::Actions;

/// A person's hands on their seat, as the replay is played.
pub(super) struct Person<'a> {
    hands: Hands,
    keys: &'a [KeyEvent],
    next: usize,
    /// The ticks the key events gave: actions as bits, and times.
    derived: Vec<(u32, u64)>,
}

impl<'a> Person<'a> {
    /// The person of seat `index`, if the seat records key events: checked to come in
    /// order, by the game's end, with the handling of its one player.
    pub(super) fn of(replay: &Replay, index: usize, seat: &'a SeatRecord) -> Result<Option<Person<'a>>, ReplayError> {
        let Some(keys) = seat.keys.as_deref() else {
            return Ok(None);
        };
        let handling = match seat.players.as_slice() {
            [player] => player.handling.clone(),
            _ => None,
        };
        let Some(handling) = handling else {
            return Err(replay.mismatch(
                index,
                "key events are recorded, but not the handling of the seat's one player".to_string(),
            ));
        };
        if let Some(at) = keys.windows(2).position(|pair| pair[1].time_us < pair[0].time_us) {
            return Err(replay.mismatch(index, format!("key event {} comes before the one ahead of it", at + 1)));
        }
        let end_us = seat.end_us.unwrap_or_default();
        if keys.last().is_some_and(|last| last.time_us > end_us) {
            return Err(replay.mismatch(index, format!("a key event after the game's end at {end_us} µs")));
        }
        Ok(Some(Person {
            hands: Hands::new(handling),
            keys,
            next: 0,
            derived: Vec::new(),
        }))
    }

    /// When the person's seat next does something, and whether it comes by itself (a
    /// repeated shift, a row falling, a lock) rather than from a key event; at one moment
    /// what comes by itself comes first.
    pub(super) fn due(&self, game: &Game) -> Option<(u64, bool)> {
        let key = self.keys.get(self.next).map(|event| event.time_us);
        match self.hands.next_event_us(game) {
            Some(at) if key.is_none_or(|key| at <= key) => Some((at, true)),
            _ => key.map(|key| (key, false)),
        }
    }

    /// Plays the seat's next moment, at `time`, showing `watcher` (as seat `index`).
    pub(super) fn play(
        &mut self,
        index: usize,
        game: &mut Game,
        time: u64,
        by_itself: bool,
        watcher: &mut dyn Watcher,
    ) {
        let played: Vec<Played> = if by_itself {
            self.hands.until(game, time)
        } else {
            let event = &self.keys[self.next];
            self.next += 1;
            self.hands.key(game, event)
        };
        for p in &played {
            watcher.tick(index, p.actions.unwrap_or(Actions::NONE), &p.report, game);
            if let Some(actions) = p.actions {
                self.derived.push((actions.0, p.time_us));
            }
        }
    }

    /// Key events left unplayed when the game ended.
    pub(super) fn unplayed(&self) -> Option<&KeyEvent> {
        self.keys.get(self.next)
    }

    /// Checks the ticks the key events gave against the seat's recorded ones.
    pub(super) fn check(&self, replay: &Replay, index: usize, seat: &SeatRecord) -> Result<(), ReplayError> {
        let recorded: Vec<(u32, u64)> = seat
            .actions
            .iter()
            .copied()
            .zip(seat.times_us.iter().flatten().copied())
            .collect();
        let derived = &self.derived;
        match (0..derived.len().max(recorded.len())).find(|&i| derived.get(i) != recorded.get(i)) {
            None => Ok(()),
            Some(tick) => Err(replay.mismatch(
                index,
                format!(
                    "the key events give tick {tick} as {:?}, the record as {:?} (actions, µs)",
                    derived.get(tick).map(|&(bits, time)| (Actions(bits), time)),
                    recorded.get(tick).map(|&(bits, time)| (Actions(bits), time)),
                ),
            )),
        }
    }
}

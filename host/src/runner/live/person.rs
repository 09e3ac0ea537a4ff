//! The person's seat of a live game: their game under their handling, the garbage on its
//! way to them, the key events not yet played, and what the record keeps. It is `Clone`:
//! while the bot thinks the referee plays a copy of it ahead, so the person's keys show at
//! once, and plays the seat itself only as far as the bot's moves are known.

use crate::engine::{Deliveries, Game, GarbageRules};
use crate::handling::{Handling, Hands, KeyEvent};
use std::collections::VecDeque;

/// The person's seat (seat 0).
pub(super) struct Person {
    pub(super) game: Game,
    pub(super) hands: Hands,
    /// The garbage sent to the person, waiting its delay (only seat 0's queue is used).
    deliveries: Deliveries,
    /// Key events received and not yet played, in the order of their times.
    pub(super) pending: VecDeque<KeyEvent>,
    /// What the record keeps; a copy played ahead keeps none.
    record: Option<Record>,
}

/// What the record keeps of the person's seat.
#[derive(Default)]
pub(super) struct Record {
    /// Key events played.
    pub(super) keys: Vec<KeyEvent>,
    /// The ticks the key events gave, and their times.
    pub(super) ticks: Vec<u32>,
    pub(super) times_us: Vec<u64>,
}

impl Person {
    /// The person at `game` with `handling`, receiving garbage under `garbage`.
    pub(super) fn new(game: Game, handling: Handling, garbage: &GarbageRules) -> Person {
        Person {
            game,
            hands: Hands::new(handling),
            deliveries: Deliveries::new(2, garbage),
            pending: VecDeque::new(),
            record: Some(Record::default()),
        }
    }

    /// A copy of the seat to play ahead, keeping no record.
    pub(super) fn ahead(&self) -> Person {
        Person {
            game: self.game.clone(),
            hands: self.hands.clone(),
            deliveries: self.deliveries.clone(),
            pending: self.pending.clone(),
            record: None,
        }
    }

    /// What the record keeps (empty for a copy played ahead).
    pub(super) fn record(&self) -> &Record {
        static NONE: Record = Record {
            keys: Vec::new(),
            ticks: Vec::new(),
            times_us: Vec::new(),
        };
        self.record.as_ref().unwrap_or(&NONE)
    }

    /// When the seat next does something, and whether by itself (a repeated shift, a
    /// row, a lock) rather than by a key event. At one moment the game's own events come
    /// first.
    pub(super) fn due(&self) -> Option<(u64, bool)> {
        let key = self.pending.front().map(|event| event.time_us);
        match self.hands.next_event_us(&self.game) {
            Some(at) if key.is_none_or(|key| at <= key) => Some((at, true)),
            _ => key.map(|key| (key, false)),
        }
    }

    /// Plays the seat's next event, due at `time` (see [`Person::due`]); returns the
    /// garbage rows it sends.
    pub(super) fn play(&mut self, time: u64, by_itself: bool) -> u32 {
        self.deliveries.before_tick(0, &mut self.game, time);
        let played = if by_itself {
            self.hands.until(&mut self.game, time)
        } else {
            let event = self.pending.pop_front().expect("a key event is due");
            let played = self.hands.key(&mut self.game, &event);
            if let Some(record) = &mut self.record {
                record.keys.push(event);
            }
            played
        };
        if let Some(record) = &mut self.record {
            for p in played {
                if let Some(actions) = p.actions {
                    record.ticks.push(actions.0);
                    record.times_us.push(p.time_us);
                }
            }
        }
        self.game.take_outgoing()
    }

    /// `rows` of garbage sent to the person at `time_us`.
    pub(super) fn receive(&mut self, rows: u32, time_us: u64) {
        self.deliveries.deliver(0, &mut self.game, rows, time_us);
    }
}

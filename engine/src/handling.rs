//! Handling: how a person's key presses and releases become timed commands (a shift, a
//! turn, a drop, a hold) by DAS, ARR and the soft-drop factor, in the person's seat,
//! before the engine. It is not a rule: each person brings their own, and the record keeps
//! it with their key events, so a replay re-derives the same commands. Pure and
//! deterministic: the same handling and key events give the same commands at the same
//! times, however often the [`Handler`] is asked. [`Hands`] plays them on a timed game.

mod hands;

pub use hands::{Hands, Played};

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// What a key does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Control {
    /// Shift left, then auto-repeat while held.
    Left,
    /// Shift right, then auto-repeat while held.
    Right,
    /// Fall faster while held (or to rest at once, under an instant soft drop).
    SoftDrop,
    /// Fall to rest and lock.
    HardDrop,
    /// Turn clockwise.
    Cw,
    /// Turn counter-clockwise.
    Ccw,
    /// Turn half a turn, where the handling enables it.
    Turn180,
    /// Hold the piece.
    Hold,
}

/// How fast a held soft drop falls.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SoftDrop {
    /// This many times faster than gravity (at least 1).
    Factor(u32),
    /// To rest at once.
    Instant,
}

impl std::str::FromStr for SoftDrop {
    type Err = HandlingError;

    /// `instant`, or a factor of at least 1 (`6`, `20x`).
    fn from_str(text: &str) -> Result<SoftDrop, HandlingError> {
        if text == "instant" {
            return Ok(SoftDrop::Instant);
        }
        match text.strip_suffix(['x', 'X']).unwrap_or(text).parse::<u32>() {
            Ok(factor) if factor >= 1 => Ok(SoftDrop::Factor(factor)),
            _ => Err(HandlingError::SoftDrop(text.to_string())),
        }
    }
}

/// A person's handling: the delays and rates of their keys, in milliseconds, and which
/// key does what.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Handling {
    /// Delayed auto shift: how long a shift key is held before it repeats.
    pub das_ms: u32,
    /// Auto-repeat rate: the time between repeated shifts; 0 shifts to the wall at once.
    pub arr_ms: u32,
    /// How fast a held soft drop falls.
    pub soft_drop: SoftDrop,
    /// Whether the half-turn key acts.
    pub turn_180: bool,
    /// Key names (as the browser's `KeyboardEvent.code` names keys: `ArrowLeft`, `KeyZ`,
    /// `Space`) and what each does.
    pub keys: BTreeMap<String, Control>,
}

impl Default for Handling {
    /// TETR.IO's default handling (DAS 10 frames, ARR 2 frames, soft drop 6 times gravity,
    /// at 60 frames a second), with the Tetris Guideline's standard keys, and the half
    /// turn on `A` (off until enabled).
    fn default() -> Handling {
        let keys = [
            ("ArrowLeft", Control::Left),
            ("ArrowRight", Control::Right),
            ("ArrowDown", Control::SoftDrop),
            ("Space", Control::HardDrop),
            ("ArrowUp", Control::Cw),
            ("KeyX", Control::Cw),
            ("KeyZ", Control::Ccw),
            ("ControlLeft", Control::Ccw),
            ("KeyC", Control::Hold),
            ("ShiftLeft", Control::Hold),
            ("KeyA", Control::Turn180),
        ];
        Handling {
            das_ms: 167,
            arr_ms: 33,
            soft_drop: SoftDrop::Factor(6),
            turn_180: false,
            keys: keys
                .into_iter()
                .map(|(key, control)| (key.to_string(), control))
                .collect(),
        }
    }
}

/// A key pressed or released, at a time in microseconds from the game's start.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct KeyEvent {
    /// When.
    pub time_us: u64,
    /// The key's name, as [`Handling::keys`] names it.
    pub key: String,
    /// Pressed (`true`) or released.
    pub pressed: bool,
}

/// What the person asks of the falling piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Command {
    /// One column (-1 left, +1 right).
    Shift(i8),
    /// As far as the piece goes (ARR 0).
    ShiftToWall(i8),
    /// A quarter turn (+1 clockwise, -1 counter-clockwise), or a half turn (2).
    Turn(i8),
    /// The soft drop pressed (`true`) or released.
    SoftDrop(bool),
    /// A hard drop.
    HardDrop,
    /// A hold.
    Hold,
}

/// A command at its time, in microseconds from the game's start.
pub type Timed = (u64, Command);

/// Key events or handling values that cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum HandlingError {
    /// Not `instant` nor a factor of at least 1.
    #[error("soft drop `{0}` is not `instant` nor a factor of at least 1 (such as 6)")]
    SoftDrop(String),
    /// An event earlier than the one before it.
    #[error("key event {index} at {time_us} µs comes before the event ahead of it")]
    OutOfOrder {
        /// Its place among the events.
        index: usize,
        /// Its time.
        time_us: u64,
    },
}

/// The shift in progress: its direction, and when it next repeats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
struct Shifting {
    direction: i8,
    /// When the next shift is due; `None` once an instant repeat reached the wall.
    due_us: Option<u64>,
    /// DAS has elapsed: repeats come every ARR.
    charged: bool,
}

/// Turns one person's key events into commands, as they come. It serializes as where it
/// is between events (the controls held, the shift keys held in order, the shift in
/// progress, its time), without its handling: what a face that plays a person's presses
/// ahead of the referee (the browser's page) needs to give the same commands.
#[derive(Clone, Debug, Serialize)]
pub struct Handler {
    #[serde(skip)]
    handling: Handling,
    /// The controls held down, so a key the system repeats acts once.
    held: Vec<Control>,
    /// Shift directions held, the last pressed last: it wins, and releasing it gives the
    /// turn back to the other.
    shifts: Vec<i8>,
    shifting: Option<Shifting>,
    /// The time of the last event or question, which may not go back.
    now_us: u64,
}

impl Handler {
    /// A handler with no key held.
    pub fn new(handling: Handling) -> Handler {
        Handler {
            handling,
            held: Vec::new(),
            shifts: Vec::new(),
            shifting: None,
            now_us: 0,
        }
    }

    /// The handling.
    pub fn handling(&self) -> &Handling {
        &self.handling
    }

    /// When the next repeated shift is due, if a shift key is held.
    pub fn next_due_us(&self) -> Option<u64> {
        self.shifting.and_then(|shifting| shifting.due_us)
    }

    /// Whether a shift key is held with DAS elapsed under ARR 0: a new piece goes to the
    /// wall as it enters, in that direction.
    pub fn charged_to_wall(&self) -> Option<i8> {
        self.shifting
            .filter(|shifting| shifting.charged && self.handling.arr_ms == 0)
            .map(|shifting| shifting.direction)
    }

    /// The repeated shifts due at or before `time_us`, each at its own time.
    pub fn until(&mut self, time_us: u64) -> Vec<Timed> {
        let mut out = Vec::new();
        while let Some(mut shifting) = self.shifting {
            let Some(due) = shifting.due_us.filter(|&due| due <= time_us) else {
                break;
            };
            let direction = shifting.direction;
            if self.handling.arr_ms == 0 {
                out.push((due, Command::ShiftToWall(direction)));
                shifting.due_us = None;
            } else {
                out.push((due, Command::Shift(direction)));
                shifting.due_us = Some(due + u64::from(self.handling.arr_ms) * 1000);
            }
            shifting.charged = true;
            self.shifting = Some(shifting);
        }
        self.now_us = self.now_us.max(time_us);
        out
    }

    /// The commands of `event`, after the repeats due by its time. An unbound key, or a
    /// press of a key already down (the system's own repeat), does nothing.
    pub fn key(&mut self, event: &KeyEvent) -> Vec<Timed> {
        let time = event.time_us.max(self.now_us);
        let mut out = self.until(time);
        let Some(&control) = self.handling.keys.get(&event.key) else {
            return out;
        };
        let down = self.held.contains(&control);
        if event.pressed == down {
            return out;
        }
        if event.pressed {
            self.held.push(control);
        } else {
            self.held.retain(|&held| held != control);
        }
        let command = match (control, event.pressed) {
            (Control::Left | Control::Right, pressed) => {
                let direction = if control == Control::Left { -1 } else { 1 };
                self.shift_key(direction, pressed, time)
            }
            (Control::SoftDrop, pressed) => Some(Command::SoftDrop(pressed)),
            (_, false) => None,
            (Control::HardDrop, true) => Some(Command::HardDrop),
            (Control::Cw, true) => Some(Command::Turn(1)),
            (Control::Ccw, true) => Some(Command::Turn(-1)),
            (Control::Turn180, true) => self.handling.turn_180.then_some(Command::Turn(2)),
            (Control::Hold, true) => Some(Command::Hold),
        };
        out.extend(command.map(|command| (time, command)));
        out
    }

    /// A shift key pressed or released at `time`: the last one pressed shifts at once and
    /// starts its DAS; releasing it hands the shift to the other, if held, as if pressed
    /// now.
    fn shift_key(&mut self, direction: i8, pressed: bool, time: u64) -> Option<Command> {
        if pressed {
            self.shifts.push(direction);
        } else {
            self.shifts.retain(|&held| held != direction);
            if self.shifting.map(|s| s.direction) != Some(direction) {
                return None;
            }
        }
        let Some(&active) = self.shifts.last() else {
            self.shifting = None;
            return None;
        };
        self.shifting = Some(Shifting {
            direction: active,
            due_us: Some(time + u64::from(self.handling.das_ms) * 1000),
            charged: false,
        });
        Some(Command::Shift(active))
    }
}

/// Every command of `events` (in time order), ending with the repeats due by `end_us`.
pub fn commands(handling: &Handling, events: &[KeyEvent], end_us: u64) -> Result<Vec<Timed>, HandlingError> {
    let mut handler = Handler::new(handling.clone());
    let mut out = Vec::new();
    let mut last = 0;
    for (index, event) in events.iter().enumerate() {
        if event.time_us < last {
            return Err(HandlingError::OutOfOrder {
                index,
                time_us: event.time_us,
            });
        }
        last = event.time_us;
        out.extend(handler.key(event));
    }
    out.extend(handler.until(end_us));
    Ok(out)
}

#[cfg(test)]
mod tests;

//! A person playing in real time (`tetrad play --gravity`): their key presses and
//! releases go through their handling, and the game's time moves with the frames, so
//! pieces fall and lock by themselves. The game's time stands still while paused or under
//! an overlay. Every key event and tick is recorded with its time.

use super::side::Driver;
use super::App;
use crate::handling::{Handling, Hands, KeyEvent, Played};
use crate::replay::PlayerRecord;
use crate::runner;
use crossterm::event::{KeyCode, KeyEvent as TermKey, KeyEventKind, ModifierKeyCode};
use std::time::Duration;

/// The person's hands and the game's time.
pub(super) struct TimedPlay {
    hands: Hands,
    /// Microseconds of play so far.
    pub(super) now_us: u64,
}

impl TimedPlay {
    fn new(handling: Handling) -> TimedPlay {
        TimedPlay {
            hands: Hands::new(handling),
            now_us: 0,
        }
    }

    /// The handling.
    pub(super) fn handling(&self) -> &Handling {
        self.hands.handling()
    }
}

/// The name the handling knows a terminal key by: the browser's `KeyboardEvent.code`
/// names (`ArrowLeft`, `KeyZ`, `Space`, `ShiftLeft`).
pub fn key_name(code: KeyCode) -> Option<String> {
    Some(match code {
        KeyCode::Left => "ArrowLeft".to_string(),
        KeyCode::Right => "ArrowRight".to_string(),
        KeyCode::Up => "ArrowUp".to_string(),
        KeyCode::Down => "ArrowDown".to_string(),
        KeyCode::Char(' ') => "Space".to_string(),
        KeyCode::Char(c) if c.is_ascii_alphabetic() => format!("Key{}", c.to_ascii_uppercase()),
        KeyCode::Char(c) if c.is_ascii_digit() => format!("Digit{c}"),
        KeyCode::Modifier(ModifierKeyCode::LeftShift) => "ShiftLeft".to_string(),
        KeyCode::Modifier(ModifierKeyCode::RightShift) => "ShiftRight".to_string(),
        KeyCode::Modifier(ModifierKeyCode::LeftControl) => "ControlLeft".to_string(),
        KeyCode::Modifier(ModifierKeyCode::RightControl) => "ControlRight".to_string(),
        _ => return None,
    })
}

impl App {
    /// A person plays game 0 of `session.seed` alone, in real time under the session's
    /// timing rules, with `handling`.
    pub fn play_timed(session: super::Session, handling: Handling) -> App {
        let seed = runner::game_seed(session.seed, 0);
        let mut app = App::new(
            super::Mode::Play,
            session,
            seed,
            vec![Driver::Person],
            Default::default(),
        );
        app.timed = Some(Box::new(TimedPlay::new(handling)));
        app.start_recording();
        app
    }

    /// Whether a person plays in real time, which needs the terminal to report key
    /// releases.
    pub fn is_timed(&self) -> bool {
        self.timed.is_some() || self.live.is_some()
    }

    /// A key pressed, repeated or released. In real-time play a key the handling binds
    /// goes to it, with the game's time; any other press (and every press otherwise) is
    /// a screen key.
    pub fn on_key_event(&mut self, key: TermKey) {
        if self.live_key(&key) {
            return;
        }
        let bound = self
            .timed
            .as_ref()
            .and_then(|timed| key_name(key.code).filter(|name| timed.handling().keys.contains_key(name)));
        let playing = !self.paused && !self.help && self.prompt.is_none() && !self.is_over();
        let released = key.kind == KeyEventKind::Release;
        match bound {
            Some(name) if playing => self.timed_key(name, !released),
            // While paused, a bound key's press does nothing; its release is still played,
            // so no key stays held in the handling.
            Some(name) if released && !self.is_over() => self.timed_key(name, false),
            Some(_) => {}
            None if !released => self.on_key(key),
            None => {}
        }
    }

    fn timed_key(&mut self, key: String, pressed: bool) {
        let Some(timed) = self.timed.as_deref_mut() else {
            return;
        };
        let event = KeyEvent {
            time_us: timed.now_us,
            key,
            pressed,
        };
        let played = timed.hands.key(self.sides[0].tracked.game_mut(), &event);
        if let Some(recorder) = &mut self.recorder {
            recorder.key(0, event);
        }
        self.timed_played(played);
    }

    /// Lets `elapsed` of play pass in real-time play: what fell due is played. Returns
    /// whether the app plays in real time (else the caller plays ticks as usual).
    pub(super) fn timed_tick(&mut self, elapsed: Duration) -> bool {
        let Some(timed) = self.timed.as_deref_mut() else {
            return false;
        };
        timed.now_us += elapsed.as_micros() as u64;
        let played = timed.hands.until(self.sides[0].tracked.game_mut(), timed.now_us);
        self.timed_played(played);
        true
    }

    /// Records and paints what the hands played, and ends the game if it ended.
    fn timed_played(&mut self, played: Vec<Played>) {
        let side = &mut self.sides[0];
        for p in &played {
            side.tracked.painted(&p.report);
            if let (Some(actions), Some(recorder)) = (p.actions, &mut self.recorder) {
                recorder.tick_at(0, actions, p.time_us);
            }
            self.ticks += u64::from(p.actions.is_some());
        }
        if side.end.is_none() {
            if let Some(end) = side.referee.game_over(side.tracked.game()) {
                side.finish(end.into(), None);
            }
        }
        if self.is_over() {
            self.save_if_unsaved();
        }
    }

    /// A new game in real-time play: no key held, time from 0.
    pub(super) fn timed_restart(&mut self) {
        if let Some(timed) = self.timed.as_deref_mut() {
            *timed = TimedPlay::new(timed.handling().clone());
        }
    }

    /// The person's record in real-time play: with their handling.
    pub(super) fn timed_player(&self) -> Option<PlayerRecord> {
        let timed = self.timed.as_deref()?;
        Some(PlayerRecord {
            handling: Some(timed.handling().clone()),
            ..PlayerRecord::human(0)
        })
    }

    /// The game's time in real-time play, for the record's end.
    pub(super) fn timed_now_us(&self) -> Option<u64> {
        self.timed.as_deref().map(|timed| timed.now_us)
    }
}

#[cfg(test)]
#[path = "timed_tests.rs"]
mod tests;

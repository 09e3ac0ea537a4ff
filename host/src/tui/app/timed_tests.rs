//! Real-time play on the app state, without a terminal: frames pass, keys are pressed
//! and released, and the recorded game verifies.

use super::super::keys::Command;
use super::super::Session;
use super::*;
use crate::engine::{Gravity, Timing};
use crate::replay::Replay;
use crate::setup::Setup;
use crossterm::event::{KeyEventState, KeyModifiers};
use std::sync::Arc;
use tetrad_plugin_api::{PieceSet, Preset, Rules};

/// A frame: 1G moves a piece one row in each.
const FRAME: Duration = Duration::from_micros(16_667);

fn key(app: &mut App, code: KeyCode, kind: KeyEventKind) {
    app.on_key_event(TermKey {
        code,
        modifiers: KeyModifiers::NONE,
        kind,
        state: KeyEventState::NONE,
    });
}

fn tap(app: &mut App, code: KeyCode) {
    key(app, code, KeyEventKind::Press);
    key(app, code, KeyEventKind::Release);
}

fn frames(app: &mut App, count: u32) {
    for _ in 0..count {
        app.on_tick(FRAME);
    }
}

fn timed_app(record: Option<std::path::PathBuf>) -> App {
    let mut setup = Setup::new(Rules::preset(Preset::Guideline), Arc::new(PieceSet::srs())).unwrap();
    setup.timing = Some(Timing {
        gravity: Gravity::Fixed(1.0),
        ..Timing::guideline()
    });
    App::play_timed(Session { setup, seed: 7, record }, Handling::default())
}

fn falling(app: &App) -> tetrad_plugin_api::PiecePos {
    app.sides[0].tracked.game().current().expect("a falling piece").pos
}

#[test]
fn pieces_fall_by_themselves_keys_shift_with_das_and_the_record_verifies() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("timed.json");
    let mut app = timed_app(Some(path.clone()));
    let start = falling(&app);
    // 1G: a row a frame, with no key pressed.
    frames(&mut app, 6);
    assert_eq!(falling(&app).y, start.y + 6);
    // Left held: one shift at once, none more before DAS (167 ms, 10 frames), then more.
    key(&mut app, KeyCode::Left, KeyEventKind::Press);
    frames(&mut app, 9);
    assert_eq!(falling(&app).x, start.x - 1);
    frames(&mut app, 3);
    assert!(falling(&app).x < start.x - 1, "DAS elapsed, the shift repeats");
    key(&mut app, KeyCode::Left, KeyEventKind::Release);
    // Left alone, the piece lands and locks by itself half a second later.
    frames(&mut app, 60);
    assert_eq!(app.sides[0].stats().pieces, 1);
    tap(&mut app, KeyCode::Char(' '));
    assert_eq!(app.sides[0].stats().pieces, 2, "a hard drop locks at once");
    // Paused, time stands still and bound keys do nothing.
    app.apply(Command::Pause);
    let paused = falling(&app);
    frames(&mut app, 30);
    tap(&mut app, KeyCode::Right);
    assert_eq!(falling(&app), paused);
    app.apply(Command::Pause);
    app.apply(Command::Quit);
    let replay = Replay::load(&path).unwrap();
    let seat = &replay.seats[0];
    assert_eq!(seat.players[0].handling, Some(Handling::default()));
    assert!(seat.keys.as_ref().is_some_and(|keys| keys.len() >= 4));
    assert_eq!(
        replay.setup.timing,
        Some(Timing {
            gravity: Gravity::Fixed(1.0),
            ..Timing::guideline()
        })
    );
    let outcome = replay.verify().unwrap();
    assert_eq!(outcome[0].pieces, 2);
}

#[test]
fn terminal_keys_are_named_as_the_browser_names_them() {
    assert_eq!(key_name(KeyCode::Left).as_deref(), Some("ArrowLeft"));
    assert_eq!(key_name(KeyCode::Char('z')).as_deref(), Some("KeyZ"));
    assert_eq!(key_name(KeyCode::Char('Z')).as_deref(), Some("KeyZ"));
    assert_eq!(key_name(KeyCode::Char(' ')).as_deref(), Some("Space"));
    assert_eq!(
        key_name(KeyCode::Modifier(ModifierKeyCode::LeftShift)).as_deref(),
        Some("ShiftLeft")
    );
    assert_eq!(key_name(KeyCode::Esc), None);
}

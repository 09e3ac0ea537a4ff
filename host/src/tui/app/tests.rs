//! Key handling and timing on the app state, without a terminal: a person's game and a
//! replay (plugin demos are tested end to end, with real plugin libraries).

use super::*;
use crate::engine::Stats;
use crate::replay::{Outcome, PlayerRecord, Replay};
use crate::setup::Setup;
use crossterm::event::KeyCode::{self, Char, Down, End as EndKey, Esc, Home, Left, Right};
use std::path::PathBuf;

fn key(code: KeyCode) -> KeyEvent {
    KeyEvent::new(code, KeyModifiers::NONE)
}

fn press(app: &mut App, codes: &[KeyCode]) {
    for &code in codes {
        app.on_key(key(code));
    }
}

fn setup(record: Option<PathBuf>) -> Session {
    Session {
        setup: Setup::default(),
        seed: 7,
        record,
    }
}

fn falling(app: &App) -> tetrad_plugin_api::PiecePos {
    app.tracked().game().current().expect("a falling piece").pos
}

/// Drops pieces until the game is over.
fn drop_to_the_end(app: &mut App) {
    for _ in 0..10_000 {
        if app.end().is_some() {
            return;
        }
        press(app, &[Char(' ')]);
    }
    panic!("the game did not end");
}

#[test]
fn keys_play_a_tick_at_once_under_the_same_rules() {
    let mut app = App::play(setup(None));
    let start = falling(&app);
    press(&mut app, &[Left]);
    let moved = falling(&app);
    assert_eq!((moved.x, moved.y), (start.x - 1, start.y + 1), "a shift, then gravity");
    press(&mut app, &[Char('x')]);
    assert_eq!(
        falling(&app).orientation,
        app.tracked()
            .game()
            .pieces()
            .kind(app.tracked().game().current().unwrap().piece)
            .turned(start.orientation, 1)
    );
    press(&mut app, &[Char(' ')]);
    assert_eq!(app.stats().pieces, 0, "DROP rests the piece; it may still slide");
    press(&mut app, &[Down]);
    assert_eq!(app.stats().pieces, 1, "the next tick locks it");
    assert_eq!(app.stats().ticks, 4);
}

#[test]
fn the_level_sets_the_pace_and_pause_stops_it() {
    let mut app = App::play(setup(None));
    app.on_tick(Duration::from_millis(499));
    assert_eq!(app.stats().ticks, 0);
    app.on_tick(Duration::from_millis(1));
    assert_eq!(app.stats().ticks, 1, "500 ms per tick at level 0");
    press(&mut app, &[Char('p')]);
    assert!(app.paused());
    app.on_tick(Duration::from_secs(5));
    press(&mut app, &[Left, Char(' ')]);
    assert_eq!(app.stats().ticks, 1, "nothing moves while paused");
    press(&mut app, &[Char('p')]);
    app.on_tick(Duration::from_millis(1000));
    assert_eq!(app.stats().ticks, 3);
}

#[test]
fn help_pauses_the_game_and_esc_closes_it_without_quitting() {
    let mut app = App::play(setup(None));
    press(&mut app, &[Char('?')]);
    assert!(app.help_shown());
    app.on_tick(Duration::from_secs(3));
    press(&mut app, &[Left]);
    assert_eq!(app.stats().ticks, 0);
    press(&mut app, &[Esc]);
    assert!(!app.help_shown() && !app.should_quit());
    press(&mut app, &[Char('?'), Char('?')]);
    assert!(!app.help_shown());
    app.on_key(KeyEvent::new(Char('c'), KeyModifiers::CONTROL));
    assert!(app.should_quit());
}

#[test]
fn restart_keeps_the_seed_and_new_seed_changes_it() {
    let mut app = App::play(setup(None));
    let seed = app.game_seed();
    assert_eq!(
        seed,
        runner::game_seed(7, 0),
        "game 0 of the seed, as `tetrad run` plays it"
    );
    drop_to_the_end(&mut app);
    let first = app.stats();
    press(&mut app, &[Char('r')]);
    assert_eq!(
        (app.game_seed(), app.stats(), app.end()),
        (seed, Stats::default(), None)
    );
    drop_to_the_end(&mut app);
    assert_eq!(app.stats(), first, "the same seed and keys give the same game");
    press(&mut app, &[Char('n')]);
    assert_eq!(app.game_seed(), runner::game_seed(7, 1));
}

#[test]
fn a_recorded_game_replays_and_verifies() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("game.json");
    let mut app = App::play(setup(Some(path.clone())));
    press(&mut app, &[Left, Left, Char('z'), Right, Down, Char(' ')]);
    app.on_tick(Duration::from_millis(1500));
    drop_to_the_end(&mut app);
    assert_eq!(app.end(), Some(RecordedEnd::ToppedOut));
    assert!(app.status().unwrap().contains("replay saved"));
    let replay = Replay::load(&path).unwrap();
    assert_eq!(replay.seats[0].players, vec![PlayerRecord::human(0)]);
    assert_eq!(replay.seed, app.game_seed());
    let outcome = replay.verify().unwrap()[0];
    assert_eq!(outcome, Outcome::new(app.stats(), RecordedEnd::ToppedOut));

    // A game stopped half way is saved as unfinished when the screen closes.
    press(&mut app, &[Char('n'), Left, Char(' '), Char('q')]);
    assert!(app.should_quit());
    assert!(app.take_save_error().is_none());
    let replay = Replay::load(&path).unwrap();
    assert_eq!(replay.seats[0].result.end, RecordedEnd::Unfinished);
    assert_eq!(replay.seats[0].actions.len(), 2);
    replay.verify().unwrap();
}

fn replay_app() -> App {
    let mut play = App::play(setup(None));
    let mut replay = Replay::new(&Setup::default(), play.game_seed());
    replay.seats[0].players.push(PlayerRecord {
        version: Some("1.2.3".to_string()),
        ..PlayerRecord::human(0)
    });
    for i in 0..10_000 {
        if play.end().is_some() {
            break;
        }
        let code = [Left, Char(' '), Right, Right, Char(' '), Down][i % 6];
        let before = play.stats().ticks;
        press(&mut play, &[code]);
        if play.stats().ticks > before {
            replay.seats[0].actions.push(match code {
                Left => Actions::LEFT.0,
                Right => Actions::RIGHT.0,
                Char(' ') => Actions::DROP.0,
                _ => 0,
            });
        }
    }
    replay.seats[0].result = Outcome::new(play.stats(), RecordedEnd::ToppedOut);
    App::replay(Playback::new(replay).unwrap())
}

#[test]
fn a_replay_plays_at_the_chosen_speed_and_seeks_by_piece() {
    let mut app = replay_app();
    assert_eq!(app.status(), None, "the replay verifies");
    assert_eq!(app.player(0), "human 1.2.3");
    let (tick, len) = app.progress().unwrap();
    assert_eq!(tick, 0);
    app.on_tick(Duration::from_millis(500));
    assert_eq!(app.stats().ticks, 1);
    press(&mut app, &[Char('+')]);
    assert_eq!(app.speed(), Speed::Every(Duration::from_millis(250)));
    app.on_tick(Duration::from_millis(500));
    assert_eq!(app.stats().ticks, 3);
    press(&mut app, &[Char('0'), Char('p'), Char('s'), Char('.')]);
    assert_eq!((app.speed(), app.paused(), app.stats().ticks), (Speed::Level, true, 5));
    press(&mut app, &[EndKey]);
    assert_eq!(app.progress(), Some((len, len)));
    assert_eq!(app.end(), Some(RecordedEnd::ToppedOut));
    press(&mut app, &[Home, Right, Right]);
    assert_eq!((app.stats().pieces, app.end()), (2, None));
    assert!(app.tracked().game().is_new_piece());
    press(&mut app, &[Left]);
    assert_eq!(app.stats().pieces, 1);
    press(&mut app, &[Char(' ')]);
    for _ in 0..200 {
        press(&mut app, &[Char('+')]);
    }
    assert_eq!(app.speed(), Speed::Max);
    while app.end().is_none() {
        app.on_tick(Duration::from_millis(16));
    }
    assert_eq!(app.progress(), Some((len, len)), "max speed plays to the end");
}

#[test]
fn seeking_back_restarts_the_pieces_per_second_meter() {
    let mut app = replay_app();
    press(&mut app, &[Char('+'); 4]);
    assert_eq!(app.speed(), Speed::Every(Duration::from_millis(30)));
    for _ in 0..20 {
        app.on_tick(Duration::from_millis(50));
    }
    assert!(app.stats().pieces > 2 && app.end().is_none());
    assert!(app.pieces_per_second().unwrap() > 0.0);
    press(&mut app, &[Home]);
    assert_eq!(app.pieces_per_second(), None);
    app.on_tick(Duration::from_millis(50));
    app.on_tick(Duration::from_millis(250));
    assert!(app.pieces_per_second().is_some());
}

#[test]
fn under_the_guideline_down_soft_drops_and_space_locks() {
    let setup = crate::setup::Setup::new(
        tetrad_plugin_api::Rules::preset(tetrad_plugin_api::Preset::Guideline),
        std::sync::Arc::new(tetrad_plugin_api::PieceSet::srs()),
    )
    .unwrap();
    let mut app = App::play(Session {
        setup,
        seed: 7,
        record: None,
    });
    press(&mut app, &[Down]);
    let game = app.tracked().game();
    let falling = game.current().unwrap();
    let shape = game.pieces().kind(falling.piece).orientation(falling.pos.orientation);
    assert!(
        game.board().rests(shape, falling.pos.x, falling.pos.y),
        "at rest, not locked"
    );
    assert_eq!(app.stats().pieces, 0);
    press(&mut app, &[Left, Char(' ')]);
    assert_eq!(app.stats().pieces, 1, "a tuck, then the hard drop locks it");
    let falling = app.tracked().game().current().unwrap().piece;
    press(&mut app, &[Char('c')]);
    assert_eq!(app.tracked().game().held(), Some(falling), "c holds");
}

//! A person against a bot in real time in the terminal (`tetrad play --versus --gravity`,
//! issue 46): the screen's state driven by key presses and releases and the frames'
//! time against a real bot library, every game recorded and verified, the person's games
//! counted in a results file that rates them; and the command's one-line refusals.

use crate::common::*;
use crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyEventState, KeyModifiers};
use serde_json::Value;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;
use tetrad::engine::{AttackTable, Gravity, Pace, Speed, Timing};
use tetrad::handling::Handling;
use tetrad::plugin::Plugin;
use tetrad::replay::{RecordedEnd, Replay};
use tetrad::runner::Rates;
use tetrad::setup::Setup;
use tetrad::tournament::PersonResults;
use tetrad::tracked::Cell;
use tetrad::tui::{App, LiveOptions, Session};
use tetrad_plugin_api::{Preset, Rules};

/// A frame of a 60 Hz screen.
const FRAME: Duration = Duration::from_micros(16_667);

fn setup() -> Setup {
    let rules = Rules::preset(Preset::Guideline);
    let mut setup = Setup::new(rules, Arc::new(Preset::Guideline.pieces())).unwrap();
    setup.attack = Some(AttackTable::guideline());
    setup.pace = Pace::Realtime;
    setup.speed = Speed {
        pps: Some(3.0),
        move_ms: 0.0,
    };
    setup.timing = Some(Timing {
        gravity: Gravity::Fixed(1.0 / 60.0),
        ..Timing::guideline()
    });
    setup.max_pieces = Some(8);
    setup
}

fn bot() -> Plugin {
    Plugin::load(&built_plugin("tetrad-plugin-bcts")).unwrap()
}

fn key(app: &mut App, code: KeyCode, kind: KeyEventKind) {
    app.on_key_event(KeyEvent {
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

fn falling_x(app: &App) -> i8 {
    app.sides()[0]
        .tracked()
        .game()
        .current()
        .expect("a falling piece")
        .pos
        .x
}

/// The person's live game against bcts, recorded to `dir`, counted in `dir/me.jsonl`.
fn live_app(dir: &Path) -> App {
    let (setup, bot) = (setup(), bot());
    let results = PersonResults::open(&dir.join("me.jsonl"), "ana", &bot, "", &setup, 4).unwrap();
    let session = Session {
        setup,
        seed: 4,
        record: Some(dir.join("last.json")),
    };
    let options = LiveOptions {
        bot: (bot, String::new()),
        handling: Handling::default(),
        countdown: Duration::from_millis(500),
        games_dir: Some(dir.join("games")),
        results: Some(results),
    };
    App::play_live(session, options).unwrap()
}

/// Drops a piece every ten frames until both games end (at the cap of 8 pieces).
fn drop_to_the_end(app: &mut App) {
    for _ in 0..200 {
        if app.sides().iter().all(|side| side.end().is_some()) {
            return;
        }
        tap(app, KeyCode::Char(' '));
        frames(app, 10);
    }
    panic!("the game did not end: {:?}", app.sides()[0].stats());
}

/// The screen as text, drawn on an 80x27 terminal.
fn screen(app: &App) -> String {
    let mut terminal = ratatui::Terminal::new(ratatui::backend::TestBackend::new(80, 27)).unwrap();
    terminal.draw(|frame| tetrad::tui::ui::draw(frame, app)).unwrap();
    let buffer = terminal.backend().buffer();
    let symbols: Vec<&str> = buffer.content().iter().map(|cell| cell.symbol()).collect();
    symbols.chunks(80).map(|row| row.concat() + "\n").collect()
}

fn verified(path: &Path) -> Replay {
    let output = run(&["replay", "--verify", path.to_str().unwrap()]);
    assert!(output.status.success(), "{}: {}", path.display(), stderr(&output));
    Replay::load(path).unwrap()
}

#[test]
fn a_person_plays_a_bot_live_on_the_terminal_screen_and_every_game_is_recorded_and_counted() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("games")).unwrap();
    let mut app = live_app(dir.path());
    assert!(app.is_timed(), "the terminal must report key releases");
    assert_eq!(app.player(0), "you");
    assert_eq!(app.player(1), "bcts 0.1.0");
    // The countdown: the game's time stands at 0, a tap is played at time 0.
    let start = falling_x(&app);
    frames(&mut app, 10);
    assert!(app.countdown().is_some_and(|left| left < Duration::from_millis(400)));
    assert_eq!(app.play_time(), Some(Duration::ZERO));
    let text = screen(&app);
    assert!(text.contains("play versus") && text.contains("starts in 1"), "{text}");
    assert!(text.contains(" you ") && text.contains(" bcts 0.1.0 "), "{text}");
    // Left held past DAS (167 ms, 10 frames) once the game runs: one shift at once, then
    // the repeats; the terminal's own repeats add nothing.
    frames(&mut app, 20);
    assert!(app.countdown().is_none());
    key(&mut app, KeyCode::Left, KeyEventKind::Press);
    key(&mut app, KeyCode::Left, KeyEventKind::Repeat);
    frames(&mut app, 5);
    assert_eq!(falling_x(&app), start - 1);
    frames(&mut app, 8);
    assert!(falling_x(&app) < start - 1, "DAS elapsed, the shift repeats");
    key(&mut app, KeyCode::Left, KeyEventKind::Release);
    // A game against a bot does not pause: its time goes on.
    let before = app.play_time().unwrap();
    app.on_key(KeyEvent::new(KeyCode::Char('p'), KeyModifiers::NONE));
    frames(&mut app, 6);
    assert!(!app.paused());
    assert!(app.status().is_some_and(|status| status.contains("does not pause")));
    assert!(app.play_time().unwrap() >= before + Duration::from_millis(90));
    drop_to_the_end(&mut app);
    let ends: Vec<RecordedEnd> = app.sides().iter().filter_map(|side| side.end()).collect();
    assert_eq!(ends, [RecordedEnd::Capped, RecordedEnd::Capped], "8 pieces, a draw");
    // The boards followed the live games, in the colours of the pieces that locked.
    let person = app.sides()[0].tracked();
    let rules = person.game().rules();
    let (width, height) = (rules.width, rules.height);
    let cells: Vec<Option<Cell>> = (0..width * height).map(|i| person.cell(i % width, i / width)).collect();
    assert!(cells.iter().any(|cell| matches!(cell, Some(Cell::Piece(_)))));
    assert!(!cells.contains(&Some(Cell::Unknown)), "every lock was seen and painted");
    let text = screen(&app);
    for shown in ["PPS", "APM", "VS", "0:0", "DRAW", "r or n next game"] {
        assert!(text.contains(shown), "{shown}:\n{text}");
    }
    let Rates { pps, apm, vs } = app.rates(1).unwrap();
    assert!(pps > 0.0 && apm >= 0.0 && (vs - apm * 100.0 / 60.0).abs() < 1e-6);
    let status = app.status().unwrap_or_default().to_string();
    assert!(status.contains("game-1.json") && status.contains("counted"), "{status}");

    let first = verified(&dir.path().join("games/game-1.json"));
    assert_eq!(first.seats[0].result.pieces, 8);
    assert_eq!(first.seats[0].players[0].handling, Some(Handling::default()));
    assert!(first.seats[0].keys.as_ref().is_some_and(|keys| keys.len() >= 16));
    assert_eq!(first.seats[1].players[0].name, "bcts");

    // The next game (`r`, as `n`): the next game's pieces, its own countdown; quit while
    // it is played, it is recorded stopped, and `--record` keeps it, the last.
    app.on_key(KeyEvent::new(KeyCode::Char('r'), KeyModifiers::NONE));
    assert!(app.countdown().is_some());
    assert!(app.sides().iter().all(|side| side.end().is_none()));
    frames(&mut app, 40);
    tap(&mut app, KeyCode::Char(' '));
    frames(&mut app, 5);
    app.on_key(KeyEvent::new(KeyCode::Char('q'), KeyModifiers::NONE));
    assert!(app.should_quit());
    assert!(app.take_results_error().is_none() && app.take_save_error().is_none());
    let second = verified(&dir.path().join("games/game-2.json"));
    assert_eq!(second.seats[0].result.end, RecordedEnd::Unfinished);
    assert_eq!(second.seats[0].result.pieces, 1);
    assert_ne!(second.seed, first.seed, "the next game is dealt other pieces");
    assert_eq!(
        std::fs::read(dir.path().join("last.json")).unwrap(),
        std::fs::read(dir.path().join("games/game-2.json")).unwrap()
    );

    // The results file holds the finished game only, and rates the person.
    let out = dir.path().join("me.jsonl");
    let lines: Vec<Value> = std::fs::read_to_string(&out)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert_eq!(lines.len(), 2, "the header and one game");
    assert_eq!(lines[0]["config"]["entrants"][0]["plugin"], "person");
    assert_eq!(lines[1]["game"], 0);
    assert_eq!(lines[1]["seats"][0]["result"]["pieces"], 8);
    let report = run(&["merge", out.to_str().unwrap(), "--format", "json"]);
    assert!(report.status.success(), "{}", stderr(&report));
    let report: Value = serde_json::from_str(&stdout(&report)).unwrap();
    let labels: Vec<&str> = report["rated"]
        .as_array()
        .unwrap()
        .iter()
        .map(|rated| rated["label"].as_str().unwrap())
        .collect();
    assert!(labels.contains(&"ana") && labels.contains(&"bcts"), "{report}");

    // A second session continues the file (the first let go of it): its first game is
    // the file's next.
    drop(app);
    let mut again = live_app(dir.path());
    frames(&mut again, 31);
    drop_to_the_end(&mut again);
    again.on_key(KeyEvent::new(KeyCode::Char('q'), KeyModifiers::NONE));
    let text = std::fs::read_to_string(&out).unwrap();
    let games: Vec<u64> = text
        .lines()
        .skip(1)
        .map(|line| serde_json::from_str::<Value>(line).unwrap()["game"].as_u64().unwrap())
        .collect();
    assert_eq!(games, [0, 1]);
}

#[test]
fn real_time_versus_options_out_of_place_are_one_line_errors() {
    for (args, needle) in [
        (
            &["play", "--versus", "--gravity", "guideline"][..],
            "play needs a terminal",
        ),
        (
            &["play", "--versus", "--gravity", "1", "--preset", "classic"][..],
            "guideline only",
        ),
        (
            &["play", "--preset", "guideline", "--gravity", "1", "--pps", "2"][..],
            "--pps is for a game against a bot in real time: add --versus",
        ),
        (&["play", "--record-games", "d"][..], "--versus"),
        // An option of real-time play with --versus plays in real time, the person's
        // handling too; without a game in real time, handling is refused.
        (&["play", "--versus", "--pps", "2"][..], "play needs a terminal"),
        (&["play", "--versus", "--das", "100"][..], "play needs a terminal"),
        (&["play", "--das", "100"][..], "--gravity"),
        (
            &["play", "--versus", "--out", "me.jsonl", "--preset", "classic"][..],
            "guideline only",
        ),
        (
            &[
                "play",
                "--versus",
                "--gravity",
                "1",
                "--plugin",
                "random",
                "--options",
                "x=1",
            ][..],
            "unknown option",
        ),
    ] {
        let output = run(args);
        assert_one_line_error(&output, needle);
        assert_ne!(output.status.code(), Some(0));
    }
}

//! Render tests: the screen drawn into ratatui's `TestBackend`, read back as text and
//! colours.

use super::*;
use crate::replay::{Outcome, PlayerRecord, Replay};
use crate::setup::Setup;
use crate::tui::app::Session;
use crate::tui::playback::Playback;
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::Terminal;
use tetrad_plugin_api::Actions;

fn render(app: &App, width: u16, height: u16) -> Buffer {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    terminal.draw(|frame| draw(frame, app)).unwrap();
    terminal.backend().buffer().clone()
}

fn text(buffer: &Buffer) -> Vec<String> {
    let width = buffer.area.width as usize;
    buffer
        .content()
        .chunks(width)
        .map(|row| row.iter().map(|cell| cell.symbol()).collect())
        .collect()
}

fn play_app() -> App {
    App::play(Session {
        setup: Setup::default(),
        seed: 1,
        record: None,
    })
}

fn press(app: &mut App, code: KeyCode) {
    app.on_key(KeyEvent::new(code, KeyModifiers::NONE));
}

#[test]
fn the_board_shows_the_falling_piece_in_colour_two_columns_per_cell() {
    let app = play_app();
    let buffer = render(&app, 80, 30);
    let lines = text(&buffer);
    assert!(lines[0].starts_with("┌ tetrad play "), "{}", lines[0]);
    // The falling piece: its cells on the screen at column 1 + 2x, row 1 + y.
    let game = app.tracked().game();
    let falling = game.current().unwrap();
    let shape = game.pieces().kind(falling.piece).orientation(falling.pos.orientation);
    for &(dx, dy) in shape.cells() {
        let (x, y) = ((falling.pos.x + dx) as u16, (falling.pos.y + dy) as u16);
        let cell = &buffer[(1 + 2 * x, 1 + y)];
        assert_eq!(cell.symbol(), "█");
        assert_eq!(cell.fg, colour(falling.piece));
        assert_eq!(buffer[(2 + 2 * x, 1 + y)].symbol(), "█", "two columns per cell");
    }
    // The bottom row is empty: ten empty cells between the walls.
    assert_eq!(lines[20], format!("│{}│", EMPTY.repeat(10)) + &" ".repeat(80 - 22));
    assert_eq!(lines[21], format!("└{}┘", "─".repeat(20)) + &" ".repeat(80 - 22));
}

#[test]
fn locked_cells_keep_their_piece_colour() {
    let mut app = play_app();
    let first = app.tracked().game().current().unwrap().piece;
    press(&mut app, KeyCode::Char(' '));
    press(&mut app, KeyCode::Down);
    assert_eq!(app.stats().pieces, 1);
    let buffer = render(&app, 80, 30);
    let bottom: Vec<_> = (0..10u16).map(|x| &buffer[(1 + 2 * x, 20)]).collect();
    let filled: Vec<_> = bottom.iter().filter(|c| c.symbol() == "█").collect();
    assert!(!filled.is_empty(), "the piece locked on the floor");
    assert!(filled.iter().all(|c| c.fg == colour(first)));
}

#[test]
fn the_panel_shows_the_numbers_the_next_piece_and_the_player() {
    let mut app = play_app();
    for _ in 0..3 {
        press(&mut app, KeyCode::Char(' '));
        press(&mut app, KeyCode::Down);
    }
    let lines = text(&render(&app, 80, 30)).join("\n");
    for expected in [
        "you",
        "at the keyboard",
        "classic 10x20, uniform",
        "next",
        "level",
        "points",
        "pieces/s",
        "µs/update",
        "speed",
        "level, 500 ms",
        "? keys",
    ] {
        assert!(lines.contains(expected), "`{expected}` missing from:\n{lines}");
    }
    let pieces = lines.lines().find(|l| l.contains("pieces ")).unwrap();
    assert!(pieces.trim_end().ends_with(" 3"), "{pieces}");
    let seed = format!("seed {:#018x}", app.game_seed());
    assert!(lines.contains(&seed), "{seed}");
    // The next piece is drawn under "next", in its colour.
    let next = app.tracked().game().preview().unwrap();
    let buffer = render(&app, 80, 30);
    let next_row = text(&buffer).iter().position(|l| l.contains("next")).unwrap() as u16 + 1;
    let cells: Vec<_> = (22..80u16)
        .map(|x| &buffer[(x, next_row)])
        .filter(|c| c.symbol() == "█")
        .collect();
    assert!(!cells.is_empty() && cells.iter().all(|c| c.fg == colour(next)));
}

#[test]
fn help_pause_and_game_over_are_shown() {
    let mut app = play_app();
    press(&mut app, KeyCode::Char('p'));
    assert!(text(&render(&app, 80, 30)).join("\n").contains("PAUSED"));
    press(&mut app, KeyCode::Char('?'));
    let screen = text(&render(&app, 80, 30)).join("\n");
    for expected in ["keys", "turn counter-clockwise", "drop", "quit"] {
        assert!(screen.contains(expected), "`{expected}` missing from:\n{screen}");
    }
    press(&mut app, KeyCode::Esc);
    press(&mut app, KeyCode::Char('p'));
    while app.end().is_none() {
        press(&mut app, KeyCode::Char(' '));
    }
    let screen = text(&render(&app, 80, 30)).join("\n");
    assert!(screen.contains("GAME OVER: topped out"), "{screen}");
}

#[test]
fn a_replay_shows_its_player_and_progress() {
    let setup = Setup::default();
    let mut replay = Replay::new(&setup, 9);
    replay.seats[0].players.push(PlayerRecord {
        version: Some("0.1.0".to_string()),
        ..PlayerRecord::human(0)
    });
    replay.seats[0].players[0].name = "random".to_string();
    replay.seats[0].actions = vec![Actions::DROP.0; 3];
    let mut game = crate::engine::Game::new(setup.rules, setup.pieces.clone(), 9);
    for _ in 0..3 {
        game.tick(Actions::DROP);
    }
    replay.seats[0].result = Outcome::new(game.stats(), RecordedEnd::Unfinished);
    let app = App::replay(Playback::new(replay).unwrap());
    let screen = text(&render(&app, 80, 30)).join("\n");
    for expected in ["tetrad replay", "random 0.1.0", "tick 0 of 3"] {
        assert!(screen.contains(expected), "`{expected}` missing from:\n{screen}");
    }
}

#[test]
fn a_small_terminal_gets_a_message_instead_of_a_broken_board() {
    let lines = text(&render(&play_app(), 40, 10)).join("");
    assert!(
        lines.contains("The terminal is 40x10; this board needs 54x25."),
        "{lines}"
    );
}

/// A versus game on a narrow well, where lines clear often and garbage flies: each seat
/// drops by its own pattern, recorded as the game loop plays it.
fn versus_replay() -> Replay {
    let mut setup = Setup::default();
    setup.rules.width = 4;
    setup.rules.height = 12;
    setup.attack = Some("4".parse().unwrap());
    let seed = 9;
    let mut replay = Replay::new(&setup, seed);
    let mut games: Vec<crate::engine::Game> = (0..2)
        .map(|_| {
            let mut game = crate::engine::Game::new(setup.rules, setup.pieces.clone(), seed);
            game.enable_garbage(setup.attack.clone().unwrap(), seed);
            game
        })
        .collect();
    let pattern = [
        Actions::DROP,
        Actions::LEFT | Actions::DROP,
        Actions::RIGHT | Actions::DROP,
    ];
    let mut tick = 0;
    while games.iter().all(|game| !game.is_over()) {
        for (seat, game) in games.iter_mut().enumerate() {
            let actions = pattern[(tick + seat) % pattern.len()];
            replay.seats[seat].actions.push(actions.0);
            game.tick(actions);
        }
        crate::engine::pass_garbage(games.iter_mut());
        tick += 1;
    }
    let lost: Vec<bool> = games.iter().map(|game| game.is_over()).collect();
    for (seat, game) in games.iter().enumerate() {
        let end = if lost[seat] {
            RecordedEnd::ToppedOut
        } else {
            RecordedEnd::Won
        };
        replay.seats[seat].players.push(PlayerRecord::human(0));
        replay.seats[seat].result = Outcome::of_game(game, end);
    }
    replay
}

#[test]
fn versus_shows_two_boards_their_garbage_meters_and_the_verdict() {
    let playback = Playback::new(versus_replay()).unwrap();
    assert_eq!(playback.problem(), None, "the recording verifies");
    let mut app = App::replay(playback);
    assert_eq!(app.sides().len(), 2);
    // Step until garbage waits under one board: the meter shows one red cell a row.
    let waiting = loop {
        press(&mut app, KeyCode::Char('s'));
        if let Some(board) = app.sides().iter().position(|side| side.garbage().unwrap().pending > 0) {
            break board;
        }
        assert!(app.sides().iter().all(|side| side.end().is_none()), "no garbage waited");
    };
    let pending = app.sides()[waiting].garbage().unwrap().pending as u16;
    let buffer = render(&app, 80, 24);
    let screen = text(&buffer).join("\n");
    for expected in ["replay versus", "classic 4x12", "tick ", "waiting", "sent", "received"] {
        assert!(screen.contains(expected), "`{expected}` missing from:\n{screen}");
    }
    // Each board is 2 (meter) + 10 (well and walls) + 16 (panel) columns wide.
    let meter_x = 28 * waiting as u16;
    let bottom = 1 + 12; // the header, then the frame's top edge, then 12 rows
    let red: Vec<u16> = (2..=bottom)
        .filter(|&y| buffer[(meter_x, y)].symbol() == "█" && buffer[(meter_x, y)].fg == Color::Red)
        .collect();
    assert_eq!(red.len() as u16, pending.min(12), "{screen}");
    assert_eq!(red.last(), Some(&bottom), "the meter fills from the bottom");
    // At the end, one board won and the other lost.
    press(&mut app, KeyCode::End);
    let screen = text(&render(&app, 80, 24)).join("\n");
    assert!(screen.contains("WON") && screen.contains("LOST"), "{screen}");
    assert!(screen.contains("topped out"), "{screen}");
}

#[test]
fn versus_needs_room_for_both_boards() {
    let app = App::replay(Playback::new(versus_replay()).unwrap());
    let lines = text(&render(&app, 50, 24)).join("");
    assert!(
        lines.contains("The terminal is 50x24; this board needs 56x22."),
        "{lines}"
    );
}

#[test]
fn a_guideline_board_shows_its_field_and_spawn_rows_and_the_queue() {
    let setup = Setup::new(
        tetrad_plugin_api::Rules::preset(tetrad_plugin_api::Preset::Guideline),
        std::sync::Arc::new(tetrad_plugin_api::PieceSet::srs()),
    )
    .unwrap();
    let app = App::play(Session {
        setup,
        seed: 1,
        record: None,
    });
    let lines = text(&render(&app, 80, 30));
    // The frame holds 22 rows: two buffer rows (blank) over the 20 of the field.
    let bottom = lines.iter().position(|l| l.starts_with("└")).unwrap();
    assert_eq!(bottom, 23, "{}", lines.join("\n"));
    // The piece entered one row under its spawn: its bottom in the field's top row, its
    // top in the lowest buffer row; the field under it is empty.
    assert!(
        !lines[3].starts_with(&format!("│{}│", EMPTY.repeat(10))),
        "{}",
        lines[3]
    );
    assert!(lines[4].starts_with(&format!("│{}│", EMPTY.repeat(10))), "{}", lines[4]);
    assert!(
        !lines[1].contains(EMPTY.trim()) && !lines[2].contains(EMPTY.trim()),
        "the spawn rows are blank but for the piece"
    );
    let screen = lines.join("\n");
    assert!(screen.contains("then ") && screen.contains("hold -"), "{screen}");
    assert_eq!(app.tracked().game().queue().count(), 6);
}

#[test]
fn a_long_status_wraps_at_spaces_and_loses_nothing() {
    let error = "cannot open: plugin `/home/someone/a/rather/long/path/to/libtetrad_plugin_dropper.so`: \
                 not a tetrad plugin (no tetrad_abi_version symbol: undefined symbol)";
    for width in [20, 40, 80] {
        let lines = wrap_text(error, width);
        assert!(lines.iter().all(|l| l.chars().count() <= width), "{lines:?}");
        let words: Vec<&str> = lines
            .iter()
            .flat_map(|l| l.split(' '))
            .filter(|w| !w.is_empty())
            .collect();
        let whole: String = words.concat();
        assert_eq!(whole, error.split(' ').collect::<String>(), "width {width}");
    }
    assert_eq!(wrap_text("short", 80), ["short"]);
    assert_eq!(wrap_text("abcdefgh ij", 4), ["abcd", "efgh", "ij"]);
}

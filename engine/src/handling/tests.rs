//! DAS, ARR, priority and the soft drop at hand-checked times, alone and on a game.

use super::*;
use crate::engine::{Game, Gravity, Timing};
use std::sync::Arc;
use tetrad_plugin_api::{Actions, PieceId, PieceSet, Preset, Rules};

fn press(ms: u64, key: &str) -> KeyEvent {
    KeyEvent {
        time_us: ms * 1000,
        key: key.to_string(),
        pressed: true,
    }
}

fn release(ms: u64, key: &str) -> KeyEvent {
    KeyEvent {
        pressed: false,
        ..press(ms, key)
    }
}

fn handling(das_ms: u32, arr_ms: u32) -> Handling {
    Handling {
        das_ms,
        arr_ms,
        ..Handling::default()
    }
}

/// The commands' times in milliseconds.
fn at_ms(commands: &[Timed]) -> Vec<(u64, Command)> {
    commands.iter().map(|&(us, command)| (us / 1000, command)).collect()
}

#[test]
fn a_held_key_shifts_once_then_after_das_every_arr_and_stops_when_released() {
    let events = [press(1000, "ArrowLeft"), release(1300, "ArrowLeft")];
    let got = commands(&handling(167, 33), &events, 2_000_000).unwrap();
    // At once; at DAS (1167); then every 33 ms while held: 1200, 1233, 1266, 1299.
    let left = Command::Shift(-1);
    assert_eq!(
        at_ms(&got),
        [
            (1000, left),
            (1167, left),
            (1200, left),
            (1233, left),
            (1266, left),
            (1299, left)
        ]
    );
}

#[test]
fn arr_zero_goes_to_the_wall_at_das_and_a_key_the_system_repeats_acts_once() {
    let events = [
        press(0, "ArrowRight"),
        press(50, "ArrowRight"),
        press(90, "ArrowRight"),
        release(400, "ArrowRight"),
    ];
    let got = commands(&handling(100, 0), &events, 1_000_000).unwrap();
    assert_eq!(at_ms(&got), [(0, Command::Shift(1)), (100, Command::ShiftToWall(1))]);
}

#[test]
fn the_last_shift_pressed_wins_and_releasing_it_gives_the_shift_back() {
    let events = [
        press(0, "ArrowLeft"),
        press(50, "ArrowRight"),
        release(120, "ArrowRight"),
        release(200, "ArrowLeft"),
    ];
    let got = commands(&handling(100, 50), &events, 1_000_000).unwrap();
    // Left at 0; right at 50 takes over (its DAS from 50, never reached); released at
    // 120, left shifts again and its DAS starts over: due at 220, but released at 200.
    assert_eq!(
        at_ms(&got),
        [
            (0, Command::Shift(-1)),
            (50, Command::Shift(1)),
            (120, Command::Shift(-1))
        ]
    );
    // Releasing the key that is not shifting changes nothing.
    let events = [press(0, "ArrowLeft"), press(10, "ArrowRight"), release(20, "ArrowLeft")];
    let got = commands(&handling(100, 50), &events, 160_000).unwrap();
    assert_eq!(
        at_ms(&got),
        [
            (0, Command::Shift(-1)),
            (10, Command::Shift(1)),
            (110, Command::Shift(1)),
            (160, Command::Shift(1))
        ]
    );
}

#[test]
fn turns_drops_hold_and_the_half_turn_only_where_enabled() {
    let events = [
        press(0, "KeyX"),
        release(5, "KeyX"),
        press(10, "KeyZ"),
        press(20, "KeyA"),
        press(30, "ArrowDown"),
        release(40, "ArrowDown"),
        press(50, "KeyC"),
        press(60, "Space"),
        press(70, "KeyQ"),
    ];
    let off = commands(&Handling::default(), &events, 100_000).unwrap();
    let expected = [
        (0, Command::Turn(1)),
        (10, Command::Turn(-1)),
        (30, Command::SoftDrop(true)),
        (40, Command::SoftDrop(false)),
        (50, Command::Hold),
        (60, Command::HardDrop),
    ];
    assert_eq!(at_ms(&off), expected);
    let on = Handling {
        turn_180: true,
        ..Handling::default()
    };
    assert_eq!(
        at_ms(&commands(&on, &events, 100_000).unwrap())[2],
        (20, Command::Turn(2))
    );
    let backwards = [press(10, "KeyX"), press(5, "KeyZ")];
    assert_eq!(
        commands(&on, &backwards, 100_000),
        Err(HandlingError::OutOfOrder {
            index: 1,
            time_us: 5000
        })
    );
}

#[test]
fn handling_is_written_and_read_back() {
    let handling = Handling {
        soft_drop: SoftDrop::Instant,
        ..Handling::default()
    };
    let text = serde_json::to_string(&handling).unwrap();
    assert!(
        text.contains(r#""soft_drop":"instant""#) && text.contains(r#""ArrowLeft":"left""#),
        "{text}"
    );
    assert_eq!(serde_json::from_str::<Handling>(&text).unwrap(), handling);
    assert_eq!("instant".parse(), Ok(SoftDrop::Instant));
    assert_eq!("20x".parse(), Ok(SoftDrop::Factor(20)));
    assert!("0".parse::<SoftDrop>().is_err() && "fast".parse::<SoftDrop>().is_err());
}

/// A guideline game with an O falling at 1/60 G.
fn game() -> Game {
    let mut game = Game::new(Rules::preset(Preset::Guideline), Arc::new(PieceSet::srs()), 1);
    game.set_current(PieceId(1));
    let timing = Timing {
        gravity: Gravity::Fixed(1.0 / 60.0),
        ..Timing::guideline()
    };
    game.enable_timing(timing).unwrap();
    game
}

fn x(game: &Game) -> i8 {
    game.current().unwrap().pos.x
}

#[test]
fn on_a_game_arr_zero_reaches_the_wall_and_a_held_shift_takes_the_next_piece_there() {
    let mut game = game();
    let mut hands = Hands::new(handling(100, 0));
    // The O's columns 4 and 5: one shift, then at DAS to the wall (column 0).
    hands.key(&mut game, &press(0, "ArrowLeft"));
    assert_eq!(x(&game), 3);
    let played = hands.until(&mut game, 100_000);
    assert_eq!(x(&game), 0);
    assert!(played
        .iter()
        .all(|p| p.time_us == 100_000 && p.actions == Some(Actions::LEFT)));
    // Still held: the next piece goes to the wall as it enters.
    hands.key(&mut game, &press(200, "Space"));
    let left_wall = game.current().map(|f| {
        let kind = game.pieces().kind(f.piece);
        f.pos.x + kind.orientation(f.pos.orientation).left()
    });
    assert_eq!((game.stats().pieces, left_wall), (1, Some(0)));
}

#[test]
fn on_a_game_a_soft_drop_falls_at_its_factor_and_the_same_keys_give_the_same_game() {
    let events = [
        press(0, "ArrowDown"),
        release(500, "ArrowDown"),
        press(600, "ArrowRight"),
        release(700, "ArrowRight"),
    ];
    let play = |step_us: u64| {
        let mut game = game();
        let mut hands = Hands::new(handling(167, 33));
        let mut played = Vec::new();
        let mut next = 0;
        for event in &events {
            // Asked for the time now and then, between events, as a screen's frames do.
            while next < event.time_us {
                played.extend(hands.until(&mut game, next));
                next += step_us;
            }
            played.extend(hands.key(&mut game, event));
        }
        played.extend(hands.until(&mut game, 3_000_000));
        (game.current(), game.stats(), played)
    };
    let (current, stats, played) = play(16_667);
    // Soft drop 6 times 1 row a second: a row every 166 666 µs, three rows by 500 ms.
    // Then gravity: rows at 1.5 s and 2.5 s, so 5 rows below the entry row 19.
    assert_eq!(current.map(|f| f.pos.y), Some(24));
    assert_eq!(played.iter().filter(|p| p.actions.is_some()).count(), 1);
    assert_eq!(stats.ticks, 1);
    assert_eq!(play(1_000).0, current, "the same whatever the frame rate");
    assert_eq!(play(1_000).2, played);
}

//! Replays of games under timing rules: a person's key events re-derive their game, and
//! a replay whose keys, ticks or timing were changed does not verify.

use super::super::{Outcome, PlayerRecord, RecordedEnd, Replay};
use crate::engine::{Game, Gravity, Timing};
use crate::handling::{Handling, Hands, KeyEvent};
use crate::referee::ended;
use crate::setup::Setup;
use std::sync::Arc;
use tetrad_plugin_api::{PieceSet, Preset, Rules};

fn key(ms: u64, key: &str, pressed: bool) -> KeyEvent {
    KeyEvent {
        time_us: ms * 1000,
        key: key.to_string(),
        pressed,
    }
}

/// A person's game at 1G, recorded as the terminal or the page would record it: a few
/// pieces shifted, turned, soft-dropped, and one left to fall and lock by itself.
fn person() -> Replay {
    let mut setup = Setup::new(Rules::preset(Preset::Guideline), Arc::new(PieceSet::srs())).unwrap();
    setup.timing = Some(Timing {
        gravity: Gravity::Fixed(1.0),
        ..Timing::guideline()
    });
    let handling = Handling::default();
    let keys = vec![
        key(100, "ArrowLeft", true),
        key(400, "ArrowLeft", false),
        key(500, "Space", true),
        key(550, "Space", false),
        key(600, "KeyX", true),
        key(650, "KeyX", false),
        key(700, "ArrowDown", true),
        key(900, "ArrowDown", false),
        key(950, "ArrowRight", true),
        key(990, "ArrowRight", false),
        // Nothing pressed for two seconds: the piece lands and locks by itself.
        key(3000, "Space", true),
        key(3050, "Space", false),
    ];
    let end_us = 3_500_000;
    let mut game = Game::new(setup.rules, setup.pieces.clone(), 4);
    game.enable_timing(setup.timing.unwrap()).unwrap();
    let mut hands = Hands::new(handling.clone());
    let mut played = Vec::new();
    for event in &keys {
        played.extend(hands.key(&mut game, event));
    }
    played.extend(hands.until(&mut game, end_us));
    let mut replay = Replay::new(&setup, 4);
    let seat = &mut replay.seats[0];
    seat.players.push(PlayerRecord {
        handling: Some(handling),
        ..PlayerRecord::human(0)
    });
    let ticks: Vec<_> = played
        .iter()
        .filter_map(|p| p.actions.map(|a| (a.0, p.time_us)))
        .collect();
    seat.actions = ticks.iter().map(|t| t.0).collect();
    seat.times_us = Some(ticks.iter().map(|t| t.1).collect());
    seat.end_us = Some(end_us);
    seat.keys = Some(keys);
    let end = ended(&game, None).map_or(RecordedEnd::Unfinished, Into::into);
    seat.result = Outcome::new(game.stats(), end);
    // The second piece rests after its soft drop; the shift at 950 ms restarts its lock
    // delay, so it locks by itself 500 ms later.
    let by_delay: Vec<u64> = played
        .iter()
        .filter(|p| p.actions.is_none() && p.report.locked.is_some())
        .map(|p| p.time_us)
        .collect();
    assert_eq!(by_delay.first(), Some(&1_450_000), "{by_delay:?}");
    replay
}

#[test]
fn a_persons_timed_game_survives_the_file_and_verifies_from_its_keys() {
    let replay = person();
    // Two hard drops, and three pieces left to lock by themselves (at 1.45 s and later).
    assert_eq!(replay.seats[0].result.pieces, 5);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("timed.json");
    replay.save(&path).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains(r#""timing":{"gravity":{"fixed":1.0},"lock_delay_ms":500,"move_reset_limit":15}"#));
    assert!(text.contains(r#""das_ms":167"#) && text.contains(r#""key":"ArrowLeft","pressed":true"#));
    let loaded = Replay::load(&path).unwrap();
    assert_eq!(loaded, replay);
    assert_eq!(loaded.verify().unwrap(), [replay.seats[0].result]);
}

#[test]
fn changed_keys_handling_or_timing_do_not_verify() {
    let replay = person();
    // A later key press gives other ticks than those recorded.
    let mut moved = replay.clone();
    moved.seats[0].keys.as_mut().unwrap()[0].time_us += 1000;
    let err = moved.verify().unwrap_err().to_string();
    assert!(err.contains("the key events give tick 0"), "{err}");
    // Another DAS gives other repeats.
    let mut slower = replay.clone();
    slower.seats[0].players[0].handling.as_mut().unwrap().das_ms = 300;
    assert!(slower.verify().is_err());
    // Without the timing rules the third piece never locks, and the ticks have no
    // business recording times.
    let mut untimed = replay.clone();
    untimed.setup.timing = None;
    assert!(untimed.verify().is_err());
    // A slower lock delay: the piece left alone has not locked by the game's end.
    let mut patient = replay.clone();
    patient.setup.timing = Some(Timing {
        lock_delay_ms: 5000,
        ..replay.setup.timing.unwrap()
    });
    let err = patient.verify().unwrap_err().to_string();
    assert!(err.contains("pieces"), "{err}");
}

#[test]
fn a_timed_game_recorded_as_ticks_verifies_at_their_times() {
    let mut replay = person();
    replay.seats[0].keys = None;
    assert_eq!(replay.verify().unwrap(), [replay.seats[0].result]);
    // The same ticks a second later each: the rows fall first, so other locks.
    let mut late = replay.clone();
    for time in late.seats[0].times_us.iter_mut().flatten() {
        *time += 1_000_000;
    }
    late.seats[0].end_us = Some(4_500_000);
    assert!(late.verify().is_err());
}

#[test]
fn a_game_that_tops_out_by_itself_between_ticks_verifies() {
    // Nobody presses a key: at 20G every piece falls at once and locks half a second later
    // in the middle columns, until one cannot enter.
    let mut setup = Setup::new(Rules::preset(Preset::Guideline), Arc::new(PieceSet::srs())).unwrap();
    let timing = Timing {
        gravity: Gravity::Fixed(20.0),
        ..Timing::guideline()
    };
    setup.timing = Some(timing);
    let mut game = Game::new(setup.rules, setup.pieces.clone(), 9);
    game.enable_timing(timing).unwrap();
    let mut hands = Hands::new(Handling::default());
    let end_us = 60_000_000;
    let locks = hands.until(&mut game, end_us);
    assert!(game.is_over() && locks.iter().all(|p| p.actions.is_none()));
    let topped_at = locks.last().map(|p| p.time_us).unwrap();
    assert!(topped_at < end_us);
    let mut replay = Replay::new(&setup, 9);
    let seat = &mut replay.seats[0];
    seat.players.push(PlayerRecord {
        handling: Some(Handling::default()),
        ..PlayerRecord::human(0)
    });
    seat.times_us = Some(Vec::new());
    seat.end_us = Some(topped_at);
    seat.keys = Some(Vec::new());
    seat.result = Outcome::new(game.stats(), RecordedEnd::ToppedOut);
    assert_eq!(replay.verify().unwrap(), [replay.seats[0].result]);
    // Ended a microsecond before the last lock, the game was not over.
    replay.seats[0].end_us = Some(topped_at - 1);
    assert!(replay.verify().is_err());
}

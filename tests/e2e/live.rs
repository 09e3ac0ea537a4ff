//! A person against a bot as it is played (`tetrad::runner::Live`): timed key events
//! through the person's handling (a held key moves by DAS then ARR, a soft drop, a hold,
//! a drop) against a real bot library, under timing rules with garbage; the game's record
//! verifies, and a key moved in time does not.

use crate::common::*;
use std::sync::Arc;
use tetrad::engine::{AttackTable, Gravity, Pace, Speed, Timing};
use tetrad::handling::{Handling, KeyEvent};
use tetrad::plugin::Plugin;
use tetrad::referee::End;
use tetrad::replay::{RecordedEnd, Replay};
use tetrad::runner::Live;
use tetrad::setup::Setup;
use tetrad_plugin_api::{Actions, Preset, Rules};

fn setup(gravity: f64) -> Setup {
    let rules = Rules::preset(Preset::Guideline);
    let mut setup = Setup::new(rules, Arc::new(Preset::Guideline.pieces())).unwrap();
    setup.attack = Some(AttackTable::guideline());
    setup.pace = Pace::Realtime;
    setup.speed = Speed {
        pps: Some(2.0),
        move_ms: 0.0,
    };
    setup.timing = Some(Timing {
        gravity: Gravity::Fixed(gravity),
        ..Timing::guideline()
    });
    setup
}

fn key(ms: u64, key: &str, pressed: bool) -> KeyEvent {
    KeyEvent {
        time_us: ms * 1000,
        key: key.to_string(),
        pressed,
    }
}

fn bot() -> Plugin {
    Plugin::load(&built_plugin("tetrad-plugin-bcts")).unwrap()
}

#[test]
fn a_person_plays_a_bot_live_by_their_handling_and_the_record_verifies() {
    let plugin = bot();
    let mut live = Live::new(setup(1.0 / 60.0), 11, Handling::default(), (&plugin, "")).unwrap();
    // Left held from 100 ms to 400 ms: a shift at once, then at DAS (167 ms) and every
    // ARR (33 ms) after it. Then a soft drop held, a hard drop, a hold, a
    // turn and a drop.
    let script = [
        key(100, "ArrowLeft", true),
        key(400, "ArrowLeft", false),
        key(500, "ArrowDown", true),
        key(700, "ArrowDown", false),
        key(800, "Space", true),
        key(820, "Space", false),
        key(900, "KeyC", true),
        key(950, "KeyC", false),
        key(1000, "ArrowUp", true),
        key(1010, "ArrowUp", false),
        key(1100, "Space", true),
        key(1110, "Space", false),
    ];
    let mut events = script.iter().peekable();
    // Frames of 16 ms, the events handed over as a page would, at the frame after them.
    for frame in 0..200u64 {
        let now = frame * 16_667;
        while let Some(event) = events.next_if(|event| event.time_us <= now) {
            live.key(event.clone());
        }
        live.run_until(now);
    }
    live.stop(200 * 16_667);
    let replay = Replay::of_live(&live).expect("stopped");
    let person = &replay.seats[0];
    let times = person.times_us.as_ref().unwrap();
    let lefts: Vec<u64> = person
        .actions
        .iter()
        .zip(times)
        .filter(|(&bits, _)| bits == Actions::LEFT.0)
        .map(|(_, &time)| time)
        .collect();
    assert_eq!(
        lefts,
        [100_000, 267_000, 300_000, 333_000, 366_000, 399_000],
        "a shift at once, at DAS, then every ARR until the release"
    );
    let has = |bits: Actions| person.actions.contains(&bits.0);
    assert!(
        has(Actions::HOLD) && has(Actions::DROP) && has(Actions::CW),
        "{:?}",
        person.actions
    );
    assert!(person.result.pieces >= 2, "{:?}", person.result);
    assert_eq!(person.result.end, RecordedEnd::Unfinished);
    assert!(
        replay.seats[1].result.pieces >= 2,
        "the bot played: {:?}",
        replay.seats[1].result
    );
    // The key events and the handling are the record: it verifies through the file.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("live.json");
    replay.save(&path).unwrap();
    let output = run(&["replay", "--verify", path.to_str().unwrap()]);
    assert!(output.status.success(), "{}", stderr(&output));

    let mut moved = replay.clone();
    moved.seats[0].keys.as_mut().unwrap()[1].time_us = 450_000;
    let err = moved.verify().expect_err("a key released later shifts more");
    assert!(err.to_string().contains("seat 1: the key events give tick"), "{err}");
}

#[test]
fn a_person_who_plays_nothing_tops_out_by_gravity_and_the_bot_wins() {
    let plugin = bot();
    let mut live = Live::new(setup(1.0), 3, Handling::default(), (&plugin, "")).unwrap();
    // Nobody at the keys: the person's pieces fall and lock by delay in the middle until
    // they reach the top; the game needs no wall clock to get there, the bot's answers
    // awaited.
    live.settle_until(120_000_000);
    let (end_us, ends) = live.end().expect("the person topped out");
    assert_eq!(ends, [Some(End::ToppedOut), Some(End::Won)]);
    let replay = Replay::of_live(&live).unwrap();
    assert!(replay.seats[0].actions.is_empty());
    assert!(replay.seats[0].result.pieces >= 5, "{:?}", replay.seats[0].result);
    assert_eq!(replay.seats[1].end_us, Some(end_us));
    let outcomes = replay.verify().expect("verifies");
    assert_eq!(outcomes[0].end, RecordedEnd::ToppedOut);
    // As results-file seats: the person's loss and the bot's win, game 4 of seed 3.
    let [person, bot] = live.results(4).expect("ended by the rules");
    assert_eq!((person.end, bot.end), (End::ToppedOut, End::Won));
    assert_eq!((person.index, person.seed, bot.seed), (4, 3, 3));
    assert_eq!(person.pieces, replay.seats[0].result.pieces);
    assert_eq!(bot.pieces, replay.seats[1].result.pieces);
    assert!(bot.updates > 0, "the bot's thinking is counted: {bot:?}");
}

#[test]
fn a_tbp_bot_plays_a_person_live_and_the_record_verifies() {
    let dir = tempfile::tempdir().unwrap();
    let manifest = crate::tbp::stacker(dir.path(), "stacker", &[]);
    let plugin = Plugin::load(&manifest).unwrap();
    let mut live = Live::new(setup(1.0 / 60.0), 5, Handling::default(), (&plugin, "")).unwrap();
    // The bot answers in its own process, on the wall clock; the person taps drops.
    let start = std::time::Instant::now();
    let mut presses = 0u64;
    while start.elapsed() < std::time::Duration::from_millis(2500) {
        let now = start.elapsed().as_micros() as u64;
        if now / 250_000 > presses {
            presses += 1;
            live.key(key(now / 1000, "Space", true));
            live.key(key(now / 1000 + 10, "Space", false));
        }
        live.run_until(now);
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    live.stop(start.elapsed().as_micros() as u64);
    assert!(live.results(0).is_none(), "a stopped game is no result");
    let replay = Replay::of_live(&live).unwrap();
    assert!(
        replay.seats[1].result.pieces >= 2,
        "the TBP bot played: {:?}",
        replay.seats[1].result
    );
    assert!(replay.seats[0].result.pieces >= 5, "{:?}", replay.seats[0].result);
    replay.verify().expect("verifies");
}

/// A TBP bot that waits `ms` milliseconds before each answer, as `plugin`.
fn slow_bot(dir: &std::path::Path, ms: &str) -> Plugin {
    let manifest = crate::tbp::stacker(dir, "slow", &["--mode", "slow", "--sleep-ms", ms]);
    Plugin::load(&manifest).unwrap()
}

#[test]
fn a_bot_that_thinks_long_does_not_hold_up_the_persons_game() {
    let dir = tempfile::tempdir().unwrap();
    let plugin = slow_bot(dir.path(), "600");
    let mut live = Live::new(setup(1.0 / 60.0), 7, Handling::default(), (&plugin, "")).unwrap();
    let start = std::time::Instant::now();
    let now = || start.elapsed().as_micros() as u64;
    let mut slowest = std::time::Duration::ZERO;
    let mut presses = 0u64;
    while start.elapsed() < std::time::Duration::from_millis(2500) {
        if now() / 250_000 > presses {
            presses += 1;
            let at = now();
            // Three shifts to one side or the other, then a drop.
            let side = if presses.is_multiple_of(2) {
                "ArrowLeft"
            } else {
                "ArrowRight"
            };
            for _ in 0..3 {
                live.key(key(at / 1000, side, true));
                live.key(key(at / 1000, side, false));
            }
            live.key(key(at / 1000, "Space", true));
            live.key(key(at / 1000 + 5, "Space", false));
            // The drop is played, and shown, as soon as it is given: the bot is asked on
            // its own thread, whatever it is thinking.
            let asked = std::time::Instant::now();
            live.run_until(at + 5_000);
            slowest = slowest.max(asked.elapsed());
            assert_eq!(live.games()[0].stats().pieces, presses, "the drop shows at once");
        }
        live.run_until(now());
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    assert!(
        slowest < std::time::Duration::from_millis(100),
        "the person's key waited {slowest:?} for a bot thinking 600 ms"
    );
    live.stop(now());
    let replay = Replay::of_live(&live).unwrap();
    assert!(
        replay.seats[1].result.pieces >= 2,
        "the bot played: {:?}",
        replay.seats[1].result
    );
    assert_eq!(replay.seats[0].result.pieces, presses);
    replay.verify().expect("verifies");
}

#[test]
fn a_bot_thinking_past_its_lock_delay_sees_its_pieces_fall_and_lock() {
    let dir = tempfile::tempdir().unwrap();
    let plugin = slow_bot(dir.path(), "1500");
    // 1G: the piece reaches the floor in a third of a second and locks 500 ms later, long
    // before the bot answers: each answer comes for a piece already locked.
    let mut live = Live::new(setup(1.0), 9, Handling::default(), (&plugin, "")).unwrap();
    let start = std::time::Instant::now();
    let mut shown_while_thinking = 0;
    while start.elapsed() < std::time::Duration::from_millis(3200) {
        live.run_until(start.elapsed().as_micros() as u64);
        if start.elapsed() < std::time::Duration::from_millis(1400) {
            shown_while_thinking = live.games()[1].stats().pieces;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    assert!(shown_while_thinking >= 1, "its piece shown locking while it thinks");
    live.stop(start.elapsed().as_micros() as u64);
    let replay = Replay::of_live(&live).unwrap();
    let bot = &replay.seats[1];
    assert!(bot.actions.is_empty(), "no answer came in time: {:?}", bot.actions);
    assert!(
        bot.result.pieces >= 2,
        "its pieces locked where they fell: {:?}",
        bot.result
    );
    replay.verify().expect("verifies");
}

#[test]
fn garbage_from_a_bot_answering_on_its_thread_reaches_a_person_playing_ahead_and_verifies() {
    let dir = tempfile::tempdir().unwrap();
    let manifest = crate::tbp::stacker(dir.path(), "stacker", &[]);
    let plugin = Plugin::load(&manifest).unwrap();
    let mut fast = setup(1.0 / 60.0);
    fast.speed.pps = None;
    let mut live = Live::new(fast, 13, Handling::default(), (&plugin, "")).unwrap();
    // The bot plays as fast as it answers and sends garbage; the person keeps shifting
    // and dropping, their keys played ahead of the bot's answers and played again when
    // its garbage comes at a time they had passed.
    let start = std::time::Instant::now();
    let mut presses = 0u64;
    while live.end().is_none() && start.elapsed() < std::time::Duration::from_secs(6) {
        let now = start.elapsed().as_micros() as u64;
        if now / 60_000 > presses {
            presses += 1;
            let side = if presses.is_multiple_of(2) {
                "ArrowLeft"
            } else {
                "ArrowRight"
            };
            live.key(key(now / 1000, side, true));
            live.key(key(now / 1000, side, false));
            if presses.is_multiple_of(3) {
                live.key(key(now / 1000, "Space", true));
                live.key(key(now / 1000, "Space", false));
            }
        }
        live.run_until(now);
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    live.stop(start.elapsed().as_micros() as u64);
    let replay = Replay::of_live(&live).unwrap();
    assert!(
        replay.seats[0].result.received > 0,
        "the bot's garbage reached the person: {:?}",
        replay.seats[0].result
    );
    replay.verify().expect("verifies");
}

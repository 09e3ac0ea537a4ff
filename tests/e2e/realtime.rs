//! The realtime pace: a recorded game keeps every tick's time and re-plays exactly, a
//! tampered one (an action, a time, the end) does not, `--pps` limits the pieces a second
//! (read from the recorded times), every flavour of player plays it, and bad speeds are
//! one line each.

use crate::common::*;
use serde_json::Value;
use std::path::Path;

/// Plays one realtime versus game of `plugins` recorded to `path` with `extra` options,
/// and returns the replay.
fn recorded(plugins: &[&str], path: &Path, extra: &[&str]) -> Value {
    played_realtime(plugins, path, extra).0
}

/// `tetrad versus --pace realtime` of one game between `plugins`, with `extra` arguments,
/// recorded to `path`: the replay, and the JSON results (null if there are none).
pub(crate) fn played_realtime(plugins: &[&str], path: &Path, extra: &[&str]) -> (Value, Value) {
    let mut args = vec![
        "versus",
        "--pace",
        "realtime",
        "--games",
        "1",
        "--format",
        "json",
        "--record",
        path.to_str().unwrap(),
        "--plugins",
    ];
    args.extend_from_slice(plugins);
    args.extend_from_slice(extra);
    let output = run(&args);
    assert!(output.status.success(), "{}", stderr(&output));
    let replay = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    (replay, serde_json::from_str(&stdout(&output)).unwrap_or(Value::Null))
}

/// Whether `replay` verifies, and what `replay --verify` said.
fn verify(replay: &Value, path: &Path) -> (bool, String) {
    std::fs::write(path, replay.to_string()).unwrap();
    let output = run(&["replay", "--verify", path.to_str().unwrap()]);
    (output.status.success(), stdout(&output) + &stderr(&output))
}

/// Seat `seat`'s tick times.
fn times(replay: &Value, seat: usize) -> Vec<u64> {
    let times = replay["seats"][seat]["times_us"].as_array().expect("tick times");
    times.iter().map(|t| t.as_u64().unwrap()).collect()
}

#[test]
fn a_recorded_realtime_game_replays_exactly_and_a_tampered_one_does_not() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("realtime.json");
    let options = [
        "--pps",
        "10",
        "--move-ms",
        "0.5",
        "--garbage-delay",
        "150",
        "--max-pieces",
        "150",
    ];
    let replay = recorded(&["bcts", "tree-search@depth=1"], &path, &options);
    assert_eq!(replay["setup"]["pace"], "realtime");
    assert_eq!(
        replay["setup"]["speed"],
        serde_json::json!({"pps": 10.0, "move_ms": 0.5})
    );
    assert_eq!(replay["setup"]["garbage"], serde_json::json!({"delay": 150}));
    let end = replay["seats"][0]["end_us"].as_u64().unwrap();
    for seat in 0..2 {
        let ticks = times(&replay, seat);
        assert_eq!(ticks.len(), replay["seats"][seat]["actions"].as_array().unwrap().len());
        assert!(
            ticks.windows(2).all(|w| w[1] >= w[0] + 500),
            "each tick takes the move time"
        );
        assert_eq!(replay["seats"][seat]["end_us"].as_u64(), Some(end));
        // At most 10 pieces a second: a lock at least 100 ms after the one before, read
        // from the recorded times. The bots decide in well under that, so the limit, not
        // their thinking, sets the pace: within half again of it.
        let pieces = replay["seats"][seat]["result"]["pieces"].as_u64().unwrap();
        assert!(pieces >= 20, "{}", replay["seats"][seat]["result"]);
        let last = *ticks.last().unwrap();
        assert!(last >= (pieces - 1) * 100_000, "{pieces} pieces by {last} µs");
        assert!(last <= pieces * 150_000, "{pieces} pieces by {last} µs");
    }
    let (ok, said) = verify(&replay, &path);
    assert!(ok, "{said}");
    assert!(said.starts_with("ok"), "{said}");

    // An action changed: a drop (bit 16) taken out of a tick after the first pieces.
    let mut tampered = replay.clone();
    let actions = replay["seats"][0]["actions"].as_array().unwrap();
    let drop = (10..actions.len())
        .find(|&i| actions[i].as_u64().unwrap() & 16 != 0)
        .unwrap();
    tampered["seats"][0]["actions"][drop] = Value::from(0);
    let (ok, said) = verify(&tampered, &path);
    assert!(!ok && said.contains("does not replay"), "{said}");

    // A tick moved before its previous one's time and the move time.
    let mut tampered = replay.clone();
    let earlier = times(&replay, 1)[4];
    tampered["seats"][1]["times_us"][5] = Value::from(earlier);
    let (ok, said) = verify(&tampered, &path);
    assert!(!ok && said.contains("seat 2: tick 5"), "{said}");

    // A lock that waited for the limit, moved a microsecond sooner (and every later
    // tick with it).
    let mut tampered = replay.clone();
    let ticks = times(&replay, 0);
    let waited: Vec<usize> = (1..ticks.len()).filter(|&i| ticks[i] - ticks[i - 1] > 50_000).collect();
    let second = waited[1];
    for (tick, time) in ticks.iter().enumerate().skip(second) {
        tampered["seats"][0]["times_us"][tick] = Value::from(time - 1);
    }
    let (ok, said) = verify(&tampered, &path);
    assert!(!ok && said.contains("allows one every 100000 µs"), "{said}");

    // The seats' end moved apart.
    let mut tampered = replay.clone();
    tampered["seats"][1]["end_us"] = Value::from(end + 1);
    let (ok, said) = verify(&tampered, &path);
    assert!(!ok && said.contains("end together"), "{said}");

    // Times taken away: a realtime game cannot be re-played without them.
    let mut tampered = replay.clone();
    tampered["seats"][0].as_object_mut().unwrap().remove("times_us");
    let (ok, said) = verify(&tampered, &path);
    assert!(!ok && said.contains("times_us"), "{said}");
}

#[test]
fn thinking_costs_a_bot_process_its_place_and_both_process_flavours_replay() {
    let dir = tempfile::tempdir().unwrap();
    // A bot process that thinks 20 ms a piece against a library that thinks microseconds:
    // on the clock, the library places many pieces while the process places one.
    let slow = crate::time_controls::slow_bot(dir.path(), 0.02);
    let path = dir.path().join("process.json");
    let replay = recorded(&[&slow, "bcts"], &path, &["--max-pieces", "400"]);
    let pieces = |seat: usize| replay["seats"][seat]["result"]["pieces"].as_u64().unwrap();
    let end = replay["seats"][0]["end_us"].as_u64().unwrap();
    assert!(end >= pieces(0) * 20_000, "{} pieces of 20 ms by {end} µs", pieces(0));
    assert!(pieces(1) > 2 * pieces(0), "{} against {}", pieces(1), pieces(0));
    let (ok, said) = verify(&replay, &path);
    assert!(ok, "{said}");

    // A TBP bot (guideline only) against a library.
    let tbp = crate::tbp::stacker(dir.path(), "stacker", &[]);
    let path = dir.path().join("tbp.json");
    let replay = recorded(
        &[tbp.to_str().unwrap(), "bcts"],
        &path,
        &["--preset", "guideline", "--max-pieces", "20", "--pps", "5"],
    );
    assert!(replay["seats"][0]["result"]["pieces"].as_u64().unwrap() > 0);
    let (ok, said) = verify(&replay, &path);
    assert!(ok, "{said}");
}

#[test]
fn a_realtime_tournament_rates_every_pair_and_records_its_speed() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("realtime.jsonl");
    let base = [
        "tournament",
        "--versus",
        "--pace",
        "realtime",
        "--plugins",
        "bcts",
        "tree-search@depth=1",
        "random",
        "--games",
        "2",
        "--max-pieces",
        "100",
        "--out",
        out.to_str().unwrap(),
    ];
    let mut args = base.to_vec();
    args.extend(["--pps", "4"]);
    let output = run(&args);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stdout(&output).contains("rated"), "{}", stdout(&output));
    let text = std::fs::read_to_string(&out).unwrap();
    let lines: Vec<Value> = text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let setup = &lines[0]["config"]["setup"];
    assert_eq!(setup["pace"], "realtime", "{setup}");
    assert_eq!(setup["speed"], serde_json::json!({"pps": 4.0}), "{setup}");
    assert_eq!(lines.iter().filter(|l| l["kind"] == "fixture").count(), 6);
    // Resumed at another speed: refused, naming what differs.
    let mut args = base.to_vec();
    args.extend(["--pps", "5", "--resume"]);
    let resumed = run(&args);
    assert!(!resumed.status.success());
    assert!(stderr(&resumed).contains("speeds"), "{}", stderr(&resumed));
}

#[test]
fn bad_speeds_are_one_line_errors() {
    let base = ["versus", "--plugins", "bcts", "random", "--games", "1"];
    let realtime = ["--pace", "realtime"];
    for (extra, needle) in [
        (&["--pps", "0"][..], "--pps"),
        (&["--pps=-2"][..], "--pps"),
        (&["--pps", "inf"][..], "--pps"),
        (&["--move-ms=-1"][..], "--move-ms"),
        (&["--move-ms", "x"][..], "--move-ms"),
    ] {
        let args: Vec<&str> = base.iter().chain(&realtime).chain(extra).copied().collect();
        assert_one_line_error(&run(&args), needle);
    }
    assert_one_line_error(
        &run(&[&base[..], &["--pace", "pieces", "--pps", "3"]].concat()),
        "--pps sets the speed of the realtime pace",
    );
    assert_one_line_error(
        &run(&["tournament", "--plugins", "bcts", "random", "--move-ms", "1"]),
        "--move-ms is an option of versus games",
    );
}

#[test]
fn a_time_loss_on_the_realtime_clock_ends_both_seats_then_and_verifies() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("time_loss.json");
    let slow = format!("{}@mode=slow,sleep_us=10000", testkit());
    // Its opponent at 10 pieces a second lives well past the slow player's 50 ms.
    let replay = recorded(&[&slow, "bcts"], &path, &["--tc", "0.05", "--pps", "10"]);
    let ends: Vec<&Value> = (0..2).map(|seat| &replay["seats"][seat]["result"]["end"]).collect();
    assert_eq!(ends, ["time_loss", "won"], "{}", replay["seats"]);
    // The clock fell after 50 ms of thinking: the game ended then, for both seats.
    let end = replay["seats"][0]["end_us"].as_u64().unwrap();
    assert!(end >= 50_000, "{end}");
    assert_eq!(replay["seats"][1]["end_us"].as_u64(), Some(end));
    assert!(times(&replay, 1).iter().all(|&time| time <= end));
    let (ok, said) = verify(&replay, &path);
    assert!(ok, "{said}");
}

#[test]
fn a_named_garbage_set_gives_its_published_numbers_under_realtime_only() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("jstris.jsonl");
    let base = [
        "versus",
        "--plugins",
        "bcts",
        "random",
        "--games",
        "1",
        "--max-pieces",
        "30",
    ];
    // Jstris's delay, 500 ms, with a cap given beside it.
    let extra = [
        "--pace",
        "realtime",
        "--garbage",
        "jstris",
        "--garbage-cap",
        "4",
        "--out",
    ];
    let output = run(&[&base[..], &extra, &[out.to_str().unwrap()]].concat());
    assert!(output.status.success(), "{}", stderr(&output));
    let text = std::fs::read_to_string(&out).unwrap();
    let header: Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    let garbage = &header["config"]["setup"]["garbage"];
    assert_eq!(*garbage, serde_json::json!({"delay": 500, "cap": 4}), "{header}");
    // Its delay is a time: refused at a pace that counts locks, and an unknown set too.
    assert_one_line_error(
        &run(&[&base[..], &["--pace", "pieces", "--garbage", "jstris"]].concat()),
        "--garbage jstris sets a delay of 500 ms",
    );
    assert_one_line_error(
        &run(&[&base[..], &["--pace", "realtime", "--garbage", "tetrio"]].concat()),
        "`tetrio` is not a garbage set",
    );
}

#[test]
fn isolated_libraries_play_realtime_as_bot_processes_and_replay() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("isolated.json");
    let extra = ["--isolate", "--pps", "20", "--max-pieces", "60"];
    let replay = recorded(&["bcts", "tree-search@depth=1"], &path, &extra);
    assert!(replay["seats"][1]["times_us"].as_array().is_some_and(|t| !t.is_empty()));
    let (ok, said) = verify(&replay, &path);
    assert!(ok, "{said}");
}

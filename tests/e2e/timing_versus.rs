//! Bots under timing rules at the realtime pace: a bot that thinks too long sees its
//! piece fall and lock by the delay, the rules are named in the setup the replay and
//! the results keep, the replay verifies and a changed lock delay does not; bad
//! combinations are one line each.

use crate::common::*;
use serde_json::Value;

/// One realtime versus game between `plugins`, recorded to `path`: the replay and the
/// JSON results.
fn timed(plugins: &[&str], path: &std::path::Path, extra: &[&str]) -> (Value, Value) {
    crate::realtime::played_realtime(plugins, path, extra)
}

/// Whether `replay` verifies, and what `replay --verify` said.
fn verify(replay: &Value, path: &std::path::Path) -> (bool, String) {
    std::fs::write(path, replay.to_string()).unwrap();
    let output = run(&["replay", "--verify", path.to_str().unwrap()]);
    (output.status.success(), stdout(&output) + &stderr(&output))
}

#[test]
fn a_bot_that_thinks_too_long_sees_its_pieces_lock_and_the_game_verifies() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("timed.json");
    // 20G: a piece is on the floor a few milliseconds after it enters, and locks 100 ms
    // later. The slow bot takes 300 ms to answer, so every answer comes for a piece
    // already locked: its pieces lock where they fell, with no tick of its own.
    let slow = format!("{}@mode=slow,sleep_us=300000", testkit());
    let extra = [
        "--gravity",
        "20G",
        "--lock-delay",
        "100",
        "--pps",
        "8",
        "--max-pieces",
        "12",
    ];
    let (replay, _) = timed(&["tree-search@depth=1", &slow], &path, &extra);
    assert_eq!(
        replay["setup"]["timing"],
        serde_json::json!({"gravity": {"fixed": 20.0}, "lock_delay_ms": 100, "move_reset_limit": 15})
    );
    let seat = |index: usize, what: &str| replay["seats"][index]["result"][what].as_u64().unwrap();
    let ticks = |index: usize| replay["seats"][index]["actions"].as_array().unwrap().len() as u64;
    assert_eq!(seat(0, "pieces"), 12, "{}", replay["seats"][0]["result"]);
    assert!(seat(1, "pieces") >= 6, "{}", replay["seats"][1]["result"]);
    assert!(
        ticks(1) < seat(1, "pieces"),
        "the slow bot's pieces lock without its ticks: {} ticks, {} pieces",
        ticks(1),
        seat(1, "pieces")
    );
    let (ok, said) = verify(&replay, &path);
    assert!(ok, "{said}");
    assert!(said.starts_with("ok"), "{said}");

    // Another lock delay: the slow bot's pieces would lock at other times.
    let mut tampered = replay.clone();
    tampered["setup"]["timing"]["lock_delay_ms"] = Value::from(150);
    let (ok, said) = verify(&tampered, &path);
    assert!(!ok && said.contains("does not replay"), "{said}");

    // No timing rules: the slow bot's pieces never lock by themselves.
    let mut tampered = replay.clone();
    tampered["setup"].as_object_mut().unwrap().remove("timing");
    let (ok, _) = verify(&tampered, &path);
    assert!(!ok, "a game under timing rules does not verify without them");
}

#[test]
fn bots_held_back_by_a_speed_limit_see_their_pieces_fall_and_the_results_name_the_rules() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("curve.json");
    let out = dir.path().join("results.jsonl");
    // At 3 pieces a second a drop waits a third of a second, while the piece falls a row
    // every frame (1G) and, once on the floor, locks if the wait outlasts the delay.
    let extra = [
        "--gravity",
        "1G",
        "--lock-delay",
        "200",
        "--pps",
        "3",
        "--garbage",
        "jstris",
        "--max-pieces",
        "20",
        "--out",
        out.to_str().unwrap(),
    ];
    let (replay, _) = timed(&["bcts", "tree-search@depth=1"], &path, &extra);
    assert_eq!(replay["setup"]["timing"]["gravity"], serde_json::json!({"fixed": 1.0}));
    let (ok, said) = verify(&replay, &path);
    assert!(ok, "{said}");
    let header: Value = serde_json::from_str(std::fs::read_to_string(&out).unwrap().lines().next().unwrap()).unwrap();
    assert_eq!(header["config"]["setup"]["timing"]["lock_delay_ms"], 200, "{header}");
}

#[test]
fn timing_rules_out_of_place_are_one_line_errors() {
    let base = ["versus", "--plugins", "bcts", "random", "--games", "1"];
    for (extra, needle) in [
        (&["--gravity", "1G"][..], "add --pace realtime"),
        (&["--pace", "pieces", "--gravity", "1G"][..], "add --pace realtime"),
        (
            &["--pace", "realtime", "--preset", "simplified", "--gravity", "1G"][..],
            "guideline only",
        ),
        (&["--pace", "realtime", "--gravity", "30G"][..], "at most 20"),
        (&["--pace", "realtime", "--lock-delay", "100"][..], "--gravity"),
    ] {
        let mut args = base.to_vec();
        args.extend_from_slice(extra);
        let output = run(&args);
        assert_one_line_error(&output, needle);
    }
}

//! Versus paces and garbage options: `--pace pieces` plays a round as one piece each, the
//! pace and the garbage options are written into results files and replays, and a replay
//! re-plays at its own pace.

use crate::common::*;
use serde_json::Value;

fn versus(extra: &[&str]) -> std::process::Output {
    let mut args = vec!["versus", "--format", "json"];
    args.extend_from_slice(extra);
    run(&args)
}

/// The setup in the header of the results file at `path`.
fn header_setup(path: &std::path::Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap();
    let header: Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    header["config"]["setup"].clone()
}

#[test]
fn a_pieces_paced_game_with_garbage_options_replays_and_a_tampered_one_does_not() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("pieces.json");
    let path = file.to_str().unwrap();
    let options = [
        "--garbage-delay",
        "1",
        "--garbage-cap",
        "4",
        "--garbage-messiness",
        "0.3",
    ];
    for garbage in [&[][..], &options[..]] {
        let mut args = vec![
            "--pace",
            "pieces",
            "--plugins",
            "bcts",
            "tree-search@depth=1",
            "--games",
            "2",
            "--max-pieces",
            "400",
            "--record",
            path,
        ];
        args.extend_from_slice(garbage);
        let report = json(&versus(&args));
        let replay: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
        assert_eq!(replay["setup"]["pace"], "pieces", "{}", replay["setup"]);
        if !garbage.is_empty() {
            let expected = serde_json::json!({"delay": 1, "cap": 4, "messiness": 0.3});
            assert_eq!(replay["setup"]["garbage"], expected);
        }
        let verified = run(&["replay", "--verify", path]);
        assert!(verified.status.success(), "{}", stderr(&verified));
        let line = stdout(&verified);
        let game = &report["games"][0];
        assert!(line.contains(&format!("{} lines", game["lines"][0])), "{line}");
        // Garbage passed: the game is a versus game that sent rows.
        let sent = replay["seats"][0]["result"]["sent"].as_u64().unwrap_or(0)
            + replay["seats"][1]["result"]["sent"].as_u64().unwrap_or(0);
        assert!(sent > 0, "{}", replay["seats"]);
    }
    // The same actions at the other pace are another game: it does not replay.
    let mut replay: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    let original = replay.clone();
    replay["setup"].as_object_mut().unwrap().remove("pace");
    std::fs::write(&file, replay.to_string()).unwrap();
    assert_one_line_error(&run(&["replay", "--verify", path]), "does not replay");
    // Nor with other garbage options (here, no delay: rows rise a lock earlier).
    let mut replay = original.clone();
    replay["setup"]["garbage"]["delay"] = 0.into();
    std::fs::write(&file, replay.to_string()).unwrap();
    assert_one_line_error(&run(&["replay", "--verify", path]), "does not replay");
    // Nor with a changed result.
    let mut replay = original;
    replay["seats"][0]["result"]["pieces"] = (replay["seats"][0]["result"]["pieces"].as_u64().unwrap() + 1).into();
    std::fs::write(&file, replay.to_string()).unwrap();
    assert_one_line_error(&run(&["replay", "--verify", path]), "does not replay: seat 1: recorded");
}

#[test]
fn the_pace_defaults_by_preset_and_is_written_in_the_results_header() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("classic.jsonl");
    let common = [
        "--plugins",
        "bcts",
        "tree-search@depth=1",
        "--games",
        "1",
        "--max-pieces",
        "50",
    ];
    let mut args = common.to_vec();
    args.extend(["--out", out.to_str().unwrap()]);
    assert!(versus(&args).status.success());
    // Under classic the pace is ticks, which files leave out: old files read the same.
    assert_eq!(header_setup(&out).get("pace"), None);
    let out = dir.path().join("guideline.jsonl");
    let mut args = common.to_vec();
    args.extend(["--preset", "guideline", "--out", out.to_str().unwrap()]);
    assert!(versus(&args).status.success());
    assert_eq!(header_setup(&out)["pace"], "pieces");
    // A resume at another pace is another tournament.
    args.extend(["--resume", "--pace", "ticks"]);
    let resumed = versus(&args);
    assert!(!resumed.status.success());
    assert!(stderr(&resumed).contains("paces"), "{}", stderr(&resumed));
}

#[test]
fn the_same_bot_in_both_seats_draws_every_game_piece_for_piece() {
    let report = json(&versus(&[
        "--pace",
        "pieces",
        "--preset",
        "guideline",
        "--plugins",
        "bcts@hold=true",
        "bcts@hold=true",
        "--games",
        "2",
        "--max-pieces",
        "300",
    ]));
    assert_eq!(report["score"]["draws"], 2, "{report}");
}

#[test]
fn bad_paces_and_garbage_options_are_one_line_errors() {
    let base = ["versus", "--plugins", "bcts", "random", "--games", "1"];
    for (extra, needle) in [
        (["--pace", "fast"], "`fast` is not a pace"),
        (["--garbage-cap", "0"], "--garbage-cap"),
        (["--garbage-delay", "1001"], "--garbage-delay"),
        (["--garbage-messiness", "1.5"], "--garbage-messiness"),
    ] {
        let args: Vec<&str> = base.iter().copied().chain(extra).collect();
        assert_one_line_error(&run(&args), needle);
    }
    assert_one_line_error(
        &run(&["tournament", "--plugins", "bcts", "random", "--pace", "pieces"]),
        "--pace is an option of versus games",
    );
}

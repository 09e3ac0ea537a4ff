//! `tetrad tournament` and `tetrad merge`: same seeds for everyone, results files,
//! resume after a kill, isolation, limits, shards and the SPRT.

use crate::common::*;
use serde_json::Value;
use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

/// The standings without timings, which differ from run to run.
fn standings_without_timing(report: &Value) -> Value {
    let mut standings = report["standings"].clone();
    for entry in standings.as_array_mut().unwrap() {
        let entry = entry.as_object_mut().unwrap();
        entry.remove("update_us_mean");
        entry.remove("update_us_p99");
        entry.remove("update_us_max");
    }
    standings
}

/// Every game line of a results file, without timings, sorted.
fn games_in(path: &Path) -> Vec<Value> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut games: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|l| l["kind"] == "fixture")
        .map(|l| l["seats"][0].clone())
        .map(|mut l| {
            let result = l["result"].as_object_mut().unwrap();
            for timing in ["update_us_mean", "update_us_p99", "update_us_max"] {
                result.remove(timing);
            }
            l.as_object_mut().unwrap().remove("update_ns");
            l
        })
        .collect();
    games.sort_by_key(|g| (g["result"]["index"].as_u64(), g["entrant"].as_u64()));
    games
}

const PAIR: [&str; 2] = ["random", "tree-search@depth=1"];

fn tournament(extra: &[&str]) -> std::process::Output {
    let mut args = vec!["tournament", "--plugins", PAIR[0], PAIR[1], "--max-pieces", "150"];
    args.extend_from_slice(extra);
    run(&args)
}

#[test]
fn everyone_plays_the_same_seeds_and_jobs_do_not_matter() {
    let dir = tempfile::tempdir().unwrap();
    let one = dir.path().join("one.jsonl");
    let two = dir.path().join("two.jsonl");
    let a = json(&tournament(&[
        "--games",
        "8",
        "--jobs",
        "1",
        "--format",
        "json",
        "--out",
        one.to_str().unwrap(),
    ]));
    let b = json(&tournament(&[
        "--games",
        "8",
        "--jobs",
        "2",
        "--format",
        "json",
        "--out",
        two.to_str().unwrap(),
    ]));
    assert_eq!(standings_without_timing(&a), standings_without_timing(&b));
    assert_eq!(a["pairings"], b["pairings"]);
    assert_eq!(games_in(&one), games_in(&two));
    // Game i has the same seed for both entrants.
    let games = games_in(&one);
    assert_eq!(games.len(), 16);
    for pair in games.chunks(2) {
        assert_eq!(pair[0]["result"]["seed"], pair[1]["result"]["seed"]);
        assert_ne!(pair[0]["entrant"], pair[1]["entrant"]);
    }
    let pairing = &a["pairings"][0];
    assert_eq!(
        pairing["losses"], 8,
        "tree-search clears lines, random does not: {pairing}"
    );
    assert!(pairing["p_value"].as_f64().unwrap() < 0.01);
    let standing = &a["standings"][1];
    for key in [
        "games",
        "lines",
        "pieces",
        "score",
        "topped_out",
        "capped",
        "update_us_mean",
        "update_us_p99",
        "update_us_max",
        "violations",
        "forfeits",
    ] {
        assert!(!standing[key].is_null(), "standings lack {key}");
    }
}

#[test]
fn resume_after_sigkill_plays_no_game_twice_and_loses_none() {
    let dir = tempfile::tempdir().unwrap();
    let whole = dir.path().join("whole.jsonl");
    let cut = dir.path().join("cut.jsonl");
    let args = |out: &Path| -> Vec<String> {
        [
            "tournament",
            "--plugins",
            PAIR[0],
            PAIR[1],
            "--max-pieces",
            "400",
            "--games",
            "30",
            "--jobs",
            "1",
            "--format",
            "json",
            "--out",
        ]
        .iter()
        .map(|s| s.to_string())
        .chain([out.display().to_string()])
        .collect()
    };
    let uninterrupted = json(&tetrad().args(args(&whole)).output().unwrap());

    let mut child = tetrad()
        .args(args(&cut))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    loop {
        let lines = std::fs::read_to_string(&cut).map(|t| t.lines().count()).unwrap_or(0);
        if lines >= 12 || started.elapsed() > Duration::from_secs(60) {
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    let _ = child.kill(); // SIGKILL
    let _ = child.wait();
    let before = games_in(&cut).len();
    assert!(before > 0 && before < 60, "killed mid-run after {before} games");

    let mut resume_args = args(&cut);
    resume_args.push("--resume".to_string());
    let resumed = json(&tetrad().args(&resume_args).output().unwrap());
    assert_eq!(
        games_in(&cut),
        games_in(&whole),
        "every game once, the same as uninterrupted"
    );
    assert_eq!(
        standings_without_timing(&resumed),
        standings_without_timing(&uninterrupted)
    );
    assert_eq!(resumed["pairings"], uninterrupted["pairings"]);

    // Resuming a finished tournament plays nothing more.
    let again = json(&tetrad().args(&resume_args).output().unwrap());
    assert_eq!(games_in(&cut).len(), 60);
    assert_eq!(
        standings_without_timing(&again),
        standings_without_timing(&uninterrupted)
    );
}

#[test]
fn results_file_is_not_overwritten_or_mixed_up() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("r.jsonl");
    let out_s = out.to_str().unwrap();
    assert!(tournament(&["--games", "2", "--out", out_s]).status.success());
    assert_one_line_error(
        &tournament(&["--games", "2", "--out", out_s]),
        "already exists; pass --resume",
    );
    assert_one_line_error(
        &tournament(&["--games", "3", "--out", out_s, "--resume"]),
        "different tournament (game counts differ)",
    );
}

#[test]
fn isolation_contains_every_kind_of_misbehaviour() {
    let kit = testkit();
    let modes = ["panic", "segfault", "abort", "exit", "hang", "bad-bits"];
    let mut args: Vec<String> = [
        "tournament",
        "--isolate",
        "--think-limit-us",
        "300000",
        "--games",
        "3",
        "--jobs",
        "2",
        "--format",
        "json",
        "--plugins",
        "random",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    args.extend(modes.iter().map(|m| format!("{kit}@mode={m}")));
    let output = tetrad().args(&args).output().unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    let causes = ["plugin_error", "crashed", "crashed", "crashed", "timeout", "violation"];
    for (i, cause) in causes.iter().enumerate() {
        let standing = &report["standings"][i + 1];
        assert_eq!(standing["forfeits"][cause], 3, "{}: {standing}", modes[i]);
    }
    // The well-behaved entrant's games are exactly what it plays alone.
    let alone = json(&run(&["run", "--plugin", "random", "--games", "3", "--format", "json"]));
    assert_eq!(
        report["standings"][0]["lines"]["mean"],
        alone["summary"]["lines"]["mean"]
    );
    assert_eq!(report["standings"][0]["pieces"], alone["summary"]["pieces"]["mean"]);
    assert_eq!(report["standings"][0]["topped_out"], 3);
}

#[test]
fn think_limit_in_process_forfeits_slow_updates() {
    let kit = testkit();
    // A wide margin between the slow plugin (200 ms per update) and the limit (50 ms): a
    // normal update can take over a millisecond when the tests share the cores.
    let slow = format!("{kit}@mode=slow,sleep_us=200000");
    let report = json(&run(&[
        "tournament",
        "--plugins",
        "random",
        &slow,
        "--games",
        "2",
        "--think-limit-us",
        "50000",
        "--format",
        "json",
    ]));
    assert_eq!(report["standings"][1]["forfeits"]["timeout"], 2);
    assert_eq!(report["standings"][0]["forfeits"]["timeout"], 0);
}

#[test]
fn shards_merge_into_the_whole() {
    let dir = tempfile::tempdir().unwrap();
    let whole = dir.path().join("whole.jsonl");
    let first = dir.path().join("1.jsonl");
    let second = dir.path().join("2.jsonl");
    let report = json(&tournament(&[
        "--games",
        "6",
        "--format",
        "json",
        "--out",
        whole.to_str().unwrap(),
    ]));
    assert!(
        tournament(&["--games", "6", "--shard", "1/2", "--out", first.to_str().unwrap()])
            .status
            .success()
    );
    assert!(
        tournament(&["--games", "6", "--shard", "2/2", "--out", second.to_str().unwrap()])
            .status
            .success()
    );
    assert_eq!(games_in(&first).len(), 6);
    let merged = json(&run(&[
        "merge",
        first.to_str().unwrap(),
        second.to_str().unwrap(),
        "--format",
        "json",
    ]));
    assert_eq!(standings_without_timing(&merged), standings_without_timing(&report));
    assert_eq!(merged["pairings"], report["pairings"]);
    let markdown = stdout(&run(&[
        "merge",
        first.to_str().unwrap(),
        second.to_str().unwrap(),
        "--format",
        "markdown",
    ]));
    assert!(markdown.starts_with("| plugin | games |"));
}

#[test]
fn sprt_stops_early_when_the_answer_is_clear() {
    let report = json(&tournament(&["--games", "200", "--sprt", "0,20", "--format", "json"]));
    assert_eq!(
        report["sprt"]["verdict"], "H0",
        "random is not stronger than tree-search"
    );
    assert!(
        report["games"].as_u64().unwrap() < 400,
        "stopped early: {}",
        report["games"]
    );
    assert_one_line_error(
        &run(&["tournament", "--plugins", "random", "--sprt", "0,20"]),
        "--sprt compares exactly two plugins",
    );
}

#[test]
fn plain_progress_lines_when_not_a_terminal() {
    let output = tournament(&["--games", "2"]);
    let progress = stderr(&output);
    assert_eq!(progress.lines().count(), 4, "{progress}");
    assert!(progress.lines().last().unwrap().starts_with("[4/4] "));
    assert!(stdout(&output).contains("pairs (seeds won-drawn-lost"));
}

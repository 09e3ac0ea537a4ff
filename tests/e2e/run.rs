//! `tetrad run`, `plugins` and `check` through the real binary and bundled plugins.

use crate::common::*;
use serde_json::Value;

fn games_without_timing(document: &Value) -> Vec<Value> {
    document["games"]
        .as_array()
        .expect("games array")
        .iter()
        .map(|g| {
            let mut g = g.clone();
            for timing in ["update_us_mean", "update_us_p99", "update_us_max"] {
                g.as_object_mut().unwrap().remove(timing);
            }
            g
        })
        .collect()
}

#[test]
fn json_report_has_every_documented_key() {
    let document = json(&run(&[
        "run", "--plugin", "random", "--games", "5", "--seed", "3", "--format", "json",
    ]));
    assert_eq!(document["plugin"]["name"], "random");
    assert_eq!(document["plugin"]["abi"], 2);
    assert!(document["plugin"]["version"].is_string());
    assert_eq!(document["setup"]["rules"]["preset"], "classic");
    assert_eq!(document["setup"]["rules"]["width"], 10);
    let summary = &document["summary"];
    assert_eq!(summary["games"], 5);
    for key in ["mean", "ci95", "median", "max"] {
        assert!(summary["lines"][key].is_number(), "lines.{key}");
    }
    for key in ["pieces", "score"] {
        assert!(summary[key]["mean"].as_f64().unwrap() >= 0.0, "{key}.mean");
    }
    assert!(summary["update_us"]["mean"].as_f64().unwrap() > 0.0);
    assert!(summary["update_us"]["p99"].as_f64().unwrap() > 0.0);
    assert_eq!(summary["violations"], 0);
    assert_eq!(summary["ends"]["topped_out"], 5);
    let games = document["games"].as_array().unwrap();
    assert_eq!(games.len(), 5);
    for (i, game) in games.iter().enumerate() {
        assert_eq!(game["index"], i);
        for key in ["seed", "lines", "pieces", "score", "ticks"] {
            assert!(game[key].is_u64(), "{key}");
        }
        assert_eq!(game["end"], "topped_out");
        assert!(game["pieces"].as_u64().unwrap() > 0);
    }
}

#[test]
fn same_command_same_results_and_jobs_do_not_matter() {
    let args = |jobs: &'static str| {
        [
            "run", "--plugin", "random", "--games", "12", "--seed", "77", "--format", "json", "--jobs", jobs,
        ]
    };
    let one = games_without_timing(&json(&run(&args("1"))));
    let again = games_without_timing(&json(&run(&args("1"))));
    let two = games_without_timing(&json(&run(&args("2"))));
    assert_eq!(one, again, "the same command gives the same games");
    assert_eq!(one, two, "--jobs 2 gives the same games as --jobs 1");
    let other_seed = games_without_timing(&json(&run(&[
        "run", "--plugin", "random", "--games", "12", "--seed", "78", "--format", "json",
    ])));
    assert_ne!(one, other_seed);
}

#[test]
fn capped_games_stop_at_max_pieces() {
    let document = json(&run(&[
        "run",
        "--plugin",
        "random",
        "--preset",
        "simplified",
        "--width",
        "4",
        "--height",
        "64",
        "--games",
        "4",
        "--max-pieces",
        "3",
        "--format",
        "json",
    ]));
    for game in document["games"].as_array().unwrap() {
        assert_eq!(game["end"], "capped");
        assert_eq!(game["pieces"], 3);
    }
    assert_eq!(document["summary"]["ends"]["capped"], 4);
}

#[test]
fn a_panicking_plugin_loses_only_its_games() {
    // Games whose plugin seed is even panic at their fifth tick; the others finish.
    let output = run(&[
        "run",
        "--plugin",
        &testkit(),
        "--games",
        "16",
        "--options",
        "mode=panic,every=2,after=4",
        "--format",
        "json",
    ]);
    let document = json(&output);
    let games = document["games"].as_array().unwrap();
    assert_eq!(games.len(), 16);
    let errors: Vec<&Value> = games.iter().filter(|g| g["end"] == "plugin_error").collect();
    assert!(!errors.is_empty() && errors.len() < 16, "some games panic, some do not");
    for game in &errors {
        let message = game["error"].as_str().unwrap();
        assert!(message.contains("testkit was told to panic at tick 5"), "{message}");
        assert_eq!(game["ticks"], 4, "the panicking tick is not played");
    }
    assert!(games.iter().any(|g| g["end"] == "topped_out"));
    assert_eq!(document["summary"]["ends"]["plugin_error"], errors.len());
    assert!(
        !stderr(&output).contains("panicked"),
        "the plugin's panic is not printed: {}",
        stderr(&output)
    );
}

#[test]
fn bad_bits_are_counted_and_not_applied() {
    for mode in ["bad-bits", "both-shifts"] {
        let document = json(&run(&[
            "run",
            "--plugin",
            &testkit(),
            "--games",
            "2",
            "--options",
            &format!("mode={mode}"),
            "--format",
            "json",
        ]));
        for game in document["games"].as_array().unwrap() {
            // Nothing the plugin asks for is applied, so only gravity moves the pieces:
            // every tick of the game is a violation.
            assert_eq!(game["violations"], game["ticks"], "{mode}");
            assert_eq!(game["end"], "topped_out");
        }
        let total: u64 = document["games"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| g["violations"].as_u64().unwrap())
            .sum();
        assert_eq!(document["summary"]["violations"], total);
    }
}

#[test]
fn a_plugin_that_never_drops_is_stalled_without_gravity() {
    let document = forfeited_json(&run(&[
        "run",
        "--plugin",
        &testkit(),
        "--preset",
        "leiden",
        "--games",
        "2",
        "--options",
        "mode=stall",
        "--format",
        "json",
    ]));
    for game in document["games"].as_array().unwrap() {
        assert_eq!(game["end"], "stalled");
        assert_eq!(game["ticks"], 8 * (10 + 10));
    }
}

#[test]
fn every_preset_plays() {
    for preset in ["classic", "leiden", "simplified"] {
        let document = json(&run(&[
            "run", "--plugin", "random", "--preset", preset, "--games", "3", "--format", "json",
        ]));
        assert_eq!(document["setup"]["rules"]["preset"], preset);
        assert!(
            document["summary"]["pieces"]["mean"].as_f64().unwrap() > 1.0,
            "{preset}"
        );
    }
}

#[test]
fn csv_and_table_formats() {
    let csv = stdout(&run(&["run", "--plugin", "random", "--games", "3", "--format", "csv"]));
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines.len(), 4);
    assert!(lines[0].starts_with("index,seed,lines,pieces,score,ticks,end"));
    let table = stdout(&run(&["run", "--plugin", "random", "--games", "3"]));
    assert!(table.contains("plugin random"));
    assert!(table.contains("lines       mean"));
    assert!(table.contains("ended       3 topped out"));
}

#[test]
fn plugins_lists_the_bundled_ones() {
    let output = run(&["plugins"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(
        text.lines().any(|l| l.starts_with("random ") && l.contains("baseline")),
        "{text}"
    );
    let listed: Value = serde_json::from_slice(&run(&["plugins", "--format", "json"]).stdout).unwrap();
    assert!(
        listed["searched"].as_array().is_some_and(|dirs| !dirs.is_empty()),
        "{listed}"
    );
    assert!(listed["plugins"]
        .as_array()
        .unwrap()
        .iter()
        .any(|p| p["name"] == "random" && p["info"]["abi"] == 2));
}

#[test]
fn check_prints_info_and_plays_a_game() {
    let output = run(&["check", "random"]);
    let text = stdout(&output);
    assert!(output.status.success(), "{text}{}", stderr(&output));
    assert!(text.contains("name         random"));
    assert!(text.contains("violations   0"));
    assert!(text.contains("verdict      ok"));
    let bad = run(&["check", &testkit(), "--options", "mode=bad-bits"]);
    assert!(!bad.status.success());
    assert!(stdout(&bad).contains("verdict      FAILED"));
}

#[test]
fn bundled_piece_sets_play_with_tree_search_and_random() {
    for set in ["tetrominoes", "pentominoes", "small", "unusual"] {
        let file = workspace().join(format!("pieces/{set}.toml"));
        for plugin in ["random", "tree-search"] {
            let document = json(&run(&[
                "run",
                "--plugin",
                plugin,
                "--pieces",
                file.to_str().unwrap(),
                "--width",
                "16",
                "--height",
                "16",
                "--games",
                "2",
                "--max-pieces",
                "60",
                "--format",
                "json",
            ]));
            assert_eq!(document["summary"]["violations"], 0, "{plugin} {set}");
            assert_eq!(document["summary"]["ends"]["plugin_error"], 0, "{plugin} {set}");
            assert!(document["setup"]["pieces"].as_array().unwrap().len() >= 4);
        }
    }
}

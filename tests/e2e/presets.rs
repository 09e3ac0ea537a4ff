//! Every bundled plugin against every preset: it plays a clean test game, or it refuses
//! the preset at `create` in one line. Nothing in between (a plugin that accepts rules it
//! cannot play, or plays them with violations).

use crate::common::{assert_one_line_error, run, stdout};

const PLUGINS: [&str; 8] = [
    "bcts",
    "beam",
    "chasm",
    "eight-feature",
    "flat-stack",
    "monte-carlo",
    "random",
    "tree-search",
];
const PRESETS: [&str; 4] = ["classic", "leiden", "simplified", "guideline"];

/// The plugins that play seed 003's `leiden` assignment alone, as their seed defines them.
const LEIDEN_ONLY: [&str; 2] = ["flat-stack", "monte-carlo"];
/// The plugins made for the guideline's versus alone.
const GUIDELINE_ONLY: [&str; 1] = ["beam"];

#[test]
fn every_bundled_plugin_plays_or_refuses_each_preset() {
    for plugin in PLUGINS {
        for preset in PRESETS {
            let output = run(&["check", plugin, "--preset", preset, "--max-pieces", "20"]);
            let refuses = (LEIDEN_ONLY.contains(&plugin) && preset != "leiden")
                || (GUIDELINE_ONLY.contains(&plugin) && preset != "guideline");
            if refuses {
                assert_one_line_error(&output, "create failed");
                assert!(stdout(&output).is_empty() || !stdout(&output).contains("verdict"));
            } else {
                let text = stdout(&output);
                assert!(output.status.success(), "{plugin} under {preset}: {text}");
                assert!(text.contains("verdict      ok"), "{plugin} under {preset}: {text}");
            }
        }
    }
}

/// `tetrad run --preset guideline`: bcts plays it through the version 1 ABI (turns that
/// kick, shifts, hard drops), the same seed twice gives the same games, and what the
/// preset cannot take is refused in one line.
#[test]
fn bcts_plays_the_guideline_preset_and_its_limits_are_checked() {
    let args = [
        "run",
        "--plugin",
        "bcts",
        "--preset",
        "guideline",
        "--games",
        "3",
        "--max-pieces",
        "400",
        "--format",
        "json",
    ];
    let first = crate::common::json(&run(&args));
    let totals = |report: &serde_json::Value| -> Vec<[u64; 4]> {
        let games = report["games"].as_array().unwrap();
        games
            .iter()
            .map(|g| ["lines", "pieces", "score", "ticks"].map(|k| g[k].as_u64().unwrap()))
            .collect()
    };
    assert_eq!(
        totals(&first),
        totals(&crate::common::json(&run(&args))),
        "reproducible"
    );
    for game in first["games"].as_array().unwrap() {
        // Four hundred pieces of ten cells a row: bcts clears nearly all of them.
        assert_eq!(game["end"], "capped", "{game}");
        assert!(game["lines"].as_u64().unwrap() >= 150, "{game}");
        assert_eq!(game["violations"], 0, "{game}");
    }
    assert_one_line_error(
        &run(&["run", "--plugin", "bcts", "--preset", "guideline", "--preview", "7"]),
        "preview 7 is out of range 0..=6",
    );
    assert_one_line_error(
        &run(&[
            "run",
            "--plugin",
            "bcts",
            "--preset",
            "guideline",
            "--pieces",
            concat!(env!("CARGO_MANIFEST_DIR"), "/../pieces/tetrominoes.toml"),
        ]),
        "preset guideline plays the seven tetrominoes",
    );
}

/// A versus match under the guideline: its default attack table is the guideline's, and
/// the results file's header says so.
#[test]
fn a_guideline_versus_match_uses_the_guideline_attack_table() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("match.jsonl");
    let output = run(&[
        "versus",
        "--plugins",
        "bcts",
        "tree-search@depth=1",
        "--preset",
        "guideline",
        "--games",
        "6",
        "--max-pieces",
        "500",
        "--format",
        "json",
        "--out",
        out.to_str().unwrap(),
    ]);
    let report = crate::common::json(&output);
    let score = &report["score"];
    let games = ["wins", "draws", "losses"]
        .iter()
        .map(|k| score[k].as_u64().unwrap())
        .sum::<u64>();
    assert_eq!(games, 6);
    let header: serde_json::Value =
        serde_json::from_str(std::fs::read_to_string(&out).unwrap().lines().next().unwrap()).unwrap();
    let attack = &header["config"]["setup"]["attack"];
    assert_eq!(attack["spins"], serde_json::json!([2, 4, 6]), "{header}");
    assert_eq!(attack["perfect_clear"], 10);
    assert!(report["games"]
        .as_array()
        .unwrap()
        .iter()
        .any(|g| g["sent"][0].as_u64().unwrap() > 0));
}

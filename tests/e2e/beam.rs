//! The `beam` plugin through the binary: it plays the guideline preset cleanly, clears
//! lines, and at a fixed node budget plays the same games twice.

use crate::common::{json, run};

/// Two games of 200 pieces at a small fixed budget (the test binary's plugin is built
/// without optimisation): both reach the cap with nearly every piece cleared, no
/// violation, and the same games again.
#[test]
fn beam_plays_the_guideline_preset_and_a_fixed_budget_repeats_its_games() {
    let args = [
        "run",
        "--plugin",
        "beam",
        "--preset",
        "guideline",
        "--games",
        "2",
        "--max-pieces",
        "200",
        "--options",
        "width=8,depth=3,nodes=1500",
        "--format",
        "json",
    ];
    let first = json(&run(&args));
    let games = |report: &serde_json::Value| -> Vec<serde_json::Value> {
        report["games"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| serde_json::json!([g["lines"], g["pieces"], g["ticks"], g["t_spins"], g["end"]]))
            .collect()
    };
    for game in first["games"].as_array().unwrap() {
        assert_eq!(game["end"], "capped", "{game}");
        assert_eq!(game["violations"], 0, "{game}");
        // 200 pieces are 80 rows of cells: a stack kept low clears most of them.
        assert!(game["lines"].as_u64().unwrap() >= 60, "{game}");
    }
    assert_eq!(games(&first), games(&json(&run(&args))), "reproducible");
}

/// `tetrad tbp beam` played by tetrad's own TBP frontend (a manifest whose command is
/// this binary) plays, at a fixed node budget, the games the library plays.
#[test]
fn beam_served_over_tbp_plays_the_library_games() {
    let options = "width=8,depth=3,nodes=1500";
    let dir = tempfile::tempdir().unwrap();
    let manifest = dir.path().join("beam-tbp.toml");
    let command = [env!("CARGO_BIN_EXE_tetrad"), "tbp", "beam", "--options", options];
    let quoted: Vec<String> = command.iter().map(|c| format!("{c:?}")).collect();
    std::fs::write(
        &manifest,
        format!(
            "name = \"beam-tbp\"\ncommand = [{}]\nprotocol = \"tbp\"\nthink_ms = 0\n",
            quoted.join(", ")
        ),
    )
    .unwrap();
    let games = |plugin: &str, options: Option<&str>| -> Vec<serde_json::Value> {
        let mut args = vec![
            "run",
            "--plugin",
            plugin,
            "--preset",
            "guideline",
            "--games",
            "2",
            "--max-pieces",
            "120",
            "--format",
            "json",
        ];
        if let Some(options) = options {
            args.extend(["--options", options]);
        }
        let report = json(&run(&args));
        report["games"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| {
                serde_json::json!([
                    g["end"],
                    g["lines"],
                    g["pieces"],
                    g["score"],
                    g["t_spins"],
                    g["violations"]
                ])
            })
            .collect()
    };
    let library = games("beam", Some(options));
    let served = games(manifest.to_str().unwrap(), None);
    assert_eq!(served, library, "game for game");
    assert!(
        library.iter().all(|g| g[0] == "capped" && g[1].as_u64().unwrap() > 0),
        "{library:?}"
    );
}

/// What `tetrad tbp` cannot serve is one line before any message.
#[test]
fn tbp_refuses_in_one_line_what_it_cannot_serve() {
    crate::common::assert_one_line_error(&run(&["tbp", "flat-stack"]), "leiden");
    crate::common::assert_one_line_error(&run(&["tbp", "beam", "--options", "width=0"]), "width");
}

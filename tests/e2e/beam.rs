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

//! Every bundled plugin against every preset: it plays a clean test game, or it refuses
//! the preset at `create` in one line. Nothing in between (a plugin that accepts rules it
//! cannot play, or plays them with violations).

use crate::common::{assert_one_line_error, run, stdout};

const PLUGINS: [&str; 7] = [
    "bcts",
    "chasm",
    "eight-feature",
    "flat-stack",
    "monte-carlo",
    "random",
    "tree-search",
];
const PRESETS: [&str; 3] = ["classic", "leiden", "simplified"];

/// The plugins that play seed 003's `leiden` assignment alone, as their seed defines them.
const LEIDEN_ONLY: [&str; 2] = ["flat-stack", "monte-carlo"];

#[test]
fn every_bundled_plugin_plays_or_refuses_each_preset() {
    for plugin in PLUGINS {
        for preset in PRESETS {
            let output = run(&["check", plugin, "--preset", preset, "--max-pieces", "20"]);
            let refuses = LEIDEN_ONLY.contains(&plugin) && preset != "leiden";
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

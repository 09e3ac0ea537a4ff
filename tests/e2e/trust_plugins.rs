//! Plugins that lie, exit or print escapes, plugin files with odd names, and the small
//! things a user meets on the command line.

use crate::common::{assert_one_line_error, compile_c, run, stderr, stdout, testkit, tetrad};
use crate::trust_isolation::{games_in, hostile, run_within, strings};
use serde_json::Value;
use std::path::Path;
use std::time::Duration;

/// Copies the testkit plugin into `dir` as `file_name`.
fn testkit_as(dir: &Path, file_name: &str) -> std::path::PathBuf {
    let path = dir.join(file_name);
    std::fs::copy(testkit(), &path).expect("copy the testkit plugin");
    path
}

#[test]
fn a_plugin_file_named_with_a_dash_is_found_by_its_name() {
    // Regression: discovery and name resolution used to call each other without end.
    let dir = tempfile::tempdir().unwrap();
    testkit_as(
        dir.path(),
        &format!("libtetrad_plugin_my-bot{}", std::env::consts::DLL_SUFFIX),
    );
    let with_path = |args: &[&str]| {
        tetrad()
            .args(args)
            .env("TETRAD_PLUGIN_PATH", dir.path())
            .output()
            .unwrap()
    };
    let listed = with_path(&["plugins"]);
    assert!(listed.status.success(), "{}", stderr(&listed));
    assert!(
        stdout(&listed).lines().any(|l| l.starts_with("my-bot ")),
        "{}",
        stdout(&listed)
    );
    assert!(
        stdout(&listed).contains(&dir.path().display().to_string()),
        "the folder is listed as searched"
    );
    let played = with_path(&["run", "--plugin", "my-bot", "--games", "1", "--max-pieces", "10"]);
    assert!(played.status.success(), "{}", stderr(&played));
}

#[test]
fn a_plugin_that_calls_exit_zero_never_passes_for_success() {
    let dir = tempfile::tempdir().unwrap();
    let lib = hostile(dir.path());
    let entrant = format!("{lib}@mode=exit0");
    let check = run(&["check", &lib, "--options", "mode=exit0"]);
    assert_eq!(check.status.code(), Some(4), "{}", stderr(&check));
    assert!(
        stderr(&check).contains("a plugin called exit() during a game"),
        "{}",
        stderr(&check)
    );
    let ran = run(&["run", "--plugin", &lib, "--options", "mode=exit0", "--games", "2"]);
    assert_eq!(ran.status.code(), Some(4), "{}", stderr(&ran));
    // A tournament keeps the games finished before the exit.
    let out = dir.path().join("results.jsonl");
    let args = strings(&[
        "tournament",
        "--games",
        "3",
        "--jobs",
        "1",
        "--plugins",
        "random",
        &entrant,
    ]);
    let mut args = args;
    args.extend(["--out".to_string(), out.display().to_string()]);
    let output = run_within(&args, Duration::from_secs(60));
    assert_eq!(output.status.code(), Some(4), "{}", stderr(&output));
    assert!(!games_in(&out).is_empty(), "finished games are kept");
}

#[test]
fn plugin_text_reaches_the_terminal_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let source = r#"
#include <stdlib.h>
#include "tetrad_plugin.h"
static const TetradPluginInfo INFO = { TETRAD_ABI_VERSION, "esc\033[2Japed", "1", "tests", "clears\033[2J the screen" };
uint32_t tetrad_abi_version(void) { return TETRAD_ABI_VERSION; }
const TetradPluginInfo *tetrad_plugin_info(void) { return &INFO; }
void *tetrad_create(const TetradGameInfo *g, const char *o, char *e, size_t n) { (void)g; (void)o; (void)e; (void)n; return malloc(1); }
uint32_t tetrad_update(void *s, const TetradField *f, const TetradPiece *c, const TetradPiece *x, bool fresh) {
    (void)s; (void)f; (void)c; (void)x; (void)fresh; return TETRAD_UPDATE_FAILED;
}
void tetrad_destroy(void *s) { free(s); }
const char *tetrad_last_error(void *s) { (void)s; return "bell\a and \033[31mred"; }
"#;
    let lib = compile_c(dir.path(), "escapes", source);
    let output = run(&["check", lib.to_str().unwrap()]);
    let text = stdout(&output);
    assert!(!text.contains('\u{1b}') && !text.contains('\u{7}'), "{text:?}");
    assert!(text.contains("esc\\u{1b}[2Japed"), "{text}");
    assert!(text.contains("bell\\u{7} and \\u{1b}[31mred"), "{text}");
}

#[test]
fn an_info_claiming_another_abi_version_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let source = r#"
#include <stdlib.h>
#include "tetrad_plugin.h"
static const TetradPluginInfo INFO = { 7, "liar", "1", "tests", "claims ABI 7" };
uint32_t tetrad_abi_version(void) { return TETRAD_ABI_VERSION; }
const TetradPluginInfo *tetrad_plugin_info(void) { return &INFO; }
void *tetrad_create(const TetradGameInfo *g, const char *o, char *e, size_t n) { (void)g; (void)o; (void)e; (void)n; return malloc(1); }
uint32_t tetrad_update(void *s, const TetradField *f, const TetradPiece *c, const TetradPiece *x, bool fresh) {
    (void)s; (void)f; (void)c; (void)x; (void)fresh; return TETRAD_DROP;
}
void tetrad_destroy(void *s) { free(s); }
const char *tetrad_last_error(void *s) { (void)s; return ""; }
"#;
    let lib = compile_c(dir.path(), "liar", source);
    let output = run(&["check", lib.to_str().unwrap()]);
    assert_one_line_error(&output, "plugin info says ABI version 7, but tetrad_abi_version says 2");
}

#[test]
fn a_plugin_path_holding_an_at_sign_enters_a_tournament() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("bots@v2");
    std::fs::create_dir(&folder).unwrap();
    let lib = testkit_as(&folder, "libkit.so");
    let lib = lib.display().to_string();
    for entrant in [lib.clone(), format!("{lib}@mode=normal")] {
        let output = run(&[
            "tournament",
            "--games",
            "2",
            "--max-pieces",
            "20",
            "--plugins",
            &entrant,
            "random",
        ]);
        assert!(output.status.success(), "{entrant}: {}", stderr(&output));
    }
}

#[test]
fn sprt_decides_a_sweep_early() {
    // tree-search wins every seed against random; the match used to be played to the end
    // with an LLR of 0.
    let output = run(&[
        "tournament",
        "--plugins",
        "tree-search@depth=1",
        "random",
        "--games",
        "200",
        "--max-pieces",
        "300",
        "--sprt",
        "0,20",
        "--format",
        "json",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["sprt"]["verdict"], "H1", "{}", report["sprt"]);
    let played = report["standings"][0]["games"].as_u64().unwrap();
    assert!(played < 60, "decided after {played} games");
}

#[test]
fn a_missing_argument_is_named_and_an_os_error_said_once() {
    let missing = run(&["tournament"]);
    assert_one_line_error(&missing, "not provided: --plugins");
    let absent = run(&["run", "--plugin", "random", "--pieces", "/nonexistent/pieces.toml"]);
    assert_eq!(stderr(&absent).matches("os error 2").count(), 1, "{}", stderr(&absent));
}

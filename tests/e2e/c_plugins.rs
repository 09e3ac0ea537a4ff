//! C plugins: the bundled example, built here with the system C compiler against the
//! header, loaded and played through the real loader; and C-side failure paths.

use crate::common::*;

fn c_example(dir: &std::path::Path) -> String {
    let source = workspace().join("plugins/c-example/c_example.c");
    compile_c_file(dir, "c_example", &source).display().to_string()
}

#[test]
fn c_example_builds_against_the_header_and_plays_every_preset() {
    let dir = tempfile::tempdir().unwrap();
    let lib = c_example(dir.path());
    for preset in ["classic", "leiden", "simplified"] {
        let document = json(&run(&[
            "run",
            "--plugin",
            &lib,
            "--preset",
            preset,
            "--games",
            "4",
            "--max-pieces",
            "300",
            "--format",
            "json",
        ]));
        assert_eq!(document["plugin"]["name"], "c-example");
        assert_eq!(document["plugin"]["flavour"], "c");
        let summary = &document["summary"];
        assert_eq!(summary["violations"], 0, "{preset}");
        assert_eq!(summary["ends"]["plugin_error"], 0, "{preset}");
        // A heuristic player clears lines where the random baseline clears none.
        assert!(summary["lines"]["mean"].as_f64().unwrap() > 1.0, "{preset}: {summary}");
    }
}

#[test]
fn c_example_options_are_checked_by_the_plugin() {
    let dir = tempfile::tempdir().unwrap();
    let lib = c_example(dir.path());
    let output = run(&["run", "--plugin", &lib, "--options", "depth=3"]);
    assert_one_line_error(&output, "unknown option `depth`");
    let ok = run(&[
        "run",
        "--plugin",
        &lib,
        "--options",
        "holes=1.5",
        "--games",
        "1",
        "--max-pieces",
        "20",
    ]);
    assert!(ok.status.success(), "{}", stderr(&ok));
}

#[test]
fn c_plugin_failure_status_ends_the_game_with_its_message() {
    let dir = tempfile::tempdir().unwrap();
    let source = r#"
#include <stdlib.h>
#include "tetrad_plugin.h"
static const TetradPluginInfo INFO = { TETRAD_ABI_VERSION, "failing", "1", "tests", "fails at its third update" };
typedef struct { int calls; } State;
uint32_t tetrad_abi_version(void) { return TETRAD_ABI_VERSION; }
const TetradPluginInfo *tetrad_plugin_info(void) { return &INFO; }
void *tetrad_create(const TetradGameInfo *g, const char *o, char *e, size_t n) { (void)g; (void)o; (void)e; (void)n; return calloc(1, sizeof(State)); }
uint32_t tetrad_update(void *s, const TetradField *f, const TetradPiece *c, const TetradPiece *x, bool fresh) {
    (void)f; (void)c; (void)x; (void)fresh;
    return ++((State *)s)->calls == 3 ? TETRAD_UPDATE_FAILED : TETRAD_DROP;
}
void tetrad_destroy(void *s) { free(s); }
const char *tetrad_last_error(void *s) { (void)s; return "out of ideas"; }
"#;
    let lib = compile_c(dir.path(), "failing", source);
    let document = forfeited_json(&run(&[
        "run",
        "--plugin",
        lib.to_str().unwrap(),
        "--games",
        "2",
        "--format",
        "json",
    ]));
    for game in document["games"].as_array().unwrap() {
        assert_eq!(game["end"], "plugin_error");
        assert_eq!(game["error"], "out of ideas");
        assert_eq!(game["ticks"], 2);
    }
}

#[test]
fn c_plugin_missing_a_required_function_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let source = "#include \"tetrad_plugin.h\"\nuint32_t tetrad_abi_version(void) { return TETRAD_ABI_VERSION; }\n";
    let lib = compile_c(dir.path(), "partial", source);
    let output = run(&["check", lib.to_str().unwrap()]);
    assert_one_line_error(&output, "C plugin lacks the required function `tetrad_plugin_info`");
}

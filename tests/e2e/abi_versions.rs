//! The ABI's versions side by side: plugins built against the frozen version 1 header
//! load and play every preset as before, and version 2 plugins, in C and in Rust, see the
//! hold slot and the whole queue and may hold.

use crate::common::*;
use std::path::{Path, PathBuf};

/// The version 1 header, frozen as it was released.
fn v1_include() -> PathBuf {
    workspace().join("tests/e2e/fixtures/abi-v1")
}

/// `tetrad run --format json` of `plugin` under `preset`, with extra arguments.
fn played(plugin: &str, preset: &str, extra: &[&str]) -> serde_json::Value {
    let mut args = vec![
        "run",
        "--plugin",
        plugin,
        "--preset",
        preset,
        "--games",
        "3",
        "--max-pieces",
        "200",
        "--format",
        "json",
    ];
    args.extend_from_slice(extra);
    json(&run(&args))
}

fn compile_source(dir: &Path, name: &str, source: &str, include: &Path) -> String {
    let src = dir.join(format!("{name}.c"));
    std::fs::write(&src, source).expect("write C source");
    compile_c_against(dir, name, &src, include).display().to_string()
}

#[test]
fn the_c_example_built_for_version_1_plays_every_preset_guideline_included() {
    let dir = tempfile::tempdir().unwrap();
    let source = workspace().join("plugins/c-example/c_example.c");
    let lib = compile_c_against(dir.path(), "c_example_v1", &source, &v1_include())
        .display()
        .to_string();
    let check = run(&["check", &lib]);
    assert!(check.status.success(), "{}", stderr(&check));
    for preset in ["classic", "leiden", "simplified", "guideline"] {
        let document = played(&lib, preset, &[]);
        assert_eq!(document["plugin"]["abi"], 1, "{preset}");
        let summary = &document["summary"];
        assert_eq!(summary["violations"], 0, "{preset}");
        assert_eq!(summary["ends"]["plugin_error"], 0, "{preset}: {summary}");
        assert!(summary["lines"]["mean"].as_f64().unwrap() > 1.0, "{preset}: {summary}");
    }
}

#[test]
fn a_version_1_plugin_is_shown_one_next_piece_and_may_not_hold() {
    let dir = tempfile::tempdir().unwrap();
    // Built against the version 1 header, which has no hold bit: 0x40 is a bit it does
    // not define. It asks for it with DROP on each piece's first tick.
    let source = r#"
#include <stdio.h>
#include <stdlib.h>
#include "tetrad_plugin.h"
static const TetradPluginInfo INFO = { TETRAD_ABI_VERSION, "old", "1", "tests", "a version 1 plugin" };
uint32_t tetrad_abi_version(void) { return TETRAD_ABI_VERSION; }
const TetradPluginInfo *tetrad_plugin_info(void) { return &INFO; }
void *tetrad_create(const TetradGameInfo *g, const char *o, char *e, size_t n) {
    (void)o;
    if (g->abi_version != 1 || g->preview != 1) {
        snprintf(e, n, "shown ABI version %u and preview %u", (unsigned)g->abi_version, (unsigned)g->preview);
        return NULL;
    }
    return malloc(1);
}
uint32_t tetrad_update(void *s, const TetradField *f, const TetradPiece *c, const TetradPiece *x, bool fresh) {
    (void)s; (void)f; (void)c; (void)x;
    return fresh ? 0x40u | TETRAD_DROP : TETRAD_DROP;
}
void tetrad_destroy(void *s) { free(s); }
"#;
    let lib = compile_source(dir.path(), "old", source, &v1_include());
    let document = played(&lib, "guideline", &[]);
    for game in document["games"].as_array().unwrap() {
        // Every first tick is a violation with nothing applied; the next tick drops.
        assert_eq!(game["violations"], game["pieces"], "{game}");
        assert_eq!(game["ticks"].as_u64(), game["pieces"].as_u64().map(|p| 2 * p), "{game}");
    }
}

/// A version 2 C plugin that holds every piece it may, and fails with a message when the
/// state disagrees with the rules.
const HOLDER: &str = r#"
#include <stdio.h>
#include <stdlib.h>
#include "tetrad_plugin.h"
static const TetradPluginInfo INFO = { TETRAD_ABI_VERSION, "holder", "1", "tests", "holds every piece it may" };
typedef struct { uint32_t preview; int held, entering; bool just_held; char error[200]; } Bot;
uint32_t tetrad_abi_version(void) { return TETRAD_ABI_VERSION; }
const TetradPluginInfo *tetrad_plugin_info(void) { return &INFO; }
void *tetrad_create(const TetradGameInfo *g, const char *o, char *e, size_t n) {
    (void)o;
    if (g->abi_version != 2) { snprintf(e, n, "shown ABI version %u", (unsigned)g->abi_version); return NULL; }
    Bot *b = calloc(1, sizeof(Bot));
    b->preview = g->preview;
    return b;
}
static uint32_t fail(Bot *b, const char *what) {
    snprintf(b->error, sizeof b->error, "%s", what);
    return TETRAD_UPDATE_FAILED;
}
uint32_t tetrad_update_v2(void *s, const TetradField *f, const TetradPiece *c, const TetradPiece *x,
                          const TetradState *st, bool fresh) {
    Bot *b = s;
    (void)f;
    if (st->size < sizeof(TetradState)) return fail(b, "the state is too small");
    if (st->queue_len != b->preview) return fail(b, "the queue is not as long as the preview");
    if (st->queue_len > 0 && st->queue[0] != x->kind) return fail(b, "the queue does not start with next");
    if (st->combo != 0 || st->pending_garbage != 0) return fail(b, "dropping in the middle cleared lines");
    if (b->just_held) {
        b->just_held = false;
        if (!fresh) return fail(b, "the piece out of the hold is not new");
        if (st->hold != b->held) return fail(b, "the hold slot does not hold the held piece");
        /* With the preview off, the piece from the queue was not shown. */
        if (b->entering != TETRAD_NO_PIECE && c->kind != b->entering) return fail(b, "the wrong piece entered");
        if (st->hold_available) return fail(b, "a piece out of the hold may be held again");
    }
    if (fresh && st->hold_available) {
        b->held = c->kind;
        b->entering = st->hold != TETRAD_NO_PIECE ? st->hold : st->queue[0];
        b->just_held = true;
        return TETRAD_HOLD;
    }
    return TETRAD_DROP;
}
void tetrad_destroy(void *s) { free(s); }
const char *tetrad_last_error(void *s) { return ((Bot *)s)->error; }
"#;

#[test]
fn a_version_2_c_plugin_sees_the_queue_and_the_hold_slot_and_holds() {
    let dir = tempfile::tempdir().unwrap();
    let lib = compile_source(dir.path(), "holder", HOLDER, &workspace().join("plugin-api/include"));
    for preview in ["6", "3", "0"] {
        let document = played(&lib, "guideline", &["--preview", preview]);
        assert_eq!(document["plugin"]["abi"], 2);
        let summary = &document["summary"];
        assert_eq!(summary["ends"]["plugin_error"], 0, "preview {preview}: {document}");
        assert_eq!(summary["violations"], 0, "preview {preview}");
        for game in document["games"].as_array().unwrap() {
            // Every other piece is held at its first tick: a hold is a tick of its own.
            let (pieces, ticks) = (game["pieces"].as_u64().unwrap(), game["ticks"].as_u64().unwrap());
            assert!(ticks > pieces + pieces / 3, "preview {preview}: {game}");
        }
    }
    // Under the seeds' presets nothing can be held, and the plugin plays on without.
    let document = played(&lib, "classic", &[]);
    assert_eq!(document["summary"]["ends"]["plugin_error"], 0, "{document}");
}

#[test]
fn a_version_2_rust_plugin_sees_the_queue_and_the_hold_slot_and_holds() {
    for preview in ["6", "1", "0"] {
        let document = played(
            &testkit(),
            "guideline",
            &["--preview", preview, "--options", "mode=hold"],
        );
        assert_eq!(document["plugin"]["abi"], 2);
        let summary = &document["summary"];
        assert_eq!(summary["ends"]["plugin_error"], 0, "preview {preview}: {document}");
        assert_eq!(summary["violations"], 0, "preview {preview}");
    }
}

#[test]
fn a_version_2_c_plugin_without_an_update_function_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let source = r#"
#include <stdlib.h>
#include "tetrad_plugin.h"
static const TetradPluginInfo INFO = { TETRAD_ABI_VERSION, "mute", "1", "tests", "never answers" };
uint32_t tetrad_abi_version(void) { return TETRAD_ABI_VERSION; }
const TetradPluginInfo *tetrad_plugin_info(void) { return &INFO; }
void *tetrad_create(const TetradGameInfo *g, const char *o, char *e, size_t n) { (void)g; (void)o; (void)e; (void)n; return malloc(1); }
void tetrad_destroy(void *s) { free(s); }
"#;
    let lib = compile_source(dir.path(), "mute", source, &workspace().join("plugin-api/include"));
    let output = run(&["check", &lib]);
    assert_one_line_error(
        &output,
        "C plugin of ABI version 2 exports neither `tetrad_update_v2` nor `tetrad_update`",
    );
}

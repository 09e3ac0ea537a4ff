//! `tetrad report`: a tournament's results file drawn as one self-contained HTML page.

use crate::common::*;
use std::path::Path;

/// The four charts, by the id of the figure that holds each.
const CHARTS: [&str; 4] = ["survival", "lines", "update-time", "pairwise"];

/// Plays a small tournament of `plugins` into `out`.
fn tournament(plugins: &[&str], out: &Path) {
    let mut args = vec!["tournament", "--plugins"];
    args.extend_from_slice(plugins);
    args.extend(["--games", "6", "--max-pieces", "150", "--out", out.to_str().unwrap()]);
    let output = run(&args);
    assert!(output.status.success(), "{}", stderr(&output));
}

/// The text of the figure with `id`, up to its end.
fn figure<'a>(page: &'a str, id: &str) -> &'a str {
    let start = page
        .find(&format!("<figure id=\"{id}\">"))
        .unwrap_or_else(|| panic!("no figure `{id}`"));
    let end = page[start..].find("</figure>").expect("figure closed");
    &page[start..start + end]
}

/// Asserts the page loads nothing from elsewhere and runs nothing.
fn assert_self_contained(page: &str) {
    let lower = page.to_lowercase();
    for outside in [
        "<script", "http://", "https://", "<link", "<img", "src=", "@import", "url(",
    ] {
        assert!(!lower.contains(outside), "`{outside}` in the page");
    }
}

#[test]
fn report_draws_every_chart_of_a_tournament_in_one_self_contained_page() {
    let dir = tempfile::tempdir().unwrap();
    let results = dir.path().join("results.jsonl");
    let page_path = dir.path().join("report.html");
    let labels = ["random", "tree-search@depth=1", "chasm"];
    tournament(&labels, &results);

    let output = run(&[
        "report",
        results.to_str().unwrap(),
        "--html",
        page_path.to_str().unwrap(),
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stdout(&output).contains("report.html"), "{}", stdout(&output));
    let page = std::fs::read_to_string(&page_path).unwrap();
    assert!(page.starts_with("<!DOCTYPE html>"));
    assert!(page.trim_end().ends_with("</html>"));
    assert_self_contained(&page);

    assert_eq!(page.matches("<svg").count(), CHARTS.len());
    for chart in CHARTS {
        let svg = figure(&page, chart);
        assert_eq!(svg.matches("<svg").count(), 1, "one chart in `{chart}`");
        assert!(svg.contains("</svg>"));
    }
    // Every entrant in the standings, and in the legend or panels of the charts that
    // name entrants.
    for label in labels {
        assert!(
            page.contains(&format!("<td class=\"label\">{label}</td>")),
            "{label} in the standings"
        );
        for chart in ["survival", "lines", "update-time", "pairwise"] {
            assert!(figure(&page, chart).contains(label), "{label} in `{chart}`");
        }
    }
    assert!(page.contains("6 games each, seed 1: 18 of 18 games played"));
    assert!(page.contains("capped at 150 pieces"));

    // The same page on standard output.
    let piped = run(&["report", results.to_str().unwrap(), "--html", "-"]);
    assert!(piped.status.success(), "{}", stderr(&piped));
    assert_eq!(stdout(&piped), page);
}

#[test]
fn report_escapes_a_plugin_name_with_markup() {
    let dir = tempfile::tempdir().unwrap();
    let source = r#"
#include "tetrad_plugin.h"
static const TetradPluginInfo INFO = { TETRAD_ABI_VERSION, "<b>drop & co</b>", "1", "tests", "drops every piece" };
static int instance;
uint32_t tetrad_abi_version(void) { return TETRAD_ABI_VERSION; }
const TetradPluginInfo *tetrad_plugin_info(void) { return &INFO; }
void *tetrad_create(const TetradGameInfo *g, const char *o, char *e, size_t n) { (void)g; (void)o; (void)e; (void)n; return &instance; }
uint32_t tetrad_update(void *s, const TetradField *f, const TetradPiece *c, const TetradPiece *x, bool fresh) {
    (void)s; (void)f; (void)c; (void)x; (void)fresh;
    return TETRAD_DROP;
}
void tetrad_destroy(void *s) { (void)s; }
const char *tetrad_last_error(void *s) { (void)s; return ""; }
"#;
    let lib = compile_c(dir.path(), "markup", source);
    let results = dir.path().join("results.jsonl");
    let page_path = dir.path().join("report.html");
    tournament(&[lib.to_str().unwrap(), "random"], &results);

    let output = run(&[
        "report",
        results.to_str().unwrap(),
        "--html",
        page_path.to_str().unwrap(),
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let page = std::fs::read_to_string(&page_path).unwrap();
    assert!(!page.contains("<b>"), "the name's markup reached the page");
    assert!(!page.contains("drop & co"), "a bare ampersand reached the page");
    let escaped = "&lt;b&gt;drop &amp; co&lt;/b&gt;";
    assert!(page.contains(&format!("<td class=\"label\">{escaped}</td>")));
    for chart in CHARTS {
        assert!(figure(&page, chart).contains(escaped), "the name in `{chart}`");
    }
    assert_self_contained(&page);
}

#[test]
fn report_of_a_file_that_is_not_results_is_one_error_line() {
    let dir = tempfile::tempdir().unwrap();
    let page_path = dir.path().join("report.html");
    let page = page_path.to_str().unwrap();

    let garbage = dir.path().join("notes.txt");
    std::fs::write(&garbage, "shopping list\n").unwrap();
    let output = run(&["report", garbage.to_str().unwrap(), "--html", page]);
    assert_one_line_error(&output, "notes.txt:1: not a tetrad results line");

    let missing = dir.path().join("missing.jsonl");
    let output = run(&["report", missing.to_str().unwrap(), "--html", page]);
    assert_one_line_error(&output, "missing.jsonl");

    let empty = dir.path().join("empty.jsonl");
    std::fs::write(&empty, "").unwrap();
    let output = run(&["report", empty.to_str().unwrap(), "--html", page]);
    assert_one_line_error(&output, "no header line");

    assert!(!page_path.exists(), "no page written for a bad file");
    let output = run(&["report", garbage.to_str().unwrap()]);
    assert_one_line_error(&output, "--html");
}

#[test]
fn report_is_documented_in_the_help() {
    let output = run(&["--help"]);
    assert!(stdout(&output).contains("report"), "{}", stdout(&output));
    let output = run(&["report", "--help"]);
    assert!(output.status.success());
    let help = stdout(&output);
    for needle in ["--html", "self-contained", "tetrad tournament --out"] {
        assert!(help.contains(needle), "`{needle}` not in: {help}");
    }
}

#[test]
fn a_versus_report_counts_games_not_seats() {
    // Three entrants, two seeds: each pair plays both, so six games, four for each entrant.
    let dir = tempfile::tempdir().unwrap();
    let results = dir.path().join("results.jsonl");
    let output = run(&[
        "tournament",
        "--versus",
        "--plugins",
        "random",
        "tree-search@depth=1",
        "chasm",
        "--games",
        "2",
        "--max-pieces",
        "20",
        "--out",
        results.to_str().unwrap(),
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let piped = run(&["report", results.to_str().unwrap(), "--html", "-"]);
    assert!(piped.status.success(), "{}", stderr(&piped));
    let page = stdout(&piped);
    let size = "3 entrants, 4 games each (2 against each other entrant), seed 1: 6 of 6 games played";
    assert!(
        page.contains(size),
        "{}",
        page.lines().find(|l| l.contains("size")).unwrap_or("")
    );
}

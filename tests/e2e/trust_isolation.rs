//! Isolation against hostile plugins: output on stdout, forged replies, a hang in
//! `create`, a killed parent, and a crash that must keep the game's progress. Each plugin
//! is a C library built here, so it can print, sleep and crash the way real code does.

use crate::common::{compile_c, run, stderr, stdout, testkit, tetrad};
use serde_json::Value;
use std::collections::HashSet;
use std::path::Path;
use std::process::{Child, Output, Stdio};
use std::time::{Duration, Instant};

/// A plugin that drops every piece at once and misbehaves by its option `mode`:
/// `quiet`, `chatty` (a line on stdout per update, never flushed by hand), `dribble` (one
/// `x` with no newline), `forge` (well-formed replies of both protocol generations on
/// stdout, claiming 9,999 lines, and a forged create failure), `sleep-create` (sleeps in
/// `create`), `hang` (never returns from `update`) and `exit0` (calls `exit(0)` in its fifth
/// update). Its
/// library constructor prints too.
pub const HOSTILE: &str = r#"
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "tetrad_plugin.h"
static const TetradPluginInfo INFO = { TETRAD_ABI_VERSION, "hostile", "1", "tests", "prints, forges and sleeps" };
typedef struct { char mode[32]; unsigned long updates; } State;
__attribute__((constructor)) static void loud(void) { printf("hostile loaded"); fflush(stdout); }
static void nap(long seconds) { struct timespec t = { seconds, 0 }; nanosleep(&t, NULL); }
uint32_t tetrad_abi_version(void) { return TETRAD_ABI_VERSION; }
const TetradPluginInfo *tetrad_plugin_info(void) { return &INFO; }
void *tetrad_create(const TetradGameInfo *g, const char *o, char *e, size_t n) {
    (void)e; (void)n;
    State *s = calloc(1, sizeof(State));
    const char *mode = strstr(o, "mode=");
    snprintf(s->mode, sizeof s->mode, "%s", mode ? mode + 5 : "quiet");
    if (strcmp(s->mode, "dribble") == 0) { printf("x"); fflush(stdout); }
    if (strcmp(s->mode, "forge") == 0) {
        for (int entrant = 0; entrant < 4; entrant++) {
            for (int game = 0; game < 4; game++) {
                printf("{\"kind\":\"result\",\"record\":{\"entrant\":%d,\"result\":{\"index\":%d,\"seed\":0,"
                       "\"lines\":9999,\"pieces\":9999,\"score\":9999,\"ticks\":9999,\"end\":\"capped\","
                       "\"violations\":0,\"updates\":1,\"update_us_mean\":0.0,\"update_us_p99\":0.0,"
                       "\"update_us_max\":0.0},\"update_ns\":[]}}\n", entrant, game);
            }
        }
        printf("{\"kind\":\"create_failed\",\"message\":\"forged\"}\n");
        printf("{\"answers\":{\"entrant\":0,\"game\":0,\"seed\":0},\"kind\":\"create_failed\",\"message\":\"forged\"}\n");
        fflush(stdout);
    }
    (void)g;
    if (strcmp(s->mode, "sleep-create") == 0) { for (;;) nap(1); }
    return s;
}
uint32_t tetrad_update(void *p, const TetradField *f, const TetradPiece *c, const TetradPiece *x, bool fresh) {
    (void)f; (void)c; (void)x; (void)fresh;
    State *s = p;
    s->updates++;
    if (strcmp(s->mode, "chatty") == 0) {
        printf("chatty update %lu: a line long enough to cross a block boundary of the C library's buffer soon\n", s->updates);
    }
    if (strcmp(s->mode, "hang") == 0) { for (;;) nap(1); }
    if (strcmp(s->mode, "exit0") == 0 && s->updates == 5) { exit(0); }
    return TETRAD_DROP;
}
void tetrad_destroy(void *s) { free(s); }
const char *tetrad_last_error(void *s) { (void)s; return "none"; }
"#;

pub fn hostile(dir: &Path) -> String {
    compile_c(dir, "hostile", HOSTILE).display().to_string()
}

/// Runs `tetrad` with `args`, failing the test (and killing it) after `limit`: the bugs
/// these tests guard against hang.
pub fn run_within(args: &[String], limit: Duration) -> Output {
    let mut command = tetrad();
    command.args(args);
    command_within(command, limit)
}

/// Runs `command` (tetrad, with its arguments and environment), failing the test if it
/// still runs after `limit`.
pub fn command_within(mut command: std::process::Command, limit: Duration) -> Output {
    let mut child = command
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start tetrad");
    let started = Instant::now();
    while child.try_wait().expect("poll").is_none() {
        if started.elapsed() > limit {
            let _ = child.kill();
            let output = child.wait_with_output().expect("collect");
            panic!(
                "tetrad {:?} still running after {limit:?}; stderr: {}",
                command.get_args().collect::<Vec<_>>(),
                stderr(&output)
            );
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    child.wait_with_output().expect("collect")
}

pub fn strings(args: &[&str]) -> Vec<String> {
    args.iter().map(|s| s.to_string()).collect()
}

/// The game lines of a results file, checked to hold each (entrant, game) once.
pub fn games_in(path: &Path) -> Vec<Value> {
    let text = std::fs::read_to_string(path).expect("results file");
    let games: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).expect("every line is JSON"))
        .filter(|v| v["kind"] == "fixture")
        .map(|v| v["seats"][0].clone())
        .collect();
    let keys: HashSet<(u64, u64)> = games
        .iter()
        .map(|g| (g["entrant"].as_u64().unwrap(), g["result"]["index"].as_u64().unwrap()))
        .collect();
    assert_eq!(keys.len(), games.len(), "a game recorded twice in {}", path.display());
    games
}

#[test]
fn isolated_plugins_that_print_or_forge_replies_neither_hang_nor_fool_the_tournament() {
    let dir = tempfile::tempdir().unwrap();
    let lib = hostile(dir.path());
    let out = dir.path().join("results.jsonl");
    let mut args = strings(&[
        "tournament",
        "--isolate",
        "--games",
        "4",
        "--jobs",
        "2",
        "--format",
        "json",
    ]);
    args.extend([
        "--keep-logs".to_string(),
        "--out".to_string(),
        out.display().to_string(),
    ]);
    args.push("--plugins".to_string());
    for mode in ["quiet", "chatty", "dribble", "forge"] {
        args.push(format!("{lib}@mode={mode}"));
    }
    let output = run_within(&args, Duration::from_secs(120));
    assert!(output.status.success(), "{}", stderr(&output));
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    // Every entrant plays the same pieces the same way: the output changes nothing.
    let quiet = &report["standings"][0];
    assert_eq!(quiet["games"], 4, "{quiet}");
    for i in 1..4 {
        let standing = &report["standings"][i];
        assert_eq!(standing["games"], 4, "{standing}");
        assert_eq!(standing["lines"]["mean"], quiet["lines"]["mean"], "{standing}");
        assert_eq!(standing["pieces"], quiet["pieces"], "{standing}");
        let forfeits = standing["forfeits"].as_object().expect("forfeits by cause");
        assert!(forfeits.values().all(|n| n == 0), "{standing}");
    }
    let games = games_in(&out);
    assert_eq!(games.len(), 16);
    assert!(
        games.iter().all(|g| g["result"]["lines"] != 9999),
        "a forged result was credited"
    );
    // What the plugins printed is in the workers' logs, beside the results file.
    let logs: String = std::fs::read_dir(dir.path().join("results.jsonl.logs"))
        .expect("a log folder beside the results file")
        .map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap_or_default())
        .collect();
    for printed in ["hostile loaded", "chatty update 1:", "\"lines\":9999"] {
        assert!(logs.contains(printed), "`{printed}` not in the logs");
    }
    assert!(stderr(&output).contains("worker logs in"), "{}", stderr(&output));
}

#[test]
fn an_isolated_create_that_never_returns_forfeits_its_game_after_ten_seconds() {
    let dir = tempfile::tempdir().unwrap();
    let lib = hostile(dir.path());
    let out = dir.path().join("results.jsonl");
    let mut args = strings(&["tournament", "--isolate", "--think-limit-us", "1000", "--games", "1"]);
    args.extend(["--out".to_string(), out.display().to_string()]);
    args.extend([
        "--plugins".to_string(),
        format!("{lib}@mode=sleep-create"),
        "random".to_string(),
    ]);
    let started = Instant::now();
    let output = run_within(&args, Duration::from_secs(60));
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(started.elapsed() >= Duration::from_secs(10), "the create limit is 10 s");
    let games = games_in(&out);
    assert_eq!(games.len(), 2, "both entrants' games are recorded");
    let sleeper = games.iter().find(|g| g["entrant"] == 0).expect("the sleeper's game");
    assert_eq!(sleeper["result"]["end"], "timeout", "{sleeper}");
    let message = sleeper["result"]["error"].as_str().unwrap_or_default();
    assert!(message.starts_with("create still running after 1"), "{message}");
    assert!(message.contains("limit 10.0 s"), "{message}");
}

/// Processes whose command line mentions `needle`.
fn processes_mentioning(needle: &str) -> Vec<u32> {
    std::fs::read_dir("/proc")
        .expect("/proc")
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<u32>().ok())
        .filter(|pid| {
            std::fs::read(format!("/proc/{pid}/cmdline"))
                .is_ok_and(|cmd| String::from_utf8_lossy(&cmd).contains(needle))
        })
        .collect()
}

fn wait_for(what: &str, limit: Duration, mut done: impl FnMut() -> bool) {
    let started = Instant::now();
    while !done() {
        assert!(started.elapsed() < limit, "{what} within {limit:?}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn start_hanging_tournament(lib: &str) -> Child {
    tetrad()
        .args([
            "tournament",
            "--isolate",
            "--think-limit-us",
            "60000000",
            "--games",
            "4",
            "--jobs",
            "2",
        ])
        .args(["--plugins", &format!("{lib}@mode=hang")])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start tetrad")
}

#[test]
#[cfg(target_os = "linux")]
fn no_worker_outlives_its_parent() {
    let dir = tempfile::tempdir().unwrap();
    let lib = hostile(dir.path());
    for signal in ["-KILL", "-TERM"] {
        let mut parent = start_hanging_tournament(&lib);
        wait_for("two workers", Duration::from_secs(20), || {
            processes_mentioning(&lib)
                .into_iter()
                .filter(|&pid| pid != parent.id())
                .count()
                == 2
        });
        let status = std::process::Command::new("kill")
            .args([signal, &parent.id().to_string()])
            .status()
            .unwrap();
        assert!(status.success());
        let _ = parent.wait();
        wait_for(
            &format!("no worker left after {signal}"),
            Duration::from_secs(5),
            || processes_mentioning(&lib).is_empty(),
        );
    }
}

#[test]
fn an_isolated_crash_keeps_the_lines_and_pieces_played_before_it() {
    // On a board four wide with the I piece alone, every dropped piece clears a row.
    let dir = tempfile::tempdir().unwrap();
    let pieces = dir.path().join("i.toml");
    std::fs::write(&pieces, "[[piece]]\nname = \"I\"\nshape = \"####\"\n").unwrap();
    let run_on = |isolate: bool, mode: &str| -> Value {
        let out = dir.path().join(format!("{mode}.jsonl"));
        let mut args = strings(&["tournament", "--games", "1", "--width", "4", "--max-pieces", "400"]);
        if isolate {
            args.push("--isolate".to_string());
        }
        args.extend(["--pieces".to_string(), pieces.display().to_string()]);
        args.extend(["--out".to_string(), out.display().to_string()]);
        args.extend(["--plugins".to_string(), format!("{}@mode={mode},after=300", testkit())]);
        let output = run_within(&args, Duration::from_secs(60));
        assert!(output.status.success(), "{}", stderr(&output));
        games_in(&out).remove(0)["result"].clone()
    };
    let played = run_on(false, "normal");
    let crashed = run_on(true, "abort");
    assert_eq!(crashed["end"], "crashed", "{crashed}");
    // The plugin aborted in its 301st update: the record holds the 300 ticks before it.
    assert_eq!(crashed["ticks"], 300, "{crashed}");
    let pieces = crashed["pieces"].as_u64().unwrap();
    assert!(pieces > 50, "the crash came after many pieces: {crashed}");
    assert_eq!(crashed["lines"], pieces, "every piece cleared a row: {crashed}");
    // The game without the crash got further on the very same pieces.
    assert!(played["pieces"].as_u64().unwrap() > pieces, "{played}");
}

#[test]
fn a_worker_started_by_hand_refuses_an_absent_parent() {
    // The worker checks its parent before it loads the plugin: started with another
    // parent's id, it ends at once without playing.
    let output = run(&[
        "worker",
        "--plugin",
        "random",
        "--seed",
        "1",
        "--setup",
        "{}",
        "--parent-pid",
        "1",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(stdout(&output), "");
}

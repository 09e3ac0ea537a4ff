//! Hosting without surprises: a bot whose pipe dies while it lives, that floods a line, that
//! starts processes of its own, that answers twice, or whose manifest is a FIFO, never
//! hangs the host, never leaves a process behind and never desyncs a game. Every test that
//! hung before runs under a deadline.

use crate::common::*;
use crate::trust_isolation::{run_within, strings};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// A bot of the bot protocol that drops each piece where it appears and misbehaves as its
/// first argument says; `children` and `exit-with-child` write the IDs of the processes
/// they start to the file named by the second.
const HOSTILE_BOT: &str = r#"
import json, os, subprocess, sys, time
mode = sys.argv[1]
pids = sys.argv[2] if len(sys.argv) > 2 else None
def say(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()
def start_sleeper(**streams):
    child = subprocess.Popen(["sleep", "600"], stdin=subprocess.DEVNULL, stderr=subprocess.DEVNULL, **streams)
    with open(pids, "a") as f:
        f.write(f"{child.pid}\n")
def flood():
    chunk = "x" * (1 << 20)
    for _ in range(1024):
        sys.stdout.write(chunk)
    sys.stdout.flush()
    time.sleep(600)
if mode == "children":
    for _ in range(30):
        start_sleeper(stdout=subprocess.DEVNULL)
if mode == "close-stdout-at-start":
    os.close(1)
    time.sleep(600)
if mode == "flood-at-start":
    flood()
pieces = 0
for line in sys.stdin:
    message = json.loads(line)
    kind = message["type"]
    if kind == "hello":
        if mode == "close-stdin":
            # Closed before it answers, so that tetrad's next message finds it closed.
            os.close(0)
        say({"type": "info", "protocol": 1, "name": "hostile", "answers": "placement"})
        if mode == "close-stdin":
            time.sleep(600)
    elif kind == "start":
        say({"type": "ready"})
    elif kind == "piece":
        pieces += 1
        current = message["current"]
        placement = {"type": "placement", "orientation": current["orientation"], "column": current["x"]}
        if pieces == 3 and mode == "close-stdout":
            os.close(1)
            time.sleep(600)
        if pieces == 3 and mode == "flood":
            flood()
        if pieces == 3 and mode == "exit-with-child":
            start_sleeper()
            os._exit(7)
        if pieces == 3 and mode == "twice":
            # Both answers in one write, so the second is surely waiting when tetrad next asks.
            sys.stdout.write((json.dumps(placement) + "\n") * 2)
            sys.stdout.flush()
            continue
        say(placement)
    elif kind == "quit":
        break
"#;

/// Writes the hostile bot and a manifest for `mode` into `dir`; returns the manifest.
fn hostile(dir: &Path, mode: &str) -> PathBuf {
    std::fs::write(dir.join("hostile.py"), HOSTILE_BOT).unwrap();
    let manifest = dir.join(format!("{mode}.toml"));
    let pids = dir.join("pids.txt");
    std::fs::write(
        &manifest,
        format!(
            "name = \"hostile\"\ncommand = [\"python3\", \"hostile.py\", \"{mode}\", \"{}\"]\n",
            pids.display()
        ),
    )
    .unwrap();
    manifest
}

/// `tetrad run` of one game of `manifest`, as JSON, within 60 s.
fn run_one(manifest: &Path, extra: &[&str]) -> (std::process::Output, Duration) {
    let mut args = strings(&[
        "run",
        "--games",
        "1",
        "--max-pieces",
        "20",
        "--format",
        "json",
        "--plugin",
    ]);
    args.push(manifest.display().to_string());
    args.extend(strings(extra));
    let started = Instant::now();
    let output = run_within(&args, Duration::from_secs(60));
    (output, started.elapsed())
}

/// The end and error of the only game of a `run --format json` whose bot forfeited.
fn forfeit(output: &std::process::Output) -> (String, String) {
    let document = forfeited_json(output);
    let game = &document["games"][0];
    (
        game["end"].as_str().unwrap_or_default().to_string(),
        game["error"].as_str().unwrap_or_default().to_string(),
    )
}

#[test]
fn a_bot_that_closes_its_input_after_info_forfeits_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let (output, took) = run_one(&hostile(dir.path(), "close-stdin"), &[]);
    let (end, error) = forfeit(&output);
    assert_eq!(end, "crashed", "{error}");
    assert!(
        error.contains("still running 1 s after its line closed (killed)"),
        "{error}"
    );
    assert!(took < Duration::from_secs(20), "{took:?}");

    // A tournament and a versus game end too, the other entrant playing on.
    let bot = hostile(dir.path(), "close-stdin").display().to_string();
    for command in ["tournament", "versus"] {
        let mut args = strings(&[command, "--games", "1", "--max-pieces", "40", "--format", "json"]);
        args.extend(["--plugins".to_string(), bot.clone(), "random".to_string()]);
        let output = run_within(&args, Duration::from_secs(60));
        assert!(output.status.success(), "{command}: {}", stderr(&output));
    }
}

#[test]
fn a_bot_that_closes_its_output_and_sleeps_is_ended_at_start_and_mid_game() {
    let dir = tempfile::tempdir().unwrap();
    let (output, took) = run_one(&hostile(dir.path(), "close-stdout-at-start"), &[]);
    assert_one_line_error(
        &output,
        "still running 1 s after its line closed (killed) while tetrad waited for its info",
    );
    assert!(took < Duration::from_secs(20), "{took:?}");

    let (output, took) = run_one(&hostile(dir.path(), "close-stdout"), &[]);
    let (end, error) = forfeit(&output);
    assert_eq!(end, "crashed", "{error}");
    assert!(error.contains("killed"), "{error}");
    assert!(took < Duration::from_secs(20), "{took:?}");

    // Versus, in and out of isolation: the other seat wins, and the command ends.
    let bot = hostile(dir.path(), "close-stdout").display().to_string();
    for isolate in [false, true] {
        let mut args = strings(&["versus", "--games", "1", "--max-pieces", "40", "--format", "json"]);
        args.extend(["--plugins".to_string(), bot.clone(), "random".to_string()]);
        if isolate {
            args.push("--isolate".to_string());
        }
        let output = run_within(&args, Duration::from_secs(60));
        assert!(output.status.success(), "isolate {isolate}: {}", stderr(&output));
    }
}

#[test]
fn a_line_past_the_cap_is_a_plugin_error_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let (output, took) = run_one(&hostile(dir.path(), "flood"), &[]);
    let (end, error) = forfeit(&output);
    assert_eq!(end, "plugin_error", "{error}");
    assert!(error.contains("sent a line longer than 1 MiB"), "{error}");
    assert!(took < Duration::from_secs(20), "{took:?}");

    // On the plugin path, `tetrad plugins` names the bot that flooded it and goes on.
    let flooding = dir.path().join("path");
    std::fs::create_dir(&flooding).unwrap();
    std::fs::copy(dir.path().join("hostile.py"), flooding.join("hostile.py")).unwrap();
    std::fs::write(
        flooding.join("flooder.toml"),
        "name = \"flooder\"\ncommand = [\"python3\", \"hostile.py\", \"flood-at-start\"]\n",
    )
    .unwrap();
    let started = Instant::now();
    let mut listing = tetrad();
    listing.arg("plugins").env("TETRAD_PLUGIN_PATH", &flooding);
    let output = listing.output().unwrap();
    assert!(started.elapsed() < Duration::from_secs(20), "{:?}", started.elapsed());
    assert!(stdout(&output).contains("random"), "{}", stdout(&output));
}

#[test]
fn a_bot_that_exits_while_its_child_holds_its_output_crashed_with_its_status() {
    let dir = tempfile::tempdir().unwrap();
    let (output, took) = run_one(&hostile(dir.path(), "exit-with-child"), &[]);
    let (end, error) = forfeit(&output);
    assert_eq!(end, "crashed", "{error}");
    assert!(error.contains("exited with code 7"), "{error}");
    assert!(took < Duration::from_secs(8), "{took:?}");
    assert_none_alive(&dir.path().join("pids.txt"));
}

#[test]
fn nothing_a_bot_started_outlives_its_game() {
    let dir = tempfile::tempdir().unwrap();
    let manifest = hostile(dir.path(), "children");
    let mut args = strings(&[
        "run",
        "--games",
        "2",
        "--max-pieces",
        "10",
        "--format",
        "json",
        "--plugin",
    ]);
    args.push(manifest.display().to_string());
    let output = run_within(&args, Duration::from_secs(60));
    assert!(output.status.success(), "{}", stderr(&output));
    let started = std::fs::read_to_string(dir.path().join("pids.txt")).unwrap();
    // Each process of the bot started 30: the one asked for its info, which also checked
    // that it can start a game, and one a game; no more.
    assert_eq!(started.lines().count(), 3 * 30, "{started}");
    assert_none_alive(&dir.path().join("pids.txt"));
}

#[test]
fn a_bot_that_answers_twice_is_a_plugin_error_naming_the_extra_line() {
    let dir = tempfile::tempdir().unwrap();
    let (output, _) = run_one(&hostile(dir.path(), "twice"), &[]);
    let (end, error) = forfeit(&output);
    assert_eq!(end, "plugin_error", "{error}");
    assert!(error.contains(r#"sent `{"type": "placement""#), "{error}");
    assert!(error.contains("when nothing was asked of it"), "{error}");
}

#[test]
fn a_manifest_that_is_a_fifo_is_refused_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("bot.toml");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    let args = strings(&["run", "--games", "1", "--plugin", fifo.to_str().unwrap()]);
    let output = run_within(&args, Duration::from_secs(30));
    assert_one_line_error(&output, "not a bot manifest (a FIFO, not a plain file)");

    let started = Instant::now();
    let mut listing = tetrad();
    listing.arg("plugins").env("TETRAD_PLUGIN_PATH", dir.path());
    let output = listing.output().unwrap();
    assert!(started.elapsed() < Duration::from_secs(20), "{:?}", started.elapsed());
    assert!(output.status.success(), "{}", stderr(&output));
}

#[test]
fn a_run_leaves_no_log_folder_unless_asked() {
    let dir = tempfile::tempdir().unwrap();
    let manifest = hostile(dir.path(), "twice");
    let temp = dir.path().join("tmp");
    std::fs::create_dir(&temp).unwrap();
    let logs = |keep: bool| {
        let mut command = tetrad();
        command
            .env("TMPDIR", &temp)
            .args(["run", "--games", "1", "--max-pieces", "10", "--plugin"]);
        command.arg(&manifest);
        if keep {
            command.arg("--keep-logs");
        }
        let output = command.output().unwrap();
        assert_eq!(output.status.code(), Some(ALL_FORFEITED), "{}", stderr(&output));
        let folders: Vec<PathBuf> = std::fs::read_dir(&temp)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.file_name().unwrap().to_string_lossy().starts_with("tetrad-bots-"))
            .collect();
        (folders, stderr(&output))
    };
    let (folders, _) = logs(false);
    assert!(folders.is_empty(), "{folders:?}");
    // The bot printed nothing to its stderr: even kept, no log, no folder.
    let (folders, _) = logs(true);
    assert!(folders.is_empty(), "{folders:?}");

    // A bot that prints: its log is kept when asked, and named in the forfeit.
    std::fs::write(
        &manifest,
        "name = \"hostile\"\ncommand = [\"sh\", \"-c\", \"echo 'I was here' >&2; exec python3 hostile.py twice\"]\n",
    )
    .unwrap();
    let (folders, err) = logs(false);
    assert!(folders.is_empty(), "{folders:?}");
    assert!(!err.contains("I was here"), "{err}");
    let (folders, err) = logs(true);
    assert_eq!(folders.len(), 1, "{folders:?}");
    let kept: String = std::fs::read_dir(&folders[0])
        .unwrap()
        .map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap())
        .collect();
    assert!(kept.contains("I was here"), "{kept}");
    assert!(err.contains("logs kept in"), "{err}");
}

/// Asserts that no process whose ID is listed in `pids` still runs.
fn assert_none_alive(pids: &Path) {
    let listed = std::fs::read_to_string(pids).unwrap_or_default();
    let deadline = Instant::now() + Duration::from_secs(3);
    for pid in listed.lines() {
        while process_running(pid) {
            assert!(Instant::now() < deadline, "process {pid} outlived its bot");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

#[test]
fn tbp_think_time_without_bound_is_refused_and_spares_and_floods_of_moves_end_the_game() {
    let dir = tempfile::tempdir().unwrap();
    let stacker = workspace().join("plugins/tbp-python/stacker.py");
    let manifest = |name: &str, extra: &str| {
        let path = dir.path().join(format!("{name}.toml"));
        std::fs::write(
            &path,
            format!(
                "name = \"{name}\"\ncommand = [\"python3\", \"{}\"{extra}]\nprotocol = \"tbp\"\n",
                stacker.display()
            ),
        )
        .unwrap();
        path.display().to_string()
    };
    let endless = format!("{}", u64::MAX);
    let plain = manifest("plain", "");
    let args = strings(&[
        "run",
        "--games",
        "1",
        "--plugin",
        &plain,
        "--options",
        &format!("think_ms={endless}"),
    ]);
    let output = run_within(&args, Duration::from_secs(30));
    assert_one_line_error(&output, "leaves no time to answer within the think limit");
    std::fs::write(
        dir.path().join("slow.toml"),
        format!(
            "name = \"slow\"\ncommand = [\"python3\", \"{}\"]\nprotocol = \"tbp\"\nthink_ms = {endless}\n",
            stacker.display()
        ),
    )
    .unwrap();
    let slow = dir.path().join("slow.toml").display().to_string();
    let output = run_within(
        &strings(&["run", "--games", "1", "--plugin", &slow]),
        Duration::from_secs(30),
    );
    assert_one_line_error(&output, "leaves no time to answer within the think limit");

    let run_mode = |mode: &str| {
        let bot = manifest(mode, &format!(", \"--mode\", \"{mode}\""));
        let args = strings(&[
            "run",
            "--games",
            "1",
            "--max-pieces",
            "30",
            "--format",
            "json",
            "--plugin",
            &bot,
        ]);
        let started = Instant::now();
        let output = run_within(&args, Duration::from_secs(60));
        (forfeit(&output), started.elapsed(), output)
    };
    let ((end, error), _, _) = run_mode("twice");
    assert_eq!(end, "plugin_error", "{error}");
    assert!(error.contains(r#"sent `{"type": "suggestion""#), "{error}");
    let ((end, error), took, _) = run_mode("many");
    assert_eq!(end, "plugin_error", "{error}");
    assert!(error.contains("the first 100 tried"), "{error}");
    assert!(took < Duration::from_secs(20), "{took:?}");
    // Text from the bot never reaches the terminal raw.
    let ((end, error), _, output) = run_mode("escape");
    assert_eq!(end, "plugin_error", "{error}");
    assert!(error.contains("\\u{1b}[2J"), "{error}");
    let table = run_within(
        &strings(&[
            "run",
            "--games",
            "1",
            "--max-pieces",
            "30",
            "--plugin",
            &manifest("escape2", ", \"--mode\", \"escape\""),
        ]),
        Duration::from_secs(60),
    );
    for text in [stdout(&table), stderr(&table), stdout(&output), stderr(&output)] {
        assert!(!text.contains('\u{1b}'), "{text}");
    }
    let rules = manifest("rules", ", \"--mode\", \"escape-rules\"");
    let output = run_within(
        &strings(&["run", "--games", "1", "--plugin", &rules]),
        Duration::from_secs(30),
    );
    assert_one_line_error(&output, "refused the rules (\\u{1b}[2J");
    assert!(!stderr(&output).contains('\u{1b}'));
}

#[test]
fn a_manifests_name_and_command_are_printed_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let manifest = dir.path().join("evil.toml");
    std::fs::write(
        &manifest,
        "name = \"evil\\u001b[2J\\u0000\"\ncommand = [\"./missing\\u001b[31m\"]\n",
    )
    .unwrap();
    let args = strings(&["run", "--games", "1", "--plugin", manifest.to_str().unwrap()]);
    let output = run_within(&args, Duration::from_secs(30));
    assert_one_line_error(&output, "bot `evil\\u{1b}[2J\\u{0}`");
    let err = stderr(&output);
    assert!(err.contains("missing\\u{1b}[31m"), "{err}");
    assert!(!err.contains('\u{1b}') && !err.contains('\0'), "{err}");
}

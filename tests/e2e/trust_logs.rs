//! Issue 50, item 1: logs do not pile up while a run lasts. A finished game's log goes
//! when its game ends (unless `--keep-logs`), so a long run of a bot that floods its
//! stderr holds at most one capped log per running seat in the temporary folder.

use crate::common::*;
use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};
use tetrad::process::LOG_CAP_BYTES;

/// A bot of the bot protocol that prints 6 MiB to its stderr when it starts (more than a
/// log keeps), then drops each piece where it appears.
const FLOODING_BOT: &str = r#"
import json, sys
chunk = "e" * (1 << 20)
for _ in range(6):
    sys.stderr.write(chunk)
sys.stderr.flush()
def say(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()
for line in sys.stdin:
    message = json.loads(line)
    kind = message["type"]
    if kind == "hello":
        say({"type": "info", "protocol": 1, "name": "flooder", "answers": "placement"})
    elif kind == "start":
        say({"type": "ready"})
    elif kind == "piece":
        current = message["current"]
        say({"type": "placement", "orientation": current["orientation"], "column": current["x"]})
    elif kind == "quit":
        break
"#;

/// The bytes of every file under `dir` now; files that go while they are counted count 0.
fn bytes_under(dir: &Path) -> u64 {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    entries
        .filter_map(Result::ok)
        .map(|entry| match entry.file_type() {
            Ok(kind) if kind.is_dir() => bytes_under(&entry.path()),
            _ => entry.metadata().map_or(0, |m| m.len()),
        })
        .sum()
}

/// Runs `tetrad ARGS` with its temporary folder `temp`, sampling the folder's size until it
/// ends (within 180 s); returns whether it succeeded, its stderr, and the largest size seen.
fn run_sampled(args: &[&str], temp: &Path) -> (bool, String, u64) {
    let mut child = tetrad()
        .args(args)
        .env("TMPDIR", temp)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start tetrad");
    let started = Instant::now();
    let mut peak = 0;
    while child.try_wait().expect("poll").is_none() {
        if started.elapsed() > Duration::from_secs(180) {
            let _ = child.kill();
            panic!("tetrad {args:?} still running after 180 s");
        }
        peak = peak.max(bytes_under(temp));
        std::thread::sleep(Duration::from_millis(2));
    }
    let output = child.wait_with_output().expect("collect");
    (output.status.success(), stderr(&output), peak)
}

#[test]
fn a_bot_that_floods_its_stderr_leaves_one_log_per_running_seat_however_many_games() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("flooder.py"), FLOODING_BOT).unwrap();
    let manifest = dir.path().join("flooder.toml");
    std::fs::write(
        &manifest,
        "name = \"flooder\"\ncommand = [\"python3\", \"flooder.py\"]\n",
    )
    .unwrap();
    let temp = dir.path().join("tmp");
    std::fs::create_dir(&temp).unwrap();
    let manifest = manifest.to_str().unwrap();
    // A log is capped, with a line saying how much was dropped after it.
    let one_log = LOG_CAP_BYTES + 4096;
    for (jobs, args) in [
        (1, vec!["run", "--plugin", manifest, "--games", "30", "--jobs", "1"]),
        (
            2,
            vec![
                "tournament",
                "--plugins",
                manifest,
                "random",
                "--games",
                "15",
                "--jobs",
                "2",
            ],
        ),
    ] {
        let mut args = args;
        args.extend(["--max-pieces", "4"]);
        let (ok, err, peak) = run_sampled(&args, &temp);
        assert!(ok, "{args:?}: {err}");
        eprintln!("{args:?}: {peak} bytes in the temporary folder at its peak");
        // Each of the 30 games printed more than a log keeps; a finished game's log is
        // gone before the run ends, so no more than one log a running seat is on disk.
        assert!(
            peak > LOG_CAP_BYTES,
            "{args:?}: the folder was sampled while a bot ran ({peak} bytes)"
        );
        assert!(
            peak <= jobs * one_log,
            "{args:?}: {peak} bytes in the temporary folder at its peak, more than {jobs} logs"
        );
        let left: Vec<_> = std::fs::read_dir(&temp).unwrap().collect();
        assert!(left.is_empty(), "{args:?}: {left:?}");
    }

    // Kept, every game's log stays, each capped.
    let (ok, err, _) = run_sampled(
        &[
            "run",
            "--plugin",
            manifest,
            "--games",
            "3",
            "--jobs",
            "1",
            "--max-pieces",
            "4",
            "--keep-logs",
        ],
        &temp,
    );
    assert!(ok, "{err}");
    let kept = std::fs::read_dir(&temp)
        .unwrap()
        .next()
        .expect("the kept folder")
        .unwrap()
        .path();
    let logs: Vec<u64> = std::fs::read_dir(&kept)
        .unwrap()
        .map(|e| e.unwrap().metadata().unwrap().len())
        .collect();
    // One log for the process that told its info (and checked that a game starts), and
    // one a game.
    assert_eq!(logs.len(), 4, "{logs:?}");
    assert!(
        logs.iter().all(|&len| len > LOG_CAP_BYTES && len <= one_log),
        "{logs:?}"
    );
}

//! A bot process shares the CPU of the thread that waits for its answers (issue "Bots in
//! another process at one core's speed"), unless `--no-pin`; a TBP bot keeps every CPU.

use crate::common::*;
use std::path::Path;

/// A bot of tetrad's protocol that says, in its log, the CPUs it may run on, then drops
/// each piece where it appears.
const CPU_BOT: &str = r#"
import json, os, sys
for line in sys.stdin:
    message = json.loads(line)
    kind = message["type"]
    if kind == "hello":
        out = {"type": "info", "protocol": 1, "name": "cpus", "answers": "placement"}
    elif kind == "start":
        out = {"type": "ready"}
    elif kind == "piece":
        sys.stderr.write("cpus: %s\n" % sorted(os.sched_getaffinity(0)))
        sys.stderr.flush()
        current = message["current"]
        out = {"type": "placement", "orientation": current["orientation"], "column": current["x"]}
    else:
        break
    sys.stdout.write(json.dumps(out) + "\n")
    sys.stdout.flush()
"#;

/// The CPUs the bot said it may use, over a run with `options`.
fn cpus_seen(dir: &Path, options: &[&str]) -> Vec<String> {
    std::fs::write(dir.join("cpus.py"), CPU_BOT).unwrap();
    std::fs::write(
        dir.join("cpus.toml"),
        "name = \"cpus\"\ncommand = [\"python3\", \"cpus.py\"]\n",
    )
    .unwrap();
    let logs = tempfile::tempdir().unwrap();
    let mut command = tetrad();
    command
        .args(["run", "--games", "2", "--max-pieces", "3", "--keep-logs", "--plugin"])
        .arg(dir.join("cpus.toml"))
        .args(options)
        .env("TMPDIR", logs.path());
    let output = command.output().unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
    let mut seen = Vec::new();
    for folder in std::fs::read_dir(logs.path()).unwrap().flatten() {
        for log in std::fs::read_dir(folder.path()).into_iter().flatten().flatten() {
            let text = std::fs::read_to_string(log.path()).unwrap_or_default();
            seen.extend(
                text.lines()
                    .filter_map(|line| line.strip_prefix("cpus: "))
                    .map(str::to_string),
            );
        }
    }
    seen
}

#[test]
fn a_bot_runs_on_its_waiting_threads_cpu_unless_told_not_to() {
    let all = std::thread::available_parallelism().map_or(1, |n| n.get());
    if all < 2 {
        eprintln!("skipped: one CPU, nothing to pin");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let pinned = cpus_seen(dir.path(), &[]);
    assert!(!pinned.is_empty());
    for cpus in &pinned {
        assert!(!cpus.contains(','), "one CPU each: {pinned:?}");
    }
    let free = cpus_seen(dir.path(), &["--no-pin"]);
    assert!(!free.is_empty());
    for cpus in &free {
        assert!(cpus.contains(','), "every CPU with --no-pin: {free:?}");
    }
}

//! Isolation: each plugin plays in a worker process (the `tetrad` binary itself, run as
//! `tetrad worker`), so a crash, `abort`, `exit`, endless loop or stray output forfeits one
//! game and nothing more.
//!
//! The worker takes its stdin and stdout for the parent before the plugin is loaded and
//! sends the plugin's own stdout and stderr to its stderr, which the parent copies into a
//! per-worker log (see [`protocol`] for the messages). The parent accepts only an answer to
//! the request it sent. A worker's progress counters live in a file both map or read
//! ([`progress`]), so a forfeit keeps the lines and pieces played before it. The parent
//! treats end of output as a crash (with the exit status), and [`SILENCE_LIMIT`] without a
//! heartbeat as a hang, and kills and replaces the worker in both cases. A worker ends with
//! its parent.

mod progress;
mod protocol;
mod worker;

pub use protocol::CREATE_LIMIT_FLOOR;
pub use worker::{follow_parent, serve, Channel, ServeOptions};

use super::record::GameRecord;
use crate::runner::{new_histogram, End, GameResult};
use protocol::{Reply, ReplyKind, Request};
use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::Duration;

/// Silence after which the parent kills a worker.
const SILENCE_LIMIT: Duration = Duration::from_secs(10);
/// The think limit inside a worker when the user set none: an endless loop must end.
pub const DEFAULT_WORKER_THINK_LIMIT_US: u64 = 10_000_000;
/// The most of a plugin's output one worker's log keeps; the rest is counted and dropped,
/// so a plugin that prints without end fills no disk and blocks nothing.
pub const LOG_CAP_BYTES: u64 = 4 << 20;
/// The longest reply line the parent reads; a longer one ends the worker as a crash.
const REPLY_CAP_BYTES: u64 = 64 << 20;

/// Workers started by this process, numbering their logs.
static STARTED: AtomicU64 = AtomicU64::new(0);

/// The parent's handle on one worker process.
pub struct Worker {
    child: Child,
    stdin: ChildStdin,
    replies: Receiver<String>,
    log: PathBuf,
    progress: PathBuf,
}

/// How a game played in a worker came out.
pub enum Played {
    /// The game, played out or forfeited inside the worker.
    Record(Box<GameRecord>),
    /// The plugin refused to create an instance.
    CreateFailed(String),
}

impl Worker {
    /// Starts `exe worker ARGS` for the entrant labelled `label`, its log in `logs`.
    pub fn spawn(exe: &Path, args: &[String], logs: &Path, label: &str) -> std::io::Result<Worker> {
        let number = STARTED.fetch_add(1, Ordering::Relaxed) + 1;
        let stem = format!("worker-{number:03}-{}", file_safe(label));
        let log = logs.join(format!("{stem}.log"));
        let progress = logs.join(format!("{stem}.progress"));
        let mut log_file = OpenOptions::new().create(true).append(true).open(&log)?;
        let mut child = Command::new(exe)
            .arg("worker")
            .args(args)
            .arg("--parent-pid")
            .arg(std::process::id().to_string())
            .arg("--progress")
            .arg(&progress)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()?;
        let _ = writeln!(log_file, "--- worker {} for `{label}`", child.id());
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let stderr = child.stderr.take().expect("piped stderr");
        std::thread::spawn(move || copy_capped(stderr, log_file));
        let (sender, replies) = mpsc::channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            loop {
                let mut line = String::new();
                match (&mut reader).take(REPLY_CAP_BYTES).read_line(&mut line) {
                    Ok(0) | Err(_) => break,
                    Ok(_) if !line.ends_with('\n') => break,
                    Ok(_) => {}
                }
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        Ok(Worker {
            child,
            stdin,
            replies,
            log,
            progress,
        })
    }

    /// Plays game `game` (of seed `seed`) for entrant `entrant`. `Err` carries a forfeit
    /// that took the worker down; the caller drops this worker and starts another.
    pub fn play(&mut self, entrant: usize, game: u64, seed: u64) -> Result<Played, Box<GameResult>> {
        let request = Request { entrant, game, seed };
        let text = serde_json::to_string(&request).expect("requests serialise");
        if writeln!(self.stdin, "{text}").and_then(|_| self.stdin.flush()).is_err() {
            return Err(Box::new(self.died(&request)));
        }
        loop {
            let line = match self.replies.recv_timeout(SILENCE_LIMIT) {
                Ok(line) => line,
                Err(RecvTimeoutError::Timeout) => {
                    self.kill();
                    let message = format!("worker silent for {} s", SILENCE_LIMIT.as_secs());
                    return Err(Box::new(self.forfeit(&request, End::Timeout, message)));
                }
                Err(RecvTimeoutError::Disconnected) => return Err(Box::new(self.died(&request))),
            };
            let reply = match serde_json::from_str::<Reply>(&line) {
                Ok(reply) => reply,
                Err(err) => {
                    log::warn!("worker {}: unreadable reply skipped: {err}", self.child.id());
                    continue;
                }
            };
            if matches!(reply.kind, ReplyKind::Alive) {
                continue;
            }
            if reply.answers != Some(request) {
                log::warn!("worker {}: a reply to another request skipped", self.child.id());
                continue;
            }
            match reply.kind {
                ReplyKind::Alive => continue,
                ReplyKind::Result { record } => {
                    let result = &record.result;
                    if record.entrant != entrant || result.index != game || result.seed != seed {
                        log::warn!("worker {}: a record of another game skipped", self.child.id());
                        continue;
                    }
                    return Ok(Played::Record(record));
                }
                ReplyKind::CreateFailed { message } => return Ok(Played::CreateFailed(message)),
                ReplyKind::Timeout { message } => {
                    self.kill();
                    return Err(Box::new(self.forfeit(&request, End::Timeout, message)));
                }
            }
        }
    }

    fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// The forfeit for a worker whose output ended: how the process ended.
    fn died(&mut self, request: &Request) -> GameResult {
        let message = match self.child.wait() {
            Ok(status) => describe_exit(status),
            Err(err) => format!("worker lost: {err}"),
        };
        self.forfeit(request, End::Crashed, message)
    }

    /// A forfeit of the requested game, with what the worker had played of it and, if the
    /// plugin printed anything, where to read it.
    fn forfeit(&self, request: &Request, end: End, mut message: String) -> GameResult {
        if std::fs::metadata(&self.log).is_ok_and(|m| m.len() > 0) {
            message = format!("{message} (plugin output: {})", self.log.display());
        }
        let mut result = forfeit(request.game, request.seed, end, message);
        if let Some(progress) = progress::read(&self.progress).filter(|p| p.game == Some(request.game)) {
            (result.lines, result.pieces, result.score, result.ticks) =
                (progress.lines, progress.pieces, progress.score, progress.ticks);
        }
        result
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        self.kill();
        let _ = std::fs::remove_file(&self.progress);
    }
}

/// Copies a worker's output into its log, up to [`LOG_CAP_BYTES`], and drops the rest
/// (reading on, so the worker never blocks on a full pipe).
fn copy_capped(mut from: impl Read, mut log: File) {
    let mut buffer = [0u8; 8192];
    let mut kept = 0u64;
    let mut dropped = 0u64;
    loop {
        let n = match from.read(&mut buffer) {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        let room = LOG_CAP_BYTES.saturating_sub(kept).min(n as u64) as usize;
        if room > 0 && log.write_all(&buffer[..room]).is_ok() {
            kept += room as u64;
        }
        dropped += (n - room) as u64;
    }
    if dropped > 0 {
        let _ = writeln!(
            log,
            "\n--- {dropped} more bytes of output dropped (the log keeps {} MiB)",
            LOG_CAP_BYTES >> 20
        );
    }
}

/// `label` as part of a file name: letters, digits, `-`, `_` and `.`, at most 40 of them.
fn file_safe(label: &str) -> String {
    label
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "-_.".contains(c) {
                c
            } else {
                '_'
            }
        })
        .take(40)
        .collect()
}

fn describe_exit(status: std::process::ExitStatus) -> String {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(signal) = status.signal() {
            let name = match signal {
                4 => " (SIGILL)",
                6 => " (SIGABRT)",
                7 => " (SIGBUS)",
                8 => " (SIGFPE)",
                9 => " (SIGKILL)",
                11 => " (SIGSEGV)",
                _ => "",
            };
            return format!("worker killed by signal {signal}{name}");
        }
    }
    match status.code() {
        Some(code) => format!("worker exited with code {code} during the game"),
        None => "worker ended without a status".to_string(),
    }
}

/// A forfeited game with nothing played.
pub fn forfeit(index: u64, seed: u64, end: End, message: String) -> GameResult {
    GameResult {
        index,
        seed,
        lines: 0,
        pieces: 0,
        score: 0,
        ticks: 0,
        end,
        error: Some(message),
        violations: 0,
        updates: 0,
        update_us_mean: 0.0,
        update_us_p99: 0.0,
        update_us_max: 0.0,
        update_ns: new_histogram(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_become_safe_file_names() {
        assert_eq!(file_safe("tree-search@depth=1"), "tree-search_depth_1");
        assert_eq!(file_safe("../../etc/passwd"), ".._.._etc_passwd");
        assert_eq!(file_safe(&"x".repeat(100)).len(), 40);
    }

    #[test]
    fn the_log_keeps_its_cap_and_counts_the_rest() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let path = dir.path().join("worker.log");
        let log = File::create(&path).expect("created");
        let output = vec![b'x'; LOG_CAP_BYTES as usize + 1000];
        copy_capped(&output[..], log);
        let kept = std::fs::read_to_string(&path).expect("readable");
        assert!(kept.starts_with(&"x".repeat(LOG_CAP_BYTES as usize)));
        assert!(
            kept.ends_with("--- 1000 more bytes of output dropped (the log keeps 4 MiB)\n"),
            "{}",
            &kept[kept.len() - 80..]
        );
    }
}

//! Isolation: each plugin plays in a worker process (the `tetrad` binary itself, run as
//! `tetrad worker`), so a crash, `abort`, `exit` or endless loop forfeits one game.
//!
//! Protocol, one JSON object per line. The parent writes `{"game": N}`; the worker plays
//! game N and answers `{"kind": "result", ...}`, sending `{"kind": "alive"}` every half
//! second meanwhile. A watchdog thread in the worker ends an update that outlasts the
//! think limit: it reports `{"kind": "timeout", ...}` and exits. The parent treats end of
//! output as a crash (with the exit status), and ten seconds of silence as a hang, and
//! kills and replaces the worker in both cases.

use super::record::GameRecord;
use crate::runner::{self, new_histogram, End, GameResult, RunSpec, Watch};
use serde::{Deserialize, Serialize};
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::Ordering;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::Arc;
use std::time::Duration;

/// How often a healthy worker says so.
const HEARTBEAT: Duration = Duration::from_millis(500);
/// Silence after which the parent kills a worker.
const SILENCE_LIMIT: Duration = Duration::from_secs(10);
/// The think limit inside a worker when the user set none: an endless loop must end.
pub const DEFAULT_WORKER_THINK_LIMIT_US: u64 = 10_000_000;

#[derive(Serialize, Deserialize)]
struct Request {
    game: u64,
}

#[derive(Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum Reply {
    Alive,
    Result {
        record: GameRecord,
    },
    CreateFailed {
        message: String,
    },
    Timeout {
        message: String,
        lines: u64,
        pieces: u64,
        score: u64,
        ticks: u64,
    },
}

/// The worker's side: plays the games the parent asks for, with a watchdog thread.
pub fn serve(plugin: &crate::plugin::Plugin, spec: &RunSpec, think_limit_us: u64) -> anyhow::Result<()> {
    let watch = Arc::new(Watch::new());
    let spec = RunSpec {
        watch: Some(watch.clone()),
        ..spec.clone()
    };
    std::thread::spawn(move || watchdog(&watch, think_limit_us));
    let stdin = std::io::stdin();
    for line in stdin.lock().lines() {
        let request: Request = serde_json::from_str(&line?)?;
        let reply = match runner::play_game(plugin, &spec, request.game) {
            Ok(result) => Reply::Result {
                record: GameRecord::new(0, &result),
            },
            Err(err) => Reply::CreateFailed {
                message: err.to_string(),
            },
        };
        send(&reply);
    }
    Ok(())
}

fn send(reply: &Reply) {
    let text = serde_json::to_string(reply).expect("replies serialise");
    let mut out = std::io::stdout().lock();
    // A parent that went away gets nothing; the worker ends when its stdin closes.
    let _ = writeln!(out, "{text}");
    let _ = out.flush();
}

fn watchdog(watch: &Watch, think_limit_us: u64) {
    let limit_ns = think_limit_us.saturating_mul(1000);
    loop {
        std::thread::sleep(HEARTBEAT);
        match watch.running_ns() {
            Some(running) if running > limit_ns => {
                send(&Reply::Timeout {
                    message: format!(
                        "update still running after {} µs, limit {think_limit_us} µs",
                        running / 1000
                    ),
                    lines: watch.lines.load(Ordering::Relaxed),
                    pieces: watch.pieces.load(Ordering::Relaxed),
                    score: watch.score.load(Ordering::Relaxed),
                    ticks: watch.ticks.load(Ordering::Relaxed),
                });
                std::process::exit(0);
            }
            _ => send(&Reply::Alive),
        }
    }
}

/// The parent's handle on one worker process.
pub struct Worker {
    child: Child,
    stdin: ChildStdin,
    replies: Receiver<String>,
}

/// How a game played in a worker came out.
pub enum Played {
    /// The game, played out or forfeited inside the worker.
    Record(Box<GameRecord>),
    /// The plugin refused to create an instance.
    CreateFailed(String),
}

impl Worker {
    /// Starts `exe worker ARGS`.
    pub fn spawn(exe: &PathBuf, args: &[String]) -> std::io::Result<Worker> {
        let mut child = Command::new(exe)
            .arg("worker")
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()?;
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let (sender, replies) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        Ok(Worker { child, stdin, replies })
    }

    /// Plays game `index` (of seed `seed`). `Err` carries a forfeit that took the worker
    /// down; the caller drops this worker and starts another.
    pub fn play(&mut self, index: u64, seed: u64) -> Result<Played, Box<GameResult>> {
        let request = serde_json::to_string(&Request { game: index }).expect("requests serialise");
        if writeln!(self.stdin, "{request}")
            .and_then(|_| self.stdin.flush())
            .is_err()
        {
            return Err(Box::new(self.died(index, seed)));
        }
        loop {
            match self.replies.recv_timeout(SILENCE_LIMIT) {
                Ok(line) => match serde_json::from_str::<Reply>(&line) {
                    Ok(Reply::Alive) => continue,
                    Ok(Reply::Result { record }) => return Ok(Played::Record(Box::new(record))),
                    Ok(Reply::CreateFailed { message }) => return Ok(Played::CreateFailed(message)),
                    Ok(Reply::Timeout {
                        message,
                        lines,
                        pieces,
                        score,
                        ticks,
                    }) => {
                        self.kill();
                        let mut result = forfeit(index, seed, End::Timeout, message);
                        (result.lines, result.pieces, result.score, result.ticks) = (lines, pieces, score, ticks);
                        return Err(Box::new(result));
                    }
                    // Anything else on stdout came from the plugin itself: skip it.
                    Err(_) => continue,
                },
                Err(RecvTimeoutError::Timeout) => {
                    self.kill();
                    let message = format!("worker silent for {} s", SILENCE_LIMIT.as_secs());
                    return Err(Box::new(forfeit(index, seed, End::Timeout, message)));
                }
                Err(RecvTimeoutError::Disconnected) => return Err(Box::new(self.died(index, seed))),
            }
        }
    }

    fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// The forfeit for a worker whose output ended: how the process ended.
    fn died(&mut self, index: u64, seed: u64) -> GameResult {
        let status = self.child.wait();
        let message = match status {
            Ok(status) => describe_exit(status),
            Err(err) => format!("worker lost: {err}"),
        };
        forfeit(index, seed, End::Crashed, message)
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        self.kill();
    }
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

//! Isolation: each plugin plays in a worker process (the `tetrad` binary itself, run as
//! `tetrad worker`), so a crash, `abort`, `exit`, endless loop or stray output forfeits one
//! game and nothing more.
//!
//! The worker takes its stdin and stdout for the parent before the plugin is loaded and
//! sends the plugin's own stdout and stderr to its stderr, which the parent copies into a
//! per-worker log ([`crate::process`] holds that machinery; [`protocol`] the messages). The
//! parent accepts only an answer to the request it sent. A worker's progress counters live
//! in a file both map or read ([`progress`]), so a forfeit keeps the lines and pieces played
//! before it. The parent treats end of output as a crash (with the exit status), and
//! [`SILENCE_LIMIT`] without a heartbeat as a hang, and kills and replaces the worker in both
//! cases. A worker ends with its parent.

mod progress;
mod protocol;
mod seat;
mod worker;

pub use seat::{seated, serve_seat};
pub use worker::{follow_parent, serve, Channel, ServeOptions};

use super::record::GameRecord;
use crate::plugin::Plugin;
use crate::process::{file_safe, ChildProcess, NoLine};
use crate::referee::End;
use crate::runner::GameResult;
use protocol::{Reply, ReplyKind, Request};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// The longest line a worker sends: a game's record, replay included.
const WORKER_LINE_CAP: u64 = 64 << 20;
/// Silence after which the parent kills a worker.
const SILENCE_LIMIT: Duration = Duration::from_secs(10);
/// The think limit inside a worker when the user set none: an endless loop must end.
pub const DEFAULT_WORKER_THINK_LIMIT_US: u64 = 10_000_000;

/// Workers started by this process, numbering their logs.
static STARTED: AtomicU64 = AtomicU64::new(0);

/// The parent's handle on one worker process.
pub struct Worker {
    process: ChildProcess,
    progress: PathBuf,
    /// Under `--sandbox`, a library worker's scratch folder, removed after it.
    scratch: Option<crate::sandbox::Scratch>,
}

/// How a game played in a worker came out.
pub enum Played {
    /// The game, played out or forfeited inside the worker.
    Record(Box<GameRecord>),
    /// The plugin refused to create an instance.
    CreateFailed(String),
}

impl Worker {
    /// Starts `exe worker ARGS` for the entrant labelled `label`, playing `plugin`, its log
    /// in `logs`. Under `--sandbox`, a library's worker runs in the sandbox (the plugin's
    /// code runs there), and a bot's worker sandboxes each bot it starts.
    pub fn spawn(exe: &Path, args: &[String], logs: &Path, label: &str, plugin: &Plugin) -> std::io::Result<Worker> {
        let number = STARTED.fetch_add(1, Ordering::Relaxed) + 1;
        let stem = format!("worker-{number:03}-{}", file_safe(label));
        let mut command = Command::new(exe);
        command
            .arg("worker")
            .args(args)
            .arg("--parent-pid")
            .arg(std::process::id().to_string());
        if crate::process::logs_kept() {
            command.arg("--keep-logs");
        }
        let library = plugin.manifest().is_none();
        if let (Some(policy), false) = (crate::sandbox::policy(), library) {
            command.args(policy.args());
        }
        let own = std::path::absolute(plugin.path())?
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_default();
        // It reads the tournament's sequence file, if it plays one.
        let sequence = args
            .iter()
            .position(|arg| arg == "--sequence")
            .and_then(|at| args.get(at + 1))
            .and_then(|path| std::path::absolute(path).ok());
        let mut readable = vec![own.as_path()];
        readable.extend(sequence.as_deref());
        let progress = logs.join(format!("{stem}.progress"));
        // Made here, so a sandboxed worker may write this one file outside its scratch folder.
        std::fs::File::create(&progress)?;
        let (mut command, scratch) = match library {
            true => crate::sandbox::wrap(command, &readable, &[progress.as_path()])?,
            false => (command, None),
        };
        command.arg("--progress").arg(&progress);
        let log = logs.join(format!("{stem}.log"));
        let process = ChildProcess::spawn(command, &log, &format!("worker for `{label}`"), WORKER_LINE_CAP)?;
        Ok(Worker {
            process,
            progress,
            scratch,
        })
    }

    /// Plays game `game` (of seed `seed`) for entrant `entrant`. `Err` carries a forfeit
    /// that took the worker down; the caller drops this worker and starts another.
    pub fn play(&mut self, entrant: usize, game: u64, seed: u64) -> Result<Played, Box<GameResult>> {
        let request = Request { entrant, game, seed };
        let text = serde_json::to_string(&request).expect("requests serialise");
        if self.process.send_line(&text).is_err() {
            return Err(Box::new(self.died(&request)));
        }
        loop {
            let line = match self.process.next_line(SILENCE_LIMIT) {
                Ok(line) => line,
                Err(NoLine::Silent) => {
                    self.process.kill();
                    let message = format!("worker silent for {} s", SILENCE_LIMIT.as_secs());
                    return Err(Box::new(self.forfeit(&request, End::Timeout, message)));
                }
                Err(NoLine::Closed | NoLine::TooLong) => return Err(Box::new(self.died(&request))),
            };
            let reply = match serde_json::from_str::<Reply>(&line) {
                Ok(reply) => reply,
                Err(err) => {
                    log::warn!("worker {}: unreadable reply skipped: {err}", self.process.id());
                    continue;
                }
            };
            if matches!(reply.kind, ReplyKind::Alive) {
                continue;
            }
            if reply.answers != Some(request) {
                log::warn!("worker {}: a reply to another request skipped", self.process.id());
                continue;
            }
            match reply.kind {
                ReplyKind::Alive => continue,
                ReplyKind::Result { record } => {
                    let result = &record.result;
                    if record.entrant != entrant || result.index != game || result.seed != seed {
                        log::warn!("worker {}: a record of another game skipped", self.process.id());
                        continue;
                    }
                    return Ok(Played::Record(record));
                }
                ReplyKind::CreateFailed { message } => return Ok(Played::CreateFailed(message)),
                ReplyKind::Timeout { message } => {
                    self.process.kill();
                    return Err(Box::new(self.forfeit(&request, End::Timeout, message)));
                }
            }
        }
    }

    /// The forfeit for a worker whose output ended: how the process ended.
    fn died(&mut self, request: &Request) -> GameResult {
        let message = format!("worker {} during the game", self.process.exit_cause());
        let stopped = self.scratch.as_ref().and(crate::sandbox::stopped(
            self.process.exit_signal(),
            self.process.exit_code(),
        ));
        match stopped {
            Some(why) => self.forfeit(request, End::Sandbox, format!("{message}: {why}")),
            None => self.forfeit(request, End::Crashed, message),
        }
    }

    /// A forfeit of the requested game, with what the worker had played of it and, if the
    /// plugin printed anything, where to read it.
    fn forfeit(&self, request: &Request, end: End, mut message: String) -> GameResult {
        message.push_str(&crate::process::output_hint(
            "plugin output",
            self.process.log_with_output(),
        ));
        let mut result = GameResult {
            error: Some(message),
            ..GameResult::unplayed(request.game, request.seed, end)
        };
        if let Some(progress) = progress::read(&self.progress).filter(|p| p.game == Some(request.game)) {
            (result.lines, result.pieces, result.score, result.ticks) =
                (progress.lines, progress.pieces, progress.score, progress.ticks);
        }
        result
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        // The process ends first (closing its line lets it exit and flush what the plugin
        // printed), then its progress file goes.
        self.process.end();
        let _ = std::fs::remove_file(&self.progress);
    }
}

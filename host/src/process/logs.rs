//! A child's log: its stderr copied up to a cap, the file names logs get, and how a
//! process ended, in words.

use std::fs::File;
use std::io::{Read, Write};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

/// The most of a child's stderr its log keeps; the rest is counted and dropped, so a child
/// that prints without end fills no disk and blocks nothing.
pub const LOG_CAP_BYTES: u64 = 4 << 20;

/// Copies a child's output into its log, up to [`LOG_CAP_BYTES`], and drops the rest
/// (reading on, so the child never blocks on a full pipe).
pub(super) fn copy_capped(mut from: impl Read, mut log: File) {
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

/// Whether the log at `path` holds anything besides its header line.
pub(super) fn has_output(path: &Path) -> bool {
    let Ok(mut file) = File::open(path) else {
        return false;
    };
    // The header is one short line; a little more than it is enough to tell.
    let mut head = [0u8; 4096];
    let mut filled = 0;
    while filled < head.len() {
        match file.read(&mut head[filled..]) {
            Ok(0) | Err(_) => break,
            Ok(n) => filled += n,
        }
    }
    let head = &head[..filled];
    match head.iter().position(|&b| b == b'\n') {
        Some(at) => head.len() > at + 1,
        None => filled == head.len() && filled > 0,
    }
}

/// `label` as part of a file name (a log's, say): letters, digits, `-`, `_` and `.`, at
/// most 40 of them.
pub fn file_safe(label: &str) -> String {
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

/// How a process ended, in words.
pub(super) fn describe_exit(status: std::process::ExitStatus) -> String {
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
            return format!("killed by signal {signal}{name}");
        }
    }
    match status.code() {
        Some(code) => format!("exited with code {code}"),
        None => "ended without a status".to_string(),
    }
}

/// Whether logs stay after the run (`--keep-logs`).
static KEEP: AtomicBool = AtomicBool::new(false);

/// Keeps the logs after the run (`--keep-logs`), or lets them go (the default).
pub fn keep_logs(keep: bool) {
    KEEP.store(keep, Ordering::Relaxed);
}

/// Whether logs stay after the run.
pub fn logs_kept() -> bool {
    KEEP.load(Ordering::Relaxed)
}

/// ` (WHAT: LOG)` when a process printed to `log` and logs are kept; when they are not, a
/// word on how to keep them; nothing when it printed nothing.
pub fn output_hint(what: &str, log: Option<&Path>) -> String {
    match log {
        None => String::new(),
        Some(log) if logs_kept() => format!(" ({what}: {})", log.display()),
        Some(_) => format!(" ({what} is in a log that `--keep-logs` keeps)"),
    }
}

/// At the end of a run, a folder of logs: removed whole, unless logs are kept; a kept one
/// with nothing in it goes too. (A log goes with its process, unless logs are kept and it
/// has output, so what is left here is the logs of children still running, or kept ones.)
pub fn finish_log_folder(folder: &Path) {
    let removed = if logs_kept() {
        std::fs::remove_dir(folder)
    } else {
        std::fs::remove_dir_all(folder)
    };
    match removed {
        Ok(()) => {}
        Err(_) if logs_kept() => eprintln!("logs kept in {}", folder.display()),
        Err(err) => log::warn!("logs: {}: {err}", folder.display()),
    }
}

//! Where tetrad's own reports go: the process's standard output, kept apart from anything
//! plugin code prints, so `--format json` stays JSON whatever a plugin writes to fd 1.

use std::fs::File;
use std::io::{LineWriter, StdoutLock, Write};
use std::os::fd::AsFd;
use std::sync::{Mutex, MutexGuard, OnceLock};

/// The original standard output, once [`keep_for_reports`] has taken it.
static REPORTS: OnceLock<Mutex<LineWriter<File>>> = OnceLock::new();

/// Takes standard output for tetrad's reports and points fd 1 where fd 2 goes, so that
/// plugin code (its library constructor included) prints to standard error. Call it once,
/// before any plugin is loaded, in a command that draws no terminal screen.
pub fn keep_for_reports() -> std::io::Result<()> {
    let saved = File::from(std::io::stdout().as_fd().try_clone_to_owned()?);
    rustix::stdio::dup2_stdout(std::io::stderr().as_fd())?;
    let _ = REPORTS.set(Mutex::new(LineWriter::new(saved)));
    Ok(())
}

/// A locked handle on the reports' output: the kept standard output, or the process's
/// own if none was kept.
pub fn reports() -> Reports {
    match REPORTS.get() {
        Some(kept) => Reports::Kept(kept.lock().unwrap_or_else(|poisoned| poisoned.into_inner())),
        None => Reports::Stdout(std::io::stdout().lock()),
    }
}

/// See [`reports`].
pub enum Reports {
    /// The standard output kept by [`keep_for_reports`].
    Kept(MutexGuard<'static, LineWriter<File>>),
    /// The process's standard output.
    Stdout(StdoutLock<'static>),
}

impl Write for Reports {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match self {
            Reports::Kept(out) => out.write(buf),
            Reports::Stdout(out) => out.write(buf),
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        match self {
            Reports::Kept(out) => out.flush(),
            Reports::Stdout(out) => out.flush(),
        }
    }
}

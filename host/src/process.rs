//! A child process on a private line: lines written to its stdin, reply lines read with a
//! deadline (each with a size cap), its stderr copied into a capped log, and how it ended.
//! Isolation workers and process bots use it.
//!
//! Replies are read on the caller's thread, waiting in `poll`: a bot answers a decision
//! in microseconds, and handing each line over from a reading thread would cost more
//! than the bot's whole answer.

use std::fs::{File, OpenOptions};
use std::io::{Read, Write};
use std::os::fd::AsFd;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

/// The most of a child's stderr its log keeps; the rest is counted and dropped, so a child
/// that prints without end fills no disk and blocks nothing.
pub const LOG_CAP_BYTES: u64 = 4 << 20;
/// The longest line read from a child; a longer one ends the line as if it had closed.
const LINE_CAP_BYTES: u64 = 64 << 20;

/// A running child with its private line.
pub struct ChildProcess {
    child: Child,
    /// `None` once closed, to ask the child to end.
    stdin: Option<ChildStdin>,
    /// The line being sent, kept to reuse its allocation.
    outgoing: Vec<u8>,
    lines: Lines,
    log: PathBuf,
}

/// The child's stdout, cut into lines.
struct Lines {
    stdout: ChildStdout,
    /// Bytes read and not yet returned, from `start` on.
    buffer: Vec<u8>,
    start: usize,
    /// The child closed its stdout, or sent a line longer than the cap.
    closed: bool,
}

/// Why no line came.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoLine {
    /// Nothing within the deadline.
    Silent,
    /// The child closed its output (it has ended, or is ending).
    Closed,
}

impl ChildProcess {
    /// Starts `command` with its stdin, stdout and stderr piped; its stderr goes to the end
    /// of the file `log`, after the line `--- {header} (process ID)`.
    pub fn spawn(mut command: Command, log: &Path, header: &str) -> std::io::Result<ChildProcess> {
        let mut log_file = OpenOptions::new().create(true).append(true).open(log)?;
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()?;
        let _ = writeln!(log_file, "--- {header} (process {})", child.id());
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("piped stdout");
        let stderr = child.stderr.take().expect("piped stderr");
        std::thread::spawn(move || copy_capped(stderr, log_file));
        Ok(ChildProcess {
            child,
            stdin,
            outgoing: Vec::new(),
            lines: Lines {
                stdout,
                buffer: Vec::with_capacity(4096),
                start: 0,
                closed: false,
            },
            log: log.to_path_buf(),
        })
    }

    /// Starts `command` like [`ChildProcess::spawn`], and asks that the child be killed
    /// when the thread that starts it ends (on Linux, by a parent-death signal; elsewhere
    /// the child sees its stdin close). Used for programs tetrad did not write, which
    /// cannot be trusted to watch their parent as a worker does.
    pub fn spawn_following(mut command: Command, log: &Path, header: &str) -> std::io::Result<ChildProcess> {
        #[cfg(any(target_os = "linux", target_os = "android"))]
        {
            use std::os::unix::process::CommandExt;
            let parent = rustix::process::getpid();
            let follow = move || -> std::io::Result<()> {
                rustix::process::set_parent_process_death_signal(Some(rustix::process::Signal::KILL))?;
                // The parent may have ended before the signal was asked for.
                if rustix::process::getppid() != Some(parent) {
                    return Err(std::io::ErrorKind::BrokenPipe.into());
                }
                Ok(())
            };
            #[allow(unsafe_code)]
            // SAFETY: the closure runs in the child between fork and exec, where only
            // async-signal-safe work is allowed: it makes two system calls (prctl and
            // getppid) through rustix, which allocate nothing and take no lock.
            unsafe {
                command.pre_exec(follow);
            }
        }
        ChildProcess::spawn(command, log, header)
    }

    /// The child's process ID.
    pub fn id(&self) -> u32 {
        self.child.id()
    }

    /// Writes `text` and a newline to the child, flushed.
    pub fn send_line(&mut self, text: &str) -> std::io::Result<()> {
        let stdin = self.stdin.as_mut().ok_or(std::io::ErrorKind::BrokenPipe)?;
        // One write for the line and its newline: two would wake a waiting reader twice.
        self.outgoing.clear();
        self.outgoing.extend_from_slice(text.as_bytes());
        self.outgoing.push(b'\n');
        stdin.write_all(&self.outgoing)
    }

    /// The child's next line (with its newline), waiting at most `deadline`.
    pub fn next_line(&mut self, deadline: Duration) -> Result<String, NoLine> {
        self.lines.next(Instant::now() + deadline)
    }

    /// Kills the child (if it still runs) and reaps it.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Waits for the child to end and says how it did.
    pub fn exit_cause(&mut self) -> String {
        match self.child.wait() {
            Ok(status) => describe_exit(status),
            Err(err) => format!("process lost: {err}"),
        }
    }

    /// The log, if the child wrote anything to it besides its header line.
    pub fn log_with_output(&self) -> Option<&Path> {
        let text = std::fs::read(&self.log).ok()?;
        let after_header = text.iter().position(|&b| b == b'\n').map_or(0, |i| i + 1);
        (text.len() > after_header).then_some(self.log.as_path())
    }
}

impl Lines {
    /// The next whole line, reading until `until` at most. A last line without its newline
    /// is not a line: the child ended in the middle of it.
    fn next(&mut self, until: Instant) -> Result<String, NoLine> {
        let mut searched = self.start;
        loop {
            if let Some(at) = self.buffer[searched..].iter().position(|&b| b == b'\n') {
                let end = searched + at + 1;
                let line = String::from_utf8_lossy(&self.buffer[self.start..end]).into_owned();
                self.start = end;
                if self.start == self.buffer.len() {
                    self.buffer.clear();
                    self.start = 0;
                }
                return Ok(line);
            }
            searched = self.buffer.len();
            if self.closed {
                return Err(NoLine::Closed);
            }
            if (self.buffer.len() - self.start) as u64 > LINE_CAP_BYTES {
                self.closed = true;
                return Err(NoLine::Closed);
            }
            let left = until.saturating_duration_since(Instant::now());
            if left.is_zero() || !self.readable(left) {
                return Err(NoLine::Silent);
            }
            if self.start > 0 {
                self.buffer.drain(..self.start);
                searched -= self.start;
                self.start = 0;
            }
            let filled = self.buffer.len();
            self.buffer.resize(filled + 65536, 0);
            let read = self.stdout.read(&mut self.buffer[filled..]);
            match read {
                Ok(0) | Err(_) => {
                    self.buffer.truncate(filled);
                    self.closed = true;
                }
                Ok(n) => self.buffer.truncate(filled + n),
            }
        }
    }

    /// Waits at most `left` for the child's stdout to have something to read (or to close).
    fn readable(&self, left: Duration) -> bool {
        let fd = self.stdout.as_fd();
        let mut fds = [rustix::event::PollFd::new(&fd, rustix::event::PollFlags::IN)];
        let timeout = rustix::event::Timespec::try_from(left).unwrap_or(rustix::event::Timespec {
            tv_sec: i64::MAX,
            tv_nsec: 0,
        });
        loop {
            match rustix::event::poll(&mut fds, Some(&timeout)) {
                Ok(ready) => return ready > 0,
                Err(rustix::io::Errno::INTR) => continue,
                Err(_) => return true,
            }
        }
    }
}

/// How long a child may take to end by itself once its stdin is closed.
const GRACE: Duration = Duration::from_secs(1);

impl ChildProcess {
    /// Closes the child's stdin and gives it a second (`GRACE`) to end by itself (so what it buffered
    /// reaches its log), then kills it. Ending an ended child does nothing.
    pub fn end(&mut self) {
        self.stdin = None;
        let deadline = std::time::Instant::now() + GRACE;
        while std::time::Instant::now() < deadline {
            match self.child.try_wait() {
                Ok(Some(_)) | Err(_) => return,
                Ok(None) => std::thread::sleep(Duration::from_millis(5)),
            }
        }
        self.kill();
    }
}

impl Drop for ChildProcess {
    fn drop(&mut self) {
        self.end();
    }
}

/// Copies a child's output into its log, up to [`LOG_CAP_BYTES`], and drops the rest
/// (reading on, so the child never blocks on a full pipe).
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
            return format!("killed by signal {signal}{name}");
        }
    }
    match status.code() {
        Some(code) => format!("exited with code {code}"),
        None => "ended without a status".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_log_keeps_its_cap_and_counts_the_rest() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let path = dir.path().join("child.log");
        let log = File::create(&path).expect("created");
        let output = vec![b'x'; LOG_CAP_BYTES as usize + 1000];
        copy_capped(&output[..], log);
        let kept = std::fs::read_to_string(&path).expect("readable");
        assert!(kept.starts_with(&"x".repeat(LOG_CAP_BYTES as usize)));
        assert!(kept.ends_with("--- 1000 more bytes of output dropped (the log keeps 4 MiB)\n"));
    }

    #[test]
    fn labels_become_safe_file_names() {
        assert_eq!(file_safe("tree-search@depth=1"), "tree-search_depth_1");
        assert_eq!(file_safe("../../etc/passwd"), ".._.._etc_passwd");
        assert_eq!(file_safe(&"x".repeat(100)).len(), 40);
    }

    #[test]
    fn lines_come_back_and_the_end_is_told() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let log = dir.path().join("cat.log");
        let mut cat = ChildProcess::spawn(Command::new("cat"), &log, "cat").expect("cat runs");
        cat.send_line("hello").expect("sent");
        assert_eq!(cat.next_line(Duration::from_secs(5)).as_deref(), Ok("hello\n"));
        assert_eq!(cat.next_line(Duration::from_millis(50)), Err(NoLine::Silent));
        assert_eq!(cat.log_with_output(), None);
        cat.kill();
        assert_eq!(cat.next_line(Duration::from_secs(5)), Err(NoLine::Closed));
        assert_eq!(cat.exit_cause(), "killed by signal 9 (SIGKILL)");
    }
}

//! A child's stdout cut into lines, read with a deadline and a size cap, and the child's
//! exit seen while waiting: a child that ended while something it started still holds its
//! stdout has ended all the same.

use std::io::Read;
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::process::ChildStdout;
use std::time::{Duration, Instant};

/// Why no line came.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoLine {
    /// Nothing within the deadline.
    Silent,
    /// The child closed its output, or ended.
    Closed,
    /// The child sent more than the line cap without a newline; nothing more is read.
    TooLong,
}

/// The child's stdout, cut into lines.
pub(super) struct Lines {
    stdout: ChildStdout,
    /// The child, to see it end.
    pid: u32,
    /// Readable once the child has ended, where the system offers one (Linux 5.3 on).
    exit: Option<OwnedFd>,
    /// Bytes read and not yet returned, from `start` on.
    buffer: Vec<u8>,
    start: usize,
    /// The longest line read.
    cap: u64,
    /// Why nothing more is read, once the output has closed or a line passed the cap.
    closed: Option<NoLine>,
}

/// The most read at once.
const CHUNK: usize = 65536;

impl Lines {
    pub(super) fn new(stdout: ChildStdout, pid: u32, cap: u64) -> Lines {
        Lines {
            stdout,
            pid,
            exit: exit_handle(pid),
            buffer: Vec::with_capacity(4096),
            start: 0,
            cap,
            closed: None,
        }
    }

    /// The next whole line, reading until `until` at most (a time already past only takes
    /// what has arrived). A last line without its newline is not a line: the child ended in
    /// the middle of it.
    pub(super) fn next(&mut self, until: Instant) -> Result<String, NoLine> {
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
            if let Some(why) = self.closed {
                return Err(why);
            }
            if (self.buffer.len() - self.start) as u64 > self.cap {
                // Nothing more is buffered: the caller ends the child.
                self.buffer = Vec::new();
                self.start = 0;
                self.closed = Some(NoLine::TooLong);
                return Err(NoLine::TooLong);
            }
            let left = until.saturating_duration_since(Instant::now());
            match self.wait(left) {
                Wait::Output => {}
                Wait::Exited => {
                    self.closed = Some(NoLine::Closed);
                    continue;
                }
                Wait::Nothing => return Err(NoLine::Silent),
            }
            if self.start > 0 {
                self.buffer.drain(..self.start);
                searched -= self.start;
                self.start = 0;
            }
            let filled = self.buffer.len();
            self.buffer.resize(filled + CHUNK, 0);
            let read = self.stdout.read(&mut self.buffer[filled..]);
            match read {
                Ok(0) | Err(_) => {
                    self.buffer.truncate(filled);
                    self.closed = Some(NoLine::Closed);
                }
                Ok(n) => self.buffer.truncate(filled + n),
            }
        }
    }

    /// Whether the child has ended (it is left to be reaped).
    pub(super) fn exited(&self) -> bool {
        #[cfg(unix)]
        {
            use rustix::process::{waitid, Pid, WaitId, WaitIdOptions};
            let Some(pid) = Pid::from_raw(self.pid as i32) else {
                return true;
            };
            let options = WaitIdOptions::EXITED | WaitIdOptions::NOWAIT | WaitIdOptions::NOHANG;
            // An error means it is no child of ours any more: reaped already.
            !matches!(waitid(WaitId::Pid(pid), options), Ok(None))
        }
        #[cfg(not(unix))]
        {
            false
        }
    }

    /// Waits at most `left` for the child to end.
    pub(super) fn await_exit(&self, left: Duration) {
        match &self.exit {
            Some(exit) => {
                ready(exit.as_fd(), rustix::event::PollFlags::IN, left);
            }
            None => std::thread::sleep(left),
        }
    }

    /// Waits at most `left` for the child's stdout to have something to read (or to close),
    /// or for the child to end.
    fn wait(&self, left: Duration) -> Wait {
        use rustix::event::{poll, PollFd, PollFlags};
        let stdout = self.stdout.as_fd();
        let mut fds = [
            PollFd::new(&stdout, PollFlags::IN),
            PollFd::new(&stdout, PollFlags::empty()),
        ];
        let watched = match &self.exit {
            Some(exit) => {
                fds[1] = PollFd::new(exit, PollFlags::IN);
                2
            }
            None => 1,
        };
        let timeout = timespec(left);
        loop {
            match poll(&mut fds[..watched], Some(&timeout)) {
                Ok(0) => return Wait::Nothing,
                // What it wrote before it ended is read first.
                Ok(_) if !fds[0].revents().is_empty() => return Wait::Output,
                Ok(_) => return Wait::Exited,
                Err(rustix::io::Errno::INTR) => continue,
                // Reading tells what went wrong.
                Err(_) => return Wait::Output,
            }
        }
    }
}

/// What a wait saw.
enum Wait {
    Output,
    Exited,
    Nothing,
}

/// Whether `fd` became ready for `flags` within `left`.
pub(super) fn ready(fd: BorrowedFd<'_>, flags: rustix::event::PollFlags, left: Duration) -> bool {
    let mut fds = [rustix::event::PollFd::new(&fd, flags)];
    let timeout = timespec(left);
    loop {
        match rustix::event::poll(&mut fds, Some(&timeout)) {
            Ok(ready) => return ready > 0,
            Err(rustix::io::Errno::INTR) => continue,
            Err(_) => return true,
        }
    }
}

fn timespec(left: Duration) -> rustix::event::Timespec {
    rustix::event::Timespec::try_from(left).unwrap_or(rustix::event::Timespec {
        tv_sec: i64::MAX,
        tv_nsec: 0,
    })
}

/// A descriptor that becomes readable when the child ends, where the system has one.
fn exit_handle(pid: u32) -> Option<OwnedFd> {
    #[cfg(target_os = "linux")]
    {
        let pid = rustix::process::Pid::from_raw(pid as i32)?;
        rustix::process::pidfd_open(pid, rustix::process::PidfdFlags::empty()).ok()
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = pid;
        None
    }
}

#[cfg(test)]
impl Lines {
    /// Bytes held and not yet returned.
    pub(super) fn buffered(&self) -> usize {
        self.buffer.len() - self.start
    }
}

//! A child process on a private line, in a process group of its own: lines written to its
//! stdin and reply lines read from its stdout, each wait with a deadline and each line
//! with a size cap; its stderr copied into a capped log; how it ended; and the whole group
//! ended with it. Isolation workers, process bots and TBP bots all start here, so nothing
//! protects the host from one of them that does not protect it from the others.
//!
//! Replies are read on the caller's thread, waiting in `poll`: a bot answers a decision
//! in microseconds, and handing each line over from a reading thread would cost more
//! than the bot's whole answer.

pub mod affinity;
mod descriptors;
mod lines;
mod logs;
pub mod run_delay;
pub mod tree;

pub use descriptors::{close_on_exec_above_stderr, inherited_close_on_exec};
pub use lines::NoLine;
pub use logs::{file_safe, finish_log_folder, keep_logs, logs_kept, output_hint, LOG_CAP_BYTES};

use lines::Lines;
use std::fs::OpenOptions;
use std::io::Write;
use std::os::fd::AsFd;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::time::{Duration, Instant};

/// How long a child may take to end by itself once its stdin is closed or its stdout has
/// closed; past that it is killed, with its group.
const GRACE: Duration = Duration::from_secs(1);

/// How long the log of an ended child may take to receive the last of its output.
const LOG_SETTLE: Duration = Duration::from_millis(200);

/// How long a write to a child may wait for room in its input pipe: a child that stops
/// reading must not stop the host.
pub const WRITE_LIMIT: Duration = Duration::from_secs(10);

/// Asks that the process `command` starts be killed when the thread that starts it ends
/// (on Linux, by a parent-death signal; elsewhere it sees its stdin close).
pub fn follow_parent(command: &mut Command) {
    #[cfg(any(target_os = "linux", target_os = "android"))]
    {
        use std::os::unix::process::CommandExt;
        let parent = rustix::process::getpid();
        let follow = move || -> std::io::Result<()> {
            rustix::process::set_parent_process_death_signal(Some(rustix::process::Signal::KILL))?;
            // The parent may have ended before the signal was asked for. (The first process
            // of a new PID namespace sees no parent at all: its parent is outside.)
            match rustix::process::getppid() {
                Some(now) if now != parent => Err(std::io::ErrorKind::BrokenPipe.into()),
                _ => Ok(()),
            }
        };
        #[allow(unsafe_code)]
        // SAFETY: the closure runs in the child between fork and exec, where only
        // async-signal-safe work is allowed: it makes two system calls (prctl and
        // getppid) through rustix, which allocate nothing and take no lock.
        unsafe {
            command.pre_exec(follow);
        }
    }
    #[cfg(not(any(target_os = "linux", target_os = "android")))]
    let _ = command;
}

/// A running child with its private line.
pub struct ChildProcess {
    child: Child,
    /// `None` once closed, to ask the child to end.
    stdin: Option<ChildStdin>,
    /// The line being sent, kept to reuse its allocation.
    outgoing: Vec<u8>,
    lines: Lines,
    log: PathBuf,
    /// The thread copying its stderr into the log.
    copier: std::thread::JoinHandle<()>,
    /// How the child ended, once it has been reaped.
    ended: Option<String>,
    /// The signal that ended it, if one did.
    ended_by: Option<i32>,
    /// Its exit code, if it exited.
    exit_code: Option<i32>,
    /// The mark its tree carries ([`tree::TREE_VARIABLE`]).
    mark: String,
    /// How long a write may wait for room ([`WRITE_LIMIT`]).
    write_limit: Duration,
}

/// Why a line could not be written.
#[derive(Debug)]
pub enum NotSent {
    /// The child closed its input (it has ended, or is ending).
    Closed,
    /// The child's input pipe stayed full for [`WRITE_LIMIT`]: it stopped reading.
    Full,
}

impl ChildProcess {
    /// Starts `command` in a new process group with its stdin, stdout and stderr piped; its
    /// stderr goes to the end of the file `log`, after the line `--- {header} (process ID)`.
    /// A line from the child longer than `line_cap` bytes ends its output
    /// ([`NoLine::TooLong`]).
    pub fn spawn(mut command: Command, log: &Path, header: &str, line_cap: u64) -> std::io::Result<ChildProcess> {
        let mut log_file = OpenOptions::new().create(true).append(true).open(log)?;
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            // Its own group, so that everything it starts can be ended with it.
            command.process_group(0);
            // Nothing but its three lines: descriptors opened without close-on-exec (by a
            // plugin loaded in this process, say) stay here.
            #[allow(unsafe_code)]
            // SAFETY: the closure runs between fork and exec and makes one system call
            // (close_range, through `libc::syscall`), which is async-signal-safe; it
            // allocates nothing and takes no lock.
            unsafe {
                command.pre_exec(|| {
                    close_on_exec_above_stderr();
                    Ok(())
                });
            }
        }
        let mark = tree::new_mark();
        command.env(tree::TREE_VARIABLE, &mark);
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()?;
        let _ = writeln!(log_file, "--- {header} (process {})", child.id());
        let stdin = child.stdin.take();
        if let Some(stdin) = &stdin {
            // Writes wait in `poll`, with a deadline, rather than in `write`.
            rustix::io::ioctl_fionbio(stdin.as_fd(), true)?;
        }
        let stdout = child.stdout.take().expect("piped stdout");
        let stderr = child.stderr.take().expect("piped stderr");
        let copier = std::thread::spawn(move || logs::copy_capped(stderr, log_file));
        let lines = Lines::new(stdout, child.id(), line_cap);
        Ok(ChildProcess {
            child,
            stdin,
            outgoing: Vec::new(),
            lines,
            log: log.to_path_buf(),
            copier,
            ended: None,
            ended_by: None,
            exit_code: None,
            mark,
            write_limit: WRITE_LIMIT,
        })
    }

    /// Starts `command` like [`ChildProcess::spawn`], and asks that the child be killed
    /// when the thread that starts it ends (on Linux, by a parent-death signal; elsewhere
    /// the child sees its stdin close). Used for programs tetrad did not write, which
    /// cannot be trusted to watch their parent as a worker does.
    pub fn spawn_following(
        mut command: Command,
        log: &Path,
        header: &str,
        line_cap: u64,
    ) -> std::io::Result<ChildProcess> {
        follow_parent(&mut command);
        ChildProcess::spawn(command, log, header, line_cap)
    }

    /// The child's process ID.
    pub fn id(&self) -> u32 {
        self.child.id()
    }

    /// Writes `text` and a newline to the child, waiting at most [`WRITE_LIMIT`] for room.
    pub fn send_line(&mut self, text: &str) -> Result<(), NotSent> {
        let stdin = self.stdin.as_mut().ok_or(NotSent::Closed)?;
        // One write for the line and its newline: two would wake a waiting reader twice.
        self.outgoing.clear();
        self.outgoing.extend_from_slice(text.as_bytes());
        self.outgoing.push(b'\n');
        let until = Instant::now() + self.write_limit;
        let mut written = 0;
        while written < self.outgoing.len() {
            match stdin.write(&self.outgoing[written..]) {
                Ok(0) => return Err(NotSent::Closed),
                Ok(n) => written += n,
                Err(err) if err.kind() == std::io::ErrorKind::WouldBlock => {
                    let left = until.saturating_duration_since(Instant::now());
                    if left.is_zero() || !lines::ready(stdin.as_fd(), rustix::event::PollFlags::OUT, left) {
                        return Err(NotSent::Full);
                    }
                }
                Err(err) if err.kind() == std::io::ErrorKind::Interrupted => {}
                Err(_) => return Err(NotSent::Closed),
            }
        }
        Ok(())
    }

    /// The child's next line (with its newline), waiting at most `deadline`.
    pub fn next_line(&mut self, deadline: Duration) -> Result<String, NoLine> {
        self.lines.next(Instant::now() + deadline)
    }

    /// A line the child has already sent, if there is one, without waiting.
    pub fn waiting_line(&mut self) -> Option<String> {
        self.lines.next(Instant::now()).ok()
    }

    /// The signal that ended the child, once it has ended by one.
    pub fn exit_signal(&self) -> Option<i32> {
        self.ended_by
    }

    /// The child's exit code, once it has exited.
    pub fn exit_code(&self) -> Option<i32> {
        self.exit_code
    }

    /// Whether the child has ended.
    pub fn has_ended(&self) -> bool {
        self.ended.is_some() || self.lines.exited()
    }

    /// Kills the child and everything in its process group (if they still run) and reaps
    /// the child.
    pub fn kill(&mut self) {
        if self.ended.is_some() {
            return;
        }
        self.kill_group();
        let _ = self.child.kill();
        self.reap();
    }

    /// Waits a moment (one second) for the child to end, ends its group, and says how the
    /// child ended. One that was still running is killed, and the cause says so.
    pub fn exit_cause(&mut self) -> String {
        if self.ended.is_none() && !self.await_exit(GRACE) {
            self.kill();
            self.ended = Some(format!(
                "was still running {} s after its line closed (killed)",
                GRACE.as_secs()
            ));
        }
        self.reap()
    }

    /// Closes the child's stdin and gives it a moment (one second) to end by itself (so what
    /// it buffered reaches its log), then kills it and its whole group. Ending an ended
    /// child does nothing.
    pub fn end(&mut self) {
        self.stdin = None;
        if self.ended.is_none() {
            self.await_exit(GRACE);
            self.kill();
        }
    }

    /// The log, if the child wrote anything to it besides its header line.
    pub fn log_with_output(&self) -> Option<&Path> {
        self.settle_log();
        logs::has_output(&self.log).then_some(self.log.as_path())
    }

    /// Once the child has ended, waits a moment ([`LOG_SETTLE`]) for the last of its stderr
    /// to reach the log: the copy ends when every holder of the pipe has gone, which one
    /// that left the child's group may delay for ever.
    fn settle_log(&self) {
        if self.ended.is_none() {
            return;
        }
        let until = Instant::now() + LOG_SETTLE;
        while !self.copier.is_finished() && Instant::now() < until {
            std::thread::sleep(Duration::from_millis(1));
        }
    }

    /// Whether the child ended within `limit`. It is not reaped, so its process ID (which
    /// is its group's) cannot be reused while its group is ended.
    fn await_exit(&mut self, limit: Duration) -> bool {
        let until = Instant::now() + limit;
        loop {
            if self.lines.exited() {
                return true;
            }
            let left = until.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return false;
            }
            self.lines.await_exit(left.min(Duration::from_millis(5)));
        }
    }

    /// Kills every process left in the child's group. Safe only while the child is not
    /// reaped: until then its process ID, the group's, cannot name another group.
    fn kill_group(&self) {
        #[cfg(unix)]
        if let Some(pid) = rustix::process::Pid::from_raw(self.child.id() as i32) {
            let _ = rustix::process::kill_process_group(pid, rustix::process::Signal::KILL);
        }
    }

    /// Reaps the child, once, after its group was ended, and says how it ended.
    fn reap(&mut self) -> String {
        if let Some(ended) = &self.ended {
            return ended.clone();
        }
        // Whatever its group still holds goes with it: nothing a child started outlives it.
        self.kill_group();
        let cause = match self.child.wait() {
            Ok(status) => {
                #[cfg(unix)]
                {
                    use std::os::unix::process::ExitStatusExt;
                    self.ended_by = status.signal();
                }
                self.exit_code = status.code();
                logs::describe_exit(status)
            }
            Err(err) => format!("process lost: {err}"),
        };
        // Descendants that left its group, handed to this process as their parents ended.
        tree::end_marked(&self.mark);
        self.ended = Some(cause.clone());
        cause
    }
}

impl Drop for ChildProcess {
    fn drop(&mut self) {
        self.end();
        // The log goes with its process unless logs are kept (a kept one with nothing in it
        // goes too): however long the run, only the logs of running children are on disk.
        if !logs_kept() || self.log_with_output().is_none() {
            let _ = std::fs::remove_file(&self.log);
        }
    }
}

#[cfg(test)]
mod tests;

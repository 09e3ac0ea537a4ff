//! `tetrad sandbox --check`: the sandbox tried on the user's own machine and kernel before
//! a ladder opens. Each check starts a probe (tetrad itself, `sandbox --escape KIND`) the
//! way a bot is started, and the probe tries one kind of escape from inside and says how
//! it went; a probe the sandbox kills held. One line a check: held, open, or a gap the docs
//! name (memory a memory cgroup would count, where none can be had), with the kernel
//! feature behind it.

mod escape;

pub use escape::attempt;

use super::{Limits, Mode, Policy};
use crate::process::ChildProcess;
use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

/// How one check came out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The sandbox stopped it.
    Held,
    /// It got out.
    Open,
    /// Not stopped, as the docs say for this system (no memory cgroup).
    Gap,
}

/// One check's line.
#[derive(Clone, Debug)]
pub struct Line {
    /// What was tried.
    pub name: &'static str,
    /// The kernel feature that stops it.
    pub feature: &'static str,
    /// How it came out.
    pub verdict: Verdict,
    /// What the probe (or the host) saw.
    pub detail: String,
}

impl fmt::Display for Line {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let verdict = match self.verdict {
            Verdict::Held => "held",
            Verdict::Open => "OPEN",
            Verdict::Gap => "gap ",
        };
        write!(f, "{verdict}  {:<27} {:<34} {}", self.name, self.feature, self.detail)
    }
}

/// The whole check: the pieces this system lacks, then a line a check.
pub struct Report {
    /// What of the sandbox this system lacks.
    pub missing: Vec<String>,
    /// A line a check (the pieces lacking first).
    pub lines: Vec<Line>,
}

impl Report {
    /// Whether the sandbox held: no check open, and under strict mode no piece missing.
    pub fn passed(&self, strict: bool) -> bool {
        let open = self.lines.iter().any(|line| line.verdict == Verdict::Open);
        !open && (!strict || self.missing.is_empty())
    }

    /// One line that counts the verdicts.
    pub fn summary(&self) -> String {
        let count = |verdict| self.lines.iter().filter(|line| line.verdict == verdict).count();
        let mut text = format!(
            "{} held, {} open, {} gaps",
            count(Verdict::Held),
            count(Verdict::Open),
            count(Verdict::Gap)
        );
        if !self.missing.is_empty() {
            text.push_str(&format!("; this system lacks {}", self.missing.join(", ")));
        }
        text
    }
}

/// The limits the checks run under: small, so that the memory and disk checks are quick.
fn check_limits(given: &Limits) -> Limits {
    Limits {
        memory_bytes: 256 << 20,
        disk_bytes: 64 << 20,
        ..given.clone()
    }
}

/// Runs every check under `policy` (its mode, its extra folders; limits of its own).
pub fn run(policy: Policy) -> Result<Report, String> {
    let policy = Policy {
        limits: check_limits(&policy.limits),
        ..policy
    };
    let missing = super::probe(&policy)?;
    // The checks try what the system has: a missing piece is its own line.
    let trying = Policy {
        mode: Mode::BestEffort,
        ..policy.clone()
    };
    let ground = Ground::new().map_err(|err| format!("a folder for the checks: {err}"))?;
    let mut lines: Vec<Line> = missing
        .iter()
        .map(|what| Line {
            name: "sandbox piece",
            feature: "",
            verdict: match policy.mode {
                Mode::Strict => Verdict::Open,
                Mode::BestEffort => Verdict::Gap,
            },
            detail: format!("missing: {what}"),
        })
        .collect();
    for check in escape::CHECKS {
        lines.push(ground.try_one(&trying, check));
    }
    Ok(Report { missing, lines })
}

/// What the checks need outside the sandbox: a secret to read, a folder to write, a
/// listener to reach, a bot folder with a link to the root.
struct Ground {
    dir: tempfile::TempDir,
    tcp: std::net::TcpListener,
    /// Kept for its socket file, which the check connects to.
    _unix: std::os::unix::net::UnixListener,
}

impl Ground {
    fn new() -> std::io::Result<Ground> {
        let dir = tempfile::Builder::new().prefix("tetrad-check-").tempdir()?;
        std::fs::write(dir.path().join("secret"), "the crown jewels")?;
        std::fs::create_dir(dir.path().join("outside"))?;
        let bot = dir.path().join("bot");
        std::fs::create_dir(&bot)?;
        std::os::unix::fs::symlink("/", bot.join("rt"))?;
        let tcp = std::net::TcpListener::bind("127.0.0.1:0")?;
        tcp.set_nonblocking(true)?;
        let unix = std::os::unix::net::UnixListener::bind(dir.path().join("socket"))?;
        unix.set_nonblocking(true)?;
        Ok(Ground { dir, tcp, _unix: unix })
    }

    /// A path in the ground's folder.
    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    /// Runs one check: its probe in the sandbox, then its verdict.
    fn try_one(&self, policy: &Policy, check: &escape::Check) -> Line {
        let (verdict, detail) = match self.probe(policy, check) {
            Ok(outcome) => outcome,
            Err(err) => (Verdict::Open, format!("the probe did not run: {err}")),
        };
        Line {
            name: check.name,
            feature: check.feature,
            verdict,
            detail,
        }
    }

    fn probe(&self, policy: &Policy, check: &escape::Check) -> std::io::Result<(Verdict, String)> {
        let exe = policy.launcher()?;
        let bot = self.path("bot");
        let mark = format!("tetrad-check-{}-{}", std::process::id(), check.name);
        let target = match check.name {
            "read a file outside" | "read through a link" => self.path("secret").display().to_string(),
            "write outside" => self.path("outside/written").display().to_string(),
            "connect over TCP" => self.tcp.local_addr()?.port().to_string(),
            "connect a Unix socket" => self.path("socket").display().to_string(),
            "signal tetrad" => std::process::id().to_string(),
            "a daemon outlives its game" | "a bot outlives tetrad" => mark.clone(),
            // Deeper than a path can name (Landlock checks each folder above a new one, so a
            // much deeper tree takes the probe minutes; the unit test of the removal goes to
            // 25,000).
            "a tree no cleanup removes" => "3000".to_string(),
            _ => "-".to_string(),
        };
        let mut command = match check.name {
            // A bot folder that ships `rt -> /` and runs its program through it.
            "read through a link" => {
                let mut command = std::process::Command::new(bot.join("rt/bin/env"));
                command.arg(&exe);
                command
            }
            _ => std::process::Command::new(&exe),
        };
        if check.name == "the loader's variables" {
            command.env("LD_PRELOAD", bot.join("evil.so"));
        }
        let inherited = match check.name {
            "an inherited descriptor" => Some(escape::descriptor_nine(&self.path("inherited"))?),
            _ => None,
        };
        if let Some(fd) = &inherited {
            use std::os::fd::AsRawFd;
            command.args(["sandbox", "--escape", check.kind, &fd.as_raw_fd().to_string()]);
        } else {
            command.args(["sandbox", "--escape", check.kind, &target]);
        }
        let (command, scratch) = match super::wrap_with(policy, command, &[&bot], &[]) {
            Ok(wrapped) => wrapped,
            Err(err) if check.name == "the loader's variables" => {
                return Ok((Verdict::Held, format!("refused before the launcher: {err}")));
            }
            Err(err) => return Err(err),
        };
        let log = self.path(&format!("{}.log", check.kind));
        let mut process = ChildProcess::spawn(command, &log, check.name, 1 << 16)?;
        if check.name == "a bot outlives tetrad" {
            // As if tetrad were killed: its launcher dies (by its parent-death signal).
            let said = process.next_line(Duration::from_secs(10)).unwrap_or_default();
            if let Some(pid) = rustix::process::Pid::from_raw(process.id() as i32) {
                let _ = rustix::process::kill_process(pid, rustix::process::Signal::KILL);
            }
            std::thread::sleep(Duration::from_millis(300));
            let left = escape::processes_with(&mark);
            drop(process);
            return Ok(verdict_of_tree(&left, said.trim()));
        }
        let said = process.next_line(Duration::from_secs(20));
        let cause = process.exit_cause();
        let signal = process.exit_signal();
        drop(process);
        let disk_left = scratch.path().to_path_buf();
        drop(scratch);
        let said = said.unwrap_or_default();
        let said = said.trim();
        if check.name == "a daemon outlives its game" {
            std::thread::sleep(Duration::from_millis(300));
            return Ok(verdict_of_tree(&escape::processes_with(&mark), said));
        }
        if check.name == "a tree no cleanup removes" {
            let said = said.strip_prefix("held ").unwrap_or(said);
            let gone = !disk_left.exists();
            return Ok(match gone {
                true => (Verdict::Held, format!("{said}; its scratch folder removed")),
                false => (Verdict::Open, format!("{said}; its scratch folder left behind")),
            });
        }
        if signal == Some(libc::SIGSYS) {
            return Ok((Verdict::Held, "killed by seccomp".to_string()));
        }
        if let Some(rest) = said.strip_prefix("held ") {
            return Ok((Verdict::Held, rest.to_string()));
        }
        if let Some(rest) = said.strip_prefix("open ") {
            let gap = check.name == "memory in files" && !memory_counted(policy);
            let verdict = if gap { Verdict::Gap } else { Verdict::Open };
            return Ok((verdict, rest.to_string()));
        }
        if signal.is_some() && check.killed_holds {
            return Ok((Verdict::Held, format!("the probe {cause}")));
        }
        Ok((Verdict::Open, format!("the probe said `{said}` and {cause}")))
    }
}

/// Whether a memory cgroup holds sandboxed processes here.
fn memory_counted(policy: &Policy) -> bool {
    super::Scratch::new(&policy.limits).is_ok_and(|scratch| super::cgroup::limits_memory(scratch.cgroups()))
}

/// The verdict on a tree the probe left: held if nothing of it runs.
fn verdict_of_tree(left: &[String], said: &str) -> (Verdict, String) {
    let said = said.strip_prefix("held ").unwrap_or(said);
    if left.is_empty() {
        (Verdict::Held, format!("{said}; nothing of it left"))
    } else {
        for pid in left {
            if let Some(pid) = pid.parse().ok().and_then(rustix::process::Pid::from_raw) {
                let _ = rustix::process::kill_process(pid, rustix::process::Signal::KILL);
            }
        }
        (
            Verdict::Open,
            format!("{said}; still running: process {}", left.join(", ")),
        )
    }
}

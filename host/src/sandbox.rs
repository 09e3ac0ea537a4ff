//! The sandbox for strangers' bots (`--sandbox`): what a bot may read and write, the limits
//! it is held to, and the launcher that confines it. A sandboxed bot is started through
//! `tetrad sandbox` (the binary itself), which enters new user, network and PID namespaces,
//! joins a pids cgroup where one is needed, sets resource limits, restricts the file system
//! with Landlock and system calls with seccomp, and only then starts the bot; everything
//! the launcher takes on is inherited by the bot and all it starts. The launcher's side is
//! in [`confine`].

mod cgroup;
pub mod confine;

use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;

/// How strictly the sandbox is applied.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Mode {
    /// Every piece, or no game at all.
    Strict,
    /// What the system offers; what it lacks is said once.
    BestEffort,
}

/// What a sandboxed process is held to.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Limits {
    /// Address space, in bytes.
    pub memory_bytes: u64,
    /// CPU time of each process, in seconds.
    pub cpu_seconds: u64,
    /// Processes (and threads) at once.
    pub processes: u64,
    /// Open files per process.
    pub open_files: u64,
    /// The largest file it may write, in bytes.
    pub file_bytes: u64,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            memory_bytes: 2 << 30,
            cpu_seconds: 600,
            processes: 64,
            open_files: 256,
            file_bytes: 64 << 20,
        }
    }
}

/// The sandbox this run applies to every bot it starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Policy {
    /// Strict or best effort.
    pub mode: Mode,
    /// Folders a bot may read besides its own and the system's (`--sandbox-read`).
    pub read: Vec<PathBuf>,
    /// Its limits.
    pub limits: Limits,
    /// The `tetrad` binary that launches sandboxed processes: this one when `None` (a
    /// program built on the library, a benchmark say, names one).
    pub launcher: Option<PathBuf>,
}

impl Policy {
    /// The launcher's binary.
    fn launcher(&self) -> std::io::Result<PathBuf> {
        match &self.launcher {
            Some(path) => Ok(path.clone()),
            None => std::env::current_exe(),
        }
    }

    /// The command-line options that give a child process of tetrad this policy.
    pub fn args(&self) -> Vec<String> {
        let mut args = vec![
            format!(
                "--sandbox={}",
                match self.mode {
                    Mode::Strict => "strict",
                    Mode::BestEffort => "best-effort",
                }
            ),
            format!("--max-memory={}", self.limits.memory_bytes),
            format!("--max-cpu={}", self.limits.cpu_seconds),
        ];
        for dir in &self.read {
            args.push(format!("--sandbox-read={}", dir.display()));
        }
        args
    }
}

/// Folders every sandboxed program may read and run from: the system's libraries,
/// programs and interpreters, and the few files of `/etc` that they read as they start.
pub const SYSTEM_READ: &[&str] = &[
    "/usr",
    "/lib",
    "/lib64",
    "/lib32",
    "/bin",
    "/sbin",
    "/opt",
    "/etc/ld.so.cache",
    "/etc/ld.so.conf",
    "/etc/ld.so.conf.d",
    "/etc/alternatives",
    "/etc/localtime",
    "/etc/passwd",
    "/etc/group",
    "/etc/nsswitch.conf",
    "/etc/ssl",
    "/etc/python3",
    "/usr/share/zoneinfo",
];

/// Devices every sandboxed program may read and write.
pub const DEVICES: &[&str] = &["/dev/null", "/dev/zero", "/dev/random", "/dev/urandom", "/dev/tty"];

/// What one sandboxed process is given: the launcher's instructions.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Spec {
    /// Strict or best effort.
    pub mode: Mode,
    /// Folders and files it may read and run.
    pub read: Vec<PathBuf>,
    /// Its scratch folder, the one place it may write.
    pub scratch: PathBuf,
    /// Its limits.
    pub limits: Limits,
    /// The pids cgroup it joins, where the process limit needs one (a run as root).
    pub cgroup: Option<PathBuf>,
}

static POLICY: OnceLock<Policy> = OnceLock::new();

/// Sandboxes every bot this process starts from now on. Refused in one line, under
/// [`Mode::Strict`], when the system lacks a piece of the sandbox; under
/// [`Mode::BestEffort`], what it lacks is returned, to be said once.
pub fn enable(policy: Policy) -> Result<Vec<String>, String> {
    let missing = probe(&policy)?;
    if policy.mode == Mode::Strict && !missing.is_empty() {
        return Err(format!(
            "--sandbox: this system lacks {} (--sandbox=best-effort runs without)",
            missing.join(", ")
        ));
    }
    let _ = POLICY.set(policy);
    Ok(missing)
}

/// The sandbox of this run, if there is one.
pub fn policy() -> Option<&'static Policy> {
    POLICY.get()
}

/// What of the sandbox this system cannot give, found by starting the launcher once.
fn probe(policy: &Policy) -> Result<Vec<String>, String> {
    let exe = policy
        .launcher()
        .map_err(|err| format!("--sandbox: the tetrad binary: {err}"))?;
    let scratch = Scratch::new().map_err(|err| format!("--sandbox: a scratch folder: {err}"))?;
    let spec = Spec {
        mode: Mode::BestEffort,
        read: Vec::new(),
        scratch: scratch.path.clone(),
        limits: policy.limits.clone(),
        cgroup: scratch.cgroup.clone(),
    };
    let spec_text = serde_json::to_string(&spec).expect("specs serialise");
    let output = Command::new(exe)
        .args(["sandbox", "--probe", "--spec", &spec_text])
        .output()
        .map_err(|err| format!("--sandbox: cannot start the launcher: {err}"))?;
    let text = String::from_utf8_lossy(&output.stdout);
    serde_json::from_str::<Vec<String>>(text.trim()).map_err(|_| {
        format!(
            "--sandbox: the launcher's probe failed: {}",
            String::from_utf8_lossy(&output.stderr).trim()
        )
    })
}

/// A sandboxed process's scratch folder (and its pids cgroup, if it has one), removed
/// when the process is done with.
pub struct Scratch {
    path: PathBuf,
    cgroup: Option<PathBuf>,
}

impl Scratch {
    fn new() -> std::io::Result<Scratch> {
        static MADE: AtomicU64 = AtomicU64::new(0);
        let number = MADE.fetch_add(1, Ordering::Relaxed) + 1;
        let path = std::env::temp_dir()
            .join(format!("tetrad-scratch-{}", std::process::id()))
            .join(number.to_string());
        std::fs::create_dir_all(&path)?;
        let cgroup = cgroup::create(&format!("tetrad-{}-{number}", std::process::id()));
        Ok(Scratch { path, cgroup })
    }

    /// The folder.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.path);
        if let Some(parent) = self.path.parent() {
            // The run's folder of scratch folders goes with the last of them.
            let _ = std::fs::remove_dir(parent);
        }
        if let Some(cgroup) = &self.cgroup {
            cgroup::remove(cgroup);
        }
    }
}

/// `command` run inside the sandbox of this run, if there is one: through the launcher,
/// reading `own` (the bot's folder, and any file it is given) besides the system's folders.
/// The scratch folder must live as long as the process.
pub fn wrap(command: Command, own: &[&Path]) -> std::io::Result<(Command, Option<Scratch>)> {
    let Some(policy) = policy() else {
        return Ok((command, None));
    };
    let exe = policy.launcher()?;
    let scratch = Scratch::new()?;
    let mut read: Vec<PathBuf> = SYSTEM_READ.iter().map(PathBuf::from).collect();
    read.extend(own.iter().map(|path| path.to_path_buf()));
    read.extend(policy.read.iter().cloned());
    read.extend(program_prefixes(command.get_program().as_ref()));
    read.push(exe.clone());
    let spec = Spec {
        mode: policy.mode,
        read,
        scratch: scratch.path.clone(),
        limits: policy.limits.clone(),
        cgroup: scratch.cgroup.clone(),
    };
    let mut wrapped = Command::new(exe);
    wrapped
        .arg("sandbox")
        .arg("--spec")
        .arg(serde_json::to_string(&spec).expect("specs serialise"))
        .arg("--")
        .arg(command.get_program())
        .args(command.get_args());
    for (key, value) in command.get_envs() {
        match value {
            Some(value) => wrapped.env(key, value),
            None => wrapped.env_remove(key),
        };
    }
    wrapped.env("TMPDIR", &scratch.path).env("HOME", &scratch.path);
    if let Some(dir) = command.get_current_dir() {
        wrapped.current_dir(dir);
    }
    Ok((wrapped, Some(scratch)))
}

/// The installation a program belongs to, which it may need to read as it runs: the folder
/// above the `bin` folder it is in (an interpreter's standard library lives there), as
/// named and with its links followed, unless that is the root. A program in any other
/// folder gets nothing more than that folder's rules give it.
fn program_prefixes(program: &Path) -> Vec<PathBuf> {
    let found = if program.components().count() > 1 {
        Some(program.to_path_buf())
    } else {
        std::env::var_os("PATH").and_then(|path| {
            std::env::split_paths(&path)
                .map(|dir| dir.join(program))
                .find(|candidate| candidate.is_file())
        })
    };
    let Some(found) = found else {
        return Vec::new();
    };
    let mut prefixes: Vec<PathBuf> = [Some(found.clone()), std::fs::canonicalize(&found).ok()]
        .into_iter()
        .flatten()
        .filter_map(|path| {
            let bin = path
                .parent()
                .filter(|bin| bin.file_name().is_some_and(|name| name == "bin"))?;
            Some(bin.parent()?.to_path_buf())
        })
        .filter(|prefix| prefix.parent().is_some())
        .collect();
    prefixes.dedup();
    prefixes
}

/// What the sandbox stopped, if it ended a process that ended by `signal` or with `code`:
/// a forbidden system call, CPU time or file size used up, or a sandbox that could not be
/// set up.
pub fn stopped(signal: Option<i32>, code: Option<i32>) -> Option<&'static str> {
    match (signal, code) {
        (Some(libc::SIGSYS), _) => Some("a system call the sandbox forbids (see docs/trust-model.md)"),
        (Some(libc::SIGXCPU), _) => Some("its CPU time (--max-cpu) used up"),
        (Some(libc::SIGXFSZ), _) => Some("a file past the sandbox's size limit"),
        (None, Some(code)) if code == i32::from(confine::CONFINE_FAILED) => {
            Some("the sandbox could not be set up (its log says why)")
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests;

//! The sandbox for strangers' bots (`--sandbox`): what a bot may read and write, the limits
//! it is held to, and the launcher that confines it. A sandboxed bot is started through
//! `tetrad sandbox` (the binary itself, with an empty environment), which joins its cgroups
//! where it can have them, enters new user, network, mount and PID namespaces, gives the
//! bot a scratch folder of limited size, starts the namespace's first process (its own
//! code, which holds the bot's whole tree), sets resource limits, leaves the terminal's
//! session, restricts the file system with Landlock and system calls with seccomp, and
//! only then starts the bot with the environment its spec gives; everything taken on is
//! inherited by the bot and all it starts. The launcher's side is in [`confine`];
//! `tetrad sandbox --check` ([`check`]) tries every kind of escape on this machine.

mod cgroup;
pub mod check;
pub mod confine;
mod environment;
mod paths;
mod scratch;
pub mod seccomp;

pub use environment::{Forbidden, ALLOWED as ALLOWED_VARIABLES};
pub use paths::RuleError;
pub use scratch::{remove_tree, Scratch};

use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::process::Command;
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
    /// What its scratch folder may hold, in bytes (a tmpfs of this size, where a mount
    /// namespace can be had).
    pub disk_bytes: u64,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            memory_bytes: 2 << 30,
            cpu_seconds: 600,
            processes: 64,
            open_files: 256,
            file_bytes: 64 << 20,
            disk_bytes: 256 << 20,
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
            format!("--max-disk={}", self.limits.disk_bytes),
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

/// Devices every sandboxed program may read and write. Not `/dev/tty`: a bot has no
/// terminal.
pub const DEVICES: &[&str] = &["/dev/null", "/dev/zero", "/dev/random", "/dev/urandom"];

/// What one sandboxed process is given: the launcher's instructions.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Spec {
    /// Strict or best effort.
    pub mode: Mode,
    /// Folders and files it may read and run, resolved.
    pub read: Vec<PathBuf>,
    /// Files it may write besides its scratch folder (an isolated worker's progress file).
    pub write: Vec<PathBuf>,
    /// Its scratch folder, the one folder it may write.
    pub scratch: PathBuf,
    /// Its limits.
    pub limits: Limits,
    /// The cgroups it joins, where it can have them (a run as root): pids and memory.
    pub cgroups: Vec<PathBuf>,
    /// Its whole environment (the allow-list, its manifest's variables, `HOME` and
    /// `TMPDIR`); the launcher itself has none.
    pub env: Vec<(String, String)>,
}

static POLICY: OnceLock<Policy> = OnceLock::new();

/// Sandboxes every bot this process starts from now on. Refused in one line, under
/// [`Mode::Strict`], when the system lacks a piece of the sandbox; under
/// [`Mode::BestEffort`], what it lacks is returned, to be said once.
pub fn enable(mut policy: Policy) -> Result<Vec<String>, String> {
    let homes = paths::homes();
    policy.read = (policy.read.iter())
        .map(|dir| paths::resolve(dir, &homes).map_err(|err| format!("--sandbox-read {err}")))
        .collect::<Result<_, _>>()?;
    scratch::remove_stale();
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
    let scratch = Scratch::new(&policy.limits).map_err(|err| format!("--sandbox: a scratch folder: {err}"))?;
    let spec = Spec {
        mode: Mode::BestEffort,
        read: Vec::new(),
        write: Vec::new(),
        scratch: scratch.path().to_path_buf(),
        limits: policy.limits.clone(),
        cgroups: scratch.cgroups().to_vec(),
        env: Vec::new(),
    };
    let spec_text = serde_json::to_string(&spec).expect("specs serialise");
    let output = Command::new(exe)
        .env_clear()
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

/// `command` run inside the sandbox of this run, if there is one: through the launcher,
/// reading `own` (the bot's folder, and any file it is given) besides the system's folders,
/// and writing `write` (files made beforehand) besides its scratch folder. The launcher
/// starts with an empty environment; the bot's (the allow-list, the variables `command`
/// sets, its scratch folder as `HOME` and `TMPDIR`) goes in its spec. Refused: a folder that
/// resolves to the root or holds a home folder, a variable of the dynamic loader. The
/// scratch folder must live as long as the process.
pub fn wrap(command: Command, own: &[&Path], write: &[&Path]) -> std::io::Result<(Command, Option<Scratch>)> {
    match policy() {
        Some(policy) => wrap_with(policy, command, own, write).map(|(command, scratch)| (command, Some(scratch))),
        None => Ok((command, None)),
    }
}

/// `command` run inside the sandbox of `policy`, as [`wrap`] says.
pub(crate) fn wrap_with(
    policy: &Policy,
    command: Command,
    own: &[&Path],
    write: &[&Path],
) -> std::io::Result<(Command, Scratch)> {
    let refused = |err: &dyn std::fmt::Display| std::io::Error::new(std::io::ErrorKind::InvalidInput, err.to_string());
    let exe = std::fs::canonicalize(policy.launcher()?)?;
    let homes = paths::homes();
    let mut read: Vec<PathBuf> = SYSTEM_READ
        .iter()
        .filter_map(|path| paths::resolve(Path::new(path), &homes).ok())
        .collect();
    for path in own {
        read.push(paths::resolve(path, &homes).map_err(|err| refused(&err))?);
    }
    read.extend(policy.read.iter().cloned());
    let program = Path::new(command.get_program());
    // tetrad itself (an isolated worker) needs nothing of the folder it is installed in,
    // which may be in a home (`~/.cargo`).
    if std::fs::canonicalize(program).ok().as_ref() != Some(&exe) {
        read.extend(paths::program_prefixes(program, &homes));
    }
    read.push(exe.clone());
    read.sort();
    read.dedup();
    let scratch = Scratch::new(&policy.limits)?;
    let env =
        environment::for_bot(std::env::vars_os(), command.get_envs(), scratch.path()).map_err(|err| refused(&err))?;
    let spec = Spec {
        mode: policy.mode,
        read,
        write: write.iter().map(|path| path.to_path_buf()).collect(),
        scratch: scratch.path().to_path_buf(),
        limits: policy.limits.clone(),
        cgroups: scratch.cgroups().to_vec(),
        env,
    };
    let mut wrapped = Command::new(exe);
    wrapped
        .env_clear()
        .arg("sandbox")
        .arg("--spec")
        .arg(serde_json::to_string(&spec).expect("specs serialise"))
        .arg("--")
        .arg(command.get_program())
        .args(command.get_args());
    if let Some(dir) = command.get_current_dir() {
        wrapped.current_dir(dir);
    }
    // The launcher dies with the thread that starts it; the bot's tree dies with the launcher.
    crate::process::follow_parent(&mut wrapped);
    Ok((wrapped, scratch))
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

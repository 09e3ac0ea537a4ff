//! The launcher's side of the sandbox (`tetrad sandbox`). It starts with an empty
//! environment and no descriptor but its three lines, joins its cgroups, enters new user,
//! network, mount and PID namespaces and mounts the bot's scratch folder as a tmpfs of
//! limited size; then it forks the first process of the new PID namespace, which stays its
//! own code: that process sets resource limits, leaves the terminal's session, restricts
//! the file system (Landlock) and system calls (seccomp), and only then starts the bot with
//! the environment its spec gives. It reaps every orphan of the namespace and ends when the
//! bot ends, and the kernel then ends everything left in the namespace; it dies with the
//! launcher (a parent-death signal the bot cannot reach), and the launcher with tetrad.
//! Where PID namespaces are missing (best effort), the launcher is the subreaper of the
//! bot's tree and ends it itself.
//!
//! The launcher runs on one thread, as the `tetrad` binary started for nothing else, so it
//! may fork.

use super::{cgroup, Mode, Spec, DEVICES};
use std::ffi::OsString;
use std::os::fd::{AsFd, OwnedFd};
use std::process::{Command, ExitCode};

/// The exit code of a launcher that could not confine the bot (under `--sandbox`, which
/// refuses what it cannot do).
pub const CONFINE_FAILED: u8 = 125;

/// Confines the bot as `spec` says and runs `program` inside; ends as the bot ended.
/// Under [`Mode::Strict`], a piece that cannot be applied ends the launcher with
/// [`CONFINE_FAILED`] before the bot starts, the reason on stderr (the bot's log).
pub fn launch(spec: &Spec, program: &OsString, args: &[OsString]) -> ExitCode {
    crate::process::close_on_exec_above_stderr();
    // The launcher relays the bot's signal by taking it itself: no core file of its own.
    let _ = rlimit(rustix::process::Resource::Core, 0, 0);
    let entered = match enter(spec) {
        Ok(entered) => entered,
        Err(err) => {
            eprintln!("--- sandbox: {err}");
            return ExitCode::from(CONFINE_FAILED);
        }
    };
    if !entered.pid_namespace {
        // Orphans of the bot's tree come back here, to be ended with it.
        let _ = rustix::process::set_child_subreaper(Some(rustix::process::getpid()));
    }
    let pipes = (
        rustix::pipe::pipe_with(rustix::pipe::PipeFlags::CLOEXEC),
        rustix::pipe::pipe_with(rustix::pipe::PipeFlags::CLOEXEC),
    );
    let ((alive_read, alive_write), (status_read, status_write)) = match pipes {
        (Ok(alive), Ok(status)) => (alive, status),
        (Err(err), _) | (_, Err(err)) => {
            eprintln!("--- sandbox: a pipe: {err}");
            return ExitCode::from(CONFINE_FAILED);
        }
    };
    #[allow(unsafe_code)]
    // SAFETY: the launcher has one thread (it is started for nothing else and starts no
    // thread before this point), so the child is a whole copy of it and may run any code.
    let forked = unsafe { libc::fork() };
    match forked {
        -1 => {
            eprintln!("--- sandbox: fork: {}", std::io::Error::last_os_error());
            ExitCode::from(CONFINE_FAILED)
        }
        0 => {
            drop((alive_write, status_read));
            std::process::exit(init(spec, program, args, alive_read, status_write, entered.missing));
        }
        first => {
            drop((alive_read, status_write));
            // Its stdin and stdout are the bot's: closed here, so tetrad sees the bot's
            // output end when the bot's tree has let it go.
            let _ = release_lines();
            let first_status = wait_for(first);
            let bot_status = read_status(&status_read);
            drop(alive_write);
            if !entered.pid_namespace {
                crate::process::tree::end_all();
            }
            relay(bot_status.or(first_status))
        }
    }
}

/// The pieces a confinement could not apply: under [`Mode::Strict`] the first is the
/// error, under [`Mode::BestEffort`] each is noted and the rest go on.
struct Missing {
    strict: bool,
    left_out: Vec<String>,
}

impl Missing {
    fn new(mode: Mode) -> Missing {
        Missing {
            strict: mode == Mode::Strict,
            left_out: Vec::new(),
        }
    }

    /// `what` could not be applied.
    fn lacks(&mut self, what: String) -> Result<(), String> {
        if self.strict {
            return Err(what);
        }
        self.left_out.push(what);
        Ok(())
    }
}

/// What [`enter`] did: what it left out, and whether the bot has a PID namespace.
struct Entered {
    missing: Vec<String>,
    pid_namespace: bool,
}

/// The launcher's part: cgroups, namespaces, the scratch folder's tmpfs.
fn enter(spec: &Spec) -> Result<Entered, String> {
    let mut missing = Missing::new(spec.mode);
    // Joined first: once in its own user namespace, the process may no longer write there.
    if let Err(err) = cgroup::join(&spec.cgroups) {
        missing.lacks(format!("its cgroups ({err})"))?;
    }
    if rustix::process::geteuid().is_root() && !cgroup::limits_processes(&spec.cgroups) {
        // Root is never held to RLIMIT_NPROC: without a pids cgroup nothing bounds a fork bomb.
        missing.lacks("a process limit (root needs a pids cgroup)".to_string())?;
    }
    let pid_namespace = match namespaces() {
        Ok(()) => true,
        Err(err) => {
            missing.lacks(format!("user namespaces ({err})"))?;
            false
        }
    };
    if pid_namespace {
        if let Err(err) = scratch_tmpfs(spec) {
            missing.lacks(format!("a disk limit (a tmpfs for the scratch folder: {err})"))?;
        }
    } else {
        missing.lacks("a disk limit (a tmpfs needs a mount namespace)".to_string())?;
    }
    Ok(Entered {
        missing: missing.left_out,
        pid_namespace,
    })
}

/// The first process of the bot's namespace: confines itself, starts the bot, reaps every
/// orphan, and ends when the bot ends, telling the launcher how.
fn init(
    spec: &Spec,
    program: &OsString,
    args: &[OsString],
    alive: OwnedFd,
    status: OwnedFd,
    mut missing: Vec<String>,
) -> i32 {
    let failed = i32::from(CONFINE_FAILED);
    // Dies with the launcher; a launcher already gone has closed its end of `alive`.
    if rustix::process::set_parent_process_death_signal(Some(rustix::process::Signal::KILL)).is_err()
        || hung_up(alive.as_fd())
    {
        return failed;
    }
    match confine(spec) {
        Ok(more) => missing.extend(more),
        Err(err) => {
            eprintln!("--- sandbox: {err}");
            return failed;
        }
    }
    if !missing.is_empty() {
        eprintln!("--- sandbox: running without {}", missing.join(", "));
    }
    let mut command = Command::new(program);
    command.args(args).env_clear();
    command.envs(
        spec.env
            .iter()
            .filter(|(name, _)| !super::environment::forbidden(name))
            .cloned(),
    );
    if let Some(mark) = std::env::var_os(crate::process::tree::TREE_VARIABLE) {
        command.env(crate::process::tree::TREE_VARIABLE, mark);
    }
    crate::process::follow_parent(&mut command);
    let bot = match command.spawn() {
        Ok(child) => child.id(),
        Err(err) => {
            eprintln!("--- sandbox: cannot start `{}`: {err}", program.to_string_lossy());
            return failed;
        }
    };
    let _ = release_lines();
    loop {
        match rustix::process::wait(rustix::process::WaitOptions::empty()) {
            Ok(Some((pid, ended))) if pid.as_raw_nonzero().get() as u32 == bot => {
                let raw = ended.as_raw();
                let _ = rustix::io::write(&status, &raw.to_ne_bytes());
                return exit_code(raw);
            }
            Ok(_) | Err(rustix::io::Errno::INTR) => continue,
            Err(_) => return failed,
        }
    }
}

/// Whether the other end of the pipe `fd` has closed (nothing is ever written to it).
fn hung_up(fd: std::os::fd::BorrowedFd<'_>) -> bool {
    use rustix::event::{poll, PollFd, PollFlags, Timespec};
    let mut fds = [PollFd::new(&fd, PollFlags::IN)];
    let now = Timespec { tv_sec: 0, tv_nsec: 0 };
    poll(&mut fds, Some(&now)).is_ok_and(|ready| ready > 0)
}

/// Stdin and stdout pointed at `/dev/null`: the bot's lines are the bot's alone.
fn release_lines() -> std::io::Result<()> {
    let null = std::fs::OpenOptions::new().read(true).write(true).open("/dev/null")?;
    rustix::stdio::dup2_stdin(&null)?;
    rustix::stdio::dup2_stdout(&null)?;
    Ok(())
}

/// The wait status of the process `pid`, once it has ended.
fn wait_for(pid: libc::pid_t) -> Option<i32> {
    let pid = rustix::process::Pid::from_raw(pid)?;
    loop {
        match rustix::process::waitpid(Some(pid), rustix::process::WaitOptions::empty()) {
            Ok(Some((_, status))) => return Some(status.as_raw()),
            Err(rustix::io::Errno::INTR) => continue,
            _ => return None,
        }
    }
}

/// The bot's wait status, as the namespace's first process told it.
fn read_status(pipe: &OwnedFd) -> Option<i32> {
    let mut bytes = [0u8; 4];
    match rustix::io::read(pipe, &mut bytes) {
        Ok(4) => Some(i32::from_ne_bytes(bytes)),
        _ => None,
    }
}

/// An exit code that says how a process with wait status `raw` ended.
fn exit_code(raw: i32) -> i32 {
    if libc::WIFSIGNALED(raw) {
        128 + libc::WTERMSIG(raw)
    } else {
        libc::WEXITSTATUS(raw)
    }
}

/// Confines this process as far as the system allows and says what it could not do (the
/// launcher's `--probe`).
pub fn probe(spec: &Spec) -> Vec<String> {
    let spec = Spec {
        mode: Mode::BestEffort,
        ..spec.clone()
    };
    let mut missing = match enter(&spec) {
        Ok(entered) => entered.missing,
        Err(err) => return vec![err],
    };
    match confine(&spec) {
        Ok(more) => missing.extend(more),
        Err(err) => missing.push(err),
    }
    missing
}

/// The first process's part, inherited by the bot: limits, a session of its own (no
/// terminal), Landlock and seccomp, strictly or as far as the system allows; returns what
/// was left out.
fn confine(spec: &Spec) -> Result<Vec<String>, String> {
    let mut missing = Missing::new(spec.mode);
    limits(spec).map_err(|err| format!("resource limits: {err}"))?;
    // A new session has no controlling terminal: `/dev/tty` opens nothing.
    rustix::process::setsid().map_err(|err| format!("a session of its own: {err}"))?;
    if let Some(partly) = landlock(spec)? {
        missing.lacks(partly)?;
    }
    if let Err(err) = super::seccomp::apply() {
        missing.lacks(format!("seccomp ({err})"))?;
    }
    Ok(missing.left_out)
}

/// New user, network, mount and PID namespaces: the bot sees no network interface but a
/// loopback that is down, its mounts are its own, and the PID namespace's first process
/// (the launcher's) ends every process in it when it ends. Its user and group stay what
/// they were.
fn namespaces() -> std::io::Result<()> {
    use rustix::thread::UnshareFlags;
    let (uid, gid) = (rustix::process::getuid(), rustix::process::getgid());
    let flags = UnshareFlags::NEWUSER | UnshareFlags::NEWNET | UnshareFlags::NEWNS | UnshareFlags::NEWPID;
    #[allow(unsafe_code)]
    // SAFETY: `unshare_unsafe` is unsafe only for `CLONE_FILES`, which would split the
    // descriptor table under other threads; these flags do not touch it, and the launcher
    // has no other thread.
    unsafe {
        rustix::thread::unshare_unsafe(flags)?;
    }
    std::fs::write("/proc/self/setgroups", "deny")?;
    std::fs::write("/proc/self/uid_map", format!("{0} {0} 1", uid.as_raw()))?;
    std::fs::write("/proc/self/gid_map", format!("{0} {0} 1", gid.as_raw()))?;
    Ok(())
}

/// The scratch folder as a tmpfs of `disk_bytes`, seen in this mount namespace alone (its
/// mounts made private first, so nothing reaches the host's); it goes when the namespace
/// does.
fn scratch_tmpfs(spec: &Spec) -> std::io::Result<()> {
    use rustix::mount::{mount, mount_change, MountFlags, MountPropagationFlags};
    mount_change("/", MountPropagationFlags::PRIVATE | MountPropagationFlags::REC)?;
    let options = std::ffi::CString::new(format!("size={},mode=0700", spec.limits.disk_bytes))?;
    mount(
        "tetrad-scratch",
        &spec.scratch,
        "tmpfs",
        MountFlags::NOSUID | MountFlags::NODEV,
        Some(options.as_c_str()),
    )?;
    Ok(())
}

/// Sets `resource`'s soft and hard limits.
fn rlimit(resource: rustix::process::Resource, current: u64, maximum: u64) -> rustix::io::Result<()> {
    rustix::process::setrlimit(
        resource,
        rustix::process::Rlimit {
            current: Some(current),
            maximum: Some(maximum),
        },
    )
}

/// Memory, CPU time, processes, open files, file size; no core files.
fn limits(spec: &Spec) -> std::io::Result<()> {
    use rustix::process::Resource;
    let limit = rlimit;
    let limits = &spec.limits;
    limit(Resource::As, limits.memory_bytes, limits.memory_bytes)?;
    // Past the soft limit comes SIGXCPU, a second later SIGKILL.
    limit(Resource::Cpu, limits.cpu_seconds, limits.cpu_seconds + 1)?;
    limit(Resource::Nproc, limits.processes, limits.processes)?;
    limit(Resource::Nofile, limits.open_files, limits.open_files)?;
    limit(Resource::Fsize, limits.file_bytes, limits.file_bytes)?;
    limit(Resource::Core, 0, 0)?;
    Ok(())
}

/// Landlock: reading (and running) only `spec.read`, writing only the scratch folder, the
/// files of `spec.write` and a few devices, no TCP, no signal to a process outside the sandbox and no abstract socket
/// outside it. `Some` names what the kernel could not enforce, under best effort.
fn landlock(spec: &Spec) -> Result<Option<String>, String> {
    use landlock::{
        path_beneath_rules, Access, AccessFs, AccessNet, CompatLevel, Compatible, Ruleset, RulesetAttr,
        RulesetCreatedAttr, RulesetStatus, Scope, ABI,
    };
    // ABI 6 (Linux 6.12) has every restriction used here: files, TCP, scopes.
    let abi = ABI::V6;
    let level = match spec.mode {
        Mode::Strict => CompatLevel::HardRequirement,
        Mode::BestEffort => CompatLevel::BestEffort,
    };
    let existing = |paths: &[std::path::PathBuf]| -> Vec<std::path::PathBuf> {
        paths.iter().filter(|p| p.exists()).cloned().collect()
    };
    let devices: Vec<std::path::PathBuf> = DEVICES.iter().map(std::path::PathBuf::from).collect();
    let status = Ruleset::default()
        .set_compatibility(level)
        .handle_access(AccessFs::from_all(abi))
        .and_then(|r| r.handle_access(AccessNet::from_all(abi)))
        .and_then(|r| r.scope(Scope::from_all(abi)))
        .and_then(|r| r.create())
        .and_then(|r| r.add_rules(path_beneath_rules(existing(&spec.read), AccessFs::from_read(abi))))
        .and_then(|r| r.add_rules(path_beneath_rules([&spec.scratch], AccessFs::from_all(abi))))
        .and_then(|r| r.add_rules(path_beneath_rules(existing(&spec.write), AccessFs::from_file(abi))))
        .and_then(|r| r.add_rules(path_beneath_rules(existing(&devices), AccessFs::from_file(abi))))
        .and_then(|r| r.restrict_self())
        .map_err(|err| format!("Landlock: {err}"))?;
    Ok(match status.ruleset {
        RulesetStatus::FullyEnforced => None,
        RulesetStatus::PartiallyEnforced => Some("part of Landlock (an older kernel ABI)".to_string()),
        RulesetStatus::NotEnforced => Some("Landlock".to_string()),
    })
}

/// Ends the launcher as the bot ended (its wait status `raw`): with its exit code, or by
/// its signal.
fn relay(raw: Option<i32>) -> ExitCode {
    let Some(raw) = raw else {
        return ExitCode::from(CONFINE_FAILED);
    };
    if libc::WIFSIGNALED(raw) {
        let signal = libc::WTERMSIG(raw);
        if let Some(signal) = rustix::process::Signal::from_named_raw(signal) {
            let _ = rustix::process::kill_process(rustix::process::getpid(), signal);
        }
        return ExitCode::from(128 + (signal as u8 & 0x7f));
    }
    ExitCode::from(libc::WEXITSTATUS(raw) as u8)
}

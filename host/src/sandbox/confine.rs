//! The launcher's side of the sandbox (`tetrad sandbox`): it confines itself (a pids cgroup
//! where one is needed, new user, network and PID namespaces, resource limits, Landlock,
//! seccomp), then starts the bot, which inherits all of it and becomes the first process
//! of the new PID namespace, so that everything it starts ends when it ends; the launcher
//! waits for it and ends as it ended.
//!
//! The launcher runs on one thread, as the `tetrad` binary started for nothing else.

use super::{cgroup, Mode, Spec, DEVICES};
use std::ffi::OsString;
use std::process::{Command, ExitCode};

/// The exit code of a launcher that could not confine the bot (under `--sandbox`, which
/// refuses what it cannot do).
pub const CONFINE_FAILED: u8 = 125;

/// System calls that end the bot on the spot (seccomp kills it with SIGSYS): tracing and
/// reading other processes, mounting, modules, rebooting, changing its user or
/// capabilities, new namespaces, raw kernel interfaces, the clock, and sockets of any
/// family (pipes and `socketpair` stay allowed).
#[cfg(target_arch = "x86_64")]
pub const FORBIDDEN: &[(&str, libc::c_long)] = &[
    ("ptrace", libc::SYS_ptrace),
    ("process_vm_readv", libc::SYS_process_vm_readv),
    ("process_vm_writev", libc::SYS_process_vm_writev),
    ("pidfd_getfd", libc::SYS_pidfd_getfd),
    ("kcmp", libc::SYS_kcmp),
    ("mount", libc::SYS_mount),
    ("umount2", libc::SYS_umount2),
    ("pivot_root", libc::SYS_pivot_root),
    ("chroot", libc::SYS_chroot),
    ("fsopen", libc::SYS_fsopen),
    ("fsmount", libc::SYS_fsmount),
    ("move_mount", libc::SYS_move_mount),
    ("open_tree", libc::SYS_open_tree),
    ("init_module", libc::SYS_init_module),
    ("finit_module", libc::SYS_finit_module),
    ("delete_module", libc::SYS_delete_module),
    ("kexec_load", libc::SYS_kexec_load),
    ("kexec_file_load", libc::SYS_kexec_file_load),
    ("reboot", libc::SYS_reboot),
    ("swapon", libc::SYS_swapon),
    ("swapoff", libc::SYS_swapoff),
    ("setuid", libc::SYS_setuid),
    ("setgid", libc::SYS_setgid),
    ("setreuid", libc::SYS_setreuid),
    ("setregid", libc::SYS_setregid),
    ("setresuid", libc::SYS_setresuid),
    ("setresgid", libc::SYS_setresgid),
    ("setgroups", libc::SYS_setgroups),
    ("setfsuid", libc::SYS_setfsuid),
    ("setfsgid", libc::SYS_setfsgid),
    ("capset", libc::SYS_capset),
    ("unshare", libc::SYS_unshare),
    ("setns", libc::SYS_setns),
    ("bpf", libc::SYS_bpf),
    ("perf_event_open", libc::SYS_perf_event_open),
    ("userfaultfd", libc::SYS_userfaultfd),
    ("keyctl", libc::SYS_keyctl),
    ("add_key", libc::SYS_add_key),
    ("request_key", libc::SYS_request_key),
    ("acct", libc::SYS_acct),
    ("quotactl", libc::SYS_quotactl),
    ("syslog", libc::SYS_syslog),
    ("iopl", libc::SYS_iopl),
    ("ioperm", libc::SYS_ioperm),
    ("settimeofday", libc::SYS_settimeofday),
    ("clock_settime", libc::SYS_clock_settime),
    ("clock_adjtime", libc::SYS_clock_adjtime),
    ("adjtimex", libc::SYS_adjtimex),
    ("open_by_handle_at", libc::SYS_open_by_handle_at),
    ("name_to_handle_at", libc::SYS_name_to_handle_at),
    ("fanotify_init", libc::SYS_fanotify_init),
    ("socket", libc::SYS_socket),
];

/// Elsewhere the list is not written yet: `--sandbox` says seccomp is missing.
#[cfg(not(target_arch = "x86_64"))]
pub const FORBIDDEN: &[(&str, libc::c_long)] = &[];

/// Confines this process as `spec` says and runs `program` inside; ends as it ended.
/// Under [`Mode::Strict`], a piece that cannot be applied ends the launcher with
/// [`CONFINE_FAILED`] before the bot starts, the reason on stderr (the bot's log).
pub fn launch(spec: &Spec, program: &OsString, args: &[OsString]) -> ExitCode {
    let missing = match confine(spec) {
        Ok(missing) => missing,
        Err(err) => {
            eprintln!("--- sandbox: {err}");
            return ExitCode::from(CONFINE_FAILED);
        }
    };
    if !missing.is_empty() {
        eprintln!("--- sandbox: running without {}", missing.join(", "));
    }
    let mut command = Command::new(program);
    command.args(args);
    crate::process::follow_parent(&mut command);
    let status = match command.status() {
        Ok(status) => status,
        Err(err) => {
            eprintln!("--- sandbox: cannot start `{}`: {err}", program.to_string_lossy());
            return ExitCode::from(CONFINE_FAILED);
        }
    };
    relay(status)
}

/// Confines this process as far as the system allows and says what it could not do (the
/// launcher's `--probe`).
pub fn probe(spec: &Spec) -> Vec<String> {
    let spec = Spec {
        mode: Mode::BestEffort,
        ..spec.clone()
    };
    confine(&spec).unwrap_or_else(|err| vec![err])
}

/// Applies every piece of `spec`, strictly or as far as the system allows; returns what
/// was left out.
fn confine(spec: &Spec) -> Result<Vec<String>, String> {
    let strict = spec.mode == Mode::Strict;
    let mut missing = Vec::new();
    let mut lacks = |what: String| -> Result<(), String> {
        if strict {
            Err(what)
        } else {
            missing.push(what);
            Ok(())
        }
    };
    // Joined first: once in its own user namespace, the process may no longer write there.
    if let Some(dir) = &spec.cgroup {
        if let Err(err) = cgroup::join(dir, spec.limits.processes) {
            lacks(format!("a pids cgroup ({}: {err})", dir.display()))?;
        }
    }
    if let Err(err) = namespaces() {
        lacks(format!("user namespaces ({err})"))?;
    }
    limits(spec).map_err(|err| format!("resource limits: {err}"))?;
    if spec.cgroup.is_none() && rustix::process::geteuid().is_root() {
        // Root is never held to RLIMIT_NPROC: without a pids cgroup nothing bounds a fork bomb.
        lacks("a process limit (root needs a pids cgroup)".to_string())?;
    }
    if let Some(partly) = landlock(spec)? {
        lacks(partly)?;
    }
    if let Err(err) = seccomp() {
        lacks(format!("seccomp ({err})"))?;
    }
    Ok(missing)
}

/// New user, network and PID namespaces: the bot sees no network interface but a loopback
/// that is down, and its first process is the PID namespace's first, so the kernel ends
/// every process in it when that one ends. Its user and group stay what they were.
fn namespaces() -> std::io::Result<()> {
    use rustix::thread::UnshareFlags;
    let (uid, gid) = (rustix::process::getuid(), rustix::process::getgid());
    let flags = UnshareFlags::NEWUSER | UnshareFlags::NEWNET | UnshareFlags::NEWPID;
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

/// Memory, CPU time, processes, open files, file size; no core files.
fn limits(spec: &Spec) -> std::io::Result<()> {
    use rustix::process::{setrlimit, Resource, Rlimit};
    let limit = |resource, current: u64, maximum: u64| {
        setrlimit(
            resource,
            Rlimit {
                current: Some(current),
                maximum: Some(maximum),
            },
        )
    };
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

/// Landlock: reading (and running) only `spec.read`, writing only the scratch folder and a
/// few devices, no TCP, no signal to a process outside the sandbox and no abstract socket
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
        .and_then(|r| r.add_rules(path_beneath_rules(existing(&devices), AccessFs::from_file(abi))))
        .and_then(|r| r.restrict_self())
        .map_err(|err| format!("Landlock: {err}"))?;
    Ok(match status.ruleset {
        RulesetStatus::FullyEnforced => None,
        RulesetStatus::PartiallyEnforced => Some("part of Landlock (an older kernel ABI)".to_string()),
        RulesetStatus::NotEnforced => Some("Landlock".to_string()),
    })
}

/// seccomp: each of [`FORBIDDEN`] kills the process that makes it.
fn seccomp() -> Result<(), String> {
    use seccompiler::{BpfProgram, SeccompAction, SeccompFilter, TargetArch};
    if FORBIDDEN.is_empty() {
        return Err("no list of forbidden system calls for this processor".to_string());
    }
    let arch = TargetArch::try_from(std::env::consts::ARCH).map_err(|err| err.to_string())?;
    let rules = FORBIDDEN.iter().map(|&(_, number)| (number, Vec::new())).collect();
    let filter = SeccompFilter::new(rules, SeccompAction::Allow, SeccompAction::KillProcess, arch)
        .map_err(|err| err.to_string())?;
    let program = BpfProgram::try_from(filter).map_err(|err| err.to_string())?;
    seccompiler::apply_filter(&program).map_err(|err| err.to_string())
}

/// Ends the launcher as the bot ended: with its exit code, or by its signal.
fn relay(status: std::process::ExitStatus) -> ExitCode {
    use std::os::unix::process::ExitStatusExt;
    if let Some(signal) = status.signal() {
        if let Some(signal) = rustix::process::Signal::from_named_raw(signal) {
            let _ = rustix::process::kill_process(rustix::process::getpid(), signal);
        }
        return ExitCode::from(128 + (status.signal().unwrap_or(0) as u8 & 0x7f));
    }
    ExitCode::from(status.code().unwrap_or(1) as u8)
}

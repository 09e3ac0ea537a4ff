//! The sandbox's system-call policy (seccomp): the calls that end a bot on the spot, those
//! answered as if the kernel had none, and the terminal's `ioctl`s refused, as filters the
//! namespace's first process applies to itself before it starts the bot.

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

/// System calls answered "not implemented" (`ENOSYS`), as on a kernel without them, so a
/// program falls back: `clone3` (whose flags sit in memory, out of seccomp's sight; C
/// libraries then use `clone`, whose flags the filter reads) and io_uring (whose work, a
/// socket among it, the kernel does out of seccomp's sight).
#[cfg(target_arch = "x86_64")]
pub const ABSENT: &[(&str, libc::c_long)] = &[
    ("clone3", libc::SYS_clone3),
    ("io_uring_setup", libc::SYS_io_uring_setup),
    ("io_uring_enter", libc::SYS_io_uring_enter),
    ("io_uring_register", libc::SYS_io_uring_register),
];

/// Elsewhere the list is not written yet.
#[cfg(not(target_arch = "x86_64"))]
pub const ABSENT: &[(&str, libc::c_long)] = &[];

/// `clone` flags that make new namespaces: a `clone` with any of them ends the bot, as
/// `unshare` does (a new user namespace would give it the kernel's netlink and nf_tables,
/// the usual ground of privilege escalations).
pub const NAMESPACE_FLAGS: &[(&str, libc::c_int)] = &[
    ("CLONE_NEWUSER", libc::CLONE_NEWUSER),
    ("CLONE_NEWNET", libc::CLONE_NEWNET),
    ("CLONE_NEWNS", libc::CLONE_NEWNS),
    ("CLONE_NEWPID", libc::CLONE_NEWPID),
    ("CLONE_NEWIPC", libc::CLONE_NEWIPC),
    ("CLONE_NEWUTS", libc::CLONE_NEWUTS),
    ("CLONE_NEWCGROUP", libc::CLONE_NEWCGROUP),
];

/// `ioctl` requests refused ("operation not permitted") on any descriptor: pushing input
/// into a terminal (`TIOCSTI`, which the user's shell would read as typed) and the Linux
/// console's (`TIOCLINUX`, which can do the same through its selection).
pub const TERMINAL_REQUESTS: &[(&str, libc::c_ulong)] = &[("TIOCSTI", libc::TIOCSTI), ("TIOCLINUX", 0x541C)];

/// Applies the policy to this process and all it starts, as three filters (the kernel
/// applies the strictest answer): each of
/// [`FORBIDDEN`], and `clone` with any of [`NAMESPACE_FLAGS`], kills the process that makes
/// it; each of [`ABSENT`] answers `ENOSYS` and each of [`TERMINAL_REQUESTS`] `EPERM`.
pub(super) fn apply() -> Result<(), String> {
    use seccompiler::{
        BpfProgram, SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition, SeccompFilter, SeccompRule,
        TargetArch,
    };
    use std::collections::BTreeMap;
    if FORBIDDEN.is_empty() {
        return Err("no list of forbidden system calls for this processor".to_string());
    }
    let text = |err: &dyn std::fmt::Display| err.to_string();
    let arch = TargetArch::try_from(std::env::consts::ARCH).map_err(|err| text(&err))?;
    let masked = |arg: u8, len: SeccompCmpArgLen, mask: u64| {
        SeccompCondition::new(arg, len, SeccompCmpOp::MaskedEq(mask), mask).and_then(|c| SeccompRule::new(vec![c]))
    };
    let equal = |arg: u8, value: u64| {
        SeccompCondition::new(arg, SeccompCmpArgLen::Dword, SeccompCmpOp::Eq, value)
            .and_then(|c| SeccompRule::new(vec![c]))
    };
    let mut kills: BTreeMap<i64, Vec<SeccompRule>> =
        FORBIDDEN.iter().map(|&(_, number)| (number, Vec::new())).collect();
    let clone_rules = NAMESPACE_FLAGS
        .iter()
        .map(|&(_, flag)| masked(0, SeccompCmpArgLen::Qword, flag as u64))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|err| text(&err))?;
    kills.insert(libc::SYS_clone, clone_rules);
    let absent: BTreeMap<i64, Vec<SeccompRule>> = ABSENT.iter().map(|&(_, number)| (number, Vec::new())).collect();
    let mut refused: BTreeMap<i64, Vec<SeccompRule>> = BTreeMap::new();
    let ioctl_rules = TERMINAL_REQUESTS
        .iter()
        .map(|&(_, request)| equal(1, request))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|err| text(&err))?;
    refused.insert(libc::SYS_ioctl, ioctl_rules);
    let filters = [
        (kills, SeccompAction::KillProcess),
        (absent, SeccompAction::Errno(libc::ENOSYS as u32)),
        (refused, SeccompAction::Errno(libc::EPERM as u32)),
    ];
    for (rules, action) in filters {
        let filter = SeccompFilter::new(rules, SeccompAction::Allow, action, arch).map_err(|err| text(&err))?;
        let program = BpfProgram::try_from(filter).map_err(|err| text(&err))?;
        seccompiler::apply_filter(&program).map_err(|err| text(&err))?;
    }
    Ok(())
}

//! The probe's side of `tetrad sandbox --check`: one kind of escape tried from inside the
//! sandbox, and one line on stdout saying how it went (`held ...` or `open ...`). These are
//! deliberate system calls a hostile bot would make, so several go through `libc` directly.
#![allow(unsafe_code)]

use std::io::Write;
use std::os::fd::OwnedFd;
use std::path::Path;
use std::process::ExitCode;
use std::time::Duration;

/// One check: what it tries and the kernel feature that stops it.
pub struct Check {
    /// Its line's name.
    pub name: &'static str,
    /// The probe's kind of escape (`sandbox --escape KIND`).
    pub kind: &'static str,
    /// What stops it.
    pub feature: &'static str,
    /// Whether the probe killed on the way (by a limit, not by seccomp) means it held.
    pub killed_holds: bool,
}

const fn check(name: &'static str, kind: &'static str, feature: &'static str) -> Check {
    Check {
        name,
        kind,
        feature,
        killed_holds: false,
    }
}

/// Every check, in the order they run.
pub const CHECKS: &[Check] = &[
    check("read a file outside", "read", "Landlock"),
    check("read through a link", "read", "read rules resolved, never /"),
    check("write outside", "write", "Landlock"),
    check("connect over TCP", "tcp", "network namespace, seccomp"),
    check("connect a Unix socket", "unix", "seccomp (socket)"),
    check("io_uring", "io-uring", "seccomp (ENOSYS)"),
    check("clone a user namespace", "clone-userns", "seccomp (clone's flags)"),
    check("clone3", "clone3", "seccomp (ENOSYS)"),
    check("unshare", "unshare", "seccomp"),
    check("ptrace", "ptrace", "seccomp"),
    check("signal tetrad", "signal", "PID namespace, Landlock scopes"),
    check("open the terminal", "tty", "a session of its own, Landlock"),
    check("push keys (TIOCSTI)", "tiocsti", "seccomp (ioctl)"),
    check("an inherited descriptor", "descriptor", "descriptors closed at start"),
    check("tetrad's environment", "environment", "an environment cleared"),
    check("the loader's variables", "loader", "LD_* and GLIBC_TUNABLES refused"),
    Check {
        killed_holds: true,
        ..check("a fork bomb", "fork", "pids cgroup or RLIMIT_NPROC")
    },
    check("memory mapped", "map", "RLIMIT_AS (--max-memory)"),
    Check {
        killed_holds: true,
        ..check("memory in files", "memfd", "memory cgroup (--max-memory)")
    },
    check("disk", "disk", "tmpfs of --max-disk"),
    check("a tree no cleanup removes", "nest", "removal by descriptors"),
    check("a daemon outlives its game", "daemon", "PID namespace, launcher's init"),
    check("a bot outlives tetrad", "outlive", "launcher's init dies with it"),
];

/// Host side: `file` opened at descriptor 9 or above without close-on-exec, as a shell's
/// redirection leaves one; its number.
pub fn descriptor_nine(file: &Path) -> std::io::Result<OwnedFd> {
    let opened = std::fs::File::create(file)?;
    let fd = rustix::io::fcntl_dupfd_cloexec(&opened, 9)?;
    rustix::io::fcntl_setfd(&fd, rustix::io::FdFlags::empty())?;
    Ok(fd)
}

/// Host side: IDs of the running processes whose command line holds `mark`.
pub fn processes_with(mark: &str) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter_map(|entry| {
            let pid = entry.file_name().to_str()?.to_string();
            pid.parse::<u32>().ok()?;
            let cmdline = std::fs::read(entry.path().join("cmdline")).ok()?;
            let stat = std::fs::read_to_string(entry.path().join("stat")).ok()?;
            let zombie = stat
                .rsplit(')')
                .next()
                .is_some_and(|rest| rest.trim_start().starts_with('Z'));
            (!zombie && String::from_utf8_lossy(&cmdline).contains(mark)).then_some(pid)
        })
        .collect()
}

/// The probe: tries `args[0]` (with `args[1]`) and prints how it went.
pub fn attempt(args: &[String]) -> ExitCode {
    let kind = args[0].as_str();
    let target = args.get(1).map(String::as_str).unwrap_or("-");
    let said = match kind {
        "linger" => {
            std::thread::sleep(Duration::from_secs(30));
            return ExitCode::SUCCESS;
        }
        "read" => outcome(std::fs::read_to_string(target).map(|text| format!("read `{}`", text.trim()))),
        "write" => outcome(std::fs::write(target, "was here").map(|()| "wrote".to_string())),
        "tcp" => outcome(
            std::net::TcpStream::connect(("127.0.0.1", target.parse().unwrap_or(1))).map(|_| "connected".to_string()),
        ),
        "unix" => outcome(std::os::unix::net::UnixStream::connect(target).map(|_| "connected".to_string())),
        "io-uring" => {
            let mut params = [0u8; 120];
            // SAFETY: io_uring_setup reads and writes the 120-byte parameter block given.
            let fd = unsafe { libc::syscall(libc::SYS_io_uring_setup, 1u32, params.as_mut_ptr()) };
            answer(fd, "made a ring")
        }
        "clone-userns" => {
            let flags = (libc::CLONE_NEWUSER | libc::CLONE_NEWNET | libc::SIGCHLD) as libc::c_ulong;
            // SAFETY: clone without CLONE_VM and without a stack gives the child a copy of
            // this process, like fork; the child ends at once with `_exit`.
            let pid = unsafe { libc::syscall(libc::SYS_clone, flags, 0usize, 0usize, 0usize, 0usize) };
            child_or(pid, "a child in new user and network namespaces")
        }
        "clone3" => {
            let mut args = [0u64; 11];
            args[0] = libc::CLONE_NEWUSER as u64;
            args[4] = libc::SIGCHLD as u64;
            // SAFETY: clone3 reads the 88-byte argument block given; without CLONE_VM and a
            // stack the child is a copy of this process, and ends at once with `_exit`.
            let pid = unsafe { libc::syscall(libc::SYS_clone3, args.as_mut_ptr(), 88usize) };
            child_or(pid, "a child in a new user namespace")
        }
        "unshare" => {
            // SAFETY: unshare takes flags; CLONE_NEWUSER leaves the descriptor table alone.
            answer(
                unsafe { libc::unshare(libc::CLONE_NEWUSER) } as libc::c_long,
                "a new user namespace",
            )
        }
        "ptrace" => {
            // SAFETY: PTRACE_SEIZE of the parent takes no pointers.
            let result = unsafe { libc::ptrace(libc::PTRACE_SEIZE, libc::getppid(), 0usize, 0usize) };
            answer(result, "seized its parent")
        }
        "signal" => {
            // SAFETY: kill takes plain integers; SIGWINCH is ignored by a process without a handler.
            let result = unsafe { libc::kill(target.parse().unwrap_or(1), libc::SIGWINCH) };
            answer(result as libc::c_long, "signalled tetrad")
        }
        "tty" => outcome(
            std::fs::OpenOptions::new()
                .read(true)
                .write(true)
                .open("/dev/tty")
                .map(|_| "opened /dev/tty".to_string()),
        ),
        "tiocsti" => {
            let key = b'x';
            // SAFETY: TIOCSTI reads the one byte pointed to.
            let result = unsafe { libc::ioctl(0, libc::TIOCSTI, &key) };
            match (result, std::io::Error::last_os_error().raw_os_error()) {
                (_, Some(libc::EPERM)) if result < 0 => "held refused: operation not permitted".to_string(),
                (r, _) if r >= 0 => "open pushed a key".to_string(),
                (_, _) => format!("open not refused ({})", std::io::Error::last_os_error()),
            }
        }
        "descriptor" => {
            // SAFETY: write to a descriptor number that may not be open: EBADF if it is not.
            let written = unsafe { libc::write(target.parse().unwrap_or(9), b"x".as_ptr().cast(), 1) };
            answer(written as libc::c_long, "wrote to it")
        }
        "environment" => {
            let leaked: Vec<String> = std::env::vars_os()
                .filter_map(|(name, _)| name.into_string().ok())
                .filter(|name| {
                    !(super::super::ALLOWED_VARIABLES.contains(&name.as_str())
                        || name.starts_with("LC_")
                        || ["HOME", "TMPDIR", crate::process::tree::TREE_VARIABLE].contains(&name.as_str()))
                })
                .collect();
            match leaked.is_empty() {
                true => "held only the allow-list".to_string(),
                false => format!("open sees {}", leaked.join(", ")),
            }
        }
        "loader" => match std::env::var_os("LD_PRELOAD") {
            Some(_) => "open LD_PRELOAD reached the bot".to_string(),
            None => "held no LD_PRELOAD".to_string(),
        },
        "fork" => fork_bomb(),
        "map" => {
            let mut limit = libc::rlimit {
                rlim_cur: 0,
                rlim_max: 0,
            };
            // SAFETY: getrlimit writes the struct given.
            unsafe { libc::getrlimit(libc::RLIMIT_AS, &mut limit) };
            let size = (limit.rlim_cur as usize).saturating_mul(2).min(64 << 30);
            match memmap2::MmapMut::map_anon(size) {
                Ok(_) => format!("open mapped {} MiB", size >> 20),
                Err(err) => format!("held refused {} MiB: {err}", size >> 20),
            }
        }
        "memfd" => memory_in_files(),
        "disk" => disk(),
        "nest" => nest(target.parse().unwrap_or(3_000)),
        "daemon" | "outlive" => {
            let started = daemon(target);
            if kind == "outlive" {
                println!("held {started}");
                let _ = std::io::stdout().flush();
                std::thread::sleep(Duration::from_secs(30));
                return ExitCode::SUCCESS;
            }
            format!("held {started}")
        }
        other => format!("open no such check `{other}`"),
    };
    println!("{said}");
    let _ = std::io::stdout().flush();
    ExitCode::SUCCESS
}

/// `held` with the error, or `open` with what was done.
fn outcome(result: std::io::Result<String>) -> String {
    match result {
        Ok(done) => format!("open {done}"),
        Err(err) => format!("held refused: {err}"),
    }
}

/// A system call's result: `open` (it worked) or `held` with its error.
fn answer(result: libc::c_long, done: &str) -> String {
    match result {
        r if r >= 0 => format!("open {done}"),
        _ => format!("held refused: {}", std::io::Error::last_os_error()),
    }
}

/// A clone's result, from both sides: the child ends at once.
fn child_or(pid: libc::c_long, done: &str) -> String {
    if pid == 0 {
        // SAFETY: the child of a fork-like clone leaves at once, running nothing.
        unsafe { libc::_exit(0) };
    }
    answer(pid, done)
}

/// Starts up to 200 processes that wait; how many it could.
fn fork_bomb() -> String {
    let mut started = 0;
    for _ in 0..200 {
        // SAFETY: the probe has one thread; the child only sleeps and exits.
        match unsafe { libc::fork() } {
            0 => {
                std::thread::sleep(Duration::from_secs(30));
                // SAFETY: leaves at once.
                unsafe { libc::_exit(0) };
            }
            -1 => break,
            _ => started += 1,
        }
    }
    match started {
        200 => "open started 200 processes".to_string(),
        n => format!("held started {n}, then {}", std::io::Error::last_os_error()),
    }
}

/// Fills `memfd`s, each under the file-size limit, up to 512 MiB (twice the check's memory
/// limit).
fn memory_in_files() -> String {
    let chunk = vec![7u8; 1 << 20];
    let mut written = 0usize;
    let mut files = Vec::new();
    'outer: for _ in 0..16 {
        let Ok(fd) = rustix::fs::memfd_create("probe", rustix::fs::MemfdFlags::CLOEXEC) else {
            return format!("held no memfd ({})", std::io::Error::last_os_error());
        };
        let mut file = std::fs::File::from(fd);
        for _ in 0..32 {
            if let Err(err) = file.write_all(&chunk) {
                let _ = err;
                if written >= 512 << 20 {
                    break 'outer;
                }
                break;
            }
            written += chunk.len();
        }
        files.push(file);
        if written >= 512 << 20 {
            break;
        }
    }
    match written >= 512 << 20 {
        true => format!("open held {} MiB in memfds", written >> 20),
        false => format!("held stopped at {} MiB", written >> 20),
    }
}

/// Writes files of 16 MiB to the scratch folder, up to 256 MiB in all.
fn disk() -> String {
    let dir = std::env::var_os("TMPDIR").unwrap_or_default();
    let chunk = vec![7u8; 1 << 20];
    let mut written = 0usize;
    for n in 0..16 {
        let Ok(mut file) = std::fs::File::create(Path::new(&dir).join(format!("fill-{n}"))) else {
            break;
        };
        for _ in 0..16 {
            if let Err(err) = file.write_all(&chunk) {
                return format!("held stopped at {} MiB: {err}", written >> 20);
            }
            written += chunk.len();
        }
    }
    format!("open wrote {} MiB", written >> 20)
}

/// `depth` folders one inside another (deeper than any path can name) and a folder with no
/// permissions, in the scratch folder.
fn nest(depth: usize) -> String {
    use rustix::fs::{Mode, OFlags};
    let dir = std::env::var_os("TMPDIR").unwrap_or_default();
    let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC;
    let Ok(mut at) = rustix::fs::open(Path::new(&dir), flags, Mode::empty()) else {
        return "open no scratch folder".to_string();
    };
    let mut made = 0;
    for _ in 0..depth {
        if rustix::fs::mkdirat(&at, "d", Mode::RWXU).is_err() {
            break;
        }
        match rustix::fs::openat(&at, "d", flags, Mode::empty()) {
            Ok(below) => at = below,
            Err(_) => break,
        }
        made += 1;
    }
    let locked = Path::new(&dir).join("locked");
    let _ = std::fs::create_dir_all(locked.join("inner"));
    let _ = rustix::fs::chmod(&locked, Mode::empty());
    format!("held made {made} nested folders and one it locked")
}

/// A grandchild in a session of its own that clears its parent-death signal and runs
/// `tetrad sandbox --escape linger MARK`; the child between them ends.
fn daemon(mark: &str) -> String {
    let exe = std::env::current_exe().unwrap_or_default();
    // SAFETY: the probe has one thread; the child makes system calls and execs or exits.
    match unsafe { libc::fork() } {
        0 => {
            // SAFETY: plain system calls in the child of a one-threaded process.
            unsafe {
                libc::setsid();
                libc::prctl(libc::PR_SET_PDEATHSIG, 0);
                if libc::fork() == 0 {
                    libc::prctl(libc::PR_SET_PDEATHSIG, 0);
                    let error = std::process::Command::new(&exe)
                        .args(["sandbox", "--escape", "linger", mark])
                        .env_clear()
                        .exec_in_place();
                    let _ = error;
                    libc::_exit(1);
                }
                libc::_exit(0);
            }
        }
        -1 => format!("no fork ({})", std::io::Error::last_os_error()),
        child => {
            let mut status = 0;
            // SAFETY: waits for the child just made.
            unsafe { libc::waitpid(child, &mut status, 0) };
            std::thread::sleep(Duration::from_millis(100));
            "started a daemon in a session of its own".to_string()
        }
    }
}

/// `exec` of a command in this process.
trait ExecInPlace {
    fn exec_in_place(&mut self) -> std::io::Error;
}

impl ExecInPlace for std::process::Command {
    fn exec_in_place(&mut self) -> std::io::Error {
        std::os::unix::process::CommandExt::exec(self)
    }
}

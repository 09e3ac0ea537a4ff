//! A child's whole tree ended with it, with or without the sandbox. tetrad is a subreaper
//! (on Linux): a process whose parent ends is handed to tetrad rather than to the system's
//! first process, so a grandchild that left its group with `setsid` is still tetrad's to
//! end. Each child is started with a mark in its environment ([`TREE_VARIABLE`]), which its
//! descendants inherit; when the child has ended, every process handed to tetrad that
//! carries its mark is killed, round after round until none is left. A descendant that
//! also cleared its environment is ended when the run ends ([`end_all`]). (Under
//! `--sandbox` a PID namespace whose first process is the launcher's holds the tree
//! whatever it does.)

use rustix::process::{Pid, Signal};
use std::sync::atomic::{AtomicU64, Ordering};

/// The environment variable that marks a child's tree.
pub const TREE_VARIABLE: &str = "TETRAD_TREE";

/// How many rounds of killing a tree may take: each round ends the processes handed to
/// tetrad since the last, so a tree that forks as fast as it is killed is still bounded.
const ROUNDS: usize = 64;

/// Makes this process the subreaper of everything it starts (Linux; elsewhere nothing).
pub fn become_subreaper() {
    #[cfg(any(target_os = "linux", target_os = "android"))]
    if let Err(err) = rustix::process::set_child_subreaper(Some(rustix::process::getpid())) {
        log::info!("not a subreaper ({err}): a descendant that leaves its group outlives its game");
    }
}

/// A new mark for a child's tree, unique to this process.
pub fn new_mark() -> String {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    format!("{}-{}", std::process::id(), NEXT.fetch_add(1, Ordering::Relaxed) + 1)
}

/// Kills and reaps every process handed to this one that carries `mark`, and those that
/// are handed to it as they go, until none is left.
pub fn end_marked(mark: &str) {
    let wanted = format!("{TREE_VARIABLE}={mark}");
    end_children(|pid| carries(pid, &wanted));
}

/// Kills and reaps every process this one still has as a child: at the end of a run, when
/// every child it started itself has been reaped, these are descendants handed to it.
pub fn end_all() {
    end_children(|_| true);
}

/// Kills and reaps the children `chosen` picks, round after round (each round takes those
/// handed to this process since the last), until it picks none.
fn end_children(chosen: impl Fn(Pid) -> bool) {
    for _ in 0..ROUNDS {
        let picked: Vec<Pid> = children().into_iter().filter(|&pid| chosen(pid)).collect();
        if picked.is_empty() {
            return;
        }
        for &pid in &picked {
            let _ = rustix::process::kill_process(pid, Signal::KILL);
        }
        for pid in picked {
            let _ = rustix::process::waitpid(Some(pid), rustix::process::WaitOptions::empty());
        }
    }
}

/// This process's children: those of each of its threads.
pub fn children() -> Vec<Pid> {
    let mut found = Vec::new();
    let Ok(tasks) = std::fs::read_dir("/proc/self/task") else {
        return found;
    };
    for task in tasks.flatten() {
        let Ok(text) = std::fs::read_to_string(task.path().join("children")) else {
            continue;
        };
        found.extend(
            text.split_whitespace()
                .filter_map(|pid| pid.parse().ok())
                .filter_map(Pid::from_raw),
        );
    }
    found
}

/// Whether the process `pid` has `entry` (`NAME=value`) in its environment.
fn carries(pid: Pid, entry: &str) -> bool {
    std::fs::read(format!("/proc/{}/environ", pid.as_raw_nonzero()))
        .is_ok_and(|environ| environ.split(|&byte| byte == 0).any(|item| item == entry.as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_are_unique() {
        assert_ne!(new_mark(), new_mark());
    }
}

//! Cgroups for each sandboxed process of a run as root: a pids cgroup, since the kernel
//! never holds root to `RLIMIT_NPROC` (a fork bomb of a root-run bot is bounded by
//! `pids.max` instead; a run as another user needs none, its limit counts the processes of
//! its own user namespace), and a memory cgroup, which counts memory in every form (files
//! in memory, `memfd`s, a tmpfs) where `RLIMIT_AS` counts only what is mapped. cgroup v1's
//! hierarchies are used where they are mounted, else v2's where the controllers are
//! offered.

use std::io;
use std::path::{Path, PathBuf};

/// The controllers a sandboxed process is held by, and the file of each that holds it.
const CONTROLLERS: [&str; 2] = ["pids", "memory"];

/// New cgroups named `name` beside this process's own, holding their processes to
/// `processes` and `memory_bytes`, when this process runs as root and they can be made;
/// none otherwise (the folders are returned whether one or both controllers were had).
pub(super) fn create(name: &str, processes: u64, memory_bytes: u64) -> Vec<PathBuf> {
    if !rustix::process::geteuid().is_root() {
        return Vec::new();
    }
    let mut dirs: Vec<PathBuf> = Vec::new();
    for controller in CONTROLLERS {
        let Some(parent) = own_cgroup(controller) else {
            continue;
        };
        let dir = parent.join(name);
        // In v2 one folder holds both controllers.
        let fresh = !dirs.contains(&dir);
        if fresh && std::fs::create_dir(&dir).is_err() {
            continue;
        }
        let limited = match controller {
            "pids" => std::fs::write(dir.join("pids.max"), processes.to_string()),
            _ => limit_memory(&dir, memory_bytes),
        };
        match (limited.is_ok(), fresh) {
            (true, true) => dirs.push(dir),
            (false, true) => {
                let _ = std::fs::remove_dir(&dir);
            }
            _ => {}
        }
    }
    dirs
}

/// Whether `dirs` hold a process to a memory limit (v1's `memory` hierarchy, or a v2
/// folder with `memory.max`).
pub(super) fn limits_memory(dirs: &[PathBuf]) -> bool {
    dirs.iter()
        .any(|dir| dir.join("memory.max").exists() || dir.join("memory.limit_in_bytes").exists())
}

/// Whether `dirs` hold a process to a process count.
pub(super) fn limits_processes(dirs: &[PathBuf]) -> bool {
    dirs.iter().any(|dir| dir.join("pids.max").exists())
}

/// Memory and swap of the cgroup `dir` held to `bytes` (no swap at all where it can be
/// said).
fn limit_memory(dir: &Path, bytes: u64) -> io::Result<()> {
    if dir.join("memory.max").exists() {
        std::fs::write(dir.join("memory.max"), bytes.to_string())?;
        let _ = std::fs::write(dir.join("memory.swap.max"), "0");
        return Ok(());
    }
    std::fs::write(dir.join("memory.limit_in_bytes"), bytes.to_string())?;
    // Memory and swap together no more than memory alone: where swap is accounted.
    let _ = std::fs::write(dir.join("memory.memsw.limit_in_bytes"), bytes.to_string());
    Ok(())
}

/// Removes cgroups made by [`create`], once the last of their processes is gone: any left
/// are killed where the kernel can (v2's `cgroup.kill`), and the kernel takes a moment to
/// let killed processes go.
pub(super) fn remove(dirs: &[PathBuf]) {
    for dir in dirs {
        let _ = std::fs::write(dir.join("cgroup.kill"), "1");
    }
    for dir in dirs {
        for _ in 0..200 {
            if std::fs::remove_dir(dir).is_ok() || !dir.exists() {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        if dir.exists() {
            log::warn!("sandbox: cgroup {} still busy, left in place", dir.display());
        }
    }
}

/// Removes the cgroups an earlier run left (one killed outright cannot remove its own): those
/// named `tetrad-PID-N` for a process ID no longer running.
pub(super) fn remove_stale() {
    if !rustix::process::geteuid().is_root() {
        return;
    }
    let mut stale = Vec::new();
    for controller in CONTROLLERS {
        let Some(parent) = own_cgroup(controller) else {
            continue;
        };
        let Ok(entries) = std::fs::read_dir(&parent) else {
            continue;
        };
        stale.extend(entries.flatten().map(|entry| entry.path()).filter(|dir| {
            dir.file_name()
                .and_then(|name| name.to_str())
                .is_some_and(left_by_an_ended_run)
        }));
    }
    stale.sort();
    stale.dedup();
    remove(&stale);
}

/// Whether `name` is `tetrad-PID-...` (or `tetrad-scratch-PID`) of a process that has ended.
pub(super) fn left_by_an_ended_run(name: &str) -> bool {
    let Some(rest) = name.strip_prefix("tetrad-") else {
        return false;
    };
    let rest = rest.strip_prefix("scratch-").unwrap_or(rest);
    let pid = rest.split('-').next().unwrap_or_default();
    pid.parse::<u32>()
        .is_ok_and(|pid| !Path::new(&format!("/proc/{pid}")).exists())
}

/// Moves this process into the cgroups `dirs`.
pub(super) fn join(dirs: &[PathBuf]) -> io::Result<()> {
    for dir in dirs {
        std::fs::write(dir.join("cgroup.procs"), "0")?;
    }
    Ok(())
}

/// This process's cgroup of `controller`, in the v1 hierarchy or in v2 with the controller
/// enabled for its children.
fn own_cgroup(controller: &str) -> Option<PathBuf> {
    let memberships = std::fs::read_to_string("/proc/self/cgroup").ok()?;
    let mounts = std::fs::read_to_string("/proc/self/mountinfo").ok()?;
    // v1: a line `N:pids:/path`, under the mount of the `pids` hierarchy.
    let v1_path = memberships
        .lines()
        .filter_map(|line| {
            let mut parts = line.splitn(3, ':').skip(1);
            Some((parts.next()?, parts.next()?))
        })
        .find(|(controllers, _)| controllers.split(',').any(|c| c == controller))
        .map(|(_, path)| path);
    if let (Some(path), Some(mount)) = (
        v1_path,
        mount_point(&mounts, |kind, options| {
            kind == "cgroup" && options.split(',').any(|o| o == controller)
        }),
    ) {
        return Some(mount.join(path.trim_start_matches('/')));
    }
    // v2: the line `0::/path`, under the cgroup2 mount, if the controller can be enabled
    // below it.
    let path = memberships.lines().find_map(|line| line.strip_prefix("0::"))?;
    let mount = mount_point(&mounts, |kind, _| kind == "cgroup2")?;
    let own = mount.join(path.trim_start_matches('/'));
    let offered = std::fs::read_to_string(own.join("cgroup.controllers")).ok()?;
    if !offered.split_whitespace().any(|c| c == controller) {
        return None;
    }
    let enabled = std::fs::read_to_string(own.join("cgroup.subtree_control")).ok()?;
    if !enabled.split_whitespace().any(|c| c == controller) {
        std::fs::write(own.join("cgroup.subtree_control"), format!("+{controller}")).ok()?;
    }
    Some(own)
}

/// The mount point of the first mount in `mountinfo` whose file system type and super
/// options `wanted` accepts.
fn mount_point(mountinfo: &str, wanted: impl Fn(&str, &str) -> bool) -> Option<PathBuf> {
    mountinfo.lines().find_map(|line| {
        let (mount, rest) = line.split_once(" - ")?;
        let point = mount.split(' ').nth(4)?;
        let mut after = rest.split(' ');
        let kind = after.next()?;
        let options = after.nth(1).unwrap_or("");
        wanted(kind, options).then(|| PathBuf::from(point))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_an_ended_run_left_is_told_from_a_running_ones() {
        let running = std::process::id();
        assert!(!left_by_an_ended_run(&format!("tetrad-{running}-3")));
        assert!(!left_by_an_ended_run(&format!("tetrad-scratch-{running}")));
        // Process IDs stop well below this.
        assert!(left_by_an_ended_run("tetrad-4194305-1"));
        assert!(left_by_an_ended_run("tetrad-scratch-4194305"));
        assert!(!left_by_an_ended_run("someone-else-1"));
        assert!(!left_by_an_ended_run("tetrad-check-x"));
    }

    #[test]
    fn mount_points_are_found_by_type_and_options() {
        let mountinfo = "30 25 0:26 / /sys/fs/cgroup/cpu rw,relatime shared:9 - cgroup cgroup rw,cpu\n\
                         35 25 0:31 / /sys/fs/cgroup/pids rw,relatime shared:14 - cgroup cgroup rw,pids\n\
                         37 25 0:33 / /sys/fs/cgroup/unified rw,relatime shared:16 - cgroup2 cgroup2 rw\n";
        let pids = mount_point(mountinfo, |kind, options| {
            kind == "cgroup" && options.split(',').any(|o| o == "pids")
        });
        assert_eq!(pids, Some(PathBuf::from("/sys/fs/cgroup/pids")));
        let v2 = mount_point(mountinfo, |kind, _| kind == "cgroup2");
        assert_eq!(v2, Some(PathBuf::from("/sys/fs/cgroup/unified")));
    }
}

//! A pids cgroup for each sandboxed process of a run as root. The kernel never holds root
//! to `RLIMIT_NPROC`, so a fork bomb of a root-run bot is bounded by the cgroup's
//! `pids.max` instead; a run as another user needs none (its limit counts the processes of
//! its own user namespace). cgroup v1's `pids` hierarchy is used where it is mounted, else
//! v2's where the `pids` controller is offered.

use std::io;
use std::path::{Path, PathBuf};

/// A new pids cgroup named `name` beside this process's own, when this process runs as
/// root and one can be made; `None` otherwise.
pub(super) fn create(name: &str) -> Option<PathBuf> {
    if !rustix::process::geteuid().is_root() {
        return None;
    }
    let dir = own_pids_cgroup()?.join(name);
    std::fs::create_dir(&dir).ok()?;
    Some(dir)
}

/// Removes a cgroup made by [`create`], once the last of its processes is gone (the kernel
/// takes a moment to let them go after they are killed).
pub(super) fn remove(dir: &Path) {
    for _ in 0..200 {
        if std::fs::remove_dir(dir).is_ok() || !dir.exists() {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    log::warn!("sandbox: cgroup {} still busy, left in place", dir.display());
}

/// Moves this process into the cgroup `dir`, holding it and what it starts to `processes`.
pub(super) fn join(dir: &Path, processes: u64) -> io::Result<()> {
    std::fs::write(dir.join("pids.max"), processes.to_string())?;
    std::fs::write(dir.join("cgroup.procs"), "0")
}

/// This process's pids cgroup, in the v1 hierarchy or in v2 with the controller enabled
/// for its children.
fn own_pids_cgroup() -> Option<PathBuf> {
    let memberships = std::fs::read_to_string("/proc/self/cgroup").ok()?;
    let mounts = std::fs::read_to_string("/proc/self/mountinfo").ok()?;
    // v1: a line `N:pids:/path`, under the mount of the `pids` hierarchy.
    let v1_path = memberships
        .lines()
        .filter_map(|line| {
            let mut parts = line.splitn(3, ':').skip(1);
            Some((parts.next()?, parts.next()?))
        })
        .find(|(controllers, _)| controllers.split(',').any(|c| c == "pids"))
        .map(|(_, path)| path);
    if let (Some(path), Some(mount)) = (
        v1_path,
        mount_point(&mounts, |kind, options| {
            kind == "cgroup" && options.split(',').any(|o| o == "pids")
        }),
    ) {
        return Some(mount.join(path.trim_start_matches('/')));
    }
    // v2: the line `0::/path`, under the cgroup2 mount, if `pids` can be enabled below it.
    let path = memberships.lines().find_map(|line| line.strip_prefix("0::"))?;
    let mount = mount_point(&mounts, |kind, _| kind == "cgroup2")?;
    let own = mount.join(path.trim_start_matches('/'));
    let offered = std::fs::read_to_string(own.join("cgroup.controllers")).ok()?;
    if !offered.split_whitespace().any(|c| c == "pids") {
        return None;
    }
    let enabled = std::fs::read_to_string(own.join("cgroup.subtree_control")).ok()?;
    if !enabled.split_whitespace().any(|c| c == "pids") {
        std::fs::write(own.join("cgroup.subtree_control"), "+pids").ok()?;
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

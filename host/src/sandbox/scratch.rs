//! A sandboxed process's scratch folder and cgroup, made before it starts and removed
//! after it ends, and the removal itself: no tree of files a bot can make (folders nested
//! tens of thousands deep, folders it made unreadable) can crash or defeat it.

use super::cgroup;
use rustix::fs::{AtFlags, FileType, Mode, OFlags};
use std::ffi::CString;
use std::os::fd::{AsFd, OwnedFd};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// A sandboxed process's scratch folder (and its cgroups, if it has any), removed when the
/// process is done with.
pub struct Scratch {
    path: PathBuf,
    cgroups: Vec<PathBuf>,
}

impl Scratch {
    /// A new, empty scratch folder, and cgroups holding its process to `limits` where they
    /// can be had.
    pub(super) fn new(limits: &super::Limits) -> std::io::Result<Scratch> {
        static MADE: AtomicU64 = AtomicU64::new(0);
        let number = MADE.fetch_add(1, Ordering::Relaxed) + 1;
        let path = std::env::temp_dir()
            .join(format!("tetrad-scratch-{}", std::process::id()))
            .join(number.to_string());
        std::fs::create_dir_all(&path)?;
        let cgroups = cgroup::create(
            &format!("tetrad-{}-{number}", std::process::id()),
            limits.processes,
            limits.memory_bytes,
        );
        Ok(Scratch { path, cgroups })
    }

    /// The folder.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The cgroups its process joins.
    pub(super) fn cgroups(&self) -> &[PathBuf] {
        &self.cgroups
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        cgroup::remove(&self.cgroups);
        if let Err(err) = remove_tree(&self.path) {
            log::warn!("sandbox: scratch folder {} not removed: {err}", self.path.display());
        }
        if let Some(parent) = self.path.parent() {
            // The run's folder of scratch folders goes with the last of them.
            let _ = std::fs::remove_dir(parent);
        }
    }
}

/// Removes what earlier runs killed outright left: their scratch folders and cgroups.
pub(super) fn remove_stale() {
    cgroup::remove_stale();
    let Ok(entries) = std::fs::read_dir(std::env::temp_dir()) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        if name
            .to_str()
            .is_some_and(|name| name.starts_with("tetrad-scratch-") && cgroup::left_by_an_ended_run(name))
        {
            let _ = remove_tree(&entry.path());
        }
    }
}

/// How deep the removal descends before it moves a folder up to the top: it holds at most
/// this many folders open, and never a path longer than the top's.
const DEPTH: usize = 32;

/// Removes the folder `top` and all it holds, whatever the tree: folders are opened one
/// below another (never by a long path), one without permissions is given them first (the
/// owner may), links are removed and never followed, and a folder found deeper than
/// a few dozen levels is moved up to `top` to be removed in a later round, so that neither the
/// stack nor the open files grow with the tree's depth.
pub fn remove_tree(top: &Path) -> std::io::Result<()> {
    let meta = match std::fs::symlink_metadata(top) {
        Ok(meta) => meta,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(err) => return Err(err),
    };
    if !meta.is_dir() {
        return std::fs::remove_file(top);
    }
    let _ = rustix::fs::chmod(top, Mode::RWXU);
    let root = open_dir(rustix::fs::CWD, top)?;
    let mut moved = 0u64;
    // Each round empties what lies within DEPTH of the top; what lay deeper is now at the top.
    while clear(&root, &root, 0, &mut moved)? {}
    std::fs::remove_dir(top)
}

/// Empties the folder `dir` (at `depth` below `root`); whether anything was moved up to
/// `root` for another round.
fn clear(dir: &OwnedFd, root: &OwnedFd, depth: usize, moved: &mut u64) -> std::io::Result<bool> {
    let _ = rustix::fs::fchmod(dir, Mode::RWXU);
    let mut again = false;
    for name in entries(dir)? {
        let stat = match rustix::fs::statat(dir, name.as_c_str(), AtFlags::SYMLINK_NOFOLLOW) {
            Ok(stat) => stat,
            Err(rustix::io::Errno::NOENT) => continue,
            Err(err) => return Err(err.into()),
        };
        if FileType::from_raw_mode(stat.st_mode) != FileType::Directory {
            ignore_gone(rustix::fs::unlinkat(dir, name.as_c_str(), AtFlags::empty()))?;
            continue;
        }
        if depth + 1 >= DEPTH {
            move_up(dir, &name, root, moved)?;
            again = true;
            continue;
        }
        let _ = rustix::fs::chmodat(dir, name.as_c_str(), Mode::RWXU, AtFlags::empty());
        let below = open_dir(dir, name.as_c_str())?;
        again |= clear(&below, root, depth + 1, moved)?;
        drop(below);
        ignore_gone(rustix::fs::unlinkat(dir, name.as_c_str(), AtFlags::REMOVEDIR))?;
    }
    Ok(again)
}

/// Moves the folder `name` in `dir` up to `root` under a name nothing there holds yet: the
/// tree's own files may hold any name, one this removal would pick among them.
fn move_up(dir: &OwnedFd, name: &CString, root: &OwnedFd, moved: &mut u64) -> std::io::Result<()> {
    use rustix::io::Errno;
    loop {
        *moved += 1;
        let up = format!(".tetrad-removing-{moved}");
        match rustix::fs::renameat_with(
            dir,
            name.as_c_str(),
            root,
            up.as_str(),
            rustix::fs::RenameFlags::NOREPLACE,
        ) {
            Err(Errno::EXIST) => continue,
            // Where the file system cannot refuse a replacement, only a free name is used.
            Err(Errno::INVAL) if rustix::fs::statat(root, up.as_str(), AtFlags::SYMLINK_NOFOLLOW).is_err() => {
                return Ok(rustix::fs::renameat(dir, name.as_c_str(), root, up.as_str())?);
            }
            Err(Errno::INVAL) => continue,
            other => return Ok(other?),
        }
    }
}

/// The names in the folder `dir`, read before any is removed.
fn entries(dir: &OwnedFd) -> std::io::Result<Vec<CString>> {
    let mut names = Vec::new();
    let mut listing = rustix::fs::Dir::read_from(dir.as_fd())?;
    while let Some(entry) = listing.read() {
        let entry = entry?;
        let name = entry.file_name();
        if name.to_bytes() != b"." && name.to_bytes() != b".." {
            names.push(name.to_owned());
        }
    }
    Ok(names)
}

/// The folder `path` below `at`, opened without following a link.
fn open_dir<P: rustix::path::Arg>(at: impl AsFd, path: P) -> std::io::Result<OwnedFd> {
    let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
    Ok(rustix::fs::openat(at, path, flags, Mode::empty())?)
}

/// A removal of something already gone succeeded.
fn ignore_gone(result: rustix::io::Result<()>) -> std::io::Result<()> {
    match result {
        Err(rustix::io::Errno::NOENT) => Ok(()),
        other => Ok(other?),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    #[test]
    fn a_tree_deeper_than_any_path_and_folders_without_permissions_are_removed() {
        // In memory where it can be: 25,000 folders on a slow disk take a minute.
        let dir = match Path::new("/dev/shm").is_dir() {
            true => tempfile::tempdir_in("/dev/shm").unwrap(),
            false => tempfile::tempdir().unwrap(),
        };
        let top = dir.path().join("scratch");
        std::fs::create_dir(&top).unwrap();
        // 25,000 folders one inside another, made one below another as a bot would.
        let mut at = open_dir(rustix::fs::CWD, top.as_path()).unwrap();
        for _ in 0..25_000 {
            rustix::fs::mkdirat(&at, "d", Mode::RWXU).unwrap();
            at = open_dir(&at, "d").unwrap();
        }
        rustix::fs::openat(&at, "file", OFlags::CREATE | OFlags::WRONLY, Mode::RUSR).unwrap();
        drop(at);
        // Folders with no permissions at all, one holding a file, and a link out.
        let locked = top.join("locked/inner");
        std::fs::create_dir_all(&locked).unwrap();
        std::fs::write(locked.join("kept"), "x").unwrap();
        std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o000)).unwrap();
        std::fs::set_permissions(top.join("locked"), std::fs::Permissions::from_mode(0o000)).unwrap();
        let outside = dir.path().join("outside");
        std::fs::create_dir(&outside).unwrap();
        std::fs::write(outside.join("precious"), "x").unwrap();
        std::os::unix::fs::symlink(&outside, top.join("link")).unwrap();
        remove_tree(&top).unwrap();
        assert!(!top.exists());
        assert!(outside.join("precious").exists(), "a link is removed, never followed");
    }

    #[test]
    fn names_the_tree_holds_already_do_not_stop_its_removal() {
        let dir = tempfile::tempdir().unwrap();
        let top = dir.path().join("scratch");
        // A bot that knows the names the removal moves folders up under takes them first.
        // (Many of them, so that some come after the deep folder in any listing's order.)
        std::fs::create_dir(&top).unwrap();
        for n in (1..=60).step_by(3) {
            std::fs::write(top.join(format!(".tetrad-removing-{n}")), "a file").unwrap();
            std::os::unix::fs::symlink("/", top.join(format!(".tetrad-removing-{}", n + 1))).unwrap();
            std::fs::create_dir_all(top.join(format!(".tetrad-removing-{}/kept", n + 2))).unwrap();
        }
        let mut deep = top.join("d");
        for _ in 0..(2 * DEPTH) {
            deep.push("d");
        }
        std::fs::create_dir_all(&deep).unwrap();
        remove_tree(&top).unwrap();
        assert!(!top.exists());
    }

    #[test]
    fn a_missing_folder_is_already_removed() {
        let dir = tempfile::tempdir().unwrap();
        remove_tree(&dir.path().join("never")).unwrap();
    }
}

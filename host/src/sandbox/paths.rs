//! What a sandboxed bot may read, as rules the launcher can trust: every path resolved
//! (no link in it), and never the root, a home folder or a folder that holds one, so that a
//! link a bot ships (`rt -> /`) or an installation prefix that happens to be a home cannot
//! widen its reach.

use std::path::{Path, PathBuf};

/// Why a folder cannot be a read rule.
#[derive(Debug, thiserror::Error)]
pub enum RuleError {
    /// The path does not resolve.
    #[error("{path}: {source}")]
    Unresolved {
        /// The path as given.
        path: PathBuf,
        /// Why it does not resolve.
        source: std::io::Error,
    },
    /// The path resolves to the root, a home folder, or a folder that holds one.
    #[error("{path} resolves to {resolved}, which is or holds {home}: a sandboxed bot may not read it")]
    TooWide {
        /// The path as given.
        path: PathBuf,
        /// Where it leads.
        resolved: PathBuf,
        /// The home folder (or the root) it holds.
        home: PathBuf,
    },
}

/// Home folders on this system: the user's `$HOME`, `/root`, every folder in `/home`, and
/// the homes of root and of ordinary users (user IDs from 1000) in `/etc/passwd`.
pub fn homes() -> Vec<PathBuf> {
    let mut homes: Vec<PathBuf> = Vec::new();
    homes.extend(std::env::var_os("HOME").map(PathBuf::from));
    homes.push(PathBuf::from("/root"));
    if let Ok(entries) = std::fs::read_dir("/home") {
        homes.extend(entries.flatten().map(|entry| entry.path()));
    }
    if let Ok(passwd) = std::fs::read_to_string("/etc/passwd") {
        for line in passwd.lines() {
            let fields: Vec<&str> = line.split(':').collect();
            let (Some(uid), Some(home)) = (fields.get(2), fields.get(5)) else {
                continue;
            };
            let ordinary = uid
                .parse::<u32>()
                .is_ok_and(|uid| uid == 0 || (1000..65534).contains(&uid));
            if ordinary && home.starts_with('/') {
                homes.push(PathBuf::from(home));
            }
        }
    }
    let mut resolved: Vec<PathBuf> = homes
        .into_iter()
        .map(|home| std::fs::canonicalize(&home).unwrap_or(home))
        .collect();
    resolved.sort();
    resolved.dedup();
    resolved
}

/// `path` resolved, if it may be a read rule: refused when it resolves to the root, to one
/// of `homes`, or to a folder that holds one.
pub fn resolve(path: &Path, homes: &[PathBuf]) -> Result<PathBuf, RuleError> {
    let resolved = std::fs::canonicalize(path).map_err(|source| RuleError::Unresolved {
        path: path.to_path_buf(),
        source,
    })?;
    let root = Path::new("/");
    let holds = std::iter::once(root)
        .chain(homes.iter().map(PathBuf::as_path))
        .find(|home| home.starts_with(&resolved));
    match holds {
        Some(home) => Err(RuleError::TooWide {
            path: path.to_path_buf(),
            resolved: resolved.clone(),
            home: home.to_path_buf(),
        }),
        None => Ok(resolved),
    }
}

/// The installations a program belongs to, which it may need to read as it runs: the
/// folder above the `bin` folder it is in (an interpreter's standard library lives there),
/// as named and with its links followed, each resolved and kept only where it may be a
/// rule. A program in any other folder gets nothing more than that folder's rules give it.
pub fn program_prefixes(program: &Path, homes: &[PathBuf]) -> Vec<PathBuf> {
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
            resolve(bin.parent()?, homes).ok()
        })
        .collect();
    prefixes.dedup();
    prefixes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_programs_installation_is_found_on_the_path_and_through_links() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        let install = root.join("interp");
        std::fs::create_dir_all(install.join("bin")).unwrap();
        std::fs::write(install.join("bin/interp3.9"), "#!/bin/sh\n").unwrap();
        assert_eq!(
            program_prefixes(&install.join("bin/interp3.9"), &[]),
            vec![install.clone()]
        );
        std::fs::write(root.join("loose"), "#!/bin/sh\n").unwrap();
        assert!(
            program_prefixes(&root.join("loose"), &[]).is_empty(),
            "not in a bin folder"
        );
        let shims = root.join("shims/bin");
        std::fs::create_dir_all(&shims).unwrap();
        std::os::unix::fs::symlink(install.join("bin/interp3.9"), shims.join("interp")).unwrap();
        assert_eq!(
            program_prefixes(&shims.join("interp"), &[]),
            vec![root.join("shims"), install]
        );
        assert!(program_prefixes(Path::new("no-such-program-anywhere"), &[]).is_empty());
    }

    #[test]
    fn a_link_to_the_root_or_a_home_grants_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        // A bot's folder that ships `rt -> /` and runs `./rt/bin/python3`.
        std::os::unix::fs::symlink("/", root.join("rt")).unwrap();
        assert!(
            program_prefixes(&root.join("rt/bin/sh"), &[])
                .iter()
                .all(|p| p != Path::new("/")),
            "never the root"
        );
        assert!(matches!(resolve(&root.join("rt"), &[]), Err(RuleError::TooWide { .. })));
        // A home, and a folder that holds one, through a link or not.
        let home = root.join("home/someone");
        std::fs::create_dir_all(home.join("bot")).unwrap();
        std::os::unix::fs::symlink(&home, root.join("to-home")).unwrap();
        let homes = vec![home.clone()];
        for wide in [home.clone(), root.join("home"), root.join("to-home"), root.clone()] {
            let err = resolve(&wide, &homes).unwrap_err();
            assert!(err.to_string().contains("may not read"), "{err}");
        }
        assert_eq!(resolve(&home.join("bot"), &homes).unwrap(), home.join("bot"));
        // An installation prefix that is a home is dropped.
        std::fs::create_dir_all(home.join("bin")).unwrap();
        std::fs::write(home.join("bin/tool"), "").unwrap();
        assert!(program_prefixes(&home.join("bin/tool"), &homes).is_empty());
    }

    #[test]
    fn the_users_home_is_among_the_homes() {
        let homes = homes();
        assert!(homes.contains(&PathBuf::from("/root")));
        if let Some(home) = std::env::var_os("HOME") {
            let home = std::fs::canonicalize(home).unwrap_or_default();
            assert!(home.as_os_str().is_empty() || homes.contains(&home));
        }
    }
}

//! Finding plugins: a bundled plugin (a library named `libtetrad_plugin_NAME.so`, or a
//! process bot's manifest `NAME.toml`) by its short name on the plugin search path, any
//! other by path.
//!
//! The search path, in order: the executable's folder and its `deps/` (where cargo leaves
//! a workspace build's libraries; of two copies the newer wins), `../share/tetrad/plugins`
//! beside the executable's folder (an install under a prefix), every folder of
//! `$TETRAD_PLUGIN_PATH` (colon-separated), then the per-user folder
//! `$XDG_DATA_HOME/tetrad/plugins` (`~/.local/share/tetrad/plugins` by default). The first
//! folder that holds a name wins.

use super::{LoadError, Manifest};
use std::path::{Path, PathBuf};

/// File-name prefix of bundled plugins: `random` is `libtetrad_plugin_random.so` on Linux.
const BUNDLED_PREFIX: &str = "tetrad_plugin_";

/// The environment variable that adds folders to the search path.
pub const PLUGIN_PATH_VAR: &str = "TETRAD_PLUGIN_PATH";

/// A bundled plugin found on disk.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BundledPlugin {
    /// Its short name.
    pub name: String,
    /// Its file.
    pub path: PathBuf,
}

/// The folders searched for bundled plugins, in order (whether they exist or not).
pub fn search_path() -> Vec<PathBuf> {
    let mut dirs = Vec::new();
    if let Some(exe_dir) = std::env::current_exe()
        .ok()
        .and_then(|exe| exe.parent().map(Path::to_path_buf))
    {
        dirs.push(exe_dir.clone());
        dirs.push(exe_dir.join("deps"));
        if let Some(prefix) = exe_dir.parent() {
            dirs.push(prefix.join("share").join("tetrad").join("plugins"));
        }
    }
    if let Some(extra) = std::env::var_os(PLUGIN_PATH_VAR) {
        dirs.extend(std::env::split_paths(&extra).filter(|dir| !dir.as_os_str().is_empty()));
    }
    dirs.extend(user_plugin_dir());
    // Installed in the per-user folders, `../share/tetrad/plugins` beside the executable
    // is the per-user plugin folder: a folder is searched, and listed, once.
    let mut seen: Vec<PathBuf> = Vec::new();
    dirs.retain(|dir| {
        let key = dir.canonicalize().unwrap_or_else(|_| dir.clone());
        let first = !seen.contains(&key);
        seen.push(key);
        first
    });
    dirs
}

/// The per-user plugin folder: `$XDG_DATA_HOME/tetrad/plugins`, or
/// `~/.local/share/tetrad/plugins`.
pub fn user_plugin_dir() -> Option<PathBuf> {
    let data = std::env::var_os("XDG_DATA_HOME")
        .map(PathBuf::from)
        .filter(|dir| dir.is_absolute())
        .or_else(|| std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".local").join("share")))?;
    Some(data.join("tetrad").join("plugins"))
}

/// The short name of a plugin file found on the search path: a bundled library's, or a
/// bot manifest's (its file stem; only files that read as manifests count). `tetrad
/// plugins` lists a plugin under it, and a tournament labels an entrant with it.
pub fn plugin_name(path: &Path) -> Option<String> {
    let file_name = path.file_name()?.to_str()?;
    if Manifest::is_manifest(path) {
        let stem = path.file_stem()?.to_str()?;
        return Manifest::load(path).is_ok().then(|| stem.to_string());
    }
    bundled_name(file_name)
}

/// The short name of a bundled plugin's file, if `file_name` is one.
fn bundled_name(file_name: &str) -> Option<String> {
    let stem = file_name
        .strip_prefix(std::env::consts::DLL_PREFIX)?
        .strip_prefix(BUNDLED_PREFIX)?
        .strip_suffix(std::env::consts::DLL_SUFFIX)?;
    (!stem.is_empty()).then(|| stem.replace('_', "-"))
}

/// Every bundled plugin on the search path, by name, each name once: the copy the search
/// order picks.
pub fn bundled_plugins() -> Vec<BundledPlugin> {
    bundled_in(&search_path())
}

/// Every bundled plugin in `dirs`, the first two of which (the executable's folder and its
/// `deps/`) rank by age: a build refreshes one or the other, and the newer matches the
/// sources.
fn bundled_in(dirs: &[PathBuf]) -> Vec<BundledPlugin> {
    let mut found: Vec<BundledPlugin> = Vec::new();
    for (rank, dir) in dirs.iter().enumerate() {
        let Ok(entries) = std::fs::read_dir(dir) else { continue };
        let mut here: Vec<BundledPlugin> = entries
            .flatten()
            .filter_map(|entry| {
                let path = entry.path();
                let name = plugin_name(&path)?;
                path.is_file().then_some(BundledPlugin { name, path })
            })
            .collect();
        here.sort_by(|a, b| a.name.cmp(&b.name));
        for plugin in here {
            match found.iter_mut().find(|p| p.name == plugin.name) {
                None => found.push(plugin),
                Some(earlier) if rank < 2 && modified(&plugin.path) > modified(&earlier.path) => *earlier = plugin,
                Some(_) => {}
            }
        }
    }
    found.sort_by(|a, b| a.name.cmp(&b.name));
    found
}

fn modified(path: &Path) -> Option<std::time::SystemTime> {
    std::fs::metadata(path).and_then(|m| m.modified()).ok()
}

/// Whether `spec` names a file rather than a bundled plugin.
pub fn looks_like_path(spec: &str) -> bool {
    spec.contains(std::path::MAIN_SEPARATOR)
        || spec.contains('/')
        || spec.ends_with(std::env::consts::DLL_SUFFIX)
        || Manifest::is_manifest(Path::new(spec))
        || Path::new(spec).exists()
}

/// Turns `--plugin NAME|PATH` into a file: anything that looks like a path is one (made
/// absolute, so that a bare file name is never searched for on the library path);
/// otherwise a bundled plugin of that short name.
pub fn resolve(spec: &str) -> Result<PathBuf, LoadError> {
    if looks_like_path(spec) {
        let path = Path::new(spec);
        return Ok(std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf()));
    }
    let found = bundled_plugins();
    let wanted = spec.replace('_', "-");
    if let Some(plugin) = found.iter().find(|p| p.name == wanted) {
        return Ok(plugin.path.clone());
    }
    let available: Vec<String> = found.into_iter().map(|p| p.name).collect();
    Err(LoadError::UnknownName {
        name: spec.to_string(),
        available: if available.is_empty() {
            let searched: Vec<String> = search_path().iter().map(|d| d.display().to_string()).collect();
            format!("none found in {}", searched.join(", "))
        } else {
            available.join(", ")
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn library(dir: &Path, stem: &str) -> PathBuf {
        let path = dir.join(format!(
            "{}{stem}{}",
            std::env::consts::DLL_PREFIX,
            std::env::consts::DLL_SUFFIX
        ));
        std::fs::write(&path, b"not a library").expect("written");
        path
    }

    #[test]
    fn names_come_from_file_names_with_dashes() {
        let file = |stem: &str| format!("{}{stem}{}", std::env::consts::DLL_PREFIX, std::env::consts::DLL_SUFFIX);
        assert_eq!(
            bundled_name(&file("tetrad_plugin_tree_search")).as_deref(),
            Some("tree-search")
        );
        // Regression: a file named with a dash used to send discovery and name resolution
        // round each other until the stack overflowed.
        assert_eq!(bundled_name(&file("tetrad_plugin_my-bot")).as_deref(), Some("my-bot"));
        assert_eq!(bundled_name(&file("tetrad_plugin_")), None);
        assert_eq!(bundled_name(&file("other")), None);
    }

    #[test]
    fn the_first_folder_wins_past_the_build_folders() {
        let root = tempfile::tempdir().expect("a temporary directory");
        let dirs: Vec<PathBuf> = ["exe", "deps", "extra", "user"]
            .iter()
            .map(|name| {
                let dir = root.path().join(name);
                std::fs::create_dir(&dir).expect("made");
                dir
            })
            .collect();
        library(&dirs[2], "tetrad_plugin_mine");
        library(&dirs[3], "tetrad_plugin_mine");
        library(&dirs[3], "tetrad_plugin_my-bot");
        library(&dirs[3], "unrelated");
        std::fs::write(dirs[3].join("greedy.toml"), "name = \"g\"\ncommand = [\"python3\"]\n").expect("written");
        std::fs::write(dirs[3].join("Cargo.toml"), "[package]\nname = \"x\"\n").expect("written");
        let found = bundled_in(&dirs);
        let names: Vec<&str> = found.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names, ["greedy", "mine", "my-bot"]);
        assert!(found[1].path.starts_with(&dirs[2]));
    }

    #[test]
    fn a_bare_file_name_becomes_an_absolute_path() {
        let resolved = resolve(&format!("libnothing{}", std::env::consts::DLL_SUFFIX)).expect("a path");
        assert!(resolved.is_absolute(), "{}", resolved.display());
    }
}

//! Finding plugins: a bundled plugin by its short name next to the executable, any other
//! by path.

use super::LoadError;
use std::path::{Path, PathBuf};

/// File-name prefix of bundled plugins: `random` is `libtetrad_plugin_random.so` on Linux.
const BUNDLED_PREFIX: &str = "tetrad_plugin_";

/// A bundled plugin found on disk.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BundledPlugin {
    /// Its short name.
    pub name: String,
    /// Its file.
    pub path: PathBuf,
}

/// Folders searched for bundled plugins: the executable's own, then its `deps/` (where
/// `cargo test` leaves the plugin libraries of a workspace build).
fn search_dirs() -> Vec<PathBuf> {
    let Some(dir) = std::env::current_exe()
        .ok()
        .and_then(|exe| exe.parent().map(Path::to_path_buf))
    else {
        return Vec::new();
    };
    vec![dir.join("deps"), dir].into_iter().rev().collect()
}

/// Turns `--plugin NAME|PATH` into a file: anything that looks like a path is one;
/// otherwise a bundled plugin of that short name.
pub fn resolve(spec: &str) -> Result<PathBuf, LoadError> {
    let looks_like_path = spec.contains(std::path::MAIN_SEPARATOR)
        || spec.contains('/')
        || spec.ends_with(std::env::consts::DLL_SUFFIX)
        || Path::new(spec).exists();
    if looks_like_path {
        return Ok(PathBuf::from(spec));
    }
    let file = libloading::library_filename(format!("{BUNDLED_PREFIX}{}", spec.replace('-', "_")));
    // Both folders can hold a copy (`cargo build` refreshes the one beside the binary,
    // `cargo test` the one in `deps/`): the newer is the one that matches the sources.
    let newest = search_dirs()
        .into_iter()
        .map(|dir| dir.join(&file))
        .filter(|candidate| candidate.is_file())
        .max_by_key(|candidate| std::fs::metadata(candidate).and_then(|m| m.modified()).ok());
    if let Some(found) = newest {
        return Ok(found);
    }
    let available: Vec<String> = bundled_plugins().into_iter().map(|p| p.name).collect();
    Err(LoadError::UnknownName {
        name: spec.to_string(),
        available: if available.is_empty() {
            "none found next to the executable".to_string()
        } else {
            available.join(", ")
        },
    })
}

/// Every bundled plugin next to the executable, by name, each name once.
pub fn bundled_plugins() -> Vec<BundledPlugin> {
    let prefix = format!("{}{BUNDLED_PREFIX}", std::env::consts::DLL_PREFIX);
    let suffix = std::env::consts::DLL_SUFFIX;
    let mut found: Vec<BundledPlugin> = Vec::new();
    for dir in search_dirs() {
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        for entry in entries.flatten() {
            let file_name = entry.file_name();
            let Some(stem) = file_name
                .to_str()
                .and_then(|f| f.strip_prefix(&prefix))
                .and_then(|f| f.strip_suffix(suffix))
            else {
                continue;
            };
            let name = stem.replace('_', "-");
            if !found.iter().any(|p| p.name == name) {
                found.push(BundledPlugin {
                    path: entry.path(),
                    name,
                });
            }
        }
    }
    // Where both folders hold a copy, list the one `resolve` loads.
    for plugin in &mut found {
        if let Ok(path) = resolve(&plugin.name) {
            plugin.path = path;
        }
    }
    found.sort_by(|a, b| a.name.cmp(&b.name));
    found
}

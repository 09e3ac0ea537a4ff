//! `tetrad install`: copies the running binary and its bundled plugins to where an
//! installed `tetrad` finds them (see the plugin search path in `plugin::discovery`).

use crate::cli::InstallArgs;
use crate::plugin::{bundled_plugins, user_plugin_dir};
use anyhow::{bail, Context, Result};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// `tetrad install`.
pub fn install(args: InstallArgs) -> Result<ExitCode> {
    let (bin_dir, plugin_dir) = match &args.prefix {
        Some(prefix) => (prefix.join("bin"), prefix.join("share").join("tetrad").join("plugins")),
        None => {
            let home = std::env::var_os("HOME").context("HOME is not set; give --prefix")?;
            let plugins = user_plugin_dir().context("no per-user data folder; give --prefix")?;
            (PathBuf::from(home).join(".local").join("bin"), plugins)
        }
    };
    let exe = std::env::current_exe().context("locating the running tetrad binary")?;
    let plugins = bundled_plugins();
    if plugins.is_empty() {
        bail!(
            "no bundled plugins next to {}; build them first with `cargo build --release`",
            exe.display()
        );
    }
    let mut out = crate::output::reports();
    let binary = bin_dir.join(exe.file_name().context("the binary has no file name")?);
    copy_into(&exe, &binary)?;
    writeln!(out, "installed {}", binary.display())?;
    for plugin in &plugins {
        let target = plugin_dir.join(plugin.path.file_name().context("a plugin without a file name")?);
        copy_into(&plugin.path, &target)?;
    }
    writeln!(out, "installed {} plugins in {}", plugins.len(), plugin_dir.display())?;
    let on_path = std::env::var_os("PATH").is_some_and(|path| std::env::split_paths(&path).any(|dir| dir == bin_dir));
    if !on_path {
        writeln!(
            out,
            "note: {} is not on PATH; add it to run `tetrad` by name",
            bin_dir.display()
        )?;
    }
    Ok(ExitCode::SUCCESS)
}

/// Copies `from` to `to` through a temporary file and a rename, so a running copy of the
/// target (a busy binary) is replaced rather than written over.
fn copy_into(from: &Path, to: &Path) -> Result<()> {
    if std::fs::canonicalize(from).ok() == std::fs::canonicalize(to).ok() {
        return Ok(());
    }
    let dir = to.parent().context("a target without a folder")?;
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let mut partial = to.as_os_str().to_owned();
    partial.push(".partial");
    let partial = PathBuf::from(partial);
    std::fs::copy(from, &partial).with_context(|| format!("copying {} to {}", from.display(), partial.display()))?;
    std::fs::rename(&partial, to).with_context(|| format!("moving {} into place", to.display()))?;
    Ok(())
}

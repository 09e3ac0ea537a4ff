//! `tetrad install`: copies the running binary and its bundled plugins to where an
//! installed `tetrad` finds them (see the plugin search path in `plugin::discovery`).
//!
//! The copies lose their debug information: the release profile keeps line tables for
//! profiling and backtraces, which make the binary several times its stripped size. The
//! system's `strip -S` does it (present wherever cargo can link: it comes with the
//! linker); where it is missing or fails, the copy is installed as it was, with a note.

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
    let mut unstripped = None;
    let mut bytes = copy_into(&exe, &binary, &mut unstripped)?;
    writeln!(out, "installed {}", binary.display())?;
    for plugin in &plugins {
        let target = plugin_dir.join(plugin.path.file_name().context("a plugin without a file name")?);
        bytes += copy_into(&plugin.path, &target, &mut unstripped)?;
    }
    writeln!(
        out,
        "installed {} plugins in {} ({:.1} MB with the binary)",
        plugins.len(),
        plugin_dir.display(),
        bytes as f64 / 1e6
    )?;
    if let Some(why) = unstripped {
        writeln!(out, "note: installed with debug information ({why})")?;
    }
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
/// target (a busy binary) is replaced rather than written over; the copy is stripped of
/// its debug information first. Returns the installed file's size. The first reason a
/// copy kept its debug information goes to `unstripped`.
fn copy_into(from: &Path, to: &Path, unstripped: &mut Option<String>) -> Result<u64> {
    if std::fs::canonicalize(from).ok() == std::fs::canonicalize(to).ok() {
        return Ok(std::fs::metadata(to).map_or(0, |m| m.len()));
    }
    let dir = to.parent().context("a target without a folder")?;
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let mut partial = to.as_os_str().to_owned();
    partial.push(".partial");
    let partial = PathBuf::from(partial);
    std::fs::copy(from, &partial).with_context(|| format!("copying {} to {}", from.display(), partial.display()))?;
    if let Err(why) = strip_debug(&partial) {
        unstripped.get_or_insert(why);
    }
    std::fs::rename(&partial, to).with_context(|| format!("moving {} into place", to.display()))?;
    Ok(std::fs::metadata(to).map_or(0, |m| m.len()))
}

/// Removes the debug information from `file` with the system's `strip -S` (GNU and BSD
/// strip alike read `-S` as "debugging symbols only"), or says why it could not.
fn strip_debug(file: &Path) -> std::result::Result<(), String> {
    let status = std::process::Command::new("strip")
        .arg("-S")
        .arg(file)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status();
    match status {
        Ok(status) if status.success() => Ok(()),
        Ok(status) => Err(format!("`strip -S` failed: {status}")),
        Err(err) => Err(format!("`strip` cannot be run: {err}")),
    }
}

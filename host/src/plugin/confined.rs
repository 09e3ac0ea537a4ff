//! A library under `--sandbox`, never opened in this process: opening a library runs its
//! constructors, which must not run unconfined. Its info is read by `tetrad info` started
//! in the sandbox, and its games are played in sandboxed workers.

use super::{LoadError, PluginInfo};
use crate::process::ChildProcess;
use std::path::Path;
use std::time::Duration;

/// How long a library may take to be opened and tell its info.
const INFO_LIMIT: Duration = Duration::from_secs(10);

/// The info of the library at `path`, read inside the sandbox.
pub(super) fn info(path: &Path) -> Result<PluginInfo, LoadError> {
    let failed = |message: String| LoadError::Confined {
        path: path.to_path_buf(),
        message,
    };
    let absolute = std::path::absolute(path).map_err(|err| failed(err.to_string()))?;
    let own = absolute.parent().unwrap_or(Path::new("/")).to_path_buf();
    let exe = std::env::current_exe().map_err(|err| failed(err.to_string()))?;
    let mut command = std::process::Command::new(exe);
    command.arg("info").arg("--plugin").arg(&absolute);
    let (command, scratch) = crate::sandbox::wrap(command, &[&own], &[]).map_err(|err| failed(err.to_string()))?;
    let log = super::bot::log_folder().join(format!(
        "info-{}-{}.log",
        std::process::id(),
        crate::process::file_safe(&absolute.display().to_string())
    ));
    let mut process =
        ChildProcess::spawn(command, &log, "library info", 1 << 20).map_err(|err| failed(err.to_string()))?;
    let line = process.next_line(INFO_LIMIT);
    let cause = process.exit_cause();
    let why = crate::sandbox::stopped(process.exit_signal(), process.exit_code());
    let said = std::fs::read_to_string(&log).unwrap_or_default();
    drop(process);
    drop(scratch);
    if let Ok(Ok(info)) = line.as_deref().map(serde_json::from_str::<PluginInfo>) {
        return Ok(info);
    }
    // The library's own refusal (`tetrad: ...` on the last line of the log) says most.
    let refusal = said
        .lines()
        .rev()
        .find_map(|line| line.strip_prefix("tetrad: "))
        .map(str::to_string);
    Err(failed(match (refusal, why) {
        (Some(refusal), _) => refusal,
        (None, Some(why)) => format!("stopped while it was opened: {why}"),
        (None, None) => format!("opening it in the sandbox failed: it {cause}"),
    }))
}

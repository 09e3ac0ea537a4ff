//! The terminal screens: `tetrad demo` (a plugin plays, plugins swap live), `tetrad play`
//! (a person plays) and `tetrad replay` (a recorded game plays back, or is verified
//! headless). State in [`app`], drawing in [`ui`], the terminal in [`terminal`]. The
//! screens know no command line: the command layer builds their [`Session`].

pub mod app;
pub mod keys;
pub mod pilots;
pub mod playback;
pub mod recorder;
pub mod speed;
pub mod terminal;
pub mod ui;

pub use app::{App, LiveOptions, Session};
pub use playback::Playback;

use anyhow::{bail, Context, Result};
use std::process::ExitCode;

/// Fails with `message` unless standard output is a terminal.
pub fn need_terminal(message: &str) -> Result<()> {
    if !terminal::is_terminal() {
        bail!("{message}");
    }
    Ok(())
}

/// Runs `app` on the terminal, then reports a replay that could not be saved.
pub fn show(mut app: App) -> Result<ExitCode> {
    terminal::run(&mut app).context("terminal")?;
    if let Some(err) = app.take_save_error() {
        return Err(err.into());
    }
    if let Some(err) = app.take_results_error() {
        return Err(err.into());
    }
    Ok(ExitCode::SUCCESS)
}

//! `tetrad report` and `tetrad replay --html`: a results file, or a recorded game, drawn as
//! one self-contained HTML page.

use crate::cli::ReportArgs;
use crate::html_report;
use crate::replay::Replay;
use crate::replay_page;
use crate::report::plural;
use crate::tournament;
use anyhow::{Context, Result};
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

/// `tetrad report FILE --html OUT`: reads the results file as `merge` does, draws the page
/// and writes it to OUT (or to standard output for `-`), then says what it wrote.
pub fn report(args: ReportArgs) -> Result<ExitCode> {
    let contents = tournament::read(&args.file)?;
    let page = html_report::page(&contents).with_context(|| args.file.display().to_string())?;
    if args.html == Path::new("-") {
        crate::output::reports().write_all(page.as_bytes())?;
        return Ok(ExitCode::SUCCESS);
    }
    std::fs::write(&args.html, &page).with_context(|| format!("writing {}", args.html.display()))?;
    writeln!(
        crate::output::reports(),
        "{}: {} from {} ({}, {})",
        args.html.display(),
        plural(page.len() as u64, "byte"),
        args.file.display(),
        plural(contents.config.entrants.len() as u64, "entrant"),
        plural(contents.seats().len() as u64, "game")
    )?;
    Ok(ExitCode::SUCCESS)
}

/// `tetrad replay FILE --html OUT`: verifies the replay by re-simulating it, draws the
/// game's page from the re-simulation and writes it to OUT (or standard output for `-`);
/// a replay that does not verify writes nothing.
pub fn replay_page(file: &Path, out: &Path) -> Result<ExitCode> {
    let replay = Replay::load(file)?;
    let name = file
        .file_name()
        .map_or_else(|| file.display().to_string(), |n| n.to_string_lossy().into_owned());
    let page = replay_page::page(&replay, &name).with_context(|| file.display().to_string())?;
    if out == Path::new("-") {
        crate::output::reports().write_all(page.as_bytes())?;
        return Ok(ExitCode::SUCCESS);
    }
    std::fs::write(out, &page).with_context(|| format!("writing {}", out.display()))?;
    let pieces: u64 = replay.seats.iter().map(|s| s.result.pieces).sum();
    writeln!(
        crate::output::reports(),
        "{}: {} from {} ({})",
        out.display(),
        plural(page.len() as u64, "byte"),
        file.display(),
        plural(pieces, "piece")
    )?;
    Ok(ExitCode::SUCCESS)
}

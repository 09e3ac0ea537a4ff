//! `tetrad report`: a results file drawn as one self-contained HTML page.

use crate::cli::ReportArgs;
use crate::html_report;
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

//! `tetrad report` and `tetrad replay --html`: a results file, or a recorded game, drawn as
//! one self-contained HTML page.

use crate::cli::ReportArgs;
use crate::html_report::{self, GameLink};
use crate::replay::Replay;
use crate::replay_page;
use crate::report::plural;
use crate::tournament;
use crate::tournament::record::Contents;
use crate::tournament::FixtureRecord;
use anyhow::{bail, Context, Result};
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

/// `tetrad report FILE --html OUT`: reads the results file as `merge` does, draws the page
/// and writes it to OUT (or to standard output for `-`), then says what it wrote.
pub fn report(args: ReportArgs) -> Result<ExitCode> {
    let contents = tournament::read(&args.file)?;
    if let Some(dir) = args.games.as_ref().filter(|dir| !dir.is_dir()) {
        bail!("--games {}: not a folder", dir.display());
    }
    // The folder given, else the one the tournament recorded its games in, else one
    // beside the results file.
    let recorded = contents
        .games
        .as_ref()
        .map(|dir| tournament::folder_from_results(&args.file, dir));
    if let Some(dir) = recorded.as_ref().filter(|dir| args.games.is_none() && !dir.is_dir()) {
        eprintln!(
            "note: the games were recorded in {}, which is not there now; pass --games DIR to link them",
            dir.display()
        );
    }
    let beside = args.file.with_extension("games");
    let folder = args
        .games
        .clone()
        .or_else(|| recorded.filter(|dir| dir.is_dir()))
        .or_else(|| beside.is_dir().then_some(beside));
    let to_stdout = args.html == Path::new("-");
    let links = match &folder {
        Some(dir) if !to_stdout => game_pages(&contents, dir, &args.html)?,
        _ => Vec::new(),
    };
    let page = html_report::page(&contents, &links).with_context(|| args.file.display().to_string())?;
    if to_stdout {
        crate::output::reports().write_all(page.as_bytes())?;
        return Ok(ExitCode::SUCCESS);
    }
    std::fs::write(&args.html, &page).with_context(|| format!("writing {}", args.html.display()))?;
    let drawn = links.iter().filter(|l| l.page.is_ok()).count() as u64;
    let pages = match folder {
        Some(_) => format!(", {} drawn", plural(drawn, "game page")),
        None => String::new(),
    };
    writeln!(
        crate::output::reports(),
        "{}: {} from {} ({}, {}{pages})",
        args.html.display(),
        plural(page.len() as u64, "byte"),
        args.file.display(),
        plural(contents.config.entrants.len() as u64, "entrant"),
        plural(contents.seats().len() as u64, "game")
    )?;
    Ok(ExitCode::SUCCESS)
}

/// Draws the page of every game of `contents` recorded in `dir` into the folder
/// `STEM-games` beside the report `out` (`t-games` for `t.html`), each linking back to
/// the report, in the order of their games and seats; a replay that does not verify gets
/// no page, and the report says why.
fn game_pages<'a>(contents: &'a Contents, dir: &Path, out: &Path) -> Result<Vec<GameLink<'a>>> {
    let stem = out
        .file_stem()
        .map_or_else(|| "report".into(), |s| s.to_string_lossy().into_owned());
    let folder_name = format!("{stem}-games");
    let folder = out.with_file_name(&folder_name);
    let back = out.file_name().map(|name| format!("../{}", name.to_string_lossy()));
    // A results file keeps games in the order they finished.
    let mut fixtures: Vec<&FixtureRecord> = contents.fixtures.iter().collect();
    fixtures.sort_by_key(|f| f.key());
    let mut links = Vec::new();
    for fixture in fixtures {
        let seats: Vec<usize> = fixture.seats.iter().map(|s| s.entrant).collect();
        let file = tournament::game_file(dir, fixture.game, &seats);
        if !file.exists() {
            continue;
        }
        let name = file.file_name().expect("a file name").to_string_lossy().into_owned();
        let drawn = Replay::load(&file)
            .map_err(replay_page::PageError::from)
            .and_then(|replay| replay_page::page(&replay, &name, back.as_deref()));
        let page = match drawn {
            Ok(page) => {
                std::fs::create_dir_all(&folder).with_context(|| format!("creating {}", folder.display()))?;
                let html = Path::new(&name).with_extension("html");
                let target = folder.join(&html);
                std::fs::write(&target, page).with_context(|| format!("writing {}", target.display()))?;
                Ok(format!("{folder_name}/{}", html.display()))
            }
            Err(err) => Err(err.to_string()),
        };
        links.push(GameLink { fixture, page });
    }
    Ok(links)
}

/// `tetrad replay FILE --html OUT`: verifies the replay by re-simulating it, draws the
/// game's page from the re-simulation and writes it to OUT (or standard output for `-`);
/// a replay that does not verify writes nothing.
pub fn replay_page(file: &Path, out: &Path) -> Result<ExitCode> {
    let replay = Replay::load(file)?;
    let name = file
        .file_name()
        .map_or_else(|| file.display().to_string(), |n| n.to_string_lossy().into_owned());
    let page = replay_page::page(&replay, &name, None).with_context(|| file.display().to_string())?;
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

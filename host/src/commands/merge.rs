//! `tetrad merge`: the results files of a sharded tournament read as one.

use super::tournament::print_report;
use crate::cli::MergeArgs;
use crate::tournament::{self, FixtureRecord, Report};
use anyhow::{bail, Result};
use std::collections::HashMap;
use std::process::ExitCode;

/// `tetrad merge`: one set of standings from several results files of one tournament.
///
/// Every file is read as `--resume` reads it ([`tournament::record::read_from`]), so a line
/// that cannot belong to the tournament is refused with its file and line number. The one
/// duplicate merge accepts is a game held by two files with identical content (two copies
/// of one shard, say): it is counted once. The same game with different content in two
/// files is refused, naming both places.
pub fn merge(args: MergeArgs) -> Result<ExitCode> {
    let mut config = None;
    let mut fixtures: Vec<FixtureRecord> = Vec::new();
    // Where each fixture was first seen: file, line, and its place in `fixtures`.
    let mut seen: HashMap<(u64, Vec<usize>), (usize, usize, usize)> = HashMap::new();
    for (file, path) in args.files.iter().enumerate() {
        let contents = tournament::read(path)?;
        match &config {
            None => config = Some(contents.config.clone()),
            Some(first) => {
                if let Some(what) = tournament::record::difference(first, &contents.config) {
                    bail!(
                        "{}: not from the same tournament as {} ({what} differ)",
                        path.display(),
                        args.files[0].display()
                    );
                }
            }
        }
        for (fixture, line) in contents.fixtures.into_iter().zip(contents.fixture_lines) {
            let key = fixture.key();
            let Some(&(first_file, first_line, at)) = seen.get(&key) else {
                seen.insert(key, (file, line, fixtures.len()));
                fixtures.push(fixture);
                continue;
            };
            if serde_json::to_value(&fixtures[at])? != serde_json::to_value(&fixture)? {
                let entrants: Vec<String> = key.1.iter().map(|e| e.to_string()).collect();
                bail!(
                    "{}:{line}: game {} of entrant {} differs from the same game at {}:{first_line}",
                    path.display(),
                    key.0,
                    entrants.join(" against "),
                    args.files[first_file].display()
                );
            }
        }
    }
    let config = config.expect("at least one file");
    fixtures.sort_by_key(FixtureRecord::key);
    // The labels are read from the files: printed, their control characters are escaped.
    let labels: Vec<String> = config
        .entrants
        .iter()
        .map(|e| crate::plugin::printable(e.label.clone()))
        .collect();
    let versus = config.setup.attack.is_some();
    let seatings = tournament::seatings(labels.len(), versus).len() as u64;
    let report = Report::new(&labels, versus, &fixtures, config.games.saturating_mul(seatings), None);
    print_report(&report, args.format)?;
    Ok(ExitCode::SUCCESS)
}

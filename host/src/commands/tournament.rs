//! `tetrad tournament`, `tetrad merge` and the hidden `tetrad worker`.

use super::{load, rules_and_pieces, rules_json};
use crate::cli::{MergeArgs, ReportFormat, TournamentArgs, WorkerArgs};
use crate::plugin::looks_like_path;
use crate::runner::{Limits, RunSpec};
use crate::tournament::{
    self, csv, follow_parent, markdown, pairings, standings, table, Entrant, GameRecord, Isolation, Report,
    ServeOptions, Shard, Sprt, Tournament, WorkerChannel, Writer, DEFAULT_WORKER_THINK_LIMIT_US,
};
use anyhow::{bail, Context, Result};
use indicatif::{ProgressBar, ProgressStyle};
use std::collections::HashMap;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Splits `PLUGIN@OPTIONS` (the options part is optional). A path may hold `@` itself:
/// the split is at the first `@` after which the part before names an existing file or a
/// bundled plugin's short name.
fn split_entrant(spec: &str) -> (&str, Option<&str>) {
    if Path::new(spec).is_file() {
        return (spec, None);
    }
    let names_a_plugin = |plugin: &str| Path::new(plugin).is_file() || !looks_like_path(plugin);
    let split = spec
        .match_indices('@')
        .map(|(at, _)| (&spec[..at], &spec[at + 1..]))
        .find(|(plugin, _)| names_a_plugin(plugin))
        .or_else(|| spec.split_once('@'));
    match split {
        Some((plugin, options)) => (plugin, Some(options)),
        None => (spec, None),
    }
}

fn entrants(args: &TournamentArgs) -> Result<Vec<Entrant>> {
    let mut entrants: Vec<Entrant> = Vec::new();
    for spec in &args.plugins {
        let (plugin_spec, own_options) = split_entrant(spec);
        let plugin = std::sync::Arc::new(load(plugin_spec)?);
        let mut label = match own_options {
            Some(options) => format!("{}@{options}", plugin.info().name),
            None => plugin.info().name.clone(),
        };
        let base = label.clone();
        for n in 2.. {
            if entrants.iter().all(|e| e.label != label) {
                break;
            }
            label = format!("{base}#{n}");
        }
        let options = own_options.unwrap_or(&args.options).to_string();
        entrants.push(Entrant { label, plugin, options });
    }
    Ok(entrants)
}

fn print_report(report: &Report, format: ReportFormat) -> Result<()> {
    let text = match format {
        ReportFormat::Table => table(report),
        ReportFormat::Markdown => markdown(report),
        ReportFormat::Csv => csv(report),
        ReportFormat::Json => serde_json::to_string_pretty(report)? + "\n",
    };
    crate::output::reports().write_all(text.as_bytes())?;
    Ok(())
}

/// `tetrad tournament`.
pub fn tournament(args: TournamentArgs) -> Result<ExitCode> {
    let (rules, pieces) = rules_and_pieces(&args.game)?;
    if args.sprt.is_some() && args.plugins.len() != 2 {
        bail!("--sprt compares exactly two plugins; {} given", args.plugins.len());
    }
    let entrants = entrants(&args)?;
    let limits = Limits {
        think_limit_ns: args.think_limit_us.map(|us| us.saturating_mul(1000)),
        max_violations: Some(args.max_violations),
    };
    let sequences = super::sequences(args.sequence.as_deref(), &pieces)?;
    let games = match &sequences {
        Some(sequences) => sequences.games(args.games, crate::cli::MAX_GAMES)?,
        None => args.games.unwrap_or(100),
    };
    let spec = RunSpec {
        rules,
        pieces: pieces.clone(),
        games,
        seed: args.schedule.seed,
        sequences: sequences.clone(),
        jobs: args.schedule.jobs().map_err(anyhow::Error::msg)?,
        max_pieces: args.schedule.max_pieces,
        options: String::new(),
        limits,
        watch: None,
        pieces_played: None,
    };
    let isolation = if args.isolate {
        let exe = std::env::current_exe().context("locating the tetrad binary for worker processes")?;
        let logs = worker_logs(&args)?;
        eprintln!("worker logs in {}", logs.display());
        Some(Isolation {
            exe,
            args: worker_args(&args, &rules, sequences.as_deref()),
            logs,
        })
    } else {
        None
    };
    let shard = args.shard.map_or(Shard::ALL, |(k, n)| Shard { index: k - 1, count: n });
    let tournament = Tournament {
        entrants,
        spec,
        shard,
        isolation,
        sprt: args.sprt.map(|(elo0, elo1)| Sprt { elo0, elo1 }),
    };
    if tournament.isolation.is_none() {
        probe(&tournament)?;
    }
    let mut rules_config = rules_json(&rules, &pieces);
    if let Some(sequences) = &sequences {
        // The games' pieces by content, not by file name: a resume or a merge with other
        // pieces is refused, a copy of the file elsewhere is not.
        rules_config["sequence"] = serde_json::json!({
            "lines": sequences.len(),
            "fnv1a64": format!("{:016x}", sequences.digest()),
        });
    }
    let config = tournament.config(rules_config);
    let (mut writer, done) = match (&args.out, args.resume) {
        (Some(path), true) if path.exists() => Writer::resume(path, &config, &shard.label())?,
        (Some(path), _) => (Writer::create(path, &config, &shard.label())?, Vec::new()),
        (None, _) => (Writer::none(), Vec::new()),
    };
    let total = tournament.total();
    let bar = std::io::stderr().is_terminal().then(|| {
        let bar = ProgressBar::new(total);
        bar.set_style(
            ProgressStyle::with_template("{bar:40} {pos}/{len} games  {elapsed_precise} (eta {eta})  {msg}")
                .expect("a valid template"),
        );
        bar.set_position(done.len() as u64);
        bar
    });
    let (records, sprt) = tournament.play(done, &mut writer, |progress| {
        let result = &progress.record.result;
        let line = format!(
            "{} game {}: {}, {}",
            progress.label,
            result.index,
            crate::report::plural(result.lines, "line"),
            result.end.name()
        );
        match &bar {
            Some(bar) => {
                bar.set_position(progress.finished);
                bar.set_message(line);
            }
            None => eprintln!("[{}/{}] {line}", progress.finished, progress.total),
        }
    })?;
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    let labels: Vec<String> = tournament.entrants.iter().map(|e| e.label.clone()).collect();
    let report = Report {
        games: records.len() as u64,
        scheduled: total,
        standings: standings(&labels, &records),
        pairings: pairings(&labels, &records),
        sprt,
    };
    print_report(&report, args.format)?;
    Ok(ExitCode::SUCCESS)
}

/// Creates one instance of every entrant before any game, so a bad option is one clear
/// error at the start rather than a failure in the middle.
fn probe(tournament: &Tournament) -> Result<()> {
    for entrant in &tournament.entrants {
        let info = tetrad_plugin_api::abi::GameInfoBuf::new(&tournament.spec.rules, &tournament.spec.pieces, 0);
        entrant.plugin.create(&info, &entrant.options).map_err(|message| {
            anyhow::anyhow!(
                "plugin `{}` ({}): create failed: {message}",
                entrant.label,
                entrant.plugin.path().display()
            )
        })?;
    }
    Ok(())
}

/// The folder for the workers' logs, made if need be: `--worker-logs`, else beside the
/// results file, else a new folder in the temporary directory.
fn worker_logs(args: &TournamentArgs) -> Result<PathBuf> {
    let dir = match (&args.worker_logs, &args.out) {
        (Some(dir), _) => dir.clone(),
        (None, Some(out)) => {
            let mut name = out.file_name().unwrap_or_default().to_os_string();
            name.push(".logs");
            out.with_file_name(name)
        }
        (None, None) => std::env::temp_dir().join(format!("tetrad-{}-logs", std::process::id())),
    };
    std::fs::create_dir_all(&dir).with_context(|| format!("worker logs {}", dir.display()))?;
    Ok(dir)
}

/// The command line that gives a worker the tournament's rules, seed and limits.
fn worker_args(
    args: &TournamentArgs,
    rules: &tetrad_plugin_api::Rules,
    sequences: Option<&crate::engine::Sequences>,
) -> Vec<String> {
    let mut out: Vec<String> = vec![
        "--preset".into(),
        rules.preset.name().into(),
        "--width".into(),
        rules.width.to_string(),
        "--height".into(),
        rules.height.to_string(),
        "--preview".into(),
        rules.preview.to_string(),
        "--randomizer".into(),
        rules.randomizer.name().into(),
        "--seed".into(),
        args.schedule.seed.to_string(),
        "--think-limit-us".into(),
        args.think_limit_us.unwrap_or(DEFAULT_WORKER_THINK_LIMIT_US).to_string(),
        "--max-violations".into(),
        args.max_violations.to_string(),
    ];
    if let Some(pieces) = &args.game.pieces {
        out.extend(["--pieces".into(), pieces.display().to_string()]);
    }
    if let Some(max) = args.schedule.max_pieces {
        out.extend(["--max-pieces".into(), max.to_string()]);
    }
    if let Some(sequences) = sequences {
        out.extend(["--sequence".into(), sequences.path().display().to_string()]);
        out.extend(["--sequence-digest".into(), format!("{:016x}", sequences.digest())]);
    }
    out
}

/// `tetrad worker`: serves games to a tournament over the stdin and stdout it was started
/// with, which it takes for itself before any plugin code runs.
pub fn worker(args: WorkerArgs) -> Result<ExitCode> {
    let channel = WorkerChannel::take_stdio().context("taking the worker's channel")?;
    follow_parent(args.parent_pid);
    let (rules, pieces) = rules_and_pieces(&args.game)?;
    let plugin = load(&args.plugin)?;
    let sequences = super::sequences(args.sequence.as_deref(), &pieces)?;
    if let (Some(sequences), Some(digest)) = (&sequences, &args.sequence_digest) {
        if format!("{:016x}", sequences.digest()) != *digest {
            bail!("{}: changed since the tournament read it", sequences.path().display());
        }
    }
    let spec = RunSpec {
        rules,
        pieces,
        games: u64::MAX,
        seed: args.seed,
        sequences,
        jobs: 1,
        max_pieces: args.max_pieces,
        options: args.options,
        limits: Limits {
            think_limit_ns: Some(args.think_limit_us.saturating_mul(1000)),
            max_violations: args.max_violations,
        },
        watch: None,
        pieces_played: None,
    };
    let options = ServeOptions {
        think_limit_us: args.think_limit_us,
        parent: args.parent_pid,
        progress: args.progress.as_deref(),
    };
    tournament::serve_worker(channel, &plugin, &spec, options)?;
    Ok(ExitCode::SUCCESS)
}

/// `tetrad merge`: one set of standings from several results files of one tournament.
///
/// Every file is read as `--resume` reads it ([`tournament::record::read_from`]), so a line
/// that cannot belong to the tournament is refused with its file and line number. The one
/// duplicate merge accepts is a game held by two files with identical content (two copies
/// of one shard, say): it is counted once. The same game with different content in two
/// files is refused, naming both places.
pub fn merge(args: MergeArgs) -> Result<ExitCode> {
    let mut config = None;
    let mut records: Vec<GameRecord> = Vec::new();
    // Where each game was first seen: file, line, and its place in `records`.
    let mut seen: HashMap<(usize, u64), (usize, usize, usize)> = HashMap::new();
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
        for (record, line) in contents.games.into_iter().zip(contents.game_lines) {
            let key = (record.entrant, record.result.index);
            let Some(&(first_file, first_line, at)) = seen.get(&key) else {
                seen.insert(key, (file, line, records.len()));
                records.push(record);
                continue;
            };
            if serde_json::to_value(&records[at])? != serde_json::to_value(&record)? {
                bail!(
                    "{}:{line}: game {} of entrant {} differs from the same game at {}:{first_line}",
                    path.display(),
                    key.1,
                    key.0,
                    args.files[first_file].display()
                );
            }
        }
    }
    let config = config.expect("at least one file");
    records.sort_by_key(|r| (r.result.index, r.entrant));
    let labels: Vec<String> = config.entrants.iter().map(|e| e.label.clone()).collect();
    let report = Report {
        games: records.len() as u64,
        scheduled: config.games.saturating_mul(labels.len() as u64),
        standings: standings(&labels, &records),
        pairings: pairings(&labels, &records),
        sprt: None,
    };
    print_report(&report, args.format)?;
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::split_entrant;

    #[test]
    fn entrants_split_at_the_at_sign_that_ends_the_plugin() {
        assert_eq!(split_entrant("random"), ("random", None));
        assert_eq!(split_entrant("tree-search@depth=1"), ("tree-search", Some("depth=1")));
        let dir = tempfile::tempdir().expect("a temporary directory");
        let folder = dir.path().join("v1@2");
        std::fs::create_dir(&folder).expect("made");
        let lib = folder.join("libbot.so");
        std::fs::write(&lib, b"").expect("written");
        let lib = lib.display().to_string();
        assert_eq!(split_entrant(&lib), (lib.as_str(), None));
        let with_options = format!("{lib}@depth=2");
        assert_eq!(split_entrant(&with_options), (lib.as_str(), Some("depth=2")));
    }
}

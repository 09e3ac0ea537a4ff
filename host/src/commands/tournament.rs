//! `tetrad tournament` and `tetrad versus`, with the hidden `tetrad worker`'s arguments.

use super::{default_preset, load, note_unlimited};
use crate::cli::{ReportFormat, TournamentArgs};
use crate::plugin::{looks_like_path, plugin_name};
use crate::referee::Limits;
use crate::runner::probe;
use crate::runner::RunSpec;
use crate::setup::args::{play_sequence, setup};
use crate::tournament::{
    self, csv, fixture_line, markdown, match_csv, match_report, match_table, table, Entrant, FixtureRecord, Isolation,
    Report, Shard, Sprt, SprtResult, Tournament, Writer, DEFAULT_WORKER_THINK_LIMIT_US,
};
use anyhow::{bail, Context, Result};
use indicatif::{ProgressBar, ProgressStyle};
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

/// The entrant `PLUGIN[@OPTIONS]` names, playing `shared_options` when it has none of its
/// own, labelled by its name and its options.
pub(super) fn entrant(spec: &str, shared_options: &str) -> Result<Entrant> {
    let (plugin_spec, own_options) = split_entrant(spec);
    let plugin = std::sync::Arc::new(load(plugin_spec)?);
    // The name `tetrad plugins` lists it under, for a file named as a bundled plugin or
    // a manifest; otherwise the name the plugin gives itself.
    let name = plugin_name(plugin.path()).unwrap_or_else(|| plugin.info().name.clone());
    // Options shared by every entrant name each as its own do: whoever reads the
    // standings sees what played.
    let options = own_options.unwrap_or(shared_options).to_string();
    let label = match options.is_empty() {
        false => format!("{name}@{options}"),
        true => name,
    };
    Ok(Entrant { label, plugin, options })
}

fn entrants(args: &TournamentArgs) -> Result<Vec<Entrant>> {
    let mut entrants: Vec<Entrant> = Vec::new();
    for spec in &args.plugins {
        let mut entrant = entrant(spec, &args.options)?;
        let base = entrant.label.clone();
        for n in 2.. {
            if entrants.iter().all(|e| e.label != entrant.label) {
                break;
            }
            entrant.label = format!("{base}#{n}");
        }
        entrants.push(entrant);
    }
    Ok(entrants)
}

pub(super) fn print_report(report: &Report, format: ReportFormat) -> Result<()> {
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
    let played = play(&args, args.versus)?;
    let labels: Vec<String> = played.tournament.entrants.iter().map(|e| e.label.clone()).collect();
    let versus = played.tournament.is_versus();
    let report = Report::new(&labels, versus, &played.fixtures, played.total, played.sprt);
    print_report(&report, args.format)?;
    Ok(ExitCode::SUCCESS)
}

/// `tetrad versus`: a versus tournament of two entrants, reported as a match.
pub fn versus(args: TournamentArgs) -> Result<ExitCode> {
    if args.plugins.len() != 2 {
        bail!(
            "tetrad versus plays exactly two plugins; {} given (for a rated round robin of more, use tetrad tournament --versus)",
            args.plugins.len()
        );
    }
    let played = play(&args, true)?;
    let labels: Vec<&str> = played.tournament.entrants.iter().map(|e| e.label.as_str()).collect();
    let report = match_report(labels[0], labels[1], &played.fixtures, played.total, played.sprt);
    let text = match args.format {
        ReportFormat::Table | ReportFormat::Markdown => match_table(&report),
        ReportFormat::Csv => match_csv(&report),
        ReportFormat::Json => serde_json::to_string_pretty(&report)? + "\n",
    };
    crate::output::reports().write_all(text.as_bytes())?;
    Ok(ExitCode::SUCCESS)
}

/// A tournament played: its fixtures (resumed and new), how many its share holds, and the
/// SPRT's state.
struct Played {
    tournament: Tournament,
    fixtures: Vec<FixtureRecord>,
    total: u64,
    sprt: Option<SprtResult>,
}

/// Sets up the tournament of `args` (versus if `versus`), resumes its results file if
/// asked, and plays what is left, showing progress.
fn play(args: &TournamentArgs, versus: bool) -> Result<Played> {
    let limits = Limits {
        think_limit_ns: args.think_limit_us.map(|us| us.saturating_mul(1000)),
        max_violations: Some(args.max_violations),
        time_control: args.clock.time_control(),
    };
    if args.sprt.is_some() && args.plugins.len() != 2 {
        bail!("--sprt compares exactly two plugins; {} given", args.plugins.len());
    }
    if args.record.is_some() && !versus {
        bail!(
            "--record saves a versus game: add --versus (or use tetrad versus); tetrad run --record saves a solo game"
        );
    }
    if let Some(dir) = &args.record_games {
        std::fs::create_dir_all(dir).with_context(|| format!("--record-games {}", dir.display()))?;
    }
    if versus && args.plugins.len() < 2 {
        bail!("versus needs at least two plugins; {} given", args.plugins.len());
    }
    let entrants = entrants(args)?;
    let mut game = args.game.clone();
    if args.versus_rules.gravity.is_some() {
        // Timing rules are the guideline's: they pick its preset unless another is named.
        game.preset.get_or_insert(tetrad_plugin_api::Preset::Guideline);
    }
    default_preset(&mut game, entrants.iter().map(|entrant| &*entrant.plugin));
    let mut setup = setup(&game, args.schedule.max_pieces, limits)?;
    super::versus_rules::apply(
        &mut setup,
        &args.versus_rules,
        versus,
        "add --versus (or use tetrad versus)",
    )?;
    let sequences = play_sequence(&mut setup, args.sequence.as_deref(), None)?;
    let games = match &sequences {
        Some(sequences) => sequences.games(args.games, crate::cli::MAX_GAMES)?,
        None => args.games.unwrap_or(100),
    };
    let spec = RunSpec {
        setup,
        games,
        seed: args.schedule.seed,
        sequences: sequences.clone(),
        jobs: args.schedule.jobs().map_err(anyhow::Error::msg)?,
        options: String::new(),
        watch: None,
        pieces_played: None,
    };
    let isolation = if args.isolate {
        let exe = std::env::current_exe().context("locating the tetrad binary for worker processes")?;
        let logs = worker_logs(args)?;
        // A folder named for them is a folder to keep.
        if args.worker_logs.is_some() {
            crate::process::keep_logs(true);
        }
        match (versus, crate::process::logs_kept()) {
            // Seats are bot processes, which log where every bot does.
            (true, true) => eprintln!("seat logs in {}", crate::plugin::bot::log_folder().display()),
            (false, true) => eprintln!("worker logs in {}", logs.display()),
            (_, false) => {}
        }
        Some(Isolation {
            exe,
            args: worker_args(&spec, sequences.as_deref())?,
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
        record: args.record.clone(),
        record_games: args.record_games.clone(),
    };
    match tournament.isolation {
        None => probe_entrants(&tournament)?,
        // The workers start bots of their own: the ones that told their info here end now.
        Some(_) => {
            for entrant in &tournament.entrants {
                if let Some(idle) = entrant.plugin.idle_bots() {
                    idle.clear();
                }
            }
        }
    }
    let config = tournament.config();
    let (mut writer, done) = match (&args.out, args.resume) {
        (Some(path), true) if path.exists() => Writer::resume(path, &config, &shard.label())?,
        (Some(path), _) => {
            let games = args
                .record_games
                .as_ref()
                .map(|dir| tournament::folder_for_results(path, dir));
            (
                Writer::create(path, &config, &shard.label(), games.as_deref())?,
                Vec::new(),
            )
        }
        (None, _) => (Writer::none(), Vec::new()),
    };
    note_unlimited(&tournament.spec);
    if tournament.entrants.len() == 1 {
        eprintln!("note: one entrant: its standings have no other entrant to compare with");
    }
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
    let played = tournament.play(done, &mut writer, |progress| {
        let line = fixture_line(&progress.labels, progress.fixture);
        match &bar {
            Some(bar) => {
                bar.set_position(progress.finished);
                bar.set_message(line);
            }
            None => eprintln!("[{}/{}] {line}", progress.finished, progress.total),
        }
    });
    // A folder the user named stays as it is.
    if let (Some(isolation), None) = (&tournament.isolation, &args.worker_logs) {
        crate::process::finish_log_folder(&isolation.logs);
    }
    let (records, sprt) = played?;
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    Ok(Played {
        tournament,
        fixtures: records,
        total,
        sprt,
    })
}

/// Creates one instance of every entrant before any game (see [`probe`]), each refusal
/// named by the entrant's label.
fn probe_entrants(tournament: &Tournament) -> Result<()> {
    for entrant in &tournament.entrants {
        if let Err(err) = probe(&entrant.plugin, &tournament.spec.setup, &entrant.options) {
            bail!(
                "plugin `{}` ({}): create failed: {}",
                entrant.label,
                entrant.plugin.path().display(),
                err.message
            );
        }
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

/// The command line that gives a worker the tournament's setup and seed, and the
/// sequence file to read (checked there against the setup's digest). A worker always has
/// a think limit: an endless loop must end.
fn worker_args(spec: &RunSpec, sequences: Option<&crate::engine::Sequences>) -> Result<Vec<String>> {
    let mut setup = spec.setup.clone();
    setup.limits.think_limit_ns = Some(
        setup
            .limits
            .think_limit_ns
            .unwrap_or(DEFAULT_WORKER_THINK_LIMIT_US.saturating_mul(1000)),
    );
    let mut out: Vec<String> = vec![
        "--setup".into(),
        serde_json::to_string(&setup)?,
        "--seed".into(),
        spec.seed.to_string(),
    ];
    if let Some(sequences) = sequences {
        out.extend(["--sequence".into(), sequences.path().display().to_string()]);
    }
    Ok(out)
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

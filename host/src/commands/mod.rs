//! The subcommands, on top of the loader, the game loop and the reports.

mod install;
mod live;
mod merge;
mod progress;
mod report;
mod screens;
mod tournament;
mod tune;
mod versus_rules;
mod web;
mod worker;

pub use install::install;
pub use merge::merge;
pub use report::report;
pub use screens::{demo, play, replay};
pub use tournament::{tournament, versus};
pub use tune::tune;
pub use worker::{info, sandbox, sandbox_check, seat, worker};

use crate::cli::{CheckArgs, Format, GameArgs, PluginsArgs, RunArgs};
use crate::plugin::{
    bundled_plugins, resolve, search_path, BundledPlugin, Flavour, Plugin, PluginInfo, PLUGIN_PATH_VAR,
};
use crate::referee::Limits;
use crate::replay::Replay;
use crate::report::{game_header, game_line, games_csv, plural, summarize, summary_text};
use crate::runner::probe;
use crate::runner::{self, RunSpec};
use crate::setup::args::{play_sequence, setup};
use anyhow::{bail, Context, Result};
use serde_json::json;
use std::io::Write;
use std::process::ExitCode;
use tetrad_plugin_api::Preset;

/// Loads a plugin given by bundled name or path.
pub(crate) fn load(spec: &str) -> Result<Plugin> {
    let path = resolve(spec)?;
    Ok(Plugin::load(&path)?)
}

/// `tetrad tbp`: the plugin served over the Tetris Bot Protocol until `quit` or the end
/// of input. Its info and the guideline's rules are checked first, so a plugin that cannot
/// play them is one line on standard error.
pub fn tbp(args: crate::cli::TbpArgs) -> Result<ExitCode> {
    let plugin = load(&args.plugin)?;
    let rules = tetrad_plugin_api::Rules::preset(Preset::Guideline);
    let pieces = tetrad_plugin_api::PieceSet::srs();
    crate::player::Player::library(&plugin, &rules, &pieces, args.seed, &args.options)
        .map_err(|refused| anyhow::anyhow!("{}", refused.message))?;
    let mut server = crate::serve::Server::new(&plugin, &args.options, args.seed);
    server.serve(std::io::stdin().lock(), crate::output::reports())?;
    Ok(ExitCode::SUCCESS)
}

/// `tetrad run`.
pub fn run(mut args: RunArgs) -> Result<ExitCode> {
    let plugin = load(&args.plugin)?;
    default_preset(&mut args.game, [&plugin]);
    let limits = Limits {
        time_control: args.clock.time_control(),
        ..Limits::default()
    };
    let mut setup = setup(&args.game, args.schedule.max_pieces, limits)?;
    let sequences = play_sequence(&mut setup, args.sequence.as_deref(), None)?;
    let games = match &sequences {
        Some(sequences) => sequences.games(args.games, crate::cli::MAX_GAMES)?,
        None => args.games.unwrap_or(10),
    };
    let mut spec = RunSpec {
        setup,
        games,
        seed: args.schedule.seed,
        sequences,
        jobs: args.schedule.jobs().map_err(anyhow::Error::msg)?,
        options: args.options.clone(),
        watch: None,
        pieces_played: None,
    };
    let info = plugin.info().clone();
    // A refusal to create is one error line with nothing before it on stdout.
    probe(&plugin, &spec.setup, &spec.options)?;
    note_unlimited(&spec);
    let progress = progress::LiveProgress::start(spec.games);
    spec.pieces_played = progress.as_ref().map(|p| p.pieces());
    let table = args.format == Format::Table;
    if table {
        let mut out = crate::output::reports();
        writeln!(
            out,
            "plugin {} {} (ABI {}, {}){} from {}",
            info.name,
            info.version,
            info.abi,
            info.flavour,
            match spec.options.is_empty() {
                true => String::new(),
                false => format!(" with {}", spec.options),
            },
            plugin.path().display()
        )?;
        let pieces_from = match &spec.sequences {
            Some(sequences) => format!("pieces from {}", sequences.path().display()),
            None => format!("seed {}", spec.seed),
        };
        writeln!(
            out,
            "rules  {}; {}, {pieces_from}",
            spec.setup.rules_text(),
            plural(spec.games, "game")
        )?;
        writeln!(out, "{}", game_header())?;
    }
    // Print games as they finish, so a long run shows progress and an interrupted one
    // keeps what it printed.
    let mut game0 = Vec::new();
    let record = args.record.is_some().then_some(&mut game0);
    let output = runner::run_recorded(&plugin, &spec, record, |result| {
        let print = || {
            if table {
                let mut out = crate::output::reports();
                let _ = writeln!(out, "{}", game_line(result));
                let _ = out.flush();
            }
        };
        match &progress {
            Some(progress) => progress.game_done(print),
            None => print(),
        }
    });
    if let Some(progress) = progress {
        progress.finish();
    }
    let output = output?;
    if let (Some(path), Some(first)) = (&args.record, output.results.first()) {
        Replay::of_run_game(&plugin, &spec, first, game0).save(path)?;
    }
    let summary = summarize(&output.results, &output.update_ns);
    let results = output.results;
    let mut out = crate::output::reports();
    match args.format {
        Format::Table => writeln!(out, "\n{}", summary_text(&summary))?,
        Format::Json => {
            let document = json!({
                "plugin": { "name": info.name, "version": info.version, "abi": info.abi, "flavour": info.flavour, "path": plugin.path() },
                "setup": spec.setup,
                "run": { "games": spec.games, "seed": spec.seed, "options": spec.options },
                "summary": summary,
                "games": results,
            });
            writeln!(out, "{}", serde_json::to_string_pretty(&document)?)?;
        }
        Format::Csv => write!(out, "{}", games_csv(&results))?,
    }
    Ok(run_status(&results))
}

/// Says on standard error, in one line, that the games of `spec` have no end but the
/// plugin's: no `--max-pieces`, and no given sequence whose lines end them.
pub(crate) fn note_unlimited(spec: &RunSpec) {
    if spec.setup.max_pieces.is_none() && spec.sequences.is_none() {
        eprintln!(
            "note: games are unlimited (no --max-pieces): each lasts until the plugin tops out, which a strong one may take hours to do"
        );
    }
}

/// The exit status of a run that played `results`: [`ALL_FORFEITED`] when there were
/// games and the plugin forfeited every one (its summary is printed all the same).
fn run_status(results: &[runner::GameResult]) -> ExitCode {
    if !results.is_empty() && results.iter().all(|r| r.end.is_forfeit()) {
        ExitCode::from(ALL_FORFEITED)
    } else {
        ExitCode::SUCCESS
    }
}

/// The exit status of `tetrad run` when the plugin forfeited every game (a plugin error,
/// a stall, a timeout or too many violations in each).
pub const ALL_FORFEITED: u8 = 3;

/// `tetrad plugins`.
pub fn plugins(args: PluginsArgs) -> Result<ExitCode> {
    let searched = search_path();
    let rows: Vec<(BundledPlugin, Result<PluginInfo, String>)> = bundled_plugins()
        .into_iter()
        .map(|bundled| {
            let loaded = Plugin::load(&bundled.path)
                .map(|p| p.info().clone())
                .map_err(|e| e.to_string());
            (bundled, loaded)
        })
        .collect();
    let mut out = crate::output::reports();
    match args.format {
        Format::Json => {
            let list: Vec<serde_json::Value> = rows
                .iter()
                .map(|(bundled, loaded)| match loaded {
                    Ok(info) => json!({ "name": bundled.name, "path": bundled.path, "info": info }),
                    Err(err) => json!({ "name": bundled.name, "path": bundled.path, "error": err }),
                })
                .collect();
            let document = json!({ "plugins": list, "searched": searched });
            writeln!(out, "{}", serde_json::to_string_pretty(&document)?)?;
        }
        Format::Csv => {
            writeln!(out, "name,version,abi,flavour,author,description,path,error")?;
            for (bundled, loaded) in &rows {
                let path = bundled.path.display().to_string();
                let fields: Vec<String> = match loaded {
                    Ok(info) => vec![
                        bundled.name.clone(),
                        info.version.clone(),
                        info.abi.to_string(),
                        info.flavour.to_string(),
                        info.author.clone(),
                        info.description.clone(),
                        path,
                        String::new(),
                    ],
                    Err(err) => {
                        let mut fields = vec![bundled.name.clone()];
                        fields.extend(std::iter::repeat_n(String::new(), 5));
                        fields.extend([path, err.clone()]);
                        fields
                    }
                };
                let quoted: Vec<String> = fields.iter().map(|f| csv_field(f)).collect();
                writeln!(out, "{}", quoted.join(","))?;
            }
        }
        Format::Table => {
            writeln!(
                out,
                "{:<14} {:<8} {:<4} {:<8} {:<18} description",
                "name", "version", "abi", "flavour", "author"
            )?;
            for (bundled, loaded) in &rows {
                match loaded {
                    Ok(info) => writeln!(
                        out,
                        "{:<14} {:<8} {:<4} {:<8} {:<18} {}",
                        bundled.name,
                        info.version,
                        info.abi,
                        info.flavour.to_string(),
                        info.author,
                        info.description
                    )?,
                    Err(err) => writeln!(out, "{:<14} (cannot load: {err})", bundled.name)?,
                }
            }
            writeln!(out, "\nsearched, in order (set {PLUGIN_PATH_VAR} to add folders):")?;
            for dir in &searched {
                let count = rows
                    .iter()
                    .filter(|(b, _)| b.path.parent() == Some(dir.as_path()))
                    .count();
                let state = if dir.is_dir() {
                    format!("{count} used")
                } else {
                    "absent".to_string()
                };
                writeln!(out, "  {} ({state})", dir.display())?;
            }
        }
    }
    if rows.is_empty() {
        bail!("no bundled plugins found on the search path; build them with `cargo build --release`, or install them with `tetrad install`");
    }
    Ok(ExitCode::SUCCESS)
}

/// A CSV field, quoted when it holds a comma, a quote or a line break.
fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_string()
    }
}

/// With no `--preset`, Tetris Bot Protocol bots play `guideline`, the only rules the
/// protocol describes; any other plugin among `plugins` keeps the `classic` default.
pub(crate) fn default_preset<'p>(game: &mut GameArgs, plugins: impl IntoIterator<Item = &'p Plugin>) {
    let mut plugins = plugins.into_iter().peekable();
    if plugins.peek().is_some() && plugins.all(|plugin| plugin.info().flavour == Flavour::Tbp) {
        game.preset.get_or_insert(Preset::Guideline);
    }
}

/// `tetrad check`.
pub fn check(mut args: CheckArgs) -> Result<ExitCode> {
    let plugin = load(&args.path)?;
    default_preset(&mut args.game, [&plugin]);
    let setup = setup(&args.game, Some(args.max_pieces), Limits::default())?;
    let info = plugin.info();
    let mut out = crate::output::reports();
    writeln!(out, "file         {}", plugin.path().display())?;
    writeln!(out, "name         {}", info.name)?;
    writeln!(out, "version      {}", info.version)?;
    writeln!(out, "author       {}", info.author)?;
    writeln!(out, "description  {}", info.description)?;
    writeln!(out, "abi          {} ({})", info.abi, info.flavour)?;
    let spec = RunSpec {
        setup,
        games: 1,
        seed: args.seed,
        sequences: None,
        jobs: 1,
        options: args.options.clone(),
        watch: None,
        pieces_played: None,
    };
    let result = runner::play_game(&plugin, &spec, 0).context("test game")?;
    writeln!(
        out,
        "test game    {}: {}, {}, {}, ended {}",
        spec.setup.rules_text(),
        plural(result.lines, "line"),
        plural(result.pieces, "piece"),
        plural(result.ticks, "tick"),
        result.end.name()
    )?;
    writeln!(
        out,
        "update       mean {:.2} µs, max {:.2} µs",
        result.update_us_mean,
        result.update_ns.max() as f64 / 1000.0
    )?;
    writeln!(out, "violations   {}", result.violations)?;
    if let Some(error) = &result.error {
        writeln!(out, "error        {error}")?;
    }
    let healthy = result.violations == 0 && result.error.is_none();
    writeln!(out, "verdict      {}", if healthy { "ok" } else { "FAILED" })?;
    Ok(if healthy { ExitCode::SUCCESS } else { ExitCode::FAILURE })
}

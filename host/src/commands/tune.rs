//! `tetrad tune`.

use super::{default_preset, load};
use crate::cli::TuneArgs;
use crate::cli::MAX_GAMES;
use crate::referee::Limits;
use crate::runner::probe;
use crate::runner::RunSpec;
use crate::setup::args::setup;
use crate::tune::{tune as run_tune, Checkpoint, CheckpointLock, TuneConfig};
use anyhow::{bail, Result};
use indicatif::{ProgressBar, ProgressStyle};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

/// Numbers given once for every parameter, or once per parameter.
fn per_parameter(flag: &str, text: &str, params: usize) -> Result<Vec<f64>> {
    let values: Vec<f64> = text
        .split(',')
        .map(|v| {
            v.trim()
                .parse::<f64>()
                .map_err(|_| anyhow::anyhow!("{flag}: `{v}` is not a number"))
        })
        .collect::<Result<_>>()?;
    match values.len() {
        1 => Ok(vec![values[0]; params]),
        n if n == params => Ok(values),
        n => bail!("{flag} has {n} values for {params} parameters"),
    }
}

/// The names of a comma-separated list, blanks dropped.
fn names(list: &str) -> Vec<String> {
    list.split(',')
        .map(|name| name.trim().to_string())
        .filter(|name| !name.is_empty())
        .collect()
}

/// `tetrad tune`.
pub fn tune(mut args: TuneArgs) -> Result<ExitCode> {
    let plugin = Arc::new(load(&args.plugin)?);
    default_preset(&mut args.game, [plugin.as_ref()]);
    let setup = setup(&args.game, args.schedule.max_pieces, Limits::default())?;
    let params = names(&args.params);
    if params.is_empty() {
        bail!("--params names no option to tune");
    }
    let whole: Vec<String> = names(&args.whole);
    if let Some(stray) = whole.iter().find(|name| !params.contains(name)) {
        bail!("--whole names `{stray}`, which is not one of --params");
    }
    // The value parsers bound each number; a generation's games are a tournament of their
    // product, which must stay within what a tournament plays.
    if args.population.saturating_mul(args.games) > MAX_GAMES {
        bail!(
            "--population {} times --games {} is more than {MAX_GAMES} games per generation",
            args.population,
            args.games
        );
    }
    let initial_mean = per_parameter("--initial", &args.initial, params.len())?;
    let initial_sd = per_parameter("--sd", &args.sd, params.len())?;
    let config = TuneConfig {
        plugin: format!("{} {}", plugin.info().name, plugin.info().version),
        params,
        whole,
        fixed_options: args.options.clone(),
        games: args.games,
        generations: args.generations,
        population: args.population,
        elite_fraction: args.elite,
        seed: args.schedule.seed,
        initial_mean,
        initial_sd,
        noise: args.noise,
        setup: setup.clone(),
    };
    let path = args
        .checkpoint
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("tune-{}.json", plugin.info().name)));
    // Held until the tune ends: a second tune on this checkpoint is refused.
    let _lock = CheckpointLock::acquire(&path)?;
    let mut checkpoint = if path.exists() {
        if !args.resume {
            bail!(
                "{}: already exists; pass --resume to continue it, or remove it",
                path.display()
            );
        }
        let saved = Checkpoint::load(&path)?;
        if saved.config != config {
            bail!(
                "{}: written for other tune arguments; use the same arguments, or another --checkpoint",
                path.display()
            );
        }
        saved
    } else {
        Checkpoint::new(config)
    };
    // One instance per candidate up front: a bad parameter name fails here, at once.
    probe(&plugin, &setup, &checkpoint.options())?;
    let base = RunSpec {
        setup,
        games: args.games,
        seed: args.schedule.seed,
        sequences: None,
        jobs: args.schedule.jobs().map_err(anyhow::Error::msg)?,
        options: String::new(),
        watch: None,
        pieces_played: None,
    };
    let bar = std::io::stderr().is_terminal().then(|| {
        let bar = ProgressBar::new(args.generations);
        bar.set_style(
            ProgressStyle::with_template("{bar:40} generation {pos}/{len}  {elapsed_precise} (eta {eta})  {msg}")
                .expect("a valid template"),
        );
        bar.set_position(checkpoint.history.len() as u64);
        bar
    });
    run_tune(plugin, &base, &mut checkpoint, &path, |g| {
        let mut line = format!(
            "generation {}: best {:.1} lines, elite {:.1}",
            g.generation, g.best_lines, g.elite_lines
        );
        if g.refused > 0 {
            line.push_str(&format!(", {} candidates refused by the plugin", g.refused));
        }
        match &bar {
            Some(bar) => {
                bar.set_position(g.generation + 1);
                bar.set_message(line);
            }
            None => eprintln!("{line}"),
        }
    })?;
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    if let Some((options, lines, generation)) = checkpoint.best_candidate() {
        eprintln!("best single candidate: {lines:.1} lines in generation {generation}: {options}");
    }
    eprintln!("the distribution's mean (printed on stdout) is the method's answer; compare both on fresh seeds with `tetrad tournament`");
    writeln!(crate::output::reports(), "{}", checkpoint.options())?;
    Ok(ExitCode::SUCCESS)
}

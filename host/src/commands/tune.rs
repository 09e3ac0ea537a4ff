//! `tetrad tune`.

use super::tournament::entrant;
use super::{default_preset, load, versus_rules};
use crate::cli::TuneArgs;
use crate::cli::MAX_GAMES;
use crate::referee::Limits;
use crate::runner::probe;
use crate::runner::RunSpec;
use crate::setup::args::setup;
use crate::tournament::{Entrant, Sprt};
use crate::tune::{sprt_match, tune as run_tune, versus, Checkpoint, CheckpointLock, Opponent, Rival, TuneConfig};
use anyhow::{bail, Result};
use indicatif::{ProgressBar, ProgressStyle};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use tetrad_plugin_api::derive_seed;

/// Most games the closing `--sprt` match plays when `--sprt-games` is not given.
const DEFAULT_SPRT_GAMES: u64 = 2000;

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

/// The opponent `--opponent` names, loaded: `mean`, or a plugin as a tournament entrant.
fn opponent(spec: Option<&str>) -> Result<Option<(Opponent, Option<Entrant>)>> {
    let Some(spec) = spec else {
        return Ok(None);
    };
    if spec == MEAN {
        return Ok(Some((Opponent::Mean, None)));
    }
    let entrant = entrant(spec, "")?;
    let opponent = Opponent::Bot {
        label: entrant.label.clone(),
        plugin: format!("{} {}", entrant.plugin.info().name, entrant.plugin.info().version),
        options: entrant.options.clone(),
    };
    Ok(Some((opponent, Some(entrant))))
}

/// `--opponent mean`: each generation plays the mean it was drawn around.
const MEAN: &str = "mean";

/// `tetrad tune`.
pub fn tune(mut args: TuneArgs) -> Result<ExitCode> {
    let plugin = Arc::new(load(&args.plugin)?);
    let opponent = opponent(args.opponent.as_deref())?;
    let bot = opponent.as_ref().and_then(|(_, bot)| bot.as_ref());
    default_preset(
        &mut args.game,
        std::iter::once(plugin.as_ref()).chain(bot.map(|bot| bot.plugin.as_ref())),
    );
    let limits = Limits {
        time_control: args.clock.time_control(),
        ..Limits::default()
    };
    let mut setup = setup(&args.game, args.schedule.max_pieces, limits)?;
    versus_rules::apply(&mut setup, &args.versus_rules, opponent.is_some(), "add --opponent")?;
    if args.sprt.is_some() && opponent.is_none() {
        bail!("--sprt plays the tuned mean in versus games: add --opponent");
    }
    if args.sprt_games.is_some() && args.sprt.is_none() {
        bail!("--sprt-games limits the --sprt match: add --sprt");
    }
    if let Some(bot) = bot {
        if let Err(err) = probe(&bot.plugin, &setup, &bot.options) {
            bail!("--opponent `{}`: {}", bot.label, err.message);
        }
    }
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
        opponent: opponent.as_ref().map(|(opponent, _)| opponent.clone()),
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
        if saved.config.opponent != config.opponent {
            let name = |opponent: &Option<Opponent>| match opponent {
                Some(opponent) => format!("--opponent {}", opponent.label()),
                None => "no --opponent".to_string(),
            };
            bail!(
                "{}: written with {}, not {}; resume with the same opponent, or use another --checkpoint",
                path.display(),
                name(&saved.config.opponent),
                name(&config.opponent)
            );
        }
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
    let rival = match &opponent {
        None => Rival::Solo,
        Some((_, Some(bot))) => Rival::Bot(bot.plugin.clone(), bot.options.clone()),
        Some((_, None)) => Rival::Mean,
    };
    let done = checkpoint.history.len() as u64;
    run_tune(plugin.clone(), &base, &rival, &mut checkpoint, &path, |g| {
        let mut line = match (g.best_points, g.elite_points) {
            (Some(best), Some(elite)) => format!(
                "generation {}: best {:.1}% of the points ({:.1} lines), elite {:.1}%",
                g.generation,
                100.0 * best,
                g.best_lines,
                100.0 * elite
            ),
            _ => format!(
                "generation {}: best {:.1} lines, elite {:.1}",
                g.generation, g.best_lines, g.elite_lines
            ),
        };
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
    if let Some((options, score, generation)) = checkpoint.best_candidate() {
        let score = match opponent {
            Some(_) => format!("{:.1}% of the points", 100.0 * score),
            None => format!("{score:.1} lines"),
        };
        eprintln!("best single candidate: {score} in generation {generation}: {options}");
    }
    match (args.sprt, &opponent) {
        (Some((elo0, elo1)), Some((_, bot))) => {
            let limit = args.sprt_games.unwrap_or(DEFAULT_SPRT_GAMES);
            let start = checkpoint.config.options(&checkpoint.config.initial_mean);
            let against = match bot {
                Some(bot) => versus::entrant(&bot.label, &bot.plugin, bot.options.clone()),
                None => versus::entrant("the starting weights", &plugin, start),
            };
            let same = checkpoint.sprt.as_ref().is_some_and(|s| {
                (s.elo0, s.elo1, s.limit, s.against.as_str()) == (elo0, elo1, limit, against.label.as_str())
            });
            // A finished run resumed with the same test is not played again.
            if !same || done < checkpoint.config.generations {
                eprintln!(
                    "sprt [{elo0}, {elo1}]: the tuned mean plays {} (at most {limit} games)",
                    against.label
                );
                let tuned = versus::entrant("tuned", &plugin, checkpoint.options());
                let spec = RunSpec {
                    seed: derive_seed(args.schedule.seed, 2 << 32),
                    games: limit,
                    ..base
                };
                checkpoint.sprt = Some(sprt_match(tuned, against, spec, Sprt { elo0, elo1 })?);
                checkpoint.save(&path)?;
            }
            eprintln!("{}", checkpoint.sprt.as_ref().expect("just played").summary());
        }
        (_, opponent) => {
            let check = match opponent {
                Some(_) => "test it on fresh seeds with --sprt, or with `tetrad versus --sprt`",
                None => "compare both on fresh seeds with `tetrad tournament`",
            };
            eprintln!("the distribution's mean (printed on stdout) is the method's answer; {check}");
        }
    }
    writeln!(crate::output::reports(), "{}", checkpoint.options())?;
    Ok(ExitCode::SUCCESS)
}

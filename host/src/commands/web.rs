//! `tetrad play --web`: the setup of a person's games against a bot in the browser, and
//! the server that referees them (see [`crate::web`]).

use super::load;
use super::screens::session;
use crate::cli::PlayArgs;
use crate::engine::{GarbageRules, Gravity, Pace, Speed, Timing};
use anyhow::{bail, Context, Result};
use std::process::ExitCode;
use tetrad_plugin_api::Preset;

/// `tetrad play --web`.
pub fn play(mut args: PlayArgs) -> Result<ExitCode> {
    if args.record.is_some() {
        bail!("--record saves a game in the terminal; with --web every game is saved in --record-games DIR");
    }
    let bot = load(args.plugin.as_deref().unwrap_or("tree-search"))?;
    args.game.preset.get_or_insert(Preset::Guideline);
    args.versus.versus = true;
    let session = session(&args.game, args.seed, args.max_pieces, None, args.versus)?;
    let mut setup = session.setup;
    if setup.rules.preset != Preset::Guideline {
        bail!(crate::engine::TimingError::Preset(
            setup.rules.preset.name().to_string()
        ));
    }
    let timing = args.realtime.timing().unwrap_or(Timing {
        gravity: Gravity::Guideline,
        lock_delay_ms: args.realtime.lock_delay,
        move_reset_limit: args.realtime.move_resets,
    });
    timing.check()?;
    setup.timing = Some(timing);
    setup.pace = Pace::Realtime;
    setup.speed = Speed {
        pps: args.pps,
        move_ms: 0.0,
    };
    let plain = setup.garbage;
    if let Some(set) = args.garbage {
        setup.garbage = GarbageRules { ..set.rules() };
    }
    // A bad option of the bot is one line now, not a failure at the first game.
    crate::runner::probe(&bot, &setup, &args.options)?;
    let dir = match args.record_games {
        Some(dir) => dir,
        None => std::env::temp_dir().join(format!("tetrad-play-{}", std::process::id())),
    };
    std::fs::create_dir_all(&dir).with_context(|| format!("--record-games {}", dir.display()))?;
    let settings = crate::web::Settings {
        bot: bot_name(&bot, args.plugin.as_deref()),
        pps: args.pps,
        garbage: args.garbage.map(|set| set.name().to_string()),
    };
    let results = match &args.out {
        Some(path) => {
            let (writer, next) = results(path, &args.name, &bot, &args.options, &setup, args.seed)?;
            Some(crate::web::Results {
                writer,
                next,
                settings: settings.clone(),
                path: path.clone(),
            })
        }
        None => None,
    };
    let offer = crate::web::Offer::new(
        setup.clone(),
        plain,
        (settings.bot.clone(), bot.path().to_path_buf()),
        args.options.clone(),
    );
    let server = crate::web::Server::bind(args.port).context("binding 127.0.0.1")?;
    println!("{}", server.url());
    println!("games are saved in {}", dir.display());
    let config = crate::web::Config {
        choice: crate::web::Choice {
            bot,
            options: args.options,
            setup,
            settings,
        },
        seed: args.seed,
        dir,
        countdown: std::time::Duration::from_millis(args.countdown),
        results,
    };
    server.serve(config, offer)?;
    Ok(ExitCode::SUCCESS)
}

/// The name the page lists the command line's bot under: its short name when it is a
/// bundled or installed one, else its file's name.
fn bot_name(bot: &crate::plugin::Plugin, spec: Option<&str>) -> String {
    crate::plugin::plugin_name(bot.path())
        .or_else(|| bot.path().file_name().map(|name| name.to_string_lossy().into_owned()))
        .or_else(|| spec.map(str::to_string))
        .unwrap_or_else(|| bot.info().name.clone())
}

/// Games a person's results file is made for: its header names a count, as a tournament's
/// does, and a person plays on until they stop.
pub const PERSON_GAMES: u64 = 1_000_000;

/// The results file `path` for the person `name` against `bot`, and the index of its next
/// game: continued when it holds
/// the same setup, opponent and seed (its games go on from the last), else started; a
/// file of another setup is refused in one line, as `--resume` refuses.
fn results(
    path: &std::path::Path,
    name: &str,
    bot: &crate::plugin::Plugin,
    options: &str,
    setup: &crate::setup::Setup,
    seed: u64,
) -> Result<(crate::tournament::Writer, u64)> {
    use crate::tournament::{Config, EntrantConfig, Writer};
    let info = bot.info();
    if name.trim().is_empty() || name == info.name {
        bail!("--name `{name}`: give a name of your own, not empty nor the bot's");
    }
    let config = Config {
        entrants: vec![
            EntrantConfig {
                label: name.to_string(),
                plugin: "person".to_string(),
                options: String::new(),
            },
            EntrantConfig {
                label: info.name.clone(),
                plugin: format!("{} {}", info.name, info.version),
                options: options.to_string(),
            },
        ],
        setup: setup.clone(),
        games: PERSON_GAMES,
        seed,
    };
    let (writer, next) = match path.exists() {
        true => {
            let (writer, done) = Writer::resume(path, &config, "1/1")?;
            (writer, done.iter().map(|f| f.game + 1).max().unwrap_or(0))
        }
        false => (Writer::create(path, &config, "1/1", None)?, 0),
    };
    if next >= PERSON_GAMES {
        bail!(
            "{}: holds its {PERSON_GAMES} games; start another --out file",
            path.display()
        );
    }
    Ok((writer, next))
}

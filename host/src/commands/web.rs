//! `tetrad play --web`: the setup of a person's games against a bot in the browser, and
//! the server that referees them (see [`crate::web`]).

use super::load;
use crate::cli::PlayArgs;
use anyhow::{bail, Context, Result};
use std::process::ExitCode;

/// `tetrad play --web`.
pub fn play(mut args: PlayArgs) -> Result<ExitCode> {
    if args.record.is_some() {
        bail!("--record saves a game in the terminal; with --web every game is saved in --record-games DIR");
    }
    let bot = load(args.plugin.as_deref().unwrap_or("tree-search"))?;
    let (setup, plain) = super::live::setup(&mut args, &bot)?;
    let dir = match args.record_games.take() {
        Some(dir) => dir,
        None => std::env::temp_dir().join(format!("tetrad-play-{}", std::process::id())),
    };
    std::fs::create_dir_all(&dir).with_context(|| format!("--record-games {}", dir.display()))?;
    let settings = crate::web::Settings {
        bot: bot_name(&bot, args.plugin.as_deref()),
        pps: args.pps,
        garbage: args.garbage.map(|set| set.name().to_string()),
    };
    let results = match (super::live::results(&args, &bot, &setup)?, &args.out) {
        (Some(results), Some(path)) => {
            let (writer, next) = results.into_parts();
            Some(crate::web::Results {
                writer,
                next,
                settings: settings.clone(),
                path: path.clone(),
            })
        }
        _ => None,
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
        countdown: std::time::Duration::from_millis(args.countdown.unwrap_or(crate::cli::DEFAULT_COUNTDOWN_MS)),
        results,
        handling: args.realtime.handling(),
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

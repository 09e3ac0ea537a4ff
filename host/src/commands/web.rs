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
    let setup = super::live::setup(&mut args, &bot)?;
    let results = super::live::results(&args, &bot, &setup)?.map(|results| {
        let (writer, next) = results.into_parts();
        crate::web::Results { writer, next }
    });
    let dir = match args.record_games {
        Some(dir) => dir,
        None => std::env::temp_dir().join(format!("tetrad-play-{}", std::process::id())),
    };
    std::fs::create_dir_all(&dir).with_context(|| format!("--record-games {}", dir.display()))?;
    let server = crate::web::Server::bind(args.port).context("binding 127.0.0.1")?;
    println!("{}", server.url());
    println!("games are saved in {}", dir.display());
    let config = crate::web::Config {
        setup,
        seed: args.seed,
        bot: (bot, args.options),
        dir,
        countdown: std::time::Duration::from_millis(args.countdown.unwrap_or(crate::cli::DEFAULT_COUNTDOWN_MS)),
        results,
    };
    server.serve(config)?;
    Ok(ExitCode::SUCCESS)
}

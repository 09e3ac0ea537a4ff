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
    let server = crate::web::Server::bind(args.port).context("binding 127.0.0.1")?;
    println!("{}", server.url());
    println!("games are saved in {}", dir.display());
    let config = crate::web::Config {
        setup,
        seed: args.seed,
        bot: (bot, args.options),
        dir,
        countdown: std::time::Duration::from_millis(args.countdown),
    };
    server.serve(config)?;
    Ok(ExitCode::SUCCESS)
}

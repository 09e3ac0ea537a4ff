//! `tetrad demo`, `tetrad play` and `tetrad replay`: the command line turned into a screen's
//! setup, and `replay --verify`, which needs no screen.

use super::{default_preset, load};
use crate::cli::{DemoArgs, GameArgs, PlayArgs, ReplayArgs, ScreenVersus, DEFAULT_COUNTDOWN_MS};
use crate::engine::AttackTable;
use crate::plugin::{bundled_plugins, Plugin};
use crate::referee::Limits;
use crate::replay::Replay;
use crate::setup::args::setup;
use crate::tui::{need_terminal, show, App, LiveOptions, Playback, Session};
use anyhow::{bail, Context, Result};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

pub(super) fn session(
    game: &GameArgs,
    seed: u64,
    max_pieces: Option<u64>,
    record: Option<PathBuf>,
    versus: ScreenVersus,
) -> Result<Session> {
    let mut setup = setup(game, max_pieces, Limits::default())?;
    setup.attack = match versus {
        ScreenVersus { versus: true, attack } => Some(attack.unwrap_or_else(|| AttackTable::for_rules(&setup.rules))),
        ScreenVersus { attack: Some(_), .. } => bail!("--attack sets the garbage of versus games: add --versus"),
        _ => None,
    };
    Ok(Session { setup, seed, record })
}

/// `tetrad demo`.
pub fn demo(mut args: DemoArgs) -> Result<ExitCode> {
    let plugins = if args.plugin.is_empty() {
        // Every bundled plugin that loads.
        let found: Vec<Plugin> = bundled_plugins()
            .into_iter()
            .filter_map(|bundled| Plugin::load(&bundled.path).ok())
            .collect();
        if found.is_empty() {
            bail!("no bundled plugins next to the executable; give one with --plugin NAME|PATH");
        }
        found
    } else {
        args.plugin.iter().map(|spec| load(spec)).collect::<Result<Vec<_>>>()?
    };
    default_preset(&mut args.game, &plugins);
    let session = session(&args.game, args.seed, args.max_pieces, args.record, args.versus)?;
    need_terminal("demo needs a terminal; use `tetrad run` for headless games")?;
    let options = match args.options.len() {
        0 => vec![String::new(); plugins.len()],
        1 => vec![args.options[0].clone(); plugins.len()],
        n if n == plugins.len() => args.options,
        n => bail!(
            "{n} --options for {} plugins: give --options once for all plugins, or once per --plugin",
            plugins.len()
        ),
    };
    show(App::demo(session, plugins.into_iter().zip(options).collect())?)
}

/// `tetrad play`.
pub fn play(mut args: PlayArgs) -> Result<ExitCode> {
    if args.web {
        return super::web::play(args);
    }
    let versus = args.versus.versus;
    if !versus && args.plugin.is_some() {
        bail!("--plugin picks your opponent in `tetrad play --versus`: add --versus");
    }
    // An option of a game against a bot in real time (the person's handling too) plays
    // one, by default at the guideline's gravity.
    if versus && (args.realtime.gravity.is_some() || live_only(&args).is_some() || args.realtime.handling_given()) {
        return play_live(args);
    }
    if let Some(option) = live_only(&args) {
        bail!("{option} is for a game against a bot in real time: add --versus (or play in the browser with --web)");
    }
    let opponent = if versus {
        Some(load(args.plugin.as_deref().unwrap_or("tree-search"))?)
    } else {
        None
    };
    // A person plays whatever rules are given; a TBP opponent plays guideline only.
    default_preset(&mut args.game, &opponent);
    let mut session = session(&args.game, args.seed, args.max_pieces, args.record, args.versus)?;
    if let Some(timing) = args.realtime.timing() {
        if session.setup.rules.preset != tetrad_plugin_api::Preset::Guideline {
            bail!(crate::engine::TimingError::Preset(
                session.setup.rules.preset.name().to_string()
            ));
        }
        timing.check()?;
        session.setup.timing = Some(timing);
    }
    need_terminal("play needs a terminal")?;
    match opponent {
        Some(opponent) => show(App::play_versus(session, (opponent, args.options))?),
        None if session.setup.timing.is_some() => show(App::play_timed(session, args.realtime.handling())),
        None => show(App::play(session)),
    }
}

/// The option given that only a game against a bot in real time plays, if any.
fn live_only(args: &PlayArgs) -> Option<&'static str> {
    [
        (args.pps.is_some(), "--pps"),
        (args.garbage.is_some(), "--garbage"),
        (args.countdown.is_some(), "--countdown"),
        (args.record_games.is_some(), "--record-games"),
        (args.out.is_some(), "--out"),
    ]
    .into_iter()
    .find_map(|(given, option)| given.then_some(option))
}

/// `tetrad play --versus --gravity` (or `--versus` with another option of real-time play):
/// the person against a bot in real time, in the terminal, as in the browser.
fn play_live(mut args: PlayArgs) -> Result<ExitCode> {
    let bot = load(args.plugin.as_deref().unwrap_or("tree-search"))?;
    let (setup, _) = super::live::setup(&mut args, &bot)?;
    need_terminal("play needs a terminal")?;
    if let Some(dir) = &args.record_games {
        std::fs::create_dir_all(dir).with_context(|| format!("--record-games {}", dir.display()))?;
    }
    let results = super::live::results(&args, &bot, &setup)?;
    let session = Session {
        setup,
        seed: args.seed,
        record: args.record,
    };
    let options = LiveOptions {
        bot: (bot, args.options),
        handling: args.realtime.handling(),
        countdown: Duration::from_millis(args.countdown.unwrap_or(DEFAULT_COUNTDOWN_MS)),
        games_dir: args.record_games,
        results,
    };
    show(App::play_live(session, options)?)
}

/// `tetrad replay`: plays a replay back, or with `--verify` re-simulates it headless.
pub fn replay(args: ReplayArgs) -> Result<ExitCode> {
    if let Some(out) = &args.html {
        return super::report::replay_page(&args.file, out);
    }
    if args.verify {
        let replay = Replay::load(&args.file)?;
        let outcomes = replay.verify().with_context(|| args.file.display().to_string())?;
        let seats: Vec<String> = outcomes
            .iter()
            .zip(&replay.seats)
            .map(|(outcome, seat)| {
                let players: Vec<String> = seat.players.iter().map(|p| p.label()).collect();
                format!(
                    "{}, {}, {} points, {} ticks, ended {} ({})",
                    crate::report::plural(outcome.lines, "line"),
                    crate::report::plural(outcome.pieces, "piece"),
                    outcome.score,
                    outcome.ticks,
                    outcome.end.name(),
                    players.join(", ")
                )
            })
            .collect();
        // One line a file: in versus, the seats in order, each after a bar.
        writeln!(
            crate::output::reports(),
            "ok  {}: {}",
            args.file.display(),
            seats.join(" | ")
        )?;
        return Ok(ExitCode::SUCCESS);
    }
    need_terminal("replay needs a terminal; use `tetrad replay --verify FILE` to check a replay headless")?;
    let replay = Replay::load(&args.file)?;
    if replay.setup.attack.is_some() && !replay.setup.pace.is_ticks() {
        bail!(
            "{}: a versus game at the `{}` pace cannot be played back on screen yet; `tetrad replay --verify` checks it",
            args.file.display(),
            replay.setup.pace
        );
    }
    show(App::replay(Playback::new(replay)?))
}

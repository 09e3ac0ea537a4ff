//! The terminal screens: `tetrad demo` (a plugin plays, plugins swap live), `tetrad play`
//! (a person plays) and `tetrad replay` (a recorded game plays back, or is verified
//! headless). State in [`app`], drawing in [`ui`], the terminal in [`terminal`].

pub mod app;
pub mod keys;
pub mod pilots;
pub mod playback;
pub mod recorder;
pub mod speed;
pub mod terminal;
pub mod tracked;
pub mod ui;

pub use app::{App, Setup};
pub use playback::Playback;

use crate::cli::{DemoArgs, GameArgs, PlayArgs, ReplayArgs};
use crate::commands::{load, rules_and_pieces};
use crate::plugin::{bundled_plugins, Plugin};
use crate::replay::Replay;
use anyhow::{bail, Context, Result};
use std::path::PathBuf;
use std::process::ExitCode;

/// Fails with `message` unless standard output is a terminal.
fn need_terminal(message: &str) -> Result<()> {
    if !terminal::is_terminal() {
        bail!("{message}");
    }
    Ok(())
}

fn setup(game: &GameArgs, seed: u64, max_pieces: Option<u64>, record: Option<PathBuf>) -> Result<Setup> {
    let (rules, pieces) = rules_and_pieces(game)?;
    Ok(Setup {
        rules,
        pieces,
        seed,
        max_pieces,
        record,
    })
}

/// Runs `app` on the terminal, then reports a replay that could not be saved.
fn show(mut app: App) -> Result<ExitCode> {
    terminal::run(&mut app).context("terminal")?;
    if let Some(err) = app.take_save_error() {
        return Err(err.into());
    }
    Ok(ExitCode::SUCCESS)
}

/// `tetrad demo`.
pub fn demo(args: DemoArgs) -> Result<ExitCode> {
    need_terminal("demo needs a terminal; use `tetrad run` for headless games")?;
    let setup = setup(&args.game, args.seed, args.max_pieces, args.record)?;
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
    let options = match args.options.len() {
        0 => vec![String::new(); plugins.len()],
        1 => vec![args.options[0].clone(); plugins.len()],
        n if n == plugins.len() => args.options,
        n => bail!(
            "{n} --options for {} plugins: give --options once for all plugins, or once per --plugin",
            plugins.len()
        ),
    };
    show(App::demo(setup, plugins.into_iter().zip(options).collect())?)
}

/// `tetrad play`.
pub fn play(args: PlayArgs) -> Result<ExitCode> {
    need_terminal("play needs a terminal")?;
    let setup = setup(&args.game, args.seed, args.max_pieces, args.record)?;
    show(App::play(setup))
}

/// `tetrad replay`: plays a replay back, or with `--verify` re-simulates it headless.
pub fn replay(args: ReplayArgs) -> Result<ExitCode> {
    if args.verify {
        let replay = Replay::load(&args.file)?;
        let outcome = replay.verify().with_context(|| args.file.display().to_string())?;
        let players: Vec<String> = replay.players.iter().map(|p| p.label()).collect();
        println!(
            "ok  {}: {}, {}, {} points, {} ticks, ended {} ({})",
            args.file.display(),
            crate::report::plural(outcome.lines, "line"),
            crate::report::plural(outcome.pieces, "piece"),
            outcome.score,
            outcome.ticks,
            outcome.end.name(),
            players.join(", ")
        );
        return Ok(ExitCode::SUCCESS);
    }
    need_terminal("replay needs a terminal; use `tetrad replay --verify FILE` to check a replay headless")?;
    let replay = Replay::load(&args.file)?;
    show(App::replay(Playback::new(replay)?))
}

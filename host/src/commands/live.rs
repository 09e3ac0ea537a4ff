//! The setup of a person's real-time games against a bot, one for the terminal
//! (`tetrad play --versus --gravity`) and the browser (`tetrad play --web`): guideline
//! versus at the realtime pace under timing rules, the bot capped by `--pps`, the
//! garbage of `--garbage`, and the person's results file of `--out`.

use super::screens::session;
use crate::cli::{PlayArgs, ScreenVersus};
use crate::engine::{GarbageRules, Gravity, Pace, Speed, Timing};
use crate::plugin::Plugin;
use crate::setup::Setup;
use crate::tournament::PersonResults;
use anyhow::{bail, Result};
use tetrad_plugin_api::Preset;

/// The setup of every game of a person against `bot`: guideline unless another preset
/// is given (and refused: timing rules are the guideline's), the timing rules of
/// `--gravity` or the guideline's curve, the realtime pace with the bot capped by
/// `--pps`, and `--garbage`. A bad option of the bot is one line now, not a failure at
/// the first game. Also the garbage rules the setup has without `--garbage` (what the
/// page's default choice of garbage means).
pub(super) fn setup(args: &mut PlayArgs, bot: &Plugin) -> Result<(Setup, GarbageRules)> {
    args.game.preset.get_or_insert(Preset::Guideline);
    let versus = ScreenVersus {
        versus: true,
        attack: args.versus.attack.clone(),
    };
    let mut setup = session(&args.game, args.seed, args.max_pieces, None, versus)?.setup;
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
    crate::runner::probe(bot, &setup, &args.options)?;
    Ok((setup, plain))
}

/// The person's results file of `--out`, if given, for games under `setup`.
pub(super) fn results(args: &PlayArgs, bot: &Plugin, setup: &Setup) -> Result<Option<PersonResults>> {
    let Some(path) = &args.out else {
        return Ok(None);
    };
    Ok(Some(PersonResults::open(
        path,
        &args.name,
        bot,
        &args.options,
        setup,
        args.seed,
    )?))
}

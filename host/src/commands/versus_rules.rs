//! The versus part of a setup from the command line: the attack table, the pace, its
//! speed and the garbage rules, and the refusal of those options where no versus is played.

use crate::cli::VersusArgs;
use crate::engine::{AttackTable, GarbageRules, Pace, Speed};
use crate::setup::Setup;
use anyhow::{bail, Result};

/// Sets the versus rules of `args` on `setup` when `versus`; otherwise refuses any of them
/// given, saying what to add (`hint`, such as "add --versus").
pub(super) fn apply(setup: &mut Setup, args: &VersusArgs, versus: bool, hint: &str) -> Result<()> {
    match (versus, &args.attack) {
        (true, attack) => setup.attack = Some(attack.clone().unwrap_or_else(|| AttackTable::for_rules(&setup.rules))),
        (false, Some(_)) => bail!("--attack sets the garbage of versus games: {hint}"),
        (false, None) => {}
    }
    let garbage_options = [
        ("--pace", args.pace.is_some()),
        ("--pps", args.pps.is_some()),
        ("--move-ms", args.move_ms.is_some()),
        ("--garbage", args.garbage.is_some()),
        ("--garbage-delay", args.garbage_delay.is_some()),
        ("--garbage-cap", args.garbage_cap.is_some()),
        ("--garbage-messiness", args.garbage_messiness.is_some()),
        ("--gravity", args.gravity.is_some()),
    ];
    if let Some((option, _)) = garbage_options.iter().find(|(_, given)| *given && !versus) {
        bail!("{option} is an option of versus games: {hint}");
    }
    if !versus {
        return Ok(());
    }
    setup.pace = args.pace.unwrap_or_else(|| Pace::for_rules(&setup.rules));
    if let Some(option) = [("--pps", args.pps.is_some()), ("--move-ms", args.move_ms.is_some())]
        .iter()
        .find_map(|(option, given)| given.then_some(option))
        .filter(|_| setup.pace != Pace::Realtime)
    {
        bail!("{option} sets the speed of the realtime pace: add --pace realtime");
    }
    setup.speed = Speed {
        pps: args.pps,
        move_ms: args.move_ms.unwrap_or(0.0),
    };
    let set = args.garbage.map(|set| set.rules()).unwrap_or_default();
    if let Some(set) = args
        .garbage
        .filter(|set| set.delay_is_a_time() && setup.pace != Pace::Realtime)
    {
        bail!(
            "--garbage {} sets a delay of {} ms, a time, which only the realtime pace counts: add --pace realtime",
            set.name(),
            set.rules().delay
        );
    }
    setup.garbage = GarbageRules {
        delay: args.garbage_delay.unwrap_or(set.delay),
        cap: args.garbage_cap.or(set.cap),
        messiness: args.garbage_messiness.unwrap_or(set.messiness),
    };
    timing(setup, args)
}

/// Sets the timing rules of `args` (`--gravity`, `--lock-delay`, `--move-resets`) on a
/// versus `setup`, where the realtime pace counts the time they need.
fn timing(setup: &mut Setup, args: &VersusArgs) -> Result<()> {
    let Some(gravity) = args.gravity else {
        return Ok(());
    };
    if setup.pace != Pace::Realtime {
        bail!("--gravity sets timing rules, which count time: add --pace realtime");
    }
    if setup.rules.preset != tetrad_plugin_api::Preset::Guideline {
        bail!(crate::engine::TimingError::Preset(
            setup.rules.preset.name().to_string()
        ));
    }
    let timing = crate::engine::Timing {
        gravity,
        lock_delay_ms: args.lock_delay.unwrap_or(crate::engine::Timing::LOCK_DELAY_MS),
        move_reset_limit: args.move_resets.unwrap_or(crate::engine::Timing::MOVE_RESETS),
    };
    timing.check()?;
    setup.timing = Some(timing);
    Ok(())
}

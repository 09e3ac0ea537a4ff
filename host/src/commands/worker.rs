//! `tetrad worker` and `tetrad seat`: the child processes of an isolated tournament, each
//! serving one plugin over the stdin and stdout it was started with; and `tetrad sandbox`,
//! the launcher of a sandboxed bot.

use super::load;
use crate::cli::{InfoArgs, SandboxArgs, SeatArgs, WorkerArgs};
use crate::runner::RunSpec;
use crate::setup::args::play_sequence;
use crate::setup::Setup;
use crate::tournament::{self, follow_parent, ServeOptions, WorkerChannel, DEFAULT_WORKER_THINK_LIMIT_US};
use anyhow::{bail, Context, Result};
use std::process::ExitCode;

/// `tetrad worker`: serves games to a tournament over the stdin and stdout it was started
/// with, which it takes for itself before any plugin code runs.
pub fn worker(args: WorkerArgs) -> Result<ExitCode> {
    let channel = WorkerChannel::take_stdio().context("taking the worker's channel")?;
    follow_parent(args.parent_pid);
    // Its bots log beside it, in the folder its parent keeps or deletes.
    if let Some(folder) = args.progress.as_deref().and_then(std::path::Path::parent) {
        crate::plugin::bot::set_log_folder(folder.to_path_buf());
    }
    let mut setup: Setup = serde_json::from_str(&args.setup).context("the worker's --setup")?;
    let plugin = load(&args.plugin)?;
    let expected = setup.sequence.take();
    if expected.is_some() && args.sequence.is_none() {
        bail!("the tournament plays a sequence file, and the worker was given none");
    }
    let sequences = play_sequence(&mut setup, args.sequence.as_deref(), expected.as_ref())?;
    let think_limit_us = setup
        .limits
        .think_limit_ns
        .map_or(DEFAULT_WORKER_THINK_LIMIT_US, |ns| ns / 1000);
    let spec = RunSpec {
        setup,
        games: u64::MAX,
        seed: args.seed,
        sequences,
        jobs: 1,
        options: args.options,
        watch: None,
        pieces_played: None,
    };
    let options = ServeOptions {
        think_limit_us,
        parent: args.parent_pid,
        progress: args.progress.as_deref(),
    };
    tournament::serve_worker(channel, &plugin, &spec, options)?;
    Ok(ExitCode::SUCCESS)
}

/// `tetrad seat`: serves one library to a versus game over the stdin and stdout it was
/// started with, which it takes for itself before the library is loaded.
pub fn seat(args: SeatArgs) -> Result<ExitCode> {
    let channel = WorkerChannel::take_stdio().context("taking the seat's channel")?;
    follow_parent(args.parent_pid);
    let plugin = load(&args.plugin)?;
    tournament::serve_seat(channel, &plugin)?;
    Ok(ExitCode::SUCCESS)
}

/// `tetrad info`: a library's info as one line of JSON (read inside the sandbox).
pub fn info(args: InfoArgs) -> anyhow::Result<ExitCode> {
    let plugin = crate::plugin::Plugin::load(&args.plugin)?;
    let mut out = crate::output::reports();
    use std::io::Write;
    writeln!(out, "{}", serde_json::to_string(plugin.info())?)?;
    Ok(ExitCode::SUCCESS)
}

/// `tetrad sandbox`: confines itself as its spec says and runs the bot inside, ending as
/// the bot ended; with `--probe`, prints what of the sandbox this system lacks; with
/// `--escape`, tries one escape from inside (the check's probe).
pub fn sandbox(args: &SandboxArgs) -> ExitCode {
    if !args.escape.is_empty() {
        return crate::sandbox::check::attempt(&args.escape);
    }
    let spec: crate::sandbox::Spec = match serde_json::from_str(args.spec.as_deref().unwrap_or_default()) {
        Ok(spec) => spec,
        Err(err) => {
            eprintln!("--- sandbox: unreadable spec: {err}");
            return ExitCode::from(crate::sandbox::confine::CONFINE_FAILED);
        }
    };
    if args.probe {
        let missing = crate::sandbox::confine::probe(&spec);
        println!("{}", serde_json::to_string(&missing).expect("strings serialise"));
        return ExitCode::SUCCESS;
    }
    let Some((program, rest)) = args.command.split_first() else {
        eprintln!("--- sandbox: no program to run");
        return ExitCode::from(crate::sandbox::confine::CONFINE_FAILED);
    };
    crate::sandbox::confine::launch(&spec, program, rest)
}

/// `tetrad sandbox --check`: every kind of escape tried under `policy`, one line each.
pub fn sandbox_check(policy: crate::sandbox::Policy) -> anyhow::Result<ExitCode> {
    let strict = policy.mode == crate::sandbox::Mode::Strict;
    let report = crate::sandbox::check::run(policy).map_err(anyhow::Error::msg)?;
    let mut out = crate::output::reports();
    use std::io::Write;
    for line in &report.lines {
        writeln!(out, "{line}")?;
    }
    writeln!(out, "{}", report.summary())?;
    Ok(if report.passed(strict) {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

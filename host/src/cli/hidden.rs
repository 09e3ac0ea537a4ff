//! Options of the hidden subcommands the host runs in its own child processes: the
//! isolation worker, the versus seat and the sandbox.

use clap::{Args, ValueEnum};
use std::path::PathBuf;

/// How strictly `--sandbox` applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum SandboxMode {
    /// Every piece, or no game at all.
    Strict,
    /// What the system offers; what it lacks is said once.
    BestEffort,
}

/// Options of the hidden `tetrad sandbox`.
#[derive(Debug, Args)]
pub struct SandboxArgs {
    /// What to confine the bot to, as JSON.
    #[arg(long)]
    pub spec: String,
    /// Only try each piece and print, as JSON, what this system lacks.
    #[arg(long)]
    pub probe: bool,
    /// The bot's program and its arguments.
    #[arg(last = true)]
    pub command: Vec<std::ffi::OsString>,
}

/// Options of the hidden `tetrad worker`.
#[derive(Debug, Args)]
pub struct WorkerArgs {
    /// The plugin library.
    #[arg(long)]
    pub plugin: String,
    /// The tournament's setup, as JSON (rules, pieces, sequence digest, cap and limits).
    #[arg(long)]
    pub setup: String,
    /// The tournament's seed.
    #[arg(long)]
    pub seed: u64,
    /// The tournament's sequence file, if it plays one (checked against the setup).
    #[arg(long)]
    pub sequence: Option<PathBuf>,
    /// The plugin's options.
    #[arg(long, default_value = "")]
    pub options: String,
    /// The tournament's process: the worker ends when it is gone.
    #[arg(long)]
    pub parent_pid: u32,
    /// The file the worker keeps its progress in, for the parent to read if it dies.
    #[arg(long)]
    pub progress: Option<PathBuf>,
}

/// Options of the hidden `tetrad seat`.
#[derive(Debug, Args)]
pub struct SeatArgs {
    /// The plugin library.
    #[arg(long)]
    pub plugin: String,
    /// The tournament's process: the seat ends when it is gone.
    #[arg(long)]
    pub parent_pid: u32,
}

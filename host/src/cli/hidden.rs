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

/// Options of `tetrad sandbox`: the launcher of a sandboxed bot (hidden options), or the
/// self-test a user runs (`--check`).
#[derive(Debug, Args)]
pub struct SandboxArgs {
    /// Try every kind of escape from the sandbox on this machine, one line a check; fails
    /// if one gets out (under the default, strict, `--sandbox` mode also if a piece is
    /// missing).
    #[arg(long)]
    pub check: bool,
    /// What to confine the bot to, as JSON.
    #[arg(long, hide = true, required_unless_present_any = ["check", "escape"])]
    pub spec: Option<String>,
    /// Only try each piece and print, as JSON, what this system lacks.
    #[arg(long, hide = true)]
    pub probe: bool,
    /// Inside the sandbox, try one escape and say how it went (the check's probe).
    #[arg(long, hide = true, num_args = 1..)]
    pub escape: Vec<String>,
    /// The bot's program and its arguments.
    #[arg(last = true, hide = true)]
    pub command: Vec<std::ffi::OsString>,
}

/// Options of the hidden `tetrad info`.
#[derive(Debug, Args)]
pub struct InfoArgs {
    /// The plugin library.
    #[arg(long)]
    pub plugin: PathBuf,
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

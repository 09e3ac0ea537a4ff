//! The command line: subcommands and the options they share.

mod batch;
mod hidden;
mod screens;
mod shared;
mod values;

pub use batch::{Format, MergeArgs, ReportArgs, ReportFormat, RunArgs, TournamentArgs, TuneArgs};
pub use hidden::{InfoArgs, SandboxArgs, SandboxMode, SeatArgs, WorkerArgs};
pub use screens::{DemoArgs, PlayArgs, ReplayArgs, ScreenVersus, DEFAULT_COUNTDOWN_MS};
pub use shared::{ClockArgs, GameArgs, ScheduleArgs, VersusArgs};
pub use values::{MAX_GAMES, MAX_JOBS, MAX_POPULATION};

use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;
use values::parse_size;

/// A host for Tetris-playing bots.
#[derive(Debug, Parser)]
#[command(name = "tetrad", version, about, long_about = None)]
pub struct Cli {
    /// Say more on standard error: the folder the logs of bot processes go to.
    #[arg(short, long, global = true)]
    pub verbose: bool,
    /// Keep the logs of bot processes and workers after the run (each bot's stderr, and
    /// what an isolated plugin printed); by default they are deleted when the run ends.
    #[arg(long, global = true)]
    pub keep_logs: bool,
    /// Run every bot process (and isolated worker) in a sandbox: its own folder and the
    /// system's to read, a scratch folder to write, no network, no tracing or mounting, and
    /// limits on memory, CPU time, processes, open files and file size. `strict` (the
    /// default) refuses to run where the system lacks a piece; `best-effort` says what it
    /// leaves out.
    #[arg(long, global = true, value_name = "MODE", num_args = 0..=1, default_missing_value = "strict")]
    pub sandbox: Option<SandboxMode>,
    /// Under --sandbox, one more folder bots may read (repeatable).
    #[arg(long, global = true, value_name = "DIR")]
    pub sandbox_read: Vec<PathBuf>,
    /// Under --sandbox, the memory (address space) of each bot process, e.g. `512M`, `4G`.
    #[arg(long, global = true, value_name = "SIZE", value_parser = parse_size, default_value = "2G")]
    pub max_memory: u64,
    /// Do not place each bot process on the CPU of the thread that waits for its answers
    /// (by default each such pair shares a CPU, one pair a CPU: see docs/protocol.md).
    #[arg(long, global = true)]
    pub no_pin: bool,
    /// Under --sandbox, what each bot's scratch folder may hold, e.g. `256M`.
    #[arg(long, global = true, value_name = "SIZE", value_parser = parse_size, default_value = "256M")]
    pub max_disk: u64,
    /// Under --sandbox, the CPU time of each bot process, in seconds.
    #[arg(long, global = true, value_name = "SECONDS", default_value_t = 600,
          value_parser = clap::value_parser!(u64).range(1..=86_400))]
    pub max_cpu: u64,
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands that start no bot process, where `--verbose` and `--keep-logs` have
/// nothing to do: they are accepted there, and not offered in their help.
const QUIET_SUBCOMMANDS: [&str; 4] = ["merge", "report", "replay", "install"];

impl Cli {
    /// The command line as clap reads it, `--verbose` and `--keep-logs` left out of the
    /// help of the subcommands that start no bot.
    pub fn command_line() -> clap::Command {
        let mut command = <Cli as clap::CommandFactory>::command();
        for name in QUIET_SUBCOMMANDS {
            // A subcommand's own copy of a global flag is not replaced by the global one;
            // its value still reaches `Cli`.
            command = command.mut_subcommand(name, |sub| {
                sub.arg(hidden_flag("verbose", "verbose").short('v'))
                    .arg(hidden_flag("keep_logs", "keep-logs"))
            });
        }
        command
    }

    /// Parses the process's arguments (see [`Cli::command_line`]).
    pub fn parse_args() -> Result<Cli, clap::Error> {
        Cli::parse_from_args(std::env::args_os())
    }

    /// Parses `args`, the program's name first (see [`Cli::command_line`]).
    pub fn parse_from_args<I, T>(args: I) -> Result<Cli, clap::Error>
    where
        I: IntoIterator<Item = T>,
        T: Into<std::ffi::OsString> + Clone,
    {
        let mut command = Cli::command_line();
        let matches = command.try_get_matches_from_mut(args)?;
        <Cli as clap::FromArgMatches>::from_arg_matches(&matches).map_err(|err| err.format(&mut command))
    }
}

/// A global flag of `Cli` (its field `id`, its option `--long`), accepted and left out of
/// the help.
fn hidden_flag(id: &'static str, long: &'static str) -> clap::Arg {
    clap::Arg::new(id)
        .long(long)
        .action(clap::ArgAction::SetTrue)
        .global(true)
        .hide(true)
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Play headless games of one plugin; print per-game results and a summary.
    Run(RunArgs),
    /// List the bundled plugins with their info.
    Plugins(PluginsArgs),
    /// Load one plugin, print its info, play a seeded game and report violations.
    Check(CheckArgs),
    /// Several plugins on the same seeded games: standings and pairwise results.
    Tournament(TournamentArgs),
    /// Two plugins play each other with garbage: each game's winner, then the score, an
    /// Elo difference with its 95% interval, and the likelihood of superiority.
    Versus(TournamentArgs),
    /// Combine results files (shards of one tournament) into one set of standings.
    Merge(MergeArgs),
    /// Draw a results file as one self-contained HTML page of charts.
    #[command(
        long_about = "Draw a results file (written by `tetrad tournament --out FILE`) as one self-contained \
HTML page: the standings, each entrant's survival curve (the share of games still alive \
after each piece), histograms of lines cleared per game, update-time percentiles, and \
the pairwise matrix as a heat map. The charts are inline SVG; the page loads nothing \
else.\n\nExample: tetrad report results.jsonl --html results.html"
    )]
    Report(ReportArgs),
    /// Tune a plugin's numeric options with the noisy cross-entropy method.
    Tune(TuneArgs),
    /// Watch plugins play in the terminal; switch between them mid-game.
    Demo(DemoArgs),
    /// Play with the keyboard, under the same rules as the plugins.
    Play(PlayArgs),
    /// Play back a recorded game, or check it headless with --verify.
    Replay(ReplayArgs),
    /// Copy this binary and its bundled plugins where an installed tetrad finds them.
    Install(InstallArgs),
    /// Play games for a tournament parent process (used by --isolate).
    #[command(hide = true)]
    Worker(WorkerArgs),
    /// Serve a library as a bot over the bot protocol, for one versus seat (used by
    /// --isolate in versus).
    #[command(hide = true)]
    Seat(SeatArgs),
    /// Print a library's info as JSON (used by --sandbox, which opens a library only in
    /// the sandbox).
    #[command(hide = true)]
    Info(InfoArgs),
    /// Check the sandbox on this machine (`--check`): every kind of escape, tried.
    Sandbox(SandboxArgs),
    /// Serve a plugin library (a bundled bot by name, or a path) as a bot of the Tetris Bot
    /// Protocol on standard input and output, under the guideline's rules.
    Tbp(TbpArgs),
}

/// Options of `tetrad tbp`.
#[derive(Debug, Args)]
pub struct TbpArgs {
    /// The plugin: a bundled one's name, or a library's path.
    pub plugin: String,
    /// The plugin's options, `key=value` pairs separated by commas.
    #[arg(long, default_value = "")]
    pub options: String,
    /// The seed of each game's instance, for its own randomness.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
}

/// Options of `tetrad install`.
#[derive(Debug, Args)]
pub struct InstallArgs {
    /// Install under this prefix: the binary in DIR/bin, the plugins in
    /// DIR/share/tetrad/plugins [default: the binary in ~/.local/bin, the plugins in
    /// $XDG_DATA_HOME/tetrad/plugins]
    #[arg(long, value_name = "DIR")]
    pub prefix: Option<PathBuf>,
}

/// Options of `tetrad plugins`.
#[derive(Debug, Args)]
pub struct PluginsArgs {
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,
}

/// Options of `tetrad check`.
#[derive(Debug, Args)]
pub struct CheckArgs {
    /// The plugin library to check (or a bundled plugin's name).
    pub path: String,
    /// The rules of the test game.
    #[command(flatten)]
    pub game: GameArgs,
    /// The test game's seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Pieces to play at most.
    #[arg(long, default_value_t = 1000)]
    pub max_pieces: u64,
    /// The plugin's options, as 'key=value,key=value'.
    #[arg(long, default_value = "")]
    pub options: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verbose_is_read_anywhere_and_offered_only_where_it_says_something() {
        for args in [
            &["tetrad", "-v", "merge", "a.jsonl"][..],
            &["tetrad", "merge", "a.jsonl", "-v"],
            &["tetrad", "install", "--verbose"],
            &["tetrad", "run", "--plugin", "random", "-v"],
        ] {
            let cli = Cli::parse_from_args(args).expect("parsed");
            assert!(cli.verbose, "{args:?}");
        }
        assert!(!Cli::parse_from_args(["tetrad", "install"]).expect("parsed").verbose);
        let kept = Cli::parse_from_args(["tetrad", "merge", "a.jsonl", "--keep-logs"]).expect("parsed");
        assert!(kept.keep_logs);
        assert!(
            Cli::parse_from_args(["tetrad", "--keep-logs", "run", "--plugin", "random"])
                .expect("parsed")
                .keep_logs
        );
        let mut command = Cli::command_line();
        command.build();
        let mut help = |name: &str| {
            let sub = command.find_subcommand_mut(name).expect("a subcommand");
            sub.render_long_help().to_string()
        };
        assert!(help("run").contains("--verbose"));
        assert!(help("tournament").contains("logs of bot processes"));
        assert!(help("run").contains("--keep-logs"));
        for name in QUIET_SUBCOMMANDS {
            assert!(!help(name).contains("--verbose"), "{name}");
            assert!(!help(name).contains("--keep-logs"), "{name}");
        }
    }
}

//! The command line: subcommands and the options they share.

mod screens;
mod shared;
mod values;

pub use screens::{DemoArgs, PlayArgs, ReplayArgs, ScreenVersus};
pub use shared::{ClockArgs, GameArgs, ScheduleArgs};
pub use values::{MAX_GAMES, MAX_JOBS, MAX_POPULATION};

use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;
use values::{
    games_parser, parse_deviations, parse_fraction, parse_garbage_set, parse_non_negative, parse_numbers, parse_pace,
    parse_positive, parse_shard, parse_sprt, parse_unit_interval,
};

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
    /// Confine this process and run a bot inside (used by --sandbox).
    #[command(hide = true)]
    Sandbox(SandboxArgs),
}

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

/// A size in bytes: a number, with `K`, `M` or `G` (powers of 1024) after it if wanted.
fn parse_size(text: &str) -> Result<u64, String> {
    let (number, unit) = match text.trim().char_indices().last() {
        Some((at, c)) if c.is_ascii_alphabetic() => (&text.trim()[..at], c.to_ascii_uppercase()),
        _ => (text.trim(), 'B'),
    };
    let shift = match unit {
        'B' => 0,
        'K' => 10,
        'M' => 20,
        'G' => 30,
        _ => return Err(format!("`{text}` is not a size (a number, then K, M or G)")),
    };
    let value: u64 = number
        .parse()
        .map_err(|_| format!("`{text}` is not a size (a number, then K, M or G)"))?;
    value
        .checked_shl(shift)
        .filter(|bytes| bytes >> shift == value && *bytes >= 16 << 20)
        .ok_or_else(|| format!("`{text}` is out of range (16M and up)"))
}

/// Formats of a tournament report.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ReportFormat {
    /// Aligned text.
    Table,
    /// Markdown tables.
    Markdown,
    /// Comma-separated values: standings, a blank line, pairings.
    Csv,
    /// One JSON document.
    Json,
}

/// Options of `tetrad tournament`.
#[derive(Debug, Args)]
pub struct TournamentArgs {
    /// The entrants: bundled names or paths, each optionally with its own options after
    /// `@` (`tree-search@depth=1`).
    #[arg(long, num_args = 1.., required = true, value_name = "PLUGIN[@OPTIONS]")]
    pub plugins: Vec<String>,
    /// The rules.
    #[command(flatten)]
    pub game: GameArgs,
    /// Games per entrant (1 to 1000000) [default: 100, or one per line of --sequence].
    #[arg(long, value_parser = games_parser(1))]
    pub games: Option<u64>,
    /// Seed, parallelism and piece cap.
    #[command(flatten)]
    pub schedule: ScheduleArgs,
    /// The time control.
    #[command(flatten)]
    pub clock: ClockArgs,
    /// Play the pieces this file gives instead of seeded ones: one game per line, piece
    /// names separated by whitespace; game i plays line i and ends as capped when the
    /// line is used up.
    #[arg(long, value_name = "FILE")]
    pub sequence: Option<PathBuf>,
    /// Options for entrants that have none of their own after `@`.
    #[arg(long, default_value = "")]
    pub options: String,
    /// Append each finished game to this file as one JSON line.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Continue the tournament in --out, playing only the games it lacks.
    #[arg(long, requires = "out")]
    pub resume: bool,
    /// Run plugins in worker processes: a crash, abort, exit, hang or stray output
    /// forfeits one game. A plugin's `create` may take the think limit or 10 s, whichever
    /// is longer.
    #[arg(long)]
    pub isolate: bool,
    /// Under --isolate, the folder for each worker's log of what its plugin printed
    /// [default: FILE.logs beside --out FILE, else a new folder in the temporary directory].
    #[arg(long, value_name = "DIR", requires = "isolate")]
    pub worker_logs: Option<PathBuf>,
    /// An update slower than this forfeits the game as a timeout (isolated: 10 s if unset).
    #[arg(long, value_name = "MICROSECONDS")]
    pub think_limit_us: Option<u64>,
    /// Protocol violations allowed per game before it is forfeited.
    #[arg(long, default_value_t = 0)]
    pub max_violations: u64,
    /// Stop early when a sequential test between two entrants decides (e.g. `0,20`).
    #[arg(long, value_name = "ELO0,ELO1", value_parser = parse_sprt)]
    pub sprt: Option<(f64, f64)>,
    /// Play only share K of N (games whose index is K-1 modulo N).
    #[arg(long, value_name = "K/N", value_parser = parse_shard)]
    pub shard: Option<(u64, u64)>,
    /// Entrants play each other (every pair on the same seeds) with garbage, and are
    /// rated by their wins; `tetrad versus` always does.
    #[arg(long)]
    pub versus: bool,
    /// In versus, save a replay of game 0 of the first pair (when this run plays it), for
    /// `tetrad replay` and `tetrad replay --verify`.
    #[arg(long, value_name = "FILE")]
    pub record: Option<PathBuf>,
    /// Save a replay of every game this run plays into DIR (created if missing), one
    /// file a game named `game-G-E.json` (versus `game-G-A-B.json`) by the game's index
    /// and the entrants' (from 0); `tetrad report --html` links each game to its page.
    #[arg(long, value_name = "DIR")]
    pub record_games: Option<PathBuf>,
    /// In versus, the rows of garbage sent for clearing 1, 2, 3, 4 (...) lines at once;
    /// a larger clear sends the last entry [default: 0,1,2,4].
    #[arg(long, value_name = "ROWS,...")]
    pub attack: Option<crate::engine::AttackTable>,
    /// In versus, what one round is: `ticks` (one tick each), `pieces` (one piece each,
    /// a hold free) or `realtime` (no rounds: each seat's ticks happen at the times its
    /// thinking and its speed give, played in time order) [default: pieces under
    /// guideline, else ticks].
    #[arg(long, value_name = "PACE", value_parser = parse_pace)]
    pub pace: Option<crate::engine::Pace>,
    /// Under --pace realtime, most pieces a second a seat locks (a lock waits until 1/PPS
    /// seconds after the seat's previous lock) [default: no limit].
    #[arg(long, value_name = "PPS", value_parser = parse_positive)]
    pub pps: Option<f64>,
    /// Under --pace realtime, the milliseconds each tick of a path takes (a shift, a turn,
    /// a step down, a hold, the drop) [default: 0].
    #[arg(long, value_name = "MS", value_parser = parse_non_negative)]
    pub move_ms: Option<f64>,
    /// In versus, a modern game's published garbage options: `jstris` (a delay of 500 ms,
    /// under --pace realtime). A --garbage-* option given too takes its part's place.
    #[arg(long, value_name = "NAME", value_parser = parse_garbage_set)]
    pub garbage: Option<crate::engine::GarbageSet>,
    /// In versus, how long a batch of garbage waits before it may rise (0 to 1000): the
    /// receiver's locks, or milliseconds under --pace realtime [default: 0, it rises at
    /// the next lock].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(0..=1000))]
    pub garbage_delay: Option<u32>,
    /// In versus, most rows of garbage that rise at one lock (1 to 1000); the rest waits
    /// [default: no cap].
    #[arg(long, value_name = "ROWS", value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub garbage_cap: Option<u32>,
    /// In versus, the chance (0 to 1) that a garbage row's hole moves to another column
    /// from the row before it in the same batch, drawn from the seed [default: 0].
    #[arg(long, value_name = "P", value_parser = parse_unit_interval)]
    pub garbage_messiness: Option<f64>,
    /// Report format.
    #[arg(long, value_enum, default_value_t = ReportFormat::Table)]
    pub format: ReportFormat,
}

/// Options of `tetrad tune`.
#[derive(Debug, Args)]
pub struct TuneArgs {
    /// A bundled plugin's name, or the path of any plugin library.
    #[arg(long)]
    pub plugin: String,
    /// The numeric options to tune, comma-separated (`w1,w2,w3`).
    #[arg(long, value_name = "NAMES")]
    pub params: String,
    /// Those of `--params` the plugin reads as whole numbers: each candidate's value is
    /// rounded to the nearest whole number for the plugin (the sampling stays continuous).
    #[arg(long, value_name = "NAMES", default_value = "")]
    pub whole: String,
    /// The rules.
    #[command(flatten)]
    pub game: GameArgs,
    /// Games per candidate per generation (the same games for every candidate); a
    /// generation plays at most 1000000 games in all.
    #[arg(long, default_value_t = 10, value_parser = games_parser(1))]
    pub games: u64,
    /// Generations.
    #[arg(long, default_value_t = 20)]
    pub generations: u64,
    /// Candidates per generation (at most 100000).
    #[arg(long, default_value_t = 50, value_parser = clap::value_parser!(u64).range(1..=MAX_POPULATION))]
    pub population: u64,
    /// Share of candidates kept as the elite, in (0, 1].
    #[arg(long, default_value_t = 0.1, value_parser = parse_fraction)]
    pub elite: f64,
    /// Seed (of the games and of the sampling), parallelism and piece cap.
    #[command(flatten)]
    pub schedule: ScheduleArgs,
    /// Options passed unchanged to every candidate.
    #[arg(long, default_value = "")]
    pub options: String,
    /// Starting mean: one value for all parameters, or one per parameter.
    #[arg(
        long,
        default_value = "0",
        value_name = "V[,V...]",
        allow_hyphen_values = true,
        value_parser = parse_numbers
    )]
    pub initial: String,
    /// Starting standard deviation: one value for all parameters, or one per parameter.
    #[arg(long, default_value = "10", value_name = "S[,S...]", value_parser = parse_deviations)]
    pub sd: String,
    /// Variance noise at the first generation, shrinking linearly to 0.
    #[arg(long, default_value_t = 4.0, value_parser = parse_non_negative)]
    pub noise: f64,
    /// Checkpoint file (default: tune-PLUGIN.json).
    #[arg(long, value_name = "FILE")]
    pub checkpoint: Option<PathBuf>,
    /// Continue from the checkpoint.
    #[arg(long)]
    pub resume: bool,
}

/// Options of `tetrad merge`.
#[derive(Debug, Args)]
pub struct MergeArgs {
    /// Results files written by `tetrad tournament --out` (for example one per shard).
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Report format.
    #[arg(long, value_enum, default_value_t = ReportFormat::Table)]
    pub format: ReportFormat,
}

/// Options of `tetrad report`.
#[derive(Debug, Args)]
pub struct ReportArgs {
    /// A results file written by `tetrad tournament --out`.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// Write the HTML page here (`-` for standard output).
    #[arg(long, value_name = "OUT", required = true)]
    pub html: PathBuf,
    /// The folder of the games' replays (`--record-games DIR`): each game is drawn as a
    /// page in OUT's folder `OUT-games/`, linked from the report [default: FILE's name
    /// with `.games` for its extension, when that folder exists].
    #[arg(long, value_name = "DIR")]
    pub games: Option<PathBuf>,
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

/// Output formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Human-readable text.
    Table,
    /// One JSON document.
    Json,
    /// Comma-separated values.
    Csv,
}

/// Options of `tetrad run`.
#[derive(Debug, Args)]
pub struct RunArgs {
    /// A bundled plugin's name, or the path of any plugin library.
    #[arg(long)]
    pub plugin: String,
    /// The rules.
    #[command(flatten)]
    pub game: GameArgs,
    /// How many games (1 to 1000000) [default: 10, or one per line of --sequence].
    #[arg(long, value_parser = games_parser(1))]
    pub games: Option<u64>,
    /// Seed, parallelism and piece cap.
    #[command(flatten)]
    pub schedule: ScheduleArgs,
    /// The time control.
    #[command(flatten)]
    pub clock: ClockArgs,
    /// Play the pieces this file gives instead of seeded ones: one game per line, piece
    /// names separated by whitespace; game i plays line i and ends as capped when the
    /// line is used up.
    #[arg(long, value_name = "FILE", conflicts_with = "record")]
    pub sequence: Option<PathBuf>,
    /// The plugin's options, as 'key=value,key=value'.
    #[arg(long, default_value = "")]
    pub options: String,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,
    /// Save a replay of game 0 to this file.
    #[arg(long, value_name = "FILE")]
    pub record: Option<std::path::PathBuf>,
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

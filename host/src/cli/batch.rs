//! Options of the subcommands that play or read games without a screen: run,
//! tournament, tune, merge and report.

use super::shared::{ClockArgs, GameArgs, ScheduleArgs};
use super::values::{
    games_parser, parse_deviations, parse_fraction, parse_garbage_set, parse_non_negative, parse_numbers, parse_pace,
    parse_positive, parse_shard, parse_sprt, parse_unit_interval, MAX_POPULATION,
};
use clap::{Args, ValueEnum};
use std::path::PathBuf;

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
    /// Under --pace realtime, timing rules (guideline only): pieces fall by themselves at
    /// this gravity, in G (`0.02G`, `1/60`) or `guideline` for its curve by level, and
    /// lock after a delay; a bot that thinks too long sees its piece fall and lock.
    #[arg(long, value_name = "G|guideline")]
    pub gravity: Option<crate::engine::Gravity>,
    /// With --gravity: milliseconds a resting piece waits before it locks [default: 500].
    #[arg(long, value_name = "MS", requires = "gravity")]
    pub lock_delay: Option<u32>,
    /// With --gravity: moves or turns of a resting piece that restart its lock delay
    /// [default: 15].
    #[arg(long, value_name = "N", requires = "gravity")]
    pub move_resets: Option<u32>,
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
    /// page in a folder beside OUT named after it (`t-games/` for `--html t.html`), linked
    /// from the report [default: the folder FILE names, else FILE's name with `.games` for
    /// its extension, when that folder exists].
    #[arg(long, value_name = "DIR")]
    pub games: Option<PathBuf>,
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

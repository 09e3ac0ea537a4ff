//! The option groups several subcommands share: the rules of the games, and which games
//! are played, how many at once and how long.

use super::values::{
    parse_garbage_set, parse_non_negative, parse_pace, parse_positive, parse_preset, parse_randomizer,
    parse_unit_interval, MAX_JOBS,
};
use crate::referee::TimeControl;
use clap::Args;
use tetrad_plugin_api::{Preset, Randomizer, Rules};

/// The rules of the games.
#[derive(Clone, Debug, Args)]
pub struct GameArgs {
    /// Rules preset: classic, leiden, simplified or guideline [default: classic; when
    /// every plugin is a Tetris Bot Protocol bot, guideline, the only rules it plays].
    #[arg(long, value_parser = parse_preset)]
    pub preset: Option<Preset>,
    /// Board width (default: the preset's).
    #[arg(long)]
    pub width: Option<usize>,
    /// Board height (default: the preset's; under leiden it includes 3 rows above the
    /// well, under guideline the 20 rows of buffer above the field).
    #[arg(long)]
    pub height: Option<usize>,
    /// Next pieces shown: 0 or 1, up to 6 under guideline (default: the preset's).
    #[arg(long)]
    pub preview: Option<usize>,
    /// How pieces are drawn: uniform or bag (default: the preset's; bag under guideline).
    #[arg(long, value_parser = parse_randomizer)]
    pub randomizer: Option<Randomizer>,
    /// A piece-set file (TOML; see `pieces/` for examples). Default: the 7 tetrominoes
    /// (under guideline, with their four SRS states; no file can be used there).
    #[arg(long, value_name = "FILE")]
    pub pieces: Option<std::path::PathBuf>,
}

impl GameArgs {
    /// The preset asked for, or `classic`.
    pub fn preset(&self) -> Preset {
        self.preset.unwrap_or(Preset::Classic)
    }

    /// The rules these options describe (not yet validated).
    pub fn rules(&self) -> Rules {
        let preset = self.preset();
        let defaults = Rules::preset(preset);
        Rules {
            preset,
            width: self.width.unwrap_or(defaults.width),
            height: self.height.unwrap_or(defaults.height),
            preview: self.preview.unwrap_or(defaults.preview),
            randomizer: self.randomizer.unwrap_or(defaults.randomizer),
        }
    }
}

/// Which games are played, how many at once, and how long: shared by `run`, `tournament`
/// and `tune`.
#[derive(Debug, Args)]
pub struct ScheduleArgs {
    /// The seed: game i of seed s brings the same pieces to every plugin.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Games played at once (default: one per core; at most 1024).
    #[arg(long, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=MAX_JOBS as u64))]
    pub jobs: Option<usize>,
    /// End a game as "capped" after this many pieces [default: unlimited].
    #[arg(long)]
    pub max_pieces: Option<u64>,
}

impl ScheduleArgs {
    /// The number of games to play at once: `--jobs`, or one per core.
    pub fn jobs(&self) -> Result<usize, String> {
        match self.jobs {
            Some(0) => Err("--jobs 0: at least one job is needed".to_string()),
            Some(jobs) => Ok(jobs),
            None => Ok(std::thread::available_parallelism().map_or(1, |n| n.get())),
        }
    }
}

/// The time control of every seat, in the chess testers' grammar: shared by `run`,
/// `tournament` and `versus`.
#[derive(Clone, Debug, Default, Args)]
pub struct ClockArgs {
    /// A clock per game: `MOVES/SECONDS+INCREMENT` (`40/60+0.5`: 60 s for every 40 pieces,
    /// 0.5 s added after each piece), `SECONDS+INCREMENT` or `SECONDS`. A player whose
    /// clock falls below zero loses the game as `time_loss`.
    #[arg(long, value_name = "MOVES/SECONDS+INCREMENT", value_parser = TimeControl::parse_tc, conflicts_with = "st", allow_negative_numbers = true)]
    pub tc: Option<TimeControl>,
    /// A fixed time per piece, in seconds; a piece that takes longer loses the game as
    /// `time_loss`.
    #[arg(long, value_name = "SECONDS", value_parser = TimeControl::parse_st, allow_negative_numbers = true)]
    pub st: Option<TimeControl>,
}

impl ClockArgs {
    /// The time control asked for, if any.
    pub fn time_control(&self) -> Option<TimeControl> {
        self.tc.or(self.st)
    }
}

/// The garbage and the pace of versus games: shared by `tournament`, `versus` and `tune`.
#[derive(Clone, Debug, Default, Args)]
pub struct VersusArgs {
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
}

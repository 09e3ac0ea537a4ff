//! The command line: subcommands and the options they share.

use clap::{Args, Parser, Subcommand, ValueEnum};
use tetrad_plugin_api::{Preset, Randomizer, Rules};

/// A host for Tetris-playing bots.
#[derive(Debug, Parser)]
#[command(name = "tetrad", version, about, long_about = None)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
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
    /// Watch plugins play in the terminal; switch between them mid-game.
    Demo(DemoArgs),
    /// Play with the keyboard, under the same rules as the plugins.
    Play(PlayArgs),
    /// Play back a recorded game, or check it headless with --verify.
    Replay(ReplayArgs),
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

/// The rules of the games.
#[derive(Debug, Args)]
pub struct GameArgs {
    /// Rules preset: classic, leiden or simplified.
    #[arg(long, default_value = "classic", value_parser = parse_preset)]
    pub preset: Preset,
    /// Board width (default: the preset's).
    #[arg(long)]
    pub width: Option<usize>,
    /// Board height (default: the preset's; under leiden it includes 3 rows above the well).
    #[arg(long)]
    pub height: Option<usize>,
    /// Next pieces shown, 0 or 1 (default: the preset's).
    #[arg(long)]
    pub preview: Option<usize>,
    /// How pieces are drawn: uniform or bag.
    #[arg(long, default_value = "uniform", value_parser = parse_randomizer)]
    pub randomizer: Randomizer,
    /// A piece-set file (TOML; see `pieces/` for examples). Default: the 7 tetrominoes.
    #[arg(long, value_name = "FILE")]
    pub pieces: Option<std::path::PathBuf>,
}

fn parse_preset(text: &str) -> Result<Preset, String> {
    text.parse().map_err(|e: tetrad_plugin_api::RulesError| e.to_string())
}

fn parse_randomizer(text: &str) -> Result<Randomizer, String> {
    text.parse().map_err(|e: tetrad_plugin_api::RulesError| e.to_string())
}

impl GameArgs {
    /// The rules these options describe (not yet validated).
    pub fn rules(&self) -> Rules {
        let defaults = Rules::preset(self.preset);
        Rules {
            preset: self.preset,
            width: self.width.unwrap_or(defaults.width),
            height: self.height.unwrap_or(defaults.height),
            preview: self.preview.unwrap_or(defaults.preview),
            randomizer: self.randomizer,
        }
    }
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
    /// How many games.
    #[arg(long, default_value_t = 10)]
    pub games: u64,
    /// The run's seed: game i of seed s brings the same pieces to every plugin.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Games played at once (default: one per core).
    #[arg(long)]
    pub jobs: Option<usize>,
    /// End a game as "capped" after this many pieces.
    #[arg(long)]
    pub max_pieces: Option<u64>,
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

/// Options of `tetrad plugins`.
#[derive(Debug, Args)]
pub struct PluginsArgs {
    /// Output format (table or json).
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

/// Options of `tetrad demo`.
#[derive(Debug, Args)]
pub struct DemoArgs {
    /// A bundled plugin's name, or the path of any plugin library; repeat to load several
    /// and switch between them with Tab (default: every bundled plugin).
    #[arg(long)]
    pub plugin: Vec<String>,
    /// The rules.
    #[command(flatten)]
    pub game: GameArgs,
    /// The session's seed: the first game plays the pieces of game 0 of `tetrad run` with
    /// this seed, each new seed the next game's.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// End a game as "capped" after this many pieces.
    #[arg(long)]
    pub max_pieces: Option<u64>,
    /// A plugin's options, as 'key=value,key=value': given once, for every plugin; or
    /// once per --plugin, in the same order.
    #[arg(long)]
    pub options: Vec<String>,
    /// Save a replay of the last game played to this file.
    #[arg(long, value_name = "FILE")]
    pub record: Option<std::path::PathBuf>,
}

/// Options of `tetrad play`.
#[derive(Debug, Args)]
pub struct PlayArgs {
    /// The rules.
    #[command(flatten)]
    pub game: GameArgs,
    /// The session's seed, as for `tetrad demo`.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// End a game as "capped" after this many pieces.
    #[arg(long)]
    pub max_pieces: Option<u64>,
    /// Save a replay of the last game played to this file.
    #[arg(long, value_name = "FILE")]
    pub record: Option<std::path::PathBuf>,
}

/// Options of `tetrad replay`.
#[derive(Debug, Args)]
pub struct ReplayArgs {
    /// The replay file (written by --record).
    pub file: std::path::PathBuf,
    /// Re-simulate the game without a terminal and check it gives the recorded result.
    #[arg(long)]
    pub verify: bool,
}

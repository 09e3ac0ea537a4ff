//! The options of the terminal screens: `tetrad demo`, `play` and `replay`.

use super::GameArgs;
use clap::Args;

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
    /// End a game as "capped" after this many pieces [default: unlimited].
    #[arg(long)]
    pub max_pieces: Option<u64>,
    /// A plugin's options, as 'key=value,key=value': given once, for every plugin; or
    /// once per --plugin, in the same order.
    #[arg(long)]
    pub options: Vec<String>,
    /// Save a replay of the last game played to this file.
    #[arg(long, value_name = "FILE")]
    pub record: Option<std::path::PathBuf>,
    /// Versus: two boards side by side.
    #[command(flatten)]
    pub versus: ScreenVersus,
}

/// `--versus` on the screens.
#[derive(Debug, Args)]
pub struct ScreenVersus {
    /// Two boards play each other with garbage, on the same pieces.
    #[arg(long)]
    pub versus: bool,
    /// In versus, the rows of garbage sent for clearing 1, 2, 3, 4 (...) lines at once;
    /// a larger clear sends the last entry [default: 0,1,2,4].
    #[arg(long, value_name = "ROWS,...")]
    pub attack: Option<crate::engine::AttackTable>,
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
    /// End a game as "capped" after this many pieces [default: unlimited].
    #[arg(long)]
    pub max_pieces: Option<u64>,
    /// Save a replay of the last game played to this file.
    #[arg(long, value_name = "FILE")]
    pub record: Option<std::path::PathBuf>,
    /// Versus: you on the left board, a plugin on the right.
    #[command(flatten)]
    pub versus: ScreenVersus,
    /// In versus, the opponent: a bundled plugin's name or any plugin's path [default:
    /// tree-search].
    #[arg(long)]
    pub plugin: Option<String>,
    /// In versus, the opponent's options, as 'key=value,key=value'.
    #[arg(long, default_value = "")]
    pub options: String,
}

/// Options of `tetrad replay`.
#[derive(Debug, Args)]
pub struct ReplayArgs {
    /// The replay file (written by --record).
    pub file: std::path::PathBuf,
    /// Re-simulate the game without a terminal and check it gives the recorded result.
    #[arg(long)]
    pub verify: bool,
    /// Write the game as one self-contained HTML page that plays it back, drawn from the
    /// engine's re-simulation (a replay that does not verify has no page).
    #[arg(long, value_name = "OUT", conflicts_with = "verify")]
    pub html: Option<std::path::PathBuf>,
}

//! The game loop: plays games of one plugin through the ABI, in parallel, each game with
//! its own instance; game `i` of seed `s` brings the same pieces to every plugin.
//!
//! `watch` holds the clock and what another thread or process sees of a game in play;
//! `result` how games end and what they record; `ask` one call into a plugin; `game` one
//! game from its instance's creation to its end; `pool` many games on many threads.

mod ask;
mod game;
mod pool;
mod result;
mod watch;

pub use ask::{ask, Answer};
pub use game::{create_instance, game_seed, play_game, play_game_recorded, stall_limit};
pub use pool::{run, run_recorded, RunOutput};
pub use result::{new_histogram, End, GameResult, Limits, RunError};
pub use watch::{Watch, WatchCells, WatchedGame, WATCH_CELLS};

use crate::engine::Sequences;
use std::sync::atomic::AtomicU64;
use std::sync::Arc;
use tetrad_plugin_api::{PieceSet, Rules};

/// What to play.
#[derive(Clone, Debug)]
pub struct RunSpec {
    /// The rules of every game.
    pub rules: Rules,
    /// The piece set.
    pub pieces: Arc<PieceSet>,
    /// How many games.
    pub games: u64,
    /// The run's seed; each game's seed derives from it and the game's index.
    pub seed: u64,
    /// Pieces given per game (`--sequence`): game `i` plays line `i` instead of the pieces
    /// of its seed, and ends as capped when they run out.
    pub sequences: Option<Arc<Sequences>>,
    /// Games played at once.
    pub jobs: usize,
    /// End a game as "capped" once this many pieces have locked.
    pub max_pieces: Option<u64>,
    /// The plugin's `key=value` options.
    pub options: String,
    /// What ends a game early as a forfeit.
    pub limits: Limits,
    /// Live progress for a watchdog on another thread (isolation workers set it).
    pub watch: Option<Arc<Watch>>,
    /// Pieces locked so far in all of the run's games, for a progress display.
    pub pieces_played: Option<Arc<AtomicU64>>,
}

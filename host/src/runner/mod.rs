//! The game loop: plays games in parallel, each game a fixture of seats (one today), each
//! seat a player asked once per tick; game `i` of seed `s` brings the same pieces to every
//! player.
//!
//! `result` is what a finished game records; `seat` one seat's tick (ask, pilot, judge,
//! play); `game` one game from its players' creation to its end; `realtime` a versus game
//! whose seats' ticks are ordered by their times; `live` a person against a bot as it is
//! played; `pool` many games on many threads.

mod game;
mod live;
mod pool;
mod realtime;
mod result;
mod seat;

pub use crate::setup::game_seed;
pub use game::{play_fixture, play_game, play_game_recorded, probe};
pub use live::{Live, LiveError, Rates};
pub use pool::{run, run_recorded, RunOutput};
pub(crate) use result::is_zero;
pub use result::{new_histogram, GameResult, MoveInfoMeans, Timeline};

use crate::engine::Sequences;
use crate::setup::Setup;
use crate::watch::Watch;
use std::sync::atomic::AtomicU64;
use std::sync::Arc;

/// What to play.
#[derive(Clone, Debug)]
pub struct RunSpec {
    /// The rules, pieces, piece cap and limits of every game.
    pub setup: Setup,
    /// How many games.
    pub games: u64,
    /// The run's seed; each game's seed derives from it and the game's index.
    pub seed: u64,
    /// Pieces given per game (`--sequence`): game `i` plays line `i` instead of the pieces
    /// of its seed, and ends as capped when they run out.
    pub sequences: Option<Arc<Sequences>>,
    /// Games played at once.
    pub jobs: usize,
    /// The plugin's `key=value` options.
    pub options: String,
    /// Live progress for a watchdog on another thread (isolation workers set it).
    pub watch: Option<Arc<Watch>>,
    /// Pieces locked so far in all of the run's games, for a progress display.
    pub pieces_played: Option<Arc<AtomicU64>>,
}

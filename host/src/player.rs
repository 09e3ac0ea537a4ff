//! Players: who decides a seat's moves. The runner shows a player an [`Observation`] of
//! its seat and gets a [`Decision`] back; a [`Pilot`] turns a placement into the per-tick
//! actions that reach it, so the runner only ever applies actions. A plugin library and a
//! program speaking the bot protocol are the flavours, variants of one enum, so dispatch
//! stays static.

mod library;
mod pilot;
mod process;
mod tbp;

pub use crate::plugin::bot::{Failure, FailureKind};
pub use crate::referee::{Answer, Budget, Target, Violation};
pub use library::Library;
pub use pilot::Pilot;
pub use process::{Process, DEFAULT_BOT_THINK_LIMIT};
pub use tbp::{MoveInfoMeans, Tbp};

use crate::engine::{Falling, Game};
use crate::plugin::{Plugin, Protocol};
use crate::watch::Watch;
use tetrad_plugin_api::abi::{TetradState, NO_PIECE};
use tetrad_plugin_api::{derive_seed, Actions, Board, PieceId, PieceSet, Rules};

/// What one seat sees at a tick.
#[derive(Clone, Copy, Debug)]
pub struct Observation<'a> {
    /// The rules of the seat's game.
    pub rules: &'a Rules,
    /// The seat's board (locked cells only).
    pub board: &'a Board,
    /// The falling piece, if one is in play.
    pub current: Option<Falling>,
    /// The next piece, if the rules show one.
    pub next: Option<PieceId>,
    /// The player sees this piece for the first time: it just entered, or the player
    /// just took over a game in progress.
    pub new_piece: bool,
    /// Where the rest of the seat's state (hold, queue, combo, garbage) is read from,
    /// when a player asks for it with [`Observation::state`]: most players of the seeds'
    /// presets never do, and the hot path builds nothing for them.
    pub more: More<'a>,
}

/// Where an [`Observation`]'s state beyond the board and the two pieces comes from.
#[derive(Clone, Copy, Debug)]
pub enum More<'a> {
    /// The game itself.
    Game(&'a Game),
    /// A state already laid out (as a bot process was sent it).
    Given(&'a TetradState),
}

impl<'a> Observation<'a> {
    /// What a player of `game` sees now. `fresh`: it sees the falling piece for the first
    /// time even if the game does not (a player taking over a game in progress).
    #[inline(always)]
    pub fn of(game: &'a Game, fresh: bool) -> Observation<'a> {
        Observation {
            rules: game.rules(),
            board: game.board(),
            current: game.current(),
            next: game.preview(),
            new_piece: game.is_new_piece() || fresh,
            more: More::Game(game),
        }
    }

    /// Garbage rows that rise when the falling piece locks, unless its clears cancel them:
    /// the one part of [`Observation::state`] that changes during a piece.
    #[inline]
    pub fn pending_garbage(&self) -> u32 {
        match self.more {
            More::Given(state) => state.pending_garbage,
            More::Game(game) => game.garbage().map_or(0, |garbage| garbage.pending()),
        }
    }

    /// Under the 7-bag, the kinds left in the bag after the last previewed piece, when the
    /// game is at hand (`None` for a state given as laid out).
    pub fn bag_left(&self) -> Option<Vec<PieceId>> {
        match self.more {
            More::Game(game) => game.bag_left(),
            More::Given(_) => None,
        }
    }

    /// The hold slot, the whole preview queue, combo, back-to-back and pending garbage,
    /// as the version 2 ABI lays them out. Always inlined: called, it needs the
    /// observation laid out in memory, which the game loop then builds at every tick.
    #[inline(always)]
    pub fn state(&self) -> TetradState {
        let game = match self.more {
            More::Given(state) => return *state,
            More::Game(game) => game,
        };
        let mut state = TetradState {
            hold: game.held().map_or(NO_PIECE, |piece| i32::from(piece.0)),
            hold_available: u32::from(game.hold_available()),
            combo: game.combo(),
            back_to_back: u32::from(game.back_to_back()),
            pending_garbage: self.pending_garbage(),
            ..TetradState::EMPTY
        };
        // The next piece alone under the seeds' presets: no iterator chain for them.
        if let Some(next) = game.preview() {
            state.queue[0] = i32::from(next.0);
            state.queue_len = 1;
            for (slot, piece) in state.queue[1..].iter_mut().zip(game.queue().skip(1)) {
                *slot = i32::from(piece.0);
                state.queue_len += 1;
            }
        }
        state
    }
}

/// A player's decision at a tick.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Decision {
    /// The actions of this tick, as the ABI's bits.
    Actions(Actions),
    /// Where the falling piece should lock; the pilot plays the path there.
    Placement(Target),
    /// The actions of this tick and the next ones, a whole path the player found and
    /// checked (a hold, then the turns, shifts and drops that lock the piece); the pilot
    /// plays it without asking again until the next piece.
    Path(Vec<Actions>),
}

/// A player's reply at a tick: its decision or its failure, and how long it thought.
#[derive(Debug)]
pub struct Reply {
    /// The decision, or the player's failure.
    pub decision: Result<Decision, Box<Failure>>,
    /// Time spent deciding, in nanoseconds.
    pub elapsed_ns: u64,
}

/// A player refused to start a game, or failed while it started.
#[derive(Debug, thiserror::Error)]
#[error("plugin `{plugin}` ({path}): create failed: {message}")]
pub struct CreateError {
    /// The player's name.
    pub plugin: String,
    /// Its file.
    pub path: String,
    /// Its message, verbatim.
    pub message: String,
    /// `Some` when the failure forfeits the game rather than stopping the run: a bot
    /// process that timed out or ended while it started. A refusal (bad options, a
    /// program that cannot run) is `None`.
    pub forfeit: Option<FailureKind>,
}

/// A seat's player. An enum, not a trait object: the game loop's call stays direct.
pub enum Player {
    /// An instance of a plugin library (the C ABI or the Rust SDK).
    Library(Library),
    /// A program speaking the bot protocol, one process per game.
    Process(Box<Process>),
    /// A program speaking the Tetris Bot Protocol, a process playing one game at a time (boxed: it keeps
    /// the game it told the bot, and the library variant stays small).
    Tbp(Box<Tbp>),
}

impl Player {
    /// A new player of `plugin` with `options`, for the game with `game_seed` under these
    /// rules and pieces (`given_pieces`: dealt from a given sequence, not by the rules'
    /// randomizer). `think_limit_ns` bounds a bot process's every answer (a library's is
    /// checked after it returns, by the referee).
    #[allow(clippy::too_many_arguments)]
    pub fn create(
        plugin: &Plugin,
        rules: &Rules,
        pieces: &PieceSet,
        given_pieces: bool,
        game_seed: u64,
        options: &str,
        think_limit_ns: Option<u64>,
    ) -> Result<Player, CreateError> {
        let seed = plugin_seed(game_seed);
        match plugin.manifest() {
            Some(manifest) if manifest.protocol == Protocol::Tbp => {
                let limit = think_limit_ns.map(std::time::Duration::from_nanos);
                Tbp::create(plugin, manifest, rules, pieces, given_pieces, options, limit)
                    .map(|tbp| Player::Tbp(Box::new(tbp)))
            }
            Some(manifest) => Process::create(plugin, manifest, rules, pieces, seed, options, think_limit_ns)
                .map(|process| Player::Process(Box::new(process))),
            // A library runs in this process, where no sandbox reaches: under `--sandbox` it
            // plays only in an isolated worker, which is sandboxed.
            None if crate::sandbox::policy().is_some() => Err(CreateError {
                plugin: plugin.info().name.clone(),
                path: plugin.path().display().to_string(),
                message: "a library plugin runs inside tetrad's own process, where --sandbox cannot reach: \
                          play it in a sandboxed worker with `tournament --isolate --sandbox`"
                    .to_string(),
                forfeit: None,
            }),
            None => Library::create(plugin, rules, pieces, seed, options).map(Player::Library),
        }
    }

    /// A player of the library `plugin`, its own randomness seeded with `plugin_seed` as
    /// given (a library served as a bot gets the seed its host derived).
    pub fn library(
        plugin: &Plugin,
        rules: &Rules,
        pieces: &PieceSet,
        plugin_seed: u64,
        options: &str,
    ) -> Result<Player, CreateError> {
        Library::create(plugin, rules, pieces, plugin_seed, options).map(Player::Library)
    }

    /// What a bot's search reported with its moves (TBP's `move_info`), as means over the
    /// moves of the game so far; `None` for a player that reported none.
    pub fn move_info(&self) -> Option<MoveInfoMeans> {
        match self {
            Player::Tbp(tbp) => tbp.searched().means(),
            Player::Library(_) | Player::Process(_) => None,
        }
    }

    /// The action bits the player may answer with; any other is a violation.
    pub fn accepted_actions(&self) -> u32 {
        match self {
            Player::Library(library) => library.accepted_actions(),
            Player::Process(process) => process.accepted_actions(),
            // Its paths are the host's own, checked as they are found.
            Player::Tbp(_) => tetrad_plugin_api::abi::ACTION_MASK_V2,
        }
    }

    /// Whether the player is shown a [`Budget`] before each decision under a time control:
    /// a bot process, a TBP bot, and a library that exports the think budget's setter. A
    /// library cannot be stopped while it decides: its time is charged when its update
    /// returns, and it is only told its piece's share.
    #[inline(always)]
    pub fn takes_budget(&self) -> bool {
        match self {
            Player::Library(library) => library.takes_budget(),
            _ => true,
        }
    }

    /// What the next decision may spend under the seat's time control: a bot process's
    /// answer is awaited no longer than the clock has left, and a TBP bot is asked for its
    /// move when the piece's share of the clock is nearly over.
    pub fn set_budget(&mut self, budget: Budget) {
        match self {
            Player::Library(library) => library.set_budget(budget),
            Player::Process(process) => process.set_budget(budget),
            Player::Tbp(tbp) => tbp.set_budget(budget),
        }
    }

    /// The player's reply to `observation`, timed on `clock` (fetched once per game by
    /// the caller). `watch`, if given, shows the thinking to a watchdog on another thread.
    #[inline(always)]
    pub fn decide(&mut self, observation: &Observation<'_>, clock: &quanta::Clock, watch: Option<&Watch>) -> Reply {
        match self {
            Player::Library(library) => library.decide(observation, clock, watch),
            Player::Process(process) => process.decide(observation, clock, watch),
            Player::Tbp(tbp) => tbp.decide(observation, clock, watch),
        }
    }
}

/// The seed a player gets for its own randomness in the game with `game_seed`.
fn plugin_seed(game_seed: u64) -> u64 {
    derive_seed(game_seed, u64::MAX)
}

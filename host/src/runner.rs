//! The game loop: plays games of one plugin through the ABI, in parallel, each game with
//! its own instance; game `i` of seed `s` brings the same pieces to every plugin.

use crate::engine::{Game, PieceQueue, Sequences};
use crate::plugin::{Instance, Plugin};
use crate::referee::{Ending, Referee};
use hdrhistogram::Histogram;
use serde::{Deserialize, Serialize};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{mpsc, Arc, OnceLock};
use tetrad_plugin_api::abi::{GameInfoBuf, TetradField, TetradPiece};
use tetrad_plugin_api::{derive_seed, Actions, PieceSet, Rules};

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

/// The clock that times updates, shared by every thread of the process.
///
/// Two reads per tick: the OS clock costs a measurable share of a fast plugin's tick, the
/// CPU's time-stamp counter a few cycles. `quanta` reads the counter where it is invariant
/// and falls back to the OS's monotonic clock elsewhere; its deltas are nanoseconds either
/// way. Calibrating the counter against the OS clock happens once, on first use.
fn clock() -> &'static quanta::Clock {
    static CLOCK: OnceLock<quanta::Clock> = OnceLock::new();
    CLOCK.get_or_init(quanta::Clock::new)
}

/// How many counters a [`Watch`] keeps (see [`WatchCells`]).
pub const WATCH_CELLS: usize = 8;

/// A watch's counters, in this order: the game's index + 1 (0 before any game), when the
/// running update started, when the running `create` started (both in nanoseconds since
/// the watch was made, 0 if none is running), then lines, pieces, points and ticks so far.
/// An isolation worker keeps them in a file shared with its parent, which reads them as
/// native-endian `u64`s when the worker dies.
pub type WatchCells = [AtomicU64; WATCH_CELLS];

const CELL_GAME: usize = 0;
const CELL_UPDATE_STARTED: usize = 1;
const CELL_CREATE_STARTED: usize = 2;
const CELL_STATS: usize = 3;

/// Where a watch's counters live.
#[derive(Debug)]
enum Cells {
    /// In this process alone.
    Owned(Box<WatchCells>),
    /// In memory another process can read, kept for the life of the process.
    Shared(&'static WatchCells),
}

/// The game in play as another thread (or process) sees it: which game, when the running
/// `create` or update started, and the totals so far. Lets a watchdog end a call that never
/// returns, and keeps what a game had played when its process dies.
#[derive(Debug)]
pub struct Watch {
    /// The [`clock`]'s raw reading when the watch was made.
    epoch: u64,
    cells: Cells,
}

/// A game's totals as a [`Watch`] last saw them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    /// The game's index, if a game has begun.
    pub game: Option<u64>,
    /// Lines so far.
    pub lines: u64,
    /// Pieces so far.
    pub pieces: u64,
    /// Points so far.
    pub score: u64,
    /// Ticks so far.
    pub ticks: u64,
}

impl Progress {
    /// The progress recorded in a watch's counters, read as plain numbers.
    pub fn from_cells(cells: &[u64; WATCH_CELLS]) -> Progress {
        Progress {
            game: cells[CELL_GAME].checked_sub(1),
            lines: cells[CELL_STATS],
            pieces: cells[CELL_STATS + 1],
            score: cells[CELL_STATS + 2],
            ticks: cells[CELL_STATS + 3],
        }
    }
}

impl Watch {
    /// A watch with nothing running, its counters in this process.
    pub fn new() -> Watch {
        Watch::with_cells(Cells::Owned(Box::default()))
    }

    /// A watch whose counters are `cells` (memory shared with another process).
    pub fn over(cells: &'static WatchCells) -> Watch {
        Watch::with_cells(Cells::Shared(cells))
    }

    fn with_cells(cells: Cells) -> Watch {
        let watch = Watch {
            epoch: clock().raw(),
            cells,
        };
        for cell in watch.cells() {
            cell.store(0, Ordering::Relaxed);
        }
        watch
    }

    fn cells(&self) -> &WatchCells {
        match &self.cells {
            Cells::Owned(cells) => cells,
            Cells::Shared(cells) => cells,
        }
    }

    /// Nanoseconds since the watch was made (never 0).
    pub fn now_ns(&self) -> u64 {
        self.ns_at(clock().raw())
    }

    /// Nanoseconds from the watch's making to the [`clock`]'s raw reading `raw` (never 0).
    fn ns_at(&self, raw: u64) -> u64 {
        clock().delta_as_nanos(self.epoch, raw) + 1
    }

    /// Game `index` begins: its totals are zero and its `create` is running.
    pub fn begin_game(&self, index: u64) {
        let cells = self.cells();
        for cell in &cells[CELL_STATS..] {
            cell.store(0, Ordering::Relaxed);
        }
        cells[CELL_GAME].store(index.saturating_add(1), Ordering::Release);
        cells[CELL_CREATE_STARTED].store(self.now_ns(), Ordering::Release);
    }

    /// The game's `create` returned.
    pub fn created(&self) {
        self.cells()[CELL_CREATE_STARTED].store(0, Ordering::Release);
    }

    /// An update starts at the [`clock`]'s raw reading `raw`, or (with `None`) ended.
    fn set_update_started(&self, raw: Option<u64>) {
        let started = raw.map_or(0, |raw| self.ns_at(raw));
        self.cells()[CELL_UPDATE_STARTED].store(started, Ordering::Release);
    }

    /// Records the game's totals after a tick.
    pub fn set_stats(&self, lines: u64, pieces: u64, score: u64, ticks: u64) {
        let stats = &self.cells()[CELL_STATS..];
        for (cell, value) in stats.iter().zip([lines, pieces, score, ticks]) {
            cell.store(value, Ordering::Relaxed);
        }
    }

    /// The game and its totals as last recorded.
    pub fn progress(&self) -> Progress {
        let values: [u64; WATCH_CELLS] = std::array::from_fn(|i| self.cells()[i].load(Ordering::Acquire));
        Progress::from_cells(&values)
    }

    /// How long the running update has taken, if one is running.
    pub fn running_ns(&self) -> Option<u64> {
        self.elapsed_since(CELL_UPDATE_STARTED)
    }

    /// How long the running `create` has taken, if one is running.
    pub fn creating_ns(&self) -> Option<u64> {
        self.elapsed_since(CELL_CREATE_STARTED)
    }

    fn elapsed_since(&self, cell: usize) -> Option<u64> {
        let started = self.cells()[cell].load(Ordering::Acquire);
        (started != 0).then(|| self.now_ns().saturating_sub(started))
    }
}

impl Default for Watch {
    fn default() -> Watch {
        Watch::new()
    }
}

/// Limits whose breach forfeits a game. `tetrad run` sets none: violations are counted
/// and not applied, and no update is too slow.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// An update that takes longer forfeits the game as `timeout` (checked after it returns).
    pub think_limit_ns: Option<u64>,
    /// More violations than this in one game forfeit it as `violation`.
    pub max_violations: Option<u64>,
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum End {
    /// A piece could not enter, or locked where the preset says the game is over.
    ToppedOut,
    /// It reached `--max-pieces`, or played every piece of its `--sequence` line.
    Capped,
    /// The plugin failed (a panic, or a C plugin's error status).
    PluginError,
    /// Under a preset without gravity, the piece was not dropped in time.
    Stalled,
    /// An update took longer than the think limit.
    Timeout,
    /// More protocol violations than allowed.
    Violation,
    /// The plugin took its worker process down (isolation only).
    Crashed,
}

impl End {
    /// Every way a game can end, in report order.
    pub const ALL: [End; 7] = [
        End::ToppedOut,
        End::Capped,
        End::PluginError,
        End::Stalled,
        End::Timeout,
        End::Violation,
        End::Crashed,
    ];

    /// The name used in reports.
    pub fn name(self) -> &'static str {
        match self {
            End::ToppedOut => "topped_out",
            End::Capped => "capped",
            End::PluginError => "plugin_error",
            End::Stalled => "stalled",
            End::Timeout => "timeout",
            End::Violation => "violation",
            End::Crashed => "crashed",
        }
    }

    /// Whether the plugin forfeited the game, rather than playing it out.
    pub fn is_forfeit(self) -> bool {
        !matches!(self, End::ToppedOut | End::Capped)
    }
}

/// One finished game.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct GameResult {
    /// Index of the game in the run.
    pub index: u64,
    /// The game's seed (it decides the pieces).
    pub seed: u64,
    /// Rows cleared.
    pub lines: u64,
    /// Pieces locked.
    pub pieces: u64,
    /// Points.
    pub score: u64,
    /// Ticks played.
    pub ticks: u64,
    /// How it ended.
    pub end: End,
    /// The plugin's error text, for `plugin_error`; what happened, for `stalled`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// Updates whose bits broke the protocol (not applied).
    pub violations: u64,
    /// Calls to `update` (one per tick, plus the failed one of a plugin error).
    pub updates: u64,
    /// Mean microseconds per `update`.
    pub update_us_mean: f64,
    /// 99th percentile of this game's updates, in microseconds.
    pub update_us_p99: f64,
    /// Slowest update of this game, in microseconds.
    pub update_us_max: f64,
    /// Every update's duration in nanoseconds. [`run`] folds it into the run's histogram
    /// and leaves this one empty, so a long run keeps one histogram, not one per game.
    #[serde(skip, default = "new_histogram")]
    pub update_ns: Histogram<u64>,
}

/// An empty update-time histogram: 1% precision, growing to fit any value.
pub fn new_histogram() -> Histogram<u64> {
    Histogram::new(2).expect("2 significant figures is a valid precision")
}

/// A run that could not go on.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// The plugin refused to create an instance (bad options, unsupported rules...).
    #[error("plugin `{plugin}` ({path}): create failed: {message}")]
    CreateFailed {
        /// The plugin's name.
        plugin: String,
        /// Its file.
        path: String,
        /// Its message, verbatim.
        message: String,
    },
}

/// The seed of game `index` of a run with seed `run_seed`.
pub fn game_seed(run_seed: u64, index: u64) -> u64 {
    derive_seed(run_seed, index)
}

/// The seed a plugin gets for its own randomness in the game with `game_seed`.
fn plugin_seed(game_seed: u64) -> u64 {
    derive_seed(game_seed, u64::MAX)
}

/// Ticks a piece may hover under a preset without gravity before the game is stalled:
/// generous enough for every turn and every shift across the board, many times over.
pub fn stall_limit(rules: &Rules) -> u32 {
    8 * (rules.width + rules.height) as u32
}

/// Creates an instance of `plugin` for the game with `game_seed` under these rules.
pub fn create_instance(
    plugin: &Plugin,
    rules: &Rules,
    pieces: &PieceSet,
    game_seed: u64,
    options: &str,
) -> Result<Instance, RunError> {
    let info = GameInfoBuf::new(rules, pieces, plugin_seed(game_seed));
    plugin.create(&info, options).map_err(|message| RunError::CreateFailed {
        plugin: plugin.info().name.clone(),
        path: plugin.path().display().to_string(),
        message,
    })
}

/// Plays game `index` with a new instance of `plugin`.
pub fn play_game(plugin: &Plugin, spec: &RunSpec, index: u64) -> Result<GameResult, RunError> {
    play_game_recorded(plugin, spec, index, None)
}

/// Plays game `index` like [`play_game`], pushing the actions applied at each tick (after
/// violations are filtered out) onto `record`.
pub fn play_game_recorded(
    plugin: &Plugin,
    spec: &RunSpec,
    index: u64,
    record: Option<&mut Vec<u32>>,
) -> Result<GameResult, RunError> {
    let seed = game_seed(spec.seed, index);
    if let Some(watch) = &spec.watch {
        watch.begin_game(index);
    }
    let created = create_instance(plugin, &spec.rules, &spec.pieces, seed, &spec.options);
    if let Some(watch) = &spec.watch {
        watch.created();
    }
    let mut instance = created?;
    let game = match &spec.sequences {
        Some(sequences) => {
            let queue = PieceQueue::given(sequences.game(index));
            Game::with_queue(spec.rules, spec.pieces.clone(), queue, None)
        }
        None => Game::new(spec.rules, spec.pieces.clone(), seed),
    };
    Ok(play(&mut instance, game, spec, index, seed, record))
}

/// A plugin's answer for one tick.
#[derive(Debug)]
pub struct Answer {
    /// The actions to apply (none after a violation), or the plugin's error.
    pub actions: Result<Actions, String>,
    /// The bits the plugin returned, as returned.
    pub raw: u32,
    /// The plugin's bits broke the protocol and are not applied.
    pub violation: bool,
    /// Time spent in `update`, in nanoseconds.
    pub elapsed_ns: u64,
}

/// Asks `instance` for its actions at this tick of `game`, timing the call. `fresh` tells
/// the plugin it sees this piece for the first time even if the game does not (an instance
/// that takes over a game in progress). `watch`, if given, shows the running call to a
/// watchdog on another thread.
pub fn ask(instance: &mut Instance, game: &Game, fresh: bool, watch: Option<&Watch>) -> Answer {
    ask_timed(instance, game, fresh, watch, clock())
}

/// [`ask`], reading `clock` (the [`clock`], fetched once per game by the caller). Always
/// inlined: in the game loop the [`Answer`] then stays in registers instead of going
/// through memory, which measurably shortens every tick.
#[inline(always)]
fn ask_timed(
    instance: &mut Instance,
    game: &Game,
    fresh: bool,
    watch: Option<&Watch>,
    clock: &quanta::Clock,
) -> Answer {
    let rules = game.rules();
    let rows = game.board().rows();
    let field = TetradField {
        width: rules.width as u32,
        height: rules.height as u32,
        rows: rows.as_ptr(),
    };
    let current = game.current().map_or(TetradPiece::NONE, |falling| {
        TetradPiece::falling(falling.piece, falling.pos)
    });
    let next = TetradPiece::next(game.preview());
    let started = clock.raw();
    // The watch shows the same start as the timing: one clock read, not two.
    if let Some(watch) = watch {
        watch.set_update_started(Some(started));
    }
    let answer = instance.update(&field, &current, &next, game.is_new_piece() || fresh);
    let elapsed_ns = clock.delta_as_nanos(started, clock.raw());
    if let Some(watch) = watch {
        watch.set_update_started(None);
    }
    let (actions, raw, violation) = match answer {
        Ok(bits) if Actions(bits).is_violation() => (Ok(Actions::NONE), bits, true),
        Ok(bits) => (Ok(Actions(bits)), bits, false),
        Err(message) => (Err(message), 0, false),
    };
    Answer {
        actions,
        raw,
        violation,
        elapsed_ns,
    }
}

/// Plays `game` to its end with `instance`, recording the applied actions if asked.
fn play(
    instance: &mut Instance,
    mut game: Game,
    spec: &RunSpec,
    index: u64,
    seed: u64,
    mut record: Option<&mut Vec<u32>>,
) -> GameResult {
    let mut referee = Referee::new(game.rules(), spec.max_pieces, spec.limits);
    let mut update_ns = new_histogram();
    let mut total_ns: u128 = 0;
    let mut pieces_counted = 0;
    let clock = clock();
    let Ending { end, error } = loop {
        if let Some(end) = referee.game_over(&game) {
            break Ending { end, error: None };
        }
        let answer = ask_timed(instance, &game, false, spec.watch.as_deref(), clock);
        total_ns += u128::from(answer.elapsed_ns);
        // The histogram grows to fit any value.
        let _ = update_ns.record(answer.elapsed_ns);
        let actions = match referee.judge(&answer) {
            Ok(actions) => actions,
            Err(ending) => break ending,
        };
        if let Some(record) = record.as_deref_mut() {
            record.push(actions.0);
        }
        game.tick(actions);
        if let Some(watch) = &spec.watch {
            let stats = game.stats();
            watch.set_stats(stats.lines, stats.pieces, stats.score, stats.ticks);
        }
        if let Some(played) = &spec.pieces_played {
            let pieces = game.stats().pieces;
            if pieces != pieces_counted {
                played.fetch_add(pieces - pieces_counted, Ordering::Relaxed);
                pieces_counted = pieces;
            }
        }
        if let Some(ending) = referee.after_tick(&game) {
            break ending;
        }
    };
    let violations = referee.violations();
    let stats = game.stats();
    let updates = update_ns.len();
    GameResult {
        index,
        seed,
        lines: stats.lines,
        pieces: stats.pieces,
        score: stats.score,
        ticks: stats.ticks,
        end,
        error,
        violations,
        updates,
        update_us_mean: total_ns as f64 / updates.max(1) as f64 / 1000.0,
        update_us_p99: update_ns.value_at_quantile(0.99) as f64 / 1000.0,
        update_us_max: update_ns.max() as f64 / 1000.0,
        update_ns,
    }
}

/// The finished games of a run, in game order, and every update's duration.
pub struct RunOutput {
    /// One result per game, in game order.
    pub results: Vec<GameResult>,
    /// Durations of every update of every game, in nanoseconds.
    pub update_ns: Histogram<u64>,
}

/// Plays every game of the run on `spec.jobs` threads. `on_result` sees each game as it
/// finishes (in finishing order). The first failed create stops the run.
pub fn run(plugin: &Plugin, spec: &RunSpec, on_result: impl FnMut(&GameResult)) -> Result<RunOutput, RunError> {
    run_recorded(plugin, spec, None, on_result)
}

/// Plays the run like [`run`], pushing the actions applied at each tick of game 0 onto
/// `game0` (see [`play_game_recorded`]).
pub fn run_recorded(
    plugin: &Plugin,
    spec: &RunSpec,
    game0: Option<&mut Vec<u32>>,
    mut on_result: impl FnMut(&GameResult),
) -> Result<RunOutput, RunError> {
    let game0 = std::sync::Mutex::new(game0);
    let next_index = AtomicU64::new(0);
    let stop = AtomicBool::new(false);
    let (sender, receiver) = mpsc::channel();
    let mut results = Vec::with_capacity(spec.games as usize);
    let mut update_ns = new_histogram();
    let mut failure = None;
    std::thread::scope(|scope| {
        for _ in 0..spec.jobs.clamp(1, spec.games.max(1) as usize) {
            let sender = sender.clone();
            let (next_index, stop, game0) = (&next_index, &stop, &game0);
            scope.spawn(move || loop {
                let index = next_index.fetch_add(1, Ordering::Relaxed);
                if index >= spec.games || stop.load(Ordering::Relaxed) {
                    break;
                }
                let record = if index == 0 {
                    game0.lock().map_or(None, |mut sink| sink.take())
                } else {
                    None
                };
                let outcome = play_game_recorded(plugin, spec, index, record);
                if outcome.is_err() {
                    stop.store(true, Ordering::Relaxed);
                }
                if sender.send(outcome).is_err() {
                    break;
                }
            });
        }
        drop(sender);
        for outcome in receiver {
            match outcome {
                Ok(mut result) => {
                    on_result(&result);
                    let _ = update_ns.add(std::mem::replace(&mut result.update_ns, new_histogram()));
                    results.push(result);
                }
                Err(err) => failure = failure.take().or(Some(err)),
            }
        }
    });
    if let Some(err) = failure {
        return Err(err);
    }
    results.sort_by_key(|r| r.index);
    Ok(RunOutput { results, update_ns })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    #[test]
    fn the_watch_sees_a_running_update_in_real_nanoseconds() {
        let watch = Watch::new();
        assert_eq!(watch.running_ns(), None);
        let started = Instant::now();
        watch.set_update_started(Some(clock().raw()));
        std::thread::sleep(Duration::from_millis(20));
        let running = watch.running_ns().expect("an update is running");
        let real = started.elapsed().as_nanos() as u64;
        assert!(running >= 20_000_000, "{running} ns");
        // The OS clock, read after the watch's, saw at least as long; loosely bounded
        // above, as the tests share the cores.
        assert!(running <= real + 1_000_000, "{running} ns against {real} ns");
    }
}

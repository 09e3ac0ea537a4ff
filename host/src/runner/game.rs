//! One game: the plugin's instance created for it, then the loop that asks the plugin,
//! lets the referee judge and ticks the engine until the game ends.

use super::ask::ask_timed;
use super::watch::clock;
use super::{new_histogram, GameResult, RunError, RunSpec};
use crate::engine::{Game, PieceQueue};
use crate::plugin::{Instance, Plugin};
use crate::referee::{Ending, Referee};
use std::sync::atomic::Ordering;
use tetrad_plugin_api::abi::GameInfoBuf;
use tetrad_plugin_api::{derive_seed, PieceSet, Rules};

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
        let actions = match referee.judge(answer) {
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

//! Many games of one plugin on many threads, their results gathered in index order.

use super::game::play_game_recorded;
use super::{new_histogram, GameResult, RunSpec};
use crate::player::CreateError;
use crate::plugin::Plugin;
use hdrhistogram::Histogram;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;

/// The finished games of a run, in game order, and every update's duration.
pub struct RunOutput {
    /// One result per game, in game order.
    pub results: Vec<GameResult>,
    /// Durations of every update of every game, in nanoseconds.
    pub update_ns: Histogram<u64>,
}

/// Plays every game of the run on `spec.jobs` threads. `on_result` sees each game as it
/// finishes (in finishing order). The first failed create stops the run.
pub fn run(plugin: &Plugin, spec: &RunSpec, on_result: impl FnMut(&GameResult)) -> Result<RunOutput, CreateError> {
    run_recorded(plugin, spec, None, on_result)
}

/// Plays the run like [`run`], pushing the actions applied at each tick of game 0 onto
/// `game0` (see [`play_game_recorded`]).
pub fn run_recorded(
    plugin: &Plugin,
    spec: &RunSpec,
    game0: Option<&mut Vec<u32>>,
    mut on_result: impl FnMut(&GameResult),
) -> Result<RunOutput, CreateError> {
    let game0 = std::sync::Mutex::new(game0);
    let next_index = AtomicU64::new(0);
    let stop = AtomicBool::new(false);
    let (sender, receiver) = mpsc::channel();
    // Grown as games finish: a run of a million games reserves nothing up front.
    let mut results = Vec::with_capacity(spec.games.min(4096) as usize);
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

//! One game: the fixture dealt from its seed (or its sequence line), a player created for
//! each seat, and the loop that ticks every seat until all have ended.

use super::seat::Seat;
use super::{GameResult, RunSpec};
use crate::engine::{Game, PieceQueue};
use crate::player::{CreateError, Player};
use crate::plugin::Plugin;
use crate::referee::End;
use crate::watch::clock;
use tetrad_plugin_api::derive_seed;

/// The seed of game `index` of a run with seed `run_seed`.
pub fn game_seed(run_seed: u64, index: u64) -> u64 {
    derive_seed(run_seed, index)
}

/// Plays game `index` with a new player of `plugin`.
pub fn play_game(plugin: &Plugin, spec: &RunSpec, index: u64) -> Result<GameResult, CreateError> {
    play_game_recorded(plugin, spec, index, None)
}

/// Plays game `index` like [`play_game`], pushing the actions applied at each tick (after
/// violations are filtered out) onto `record`.
pub fn play_game_recorded(
    plugin: &Plugin,
    spec: &RunSpec,
    index: u64,
    record: Option<&mut Vec<u32>>,
) -> Result<GameResult, CreateError> {
    let seed = game_seed(spec.seed, index);
    if let Some(watch) = &spec.watch {
        watch.begin_game(index);
    }
    let setup = &spec.setup;
    let think_limit = setup.limits.think_limit_ns;
    let created = Player::create(plugin, &setup.rules, &setup.pieces, seed, &spec.options, think_limit);
    if let Some(watch) = &spec.watch {
        watch.created();
    }
    let player = match created {
        Ok(player) => player,
        Err(CreateError {
            message,
            forfeit: Some(kind),
            ..
        }) => {
            return Ok(GameResult {
                error: Some(message),
                ..GameResult::unplayed(index, seed, End::of_failure(kind))
            })
        }
        Err(refused) => return Err(refused),
    };
    let mut seats = [Seat::new(deal(spec, index, seed), player, setup, record)];
    play(&mut seats, spec);
    let [seat] = seats;
    Ok(seat.result(index, seed))
}

/// The game `index` of the run, with seed `seed`: its sequence line, or seeded pieces.
fn deal(spec: &RunSpec, index: u64, seed: u64) -> Game {
    let setup = &spec.setup;
    match &spec.sequences {
        Some(sequences) => {
            let queue = PieceQueue::given(sequences.game(index));
            Game::with_queue(setup.rules, setup.pieces.clone(), queue, None)
        }
        None => Game::new(setup.rules, setup.pieces.clone(), seed),
    }
}

/// Ticks every seat in lockstep until every seat's game has ended. The seat count is a
/// constant, so a solo game's loop compiles to one seat's ticks with nothing around them.
fn play<const SEATS: usize>(seats: &mut [Seat<'_>; SEATS], spec: &RunSpec) {
    let clock = clock();
    let watch = spec.watch.as_deref();
    let pieces_played = spec.pieces_played.as_deref();
    let mut playing = [true; SEATS];
    while playing.contains(&true) {
        for (seat, playing) in seats.iter_mut().zip(playing.iter_mut()) {
            if !*playing {
                continue;
            }
            if let Some(ending) = seat.tick(clock, watch, pieces_played) {
                seat.end(ending);
                *playing = false;
            }
        }
    }
}

//! One game: the fixture dealt from its seed (or its sequence line), a player created for
//! each seat, and the loop that ticks every seat until all have ended.

use super::seat::Seat;
use super::{GameResult, RunSpec};
use crate::engine::{pass_garbage, Deliveries, Game, Pace, PieceQueue};
use crate::player::{CreateError, Player};
use crate::plugin::Plugin;
use crate::referee::{End, Ending};
use crate::setup::{game_seed, Setup};
use crate::watch::clock;

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
    let [result] = play_fixture([(plugin, spec.options.as_str())], spec, index, [record])?;
    Ok(result)
}

/// Plays game `index` with one seat per `(plugin, options)`, every seat dealt the same
/// pieces, and returns each seat's result in seat order. With the setup's attack table the
/// seats play versus: garbage goes from each seat to the next, and the first game to end
/// ends the others (see `exchange`). A seat whose player could not be created forfeits
/// (a versus opponent then wins without playing); a plugin that refuses the setup is an
/// error for the caller.
pub fn play_fixture<const SEATS: usize>(
    entrants: [(&Plugin, &str); SEATS],
    spec: &RunSpec,
    index: u64,
    records: [Option<&mut Vec<u32>>; SEATS],
) -> Result<[GameResult; SEATS], CreateError> {
    let seed = game_seed(spec.seed, index);
    if let Some(watch) = &spec.watch {
        watch.begin_game(index);
    }
    let setup = &spec.setup;
    let think_limit = setup.limits.think_limit_ns;
    let created = entrants.map(|(plugin, options)| {
        let given = spec.sequences.is_some();
        Player::create(plugin, &setup.rules, &setup.pieces, given, seed, options, think_limit)
    });
    if let Some(watch) = &spec.watch {
        watch.created();
    }
    if created
        .iter()
        .any(|c| matches!(c, Err(CreateError { forfeit: None, .. })))
    {
        let refused = created
            .into_iter()
            .find_map(|c| c.err().filter(|e| e.forfeit.is_none()));
        return Err(refused.expect("a refusal was found"));
    }
    if created.iter().any(Result::is_err) {
        return Ok(created.map(|created| match created {
            Err(CreateError {
                message,
                forfeit: Some(kind),
                ..
            }) => GameResult {
                error: Some(message),
                ..GameResult::unplayed(index, seed, End::of_failure(kind))
            },
            // Only a versus opponent can be left: it wins without playing.
            _ => GameResult::unplayed(index, seed, End::Won),
        }));
    }
    let mut seats = Vec::with_capacity(SEATS);
    for (created, record) in created.into_iter().zip(records) {
        let player = created.unwrap_or_else(|_| unreachable!("every player was created"));
        seats.push(Seat::new(deal(spec, index, seed), player, setup, record));
    }
    let mut seats: [Seat<'_>; SEATS] = seats
        .try_into()
        .unwrap_or_else(|_| unreachable!("one seat per entrant"));
    if spec.setup.pace == Pace::Realtime && is_versus::<SEATS>(spec) {
        let timelines = super::realtime::play(&mut seats, spec);
        let mut timelines = timelines.into_iter();
        return Ok(seats.map(|seat| GameResult {
            timeline: timelines.next().flatten(),
            ..seat.result(index, seed)
        }));
    }
    play(&mut seats, spec);
    Ok(seats.map(|seat| seat.result(index, seed)))
}

/// The game `index` of the run, with seed `seed`: its sequence line, or seeded pieces; in
/// versus, taking garbage with hole columns drawn from the seed, and under timing rules.
fn deal(spec: &RunSpec, index: u64, seed: u64) -> Game {
    let setup = &spec.setup;
    let mut game = match &spec.sequences {
        Some(sequences) => {
            let queue = PieceQueue::given(sequences.game(index));
            Game::with_queue(setup.rules, setup.pieces.clone(), queue, None)
        }
        None => Game::new(setup.rules, setup.pieces.clone(), seed),
    };
    if let Some(attack) = &setup.attack {
        // Under realtime the garbage delay counts time, which the engine does not read.
        let garbage = match setup.pace {
            Pace::Realtime => Deliveries::engine_rules(&setup.garbage),
            _ => setup.garbage,
        };
        game.enable_garbage_with(attack.clone(), garbage, seed);
    }
    // The timing rules count time, which only the realtime pace keeps; the command line
    // refuses them at the other paces, and the setup was checked when it was built.
    if let Some(timing) = setup.timing.filter(|_| setup.pace == Pace::Realtime) {
        game.enable_timing(timing).expect("timing rules checked with the setup");
    }
    game
}

/// Whether a fixture of `SEATS` seats under `spec` is a versus game.
fn is_versus<const SEATS: usize>(spec: &RunSpec) -> bool {
    SEATS > 1 && spec.setup.attack.is_some()
}

/// Plays every seat round by round until every seat's game has ended: in each round each
/// seat in turn plays its part, as long as the setup's pace says (one tick under `ticks`,
/// one piece under `pieces`), and then the seats exchange garbage. The seat count is a
/// constant, so a solo game's loop compiles to one seat's ticks with nothing around them.
fn play<const SEATS: usize>(seats: &mut [Seat<'_>; SEATS], spec: &RunSpec) {
    let clock = clock();
    let watch = spec.watch.as_deref();
    let pieces_played = spec.pieces_played.as_deref();
    let versus = SEATS > 1 && spec.setup.attack.is_some();
    // A solo game is played tick by tick whatever the pace.
    let pace = if versus { spec.setup.pace } else { Pace::Ticks };
    let mut playing = [true; SEATS];
    while playing.contains(&true) {
        for (seat, playing) in seats.iter_mut().zip(playing.iter_mut()) {
            if !*playing {
                continue;
            }
            let pieces_before = seat.game().stats().pieces;
            loop {
                if let Some(ending) = seat.tick(clock, watch, pieces_played) {
                    seat.end(ending);
                    *playing = false;
                    break;
                }
                if pace.turn_over(pieces_before, seat.game()) {
                    break;
                }
            }
        }
        if versus {
            exchange(seats, &mut playing);
        }
    }
}

/// The end of a versus tick, once every seat has played it: the garbage each seat sent
/// goes to the next seat, and if a game ended, every game still playing ends with it: as
/// won when the one that ended lost (topped out or forfeited), as capped when it reached
/// the piece cap. Games that end in the same tick keep their own ends: a draw.
fn exchange<const SEATS: usize>(seats: &mut [Seat<'_>; SEATS], playing: &mut [bool; SEATS]) {
    pass_garbage(seats.iter_mut().map(Seat::game_mut));
    if playing.iter().all(|&p| p) {
        return;
    }
    let lost = seats.iter().any(|seat| seat.ending().is_some_and(|e| e.end.is_loss()));
    let end = if lost { End::Won } else { End::Capped };
    for (seat, playing) in seats.iter_mut().zip(playing.iter_mut()).filter(|(_, p)| **p) {
        seat.end(Ending { end, error: None });
        *playing = false;
    }
}

/// Creates and drops one player of `plugin` with `options` under `setup`, so a refused
/// option is one clear error before any game rather than a failure in the middle. A bot
/// process that fails while it starts passes: it forfeits its games instead, each with
/// its cause.
pub fn probe(plugin: &Plugin, setup: &Setup, options: &str) -> Result<(), CreateError> {
    let think_limit_ns = setup.limits.think_limit_ns;
    let given = setup.sequence.is_some();
    match Player::create(plugin, &setup.rules, &setup.pieces, given, 0, options, think_limit_ns) {
        Err(err) if err.forfeit.is_none() => Err(err),
        _ => Ok(()),
    }
}

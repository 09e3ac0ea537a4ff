//! A versus game at the realtime pace: every seat lives on its own timeline (the time its
//! player spends deciding, measured, then its path played at the setup's speed), and the
//! seats' ticks are played in the order of their times, the garbage delivered as it is
//! sent. Players are asked one at a time, each with the machine to itself, and each
//! decision's measured time is placed on its seat's timeline: thinking costs a seat as it
//! would if both played at once, without the two competing for the processor.
//!
//! Under timing rules each game's own events (a row that falls, a lock when the delay
//! runs out) take their place in the same order: a seat whose player is still thinking
//! sees its piece fall, and lock where it lies; the decision it then gives, made for a
//! piece that is gone, is dropped, and the player is asked again from the moment it
//! answered. At one microsecond, a seat's own event comes before its tick.

use super::seat::Seat;
use super::{RunSpec, Timeline};
use crate::engine::{Deliveries, Game};
use crate::referee::{End, Ending};
use crate::watch::clock;
use tetrad_plugin_api::Actions;

/// A seat's place on its timeline.
struct Moment {
    /// When its last tick happened (0 before the first), in microseconds: the player is
    /// asked for its next tick from then.
    now_us: u64,
    /// When its last lock happened, for the pieces-per-second limit.
    last_lock_us: Option<u64>,
    /// Its next event, once decided: a tick, or the end of its game, and when.
    next: Option<Decided>,
    /// Its ticks' times, if the seat is recorded.
    ticks_us: Option<Vec<u64>>,
    /// When its game ended.
    end_us: Option<u64>,
}

/// A decision placed on its seat's timeline.
struct Decided {
    /// When it takes effect.
    time_us: u64,
    /// The tick, or the end of the game.
    event: Result<Actions, Ending>,
    /// The pieces locked when it was asked for: a lock by the game's timing since then
    /// leaves it without its piece.
    pieces: u64,
}

impl Moment {
    /// When the seat's next event happens, or, before it is decided, when it is asked;
    /// and whether it is an event of its game's timing (due no later than that).
    fn due(&self, game: &Game) -> (u64, bool) {
        let own = self.next.as_ref().map_or(self.now_us, |decided| decided.time_us);
        match game.next_event_us() {
            Some(at) if at <= own => (at, true),
            _ => (own, false),
        }
    }
}

/// Plays every seat until the first game ends, which ends the others at the same moment
/// (as won when it was lost, as capped when it reached the cap). Events at the same
/// microsecond are played in seat order. Returns each recorded seat's timeline.
pub(super) fn play<const SEATS: usize>(seats: &mut [Seat<'_>; SEATS], spec: &RunSpec) -> [Option<Timeline>; SEATS] {
    let clock = clock();
    let watch = spec.watch.as_deref();
    let pieces_played = spec.pieces_played.as_deref();
    let speed = spec.setup.speed;
    let mut deliveries = Deliveries::new(SEATS, &spec.setup.garbage);
    let mut moments: [Moment; SEATS] = std::array::from_fn(|index| Moment {
        now_us: 0,
        last_lock_us: None,
        next: None,
        ticks_us: seats[index].is_recorded().then(Vec::new),
        end_us: None,
    });
    while let Some((index, (time_us, timed))) = (0..SEATS)
        .filter(|&i| moments[i].end_us.is_none())
        .map(|i| (i, moments[i].due(seats[i].game())))
        .min_by_key(|&(i, (time, _))| (time, i))
    {
        let seat = &mut seats[index];
        let moment = &mut moments[index];
        if timed {
            deliveries.before_tick(index, seat.game_mut(), time_us);
            let (_, ending) = seat.advance(time_us, watch, pieces_played);
            let rows = seat.game_mut().take_outgoing();
            let to = deliveries.receiver(index);
            deliveries.deliver(to, seats[to].game_mut(), rows, time_us);
            if let Some(ending) = ending {
                end_all(seats, &mut moments, index, ending, time_us);
            }
            continue;
        }
        let Some(Decided { event, pieces, .. }) = moment.next.take() else {
            let pieces = seat.game().stats().pieces;
            let (decided, elapsed_ns) = seat.next_actions(clock, watch);
            let think_us = elapsed_ns.div_ceil(1000);
            let (time_us, event) = match decided {
                Ok(actions) => {
                    let locks = seat.locks(actions);
                    let time = speed.tick_time(moment.now_us, think_us, locks, moment.last_lock_us);
                    (time, Ok(actions))
                }
                // It fails (or runs out of time) when its answer would have come.
                Err(ending) => (moment.now_us.saturating_add(think_us), Err(ending)),
            };
            moment.next = Some(Decided { time_us, event, pieces });
            continue;
        };
        let ending = match event {
            // The game's timing locked the piece the decision was for: asked again.
            Ok(_) if seat.game().stats().pieces != pieces => {
                moment.now_us = time_us;
                continue;
            }
            Ok(actions) => {
                // Every event of the game due by now was played before: this only moves
                // its time.
                let (locked, _) = seat.advance(time_us, watch, pieces_played);
                debug_assert!(!locked, "a lock due before the tick was played first");
                deliveries.before_tick(index, seat.game_mut(), time_us);
                let pieces = seat.game().stats().pieces;
                let ending = seat.play_tick(actions, watch, pieces_played);
                moment.now_us = time_us;
                if seat.game().stats().pieces != pieces {
                    moment.last_lock_us = Some(time_us);
                }
                if let Some(ticks) = &mut moment.ticks_us {
                    ticks.push(time_us);
                }
                let rows = seat.game_mut().take_outgoing();
                let to = deliveries.receiver(index);
                deliveries.deliver(to, seats[to].game_mut(), rows, time_us);
                ending
            }
            Err(ending) => Some(ending),
        };
        if let Some(ending) = ending {
            end_all(seats, &mut moments, index, ending, time_us);
        }
    }
    moments.map(|moment| {
        moment.ticks_us.map(|ticks_us| Timeline {
            ticks_us,
            end_us: moment.end_us.unwrap_or_default(),
        })
    })
}

/// Ends seat `index`'s game as `ending` at `time_us`, and every other game still playing
/// with it: as won when it was lost, as capped when it reached the cap.
fn end_all<const SEATS: usize>(
    seats: &mut [Seat<'_>; SEATS],
    moments: &mut [Moment; SEATS],
    index: usize,
    ending: Ending,
    time_us: u64,
) {
    let others = if ending.end.is_loss() { End::Won } else { End::Capped };
    for (other, moment) in moments.iter_mut().enumerate().filter(|(_, m)| m.end_us.is_none()) {
        moment.end_us = Some(time_us);
        seats[other].end(match other == index {
            true => ending.clone(),
            false => Ending {
                end: others,
                error: None,
            },
        });
    }
}

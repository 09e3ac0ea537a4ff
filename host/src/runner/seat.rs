//! One seat of a fixture: its game, its player, the pilot that turns decisions into
//! actions, and the referee; and what the seat records while it plays.

use super::GameResult;
use crate::engine::Game;
use crate::player::{Observation, Pilot, Player};
use crate::referee::{Ending, Referee};
use crate::setup::Setup;
use crate::watch::Watch;
use std::sync::atomic::{AtomicU64, Ordering};
use tetrad_plugin_api::Actions;

mod timed;
mod update_times;

use update_times::UpdateTimes;

/// A seat in play.
pub struct Seat<'r> {
    game: Game,
    player: Player,
    pilot: Pilot,
    referee: Referee,
    /// Every decision's duration, in nanoseconds.
    update_ns: UpdateTimes,
    total_ns: u128,
    /// Pieces already added to the run's count.
    pieces_counted: u64,
    /// The actions applied at each tick, if the seat is recorded.
    record: Option<&'r mut Vec<u32>>,
    ending: Option<Ending>,
}

/// Counts a decision that took `ns` nanoseconds in the seat's total and its update times.
#[inline(always)]
fn count(total_ns: &mut u128, update_ns: &mut UpdateTimes, ns: u64) {
    *total_ns += u128::from(ns);
    update_ns.record(ns);
}

/// Leaves out of `reply`'s time what this thread waited for a CPU since it had waited
/// `own_wait` (under a time control; `None` otherwise).
#[inline(always)]
fn uncharge_machine(reply: &mut crate::player::Reply, own_wait: Option<std::time::Duration>) {
    if let Some(before) = own_wait {
        let waited = crate::process::run_delay::this_thread().saturating_sub(before);
        reply.elapsed_ns = reply.elapsed_ns.saturating_sub(waited.as_nanos() as u64);
    }
}

impl<'r> Seat<'r> {
    /// `player` seated at `game` under `setup`'s cap and limits, its applied actions pushed
    /// onto `record` if given.
    pub fn new(game: Game, player: Player, setup: &Setup, record: Option<&'r mut Vec<u32>>) -> Seat<'r> {
        Seat {
            referee: Referee::new(game.rules(), setup.max_pieces, setup.limits),
            game,
            player,
            pilot: Pilot::default(),
            update_ns: UpdateTimes::default(),
            total_ns: 0,
            pieces_counted: 0,
            record,
            ending: None,
        }
    }

    /// Plays one tick: the referee's check, the player's decision (unless the pilot flies
    /// a path), the referee's judgement, the engine's tick. Returns how the game ended, if
    /// it did; the caller then [`ends`](Seat::end) the seat. Always inlined into the loop:
    /// the answer then stays in registers.
    #[inline(always)]
    pub fn tick(
        &mut self,
        clock: &quanta::Clock,
        watch: Option<&Watch>,
        pieces_played: Option<&AtomicU64>,
    ) -> Option<Ending> {
        match self.next_actions(clock, watch).0 {
            Ok(actions) => self.play(actions, watch, pieces_played),
            Err(ending) => Some(ending),
        }
    }

    /// The next tick's actions, from the path in flight or the player, judged by the
    /// referee (or how the game ends instead), and the nanoseconds spent deciding them.
    #[inline(always)]
    pub fn next_actions(&mut self, clock: &quanta::Clock, watch: Option<&Watch>) -> (Result<Actions, Ending>, u64) {
        if let Some(end) = self.referee.game_over(&self.game) {
            return (Err(Ending { end, error: None }), 0);
        }
        let answer = match self.pilot.next(&self.game) {
            Some(flown) => flown,
            None => {
                let timed = self.referee.clock().is_some();
                if let Some(clock) = self.referee.clock().filter(|_| self.player.takes_budget()) {
                    self.player.set_budget(clock.budget());
                }
                // Under a time control, the time this thread waited for a CPU while the
                // player decided is the machine's, not the player's (a library thinks on
                // this thread; a bot's answer is read on it).
                let own_wait = timed.then(crate::process::run_delay::this_thread);
                // A library's observation is built in its own arm: there the compiler keeps
                // it in registers, where the other players, which take it by reference out
                // of line, would have it laid out in memory at every tick. The arm also
                // reads the library's accepted bits without asking which player it is again.
                // The pilot steers in each arm too, so for a library, whose decision is
                // always actions, the match on the decision folds away.
                match &mut self.player {
                    Player::Library(library) => {
                        let accepted = library.accepted_actions();
                        let mut reply = library.decide(&Observation::of(&self.game, false), clock, watch);
                        uncharge_machine(&mut reply, own_wait);
                        count(&mut self.total_ns, &mut self.update_ns, reply.elapsed_ns);
                        self.pilot.steer(reply, &self.game, accepted)
                    }
                    player => {
                        let mut reply = player.decide(&Observation::of(&self.game, false), clock, watch);
                        uncharge_machine(&mut reply, own_wait);
                        count(&mut self.total_ns, &mut self.update_ns, reply.elapsed_ns);
                        self.pilot.steer(reply, &self.game, player.accepted_actions())
                    }
                }
            }
        };
        let elapsed_ns = answer.elapsed_ns;
        (self.referee.judge(answer), elapsed_ns)
    }

    /// Plays `actions`, already judged, on the seat's game: recorded, ticked, counted and
    /// shown; returns how the game ended with the tick under the referee's limits.
    #[inline(always)]
    fn play(&mut self, actions: Actions, watch: Option<&Watch>, pieces_played: Option<&AtomicU64>) -> Option<Ending> {
        if let Some(record) = self.record.as_deref_mut() {
            record.push(actions.0);
        }
        self.game.tick(actions);
        let stats = self.game.stats();
        if let Some(watch) = watch {
            watch.set_stats(stats.lines, stats.pieces, stats.score, stats.ticks);
        }
        if let Some(played) = pieces_played {
            if stats.pieces != self.pieces_counted {
                played.fetch_add(stats.pieces - self.pieces_counted, Ordering::Relaxed);
                self.pieces_counted = stats.pieces;
            }
        }
        self.referee.after_tick(&self.game)
    }

    /// Ends the seat's game as `ending`.
    pub fn end(&mut self, ending: Ending) {
        self.ending = Some(ending);
    }

    /// How the seat's game ended, once it has.
    pub fn ending(&self) -> Option<&Ending> {
        self.ending.as_ref()
    }

    /// The game.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The game, for the exchange of garbage between seats.
    pub fn game_mut(&mut self) -> &mut Game {
        &mut self.game
    }

    /// The result of the seat's game, index `index` with seed `seed`, once it has ended.
    pub fn result(mut self, index: u64, seed: u64) -> GameResult {
        self.take_result(index, seed)
    }

    /// As [`Seat::result`], for a seat that stays in place (a live game still shown):
    /// its update times are taken, so it is called once.
    pub fn take_result(&mut self, index: u64, seed: u64) -> GameResult {
        let Ending { end, error } = self.ending.take().expect("the seat's game has ended");
        let stats = self.game.stats();
        let update_ns = std::mem::take(&mut self.update_ns).into_histogram();
        let updates = update_ns.len();
        let (sent, received) = self.game.garbage().map_or((0, 0), |g| (g.sent, g.received));
        GameResult {
            index,
            seed,
            lines: stats.lines,
            pieces: stats.pieces,
            score: stats.score,
            ticks: stats.ticks,
            end,
            error,
            violations: self.referee.violations(),
            sent,
            received,
            t_spins: stats.t_spins,
            updates,
            update_us_mean: self.total_ns as f64 / updates.max(1) as f64 / 1000.0,
            update_us_p99: update_ns.value_at_quantile(0.99) as f64 / 1000.0,
            update_us_max: update_ns.max() as f64 / 1000.0,
            move_info: self.player.move_info(),
            time_used_ms: self.referee.clock().map(|clock| clock.used_ns() as f64 / 1e6),
            update_ns,
            timeline: None,
        }
    }
}

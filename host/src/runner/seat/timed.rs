//! A seat's tick in two halves, for the realtime pace: the decision, whose thinking says
//! when the tick happens, and later, once every earlier event of the game has been
//! played, the tick itself.

use super::Seat;
use crate::referee::Ending;
use crate::watch::Watch;
use std::sync::atomic::{AtomicU64, Ordering};
use tetrad_plugin_api::{step, Actions};

impl Seat<'_> {
    /// Whether the seat's actions are recorded (its replay then needs their times too).
    pub fn is_recorded(&self) -> bool {
        self.record.is_some()
    }

    /// The next tick's actions, from the path in flight or the player, judged by the
    /// referee (or how the game ends instead), and the nanoseconds spent deciding them.
    pub fn next_actions(&mut self, clock: &quanta::Clock, watch: Option<&Watch>) -> (Result<Actions, Ending>, u64) {
        if let Some(end) = self.referee.game_over(&self.game) {
            return (Err(Ending { end, error: None }), 0);
        }
        let answer = match self.pilot.next(&self.game) {
            Some(flown) => flown,
            None => {
                if let Some(budget) = self.referee.clock().filter(|_| self.player.takes_budget()) {
                    self.player.set_budget(budget.budget());
                }
                let reply = self
                    .player
                    .decide(&crate::player::Observation::of(&self.game, false), clock, watch);
                self.total_ns += u128::from(reply.elapsed_ns);
                // The histogram grows to fit any value.
                let _ = self.update_ns.record(reply.elapsed_ns);
                self.pilot.steer(reply, &self.game, self.player.accepted_actions())
            }
        };
        let elapsed_ns = answer.elapsed_ns;
        (self.referee.judge(answer), elapsed_ns)
    }

    /// Whether `actions` lock the falling piece. Only the seat's own board decides it:
    /// garbage that arrives before the tick is played waits in the queue until a lock.
    pub fn locks(&self, actions: Actions) -> bool {
        let game = &self.game;
        let Some(falling) = game.current().filter(|_| !game.is_over()) else {
            return false;
        };
        if actions.contains(Actions::HOLD) && game.rules().has_hold() {
            return false;
        }
        let mut pos = falling.pos;
        step(
            game.rules(),
            game.board(),
            game.pieces().kind(falling.piece),
            &mut pos,
            actions,
        )
        .locked
    }

    /// Plays `actions` as the seat's next tick; returns how the game ended with it, if it
    /// did (a stall, a top-out, the cap).
    pub fn play_tick(
        &mut self,
        actions: Actions,
        watch: Option<&Watch>,
        pieces_played: Option<&AtomicU64>,
    ) -> Option<Ending> {
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
        self.referee.after_tick(&self.game).or_else(|| {
            self.referee
                .game_over(&self.game)
                .map(|end| Ending { end, error: None })
        })
    }
}

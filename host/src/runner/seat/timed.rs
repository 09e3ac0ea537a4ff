//! A seat's tick in two halves, for the realtime pace: the decision, whose thinking says
//! when the tick happens, and later, once every earlier event of the game has been
//! played, the tick itself; and under timing rules, the events of the seat's own game
//! (a row that falls, a lock when the delay runs out) at their times.

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

    /// The next tick's actions when the player need not be asked for them: the game is
    /// over, or a path is in flight (see [`Seat::next_actions`], which asks the player
    /// otherwise). A live game asks its bot on another thread, and not for these.
    pub fn next_without_asking(&mut self) -> Option<Result<Actions, Ending>> {
        if let Some(end) = self.referee.game_over(&self.game) {
            return Some(Err(Ending { end, error: None }));
        }
        let flown = self.pilot.next(&self.game)?;
        Some(self.referee.judge(flown))
    }

    /// Under timing rules, plays what falls due on the seat's game by `time_us`, up to the
    /// first lock; returns whether a piece locked, and how the game ended with it, if it
    /// did (a top-out, the cap).
    pub fn advance(
        &mut self,
        time_us: u64,
        watch: Option<&Watch>,
        pieces_played: Option<&AtomicU64>,
    ) -> (bool, Option<Ending>) {
        if self.game.advance(time_us).is_none() {
            return (false, None);
        }
        let stats = self.game.stats();
        if let Some(watch) = watch {
            watch.set_stats(stats.lines, stats.pieces, stats.score, stats.ticks);
        }
        if let Some(played) = pieces_played {
            played.fetch_add(stats.pieces.saturating_sub(self.pieces_counted), Ordering::Relaxed);
            self.pieces_counted = stats.pieces;
        }
        let ending = self.referee.after_tick(&self.game).or_else(|| {
            self.referee
                .game_over(&self.game)
                .map(|end| Ending { end, error: None })
        });
        (true, ending)
    }

    /// Plays `actions` as the seat's next tick; returns how the game ended with it, if it
    /// did (a stall, a top-out, the cap).
    pub fn play_tick(
        &mut self,
        actions: Actions,
        watch: Option<&Watch>,
        pieces_played: Option<&AtomicU64>,
    ) -> Option<Ending> {
        self.play(actions, watch, pieces_played).or_else(|| {
            self.referee
                .game_over(&self.game)
                .map(|end| Ending { end, error: None })
        })
    }
}

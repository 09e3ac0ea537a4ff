//! The boards played one tick at a time, in lockstep: every game that goes on takes its
//! tick, then in versus the garbage passes and a game that ended ends the others.

use super::{App, Driver};
use crate::engine::pass_garbage;
use crate::replay::RecordedEnd;
use tetrad_plugin_api::Actions;

impl App {
    /// Plays one tick on every board whose game goes on, in lockstep; `human` is the
    /// person's action in play mode. In versus, garbage then passes between the boards,
    /// and a game that ended ends the other, as the headless game loop does.
    pub(super) fn advance(&mut self, human: Actions) {
        if self.is_over() {
            return;
        }
        let tick = self.ticks;
        if let Some(playback) = &self.playback {
            if tick >= playback.len() {
                return self.check_replay_end();
            }
        }
        for (index, side) in self.sides.iter_mut().enumerate() {
            if side.end.is_some() {
                continue;
            }
            let actions = match &mut side.driver {
                Driver::Person => human,
                Driver::Plugin(seat) => match side.referee.judge(seat.ask(side.tracked.game())) {
                    Ok(actions) => actions,
                    Err(ending) => {
                        side.finish(ending.end.into(), ending.error);
                        continue;
                    }
                },
                Driver::Replay(seat) => match self.playback.as_ref().and_then(|p| p.action(*seat, tick)) {
                    Some(actions) => actions,
                    None => continue,
                },
                // A live game's bot plays in the live game, not in ticks.
                Driver::Bot => continue,
            };
            side.tracked.tick(actions);
            if let Some(recorder) = &mut self.recorder {
                recorder.tick(index, actions);
            }
            let game = side.tracked.game();
            if let Some(end) = side.referee.game_over(game) {
                side.finish(end.into(), None);
            } else if let Some(ending) = side.referee.after_tick(game) {
                side.finish(ending.end.into(), ending.error);
            }
        }
        self.ticks += 1;
        if self.sides.len() > 1 {
            self.exchange();
        }
        if self.playback.is_some() {
            self.check_replay_end();
        }
        if self.is_over() {
            self.save_if_unsaved();
        }
    }

    /// The end of a versus tick: garbage passes, and once a game has ended the others end
    /// with it: won when it lost, capped when it reached the cap. Games that end in the
    /// same tick keep their own ends: a draw.
    fn exchange(&mut self) {
        pass_garbage(self.sides.iter_mut().map(|side| side.tracked.game_mut()));
        let ended: Vec<RecordedEnd> = self.sides.iter().filter_map(|side| side.end).collect();
        if ended.is_empty() || self.playback.is_some() {
            // A replay's ends come from its own ticks and its file.
            return;
        }
        let end = if ended.iter().any(|end| end.is_loss()) {
            RecordedEnd::Won
        } else {
            RecordedEnd::Capped
        };
        for side in self.sides.iter_mut().filter(|side| side.end.is_none()) {
            side.finish(end, None);
        }
    }
}

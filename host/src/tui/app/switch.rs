//! The demo's live switch between plugins: the next one loaded, one opened by path, and
//! the hand-over of the game in progress.

use super::{App, Driver};
use crate::plugin::{resolve, Plugin};
use crate::referee::ended;
use crate::replay::PlayerRecord;

impl App {
    pub(super) fn next_plugin(&mut self) {
        if let Driver::Demo(pilots) = &self.driver {
            if pilots.count() < 2 {
                self.status = Some("only one plugin is loaded; press o to open another".to_string());
                return;
            }
            let next = (pilots.index() + 1) % pilots.count();
            self.switch_to(next);
        }
    }

    pub(super) fn open_plugin(&mut self, spec: &str) {
        if spec.is_empty() || !matches!(self.driver, Driver::Demo(_)) {
            return;
        }
        let loaded = resolve(spec).and_then(|path| Plugin::load(&path));
        match (loaded, &mut self.driver) {
            (Ok(plugin), Driver::Demo(pilots)) => {
                let index = pilots.add(plugin, String::new());
                self.switch_to(index);
            }
            (Err(err), _) => self.status = Some(format!("cannot open: {err}")),
            _ => {}
        }
    }

    /// Hands the game in progress to plugin `index`; a game its predecessor could not go on
    /// with (an error or a stall) goes on too.
    fn switch_to(&mut self, index: usize) {
        let Driver::Demo(pilots) = &mut self.driver else {
            return;
        };
        match pilots.take_over(index, self.tracked.game(), self.game_seed) {
            Ok(()) => {
                let plugin = pilots.current();
                let label = format!("{} {}", plugin.info().name, plugin.info().version);
                // A game over by the rules stays over; one the last plugin failed goes on.
                let over = ended(self.tracked.game(), self.session.setup.max_pieces).is_some();
                self.status = Some(if over {
                    format!("{label} plays the next game")
                } else {
                    format!("{label} plays on")
                });
                if !over {
                    let player = PlayerRecord::plugin(plugin, pilots.options(), self.tracked.game().stats().ticks);
                    if let Some(recorder) = &mut self.recorder {
                        recorder.take_over(player);
                    }
                    self.end = None;
                    self.error = None;
                }
            }
            Err(err) => self.status = Some(err.to_string()),
        }
    }
}

//! The live switch between plugins: the next one loaded, one opened by path, and the
//! hand-over of the selected board's game in progress.

use super::{App, Driver};
use crate::plugin::{resolve, Plugin};
use crate::referee::ended;
use crate::replay::PlayerRecord;

impl App {
    pub(super) fn next_plugin(&mut self) {
        let Driver::Plugin(seat) = &self.sides[self.selected].driver else {
            return;
        };
        if self.roster.len() < 2 {
            self.status = Some("only one plugin is loaded; press o to open another".to_string());
            return;
        }
        let next = (seat.index() + 1) % self.roster.len();
        self.switch_to(next);
    }

    pub(super) fn open_plugin(&mut self, spec: &str) {
        if spec.is_empty() || !matches!(self.sides[self.selected].driver, Driver::Plugin(_)) {
            return;
        }
        match resolve(spec).and_then(|path| Plugin::load(&path)) {
            Ok(plugin) => {
                let index = self.roster.add(plugin, String::new());
                self.switch_to(index);
            }
            Err(err) => self.status = Some(format!("cannot open: {err}")),
        }
    }

    /// Hands the selected board's game in progress to plugin `index` of the roster; a
    /// game its predecessor could not go on with (an error or a stall) goes on too.
    fn switch_to(&mut self, index: usize) {
        let board = self.selected;
        let side = &mut self.sides[board];
        let Driver::Plugin(seat) = &mut side.driver else {
            return;
        };
        if let Err(err) = seat.take_over(&self.roster, index, side.tracked.game(), self.game_seed) {
            self.status = Some(err.to_string());
            return;
        }
        let plugin = self.roster.plugin(index);
        let label = format!("{} {}", plugin.info().name, plugin.info().version);
        // A game over by the rules (or, in versus, by the other board) stays over; one
        // the last plugin failed goes on.
        let over = ended(side.tracked.game(), self.session.setup.max_pieces).is_some()
            || self
                .sides
                .iter()
                .enumerate()
                .any(|(other, s)| other != board && s.end.is_some());
        let side = &mut self.sides[board];
        self.status = Some(if over {
            format!("{label} plays the next game")
        } else {
            format!("{label} plays on")
        });
        if !over {
            let ticks = side.stats().ticks;
            let player = PlayerRecord::plugin(plugin, self.roster.options(index), ticks);
            if let Some(recorder) = &mut self.recorder {
                recorder.take_over(board, player);
            }
            side.end = None;
            side.error = None;
        }
    }
}

//! What one lock earns in the search: the reward of its clear, and the T pieces still to
//! come that the evaluation's T-spin slots count on.

use super::{Move, Searcher};
use crate::attack::{Clear, Streak};
use tetrad_plugin_api::{PieceId, Spin};

impl Searcher<'_> {
    /// What one lock earns: its clear's own term (a perfect clear's in place of the
    /// others), back-to-back's and the combo's extra rows, the rows it sends, and the cost
    /// of a T spent other than on a T-spin double or triple.
    pub(super) fn reward(&self, streak: Streak, clear: Clear, sent: u32, is_t: bool) -> f64 {
        let w = self.weights;
        let f = f64::from;
        let mut reward = w.attack * f(sent);
        if is_t && !(clear.spin == Spin::Full && clear.lines >= 2) {
            reward += w.wasted_t;
        }
        if clear.lines == 0 {
            return reward;
        }
        if clear.perfect {
            return reward + w.perfect_clear;
        }
        let lines = clear.lines as usize;
        reward += match clear.spin {
            Spin::None => [0.0, w.single, w.double, w.triple, w.tetris][lines.min(4)],
            Spin::Mini => [0.0, w.mini_single, w.mini_double][lines.min(2)],
            Spin::Full => [0.0, w.tspin_single, w.tspin_double, w.tspin_triple][lines.min(3)],
        };
        // The streak's share of the rows sent, read off the table with and without it.
        let plain = Streak::default().attack(clear);
        let b2b = Streak { combo: 0, ..streak }.attack(clear) - plain;
        let combo = Streak {
            back_to_back: false,
            ..streak
        }
        .attack(clear)
            - plain;
        reward + w.b2b_clear * f(b2b.min(1)) + w.combo * f(combo)
    }

    /// How many T pieces may come to fill a T-spin slot after `m`: one if the hold keeps
    /// a T, one if a T is among the previewed pieces still to place.
    pub(super) fn ts_to_come(&self, m: &Move, queue: &[PieceId]) -> u32 {
        let Some(t) = self.t else {
            return 0;
        };
        let rest = queue.get(m.next..).unwrap_or(&[]);
        u32::from(m.held == Some(t)) + u32::from(rest.contains(&t))
    }
}

//! The placement environment's hot path: a reset and a step each one call that returns
//! what Gymnasium's `reset` and `step` return, built in Rust, so that an environment step
//! costs the interpreter one frame.

use crate::game::{board_pyarray, PyGame};
use crate::play::Play;
use crate::setup::refused;
use numpy::PyArray1;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// `(observation, info)`.
pub type Reset<'py> = (Bound<'py, PyDict>, Bound<'py, PyDict>);

/// `(observation, reward, terminated, truncated, info)`.
pub type Step<'py> = (Bound<'py, PyDict>, f64, bool, bool, Bound<'py, PyDict>);

impl PyGame {
    /// Starts game `seed` of the same setup and deal, the piece cap kept.
    pub(crate) fn restart(&mut self, seed: u64) -> PyResult<()> {
        let game = self.deal.game(&self.setup, seed, None).map_err(refused)?;
        self.play = Play::new(game, self.play.max_pieces);
        self.seed = seed;
        self.carried = [0; 3];
        self.moved();
        Ok(())
    }

    /// Plays the placement in action slot `slot`, if one is (an empty slot ends the
    /// episode as a refused placement ends a game: `info["end"]` is `"violation"`).
    pub(crate) fn gym_step<'py>(&mut self, py: Python<'py>, slot: i64) -> PyResult<Step<'py>> {
        let index = usize::try_from(slot).ok().and_then(|slot| self.slot_index(slot));
        let lines = match index {
            Some(index) => Some(self.place_index(index as i64)?),
            None => None,
        };
        let (observation, info) = self.gym_observe(py)?;
        let Some(lines) = lines else {
            info.set_item(intern!(py, "end"), "violation")?;
            return Ok((observation, 0.0, true, false, info));
        };
        let end = self.play.end().map(|end| end.name());
        let capped = end == Some("capped");
        Ok((observation, f64::from(lines), end.is_some() && !capped, capped, info))
    }

    /// The observation (`board`, `pieces`, `action_mask`) and the info (`lines`,
    /// `score`, `pieces`, `end`, and the same `action_mask`).
    pub(crate) fn gym_observe<'py>(&mut self, py: Python<'py>) -> PyResult<Reset<'py>> {
        // Copied into arrays numpy owns: cheaper than handing numpy a Rust buffer to keep.
        let mask = PyArray1::from_slice(py, self.choices().mask());
        let observation = PyDict::new(py);
        observation.set_item(intern!(py, "board"), board_pyarray(py, self.play.game.board()))?;
        observation.set_item(intern!(py, "pieces"), PyArray1::from_slice(py, &self.piece_vec()))?;
        observation.set_item(intern!(py, "action_mask"), &mask)?;
        let info = PyDict::new(py);
        let stats = self.play.game.stats();
        info.set_item(intern!(py, "lines"), self.carried[0] + stats.lines)?;
        info.set_item(intern!(py, "score"), self.carried[1] + stats.score)?;
        info.set_item(intern!(py, "pieces"), self.carried[2] + stats.pieces)?;
        info.set_item(intern!(py, "end"), self.play.end().map(|end| end.name()))?;
        info.set_item(intern!(py, "action_mask"), mask)?;
        Ok((observation, info))
    }
}

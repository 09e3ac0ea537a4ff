//! The placement environment's hot path: a reset and a step each one call that returns
//! what Gymnasium's `reset` and `step` return, built in Rust, so that an environment step
//! costs the interpreter one frame.

use crate::game::{board_pyarray, PyGame};
use crate::play::Play;
use crate::setup::refused;
use numpy::PyArray1;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyInt, PyString};

/// `(observation, info)`.
pub type Reset<'py> = (Bound<'py, PyDict>, Bound<'py, PyDict>);

/// `(observation, reward, terminated, truncated, info)`.
pub type Step<'py> = (Bound<'py, PyDict>, f64, bool, bool, Bound<'py, PyDict>);

/// The placement environment's episode: what the environment's `step` checks before
/// it plays, kept in the game so that the step is one call from Python.
#[derive(Clone, Debug, Default)]
pub struct Episode {
    /// The environment's id, as its errors name it.
    pub id: String,
    /// Why a step is refused (`"no reset yet"`, or how the game ended), `None` while
    /// the episode runs.
    pub over: Option<String>,
}

impl Episode {
    /// The package's `EpisodeOver` for a step asked while the episode is over, worded by
    /// the package (`tetrad.envs._episode_over`), which raises it for its other steps too.
    fn refuse(&self, py: Python<'_>, over: &str) -> PyErr {
        static EPISODE_OVER: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
        match EPISODE_OVER
            .import(py, "tetrad.envs", "_episode_over")
            .and_then(|episode_over| episode_over.call1((self.id.as_str(), over)))
        {
            Ok(error) => PyErr::from_value(error),
            Err(err) => err,
        }
    }
}

impl PyGame {
    /// The environment's step: refused after the episode's end; `action` a plain int in
    /// the action space's range, or checked (and its error worded) by the package's
    /// `check_action`.
    pub(crate) fn gym_play<'py>(&mut self, py: Python<'py>, action: &Bound<'py, PyAny>) -> PyResult<Step<'py>> {
        if let Some(over) = &self.episode.over {
            return Err(self.episode.refuse(py, over));
        }
        let count = self.slots.count() as i64;
        let plain = action
            .cast_exact::<PyInt>()
            .ok()
            .and_then(|int| int.extract::<i64>().ok());
        let slot = match plain {
            Some(slot) if (0..count).contains(&slot) => slot,
            _ => {
                static CHECK_ACTION: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
                CHECK_ACTION
                    .import(py, "tetrad._options", "check_action")?
                    .call1((self.episode.id.as_str(), action, count))?
                    .extract()?
            }
        };
        self.gym_step(py, slot)
    }

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
            self.episode.over = Some("violation".to_string());
            return Ok((observation, 0.0, true, false, info));
        };
        let end = self.play.end().map(|end| end.name());
        self.episode.over = end.map(str::to_string);
        let capped = end == Some("capped");
        Ok((observation, f64::from(lines), end.is_some() && !capped, capped, info))
    }

    /// The observation (`board`, `pieces`, `action_mask`) and the info (`lines`,
    /// `score`, `pieces`, `end`, and the same `action_mask`).
    pub(crate) fn gym_observe<'py>(&mut self, py: Python<'py>) -> PyResult<Reset<'py>> {
        // Copied into arrays numpy owns: cheaper than handing numpy a Rust buffer to keep.
        let mask = PyArray1::from_slice(py, self.choices().mask());
        // The dicts are copies of templates that hold every key: a copy takes the keys at
        // once, where inserting them one by one grows a new table.
        static OBSERVATION: PyOnceLock<Py<PyDict>> = PyOnceLock::new();
        static INFO: PyOnceLock<Py<PyDict>> = PyOnceLock::new();
        let observation = template(py, &OBSERVATION, &["board", "pieces", "action_mask"])?.copy()?;
        observation.set_item(intern!(py, "board"), board_pyarray(py, self.play.game.board()))?;
        observation.set_item(intern!(py, "pieces"), PyArray1::from_slice(py, &self.piece_vec()))?;
        observation.set_item(intern!(py, "action_mask"), &mask)?;
        let info = template(py, &INFO, &["lines", "score", "pieces", "end", "action_mask"])?.copy()?;
        let stats = self.play.game.stats();
        info.set_item(intern!(py, "lines"), self.carried[0] + stats.lines)?;
        info.set_item(intern!(py, "score"), self.carried[1] + stats.score)?;
        info.set_item(intern!(py, "pieces"), self.carried[2] + stats.pieces)?;
        if let Some(end) = self.play.end() {
            info.set_item(intern!(py, "end"), end.name())?;
        }
        info.set_item(intern!(py, "action_mask"), mask)?;
        Ok((observation, info))
    }
}

/// A dict with `keys` (interned), each `None`, in that order: made once.
fn template<'py, 'a>(
    py: Python<'py>,
    cell: &'a PyOnceLock<Py<PyDict>>,
    keys: &[&str],
) -> PyResult<&'a Bound<'py, PyDict>> {
    cell.get_or_try_init(py, || {
        let dict = PyDict::new(py);
        for key in keys {
            dict.set_item(PyString::intern(py, key), py.None())?;
        }
        Ok::<_, PyErr>(dict.unbind())
    })
    .map(|dict| dict.bind(py))
}

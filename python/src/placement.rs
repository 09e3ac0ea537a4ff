//! `Placement`: one placement of the falling piece, as `Game.placements()` lists it.

use crate::game::board_array;
use numpy::{IntoPyArray, PyArray2};
use pyo3::prelude::*;
use tetrad_plugin_api::Board;

/// One placement: where the piece locks, how, and the board it leaves.
#[pyclass(module = "tetrad._tetrad", name = "Placement", frozen)]
pub struct PyPlacement {
    /// Its index in `Game.placements()`, for `Game.place`.
    #[pyo3(get)]
    pub(crate) index: usize,
    /// The piece that locks (another than the falling one after a hold).
    #[pyo3(get)]
    pub(crate) piece: String,
    /// The orientation it locks in.
    #[pyo3(get)]
    pub(crate) orientation: u8,
    /// Its rotation box's column.
    #[pyo3(get)]
    pub(crate) x: i8,
    /// Its rotation box's row (row 0 at the top).
    #[pyo3(get)]
    pub(crate) y: i8,
    /// The one-column slide after the drop (`classic`).
    #[pyo3(get)]
    pub(crate) slide: i8,
    /// Reached through a hold.
    #[pyo3(get)]
    pub(crate) hold: bool,
    /// The last move into rest was a turn (a spin candidate under `guideline`).
    #[pyo3(get)]
    pub(crate) spin: bool,
    /// That turn's kick (its index in the SRS list; 4 is the fifth kick), if it was one.
    #[pyo3(get)]
    pub(crate) kick: Option<u8>,
    /// Rows it clears.
    #[pyo3(get)]
    pub(crate) lines: u32,
    /// The rows it fills, numbered before they are cleared.
    #[pyo3(get)]
    pub(crate) cleared_rows: Vec<usize>,
    /// The piece's cells (column, row) on the board, before the clear.
    #[pyo3(get)]
    pub(crate) cells: Vec<(i32, i32)>,
    /// The lock ends the game.
    #[pyo3(get)]
    pub(crate) ends_game: bool,
    /// Its action slot in the placement environment.
    #[pyo3(get)]
    pub(crate) slot: usize,
    /// The action bits, tick by tick, that lock it.
    #[pyo3(get)]
    pub(crate) actions: Vec<u32>,
    pub(crate) after: Board,
}

#[pymethods]
impl PyPlacement {
    /// The board after the lock and its clears (height x width, row 0 at the top).
    #[getter]
    fn board<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<u8>> {
        board_array(&self.after).into_pyarray(py)
    }

    fn __repr__(&self) -> String {
        format!(
            "Placement(index={}, piece={:?}, orientation={}, x={}, y={}, slide={}, hold={}, spin={}, lines={})",
            self.index,
            self.piece,
            self.orientation,
            self.x,
            self.y,
            self.slide,
            if self.hold { "True" } else { "False" },
            if self.spin { "True" } else { "False" },
            self.lines
        )
    }
}

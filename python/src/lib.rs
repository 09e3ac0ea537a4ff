//! `tetrad._tetrad`: the host's engine, presets and piece streams for Python. The package
//! `tetrad` (in `python/tetrad/`) builds its API on these classes: `Game`, one game with
//! its placements, and `BatchGames`, many games stepped at once with the interpreter's
//! lock released.

mod batch;
mod choices;
mod drops;
mod env;
mod game;
mod placement;
mod play;
mod seats;
mod setup;

use pyo3::prelude::*;

pyo3::create_exception!(
    _tetrad,
    TetradError,
    pyo3::exceptions::PyValueError,
    "A game or setup the host refuses: the message is the host's own, on one line."
);
pyo3::create_exception!(_tetrad, GameOver, TetradError, "A move asked of a game that has ended.");

/// The extension module.
#[pymodule]
fn _tetrad(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("TetradError", m.py().get_type::<TetradError>())?;
    m.add("GameOver", m.py().get_type::<GameOver>())?;
    m.add_class::<game::PyGame>()?;
    m.add_class::<placement::PyPlacement>()?;
    m.add_class::<batch::PyBatch>()?;
    m.add("ACTION_BITS", tetrad_plugin_api::abi::ACTION_MASK_V2)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}

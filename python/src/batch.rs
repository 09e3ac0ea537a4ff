//! `BatchGames`: many games stepped by placement in one call, in Rust, with the
//! interpreter's lock released, their observations returned as numpy arrays.

use crate::choices::NO_PLACEMENT;
use crate::drops::Drops;
use crate::game::PyGame;
use crate::play::{slots_of, Play};
use crate::setup::{self, refused, Deal};
use numpy::ndarray::{Array1, Array2, Array3};
use numpy::{IntoPyArray, PyArray1, PyArray2, PyArray3, PyReadonlyArray1};
use pyo3::exceptions::{PyIndexError, PyMemoryError, PyValueError};
use pyo3::prelude::*;
use std::path::PathBuf;
use std::sync::Arc;

mod games;
use games::{Batch, Finals, MIN_PART};

/// `per_game` copies of `value` for each of `n` games, or a `MemoryError` where they do
/// not fit: the size is the caller's, and an allocation that failed would abort the
/// interpreter (and one whose size overflows would panic).
fn filled<T: Clone>(n: usize, per_game: usize, value: T) -> PyResult<Vec<T>> {
    let too_many = || PyMemoryError::new_err(format!("a batch of {n} games does not fit in memory"));
    let len = n.checked_mul(per_game).ok_or_else(too_many)?;
    let mut out = Vec::new();
    out.try_reserve_exact(len).map_err(|_| too_many())?;
    out.resize(len, value);
    Ok(out)
}

/// Many games stepped by placement at once: one call plays a placement in every game,
/// with the interpreter's lock released, and returns numpy arrays. A game that ends is
/// replaced at once by the run's next game (its final lines and pieces are returned).
#[pyclass(module = "tetrad._tetrad", name = "BatchGames")]
pub struct PyBatch {
    batch: Batch,
}

type Observation<'py> = (
    Bound<'py, PyArray3<u8>>,
    Bound<'py, PyArray2<i64>>,
    Bound<'py, PyArray2<bool>>,
);

type StepResult<'py> = (
    Bound<'py, PyArray3<u8>>,
    Bound<'py, PyArray2<i64>>,
    Bound<'py, PyArray2<bool>>,
    Bound<'py, PyArray1<f32>>,
    Bound<'py, PyArray1<bool>>,
    Bound<'py, PyArray1<bool>>,
    Bound<'py, PyArray1<i64>>,
    Bound<'py, PyArray1<i64>>,
);

/// `(games, boards, pieces, masks, ends)` of the games that ended in a step.
type FinalObservations<'py> = (
    Bound<'py, PyArray1<i64>>,
    Bound<'py, PyArray3<u8>>,
    Bound<'py, PyArray2<i64>>,
    Bound<'py, PyArray2<bool>>,
    Vec<&'static str>,
);

impl PyBatch {
    fn observation<'py>(&self, py: Python<'py>) -> PyResult<Observation<'py>> {
        let b = &self.batch;
        let n = b.plays.len();
        let rules = &b.setup.rules;
        let boards = Array3::from_shape_vec((n, rules.height, rules.width), b.boards.clone())
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        let pieces = Array2::from_shape_vec((n, b.piece_columns()), b.pieces.clone())
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        let masks = Array2::from_shape_vec((n, b.slots.count()), b.masks.clone())
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        Ok((boards.into_pyarray(py), pieces.into_pyarray(py), masks.into_pyarray(py)))
    }
}

#[pymethods]
impl PyBatch {
    /// `n` games of one setup (the arguments of `Game`); they are games `seed`,
    /// `seed + 1`, ... of `tetrad run --seed run_seed`, and each game that ends is
    /// followed by the next number. A step plays the games on `threads` threads (by
    /// default one a core, and one per 32 games at most); the games and their order are
    /// the same on any number.
    #[new]
    #[pyo3(signature = (n, preset="classic", width=None, height=None, seed=0, preview=None, pieces=None, sequence=None, *, run_seed=1, randomizer=None, max_pieces=None, threads=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        n: usize,
        preset: &str,
        width: Option<usize>,
        height: Option<usize>,
        seed: u64,
        preview: Option<usize>,
        pieces: Option<PathBuf>,
        sequence: Option<&Bound<'_, PyAny>>,
        run_seed: u64,
        randomizer: Option<&str>,
        max_pieces: Option<u64>,
        threads: Option<usize>,
    ) -> PyResult<PyBatch> {
        if n == 0 {
            return Err(refused("a batch needs at least one game"));
        }
        let rules = setup::rules(preset, width, height, preview, randomizer)?;
        let setup = Arc::new(setup::setup(rules, pieces.as_deref())?);
        let deal = Deal::from_arg(sequence, run_seed, &setup.pieces)?;
        let slots = slots_of(&setup);
        let first = deal.game(&setup, seed, None).map_err(refused)?;
        let (h, w) = (rules.height, rules.width);
        let mut batch = Batch {
            deal,
            max_pieces,
            slots,
            plays: filled(n, 1, Play::new(first, max_pieces))?,
            index: filled(n, 1, 0)?,
            next_index: seed,
            drops: Drops::new(&setup, &slots),
            tables: filled(n, 1, None)?,
            cands: filled(n, 1, Vec::new())?,
            plans: filled(n, 1, Vec::new())?,
            rows_seen: filled(n, h, 0)?,
            slot_cand: filled(n, slots.count(), NO_PLACEMENT)?,
            threads: threads
                .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
                .clamp(1, n.div_ceil(MIN_PART)),
            boards: filled(n, h * w, 0)?,
            pieces: filled(n, 2 + rules.preview, 0)?,
            masks: filled(n, slots.count(), false)?,
            rewards: filled(n, 1, 0.0)?,
            terminated: filled(n, 1, false)?,
            truncated: filled(n, 1, false)?,
            final_lines: filled(n, 1, -1)?,
            final_pieces: filled(n, 1, -1)?,
            finals: Finals::default(),
            setup,
        };
        batch.reset(seed).map_err(refused)?;
        Ok(PyBatch { batch })
    }

    /// Threads a step plays its games on.
    #[getter]
    fn threads(&self) -> usize {
        self.batch.threads
    }

    /// Games in the batch.
    #[getter]
    fn num_games(&self) -> usize {
        self.batch.plays.len()
    }

    /// Action slots per game (as `Game.action_count`).
    #[getter]
    fn action_count(&self) -> usize {
        self.batch.slots.count()
    }

    /// Columns of the pieces array: current, hold, then the preview.
    #[getter]
    fn piece_columns(&self) -> usize {
        self.batch.piece_columns()
    }

    /// Piece kinds (the pieces array's value for none).
    #[getter]
    fn piece_kinds(&self) -> usize {
        self.batch.setup.pieces.len()
    }

    /// Board rows.
    #[getter]
    fn height(&self) -> usize {
        self.batch.setup.rules.height
    }

    /// Board columns.
    #[getter]
    fn width(&self) -> usize {
        self.batch.setup.rules.width
    }

    /// Each game's index in the run.
    #[getter]
    fn indices(&self) -> Vec<u64> {
        self.batch.index.clone()
    }

    /// Starts games `seed`, `seed + 1`, ... (the first seed given, if none); returns
    /// `(boards, pieces, masks)`.
    #[pyo3(signature = (seed=None))]
    fn reset<'py>(&mut self, py: Python<'py>, seed: Option<u64>) -> PyResult<Observation<'py>> {
        let first = seed.unwrap_or(self.batch.index[0]);
        let batch = &mut self.batch;
        py.detach(|| batch.reset(first)).map_err(refused)?;
        self.observation(py)
    }

    /// Plays in every game the placement in its action slot; returns `(boards, pieces,
    /// masks, rewards, terminated, truncated, final_lines, final_pieces)`, the last two
    /// -1 where the game goes on. A slot that holds no placement (outside the mask) is a
    /// violation: it ends that game (terminated, reward 0) as a refused placement ends a
    /// tournament game, as `Placements-v0` ends its episode; a slot out of range raises
    /// `IndexError`, and nothing is played.
    fn step<'py>(&mut self, py: Python<'py>, actions: PyReadonlyArray1<'py, i64>) -> PyResult<StepResult<'py>> {
        let actions = actions.as_slice()?;
        let n = self.batch.plays.len();
        if actions.len() != n {
            return Err(refused(format!("{} actions for {n} games", actions.len())));
        }
        let mut chosen = Vec::with_capacity(n);
        for (k, &slot) in actions.iter().enumerate() {
            match self.batch.chosen(k, slot) {
                Ok(index) => chosen.push(index),
                Err(()) => {
                    return Err(PyIndexError::new_err(format!(
                        "game {k}: action {slot} is out of range: the slots are 0..{}",
                        self.batch.slots.count() - 1
                    )))
                }
            }
        }
        let batch = &mut self.batch;
        py.detach(|| batch.step(&chosen)).map_err(refused)?;
        let (boards, pieces, masks) = self.observation(py)?;
        let b = &self.batch;
        Ok((
            boards,
            pieces,
            masks,
            Array1::from(b.rewards.clone()).into_pyarray(py),
            Array1::from(b.terminated.clone()).into_pyarray(py),
            Array1::from(b.truncated.clone()).into_pyarray(py),
            Array1::from(b.final_lines.clone()).into_pyarray(py),
            Array1::from(b.final_pieces.clone()).into_pyarray(py),
        ))
    }

    /// The games that ended in the last step, with their last observations: `(games,
    /// boards, pieces, masks, ends)`, one row per ended game in the order of the games,
    /// `ends` their ends' names (`"topped_out"`, `"capped"`, `"violation"`, ...). An
    /// ended game's mask is empty, but after a violation: nothing was played, and its
    /// last observation is the one the step was given.
    fn final_observations<'py>(&self, py: Python<'py>) -> PyResult<FinalObservations<'py>> {
        let b = &self.batch;
        let f = &b.finals;
        let (m, rules) = (f.games.len(), &b.setup.rules);
        let shape_error = |e: numpy::ndarray::ShapeError| PyValueError::new_err(e.to_string());
        let boards = Array3::from_shape_vec((m, rules.height, rules.width), f.boards.clone()).map_err(shape_error)?;
        let pieces = Array2::from_shape_vec((m, b.piece_columns()), f.pieces.clone()).map_err(shape_error)?;
        let masks = Array2::from_shape_vec((m, b.slots.count()), f.masks.clone()).map_err(shape_error)?;
        let games: Vec<i64> = f.games.iter().map(|&k| k as i64).collect();
        Ok((
            Array1::from(games).into_pyarray(py),
            boards.into_pyarray(py),
            pieces.into_pyarray(py),
            masks.into_pyarray(py),
            f.ends.iter().map(|end| end.name()).collect(),
        ))
    }

    /// A copy of game `k` as a `Game`.
    fn game(&self, k: i64) -> PyResult<PyGame> {
        let b = &self.batch;
        let (k, play) = usize::try_from(k)
            .ok()
            .and_then(|k| Some((k, b.plays.get(k)?)))
            .ok_or_else(|| {
                PyIndexError::new_err(format!("game {k} is out of range: the batch has {}", b.plays.len()))
            })?;
        let mut game = PyGame::from_parts(
            b.setup.clone(),
            play.game.clone(),
            b.max_pieces,
            b.index[k],
            b.deal.clone(),
        );
        game.play.stalled = play.stalled;
        Ok(game)
    }
}

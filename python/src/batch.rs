//! `BatchGames`: many games stepped by placement in one call, in Rust, with the
//! interpreter's lock released, their observations returned as numpy arrays.

use crate::choices::NO_PLACEMENT;
use crate::drops::Drops;
use crate::game::PyGame;
use crate::play::{slots_of, Cand, Play, Slots};
use crate::seats::{Layout, Moves, Seats};
use crate::setup::{self, refused, Deal};
use numpy::ndarray::{Array1, Array2, Array3};
use numpy::{IntoPyArray, PyArray1, PyArray2, PyArray3, PyReadonlyArray1};
use pyo3::exceptions::{PyIndexError, PyMemoryError, PyValueError};
use pyo3::prelude::*;
use std::path::PathBuf;
use std::sync::Arc;
use tetrad::referee::End;
use tetrad::setup::Setup;
use tetrad_plugin_api::{PieceId, Placement, Preset};

/// The fewest games worth a thread of their own.
const MIN_PART: usize = 32;

/// The games and their buffers.
struct Batch {
    setup: Arc<Setup>,
    deal: Deal,
    max_pieces: Option<u64>,
    slots: Slots,
    plays: Vec<Play>,
    /// Each game's index in the run.
    index: Vec<u64>,
    /// The index the next new game gets.
    next_index: u64,
    /// Threads a step or a reset plays its games on.
    threads: usize,
    /// Per piece kind, its placements over boards where it hovers in open sky.
    drops: Drops,
    /// Per game, the piece whose table holds its placements, if one does; else the
    /// guideline search's placements are in `cands`, and under the other presets the
    /// move generator's in `plans` (plain values: no path to build or drop).
    tables: Vec<Option<PieceId>>,
    cands: Vec<Vec<Cand>>,
    plans: Vec<Vec<Placement>>,
    /// Per game, the board's rows as last written to `boards`: only rows that changed
    /// are written again.
    rows_seen: Vec<u32>,
    /// Per game and action slot, the index in `cands` of the first placement in that
    /// slot (`NO_PLACEMENT` for none).
    slot_cand: Vec<u32>,
    /// Per game: the board (height x width), the pieces (current, hold, preview), the
    /// mask, the reward, terminated, truncated, and a finished game's lines and pieces.
    boards: Vec<u8>,
    pieces: Vec<i64>,
    masks: Vec<bool>,
    rewards: Vec<f32>,
    terminated: Vec<bool>,
    truncated: Vec<bool>,
    final_lines: Vec<i64>,
    final_pieces: Vec<i64>,
}

impl Batch {
    fn piece_columns(&self) -> usize {
        2 + self.setup.rules.preview
    }

    /// New games `first`, `first + 1`, ... in every seat.
    fn reset(&mut self, first: u64) -> Result<(), String> {
        self.next_index = first;
        for k in 0..self.plays.len() {
            self.plays[k] = self.new_play()?;
            self.index[k] = self.next_index - 1;
        }
        self.observe_all();
        self.rewards.fill(0.0);
        self.terminated.fill(false);
        self.truncated.fill(false);
        self.final_lines.fill(-1);
        self.final_pieces.fill(-1);
        Ok(())
    }

    fn new_play(&mut self) -> Result<Play, String> {
        let game = self.deal.game(&self.setup, self.next_index, None)?;
        self.next_index += 1;
        Ok(Play::new(game, self.max_pieces))
    }

    /// Games per thread.
    fn part_size(&self) -> usize {
        self.plays.len().div_ceil(self.threads.max(1))
    }

    /// Writes every game's observation and enumerates its placements, the games split
    /// among the threads (the last part on this one).
    fn observe_all(&mut self) {
        let layout = Layout {
            height: self.setup.rules.height,
            width: self.setup.rules.width,
            columns: self.piece_columns(),
            none: self.setup.pieces.len() as i64,
            slots: self.slots,
            guideline: self.setup.rules.preset == Preset::Guideline,
        };
        let size = self.part_size();
        let (cells, columns, count) = (layout.height * layout.width, layout.columns, layout.slots.count());
        let drops = &self.drops;
        let mut parts: Vec<Seats> = self
            .plays
            .chunks(size)
            .zip(self.tables.chunks_mut(size))
            .zip(self.cands.chunks_mut(size))
            .zip(self.plans.chunks_mut(size))
            .zip(self.rows_seen.chunks_mut(size * layout.height))
            .zip(self.boards.chunks_mut(size * cells))
            .zip(self.pieces.chunks_mut(size * columns))
            .zip(self.masks.chunks_mut(size * count))
            .zip(self.slot_cand.chunks_mut(size * count))
            .map(
                |((((((((plays, tables), cands), plans), rows_seen), boards), pieces), masks), slot_cand)| Seats {
                    plays,
                    drops,
                    tables,
                    cands,
                    plans,
                    rows_seen,
                    boards,
                    pieces,
                    masks,
                    slot_cand,
                },
            )
            .collect();
        let last = parts.pop();
        std::thread::scope(|scope| {
            for seats in parts {
                scope.spawn(move || seats.observe(&layout));
            }
            if let Some(seats) = last {
                seats.observe(&layout);
            }
        });
    }

    /// The placement of game `k` in slot `slot`.
    fn chosen(&self, k: usize, slot: i64) -> Option<usize> {
        let count = self.slots.count();
        let slot = usize::try_from(slot).ok().filter(|&slot| slot < count)?;
        let index = self.slot_cand[k * count + slot];
        (index != NO_PLACEMENT).then_some(index as usize)
    }

    /// Plays placement `chosen[k]` in every game `k`, the games split among the threads;
    /// then a game that ended is replaced by the run's next game, in the order of the
    /// games (so on any number of threads the games are the same).
    fn step(&mut self, chosen: &[usize]) -> Result<(), String> {
        let size = self.part_size();
        let mut ends: Vec<Option<End>> = vec![None; self.plays.len()];
        let drops = &self.drops;
        let mut parts: Vec<Moves> = self
            .plays
            .chunks_mut(size)
            .zip(self.tables.chunks(size))
            .zip(self.cands.chunks(size))
            .zip(self.plans.chunks(size))
            .zip(chosen.chunks(size))
            .zip(self.rewards.chunks_mut(size))
            .zip(ends.chunks_mut(size))
            .map(|((((((plays, tables), cands), plans), chosen), rewards), ends)| Moves {
                plays,
                drops,
                tables,
                cands,
                plans,
                chosen,
                rewards,
                ends,
            })
            .collect();
        let last = parts.pop();
        std::thread::scope(|scope| {
            for moves in parts {
                scope.spawn(move || moves.play());
            }
            if let Some(moves) = last {
                moves.play();
            }
        });
        for (k, end) in ends.into_iter().enumerate() {
            match end {
                None => {
                    self.terminated[k] = false;
                    self.truncated[k] = false;
                    self.final_lines[k] = -1;
                    self.final_pieces[k] = -1;
                }
                Some(end) => {
                    let stats = self.plays[k].game.stats();
                    self.final_lines[k] = stats.lines as i64;
                    self.final_pieces[k] = stats.pieces as i64;
                    self.truncated[k] = end == End::Capped;
                    self.terminated[k] = end != End::Capped;
                    self.plays[k] = self.new_play()?;
                    self.index[k] = self.next_index - 1;
                }
            }
        }
        self.observe_all();
        Ok(())
    }
}

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
    /// -1 where the game goes on.
    fn step<'py>(&mut self, py: Python<'py>, actions: PyReadonlyArray1<'py, i64>) -> PyResult<StepResult<'py>> {
        let actions = actions.as_slice()?;
        let n = self.batch.plays.len();
        if actions.len() != n {
            return Err(refused(format!("{} actions for {n} games", actions.len())));
        }
        let mut chosen = Vec::with_capacity(n);
        for (k, &slot) in actions.iter().enumerate() {
            match self.batch.chosen(k, slot) {
                Some(index) => chosen.push(index),
                None => {
                    return Err(PyIndexError::new_err(format!(
                        "game {k}: action {slot} is not one of its placements (see the mask)"
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

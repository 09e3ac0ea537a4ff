//! `Game`: one game of the host's engine, with its placements, for Python.

use crate::choices::Choices;
use crate::drops::Drops;
use crate::placement::PyPlacement;
use crate::play::{slots_of, Play, Slots};
use crate::setup::{self, refused, Deal, ProtocolPieces};
use numpy::{IntoPyArray, PyArray1, PyArray2, PyArray3};
use pyo3::prelude::*;
use std::path::PathBuf;
use std::sync::Arc;
use tetrad_engine::engine::Game;
use tetrad_engine::referee::Violation;
use tetrad_engine::setup::Setup;
use tetrad_plugin_api::abi::ACTION_MASK_V2;
use tetrad_plugin_api::Actions;

/// One game under the host's rules: the board, the falling, previewed and held pieces,
/// every reachable placement, and moves by placement or by tick.
#[pyclass(module = "tetrad._tetrad", name = "Game")]
#[derive(Clone)]
pub struct PyGame {
    pub(crate) setup: Arc<Setup>,
    pub(crate) play: Play,
    pub(crate) slots: Slots,
    pub(crate) drops: Arc<Drops>,
    pub(crate) seed: u64,
    pub(crate) deal: Deal,
    /// Totals carried over from before the game was rebuilt from an observation.
    pub(crate) carried: [u64; 3],
    pub(crate) choices: Option<Arc<Choices>>,
    /// The last piece's placements, to be written over with the next piece's.
    pub(crate) spare: Option<Arc<Choices>>,
    /// The placement environment's episode, where the game serves one.
    pub(crate) episode: crate::env::Episode,
}

impl PyGame {
    pub(crate) fn from_parts(setup: Arc<Setup>, game: Game, max_pieces: Option<u64>, seed: u64, deal: Deal) -> PyGame {
        let slots = slots_of(&setup);
        PyGame {
            drops: Arc::new(Drops::new(&setup, &slots)),
            slots,
            setup,
            play: Play::new(game, max_pieces),
            seed,
            deal,
            carried: [0; 3],
            choices: None,
            spare: None,
            episode: crate::env::Episode::default(),
        }
    }
}

#[pymethods]
impl PyGame {
    /// A new game: game `seed` of `tetrad run --seed run_seed` (or of its `--sequence`).
    #[new]
    #[pyo3(signature = (preset="classic", width=None, height=None, seed=0, preview=None, pieces=None, sequence=None, *, run_seed=1, randomizer=None, max_pieces=None, board=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
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
        board: Option<Vec<Vec<f64>>>,
    ) -> PyResult<PyGame> {
        let rules = setup::rules(preset, width, height, preview, randomizer)?;
        let setup = Arc::new(setup::setup(rules, pieces.as_deref())?);
        let deal = Deal::from_arg(sequence, run_seed, &setup.pieces)?;
        let start = board.map(|cells| views::start_board(&rules, &cells)).transpose()?;
        let game = deal.game(&setup, seed, start).map_err(refused)?;
        Ok(PyGame::from_parts(setup, game, max_pieces, seed, deal))
    }

    /// A game as a bot sees it at the start of a piece: the rules and pieces of the bot
    /// protocol's `start`, the board's rows, the falling piece, the preview and the hold.
    /// Its queue ends with the preview. (Internal: `tetrad.bot` builds it.)
    #[staticmethod]
    #[pyo3(signature = (preset, width, height, preview, pieces, rows, current, queue, hold, carried))]
    #[allow(clippy::too_many_arguments)]
    fn _observed(
        preset: &str,
        width: usize,
        height: usize,
        preview: usize,
        pieces: ProtocolPieces,
        rows: Vec<u32>,
        current: u8,
        queue: Vec<u8>,
        hold: Option<u8>,
        carried: [u64; 3],
    ) -> PyResult<PyGame> {
        PyGame::observed(
            preset,
            (width, height, preview),
            pieces,
            rows,
            (current, queue, hold),
            carried,
        )
    }

    /// The game a bot has played so far, replayed: the pieces dealt so far, in order,
    /// and every tick's actions, played from an empty board. (Internal: `tetrad.bot`.)
    #[staticmethod]
    #[allow(clippy::too_many_arguments)]
    fn _replayed(
        preset: &str,
        width: usize,
        height: usize,
        preview: usize,
        pieces: ProtocolPieces,
        dealt: Vec<u8>,
        ticks: Vec<u32>,
    ) -> PyResult<PyGame> {
        PyGame::replayed(preset, (width, height, preview), pieces, dealt, ticks)
    }

    /// Gives a game of given pieces (one a bot plays) more of them, dealt after those it
    /// has: the pieces the host shows as they appear. They fill the preview, and the
    /// first enters if the game had run out. (Internal: `tetrad.bot`.)
    fn _give(&mut self, pieces: Vec<u8>) -> PyResult<()> {
        self.give(pieces)
    }

    /// The rules: preset, width, height, preview and randomizer.
    #[getter]
    fn rules<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, pyo3::types::PyDict>> {
        self.rules_dict(py)
    }

    /// The preset's name.
    #[getter]
    fn preset(&self) -> &'static str {
        self.setup.rules.preset.name()
    }

    /// Columns.
    #[getter]
    fn width(&self) -> usize {
        self.setup.rules.width
    }

    /// Rows (under `guideline`, with the 20 rows of buffer on top).
    #[getter]
    fn height(&self) -> usize {
        self.setup.rules.height
    }

    /// The game's index in its run (`tetrad run`'s game number).
    #[getter]
    fn seed(&self) -> u64 {
        self.seed
    }

    /// The seed the host gives this game's player for its own randomness.
    #[getter]
    fn player_seed(&self) -> u64 {
        self.deal.player_seed(self.seed)
    }

    /// Piece names by index.
    #[getter]
    fn piece_names(&self) -> Vec<String> {
        self.setup.pieces.kinds().iter().map(|k| k.name().to_string()).collect()
    }

    /// The board without the falling piece: `height` x `width`, 1 where filled, row 0 at
    /// the top.
    #[getter]
    fn board<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<u8>> {
        board_pyarray(py, self.play.game.board())
    }

    /// The board's rows as numbers, row 0 first, bit x set where column x is filled.
    #[getter]
    fn rows(&self) -> Vec<u32> {
        let board = self.play.game.board();
        board.rows()[..board.height()].to_vec()
    }

    /// The falling piece's name, or `None` once the game is over.
    #[getter]
    fn current(&self) -> Option<String> {
        self.play.game.current().map(|f| self.name(f.piece))
    }

    /// Where the falling piece is: (orientation, x, y) of its rotation box's top-left.
    #[getter]
    fn position(&self) -> Option<(u8, i8, i8)> {
        self.play.game.current().map(|f| (f.pos.orientation, f.pos.x, f.pos.y))
    }

    /// The previewed pieces' names, the next one first.
    #[getter]
    fn queue(&self) -> Vec<String> {
        self.play.game.queue().map(|p| self.name(p)).collect()
    }

    /// The held piece's name.
    #[getter]
    fn hold(&self) -> Option<String> {
        self.play.game.held().map(|p| self.name(p))
    }

    /// Whether a hold now would act.
    #[getter]
    fn hold_available(&self) -> bool {
        self.play.game.hold_available()
    }

    /// Current, hold, then previewed pieces as indices (`len(piece_names)` for none).
    #[getter]
    fn piece_ids(&self) -> Vec<i64> {
        self.piece_vec()
    }

    /// Rows cleared.
    #[getter]
    fn lines(&self) -> u64 {
        self.carried[0] + self.play.game.stats().lines
    }

    /// Points.
    #[getter]
    fn score(&self) -> u64 {
        self.carried[1] + self.play.game.stats().score
    }

    /// Pieces locked.
    #[getter]
    fn pieces(&self) -> u64 {
        self.carried[2] + self.play.game.stats().pieces
    }

    /// Ticks played.
    #[getter]
    fn ticks(&self) -> u64 {
        self.play.game.stats().ticks
    }

    /// Line-clearing locks in a row up to the last lock.
    #[getter]
    fn combo(&self) -> u32 {
        self.play.game.combo()
    }

    /// Whether the last clear was a difficult one.
    #[getter]
    fn back_to_back(&self) -> bool {
        self.play.game.back_to_back()
    }

    /// Whether the game has ended.
    #[getter]
    fn done(&self) -> bool {
        self.play.end().is_some()
    }

    /// How it ended, as `tetrad run` says it (`topped_out`, `capped`, `stalled`), or `None`.
    #[getter]
    fn end(&self) -> Option<&'static str> {
        self.play.end().map(|end| end.name())
    }

    /// The piece cap, if any.
    #[getter]
    fn max_pieces(&self) -> Option<u64> {
        self.play.max_pieces
    }

    /// Every placement of the falling piece in the host's order, each with its board.
    fn placements(&mut self) -> Vec<PyPlacement> {
        self.placement_list()
    }

    /// Every placement's board after it locks, as one array: placements x height x width.
    fn placement_boards<'py>(&mut self, py: Python<'py>) -> Bound<'py, PyArray3<u8>> {
        self.placement_board_array().into_pyarray(py)
    }

    /// How many placements the falling piece has.
    fn placement_count(&mut self) -> usize {
        self.choices().len(&self.play)
    }

    /// The number of action slots (the placement environment's action space).
    #[getter]
    fn action_count(&self) -> usize {
        self.slots.count()
    }

    /// 1 at each placement's slot, 0 elsewhere.
    fn action_mask<'py>(&mut self, py: Python<'py>) -> Bound<'py, PyArray1<i8>> {
        PyArray1::from_slice(py, self.choices().mask())
    }

    /// The placement index of action slot `slot`, or `None`.
    fn index_of_slot(&mut self, slot: usize) -> Option<usize> {
        self.slot_index(slot)
    }

    /// Plays placement `index` of `placements()`, tick by tick along its path as the host
    /// plays it; returns the rows it cleared.
    fn place(&mut self, index: i64) -> PyResult<u32> {
        self.place_index(index)
    }

    /// Plays one tick with the OR of action bits (`tetrad.LEFT`, ...); returns
    /// `(locked, lines)`: whether a piece locked, and the rows it cleared.
    fn step(&mut self, actions: u32) -> PyResult<(bool, u32)> {
        self.live()?;
        let actions = Actions(actions);
        if actions.breaks(ACTION_MASK_V2) {
            return Err(refused(Violation::Bits(actions.0)));
        }
        self.moved();
        let lines = self.play.tick(actions);
        Ok((lines.is_some(), lines.unwrap_or(0)))
    }

    /// Starts game `seed` of the same setup and deal, as the environments' `reset`
    /// does (the setup is not built again). Returns the placement environment's
    /// `(observation, info)`. (Internal: `tetrad.envs`.)
    fn _gym_reset<'py>(&mut self, py: Python<'py>, seed: u64) -> PyResult<crate::env::Reset<'py>> {
        self.restart(seed)?;
        self.gym_observe(py)
    }

    /// Starts game `seed` of the same setup and deal. (Internal: `tetrad.envs`.)
    fn _restart(&mut self, seed: u64) -> PyResult<()> {
        self.restart(seed)
    }

    /// The placement environment's step in one call: refuses a step after the episode's
    /// end, checks `action` (a plain int in range here, anything else by
    /// `tetrad._options.check_action`), plays the placement in that action slot, if one
    /// is, and returns `(observation, reward, terminated, truncated, info)` as
    /// Gymnasium's `step` does. (Internal: `tetrad.envs`.)
    fn _gym_step<'py>(&mut self, py: Python<'py>, action: &Bound<'py, PyAny>) -> PyResult<crate::env::Step<'py>> {
        self.gym_play(py, action)
    }

    /// Serves the environment `id` (named in its errors). (Internal: `tetrad.envs`.)
    fn _gym_serve(&mut self, id: String) {
        self.episode.id = id;
    }

    /// Why the environment's episode is over (`"no reset yet"`, or how the game ended),
    /// or `None` while it runs. (Internal: `tetrad.envs`.)
    #[getter(_gym_over)]
    fn gym_over(&self) -> Option<String> {
        self.episode.over.clone()
    }

    #[setter(_gym_over)]
    fn set_gym_over(&mut self, over: Option<String>) {
        self.episode.over = over;
    }

    /// An independent copy, for search.
    fn clone(&self) -> PyGame {
        Clone::clone(self)
    }

    fn __copy__(&self) -> PyGame {
        Clone::clone(self)
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyGame {
        Clone::clone(self)
    }

    /// The board as text, `#` filled, `@` the falling piece, `.` empty.
    fn render(&self) -> String {
        self.text()
    }

    fn __repr__(&self) -> String {
        self.summary()
    }
}

mod bot;
mod moves;
mod views;
pub(crate) use views::{board_array, board_pyarray};

//! What `Game` shows of itself: its placements with their boards, the board as text,
//! and the board a game may start from.

use super::PyGame;
use crate::placement::PyPlacement;
use crate::play::outcome;
use crate::setup::refused;
use numpy::ndarray::{Array2, Array3};
use numpy::{PyArray2, PyArrayMethods};
use pyo3::prelude::*;
use tetrad_plugin_api::Board;

impl PyGame {
    /// The rules as the `rules` property gives them: preset, width, height, preview and
    /// randomizer.
    pub(super) fn rules_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, pyo3::types::PyDict>> {
        let rules = &self.setup.rules;
        let dict = pyo3::types::PyDict::new(py);
        dict.set_item("preset", rules.preset.name())?;
        dict.set_item("width", rules.width)?;
        dict.set_item("height", rules.height)?;
        dict.set_item("preview", rules.preview)?;
        dict.set_item("randomizer", rules.randomizer.name())?;
        Ok(dict)
    }

    /// The game in one line, for `repr`.
    pub(super) fn summary(&self) -> String {
        format!(
            "Game(preset={:?}, width={}, height={}, seed={}, pieces={}, lines={}, end={})",
            self.setup.rules.preset.name(),
            self.setup.rules.width,
            self.setup.rules.height,
            self.seed,
            self.pieces(),
            self.lines(),
            self.end().map_or("None".to_string(), |end| format!("{end:?}"))
        )
    }

    /// Every placement of the falling piece in the host's order, each with its board.
    pub(super) fn placement_list(&mut self) -> Vec<PyPlacement> {
        let choices = self.choices();
        let cands = choices.list(&self.play);
        let rules = self.setup.rules;
        let movement = rules.movement();
        cands
            .iter()
            .enumerate()
            .map(|(index, cand)| {
                let out = outcome(&rules, &self.play.game, cand);
                PyPlacement {
                    index,
                    piece: self.name(cand.piece),
                    orientation: cand.pos.orientation,
                    x: cand.pos.x,
                    y: cand.pos.y,
                    slide: cand.slide,
                    hold: cand.hold,
                    spin: cand.kick.is_some(),
                    kick: cand.kick,
                    lines: out.lines,
                    cleared_rows: out.cleared_rows,
                    cells: out.cells,
                    ends_game: out.ends,
                    slot: self.slots.of(cand),
                    actions: cand.actions(movement).iter().map(|a| a.0).collect(),
                    after: out.after,
                }
            })
            .collect()
    }

    /// Every placement's board after it locks: placements x height x width.
    pub(super) fn placement_board_array(&mut self) -> Array3<u8> {
        let choices = self.choices();
        let cands = choices.list(&self.play);
        let rules = self.setup.rules;
        let (h, w) = (rules.height, rules.width);
        let mut out = Array3::<u8>::zeros((cands.len(), h, w));
        for (i, cand) in cands.iter().enumerate() {
            let after = outcome(&rules, &self.play.game, cand).after;
            for y in 0..h {
                let row = after.rows()[y];
                for x in 0..w {
                    out[[i, y, x]] = u8::from(row >> x & 1 == 1);
                }
            }
        }
        out
    }

    /// The board as text, `#` filled, `@` the falling piece, `.` empty.
    pub(super) fn text(&self) -> String {
        let game = &self.play.game;
        let board = game.board();
        let mut falling = Board::new(board.width(), board.height());
        if let Some(f) = game.current() {
            let shape = game.pieces().kind(f.piece).orientation(f.pos.orientation);
            falling.place(shape, f.pos.x, f.pos.y);
        }
        let mut text = String::new();
        for y in self.setup.rules.shown_rows() {
            for x in 0..board.width() {
                text.push(if board.filled(x, y) {
                    '#'
                } else if falling.filled(x, y) {
                    '@'
                } else {
                    '.'
                });
            }
            text.push('\n');
        }
        text
    }
}

/// A board given as rows of cells (0 empty, anything else filled), checked against the
/// rules' size.
pub(super) fn start_board(rules: &tetrad_plugin_api::Rules, cells: &[Vec<f64>]) -> PyResult<Board> {
    let (height, width) = (cells.len(), cells.first().map_or(0, Vec::len));
    if height != rules.height || cells.iter().any(|row| row.len() != rules.width) {
        return Err(refused(format!(
            "board is {height}x{width} (rows x columns), the rules' is {}x{}",
            rules.height, rules.width
        )));
    }
    let rows: Vec<u32> = cells
        .iter()
        .map(|row| {
            row.iter()
                .enumerate()
                .fold(0u32, |acc, (x, &c)| acc | (u32::from(c != 0.0) << x))
        })
        .collect();
    Ok(Board::from_rows(width, height, &rows))
}

/// The board as a numpy array of cells, 1 where filled, row 0 at the top, written
/// straight into the array's own buffer: an observation's board allocates nothing in
/// Rust and is copied nowhere.
pub(crate) fn board_pyarray<'py>(py: Python<'py>, board: &Board) -> Bound<'py, PyArray2<u8>> {
    let (width, height) = (board.width(), board.height());
    // SAFETY: a C-contiguous array of `height x width` bytes, uninitialised; every byte is
    // written below before the array reaches Python.
    let array = unsafe { PyArray2::<u8>::new(py, [height, width], false) };
    // SAFETY: the array was made above and nothing else holds it, so no other view of
    // its buffer exists while the slice lives.
    let cells = unsafe { array.as_slice_mut() }.expect("a new array is contiguous");
    crate::play::write_cells(&board.rows()[..height], width, cells);
    array
}

/// The board as cells, 1 where filled, row 0 at the top.
pub(crate) fn board_array(board: &Board) -> Array2<u8> {
    let (width, height) = (board.width(), board.height());
    let mut cells = vec![0; width * height];
    crate::play::write_cells(&board.rows()[..height], width, &mut cells);
    Array2::from_shape_vec((height, width), cells).expect("height x width cells")
}

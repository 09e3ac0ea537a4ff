//! The smart agent's score of one move, term by term, computed incrementally on column
//! masks so that a decision allocates nothing and touches only the columns a move changes.
//!
//! A [`Position`] is built once per decision: the board transposed into column masks
//! (bit `t` for row `t`, row 0 at the top), each column's surface, closed spaces and shaft
//! cells. A move changes the masks of its own columns, so only those columns' closed
//! spaces, and only the shafts of those columns and their two neighbours, are recomputed.
//! A move that clears rows shifts everything above them; it is scored on a copy of the
//! rows with the reference functions of [`crate::features`] instead.

use crate::features::{closed_spaces, full_row, shaft_cells};
use crate::skeleton::Shape;
use tetrad_plugin_api::{Rules, MAX_PIECE_SIZE, MAX_WIDTH};

/// Tallest board the evaluator takes (a column is one `u32`).
pub const MAX_ROWS: usize = 32;

/// Under `leiden`, a cell in this row (the lowest of the three top rows, the skeleton's
/// `h-3`) after rows are cleared ends the game: the skeleton's `endofgame()`.
const END_ROW: usize = Rules::LEIDEN_TOP_ROWS - 1;

/// Column masks carry two all-filled columns on each side: the walls.
const PAD: usize = 2;

/// Columns a move can touch: its own and two on each side (a fixed size, so copying
/// them is a few vector moves rather than a call to `memmove`).
const WINDOW: usize = MAX_PIECE_SIZE + 2 * PAD;

/// What one move does, in the terms `dosmartmove` adds up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// Rows the move clears.
    pub lines: u32,
    /// Row of the piece's highest cell where it lands, before rows are cleared (row 0 at
    /// the top). The skeleton's `highestPositionMove` is `h - 1 - top_row`.
    pub top_row: u32,
    /// `numberofclosedspaces()` after the move.
    pub closed: u32,
    /// `countshaft()` after the move.
    pub shafts_after: u32,
    /// `endofgame()` after the move: a cell is left in row 2.
    pub ends: bool,
}

impl Outcome {
    /// `dosmartmove`'s `currentscore`: rows cleared + (h - highestPositionMove) - 4 x
    /// closed spaces + (shaft cells before - after). `h - highestPositionMove` is
    /// `top_row + 1` whatever the height.
    ///
    /// The skeleton adds `copy.rowscleared`, the game's running total including this
    /// move; the rows cleared earlier in the game are the same for every move and never
    /// change which move wins, so they are left out.
    pub fn score(&self, shafts_before: u32) -> i32 {
        self.lines as i32 + (self.top_row as i32 + 1) - 4 * self.closed as i32 + shafts_before as i32
            - self.shafts_after as i32
    }
}

/// The board a decision starts from, with every column's features.
#[derive(Clone, Debug)]
pub struct Position {
    rows: [u32; MAX_ROWS],
    height: usize,
    width: usize,
    full: u32,
    /// The highest row holding a cell (`height` if none).
    first: usize,
    /// Column `c` is `cols[c + PAD]`; the pads are walls (all filled), and the slack
    /// after them lets every window be read at full size.
    cols: [u32; MAX_WIDTH + WINDOW],
    tops: [u32; MAX_WIDTH],
    /// Shaft cells of columns `0..c`, at index `c`.
    shaft_prefix: [u32; MAX_WIDTH + 1],
    closed_total: u32,
    shafts_total: u32,
}

/// Row of a column's highest filled cell, or `height` if it is empty.
#[inline]
fn surface(col: u32, height: usize) -> u32 {
    col.trailing_zeros().min(height as u32)
}

/// Closed spaces of one column: the cells from its surface to the floor that are empty.
#[inline]
fn column_closed(col: u32, height: usize) -> u32 {
    height as u32 - surface(col, height) - col.count_ones()
}

/// Shaft cells of one column from its neighbours' masks (walls are all ones): from the
/// highest empty cell above the surface with both neighbours filled, down to the surface.
#[inline]
fn column_shaft(left: u32, own: u32, right: u32, height: usize) -> u32 {
    let top = surface(own, height);
    let open = ((1u64 << top) - 1) as u32;
    let walled = left & right & open;
    if walled == 0 {
        0
    } else {
        top - walled.trailing_zeros()
    }
}

impl Position {
    /// The features of `rows` (row 0 at the top), a board `width` wide.
    pub fn new(rows: &[u32], width: usize) -> Position {
        let height = rows.len().min(MAX_ROWS);
        let mut position = Position {
            rows: [0; MAX_ROWS],
            height,
            width,
            full: full_row(width),
            first: rows[..height].iter().position(|&r| r != 0).unwrap_or(height),
            cols: [0; MAX_WIDTH + WINDOW],
            tops: [0; MAX_WIDTH],
            shaft_prefix: [0; MAX_WIDTH + 1],
            closed_total: 0,
            shafts_total: 0,
        };
        position.rows[..height].copy_from_slice(&rows[..height]);
        for (t, &row) in rows[..height].iter().enumerate() {
            let mut bits = row;
            while bits != 0 {
                position.cols[bits.trailing_zeros() as usize + PAD] |= 1 << t;
                bits &= bits - 1;
            }
        }
        for pad in 0..PAD {
            position.cols[pad] = u32::MAX;
            position.cols[width + PAD + pad] = u32::MAX;
        }
        for c in 0..width {
            let col = position.cols[c + PAD];
            position.tops[c] = surface(col, height);
            position.closed_total += column_closed(col, height);
            let shaft = column_shaft(position.cols[c + PAD - 1], col, position.cols[c + PAD + 1], height);
            position.shaft_prefix[c + 1] = position.shaft_prefix[c] + shaft;
        }
        position.shafts_total = position.shaft_prefix[width];
        position
    }

    /// `countshaft()` of the board before any move.
    pub fn shafts_before(&self) -> u32 {
        self.shafts_total
    }

    /// `numberofclosedspaces()` of the board before any move.
    pub fn closed_before(&self) -> u32 {
        self.closed_total
    }

    /// Where `shape` lands dropped with its leftmost cells in `column`: the row of its
    /// top. Negative when it cannot enter (the skeleton then leaves it where it starts).
    #[inline]
    pub fn landing_row(&self, shape: &Shape, column: usize) -> i32 {
        let mut y = i32::MAX;
        for j in 0..usize::from(shape.width) {
            y = y.min(self.tops[column + j] as i32 - 1 - i32::from(shape.bottom[j]));
        }
        y
    }

    /// What dropping `shape` with its leftmost cells in `column` does (the skeleton's
    /// `letitfall`; a piece that cannot fall stays at the top, as there).
    pub fn evaluate(&self, shape: &Shape, column: usize) -> Outcome {
        let (y, lines) = self.drop(shape, column);
        if lines > 0 {
            return self.evaluate_with_clears(shape, column, y);
        }
        let old = self.touched_shafts(shape, column);
        Outcome {
            lines: 0,
            top_row: y as u32,
            closed: self.closed_after(shape, column, y),
            shafts_after: self.shafts_total - old + self.touched_shafts_after(shape, column, y),
            ends: self.ends(shape, y),
        }
    }

    /// The score of a move, if the move does not end the game and scores more than
    /// `floor`: the same value as `evaluate(..).score(..)`, faster. The shaft cells, the
    /// dearest term, are counted only when the other terms leave room to beat `floor`
    /// (the shafts of the touched columns can only lower the score).
    #[inline]
    pub fn score_above(&self, shape: &Shape, column: usize, floor: i32) -> Option<i32> {
        let (y, lines) = self.drop(shape, column);
        if lines > 0 {
            let out = self.evaluate_with_clears(shape, column, y);
            let score = out.score(self.shafts_total);
            return (!out.ends && score > floor).then_some(score);
        }
        if self.ends(shape, y) {
            return None;
        }
        // before - after = (old shafts of the touched columns) - (their new shafts).
        let closed = self.closed_after(shape, column, y) as i32;
        let bound = y as i32 + 1 - 4 * closed + self.touched_shafts(shape, column) as i32;
        if bound <= floor {
            return None;
        }
        let score = bound - self.touched_shafts_after(shape, column, y) as i32;
        (score > floor).then_some(score)
    }

    /// The landing row of a move (its top cell) and the rows it fills.
    #[inline]
    fn drop(&self, shape: &Shape, column: usize) -> (usize, u32) {
        let y = self.landing_row(shape, column).max(0) as usize;
        let mut lines = 0;
        for i in 0..usize::from(shape.height) {
            lines += u32::from(self.rows[y + i] | shape.rows[i] << column == self.full);
        }
        (y, lines)
    }

    /// `endofgame()` after a move that clears nothing.
    #[inline]
    fn ends(&self, shape: &Shape, y: usize) -> bool {
        self.rows[END_ROW] != 0 || (y..y + usize::from(shape.height)).contains(&END_ROW)
    }

    /// Closed spaces after a move that clears nothing. A column's closed spaces are
    /// (h - surface) - filled cells; the piece lands above the old surface, so in each of
    /// its columns they change by (old surface - new surface - the piece's cells there),
    /// which sums to `tops - width x y + closed_offset`.
    #[inline]
    fn closed_after(&self, shape: &Shape, column: usize, y: usize) -> u32 {
        let width = usize::from(shape.width);
        let mut closed = self.closed_total.wrapping_add(shape.closed_offset);
        for top in &self.tops[column..column + width] {
            closed = closed.wrapping_add(*top);
        }
        closed.wrapping_sub((width * y) as u32)
    }

    /// Shaft cells before the move in the columns it touches: its own and one each side.
    #[inline]
    fn touched_shafts(&self, shape: &Shape, column: usize) -> u32 {
        let end = (column + usize::from(shape.width) + 1).min(self.width);
        self.shaft_prefix[end] - self.shaft_prefix[column.saturating_sub(1)]
    }

    /// Shaft cells after a move that clears nothing, in the columns it touches.
    #[inline]
    fn touched_shafts_after(&self, shape: &Shape, column: usize, y: usize) -> u32 {
        // Columns column-2 ..= column+width+1; the piece's own columns, at PAD.., updated.
        let width = usize::from(shape.width);
        let mut window = [0u32; WINDOW];
        window.copy_from_slice(&self.cols[column..column + WINDOW]);
        for j in 0..width {
            window[j + PAD] |= shape.cols[j] << y;
        }
        let mut shafts = 0;
        for k in 1..width + 2 * PAD - 1 {
            let c = (column + k).wrapping_sub(PAD);
            if c < self.width {
                shafts += column_shaft(window[k - 1], window[k], window[k + 1], self.height);
            }
        }
        shafts
    }

    /// The rare path: the move clears rows, so score the cleared board from scratch.
    fn evaluate_with_clears(&self, shape: &Shape, column: usize, y: usize) -> Outcome {
        let mut rows = self.rows;
        let bottom = y + usize::from(shape.height);
        for i in 0..usize::from(shape.height) {
            rows[y + i] |= shape.rows[i] << column;
        }
        // Rows below the piece stay; the ones above its lowest full row move down.
        let mut write = bottom;
        for read in (0..bottom).rev() {
            if rows[read] != self.full {
                write -= 1;
                rows[write] = rows[read];
            }
        }
        // Every row kept moved `write` down: `write` full rows were removed.
        let lines = write as u32;
        rows[..write].fill(0);
        // Empty rows above the stack add nothing to either count: start below them.
        let first = self.first.min(y) + lines as usize;
        let after = &rows[first..self.height];
        Outcome {
            lines,
            top_row: y as u32,
            closed: closed_spaces(after, self.width),
            shafts_after: shaft_cells(after, self.width),
            ends: rows[END_ROW] != 0,
        }
    }
}

#[cfg(test)]
#[path = "eval_tests.rs"]
mod tests;

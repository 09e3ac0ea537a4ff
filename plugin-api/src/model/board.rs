//! The bitboard: one `u32` per row, row 0 at the top, bit `x` for column `x`.
//!
//! Rows as bit masks make "row full" one comparison and a piece test one AND per piece
//! row. Everything above row 0 is open sky: empty, and as wide as the board.

use super::piece::Orientation;
use std::fmt;

/// Widest board the engine and the ABI support.
pub const MAX_WIDTH: usize = 32;
/// Tallest board the engine and the ABI support.
pub const MAX_HEIGHT: usize = 64;

/// A position of a piece: its orientation index and the top-left of its rotation box.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PiecePos {
    /// Index into the piece kind's orientations.
    pub orientation: u8,
    /// Column of the rotation box's left edge (may be negative).
    pub x: i8,
    /// Row of the rotation box's top edge, row 0 at the top (may be negative).
    pub y: i8,
}

/// What locking a piece did to the board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Lock {
    /// How many full rows were removed.
    pub lines: u32,
    /// Whether any cell of the piece lay above row 0 (nothing was placed then).
    pub above_board: bool,
}

/// A rectangular well of filled and empty cells.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Board {
    rows: [u32; MAX_HEIGHT],
    width: u8,
    height: u8,
    /// The first row holding a filled cell (`height` when empty). Every row above it is
    /// empty, so a falling piece crosses them in one step. Kept by every mutation.
    surface: u8,
}

impl Board {
    /// An empty board. Sizes are clamped to `1..=MAX_WIDTH` and `1..=MAX_HEIGHT`; the
    /// rules validate user-chosen sizes before they get here.
    pub fn new(width: usize, height: usize) -> Board {
        let height = height.clamp(1, MAX_HEIGHT) as u8;
        Board {
            rows: [0; MAX_HEIGHT],
            width: width.clamp(1, MAX_WIDTH) as u8,
            height,
            surface: height,
        }
    }

    /// A board drawn as text, one line per row from the top, `#` filled and `.` empty.
    /// Lines must all be `width` long; whitespace around lines is ignored.
    pub fn from_text(width: usize, height: usize, text: &str) -> Board {
        let mut board = Board::new(width, height);
        let lines: Vec<&str> = text.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
        assert!(lines.len() <= height, "drawing taller than the board");
        let first = height - lines.len();
        for (i, line) in lines.iter().enumerate() {
            assert_eq!(line.len(), width, "row {i} of drawing is not {width} wide");
            for (x, b) in line.bytes().enumerate() {
                if b == b'#' {
                    board.fill(x, first + i);
                }
            }
        }
        board
    }

    /// A board from row masks, row 0 first; bits at or beyond `width` are dropped.
    pub fn from_rows(width: usize, height: usize, rows: &[u32]) -> Board {
        let mut board = Board::new(width, height);
        board.copy_rows(rows);
        board
    }

    /// Replaces the rows with `rows`, row 0 first, as [`Board::from_rows`] reads them,
    /// keeping the size: bits at or beyond the width are dropped, missing rows are empty.
    #[inline]
    pub fn set_rows(&mut self, rows: &[u32]) {
        let height = self.height();
        let given = rows.len().min(height);
        // For refreshing a board from rows that seldom change: finding them equal (one
        // memory comparison) is much cheaper than copying them and finding the surface
        // again. Rows with bits beyond the width never compare equal, and are masked when
        // copied.
        if self.rows[..given] != rows[..given] || self.rows[given..height].iter().any(|&r| r != 0) {
            self.copy_rows(rows);
        }
    }

    /// Replaces the rows with `rows` as [`Board::set_rows`] does, without first asking
    /// whether they changed: for a caller that knows they did. The copying half of
    /// `set_rows` (and all of [`Board::from_rows`]), kept out of line.
    #[inline(never)]
    pub fn copy_rows(&mut self, rows: &[u32]) {
        let full = self.full_row();
        let height = self.height();
        let given = rows.len().min(height);
        // Four rows at a time, one vector register each: a board's height is most often a
        // multiple of four, and then no row goes alone.
        let mut to = self.rows[..given].chunks_exact_mut(4);
        let mut from = rows[..given].chunks_exact(4);
        for (to, from) in (&mut to).zip(&mut from) {
            for (dst, &src) in to.iter_mut().zip(from) {
                *dst = src & full;
            }
        }
        for (dst, &src) in to.into_remainder().iter_mut().zip(from.remainder()) {
            *dst = src & full;
        }
        if given < height {
            self.rows[given..height].fill(0);
        }
        self.surface = self.first_filled_row() as u8;
    }

    /// The first row from the top holding a filled cell, or the height: looked for four
    /// rows at a time (one vector test). Rows past the last are empty.
    #[inline]
    fn first_filled_row(&self) -> usize {
        let height = self.height();
        let found = self
            .rows
            .chunks_exact(4)
            .position(|four| four.iter().fold(0, |any, &row| any | row) != 0)
            .map_or(MAX_HEIGHT, |chunk| {
                let four = &self.rows[chunk * 4..chunk * 4 + 4];
                chunk * 4 + four.iter().position(|&row| row != 0).unwrap_or(4)
            });
        found.min(height)
    }

    /// The first row from the top that holds a filled cell (the height if none does).
    #[inline]
    pub fn surface(&self) -> usize {
        usize::from(self.surface)
    }

    /// Number of columns.
    #[inline]
    pub fn width(&self) -> usize {
        usize::from(self.width)
    }

    /// Number of rows.
    #[inline]
    pub fn height(&self) -> usize {
        usize::from(self.height)
    }

    /// The rows, row 0 at the top.
    #[inline]
    pub fn rows(&self) -> &[u32] {
        &self.rows[..self.height()]
    }

    /// The mask of a full row.
    #[inline]
    pub fn full_row(&self) -> u32 {
        u32::MAX >> (32 - u32::from(self.width))
    }

    /// Whether cell (x, y) is filled; cells outside the board are empty.
    #[inline]
    pub fn filled(&self, x: usize, y: usize) -> bool {
        y < self.height() && x < self.width() && self.rows[y] >> x & 1 == 1
    }

    /// Fills cell (x, y).
    pub fn fill(&mut self, x: usize, y: usize) {
        if y < self.height() && x < self.width() {
            self.rows[y] |= 1 << x;
            self.surface = self.surface.min(y as u8);
        }
    }

    /// How many cells are filled.
    pub fn filled_count(&self) -> u32 {
        self.rows().iter().map(|r| r.count_ones()).sum()
    }

    /// Whether `orientation` at `(x, y)` lies inside the walls and floor (the sky above
    /// row 0 counts as inside) and overlaps no filled cell.
    #[inline]
    pub fn fits(&self, orientation: &Orientation, x: i8, y: i8) -> bool {
        let left = i32::from(x) + i32::from(orientation.left());
        if left < 0 || left + i32::from(orientation.width()) > i32::from(self.width) {
            return false;
        }
        let top = i32::from(y) + i32::from(orientation.top());
        let bottom = top + i32::from(orientation.height());
        if bottom > i32::from(self.height) {
            return false;
        }
        // A piece wholly above row 0 (hovering before its drop) meets nothing.
        if bottom <= 0 {
            return true;
        }
        orientation.row_masks().iter().enumerate().all(|(i, &mask)| {
            let row = top + i as i32;
            row < 0 || self.rows[row as usize] & (mask << left) == 0
        })
    }

    /// Whether the piece at `pos` rests: one row lower it would not fit.
    #[inline]
    pub fn rests(&self, orientation: &Orientation, x: i8, y: i8) -> bool {
        !self.fits(orientation, x, y + 1)
    }

    /// The row the piece reaches falling straight down from `y` (where it fits).
    #[inline]
    pub fn drop_row(&self, orientation: &Orientation, x: i8, y: i8) -> i8 {
        // Rows above the surface are empty: a piece whose bottom is above it falls to
        // just above the surface at once (if it fits where it starts).
        let bottom = i32::from(y) + i32::from(orientation.top()) + i32::from(orientation.height()) - 1;
        let skip = i32::from(self.surface) - 1 - bottom;
        let mut y = if skip > 0 && self.fits(orientation, x, y) {
            (i32::from(y) + skip) as i8
        } else {
            y
        };
        // The rest is `while self.fits(orientation, x, y + 1) { y += 1 }`, with what does
        // not change as the piece falls asked once: the walls, and the piece's rows. A
        // drop crosses several rows of the stack, and each step is then one AND a row.
        let left = i32::from(x) + i32::from(orientation.left());
        if left < 0 || left + i32::from(orientation.width()) > i32::from(self.width) {
            return y;
        }
        let masks = orientation.row_masks();
        let height = i32::from(self.height);
        // The top row of the piece one row lower.
        let mut top = i32::from(y) + i32::from(orientation.top()) + 1;
        while top + masks.len() as i32 <= height {
            let fits = if top >= 0 {
                let rows = &self.rows[top as usize..top as usize + masks.len()];
                rows.iter().zip(masks).all(|(&row, &mask)| row & (mask << left) == 0)
            } else {
                // Partly above row 0, where the sky meets nothing: seldom, left to `fits`.
                self.fits(orientation, x, y + 1)
            };
            if !fits {
                break;
            }
            y += 1;
            top += 1;
        }
        y
    }

    /// Writes the piece's cells into the board without clearing rows. Returns false, and
    /// writes nothing, when a cell lies above row 0.
    #[inline]
    pub fn place(&mut self, orientation: &Orientation, x: i8, y: i8) -> bool {
        let left = i32::from(x) + i32::from(orientation.left());
        let top = i32::from(y) + i32::from(orientation.top());
        if top < 0 {
            return false;
        }
        for (i, &mask) in orientation.row_masks().iter().enumerate() {
            self.rows[top as usize + i] |= mask << left;
        }
        self.surface = self.surface.min(top as u8);
        true
    }

    /// Height of each column: rows from its highest filled cell to the floor (0 if empty).
    pub fn column_heights(&self) -> Vec<u32> {
        (0..self.width())
            .map(|x| {
                self.rows()
                    .iter()
                    .position(|r| r >> x & 1 == 1)
                    .map_or(0, |top| (self.height() - top) as u32)
            })
            .collect()
    }

    /// Pushes `count` rows up from the floor, each full but for column `hole`: how
    /// garbage arrives in a versus game. Returns false if a filled cell was pushed off the
    /// top (it is gone, and the game over), true otherwise.
    pub fn rise(&mut self, count: usize, hole: usize) -> bool {
        let height = self.height();
        let count = count.min(height);
        if count == 0 {
            return true;
        }
        let kept = self.rows[..count].iter().all(|&r| r == 0);
        self.rows.copy_within(count..height, 0);
        let garbage = self.full_row() & !(1u32.checked_shl(hole as u32).unwrap_or(0));
        self.rows[height - count..height].fill(garbage);
        let filled = self.rows[..height].iter().position(|&r| r != 0);
        self.surface = filled.unwrap_or(height) as u8;
        kept
    }

    /// Empty cells with a filled cell somewhere above them in the same column.
    pub fn holes(&self) -> u32 {
        let mut covered = 0u32;
        let mut holes = 0;
        for &row in self.rows() {
            holes += (covered & !row).count_ones();
            covered |= row;
        }
        holes
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Board {}x{}", self.width, self.height)?;
        for &row in self.rows() {
            let line: String = (0..self.width())
                .map(|x| if row >> x & 1 == 1 { '#' } else { '.' })
                .collect();
            writeln!(f, "{line}")?;
        }
        Ok(())
    }
}

mod clear;
#[cfg(test)]
mod tests;

//! Full rows: found, removed, and the lock that places a piece and clears them.

use super::{Board, Lock};
use crate::model::piece::Orientation;

impl Board {
    /// Removes every full row, moving the rows above down. Returns how many were removed.
    pub fn clear_full_rows(&mut self) -> u32 {
        match self.lowest_full_row() {
            Some(lowest) => self.clear_full_rows_from(lowest),
            None => 0,
        }
    }

    /// [`Board::clear_full_rows`] when only rows `top..top + count` can be full, as after a
    /// piece covering them is placed on a board with no full row: only those are looked at.
    #[inline]
    pub fn clear_full_rows_among(&mut self, top: usize, count: usize) -> u32 {
        let full = self.full_row();
        let end = (top + count).min(self.height());
        match self.rows[top.min(end)..end].iter().rposition(|&row| row == full) {
            Some(i) => self.clear_full_rows_from(top + i),
            None => 0,
        }
    }

    /// Removes every full row, `lowest` being the lowest: rows below it stay where they
    /// are, and rows above the surface are empty, so only the rows between move.
    fn clear_full_rows_from(&mut self, lowest: usize) -> u32 {
        let full = self.full_row();
        let height = self.height();
        let surface = self.surface();
        let mut write = lowest + 1;
        for read in (surface..write).rev() {
            let row = self.rows[read];
            if row != full {
                write -= 1;
                self.rows[write] = row;
            }
        }
        self.rows[surface..write].fill(0);
        // Everything above `write` is empty now.
        let filled = self.rows[write..height].iter().position(|&r| r != 0);
        self.surface = filled.map_or(height, |i| write + i) as u8;
        (write - surface) as u32
    }

    /// The lowest full row, if any: looked for four rows at a time (one vector
    /// comparison), from the bottom up to the surface. Rows above the surface and past the
    /// last are empty, so never full.
    #[inline]
    fn lowest_full_row(&self) -> Option<usize> {
        let full = self.full_row();
        let (surface, height) = (self.surface(), self.height());
        if surface >= height {
            return None;
        }
        let chunk = (surface / 4..=(height - 1) / 4).rev().find(|&chunk| {
            self.rows[chunk * 4..chunk * 4 + 4]
                .iter()
                .fold(false, |any, &row| any | (row == full))
        })?;
        let four = &self.rows[chunk * 4..chunk * 4 + 4];
        four.iter().rposition(|&row| row == full).map(|i| chunk * 4 + i)
    }

    /// Places the piece and clears full rows: what locking it does.
    pub fn lock(&mut self, orientation: &Orientation, x: i8, y: i8) -> Lock {
        self.lock_by(orientation, x, y, Board::clear_full_rows)
    }

    /// [`Board::lock`] on a board that holds no full row, as every board a lock has left
    /// does: then only the piece's rows can be full after it, and only they are looked at.
    #[inline]
    pub fn lock_on_clear(&mut self, orientation: &Orientation, x: i8, y: i8) -> Lock {
        debug_assert!(!self.has_full_row(), "a full row before the lock");
        let (top, count) = (
            i32::from(y) + i32::from(orientation.top()),
            usize::from(orientation.height()),
        );
        self.lock_by(orientation, x, y, |board| {
            board.clear_full_rows_among(top as usize, count)
        })
    }

    /// Places the piece, and unless a cell of it lies above row 0 (then nothing is
    /// placed), clears full rows with `clear`.
    #[inline(always)]
    fn lock_by(&mut self, orientation: &Orientation, x: i8, y: i8, clear: impl FnOnce(&mut Board) -> u32) -> Lock {
        if !self.place(orientation, x, y) {
            return Lock {
                lines: 0,
                above_board: true,
            };
        }
        Lock {
            lines: clear(self),
            above_board: false,
        }
    }

    /// Whether a row is full (none is, on any board a lock has left).
    pub fn has_full_row(&self) -> bool {
        self.lowest_full_row().is_some()
    }
}

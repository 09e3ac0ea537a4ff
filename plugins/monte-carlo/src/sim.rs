//! The playout simulator: the Kosters skeleton's game on a bitboard, with no paths and no
//! allocation, because playouts are nearly all of the agent's work.
//!
//! It follows the skeleton exactly (seed 003 ran its playouts there): any of a piece's
//! `possibilities` moves may be played; `letitfall` drops the piece from the top rows and
//! leaves it where it starts if it cannot fall (only a vertical I over a column filled at
//! row 3 does that, and the game ends); `clearrows` tests every row but the top one (the
//! skeleton's `h-1`, our row 0) and moves the rows above a full row down; `endofgame`
//! holds when row 2 (`h-3`) has a cell.

use crate::skeleton::{MoveTable, Shape};
use tetrad_plugin_api::{Rules, SeededRng, MAX_WIDTH};

/// Tallest board the simulator takes.
pub const MAX_ROWS: usize = 32;

/// The lowest of the three top rows; a cell here ends the game.
const END_ROW: usize = Rules::LEIDEN_TOP_ROWS - 1;

/// A board in play: rows (row 0 at the top, bit `x` for column `x`) and each column's
/// surface (the row of its highest cell, or the height if it is empty).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sim {
    rows: [u32; MAX_ROWS],
    tops: [u8; MAX_WIDTH],
    width: u8,
    height: u8,
    full: u32,
}

impl Sim {
    /// A simulator starting from `rows`, a board `width` wide.
    pub fn new(rows: &[u32], width: usize) -> Sim {
        let height = rows.len().min(MAX_ROWS);
        let mut sim = Sim {
            rows: [0; MAX_ROWS],
            tops: [0; MAX_WIDTH],
            width: width as u8,
            height: height as u8,
            full: u32::MAX >> (32 - width),
        };
        sim.rows[..height].copy_from_slice(&rows[..height]);
        sim.find_tops();
        sim
    }

    /// The rows, row 0 at the top.
    pub fn rows(&self) -> &[u32] {
        &self.rows[..usize::from(self.height)]
    }

    /// `endofgame()`: a cell in row 2.
    #[inline]
    pub fn ended(&self) -> bool {
        self.rows[END_ROW] != 0
    }

    fn find_tops(&mut self) {
        let height = self.height;
        self.tops[..usize::from(self.width)].fill(height);
        let mut seen = 0u32;
        for (t, &row) in self.rows[..usize::from(height)].iter().enumerate() {
            let mut new = row & !seen;
            seen |= row;
            while new != 0 {
                self.tops[new.trailing_zeros() as usize] = t as u8;
                new &= new - 1;
            }
        }
    }

    /// `letitfall` then `clearrows`: drops `shape` with its leftmost cells in `column`,
    /// returns the rows cleared.
    #[inline]
    pub fn drop(&mut self, shape: &Shape, column: usize) -> u32 {
        let width = usize::from(shape.width);
        let mut y = i32::MAX;
        for j in 0..width {
            y = y.min(i32::from(self.tops[column + j]) - 1 - i32::from(shape.bottom[j]));
        }
        let y = y.max(0) as usize;
        let mut any_full = false;
        for i in 0..usize::from(shape.height) {
            let row = self.rows[y + i] | shape.rows[i] << column;
            self.rows[y + i] = row;
            any_full |= row == self.full && y + i != 0;
        }
        if !any_full {
            for j in 0..width {
                let top = &mut self.tops[column + j];
                *top = (*top).min((y + usize::from(shape.top[j])) as u8);
            }
            return 0;
        }
        self.clear_rows()
    }

    /// `clearrows`: removes full rows below the top row, moving everything above down.
    fn clear_rows(&mut self) -> u32 {
        let height = usize::from(self.height);
        let mut write = height;
        for read in (0..height).rev() {
            let row = self.rows[read];
            if row != self.full || read == 0 {
                write -= 1;
                self.rows[write] = row;
            }
        }
        self.rows[..write].fill(0);
        self.find_tops();
        write as u32
    }

    /// `playrandomgame`: uniformly random pieces, each dropped by a uniformly random move
    /// of its `possibilities`, until `endofgame()`. Returns (rows cleared, pieces placed).
    pub fn play_random(&mut self, table: &MoveTable, kinds: u32, rng: &mut SeededRng) -> (u64, u64) {
        let (mut rows, mut pieces) = (0u64, 0u64);
        while !self.ended() {
            let kind = table.kind(rng.below(kinds) as usize);
            let mv = kind.moves[rng.below(kind.moves.len() as u32) as usize];
            rows += u64::from(self.drop(&kind.shapes[usize::from(mv.shape)], usize::from(mv.column)));
            pieces += 1;
        }
        (rows, pieces)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tetrad_plugin_api::{Board, PieceSet};

    const I: usize = 0;
    const O: usize = 1;

    fn sim(width: usize, height: usize, text: &str) -> Sim {
        Sim::new(Board::from_text(width, height, text).rows(), width)
    }

    #[test]
    fn drops_clear_rows_and_move_the_rest_down() {
        // 4x6:  row 4 #...  / row 5 ##.#. A vertical I in column 2 lands on the floor
        // (rows 2-5), fills row 5 and clears it; rows 2-4 move down one.
        let table = MoveTable::new(&PieceSet::tetrominoes(), 4);
        let mut s = sim(4, 6, "#...\n##.#");
        let vertical = &table.kind(I).shapes[1];
        assert_eq!(s.drop(vertical, 2), 1);
        assert_eq!(s.rows(), &[0, 0, 0, 0b0100, 0b0100, 0b0101]);
        assert!(!s.ended());
        assert_eq!(s, sim(4, 6, "..#.\n..#.\n#.#."), "surfaces follow the rows");
    }

    #[test]
    fn a_cell_in_row_two_ends_the_game() {
        let table = MoveTable::new(&PieceSet::tetrominoes(), 4);
        let mut s = sim(4, 6, "#...\n#...\n#...");
        let o = &table.kind(O).shapes[0];
        // Column 0's surface is row 3: the O stops at rows 1-2.
        assert_eq!(s.drop(o, 0), 0);
        assert_eq!(&s.rows()[1..3], &[0b11, 0b11]);
        assert!(s.ended());
    }

    #[test]
    fn a_vertical_i_that_cannot_fall_stays_where_letitfall_starts_it() {
        // Row 3 is filled in column 0: the I starts on rows 0-3 there and cannot move.
        let table = MoveTable::new(&PieceSet::tetrominoes(), 4);
        let mut s = sim(4, 7, "#...\n#...\n#...\n#...");
        assert_eq!(s.drop(&table.kind(I).shapes[1], 0), 0);
        assert_eq!(&s.rows()[..4], &[1, 1, 1, 1]);
        assert!(s.ended());
    }

    #[test]
    fn the_top_row_is_never_cleared() {
        // Column 0 filled on rows 1-5 of a 4x6 board: a horizontal I stops on row 0 and
        // fills it, but the skeleton's clearrows starts at h-2 (our row 1) and leaves it.
        let table = MoveTable::new(&PieceSet::tetrominoes(), 4);
        let mut s = sim(4, 6, "#...\n#...\n#...\n#...\n#...");
        assert_eq!(s.drop(&table.kind(I).shapes[0], 0), 0);
        assert_eq!(s.rows()[0], 0b1111);
    }

    #[test]
    fn random_games_end_and_are_reproducible() {
        let set = PieceSet::tetrominoes();
        let table = MoveTable::new(&set, 10);
        let play = |seed| {
            let mut s = Sim::new(&[0; 10], 10);
            let result = s.play_random(&table, 7, &mut SeededRng::new(seed));
            assert!(s.ended());
            result
        };
        assert_eq!(play(3), play(3));
        let mean: f64 = (0..2000).map(|seed| play(seed).1 as f64).sum::<f64>() / 2000.0;
        // Seed 003's Table 1 has about 6 pieces for random play on 10x10.
        assert!((5.0..8.0).contains(&mean), "{mean}");
    }
}

//! Per-orientation constants the search reads at every node: extent, square masks by row
//! and by column, and the depth offsets of F1-F3, copied out of the shared model once per
//! game so the inner loops need no calls across crates.

use crate::features::DepthShape;
use tetrad_plugin_api::{Orientation, PieceKind, MAX_PIECE_SIZE};

/// One orientation of a piece, as the search needs it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Shape {
    /// Column offset of the leftmost square from the piece position.
    pub left: i8,
    /// Row offset of the topmost square.
    pub top: i8,
    /// Columns spanned.
    pub width: u8,
    /// Rows spanned.
    pub height: u8,
    /// Row `i` of the squares, bit 0 = leftmost column.
    pub rows: [u32; MAX_PIECE_SIZE],
    /// Column `dx` of the squares, bit 0 = topmost row.
    pub columns: [u64; MAX_PIECE_SIZE],
    /// How many squares column `dx` holds.
    pub column_cells: [u32; MAX_PIECE_SIZE],
    /// The squares of column `dx` with no square of the piece directly below them: the
    /// ones that meet the stack first when the piece falls.
    pub bottoms: [u64; MAX_PIECE_SIZE],
    /// F1-F3 offsets.
    pub depths: DepthShape,
}

impl Shape {
    /// The constants of `orientation`.
    pub fn new(orientation: &Orientation) -> Shape {
        let mut rows = [0u32; MAX_PIECE_SIZE];
        rows[..orientation.row_masks().len()].copy_from_slice(orientation.row_masks());
        let mut columns = [0u64; MAX_PIECE_SIZE];
        for &(x, y) in orientation.cells() {
            columns[(x - orientation.left()) as usize] |= 1 << (y - orientation.top());
        }
        let column_cells = columns.map(|c| c.count_ones());
        let bottoms = columns.map(|c| c & !(c >> 1));
        Shape {
            left: orientation.left(),
            top: orientation.top(),
            width: orientation.width(),
            height: orientation.height(),
            rows,
            columns,
            column_cells,
            bottoms,
            depths: DepthShape::new(orientation),
        }
    }

    /// Every orientation of `kind`, in order.
    pub fn all(kind: &PieceKind) -> Vec<Shape> {
        kind.orientations().iter().map(Shape::new).collect()
    }

    /// Row (0 at the top) just below the piece's lowest square when its position row is `y`.
    #[inline]
    pub fn bottom(&self, y: i8) -> i32 {
        i32::from(y) + i32::from(self.top) + i32::from(self.height)
    }

    /// Whether the piece at `(x, y)` lies inside the walls and floor (the sky above row 0
    /// is inside) and overlaps no filled square of `rows`, a board `width` wide; exactly
    /// the shared `Board::fits`.
    #[inline]
    pub fn fits(&self, rows: &[u32], width: i32, x: i8, y: i8) -> bool {
        let left = i32::from(x) + i32::from(self.left);
        if left < 0 || left + i32::from(self.width) > width {
            return false;
        }
        let top = i32::from(y) + i32::from(self.top);
        if top + i32::from(self.height) > rows.len() as i32 {
            return false;
        }
        self.rows[..usize::from(self.height)]
            .iter()
            .enumerate()
            .all(|(i, &mask)| {
                let row = top + i as i32;
                row < 0 || rows[row as usize] & (mask << left) == 0
            })
    }

    /// How far the piece at `(x, y)`, where it fits, falls before it rests, on a board
    /// given by its columns (bit y of `cols[x]` = square (x, y)) `height` rows high: the
    /// fewest empty squares below any of its bottom squares.
    #[inline]
    pub fn fall(&self, cols: &[u64], height: i32, x: i8, y: i8) -> i8 {
        let left = (i32::from(x) + i32::from(self.left)) as usize;
        let top = i32::from(y) + i32::from(self.top);
        let mut fall = height;
        for (dx, &bottoms) in self.bottoms[..usize::from(self.width)].iter().enumerate() {
            let col = cols[left + dx];
            let mut bits = bottoms;
            while bits != 0 {
                let row = top + bits.trailing_zeros() as i32;
                bits &= bits - 1;
                fall = fall.min(first_filled(col, row + 1, height) - row - 1);
            }
        }
        fall as i8
    }
}

/// The first filled row at or below `row` in a column (bit y = row y), or `height` (the
/// floor) if there is none; rows above row 0 are sky.
#[inline]
fn first_filled(col: u64, row: i32, height: i32) -> i32 {
    let row = row.max(0);
    if row >= 64 {
        return height;
    }
    let below = col >> row;
    if below == 0 {
        height
    } else {
        below.trailing_zeros() as i32 + row
    }
}

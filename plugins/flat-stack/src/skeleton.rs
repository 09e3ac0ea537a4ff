//! The Kosters skeleton's pieces and move numbering, mapped onto the engine's orientations.
//!
//! Seed 003 played on the Leiden course skeleton, whose `letitfall` places each piece by
//! a hard-coded table of cells (transcribed in [`LETITFALL`]) and whose `computeorandpos`
//! numbers the moves of a piece orientation-major: all positions (leftmost column, left to
//! right) of orientation 0, then of orientation 1, and so on. The skeleton's orientation
//! order is not the engine's: for T, J and L the skeleton's orientations 0, 1, 2, 3 are the
//! engine's 2, 1, 0, 3 (the skeleton starts with the flat side up). [`MoveTable`] finds
//! that mapping by matching shapes, so the move numbers here are the skeleton's own, and
//! "the first of equal scores" means what it meant in the paper.
//!
//! A piece set that is not the seven tetrominoes keeps the engine's orientation order.
//!
//! The `monte-carlo` plugin compiles this file and `route.rs` as its own modules, so both
//! agents number and reach moves identically without linking one plugin library into the
//! other.

use tetrad_plugin_api::{Orientation, PieceSet, MAX_PIECE_SIZE};

/// The four cells of one orientation in `letitfall`: (column offset from `position`,
/// rows below the top row), the appendix's `x = position + dx`, `y = h-1-dy`.
pub type Cells = [(i8, i8); 4];

/// The cells `letitfall` drops, per skeleton piece (its name there) and orientation.
pub const LETITFALL: [(&str, &[Cells]); 7] = [
    ("Sq", &[[(0, 1), (0, 0), (1, 1), (1, 0)]]),
    (
        "LG",
        &[
            [(2, 1), (2, 0), (1, 0), (0, 0)],
            [(0, 2), (0, 1), (0, 0), (1, 0)],
            [(0, 1), (1, 1), (2, 1), (0, 0)],
            [(0, 2), (1, 0), (1, 1), (1, 2)],
        ],
    ),
    (
        "RG",
        &[
            [(0, 1), (2, 0), (1, 0), (0, 0)],
            [(0, 2), (0, 1), (0, 0), (1, 2)],
            [(0, 1), (1, 1), (2, 1), (2, 0)],
            [(1, 2), (1, 0), (1, 1), (0, 0)],
        ],
    ),
    (
        "LS",
        &[[(1, 1), (1, 0), (2, 1), (0, 0)], [(0, 2), (0, 1), (1, 0), (1, 1)]],
    ),
    (
        "RS",
        &[[(1, 1), (1, 0), (2, 0), (0, 1)], [(1, 2), (0, 1), (1, 1), (0, 0)]],
    ),
    (
        "I",
        &[[(0, 0), (1, 0), (2, 0), (3, 0)], [(0, 3), (0, 2), (0, 1), (0, 0)]],
    ),
    (
        "T",
        &[
            [(1, 1), (0, 0), (1, 0), (2, 0)],
            [(0, 2), (0, 1), (0, 0), (1, 1)],
            [(0, 1), (1, 1), (2, 1), (1, 0)],
            [(1, 2), (1, 1), (1, 0), (0, 1)],
        ],
    ),
];

/// One orientation as the evaluators need it: row and column masks and per-column extent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    /// The engine's orientation index.
    pub orientation: u8,
    /// The orientation's `left()`: the box x of a move is its column minus this.
    pub left: i8,
    /// Columns the cells span.
    pub width: u8,
    /// Rows the cells span.
    pub height: u8,
    /// Row `i` from the shape's top, bit 0 being its leftmost column.
    pub rows: [u32; MAX_PIECE_SIZE],
    /// Column `j` from the shape's left, bit 0 being its top row.
    pub cols: [u32; MAX_PIECE_SIZE],
    /// Lowest cell of column `j`, in rows below the shape's top.
    pub bottom: [u8; MAX_PIECE_SIZE],
    /// Highest cell of column `j`, in rows below the shape's top.
    pub top: [u8; MAX_PIECE_SIZE],
    /// Minus the sum over columns of (highest cell + cells): what closed spaces change
    /// by when the shape lands with its top on row 0 (see `eval`), wrapping.
    pub closed_offset: u32,
}

impl Shape {
    /// The profile of an engine orientation.
    pub fn new(index: u8, orientation: &Orientation) -> Shape {
        let mut shape = Shape {
            orientation: index,
            left: orientation.left(),
            width: orientation.width(),
            height: orientation.height(),
            rows: [0; MAX_PIECE_SIZE],
            cols: [0; MAX_PIECE_SIZE],
            bottom: [0; MAX_PIECE_SIZE],
            top: [0; MAX_PIECE_SIZE],
            closed_offset: 0,
        };
        for (i, &mask) in orientation.row_masks().iter().enumerate() {
            shape.rows[i] = mask;
            for j in 0..usize::from(shape.width) {
                if mask >> j & 1 == 1 {
                    shape.cols[j] |= 1 << i;
                }
            }
        }
        for j in 0..usize::from(shape.width) {
            shape.top[j] = shape.cols[j].trailing_zeros() as u8;
            shape.bottom[j] = (31 - shape.cols[j].leading_zeros()) as u8;
            let own = u32::from(shape.top[j]) + shape.cols[j].count_ones();
            shape.closed_offset = shape.closed_offset.wrapping_sub(own);
        }
        shape
    }
}

/// A move: which shape of the kind, dropped with its leftmost cell in which column.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Move {
    /// Index into [`KindMoves::shapes`].
    pub shape: u8,
    /// The skeleton's `position`: the column of the shape's leftmost cells.
    pub column: u8,
}

/// Every move of one piece kind, numbered as the skeleton numbers them.
#[derive(Clone, Debug)]
pub struct KindMoves {
    /// The kind's orientations in the skeleton's order.
    pub shapes: Vec<Shape>,
    /// The moves; index `n` is the skeleton's move `n` (`possibilities` of them).
    pub moves: Vec<Move>,
}

/// The moves of every kind in a piece set, for one board width.
#[derive(Clone, Debug)]
pub struct MoveTable {
    kinds: Vec<KindMoves>,
}

impl MoveTable {
    /// Numbers the moves of every kind of `pieces` on a board `width` wide.
    pub fn new(pieces: &PieceSet, width: usize) -> MoveTable {
        let kinds = pieces
            .kinds()
            .iter()
            .map(|kind| {
                let order = skeleton_order(kind.orientations())
                    .unwrap_or_else(|| (0..kind.orientations().len() as u8).collect());
                let shapes: Vec<Shape> = order.iter().map(|&o| Shape::new(o, kind.orientation(o))).collect();
                let mut moves = Vec::new();
                for (index, shape) in shapes.iter().enumerate() {
                    for column in 0..=width.saturating_sub(usize::from(shape.width)) {
                        moves.push(Move {
                            shape: index as u8,
                            column: column as u8,
                        });
                    }
                }
                KindMoves { shapes, moves }
            })
            .collect();
        MoveTable { kinds }
    }

    /// The moves of kind `index`.
    pub fn kind(&self, index: usize) -> &KindMoves {
        &self.kinds[index]
    }
}

fn normalized(cells: impl Iterator<Item = (i8, i8)>) -> Vec<(i8, i8)> {
    let cells: Vec<(i8, i8)> = cells.collect();
    let left = cells.iter().map(|c| c.0).min().unwrap_or(0);
    let top = cells.iter().map(|c| c.1).min().unwrap_or(0);
    let mut out: Vec<(i8, i8)> = cells.iter().map(|&(x, y)| (x - left, y - top)).collect();
    out.sort_unstable();
    out
}

/// The engine orientations in the skeleton's order, if these orientations are exactly
/// one of the skeleton's pieces.
fn skeleton_order(orientations: &[Orientation]) -> Option<Vec<u8>> {
    let engine: Vec<Vec<(i8, i8)>> = orientations
        .iter()
        .map(|o| normalized(o.cells().iter().copied()))
        .collect();
    LETITFALL.iter().find_map(|(_, skeleton)| {
        if skeleton.len() != engine.len() {
            return None;
        }
        skeleton
            .iter()
            .map(|cells| {
                let shape = normalized(cells.iter().copied());
                engine.iter().position(|e| *e == shape).map(|i| i as u8)
            })
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_are_the_skeletons_possibilities() {
        // possibilities(): w-1 for Sq, 2w-3 for LS/RS/I, 4w-6 for T/LG/RG.
        let set = PieceSet::tetrominoes();
        for w in [4usize, 10, 15, 20] {
            let table = MoveTable::new(&set, w);
            let counts: Vec<usize> = (0..7).map(|k| table.kind(k).moves.len()).collect();
            assert_eq!(
                counts,
                vec![2 * w - 3, w - 1, 4 * w - 6, 2 * w - 3, 2 * w - 3, 4 * w - 6, 4 * w - 6]
            );
        }
    }

    #[test]
    fn skeleton_orientations_map_onto_the_engine() {
        // Engine order: I O T S Z J L. T, J (= LG) and L (= RG) start flat side up in the
        // skeleton, so its orientations 0..3 are the engine's 2, 1, 0, 3. S is RS, Z is LS.
        let set = PieceSet::tetrominoes();
        let table = MoveTable::new(&set, 10);
        let order = |k: usize| -> Vec<u8> { table.kind(k).shapes.iter().map(|s| s.orientation).collect() };
        assert_eq!(order(0), vec![0, 1]);
        assert_eq!(order(1), vec![0]);
        for k in [2, 5, 6] {
            assert_eq!(order(k), vec![2, 1, 0, 3], "kind {k}");
        }
        assert_eq!(order(3), vec![0, 1]);
        assert_eq!(order(4), vec![0, 1]);
    }

    #[test]
    fn move_seven_of_a_left_gun_is_orientation_zero_column_seven() {
        // The skeleton's own example: move 7 of 34 for LG on a width-10 board is
        // orientation 0 starting in column 7; move 8 is orientation 1 at column 0.
        let set = PieceSet::tetrominoes();
        let table = MoveTable::new(&set, 10);
        let j = table.kind(5);
        assert_eq!(j.moves[7], Move { shape: 0, column: 7 });
        assert_eq!(j.moves[8], Move { shape: 1, column: 0 });
        // LG orientation 0 is XXX over ..X: top row full, one cell under the right end.
        assert_eq!(&j.shapes[0].rows[..2], &[0b111, 0b100]);
        assert_eq!(&j.shapes[0].bottom[..3], &[0, 0, 1]);
    }

    #[test]
    fn shape_profiles_are_column_masks_with_extents() {
        let set = PieceSet::tetrominoes();
        let table = MoveTable::new(&set, 10);
        let vertical_i = &table.kind(0).shapes[1];
        assert_eq!((vertical_i.width, vertical_i.height, vertical_i.left), (1, 4, 2));
        assert_eq!(
            (vertical_i.cols[0], vertical_i.top[0], vertical_i.bottom[0]),
            (0b1111, 0, 3)
        );
    }
}

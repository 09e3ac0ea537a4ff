//! The eight features of the Dellacherie and BCTS controllers, as the MdpTetris simulator
//! defines them, computed on the row bit masks (row 0 at the top).
//!
//! - landing height: the row of the piece's lowest cell counted from 0 at the floor, plus
//!   (piece height - 1) / 2: the height of the piece's middle;
//! - eroded cells: rows cleared x cells of this piece in them;
//! - row transitions: filled/empty changes along each row, both walls counting as
//!   filled, so an empty row counts 2;
//! - column transitions: filled/empty changes up each column, the floor filled and the
//!   space above the board empty;
//! - holes: empty cells with a filled cell above them in their column;
//! - cumulative wells: for every well cell (empty, both neighbours filled or a wall),
//!   1 plus the empty cells directly below it, which sums 1 + 2 + ... + d for a well of
//!   depth d;
//! - hole depth: the filled cells that have a hole anywhere below them in their column,
//!   each counted once (a cell above two holes counts 1);
//! - rows with holes: rows holding at least one hole.
//!
//! Six surface features may follow (see `surface`).

use crate::surface::{Surface, SURFACE};
use tetrad_plugin_api::Board;

/// Number of features.
pub const COUNT: usize = 8;

/// Names, in weight order.
pub const NAMES: [&str; COUNT] = [
    "landing_height",
    "eroded_cells",
    "row_transitions",
    "column_transitions",
    "holes",
    "cumulative_wells",
    "hole_depth",
    "rows_with_holes",
];

/// What the placement itself contributes: where the piece landed and what it cleared.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Landing {
    /// Row of the piece's lowest cell, from 0 at the floor.
    pub bottom: u32,
    /// Rows the piece spans.
    pub piece_height: u32,
    /// Rows cleared.
    pub lines: u32,
    /// Cells of the piece inside the cleared rows.
    pub piece_cells_cleared: u32,
}

/// All eight features from the board's share and the landing.
#[inline]
pub fn combine(board: &BoardFeatures, landing: &Landing) -> [f64; COUNT] {
    let mut features = [0.0; COUNT];
    features[0] = f64::from(landing.bottom) + f64::from(landing.piece_height - 1) / 2.0;
    for (feature, whole) in features[1..].iter_mut().zip(whole_features(board, landing)) {
        *feature = f64::from(whole);
    }
    features
}

/// The features after the landing height, all whole numbers, in weight order.
#[inline(always)]
fn whole_features(board: &BoardFeatures, landing: &Landing) -> [u32; COUNT - 1] {
    [
        landing.lines * landing.piece_cells_cleared,
        board.row_transitions,
        board.column_transitions,
        board.holes,
        board.cumulative_wells,
        board.hole_depth,
        board.rows_with_holes,
    ]
}

/// The weighted sum of the features, added in feature order: one function, so every
/// placement's value is rounded the same way wherever it is computed.
#[inline(always)]
pub fn value(f: &[f64; COUNT], w: &[f64; COUNT]) -> f64 {
    f[0] * w[0] + f[1] * w[1] + f[2] * w[2] + f[3] * w[3] + f[4] * w[4] + f[5] * w[5] + f[6] * w[6] + f[7] * w[7]
}

/// Weights as the controller applies them: [`value`]'s sum in floating point, or, when
/// every weight is a whole number (Dellacherie's), the same sum in integers.
///
/// Why the integer sum is the same number: the features are whole numbers except the
/// landing height, a multiple of 1/2, so with whole weights every partial sum of
/// [`value`] is a small multiple of 1/2, which a double holds exactly; no addition
/// rounds, and the result is the exact sum, which the integers compute too. (The one
/// difference is the sign of a zero sum, which no comparison sees.) Integer adds do not
/// wait for one another as the chain of floating-point adds does.
#[derive(Clone, Debug, PartialEq)]
pub struct Weights {
    real: [f64; COUNT],
    /// Each weight doubled, when all are whole (the landing height is counted in halves).
    whole: Option<[i64; COUNT]>,
    /// The surface features' weights, when any is not zero.
    surface: Option<Surface>,
}

impl Weights {
    /// Largest whole weight taken by the integer sum: far below where doubles round.
    const WHOLE_LIMIT: f64 = (1u64 << 20) as f64;

    /// The controller's weights.
    pub fn new(real: [f64; COUNT]) -> Weights {
        let is_whole = |w: f64| w.fract() == 0.0 && w.abs() <= Weights::WHOLE_LIMIT;
        let whole = real.iter().all(|&w| is_whole(w)).then(|| real.map(|w| w as i64));
        Weights {
            real,
            whole,
            surface: None,
        }
    }

    /// These weights with the surface features weighted too, on a board `width` x `rows`
    /// (none of them when every surface weight is zero).
    pub fn with_surface(self, surface: [f64; SURFACE], width: usize, rows: u32) -> Weights {
        Weights {
            surface: Surface::new(surface, width, rows),
            ..self
        }
    }

    /// The surface features' weights, when any carries weight: then every placement's
    /// value needs the column heights after it.
    #[inline(always)]
    pub fn surface(&self) -> Option<&Surface> {
        self.surface.as_ref()
    }

    /// The weights as given.
    pub fn real(&self) -> &[f64; COUNT] {
        &self.real
    }

    /// The weights as integers, when all are whole: values are then summed exactly.
    #[inline(always)]
    pub(crate) fn whole(&self) -> Option<&[i64; COUNT]> {
        self.whole.as_ref()
    }

    /// Whether hole depth or rows with holes carry weight (BCTS's do, Dellacherie's not).
    #[inline]
    pub fn detail(&self) -> bool {
        self.real[6] != 0.0 || self.real[7] != 0.0
    }

    /// The placement's value: the weighted sum of its features (see [`value`]).
    #[inline(always)]
    pub fn value(&self, board: &BoardFeatures, landing: &Landing) -> f64 {
        let Some(w) = &self.whole else {
            return value(&combine(board, landing), &self.real);
        };
        // Twice the value: the landing height in halves, every other feature doubled.
        let halves = i64::from(2 * landing.bottom + landing.piece_height - 1);
        let rest = whole_features(board, landing);
        let sum: i64 = rest.iter().zip(&w[1..]).map(|(&f, w)| i64::from(f) * w).sum();
        (w[0] * halves + 2 * sum) as f64 / 2.0
    }
}

/// The board's share of the features.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BoardFeatures {
    /// Row transitions.
    pub row_transitions: u32,
    /// Column transitions.
    pub column_transitions: u32,
    /// Holes.
    pub holes: u32,
    /// Cumulative wells.
    pub cumulative_wells: u32,
    /// Hole depth.
    pub hole_depth: u32,
    /// Rows with holes.
    pub rows_with_holes: u32,
}

/// Computes the board features in one pass from the top row down.
pub fn board_features(board: &Board) -> BoardFeatures {
    board_features_of::<true>(board)
}

/// [`board_features`], leaving hole depth and rows with holes at 0 without `DETAIL` (and
/// skipping the column counters that hole depth needs).
pub fn board_features_of<const DETAIL: bool>(board: &Board) -> BoardFeatures {
    let width = board.width() as u32;
    let full = board.full_row();
    let rows = board.rows();
    let mut f = BoardFeatures::default();
    // Bit-sliced counters, per column, of the filled cells seen since its last hole (or
    // the top): the cells a hole found below them adds to the hole depth (up to 63).
    let mut pending = [0u32; 6];
    let mut covered = 0u32;
    let mut previous = 0u32; // the space above the board is empty
                             // Rows above the stack are empty: 2 row transitions each and nothing else.
    let surface = board.surface();
    f.row_transitions = 2 * surface as u32;
    for (y, &row) in rows.iter().enumerate().skip(surface) {
        // Walls as filled cells at bit -1 and bit `width`.
        let walled = (u64::from(row) << 1) | 1 | (1u64 << (width + 1));
        f.row_transitions += ((walled ^ (walled >> 1)) & ((1u64 << (width + 1)) - 1)).count_ones();
        f.column_transitions += (row ^ previous).count_ones();
        let holes = covered & !row & full;
        f.holes += holes.count_ones();
        if DETAIL && holes != 0 {
            f.rows_with_holes += 1;
            // The cells since each column's last hole have a hole below them now: counted
            // once, and their counters cleared.
            for (bit, plane) in pending.iter_mut().enumerate() {
                f.hole_depth += (*plane & holes).count_ones() << bit;
                *plane &= !holes;
            }
        }
        // Well cells: empty with both neighbours filled (walls filled).
        let left = (row << 1) | 1;
        let right = (row >> 1) | (1 << (width - 1));
        let wells = !row & left & right & full;
        let mut cells = wells;
        while cells != 0 {
            let x = cells.trailing_zeros();
            cells &= cells - 1;
            f.cumulative_wells += 1 + empty_below(rows, y, x);
        }
        // Add this row's cells to the column counters (ripple-carry over the planes).
        if DETAIL {
            let mut carry = row;
            for plane in pending.iter_mut() {
                let next = *plane & carry;
                *plane ^= carry;
                carry = next;
            }
        }
        covered |= row;
        previous = row;
    }
    // The floor is filled: an empty cell on the bottom row is a transition.
    f.column_transitions += (!previous & full).count_ones();
    f
}

/// Empty cells directly below (x, y), down to the first filled cell or the floor.
fn empty_below(rows: &[u32], y: usize, x: u32) -> u32 {
    rows[y + 1..].iter().take_while(|&&r| r >> x & 1 == 0).count() as u32
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// With whole weights the integer sum is the floating-point sum (as numbers: a
        /// zero may differ in sign); other weights take the floating-point sum itself.
        #[test]
        fn whole_weights_sum_to_the_same_value(
            board in any::<[u16; 6]>(),
            landing in (0u32..=63, 1u32..=8, 0u32..=8, 0u32..=8),
            whole in any::<[i16; COUNT]>(),
            fraction in -100.0f64..100.0,
        ) {
            let board = BoardFeatures {
                row_transitions: u32::from(board[0]),
                column_transitions: u32::from(board[1]),
                holes: u32::from(board[2]),
                cumulative_wells: u32::from(board[3]),
                hole_depth: u32::from(board[4]),
                rows_with_holes: u32::from(board[5]),
            };
            let (bottom, piece_height, lines, piece_cells_cleared) = landing;
            let landing = Landing { bottom, piece_height, lines, piece_cells_cleared };
            let whole = whole.map(f64::from);
            let exact = Weights::new(whole);
            prop_assert!(exact.whole.is_some());
            prop_assert_eq!(exact.value(&board, &landing), value(&combine(&board, &landing), &whole));
            let mut real = whole;
            real[3] += 0.25 + fraction.fract().abs() / 2.0;
            let real = Weights::new(real);
            prop_assert!(real.whole.is_none());
            prop_assert_eq!(real.value(&board, &landing).to_bits(), value(&combine(&board, &landing), real.real()).to_bits());
        }
    }

    proptest! {
        /// Without the detail, the full pass gives the same features with hole depth and
        /// rows with holes at 0.
        #[test]
        fn features_without_detail_are_the_rest_of_the_full_pass(
            rows in proptest::collection::vec(any::<u16>(), 20),
            stack in 0usize..=20,
        ) {
            let board = crate::tests::stacked_board(10, &rows, stack);
            let full = board_features(&board);
            prop_assert_eq!(board_features_of::<false>(&board), BoardFeatures { hole_depth: 0, rows_with_holes: 0, ..full });
        }
    }

    #[test]
    fn dellacherie_weights_are_whole_and_bcts_weights_are_not() {
        assert!(Weights::new(crate::DELLACHERIE).whole.is_some());
        assert!(Weights::new(crate::BCTS).whole.is_none());
    }

    #[test]
    fn each_board_feature_on_a_board_drawn_by_hand() {
        // 5 wide, 5 high:
        //   row 0  .....
        //   row 1  .#...
        //   row 2  .#..#
        //   row 3  ##.##
        //   row 4  #.###
        let board = Board::from_text(5, 5, ".....\n.#...\n.#..#\n##.##\n#.###");
        let f = board_features(&board);
        // Row transitions (walls filled): row 0 |.....| 2; row 1 |.#...| 4; row 2
        // |.#..#| 4 (wall-empty, empty-filled, filled-empty, empty-filled; filled-wall 0);
        // row 3 |##.##| 2; row 4 |#.###| 2. Total 14.
        assert_eq!(f.row_transitions, 14);
        // Column transitions, top (empty above) to floor (filled): col 0: rows 3-4 filled:
        // 1 change at row 3, floor 0 -> 1. col 1: filled rows 1-3, row 4 empty: change at
        // row 1, at row 4, and row 4 empty -> floor: 3. col 2: empty to row 3, row 4
        // filled: 1. col 3: rows 3-4 filled: 1. col 4: rows 2-4 filled: 1. Total 7.
        assert_eq!(f.column_transitions, 7);
        // Holes: (1, 4) under column 1's cells. One hole, in one row, under 3 cells.
        assert_eq!((f.holes, f.rows_with_holes, f.hole_depth), (1, 1, 3));
        // Wells: row 0 none; row 1: (0,1)? left wall, right (1,1) filled: a well cell,
        // empty below it: (0,2) only, then (0,3) filled: 1 + 1 = 2. Row 2: (0,2) wall and
        // (1,2) filled: 1 + 0 = 1. (2,2): left (1,2) filled, right (3,2) empty: no.
        // (3,2): left (2,2) empty: no. Row 3: (2,3): both neighbours filled: 1 + 0
        // (row 4 col 2 filled) = 1. Row 4: (1,4): both filled: 1. Total 2 + 1 + 1 + 1 = 5.
        assert_eq!(f.cumulative_wells, 5);
    }

    #[test]
    fn landing_height_and_eroded_cells() {
        let landing = Landing {
            bottom: 0,
            piece_height: 2,
            lines: 1,
            piece_cells_cleared: 3,
        };
        let f = combine(&board_features(&Board::new(10, 20)), &landing);
        assert_eq!(f[0], 0.5, "bottom row 0, two rows tall: middle at 0.5");
        assert_eq!(f[1], 3.0, "one line with three of the piece's cells");
        // An empty board: 20 rows of 2 row transitions; 10 columns of 1 (floor).
        assert_eq!((f[2], f[3]), (40.0, 10.0));
        // Every cell of the bottom row... an empty board has no wells: both walls are
        // filled but the neighbours inside are empty (10 wide).
        assert_eq!(f[5], 0.0);
    }

    #[test]
    fn hole_depth_counts_every_filled_cell_above() {
        // Column 0: 5 filled cells above a hole; bit-sliced counters past 4 bits.
        let board = Board::from_text(3, 7, "#..\n#..\n#..\n#..\n#..\n.#.\n###");
        let f = board_features(&board);
        assert_eq!((f.holes, f.hole_depth), (1, 5));
    }

    #[test]
    fn hole_depth_counts_each_cell_above_a_hole_once() {
        // Column 0, top down: 2 cells, a hole, 1 cell, 3 holes to the floor: its 3 cells
        // have a hole below them, 3, where summing per hole gave 2 + 3 x 3 = 11. Column
        // 2: one cell on one hole, 1. Column 1 has no hole.
        let board = Board::from_text(3, 7, "#..\n#..\n...\n#.#\n...\n.##\n.##");
        let f = board_features(&board);
        assert_eq!((f.holes, f.rows_with_holes, f.hole_depth), (5, 4, 4));
    }
}

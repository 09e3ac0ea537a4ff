//! The pieces of the columns' bookkeeping that know one column at a time: a column's
//! share of the features, its cumulative wells, and a piece's orientation by columns.

use tetrad_plugin_api::MAX_PIECE_SIZE;

/// One column's share of the features.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Column {
    pub(super) transitions: u32,
    pub(super) holes: u32,
    pub(super) hole_depth: u32,
    /// The rows where this column has a hole.
    pub(super) hole_rows: u64,
}

/// One orientation of a piece by columns, with what the surface shortcut needs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PieceColumns {
    /// Columns of the bounding box.
    pub width: usize,
    /// For each column, left to right, bit `i` set when row `i` of the box (from its top)
    /// holds a cell.
    pub cells: [u64; MAX_PIECE_SIZE],
    /// Cells in each column.
    pub(super) count: [u32; MAX_PIECE_SIZE],
    /// Whether each column's cells are one vertical run.
    pub(super) solid: [bool; MAX_PIECE_SIZE],
    /// The box row of each column's lowest cell: where a drop meets the column's top.
    pub(super) lowest: [u32; MAX_PIECE_SIZE],
    /// `lowest` plus one, signed: a drop's box top rests that many rows above the top of
    /// the column (one subtraction a column, in the drops' hottest loop).
    pub(crate) depth: [i32; MAX_PIECE_SIZE],
    /// For each column, the rows below its lowest cell, from the box's top: shifted to
    /// the row of the box's top, where a drop's gap may be.
    pub(super) under: [u64; MAX_PIECE_SIZE],
    /// Horizontal runs of cells, summed over the rows: each can lower the row transitions
    /// of a board it is added to by at most 2 (its two ends).
    pub(crate) runs: u32,
    /// The box's rows that hold a cell: the only rows a drop of the piece can fill.
    pub(super) rows: u64,
    /// Whether every column's cells are one run ([`PieceColumns::solid`] all true) and no
    /// row has a one-cell gap between two runs (`ends_twice` all 0), as in every
    /// tetromino: a drop's floor features are then exact but for the row transitions and
    /// the wells, and `ends` alone knows the row transitions.
    pub(super) plain: bool,
    /// For each column from the one left of the box (index 0) to the one right of it,
    /// the box rows where that column's cell lies outside the piece beside an end of a
    /// horizontal run of it; `ends_twice`, where it lies between two runs (beside two
    /// ends). A drop changes the row transitions only at those cells (see
    /// `Columns::row_transitions_after`).
    pub(super) ends: [u64; MAX_PIECE_SIZE + 2],
    pub(super) ends_twice: [u64; MAX_PIECE_SIZE + 2],
}

impl PieceColumns {
    /// Whether the piece is plain (see the field): every tetromino is.
    #[inline(always)]
    pub fn is_plain(&self) -> bool {
        self.plain
    }

    /// The columns of an orientation given by its row masks (bit 0 the leftmost column).
    pub fn new(row_masks: &[u32], width: usize) -> PieceColumns {
        let mut piece = PieceColumns {
            width,
            ..PieceColumns::default()
        };
        for (i, &mask) in row_masks.iter().enumerate() {
            // A run starts at each cell whose left neighbour is empty.
            piece.runs += (mask & !(mask << 1)).count_ones();
            // Bit `k` the column left of the box's column `k`: the cells outside the row's
            // runs with one of them on their right, and on their left.
            let cells = u64::from(mask) << 1;
            let (left_of_run, right_of_run) = ((cells >> 1) & !cells, (cells << 1) & !cells);
            for (k, (ends, twice)) in piece.ends.iter_mut().zip(&mut piece.ends_twice).enumerate() {
                *ends |= ((left_of_run | right_of_run) >> k & 1) << i;
                *twice |= ((left_of_run & right_of_run) >> k & 1) << i;
            }
            for (j, column) in piece.cells.iter_mut().enumerate() {
                *column |= u64::from(mask >> j & 1) << i;
            }
        }
        for j in 0..MAX_PIECE_SIZE {
            let cells = piece.cells[j];
            piece.count[j] = cells.count_ones();
            // Every column of a connected piece's box holds a cell.
            piece.lowest[j] = 63u32.saturating_sub(cells.leading_zeros());
            piece.under[j] = (u64::MAX << piece.lowest[j]) << 1;
            piece.depth[j] = piece.lowest[j] as i32 + 1;
            // One run: shifted down to bit 0, the cells are a mask of ones.
            let run = cells.checked_shr(cells.trailing_zeros()).unwrap_or(0);
            piece.solid[j] = run != 0 && run & (run + 1) == 0;
            piece.rows |= cells;
        }
        piece.plain = piece.solid[..width.min(MAX_PIECE_SIZE)].iter().all(|&solid| solid)
            && piece.ends_twice.iter().all(|&twice| twice == 0);
        piece
    }
}

/// One column's terms. `rows` is the mask of the board's rows; `height` their number.
#[inline]
pub(super) fn column(cells: u64, rows: u64, height: u32) -> Column {
    // Changes down the column: the space above the board is empty, the floor filled.
    let floor = (!cells >> (height - 1)) & 1;
    let transitions = ((cells ^ (cells << 1)) & rows).count_ones() + floor as u32;
    if cells == 0 {
        return Column {
            transitions,
            ..Column::default()
        };
    }
    // Rows below the column's top cell.
    let below = (u64::MAX << cells.trailing_zeros()) << 1;
    let hole_rows = !cells & below & rows;
    // The cells above the lowest hole (whose row is the highest bit).
    let above_lowest = u64::MAX.checked_shr(hole_rows.leading_zeros()).unwrap_or(0);
    let hole_depth = (cells & above_lowest).count_ones();
    Column {
        transitions,
        holes: hole_rows.count_ones(),
        hole_depth,
        hole_rows,
    }
}

/// Cumulative wells of column `cells` between `left` and `right`: for every empty cell
/// whose neighbours are both filled, 1 plus the empty cells directly below it.
#[inline]
pub(super) fn wells(left: u64, cells: u64, right: u64, rows: u64, height: u32) -> u32 {
    let mut well = !cells & left & right & rows;
    let mut sum = 0;
    while well != 0 {
        let y = well.trailing_zeros();
        // Empty cells below y: up to the next filled cell, or the floor. (Two shifts,
        // because y + 1 may be 64.)
        let below = (cells >> y) >> 1;
        let run = below.trailing_zeros().min(height - 1 - y);
        sum += 1 + run;
        well &= well - 1;
    }
    sum
}

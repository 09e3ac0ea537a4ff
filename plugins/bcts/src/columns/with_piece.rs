//! The features of a board with one piece added that fills no row, from the columns the
//! piece covers and their neighbours (see the module note of `columns`).

use super::terms::column;
use super::{cells_after, Columns, PieceColumns, Slot, PAD, WINDOW};
use crate::features::BoardFeatures;

impl Columns {
    /// The features after adding `piece` at column `left`, top row `top` (of its box),
    /// when no row is full afterwards. Without `detail`, hole depth and rows with holes
    /// are left at 0, for controllers that give them no weight.
    #[inline]
    pub fn with_piece(&self, piece: &PieceColumns, left: usize, top: u32, detail: bool) -> BoardFeatures {
        if detail {
            self.with_piece_width::<true>(piece, left, top)
        } else {
            self.with_piece_width::<false>(piece, left, top)
        }
    }

    #[inline(always)]
    fn with_piece_width<const DETAIL: bool>(&self, piece: &PieceColumns, left: usize, top: u32) -> BoardFeatures {
        // A fixed width unrolls the loops and drops their bounds checks; pieces up to 4
        // wide (every tetromino) take one of these.
        match piece.width {
            1 => self.with_piece_of::<1, DETAIL>(piece, left, top),
            2 => self.with_piece_of::<2, DETAIL>(piece, left, top),
            3 => self.with_piece_of::<3, DETAIL>(piece, left, top),
            4 => self.with_piece_of::<4, DETAIL>(piece, left, top),
            5 => self.with_piece_of::<5, DETAIL>(piece, left, top),
            6 => self.with_piece_of::<6, DETAIL>(piece, left, top),
            7 => self.with_piece_of::<7, DETAIL>(piece, left, top),
            _ => self.with_piece_of::<8, DETAIL>(piece, left, top),
        }
    }

    /// [`Columns::with_piece`] for a piece `W` columns wide, with `DETAIL` for `detail`.
    #[inline(always)]
    fn with_piece_of<const W: usize, const DETAIL: bool>(
        &self,
        piece: &PieceColumns,
        left: usize,
        top: u32,
    ) -> BoardFeatures {
        let slots = self.window(left);
        let cells = cells_after::<W>(slots, piece, top);
        self.features_after::<W, DETAIL>(slots, &cells, piece, top)
    }

    /// The features after the piece whose box top is at row `top` turned the window's
    /// `slots` into `cells`, when no row is full: the board's totals with the piece's
    /// columns' terms and the pairs around them worked out again, and the cumulative wells
    /// of the piece's columns and of the columns beside them ([`Columns::add_wells`]).
    #[inline(always)]
    fn features_after<const W: usize, const DETAIL: bool>(
        &self,
        slots: &[Slot; WINDOW],
        cells: &[u64; WINDOW],
        piece: &PieceColumns,
        top: u32,
    ) -> BoardFeatures {
        let (rows, height) = (self.rows, self.height);
        let mut f = self.totals;
        let mut hole_rows = slots[PAD].before | slots[PAD + W].from;
        for j in 0..W {
            let new = cells[PAD + j];
            let term = &slots[PAD + j].term;
            // The old top row, or the floor's row for an empty column.
            let old_top = slots[PAD + j].top;
            let lowest_added = top + piece.lowest[j];
            if piece.solid[j] && lowest_added < old_top {
                // The surface shortcut (see the module note).
                let gap = old_top - lowest_added - 1;
                f.column_transitions += if gap > 0 { 2 } else { 0 };
                f.holes += gap;
                if DETAIL {
                    let gap_rows = (u64::MAX >> (64 - old_top)) & !(u64::MAX >> (63 - lowest_added));
                    if term.holes + gap > 0 {
                        f.hole_depth += piece.count[j];
                    }
                    hole_rows |= term.hole_rows | gap_rows;
                }
            } else {
                let now = column(new, rows, height);
                f.column_transitions = f.column_transitions - term.transitions + now.transitions;
                f.holes = f.holes - term.holes + now.holes;
                f.hole_depth = f.hole_depth - term.hole_depth + now.hole_depth;
                hole_rows |= now.hole_rows;
            }
        }
        if DETAIL {
            f.rows_with_holes = hole_rows.count_ones();
        } else {
            f.hole_depth = 0;
            f.rows_with_holes = 0;
        }
        // The pairs from (left - 1, left) to (left + W - 1, left + W), from the cells
        // already formed. (A drop, which rates most placements before forming its cells,
        // takes them from the ends of the piece's runs instead:
        // `Columns::row_transitions_after`; here that costs more.)
        for p in 0..=W {
            let now = ((cells[PAD - 1 + p] ^ cells[PAD + p]) & rows).count_ones();
            f.row_transitions = f.row_transitions - slots[PAD + p].pair + now;
        }
        // Only the piece's columns can lose wells (a column beside it only gains filled
        // neighbours): theirs out, then the wells after the piece in.
        for j in 0..W {
            f.cumulative_wells -= slots[PAD + j].wells;
        }
        self.add_wells::<W>(slots, cells, &mut f);
        f
    }
}

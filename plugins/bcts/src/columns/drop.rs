//! A drop straight down on the columns alone: where the piece lands on the column tops,
//! whether it fills a row, and the features after it (see the module note of `columns`).
//!
//! A drop rests on the tops, so in each column the piece covers, the empty cells between
//! its lowest cell and the old top (the column's gap) become holes, and a column with a
//! gap gains two transitions (into the piece, and out of it into the gap); a column
//! whose piece cells are one run changes in nothing else that those two features see.
//! So the holes and column transitions after a drop are known from the column tops
//! alone, before any cell is touched, and with the row transitions at their floor (each
//! horizontal run of the piece lowers them by at most 2) and the cumulative wells at
//! theirs (the board's less the piece's columns') they give a drop's value a ceiling
//! that costs a few additions: [`Columns::drop_bounded`] asks it first. The row
//! transitions are then made exact from the board's cells beside the ends of the piece's
//! horizontal runs alone, and the next ceiling asked, before the cells after the drop
//! (which only the wells need) are formed.

use super::terms::column;
use super::{cells_after, Columns, PieceColumns, Slot, PAD, WINDOW};
use crate::features::BoardFeatures;

/// Where a piece dropped into some columns lands, and what it leaves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dropped {
    /// A cell stays above the board: the game ends. `top` is negative.
    Over { top: i32 },
    /// Rows fill, so the features need the full pass.
    Clears { top: u32 },
    /// No row fills: the board's features after it.
    Open { top: u32, features: BoardFeatures },
}

impl Dropped {
    /// The row of the piece's box top.
    #[inline(always)]
    pub fn top(&self) -> i32 {
        match *self {
            Dropped::Over { top } => top,
            Dropped::Clears { top } | Dropped::Open { top, .. } => top as i32,
        }
    }
}

impl Columns {
    /// `piece`, `W` columns wide, dropped straight down into columns `left` on: where it
    /// lands on the column tops, and, unless it ends the game or fills a row, the features
    /// after it (without `DETAIL`, as [`Columns::with_piece`] leaves them). Rows that fill
    /// are found in the columns: a row fills when it is filled in every column outside
    /// the piece's and, after the drop, in each of the piece's.
    #[inline(always)]
    pub fn drop_of<const W: usize, const DETAIL: bool>(&self, piece: &PieceColumns, left: usize) -> Dropped {
        let dropped = self.drop_bounded::<W, DETAIL>(piece, left, |_| false, |_, _| false, |_, _| false);
        dropped.expect("a drop is left unrated only when asked")
    }

    /// [`Columns::drop_bounded`] with no test of the floor features.
    #[inline(always)]
    pub fn drop_unless<const W: usize, const DETAIL: bool>(
        &self,
        piece: &PieceColumns,
        left: usize,
        early: impl FnOnce(u32) -> bool,
        skip: impl FnOnce(u32, &BoardFeatures) -> bool,
    ) -> Option<Dropped> {
        self.drop_bounded::<W, DETAIL>(piece, left, early, |_, _| false, skip)
    }

    /// [`Columns::drop_of`], but a drop that fills no row is left unrated (`None`) when
    /// one of three tests says so, each given the row of its box's top: `landed`, before
    /// anything else is known; `early`, given its features at their floor (the holes,
    /// column transitions, hole depth and rows with holes exact for a piece whose
    /// columns are each one run, else at most the drop's own; the row transitions less
    /// two for each run of the piece; the cumulative wells less the piece's columns'),
    /// before any of its cells is read; `skip`, given its features with only the
    /// cumulative wells at their floor (see [`Columns::add_wells`]): the wells are the
    /// costliest feature.
    #[inline(always)]
    pub fn drop_bounded<const W: usize, const DETAIL: bool>(
        &self,
        piece: &PieceColumns,
        left: usize,
        landed: impl FnOnce(u32) -> bool,
        early: impl FnMut(u32, &BoardFeatures) -> bool,
        skip: impl FnOnce(u32, &BoardFeatures) -> bool,
    ) -> Option<Dropped> {
        if piece.plain {
            self.drop_bounded_as::<W, DETAIL, true, false>(piece, left, landed, early, skip)
        } else {
            self.drop_bounded_as::<W, DETAIL, false, false>(piece, left, landed, early, skip)
        }
    }

    /// [`Columns::drop_bounded`] for a piece that is [`PieceColumns::plain`] or not as
    /// `PLAIN` says (a loop over one orientation's drops asks once, not at every drop).
    /// With `STAGED` and `DETAIL`, `early` is asked twice: first with the hole depth and
    /// the rows with holes at the board's (a drop that fills no row only adds to both, so
    /// those are floors too), before the rows of the piece's gaps are read; then as
    /// without. That pays where most drops fall to the first (the two-piece follow-ups,
    /// whose cut is high), not in the one-piece search.
    #[inline(always)]
    pub fn drop_bounded_as<const W: usize, const DETAIL: bool, const PLAIN: bool, const STAGED: bool>(
        &self,
        piece: &PieceColumns,
        left: usize,
        landed: impl FnOnce(u32) -> bool,
        mut early: impl FnMut(u32, &BoardFeatures) -> bool,
        skip: impl FnOnce(u32, &BoardFeatures) -> bool,
    ) -> Option<Dropped> {
        debug_assert_eq!(piece.plain, PLAIN);
        let slots = self.window(left);
        // Each column's row the box's top would rest at: the piece rests on the lowest.
        let mut rests = [0i32; W];
        let (mut top, mut rest_sum, mut wells) = (i32::MAX, 0, 0);
        for j in 0..W {
            rests[j] = slots[PAD + j].top as i32 - piece.depth[j];
            top = top.min(rests[j]);
            rest_sum += rests[j];
            wells += slots[PAD + j].wells;
        }
        if top < 0 {
            return Some(Dropped::Over { top });
        }
        // A row fills where every column outside the piece's is filled and each of the
        // piece's is after it; only a row the piece has a cell in can, so the piece's
        // columns are read only when one of its rows is filled everywhere else (seldom on
        // the low stacks the published controllers keep: 300 instructions a piece fewer
        // with BCTS's weights, no more time).
        let outside = slots[PAD].filled_left & slots[PAD + W].filled_from;
        if outside & piece.rows << top != 0 {
            let mut full = outside;
            for j in 0..W {
                full &= slots[PAD + j].cells | piece.cells[j] << top;
            }
            if full != 0 {
                return Some(Dropped::Clears { top: top as u32 });
            }
        }
        if landed(top as u32) {
            return None;
        }
        // Column `j`'s gap is `rests[j] - top`: the holes gain their sum, the column
        // transitions two for each column whose gap is not empty.
        let mut resting = 0;
        for &rest in &rests {
            resting += u32::from(rest == top);
        }
        let mut floor = self.totals;
        floor.holes += (rest_sum - W as i32 * top) as u32;
        floor.column_transitions += 2 * (W as u32 - resting);
        floor.cumulative_wells -= wells;
        floor.row_transitions = floor.row_transitions.saturating_sub(2 * piece.runs);
        let top = top as u32;
        if DETAIL {
            if STAGED && early(top, &floor) {
                return None;
            }
            // The gaps' rows join the rows with holes, and a column with a hole under the
            // piece (an old one, or its gap) gains the piece's cells in its hole depth.
            // Without a branch on whether a column has a gap: which columns do is a coin
            // toss the processor mispredicts.
            let mut hole_rows = slots[PAD].before | slots[PAD].from;
            for j in 0..W {
                let slot = &slots[PAD + j];
                // The rows between the piece and the column's top: none without a gap.
                let gap = slot.above & piece.under[j] << top;
                hole_rows |= gap;
                floor.hole_depth += piece.count[j] * u32::from((gap != 0) | (slot.term.holes > 0));
            }
            floor.rows_with_holes = hole_rows.count_ones();
        } else {
            floor.hole_depth = 0;
            floor.rows_with_holes = 0;
        }
        if early(top, &floor) {
            return None;
        }
        // The row transitions made exact from the board's cells beside the piece's runs:
        // most drops are left unrated by `skip` before any cell after the drop is formed.
        let mut features = floor;
        features.row_transitions = self.row_transitions_after::<W>(slots, piece, top);
        if !PLAIN {
            let cells = cells_after::<W>(slots, piece, top);
            features.row_transitions -= 2 * twice_filled::<W>(slots, piece, top);
            self.recount_hollow::<W, DETAIL>(slots, &cells, piece, top, &rests, &mut features);
        }
        if skip(top, &features) {
            return None;
        }
        let cells = cells_after::<W>(slots, piece, top);
        self.add_wells::<W>(slots, &cells, &mut features);
        Some(Dropped::Open { top, features })
    }

    /// The row transitions after `piece` drops with its box's top at row `top` and fills
    /// no row. They change only at the ends of the piece's horizontal runs: between two
    /// cells of the piece, both empty before, both filled after; at an end, the cell
    /// outside the piece (the board's, or a filled wall) made a transition with the empty
    /// cell before and makes one with the filled cell after only if it is empty itself.
    /// So each end adds 1 less 2 if its outside cell is filled ([`PieceColumns::ends`]
    /// knows those cells; a cell between two runs counts for both).
    #[inline(always)]
    fn row_transitions_after<const W: usize>(&self, slots: &[Slot; WINDOW], piece: &PieceColumns, top: u32) -> u32 {
        let mut filled = 0;
        for k in 0..W + 2 {
            filled += (slots[PAD - 1 + k].cells & piece.ends[k] << top).count_ones();
        }
        // Two ends a run; the cells between two runs are counted again by the caller.
        self.totals.row_transitions + 2 * piece.runs - 2 * filled
    }

    /// The features of a drop that fills no row, its box top at row `top`, made exact in
    /// the piece's columns that are not one run (where the floor may fall short), the
    /// window's `slots` turned into `cells` and `rests` the row each column alone
    /// would stop the box's top at (the top's row plus the column's gap). The cumulative
    /// wells stay at their floor (see [`Columns::add_wells`]).
    #[inline(always)]
    fn recount_hollow<const W: usize, const DETAIL: bool>(
        &self,
        slots: &[Slot; WINDOW],
        cells: &[u64; WINDOW],
        piece: &PieceColumns,
        top: u32,
        rests: &[i32; W],
        f: &mut BoardFeatures,
    ) {
        let (rows, height) = (self.rows, self.height);
        // The floor is exact for columns of one run: recount the others, and the rows
        // with holes afresh.
        let mut hole_rows = slots[PAD].before | slots[PAD + W].from;
        for j in 0..W {
            let (slot, gap) = (&slots[PAD + j], rests[j] as u32 - top);
            let old = &slot.term;
            if piece.solid[j] {
                hole_rows |= old.hole_rows | slot.above & piece.under[j] << top;
                continue;
            }
            let now = column(cells[PAD + j], rows, height);
            let gap_transitions = if gap > 0 { 2 } else { 0 };
            f.column_transitions = f.column_transitions - gap_transitions - old.transitions + now.transitions;
            f.holes = f.holes - gap - old.holes + now.holes;
            if DETAIL {
                let floor_depth = if old.holes > 0 || gap > 0 { piece.count[j] } else { 0 };
                f.hole_depth = f.hole_depth - floor_depth - old.hole_depth + now.hole_depth;
                hole_rows |= now.hole_rows;
            }
        }
        if DETAIL {
            f.rows_with_holes = hole_rows.count_ones();
        }
    }
}

/// The filled cells between two runs of `piece` (see [`PieceColumns::ends`]), when its box
/// top is at row `top`: each stands beside two ends.
#[inline(always)]
fn twice_filled<const W: usize>(slots: &[Slot; WINDOW], piece: &PieceColumns, top: u32) -> u32 {
    let mut filled = 0;
    for k in 0..W + 2 {
        filled += (slots[PAD - 1 + k].cells & piece.ends_twice[k] << top).count_ones();
    }
    filled
}

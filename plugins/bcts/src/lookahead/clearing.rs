//! The second placements that clear rows: bounded apart from the others (a clear can lower
//! every feature), found on the board after the first placement and rated exactly when
//! they could still matter.

use super::{Context, First, Second, GAPS};
use crate::bound::{Bound, Survivors};
use crate::drops::Reach;
use crate::evaluate;
use crate::features::BoardFeatures;
use tetrad_plugin_api::{Board, PieceId, PiecePos};

impl Context<'_> {
    /// `limit` raised to the value of each placement of the second piece that clears
    /// rows on the board after the `first` placement and could matter (as the follow-up
    /// computes it); a placement whose own bound is no more than `limit`, or cannot beat
    /// the best follow-up so far, could not, and is not rated. When the bound on all of
    /// them at once cannot beat the best so far, `limit`. The board after the first
    /// placement is built in `after` when a placement needs its own bound.
    pub(super) fn clearing_limit(
        &self,
        first: &First,
        after: &mut Board,
        (next, spawn, cut): (PieceId, PiecePos, f64),
        bound: &Bound,
        reaches: &[Reach],
        limit: f64,
    ) -> f64 {
        let (board, columns, shape, left, top) = (first.board, first.columns, first.shape, first.left, first.top);
        let full = board.full_row();
        let widest = bound.widest_row(next);
        let top_of = |x: usize| {
            let own = columns.top(x);
            match x.checked_sub(left).filter(|&j| j < shape.columns.width) {
                Some(j) => own.min(top + shape.columns.cells[j].trailing_zeros()),
                None => own,
            }
        };
        // The rows a drop of `next` could fill: few enough cells missing, each open to
        // the sky. A drop fills one only if its box spans the row's gap.
        let mut gaps = [(0u32, 0u32); GAPS];
        let (mut count, mut every) = (0, false);
        // The holes that survive when every such row is cleared.
        let (mut survivors, mut cover) = (Survivors::default(), 0);
        // The columns filled in some row above the one read: a missing cell there is
        // under its column's top, closed to the sky.
        let mut above = 0;
        // Rows above the surface are empty: only a piece as wide as the board fills one.
        let from = if full.count_ones() <= widest {
            0
        } else {
            board.surface().min(top as usize)
        };
        let mut scan = |y: usize, row: u32| {
            let gap = full & !row;
            let open = gap & above == 0 && gap.count_ones() <= widest;
            above |= row;
            if !open {
                survivors.keep(&mut cover, row);
            } else if count == GAPS {
                // More rows than kept: any drop may fill one.
                every = true;
            } else {
                gaps[count] = (gap, y as u32);
                count += 1;
            }
        };
        // The rows above the first piece, its own with its cells, and those below it: no
        // test a row of whether the piece is in it.
        let rows = board.rows();
        let (top, bottom) = (top as usize, top as usize + shape.height);
        for (i, &row) in rows[from..top].iter().enumerate() {
            scan(from + i, row);
        }
        for (i, (&row, &cells)) in rows[top..bottom].iter().zip(&shape.rows).enumerate() {
            scan(top + i, row | cells << left);
        }
        for (i, &row) in rows[bottom..].iter().enumerate() {
            scan(bottom + i, row);
        }
        if count == 0 {
            return limit;
        }
        let sizes = (board.width() as u32, board.height() as u32);
        let open = if every { u32::MAX } else { count as u32 };
        let most = bound.clearing_any(first.features, next, (first.landing, open), sizes, &survivors);
        if most <= cut {
            return limit;
        }
        let gaps = &gaps[..count];
        let mut limit = limit;
        let mut built = false;
        for reach in reaches {
            let shape2 = &self.shapes[next.index()][usize::from(reach.orientation())];
            let span = (1u32 << shape2.columns.width) - 1;
            // The box's left columns from which some gap is spanned, as bits: from the
            // gap's last column less the width plus one to its first, once an
            // orientation rather than every gap asked at every drop.
            let mut lefts = if every { u64::MAX } else { 0 };
            for &(gap, _) in gaps {
                let (first, last) = (gap.trailing_zeros(), 31 - gap.leading_zeros());
                let from = (last + 1).saturating_sub(shape2.columns.width as u32);
                if from <= first {
                    lefts |= (u64::MAX >> (63 - first)) & (u64::MAX << from);
                }
            }
            if lefts == 0 {
                continue;
            }
            for &x in reach.xs() {
                let box_left = reach.box_left(x);
                if lefts >> box_left & 1 == 0 {
                    continue;
                }
                let spans = |&(gap, _): &(u32, u32)| gap & !(span << box_left) == 0;
                let placement = reach.land(x, spawn, top_of);
                let box_top = i32::from(placement.pos.y) + i32::from(shape2.top);
                if box_top < 0 {
                    continue;
                }
                let box_top = box_top as usize;
                let rows = box_top..box_top + shape2.height;
                if !every && !gaps.iter().any(|gap| spans(gap) && rows.contains(&(gap.1 as usize))) {
                    continue;
                }
                if !built {
                    first.place(after);
                    built = true;
                }
                let second = Second::new(after, columns, (next, spawn), cut);
                let within = (0.0, limit.max(cut));
                let at = (box_top, box_left);
                let Some(most) = self.clearing_bound(bound, &second, first.features, reach, at, within) else {
                    continue;
                };
                if most <= within.1 {
                    continue;
                }
                if let Some((_, value)) = evaluate(self.rules, self.pieces, after, next, placement.pos, self.weights) {
                    limit = limit.max(value);
                }
            }
        }
        limit
    }

    /// The bound on the value of the drop of `next` in `reach`'s orientation whose box
    /// lands at row `top`, column `left` on the board after the first placement (whose
    /// features are `after`, the row transitions exact), when it clears rows, plus
    /// `wells` (a term of at most 0 the caller adds); `None` when it clears none. When
    /// that is at most `cut`, it may come back as another value at most `cut`.
    ///
    /// Why the survivors may go unread. The bound with no survivor is at least the bound
    /// with them, even as computed: each survivor term is a weight at most 0 times a count
    /// (`f64` multiplication by a fixed number is monotone, so a smaller count never
    /// gives a smaller product), and rounded addition is monotone in each operand. So
    /// when the bound with none is at most `cut`, so is the exact one, and the caller,
    /// which only compares it with `cut`, skips the drop either way: the board's rows are
    /// read only for the drops that bound does not settle.
    pub(super) fn clearing_bound(
        &self,
        bound: &Bound,
        second: &Second,
        after: &BoardFeatures,
        reach: &Reach,
        (top, left): (usize, usize),
        (wells, cut): (f64, f64),
    ) -> Option<f64> {
        let shape = &self.shapes[second.next.index()][usize::from(reach.orientation())];
        let full = second.board.full_row();
        let width = second.board.width() as u32;
        // A row's transitions, the walls counted as filled.
        let transitions = |row: u32| {
            let walled = (u64::from(row) << 1) | 1 | (1u64 << (width + 1));
            ((walled ^ (walled >> 1)) & ((1u64 << (width + 1)) - 1)).count_ones()
        };
        // The row transitions after the clear: the rows the piece does not touch keep
        // theirs, a row it fills goes and an empty one (two) comes in at the top.
        let (mut gone, mut come) = (0, 0);
        let (mut lines, mut cells, mut cleared) = (0, 0, 0u64);
        let rows = &second.board.rows()[top..top + shape.height];
        for (i, (&row, &mask)) in rows.iter().zip(&shape.rows).enumerate() {
            let filled = row | mask << left;
            gone += transitions(row);
            if filled == full {
                lines += 1;
                cells += mask.count_ones();
                cleared |= 1 << i;
                come += 2;
            } else {
                come += transitions(filled);
            }
        }
        // (`after`'s are the board's own, so nothing saturates.)
        let row_transitions = (after.row_transitions + come).saturating_sub(gone);
        if lines == 0 {
            return None;
        }
        let height = second.board.height() as u32;
        let bottom = height - (top + shape.height) as u32;
        let landing = bound.landing(bottom, shape.height as u32);
        let most =
            |survivors: &Survivors| landing + bound.clearing((lines, cells), row_transitions, width, survivors) + wells;
        let none = most(&Survivors::default());
        if none <= cut {
            return Some(none);
        }
        // The board's rows from its surface down, the cleared ones as bits from there.
        let surface = second.board.surface().min(top);
        let survivors = Survivors::of(&second.board.rows()[surface..], cleared << (top - surface));
        Some(most(&survivors))
    }
}

//! An upper bound on a first placement's follow-up value, from the features of the board
//! it leaves, so the two-piece search can skip first placements that cannot win.
//!
//! Why it holds. Under `simplified` every placement is a straight drop from open sky, so
//! each cell the second piece adds lies above its column's top. When the drop clears no
//! row, going from the board `B1` after the first piece to the board `B2` after both:
//!
//! - column transitions, holes, hole depth and rows with holes never fall: the new cells
//!   sit on top of the old column (a run of empty cells above the top becomes a run that
//!   holds at least one filled cell, which keeps at least the one change it had), every
//!   old hole keeps the cell above it, every filled cell keeps the hole below it;
//! - row transitions fall by at most 2 for each horizontal run of the piece's cells in a
//!   row (the run's two ends are the only pairs that can stop changing), so by at most
//!   twice the runs of the piece's orientation;
//! - cumulative wells can fall only in the piece's own columns (a column beside it only
//!   gains filled neighbours, and its cells and the runs below them are unchanged), and a
//!   column's wells are never negative, so they stay at least 0;
//! - the piece rests on the column tops, and the first piece (which cleared no row
//!   either) only raised them, so the drop lands no lower than the same drop (same
//!   orientation, same columns) on the board before the first piece: its landing height
//!   is at least the least of its orientation's drops there, found once a decision;
//! - eroded cells are 0.
//!
//! With every weight but eroded cells' at most 0, the weighted sum of those lower bounds
//! (0 for the wells) is at least every second placement's exact value that clears no row;
//! the landing height's and the row transitions' terms depend on the orientation, so the
//! bound takes their most over the orientations ([`Bound::reach`], then
//! [`Bound::follow_up`]; the row transitions counted as the board's less twice the runs,
//! below 0 or not, which with their weight at most 0 only raises the bound). For one drop the landing height is known exactly and the runs
//! are its own orientation's ([`Bound::rest`] plus [`Bound::landing`]), and when that is
//! not enough the wells are at least the board's less those of the drop's own columns
//! (they are the only columns that can lose wells; [`Bound::wells`]); a drop that passes
//! those is bounded by the weighted sum of its floor features, each at most the drop's
//! own (`Columns::drop_bounded`: the holes and column transitions from the column tops,
//! the row transitions less two per run of the piece), raised by the margin as the
//! one-piece search's ceilings are; then once more by its own features, every one exact
//! but the cumulative wells, held at their floor (the board's less the piece's columns';
//! see `Columns::drop_bounded`): the controller's own weighted sum of those is at least the
//! drop's computed value, with no margin (rounding never reverses an order). A second
//! placement that clears rows can lower every feature, so it is bounded apart ([`Bound::clearing`],
//! by what survives a clear); the search finds those drops (they must fill a row of `B1`
//! that lacks at most as many cells as the piece has in one row) and rates the ones still
//! in play as the follow-up itself rates them.
//!
//! What survives a clear. Take the rows the second piece clears out of `B1`, and call a
//! cell of what is left a survivor when it is empty and its column holds a filled cell
//! above it. The piece's cells lie above their columns' tops, so none fills a survivor;
//! the clear takes those rows away and moves the others down in order, so a survivor
//! keeps its covering cell above it. Every survivor is thus a hole of the board after
//! both pieces and the clear, in a row of its own as in `B1`, in its own column. Hence,
//! with `s` the survivors, `r` the rows holding one and `k` the columns holding one:
//! holes at least `s`, rows with holes at least `r`, hole depth at least `k` (a column
//! with a hole has a filled cell above its lowest one), and column transitions at least
//! one per column plus two more for each of the `k` (empty above the board, filled at the
//! floor: a column with a hole changes from empty to filled above it, to empty at it, and
//! to filled again below it or at the floor).
//!
//! The row transitions of one such drop are known exactly: they are a sum over the rows;
//! the rows the piece does not touch keep theirs (a clear only moves them down), a row it
//! touches and does not fill has those of its cells with the piece's, and each row it
//! fills goes while an empty row (two transitions, the walls counting as filled) comes in
//! at the top. So [`Bound::clearing`] takes them exactly, from the row transitions of
//! `B1` and the rows the piece touches. And the cumulative wells are at least those of
//! the board with the piece added before the clear, which are at least `B1`'s less those
//! of the piece's columns (as above): a full row holds no well cell, so every well cell
//! stays one (its row moves down whole, with its neighbours), and the empty cells under
//! it only gain those a cleared row's filled cell kept apart.
//!
//! All the second placements that clear rows at once ([`Bound::clearing_any`]), so a
//! first placement can be skipped without looking for them: the rows a drop clears are
//! among the rows of `B1` it could fill (lacking at most as many cells as the piece has
//! in one row, each open to the sky), and clearing fewer rows leaves at least the
//! survivors of clearing all of those. A drop that clears rows clears `l >= 1` of them,
//! at most those rows' number and the piece's most rows, with at most `l` times the
//! piece's widest row of its cells (and at most all of them): that bounds the eroded
//! cells from above (or by 1 from below, for a weight below 0); the landing height is at
//! least the least of every drop of the piece on the board before the first one, as
//! above; the row transitions at least those of one clear with the most runs of the
//! piece.
//!
//! Floating point. The follow-up's values are weighted sums computed in `f64` (or exactly,
//! for whole weights); the bound is another such sum. Every feature is below 2^17 (a board
//! is at most 32 x 64), so each of those sums of eight products is within
//! 16 * 2^-53 * 2^17 * sum|w| = 2^-32 * sum|w| of its exact value. The bound is raised by
//! [`Bound::margin`], 2^-24 * sum|w|, far more than the two errors together: a computed
//! follow-up value never exceeds the raised bound. The search skips a first placement only
//! when the raised bound is below the best value found, or equal to it and the placement
//! comes later in the enumeration order; then its exact value could not be the first strict
//! maximum, and the choice is the exhaustive search's. It skips a second placement only when
//! its raised bound is at most the best value of the same follow-up so far (the maximum
//! cannot change) or would be skipped by that rule (the follow-up cannot win through it).

use crate::features::{BoardFeatures, Weights, COUNT};
use tetrad_plugin_api::{PieceId, PieceSet};

// The bound covers these eight features: a feature added to the controller needs its own
// term in `Bound::follow_up` (or the bound turned off for it).
const _: () = assert!(COUNT == 8, "the two-piece bound covers eight features");

/// The cells of a board that stay holes through a clear of some of its rows (see the
/// module note).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Survivors {
    /// How many.
    pub holes: u32,
    /// The rows holding one.
    pub rows: u32,
    /// The mask of the columns holding one.
    pub columns: u32,
}

impl Survivors {
    /// The survivors in `rows`, a board's rows from its surface down, when the rows whose
    /// bits are set in `cleared` (bit `i` for `rows[i]`) are cleared.
    #[inline]
    pub fn of(rows: &[u32], cleared: u64) -> Survivors {
        let mut survivors = Survivors::default();
        // The columns filled in some row above the one read, cleared rows left out.
        let mut cover = 0;
        for (i, &row) in rows.iter().enumerate() {
            if cleared >> i & 1 == 0 {
                survivors.keep(&mut cover, row);
            }
        }
        survivors
    }

    /// Adds the survivors of `row`, a row the clear keeps, under rows that fill the
    /// columns of `cover`; then adds its cells to `cover`.
    #[inline(always)]
    pub fn keep(&mut self, cover: &mut u32, row: u32) {
        let holes = *cover & !row;
        self.holes += holes.count_ones();
        self.rows += u32::from(holes != 0);
        self.columns |= holes;
        *cover |= row;
    }
}

/// What the bound needs of one piece, over all its orientations.
#[derive(Clone, Debug)]
struct PieceBound {
    /// The horizontal runs of cells of each orientation, summed over its rows.
    runs_of: Vec<u32>,
    /// The most horizontal runs of cells, summed over the rows of one orientation.
    runs: u32,
    /// The most cells in one row of one orientation.
    widest_row: u32,
    /// The most rows of one orientation.
    tallest: u32,
    /// Its cells.
    cells: u32,
}

/// The bound's weights and per-piece terms.
#[derive(Clone, Debug)]
pub struct Bound {
    weights: [f64; COUNT],
    pieces: Vec<PieceBound>,
    margin: f64,
}

impl Bound {
    /// The bound for these weights, or `None` when it does not hold for them: a weight
    /// other than eroded cells' above 0, any weight not finite, or weight on the surface
    /// features.
    pub fn new(weights: &Weights, pieces: &PieceSet) -> Option<Bound> {
        if weights.surface().is_some() {
            // The bound knows the eight features only.
            return None;
        }
        let w = *weights.real();
        let signs_fit = w.iter().enumerate().all(|(k, &w)| k == 1 || w <= 0.0);
        if !signs_fit || !w.iter().all(|w| w.is_finite()) {
            return None;
        }
        let pieces = pieces
            .kinds()
            .iter()
            .map(|kind| {
                let orientations = kind.orientations();
                let runs_in = |mask: u32| (mask & !(mask << 1)).count_ones();
                let runs_of: Vec<u32> = orientations
                    .iter()
                    .map(|o| o.row_masks().iter().map(|&m| runs_in(m)).sum())
                    .collect();
                PieceBound {
                    runs: runs_of.iter().copied().max().unwrap_or(0),
                    runs_of,
                    widest_row: orientations
                        .iter()
                        .flat_map(|o| o.row_masks().iter().map(|m| m.count_ones()))
                        .max()
                        .unwrap_or(0),
                    tallest: orientations.iter().map(|o| u32::from(o.height())).max().unwrap_or(0),
                    cells: orientations
                        .first()
                        .map_or(0, |o| o.row_masks().iter().map(|m| m.count_ones()).sum()),
                }
            })
            .collect();
        let margin = w.iter().map(|w| w.abs()).sum::<f64>() * 2f64.powi(-24);
        Some(Bound {
            weights: w,
            pieces,
            margin,
        })
    }

    /// The share of [`Bound::follow_up`] that depends on where the drops of `next` in
    /// `orientation`, `piece_height` rows high, can land, when none has its lowest cell
    /// less than `bottom` cells above the floor: the landing height's term, and the row
    /// transitions' for the two per run of the orientation a drop can take away (see the
    /// module note). [`Bound::follow_up`] takes the most over the orientations.
    #[inline]
    pub fn reach(&self, next: PieceId, orientation: u8, bottom: u32, piece_height: u32) -> f64 {
        let runs = 2 * self.pieces[next.index()].runs_of[usize::from(orientation)];
        self.landing(bottom, piece_height) - self.weights[2] * f64::from(runs)
    }

    /// The most a placement of `next` that clears no row can be worth on the board whose
    /// features are `after`, when `reach` is the most [`Bound::reach`] of its
    /// orientations: raised by the margin, so it bounds the computed values too.
    #[inline]
    pub fn follow_up(&self, after: &BoardFeatures, reach: f64) -> f64 {
        let w = &self.weights;
        let value = reach
            + w[2] * f64::from(after.row_transitions)
            + w[3] * f64::from(after.column_transitions)
            + w[4] * f64::from(after.holes)
            + w[6] * f64::from(after.hole_depth)
            + w[7] * f64::from(after.rows_with_holes);
        value + self.margin
    }

    /// [`Bound::follow_up`] for the drops of one orientation of `next`, less the landing
    /// height's term: add [`Bound::landing`] of a drop to bound its value, when it clears
    /// no row. (The two sums group the same terms differently; the margin covers either.)
    #[inline]
    pub fn rest(&self, after: &BoardFeatures, next: PieceId, orientation: u8) -> f64 {
        let (w, piece) = (&self.weights, &self.pieces[next.index()]);
        let runs = 2 * piece.runs_of[usize::from(orientation)];
        let value = w[2] * f64::from(after.row_transitions.saturating_sub(runs))
            + w[3] * f64::from(after.column_transitions)
            + w[4] * f64::from(after.holes)
            + w[6] * f64::from(after.hole_depth)
            + w[7] * f64::from(after.rows_with_holes);
        value + self.margin
    }

    /// [`Bound::rest`] for a drop that clears `lines` rows holding `cells` of its cells,
    /// on a board `width` wide, leaving `row_transitions` and `survivors` (see the module
    /// note). Clearing can lower every feature, so this keeps only what survives it: the
    /// eroded cells and the row transitions exactly; one column transition per column and
    /// two more per column holding a survivor; the survivors' holes, rows and columns (for
    /// the hole depth); the wells at least 0.
    #[inline]
    pub fn clearing(&self, (lines, cells): (u32, u32), row_transitions: u32, width: u32, survivors: &Survivors) -> f64 {
        let w = &self.weights;
        let value = w[1] * f64::from(lines * cells) + w[2] * f64::from(row_transitions);
        value + self.survivors(width, survivors) + self.margin
    }

    /// The terms of the features a clear leaves at least their survivors' (see the module
    /// note) on a board `width` wide: column transitions, holes, hole depth, rows with
    /// holes. (Grouped apart from the rest of a bound's sum: the margin covers any
    /// grouping.)
    #[inline]
    fn survivors(&self, width: u32, survivors: &Survivors) -> f64 {
        let w = &self.weights;
        let columns = survivors.columns.count_ones();
        w[3] * f64::from(width + 2 * columns)
            + w[4] * f64::from(survivors.holes)
            + w[6] * f64::from(columns)
            + w[7] * f64::from(survivors.rows)
    }

    /// The most any placement of `next` that clears rows can be worth on the board whose
    /// features are `after`, `(width, height)` cells, when no such placement has a
    /// landing height below `landing`, at most `open` of its rows could be filled by
    /// `next`, and `survivors` stay holes when all of those are cleared: see the module
    /// note.
    #[inline]
    pub fn clearing_any(
        &self,
        after: &BoardFeatures,
        next: PieceId,
        (landing, open): (f64, u32),
        (width, height): (u32, u32),
        survivors: &Survivors,
    ) -> f64 {
        let (w, piece) = (&self.weights, &self.pieces[next.index()]);
        let lines = open.min(piece.tallest);
        let eroded = if w[1] >= 0.0 {
            lines * piece.cells.min(lines * piece.widest_row)
        } else {
            1
        };
        let row_transitions = (after.row_transitions.saturating_sub(2 * piece.runs) + 2).max(2 * height);
        let value = w[0] * landing + w[1] * f64::from(eroded) + w[2] * f64::from(row_transitions);
        value + self.survivors(width, survivors) + self.margin
    }

    /// The cumulative wells' term of a drop that leaves at least `floor` of them.
    #[inline]
    pub fn wells(&self, floor: u32) -> f64 {
        self.weights[5] * f64::from(floor)
    }

    /// The landing height's term of a drop whose lowest cell is `bottom` cells above the
    /// floor, of a piece `piece_height` cells high.
    #[inline]
    pub fn landing(&self, bottom: u32, piece_height: u32) -> f64 {
        self.weights[0] * (f64::from(bottom) + f64::from(piece_height - 1) / 2.0)
    }

    /// The landing height's weight: a drop one row lower changes [`Bound::landing`] by
    /// minus this.
    #[inline]
    pub fn landing_weight(&self) -> f64 {
        self.weights[0]
    }

    /// What a bound is raised by to cover the rounding of two weighted sums of features
    /// (see the module note).
    #[inline]
    pub fn margin(&self) -> f64 {
        self.margin
    }

    /// The most cells `next` has in one row: a row lacking more cannot be cleared by it.
    #[inline]
    pub fn widest_row(&self, next: PieceId) -> u32 {
        self.pieces[next.index()].widest_row
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{BCTS, DELLACHERIE};

    #[test]
    fn the_tetrominoes_terms() {
        let bound = Bound::new(&Weights::new(BCTS), &PieceSet::tetrominoes()).expect("BCTS's signs fit");
        let terms: Vec<_> = bound
            .pieces
            .iter()
            .map(|p| (p.runs_of.clone(), p.runs, p.widest_row))
            .collect();
        // I, O, T, S, Z, J, L, runs by orientation: the flat I lies in one row of four, a
        // standing I has four runs; a flat T, S, Z, J or L two, a standing one three; the
        // O two. The widest rows: four for the I, three for the T, J and L, two for the
        // others.
        assert_eq!(
            terms,
            vec![
                (vec![1, 4], 4, 4),
                (vec![2], 2, 2),
                (vec![2, 3, 2, 3], 3, 3),
                (vec![2, 3], 3, 2),
                (vec![2, 3], 3, 2),
                (vec![2, 3, 2, 3], 3, 3),
                (vec![2, 3, 2, 3], 3, 3)
            ]
        );
        assert!(Bound::new(&Weights::new(DELLACHERIE), &PieceSet::tetrominoes()).is_some());
    }

    #[test]
    fn weights_the_bound_does_not_cover_turn_it_off() {
        let set = PieceSet::tetrominoes();
        let mut w = BCTS;
        w[1] = 50.0;
        assert!(
            Bound::new(&Weights::new(w), &set).is_some(),
            "eroded cells may weigh anything"
        );
        for k in [0, 2, 3, 4, 5, 6, 7] {
            let mut w = BCTS;
            w[k] = 0.5;
            assert!(Bound::new(&Weights::new(w), &set).is_none(), "weight {k}");
        }
        let mut w = BCTS;
        w[1] = f64::INFINITY;
        assert!(Bound::new(&Weights::new(w), &set).is_none());
    }
}

//! Ceilings on the values of drops that fill no row, from their features at their floors
//! (see [`crate::rater::Rater::rate_drops`]): the one-piece search and the two-piece
//! follow-ups skip a drop whose ceiling cannot beat the best so far.

use crate::bound::Bound;
use crate::features::{BoardFeatures, Weights};
use crate::rater::Shape;

/// Ceilings on the values of one orientation's drops that fill no row, from their
/// features at their floors (see [`crate::rater::Rater::rate_drops`]), for weights a [`Bound`] holds for.
#[derive(Clone, Copy)]
pub(crate) struct Ceilings<'b> {
    weights: &'b Weights,
    /// The ceilings' terms that are the same for every drop of the orientation: the
    /// landing height's with the box's top at row 0, and the margin.
    base: f64,
    /// `base` and the row transitions' floor's term.
    early: f64,
}

impl<'b> Ceilings<'b> {
    /// The ceilings of the drops of `shape` on a board `height` rows high whose features
    /// are `totals`.
    pub(crate) fn new(
        weights: &'b Weights,
        bound: &Bound,
        totals: &BoardFeatures,
        height: u32,
        shape: &Shape,
    ) -> Ceilings<'b> {
        let piece_height = shape.height as u32;
        let w = weights.real();
        // The landing height with the box's top at row 0, and the row transitions' floor:
        // the same for every drop of the orientation.
        let landing = f64::from(height - piece_height) + f64::from(piece_height - 1) / 2.0;
        let row_transitions = totals.row_transitions.saturating_sub(2 * shape.columns.runs);
        let base = w[0] * landing + bound.margin();
        Ceilings {
            weights,
            base,
            early: base + w[2] * f64::from(row_transitions),
        }
    }

    /// The early ceiling of a drop whose box's top is at row `top`, from its `floor`
    /// features: the weighted sum of the floor, the landing height's term split into
    /// `early`'s share and `top`'s, the row transitions' in `early`,
    /// eroded cells 0; without `DETAIL` hole depth and rows with holes weigh nothing.
    #[inline(always)]
    pub(crate) fn early<const DETAIL: bool>(&self, top: u32, floor: &BoardFeatures) -> f64 {
        self.ceiling::<DETAIL>(self.early, top, floor)
    }

    /// [`Ceilings::early`] with the row transitions of `features` in place of their floor.
    #[inline(always)]
    pub(crate) fn later<const DETAIL: bool>(&self, top: u32, features: &BoardFeatures) -> f64 {
        let w = self.weights.real();
        self.ceiling::<DETAIL>(self.base + w[2] * f64::from(features.row_transitions), top, features)
    }

    /// `constant` plus the terms of the features that vary from drop to drop.
    #[inline(always)]
    fn ceiling<const DETAIL: bool>(&self, constant: f64, top: u32, features: &BoardFeatures) -> f64 {
        let w = self.weights.real();
        let ceiling = constant - w[0] * f64::from(top)
            + w[3] * f64::from(features.column_transitions)
            + w[4] * f64::from(features.holes)
            + w[5] * f64::from(features.cumulative_wells);
        if DETAIL {
            ceiling + w[6] * f64::from(features.hole_depth) + w[7] * f64::from(features.rows_with_holes)
        } else {
            ceiling
        }
    }
}

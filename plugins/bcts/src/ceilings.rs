//! Ceilings on the values of drops that fill no row, from their features at their floors
//! (see [`crate::rater::Rater::rate_drops`]): the one-piece search and the two-piece
//! follow-ups skip a drop whose ceiling cannot beat the best so far.

use crate::bound::Bound;
use crate::features::{BoardFeatures, Weights, COUNT};
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

/// What the drop loops ask of ceilings: [`Ceilings`], or [`WholeCeilings`] for whole
/// weights.
pub(crate) trait Ceiling: Copy {
    /// The early ceiling of a drop whose box's top is at row `top`, from its `floor`
    /// features: the weighted sum of the floor, the landing height's term split into the
    /// orientation's share and `top`'s, the row transitions' at their floor for the
    /// orientation, eroded cells 0; without `DETAIL` hole depth and rows with holes weigh
    /// nothing.
    fn early<const DETAIL: bool>(&self, top: u32, floor: &BoardFeatures) -> f64;
    /// [`Ceiling::early`] with the row transitions of `features` in place of their floor.
    fn later<const DETAIL: bool>(&self, top: u32, features: &BoardFeatures) -> f64;
}

impl Ceiling for Ceilings<'_> {
    #[inline(always)]
    fn early<const DETAIL: bool>(&self, top: u32, floor: &BoardFeatures) -> f64 {
        self.ceiling::<DETAIL>(self.early, top, floor)
    }

    #[inline(always)]
    fn later<const DETAIL: bool>(&self, top: u32, features: &BoardFeatures) -> f64 {
        let w = self.weights.real();
        self.ceiling::<DETAIL>(self.base + w[2] * f64::from(features.row_transitions), top, features)
    }
}

/// [`Ceilings`] for whole weights (Dellacherie's), summed in integers. A placement's
/// value is then summed exactly too ([`Weights::value`]), so a ceiling summed the same way
/// from features at least as low is at least the value with no rounding to cover (no
/// margin), and integer sums cost fewer instructions than `f64` ones.
#[derive(Clone, Copy)]
pub(crate) struct WholeCeilings<'b> {
    weights: &'b [i64; COUNT],
    /// Twice the terms that are the same for every drop of the orientation (the landing
    /// height counted in halves, as `Weights::value` counts it, with the box's top at
    /// row 0), and that with the row transitions' floor's term.
    twice_base: i64,
    twice_early: i64,
}

impl<'b> WholeCeilings<'b> {
    /// The ceilings of the drops of `shape` on a board `height` rows high whose features
    /// are `totals`, for the whole `weights` (those of [`Weights::whole`]).
    pub(crate) fn new(
        weights: &'b [i64; COUNT],
        totals: &BoardFeatures,
        height: u32,
        shape: &Shape,
    ) -> WholeCeilings<'b> {
        let piece_height = shape.height as u32;
        let halves = i64::from(2 * (height - piece_height) + piece_height - 1);
        let row_transitions = totals.row_transitions.saturating_sub(2 * shape.columns.runs);
        let twice_base = weights[0] * halves;
        WholeCeilings {
            weights,
            twice_base,
            twice_early: twice_base + 2 * weights[2] * i64::from(row_transitions),
        }
    }

    /// [`Ceilings::ceiling`] in integers, from twice the constant terms.
    #[inline(always)]
    fn ceiling<const DETAIL: bool>(&self, twice_constant: i64, top: u32, features: &BoardFeatures) -> f64 {
        let w = self.weights;
        let mut sum = w[3] * i64::from(features.column_transitions)
            + w[4] * i64::from(features.holes)
            + w[5] * i64::from(features.cumulative_wells);
        if DETAIL {
            sum += w[6] * i64::from(features.hole_depth) + w[7] * i64::from(features.rows_with_holes);
        }
        // Halving is exact.
        (twice_constant - 2 * w[0] * i64::from(top) + 2 * sum) as f64 / 2.0
    }
}

impl Ceiling for WholeCeilings<'_> {
    #[inline(always)]
    fn early<const DETAIL: bool>(&self, top: u32, floor: &BoardFeatures) -> f64 {
        self.ceiling::<DETAIL>(self.twice_early, top, floor)
    }

    #[inline(always)]
    fn later<const DETAIL: bool>(&self, top: u32, features: &BoardFeatures) -> f64 {
        let row_transitions = 2 * self.weights[2] * i64::from(features.row_transitions);
        self.ceiling::<DETAIL>(self.twice_base + row_transitions, top, features)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::features::Landing;
    use tetrad_plugin_api::PieceSet;

    /// With whole weights a drop's ceiling from its exact features is its value exactly
    /// (no margin), and the `f64` ceiling is at least that.
    #[test]
    fn whole_ceilings_are_the_value_of_exact_features() {
        let weights = Weights::new(crate::DELLACHERIE);
        let pieces = PieceSet::tetrominoes();
        let bound = Bound::new(&weights, &pieces).expect("Dellacherie's weights are bounded");
        let whole = weights.whole().expect("Dellacherie's weights are whole");
        let shapes = crate::shapes(&pieces);
        let height = 20;
        let totals = BoardFeatures {
            row_transitions: 31,
            column_transitions: 17,
            holes: 3,
            cumulative_wells: 6,
            hole_depth: 0,
            rows_with_holes: 0,
        };
        for shape in shapes.iter().flatten() {
            let (real, integer) = (
                Ceilings::new(&weights, &bound, &totals, height, shape),
                WholeCeilings::new(whole, &totals, height, shape),
            );
            for top in 0..=height - shape.height as u32 {
                let features = BoardFeatures {
                    row_transitions: 33 + top % 5,
                    holes: 3 + top % 3,
                    ..totals
                };
                let landing = Landing {
                    bottom: height - (top + shape.height as u32),
                    piece_height: shape.height as u32,
                    lines: 0,
                    piece_cells_cleared: 0,
                };
                let value = weights.value(&features, &landing);
                assert_eq!(integer.later::<false>(top, &features), value);
                assert!(real.later::<false>(top, &features) >= value);
                // The early ceiling has the row transitions at their floor: at least both.
                assert!(integer.early::<false>(top, &features) >= value);
            }
        }
    }
}

//! What the rater's drop loops do with each drop: every drop given to a function, or only
//! the first strictly best kept and the drops that cannot beat it skipped.

use crate::ceilings::Ceiling;
use crate::features::BoardFeatures;
use tetrad_plugin_api::Placement;

/// What the drop loops do with each drop: whether to rate it, and what to do with its
/// value.
pub(super) trait Visitor {
    /// Whether a drop that fills no row, its box's top at row `top`, may be left unrated,
    /// given its features at their floor as [`Columns::drop_bounded`] gives them to its
    /// `early` test (`DETAIL`: hole depth and rows with holes carry weight).
    fn skips_early<const DETAIL: bool>(&self, top: u32, floor: &BoardFeatures) -> bool;
    /// Whether a drop that fills no row, its box's top at row `top`, may be left unrated,
    /// given its features with the cumulative wells at their floor.
    fn skips<const DETAIL: bool>(&self, top: u32, features: &BoardFeatures) -> bool;
    /// Takes a drop's value.
    fn visit(&mut self, value: f64, placement: Placement);
}

/// Every drop rated, each given to the function.
pub(super) struct Every<F>(pub(super) F);

impl<F: FnMut(f64, Placement)> Visitor for Every<F> {
    #[inline(always)]
    fn skips_early<const DETAIL: bool>(&self, _: u32, _: &BoardFeatures) -> bool {
        false
    }

    #[inline(always)]
    fn skips<const DETAIL: bool>(&self, _: u32, _: &BoardFeatures) -> bool {
        false
    }

    #[inline(always)]
    fn visit(&mut self, value: f64, placement: Placement) {
        (self.0)(value, placement);
    }
}

/// The first strictly best drop kept, the drops that cannot beat it skipped.
pub(super) struct KeepBest<'b, C> {
    pub(super) best: &'b mut Option<(f64, Placement)>,
    /// The best value so far, minus infinity before the first: a finite value at most
    /// this cannot be kept.
    pub(super) threshold: f64,
    pub(super) limit: Option<C>,
}

impl<C: Ceiling> Visitor for KeepBest<'_, C> {
    #[inline(always)]
    fn skips_early<const DETAIL: bool>(&self, top: u32, floor: &BoardFeatures) -> bool {
        // At most the best so far: `keep_best` would not take it.
        self.limit
            .is_some_and(|limit| limit.early::<DETAIL>(top, floor) <= self.threshold)
    }

    #[inline(always)]
    fn skips<const DETAIL: bool>(&self, top: u32, features: &BoardFeatures) -> bool {
        self.limit
            .is_some_and(|limit| limit.later::<DETAIL>(top, features) <= self.threshold)
    }

    #[inline(always)]
    fn visit(&mut self, value: f64, placement: Placement) {
        keep_best(self.best, value, placement);
        if let Some((score, _)) = self.best {
            self.threshold = *score;
        }
    }
}

/// Keeps `placement` in `best` if its value beats the best so far (so the first of equals
/// stays).
#[inline(always)]
pub(crate) fn keep_best(best: &mut Option<(f64, Placement)>, value: f64, placement: Placement) {
    if best.is_none_or(|(score, _)| value > score) {
        *best = Some((value, placement));
    }
}

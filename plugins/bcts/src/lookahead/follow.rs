//! The follow-up of a first placement: the best value of a placement of the previewed
//! piece on the board it leaves, by the drops under `simplified`, else by the list of
//! placements.

use super::{Context, Second};
use crate::bound::Bound;
use crate::ceilings::{Ceiling, Ceilings};
use crate::columns::{Columns, Dropped};
use crate::drops::Reach;
use crate::evaluate;
use crate::features::{BoardFeatures, Landing};
use crate::rater::{Rater, Shape};
use tetrad_plugin_api::{placements_into, Board, PieceId, Placement};

/// One orientation's drops in a follow-up, as [`Context::follow_up_of`] takes them: the
/// second piece's board, the bound, the orientation's shape and columns, the board's
/// features with the orientation's rest of the bound, and the running best value.
type OrientationDrops<'s, 'b> = (
    &'s Second<'b>,
    &'s Bound,
    (&'s Shape, &'s Reach),
    (&'s BoardFeatures, f64),
    &'s mut f64,
);

impl Context<'_> {
    /// The follow-up of a first placement by the drops of the second piece, when it
    /// matters: exactly [`Context::follow_up`] when that beats the best so far, else a
    /// value that does not beat it either. A drop that clears no row is rated only when
    /// its bound, with its exact landing height, then that bound with the cumulative
    /// wells at their floor, then the ceiling of its floor features (read from the column
    /// tops, before any cell), and then its value with the wells at their floor (every
    /// other feature exact) beat both the best value of this follow-up so far and the best
    /// follow-up so far; the others are skipped, since their values could change neither.
    ///
    /// The drops are visited from the last orientation back, and in each from the
    /// rightmost column: the maximum is the same in any order (a skipped drop could not
    /// raise it), only how soon a strong drop raises the cut changes, and this order
    /// skipped more drops than the enumeration order on seeded 10-wide games.
    pub(super) fn follow_up_within(&self, second: &Second, bound: &Bound, reaches: &[Reach]) -> f64 {
        let totals = second.columns.totals();
        let mut value = f64::NEG_INFINITY;
        for reach in reaches.iter().rev() {
            let shape = &self.shapes[second.next.index()][usize::from(reach.orientation())];
            let rest = bound.rest(&totals, second.next, reach.orientation());
            let drops = (second, bound, (shape, reach), (&totals, rest), &mut value);
            by_width_and_detail!(
                shape.columns.width,
                self.weights.detail(),
                self.follow_up_of::<W, DETAIL>(drops)
            )
        }
        value
    }

    /// [`Context::follow_up_within`] for the drops of one orientation, `W` columns wide:
    /// each rated as [`Rater::visit_all_drops`] rates it, into the running best `value`.
    #[inline(always)]
    pub(super) fn follow_up_of<const W: usize, const DETAIL: bool>(&self, drops: OrientationDrops) {
        let (_, _, (shape, _), _, _) = drops;
        if shape.columns.is_plain() {
            self.follow_up_as::<W, DETAIL, true>(drops);
        } else {
            self.follow_up_as::<W, DETAIL, false>(drops);
        }
    }

    /// [`Context::follow_up_of`] for a piece [`crate::columns::PieceColumns::is_plain`] or
    /// not as `PLAIN` says (asked once an orientation, not at every drop). The drops'
    /// early ceiling is asked in two stages (see [`Columns::drop_bounded_as`]): the
    /// follow-ups' cut is high, and most drops fall to the first.
    #[inline(always)]
    fn follow_up_as<const W: usize, const DETAIL: bool, const PLAIN: bool>(
        &self,
        (second, bound, (shape, reach), (totals, rest), value): OrientationDrops,
    ) {
        let height = second.columns.height();
        let piece_height = shape.height as u32;
        let ceilings = Ceilings::new(self.weights, bound, totals, height, shape);
        // The landing bound with the box's top at row 0; each row lower takes one
        // landing weight off (grouped as the ceilings group it: the margin covers it).
        let from_top = bound.landing(height.saturating_sub(piece_height), piece_height) + rest;
        for &x in reach.xs().iter().rev() {
            // A bound at most this cannot change this follow-up's best nor win with it.
            let cut = value.max(second.cut);
            // First the bound from the board's features and the drop's landing height
            // alone, which costs no feature of the drop; then the drop's two ceilings, from
            // its floor features and with only the cumulative wells at their floor (see
            // `Rater::rate_drops`): most drops the first tests leave are skipped by the
            // floor, whose holes and column transitions come from the column tops.
            let landed = |top: u32| {
                let limit = from_top - bound.landing_weight() * f64::from(top);
                limit <= cut || {
                    let floor = totals.cumulative_wells - second.columns.wells_in::<W>(reach.box_left(x));
                    limit + bound.wells(floor) <= cut
                }
            };
            let early = |top: u32, floor: &BoardFeatures| ceilings.early::<DETAIL>(top, floor) <= cut;
            let skip = |top: u32, features: &BoardFeatures| ceilings.later::<DETAIL>(top, features) <= cut;
            let rated = match second.columns.drop_bounded_as::<W, DETAIL, PLAIN, true>(
                &shape.columns,
                reach.box_left(x),
                landed,
                early,
                skip,
            ) {
                None | Some(Dropped::Over { .. }) => continue,
                Some(Dropped::Clears { top }) => {
                    let (box_top, box_left) = (top as usize, reach.box_left(x));
                    // The wells after a clear are at least those before it (see
                    // `bound`'s module note), so at least their floor.
                    let wells = bound.wells(totals.cumulative_wells - second.columns.wells_in::<W>(box_left));
                    let at = (box_top, box_left);
                    let most = self.clearing_bound(bound, second, totals, reach, at, (wells, cut));
                    if most.is_some_and(|most| most <= cut) {
                        continue;
                    }
                    let placement = reach.placement(x, (top as i32 - i32::from(shape.top)) as i8, second.spawn);
                    let (rules, pieces, weights) = (self.rules, self.pieces, self.weights);
                    let outcome = evaluate(rules, pieces, second.board, second.next, placement.pos, weights);
                    outcome.map_or(f64::NEG_INFINITY, |(_, v)| v)
                }
                Some(Dropped::Open { top, features }) => {
                    let landing = Landing {
                        bottom: height - (top + piece_height),
                        piece_height,
                        lines: 0,
                        piece_cells_cleared: 0,
                    };
                    self.weights.value(&features, &landing)
                }
            };
            *value = value.max(rated);
        }
    }

    /// The best value of a placement of `next` from where it enters `board` (whose columns
    /// `columns` holds); minus infinity when every one ends the game.
    pub(super) fn follow_up(
        &self,
        board: &Board,
        columns: &Columns,
        next: PieceId,
        second: &mut Vec<Placement>,
    ) -> f64 {
        let rater = Rater::new(self.rules, self.pieces, self.shapes, self.weights, board, columns);
        let spawn = self.rules.enter(board, self.pieces.kind(next));
        let mut best = f64::NEG_INFINITY;
        if let Some(reaches) = self.drops.and_then(|drops| drops.from(next, spawn)) {
            for reach in reaches {
                rater.visit_all_drops(next, reach, spawn, |value, _| best = best.max(value));
            }
        } else {
            placements_into(self.rules, board, self.pieces.kind(next), spawn, second);
            for p in second.iter() {
                if let Some(value) = rater.value(next, p.pos) {
                    best = best.max(value);
                }
            }
        }
        best
    }
}

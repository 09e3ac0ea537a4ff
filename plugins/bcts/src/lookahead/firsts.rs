//! The first placements of the two-piece search under `simplified`: each dropped on the
//! board's columns as the one-piece search drops it, which gives the features of the
//! board it leaves (its bound) and its one-piece value with them (its place in the
//! search). The cumulative wells are left at their floor, the costliest feature: the
//! bound has no term for them, and the order of the search changes its cost alone.

use super::{Candidate, Context, FirstDrop};
use crate::bound::Bound;
use crate::columns::{Columns, Dropped};
use crate::drops::Reach;
use crate::features::{BoardFeatures, Landing};
use crate::rater::Shape;
use tetrad_plugin_api::{PieceId, PiecePos, MAX_PIECE_SIZE, MAX_WIDTH};

impl Context<'_> {
    /// Adds every drop of one orientation of `piece` from `start` to `candidates`, with
    /// what it does to the board.
    pub(super) fn drop_firsts(
        &self,
        columns: &Columns,
        piece: PieceId,
        reach: &Reach,
        start: PiecePos,
        candidates: &mut Vec<Candidate>,
    ) {
        let shape = &self.shapes[piece.index()][usize::from(reach.orientation())];
        by_width_and_detail!(
            shape.columns.width,
            self.weights.detail(),
            self.drop_firsts_of::<W, DETAIL>(columns, shape, reach, start, candidates)
        )
    }

    /// The most [`Bound::reach`] over the orientations of `next`, each with the least
    /// landing of its drops on the board `columns` holds, `width` columns wide (a first
    /// placement that clears no row only raises the column tops, so no drop lands lower
    /// after it; minus infinity when every drop ends the game), and the least landing
    /// height of those drops (0 when every drop ends the game).
    pub(super) fn reach(
        &self,
        columns: &Columns,
        width: usize,
        next: PieceId,
        reaches: &[Reach],
        bound: &Bound,
    ) -> (f64, f64) {
        // The landing worked out here as `Columns::drop_bounded` works it out, from the
        // tops copied once into an array: read from the columns' slots at every drop, it
        // cost the two-piece search 360 instructions a piece more.
        let mut tops = [0i32; MAX_WIDTH];
        for (x, top) in tops[..width].iter_mut().enumerate() {
            *top = columns.top(x) as i32;
        }
        let (mut most, mut least) = (f64::NEG_INFINITY, f64::INFINITY);
        for reach in reaches {
            let shape = &self.shapes[next.index()][usize::from(reach.orientation())];
            let piece = &shape.columns;
            // The lowest box top of the orientation's drops: the highest row. (For a
            // width known when compiled, each drop's columns are one window, bounds-checked
            // once, and the loop over them unrolled.)
            let lowest = match piece.width {
                1 => lowest_top::<1>(&tops, &piece.depth, reach),
                2 => lowest_top::<2>(&tops, &piece.depth, reach),
                3 => lowest_top::<3>(&tops, &piece.depth, reach),
                4 => lowest_top::<4>(&tops, &piece.depth, reach),
                width => reach.xs().iter().fold(-1, |lowest, &x| {
                    let left = reach.box_left(x);
                    let top = (0..width).map(|j| tops[left + j] - piece.depth[j]).min().unwrap_or(-1);
                    lowest.max(top)
                }),
            };
            // A drop whose box top is above the board ends the game.
            if lowest >= 0 {
                let bottom = columns.height() - (lowest as u32 + shape.height as u32);
                most = most.max(bound.reach(next, reach.orientation(), bottom, shape.height as u32));
                least = least.min(f64::from(bottom) + (shape.height - 1) as f64 / 2.0);
            }
        }
        (most, if least.is_finite() { least } else { 0.0 })
    }

    /// [`Context::drop_firsts`] for an orientation `W` columns wide.
    fn drop_firsts_of<const W: usize, const DETAIL: bool>(
        &self,
        columns: &Columns,
        shape: &Shape,
        reach: &Reach,
        start: PiecePos,
        candidates: &mut Vec<Candidate>,
    ) {
        let height = columns.height();
        for &x in reach.xs() {
            let left = reach.box_left(x);
            // The features with the wells at their floor: the bound needs no wells.
            let mut floor = None;
            let dropped = columns.drop_unless::<W, DETAIL>(
                &shape.columns,
                left,
                |_| false,
                |top, features| {
                    floor = Some(Dropped::Open {
                        top,
                        features: *features,
                    });
                    true
                },
            );
            let drop = dropped.or(floor).expect("a drop is rated or left at its floor");
            // The floor drop lands as the exact one, with its features but the wells,
            // which are at most the exact ones.
            debug_assert!(match (drop, columns.drop_of::<W, DETAIL>(&shape.columns, left)) {
                (
                    Dropped::Open { top, features },
                    Dropped::Open {
                        top: exact_top,
                        features: exact,
                    },
                ) => {
                    let wells = exact.cumulative_wells;
                    top == exact_top
                        && features.cumulative_wells <= wells
                        && BoardFeatures {
                            cumulative_wells: wells,
                            ..features
                        } == exact
                }
                (drop, exact) => drop == exact,
            });
            let placement = reach.placement(x, (drop.top() - i32::from(shape.top)) as i8, start);
            let (first_value, drop) = match drop {
                Dropped::Over { .. } => (f64::NEG_INFINITY, FirstDrop::Over),
                Dropped::Clears { .. } => (f64::INFINITY, FirstDrop::Clears),
                Dropped::Open { top, features } => {
                    let landing = Landing {
                        bottom: height - (top + shape.height as u32),
                        piece_height: shape.height as u32,
                        lines: 0,
                        piece_cells_cleared: 0,
                    };
                    let value = self.weights.value(&features, &landing);
                    (value, FirstDrop::Open { left, top, features })
                }
            };
            let index = candidates.len() as u32;
            debug_assert!(index < 1 << super::INDEX_BITS, "a rank holds the index");
            candidates.push(Candidate {
                index,
                placement,
                first_value,
                drop,
            });
        }
    }
}

/// The lowest box top, the highest row, of the drops in `reach` of an orientation `W`
/// columns wide, whose box's top rests `depth[j]` rows above the top of its column `j`
/// (`PieceColumns::depth`), on the board whose column tops are `tops`; -1 when there is
/// none.
#[inline(always)]
fn lowest_top<const W: usize>(tops: &[i32; MAX_WIDTH], depth: &[i32; MAX_PIECE_SIZE], reach: &Reach) -> i32 {
    let mut lowest = -1;
    for &x in reach.xs() {
        let left = reach.box_left(x);
        let window: &[i32; W] = tops[left..left + W].try_into().expect("a drop's columns");
        let mut top = i32::MAX;
        for j in 0..W {
            top = top.min(window[j] - depth[j]);
        }
        lowest = lowest.max(top);
    }
    lowest
}

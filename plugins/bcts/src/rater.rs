//! The rater: the value of each placement of one piece on one board, from the board's
//! per-column terms and the few columns the piece changes, with the full pass of
//! [`crate::evaluate()`] for a placement that clears rows.

use crate::bound::Bound;
use crate::ceilings::{Ceilings, WholeCeilings};
use crate::columns::{Columns, Dropped, PieceColumns};
use crate::drops::Reach;
use crate::evaluate;
use crate::features::{Landing, Weights};
use crate::surface::Surface;
use tetrad_plugin_api::{Board, PieceId, PiecePos, PieceSet, Placement, Preset, Rules, MAX_PIECE_SIZE};
pub(crate) use visitors::keep_best;
use visitors::{Every, KeepBest, Visitor};

/// One orientation of a piece, as the rater reads it for every placement.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Shape {
    /// Offsets of the bounding box from the piece's position.
    pub(crate) top: i8,
    pub(crate) left: i8,
    /// Rows of the box, from its top, bit 0 the box's left column; `height` of them.
    pub(crate) rows: [u32; MAX_PIECE_SIZE],
    pub(crate) height: usize,
    pub(crate) columns: PieceColumns,
}

/// Each piece's orientations as [`Shape`]s.
pub(crate) type Shapes = Vec<Vec<Shape>>;

pub(crate) fn shapes(pieces: &PieceSet) -> Shapes {
    let shape = |o: &tetrad_plugin_api::Orientation| {
        let mut rows = [0; MAX_PIECE_SIZE];
        rows[..o.row_masks().len()].copy_from_slice(o.row_masks());
        Shape {
            top: o.top(),
            left: o.left(),
            rows,
            height: usize::from(o.height()),
            columns: PieceColumns::new(o.row_masks(), usize::from(o.width())),
        }
    };
    let kinds = pieces.kinds().iter();
    kinds
        .map(|kind| kind.orientations().iter().map(shape).collect())
        .collect()
}

/// Rates every placement on one board: by the incremental features when the placement
/// clears no row, by [`evaluate()`] when it does. Gives exactly `evaluate`'s value.
pub(crate) struct Rater<'a> {
    rules: &'a Rules,
    pieces: &'a PieceSet,
    shapes: &'a Shapes,
    weights: &'a Weights,
    board: &'a Board,
    pub(crate) columns: &'a Columns,
    /// [`Weights::detail`], read once per board: asking the weights at every placement
    /// costs 1% more instructions in `tetrad run`.
    detail: bool,
}

impl<'a> Rater<'a> {
    /// A rater of placements on `board`, whose columns `columns` holds.
    pub(crate) fn new(
        rules: &'a Rules,
        pieces: &'a PieceSet,
        shapes: &'a Shapes,
        weights: &'a Weights,
        board: &'a Board,
        columns: &'a Columns,
    ) -> Rater<'a> {
        Rater {
            rules,
            pieces,
            shapes,
            weights,
            board,
            columns,
            detail: weights.detail(),
        }
    }

    /// The placement's value, `None` if it ends the game.
    #[inline(always)]
    pub(crate) fn value(&self, piece: PieceId, pos: PiecePos) -> Option<f64> {
        let shape = &self.shapes[piece.index()][usize::from(pos.orientation)];
        match self.outcome(piece, shape, pos) {
            Outcome::Valued(value) => value,
            Outcome::Open { left, top, landing } => {
                let board = self.columns.with_piece(&shape.columns, left, top, self.detail);
                Some(self.with_surface(self.weights.value(&board, &landing), shape, left, top))
            }
        }
    }

    /// `value` plus the surface features' share, when they carry weight, of the board
    /// after `shape`'s box lands at column `left`, row `top` and clears no row.
    #[inline(always)]
    fn with_surface(&self, value: f64, shape: &Shape, left: usize, top: u32) -> f64 {
        match self.weights.surface() {
            None => value,
            Some(surface) => self.plus_surface(surface, value, shape, left, top),
        }
    }

    /// [`Rater::with_surface`] when the surface carries weight: out of line, so the
    /// published controllers' loops stay as small as they were.
    #[inline(never)]
    fn plus_surface(&self, surface: &Surface, value: f64, shape: &Shape, left: usize, top: u32) -> f64 {
        let rows = self.board.height() as u32;
        let mut heights = [0; 32];
        let heights = &mut heights[..self.board.width()];
        for (x, height) in heights.iter_mut().enumerate() {
            *height = rows - self.columns.top(x);
        }
        for (j, &cells) in shape.columns.cells[..shape.columns.width].iter().enumerate() {
            let cell_top = top + cells.trailing_zeros();
            heights[left + j] = heights[left + j].max(rows - cell_top);
        }
        value + surface.value(heights)
    }

    /// What is known of the placement before the features of a board that clears no row:
    /// its value when it ends the game or clears rows, else where its box lands.
    #[inline(always)]
    fn outcome(&self, piece: PieceId, shape: &Shape, pos: PiecePos) -> Outcome {
        let top = i32::from(pos.y) + i32::from(shape.top);
        if top < 0 {
            return Outcome::Valued(None);
        }
        let top = top as usize;
        let left = (i32::from(pos.x) + i32::from(shape.left)) as usize;
        let full = self.board.full_row();
        let rows = &self.board.rows()[top..top + shape.height];
        let mut clears = false;
        for (&row, &mask) in rows.iter().zip(&shape.rows) {
            clears |= row | mask << left == full;
        }
        if clears {
            let (rules, pieces, board, weights) = (self.rules, self.pieces, self.board, self.weights);
            return Outcome::Valued(evaluate(rules, pieces, board, piece, pos, weights).map(|(_, value)| value));
        }
        if self.rules.preset == Preset::Leiden {
            let row = Rules::LEIDEN_TOP_ROWS - 1;
            let piece_row = row.checked_sub(top).and_then(|i| shape.rows[..shape.height].get(i));
            if self.board.rows()[row] | piece_row.map_or(0, |&mask| mask << left) != 0 {
                return Outcome::Valued(None);
            }
        }
        let landing = Landing {
            bottom: (self.board.height() - (top + shape.height)) as u32,
            piece_height: shape.height as u32,
            lines: 0,
            piece_cells_cleared: 0,
        };
        Outcome::Open {
            left,
            top: top as u32,
            landing,
        }
    }

    /// Rates every drop of one orientation of `piece` from `start`, keeping the first
    /// strictly best in `best`. With a `bound` (every weight but eroded cells' at most 0
    /// and no surface features, as [`Bound::new`] asks), a drop that fills no row is left
    /// unrated when a ceiling on its value is no better than the best so far, so it could
    /// not replace the best, and the choice is the same. Two ceilings, each at least the
    /// drop's value since its features are at least their floors and every weight that
    /// counts is at most 0 ([`Columns::drop_bounded`]):
    /// - before any cell is read, the weighted sum of its floor features, grouped as
    ///   [`Ceiling::early`] groups it and raised by [`Bound::margin`], which covers the
    ///   rounding of both sums;
    /// - then the same with its row transitions exact ([`Ceiling::later`]).
    ///
    /// [`Ceiling::early`]: crate::ceilings::Ceiling::early
    /// [`Ceiling::later`]: crate::ceilings::Ceiling::later
    ///
    /// With whole weights both are summed in integers, exactly, as the values are
    /// ([`WholeCeilings`]).
    #[inline(always)]
    pub(crate) fn rate_drops(
        &self,
        piece: PieceId,
        reach: &Reach,
        start: PiecePos,
        best: &mut Option<(f64, Placement)>,
        bound: Option<&Bound>,
    ) {
        let threshold = best.map_or(f64::NEG_INFINITY, |(score, _)| score);
        let Some(bound) = bound else {
            let limit: Option<Ceilings> = None;
            return self.visit_drops(piece, reach, start, KeepBest { best, threshold, limit });
        };
        let shape = &self.shapes[piece.index()][usize::from(reach.orientation())];
        let (totals, height) = (self.columns.totals(), self.board.height() as u32);
        // Whole weights take their own loop, with ceilings summed in integers.
        if let Some(whole) = self.weights.whole() {
            let limit = Some(WholeCeilings::new(whole, &totals, height, shape));
            self.visit_drops(piece, reach, start, KeepBest { best, threshold, limit });
        } else {
            let limit = Some(Ceilings::new(self.weights, bound, &totals, height, shape));
            self.visit_drops(piece, reach, start, KeepBest { best, threshold, limit });
        }
    }

    /// Gives `visit` every drop of one orientation of `piece` from `start`, left to right,
    /// with its value.
    #[inline(always)]
    pub(crate) fn visit_all_drops(
        &self,
        piece: PieceId,
        reach: &Reach,
        start: PiecePos,
        visit: impl FnMut(f64, Placement),
    ) {
        self.visit_drops(piece, reach, start, Every(visit));
    }

    /// Gives `visitor` the drops of one orientation of `piece` from `start` it does not
    /// skip, left to right, with their values.
    #[inline(always)]
    fn visit_drops(&self, piece: PieceId, reach: &Reach, start: PiecePos, visit: impl Visitor) {
        // Once per orientation, not per placement: whether the surface features count, the
        // piece's width and whether the detail features count, as constants the feature
        // loops unroll on (so the published controllers' loops carry no surface code).
        if self.weights.surface().is_some() {
            self.visit_drops_with_surface(piece, reach, start, visit);
        } else {
            self.visit_drops_by::<false>(piece, reach, start, visit);
        }
    }

    /// [`Rater::visit_drops`] with the surface features, out of line: the published
    /// controllers' search keeps its size.
    #[inline(never)]
    fn visit_drops_with_surface(&self, piece: PieceId, reach: &Reach, start: PiecePos, visit: impl Visitor) {
        self.visit_drops_by::<true>(piece, reach, start, visit);
    }

    /// [`Rater::visit_drops`], the surface features counted or not.
    #[inline(always)]
    fn visit_drops_by<const SURFACE: bool>(&self, piece: PieceId, reach: &Reach, start: PiecePos, visit: impl Visitor) {
        let shape = &self.shapes[piece.index()][usize::from(reach.orientation())];
        by_width_and_detail!(
            shape.columns.width,
            self.detail,
            self.visit_drops_of::<W, DETAIL, SURFACE>(piece, shape, reach, start, visit),
            _ => self.visit_landed(piece, reach, start, visit)
        )
    }

    /// [`Rater::visit_drops`] for an orientation `W` columns wide: each drop landed and
    /// rated on the columns alone, the board's rows read only when rows fill.
    #[inline(always)]
    fn visit_drops_of<const W: usize, const DETAIL: bool, const SURFACE: bool>(
        &self,
        piece: PieceId,
        shape: &Shape,
        reach: &Reach,
        start: PiecePos,
        visit: impl Visitor,
    ) {
        // Whether the piece is plain (every tetromino is), asked once an orientation.
        if shape.columns.is_plain() {
            self.visit_drops_as::<W, DETAIL, SURFACE, true>(piece, shape, reach, start, visit);
        } else {
            self.visit_drops_as::<W, DETAIL, SURFACE, false>(piece, shape, reach, start, visit);
        }
    }

    /// [`Rater::visit_drops_of`] for a piece [`PieceColumns::is_plain`] or not as `PLAIN`
    /// says.
    #[inline(always)]
    fn visit_drops_as<const W: usize, const DETAIL: bool, const SURFACE: bool, const PLAIN: bool>(
        &self,
        piece: PieceId,
        shape: &Shape,
        reach: &Reach,
        start: PiecePos,
        mut visit: impl Visitor,
    ) {
        for &x in reach.xs() {
            let drop = self.columns.drop_bounded_as::<W, DETAIL, PLAIN, false>(
                &shape.columns,
                reach.box_left(x),
                |_| false,
                // The early ceiling only where hole depth and rows with holes count: with
                // Dellacherie's weights it saves 600 instructions a piece, but its outcome
                // is a coin toss that the processor mispredicts, and the run takes about
                // 6% more time (BENCHMARKS.md, eighth round); with BCTS's it saves time.
                |top, floor| DETAIL && visit.skips_early::<DETAIL>(top, floor),
                |top, features| visit.skips::<DETAIL>(top, features),
            );
            let Some(drop) = drop else {
                continue;
            };
            let placement = reach.placement(x, (drop.top() - i32::from(shape.top)) as i8, start);
            let value = match drop {
                Dropped::Over { .. } => f64::NEG_INFINITY,
                Dropped::Clears { .. } => {
                    let (rules, pieces, board, weights) = (self.rules, self.pieces, self.board, self.weights);
                    evaluate(rules, pieces, board, piece, placement.pos, weights).map_or(f64::NEG_INFINITY, |(_, v)| v)
                }
                Dropped::Open { top, features } => {
                    let landing = Landing {
                        bottom: self.board.height() as u32 - (top + shape.height as u32),
                        piece_height: shape.height as u32,
                        lines: 0,
                        piece_cells_cleared: 0,
                    };
                    let value = self.weights.value(&features, &landing);
                    if !SURFACE {
                        value
                    } else {
                        match self.weights.surface() {
                            Some(surface) => self.plus_surface(surface, value, shape, reach.box_left(x), top),
                            None => value,
                        }
                    }
                }
            };
            visit.visit(value, placement);
        }
    }

    /// [`Rater::visit_drops`] for wider orientations: each drop landed, then rated as any
    /// placement.
    fn visit_landed(&self, piece: PieceId, reach: &Reach, start: PiecePos, mut visit: impl Visitor) {
        for &x in reach.xs() {
            let placement = reach.land(x, start, |x| self.columns.top(x));
            visit.visit(self.value(piece, placement.pos).unwrap_or(f64::NEG_INFINITY), placement);
        }
    }
}

/// A placement as [`Rater::outcome`] leaves it.
enum Outcome {
    /// Its value (`None` if it ends the game): it clears rows, or ends the game.
    Valued(Option<f64>),
    /// It clears no row: its box's column and row, and the landing.
    Open { left: usize, top: u32, landing: Landing },
}

mod visitors;

//! The two-piece search: each placement of the current piece rated by the best value of a
//! placement of the previewed piece on the board it leaves.
//!
//! The board after a first placement that clears no row is the current board's columns
//! with the piece added ([`Columns::place`] on a copy of the window the board uses), not
//! a rebuild; the second piece is rated as the one-piece search rates its piece (by the
//! drops under `simplified`).

use crate::columns::Columns;
use crate::drops::Drops;
use crate::features::Weights;
use crate::order::Order;
use crate::rater::{keep_best, Rater, Shapes};
use tetrad_plugin_api::{placements_into, Board, PieceId, PiecePos, PieceSet, Placement, Rules};

/// What a two-piece search reads: the game's rules and pieces and the controller's tables.
pub(crate) struct Context<'a> {
    pub(crate) rules: &'a Rules,
    pub(crate) pieces: &'a PieceSet,
    pub(crate) shapes: &'a Shapes,
    pub(crate) drops: Option<&'a Drops>,
    pub(crate) weights: &'a Weights,
    pub(crate) order: Option<&'a Order>,
}

/// The buffers a search reuses from one decision to the next.
pub(crate) struct Scratch {
    /// The board after the first placement, and its columns.
    board: Board,
    columns: Box<Columns>,
    first: Vec<Placement>,
    second: Vec<Placement>,
}

impl Scratch {
    pub(crate) fn new() -> Scratch {
        Scratch {
            board: Board::new(1, 1),
            columns: Box::new(Columns::empty()),
            first: Vec::new(),
            second: Vec::new(),
        }
    }
}

impl Context<'_> {
    /// The first strictly best placement of `piece` from `start` on `board` (whose
    /// columns `columns` holds), each rated by its best follow-up with `next`.
    pub(crate) fn rate(
        &self,
        board: &Board,
        columns: &Columns,
        piece: PieceId,
        start: PiecePos,
        next: PieceId,
        scratch: &mut Scratch,
    ) -> Option<(f64, Placement)> {
        let Scratch {
            board: after,
            columns: after_columns,
            first,
            second,
        } = scratch;
        placements_into(self.rules, board, self.pieces.kind(piece), start, first);
        if let Some(order) = self.order {
            order.sort(piece, first);
        }
        let mut best = None;
        for placement in first.iter() {
            let value = if self.after(board, columns, piece, placement.pos, after, after_columns) {
                self.follow_up(after, after_columns, next, second)
            } else {
                f64::NEG_INFINITY
            };
            keep_best(&mut best, value, *placement);
        }
        best
    }

    /// Whether the game goes on after `piece` at `pos` on `board`; if so, the board after
    /// it is in `after` and its columns in `into`: the board's `columns` with the piece
    /// added when it clears no row, else a rebuild.
    fn after(
        &self,
        board: &Board,
        columns: &Columns,
        piece: PieceId,
        pos: PiecePos,
        after: &mut Board,
        into: &mut Columns,
    ) -> bool {
        let orientation = self.pieces.kind(piece).orientation(pos.orientation);
        after.clone_from(board);
        if !after.place(orientation, pos.x, pos.y) {
            return false;
        }
        let shape = &self.shapes[piece.index()][usize::from(pos.orientation)];
        let top = (i32::from(pos.y) + i32::from(shape.top)) as usize;
        let full = after.full_row();
        let clears = after.rows()[top..top + shape.height].contains(&full);
        let lock = tetrad_plugin_api::Lock {
            lines: if clears { after.clear_full_rows() } else { 0 },
            above_board: false,
        };
        if self.rules.lock_ends_game(&lock, after) {
            return false;
        }
        if clears {
            into.rebuild(after);
        } else {
            into.copy_from(columns);
            let left = (i32::from(pos.x) + i32::from(shape.left)) as usize;
            into.place(&shape.columns, left, top as u32);
        }
        true
    }

    /// The best value of a placement of `next` from its spawn on `board` (whose columns
    /// `columns` holds); minus infinity when every one ends the game.
    fn follow_up(&self, board: &Board, columns: &Columns, next: PieceId, second: &mut Vec<Placement>) -> f64 {
        let rater = Rater::new(self.rules, self.pieces, self.shapes, self.weights, board, columns);
        let spawn = self.rules.spawn(self.pieces.kind(next));
        let mut best = f64::NEG_INFINITY;
        if let Some(reaches) = self.drops.and_then(|drops| drops.from(next, spawn)) {
            for reach in reaches {
                rater.visit_drops(next, reach, spawn, |value, _| best = best.max(value));
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

#[cfg(test)]
mod tests;

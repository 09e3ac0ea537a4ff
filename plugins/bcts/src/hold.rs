//! Holding (`hold=true`, under rules with hold): at each new piece the piece a hold would
//! bring in is rated as well, and the falling piece is held when that one's best
//! placement is strictly better.

use crate::Controller;
use tetrad_plugin_api::{Board, FallingPiece, PieceId, Placement, Tick};

/// A decision that weighs holding.
#[derive(Debug, PartialEq)]
pub enum Held {
    /// Hold: the piece that comes in does strictly better.
    Hold,
    /// Keep the falling piece, and place it here (`None`: it has no placement).
    Keep(Option<Placement>),
}

impl Controller {
    /// With a hold possible, the piece a hold brings in and, under
    /// `lookahead=2`, the piece that would follow it; `None` when holding is not weighed
    /// (or cannot be rated alike: a follow-up the preview does not show).
    pub(crate) fn swap(&self, tick: &Tick, current: FallingPiece) -> Option<(PieceId, Option<PieceId>)> {
        let swap = tick.hold_swap().filter(|&swap| swap != current.id)?;
        if self.lookahead < 2 {
            return Some((swap, None));
        }
        // Out of the hold, the next piece still follows; from the queue, the one after it.
        let follow = if tick.hold.is_some() {
            tick.next
        } else {
            tick.queue.get(1).copied()
        };
        follow.map(|follow| (swap, Some(follow)))
    }

    /// Holds if `swap`'s best placement (rated with `swap_next`, under `lookahead=2`) is
    /// strictly better than the falling piece's (rated with `next`); else the falling
    /// piece's choice, as [`Controller::choose`] makes it.
    pub fn choose_or_hold(
        &mut self,
        board: &Board,
        current: FallingPiece,
        next: Option<PieceId>,
        swap: PieceId,
        swap_next: Option<PieceId>,
    ) -> Held {
        self.prepare(board);
        let mut kept: Option<(f64, Placement)> = None;
        self.rate(board, current.id, current.pos, next, &mut kept);
        let mut swapped: Option<(f64, Placement)> = None;
        let spawn = self.setup.rules.enter(board, self.setup.pieces.kind(swap));
        self.rate(board, swap, spawn, swap_next, &mut swapped);
        match (kept, swapped) {
            (Some((kept, _)), Some((swapped, _))) if swapped > kept => Held::Hold,
            (None, Some(_)) => Held::Hold,
            (Some((_, chosen)), _) => {
                self.carry(board, current.id, chosen.pos);
                Held::Keep(Some(chosen))
            }
            (None, None) => Held::Keep(None),
        }
    }
}

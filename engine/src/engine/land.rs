//! A placement of the move generator played at once, without its ticks: the batch of
//! games in Python plays millions of them.

use super::{Falling, Game, TickReport};
use tetrad_plugin_api::{Placement, RotationSystem};

impl Game {
    /// Plays `placement`, one of [`placements_into`](tetrad_plugin_api::placements_into)'s
    /// for the falling piece on this board, at once: the game is then the same as after
    /// playing its path ([`Placement::path`]) tick by tick, its ticks counted, the piece
    /// locked where the path locks it. Returns the report of the tick that locks it, or
    /// `None`, having played nothing, where playing at once is not known to be the same:
    /// a game on a clock (its time moves tick by tick), turns that kick (a T-spin depends
    /// on the last kick), or a game without a falling piece.
    ///
    /// A placement of another board or piece is a caller's mistake: the piece locks where
    /// the placement says, which a path might not reach.
    pub fn land(&mut self, placement: &Placement) -> Option<TickReport> {
        if self.over || self.clock.is_some() || self.rules.rotation() != RotationSystem::InBox {
            return None;
        }
        let falling = self.current?;
        debug_assert!(
            self.board.fits(
                self.pieces.kind(falling.piece).orientation(placement.pos.orientation),
                placement.pos.x,
                placement.pos.y
            ),
            "a placement of another board"
        );
        let ticks = placement.lock_ticks(self.rules.movement(), falling.pos);
        self.stats.ticks += u64::from(ticks);
        self.piece_ticks += ticks;
        self.new_piece = false;
        // Read only by a T-spin under SRS, and set again when the next piece enters.
        self.last_kick = None;
        let falling = Falling {
            piece: falling.piece,
            pos: placement.pos,
        };
        self.current = Some(falling);
        Some(self.lock(falling))
    }
}

#[cfg(test)]
mod tests;

//! What a game shows: the read-only views of a [`Game`] (its rules, board, pieces, queue,
//! hold, scoring state and totals) that players, the referee and the screens read.

use super::{Falling, Game, Stats};
use std::sync::Arc;
use tetrad_plugin_api::{Board, PieceId, PieceSet, Rules};

impl Game {
    /// The rules.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The piece set.
    pub fn pieces(&self) -> &Arc<PieceSet> {
        &self.pieces
    }

    /// The board without the falling piece.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The falling piece, if the game is not over.
    pub fn current(&self) -> Option<Falling> {
        self.current
    }

    /// The next piece as the player sees it: `None` when the preview is off.
    pub fn preview(&self) -> Option<PieceId> {
        self.next.filter(|_| self.rules.preview > 0)
    }

    /// The held piece, under rules with hold.
    pub fn held(&self) -> Option<PieceId> {
        self.held
    }

    /// Whether the game plays a given sequence of pieces, not the rules' randomizer.
    pub fn plays_given_pieces(&self) -> bool {
        self.queue.is_given()
    }

    /// Under the 7-bag, the kinds left in the bag after the last previewed piece (see
    /// [`PieceQueue::bag_left`](super::PieceQueue::bag_left)).
    pub fn bag_left(&self) -> Option<Vec<PieceId>> {
        self.queue.bag_left()
    }

    /// Whether a hold now would act: the rules have hold, and the falling piece did not
    /// come out of a hold.
    pub fn hold_available(&self) -> bool {
        self.rules.has_hold() && !self.hold_used
    }

    /// Line-clearing locks in a row up to the last lock: 0 when the last lock cleared
    /// nothing.
    pub fn combo(&self) -> u32 {
        self.combo.map_or(0, |combo| combo + 1)
    }

    /// Whether the last clear was a difficult one, so that another earns the
    /// back-to-back bonus.
    pub fn back_to_back(&self) -> bool {
        self.back_to_back
    }

    /// Every previewed piece, the next one first (as many as the rules show, fewer at
    /// the end of a given sequence).
    pub fn queue(&self) -> impl Iterator<Item = PieceId> + '_ {
        self.preview().into_iter().chain(self.later.iter().copied())
    }

    /// True until the first tick of the current piece has been played.
    pub fn is_new_piece(&self) -> bool {
        self.new_piece
    }

    /// Ticks the current piece has been in play.
    pub fn piece_ticks(&self) -> u32 {
        self.piece_ticks
    }

    /// Totals so far.
    pub fn stats(&self) -> Stats {
        self.stats
    }

    /// Whether the game has ended by topping out.
    pub fn is_over(&self) -> bool {
        self.over
    }

    /// Whether a given sequence ran out: its last piece locked without ending the game.
    pub fn is_exhausted(&self) -> bool {
        self.exhausted
    }
}

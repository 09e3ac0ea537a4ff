//! `rate_list` spread over `split` ticks, and `movePiece`, the piece placer.
//!
//! On a new piece the move list is made from where the piece is, then one `split`-th of it
//! is rated per tick: each entry's own score plus the best score of the next piece on the
//! field it leaves (the seed's "secondary piece placements"). Until the last part is
//! rated, `update` returns no action and the piece falls by gravity; the field does not
//! change meanwhile, so the split changes when the answer is known, not what it is. Then
//! the placer turns the piece clockwise until its orientation matches, shifts it toward
//! the target column, and drops it once both match.

use crate::movegen::{create_list, Block};
use crate::rate::{rate_block, Constants};
use tetrad_plugin_api::{Actions, Board, FallingPiece, PieceId, PiecePos, PieceSet, Rules};

/// The score of a move after which the next piece cannot enter or lock: below any real
/// score, so it is chosen only when every move ends the game.
pub const GAME_OVER: i64 = -1_000_000_000;

/// The state of one game's solver between ticks.
#[derive(Clone, Debug)]
pub struct Planner {
    rules: Rules,
    pieces: PieceSet,
    constants: Constants,
    split: usize,
    list: Vec<Block>,
    next_list: Vec<Block>,
    rated: usize,
    best: Option<(i64, Block)>,
    target: Option<Block>,
}

impl Planner {
    /// A planner rating with `constants`, its work spread over `split` ticks (at least 1).
    pub fn new(rules: Rules, pieces: PieceSet, constants: Constants, split: usize) -> Planner {
        Planner {
            rules,
            pieces,
            constants,
            split: split.max(1),
            list: Vec::new(),
            next_list: Vec::new(),
            rated: 0,
            best: None,
            target: None,
        }
    }

    /// One tick: starts over on a new piece, rates the next part of the list, and once the
    /// list is rated moves the piece toward the best entry.
    pub fn update(&mut self, board: &Board, current: FallingPiece, next: Option<PieceId>, new_piece: bool) -> Actions {
        if new_piece {
            create_list(&mut self.list, board, self.pieces.kind(current.id), current.pos);
            self.rated = 0;
            self.best = None;
            self.target = None;
        }
        if self.target.is_none() {
            self.rate_part(board, current.id, next);
            if self.rated < self.split {
                return Actions::NONE;
            }
            self.target = self.best.map(|(_, block)| block);
        }
        match self.target {
            Some(target) => move_piece(current.pos, &target),
            None => Actions::DROP,
        }
    }

    /// The best entry and its score, once the whole list is rated.
    pub fn decision(&self) -> Option<(i64, Block)> {
        self.target.and(self.best)
    }

    /// Rates part `self.rated` of `split` equal parts of the list.
    fn rate_part(&mut self, board: &Board, piece: PieceId, next: Option<PieceId>) {
        let n = self.list.len();
        let (from, to) = (self.rated * n / self.split, (self.rated + 1) * n / self.split);
        self.rated += 1;
        for i in from..to {
            let block = self.list[i];
            let score = self.rate_with_next(board, piece, &block, next);
            if self.best.is_none_or(|(best, _)| score > best) {
                self.best = Some((score, block));
            }
        }
    }

    /// The score of `block` plus the best score of the next piece after it.
    fn rate_with_next(&mut self, board: &Board, piece: PieceId, block: &Block, next: Option<PieceId>) -> i64 {
        let Some((score, after)) = rate_block(&self.constants, board, self.pieces.kind(piece), block) else {
            return GAME_OVER;
        };
        let Some(next) = next else {
            return score;
        };
        let kind = self.pieces.kind(next);
        let spawn = self.rules.spawn(kind);
        if !after.fits(kind.orientation(spawn.orientation), spawn.x, spawn.y) {
            return GAME_OVER;
        }
        create_list(&mut self.next_list, &after, kind, spawn);
        let best_next = self
            .next_list
            .iter()
            .filter_map(|n| rate_block(&self.constants, &after, kind, n).map(|(s, _)| s))
            .max();
        best_next.map_or(GAME_OVER, |best| score + best)
    }
}

/// `movePiece`: turn clockwise until the orientation matches, shift toward the target
/// column (in the same tick), and DROP once both match.
pub fn move_piece(current: PiecePos, target: &Block) -> Actions {
    let mut actions = Actions::NONE;
    if current.orientation != target.pos.orientation {
        actions |= Actions::CW;
    }
    actions |= Actions::shifting(target.pos.x - current.x);
    if actions == Actions::NONE {
        Actions::DROP
    } else {
        actions
    }
}

#[cfg(test)]
mod tests;

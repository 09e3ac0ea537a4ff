//! A game together with the colour of every locked cell, which the bitboard does not keep:
//! each lock paints the piece's cells and clears full rows as the board does.

use crate::engine::{Game, Locked, TickReport};
use tetrad_plugin_api::{Actions, PieceId};

/// What fills a locked cell: the kind of the piece that left it there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cell {
    /// Left by a piece of this kind.
    Piece(PieceId),
    /// Filled, by no known piece (the colours fell out of step with the board).
    Unknown,
}

/// A game and its cell colours, kept in step tick by tick. Cheap to clone, so a replay can
/// keep checkpoints.
#[derive(Clone, Debug)]
pub struct Tracked {
    game: Game,
    /// Row-major, row 0 at the top; `None` for an empty cell.
    cells: Vec<Option<Cell>>,
}

impl Tracked {
    /// Tracks `game` from its start (an empty board).
    pub fn new(game: Game) -> Tracked {
        let size = game.rules().width * game.rules().height;
        let mut tracked = Tracked {
            game,
            cells: vec![None; size],
        };
        tracked.sync();
        tracked
    }

    /// The game.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Plays one tick and paints what locked.
    pub fn tick(&mut self, actions: Actions) -> TickReport {
        let report = self.game.tick(actions);
        if let Some(locked) = report.locked {
            self.paint(locked);
        }
        report
    }

    /// The locked cell at column `x`, row `y` (row 0 at the top), if filled.
    pub fn cell(&self, x: usize, y: usize) -> Option<Cell> {
        let width = self.game.rules().width;
        if x >= width {
            return None;
        }
        self.cells.get(y * width + x).copied().flatten()
    }

    fn paint(&mut self, locked: Locked) {
        let width = self.game.rules().width;
        let height = self.game.rules().height;
        let kind = self.game.pieces().kind(locked.piece);
        let cells = kind.orientation(locked.pos.orientation).cells();
        let at = |&(dx, dy): &(i8, i8)| {
            (
                i32::from(locked.pos.x) + i32::from(dx),
                i32::from(locked.pos.y) + i32::from(dy),
            )
        };
        // A piece with a cell above row 0 places nothing (the game is over).
        if cells.iter().map(at).all(|(_, y)| y >= 0) {
            for (x, y) in cells.iter().map(at) {
                if let Some(cell) = self.cells.get_mut(y as usize * width + x as usize) {
                    *cell = Some(Cell::Piece(locked.piece));
                }
            }
            let mut kept: Vec<Option<Cell>> = Vec::with_capacity(self.cells.len());
            for row in self.cells.chunks(width) {
                if row.iter().any(Option::is_none) {
                    kept.extend_from_slice(row);
                }
            }
            let cleared = height * width - kept.len();
            self.cells = vec![None; cleared];
            self.cells.extend(kept);
        }
        self.sync();
    }

    /// Makes the colours agree with the board: the board is the truth.
    fn sync(&mut self) {
        let width = self.game.rules().width;
        let board = self.game.board();
        for (i, cell) in self.cells.iter_mut().enumerate() {
            match (board.filled(i % width, i / width), &cell) {
                (true, None) => *cell = Some(Cell::Unknown),
                (false, Some(_)) => *cell = None,
                _ => {}
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use tetrad_plugin_api::{PieceSet, Preset, Rules};

    #[test]
    fn colours_follow_locks_and_cleared_rows() {
        let rules = Rules {
            width: 4,
            height: 6,
            ..Rules::preset(Preset::Classic)
        };
        let mut tracked = Tracked::new(Game::new(rules, Arc::new(PieceSet::tetrominoes()), 5));
        let mut guard = 0;
        while !tracked.game().is_over() && guard < 500 {
            let report = tracked.tick(Actions::DROP);
            guard += 1;
            let board = tracked.game().board();
            for y in 0..rules.height {
                for x in 0..rules.width {
                    assert_eq!(board.filled(x, y), tracked.cell(x, y).is_some(), "({x}, {y})");
                    assert_ne!(tracked.cell(x, y), Some(Cell::Unknown), "({x}, {y})");
                }
            }
            if let Some(locked) = report.locked.filter(|l| l.lines == 0 && !report.topped_out) {
                let kind = tracked.game().pieces().kind(locked.piece);
                let &(dx, dy) = kind.orientation(locked.pos.orientation).cells().last().unwrap();
                let (x, y) = ((locked.pos.x + dx) as usize, (locked.pos.y + dy) as usize);
                assert_eq!(tracked.cell(x, y), Some(Cell::Piece(locked.piece)));
            }
        }
        assert!(tracked.game().is_over());
    }
}

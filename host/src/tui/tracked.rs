//! A game together with the colour of every locked cell, which the bitboard does not keep:
//! each lock paints the piece's cells, clears full rows and raises garbage as the board
//! does.

use crate::engine::{Game, Locked, TickReport};
use tetrad_plugin_api::{Actions, PieceId};

/// What fills a locked cell: the kind of the piece that left it there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cell {
    /// Left by a piece of this kind.
    Piece(PieceId),
    /// A row of garbage rose under it (versus).
    Garbage,
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

    /// The game, to deliver garbage to it (arrivals wait; they change no cell until the
    /// next lock).
    pub fn game_mut(&mut self) -> &mut Game {
        &mut self.game
    }

    /// Plays one tick and paints what locked.
    pub fn tick(&mut self, actions: Actions) -> TickReport {
        let received = self.received();
        let report = self.game.tick(actions);
        if let Some(locked) = report.locked {
            let risen = (self.received() - received) as usize;
            self.paint(locked, risen);
        }
        report
    }

    /// Under timing rules, moves the game's time to `time_us` and paints what locked by
    /// itself on the way. Returns whether anything locked.
    pub fn advance(&mut self, time_us: u64) -> bool {
        let mut locked_any = false;
        loop {
            let received = self.received();
            let Some(report) = self.game.advance(time_us) else {
                return locked_any;
            };
            if let Some(locked) = report.locked {
                let risen = (self.received() - received) as usize;
                self.paint(locked, risen);
                locked_any = true;
            }
        }
    }

    /// Paints a lock the game played through [`Tracked::game_mut`] (a person's hands in
    /// real time), with no garbage risen.
    pub fn painted(&mut self, report: &TickReport) {
        if let Some(locked) = report.locked {
            self.paint(locked, 0);
        }
    }

    fn received(&self) -> u64 {
        self.game.garbage().map_or(0, |garbage| garbage.received)
    }

    /// The locked cell at column `x`, row `y` (row 0 at the top), if filled.
    pub fn cell(&self, x: usize, y: usize) -> Option<Cell> {
        let width = self.game.rules().width;
        if x >= width {
            return None;
        }
        self.cells.get(y * width + x).copied().flatten()
    }

    /// Paints the lock, clears the full rows, and raises `risen` rows of garbage (their
    /// holes come from the board, in `sync`).
    fn paint(&mut self, locked: Locked, risen: usize) {
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
            let risen = (risen * width).min(self.cells.len());
            self.cells.drain(..risen);
            self.cells.extend(std::iter::repeat_n(Some(Cell::Garbage), risen));
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

    #[test]
    fn risen_garbage_is_painted_under_the_stack_with_its_hole() {
        let rules = Rules {
            width: 4,
            height: 12,
            ..Rules::preset(Preset::Classic)
        };
        let pieces = Arc::new(PieceSet::tetrominoes());
        let mut sides: Vec<Tracked> = (0..2)
            .map(|_| {
                let mut game = Game::new(rules, pieces.clone(), 9);
                game.enable_garbage("4".parse().unwrap(), 9);
                Tracked::new(game)
            })
            .collect();
        let mut garbage_seen = false;
        let pattern = [
            Actions::DROP,
            Actions::LEFT | Actions::DROP,
            Actions::RIGHT | Actions::DROP,
        ];
        for tick in 0..2000 {
            if sides.iter().any(|side| side.game().is_over()) {
                break;
            }
            for (seat, side) in sides.iter_mut().enumerate() {
                side.tick(pattern[(tick + seat) % pattern.len()]);
            }
            crate::engine::pass_garbage(sides.iter_mut().map(Tracked::game_mut));
            for side in &sides {
                let board = side.game().board();
                for y in 0..rules.height {
                    for x in 0..rules.width {
                        assert_eq!(board.filled(x, y), side.cell(x, y).is_some(), "({x}, {y})");
                        assert_ne!(side.cell(x, y), Some(Cell::Unknown), "({x}, {y})");
                    }
                }
                garbage_seen |= (0..rules.width).any(|x| side.cell(x, rules.height - 1) == Some(Cell::Garbage));
            }
        }
        assert!(garbage_seen, "no garbage rose in these games");
    }
}

//! A game together with the colour of every locked cell, which the bitboard does not keep:
//! each lock paints the piece's cells, clears full rows and raises garbage as the board
//! does.

use crate::engine::{Game, TickReport};
use tetrad_plugin_api::{Actions, Board, Orientation, PieceId, PiecePos};

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
            self.paint(locked.piece, locked.pos, risen);
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
                self.paint(locked.piece, locked.pos, risen);
                locked_any = true;
            }
        }
    }

    /// Paints a lock the game played through [`Tracked::game_mut`] (a person's hands in
    /// real time), with no garbage risen.
    pub fn painted(&mut self, report: &TickReport) {
        if let Some(locked) = report.locked {
            self.paint(locked.piece, locked.pos, 0);
        }
    }

    /// Takes the state of `game`, the same game played on elsewhere (a live game's
    /// referee owns it), and paints the piece that locked since the last call: found
    /// where, placed on the board before, it leaves the board after. More than one lock
    /// between two calls leaves the new cells' colours unknown.
    pub fn follow(&mut self, game: &Game) {
        let locks = game.stats().pieces.saturating_sub(self.game.stats().pieces);
        let received = game.garbage().map_or(0, |garbage| garbage.received);
        let risen = received.saturating_sub(self.received()) as usize;
        let found = match locks {
            1 => self.find_lock(game, risen),
            _ => None,
        };
        self.game = game.clone();
        match found {
            Some((piece, pos)) => self.paint(piece, pos, risen),
            None => self.sync(),
        }
    }

    /// The piece and place of the one lock that turns this game's board into `after`'s,
    /// `risen` rows of garbage raised after the clear. The falling piece's kind is tried
    /// first, then the held one's and the next ones', then every kind: a piece whose cells
    /// all cleared fits anywhere, and leaves no colour to get wrong.
    fn find_lock(&self, after: &Game, risen: usize) -> Option<(PieceId, PiecePos)> {
        let before = self.game.board();
        let target = after.board().rows();
        let height = before.height();
        let pieces = self.game.pieces();
        let mut kinds: Vec<PieceId> = self.game.current().map(|falling| falling.piece).into_iter().collect();
        kinds.extend(self.game.held());
        kinds.extend(self.game.queue());
        kinds.extend(pieces.ids());
        let mut tried = Vec::new();
        let (box_width, box_height) = pieces.max_extent();
        for piece in kinds {
            if tried.contains(&piece) {
                continue;
            }
            tried.push(piece);
            for (index, shape) in pieces.kind(piece).orientations().iter().enumerate() {
                for x in -(box_width as i8)..before.width() as i8 {
                    for y in -(box_height as i8)..height as i8 {
                        if leaves(before, shape, (x, y), risen, target) {
                            let pos = PiecePos {
                                orientation: index as u8,
                                x,
                                y,
                            };
                            return Some((piece, pos));
                        }
                    }
                }
            }
        }
        None
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

    /// Row `y`'s cells as numbers, for a page to colour: 0 empty, the piece's number plus
    /// 1, -1 garbage, -2 unknown.
    pub fn row_codes(&self, y: usize) -> Vec<i16> {
        (0..self.game.rules().width)
            .map(|x| match self.cell(x, y) {
                None => 0,
                Some(Cell::Piece(piece)) => i16::from(piece.0) + 1,
                Some(Cell::Garbage) => -1,
                Some(Cell::Unknown) => -2,
            })
            .collect()
    }

    /// Paints the lock, clears the full rows, and raises `risen` rows of garbage (their
    /// holes come from the board, in `sync`).
    fn paint(&mut self, piece: PieceId, pos: PiecePos, risen: usize) {
        let width = self.game.rules().width;
        let height = self.game.rules().height;
        let kind = self.game.pieces().kind(piece);
        let cells = kind.orientation(pos.orientation).cells();
        let at = |&(dx, dy): &(i8, i8)| (i32::from(pos.x) + i32::from(dx), i32::from(pos.y) + i32::from(dy));
        // A piece with a cell above row 0 places nothing (the game is over).
        if cells.iter().map(at).all(|(_, y)| y >= 0) {
            for (x, y) in cells.iter().map(at) {
                if let Some(cell) = self.cells.get_mut(y as usize * width + x as usize) {
                    *cell = Some(Cell::Piece(piece));
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

/// Whether `shape` resting at `at` on `before` leaves `target`: placed, full rows cleared,
/// then `risen` rows raised from the floor (whose holes are not compared).
fn leaves(before: &Board, shape: &Orientation, at: (i8, i8), risen: usize, target: &[u32]) -> bool {
    let (x, y) = at;
    if !before.fits(shape, x, y) || !before.rests(shape, x, y) {
        return false;
    }
    let mut placed = before.clone();
    if !placed.place(shape, x, y) {
        return false;
    }
    let height = placed.height();
    let risen = risen.min(height);
    let full = placed.full_row();
    let kept: Vec<u32> = placed.rows().iter().copied().filter(|&row| row != full).collect();
    let mut cleared = vec![0; height - kept.len()];
    cleared.extend(kept);
    cleared[risen..] == target[..height - risen]
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

    /// Two 4-wide games of the same seed that send each other garbage.
    fn two_narrow_games_with_garbage() -> (Rules, Vec<Tracked>) {
        let rules = Rules {
            width: 4,
            height: 12,
            ..Rules::preset(Preset::Classic)
        };
        let pieces = Arc::new(PieceSet::tetrominoes());
        let sides = (0..2)
            .map(|_| {
                let mut game = Game::new(rules, pieces.clone(), 9);
                game.enable_garbage("4".parse().unwrap(), 9);
                Tracked::new(game)
            })
            .collect();
        (rules, sides)
    }

    #[test]
    fn risen_garbage_is_painted_under_the_stack_with_its_hole() {
        let (rules, mut sides) = two_narrow_games_with_garbage();
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

    #[test]
    fn a_game_played_elsewhere_is_followed_with_the_colours_of_its_locks() {
        // The reference paints every lock from its report; the followers see only the
        // games between the locks.
        let (rules, mut sides) = two_narrow_games_with_garbage();
        let mut followers: Vec<Tracked> = sides.clone();
        let pattern = [
            Actions::DROP,
            Actions::LEFT | Actions::DROP,
            Actions::RIGHT | Actions::DROP,
            Actions::CW | Actions::DROP,
        ];
        let (mut painted, mut risen) = (0, 0);
        for tick in 0..400 {
            if sides.iter().any(|side| side.game().is_over()) {
                break;
            }
            for (seat, side) in sides.iter_mut().enumerate() {
                side.tick(pattern[(tick + seat) % pattern.len()]);
            }
            crate::engine::pass_garbage(sides.iter_mut().map(Tracked::game_mut));
            for (side, follower) in sides.iter().zip(&mut followers) {
                follower.follow(side.game());
                for y in 0..rules.height {
                    for x in 0..rules.width {
                        assert_eq!(follower.cell(x, y), side.cell(x, y), "tick {tick} ({x}, {y})");
                    }
                }
                painted += (0..rules.width * rules.height)
                    .filter(|i| matches!(follower.cell(i % rules.width, i / rules.width), Some(Cell::Piece(_))))
                    .count();
                risen = risen.max(follower.game().garbage().map_or(0, |g| g.received));
            }
        }
        assert!(painted > 0 && risen > 0, "pieces locked and garbage rose");

        // Two locks between looks: their cells are filled, in no colour of a piece.
        let rules = Rules::preset(Preset::Classic);
        let mut game = Game::new(rules, Arc::new(PieceSet::tetrominoes()), 4);
        let mut follower = Tracked::new(game.clone());
        let mut shift = Actions::NONE;
        while game.stats().pieces < 2 {
            game.tick(shift | Actions::DROP);
            shift = Actions::LEFT;
        }
        assert_eq!(game.stats().lines, 0);
        follower.follow(&game);
        let filled: Vec<Option<Cell>> = (0..rules.width * rules.height)
            .filter(|i| game.board().filled(i % rules.width, i / rules.width))
            .map(|i| follower.cell(i % rules.width, i / rules.width))
            .collect();
        assert_eq!(filled.len(), 8);
        assert!(filled.iter().all(|&cell| cell == Some(Cell::Unknown)), "{filled:?}");
    }
}

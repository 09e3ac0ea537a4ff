//! The rules engine: one game under a `Rules` value, tick by tick, reporting what happened
//! as data. Movement itself is the shared model's [`step`], so plugins predict it exactly.

mod garbage;
mod queue;
mod sequence;

pub use garbage::{pass_garbage, AttackTable, Garbage};
pub use queue::PieceQueue;
pub use sequence::{SequenceError, Sequences, SEQUENCE_CAP};

use std::sync::Arc;
use tetrad_plugin_api::{step, Actions, Board, Lock, PieceId, PiecePos, PieceSet, Rules};

/// Points for clearing 0, 1, 2, 3 and 4 rows at level 0; multiplied by level + 1. More
/// than four rows at once (possible with larger pieces) score 1200 per row beyond three.
fn points(lines: u32, level: u32) -> u64 {
    let base = match lines {
        0 => 0,
        1 => 40,
        2 => 100,
        3 => 300,
        n => 1200 * u64::from(n - 3),
    };
    base * u64::from(level + 1)
}

/// The piece in play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Falling {
    /// Its kind.
    pub piece: PieceId,
    /// Where it is.
    pub pos: PiecePos,
}

/// Running totals of a game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Rows cleared.
    pub lines: u64,
    /// Pieces locked.
    pub pieces: u64,
    /// Points (40/100/300/1200 x (level + 1)).
    pub score: u64,
    /// Ticks played.
    pub ticks: u64,
}

impl Stats {
    /// The level: one more every 10 lines.
    pub fn level(&self) -> u32 {
        (self.lines / 10) as u32
    }
}

/// A piece locked this tick.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Locked {
    /// Its kind.
    pub piece: PieceId,
    /// Where it locked.
    pub pos: PiecePos,
    /// Rows it cleared.
    pub lines: u32,
}

/// What one tick did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TickReport {
    /// The lock, if the piece locked.
    pub locked: Option<Locked>,
    /// The game ended this tick (the piece topped out, or the next could not enter).
    pub topped_out: bool,
}

/// One game in progress.
#[derive(Clone, Debug)]
pub struct Game {
    rules: Rules,
    pieces: Arc<PieceSet>,
    board: Board,
    queue: PieceQueue,
    current: Option<Falling>,
    /// `None` once a given sequence has no piece left.
    next: Option<PieceId>,
    stats: Stats,
    piece_ticks: u32,
    new_piece: bool,
    over: bool,
    /// The last piece of a given sequence locked, and the game did not end.
    exhausted: bool,
    /// Garbage sent and received, in a versus game.
    garbage: Option<Box<Garbage>>,
}

impl Game {
    /// A new game on an empty board; the first piece enters at once. The rules must have
    /// been validated against the pieces.
    pub fn new(rules: Rules, pieces: Arc<PieceSet>, seed: u64) -> Game {
        Game::with_board(rules, pieces, seed, None)
    }

    /// A new game starting from `board` (for tests and puzzles), or an empty one.
    pub fn with_board(rules: Rules, pieces: Arc<PieceSet>, seed: u64, board: Option<Board>) -> Game {
        let queue = PieceQueue::new(rules.randomizer, pieces.len(), seed);
        Game::with_queue(rules, pieces, queue, board)
    }

    /// A new game drawing from `queue`, starting from `board` or an empty one.
    pub fn with_queue(rules: Rules, pieces: Arc<PieceSet>, mut queue: PieceQueue, board: Option<Board>) -> Game {
        let first = queue.next_piece();
        let next = queue.next_piece();
        let mut game = Game {
            board: board.unwrap_or_else(|| Board::new(rules.width, rules.height)),
            rules,
            pieces,
            queue,
            current: None,
            next,
            stats: Stats::default(),
            piece_ticks: 0,
            new_piece: true,
            over: false,
            exhausted: false,
            garbage: None,
        };
        match first {
            Some(first) => game.enter(first),
            None => game.exhausted = true,
        }
        game
    }

    /// Brings `piece` in at its spawn position, or ends the game if it does not fit.
    fn enter(&mut self, piece: PieceId) {
        let kind = self.pieces.kind(piece);
        let pos = self.rules.spawn(kind);
        self.piece_ticks = 0;
        self.new_piece = true;
        if self.board.fits(kind.orientation(pos.orientation), pos.x, pos.y) {
            self.current = Some(Falling { piece, pos });
        } else {
            self.current = None;
            self.over = true;
        }
    }

    /// Makes this a versus game: its locks attack by `attack`, and it takes garbage, with
    /// hole columns drawn from `seed` (give both players' games the same seed).
    pub fn enable_garbage(&mut self, attack: AttackTable, seed: u64) {
        self.garbage = Some(Box::new(Garbage::new(attack, seed, self.rules.width)));
    }

    /// `rows` rows of garbage arrive, to rise when this game's piece next locks (ignored
    /// outside a versus game).
    pub fn receive(&mut self, rows: u32) {
        if let Some(garbage) = &mut self.garbage {
            garbage.receive(rows);
        }
    }

    /// The rows this game sent since the last call, for delivery to its opponent.
    pub fn take_outgoing(&mut self) -> u32 {
        self.garbage.as_mut().map_or(0, |garbage| garbage.take_outgoing())
    }

    /// The garbage, in a versus game.
    pub fn garbage(&self) -> Option<&Garbage> {
        self.garbage.as_deref()
    }

    /// Replaces the falling piece with `piece` at its spawn position (for puzzles and
    /// tests that need a given piece on a given board).
    pub fn set_current(&mut self, piece: PieceId) {
        self.over = false;
        self.enter(piece);
    }

    /// Plays one tick with the given actions (already checked for violations).
    pub fn tick(&mut self, actions: Actions) -> TickReport {
        let Some(mut falling) = self.current.filter(|_| !self.over) else {
            return TickReport::default();
        };
        self.stats.ticks += 1;
        self.piece_ticks += 1;
        self.new_piece = false;
        let kind = self.pieces.kind(falling.piece);
        let result = step(&self.rules, &self.board, kind, &mut falling.pos, actions);
        self.current = Some(falling);
        if !result.locked {
            return TickReport::default();
        }
        let shape = kind.orientation(falling.pos.orientation);
        let lock = self.board.lock(shape, falling.pos.x, falling.pos.y);
        let level = self.stats.level();
        self.stats.pieces += 1;
        self.stats.lines += u64::from(lock.lines);
        self.stats.score += points(lock.lines, level);
        let locked = Some(Locked {
            piece: falling.piece,
            pos: falling.pos,
            lines: lock.lines,
        });
        let mut ends = self.rules.lock_ends_game(&lock, &self.board);
        if let Some(garbage) = self.garbage.as_mut().filter(|_| !ends) {
            let kept = garbage.settle(lock.lines, &mut self.board);
            let risen = Lock {
                lines: 0,
                above_board: !kept,
            };
            ends = self.rules.lock_ends_game(&risen, &self.board);
        }
        if ends {
            self.current = None;
            self.over = true;
            return TickReport {
                locked,
                topped_out: true,
            };
        }
        match self.next {
            Some(piece) => {
                self.next = self.queue.next_piece();
                self.enter(piece);
            }
            None => {
                self.current = None;
                self.exhausted = true;
            }
        }
        TickReport {
            locked,
            topped_out: self.over,
        }
    }

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

#[cfg(test)]
mod tests;

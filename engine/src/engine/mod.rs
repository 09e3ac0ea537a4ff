//! The rules engine: one game under a `Rules` value, tick by tick, reporting what happened
//! as data. Movement itself is the shared model's [`step`], so plugins predict it exactly.

mod attack;
mod clock;
mod garbage;
mod garbage_sets;
mod land;
mod pace;
mod queue;
mod realtime;
mod scoring;
mod sequence;
mod timing;
mod versus;
mod view;

pub use attack::AttackTable;
pub use garbage::{pass_garbage, Garbage, GarbageRules};
pub use garbage_sets::GarbageSet;
pub use pace::Pace;
pub use queue::PieceQueue;
pub use realtime::{Deliveries, Speed};
pub use scoring::{Clear, Spin};
pub use sequence::{SequenceError, Sequences, SEQUENCE_CAP};
pub use timing::{guideline_row_seconds, Gravity, Timing, TimingError, FRAMES_PER_SECOND, MAX_G};

use std::collections::VecDeque;
use std::sync::Arc;
use tetrad_plugin_api::{step, Actions, Board, Lock, PieceId, PiecePos, PieceSet, RotationSystem, Rules};

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
    /// Points (40/100/300/1200 x (level + 1); the guideline's table under `guideline`).
    pub score: u64,
    /// Ticks played.
    pub ticks: u64,
    /// Locks scored as a T-spin, full or mini (under `guideline`).
    pub t_spins: u64,
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
    /// The clear, with its spin, combo and back-to-back.
    pub clear: Clear,
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
    /// The previewed pieces after `next`, when the rules show more than one.
    later: VecDeque<PieceId>,
    /// If the falling piece's last movement was a turn, the kick it took.
    last_kick: Option<u8>,
    /// Clears in a row so far, the last one counted 0 (`None` after a lock that cleared
    /// nothing).
    combo: Option<u32>,
    /// The last clear was difficult (four lines, or a spin that cleared lines).
    back_to_back: bool,
    /// The held piece, under rules with hold.
    held: Option<PieceId>,
    /// The falling piece came out of a hold: it may not be held again before it locks.
    hold_used: bool,
    stats: Stats,
    piece_ticks: u32,
    new_piece: bool,
    over: bool,
    /// The last piece of a given sequence locked, and the game did not end.
    exhausted: bool,
    /// Garbage sent and received, in a versus game.
    garbage: Option<Box<Garbage>>,
    /// The board may hold a full row: one it started with, until the first lock clears
    /// it. Otherwise a lock looks for full rows among the piece's rows alone.
    full_row_held: bool,
    /// Under timing rules, the time and the falling piece's gravity and lock delay.
    clock: Option<Box<clock::Clock>>,
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
        let later = (1..rules.preview).map_while(|_| queue.next_piece()).collect();
        let board = board.unwrap_or_else(|| Board::new(rules.width, rules.height));
        let mut game = Game {
            full_row_held: board.has_full_row(),
            board,
            rules,
            pieces,
            queue,
            current: None,
            next,
            later,
            last_kick: None,
            combo: None,
            back_to_back: false,
            held: None,
            hold_used: false,
            stats: Stats::default(),
            piece_ticks: 0,
            new_piece: true,
            over: false,
            exhausted: false,
            garbage: None,
            clock: None,
        };
        match first {
            Some(first) => game.enter(first),
            None => game.exhausted = true,
        }
        game
    }

    /// Brings `piece` in at its spawn position (under `guideline`, one row lower at once if
    /// it fits there: [`Rules::enter`]), or ends the game if it does not fit where it
    /// spawns (block out).
    fn enter(&mut self, piece: PieceId) {
        let kind = self.pieces.kind(piece);
        let pos = self.rules.enter(&self.board, kind);
        self.piece_ticks = 0;
        self.new_piece = true;
        self.last_kick = None;
        if self.board.fits(kind.orientation(pos.orientation), pos.x, pos.y) {
            self.current = Some(Falling { piece, pos });
        } else {
            self.current = None;
            self.over = true;
        }
        if self.clock.is_some() {
            self.clock_entered();
        }
    }

    /// Gives a game that plays given pieces ([`PieceQueue::given`]) more of them, dealt
    /// after those it has: they fill the preview up to `rules.preview`, and if the game
    /// ran out of pieces (its last piece locked, and it did not end), the first of them
    /// enters. A seeded game ignores them (`false`).
    pub fn give_pieces(&mut self, pieces: &[PieceId]) -> bool {
        if !self.queue.give(pieces) {
            return false;
        }
        if self.exhausted && !self.over && self.current.is_none() {
            if let Some(piece) = self.queue.next_piece() {
                self.exhausted = false;
                self.enter(piece);
            }
        }
        if self.next.is_none() {
            self.next = self.queue.next_piece();
        }
        while self.next.is_some() && self.later.len() + 1 < self.rules.preview {
            match self.queue.next_piece() {
                Some(piece) => self.later.push_back(piece),
                None => break,
            }
        }
        true
    }

    /// Replaces the falling piece with `piece` at its spawn position (for puzzles and
    /// tests that need a given piece on a given board).
    pub fn set_current(&mut self, piece: PieceId) {
        self.over = false;
        self.enter(piece);
    }

    /// Plays one tick with the given actions (already checked for violations).
    #[inline(always)]
    pub fn tick(&mut self, actions: Actions) -> TickReport {
        let Some(mut falling) = self.current.filter(|_| !self.over) else {
            return TickReport::default();
        };
        self.stats.ticks += 1;
        self.piece_ticks += 1;
        self.new_piece = false;
        if actions.contains(Actions::HOLD) && self.rules.has_hold() {
            self.hold(falling.piece);
            return TickReport {
                locked: None,
                topped_out: self.over,
            };
        }
        let kind = self.pieces.kind(falling.piece);
        let before = falling.pos;
        let moved = step(&self.rules, &self.board, kind, &mut falling.pos, actions);
        self.current = Some(falling);
        if moved.shifted || moved.fell {
            self.last_kick = None;
        } else if moved.turned {
            self.last_kick = Some(moved.kick);
        }
        if !moved.locked {
            if self.clock.is_some() {
                return self.clock_moved(before, moved);
            }
            return TickReport::default();
        }
        self.lock(falling)
    }

    /// Locks the falling piece where it is: scores it, clears rows, raises garbage, and
    /// brings in the next piece or ends the game.
    #[inline(always)]
    fn lock(&mut self, falling: Falling) -> TickReport {
        let kind = self.pieces.kind(falling.piece);
        let shape = kind.orientation(falling.pos.orientation);
        let spin = match self.rules.rotation() {
            RotationSystem::Srs if kind.name() == "T" => scoring::t_spin(&self.board, falling.pos, self.last_kick),
            _ => Spin::None,
        };
        let locks_out = self.rules.locks_out(shape, falling.pos.y);
        let lock = if self.full_row_held {
            let lock = self.board.lock(shape, falling.pos.x, falling.pos.y);
            // A lock above the board writes nothing, and clears nothing.
            self.full_row_held = lock.above_board;
            lock
        } else {
            self.board.lock_on_clear(shape, falling.pos.x, falling.pos.y)
        };
        let clear = self.clear(lock.lines, spin);
        let level = self.stats.level();
        self.stats.pieces += 1;
        self.stats.lines += u64::from(lock.lines);
        self.stats.t_spins += u64::from(spin != Spin::None);
        self.stats.score += match self.rules.rotation() {
            RotationSystem::Srs => scoring::guideline_points(&clear, level),
            RotationSystem::InBox => scoring::points(lock.lines, level),
        };
        let locked = Some(Locked {
            piece: falling.piece,
            pos: falling.pos,
            lines: lock.lines,
            clear,
        });
        let mut ends = self.rules.lock_ends_game(&lock, &self.board) || locks_out;
        if let Some(garbage) = self.garbage.as_mut().filter(|_| !ends) {
            let kept = garbage.settle(&clear, &mut self.board);
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
        self.hold_used = false;
        match self.next {
            Some(piece) => {
                self.next = self.draw();
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

    /// What a lock that cleared `lines` rows with `spin` was, and the combo and
    /// back-to-back it leaves.
    fn clear(&mut self, lines: u32, spin: Spin) -> Clear {
        if lines == 0 {
            // A lock that clears nothing ends a combo, and keeps back-to-back as it was.
            self.combo = None;
            return Clear {
                lines,
                spin,
                ..Clear::default()
            };
        }
        let combo = self.combo.map_or(0, |c| c + 1);
        self.combo = Some(combo);
        let difficult = lines >= 4 || spin != Spin::None;
        let back_to_back = difficult && self.back_to_back;
        self.back_to_back = difficult;
        Clear {
            lines,
            spin,
            combo,
            back_to_back,
            perfect: self.board.surface() == self.board.height(),
        }
    }

    /// Holds the falling `piece`: the held piece, or else the next, enters at its spawn
    /// (the game is over if it does not fit). A tick of its own: nothing else happens in
    /// it. Refused (the tick does nothing) once the falling piece came out of a hold, or
    /// when nothing could come in.
    fn hold(&mut self, piece: PieceId) {
        if self.hold_used {
            return;
        }
        let incoming = match self.held {
            Some(held) => held,
            None => match self.next {
                Some(next) => {
                    self.next = self.draw();
                    next
                }
                None => return,
            },
        };
        self.held = Some(piece);
        self.hold_used = true;
        self.enter(incoming);
    }

    /// The piece that becomes the next one: the first of those previewed after it, or
    /// the queue's.
    fn draw(&mut self) -> Option<PieceId> {
        // A preview of one piece keeps no later pieces: the queue's own, without asking
        // the empty list (an out-of-line call).
        if self.later.is_empty() {
            return self.queue.next_piece();
        }
        match self.later.pop_front() {
            Some(piece) => {
                self.later.extend(self.queue.next_piece());
                Some(piece)
            }
            None => self.queue.next_piece(),
        }
    }
}

#[cfg(test)]
mod tests;

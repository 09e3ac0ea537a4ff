//! What the replay page plays back: each seat's game as the engine re-simulated it while
//! verifying the replay, written compactly as strings of base-64 variable-length numbers
//! (see [`Varints`]) that the page's script decodes.

use crate::engine::{Game, TickReport};
use crate::replay::Watcher;
use tetrad_plugin_api::{Actions, Board, PieceId};

/// The digits of the number strings: six bits a character, URL- and JSON-safe.
pub const DIGITS: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// Non-negative numbers as base-64 characters, five bits of the number each and the
/// sixth set on every character but a number's last: a number under 32 is one character.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Varints(pub String);

impl Varints {
    /// Appends `value`.
    pub fn push(&mut self, mut value: u64) {
        loop {
            let low = (value & 31) as usize;
            value >>= 5;
            if value == 0 {
                self.0.push(DIGITS[low] as char);
                return;
            }
            self.0.push(DIGITS[low | 32] as char);
        }
    }

    /// Appends a signed `value` (see [`zigzag`]).
    pub fn push_signed(&mut self, value: i64) {
        self.push(zigzag(value));
    }
}

/// A signed number as an unsigned one, small for small magnitudes: 0, -1, 1, -2 ... as
/// 0, 1, 2, 3 ...
pub fn zigzag(value: i64) -> u64 {
    ((value << 1) ^ (value >> 63)) as u64
}

/// Decodes a [`Varints`] string (the page's decoder in Rust, for tests).
pub fn decode(text: &str) -> Vec<u64> {
    let mut out = Vec::new();
    let (mut value, mut shift) = (0u64, 0);
    for byte in text.bytes() {
        let digit = DIGITS.iter().position(|&d| d == byte).expect("a digit") as u64;
        value |= (digit & 31) << shift;
        shift += 5;
        if digit < 32 {
            out.push(value);
            value = 0;
            shift = 0;
        }
    }
    out
}

/// What happened at a tick, as the bits of its record's flags.
pub mod flag {
    /// The piece locked (the lock's record follows in the seat's locks).
    pub const LOCK: u64 = 1;
    /// Another piece is in play (after a lock or a hold): its kind and place follow.
    pub const ENTERED: u64 = 2;
    /// The held piece changed: its kind plus one follows.
    pub const HELD: u64 = 4;
    /// No piece is in play any more: the game is over, or its pieces ran out.
    pub const NONE: u64 = 8;
}

/// A piece's place packed in one number, `orientation + 4 * (x + 16) + 256 * (y + 16)`:
/// three characters on a board up to 32 columns and 48 rows (a piece's position lies at
/// most a few cells outside its board).
fn place(orientation: u8, x: i8, y: i8) -> u64 {
    u64::from(orientation) + 4 * (i64::from(x) + 16) as u64 + 256 * (i64::from(y) + 16).max(0) as u64
}

/// The board's checksum, which the page recomputes from its own cells after every lock:
/// each row's filled columns as bits (column 0 lowest), folded top to bottom.
pub fn board_sum(board: &Board) -> u64 {
    let mut sum = 0u64;
    for y in 0..board.height() {
        let bits: u64 = (0..board.width())
            .filter(|&x| board.filled(x, y))
            .map(|x| 1u64 << x)
            .sum();
        sum = (sum * 31 + bits) % SUM_MODULUS;
    }
    sum
}

/// The checksum's modulus: a prime under 2^15, so it takes three characters.
pub const SUM_MODULUS: u64 = 32749;

/// One seat's game as the page plays it back.
#[derive(Clone, Debug, Default)]
pub struct SeatTrace {
    /// The pieces in the order they leave the queue, the first piece in play first, up to
    /// the last previewed while a piece was in play (piece indices). The page shows the
    /// preview from here: the pieces after those taken (the first, one a lock, and one for
    /// the first hold).
    pub order: Varints,
    /// Each tick's record: a plain move as `2 * m` (`m` packs the turns clockwise, the
    /// zigzagged change of column, and the zigzagged change of the rows fallen from the
    /// last plain move's: `turns + 4 * column + 256 * rows`), anything else as `2 * flags + 1` followed by what the
    /// flags say.
    pub ticks: Varints,
    /// Each lock's record: its place, the points it scored, the rows of garbage that rose
    /// (each as the mask of its empty columns), the rows sent so far, and the board's sum.
    pub locks: Varints,
    /// Changes of the garbage waiting, as pairs: ticks since the last change, rows waiting.
    pub pending: Varints,
    /// Ticks played.
    pub tick_count: u64,
    /// Pieces locked.
    pub lock_count: u64,
    /// The place and kind of the piece in play at the start, as `[kind, place]`.
    pub start: (u64, u64),
    /// Milliseconds from the game's start to each tick, when the record keeps them (games
    /// on the wall clock); `None` plays the ticks at an even pace.
    pub times: Option<Varints>,
    /// Where the piece in play was after the last tick, to write moves as changes.
    last: Option<(u8, i8, i8)>,
    /// The rows the last plain move fell.
    last_down: i64,
    held: Option<PieceId>,
    score: u64,
    sent: u64,
    received: u64,
    pending_now: u32,
    pending_tick: u64,
    /// The queue's pieces seen so far (the order), to check each new view against.
    seen: Vec<usize>,
}

impl SeatTrace {
    /// Gives the page each tick's time, in milliseconds from the game's start (one a tick
    /// played, in order), for a game played on the wall clock: the page then plays the
    /// ticks at those times. Written as the change from the tick before.
    pub fn set_times(&mut self, ms: &[u64]) {
        let mut times = Varints::default();
        let mut before = 0;
        for &at in ms {
            times.push(at.saturating_sub(before));
            before = at.max(before);
        }
        self.times = Some(times);
    }
}

/// The traces of every seat of a replay, and the order the seats' ticks were played in.
#[derive(Clone, Debug, Default)]
pub struct Trace {
    /// Each seat's game.
    pub seats: Vec<SeatTrace>,
    /// The ticks each seat played in turn (seat 0, seat 1, seat 0 ...), as counts; empty
    /// when every turn was one tick (a solo game, or versus at the `ticks` pace).
    pub turns: Varints,
    every_turn_one: bool,
    turn: Option<(usize, u64)>,
    turn_counts: Vec<u64>,
    /// A view of the queue that did not follow from the last (a fault of this module, never
    /// of the replay: the page is not written).
    pub fault: Option<String>,
}

impl Trace {
    /// An empty trace, to fill by re-simulating a replay.
    pub fn new() -> Trace {
        Trace {
            every_turn_one: true,
            ..Trace::default()
        }
    }

    /// Ends the turn in progress and writes the counts of turns when some was longer than
    /// a tick.
    pub fn finish(&mut self) {
        self.close_turn(None);
        if !self.every_turn_one {
            for &count in &self.turn_counts {
                self.turns.push(count);
            }
        }
    }

    fn close_turn(&mut self, next: Option<usize>) {
        match (self.turn, next) {
            (Some((seat, count)), Some(next)) if seat == next => self.turn = Some((seat, count + 1)),
            (Some((seat, count)), next) => {
                // Turns alternate from seat 0: a seat that played nothing in its turn
                // counts 0 there.
                let expected = self.turn_counts.len() % self.seats.len().max(1);
                if expected != seat {
                    self.turn_counts.push(0);
                    self.every_turn_one = false;
                }
                self.turn_counts.push(count);
                self.every_turn_one &= count == 1;
                self.turn = next.map(|n| (n, 1));
            }
            (None, next) => self.turn = next.map(|n| (n, 1)),
        }
    }

    fn check_queue(&mut self, seat: usize, game: &Game) {
        let trace = &mut self.seats[seat];
        // Pieces out of the queue so far: the first, one a lock, and one for the first hold.
        let taken = 1 + trace.lock_count as usize + usize::from(trace.held.is_some());
        if game.current().is_none() {
            return;
        }
        for (offset, piece) in game.queue().enumerate() {
            let index = taken + offset;
            match trace.seen.get(index) {
                Some(&seen) if seen != piece.index() => {
                    self.fault = Some(format!("seat {seat}: the queue at piece {index} does not follow"));
                }
                Some(_) => {}
                None if index == trace.seen.len() => {
                    trace.seen.push(piece.index());
                    trace.order.push(piece.index() as u64);
                }
                None => self.fault = Some(format!("seat {seat}: the queue skipped to piece {index}")),
            }
        }
    }
}

impl Watcher for Trace {
    fn start(&mut self, games: &[Game]) {
        self.seats = games.iter().map(|_| SeatTrace::default()).collect();
        for (index, game) in games.iter().enumerate() {
            let trace = &mut self.seats[index];
            if let Some(current) = game.current() {
                trace.seen.push(current.piece.index());
                trace.order.push(current.piece.index() as u64);
                let pos = current.pos;
                trace.start = (current.piece.index() as u64, place(pos.orientation, pos.x, pos.y));
                trace.last = Some((pos.orientation, pos.x, pos.y));
            }
            self.check_queue(index, game);
        }
    }

    fn tick(&mut self, seat: usize, _actions: Actions, report: &TickReport, game: &Game) {
        self.close_turn(Some(seat));
        let trace = &mut self.seats[seat];
        trace.tick_count += 1;
        let mut flags = 0;
        let current = game.current();
        // A new piece enters by a lock or a hold, and only then is a tick's piece new.
        let entered = current.is_some() && game.is_new_piece();
        if report.locked.is_some() {
            flags |= flag::LOCK;
        }
        if entered {
            flags |= flag::ENTERED;
        }
        if game.held() != trace.held {
            flags |= flag::HELD;
        }
        if current.is_none() && trace.last.is_some() {
            flags |= flag::NONE;
        }
        match (flags, current, trace.last) {
            (0, Some(now), Some((orientation, x, y))) => {
                // A plain move: the change of orientation, column and row in one number,
                // the row's as a change from the last plain move's (under gravity every
                // tick falls a row, elsewhere none does), so most moves take a character.
                let turned = u64::from((now.pos.orientation + 4 - orientation) % 4);
                let across = i64::from(now.pos.x) - i64::from(x);
                let down = i64::from(now.pos.y) - i64::from(y);
                let change = down - trace.last_down;
                trace.last_down = down;
                trace
                    .ticks
                    .push(2 * (turned + 4 * zigzag(across) + 256 * zigzag(change)));
            }
            _ => {
                trace.ticks.push(2 * flags + 1);
                if flags & flag::ENTERED != 0 {
                    let now = current.expect("entered");
                    trace.ticks.push(now.piece.index() as u64);
                    trace.ticks.push(place(now.pos.orientation, now.pos.x, now.pos.y));
                } else if flags & flag::NONE == 0 {
                    let now = current.expect("in play");
                    trace.ticks.push(place(now.pos.orientation, now.pos.x, now.pos.y));
                }
                if flags & flag::HELD != 0 {
                    trace
                        .ticks
                        .push(game.held().map_or(0, |piece| piece.index() as u64 + 1));
                }
            }
        }
        trace.held = game.held();
        trace.last = current.map(|c| (c.pos.orientation, c.pos.x, c.pos.y));
        if let Some(locked) = report.locked {
            let stats = game.stats();
            trace.lock_count += 1;
            trace
                .locks
                .push(place(locked.pos.orientation, locked.pos.x, locked.pos.y));
            trace.locks.push(stats.score - trace.score);
            trace.score = stats.score;
            let (sent, received) = game.garbage().map_or((0, 0), |g| (g.sent, g.received));
            let risen = received - trace.received;
            trace.received = received;
            trace.locks.push(risen);
            let board = game.board();
            let full = (1u64 << board.width()) - 1;
            // A rise of more rows than the board has leaves the board all garbage.
            let risen = (risen as usize).min(board.height());
            for row in (board.height() - risen..board.height()).rev() {
                let filled: u64 = (0..board.width())
                    .filter(|&x| board.filled(x, row))
                    .map(|x| 1u64 << x)
                    .sum();
                trace.locks.push(full & !filled);
            }
            trace.locks.push(sent - trace.sent);
            trace.sent = sent;
            trace.locks.push(board_sum(board));
        }
        self.check_queue(seat, game);
    }

    fn round_over(&mut self, games: &[Game]) {
        for (index, game) in games.iter().enumerate() {
            let trace = &mut self.seats[index];
            let pending = game.garbage().map_or(0, |g| g.pending());
            if pending != trace.pending_now {
                trace.pending.push(trace.tick_count - trace.pending_tick);
                trace.pending.push(u64::from(pending));
                trace.pending_now = pending;
                trace.pending_tick = trace.tick_count;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_round_trip_and_small_ones_take_one_character() {
        let values = [0, 1, 31, 32, 1000, 1 << 40, u64::MAX];
        let mut text = Varints::default();
        for value in values {
            text.push(value);
        }
        assert_eq!(decode(&text.0), values);
        let mut small = Varints::default();
        small.push(31);
        assert_eq!(small.0.len(), 1);
        let mut signed = Varints::default();
        for value in [0, -1, 1, -2] {
            signed.push_signed(value);
        }
        assert_eq!(decode(&signed.0), [0, 1, 2, 3]);
    }

    #[test]
    fn times_are_written_as_changes() {
        let mut seat = SeatTrace::default();
        seat.set_times(&[5, 5, 40, 1000]);
        assert_eq!(decode(&seat.times.unwrap().0), [5, 0, 35, 960]);
    }

    #[test]
    fn the_sum_sees_every_cell() {
        let mut board = Board::new(10, 20);
        let empty = board_sum(&board);
        board.fill(3, 19);
        let one = board_sum(&board);
        assert_ne!(empty, one);
        board.fill(3, 18);
        assert_ne!(one, board_sum(&board));
    }
}

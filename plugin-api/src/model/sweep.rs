//! The guideline's placements found fast: what [`reachable`] finds, without paths, by whole-column bit operations.
//!
//! Design, and why it is exact. Under the guideline a piece moves by single moves: a shift,
//! a turn (the first of the SRS kicks where the turned piece fits), a soft drop (to the
//! bottom of the free run it is in). Where it can go next depends only on where it is, so
//! the positions it can reach are the closure of `start` under those moves; and a
//! placement, as [`reachable`] reports it, is a resting position of that closure with one
//! of the ways a move from the closure enters it (a drop or shift, a turn through kicks
//! 0-3, a turn through kick 4), or `start` itself, entered by no move, if it rests. This
//! module computes exactly that, in another representation: per orientation and column,
//! one `u64` whose bit `b` stands for the row `b - top` (`top = 64 - height`, so the
//! floor lies just past bit 63 and the rows above are the open sky). A collision map,
//! built like Cold Clear 2's `CollisionMaps` (kept as its complement: where the piece
//! fits, walls and floor excluded), lets a move apply to a whole column of positions at
//! once:
//!
//! - a shift is the neighbour column's positions `&` free;
//! - a turn tries the kicks in order, each on the positions no earlier kick served, and
//!   keeps those the kick lands free: what [`step`](super::motion::step) does per piece;
//! - a soft drop carries each free run's positions to its bottom with one addition (the
//!   carry of `free + positions` runs to the cell past the run's end).
//!
//! The closure grows to its fixpoint by orientation: its positions closed under shifts
//! and soft drops (passes left to right and back until one adds nothing), then the turns
//! of the positions not turned from before, which may add positions to the orientations
//! turned to; until no orientation gains any. Rows the `u64` cannot hold count as
//! blocked; that is exact unless a position within two rows (the highest kick) of bit 0
//! is reached; then, and on boards, pieces or rules the representation does not cover
//! (see [`sweep_into`]), the placements are derived from [`reachable`] itself.
#![forbid(unsafe_code)]

use super::board::{Board, PiecePos, MAX_WIDTH};
use super::motion::Actions;
use super::piece::PieceKind;
use super::reach::{reachable, Reached};
use super::rotation::RotationSystem;
use super::rules::{Movement, Rules};
use super::spin::{t_spin, Spin};

/// How the piece came into the position it locks at: what the host's T-spin rule reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Entry {
    /// Its last move was a shift or a drop (or it entered there): not a turn.
    Drop,
    /// Its last move was a turn through one of the first four kicks.
    Turn,
    /// Its last move was a turn through the fifth kick (index 4), which makes a T-spin
    /// full ([`t_spin`]).
    FifthKick,
}

impl Entry {
    /// The entry a [`Reached::last_kick`] stands for.
    #[inline]
    pub fn from_last_kick(last_kick: Option<u8>) -> Entry {
        match last_kick {
            None => Entry::Drop,
            Some(4) => Entry::FifthKick,
            Some(_) => Entry::Turn,
        }
    }

    /// A `last_kick` the host's rules read as this entry: `Some(0)` stands for any of
    /// the first four kicks (the spin rule tells only the fifth apart).
    #[inline]
    pub fn last_kick(self) -> Option<u8> {
        match self {
            Entry::Drop => None,
            Entry::Turn => Some(0),
            Entry::FifthKick => Some(4),
        }
    }

    /// What a T locking at `pos`, entered this way, scores on `board` ([`t_spin`]).
    #[inline]
    pub fn t_spin(self, board: &Board, pos: PiecePos) -> Spin {
        t_spin(board, pos, self.last_kick())
    }
}

/// A placement found by [`sweep`]: where the piece locks and how it came there.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Landing {
    /// Where the piece locks (it rests there).
    pub pos: PiecePos,
    /// Its last move into `pos`.
    pub entry: Entry,
}

impl Landing {
    /// The actions that play this placement from `start`, tick by tick, the last one
    /// holding DROP: the path [`reachable`] finds to it (fewest moves, the last one the
    /// move that enters it this way). `None` if it is not a placement from `start`. A
    /// full search, meant for the one placement a player chose.
    pub fn path(&self, rules: &Rules, board: &Board, kind: &PieceKind, start: PiecePos) -> Option<Vec<Actions>> {
        reachable(rules, board, kind, start)
            .into_iter()
            .find(|r| r.pos == self.pos && Entry::from_last_kick(r.last_kick) == self.entry)
            .map(|r| r.path)
    }
}

/// Every placement of `kind` reachable from `start` on `board` under `rules`: the set
/// [`reachable`] finds, as (position, entry), each once, without paths. See
/// [`sweep_into`].
pub fn sweep(rules: &Rules, board: &Board, kind: &PieceKind, start: PiecePos) -> Vec<Landing> {
    let mut out = Vec::new();
    sweep_into(rules, board, kind, start, &mut out);
    out
}

/// [`sweep`] into `out` (cleared first), so a caller searching every piece reuses one
/// buffer. Placements come by orientation, then column, then entry, then row from the
/// top. Under the guideline preset, for pieces whose boxes are at most 4 wide (the
/// SRS tetrominoes), it works by column operations; otherwise, and when the piece
/// climbs into the top two rows it can represent, it returns [`reachable`]'s set.
pub fn sweep_into(rules: &Rules, board: &Board, kind: &PieceKind, start: PiecePos, out: &mut Vec<Landing>) {
    out.clear();
    let Some(shape) = kind.orientations().get(usize::from(start.orientation)) else {
        return;
    };
    if !board.fits(shape, start.x, start.y) {
        return;
    }
    if !by_columns(rules, board, kind, start, out) {
        out.clear();
        out.extend(
            reachable(rules, board, kind, start)
                .into_iter()
                .map(|Reached { pos, last_kick, .. }| Landing {
                    pos,
                    entry: Entry::from_last_kick(last_kick),
                }),
        );
    }
}

/// Writes the placements of a piece that fits at `start` by column operations; false if
/// they cannot answer exactly: other rules or pieces, or see [`Sweep::run`].
fn by_columns(rules: &Rules, board: &Board, kind: &PieceKind, start: PiecePos, out: &mut Vec<Landing>) -> bool {
    let covered = rules.rotation() == RotationSystem::Srs
        && rules.movement() == Movement::DropOnly
        && kind.box_size() <= 4
        // A cell on the box's top row only would let a position rest on bit 63 itself,
        // beyond which the carry of a soft drop is lost. No tetromino has one.
        && kind.orientations().iter().all(|o| o.top() + o.height() as i8 >= 2);
    // Maps as narrow as the board allows: they are cleared for every piece.
    covered
        && if board.width() + 7 <= NARROW {
            Sweep::<NARROW>::new(board, kind).run(kind, rules, start, out)
        } else {
            Sweep::<WIDE>::new(board, kind).run(kind, rules, start, out)
        }
}

/// The map column of board column 0: boxes hang up to 3 columns over the left wall, and
/// kicks reach 2 further. A box that fits starts at board column `w - 1` at most, and
/// kicks and shifts reach 2 further, so a board `w` wide needs `w + 7` map columns.
const X0: i8 = 5;
/// Map columns for boards up to 13 wide (the guideline's 10 among them).
const NARROW: usize = 20;
/// Map columns for boards up to [`MAX_WIDTH`] wide.
const WIDE: usize = MAX_WIDTH + 8;

/// A map: per orientation, one `u64` of rows per map column.
type Map<const N: usize> = [[u64; N]; 4];

/// A turn from an orientation: the orientation it turns to, and the kicks it tries in
/// order (none for a turn in place).
type Turn = (usize, &'static [(i8, i8)]);

/// The state of one sweep over maps of `N` columns.
struct Sweep<const N: usize> {
    /// Bit `b` of row `b - top`.
    top: i32,
    /// Where each orientation fits.
    free: Map<N>,
    /// The positions reached.
    reach: Map<N>,
    /// The positions reached whose turns were played.
    turned_from: Map<N>,
    /// Positions a turn enters through kicks 0-3, and through kick 4.
    turned: [Map<N>; 2],
    /// Per orientation, the first and past-the-last map column where it can fit.
    span: [(usize, usize); 4],
}

/// The bottoms of the free runs (free positions in `free`) holding a position of `from`.
#[inline]
fn landings(free: u64, from: u64) -> u64 {
    // The carry of each run holding a bit of `from` runs to the blocked bit past the
    // run's end; the bit above that is the run's bottom.
    (free.wrapping_add(from) & !free) >> 1
}

/// `bits` moved `dy` rows down (up if negative); rows moved past either end are lost.
#[inline]
fn shifted(bits: u64, dy: i8) -> u64 {
    if dy >= 0 {
        bits << dy
    } else {
        bits >> -dy
    }
}

impl<const N: usize> Sweep<N> {
    /// The collision maps of `kind`'s orientations on `board`.
    fn new(board: &Board, kind: &PieceKind) -> Sweep<N> {
        let height = board.height() as i32;
        let top = 64 - height;
        // The board's empty cells by map column (the walls' columns have none), room left
        // for a box's cells right of its last column; the floor lies past bit 63.
        let mut empty = [0u64; WIDE + 4];
        let width = board.width();
        empty[X0 as usize..X0 as usize + width].fill(!0);
        for (y, &row) in board.rows().iter().enumerate().skip(board.surface()) {
            let mut bits = row;
            while bits != 0 {
                empty[X0 as usize + bits.trailing_zeros() as usize] &= !(1 << (y as i32 + top));
                bits &= bits - 1;
            }
        }
        let mut sweep = Sweep {
            top,
            free: [[!0; N]; 4],
            reach: [[0; N]; 4],
            turned_from: [[0; N]; 4],
            turned: [[[0; N]; 4]; 2],
            span: [(0, 0); 4],
        };
        for (o, shape) in kind.orientations().iter().enumerate().take(4) {
            let first = X0 - shape.left();
            let past = first + width as i8 - shape.width() as i8 + 1;
            sweep.span[o] = (first as usize, past.max(first) as usize);
            for &(dx, dy) in shape.cells() {
                // Bit b fits if the cell's bit b + dy is empty; rows shifted in from
                // under the floor are not.
                for (free, &empty) in sweep.free[o].iter_mut().zip(&empty[dx as usize..]) {
                    *free &= empty >> dy;
                }
            }
        }
        sweep
    }

    /// Closes orientation `o`'s positions under shifts and soft drops: passes left to
    /// right and back, until one changes nothing (after the first two: then each
    /// direction's pass has left nothing to add).
    fn close(&mut self, o: usize) {
        let (first, past) = self.span[o];
        let (free, reach) = (&self.free[o][first..past], &mut self.reach[o][first..past]);
        let mut pass = 0;
        loop {
            let mut changed = 0;
            let mut carry = 0;
            let mut step = |(&free, reach): (&u64, &mut u64)| {
                let mut x = *reach | carry & free;
                x |= landings(free, x);
                changed |= x ^ *reach;
                *reach = x;
                carry = x;
            };
            if pass % 2 == 0 {
                free.iter().zip(reach.iter_mut()).for_each(&mut step);
            } else {
                free.iter().zip(reach.iter_mut()).rev().for_each(&mut step);
            }
            pass += 1;
            if changed == 0 && pass >= 2 {
                return;
            }
        }
    }

    /// Plays the turns from orientation `o`'s positions not turned from yet; returns the
    /// orientations that gained positions, as a bit set.
    fn turn(&mut self, o: usize, turns: &[Turn; 2]) -> u8 {
        let mut gained = 0;
        let (first, past) = self.span[o];
        for c in first..past {
            let from = self.reach[o][c] & !self.turned_from[o][c];
            if from == 0 {
                continue;
            }
            self.turned_from[o][c] |= from;
            for &(to, kicks) in turns {
                let mut left = from;
                for (k, &(dx, dy)) in kicks.iter().enumerate() {
                    let target = (c as isize + dx as isize) as usize;
                    let fits = left & shifted(self.free[to][target], -dy);
                    if fits == 0 {
                        continue;
                    }
                    let entered = shifted(fits, dy);
                    self.turned[usize::from(k == 4)][to][target] |= entered;
                    if entered & !self.reach[to][target] != 0 {
                        self.reach[to][target] |= entered;
                        gained |= 1 << to;
                    }
                    left &= !fits;
                    if left == 0 {
                        break;
                    }
                }
            }
        }
        gained
    }

    /// Grows the closure from `start` and writes the placements; false if it cannot
    /// answer exactly (the piece climbs out of the rows it holds), `out` then unfinished.
    fn run(&mut self, kind: &PieceKind, rules: &Rules, start: PiecePos, out: &mut Vec<Landing>) -> bool {
        let (sb, sc) = (i32::from(start.y) + self.top, i32::from(start.x) + i32::from(X0));
        if !(0..64).contains(&sb) || !(0..N as i32).contains(&sc) {
            return false;
        }
        let (start_bit, start_column, start_o) = (1u64 << sb, sc as usize, usize::from(start.orientation));
        let count = kind.orientations().len().min(4);
        // Per orientation, its turns: the orientation turned to and the kicks in order.
        let mut turns: [[Turn; 2]; 4] = [[(0, &[]); 2]; 4];
        for (o, pair) in turns.iter_mut().enumerate().take(count) {
            for (turn, direction) in pair.iter_mut().zip([1, -1]) {
                let to = kind.turned(o as u8, direction);
                // A piece of one orientation turns in place: no move.
                if usize::from(to) != o {
                    *turn = (
                        usize::from(to),
                        rules.rotation().kicks(kind.box_size(), o as u8, direction),
                    );
                }
            }
        }
        self.reach[start_o][start_column] = start_bit;
        // Orientations with positions not yet closed and turned from.
        let mut dirty = 1u8 << start_o;
        while dirty != 0 {
            let o = dirty.trailing_zeros() as usize;
            dirty &= dirty - 1;
            self.close(o);
            dirty |= self.turn(o, &turns[o]);
        }
        let mut reached = 0;
        for o in 0..count {
            let (first, past) = self.span[o];
            for c in first..past {
                let reach = self.reach[o][c];
                if reach == 0 {
                    continue;
                }
                reached |= reach;
                let free = self.free[o][c];
                let rests = reach & !(free >> 1);
                let start_here = if (o, c) == (start_o, start_column) {
                    start_bit
                } else {
                    0
                };
                let side = self.reach[o][c - 1] | self.reach[o][c + 1];
                let ways = [
                    (Entry::Drop, landings(free, reach & !rests) | side | start_here),
                    (Entry::Turn, self.turned[0][o][c]),
                    (Entry::FifthKick, self.turned[1][o][c]),
                ];
                let x = c as i8 - X0;
                for (entry, bits) in ways {
                    let mut left = rests & bits;
                    while left != 0 {
                        let y = (left.trailing_zeros() as i32 - self.top) as i8;
                        left &= left - 1;
                        let orientation = o as u8;
                        out.push(Landing {
                            pos: PiecePos { orientation, x, y },
                            entry,
                        });
                    }
                }
            }
        }
        // A kick moves a piece up at most two rows: from below bit 1, none was cut short.
        reached & 0b11 == 0
    }
}

#[cfg(test)]
mod tests;

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
//! built like Cold Clear 2's `CollisionMaps`, marks where the piece does not fit, walls
//! and floor included; so a move applies to a whole column of positions at once:
//!
//! - a shift is the neighbour column's positions `&` free;
//! - a turn tries the kicks in order, each on the positions no earlier kick served, and
//!   keeps those the kick lands free: what [`step`](super::motion::step) does per piece;
//! - a soft drop carries each free run's positions to its bottom with one addition (the
//!   carry of `free + positions` runs to the cell past the run's end).
//!
//! A worklist of the bits not yet moved grows the closure to its fixpoint, each bit
//! moved once. Rows the `u64` cannot hold count as blocked; that is exact unless a
//! position within two rows (the highest kick) of bit 0 is reached, and then, or on
//! boards, pieces or rules the representation does not cover (see [`sweep_into`]), the
//! placements are derived from [`reachable`] itself.
#![forbid(unsafe_code)]

use super::board::{Board, PiecePos, MAX_WIDTH};
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

/// Every placement of `kind` reachable from `start` on `board` under `rules`: the set
/// [`reachable`] finds, as (position, entry), each once, without paths. See
/// [`sweep_into`].
pub fn sweep(rules: &Rules, board: &Board, kind: &PieceKind, start: PiecePos) -> Vec<Landing> {
    let mut out = Vec::new();
    sweep_into(rules, board, kind, start, &mut out);
    out
}

/// [`sweep`] into `out` (cleared first), so a caller searching every piece reuses one
/// buffer. Placements come by orientation, then column, then row from the top, then
/// entry. Under the guideline preset, for pieces whose boxes are at most 4 wide (the
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
    let covered = rules.rotation() == RotationSystem::Srs
        && rules.movement() == Movement::DropOnly
        && kind.box_size() <= 4
        // A cell on the box's top row only would let a position rest on bit 63 itself,
        // beyond which the carry of a soft drop is lost. No tetromino has one.
        && kind.orientations().iter().all(|o| o.top() + o.height() as i8 >= 2);
    if !(covered && Sweep::new(board, kind).run(kind, rules, start, out)) {
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

/// Columns of a map: the board's, with room for boxes over the walls and kicks past them.
const COLUMNS: usize = MAX_WIDTH + 8;
/// The map column of board column 0: boxes reach 3 columns over the left wall, and kicks
/// 2 further.
const X0: i8 = 5;

/// A map: one `u64` of rows per column, per orientation.
type Map = [[u64; COLUMNS]; 4];

/// A turn from an orientation: the orientation it turns to, and the kicks it tries in
/// order (none for a turn in place).
type Turn = (usize, &'static [(i8, i8)]);

/// The state of one sweep.
struct Sweep {
    /// Bit `b` of row `b - top`.
    top: i32,
    /// Per orientation, where its position fits.
    free: Map,
    /// The positions reached.
    reach: Map,
    /// Reached positions not yet moved from.
    pending: Map,
    /// Per orientation, the columns with pending positions.
    dirty: [u64; 4],
    /// Positions a turn enters through kicks 0-3, and through kick 4.
    turned: [Map; 2],
    /// Per orientation, the first and past-the-last map column where it can fit.
    span: [(usize, usize); 4],
}

/// The positions of the free run bottoms below `from` (free positions in `free`).
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

impl Sweep {
    /// The collision maps of `kind`'s orientations on `board`.
    fn new(board: &Board, kind: &PieceKind) -> Sweep {
        let height = board.height() as i32;
        let top = 64 - height;
        // The board by columns; the floor lies past bit 63.
        let mut columns = [0u64; MAX_WIDTH];
        for (y, &row) in board.rows().iter().enumerate().skip(board.surface()) {
            let mut bits = row;
            while bits != 0 {
                columns[bits.trailing_zeros() as usize] |= 1 << (y as i32 + top);
                bits &= bits - 1;
            }
        }
        let width = board.width() as i32;
        let column = |x: i32| {
            if (0..width).contains(&x) {
                columns[x as usize]
            } else {
                !0
            }
        };
        let mut sweep = Sweep {
            top,
            free: [[0; COLUMNS]; 4],
            reach: [[0; COLUMNS]; 4],
            pending: [[0; COLUMNS]; 4],
            dirty: [0; 4],
            turned: [[[0; COLUMNS]; 4]; 2],
            span: [(0, 0); 4],
        };
        for (o, shape) in kind.orientations().iter().enumerate().take(4) {
            let first = i32::from(X0) - i32::from(shape.left());
            let past = first + width - i32::from(shape.width()) + 1;
            sweep.span[o] = (first as usize, past.max(first) as usize);
            for c in first..past {
                let x = c - i32::from(X0);
                let blocked = shape.cells().iter().fold(0u64, |blocked, &(dx, dy)| {
                    // Bit b is blocked if the cell's bit b + dy is; bits past 63 are
                    // under the floor.
                    blocked | !(!column(x + i32::from(dx)) >> dy)
                });
                sweep.free[o][c as usize] = !blocked;
            }
        }
        sweep
    }

    /// Marks `bits` of orientation `o`, column `c` reached; those not reached before are
    /// pending.
    #[inline]
    fn add(&mut self, o: usize, c: usize, bits: u64) {
        let new = bits & !self.reach[o][c];
        if new != 0 {
            self.reach[o][c] |= new;
            self.pending[o][c] |= new;
            self.dirty[o] |= 1 << c;
        }
    }

    /// Grows the closure from `start` and writes the placements; false if it cannot
    /// answer exactly (the piece climbs out of the rows it holds), `out` then unfinished.
    fn run(&mut self, kind: &PieceKind, rules: &Rules, start: PiecePos, out: &mut Vec<Landing>) -> bool {
        let (sb, sc) = (i32::from(start.y) + self.top, i32::from(start.x + X0));
        if !(0..64).contains(&sb) || !(0..COLUMNS as i32).contains(&sc) {
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
        self.add(start_o, start_column, start_bit);
        while let Some(o) = self.dirty.iter().position(|&d| d != 0) {
            let c = self.dirty[o].trailing_zeros() as usize;
            self.dirty[o] &= self.dirty[o] - 1;
            let mut from = std::mem::take(&mut self.pending[o][c]);
            // Soft drop first, in place, so the bottoms it reaches move in this pass.
            let dropped = landings(self.free[o][c], from) & !self.reach[o][c];
            self.reach[o][c] |= dropped;
            from |= dropped;
            self.add(o, c - 1, from & self.free[o][c - 1]);
            self.add(o, c + 1, from & self.free[o][c + 1]);
            for &(to, kicks) in &turns[o] {
                let mut left = from;
                for (k, &(dx, dy)) in kicks.iter().enumerate() {
                    let target = (c as isize + dx as isize) as usize;
                    let fits = left & shifted(self.free[to][target], -dy);
                    if fits != 0 {
                        let entered = shifted(fits, dy);
                        self.turned[usize::from(k == 4)][to][target] |= entered;
                        self.add(to, target, entered);
                        left &= !fits;
                        if left == 0 {
                            break;
                        }
                    }
                }
            }
        }
        // A kick moves a piece up at most two rows: from below bit 1, none was cut short.
        if self.reach.iter().flatten().any(|&r| r & 0b11 != 0) {
            return false;
        }
        for o in 0..count {
            let (first, past) = self.span[o];
            for c in first..past {
                let reach = self.reach[o][c];
                if reach == 0 {
                    continue;
                }
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
                let mut left = rests;
                while left != 0 {
                    let b = left.trailing_zeros();
                    left &= left - 1;
                    let pos = PiecePos {
                        orientation: o as u8,
                        x: c as i8 - X0,
                        y: (b as i32 - self.top) as i8,
                    };
                    for (entry, bits) in ways {
                        if bits >> b & 1 == 1 {
                            out.push(Landing { pos, entry });
                        }
                    }
                }
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::piece::PieceSet;
    use crate::model::rules::Preset;

    /// The column sweep's own answer, or `None` where it hands over to `reachable`.
    fn swept(rules: &Rules, board: &Board, kind: &PieceKind, start: PiecePos) -> Option<Vec<Landing>> {
        let mut out = Vec::new();
        Sweep::new(board, kind).run(kind, rules, start, &mut out).then_some(out)
    }

    fn reachable_set(rules: &Rules, board: &Board, kind: &PieceKind, start: PiecePos) -> Vec<Landing> {
        let mut set: Vec<Landing> = reachable(rules, board, kind, start)
            .into_iter()
            .map(|r| Landing {
                pos: r.pos,
                entry: Entry::from_last_kick(r.last_kick),
            })
            .collect();
        set.sort_unstable();
        set
    }

    #[test]
    fn on_a_guideline_board_the_columns_answer_for_every_piece() {
        let rules = Rules::preset(Preset::Guideline);
        let board = Board::from_text(10, 40, "###.......\n##........\n##.#######\n##..######\n##.#######");
        for kind in PieceSet::srs().kinds() {
            let mut found = swept(&rules, &board, kind, rules.spawn(kind)).expect("no fallback");
            found.sort_unstable();
            assert_eq!(
                found,
                reachable_set(&rules, &board, kind, rules.spawn(kind)),
                "{}",
                kind.name()
            );
        }
    }

    #[test]
    fn a_piece_in_the_top_rows_of_a_64_row_board_is_left_to_reachable() {
        let rules = Rules {
            height: 64,
            ..Rules::preset(Preset::Guideline)
        };
        let board = Board::new(10, 64);
        let kind = PieceSet::srs().kind(crate::model::piece::PieceId(2)).clone();
        let high = PiecePos {
            orientation: 0,
            x: 3,
            y: 0,
        };
        assert!(swept(&rules, &board, &kind, high).is_none());
        let mut found = sweep(&rules, &board, &kind, high);
        found.sort_unstable();
        assert_eq!(found, reachable_set(&rules, &board, &kind, high));
        // From its spawn, far below, the columns answer.
        assert!(swept(&rules, &board, &kind, rules.spawn(&kind)).is_some());
    }

    #[test]
    fn a_start_that_does_not_fit_or_does_not_exist_finds_nothing() {
        let rules = Rules::preset(Preset::Guideline);
        let board = Board::new(10, 40);
        let kind = PieceSet::srs().kind(crate::model::piece::PieceId(1)).clone();
        let outside = PiecePos {
            orientation: 0,
            x: 9,
            y: 10,
        };
        assert!(sweep(&rules, &board, &kind, outside).is_empty());
        let no_such = PiecePos {
            orientation: 3,
            ..rules.spawn(&kind)
        };
        assert!(sweep(&rules, &board, &kind, no_such).is_empty());
    }
}

//! Placement enumeration: every resting position a piece can reach by a simple path, with
//! the per-tick actions that reach it.
//!
//! Design. A path is "turn and shift together, one step per tick, DROP in the last of
//! those ticks", and under `classic` optionally one slide (left or right) after the DROP.
//! Each candidate path is played with [`step`], the very function the host runs, so a
//! placement exists only if its path really gets there: under gravity a piece that is
//! blocked while it descends, or that locks before it arrives, yields no placement.
//! Slides are kept only where the slid piece rests (seed 000's rule), so every path ends
//! with the lock in its last tick. Placements are distinct by final position; the first
//! path found (no slide, orientation order, then left to right) is kept.
//!
//! Fast path. Without gravity, when every row the piece can hover in (its start, and
//! each orientation's entry row) lies above the stack's surface, `step` can only ever
//! meet the walls while the piece turns and shifts, and the DROP falls straight from open
//! sky. [`placements_into`] then checks each path against the walls alone and lands the
//! piece from per-column surface heights, which gives exactly what playing it with
//! `step` gives (the property tests and the pinned games check that) at a fraction of the
//! cost. Under `simplified` this is every position; under `leiden`, every position whose
//! stack is lower than the hover rows. Under `classic` the same holds path by path: a
//! path that stays above the columns it sweeps until its DROP is checked against the
//! walls and landed, the others are played, and slides are checked where they end
//! (`gravity.rs`).

use super::board::MAX_WIDTH;
use super::board::{Board, PiecePos};
use super::motion::{step, Actions};
use super::piece::{Orientation, PieceKind};
use super::rotation::RotationSystem;
use super::rules::{Movement, Rules};

mod gravity;
mod open_sky;
pub use open_sky::OpenSkyDrops;

/// A reachable resting position and how to get there from the starting position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Placement {
    /// Where the piece locks.
    pub pos: PiecePos,
    /// Quarter turns from the start: positive clockwise, negative counter-clockwise.
    pub turns: i8,
    /// Columns shifted before the DROP: positive right.
    pub shifts: i8,
    /// One column slid after the DROP: -1 left, +1 right, 0 none (`classic` only).
    pub slide: i8,
}

impl Placement {
    /// The actions to return, tick by tick, to lock the piece here under `movement`.
    /// The piece locks on the last tick, or (under gravity, with no slide) already on the
    /// DROP tick if it was resting when the DROP came; the host then ignores the rest.
    pub fn path(&self, movement: Movement) -> Path {
        let lock_tick = match movement {
            Movement::Gravity => Some(Actions::shifting(self.slide) | Actions::DROP),
            Movement::DropOnly => None,
        };
        Path {
            turns_left: self.turns.unsigned_abs(),
            turn: Actions::turning(self.turns),
            shifts_left: self.shifts.unsigned_abs(),
            shift: Actions::shifting(self.shifts),
            dropped: false,
            lock_tick,
        }
    }

    /// Ticks its path takes from `start` (where the piece was when the enumeration ran)
    /// until the piece locks, under `movement`: the ticks that turn and shift, the last
    /// with the DROP, and under gravity the tick after it, unless the piece already
    /// rested when the DROP came (see [`Placement::path`]).
    #[inline]
    pub fn lock_ticks(&self, movement: Movement, start: PiecePos) -> u32 {
        let to_drop = u32::from(gravity::ticks_to_drop(self));
        match movement {
            Movement::Gravity if self.slide == 0 && gravity::locked_on_drop(start, self) => to_drop,
            Movement::Gravity => to_drop + 1,
            Movement::DropOnly => to_drop,
        }
    }
}

/// An iterator over one placement's per-tick actions.
#[derive(Clone, Debug)]
pub struct Path {
    turns_left: u8,
    turn: Actions,
    shifts_left: u8,
    shift: Actions,
    dropped: bool,
    lock_tick: Option<Actions>,
}

impl Iterator for Path {
    type Item = Actions;

    fn next(&mut self) -> Option<Actions> {
        if self.dropped {
            return self.lock_tick.take();
        }
        let mut actions = Actions::NONE;
        if self.turns_left > 0 {
            self.turns_left -= 1;
            actions |= self.turn;
        }
        if self.shifts_left > 0 {
            self.shifts_left -= 1;
            actions |= self.shift;
        }
        if self.turns_left == 0 && self.shifts_left == 0 {
            self.dropped = true;
            actions |= Actions::DROP;
        }
        Some(actions)
    }
}

/// The quarter turns that reach `to` from `from` fastest (clockwise on a tie).
fn shortest_turns(kind: &PieceKind, from: u8, to: u8) -> i8 {
    let count = kind.orientations().len() as i8;
    let clockwise = (to as i8 - from as i8).rem_euclid(count);
    if clockwise * 2 <= count {
        clockwise
    } else {
        clockwise - count
    }
}

/// Every placement reachable from `start`, in enumeration order (see the module note).
pub fn placements(rules: &Rules, board: &Board, kind: &PieceKind, start: PiecePos) -> Vec<Placement> {
    let mut out = Vec::with_capacity(4 * board.width() * 3);
    placements_into(rules, board, kind, start, &mut out);
    out
}

/// Like [`placements`], writing into `out` (cleared first) to reuse its allocation.
pub fn placements_into(rules: &Rules, board: &Board, kind: &PieceKind, start: PiecePos, out: &mut Vec<Placement>) {
    out.clear();
    if rules.movement() == Movement::DropOnly && hovers_in_open_sky(rules, board, kind, start) {
        drop_from_open_sky(rules, board, kind, start, out);
    } else if rules.movement() == Movement::Gravity
        && rules.rotation() == RotationSystem::InBox
        && kind.orientations().len() <= gravity::MAX_ORIENTATIONS
    {
        gravity::gravity_placements(board, kind, start, out);
    } else {
        play_every_path(rules, board, kind, start, out);
    }
}

/// The general case: every candidate path played with [`step`], then the slides.
fn play_every_path(rules: &Rules, board: &Board, kind: &PieceKind, start: PiecePos, out: &mut Vec<Placement>) {
    for (index, shape) in kind.orientations().iter().enumerate() {
        let orientation = index as u8;
        let turns = shortest_turns(kind, start.orientation, orientation);
        let min_x = -shape.left();
        let max_x = board.width() as i8 - shape.left() - shape.width() as i8;
        for x in min_x..=max_x {
            play_into(rules, board, kind, start, (orientation, x, turns), out);
        }
    }
    if rules.movement() == Movement::Gravity {
        add_slides(rules, board, kind, start, out);
    }
}

/// Whether the piece, wherever it hovers (at `start`, or turned: at any orientation's
/// entry row, or under SRS at the start's row), lies wholly above the stack's surface:
/// then only the walls can refuse a turn or a shift.
fn hovers_in_open_sky(rules: &Rules, board: &Board, kind: &PieceKind, start: PiecePos) -> bool {
    open_sky_surface(rules, kind, start) <= board.surface() as i32
}

/// The least board surface (its first filled row) over which the piece hovers in open
/// sky (see [`hovers_in_open_sky`]): the row under the lowest cell it can hover with.
fn open_sky_surface(rules: &Rules, kind: &PieceKind, start: PiecePos) -> i32 {
    let below = |shape: &Orientation, y: i8| i32::from(y) + i32::from(shape.top()) + i32::from(shape.height());
    let hover_row = |orientation: u8| match rules.rotation() {
        RotationSystem::InBox => rules.entry_row(kind, orientation),
        RotationSystem::Srs => start.y,
    };
    kind.orientations()
        .iter()
        .enumerate()
        .map(|(index, shape)| below(shape, hover_row(index as u8)))
        .fold(below(kind.orientation(start.orientation), start.y), i32::max)
}

/// Whether `shape` at column `x` lies between the walls.
#[inline]
fn within_walls(shape: &Orientation, x: i8, width: i8) -> bool {
    let left = x + shape.left();
    left >= 0 && left + shape.width() as i8 <= width
}

/// The first filled row of each column of `board` (the height for an empty one, and for
/// the columns past its width up to `N`, which must be at least the width), read only
/// down to the row where every column has met the stack: stacks such as `classic`'s reach
/// far below their columns' tops.
#[inline(always)]
fn column_tops<const N: usize>(board: &Board) -> [i32; N] {
    let mut tops = [board.height() as i32; N];
    let (full, mut seen) = (board.full_row(), 0u32);
    for (y, &row) in board.rows().iter().enumerate().skip(board.surface()) {
        let mut fresh = row & !seen;
        while fresh != 0 {
            tops[fresh.trailing_zeros() as usize] = y as i32;
            fresh &= fresh - 1;
        }
        seen |= row;
        if seen == full {
            break;
        }
    }
    tops
}

/// The fast path (see the module note): the same placements, in the same order, as
/// playing every candidate path with [`step`], when [`hovers_in_open_sky`] holds.
fn drop_from_open_sky(rules: &Rules, board: &Board, kind: &PieceKind, start: PiecePos, out: &mut Vec<Placement>) {
    let width = board.width() as i8;
    let tops: [i32; MAX_WIDTH] = column_tops(board);
    let orientations = kind.orientations();
    // The columns where every orientation lies between the walls. A path from `start.x`
    // to an `x` that are both in it clears the walls whatever it turns to on the way (for
    // each orientation the columns that fit are an interval); other paths are checked
    // tick by tick.
    let (free_min, free_max) = orientations.iter().fold((i8::MIN, i8::MAX), |(lo, hi), shape| {
        (
            lo.max(-shape.left()),
            hi.min(width - shape.left() - shape.width() as i8),
        )
    });
    let start_free = (free_min..=free_max).contains(&start.x);
    for (index, shape) in orientations.iter().enumerate() {
        let orientation = index as u8;
        let turns = shortest_turns(kind, start.orientation, orientation);
        let bottoms = shape.column_bottoms();
        let min_x = -shape.left();
        let max_x = width - shape.left() - shape.width() as i8;
        // An exclusive range: inclusive ones iterate slowly.
        for x in min_x..max_x + 1 {
            let shifts = x - start.x;
            let free = start_free && free_min <= x && x <= free_max;
            if !free && !path_clears_the_walls(kind, start, turns, shifts, width) {
                // Under SRS a wall kicks a turn rather than refusing it: the path goes
                // somewhere, and only playing it says where.
                if rules.rotation() == RotationSystem::Srs {
                    play_into(rules, board, kind, start, (orientation, x, turns), out);
                }
                continue;
            }
            let left = (x + shape.left()) as usize;
            // The highest row the piece reaches in any of its columns.
            let mut y = i32::MAX;
            for (&top, &bottom) in tops[left..left + bottoms.len()].iter().zip(bottoms) {
                y = y.min(top - 1 - i32::from(bottom));
            }
            out.push(Placement {
                pos: PiecePos {
                    orientation,
                    x,
                    y: y as i8,
                },
                turns,
                shifts,
                slide: 0,
            });
        }
    }
}

/// Whether every turn and shift of the path is accepted when only the walls can refuse
/// them: the tick order of [`step`] (turn, then shift, one of each per tick).
fn path_clears_the_walls(kind: &PieceKind, start: PiecePos, turns: i8, shifts: i8, width: i8) -> bool {
    let (turn, shift) = (turns.signum(), shifts.signum());
    let mut orientation = start.orientation;
    let mut x = start.x;
    for tick in 0..turns.unsigned_abs().max(shifts.unsigned_abs()) {
        if tick < turns.unsigned_abs() {
            orientation = kind.turned(orientation, turn);
            if !within_walls(kind.orientation(orientation), x, width) {
                return false;
            }
        }
        if tick < shifts.unsigned_abs() {
            x += shift;
            if !within_walls(kind.orientation(orientation), x, width) {
                return false;
            }
        }
    }
    true
}

/// Plays the path that turns `turns` times to `orientation` and shifts to column `x`,
/// and adds where it locks. A kick can bring two paths to one position; the first is
/// kept.
fn play_into(
    rules: &Rules,
    board: &Board,
    kind: &PieceKind,
    start: PiecePos,
    (orientation, x, turns): (u8, i8, i8),
    out: &mut Vec<Placement>,
) {
    let candidate = Placement {
        pos: PiecePos { orientation, x, y: 0 },
        turns,
        shifts: x - start.x,
        slide: 0,
    };
    if let Some(pos) = play(rules, board, kind, start, &candidate) {
        let kicked_twice = rules.rotation() == RotationSystem::Srs && out.iter().any(|p| p.pos == pos);
        if !kicked_twice {
            out.push(Placement { pos, ..candidate });
        }
    }
}

/// Plays a candidate's path with the host's own [`step`] and returns where it locks, or
/// `None` if a turn or shift was refused or the piece locked before the path's end.
fn play(rules: &Rules, board: &Board, kind: &PieceKind, start: PiecePos, candidate: &Placement) -> Option<PiecePos> {
    let mut pos = start;
    let mut path = candidate.path(rules.movement()).peekable();
    while let Some(actions) = path.next() {
        let result = step(rules, board, kind, &mut pos, actions);
        if result.turned != (actions.turn() != 0) || result.shifted != (actions.shift() != 0) {
            return None;
        }
        if result.locked {
            let early_lock_on_drop = actions == Actions::DROP && candidate.slide == 0;
            return (path.peek().is_none() || early_lock_on_drop).then_some(pos);
        }
    }
    None
}

/// Under `classic`: after a DROP, one slide left or right, kept where the slid piece rests
/// (and where the path really gets there: a piece that locked on its DROP cannot slide).
fn add_slides(rules: &Rules, board: &Board, kind: &PieceKind, start: PiecePos, out: &mut Vec<Placement>) {
    let dropped = out.len();
    for i in 0..dropped {
        let base = out[i];
        let shape = kind.orientation(base.pos.orientation);
        for slide in [-1i8, 1] {
            let pos = PiecePos {
                x: base.pos.x + slide,
                ..base.pos
            };
            let lands = board.fits(shape, pos.x, pos.y) && board.rests(shape, pos.x, pos.y);
            if !lands || out.iter().any(|p| p.pos == pos) {
                continue;
            }
            let candidate = Placement { pos, slide, ..base };
            if play(rules, board, kind, start, &candidate) == Some(pos) {
                out.push(candidate);
            }
        }
    }
}

#[cfg(test)]
mod tests;

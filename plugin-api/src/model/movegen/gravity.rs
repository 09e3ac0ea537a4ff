//! Placement enumeration under gravity with in-box turns (`classic`), without playing
//! the paths that only the walls can refuse.
//!
//! Under gravity a path falls one row a tick while it turns and shifts, so whether the
//! stack can stop it depends on how far it falls on the way and on the columns it sweeps.
//! A path whose piece stays above every column it sweeps until its DROP tick (with the
//! row under it empty, so it never rests early) meets only the walls: it is checked
//! against them and landed from the column heights, which gives exactly what playing it
//! with [`step`](crate::model::motion::step) gives. The other paths that shift at every
//! tick share all their ticks but the last, so one walk each way plays them together;
//! the few left (shorter shifts than turns, or none) are followed one by one, a tick
//! or two each, asking the same tables. A slide needs
//! no playing either: after a DROP that did not lock the piece, the slid piece locks
//! where it is if it fits and rests there, and otherwise the path does not end locked.
//!
//! Each orientation's landing row at each column is worked out once per call, from the
//! column heights; the walks and the slides ask the board's rows only where the piece
//! lies under its landing row, beneath an overhang ([`Sky`]). The least column height a
//! path sweeps is looked up, not searched ([`Sweeps`]).

use super::{path_clears_the_walls, shortest_turns, Placement};
use crate::model::board::{Board, PiecePos, MAX_WIDTH};
use crate::model::piece::{PieceKind, MAX_PIECE_SIZE};
use slides::add_slides;
use std::cmp::Ordering;
use walks::{follow, walk, NO_ROW};

mod slides;
mod walks;

/// The most orientations a piece has here; pieces with more are enumerated by playing
/// their paths.
pub(super) const MAX_ORIENTATIONS: usize = 4;

/// Ticks a path takes to its DROP tick (that one included): turns and shifts go
/// together, one of each a tick, and the DROP comes with the last of them.
#[inline]
pub(super) fn ticks_to_drop(placement: &Placement) -> u8 {
    placement
        .turns
        .unsigned_abs()
        .max(placement.shifts.unsigned_abs())
        .max(1)
}

/// Whether a placement of a path from `start` (no slide) locked on its DROP tick: it
/// rested when the DROP came, on the row it had fallen to, one a tick.
#[inline]
pub(super) fn locked_on_drop(start: PiecePos, placement: &Placement) -> bool {
    i32::from(placement.pos.y) == i32::from(start.y) + i32::from(ticks_to_drop(placement)) - 1
}

/// Columns of the per-column tables: a box column lies within `MAX_PIECE_SIZE` of the
/// board.
const COLUMNS: usize = MAX_WIDTH + 2 * MAX_PIECE_SIZE;

/// A table's entry where there is none: no placement, or a column outside the walls.
const NONE: i8 = i8::MIN;

/// The table index of box column `x`.
#[inline(always)]
fn column(x: i8) -> usize {
    (i32::from(x) + MAX_PIECE_SIZE as i32) as usize
}

/// The board as the piece meets it, asked from the column heights where they answer:
/// a piece no lower than the row it lands on falling straight from above the stack
/// (its landing row) fits, and rests exactly on that row; only a piece under it (beneath
/// an overhang) needs the board's rows.
struct Sky<'a> {
    board: &'a Board,
    kind: &'a PieceKind,
    /// Per orientation and box column (see [`column`]), the landing row, [`NONE`]
    /// outside the walls.
    landing: [[i8; COLUMNS]; MAX_ORIENTATIONS],
}

impl<'a> Sky<'a> {
    fn new(board: &'a Board, kind: &'a PieceKind, tops: &[i32; MAX_WIDTH]) -> Sky<'a> {
        let width = board.width() as i8;
        let mut landing = [[NONE; COLUMNS]; MAX_ORIENTATIONS];
        for (rows, shape) in landing.iter_mut().zip(kind.orientations()) {
            // The box columns between the walls, `from..to`, whose cells' column `j`
            // lies over board column `first + j` from the first of them on.
            let from = column(-shape.left());
            let to = column(width - shape.left() - shape.width() as i8) + 1;
            let mut least = [i32::MAX; COLUMNS];
            // Column by column of the piece, every box column at once: the landing row is
            // the least over the piece's columns of the row above the top less its
            // lowest cell's depth.
            for (j, &bottom) in shape.column_bottoms().iter().enumerate() {
                let over = &tops[j..j + (to - from)];
                for (least, &top) in least[from..to].iter_mut().zip(over) {
                    *least = (*least).min(top - 1 - i32::from(bottom));
                }
            }
            for (row, &least) in rows[from..to].iter_mut().zip(&least[from..to]) {
                *row = least as i8;
            }
        }
        Sky { board, kind, landing }
    }

    /// The landing row of `orientation` at box column `x` ([`NONE`] outside the walls).
    #[inline(always)]
    fn landing(&self, orientation: u8, x: i8) -> i8 {
        self.landing[usize::from(orientation)]
            .get(column(x))
            .copied()
            .unwrap_or(NONE)
    }

    /// Whether the piece fits at `x`, `y` in `orientation`.
    #[inline]
    fn fits(&self, orientation: u8, x: i8, y: i8) -> bool {
        let landing = self.landing(orientation, x);
        (landing != NONE && y <= landing) || self.board.fits(self.kind.orientation(orientation), x, y)
    }

    /// Whether the piece, fitting at `x`, `y` in `orientation`, rests there.
    #[inline(always)]
    fn rests(&self, orientation: u8, x: i8, y: i8) -> bool {
        let landing = self.landing(orientation, x);
        match y.cmp(&landing) {
            _ if landing == NONE => self.board.rests(self.kind.orientation(orientation), x, y),
            Ordering::Less => false,
            Ordering::Equal => true,
            Ordering::Greater => self.board.rests(self.kind.orientation(orientation), x, y),
        }
    }

    /// The row the piece, fitting at `x`, `y` in `orientation`, reaches falling straight.
    #[inline(always)]
    fn drop_row(&self, orientation: u8, x: i8, y: i8) -> i8 {
        let landing = self.landing(orientation, x);
        if landing != NONE && y <= landing {
            landing
        } else {
            self.board.drop_row(self.kind.orientation(orientation), x, y)
        }
    }
}

/// The least column top over the columns a path from `start.x` to `x` can cover (see
/// [`gravity_placements`]), each asked at once: from `start`'s own columns, the minima
/// extended leftwards and rightwards.
struct Sweeps {
    /// `leftwards[c]`: the least top of columns `c..own_to`, for `c` up to `own_from`.
    leftwards: [i32; MAX_WIDTH + 1],
    /// `rightwards[c]`: the least top of columns `own_from..c`, for `c` from `own_to`.
    rightwards: [i32; MAX_WIDTH + 1],
    lefts: i32,
    rights: i32,
    width: i32,
    start_x: i8,
}

impl Sweeps {
    /// For a piece whose orientations reach from `lefts` to `rights` columns of its box
    /// column, starting at `start_x`.
    fn new(tops: &[i32; MAX_WIDTH], width: i32, start_x: i8, lefts: i32, rights: i32) -> Sweeps {
        let own_from = (i32::from(start_x) + lefts).clamp(0, width) as usize;
        let own_to = (i32::from(start_x) + rights).clamp(own_from as i32, width) as usize;
        let own = tops[own_from..own_to].iter().copied().min().unwrap_or(i32::MAX);
        let mut leftwards = [i32::MAX; MAX_WIDTH + 1];
        let mut least = own;
        leftwards[own_from] = least;
        for c in (0..own_from).rev() {
            least = least.min(tops[c]);
            leftwards[c] = least;
        }
        let mut rightwards = [i32::MAX; MAX_WIDTH + 1];
        let mut least = own;
        rightwards[own_to] = least;
        for c in own_to..width as usize {
            least = least.min(tops[c]);
            rightwards[c + 1] = least;
        }
        Sweeps {
            leftwards,
            rightwards,
            lefts,
            rights,
            width,
            start_x,
        }
    }

    /// The least top of the columns a path from the start to box column `x` can cover,
    /// whatever it turns to: from the leftmost column of any orientation at the lesser
    /// of the two to the rightmost at the greater.
    #[inline(always)]
    fn lowest_top(&self, x: i8) -> i32 {
        if x <= self.start_x {
            self.leftwards[(i32::from(x) + self.lefts).max(0) as usize]
        } else {
            self.rightwards[(i32::from(x) + self.rights).min(self.width) as usize]
        }
    }
}

/// Every placement under gravity with in-box turns, in the order and with the paths of
/// playing every candidate path and then the slides.
pub(super) fn gravity_placements(board: &Board, kind: &PieceKind, start: PiecePos, out: &mut Vec<Placement>) {
    let width = board.width() as i8;
    let tops: [i32; MAX_WIDTH] = super::column_tops(board);
    let sky = Sky::new(board, kind, &tops);
    let orientations = kind.orientations();
    // The row under the piece's lowest cell, from its box's row, in its deepest
    // orientation; and the columns any orientation reaches, from its box's column.
    let reach = orientations
        .iter()
        .map(|s| i32::from(s.top()) + i32::from(s.height()))
        .max()
        .unwrap_or(0);
    let lefts = orientations.iter().map(|s| i32::from(s.left())).min().unwrap_or(0);
    let rights = orientations
        .iter()
        .map(|s| i32::from(s.left()) + i32::from(s.width()))
        .max()
        .unwrap_or(0);
    let sweeps = Sweeps::new(&tops, i32::from(width), start.x, lefts, rights);
    // The columns where every orientation lies between the walls: a path between two
    // of them clears the walls whatever it turns to on the way (see `drop_from_open_sky`).
    let (free_min, free_max) = orientations.iter().fold((i8::MIN, i8::MAX), |(lo, hi), shape| {
        (
            lo.max(-shape.left()),
            hi.min(width - shape.left() - shape.width() as i8),
        )
    });
    let start_free = (free_min..=free_max).contains(&start.x);
    let turns = turns_from(kind, start.orientation);
    for (index, shape) in orientations.iter().enumerate() {
        let orientation = index as u8;
        let turns = turns[index];
        let min_x = -shape.left();
        let max_x = width - shape.left() - shape.width() as i8;
        // Per way (left, right), the rows the walk found, by columns shifted.
        let mut walked = [false; 2];
        let mut rows = [[NO_ROW; COLUMNS]; 2];
        for x in min_x..max_x + 1 {
            let shifts = x - start.x;
            let ticks = turns.unsigned_abs().max(shifts.unsigned_abs()).max(1);
            // On its DROP tick the piece's box is `ticks - 1` rows below the start.
            let open = i32::from(start.y) + i32::from(ticks) - 1 + reach < sweeps.lowest_top(x);
            if !open {
                let k = shifts.unsigned_abs();
                if k == 0 || k < turns.unsigned_abs() {
                    if let Some(y) = follow(&sky, start, turns, shifts) {
                        out.push(Placement {
                            pos: PiecePos { orientation, x, y },
                            turns,
                            shifts,
                            slide: 0,
                        });
                    }
                    continue;
                }
                // Paths that shift at every tick share their ticks but the last: one walk
                // a way plays them all.
                let way = usize::from(shifts > 0);
                if !walked[way] {
                    walked[way] = true;
                    let farthest = if shifts > 0 { max_x - start.x } else { start.x - min_x };
                    walk(&sky, start, turns, shifts.signum(), farthest as u8, &mut rows[way]);
                }
                let y = rows[way][usize::from(k)];
                if y != NO_ROW {
                    out.push(Placement {
                        pos: PiecePos { orientation, x, y },
                        turns,
                        shifts,
                        slide: 0,
                    });
                }
                continue;
            }
            let free = start_free && free_min <= x && x <= free_max;
            if !free && !path_clears_the_walls(kind, start, turns, shifts, width) {
                continue;
            }
            out.push(Placement {
                pos: PiecePos {
                    orientation,
                    x,
                    y: sky.landing(orientation, x),
                },
                turns,
                shifts,
                slide: 0,
            });
        }
    }
    add_slides(&sky, start, &turns, out);
}

/// Per orientation of `kind`, the quarter turns that reach it from orientation `from`
/// fastest, as [`shortest_turns`] gives them, worked out without its division (a
/// piece's placements ask for them once per call).
fn turns_from(kind: &PieceKind, from: u8) -> [i8; MAX_ORIENTATIONS] {
    let (count, from) = (kind.orientations().len() as i8, from as i8);
    let mut turns = [0; MAX_ORIENTATIONS];
    for (to, turns) in turns.iter_mut().take(count as usize).enumerate() {
        let clockwise = to as i8 - from;
        let clockwise = if clockwise < 0 { clockwise + count } else { clockwise };
        *turns = if clockwise * 2 <= count {
            clockwise
        } else {
            clockwise - count
        };
    }
    debug_assert!((0..count).all(|to| turns[to as usize] == shortest_turns(kind, from as u8, to as u8)));
    turns
}

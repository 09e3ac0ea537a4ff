//! The slides of `classic` after a DROP (one column left or right), asked of the
//! column tables where they answer and of the board's rows beneath an overhang.

use super::{column, Sky, COLUMNS, MAX_ORIENTATIONS, NONE};
use crate::model::board::{Board, PiecePos};
use crate::model::movegen::Placement;
use crate::model::piece::{Orientation, MAX_PIECE_SIZE};

/// The slides after the DROPs of the placements in `out` (one a column left or right),
/// each kept where the slid piece rests and no placement before it lies.
pub(super) fn add_slides(sky: &Sky, start: PiecePos, turns: &[i8; MAX_ORIENTATIONS], out: &mut Vec<Placement>) {
    // Per orientation and column, the row of the placement without a slide there (with
    // in-box turns there is at most one, and `out` lists them by orientation, then
    // column): a column is slid into from its two sides only.
    let mut rows = [[NONE; COLUMNS]; MAX_ORIENTATIONS];
    for p in out.iter() {
        rows[usize::from(p.pos.orientation)][column(p.pos.x)] = p.pos.y;
    }
    let width = sky.board.width() as i8;
    for (index, shape) in sky.kind.orientations().iter().enumerate() {
        let orientation = index as u8;
        let (row, landing) = (&rows[index], &sky.landing[index]);
        let turns = turns[index];
        let (min_x, max_x) = (-shape.left(), width - shape.left() - shape.width() as i8);
        // The columns whose placement has a slide left, and right, worth asking the
        // board about: the slid piece lies between the walls (its column has a landing
        // row), no placement without a slide is there, it is not above the landing row,
        // and the piece did not lock on its DROP. All asked without a branch, as most
        // columns have none.
        let (mut lefts, mut rights) = (0u64, 0u64);
        for x in min_x..max_x + 1 {
            let c = column(x);
            let y = row[c];
            let ticks = turns.unsigned_abs().max((x - start.x).unsigned_abs()).max(1);
            let slides = i32::from(y) != i32::from(start.y) + i32::from(ticks) - 1;
            // One row under the landing row the piece meets the top of the column that
            // set it: it lands on that row, or two or more rows under it.
            let candidate = |to: usize| {
                let landing = landing[to];
                (landing != NONE) & (row[to] != y) & ((y == landing) | (i32::from(y) > i32::from(landing) + 1))
            };
            lefts |= u64::from(slides & candidate(c - 1)) << c;
            rights |= u64::from(slides & candidate(c + 1)) << c;
        }
        // On the landing row the piece fits and rests; only under it (beneath an
        // overhang) does the board need asking.
        let lands = |x: i8, y: i8| y == landing[column(x)] || fits_and_rests(sky.board, shape, x, y);
        // The columns whose placement's slide right was kept: the slide left from two
        // columns on, to the same row, reaches the same position.
        let mut slid_right = 0u64;
        let mut each = lefts | rights;
        while each != 0 {
            let c = each.trailing_zeros() as usize;
            each &= each - 1;
            let (x, y) = (c as i8 - MAX_PIECE_SIZE as i8, row[c]);
            // Both ways asked before either is kept: few are, and a branch a way would
            // mostly guess wrong.
            let kept_already = c >= 2 && (slid_right >> (c - 2)) & 1 != 0 && row[c - 2] == y;
            let left = (lefts >> c) & 1 != 0 && !kept_already && lands(x - 1, y);
            let right = (rights >> c) & 1 != 0 && lands(x + 1, y);
            if !(left | right) {
                continue;
            }
            let base = Placement {
                pos: PiecePos { orientation, x, y },
                turns,
                shifts: x - start.x,
                slide: 0,
            };
            for (slide, kept) in [(-1, left), (1, right)] {
                if kept {
                    out.push(Placement {
                        pos: PiecePos {
                            x: x + slide,
                            ..base.pos
                        },
                        slide,
                        ..base
                    });
                }
            }
            slid_right |= u64::from(right) << c;
        }
    }
}

/// Whether `shape` at `x`, `y`, between the walls, fits and rests there: as
/// [`Board::fits`] and [`Board::rests`] ask it, in one pass over the piece's rows, the
/// rows above the board empty and those under it (the floor) full.
#[inline]
fn fits_and_rests(board: &Board, shape: &Orientation, x: i8, y: i8) -> bool {
    let rows = board.rows();
    let row = |r: i32| match usize::try_from(r) {
        Ok(r) => rows.get(r).copied().unwrap_or(u32::MAX),
        Err(_) => 0,
    };
    let (shift, top) = (
        i32::from(x) + i32::from(shape.left()),
        i32::from(y) + i32::from(shape.top()),
    );
    let (mut here, mut below) = (0, 0);
    for (i, &mask) in shape.row_masks().iter().enumerate() {
        let (mask, r) = (mask << shift, top + i as i32);
        here |= row(r) & mask;
        below |= row(r + 1) & mask;
    }
    here == 0 && below != 0
}

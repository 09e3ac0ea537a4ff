//! The evaluation of a board for versus: its shape's terms, each named as in
//! [`Weights`], the T-spin slots a coming T could fill, and the value of a board with the
//! streak and garbage it carries.

use crate::attack::Streak;
use crate::weights::Weights;
use tetrad_plugin_api::{Board, MAX_WIDTH};

/// The board's terms, as counts (the weights make them a value).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Shape {
    /// Rows of the highest column.
    pub height: u32,
    /// Rows of the highest column above half the visible field.
    pub top_half: u32,
    /// Rows of the highest column above three quarters of the visible field.
    pub top_quarter: u32,
    /// Empty cells with a filled cell above them.
    pub holes: u32,
    /// Per hole, the rows from it up to its column's top, both counted, at most
    /// [`MAX_COVER`] each.
    pub coveredness: u32,
    /// Changes from filled to empty or back along each row, the walls counted as filled.
    pub row_transitions: u32,
    /// Rows from the bottom of the well (the lowest column, the leftmost of equals) up
    /// which every other column is filled: what four lines down the well would clear.
    pub well: u32,
    /// Sum of the height differences of neighbouring columns, the well's excluded.
    pub bumpiness: u32,
    /// Sum of their squares.
    pub bumpiness_sq: u32,
}

/// The most rows over a hole that count against it: deeper, digging it out is no harder.
pub const MAX_COVER: u32 = 6;

/// The rows a hypothetical T placed in each slot found cleared: `[none, one, two, three]`.
pub type Slots = [u32; 4];

impl Shape {
    /// The terms of `board`, whose visible field is its lowest `visible` rows.
    pub fn of(board: &Board, visible: usize) -> Shape {
        let rows = board.rows();
        let width = board.width();
        let height = board.height();
        let full = board.full_row();
        let mut heights = [0u32; MAX_WIDTH];
        let mut seen = 0u32;
        let mut holes_at = [0u32; tetrad_plugin_api::MAX_HEIGHT];
        let mut holes = 0;
        // An empty row changes twice: from the left wall and into the right one.
        let mut row_transitions = 2 * board.surface() as u32;
        for (y, &row) in rows.iter().enumerate().skip(board.surface()) {
            // The row between its two walls: bit 0 and bit width + 1 filled.
            let walled = (row << 1) | 1 | (1 << (width + 1));
            row_transitions += (walled ^ (walled >> 1)).count_ones() - 1;
            let new = row & !seen;
            let mut bits = new;
            while bits != 0 {
                heights[bits.trailing_zeros() as usize] = (height - y) as u32;
                bits &= bits - 1;
            }
            holes_at[y] = seen & !row & full;
            holes += holes_at[y].count_ones();
            seen |= row;
        }
        let heights = &heights[..width];
        let mut coveredness = 0;
        for (y, &row_holes) in holes_at.iter().enumerate().take(height).skip(board.surface()) {
            let mut bits = row_holes;
            while bits != 0 {
                let x = bits.trailing_zeros() as usize;
                let from_floor = (height - 1 - y) as u32;
                coveredness += (heights[x] - from_floor).min(MAX_COVER);
                bits &= bits - 1;
            }
        }
        let top = heights.iter().copied().max().unwrap_or(0);
        let half = (visible / 2) as u32;
        let quarter = (visible * 3 / 4) as u32;
        let well_x = (0..width).min_by_key(|&x| heights[x]).unwrap_or(0);
        let (mut bumpiness, mut bumpiness_sq) = (0, 0);
        for x in 1..width {
            if x == well_x || x - 1 == well_x {
                continue;
            }
            let step = heights[x].abs_diff(heights[x - 1]);
            bumpiness += step;
            bumpiness_sq += step * step;
        }
        // Up from the well's bottom, the rows in which every column but the well's is full.
        let others = full & !(1 << well_x);
        let bottom = height - heights[well_x] as usize;
        let well = rows[..bottom]
            .iter()
            .rev()
            .take_while(|&&row| row & others == others)
            .count() as u32;
        Shape {
            height: top,
            top_half: top.saturating_sub(half),
            top_quarter: top.saturating_sub(quarter),
            holes,
            coveredness,
            row_transitions,
            well,
            bumpiness,
            bumpiness_sq,
        }
    }
}

impl Shape {
    /// The height terms once `rows` garbage rows have risen under the stack.
    pub fn raise(&mut self, rows: u32, visible: usize) {
        self.height += rows;
        self.top_half = self.height.saturating_sub((visible / 2) as u32);
        self.top_quarter = self.height.saturating_sub((visible * 3 / 4) as u32);
    }
}

/// Fills the first T-spin slot found on `board` with a hypothetical T, pointing down, and
/// returns how many lines that T completes; a slot whose T would clear two lines or more
/// is cleared on `board`, so a second slot below it can be found. `None` when there is no
/// slot.
///
/// A slot is three columns: the left (or right) one is the highest of the three, the
/// middle one lower, and the far one ends one row below the near one's top with a cell
/// missing above it and an overhang above that, so a T turned in fills the missing cell,
/// the two cells beside its stem and the stem.
pub fn fill_tslot(board: &mut Board) -> Option<u32> {
    let width = board.width();
    let height = board.height();
    let heights = column_heights(board);
    // Filled, counting the floor, `from_floor` rows up from the bottom.
    let filled = |board: &Board, x: usize, from_floor: usize| board.filled(x, height - 1 - from_floor);
    for x in 0..width.saturating_sub(2) {
        for (near, far) in [(x, x + 2), (x + 2, x)] {
            let top = heights[near] as usize;
            if heights[x + 1] as usize >= top || top < 1 || top + 1 >= height {
                continue;
            }
            if !filled(board, far, top - 1) || filled(board, far, top) || !filled(board, far, top + 1) {
                continue;
            }
            // The T: the three cells of row `top` and the stem under the middle one.
            let row = height - 1 - top;
            for cx in x..=x + 2 {
                board.fill(cx, row);
            }
            board.fill(x + 1, row + 1);
            let full = board.full_row();
            let lines = board.rows()[row..=row + 1].iter().filter(|&&r| r == full).count() as u32;
            if lines >= 2 {
                board.clear_full_rows();
            }
            return Some(lines);
        }
    }
    None
}

/// The height of each column: rows from the floor to its highest filled cell.
pub fn column_heights(board: &Board) -> [u32; MAX_WIDTH] {
    let height = board.height();
    let mut heights = [0u32; MAX_WIDTH];
    let mut seen = 0u32;
    for (y, &row) in board.rows().iter().enumerate().skip(board.surface()) {
        let mut new = row & !seen;
        while new != 0 {
            heights[new.trailing_zeros() as usize] = (height - y) as u32;
            new &= new - 1;
        }
        seen |= row;
        if seen == board.full_row() {
            break;
        }
    }
    heights
}

/// The value of a final board: the T-spin slots that `ts` coming T pieces could fill
/// (each taken out of the board when it clears two lines or more), then its shape's
/// terms with the `incoming` garbage rows risen under it, the streak it keeps and the
/// garbage waiting.
pub fn value(weights: &Weights, board: &Board, visible: usize, streak: Streak, incoming: u32, ts: u32) -> f64 {
    let mut slots: Slots = [0; 4];
    let mut cut: Option<Board> = None;
    for _ in 0..ts {
        let mut trial = cut.as_ref().unwrap_or(board).clone();
        let Some(lines) = fill_tslot(&mut trial) else {
            break;
        };
        slots[(lines as usize).min(3)] += 1;
        if lines < 2 {
            break;
        }
        cut = Some(trial);
    }
    let mut shape = Shape::of(cut.as_ref().unwrap_or(board), visible);
    // Garbage waiting rises under the stack: the height is what it will be.
    shape.raise(incoming, visible);
    let f = f64::from;
    weights.tslot_none * f(slots[0])
        + weights.tslot_single * f(slots[1])
        + weights.tslot_double * f(slots[2])
        + weights.tslot_triple * f(slots[3])
        + shape_value(weights, &shape)
        + weights.b2b * f(u32::from(streak.back_to_back))
        + weights.incoming * f(incoming)
}

/// The weighted sum of a shape's terms.
pub fn shape_value(weights: &Weights, shape: &Shape) -> f64 {
    let f = f64::from;
    weights.height * f(shape.height)
        + weights.top_half * f(shape.top_half)
        + weights.top_quarter * f(shape.top_quarter)
        + weights.holes * f(shape.holes)
        + weights.coveredness * f(shape.coveredness)
        + weights.row_transitions * f(shape.row_transitions)
        + weights.well * f(shape.well)
        + weights.bumpiness * f(shape.bumpiness)
        + weights.bumpiness_sq * f(shape.bumpiness_sq)
}

#[cfg(test)]
mod tests;

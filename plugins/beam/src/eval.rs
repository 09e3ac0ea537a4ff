//! The evaluation of a board for versus: its shape's terms, each named as in
//! [`Weights`], and the value of a board with the streak and garbage it carries.

use crate::attack::Streak;
use crate::weights::Weights;
use tetrad_plugin_api::{Board, MAX_WIDTH};

/// The board's terms, as counts (the weights make them a value).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Shape {
    /// Rows of the highest column.
    pub height: u32,
    /// Cells of columns above half the visible field, summed over the columns.
    pub top_half: u32,
    /// Cells of columns above three quarters of the visible field.
    pub top_quarter: u32,
    /// Empty cells with a filled cell above them.
    pub holes: u32,
    /// Filled cells with a hole below them in their column.
    pub covered: u32,
    /// Sum of the height differences of neighbouring columns, the well's excluded.
    pub bumpiness: u32,
    /// Sum of their squares.
    pub bumpiness_sq: u32,
    /// Depth of the well, the lowest column (the leftmost of equals), below its lower
    /// neighbour (a wall counts as the other neighbour), at most 4.
    pub well: u32,
    /// T-spin double slots.
    pub tspin_setup: u32,
}

/// The deepest well that counts: a four-line clear's.
const MAX_WELL: u32 = 4;

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
        for (y, &row) in rows.iter().enumerate().skip(board.surface()) {
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
        // From the floor up: a filled cell over a hole below it is covered.
        let mut below = 0u32;
        let mut covered = 0;
        for y in (board.surface()..height).rev() {
            covered += (rows[y] & below).count_ones();
            below |= holes_at[y];
        }
        let heights = &heights[..width];
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
        let neighbour = |x: Option<usize>| x.filter(|&x| x < width).map(|x| heights[x]);
        let sides = [neighbour(well_x.checked_sub(1)), neighbour(Some(well_x + 1))];
        let lower = sides.into_iter().flatten().min().unwrap_or(0);
        Shape {
            height: heights.iter().copied().max().unwrap_or(0),
            top_half: heights.iter().map(|h| h.saturating_sub(half)).sum(),
            top_quarter: heights.iter().map(|h| h.saturating_sub(quarter)).sum(),
            holes,
            covered,
            bumpiness,
            bumpiness_sq,
            well: lower.saturating_sub(heights[well_x]).min(MAX_WELL),
            tspin_setup: tspin_slots(board),
        }
    }
}

/// The value of a final board: its shape's terms, with `incoming` garbage rows counted
/// into its height, and the streak it keeps.
pub fn value(weights: &Weights, shape: &Shape, streak: Streak, incoming: u32) -> f64 {
    let f = f64::from;
    weights.height * f(shape.height + incoming)
        + weights.top_half * f(shape.top_half)
        + weights.top_quarter * f(shape.top_quarter)
        + weights.holes * f(shape.holes)
        + weights.covered * f(shape.covered)
        + weights.bumpiness * f(shape.bumpiness)
        + weights.bumpiness_sq * f(shape.bumpiness_sq)
        + weights.well * f(shape.well)
        + weights.tspin_setup * f(shape.tspin_setup)
        + weights.b2b * f(u32::from(streak.back_to_back))
        + weights.combo * f(streak.combo)
        + weights.incoming * f(incoming)
}

/// T-spin double slots: a row with exactly three empty cells side by side, the row under
/// it empty only under their middle one, and over them one end covered and the middle
/// open, so that a T turned in fills both rows.
pub fn tspin_slots(board: &Board) -> u32 {
    let full = board.full_row();
    let rows = board.rows();
    let mut slots = 0;
    for r in board.surface().max(1)..rows.len().saturating_sub(1) {
        let (above, row, below) = (rows[r - 1], rows[r], rows[r + 1]);
        let open = full & !row;
        if open.count_ones() != 3 {
            continue;
        }
        let x = open.trailing_zeros();
        if open != 0b111 << x || full & !below != 0b10 << x {
            continue;
        }
        let covered = (above >> x) & 1 == 1 || (above >> (x + 2)) & 1 == 1;
        let middle_open = (above >> (x + 1)) & 1 == 0;
        slots += u32::from(covered && middle_open);
    }
    slots
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape(text: &str) -> Shape {
        Shape::of(&Board::from_text(10, 8, text), 8)
    }

    #[test]
    fn an_empty_board_has_no_terms() {
        assert_eq!(Shape::of(&Board::new(10, 8), 8), Shape::default());
    }

    #[test]
    fn heights_and_the_top_of_the_field() {
        // Column 0 is 7 high, column 1 is 5 high, the rest 1; visible 8 rows: half is 4,
        // three quarters 6.
        let s = shape("..........\n#.........\n#.........\n##........\n##........\n##........\n##........\n##########");
        assert_eq!(s.height, 7);
        assert_eq!(s.top_half, (7 - 4) + (5 - 4));
        assert_eq!(s.top_quarter, 7 - 6);
        assert_eq!(s.holes, 0);
    }

    #[test]
    fn holes_and_the_cells_covering_them() {
        // Column 2: filled, filled, empty, filled, empty from row 3 down; column 6: one
        // filled cell over an empty one.
        let s = shape("..........\n..........\n..........\n..#.......\n..#..#....\n.....#....\n#.#######.\n##.###.##.");
        // Holes: column 2's two empty cells and column 6's.
        assert_eq!(s.holes, 3);
        // Covered: column 2's three filled cells (each over its lowest hole), column 6's one.
        assert_eq!(s.covered, 4);
    }

    #[test]
    fn bumpiness_skips_the_well_and_the_well_is_its_depth() {
        // Heights 2 2 3 3 3 3 3 3 3 0: the well is column 9, 3 deep; steps 1 once.
        let s = shape("..........\n..........\n..........\n..........\n..........\n..#######.\n#########.\n#########.");
        assert_eq!(s.well, 3);
        assert_eq!((s.bumpiness, s.bumpiness_sq), (1, 1));
        // A well 6 deep counts as 4; the step of 2 counts 2 and 4 squared.
        let deep =
            shape("..........\n..#######.\n..#######.\n#########.\n#########.\n#########.\n#########.\n#########.");
        assert_eq!(deep.well, 4);
        assert_eq!((deep.bumpiness, deep.bumpiness_sq), (2, 4));
    }

    #[test]
    fn a_t_spin_double_slot_is_counted_and_a_plain_well_is_not() {
        let slot = Board::from_text(10, 6, "...#......\n###...####\n####.#####");
        assert_eq!(tspin_slots(&slot), 1);
        assert_eq!(Shape::of(&slot, 6).tspin_setup, 1);
        let uncovered = Board::from_text(10, 6, "..........\n###...####\n####.#####");
        assert_eq!(tspin_slots(&uncovered), 0, "nothing over it: a drop fills it");
        let well = Board::from_text(10, 6, "...#......\n####.#####\n####.#####");
        assert_eq!(tspin_slots(&well), 0);
    }

    #[test]
    fn the_value_weighs_each_term_and_the_state() {
        let weights = Weights::default();
        let shape = Shape {
            height: 5,
            holes: 1,
            tspin_setup: 1,
            ..Shape::default()
        };
        let calm = value(&weights, &shape, Streak::default(), 0);
        assert_eq!(calm, 5.0 * weights.height + weights.holes + weights.tspin_setup);
        let hot = Streak {
            back_to_back: true,
            combo: 2,
        };
        let pressed = value(&weights, &shape, hot, 3);
        assert_eq!(
            pressed - calm,
            weights.b2b + 2.0 * weights.combo + 3.0 * (weights.incoming + weights.height)
        );
    }
}

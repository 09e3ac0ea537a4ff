//! The appendix's board features, `numberofclosedspaces()` and `countshaft()`, computed
//! bit-parallel on whole rows (row 0 at the top, bit `x` for column `x`).
//!
//! These are the reference versions: [`crate::eval`] computes the same values column by
//! column, incrementally, and its tests check it against these.
//!
//! What `countshaft()` computes. For each column it scans down from the top row (the
//! skeleton's `h-1`, our row 0) over the empty cells above the column's highest filled
//! cell. The first such cell whose left and right neighbours are both filled starts a
//! shaft, and that cell and every empty cell under it down to the column's surface are
//! counted. A wall counts as a filled neighbour: at column 0 only the right neighbour is
//! tested, at column `w-1` only the left one. The C++ reads `board[row][column-1]` at
//! column 0 and `board[row][column+1]` at column `w-1`, outside the row; those reads
//! never change the result, because each sits in a clause (`right && left`, or
//! `left && right`) that implies the wall clause of the same column (`right && column
//! == 0`, `left && column == w-1`). See the tests, which run a literal port with the
//! out-of-range reads returning filled.

/// `numberofclosedspaces()`: empty cells with a filled cell somewhere above them in the
/// same column.
pub fn closed_spaces(rows: &[u32], width: usize) -> u32 {
    let full = full_row(width);
    let mut covered = 0u32;
    let mut closed = 0;
    for &row in rows {
        closed += (covered & !row & full).count_ones();
        covered |= row;
    }
    closed
}

/// `countshaft()`: for every column, the empty cells from the highest walled-in empty
/// cell above its surface down to that surface (see the module note).
pub fn shaft_cells(rows: &[u32], width: usize) -> u32 {
    let full = full_row(width);
    let left_wall = 1u32;
    let right_wall = 1u32 << (width - 1);
    let mut covered = 0u32;
    let mut started = 0u32;
    let mut cells = 0;
    for &row in rows {
        covered |= row;
        let open = full & !covered;
        let walled = (row << 1 | left_wall) & (row >> 1 | right_wall);
        started |= walled & open;
        cells += (started & open).count_ones();
    }
    cells
}

/// The mask of a full row `width` wide.
pub fn full_row(width: usize) -> u32 {
    u32::MAX >> (32 - width)
}

#[cfg(test)]
mod tests {
    use super::*;
    use tetrad_plugin_api::{Board, SeededRng};

    fn rows(width: usize, height: usize, text: &str) -> Vec<u32> {
        Board::from_text(width, height, text).rows().to_vec()
    }

    /// The appendix's `countshaft()`, line by line, on the skeleton's `bool
    /// board[hMAX][wMAX]` (row 0 at the bottom) laid out flat as in memory. Reads outside
    /// the `w` columns or the array return `outside`, to show they do not matter.
    fn countshaft_port(rows: &[u32], w: usize, outside: bool) -> u32 {
        const W_MAX: i64 = 20;
        let h = rows.len() as i64;
        let board = |row: i64, column: i64| -> bool {
            let flat = row * W_MAX + column;
            let (r, c) = (flat.div_euclid(W_MAX), flat.rem_euclid(W_MAX));
            if !(0..h).contains(&r) || c >= w as i64 {
                return outside;
            }
            rows[(h - 1 - r) as usize] >> c & 1 == 1
        };
        let w = w as i64;
        let mut openspaces = 0;
        for column in 0..w {
            let mut row = h - 1;
            while row >= 0 {
                if board(row, column) {
                    break;
                }
                if (board(row, column + 1) && board(row, column - 1))
                    || (board(row, column + 1) && column == 0)
                    || (board(row, column - 1) && column == w - 1)
                {
                    openspaces += 1;
                    while row < h && row > 0 {
                        if board(row - 1, column) {
                            break;
                        }
                        row -= 1;
                        openspaces += 1;
                    }
                }
                row -= 1;
            }
        }
        openspaces
    }

    /// The appendix's `numberofclosedspaces()`, line by line.
    fn closed_port(rows: &[u32], w: usize) -> u32 {
        let h = rows.len();
        let board = |row: usize, column: usize| rows[h - 1 - row] >> column & 1 == 1;
        let mut total = 0;
        for row in 0..h {
            for column in 0..w {
                if !board(row, column) {
                    for a in row..h - 1 {
                        if board(a + 1, column) {
                            total += 1;
                            break;
                        }
                    }
                }
            }
        }
        total
    }

    #[test]
    fn closed_spaces_count_every_covered_empty_cell() {
        // Rows 6-8 of a 5x9 board (rows 0-5 empty):
        //   row 6  .#.#.
        //   row 7  ...#.
        //   row 8  ##...
        // Column 1: row 7 is empty under the # of row 6 -> 1. Column 3: row 8 is empty
        // under rows 6-7 -> 1. Column 0's # has nothing above; columns 2, 4 are empty.
        let board = rows(5, 9, ".#.#.\n...#.\n##...");
        assert_eq!(closed_spaces(&board, 5), 2);
        assert_eq!(closed_port(&board, 5), 2);
    }

    #[test]
    fn a_shaft_needs_both_neighbours_and_a_wall_counts_as_one() {
        // Rows 5-6 of a 5x7 board:
        //   row 5  .#.#.
        //   row 6  .#.##
        // Column 0: wall on the left, column 1 filled at rows 5-6 -> rows 5, 6: 2.
        // Column 2: columns 1 and 3 filled at rows 5-6 -> rows 5, 6: 2.
        // Column 4: wall on the right, column 3 filled at row 5; its surface is row 6
        //   -> row 5 only: 1.
        // Columns 1, 3: above their surface (row 5) both neighbours are empty -> 0.
        let board = rows(5, 7, ".#.#.\n.#.##");
        assert_eq!(shaft_cells(&board, 5), 5);
        assert_eq!(countshaft_port(&board, 5, false), 5);
    }

    #[test]
    fn a_shaft_counts_down_to_the_surface_from_its_highest_walled_cell() {
        // Rows 2-6 of a 4x7 board:
        //   row 2  #.#.
        //   rows 3-5 empty
        //   row 6  .#..
        // Column 1 (surface row 6): both neighbours filled at row 2 only, yet every
        //   empty cell below row 2 counts too: rows 2, 3, 4, 5 -> 4.
        // Column 3 (right wall, empty to the floor): column 2 filled at row 2 -> rows
        //   2..6 -> 5.
        // Columns 0 and 2 (surface row 2): their neighbours are empty at rows 0-1 -> 0.
        let board = rows(4, 7, "#.#.\n....\n....\n....\n.#..");
        assert_eq!(shaft_cells(&board, 4), 9);
        assert_eq!(countshaft_port(&board, 4, false), 9);
    }

    #[test]
    fn out_of_range_reads_never_change_countshaft() {
        let mut rng = SeededRng::new(3);
        for _ in 0..2000 {
            let w = 4 + rng.below(17) as usize;
            let h = 4 + rng.below(12) as usize;
            let density = rng.below(100);
            let board: Vec<u32> = (0..h)
                .map(|_| (0..w).filter(|_| rng.below(100) < density).fold(0, |r, x| r | 1 << x))
                .collect();
            let expected = countshaft_port(&board, w, false);
            assert_eq!(countshaft_port(&board, w, true), expected);
            assert_eq!(shaft_cells(&board, w), expected, "{board:?} w {w}");
            assert_eq!(closed_spaces(&board, w), closed_port(&board, w));
        }
    }

    #[test]
    fn empty_and_full_boards() {
        let empty = vec![0u32; 10];
        assert_eq!((closed_spaces(&empty, 10), shaft_cells(&empty, 10)), (0, 0));
        let full = vec![full_row(10); 10];
        assert_eq!((closed_spaces(&full, 10), shaft_cells(&full, 10)), (0, 0));
    }
}

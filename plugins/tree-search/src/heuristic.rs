//! Seed 004's heuristic: six measures of a board, each "higher is worse", combined
//! linearly: score = c0 h0 + c1 h1 + c2 h2 + c3 h3 + c4 h4 + c5 h5.
//!
//! Heights and altitudes count rows from the floor: the bottom row has altitude 1, and a
//! column's height is the altitude of its highest filled cell (0 if empty).

use tetrad_plugin_api::Board;

/// The six measures of one board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Measures {
    /// h0: holes, empty cells with a filled cell above them in the same column.
    pub holes: u32,
    /// h1: altitude of the highest filled cell.
    pub altitude: u32,
    /// h2: filled cells.
    pub cells: u32,
    /// h3: the steepest slope, the largest height difference of adjacent columns.
    pub max_slope: u32,
    /// h4: roughness, the sum of height differences of adjacent columns.
    pub roughness: u32,
    /// h5: filled cells weighted by their altitude.
    pub weighted_cells: u32,
}

impl Measures {
    /// Measures `board`.
    pub fn of(board: &Board) -> Measures {
        let height = board.height() as u32;
        let mut column_heights = [0u32; tetrad_plugin_api::MAX_WIDTH];
        let mut seen = 0u32;
        let mut measures = Measures {
            holes: board.holes(),
            ..Measures::default()
        };
        for (y, &row) in board.rows().iter().enumerate() {
            let altitude = height - y as u32;
            measures.cells += row.count_ones();
            measures.weighted_cells += altitude * row.count_ones();
            let mut fresh = row & !seen;
            while fresh != 0 {
                column_heights[fresh.trailing_zeros() as usize] = altitude;
                fresh &= fresh - 1;
            }
            seen |= row;
        }
        let heights = &column_heights[..board.width()];
        measures.altitude = heights.iter().copied().max().unwrap_or(0);
        for pair in heights.windows(2) {
            let step = pair[0].abs_diff(pair[1]);
            measures.max_slope = measures.max_slope.max(step);
            measures.roughness += step;
        }
        measures
    }

    /// The measures in order h0..h5.
    pub fn as_array(&self) -> [f64; 6] {
        [
            f64::from(self.holes),
            f64::from(self.altitude),
            f64::from(self.cells),
            f64::from(self.max_slope),
            f64::from(self.roughness),
            f64::from(self.weighted_cells),
        ]
    }
}

/// The seed's coefficients: holes weigh 20, everything else 1.
pub const DEFAULT_COEFFICIENTS: [f64; 6] = [20.0, 1.0, 1.0, 1.0, 1.0, 1.0];

/// The score of a board under `coefficients` (lower is better).
pub fn score(board: &Board, coefficients: &[f64; 6]) -> f64 {
    Measures::of(board)
        .as_array()
        .iter()
        .zip(coefficients)
        .map(|(h, c)| h * c)
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_measure_on_a_board_drawn_by_hand() {
        // Altitudes 4..1 from the top row of the drawing down; columns 0..4.
        //   altitude 4   .#...
        //   altitude 3   .#.#.
        //   altitude 2   ##.#.
        //   altitude 1   #..##
        let board = Board::from_text(
            5,
            4,
            "
            .#...
            .#.#.
            ##.#.
            #..##
            ",
        );
        let m = Measures::of(&board);
        // h0: column 1 has an empty cell at altitude 1 under its cells; column 3 none;
        // column 4 none. One hole.
        assert_eq!(m.holes, 1);
        // h1: the highest filled cell is at altitude 4 (column 1).
        assert_eq!(m.altitude, 4);
        // h2: 1 + 2 + 3 + 3 = 9 filled cells.
        assert_eq!(m.cells, 9);
        // Column heights 2, 4, 0, 3, 1. h3: the steepest step is 4 -> 0 = 4.
        assert_eq!(m.max_slope, 4);
        // h4: |2-4| + |4-0| + |0-3| + |3-1| = 2 + 4 + 3 + 2 = 11.
        assert_eq!(m.roughness, 11);
        // h5: altitude 4 x 1 + altitude 3 x 2 + altitude 2 x 3 + altitude 1 x 3
        //     = 4 + 6 + 6 + 3 = 19.
        assert_eq!(m.weighted_cells, 19);
        // 20 x 1 + 4 + 9 + 4 + 11 + 19 = 67.
        assert_eq!(score(&board, &DEFAULT_COEFFICIENTS), 67.0);
    }

    #[test]
    fn an_empty_board_measures_zero() {
        assert_eq!(Measures::of(&Board::new(10, 20)), Measures::default());
    }
}

//! The surface features, weights w9..w14 (zero in the published controllers), as
//! Gabillon, Ghavamzadeh and Scherrer (2013) add them to the eight of `features`; a
//! column's height counts rows from the floor up to its top filled cell (0 when empty):
//!
//! - pattern diversity: how many of the height differences -2, -1, 0, 1, 2 occur between
//!   adjacent columns (0 to 5), as the MdpTetris simulator counts it;
//! - five radial basis functions of the mean column height c on a board of h rows:
//!   exp(-(c - i h / 4)^2 / (2 (h / 5)^2)) for i = 0 to 4.

use tetrad_plugin_api::Board;

/// Number of surface features.
pub const SURFACE: usize = 6;

/// Names of the surface features, in weight order (w9..w14).
pub const SURFACE_NAMES: [&str; SURFACE] = [
    "pattern_diversity",
    "height_rbf_0",
    "height_rbf_1",
    "height_rbf_2",
    "height_rbf_3",
    "height_rbf_4",
];

/// The surface features of a board of `rows` rows whose column heights (from the floor)
/// are `heights`.
pub fn surface_features(heights: &[u32], rows: u32) -> [f64; SURFACE] {
    let mean = f64::from(heights.iter().sum::<u32>()) / heights.len() as f64;
    let rows = f64::from(rows);
    let spread = 2.0 * (rows / 5.0) * (rows / 5.0);
    let mut features = [0.0; SURFACE];
    features[0] = f64::from(diversity(heights));
    for (i, feature) in features[1..].iter_mut().enumerate() {
        let centre = i as f64 * rows / 4.0;
        *feature = (-(mean - centre) * (mean - centre) / spread).exp();
    }
    features
}

/// The surface features' weights for one board size, with the basis functions' weighted
/// share worked out once for every sum of column heights (the mean height's only
/// values): a placement then costs the diversity's loop, no exponential.
#[derive(Clone, Debug, PartialEq)]
pub struct Surface {
    weights: [f64; SURFACE],
    /// Indexed by the sum of the column heights: w10 rbf0 + ... + w14 rbf4, added in that
    /// order.
    by_sum: Vec<f64>,
}

impl Surface {
    /// The surface of a board `width` x `rows`, or `None` when every weight is zero.
    pub fn new(weights: [f64; SURFACE], width: usize, rows: u32) -> Option<Surface> {
        if weights.iter().all(|&w| w == 0.0) {
            return None;
        }
        let flat = |total: u32| {
            let mut heights = vec![0; width];
            let (each, extra) = (total / width as u32, (total % width as u32) as usize);
            for (x, height) in heights.iter_mut().enumerate() {
                *height = each + u32::from(x < extra);
            }
            heights
        };
        let by_sum = (0..=width as u32 * rows)
            .map(|total| {
                let f = surface_features(&flat(total), rows);
                f[1] * weights[1] + f[2] * weights[2] + f[3] * weights[3] + f[4] * weights[4] + f[5] * weights[5]
            })
            .collect();
        Some(Surface { weights, by_sum })
    }

    /// The weights, w9..w14.
    pub fn weights(&self) -> &[f64; SURFACE] {
        &self.weights
    }

    /// The weighted sum of the surface features of a board whose column heights (from the
    /// floor) are `heights`: diversity's share, then the basis functions'.
    #[inline]
    pub fn value(&self, heights: &[u32]) -> f64 {
        let total: u32 = heights.iter().sum();
        f64::from(diversity(heights)) * self.weights[0] + self.by_sum[total as usize]
    }
}

/// Pattern diversity: how many of the differences -2, -1, 0, 1, 2 occur between the heights
/// of adjacent columns.
#[inline]
fn diversity(heights: &[u32]) -> u32 {
    let mut seen = 0u32;
    for pair in heights.windows(2) {
        // -2..=2 become 0..=4; anything else wraps to 5 or more and marks nothing.
        let pattern = pair[1].wrapping_sub(pair[0]).wrapping_add(2);
        seen |= u32::from(pattern <= 4) << (pattern & 31);
    }
    seen.count_ones()
}

/// The column heights of `board`, counted from the floor, in `into`'s first `width` slots.
pub fn board_heights<'h>(board: &Board, into: &'h mut [u32; 32]) -> &'h [u32] {
    let rows = board.rows();
    let heights = &mut into[..board.width()];
    heights.fill(0);
    let mut seen = 0u32;
    for (y, &row) in rows.iter().enumerate().skip(board.surface()) {
        let mut new = row & !seen;
        seen |= row;
        while new != 0 {
            let x = new.trailing_zeros() as usize;
            new &= new - 1;
            heights[x] = (rows.len() - y) as u32;
        }
    }
    heights
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tests::stacked_board;
    use proptest::prelude::*;

    #[test]
    fn surface_features_on_a_board_drawn_by_hand() {
        // The board of `features`' hand-drawn test: column heights from the floor 2, 4, 1, 2, 3.
        let board = Board::from_text(5, 5, ".....\n.#...\n.#..#\n##.##\n#.###");
        let mut heights = [0; 32];
        let heights = board_heights(&board, &mut heights);
        assert_eq!(heights, [2, 4, 1, 2, 3]);
        let f = surface_features(heights, 5);
        // Differences +2, -3, +1, +1: two of the five patterns (-3 is none).
        assert_eq!(f[0], 2.0);
        // Mean height 12 / 5 = 2.4; centres 0, 1.25, 2.5, 3.75, 5; 2 (h / 5)^2 = 2.
        let expected = [2.4f64, 1.15, -0.1, -1.35, -2.6].map(|d| (-d * d / 2.0).exp());
        for (got, want) in f[1..].iter().zip(expected) {
            assert!((got - want).abs() < 1e-12, "{got} against {want}");
        }
        assert!((f[3] - (-0.005f64).exp()).abs() < 1e-12, "closest to the middle centre");
        // The table's sum is the weighted sum of the features, but for rounding.
        let weights = [-1.5, 3.25, -2.0, 0.5, -7.0, 11.0];
        let table = Surface::new(weights, 5, 5).expect("weights");
        let plain: f64 = f.iter().zip(weights).map(|(f, w)| f * w).sum();
        assert!((table.value(heights) - plain).abs() < 1e-12);
        // An empty board: every difference 0, mean 0, the first basis function at 1.
        let empty_board = Board::new(10, 20);
        let empty = surface_features(board_heights(&empty_board, &mut [0; 32]), 20);
        assert_eq!((empty[0], empty[1]), (1.0, 1.0));
        // Differences beyond 2 are no pattern: a lone tall column on a flat floor.
        assert_eq!(surface_features(&[0, 9, 0], 10)[0], 0.0);
    }

    proptest! {
        /// The table's value is the surface features' weighted sum, but for rounding.
        #[test]
        fn the_surface_table_gives_the_weighted_sum(
            heights in proptest::collection::vec(0u32..=20, 4..=12),
            weights in any::<[i8; SURFACE]>(),
        ) {
            let weights = weights.map(|w| f64::from(w) / 4.0);
            let plain: f64 = surface_features(&heights, 20).iter().zip(weights).map(|(f, w)| f * w).sum();
            let value = Surface::new(weights, heights.len(), 20).map_or(0.0, |s| s.value(&heights));
            prop_assert!((value - plain).abs() < 1e-9, "{} against {}", value, plain);
        }

        /// The heights read from the rows are the model's column heights.
        #[test]
        fn board_heights_are_the_column_heights(
            rows in proptest::collection::vec(any::<u16>(), 20),
            stack in 0usize..=20,
        ) {
            let board = stacked_board(10, &rows, stack);
            let mut heights = [0; 32];
            prop_assert_eq!(board_heights(&board, &mut heights), &board.column_heights()[..]);
        }
    }
}

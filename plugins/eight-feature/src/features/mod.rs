//! The eight features F1..F8 of seed 001 and the evaluation E(b, b') = sum of w_i F_i.
//!
//! Rows are counted as the seed counts them: "row number, where 1 is the top row and 20
//! is the bottom row", i.e. `y + 1` for the model's 0-based row `y` from the top. The
//! "negated" features subtract from the number of cells of the board, `width x height`
//! (200 on the seed's 10 x 20 board). The crate's top comment says how each ambiguous
//! point of the seed is read; the tests pin every reading on boards drawn by hand.

use tetrad_plugin_api::{Orientation, MAX_WIDTH};

/// The weights w1..w8 of E = w1 F1 + ... + w8 F8.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Weights(pub [f64; 8]);

impl Weights {
    /// The defaults, chosen by the procedure in `tune/` (see the crate README).
    pub const DEFAULT: Weights = Weights([1.0, 0.0, 2.0, 8.0, 2.0, 1.0, -2.0, 0.0]);

    /// E for the given features.
    pub fn evaluate(&self, features: &Features) -> f64 {
        self.0.iter().zip(features.0.iter()).map(|(w, f)| w * f).sum()
    }
}

impl Default for Weights {
    fn default() -> Weights {
        Weights::DEFAULT
    }
}

/// The values F1..F8 of one leaf, `F[i - 1]` being Fi.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Features(pub [f64; 8]);

/// F1, F2 and F3 of a piece resting at row `y` (model rows, 0 at the top): the depth of
/// its deepest, its shallowest, and the mean depth of its squares, depth = row + 1.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PieceDepths {
    /// F1: row number (1 at the top) of the piece's lowest square.
    pub deepest: f64,
    /// F2: row number of the piece's highest square.
    pub shallowest: f64,
    /// F3: mean row number of the piece's squares.
    pub mean: f64,
}

/// Per-orientation constants for [`PieceDepths`], precomputed once per game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DepthShape {
    top: i8,
    bottom: i8,
    mean_dy: f64,
}

impl DepthShape {
    /// The constants of one orientation.
    pub fn new(orientation: &Orientation) -> DepthShape {
        let cells = orientation.cells();
        let sum: i32 = cells.iter().map(|&(_, dy)| i32::from(dy)).sum();
        DepthShape {
            top: orientation.top(),
            bottom: orientation.top() + orientation.height() as i8 - 1,
            mean_dy: f64::from(sum) / cells.len().max(1) as f64,
        }
    }

    /// F1..F3 of the piece resting with its position's row at `y`.
    #[inline]
    pub fn depths(&self, y: i8) -> PieceDepths {
        let y = f64::from(y) + 1.0;
        PieceDepths {
            deepest: y + f64::from(self.bottom),
            shallowest: y + f64::from(self.top),
            mean: y + self.mean_dy,
        }
    }
}

/// The raw counts behind F4, F6, F7 and F8 of one board (b').
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BoardCounts {
    /// Holes: empty squares with a filled square somewhere above them in the column.
    pub holes: u32,
    /// Surface roughness, the seed's literal sum (may be negative).
    pub roughness: i32,
    /// The sum over columns with a hole of (row of the lowest space - row of the
    /// topmost hole), the seed's literal F7 sum (never positive).
    pub above_holes: i32,
    /// For every hole, the consecutive spaces directly left and right of it.
    pub spaces_beside_holes: u32,
}

/// Counts holes, roughness, the F7 sum and the F8 sum in one pass over `rows` (row 0 at the
/// top, bit x = column x) of a board `width` wide.
pub fn board_counts(rows: &[u32], width: usize) -> BoardCounts {
    let height = rows.len();
    let full = if width >= 32 { u32::MAX } else { (1u32 << width) - 1 };
    // Row number (1 at the top) of each column's topmost filled square; an empty column's
    // surface is the floor, row height + 1.
    let mut surface = [height as i32 + 1; MAX_WIDTH];
    // Row number of each column's topmost hole (0: the column has none).
    let mut top_hole = [0i32; MAX_WIDTH];
    let mut covered = 0u32;
    let mut holed = 0u32;
    let mut counts = BoardCounts::default();
    let start = rows.iter().position(|&r| r != 0).unwrap_or(height);
    for (y, &row) in rows.iter().enumerate().skip(start) {
        let number = y as i32 + 1;
        let mut fresh = row & !covered;
        while fresh != 0 {
            surface[fresh.trailing_zeros() as usize] = number;
            fresh &= fresh - 1;
        }
        let hole = covered & !row;
        covered |= row;
        if hole == 0 {
            continue;
        }
        counts.holes += hole.count_ones();
        let mut first = hole & !holed;
        holed |= hole;
        while first != 0 {
            top_hole[first.trailing_zeros() as usize] = number;
            first &= first - 1;
        }
        // Spaces: empty squares with nothing filled above them, on this row.
        let space = full & !covered;
        let mut left = (hole >> 1) & space;
        let mut right = (hole << 1) & space;
        while left | right != 0 {
            counts.spaces_beside_holes += left.count_ones() + right.count_ones();
            left = (left >> 1) & space;
            right = (right << 1) & space;
        }
    }
    counts.roughness = roughness(&surface[..width]);
    let mut columns = holed;
    while columns != 0 {
        let x = columns.trailing_zeros() as usize;
        // The lowest space of a column sits directly above its topmost filled square (row 0,
        // the sky, when that square is on the top row).
        counts.above_holes += (surface[x] - 1) - top_hole[x];
        columns &= columns - 1;
    }
    counts
}

/// The seed's surface roughness for `h` = surface row numbers, left to right:
/// `(h2 - h1) + |h2 - h3| + ... + |h(w-2) - h(w-1)| + (h(w-1) - hw)`.
pub fn roughness(h: &[i32]) -> i32 {
    let w = h.len();
    if w < 2 {
        return 0;
    }
    let inner: i32 = (1..w.saturating_sub(2)).map(|i| (h[i] - h[i + 1]).abs()).sum();
    (h[1] - h[0]) + inner + (h[w - 2] - h[w - 1])
}

/// Assembles F1..F8 from the piece's depths (on b), the lines completed since b0, and the
/// counts of b' on a board of `cells` = width x height squares.
pub fn features(depths: PieceDepths, lines: u32, counts: &BoardCounts, cells: u32) -> Features {
    let cells = f64::from(cells);
    Features([
        depths.deepest,
        depths.shallowest,
        depths.mean,
        cells - f64::from(counts.holes),
        f64::from(lines),
        cells - f64::from(counts.roughness),
        cells - f64::from(counts.above_holes),
        f64::from(counts.spaces_beside_holes),
    ])
}

#[cfg(test)]
mod tests;

//! The eight features F1..F8 of seed 001 and the evaluation E(b, b') = sum of w_i F_i.
//!
//! Rows are counted as the seed counts them: "row number, where 1 is the top row and 20
//! is the bottom row", i.e. `y + 1` for the model's 0-based row `y` from the top; F6 and
//! F7 count heights from the floor by default ([`Heights`]), and F6's wall terms count
//! only when positive ([`Walls`]). The "negated" features subtract from the number of
//! cells of the board, `width x height` (200 on the seed's 10 x 20 board). The crate's
//! top comment says how each ambiguous point of the seed is read; the tests pin every
//! reading on boards drawn by hand.

use tetrad_plugin_api::{Orientation, MAX_WIDTH};

/// The weights w1..w8 of E = w1 F1 + ... + w8 F8.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Weights(pub [f64; 8]);

impl Weights {
    /// The defaults, for heights read from the floor and F6's wall terms clipped (the
    /// crate README says how they were chosen).
    pub const DEFAULT: Weights = Weights([0.3805, -1.6269, 0.4414, 10.0, 11.4852, 4.0861, 0.7965, -7.8119]);

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

/// How "height" is counted in F6 and F7.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Heights {
    /// Counted from the floor, 1 at the bottom (the default): the only reading under
    /// which F6 "encourages height to accumulate against the walls" and F7 is the
    /// negation of the squares above holes, as seed 001 says they are.
    #[default]
    FromFloor,
    /// The row number, 1 at the top, as seed 001's formulas are written. Read so, F6
    /// counts a tall wall column as roughness and F7 grows with the squares over holes:
    /// the opposite of the seed's prose. Kept as an option (`heights=top`).
    FromTop,
}

/// How F6 counts its two wall terms, (h2 - h1) and (h9 - h10), which the seed writes
/// without absolute value.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Walls {
    /// A wall term counts only when it is positive (the default): from the floor, the
    /// step down from a wall's neighbour to a lower wall column counts, a wall column
    /// taller than its neighbour counts nothing. Roughness stays a sum of height
    /// differences, never negative, and a canyon beside a tall wall column costs its
    /// depth, as F6 is there to make canyons cost.
    #[default]
    Clipped,
    /// As written (`walls=signed`): a wall column taller than its neighbour makes the
    /// roughness negative, by as much as it is taller, so a one-column canyon beside it
    /// costs nothing: its inner term is paid back by the wall term.
    Signed,
}

/// The raw counts behind F4, F6, F7 and F8 of one board (b'). [`board_counts`] gives
/// them with heights as row numbers from the top and the wall terms as written;
/// [`BoardCounts::read`] turns them into the reading a [`Heights`] and a [`Walls`] ask for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BoardCounts {
    /// Holes: empty squares with a filled square somewhere above them in the column.
    pub holes: u32,
    /// Surface roughness, the seed's sum with its wall terms as [`BoardCounts::walls`]
    /// has them.
    pub roughness: i32,
    /// The two wall terms of that sum, (h2 - h1) and (h(w-1) - hw), as the reading
    /// counts them: as written either may be negative, clipped neither is.
    pub walls: [i32; 2],
    /// The sum over columns with a hole of (height of the lowest space - height of the
    /// topmost hole): never positive from the top, never negative from the floor.
    pub above_holes: i32,
    /// For every hole, the consecutive spaces directly left and right of it.
    pub spaces_beside_holes: u32,
}

/// The columns of a board: bit `y` of `columns[x]` is square (x, y), row 0 at the top.
pub type Columns = [u64; MAX_WIDTH];

/// Transposes `rows` (row 0 at the top, bit x = column x).
pub fn columns(rows: &[u32]) -> Columns {
    let mut cols = [0u64; MAX_WIDTH];
    for (y, &row) in rows.iter().enumerate() {
        let mut bits = row;
        while bits != 0 {
            cols[bits.trailing_zeros() as usize] |= 1 << y;
            bits &= bits - 1;
        }
    }
    cols
}

/// Counts holes, roughness, the F7 sum and the F8 sum of a board given by `rows` (row 0
/// at the top, bit x = column x), `width` wide.
pub fn board_counts(rows: &[u32], width: usize) -> BoardCounts {
    column_counts(&columns(rows)[..width], rows.len())
}

/// [`board_counts`] of a board given by its columns (see [`columns`]), `height` rows high.
pub fn column_counts(cols: &[u64], height: usize) -> BoardCounts {
    let mut filled = [0u32; MAX_WIDTH];
    for (n, col) in filled.iter_mut().zip(cols) {
        *n = col.count_ones();
    }
    counts_with(cols, &filled, height)
}

/// [`column_counts`] given also the number of filled squares of each column (`filled[x]`
/// for `cols[x]`), which the search keeps up to date instead of counting bits per leaf.
///
/// Column by column: the topmost filled square is the first set bit; every empty square
/// below it is a hole; the filled run from the top down ends at the topmost hole. Spaces
/// are the squares above the topmost filled square, so the F8 runs beside a column's holes
/// are ANDs of the neighbouring columns' space masks.
#[inline]
pub fn counts_with(cols: &[u64], filled: &[u32], height: usize) -> BoardCounts {
    let all = if height >= 64 { u64::MAX } else { (1u64 << height) - 1 };
    let mut surface = [0i32; MAX_WIDTH];
    let mut spaces = [0u64; MAX_WIDTH];
    let mut counts = BoardCounts::default();
    let mut holed = 0u32;
    for (x, &col) in cols.iter().enumerate() {
        if col == 0 {
            surface[x] = height as i32 + 1;
            spaces[x] = all;
            continue;
        }
        let top = col.trailing_zeros();
        surface[x] = top as i32 + 1;
        spaces[x] = (1u64 << top) - 1;
        let holes = (height as u32 - top) - filled[x];
        if holes > 0 {
            counts.holes += holes;
            holed |= 1 << x;
            // Lowest space: row number `top` (the sky, 0, when top is 0); topmost hole:
            // row number top + run + 1. Their difference is -(run + 1).
            counts.above_holes -= (col >> top).trailing_ones() as i32 + 1;
        }
    }
    while holed != 0 {
        let x = holed.trailing_zeros() as usize;
        holed &= holed - 1;
        let hole = !cols[x] & all & !spaces[x];
        let mut run = hole;
        for space in spaces[..x].iter().rev() {
            run &= space;
            if run == 0 {
                break;
            }
            counts.spaces_beside_holes += run.count_ones();
        }
        let mut run = hole;
        for space in &spaces[x + 1..cols.len()] {
            run &= space;
            if run == 0 {
                break;
            }
            counts.spaces_beside_holes += run.count_ones();
        }
    }
    counts.roughness = roughness(&surface[..cols.len()]);
    counts.walls = wall_terms(&surface[..cols.len()]);
    counts
}

impl BoardCounts {
    /// The counts with heights read as `heights` says and the wall terms as `walls`
    /// says. Counted from the floor a column's height is (board height + 1 - its row
    /// number): the inner terms of the roughness keep their value, the wall terms change
    /// sign, and each F7 term changes sign. Clipped, a negative wall term counts 0.
    pub fn read(self, heights: Heights, walls: Walls) -> BoardCounts {
        let read = match heights {
            Heights::FromTop => self,
            Heights::FromFloor => BoardCounts {
                roughness: self.roughness - 2 * (self.walls[0] + self.walls[1]),
                walls: self.walls.map(|term| -term),
                above_holes: -self.above_holes,
                ..self
            },
        };
        match walls {
            Walls::Signed => read,
            Walls::Clipped => BoardCounts {
                roughness: read.roughness - read.walls[0].min(0) - read.walls[1].min(0),
                walls: read.walls.map(|term| term.max(0)),
                ..read
            },
        }
    }
}

/// The wall terms of the roughness, (h2 - h1) and (h(w-1) - hw).
fn wall_terms(h: &[i32]) -> [i32; 2] {
    let w = h.len();
    if w < 2 {
        return [0, 0];
    }
    [h[1] - h[0], h[w - 2] - h[w - 1]]
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

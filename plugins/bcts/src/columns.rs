//! The board features of every placement on one board, incrementally.
//!
//! Design. The board is turned once per decision into column bit masks (bit `y` of a
//! column is row `y`, row 0 at the top), and every feature is split into per-column terms
//! (column transitions, holes, hole depth, the rows holding a hole, cumulative wells)
//! and per-pair terms (row transitions: each pair of neighbouring columns, the walls
//! being filled columns). A placement that clears no row changes only the columns the
//! piece covers, so its features are the board's totals with those columns' terms (and
//! their neighbours' well terms, and the pairs around them) recomputed: a handful of
//! word operations, no pass over the board and no copy of it. A placement that clears
//! rows is left to the full computation ([`crate::features::board_features`]).

use crate::features::BoardFeatures;
use tetrad_plugin_api::{Board, MAX_PIECE_SIZE, MAX_WIDTH};

/// One column's share of the features.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Column {
    transitions: u32,
    holes: u32,
    hole_depth: u32,
    /// The rows where this column has a hole.
    hole_rows: u64,
}

/// Wall columns kept on each side of the board, so a piece's neighbourhood is one slice.
const PAD: usize = 2;

/// Columns copied for one placement: the piece's widest, its neighbours and theirs.
const WINDOW: usize = MAX_PIECE_SIZE + 2 * PAD;

/// A board in columns, with its features split by column.
pub struct Columns {
    width: usize,
    height: u32,
    /// The mask of the board's rows in a column.
    rows: u64,
    /// Column `x` at `x + PAD`; full columns (walls) around the board.
    padded: [u64; MAX_WIDTH + WINDOW],
    terms: [Column; MAX_WIDTH],
    wells: [u32; MAX_WIDTH],
    /// Row transitions between column `p - 1` and column `p` (the walls at -1 and width).
    pairs: [u32; MAX_WIDTH + 1],
    /// OR of `hole_rows` of the columns left of `x` (`before[x]`) and from `x` on (`from[x]`).
    before: [u64; MAX_WIDTH + 1],
    from: [u64; MAX_WIDTH + 1],
    totals: BoardFeatures,
}

impl Columns {
    /// The board in columns, and its features.
    pub fn new(board: &Board) -> Columns {
        let width = board.width();
        let height = board.height() as u32;
        let rows = u64::MAX >> (64 - height);
        let mut padded = [rows; MAX_WIDTH + WINDOW];
        padded[PAD..PAD + width].fill(0);
        for (y, &row) in board.rows().iter().enumerate().skip(board.surface()) {
            let mut cells = row;
            while cells != 0 {
                padded[PAD + cells.trailing_zeros() as usize] |= 1 << y;
                cells &= cells - 1;
            }
        }
        let mut c = Columns {
            width,
            height,
            rows,
            padded,
            terms: [Column::default(); MAX_WIDTH],
            wells: [0; MAX_WIDTH],
            pairs: [0; MAX_WIDTH + 1],
            before: [0; MAX_WIDTH + 1],
            from: [0; MAX_WIDTH + 1],
            totals: BoardFeatures::default(),
        };
        for x in 0..width {
            let (left, cells, right) = (padded[PAD + x - 1], padded[PAD + x], padded[PAD + x + 1]);
            c.terms[x] = column(cells, rows, height);
            c.wells[x] = wells(left, cells, right, rows, height);
        }
        for p in 0..=width {
            c.pairs[p] = ((padded[PAD + p - 1] ^ padded[PAD + p]) & rows).count_ones();
        }
        for x in 0..width {
            c.before[x + 1] = c.before[x] | c.terms[x].hole_rows;
        }
        for x in (0..width).rev() {
            c.from[x] = c.from[x + 1] | c.terms[x].hole_rows;
        }
        let t = &mut c.totals;
        for x in 0..width {
            t.column_transitions += c.terms[x].transitions;
            t.holes += c.terms[x].holes;
            t.hole_depth += c.terms[x].hole_depth;
            t.cumulative_wells += c.wells[x];
        }
        t.row_transitions = c.pairs[..=width].iter().sum();
        t.rows_with_holes = c.from[0].count_ones();
        c
    }

    /// The board's own features.
    #[cfg(test)]
    pub fn totals(&self) -> BoardFeatures {
        self.totals
    }

    /// The features after adding `piece` (its columns' cells, bit 0 being its top row) at
    /// column `left`, top row `top`, when no row is full afterwards.
    #[inline]
    pub fn with_piece(&self, piece: &[u64], left: usize, top: u32) -> BoardFeatures {
        let width = piece.len();
        // Columns `left - PAD` on, with the piece's cells added: the piece's column `j`
        // is `window[PAD + j]`.
        let mut window = [0u64; WINDOW];
        window.copy_from_slice(&self.padded[left..left + WINDOW]);
        for (column, &cells) in window[PAD..].iter_mut().zip(piece) {
            *column |= cells << top;
        }
        let mut f = self.totals;
        let mut hole_rows = self.before[left] | self.from[left + width];
        for (old, &cells) in self.terms[left..left + width].iter().zip(&window[PAD..PAD + width]) {
            let now = column(cells, self.rows, self.height);
            f.column_transitions = f.column_transitions - old.transitions + now.transitions;
            f.holes = f.holes - old.holes + now.holes;
            f.hole_depth = f.hole_depth - old.hole_depth + now.hole_depth;
            hole_rows |= now.hole_rows;
        }
        f.rows_with_holes = hole_rows.count_ones();
        // The pairs from (left - 1, left) to (left + width - 1, left + width).
        for (p, pair) in window[PAD - 1..PAD + width + 1].windows(2).enumerate() {
            let now = ((pair[0] ^ pair[1]) & self.rows).count_ones();
            f.row_transitions = f.row_transitions - self.pairs[left + p] + now;
        }
        // Wells change in the piece's columns and in the board columns next to them.
        for (i, three) in window[PAD - 2..PAD + width + 2].windows(3).enumerate() {
            // Column `left - 1 + i`; skip the walls.
            let Some(x) = (left + i).checked_sub(1).filter(|&x| x < self.width) else {
                continue;
            };
            let now = wells(three[0], three[1], three[2], self.rows, self.height);
            f.cumulative_wells = f.cumulative_wells - self.wells[x] + now;
        }
        f
    }
}

/// One column's terms. `rows` is the mask of the board's rows; `height` their number.
#[inline]
fn column(cells: u64, rows: u64, height: u32) -> Column {
    // Changes down the column: the space above the board is empty, the floor filled.
    let floor = (!cells >> (height - 1)) & 1;
    let transitions = ((cells ^ (cells << 1)) & rows).count_ones() + floor as u32;
    if cells == 0 {
        return Column {
            transitions,
            ..Column::default()
        };
    }
    // Rows below the column's top cell.
    let below = (u64::MAX << cells.trailing_zeros()) << 1;
    let hole_rows = !cells & below & rows;
    let mut hole_depth = 0;
    let mut holes = hole_rows;
    while holes != 0 {
        let y = holes.trailing_zeros();
        hole_depth += (cells & ((1u64 << y) - 1)).count_ones();
        holes &= holes - 1;
    }
    Column {
        transitions,
        holes: hole_rows.count_ones(),
        hole_depth,
        hole_rows,
    }
}

/// Cumulative wells of column `cells` between `left` and `right`: for every empty cell
/// whose neighbours are both filled, 1 plus the empty cells directly below it.
#[inline]
fn wells(left: u64, cells: u64, right: u64, rows: u64, height: u32) -> u32 {
    let mut well = !cells & left & right & rows;
    let mut sum = 0;
    while well != 0 {
        let y = well.trailing_zeros();
        // Empty cells below y: up to the next filled cell, or the floor.
        let below = if y + 1 >= 64 { 0 } else { cells >> (y + 1) };
        let run = below.trailing_zeros().min(height - 1 - y);
        sum += 1 + run;
        well &= well - 1;
    }
    sum
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::features::board_features;
    use proptest::prelude::*;
    use tetrad_plugin_api::{placements, PieceSet, Preset, Rules};

    fn board(width: usize, height: usize, columns: &[(usize, u64)]) -> Board {
        let mut board = Board::new(width, height);
        for (x, &(stack, bits)) in columns.iter().take(width).enumerate() {
            let stack = stack % height;
            for y in height - stack..height {
                if bits >> y & 1 == 1 || y == height - stack {
                    board.fill(x, y);
                }
            }
        }
        board.clear_full_rows();
        board
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        /// The split features add up to the full pass, on the board and after every
        /// placement that clears no row.
        #[test]
        fn incremental_features_equal_the_full_pass(
            width in 4usize..=32,
            height in 4usize..=64,
            columns in prop::collection::vec((0usize..64, any::<u64>()), 32),
            classic in any::<bool>(),
            piece in 0u8..7,
        ) {
            let board = board(width, height, &columns);
            let split = Columns::new(&board);
            prop_assert_eq!(split.totals(), board_features(&board));
            let preset = if classic { Preset::Classic } else { Preset::Simplified };
            let rules = Rules { width, height, ..Rules::preset(preset) };
            let set = PieceSet::tetrominoes();
            let kind = set.kind(tetrad_plugin_api::PieceId(piece));
            let columns_of = crate::piece_columns(&set);
            for p in placements(&rules, &board, kind, rules.spawn(kind)) {
                let shape = kind.orientation(p.pos.orientation);
                let top = i32::from(p.pos.y) + i32::from(shape.top());
                let left = (i32::from(p.pos.x) + i32::from(shape.left())) as usize;
                let mut after = board.clone();
                if top < 0 || !after.place(shape, p.pos.x, p.pos.y) || after.clone().clear_full_rows() > 0 {
                    continue;
                }
                let cells = &columns_of[usize::from(piece)][usize::from(p.pos.orientation)][..usize::from(shape.width())];
                prop_assert_eq!(split.with_piece(cells, left, top as u32), board_features(&after), "{:?}", p);
            }
        }
    }
}

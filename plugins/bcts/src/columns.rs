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
//!
//! Most placements rest on the surface: in each column the piece covers, its cells form
//! one run above the column's old top. Then that column's terms follow from its old ones
//! in O(1): the empty gap between the piece and the old top (or the floor) becomes holes,
//! each old hole and each gap cell gains the piece's cells above it, and the column's
//! transitions grow by 2 when there is a gap. Other columns are recomputed from their
//! cells.

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

/// One orientation of a piece by columns, with what the surface shortcut needs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PieceColumns {
    /// Columns of the bounding box.
    pub width: usize,
    /// For each column, left to right, bit `i` set when row `i` of the box (from its top)
    /// holds a cell.
    pub cells: [u64; MAX_PIECE_SIZE],
    /// Cells in each column.
    count: [u32; MAX_PIECE_SIZE],
    /// Whether each column's cells are one vertical run.
    solid: [bool; MAX_PIECE_SIZE],
}

impl PieceColumns {
    /// The columns of an orientation given by its row masks (bit 0 the leftmost column).
    pub fn new(row_masks: &[u32], width: usize) -> PieceColumns {
        let mut piece = PieceColumns {
            width,
            ..PieceColumns::default()
        };
        for (i, &mask) in row_masks.iter().enumerate() {
            for (j, column) in piece.cells.iter_mut().enumerate() {
                *column |= u64::from(mask >> j & 1) << i;
            }
        }
        for j in 0..MAX_PIECE_SIZE {
            let cells = piece.cells[j];
            piece.count[j] = cells.count_ones();
            piece.solid[j] = cells != 0
                && (cells >> cells.trailing_zeros()).count_ones() == (cells >> cells.trailing_zeros()).trailing_ones();
        }
        piece
    }
}

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
    /// An empty 0-wide board's columns, to be filled by [`Columns::rebuild`].
    pub fn empty() -> Columns {
        Columns {
            width: 0,
            height: 1,
            rows: 1,
            padded: [0; MAX_WIDTH + WINDOW],
            terms: [Column::default(); MAX_WIDTH],
            wells: [0; MAX_WIDTH],
            pairs: [0; MAX_WIDTH + 1],
            before: [0; MAX_WIDTH + 1],
            from: [0; MAX_WIDTH + 1],
            totals: BoardFeatures::default(),
        }
    }

    /// The board in columns, and its features.
    #[cfg(test)]
    pub fn new(board: &Board) -> Columns {
        let mut columns = Columns::empty();
        columns.rebuild(board);
        columns
    }

    /// Turns `board` into columns and computes its features, in place (this is once per
    /// decision, and the struct is too big to build and move each time).
    pub fn rebuild(&mut self, board: &Board) {
        let width = board.width();
        let height = board.height() as u32;
        let rows = u64::MAX >> (64 - height);
        let c = self;
        c.width = width;
        c.height = height;
        c.rows = rows;
        let padded = &mut c.padded;
        padded.fill(rows);
        padded[PAD..PAD + width].fill(0);
        for (y, &row) in board.rows().iter().enumerate().skip(board.surface()) {
            let mut cells = row;
            while cells != 0 {
                padded[PAD + cells.trailing_zeros() as usize] |= 1 << y;
                cells &= cells - 1;
            }
        }
        let mut totals = BoardFeatures::default();
        for x in 0..width {
            let (left, cells, right) = (padded[PAD + x - 1], padded[PAD + x], padded[PAD + x + 1]);
            let term = column(cells, rows, height);
            c.terms[x] = term;
            c.wells[x] = wells(left, cells, right, rows, height);
            totals.column_transitions += term.transitions;
            totals.holes += term.holes;
            totals.hole_depth += term.hole_depth;
            totals.cumulative_wells += c.wells[x];
        }
        for p in 0..=width {
            c.pairs[p] = ((padded[PAD + p - 1] ^ padded[PAD + p]) & rows).count_ones();
            totals.row_transitions += c.pairs[p];
        }
        c.before[0] = 0;
        for x in 0..width {
            c.before[x + 1] = c.before[x] | c.terms[x].hole_rows;
        }
        c.from[width] = 0;
        for x in (0..width).rev() {
            c.from[x] = c.from[x + 1] | c.terms[x].hole_rows;
        }
        totals.rows_with_holes = c.from[0].count_ones();
        c.totals = totals;
    }

    /// The board's own features.
    #[cfg(test)]
    pub fn totals(&self) -> BoardFeatures {
        self.totals
    }

    /// The features after adding `piece` at column `left`, top row `top` (of its box),
    /// when no row is full afterwards.
    #[inline]
    pub fn with_piece(&self, piece: &PieceColumns, left: usize, top: u32) -> BoardFeatures {
        // A fixed width unrolls the loops and drops their bounds checks; pieces up to 4
        // wide (every tetromino) take one of these.
        match piece.width {
            1 => self.with_piece_of::<1>(piece, left, top),
            2 => self.with_piece_of::<2>(piece, left, top),
            3 => self.with_piece_of::<3>(piece, left, top),
            4 => self.with_piece_of::<4>(piece, left, top),
            5 => self.with_piece_of::<5>(piece, left, top),
            6 => self.with_piece_of::<6>(piece, left, top),
            7 => self.with_piece_of::<7>(piece, left, top),
            _ => self.with_piece_of::<8>(piece, left, top),
        }
    }

    /// [`Columns::with_piece`] for a piece `W` columns wide.
    #[inline(always)]
    fn with_piece_of<const W: usize>(&self, piece: &PieceColumns, left: usize, top: u32) -> BoardFeatures {
        let (rows, height) = (self.rows, self.height);
        // Columns `left - PAD` to `left + W + PAD - 1` after the placement: the piece's
        // column `j` is `window[PAD + j]`.
        let mut window = [0u64; WINDOW];
        window.copy_from_slice(&self.padded[left..left + WINDOW]);
        let terms: &[Column; W] = self.terms[left..left + W].try_into().expect("W columns");
        let pairs: &[u32; W] = self.pairs[left..left + W].try_into().expect("W pairs");
        let mut f = self.totals;
        let mut hole_rows = self.before[left] | self.from[left + W];
        for j in 0..W {
            let old = window[PAD + j];
            let added = piece.cells[j] << top;
            let new = old | added;
            window[PAD + j] = new;
            let term = &terms[j];
            // The old top row, or the floor's row for an empty column.
            let old_top = if old == 0 { height } else { old.trailing_zeros() };
            // A solid column is not empty, so its lowest cell is defined.
            let lowest_added = if piece.solid[j] {
                63 - added.leading_zeros()
            } else {
                u32::MAX
            };
            if lowest_added < old_top {
                // The surface shortcut (see the module note).
                let gap_rows = (u64::MAX >> (64 - old_top)) & !(u64::MAX >> (63 - lowest_added));
                let gap = gap_rows.count_ones();
                f.column_transitions += if gap > 0 { 2 } else { 0 };
                f.holes += gap;
                f.hole_depth += piece.count[j] * (term.holes + gap);
                hole_rows |= term.hole_rows | gap_rows;
            } else {
                let now = column(new, rows, height);
                f.column_transitions = f.column_transitions - term.transitions + now.transitions;
                f.holes = f.holes - term.holes + now.holes;
                f.hole_depth = f.hole_depth - term.hole_depth + now.hole_depth;
                hole_rows |= now.hole_rows;
            }
        }
        f.rows_with_holes = hole_rows.count_ones();
        // The pairs from (left - 1, left) to (left + W - 1, left + W).
        for p in 0..W {
            let now = ((window[PAD - 1 + p] ^ window[PAD + p]) & rows).count_ones();
            f.row_transitions = f.row_transitions - pairs[p] + now;
        }
        let now = ((window[PAD - 1 + W] ^ window[PAD + W]) & rows).count_ones();
        f.row_transitions = f.row_transitions - self.pairs[left + W] + now;
        // Wells change in the piece's columns and in the board columns next to them.
        let wells_before: &[u32; W] = self.wells[left..left + W].try_into().expect("W columns");
        for j in 0..W {
            let now = wells(window[PAD + j - 1], window[PAD + j], window[PAD + j + 1], rows, height);
            f.cumulative_wells = f.cumulative_wells - wells_before[j] + now;
        }
        // A neighbour's wells change only where it gained a filled neighbour beside an
        // empty cell of its own whose other neighbour is filled.
        let gained = |j: usize| window[PAD + j] ^ self.padded[PAD + left + j];
        if left > 0 && !window[PAD - 1] & window[PAD - 2] & gained(0) != 0 {
            let now = wells(window[PAD - 2], window[PAD - 1], window[PAD], rows, height);
            f.cumulative_wells = f.cumulative_wells - self.wells[left - 1] + now;
        }
        if left + W < self.width && !window[PAD + W] & window[PAD + W + 1] & gained(W - 1) != 0 {
            let now = wells(window[PAD + W - 1], window[PAD + W], window[PAD + W + 1], rows, height);
            f.cumulative_wells = f.cumulative_wells - self.wells[left + W] + now;
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
        // Empty cells below y: up to the next filled cell, or the floor. (Two shifts,
        // because y + 1 may be 64.)
        let below = (cells >> y) >> 1;
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
    use tetrad_plugin_api::{placements, PieceKind, PieceSet, Preset, Rules};

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

    /// Pieces whose columns are not one run in some orientation (a U, a C, a ring), so
    /// the surface shortcut must step aside for them.
    fn hollow_pieces() -> PieceSet {
        PieceSet::new(vec![
            PieceKind::from_cells("u", &[(0, 0), (2, 0), (0, 1), (1, 1), (2, 1)]),
            PieceKind::from_cells("c", &[(0, 0), (1, 0), (0, 1), (0, 2), (1, 2)]),
            PieceKind::from_cells(
                "ring",
                &[(0, 0), (1, 0), (2, 0), (0, 1), (2, 1), (0, 2), (1, 2), (2, 2)],
            ),
            PieceKind::from_cells("o", &[(0, 0), (1, 0), (0, 1), (1, 1)]),
        ])
    }

    #[test]
    fn piece_columns_know_their_runs() {
        // The U: columns 0 and 2 are two cells in one run, column 1 one cell at the bottom.
        let u = PieceColumns::new(&[0b101, 0b111], 3);
        assert_eq!(&u.cells[..3], &[0b11, 0b10, 0b11]);
        assert_eq!(&u.count[..3], &[2, 1, 2]);
        assert_eq!(&u.solid[..3], &[true, true, true]);
        // Turned upside down its middle column is still one cell; a C's middle column is
        // two cells with a gap.
        let c = PieceColumns::new(&[0b11, 0b01, 0b11], 2);
        assert_eq!(&c.cells[..2], &[0b111, 0b101]);
        assert_eq!(&c.solid[..2], &[true, false]);
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
            hollow in any::<bool>(),
            piece in 0u8..7,
        ) {
            let board = board(width, height, &columns);
            let split = Columns::new(&board);
            prop_assert_eq!(split.totals(), board_features(&board));
            let preset = if classic { Preset::Classic } else { Preset::Simplified };
            let rules = Rules { width, height, ..Rules::preset(preset) };
            let set = if hollow { hollow_pieces() } else { PieceSet::tetrominoes() };
            let piece = piece % set.len() as u8;
            let kind = set.kind(tetrad_plugin_api::PieceId(piece));
            let shapes = crate::shapes(&set);
            for p in placements(&rules, &board, kind, rules.spawn(kind)) {
                let shape = kind.orientation(p.pos.orientation);
                let top = i32::from(p.pos.y) + i32::from(shape.top());
                let left = (i32::from(p.pos.x) + i32::from(shape.left())) as usize;
                let mut after = board.clone();
                if top < 0 || !after.place(shape, p.pos.x, p.pos.y) || after.clone().clear_full_rows() > 0 {
                    continue;
                }
                let cells = &shapes[usize::from(piece)][usize::from(p.pos.orientation)].columns;
                prop_assert_eq!(split.with_piece(cells, left, top as u32), board_features(&after), "{:?}", p);
            }
        }
    }
}

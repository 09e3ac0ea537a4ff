//! The board features of every placement on one board, incrementally.
//!
//! Design. The board is turned into column bit masks (bit `y` of a
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
//! the piece's cells join the hole depth when the column has a hole after it (an old one
//! or the gap), and the column's transitions grow by 2 when there is a gap. Other columns
//! are recomputed from their cells.
//!
//! A drop straight down (under `simplified`) is rated on the columns alone,
//! [`Columns::drop_of`]: it lands on the column tops, and the rows it fills are the rows
//! filled in every column after it, found from two masks per slot (the AND of the columns
//! left of it, and of it and those right of it) and the piece's own columns, without
//! reading the board's rows.
//!
//! Between decisions the board changes by the piece that locked: when it cleared no row,
//! [`Columns::place`] adds it to the columns the same way, for its columns and their
//! neighbours alone, instead of a rebuild.

use crate::features::BoardFeatures;
use terms::{column, wells, Column};
use tetrad_plugin_api::{Board, MAX_PIECE_SIZE, MAX_WIDTH};

pub use drop::Dropped;
pub use terms::PieceColumns;

/// Wall columns kept on each side of the board, so a piece's neighbourhood is one slice.
const PAD: usize = 2;

/// Slots one placement reads: the widest piece's columns, their neighbours and theirs.
const WINDOW: usize = MAX_PIECE_SIZE + 2 * PAD;

/// Everything a placement reads of one column (or wall), side by side, so a placement's
/// neighbourhood is one slice, bounds-checked once.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Slot {
    /// The column's cells (a wall is full).
    cells: u64,
    /// Its top cell's row, or the height when it is empty.
    top: u32,
    /// The rows above its top cell (all the board's rows when it is empty; none for a
    /// wall).
    above: u64,
    /// Its share of the features (zero for a wall).
    term: Column,
    /// Its cumulative wells (zero for a wall).
    wells: u32,
    /// Row transitions between the column to its left and it.
    pair: u32,
    /// OR of `hole_rows` of the board columns left of it, and of it and those right of it.
    before: u64,
    from: u64,
    /// AND of the cells of the board columns left of it, and of it and those right of it:
    /// the rows a piece covering just the columns between two slots can fill.
    filled_left: u64,
    filled_from: u64,
}

/// A board in columns, with its features split by column.
pub struct Columns {
    width: usize,
    height: u32,
    /// The mask of the board's rows in a column.
    rows: u64,
    /// Column `x` at `x + PAD`; walls around the board. The walls are written when the
    /// size changes and stay: only the first right of the board holds values of the
    /// board (what is gathered left of it, and the last pair), and every change writes
    /// those again. So columns of one size differ only in the board's slots and that one
    /// ([`Columns::copy_from`] copies no more).
    slots: [Slot; MAX_WIDTH + WINDOW],
    totals: BoardFeatures,
}

impl Columns {
    /// An empty 0-wide board's columns, to be filled by [`Columns::rebuild`].
    pub fn empty() -> Columns {
        Columns {
            width: 0,
            height: 1,
            rows: 1,
            slots: [Slot::default(); MAX_WIDTH + WINDOW],
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
        // At most `MAX_WIDTH` (as every board is): the slot indices below are then known
        // to lie in the array, with no bounds check.
        let width = board.width().min(MAX_WIDTH);
        let height = board.height() as u32;
        let rows = u64::MAX >> (64 - height);
        let resized = (self.width, self.height) != (width, height);
        self.width = width;
        self.height = height;
        self.rows = rows;
        // Every slot a placement's window can reach: the board's columns, emptied (every
        // other field is written below), and walls around them, written when the size
        // changes (see `slots`).
        let slots = &mut self.slots;
        if resized {
            let wall = Slot {
                cells: rows,
                filled_left: rows,
                filled_from: rows,
                ..Slot::default()
            };
            slots[..PAD].fill(wall);
            slots[PAD + width..width + WINDOW].fill(wall);
        }
        for slot in &mut slots[PAD..PAD + width] {
            slot.cells = 0;
        }
        slots[PAD].before = 0;
        slots[PAD].filled_left = rows;
        for (y, &row) in board.rows().iter().enumerate().skip(board.surface()) {
            let mut cells = row;
            while cells != 0 {
                slots[PAD + cells.trailing_zeros() as usize].cells |= 1 << y;
                cells &= cells - 1;
            }
        }
        let mut totals = BoardFeatures::default();
        for i in PAD..PAD + width {
            let (left, cells, right) = (slots[i - 1].cells, slots[i].cells, slots[i + 1].cells);
            let term = column(cells, rows, height);
            slots[i].term = term;
            slots[i].top = if cells == 0 { height } else { cells.trailing_zeros() };
            slots[i].above = above(cells, rows);
            slots[i].wells = wells(left, cells, right, rows, height);
            totals.column_transitions += term.transitions;
            totals.holes += term.holes;
            totals.hole_depth += term.hole_depth;
            totals.cumulative_wells += slots[i].wells;
        }
        for i in PAD..=PAD + width {
            slots[i].pair = ((slots[i - 1].cells ^ slots[i].cells) & rows).count_ones();
            totals.row_transitions += slots[i].pair;
        }
        self.totals = totals;
        self.gather_across(PAD..PAD + width);
    }

    /// Makes these columns `other`'s, copying only the slots a board of its width uses.
    pub fn copy_from(&mut self, other: &Columns) {
        if (self.width, self.height) == (other.width, other.height) {
            // Of one size, only the board's slots and the first right of it differ.
            let changing = PAD..PAD + other.width + 1;
            self.slots[changing.clone()].copy_from_slice(&other.slots[changing]);
            self.totals = other.totals;
            return;
        }
        let used = other.width + WINDOW;
        self.width = other.width;
        self.height = other.height;
        self.rows = other.rows;
        self.slots[..used].copy_from_slice(&other.slots[..used]);
        self.totals = other.totals;
    }

    /// Adds `piece` at column `left`, top row `top` (of its box), when no row is full
    /// afterwards: the board's columns after the placement, equal to a rebuild from the
    /// board after it, for the cost of the piece's columns and their neighbours.
    pub fn place(&mut self, piece: &PieceColumns, left: usize, top: u32) {
        // Each at most its bound (as it is): the slot indices below are then known to lie
        // in the array, with no bounds check.
        let (rows, height, width) = (self.rows, self.height, self.width.min(MAX_WIDTH));
        let (first, piece_width) = (PAD + left.min(MAX_WIDTH), piece.width.min(MAX_PIECE_SIZE));
        let mut totals = self.totals;
        let slots = &mut self.slots;
        for j in 0..piece_width {
            let slot = &mut slots[first + j];
            slot.cells |= piece.cells[j] << top;
            slot.top = slot.cells.trailing_zeros();
            slot.above = above(slot.cells, rows);
            let term = column(slot.cells, rows, height);
            totals.column_transitions = totals.column_transitions - slot.term.transitions + term.transitions;
            totals.holes = totals.holes - slot.term.holes + term.holes;
            totals.hole_depth = totals.hole_depth - slot.term.hole_depth + term.hole_depth;
            slot.term = term;
        }
        // Wells change in the piece's columns and in the board columns beside them.
        for i in (first - 1).max(PAD)..(first + piece_width + 1).min(PAD + width) {
            let now = wells(slots[i - 1].cells, slots[i].cells, slots[i + 1].cells, rows, height);
            totals.cumulative_wells = totals.cumulative_wells - slots[i].wells + now;
            slots[i].wells = now;
        }
        for i in first..=first + piece_width {
            let now = ((slots[i - 1].cells ^ slots[i].cells) & rows).count_ones();
            totals.row_transitions = totals.row_transitions - slots[i].pair + now;
            slots[i].pair = now;
        }
        self.totals = totals;
        // Only the piece's columns changed: what is gathered left of them, and from
        // right of them on, stays.
        self.gather_across(first..first + piece_width);
    }

    /// Each slot's OR of the hole rows and AND of the cells left of it and from it on, and
    /// the rows with holes, when only the slots `changed` differ from when they were last
    /// gathered (all of the board's, after a rebuild).
    fn gather_across(&mut self, changed: std::ops::Range<usize>) {
        let (width, slots) = (self.width, &mut self.slots);
        // Left to right from the first changed slot, and right to left from the last,
        // the running OR and AND carried in registers over a slice: no bounds check and
        // no reload a slot.
        let run = &mut slots[changed.start..=PAD + width];
        let (mut before, mut filled) = (run[0].before, run[0].filled_left);
        let (mut holes, mut cells) = (run[0].term.hole_rows, run[0].cells);
        for slot in &mut run[1..] {
            before |= holes;
            filled &= cells;
            slot.before = before;
            slot.filled_left = filled;
            (holes, cells) = (slot.term.hole_rows, slot.cells);
        }
        let run = &mut slots[PAD..=changed.end];
        let (last, rest) = run.split_last_mut().expect("the slot right of the changed ones");
        let (mut from, mut filled) = (last.from, last.filled_from);
        for slot in rest.iter_mut().rev() {
            from |= slot.term.hole_rows;
            filled &= slot.cells;
            slot.from = from;
            slot.filled_from = filled;
        }
        self.totals.rows_with_holes = slots[PAD].from.count_ones();
    }

    /// The board's height.
    #[inline]
    pub fn height(&self) -> u32 {
        self.height
    }

    /// The first filled row of column `x`, or the height when it is empty.
    #[inline]
    pub fn top(&self, x: usize) -> u32 {
        self.slots[PAD + x].top
    }

    /// The board's own features.
    #[inline]
    pub fn totals(&self) -> BoardFeatures {
        self.totals
    }

    /// The slots of board columns `left - PAD` to `left + WINDOW - PAD - 1` (and walls): a
    /// piece at `left` has its column `j` at `PAD + j`.
    #[inline(always)]
    fn window(&self, left: usize) -> &[Slot; WINDOW] {
        // A box starts on the board, so less than `MAX_WIDTH` (a power of two) columns in:
        // taken modulo that, which is one AND, the window is known to lie in the array,
        // with no check at every drop.
        const { assert!(MAX_WIDTH.is_power_of_two()) };
        debug_assert!(left < MAX_WIDTH, "a window at column {left}");
        let left = left % MAX_WIDTH;
        self.slots[left..left + WINDOW].try_into().expect("a window of slots")
    }

    /// Adds to `f`, whose cumulative wells are at their floor (the board's less the
    /// piece's columns': only those can lose wells, a column beside the piece only gains
    /// filled neighbours), the wells the piece's columns have after it and the wells the
    /// columns beside it gain.
    #[inline(always)]
    fn add_wells<const W: usize>(&self, slots: &[Slot; WINDOW], cells: &[u64; WINDOW], f: &mut BoardFeatures) {
        let (rows, height) = (self.rows, self.height);
        // Wells change in the piece's columns and in the board columns next to them.
        for j in 0..W {
            f.cumulative_wells += wells(cells[PAD + j - 1], cells[PAD + j], cells[PAD + j + 1], rows, height);
        }
        // A neighbour's wells change only where it gained a filled neighbour beside an
        // empty cell of its own whose other neighbour is filled. (A wall has no wells, and
        // gains none: it is full.)
        let gained = |j: usize| cells[PAD + j] ^ slots[PAD + j].cells;
        if !cells[PAD - 1] & cells[PAD - 2] & gained(0) != 0 {
            let now = wells(cells[PAD - 2], cells[PAD - 1], cells[PAD], rows, height);
            f.cumulative_wells = f.cumulative_wells - slots[PAD - 1].wells + now;
        }
        if !cells[PAD + W] & cells[PAD + W + 1] & gained(W - 1) != 0 {
            let now = wells(cells[PAD + W - 1], cells[PAD + W], cells[PAD + W + 1], rows, height);
            f.cumulative_wells = f.cumulative_wells - slots[PAD + W].wells + now;
        }
    }
}

/// The rows of a column above its top cell in `cells`: all of `rows` when it is empty.
#[inline(always)]
fn above(cells: u64, rows: u64) -> u64 {
    // The lowest set bit less one.
    (cells & cells.wrapping_neg()).wrapping_sub(1) & rows
}

/// The cells of the window's columns once `piece` is added with its box top at row `top`.
#[inline(always)]
fn cells_after<const W: usize>(slots: &[Slot; WINDOW], piece: &PieceColumns, top: u32) -> [u64; WINDOW] {
    let mut cells = [0u64; WINDOW];
    for i in 0..W + 2 * PAD {
        cells[i] = slots[i].cells;
    }
    for j in 0..W {
        cells[PAD + j] |= piece.cells[j] << top;
    }
    cells
}

mod drop;
mod terms;
mod wells;
mod with_piece;

#[cfg(test)]
mod tests;

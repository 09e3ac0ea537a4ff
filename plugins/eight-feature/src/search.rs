//! The shallow and deep searches of seed 000 over the evaluation of seed 001.
//!
//! Design. The tree of seed 000 is orientation x column x slide (left, none, right) for
//! the current piece (shallow, leaves at depth 3), and the same tree hung under every
//! such leaf for the next piece (deep, leaves at depth 7). A node exists only where the
//! move really gets there under the rules (the [`Enumerator`], identical to the shared
//! enumeration), and positions reached twice are visited once ("the minimum number of
//! nodes that covers all possible moves"). Slides are searched only when the board the
//! piece falls on has a hole, and only where the slid piece rests, as the seed prunes.
//!
//! The search is a depth-first walk: each first placement is locked (rows cleared) to
//! give b1', whose next-piece placements are the leaves. A leaf is scored by E(b, b') with
//! F1-F3 on the landing piece of that leaf (the second piece in the deep search) and
//! F4-F8 on b', F5 counting the lines of both pieces. The best leaf wins; ties go to the
//! leaf the depth-first walk meets first (orientation, then column, then left, none,
//! right), whatever order the enumerator yields. Nothing is allocated per leaf: the
//! placement lists are reused, and a leaf that completes no row ORs the piece into a copy
//! of b1' by columns and reads F4 and F6-F8 in one pass over them; a leaf that completes
//! rows is locked and cleared the plain way (a test checks the two agree).
//!
//! The deep search runs when the next piece is known and no filled square is at or above
//! the height limit (14 of 20 rows in the seed); otherwise, or when no first placement
//! lets the next piece enter, the shallow search decides.

use crate::features::{board_counts, columns, counts_with, features, BoardCounts, Columns, Heights, Walls, Weights};
use crate::movegen::Enumerator;
use crate::shape::Shape;
use tetrad_plugin_api::{Board, FallingPiece, Orientation, PieceId, PiecePos, PieceSet, Placement, Rules, MAX_WIDTH};

/// The seed's deep-search limit: a filled square at height 14 (of 20 rows) or above.
pub const SEED_LIMIT: (u32, u32) = (14, 20);

/// The deep-search height limit for a board of `height` rows: the seed's 14 of 20,
/// scaled in proportion and rounded to the nearest row (7 of 10, 15 of 22).
pub fn scaled_limit(height: usize) -> u32 {
    let (limit, rows) = SEED_LIMIT;
    (limit * height as u32 + rows / 2) / rows
}

/// What a searcher is told at creation: the options of the plugin.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    /// w1..w8.
    pub weights: Weights,
    /// The deep search stops once a filled square is this many squares above the floor
    /// (see [`scaled_limit`]).
    pub limit: u32,
    /// How F6 and F7 count height.
    pub heights: Heights,
    /// How F6 counts its wall terms.
    pub walls: Walls,
}

impl Settings {
    /// The defaults for a board `height` rows high.
    pub fn defaults(height: usize) -> Settings {
        Settings {
            weights: Weights::DEFAULT,
            limit: scaled_limit(height),
            heights: Heights::FromFloor,
            walls: Walls::Clipped,
        }
    }
}

/// The outcome of one search.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Decision {
    /// Where to put the current piece, and the path to it.
    pub placement: Placement,
    /// E of the best leaf.
    pub value: f64,
    /// Whether the deep search decided.
    pub deep: bool,
    /// Leaves evaluated.
    pub leaves: usize,
}

/// The searcher of one game: its rules, weights and reusable buffers.
#[derive(Clone, Debug)]
pub struct Searcher {
    rules: Rules,
    pieces: PieceSet,
    weights: Weights,
    limit: u32,
    heights: Heights,
    walls: Walls,
    cells: u32,
    enumerator: Enumerator,
    first: Vec<Placement>,
    second: Vec<Placement>,
}

/// The best leaf so far.
#[derive(Clone, Copy, Debug)]
struct Best {
    value: f64,
    key: u64,
    placement: Placement,
}

impl Searcher {
    /// A searcher for `rules` and `pieces` with `settings`.
    pub fn new(rules: Rules, pieces: PieceSet, settings: Settings) -> Searcher {
        Searcher {
            cells: (rules.width * rules.height) as u32,
            enumerator: Enumerator::new(&pieces),
            rules,
            pieces,
            weights: settings.weights,
            limit: settings.limit,
            heights: settings.heights,
            walls: settings.walls,
            first: Vec::with_capacity(256),
            second: Vec::with_capacity(256),
        }
    }

    /// Whether the deep search applies to `board`: no filled square at or above the limit.
    pub fn below_limit(&self, board: &Board) -> bool {
        let height = board.height() as u32;
        if self.limit > height {
            return true;
        }
        // A square in row y (0 at the top) is height - y squares above the floor, so rows
        // 0..=height - limit are the ones at or above the limit (all rows for 0 and 1).
        let end = (height + 1 - self.limit.max(1)) as usize;
        board.rows()[..end].iter().all(|&r| r == 0)
    }

    /// Chooses the current piece's placement: deep search when `next` is known and the
    /// stack is below the limit, shallow otherwise. `None` when the piece cannot move.
    pub fn decide(&mut self, board: &Board, current: FallingPiece, next: Option<PieceId>) -> Option<Decision> {
        if let Some(next) = next.filter(|_| self.below_limit(board)) {
            if let Some(decision) = self.deep(board, current, next) {
                return Some(decision);
            }
        }
        self.shallow(board, current)
    }

    /// The shallow search: maximises E(b1, b1') over the current piece's placements.
    pub fn shallow(&mut self, board: &Board, current: FallingPiece) -> Option<Decision> {
        let slides = board.holes() > 0;
        let mut first = std::mem::take(&mut self.first);
        self.enumerator
            .placements(&self.rules, board, current.id, current.pos, slides, &mut first);
        let ground = Ground::new(board);
        let mut best: Option<Best> = None;
        for p in &first {
            let Some(value) = self.leaf(&ground, current.id, p.pos, 0) else {
                continue;
            };
            consider(&mut best, value, u64::from(tree_key(p)), p);
        }
        let leaves = first.len();
        let fallback = first.first().copied();
        self.first = first;
        match best {
            Some(best) => Some(Decision {
                placement: best.placement,
                value: best.value,
                deep: false,
                leaves,
            }),
            // Every placement tops out: go where the first one goes.
            None => fallback.map(|placement| Decision {
                placement,
                value: f64::NEG_INFINITY,
                deep: false,
                leaves,
            }),
        }
    }

    /// The deep search: maximises E(b2, b2') over the current then the next piece's
    /// placements; `None` when no first placement lets the next piece enter.
    pub fn deep(&mut self, board: &Board, current: FallingPiece, next: PieceId) -> Option<Decision> {
        let kind = self.pieces.kind(current.id);
        let spawn = self.rules.spawn(self.pieces.kind(next));
        let spawn_shape = self.enumerator.shapes(next)[usize::from(spawn.orientation)];
        let mut first = std::mem::take(&mut self.first);
        let mut second = std::mem::take(&mut self.second);
        self.enumerator.placements(
            &self.rules,
            board,
            current.id,
            current.pos,
            board.holes() > 0,
            &mut first,
        );
        let mut best: Option<Best> = None;
        let mut leaves = 0;
        for p in &first {
            let Some((middle, lines)) = land(board, kind.orientation(p.pos.orientation), p.pos) else {
                continue;
            };
            if !spawn_shape.fits(middle.rows(), middle.width() as i32, spawn.x, spawn.y) {
                continue;
            }
            let slides = middle.holes() > 0;
            self.enumerator
                .placements(&self.rules, &middle, next, spawn, slides, &mut second);
            let ground = Ground::new(&middle);
            let key = u64::from(tree_key(p)) << 32;
            for q in &second {
                let Some(value) = self.leaf(&ground, next, q.pos, lines) else {
                    continue;
                };
                leaves += 1;
                consider(&mut best, value, key | u64::from(tree_key(q)), p);
            }
        }
        self.first = first;
        self.second = second;
        best.map(|best| Decision {
            placement: best.placement,
            value: best.value,
            deep: true,
            leaves,
        })
    }

    /// E of a leaf: `piece` landing at `pos` on `ground` (F1-F3 from its squares), `lines`
    /// completed before it plus its own (F5), and the board after its rows clear (F4,
    /// F6-F8). `None` if a square lies above the board (the game would end).
    #[inline]
    fn leaf(&self, ground: &Ground, piece: PieceId, pos: PiecePos, lines: u32) -> Option<f64> {
        let shape = &self.enumerator.shapes(piece)[usize::from(pos.orientation)];
        let (counts, lines) = match ground.counts_after(shape, pos)? {
            Some(counts) => (counts, lines),
            None => {
                let orientation = self.pieces.kind(piece).orientation(pos.orientation);
                let (after, more) = land(ground.board, orientation, pos)?;
                (board_counts(after.rows(), after.width()), lines + more)
            }
        };
        let depths = shape.depths.depths(pos.y);
        let counts = counts.read(self.heights, self.walls);
        Some(self.weights.evaluate(&features(depths, lines, &counts, self.cells)))
    }

    /// E of a leaf given the board `after` it, rows cleared: the plain way (for tests).
    #[cfg(test)]
    fn leaf_value(&self, piece: PieceId, pos: PiecePos, lines: u32, after: &Board) -> f64 {
        let depths = self.enumerator.shapes(piece)[usize::from(pos.orientation)]
            .depths
            .depths(pos.y);
        let counts = board_counts(after.rows(), after.width()).read(self.heights, self.walls);
        self.weights.evaluate(&features(depths, lines, &counts, self.cells))
    }
}

/// A board a piece lands on, by rows and by columns, with each column's square count.
struct Ground<'a> {
    board: &'a Board,
    columns: Columns,
    filled: [u32; MAX_WIDTH],
    full: u32,
}

impl<'a> Ground<'a> {
    fn new(board: &'a Board) -> Ground<'a> {
        let columns = columns(board.rows());
        Ground {
            board,
            filled: columns.map(|c| c.count_ones()),
            columns,
            full: board.full_row(),
        }
    }

    /// The counts of the board after `shape` locks at `pos`, when it completes no row:
    /// its squares are ORed into a copy of the columns. `Some(None)` when it completes a
    /// row (the caller clears the plain way), `None` when a square lies above the board.
    #[inline]
    fn counts_after(&self, shape: &Shape, pos: PiecePos) -> Option<Option<BoardCounts>> {
        let top = i32::from(pos.y) + i32::from(shape.top);
        if top < 0 {
            return None;
        }
        let (top, left) = (top as usize, (i32::from(pos.x) + i32::from(shape.left)) as usize);
        let height = usize::from(shape.height);
        let rows = &self.board.rows()[top..top + height];
        if rows
            .iter()
            .zip(&shape.rows[..height])
            .any(|(&row, &mask)| row | (mask << left) == self.full)
        {
            return Some(None);
        }
        let width = self.board.width();
        let mut cols = self.columns;
        let mut filled = self.filled;
        for dx in 0..usize::from(shape.width) {
            cols[left + dx] |= shape.columns[dx] << top;
            filled[left + dx] += shape.column_cells[dx];
        }
        Some(Some(counts_with(&cols[..width], &filled[..width], self.board.height())))
    }
}

/// Keeps the better of `best` and a leaf: higher E, or equal E and earlier in the tree.
#[inline]
fn consider(best: &mut Option<Best>, value: f64, key: u64, placement: &Placement) {
    let better = match best {
        None => true,
        Some(b) => value > b.value || (value == b.value && key < b.key),
    };
    if better {
        *best = Some(Best {
            value,
            key,
            placement: *placement,
        });
    }
}

/// A placement's rank in the seed's depth-first order: orientation, then the column the
/// piece is dropped in, then the slide (left, none, right).
fn tree_key(p: &Placement) -> u32 {
    let column = i32::from(p.pos.x) - i32::from(p.slide) + 128;
    (u32::from(p.pos.orientation) << 16) | ((column as u32) << 2) | (i32::from(p.slide) + 1) as u32
}

/// The board after `shape` locks at `pos` (rows cleared) and the rows it cleared, or
/// `None` if a square would lie above the board (the game would end).
#[inline]
pub fn land(board: &Board, shape: &Orientation, pos: PiecePos) -> Option<(Board, u32)> {
    let mut after = board.clone();
    if !after.place(shape, pos.x, pos.y) {
        return None;
    }
    let top = (i32::from(pos.y) + i32::from(shape.top())) as usize;
    let full = after.full_row();
    let rows = &after.rows()[top..top + usize::from(shape.height())];
    let lines = if rows.contains(&full) {
        after.clear_full_rows()
    } else {
        0
    };
    Some((after, lines))
}

#[cfg(test)]
mod tests;

//! Piece kinds and their orientations: the standard tetrominoes and any connected polyomino.
//!
//! Every piece lives in a square rotation box of side `box_size` (the larger side of its
//! drawing). Orientation `k + 1` is orientation `k` turned clockwise inside that box; an
//! orientation whose shape (up to translation) repeats an earlier one is dropped, so O has
//! 1 orientation, I/S/Z 2 and T/J/L 4, as in the WinTetris demo. Rotating never moves the
//! piece's position; only the cells inside the box change. No wall kicks exist.

use std::fmt;

/// Largest side of a piece's rotation box (so at most 8 rows and 8 columns of cells).
pub const MAX_PIECE_SIZE: usize = 8;

/// Index of a piece kind within its [`PieceSet`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PieceId(pub u8);

impl PieceId {
    /// The index as a `usize`, for slicing.
    #[inline]
    pub fn index(self) -> usize {
        usize::from(self.0)
    }
}

/// One orientation of a piece: its cells relative to the piece position, and row masks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Orientation {
    cells: Vec<(i8, i8)>,
    left: i8,
    top: i8,
    width: u8,
    height: u8,
    row_masks: [u32; MAX_PIECE_SIZE],
    /// Per column of the bounding box, the row offset (from the piece position) of the
    /// lowest cell in it: where a straight drop meets the stack.
    column_bottoms: [i8; MAX_PIECE_SIZE],
}

impl Orientation {
    fn from_cells(mut cells: Vec<(i8, i8)>) -> Orientation {
        cells.sort_by_key(|&(x, y)| (y, x));
        let left = cells.iter().map(|c| c.0).min().unwrap_or(0);
        let top = cells.iter().map(|c| c.1).min().unwrap_or(0);
        let right = cells.iter().map(|c| c.0).max().unwrap_or(0);
        let bottom = cells.iter().map(|c| c.1).max().unwrap_or(0);
        let mut row_masks = [0u32; MAX_PIECE_SIZE];
        let mut column_bottoms = [i8::MIN; MAX_PIECE_SIZE];
        for &(x, y) in &cells {
            row_masks[(y - top) as usize] |= 1 << (x - left);
            let lowest = &mut column_bottoms[(x - left) as usize];
            *lowest = (*lowest).max(y);
        }
        Orientation {
            cells,
            left,
            top,
            width: (right - left + 1) as u8,
            height: (bottom - top + 1) as u8,
            row_masks,
            column_bottoms,
        }
    }

    /// Cells as `(dx, dy)` offsets from the piece position (y grows downwards), sorted
    /// top to bottom, then left to right.
    #[inline]
    pub fn cells(&self) -> &[(i8, i8)] {
        &self.cells
    }

    /// Column offset of the leftmost cell.
    #[inline]
    pub fn left(&self) -> i8 {
        self.left
    }

    /// Row offset of the topmost cell.
    #[inline]
    pub fn top(&self) -> i8 {
        self.top
    }

    /// Width of the cells' bounding box.
    #[inline]
    pub fn width(&self) -> u8 {
        self.width
    }

    /// Height of the cells' bounding box.
    #[inline]
    pub fn height(&self) -> u8 {
        self.height
    }

    /// Row `i` of the bounding box as a bit mask, bit 0 being the leftmost column.
    #[inline]
    pub fn row_masks(&self) -> &[u32] {
        &self.row_masks[..usize::from(self.height)]
    }

    /// For each column of the bounding box, left to right, the row offset from the piece
    /// position of the lowest cell in that column. Connected pieces have a cell in every
    /// column of their bounding box.
    #[inline]
    pub fn column_bottoms(&self) -> &[i8] {
        &self.column_bottoms[..usize::from(self.width)]
    }

    fn normalized(&self) -> Vec<(i8, i8)> {
        let mut cells: Vec<_> = self.cells.iter().map(|&(x, y)| (x - self.left, y - self.top)).collect();
        cells.sort_unstable();
        cells
    }
}

/// A piece kind: a name and its distinct orientations.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieceKind {
    name: String,
    box_size: u8,
    orientations: Vec<Orientation>,
}

impl PieceKind {
    /// Builds a piece from the cells of its first orientation, generating the others.
    ///
    /// The caller guarantees a non-empty, connected cell set that fits a
    /// [`MAX_PIECE_SIZE`] box; whoever reads pieces from user input checks that first.
    pub fn from_cells(name: impl Into<String>, cells: &[(i8, i8)]) -> PieceKind {
        let left = cells.iter().map(|c| c.0).min().unwrap_or(0);
        let top = cells.iter().map(|c| c.1).min().unwrap_or(0);
        let cells: Vec<(i8, i8)> = cells.iter().map(|&(x, y)| (x - left, y - top)).collect();
        let width = cells.iter().map(|c| c.0).max().unwrap_or(0) + 1;
        let height = cells.iter().map(|c| c.1).max().unwrap_or(0) + 1;
        let box_size = width.max(height);
        PieceKind::in_box(name, box_size as u8, cells)
    }

    /// Rebuilds a piece from every orientation's cells, as the ABI carries them.
    pub fn from_orientations(name: impl Into<String>, box_size: u8, orientations: Vec<Vec<(i8, i8)>>) -> PieceKind {
        PieceKind {
            name: name.into(),
            box_size,
            orientations: orientations.into_iter().map(Orientation::from_cells).collect(),
        }
    }

    /// Builds a piece whose first orientation is drawn at the given cells of a square
    /// rotation box of side `box_size` (cells within `0..box_size` on both axes).
    pub fn in_box(name: impl Into<String>, box_size: u8, cells: Vec<(i8, i8)>) -> PieceKind {
        PieceKind::turned_in_box(name, box_size, cells, |a, b| a.normalized() == b.normalized())
    }

    /// Builds a piece for the Super Rotation System: its four rotation states, orientation
    /// 0 drawn at `cells` of its box, each next one turned clockwise in the box. Unlike
    /// [`PieceKind::in_box`], a state that repeats an earlier shape at another place in the
    /// box is kept (I, S and Z have four), since SRS kicks depend on the state; only a
    /// state with exactly the same cells (all of O's) is dropped.
    pub fn srs(name: impl Into<String>, box_size: u8, cells: Vec<(i8, i8)>) -> PieceKind {
        PieceKind::turned_in_box(name, box_size, cells, |a, b| a.cells == b.cells)
    }

    /// The four quarter turns of `cells` in the box, each kept unless `same` as one kept
    /// before it.
    fn turned_in_box(
        name: impl Into<String>,
        box_size: u8,
        cells: Vec<(i8, i8)>,
        same: fn(&Orientation, &Orientation) -> bool,
    ) -> PieceKind {
        let n = box_size as i8;
        let mut orientations: Vec<Orientation> = Vec::with_capacity(4);
        let mut current = cells;
        for _ in 0..4 {
            let candidate = Orientation::from_cells(current.clone());
            if !orientations.iter().any(|o| same(o, &candidate)) {
                orientations.push(candidate);
            }
            // Clockwise quarter turn inside the box, y pointing down.
            current = current.iter().map(|&(x, y)| (n - 1 - y, x)).collect();
        }
        PieceKind {
            name: name.into(),
            box_size,
            orientations,
        }
    }

    /// The piece's name ("I", "T", or the name given in a piece-set file).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Side of the square rotation box.
    #[inline]
    pub fn box_size(&self) -> u8 {
        self.box_size
    }

    /// The distinct orientations; index `k + 1` is index `k` turned clockwise.
    #[inline]
    pub fn orientations(&self) -> &[Orientation] {
        &self.orientations
    }

    /// Orientation number `index`.
    #[inline]
    pub fn orientation(&self, index: u8) -> &Orientation {
        &self.orientations[usize::from(index)]
    }

    /// How many cells the piece has.
    pub fn cell_count(&self) -> usize {
        self.orientations[0].cells.len()
    }

    /// The orientation reached from `index` by one clockwise (`+1`) or counter-clockwise
    /// (`-1`) turn.
    #[inline]
    pub fn turned(&self, index: u8, direction: i8) -> u8 {
        let count = self.orientations.len() as i16;
        (i16::from(index) + i16::from(direction)).rem_euclid(count) as u8
    }
}

/// The pieces a game draws from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieceSet {
    kinds: Vec<PieceKind>,
}

impl PieceSet {
    /// A set of the given kinds. At most 255 kinds, each with a distinct name.
    pub fn new(kinds: Vec<PieceKind>) -> PieceSet {
        debug_assert!(!kinds.is_empty() && kinds.len() < 256);
        PieceSet { kinds }
    }

    /// The seven standard tetrominoes in the order I, O, T, S, Z, J, L, each drawn with
    /// its flat side down in its rotation box (I and O in the middle rows of their boxes).
    pub fn tetrominoes() -> PieceSet {
        PieceSet::drawn_tetrominoes(PieceKind::in_box)
    }

    /// The seven tetrominoes of the guideline, in the same order and drawn the same way
    /// (their spawn states, pointing up), each with its four SRS rotation states (O with
    /// one): see [`PieceKind::srs`].
    pub fn srs() -> PieceSet {
        PieceSet::drawn_tetrominoes(PieceKind::srs)
    }

    fn drawn_tetrominoes(build: fn(String, u8, Vec<(i8, i8)>) -> PieceKind) -> PieceSet {
        let draw = |name: &str, box_size: u8, rows: &[&str]| {
            let cells = rows
                .iter()
                .enumerate()
                .flat_map(|(y, row)| {
                    row.bytes()
                        .enumerate()
                        .filter(|&(_, b)| b == b'#')
                        .map(move |(x, _)| (x as i8, y as i8))
                })
                .collect();
            build(name.to_string(), box_size, cells)
        };
        PieceSet::new(vec![
            draw("I", 4, &["....", "####"]),
            draw("O", 2, &["##", "##"]),
            draw("T", 3, &[".#.", "###"]),
            draw("S", 3, &[".##", "##."]),
            draw("Z", 3, &["##.", ".##"]),
            draw("J", 3, &["#..", "###"]),
            draw("L", 3, &["..#", "###"]),
        ])
    }

    /// All kinds, indexed by [`PieceId`].
    #[inline]
    pub fn kinds(&self) -> &[PieceKind] {
        &self.kinds
    }

    /// The kind with this id.
    #[inline]
    pub fn kind(&self, id: PieceId) -> &PieceKind {
        &self.kinds[id.index()]
    }

    /// How many kinds the set holds.
    #[inline]
    pub fn len(&self) -> usize {
        self.kinds.len()
    }

    /// Always false: a set has at least one kind.
    pub fn is_empty(&self) -> bool {
        self.kinds.is_empty()
    }

    /// Ids of every kind, in order.
    pub fn ids(&self) -> impl Iterator<Item = PieceId> + '_ {
        (0..self.kinds.len()).map(|i| PieceId(i as u8))
    }

    /// Whether this is exactly the guideline's set, [`PieceSet::srs`].
    pub fn is_srs(&self) -> bool {
        *self == PieceSet::srs()
    }

    /// Whether this is exactly the standard tetromino set.
    pub fn is_standard_tetrominoes(&self) -> bool {
        *self == PieceSet::tetrominoes()
    }

    /// The widest and tallest extent of any orientation of any kind.
    pub fn max_extent(&self) -> (u8, u8) {
        let orientations = self.kinds.iter().flat_map(|k| k.orientations.iter());
        let width = orientations.clone().map(|o| o.width).max().unwrap_or(0);
        let height = orientations.map(|o| o.height).max().unwrap_or(0);
        (width, height)
    }
}

impl fmt::Display for PieceId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

#[cfg(test)]
mod tests;

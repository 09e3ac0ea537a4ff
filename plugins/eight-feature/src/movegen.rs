//! A tight placement enumerator for the search: the same placements, in the same order,
//! as the shared `placements_into`, without replaying each path tick by tick.
//!
//! Under gravity a path is: one turn and/or shift per tick while the piece falls a row per
//! tick, DROP in the last of those ticks, then a lock tick (with the slide, if any). The
//! shared enumerator plays each path through the host's `step`; here the same checks are
//! made directly on the rows, a piece wholly above the stack is checked against the walls
//! only, and a DROP falls at once to the nearest square below the piece's bottom squares,
//! found column by column. The equivalence is tested on random
//! boards with tetrominoes and pentominoes. Presets without gravity use the shared code.

use crate::features::{columns, Columns};
use crate::shape::Shape;
use tetrad_plugin_api::{placements_into, Board, Movement, PieceId, PiecePos, PieceSet, Placement, Rules};

/// Reusable enumeration state for one piece set.
#[derive(Clone, Debug)]
pub struct Enumerator {
    pieces: PieceSet,
    shapes: Vec<Vec<Shape>>,
    /// Whether each non-slide placement locked on its first, pure DROP tick (it was
    /// already resting at the start), which leaves no tick to slide in.
    early: Vec<bool>,
    /// The row each non-slide placement locks at, by orientation and column (see
    /// [`landed_index`]), [`NOT_LANDED`] where there is none: the duplicate check of slides.
    landed: [i8; LANDED_LEN],
}

/// Columns of the `landed` table per orientation: a position's column is at least -7
/// (a box's leftmost square lies within 8 columns) and below 32 + 8.
const LANDED_COLUMNS: usize = 48;
/// Size of the `landed` table: 4 orientations at most.
const LANDED_LEN: usize = 4 * LANDED_COLUMNS;
/// No non-slide placement at that orientation and column.
const NOT_LANDED: i8 = i8::MIN;

/// The `landed` table index of a position.
#[inline]
fn landed_index(pos: PiecePos) -> usize {
    usize::from(pos.orientation) * LANDED_COLUMNS + (i32::from(pos.x) + 8) as usize
}

impl Enumerator {
    /// An enumerator for the pieces of `pieces`.
    pub fn new(pieces: &PieceSet) -> Enumerator {
        Enumerator {
            pieces: pieces.clone(),
            shapes: pieces.kinds().iter().map(Shape::all).collect(),
            early: Vec::with_capacity(256),
            landed: [NOT_LANDED; LANDED_LEN],
        }
    }

    /// The orientations of `piece`, as the search reads them.
    pub fn shapes(&self, piece: PieceId) -> &[Shape] {
        &self.shapes[piece.index()]
    }

    /// Writes into `out` the placements `placements_into` gives for `piece` from `start`,
    /// leaving out the slides when `slides` is false (the seed slides only on a board with
    /// a hole).
    pub fn placements(
        &mut self,
        rules: &Rules,
        board: &Board,
        piece: PieceId,
        start: PiecePos,
        slides: bool,
        out: &mut Vec<Placement>,
    ) {
        if rules.movement() != Movement::Gravity {
            placements_into(rules, board, self.pieces.kind(piece), start, out);
            if !slides {
                out.retain(|p| p.slide == 0);
            }
            return;
        }
        out.clear();
        self.early.clear();
        self.landed = [NOT_LANDED; LANDED_LEN];
        let rows = board.rows();
        let ground = Ground {
            rows,
            columns: columns(rows),
            width: board.width() as i32,
            sky: rows.iter().position(|&r| r != 0).unwrap_or(rows.len()) as i32,
        };
        let shapes = &self.shapes[piece.index()];
        let count = shapes.len() as i8;
        for (index, shape) in shapes.iter().enumerate() {
            let clockwise = (index as i8 - start.orientation as i8).rem_euclid(count);
            let turns = if clockwise * 2 <= count {
                clockwise
            } else {
                clockwise - count
            };
            let min_x = -shape.left;
            let max_x = ground.width as i8 - shape.left - shape.width as i8;
            for x in min_x..=max_x {
                if let Some((pos, early)) = ground.settle(shapes, start, turns, x) {
                    self.landed[landed_index(pos)] = pos.y;
                    out.push(Placement {
                        pos,
                        turns,
                        shifts: x - start.x,
                        slide: 0,
                    });
                    self.early.push(early);
                }
            }
        }
        if slides {
            self.add_slides(&ground, shapes, out);
        }
    }

    /// Slides after the DROP, in the shared order: each base placement, left then right,
    /// kept where the slid piece fits and rests and no placement has that position yet.
    fn add_slides(&self, ground: &Ground, shapes: &[Shape], out: &mut Vec<Placement>) {
        let bases = out.len();
        for i in 0..bases {
            if self.early[i] {
                continue;
            }
            let base = out[i];
            let shape = &shapes[usize::from(base.pos.orientation)];
            for slide in [-1i8, 1] {
                let pos = PiecePos {
                    x: base.pos.x + slide,
                    ..base.pos
                };
                if !ground.fits(shape, pos.x, pos.y) || ground.fits(shape, pos.x, pos.y + 1) {
                    continue;
                }
                let column = i32::from(pos.x) + 8;
                let known = (0..LANDED_COLUMNS as i32).contains(&column) && self.landed[landed_index(pos)] == pos.y;
                if known || out[bases..].iter().any(|p| p.pos == pos) {
                    continue;
                }
                out.push(Placement { pos, slide, ..base });
            }
        }
    }
}

/// The board being enumerated on: its rows and columns, width, and first filled row
/// (`sky`; every row above it is empty).
struct Ground<'a> {
    rows: &'a [u32],
    columns: Columns,
    width: i32,
    sky: i32,
}

impl Ground<'_> {
    /// [`Shape::fits`], skipping the rows when the piece is wholly above the stack.
    #[inline]
    fn fits(&self, shape: &Shape, x: i8, y: i8) -> bool {
        if shape.bottom(y) <= self.sky {
            let left = i32::from(x) + i32::from(shape.left);
            return left >= 0 && left + i32::from(shape.width) <= self.width;
        }
        shape.fits(self.rows, self.width, x, y)
    }

    /// Where a DROP from `(x, y)`, where the piece fits, comes to rest.
    #[inline]
    fn drop_from(&self, shape: &Shape, x: i8, y: i8) -> i8 {
        y + shape.fall(&self.columns, self.rows.len() as i32, x, y)
    }

    /// Plays the non-slide path to column `x` with `turns` quarter turns, as the host
    /// would, and returns where it locks and whether it locked early (see [`Enumerator`]);
    /// `None` where a turn or shift is refused or the piece locks before its path ends.
    #[inline]
    fn settle(&self, shapes: &[Shape], start: PiecePos, turns: i8, x: i8) -> Option<(PiecePos, bool)> {
        let shifts = x - start.x;
        let ticks = turns.unsigned_abs().max(shifts.unsigned_abs());
        let mut pos = start;
        if ticks == 0 {
            let shape = &shapes[usize::from(pos.orientation)];
            if !self.fits(shape, pos.x, pos.y + 1) {
                return Some((pos, true));
            }
            pos.y = self.drop_from(shape, pos.x, pos.y);
            return Some((pos, false));
        }
        let count = shapes.len() as i8;
        let (turn, shift) = (turns.signum(), shifts.signum());
        for tick in 1..=ticks {
            if tick <= turns.unsigned_abs() {
                let orientation = (pos.orientation as i8 + turn).rem_euclid(count) as u8;
                if !self.fits(&shapes[usize::from(orientation)], pos.x, pos.y) {
                    return None;
                }
                pos.orientation = orientation;
            }
            let shape = &shapes[usize::from(pos.orientation)];
            if tick <= shifts.unsigned_abs() {
                if !self.fits(shape, pos.x + shift, pos.y) {
                    return None;
                }
                pos.x += shift;
            }
            // Resting at the end of any of these ticks locks the piece before the path
            // ends (on the last, DROP shares the tick with a turn or shift, so it is not
            // the early lock the shared enumerator accepts).
            if !self.fits(shape, pos.x, pos.y + 1) {
                return None;
            }
            if tick < ticks {
                pos.y += 1;
            } else {
                pos.y = self.drop_from(shape, pos.x, pos.y);
            }
        }
        Some((pos, false))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tetrad_plugin_api::{placements, PieceId, PieceKind, PieceSet, Preset, SeededRng};

    /// A random board: a ragged stack of random height with random holes, sometimes
    /// reaching the top rows, where paths get blocked and pieces lock early.
    fn random_board(rng: &mut SeededRng, width: usize, height: usize) -> Board {
        let mut board = Board::new(width, height);
        let top = rng.below(height as u32 + 1) as usize;
        for y in (height - top)..height {
            for x in 0..width {
                if rng.below(100) < 62 {
                    board.fill(x, y);
                }
            }
        }
        board.clear_full_rows();
        board
    }

    /// Pentominoes with gaps in a column (U), full symmetry (X), none (F), and length 5.
    fn pentominoes() -> PieceSet {
        PieceSet::new(vec![
            PieceKind::from_cells("U", &[(0, 0), (2, 0), (0, 1), (1, 1), (2, 1)]),
            PieceKind::from_cells("X", &[(1, 0), (0, 1), (1, 1), (2, 1), (1, 2)]),
            PieceKind::from_cells("F", &[(1, 0), (2, 0), (0, 1), (1, 1), (1, 2)]),
            PieceKind::from_cells("I5", &[(0, 0), (1, 0), (2, 0), (3, 0), (4, 0)]),
        ])
    }

    #[test]
    fn matches_the_shared_placements_on_random_boards() {
        for set in [PieceSet::tetrominoes(), pentominoes()] {
            matches_on_random_boards(&set);
        }
    }

    fn matches_on_random_boards(set: &PieceSet) {
        let mut rng = SeededRng::new(7);
        let mut enumerator = Enumerator::new(set);
        let mut out = Vec::new();
        for (width, height) in [(10, 20), (6, 9), (12, 14)] {
            let rules = Rules {
                width,
                height,
                ..Rules::preset(Preset::Classic)
            };
            for _ in 0..200 {
                let board = random_board(&mut rng, width, height);
                for (id, kind) in set.ids().zip(set.kinds()) {
                    let mut start = rules.spawn(kind);
                    // Sometimes start lower, turned, or off centre, as a piece in flight.
                    if rng.below(3) == 0 {
                        start.orientation = rng.below(kind.orientations().len() as u32) as u8;
                        start.x += rng.below(3) as i8 - 1;
                        start.y += rng.below(4) as i8;
                        if !board.fits(kind.orientation(start.orientation), start.x, start.y) {
                            continue;
                        }
                    }
                    let expected = placements(&rules, &board, kind, start);
                    enumerator.placements(&rules, &board, id, start, true, &mut out);
                    assert_eq!(out, expected, "{board:?} {} from {start:?}", kind.name());
                    enumerator.placements(&rules, &board, id, start, false, &mut out);
                    let no_slides: Vec<Placement> = expected.into_iter().filter(|p| p.slide == 0).collect();
                    assert_eq!(out, no_slides);
                }
            }
        }
    }

    #[test]
    fn presets_without_gravity_use_the_shared_enumeration() {
        let set = PieceSet::tetrominoes();
        let rules = Rules::preset(Preset::Simplified);
        let board = Board::new(10, 20);
        let mut out = Vec::new();
        let kind = &set.kinds()[2];
        Enumerator::new(&set).placements(&rules, &board, PieceId(2), rules.spawn(kind), true, &mut out);
        assert_eq!(out, placements(&rules, &board, kind, rules.spawn(kind)));
    }
}

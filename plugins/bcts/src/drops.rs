//! The placements of a piece under `simplified`, enumerated straight from the column tops
//! the rater already holds, with no list of placements built.
//!
//! Under `simplified` a piece turns and shifts above the board, so only the walls can
//! refuse a move and every DROP falls from open sky: which columns an orientation reaches
//! from the spawn depends on the board's width alone, and where it lands on the column
//! tops. [`Drops::new`] asks the SDK's own enumerator once, on an empty board, which
//! columns each orientation reaches; [`Reach::land`] then lands the piece in each of them.
//! A property test pins the result to the SDK's enumerator on every board, in the same
//! order, so the controller's choice (the first strict maximum) does not change.

use crate::order::Order;
use tetrad_plugin_api::{placements, Board, PieceId, PiecePos, PieceSet, Placement, Preset, Rules, MAX_PIECE_SIZE};

/// One orientation's reachable columns.
#[derive(Clone, Debug)]
pub struct Reach {
    orientation: u8,
    turns: i8,
    /// Offsets of the bounding box from the piece's position.
    left: i8,
    /// For each column of the box, the row offset of its lowest cell from the position.
    bottoms: [i8; MAX_PIECE_SIZE],
    width: usize,
    /// Positions (`x`) the orientation reaches, left to right.
    xs: Vec<i8>,
}

/// Every piece's reachable orientations and columns from its spawn under `simplified`.
#[derive(Clone, Debug)]
pub struct Drops {
    /// Per piece: where it spawns, and its orientations in enumeration order.
    pieces: Vec<(PiecePos, Vec<Reach>)>,
}

impl Drops {
    /// The drops of every piece, or `None` under a preset other than `simplified`.
    pub fn new(rules: &Rules, pieces: &PieceSet) -> Option<Drops> {
        if rules.preset != Preset::Simplified {
            return None;
        }
        let empty = Board::new(rules.width, rules.height);
        let pieces = pieces
            .kinds()
            .iter()
            .map(|kind| {
                let start = rules.spawn(kind);
                let mut reaches: Vec<Reach> = Vec::new();
                for placement in placements(rules, &empty, kind, start) {
                    let orientation = placement.pos.orientation;
                    if reaches.last().is_none_or(|r| r.orientation != orientation) {
                        let shape = kind.orientation(orientation);
                        let mut bottoms = [0; MAX_PIECE_SIZE];
                        bottoms[..shape.column_bottoms().len()].copy_from_slice(shape.column_bottoms());
                        reaches.push(Reach {
                            orientation,
                            turns: placement.turns,
                            left: shape.left(),
                            bottoms,
                            width: usize::from(shape.width()),
                            xs: Vec::new(),
                        });
                    }
                    reaches.last_mut().expect("pushed above").xs.push(placement.pos.x);
                }
                (start, reaches)
            })
            .collect();
        Some(Drops { pieces })
    }

    /// Puts each piece's orientations in `order` (the columns of each stay left to right).
    pub fn sort(&mut self, order: &Order) {
        for (index, (_, reaches)) in self.pieces.iter_mut().enumerate() {
            reaches.sort_by_key(|reach| order.rank(PieceId(index as u8), reach.orientation));
        }
    }

    /// The orientations of `piece`, in the SDK's enumeration order (or the one given to
    /// [`Drops::sort`]), when it starts at its spawn; `None` otherwise (then the caller
    /// enumerates as usual).
    #[inline]
    pub fn from(&self, piece: PieceId, start: PiecePos) -> Option<&[Reach]> {
        let (spawn, reaches) = &self.pieces[piece.index()];
        (start == *spawn).then_some(reaches.as_slice())
    }
}

impl Reach {
    /// The orientation.
    #[inline]
    pub fn orientation(&self) -> u8 {
        self.orientation
    }

    /// The positions (`x`) this orientation reaches, left to right.
    #[inline]
    pub fn xs(&self) -> &[i8] {
        &self.xs
    }

    /// The board column of the box's left edge when the piece is at position `x`.
    #[inline(always)]
    pub fn box_left(&self, x: i8) -> usize {
        (x + self.left) as usize
    }

    /// The drop at position `x` from `start` that comes to rest in row `y`.
    #[inline(always)]
    pub fn placement(&self, x: i8, y: i8, start: PiecePos) -> Placement {
        Placement {
            pos: PiecePos {
                orientation: self.orientation,
                x,
                y,
            },
            turns: self.turns,
            shifts: x - start.x,
            slide: 0,
        }
    }

    /// The placement at position `x` from `start`, on the board whose column tops `top`
    /// gives (the first filled row of a column, or the height when it is empty).
    #[inline(always)]
    pub fn land(&self, x: i8, start: PiecePos, top: impl Fn(usize) -> u32) -> Placement {
        let left = self.box_left(x);
        // The highest row the piece reaches in any of its columns.
        let mut y = i32::MAX;
        for (j, &bottom) in self.bottoms[..self.width].iter().enumerate() {
            y = y.min(top(left + j) as i32 - 1 - i32::from(bottom));
        }
        self.placement(x, y as i8, start)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::columns::Columns;
    use proptest::prelude::*;
    use tetrad_plugin_api::{placements_into, PieceKind};

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        /// On any board, any size and any piece set, the drops are the SDK's placements,
        /// in its order; sorted in MdpTetris's order, they are the SDK's placements sorted
        /// by orientation the same way.
        #[test]
        fn drops_are_the_sdk_placements_in_order(
            width in 4usize..=32,
            height in 4usize..=64,
            rows in prop::collection::vec(any::<u32>(), 64),
            stack in 0usize..=64,
            odd in any::<bool>(),
        ) {
            let rules = Rules { width, height, ..Rules::preset(Preset::Simplified) };
            let set = if odd {
                PieceSet::new(vec![
                    PieceKind::from_cells("u", &[(0, 0), (2, 0), (0, 1), (1, 1), (2, 1)]),
                    PieceKind::from_cells("long", &[(0, 0), (1, 0), (2, 0), (3, 0), (4, 0)]),
                    PieceKind::from_cells("dot", &[(0, 0)]),
                ])
            } else {
                PieceSet::tetrominoes()
            };
            let mut board = Board::new(width, height);
            for (y, &row) in rows.iter().enumerate().take(height).skip(height - stack.min(height)) {
                for x in (0..width).filter(|x| row >> x & 1 == 1) {
                    board.fill(x, y);
                }
            }
            board.clear_full_rows();
            let mut columns = Columns::empty();
            columns.rebuild(&board);
            let drops = Drops::new(&rules, &set).expect("simplified");
            // The tetrominoes in MdpTetris's order too: the SDK's placements, sorted.
            let order = Order::parse("mdptetris", &set).ok().flatten();
            let sorted = order.as_ref().map(|order| {
                let mut sorted = drops.clone();
                sorted.sort(order);
                sorted
            });
            let mut expected = Vec::new();
            for (index, kind) in set.kinds().iter().enumerate() {
                let start = rules.spawn(kind);
                placements_into(&rules, &board, kind, start, &mut expected);
                let reaches = drops.from(PieceId(index as u8), start).expect("from the spawn");
                let got: Vec<Placement> = reaches
                    .iter()
                    .flat_map(|reach| reach.xs().iter().map(|&x| reach.land(x, start, |x| columns.top(x))))
                    .collect();
                prop_assert_eq!(&got, &expected);
                if let Some(order) = &order {
                    let reaches = sorted.as_ref().expect("sorted").from(PieceId(index as u8), start).expect("from the spawn");
                    let got: Vec<Placement> = reaches
                        .iter()
                        .flat_map(|reach| reach.xs().iter().map(|&x| reach.land(x, start, |x| columns.top(x))))
                        .collect();
                    order.sort(PieceId(index as u8), &mut expected);
                    prop_assert_eq!(&got, &expected);
                }
                let moved = PiecePos { x: start.x + 1, ..start };
                prop_assert!(drops.from(PieceId(index as u8), moved).is_none());
            }
        }
    }

    #[test]
    fn only_simplified_has_drops() {
        let set = PieceSet::tetrominoes();
        for preset in [Preset::Classic, Preset::Leiden] {
            assert!(Drops::new(&Rules::preset(preset), &set).is_none());
        }
    }
}

//! TBP piece locations and tetrad's positions, each to the other.
//!
//! TBP names a piece's place by its centre, as SRS "true rotation" defines it, with rows
//! counted from the bottom: for J, L, S, T and Z the point the piece turns about (the
//! middle of its 3x3 box); for O the bottom-left mino at north, the top-left at east, the
//! top-right at south, the bottom-right at west; for I the middle-left mino at north, then
//! middle-top, middle-right and middle-bottom. tetrad names it by the top-left corner of
//! the piece's box, rows counted from the top, in the same four SRS states (O has one).
//! Both are turned into the cells the piece covers, and compared there, so a location
//! that covers no cells of that piece's shape is refused rather than guessed at.

use super::messages::{Location, Orientation};
use tetrad_plugin_api::{PieceId, PiecePos, PieceSet};

/// The cells of a piece at north around its TBP centre, x to the right and y up; `None`
/// for a name that is not one of the seven tetrominoes.
fn north_cells(piece: &str) -> Option<[(i32, i32); 4]> {
    Some(match piece {
        "I" => [(-1, 0), (0, 0), (1, 0), (2, 0)],
        "O" => [(0, 0), (1, 0), (0, 1), (1, 1)],
        "T" => [(-1, 0), (0, 0), (1, 0), (0, 1)],
        "S" => [(-1, 0), (0, 0), (0, 1), (1, 1)],
        "Z" => [(-1, 1), (0, 1), (0, 0), (1, 0)],
        "J" => [(-1, 1), (-1, 0), (0, 0), (1, 0)],
        "L" => [(1, 1), (-1, 0), (0, 0), (1, 0)],
        _ => return None,
    })
}

/// The cells around the centre at `orientation`: north's, turned clockwise about the
/// centre once per turn. (Turned so, O's and I's centres land on the minos the
/// specification names.)
fn around_centre(piece: &str, orientation: Orientation) -> Option<[(i32, i32); 4]> {
    let mut cells = north_cells(piece)?;
    for _ in 0..orientation.turns() {
        for cell in &mut cells {
            *cell = (cell.1, -cell.0);
        }
    }
    Some(cells)
}

/// How far off the board a location may lie and still be read: beyond it no piece of
/// any board fits, and the arithmetic on a bot's numbers stays far from overflow.
const REACH: u32 = 1 << 16;

/// The board cells a TBP location covers, as (column, row from the top) on a board
/// `height` rows high; `None` for an unknown piece, or a centre far off the board.
pub fn cells(location: &Location, height: usize) -> Option<[(i32, i32); 4]> {
    if location.x.unsigned_abs() > REACH || location.y.unsigned_abs() > REACH {
        return None;
    }
    let top = height as i32 - 1;
    let mut cells = around_centre(&location.piece, location.orientation)?;
    for cell in &mut cells {
        *cell = (location.x + cell.0, top - (location.y + cell.1));
    }
    Some(cells)
}

/// The corner of the smallest rectangle around `cells`.
fn least(cells: impl Iterator<Item = (i32, i32)>) -> (i32, i32) {
    cells.fold((i32::MAX, i32::MAX), |(x, y), c| (x.min(c.0), y.min(c.1)))
}

fn sorted(mut cells: Vec<(i32, i32)>) -> Vec<(i32, i32)> {
    cells.sort_unstable();
    cells
}

/// tetrad's piece and position for a TBP location on a board `height` rows high:
/// `None` when the piece is not in `pieces` (by name) or the location does not cover its
/// shape.
pub fn to_tetrad(pieces: &PieceSet, location: &Location, height: usize) -> Option<(PieceId, PiecePos)> {
    let index = pieces.kinds().iter().position(|kind| kind.name() == location.piece)?;
    let id = PieceId(u8::try_from(index).ok()?);
    let kind = pieces.kind(id);
    let covered = cells(location, height)?;
    let orientation = location.orientation.turns() % kind.orientations().len() as u8;
    let shape = kind.orientation(orientation).cells();
    let (shape_x, shape_y) = least(shape.iter().map(|&(x, y)| (i32::from(x), i32::from(y))));
    let (board_x, board_y) = least(covered.iter().copied());
    let (x, y) = (board_x - shape_x, board_y - shape_y);
    let placed = shape.iter().map(|&(dx, dy)| (x + i32::from(dx), y + i32::from(dy)));
    if sorted(placed.collect()) != sorted(covered.to_vec()) {
        return None;
    }
    Some((
        id,
        PiecePos {
            orientation,
            x: i8::try_from(x).ok()?,
            y: i8::try_from(y).ok()?,
        },
    ))
}

/// The TBP location of tetrad's piece `id` at `pos` on a board `height` rows high;
/// `None` for a piece TBP does not name.
pub fn to_tbp(pieces: &PieceSet, id: PieceId, pos: PiecePos, height: usize) -> Option<Location> {
    let kind = pieces.kind(id);
    let orientation = *Orientation::ALL.get(usize::from(pos.orientation))?;
    let around = around_centre(kind.name(), orientation)?;
    let top = height as i32 - 1;
    let covered = kind.orientation(pos.orientation).cells().iter().map(|&(dx, dy)| {
        (
            i32::from(pos.x) + i32::from(dx),
            top - (i32::from(pos.y) + i32::from(dy)),
        )
    });
    let (board_x, board_y) = least(covered);
    let (around_x, around_y) = least(around.iter().copied());
    Some(Location {
        piece: kind.name().to_string(),
        orientation,
        x: board_x - around_x,
        y: board_y - around_y,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Game;
    use std::sync::Arc;
    use tetrad_plugin_api::{Board, Preset, Rules};

    const HEIGHT: usize = 40;

    fn at(piece: &str, orientation: Orientation, x: i32, y: i32) -> Location {
        Location {
            piece: piece.to_string(),
            orientation,
            x,
            y,
        }
    }

    /// The cells of a location, y counted up from the bottom as the specification draws.
    fn up(location: &Location) -> Vec<(i32, i32)> {
        let top = HEIGHT as i32 - 1;
        sorted(
            cells(location, HEIGHT)
                .unwrap()
                .iter()
                .map(|&(x, y)| (x, top - y))
                .collect(),
        )
    }

    #[test]
    fn o_and_i_centres_are_the_minos_the_specification_names() {
        use Orientation::*;
        let square = vec![(4, 0), (4, 1), (5, 0), (5, 1)];
        // North: bottom-left; east: top-left; south: top-right; west: bottom-right.
        assert_eq!(up(&at("O", North, 4, 0)), square);
        assert_eq!(up(&at("O", East, 4, 1)), square);
        assert_eq!(up(&at("O", South, 5, 1)), square);
        assert_eq!(up(&at("O", West, 5, 0)), square);
        // North: middle-left; east: middle-top; south: middle-right; west: middle-bottom.
        assert_eq!(up(&at("I", North, 4, 0)), vec![(3, 0), (4, 0), (5, 0), (6, 0)]);
        assert_eq!(up(&at("I", East, 4, 2)), vec![(4, 0), (4, 1), (4, 2), (4, 3)]);
        assert_eq!(up(&at("I", South, 5, 0)), vec![(3, 0), (4, 0), (5, 0), (6, 0)]);
        assert_eq!(up(&at("I", West, 4, 1)), vec![(4, 0), (4, 1), (4, 2), (4, 3)]);
        // The others turn about their centre: a T pointing down in a slot at the bottom.
        assert_eq!(up(&at("T", South, 4, 1)), vec![(3, 1), (4, 0), (4, 1), (5, 1)]);
        assert_eq!(up(&at("S", North, 1, 0)), vec![(0, 0), (1, 0), (1, 1), (2, 1)]);
        assert_eq!(up(&at("Z", West, 9, 1)), vec![(8, 0), (8, 1), (9, 1), (9, 2)]);
        assert_eq!(up(&at("J", East, 0, 1)), vec![(0, 0), (0, 1), (0, 2), (1, 2)]);
        assert_eq!(up(&at("L", North, 8, 0)), vec![(7, 0), (8, 0), (9, 0), (9, 1)]);
    }

    #[test]
    fn every_position_of_every_piece_goes_there_and_back() {
        let pieces = PieceSet::srs();
        for (index, kind) in pieces.kinds().iter().enumerate() {
            let id = PieceId(index as u8);
            for orientation in 0..kind.orientations().len() as u8 {
                for x in -2..10 {
                    for y in -2..40 {
                        let pos = PiecePos { orientation, x, y };
                        let location = to_tbp(&pieces, id, pos, HEIGHT).unwrap();
                        assert_eq!(to_tetrad(&pieces, &location, HEIGHT), Some((id, pos)), "{location:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn every_orientation_o_names_is_the_one_state_tetrad_has() {
        let pieces = PieceSet::srs();
        let o = PieceId(1);
        let north = to_tetrad(&pieces, &at("O", Orientation::North, 4, 0), HEIGHT).unwrap();
        assert_eq!(north.0, o);
        for (orientation, x, y) in [
            (Orientation::East, 4, 1),
            (Orientation::South, 5, 1),
            (Orientation::West, 5, 0),
        ] {
            assert_eq!(to_tetrad(&pieces, &at("O", orientation, x, y), HEIGHT), Some(north));
        }
    }

    #[test]
    fn pieces_spawn_at_the_column_the_specification_says() {
        // The specification: pieces spawn at north, x = 4, "roughly" y = 19. tetrad's
        // guideline spawn, in the two buffer rows over the field, is y = 20 by the centre
        // of J, L, S, T, Z and the I's and O's named minos (the I's row is the lower of
        // the two).
        let rules = Rules::preset(Preset::Guideline);
        let pieces = PieceSet::srs();
        for (index, kind) in pieces.kinds().iter().enumerate() {
            let location = to_tbp(&pieces, PieceId(index as u8), rules.spawn(kind), rules.height).unwrap();
            assert_eq!(
                (location.orientation, location.x, location.y),
                (Orientation::North, 4, 20),
                "{}",
                kind.name()
            );
        }
    }

    #[test]
    fn a_location_off_the_shape_or_of_an_unknown_piece_is_refused() {
        let pieces = PieceSet::srs();
        assert_eq!(to_tetrad(&pieces, &at("X", Orientation::North, 4, 0), HEIGHT), None);
        assert_eq!(cells(&at("t", Orientation::North, 4, 0), HEIGHT), None);
        // Far off the board: the position does not fit in tetrad's coordinates, and a
        // bot's extreme numbers are refused, not overflowed.
        assert_eq!(to_tetrad(&pieces, &at("T", Orientation::North, 4000, 0), HEIGHT), None);
        for (x, y) in [(i32::MAX, 0), (0, i32::MIN), (i32::MIN, i32::MAX)] {
            assert_eq!(to_tetrad(&pieces, &at("I", Orientation::East, x, y), HEIGHT), None);
        }
    }

    /// Where the falling piece is in TBP's terms: its SRS centre, y counted from the bottom.
    fn tbp_location(g: &Game) -> (String, i32, i32) {
        let falling = g.current().unwrap();
        let at = to_tbp(g.pieces(), falling.piece, falling.pos, g.rules().height).unwrap();
        (at.piece.to_string(), at.x, at.y)
    }

    #[test]
    fn a_guideline_piece_enters_at_tbp_y_19_or_at_its_spawn_when_row_19_is_blocked() {
        // The guideline spawns in rows 21 and 22 (TBP y 20 and 21) and drops one row at once
        // when nothing blocks it: every piece on a free board is at TBP x=4, y=19, where TBP's
        // default and Cold Clear 2's move generator put it.
        let rules = Rules::preset(Preset::Guideline);
        let srs = || Arc::new(PieceSet::srs());
        let mut g = Game::with_board(rules, srs(), 1, None);
        for kind in ["T", "S", "Z", "J", "L", "I", "O"] {
            let id = PieceId(g.pieces().kinds().iter().position(|k| k.name() == kind).unwrap() as u8);
            g.set_current(id);
            assert_eq!(tbp_location(&g), (kind.to_string(), 4, 19), "{kind}");
        }
        let t = PieceId(g.pieces().kinds().iter().position(|k| k.name() == "T").unwrap() as u8);
        // A cell in TBP row 19 (the field's top row, tetrad's row 20) under the T: it stays
        // where it spawned, at y=20, and still plays.
        let mut blocked = Board::new(rules.width, rules.height);
        blocked.fill(4, 20);
        let mut g = Game::with_board(rules, srs(), 1, Some(blocked.clone()));
        g.set_current(t);
        assert_eq!(tbp_location(&g), ("T".to_string(), 4, 20));
        assert!(!g.is_over());
        // Beside the piece's columns, that cell does not stop the drop.
        let mut beside = Board::new(rules.width, rules.height);
        beside.fill(7, 20);
        let mut g = Game::with_board(rules, srs(), 1, Some(beside));
        g.set_current(t);
        assert_eq!(tbp_location(&g), ("T".to_string(), 4, 19));
        // A cell where the piece spawns (row 21, tetrad's row 19) is a block out.
        let mut over = blocked;
        over.fill(4, 19);
        let g = Game::with_board(rules, srs(), 1, Some(over));
        assert!(g.is_over() && g.current().is_none(), "block out");
    }
}

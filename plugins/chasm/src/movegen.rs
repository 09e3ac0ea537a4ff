//! `create_list`: every rotation, moved to the far left, then k columns right for each k,
//! then dropped straight down. Duplicates are kept, as in the seed.

use tetrad_plugin_api::{Board, PieceKind, PiecePos};

/// A placement in the move list: where the block rests, and how many clockwise turns from
/// the piece's orientation when the list was made lead to it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Block {
    /// Clockwise quarter turns, 0 to 3 (the seed's "rotation").
    pub rotation: u8,
    /// The resting position: orientation, x-offset and y-offset.
    pub pos: PiecePos,
}

/// Fills `list` (cleared first) with the seed's move list for a piece of `kind` at
/// `start` on `field`.
///
/// For each of the four rotations (clockwise turns 0 to 3, so a piece with fewer distinct
/// orientations repeats them) the turned piece is taken where it is; a rotation that does
/// not fit there is skipped. It is moved left while it fits (the far left), and for
/// k = 0 .. width - 1 it is moved k more columns right, stopping where a move no longer
/// fits, then dropped until it collides. Each rotation thus gives `width` entries, the
/// same resting place repeated once the far right is reached.
pub fn create_list(list: &mut Vec<Block>, field: &Board, kind: &PieceKind, start: PiecePos) {
    list.clear();
    let mut orientation = start.orientation;
    for rotation in 0..4u8 {
        if rotation > 0 {
            orientation = kind.turned(orientation, 1);
        }
        let shape = kind.orientation(orientation);
        let y = start.y;
        if !field.fits(shape, start.x, y) {
            continue;
        }
        let mut far_left = start.x;
        while field.fits(shape, far_left - 1, y) {
            far_left -= 1;
        }
        let mut far_right = far_left;
        while field.fits(shape, far_right + 1, y) {
            far_right += 1;
        }
        for k in 0..field.width() as i8 {
            let x = (far_left + k).min(far_right);
            list.push(Block {
                rotation,
                pos: PiecePos {
                    orientation,
                    x,
                    y: field.drop_row(shape, x, y),
                },
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tetrad_plugin_api::{PieceId, PieceSet, Rules};

    #[test]
    fn four_rotations_of_width_entries_each_duplicates_included() {
        let set = PieceSet::tetrominoes();
        let rules = Rules::default();
        let field = Board::new(10, 20);
        let mut list = Vec::new();
        // O: one orientation, listed four times; 9 columns, the last repeated twice.
        let o = set.kind(PieceId(1));
        create_list(&mut list, &field, o, rules.spawn(o));
        assert_eq!(list.len(), 40);
        let xs: Vec<i8> = list[..10].iter().map(|b| b.pos.x).collect();
        assert_eq!(xs, vec![0, 1, 2, 3, 4, 5, 6, 7, 8, 8]);
        assert!(list.iter().all(|b| b.pos.orientation == 0 && b.pos.y == 18));
        assert_eq!(list[10].rotation, 1);
        // I: flat, then upright (its squares in the third column of its box, so the box
        // goes from x = -2 to x = 7), then flat and upright again.
        let i = set.kind(PieceId(0));
        create_list(&mut list, &field, i, rules.spawn(i));
        let upright: Vec<i8> = list[10..20].iter().map(|b| b.pos.x).collect();
        assert_eq!(upright, vec![-2, -1, 0, 1, 2, 3, 4, 5, 6, 7]);
        assert_eq!(list[20].pos, list[0].pos);
        assert_eq!(list[30].pos, list[10].pos);
    }

    #[test]
    fn no_slides_the_drop_stops_on_an_overhang() {
        // Columns 5-10 overhang two empty rows: an O dropped in columns 4-5 stops on the
        // overhang; nothing tucks under it.
        let set = PieceSet::tetrominoes();
        let rules = Rules::default();
        let field = Board::from_text(10, 20, "....######\n..........\n..........");
        let o = set.kind(PieceId(1));
        let mut list = Vec::new();
        create_list(&mut list, &field, o, rules.spawn(o));
        assert_eq!(
            list[3].pos,
            PiecePos {
                orientation: 0,
                x: 3,
                y: 15
            }
        );
        assert!(list.iter().all(|b| b.pos.x < 4 || b.pos.y == 15));
    }

    #[test]
    fn shifts_stop_at_a_wall_of_squares_the_piece_cannot_pass() {
        // A column 3 filled up to the top row: from the spawn (columns 4-5) an O cannot
        // reach the left, so its far left is x = 4.
        let set = PieceSet::tetrominoes();
        let rules = Rules::default();
        let mut field = Board::new(10, 20);
        for y in 0..20 {
            field.fill(3, y);
        }
        let o = set.kind(PieceId(1));
        let mut list = Vec::new();
        create_list(&mut list, &field, o, rules.spawn(o));
        let xs: Vec<i8> = list[..10].iter().map(|b| b.pos.x).collect();
        assert_eq!(xs, vec![4, 5, 6, 7, 8, 8, 8, 8, 8, 8]);
    }
}

//! The T-spin, by the guideline's three-corner rule: what the host scores when a T locks,
//! shared so that a plugin rating a placement rates it as the host will score it.

use super::board::{Board, PiecePos};

/// A T-spin, by the guideline's three-corner rule.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Spin {
    /// Not a spin.
    #[default]
    None,
    /// A T-spin mini: three corners filled, but not both in front of the T's flat side.
    Mini,
    /// A T-spin: both front corners and one back corner filled, or a mini whose last
    /// turn took the fifth kick.
    Full,
}

/// Which corners of a T's 3x3 box count as its front, by orientation: the two beside
/// the point (the T's flat side faces away from them), as (dx, dy) in the box.
const FRONT: [[(i8, i8); 2]; 4] = [
    [(0, 0), (2, 0)], // pointing up
    [(2, 0), (2, 2)], // pointing right
    [(0, 2), (2, 2)], // pointing down
    [(0, 0), (0, 2)], // pointing left
];

/// Whether a T locking at `pos` on `board` (before it locks) is a T-spin: its last
/// movement was a turn (with kick `last_kick`), and three of the four corners of its box
/// are filled or outside the board. Full if both front corners are, or if the turn took
/// the fifth kick (the one that makes a T-spin triple); a mini otherwise.
pub fn t_spin(board: &Board, pos: PiecePos, last_kick: Option<u8>) -> Spin {
    let Some(kick) = last_kick else {
        return Spin::None;
    };
    let filled = |(dx, dy): (i8, i8)| {
        let (x, y) = (i32::from(pos.x + dx), i32::from(pos.y + dy));
        let outside = x < 0 || y < 0 || x >= board.width() as i32 || y >= board.height() as i32;
        outside || board.filled(x as usize, y as usize)
    };
    let corners = [(0, 0), (2, 0), (0, 2), (2, 2)]
        .into_iter()
        .filter(|&c| filled(c))
        .count();
    if corners < 3 {
        return Spin::None;
    }
    let front = FRONT[usize::from(pos.orientation % 4)];
    if front.into_iter().all(filled) || kick == 4 {
        Spin::Full
    } else {
        Spin::Mini
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t_at(orientation: u8, x: i8, y: i8) -> PiecePos {
        PiecePos { orientation, x, y }
    }

    #[test]
    fn three_corners_make_a_spin_and_the_front_two_make_it_full() {
        // A T pointing down into a slot: its box's bottom corners are filled (front),
        // and one top corner: a full T-spin. Without the turn, no spin at all.
        let board = Board::from_text(10, 6, "....#.....\n####...###\n#####.####");
        let pos = t_at(2, 4, 3);
        assert_eq!(t_spin(&board, pos, Some(0)), Spin::Full);
        assert_eq!(t_spin(&board, pos, None), Spin::None);
        // Only two corners: not a spin.
        let open = Board::from_text(10, 6, "..........\n####...###\n#####.####");
        assert_eq!(t_spin(&open, pos, Some(0)), Spin::None);
        // Pointing up with the back corners filled and one front one: a mini, and a
        // full spin when the turn took the fifth kick.
        let mini = Board::from_text(10, 6, "....#.....\n..........\n#####.####");
        let up = t_at(0, 4, 3);
        assert_eq!(t_spin(&mini, up, Some(1)), Spin::Mini);
        assert_eq!(t_spin(&mini, up, Some(4)), Spin::Full);
        // The floor and the walls count as filled.
        let wall = Board::from_text(10, 4, "..........\n..........\n.#........");
        assert_eq!(t_spin(&wall, t_at(1, -1, 1), Some(2)), Spin::Mini);
    }
}

//! The board's own tests: drawing, rising rows, copies, clears and drops.

use super::*;
use crate::model::piece::{PieceId, PieceSet};

#[test]
fn rising_rows_push_the_stack_up_with_one_hole_each() {
    let mut board = Board::from_text(4, 4, ".#..\n##.#");
    assert!(board.rise(1, 2));
    assert_eq!(board.rows(), &[0, 0b0010, 0b1011, 0b1011]);
    assert_eq!(board.surface(), 1);
    // Two more push column 1's top cell off the board.
    assert!(!board.rise(2, 0));
    assert_eq!(board.rows(), &[0b1011, 0b1011, 0b1110, 0b1110]);
    assert_eq!(board.surface(), 0);
    // A hole beyond the width leaves the row full; no rows, no change.
    let mut empty = Board::new(3, 2);
    assert!(empty.rise(0, 1));
    assert_eq!(empty.surface(), 2);
    assert!(empty.rise(1, 7));
    assert_eq!(empty.rows(), &[0, 0b111]);
}

#[test]
fn drawing_round_trips_and_counts_holes() {
    let board = Board::from_text(
        4,
        4,
        "
        .#..
        ##.#
        #..#
        ",
    );
    assert_eq!(board.rows(), &[0, 0b0010, 0b1011, 0b1001]);
    assert_eq!(board.column_heights(), vec![2, 3, 0, 2]);
    // Only column 1 has an empty cell under its top.
    assert_eq!(board.holes(), 1);
    assert_eq!(board.filled_count(), 6);
}

#[test]
fn set_rows_matches_from_rows_whether_or_not_the_rows_changed() {
    let mut board = Board::new(4, 5);
    for rows in [
        &[0, 0, 0b0001, 0b1011][..],
        &[0, 0, 0b0001, 0b1011],
        &[0, 0b1_0000, 0b0001, 0b1011, 0b0110],
        &[0, 0b1_0000, 0b0001, 0b1011, 0b0110],
        &[0, 0b0100],
        &[],
    ] {
        board.set_rows(rows);
        let expected = Board::from_rows(4, 5, rows);
        assert_eq!(board, expected, "{rows:?}");
        assert_eq!(board.surface(), expected.surface(), "{rows:?}");
    }
}

proptest::proptest! {
    /// Refreshing a board in place, from any earlier board, gives the board read
    /// afresh: the same rows and the same surface, bits beyond the width dropped.
    #[test]
    fn set_rows_reads_any_rows_as_from_rows_does(
        width in 1usize..=32,
        height in 1usize..=64,
        before in proptest::collection::vec(proptest::prelude::any::<u32>(), 0..=66),
        after in proptest::collection::vec(proptest::prop_oneof![
            proptest::strategy::Just(0u32),
            proptest::prelude::any::<u32>(),
        ], 0..=66),
    ) {
        let mut board = Board::from_rows(width, height, &before);
        board.set_rows(&after);
        let expected = Board::from_rows(width, height, &after);
        proptest::prop_assert_eq!(&board, &expected);
        let first_filled = board.rows().iter().position(|&r| r != 0).unwrap_or(board.height());
        proptest::prop_assert_eq!(board.surface(), first_filled);
    }
}

proptest::proptest! {
    #[test]
    fn clearing_removes_exactly_the_full_rows(
        rows in proptest::collection::vec(proptest::prop_oneof![
            proptest::strategy::Just(0u32),
            proptest::strategy::Just(0b11111u32),
            0u32..32,
        ], 0..8),
    ) {
        let mut board = Board::from_rows(5, 8, &rows);
        let kept: Vec<u32> = board.rows().iter().copied().filter(|&r| r != 0b11111).collect();
        let cleared = board.clear_full_rows();
        let mut expected = vec![0; 8 - kept.len()];
        expected.extend(kept);
        proptest::prop_assert_eq!(board.rows(), &expected[..]);
        proptest::prop_assert_eq!(cleared as usize, rows.iter().filter(|&&r| r == 0b11111).count());
        let surface = expected.iter().position(|&r| r != 0).unwrap_or(8);
        proptest::prop_assert_eq!(board.surface(), surface);
    }
}

#[test]
fn clearing_keeps_order_of_remaining_rows() {
    let mut board = Board::from_text(
        4,
        5,
        "
        #...
        ####
        .#..
        ####
        ..#.
        ",
    );
    assert_eq!(board.clear_full_rows(), 2);
    assert_eq!(board.rows(), &[0, 0, 0b0001, 0b0010, 0b0100]);
}

#[test]
fn vertical_i_drops_to_the_floor_and_stops_on_the_stack() {
    let set = PieceSet::tetrominoes();
    let vertical = set.kind(PieceId(0)).orientation(1);
    let board = Board::from_text(6, 8, "..#...\n..#...");
    // Box x = 0 puts the cells in column 2, which is filled in the bottom two rows.
    assert_eq!(board.drop_row(vertical, 0, -2), 2);
    assert_eq!(board.drop_row(vertical, 1, -2), 4);
    assert!(!board.fits(vertical, -3, 0));
    assert!(board.fits(vertical, -2, 0));
    assert!(board.fits(vertical, 0, -3), "the sky above row 0 is open");
}

proptest::proptest! {
    /// On a board with no full row, locking a piece with only its rows looked at for full
    /// ones gives the board and the lock that looking at every row gives.
    #[test]
    fn locking_on_a_clear_board_looks_at_the_pieces_rows_alone(
        rows in proptest::collection::vec(proptest::prop_oneof![
            proptest::strategy::Just(0u32),
            proptest::strategy::Just(0b11_1110_1111u32),
            proptest::strategy::Just(0b01_1111_1111u32),
            0u32..1024,
        ], 0..12),
        kind in 0usize..7,
        orientation in 0u8..4,
        x in -2i8..10,
    ) {
        let full = 0b11_1111_1111u32;
        let rows: Vec<u32> = rows.into_iter().map(|r| if r == full { r & !1 } else { r }).collect();
        let set = PieceSet::tetrominoes();
        let kind = set.kind(PieceId(kind as u8));
        let shape = kind.orientation(orientation % kind.orientations().len() as u8);
        let board = Board::from_rows(10, 12, &rows);
        proptest::prop_assume!(board.fits(shape, x, -2));
        let y = board.drop_row(shape, x, -2);
        let (mut everywhere, mut among) = (board.clone(), board);
        let expected = everywhere.lock(shape, x, y);
        let lock = among.lock_on_clear(shape, x, y);
        proptest::prop_assert_eq!(lock, expected);
        proptest::prop_assert_eq!(&among, &everywhere);
        proptest::prop_assert_eq!(among.surface(), everywhere.surface());
    }
}

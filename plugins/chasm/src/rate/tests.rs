//! Every term of rateBlock on fields drawn by hand; each comment works the value out.
//! Fields are 10 x 6, so heights run from 1 (row 5, the bottom) to 6 (row 0, the top).

use super::*;
use tetrad_plugin_api::{PieceId, PiecePos, PieceSet};

const I: PieceId = PieceId(0);
const T: PieceId = PieceId(2);

fn block(orientation: u8, x: i8, y: i8) -> Block {
    Block {
        rotation: orientation,
        pos: PiecePos { orientation, x, y },
    }
}

/// A vertical I with its squares in column `column` from row `top` down.
fn upright_i(column: i8, top: i8) -> Block {
    // The upright I's squares are in the third column of its 4 x 4 box, from its top row.
    block(1, column - 2, top)
}

#[test]
fn a_hole_under_the_block_its_heights_and_a_chasm_it_makes() {
    // Before:                 After a flat T dropped at x = 0 (squares marked T):
    //   row 3 ..........        row 3 .T........   height 3 (highest)
    //   row 4 ..........        row 4 TTT.......   height 2 (lowest)
    //   row 5 ##........        row 5 ##o.......   o: empty square under the block
    // holes under: (2, 5) under the T's right square -> 1 (the T's middle top square has
    //   its own square below it, not counted).
    // fills between: no square of the T had both neighbours filled before -> 0.
    // chasms: before 0; after, (0, 3) has the wall on its left and the T on its right -> 1.
    // score = -500 x 1 + 0 - 150 x 3 - 75 x 2 + 400 x (0 - 1) = -1500.
    let set = PieceSet::tetrominoes();
    let field = Board::from_text(10, 6, "##........");
    let t = block(0, 0, 3);
    let (rating, _) = measure(&field, set.kind(T), &t).unwrap();
    assert_eq!(
        rating,
        Rating {
            holes_under: 1,
            fills_between: 0,
            lines: 0,
            highest: 3,
            lowest: 2,
            chasms_before: 0,
            chasms_after: 1,
        }
    );
    assert_eq!(rate_block(&Constants::SEED, &field, set.kind(T), &t).unwrap().0, -1500);
}

#[test]
fn one_line_fills_between_and_chasms_removed() {
    //   row 2 #.#.......   An upright I dropped into column 2 fills rows 2-5. Each of its
    //   row 3 #.#.......   squares had both neighbours filled: fills between = 4.
    //   row 4 #.#.......   Row 5 completes: one line, 200.
    //   row 5 #.########   highest: row 2, height 4; lowest: row 5, height 1.
    // chasms before: (1, 2), (1, 3), (1, 4), (1, 5) -> 4 ((3, 2..4) have an empty right
    //   neighbour, (9, 2..4) an empty left one). After the line clears, rows 3-5 read
    //   "###.......": no chasm. Improvement 4.
    // score = 0 + 0 x 4 + 200 - 150 x 4 - 75 x 1 + 400 x 4 = 1125;
    // with fill = 10: 1125 + 40 = 1165.
    let set = PieceSet::tetrominoes();
    let field = Board::from_text(10, 6, "#.#.......\n#.#.......\n#.#.......\n#.########");
    let i = upright_i(1, 2);
    let (rating, after) = measure(&field, set.kind(I), &i).unwrap();
    assert_eq!(
        rating,
        Rating {
            holes_under: 0,
            fills_between: 4,
            lines: 1,
            highest: 4,
            lowest: 1,
            chasms_before: 4,
            chasms_after: 0,
        }
    );
    assert_eq!(after, Board::from_text(10, 6, "###.......\n###.......\n###......."));
    assert_eq!(Constants::SEED.score(&rating), 1125);
    let fill = Constants {
        fill: 10,
        ..Constants::SEED
    };
    assert_eq!(fill.score(&rating), 1165);
}

#[test]
fn two_lines_are_500_each_and_a_wall_counts_as_filled() {
    //   row 4 #########.   An upright I in column 10 fills rows 2-5; rows 4 and 5 clear:
    //   row 5 #########.   2 x 500 = 1000. Its squares on rows 4 and 5 had a filled left
    // neighbour and the wall on the right: fills between = 2. highest 4, lowest 1.
    // chasms before: (9, 4) and (9, 5), between column 9 and the wall -> 2; after, rows
    //   4-5 read ".........#": none.
    // score = 1000 - 150 x 4 - 75 x 1 + 400 x 2 = 1125.
    let set = PieceSet::tetrominoes();
    let field = Board::from_text(10, 6, "#########.\n#########.");
    let (rating, _) = measure(&field, set.kind(I), &upright_i(9, 2)).unwrap();
    assert_eq!(
        (
            rating.lines,
            rating.fills_between,
            rating.chasms_before,
            rating.chasms_after
        ),
        (2, 2, 2, 0)
    );
    assert_eq!(Constants::SEED.score(&rating), 1125);
}

#[test]
fn each_constant_weighs_its_own_term() {
    // holes 1, fills 2, lines 3, highest 4, lowest 5, chasms 7 -> 1:
    // -500 + 0 x 2 + 3 x 500 - 150 x 4 - 75 x 5 + 400 x 6 = 2425.
    let r = Rating {
        holes_under: 1,
        fills_between: 2,
        lines: 3,
        highest: 4,
        lowest: 5,
        chasms_before: 7,
        chasms_after: 1,
    };
    assert_eq!(Constants::SEED.score(&r), 2425);
    // One line is 200, not 500; no line is 0.
    let one = Rating {
        lines: 1,
        ..Rating::default()
    };
    assert_eq!(Constants::SEED.score(&one), 200);
    assert_eq!(Constants::SEED.score(&Rating::default()), 0);
    // More chasms after than before is a penalty.
    let worse = Rating {
        chasms_before: 1,
        chasms_after: 3,
        ..Rating::default()
    };
    assert_eq!(Constants::SEED.score(&worse), -800);
}

#[test]
fn chasms_count_empty_squares_between_filled_ones_or_walls() {
    //   row 3 .#.#......   (0, 3): wall and (1, 3) -> chasm; (2, 3): (1, 3) and (3, 3) -> chasm
    //   row 4 ##.#.#..#.   (2, 4) and (4, 4) -> chasms; (9, 4): (8, 4) and the wall -> chasm
    //   row 5 ..........   an empty row: (0, 5) has the wall but an empty right -> none
    let field = Board::from_text(10, 6, ".#.#......\n##.#.#..#.\n..........");
    assert_eq!(chasms(&field), 5);
    assert_eq!(chasms(&Board::new(10, 6)), 0);
}

#[test]
fn a_block_above_the_board_ends_the_game() {
    let set = PieceSet::tetrominoes();
    let field = Board::new(10, 6);
    assert!(measure(&field, set.kind(I), &upright_i(4, -1)).is_none());
}

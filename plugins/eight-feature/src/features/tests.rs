//! Every feature pinned on boards drawn by hand; each comment works the value out.

use super::*;
use tetrad_plugin_api::{Board, PieceId, PieceSet};

/// The counts under the default reading: heights from the floor, wall terms clipped.
fn counts(board: &Board) -> BoardCounts {
    board_counts(board.rows(), board.width()).read(Heights::FromFloor, Walls::Clipped)
}

/// The counts under `heights=floor,walls=signed`: heights from the floor, wall terms as
/// written.
fn signed(board: &Board) -> BoardCounts {
    board_counts(board.rows(), board.width()).read(Heights::FromFloor, Walls::Signed)
}

/// The counts under `heights=top,walls=signed`, the formulas' letter: row numbers, wall
/// terms as written.
fn literal(board: &Board) -> BoardCounts {
    board_counts(board.rows(), board.width()).read(Heights::FromTop, Walls::Signed)
}

#[test]
fn f1_f2_f3_are_row_numbers_of_the_piece_counted_from_the_top() {
    let set = PieceSet::tetrominoes();
    // T, flat side down (".#." over "###"), resting on the floor of a 10 x 20 board: its
    // position row is 18, so its squares are on rows 19 (one) and 20 (three) in the
    // seed's numbering. F1 = 20 (deepest), F2 = 19 (shallowest),
    // F3 = (19 + 20 + 20 + 20) / 4 = 79 / 4 = 19.75.
    let t = DepthShape::new(set.kind(PieceId(2)).orientation(0));
    assert_eq!(
        t.depths(18),
        PieceDepths {
            deepest: 20.0,
            shallowest: 19.0,
            mean: 19.75
        }
    );
    // Vertical I on the floor: position row 16, squares on rows 17..20.
    // F1 = 20, F2 = 17, F3 = (17 + 18 + 19 + 20) / 4 = 18.5.
    let i = DepthShape::new(set.kind(PieceId(0)).orientation(1));
    assert_eq!(
        i.depths(16),
        PieceDepths {
            deepest: 20.0,
            shallowest: 17.0,
            mean: 18.5
        }
    );
    // Horizontal I: its squares are in the second row of its box, so at position row -1
    // they lie on the top row: F1 = F2 = F3 = 1.
    let flat = DepthShape::new(set.kind(PieceId(0)).orientation(0));
    assert_eq!(
        flat.depths(-1),
        PieceDepths {
            deepest: 1.0,
            shallowest: 1.0,
            mean: 1.0
        }
    );
}

#[test]
fn f4_counts_holes_and_negates_them_from_width_times_height() {
    // 10 x 4 = 40 cells.
    //   row 1  ..........
    //   row 2  .#...#....
    //   row 3  ....##....   column 1: row 3 is empty under row 2 -> hole
    //   row 4  .#.#.#....   column 4: row 4 is empty under row 3 -> hole
    // Two holes; F4 = 40 - 2 = 38.
    let board = Board::from_text(10, 4, "..........\n.#...#....\n....##....\n.#.#.#....");
    let c = counts(&board);
    assert_eq!(c.holes, 2);
    let f = features(PieceDepths::default_for_test(), 0, &c, 40);
    assert_eq!(f.0[3], 38.0);
}

/// Surfaces h1..h10 = 18, 19, 21, 17, 17, 20, 21, 21, 19, 21 as row numbers from the
/// top (21 is the floor of an empty column); 3, 2, 0, 4, 4, 1, 0, 0, 2, 0 counted from
/// the floor.
fn ragged() -> Board {
    Board::from_text(
        10,
        20,
        "
        ...##.....
        #..##.....
        ##.##...#.
        ##.###..#.
        ",
    )
}

#[test]
fn f6_counts_heights_from_the_floor_so_height_against_a_wall_is_smooth_or_rewarded() {
    // Empty 10 x 20 board: every height is 0; roughness 0, F6 = 200.
    assert_eq!(counts(&Board::new(10, 20)).roughness, 0);
    // Three squares in column 1 only: h1 = 3, the others 0.
    // (h2 - h1) = 0 - 3 = -3, clipped to 0: roughness 0, F6 = 200: height against the
    // wall is smooth, as the seed says ("encourages height to accumulate against the
    // walls"). As written (walls=signed) the wall column is rewarded: -3, F6 = 203.
    let left = Board::from_text(10, 20, "#.........\n#.........\n#.........");
    assert_eq!(counts(&left).roughness, 0);
    assert_eq!(
        features(PieceDepths::default_for_test(), 0, &counts(&left), 200).0[5],
        200.0
    );
    assert_eq!(signed(&left).roughness, -3);
    // The same three squares in column 2 stand free: |h2 - h3| = 3 and (h2 - h1) = 3,
    // roughness 6, F6 = 194.
    let free = Board::from_text(10, 20, ".#........\n.#........\n.#........");
    assert_eq!(counts(&free).roughness, 6);
    // Columns 1..9 two high, column 10 empty: (h9 - h10) = 2 - 0 = 2, F6 = 198: a well
    // at the wall is roughness.
    let well = Board::from_text(10, 20, "#########.\n#########.");
    assert_eq!(counts(&well).roughness, 2);
    // The ragged board:
    //   (2-3) + |2-0| + |0-4| + |4-4| + |4-1| + |1-0| + |0-0| + |0-2| + (2-0)
    //   = -1 + 2 + 4 + 0 + 3 + 1 + 0 + 2 + 2 = 13 as written; clipped, the first term
    //   counts 0: 14, F6 = 200 - 14 = 186.
    let c = counts(&ragged());
    assert_eq!(c.roughness, 14);
    assert_eq!(features(PieceDepths::default_for_test(), 0, &c, 200).0[5], 186.0);
    assert_eq!(signed(&ragged()).roughness, 13);
}

#[test]
fn f6_under_heights_top_is_the_literal_roughness_so_a_tall_wall_column_adds_to_it() {
    // Empty 10 x 20 board: every surface is the floor, row 21; roughness 0, F6 = 200.
    let empty = Board::new(10, 20);
    assert_eq!(literal(&empty).roughness, 0);
    // Three squares in column 1 only: h1 = 18, the others 21.
    // roughness = (h2 - h1) = 21 - 18 = 3; F6 = 197. Read literally (row numbers from
    // the top), the formula counts height against the left wall as roughness.
    let left = Board::from_text(10, 20, "#.........\n#.........\n#.........");
    assert_eq!(literal(&left).roughness, 3);
    // Columns 1..9 two high (h = 19), column 10 empty (h10 = 21): only the last term is
    // non-zero, (h9 - h10) = 19 - 21 = -2, so F6 = 202: a well at the wall lowers it.
    let well = Board::from_text(10, 20, "#########.\n#########.");
    assert_eq!(literal(&well).roughness, -2);
    // The ragged board:
    //   (19-18) + |19-21| + |21-17| + |17-17| + |17-20| + |20-21| + |21-21| + |21-19| + (19-21)
    //   = 1 + 2 + 4 + 0 + 3 + 1 + 0 + 2 - 2 = 11, F6 = 200 - 11 = 189.
    let c = literal(&ragged());
    assert_eq!(c.roughness, 11);
    assert_eq!(features(PieceDepths::default_for_test(), 0, &c, 200).0[5], 189.0);
}

/// A 10 x 6 board (60 cells) with four holes in three columns:
///
/// ```text
///   row 1  ........#.
///   row 2  ...#....#.
///   row 3  ...#......   (8, 3) hole
///   row 4  #.........   (3, 4) hole
///   row 5  ...#....#.   (0, 5) hole
///   row 6  ##......#.   (3, 6) hole
/// ```
fn four_holes() -> Board {
    Board::from_text(
        10,
        6,
        "
        ........#.
        ...#....#.
        ...#......
        #.......#.
        ...#....#.
        ##......#.
        ",
    )
}

#[test]
fn f7_negates_the_squares_above_holes_counted_from_the_floor() {
    // Heights from the floor, 1 for the bottom row (6 for the top row of 6):
    // Column 1 (x 0): top square at height 3, lowest space height 4, topmost hole
    //   height 2: 4 - 2 = 2 (one square over the hole, plus one).
    // Column 4 (x 3): top square height 5, lowest space 6, topmost hole 3: 6 - 3 = 3.
    // Column 9 (x 8): top square on the top row, height 6, so its lowest space is the sky
    //   above, height 7; topmost hole height 4: 7 - 4 = 3.
    // Sum 8; F7 = 60 - 8 = 52: the more squares stacked over holes, the lower F7.
    let c = counts(&four_holes());
    assert_eq!((c.above_holes, c.holes), (8, 4));
    let f = features(PieceDepths::default_for_test(), 0, &c, 60);
    assert_eq!(f.0[6], 52.0);
    // Holes along the bottom row of a 10 x 3 board, one square over each:
    //   row 2  ###.......
    //   row 3  ..........   each column: lowest space height 3 - hole height 1 = 2.
    // Sum 6, F7 = 30 - 6 = 24.
    let row = Board::from_text(10, 3, "..........\n###.......\n..........");
    assert_eq!(counts(&row).above_holes, 6);
}

#[test]
fn f7_under_heights_top_sums_lowest_space_minus_topmost_hole_per_column_and_negates() {
    // Column 1 (x 0): surface row 4, lowest space row 3, topmost hole row 5: 3 - 5 = -2.
    // Column 4 (x 3): surface row 2, lowest space row 1, topmost hole row 4: 1 - 4 = -3.
    // Column 9 (x 8): surface row 1, so its lowest space is the sky above, row 0; topmost
    //   hole row 3: 0 - 3 = -3.
    // Sum -8; F7 = 60 - (-8) = 68. Read literally the sum is never positive, and F7
    // grows with the squares stacked over holes (see the crate comment).
    let c = literal(&four_holes());
    assert_eq!(c.above_holes, -8);
    assert_eq!(c.holes, 4);
    let f = features(PieceDepths::default_for_test(), 0, &c, 60);
    assert_eq!(f.0[3], 56.0, "F4 = 60 - 4");
    assert_eq!(f.0[6], 68.0);
}

#[test]
fn f8_counts_consecutive_spaces_beside_each_hole() {
    // Spaces are empty squares with nothing filled above them.
    // (3, row 4): left (2,4) (1,4) are spaces, (0,4) filled: 2; right (4..7, 4): 4 -> 6.
    // (3, row 6): left (2,6) space, (1,6) filled: 1; right (4..7, 6): 4 -> 5.
    // (0, row 5): left is the wall: 0; right (1,5) (2,5) spaces, (3,5) filled: 2 -> 2.
    // (8, row 3): left (7..4, 3): 4, (3,3) filled; right (9,3) then the wall: 1 -> 5.
    // F8 = 6 + 5 + 2 + 5 = 18.
    let c = counts(&four_holes());
    assert_eq!(c.spaces_beside_holes, 18);
    assert_eq!(
        literal(&four_holes()).spaces_beside_holes,
        18,
        "the same under heights=top"
    );
    // Heights from the floor h1..h10 = 3, 1, 0, 5, 0, 0, 0, 0, 6, 0:
    //   (1-3) + 1 + 5 + 5 + 0 + 0 + 0 + 6 + (6-0) = 21 with the wall terms as written;
    //   clipped (the default) the left one, -2, counts 0: 23, F6 = 60 - 23 = 37.
    assert_eq!(c.roughness, 23);
    assert_eq!(features(PieceDepths::default_for_test(), 0, &c, 60).0[5], 37.0);
    assert_eq!(signed(&four_holes()).roughness, 21);
    // Under heights=top, surfaces h1..h10 = 4, 6, 7, 2, 7, 7, 7, 7, 1, 7 (an empty column
    // is the floor, 7): (6-4) + 1 + 5 + 5 + 0 + 0 + 0 + 6 + (1-7) = 13, F6 = 47.
    assert_eq!(literal(&four_holes()).roughness, 13);
    // A hole next to a hole is not a space and ends the run.
    //   row 1  ..........
    //   row 2  ###.......
    //   row 3  ..........   holes (0..2, 3); only (2, 3) has spaces, 7 to its right.
    // F8 = 7. Under heights=top F7: each of the three columns gives (1 - 3) = -2, sum -6,
    // F7 = 30 + 6 = 36.
    let row = Board::from_text(10, 3, "..........\n###.......\n..........");
    let c = literal(&row);
    assert_eq!((c.holes, c.spaces_beside_holes, c.above_holes), (3, 7, -6));
}

#[test]
fn f6_by_default_counts_a_wall_term_only_when_positive() {
    // 10 x 6, a tall left wall column and a canyon beside it:
    //   row 1  ..........
    //   row 2  #.........
    //   row 3  #.........
    //   row 4  #.........
    //   row 5  #.########
    //   row 6  #.########
    // Heights from the floor h1..h10 = 5, 0, 2, 2, 2, 2, 2, 2, 2, 2.
    // As written: (h2 - h1) + |h2 - h3| + 0 + ... + 0 + (h9 - h10)
    //   = (0 - 5) + 2 + 0 = -3: the canyon's inner term, 2, is paid back by the wall
    //   term, and the wall's height more than pays for it (F6 = 60 + 3 = 63).
    // Clipped (the default): the negative wall term counts 0, roughness = 2, F6 = 58.
    let canyon = Board::from_text(
        10,
        6,
        "..........\n#.........\n#.........\n#.........\n#.########\n#.########",
    );
    assert_eq!(signed(&canyon).roughness, -3);
    assert_eq!(counts(&canyon).roughness, 2);
    assert_eq!(
        features(PieceDepths::default_for_test(), 0, &counts(&canyon), 60).0[5],
        58.0
    );
    // Filled, the canyon column as tall as its right neighbour, h2 = 2: as written
    // (2 - 5) + 0 = -3 again, so filling it does not change F6; clipped, 0: smoother.
    let filled = Board::from_text(
        10,
        6,
        "..........\n#.........\n#.........\n#.........\n##########\n##########",
    );
    assert_eq!(signed(&filled).roughness, -3);
    assert_eq!(counts(&filled).roughness, 0);
    // A well at the wall counts its depth either way: h1 = 0, h2..h10 = 2: (2 - 0) = 2.
    let well = Board::from_text(
        10,
        6,
        "..........\n..........\n..........\n..........\n.#########\n.#########",
    );
    assert_eq!((signed(&well).roughness, counts(&well).roughness), (2, 2));
}

#[test]
fn f5_is_the_line_count_given_and_e_is_the_weighted_sum() {
    let depths = PieceDepths {
        deepest: 20.0,
        shallowest: 19.0,
        mean: 19.75,
    };
    let c = BoardCounts {
        holes: 1,
        roughness: 4,
        walls: [0, 0],
        above_holes: -2,
        spaces_beside_holes: 3,
    };
    let f = features(depths, 2, &c, 200);
    assert_eq!(f.0, [20.0, 19.0, 19.75, 199.0, 2.0, 196.0, 202.0, 3.0]);
    // E with w = (1, 2, 4, 1, 10, 1, -1, 0.5):
    //   20 + 38 + 79 + 199 + 20 + 196 - 202 + 1.5 = 351.5
    let w = Weights([1.0, 2.0, 4.0, 1.0, 10.0, 1.0, -1.0, 0.5]);
    assert_eq!(w.evaluate(&f), 351.5);
}

impl PieceDepths {
    fn default_for_test() -> PieceDepths {
        PieceDepths {
            deepest: 0.0,
            shallowest: 0.0,
            mean: 0.0,
        }
    }
}

/// The definitions of seed 001 written square by square, slowly and plainly, with
/// "height" read as `heights` says: row numbers 1 at the top (`h + 1` for an empty
/// column's floor, 0 for the sky) or counted from the floor (0 and `h + 1`); the wall
/// terms of the roughness as written or, under `Walls::Clipped`, 0 when negative.
fn reference(board: &Board, heights: Heights, walls: Walls) -> BoardCounts {
    let (w, h) = (board.width(), board.height());
    let number = |y: usize| match heights {
        Heights::FromTop => y as i32 + 1,
        Heights::FromFloor => (h - y) as i32,
    };
    let (floor, sky) = match heights {
        Heights::FromTop => (h as i32 + 1, 0),
        Heights::FromFloor => (0, h as i32 + 1),
    };
    let filled = |x: usize, y: usize| board.filled(x, y);
    let hole = |x: usize, y: usize| !filled(x, y) && (0..y).any(|above| filled(x, above));
    let space = |x: usize, y: usize| !filled(x, y) && !hole(x, y);
    let mut counts = BoardCounts::default();
    let surface: Vec<i32> = (0..w)
        .map(|x| (0..h).find(|&y| filled(x, y)).map_or(floor, number))
        .collect();
    for x in 0..w {
        if let Some(first) = (0..h).find(|&y| hole(x, y)) {
            let lowest_space = (0..h).rev().find(|&y| space(x, y)).map_or(sky, number);
            counts.above_holes += lowest_space - number(first);
        }
        for y in 0..h {
            if !hole(x, y) {
                continue;
            }
            counts.holes += 1;
            let left = (0..x).rev().take_while(|&l| space(l, y)).count();
            let right = (x + 1..w).take_while(|&r| space(r, y)).count();
            counts.spaces_beside_holes += (left + right) as u32;
        }
    }
    counts.walls = [surface[1] - surface[0], surface[w - 2] - surface[w - 1]];
    if walls == Walls::Clipped {
        counts.walls = counts.walls.map(|term| term.max(0));
    }
    counts.roughness = counts.walls[0] + counts.walls[1];
    for i in 1..w - 2 {
        counts.roughness += (surface[i] - surface[i + 1]).abs();
    }
    counts
}

#[test]
fn one_pass_counts_match_the_plain_definitions_on_random_boards() {
    let mut rng = tetrad_plugin_api::SeededRng::new(99);
    for (w, h) in [(10, 20), (4, 6), (13, 9), (32, 12)] {
        for _ in 0..500 {
            let mut board = Board::new(w, h);
            let fill = rng.below(80);
            let top = rng.below(h as u32 + 1) as usize;
            for y in (h - top)..h {
                for x in 0..w {
                    if rng.below(100) < fill {
                        board.fill(x, y);
                    }
                }
            }
            for heights in [Heights::FromTop, Heights::FromFloor] {
                for walls in [Walls::Signed, Walls::Clipped] {
                    let read = board_counts(board.rows(), board.width()).read(heights, walls);
                    assert_eq!(
                        read,
                        reference(&board, heights, walls),
                        "{board:?} {heights:?} {walls:?}"
                    );
                }
            }
        }
    }
}

//! Each term of the evaluation pinned on boards drawn by hand.

use super::*;

/// A 10x8 board drawn from its top row down, every row visible.
fn drawn(text: &str) -> Board {
    let lines: Vec<&str> = text.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
    let mut rows = vec![".........."; 8 - lines.len()];
    rows.extend(lines);
    Board::from_text(10, 8, &rows.join("\n"))
}

fn shape(text: &str) -> Shape {
    Shape::of(&drawn(text), 8)
}

#[test]
fn an_empty_board_has_only_the_walls_transitions() {
    // Each empty row: wall to empty and empty to wall.
    let empty = Shape::of(&Board::new(10, 8), 8);
    assert_eq!(
        empty,
        Shape {
            row_transitions: 16,
            ..Shape::default()
        }
    );
}

#[test]
fn the_highest_column_and_the_top_of_the_field() {
    // Column 0 is 7 high, column 1 is 5 high; visible 8 rows: half is 4, three quarters 6.
    let s = shape(
        "
        #.........
        #.........
        ##........
        ##........
        ##........
        ##........
        ##########",
    );
    assert_eq!(s.height, 7);
    assert_eq!(s.top_half, 7 - 4, "the highest column only");
    assert_eq!(s.top_quarter, 7 - 6);
    assert_eq!(s.holes, 0);
}

#[test]
fn holes_and_how_deep_they_are_covered() {
    // Column 2 (6 high): holes 2 and 4 rows below its top; column 6 (2 high): one hole
    // under one cell; column 9: a hole under eight? no, under one cell at the floor.
    let s = shape(
        "
        ..#.......
        ..#..#....
        .....#....
        #.#######.
        ##.###.##.",
    );
    // Column 2: heights 5, holes at rows 0 and 2 from the floor; column 6: hole at row 0.
    assert_eq!(s.holes, 3);
    // Rows from each hole to its column's top, both counted: 5 - 0, 5 - 2, 2 - 0.
    assert_eq!(s.coveredness, 5 + 3 + 2);
}

#[test]
fn coveredness_counts_at_most_six_rows_a_hole() {
    let s = shape(
        "
        #.........
        #.........
        #.........
        #.........
        #.........
        #.........
        #.........
        .#########",
    );
    assert_eq!(s.holes, 1);
    assert_eq!(s.coveredness, MAX_COVER, "8 rows over it count as 6");
}

#[test]
fn row_transitions_count_changes_along_rows_with_the_walls_filled() {
    // Row `#.#.......`: wall#, #, ., #, ., then empty to the wall: changes at
    // #->. (1), .-># (2), #->. (3), .->wall (4). Row `.........#`: wall->. (1), .-># (2).
    let s = shape(
        "
        #.#.......
        .........#",
    );
    // Six empty rows above count two each.
    assert_eq!(s.row_transitions, 6 * 2 + 4 + 2);
}

#[test]
fn the_well_counts_rows_ready_for_four_lines_down_it() {
    // Column 9 is empty; up from the floor, every other column is full for three rows,
    // the fourth has a gap in column 0.
    let ready = shape(
        "
        .########.
        #########.
        #########.
        #########.",
    );
    assert_eq!(ready.well, 3);
    // Here column 0 (3 high) is the lowest: one row above it is full but for column 0.
    let blocked = shape(
        "
        .#########
        #########.
        #########.
        #########.",
    );
    assert_eq!(blocked.well, 1);
}

/// A T-spin double slot: the overhang at column 3, the stem's cell at column 4.
const TSD: &str = "
    ...#......
    ###...####
    ####.#####";

#[test]
fn a_t_spin_double_slot_is_filled_and_its_two_lines_cleared() {
    let mut board = drawn(TSD);
    assert_eq!(fill_tslot(&mut board), Some(2));
    assert_eq!(board, drawn("...#......"), "the two lines are gone");
    // Mirrored, the slot is found from the other side.
    let mirrored: String = TSD
        .lines()
        .map(|l| l.trim().chars().rev().collect::<String>() + "\n")
        .collect();
    let mut board = drawn(&mirrored);
    assert_eq!(fill_tslot(&mut board), Some(2));
}

#[test]
fn a_slot_that_would_clear_one_line_is_counted_and_left_on_the_board() {
    let single = "
        ...#......
        ###...####
        ####.####.";
    let mut board = drawn(single);
    assert_eq!(fill_tslot(&mut board), Some(1));
    let flat = "
        ..........
        ##########";
    let mut board = drawn(flat);
    assert_eq!(fill_tslot(&mut board), None, "no overhang: no slot");
    let uncovered = "
        ..........
        ###...####
        ####.#####";
    assert_eq!(
        fill_tslot(&mut drawn(uncovered)),
        None,
        "nothing over it: a drop fills it"
    );
}

#[test]
fn the_value_weighs_each_term_the_slots_and_the_state() {
    let weights = Weights::default();
    let board = drawn(TSD);
    let calm = value(&weights, &board, 8, Streak::default(), 0, 0);
    assert_eq!(calm, shape_value(&weights, &Shape::of(&board, 8)));
    // With a T to come, the slot's double is valued and the rest is the cleared board's.
    let with_t = value(&weights, &board, 8, Streak::default(), 0, 1);
    let cleared = shape_value(&weights, &Shape::of(&drawn("...#......"), 8));
    assert_eq!(with_t, weights.tslot_double + cleared);
    let hot = Streak {
        back_to_back: true,
        combo: 2,
    };
    let pressed = value(&weights, &board, 8, hot, 3, 0);
    // Three rows under a 3-high stack: 6 high, 2 over half the field, none over 6.
    let risen = 3.0 * weights.height + 2.0 * weights.top_half;
    assert!((pressed - calm - (weights.b2b + 3.0 * weights.incoming + risen)).abs() < 1e-9);
}

#[test]
fn the_shape_value_is_the_weighted_sum_of_the_terms() {
    let weights = Weights::default();
    let shape = Shape {
        height: 7,
        top_half: 3,
        top_quarter: 1,
        holes: 2,
        coveredness: 5,
        row_transitions: 20,
        well: 3,
        bumpiness: 4,
        bumpiness_sq: 6,
    };
    let expected = 7.0 * weights.height
        + 3.0 * weights.top_half
        + weights.top_quarter
        + 2.0 * weights.holes
        + 5.0 * weights.coveredness
        + 20.0 * weights.row_transitions
        + 3.0 * weights.well
        + 4.0 * weights.bumpiness
        + 6.0 * weights.bumpiness_sq;
    assert!((shape_value(&weights, &shape) - expected).abs() < 1e-9);
}

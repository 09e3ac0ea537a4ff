//! Tests of the incremental evaluator: every term on hand-drawn boards, worked by hand,
//! and agreement with a from-scratch evaluation on random boards.

use super::*;
use crate::skeleton::MoveTable;
use tetrad_plugin_api::{Board, PieceSet, SeededRng};

const I: usize = 0;
const O: usize = 1;

fn position(width: usize, height: usize, text: &str) -> (Position, Vec<u32>) {
    let board = Board::from_text(width, height, text);
    (Position::new(board.rows(), width), board.rows().to_vec())
}

#[test]
fn an_o_on_the_flat_right_scores_every_term_as_worked_by_hand() {
    // 6x8: rows 0-2 are the top rows, 3-7 the well.
    //   row 6  #.##..
    //   row 7  ##.###
    // Before: closed spaces 1 (column 2, row 7, under row 6's #). Shaft cells 1: column
    // 1's neighbours (0 and 2) are both filled at row 6, its surface is row 7 -> row 6.
    let (pos, _) = position(6, 8, "#.##..\n##.###");
    assert_eq!((pos.closed_before(), pos.shafts_before()), (1, 1));
    let table = MoveTable::new(&PieceSet::tetrominoes(), 6);
    let o = &table.kind(O).shapes[0];
    // The O in columns 4-5 lands on row 7's cells: rows 5-6. No row is full (row 6 lacks
    // column 1). Highest cell row 5: h - highestPositionMove = 8 - (8-1-5) = 6. Closed
    // spaces stay 1. Shafts: column 1 keeps its 1; column 3 (surface 6) now has column 4
    // filled at rows 5-6 but column 2 empty at row 5 -> 0. After 1.
    let out = pos.evaluate(o, 4);
    assert_eq!(
        out,
        Outcome {
            lines: 0,
            top_row: 5,
            closed: 1,
            shafts_after: 1,
            ends: false
        }
    );
    // 0 + 6 - 4 x 1 + (1 - 1) = 2.
    assert_eq!(out.score(pos.shafts_before()), 2);
}

#[test]
fn an_o_over_a_gap_covers_it_and_opens_a_shaft_at_the_wall() {
    // Same board; the O in columns 1-2 stops on column 2's row-6 cell: rows 4-5.
    // Column 1's row 6 is now covered: closed 1 + 1 = 2. Shafts: column 0 (surface 6,
    // wall on the left) has column 1 filled at rows 4-5 -> rows 4, 5: 2; column 1's old
    // shaft is gone under the O. After 2. Highest cell row 4: 8 - (8-1-4) = 5.
    let (pos, _) = position(6, 8, "#.##..\n##.###");
    let table = MoveTable::new(&PieceSet::tetrominoes(), 6);
    let out = pos.evaluate(&table.kind(O).shapes[0], 1);
    assert_eq!(
        (out.lines, out.top_row, out.closed, out.shafts_after, out.ends),
        (0, 4, 2, 2, false)
    );
    // 0 + 5 - 4 x 2 + (1 - 2) = -4.
    assert_eq!(out.score(pos.shafts_before()), -4);
}

#[test]
fn a_vertical_i_clearing_a_row_counts_its_height_before_the_clear() {
    // 4x7:
    //   row 5  #..#
    //   row 6  ##.#
    // Before: shafts 1 (column 2 is walled by columns 1 and 3 at row 6, its surface is
    // the floor -> row 6), closed 0.
    let (pos, _) = position(4, 7, "#..#\n##.#");
    assert_eq!((pos.closed_before(), pos.shafts_before()), (0, 1));
    let table = MoveTable::new(&PieceSet::tetrominoes(), 4);
    let vertical = &table.kind(I).shapes[1];
    // The I drops into column 2 down to the floor: rows 3-6, and row 6 is full. Highest
    // cell before the clear: row 3 -> h - highestPositionMove = 7 - 3 = 4. After the
    // clear:  row 4 ..#. / row 5 ..#. / row 6 #.##. Closed 0. Shafts: column 1 (floor)
    // is walled by columns 0 and 2 at row 6 -> 1; column 3 (surface 6, right wall) has
    // column 2 filled from row 4 -> rows 4, 5: 2. After 3.
    let out = pos.evaluate(vertical, 2);
    assert_eq!(
        (out.lines, out.top_row, out.closed, out.shafts_after, out.ends),
        (1, 3, 0, 3, false)
    );
    // 1 + 4 - 0 + (1 - 3) = 3.
    assert_eq!(out.score(pos.shafts_before()), 3);
}

#[test]
fn a_move_leaving_a_cell_in_row_two_ends_the_game() {
    // 4x7 with column 0 filled up to row 3, the top well row. An O in columns 0-1 stops
    // at rows 1-2: row 2 holds a cell, so `endofgame()` is true. In columns 2-3 it
    // lands on the floor.
    let (pos, _) = position(4, 7, "#...\n#...\n#...\n#...");
    let table = MoveTable::new(&PieceSet::tetrominoes(), 4);
    let o = &table.kind(O).shapes[0];
    assert!(pos.evaluate(o, 0).ends);
    assert_eq!(pos.evaluate(o, 0).top_row, 1);
    assert!(!pos.evaluate(o, 2).ends);
}

#[test]
fn a_piece_that_cannot_fall_stays_at_the_top_as_in_letitfall() {
    // The vertical I spans rows 0-3 at its start; over a column filled at row 3 the
    // skeleton leaves it there (overlapping) and the game ends.
    let (pos, _) = position(4, 7, "#...\n#...\n#...\n#...");
    let table = MoveTable::new(&PieceSet::tetrominoes(), 4);
    let vertical = &table.kind(I).shapes[1];
    assert_eq!(pos.landing_row(vertical, 0), -1);
    let out = pos.evaluate(vertical, 0);
    assert!(out.ends);
    assert_eq!(out.top_row, 0);
}

/// The same terms from scratch: drop row by row from the top, fill, clear with the
/// shared model, and count with the reference functions.
fn reference(rows: &[u32], width: usize, shape: &Shape, column: usize) -> Outcome {
    let height = rows.len();
    let piece_rows = usize::from(shape.height);
    let mut board = Board::from_rows(width, height, rows);
    let fits =
        |y: usize| y + piece_rows <= height && (0..piece_rows).all(|i| rows[y + i] & shape.rows[i] << column == 0);
    assert!(fits(0), "the reference takes pieces that enter");
    let mut y = 0;
    while fits(y + 1) {
        y += 1;
    }
    for i in 0..piece_rows {
        for x in 0..usize::from(shape.width) {
            if shape.rows[i] >> x & 1 == 1 {
                board.fill(column + x, y + i);
            }
        }
    }
    let lines = board.clear_full_rows();
    let after = board.rows();
    Outcome {
        lines,
        top_row: y as u32,
        closed: closed_spaces(after, width),
        shafts_after: shaft_cells(after, width),
        ends: after[2] != 0,
    }
}

#[test]
fn incremental_terms_match_a_from_scratch_count_on_random_boards() {
    let set = PieceSet::tetrominoes();
    let mut rng = SeededRng::new(11);
    let mut cleared = 0;
    for _ in 0..3000 {
        let width = 4 + rng.below(17) as usize;
        let height = 5 + rng.below(11) as usize;
        let table = MoveTable::new(&set, width);
        // Random stacks of random height, with holes, the top three rows empty.
        let stack = rng.below(height as u32 - 2) as usize;
        let density = 40 + rng.below(60);
        let mut rows = vec![0u32; height];
        for row in rows.iter_mut().skip(height - stack) {
            *row = (0..width)
                .filter(|_| rng.below(100) < density)
                .fold(0, |r, x| r | 1 << x);
            if *row == full_row(width) {
                *row &= !(1 << rng.below(width as u32));
            }
        }
        let pos = Position::new(&rows, width);
        assert_eq!(pos.closed_before(), closed_spaces(&rows, width));
        assert_eq!(pos.shafts_before(), shaft_cells(&rows, width));
        let kind = table.kind(rng.below(7) as usize);
        for mv in &kind.moves {
            let shape = &kind.shapes[usize::from(mv.shape)];
            let column = usize::from(mv.column);
            if pos.landing_row(shape, column) < 0 {
                continue;
            }
            let got = pos.evaluate(shape, column);
            cleared += got.lines;
            assert_eq!(got, reference(&rows, width, shape, column), "{rows:?} w {width} {mv:?}");
            let score = got.score(pos.shafts_before());
            for floor in [i32::MIN, score - 1, score, score + 1, rng.below(40) as i32 - 30] {
                let expected = (!got.ends && score > floor).then_some(score);
                assert_eq!(pos.score_above(shape, column, floor), expected, "floor {floor}");
            }
        }
    }
    assert!(cleared > 100, "the random boards exercise the clearing path");
}

//! Orientations of the tetrominoes, the SRS states and polyominoes pinned.

use super::*;

#[test]
fn tetromino_orientation_counts_match_the_demo() {
    let set = PieceSet::tetrominoes();
    let counts: Vec<(String, usize)> = set
        .kinds()
        .iter()
        .map(|k| (k.name().to_string(), k.orientations().len()))
        .collect();
    let expected = [("I", 2), ("O", 1), ("T", 4), ("S", 2), ("Z", 2), ("J", 4), ("L", 4)];
    for ((name, count), (want_name, want_count)) in counts.iter().zip(expected) {
        assert_eq!((name.as_str(), *count), (want_name, want_count));
    }
}

#[test]
fn t_turns_clockwise_to_point_right() {
    let set = PieceSet::tetrominoes();
    let t = set.kind(PieceId(2));
    // .#.      .#.
    // ###  ->  .##
    //          .#.
    assert_eq!(t.orientation(1).cells(), &[(1, 0), (1, 1), (2, 1), (1, 2)]);
    assert_eq!(t.orientation(1).row_masks(), &[0b1, 0b11, 0b1]);
    assert_eq!(t.turned(0, -1), 3);
    assert_eq!(t.turned(3, 1), 0);
}

#[test]
fn vertical_i_sits_in_the_third_column_of_its_box() {
    let set = PieceSet::tetrominoes();
    let i = set.kind(PieceId(0));
    assert_eq!(i.orientation(0).cells(), &[(0, 1), (1, 1), (2, 1), (3, 1)]);
    assert_eq!(i.orientation(1).left(), 2);
    assert_eq!((i.orientation(1).width(), i.orientation(1).height()), (1, 4));
}

#[test]
fn srs_pieces_keep_four_states_each_but_o() {
    let set = PieceSet::srs();
    let counts: Vec<usize> = set.kinds().iter().map(|k| k.orientations().len()).collect();
    assert_eq!(counts, [4, 1, 4, 4, 4, 4, 4]);
    // I's states: row 1, column 2, row 2, column 1 of its box.
    let i = set.kind(PieceId(0));
    let rows_and_columns: Vec<(i8, i8, u8, u8)> = i
        .orientations()
        .iter()
        .map(|o| (o.left(), o.top(), o.width(), o.height()))
        .collect();
    assert_eq!(
        rows_and_columns,
        [(0, 1, 4, 1), (2, 0, 1, 4), (0, 2, 4, 1), (1, 0, 1, 4)]
    );
    // S's state 2 is its spawn shape one row lower.
    let s = set.kind(PieceId(3));
    assert_eq!(s.orientation(2).cells(), &[(1, 1), (2, 1), (0, 2), (1, 2)]);
    assert!(set.is_srs() && !PieceSet::tetrominoes().is_srs());
}

#[test]
fn pentomino_orientations_are_deduplicated() {
    // The X pentomino is symmetric under every turn; the F pentomino under none.
    let x = PieceKind::from_cells("X", &[(1, 0), (0, 1), (1, 1), (2, 1), (1, 2)]);
    let f = PieceKind::from_cells("F", &[(1, 0), (2, 0), (0, 1), (1, 1), (1, 2)]);
    assert_eq!(x.orientations().len(), 1);
    assert_eq!(f.orientations().len(), 4);
}

//! The TBP player's placement legality on boards drawn by hand.

use super::covered;
use crate::plugin::tbp::location::to_tetrad;
use crate::plugin::tbp::messages::{Location, Orientation};
use tetrad_plugin_api::{reachable, Board, PieceId, PieceSet, Preset, Rules};

#[test]
fn a_place_named_in_the_other_state_of_the_same_shape_is_found_by_its_cells() {
    // A Cold Clear 2 suggestion from a real game: "Z north" with its centre at (1, 11),
    // a place only a turn reaches, into the south state (the same cells one row down).
    let rules = Rules::preset(Preset::Guideline);
    let pieces = PieceSet::srs();
    let board = Board::from_text(
        10,
        40,
        "
        ...####...
        ..#####..#
        #..####.##
        .#########
        .#########
        .#########
        .#########
        #########.
        .#########
        .#########
        .#########
        .#########
        .#########
        .#########
        ",
    );
    let z = pieces.kind(PieceId(4));
    let named = Location {
        piece: "Z".into(),
        orientation: Orientation::North,
        x: 1,
        y: 11,
    };
    let (_, pos) = to_tetrad(&pieces, &named, 40).unwrap();
    let found = reachable(&rules, &board, z, rules.spawn(z));
    assert!(found.iter().all(|r| r.pos != pos), "not in the state it is named in");
    let by_cells: Vec<_> = found.iter().filter(|r| covered(z, r.pos) == covered(z, pos)).collect();
    assert!(!by_cells.is_empty(), "but in the other state of its shape");
    assert!(by_cells.iter().all(|r| r.pos.orientation == 2));
}

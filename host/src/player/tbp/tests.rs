//! The TBP player's placement legality on boards drawn by hand.

use super::{covered, legal, told_randomizer, Reach, Searched};
use crate::engine::{Falling, Game};
use crate::plugin::tbp::location::{to_tbp, to_tetrad};
use crate::plugin::tbp::messages::{Location, Move, Orientation, Spin};
use crate::plugin::tbp::messages::{MoveInfo, RandomizerKind};
use std::sync::Arc;
use tetrad_plugin_api::{reachable, Board, PieceId, PiecePos, PieceSet, Preset, Rules};

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

#[test]
fn a_move_a_bot_plans_from_y_19_is_played_as_the_piece_enters_there() {
    // Column 9 stands to row 23 with one more cell in row 20 (TBP row 19, the field's top
    // row) and a gap under it. An L turned east at TBP y=19 and shifted right tucks under
    // that cell: a bot that plans from y=19, as TBP's default and Cold Clear 2 do, finds
    // it. From tetrad's spawn one row higher (TBP y=20) the shift is blocked by the cell,
    // and no other path reaches the place: the piece must enter at y=19 for it to play.
    let rules = Rules::preset(Preset::Guideline);
    let pieces = PieceSet::srs();
    let mut board = Board::new(10, 40);
    for y in 23..40 {
        board.fill(9, y);
    }
    board.fill(9, 20);
    let l = PieceId(6);
    let kind = pieces.kind(l);
    assert_eq!(kind.name(), "L");
    let tucked = PiecePos {
        orientation: 1,
        x: 7,
        y: 20,
    };
    let location = to_tbp(&pieces, l, tucked, 40).unwrap();
    assert_eq!(
        (location.orientation, location.x, location.y),
        (Orientation::East, 8, 18)
    );
    let from_spawn = reachable(&rules, &board, kind, rules.spawn(kind));
    assert!(
        from_spawn.iter().all(|r| covered(kind, r.pos) != covered(kind, tucked)),
        "out of reach from the spawn row"
    );
    let suggested = Move {
        location,
        spin: Spin::None,
    };
    // The falling L, where the engine brought it in.
    let mut game = Game::with_board(rules, Arc::new(pieces.clone()), 1, Some(board.clone()));
    game.set_current(l);
    let current = game.current().unwrap();
    let (path, played) = legal(
        &rules,
        &pieces,
        &board,
        current,
        None,
        &suggested,
        &mut Reach::default(),
    )
    .expect("the move is legal");
    assert_eq!(covered(kind, played.pos.unwrap()), covered(kind, tucked));
    let mut locked = None;
    for &actions in &path {
        locked = game.tick(actions).locked.or(locked);
    }
    assert_eq!(
        locked.map(|l| covered(kind, l.pos)),
        Some(covered(kind, tucked)),
        "and plays"
    );
    // The L a hold brings in starts where it enters too.
    let t = Falling {
        piece: PieceId(2),
        pos: rules.enter(&board, pieces.kind(PieceId(2))),
    };
    let (held_path, _) =
        legal(&rules, &pieces, &board, t, Some(l), &suggested, &mut Reach::default()).expect("legal after a hold");
    assert_eq!(held_path[0], tetrad_plugin_api::Actions::HOLD);
    assert_eq!(&held_path[1..], &path[..], "then the same path");
}

#[test]
fn the_randomizer_told_is_the_rules_one_or_unknown_for_a_given_sequence() {
    let bag = Rules::preset(Preset::Guideline);
    let uniform = Rules {
        randomizer: tetrad_plugin_api::Randomizer::Uniform,
        ..bag
    };
    assert_eq!(told_randomizer(&bag, false), RandomizerKind::SevenBag);
    assert_eq!(told_randomizer(&uniform, false), RandomizerKind::Uniform);
    assert_eq!(told_randomizer(&bag, true), RandomizerKind::Unknown);
    assert_eq!(told_randomizer(&uniform, true), RandomizerKind::Unknown);
}

#[test]
fn move_info_means_are_over_the_moves_that_told_each_number() {
    let mut searched = Searched::default();
    assert_eq!(searched.means(), None, "no move told any");
    searched.add(MoveInfo {
        nodes: Some(100.0),
        nps: Some(1000.0),
        depth: None,
    });
    searched.add(MoveInfo {
        nodes: Some(300.0),
        nps: None,
        depth: Some(5.0),
    });
    let means = searched.means().unwrap();
    assert_eq!(means.moves, 2);
    assert_eq!(
        (means.nodes, means.nps, means.depth),
        (Some(200.0), Some(1000.0), Some(5.0))
    );
}

#[test]
fn a_spin_is_played_as_the_spin_the_bot_names() {
    // A T-spin double slot, covered at its left: the T turned in locks as a full T-spin.
    let rules = Rules::preset(Preset::Guideline);
    let pieces = PieceSet::srs();
    let board = Board::from_text(10, 40, "...#......\n###...####\n####.#####");
    let t = PieceId(2);
    let slot = PiecePos {
        orientation: 2,
        x: 3,
        y: 37,
    };
    let location = to_tbp(&pieces, t, slot, 40).unwrap();
    let mut game = Game::with_board(rules, Arc::new(pieces.clone()), 1, Some(board.clone()));
    game.set_current(t);
    let current = game.current().unwrap();
    let suggest = |spin| {
        legal(
            &rules,
            &pieces,
            &board,
            current,
            None,
            &Move {
                location: location.clone(),
                spin,
            },
            &mut Reach::default(),
        )
    };
    let (path, _) = suggest(Spin::Full).expect("the full spin is legal");
    let mut locked = None;
    for &actions in &path {
        locked = game.tick(actions).locked.or(locked);
    }
    let locked = locked.expect("it locks");
    assert_eq!((locked.lines, locked.clear.spin), (2, tetrad_plugin_api::Spin::Full));
    let err = suggest(Spin::Mini).map(|_| ()).unwrap_err();
    assert_eq!(err, "spins as a mini, but no turn ends there as one");
    assert!(
        suggest(Spin::None).is_ok(),
        "a move named without a spin is legal however it scores"
    );
}

#[test]
fn a_hold_whose_piece_cannot_enter_is_played_and_ends_the_game_as_a_block_out() {
    // Column 6 stands to row 19, the buffer row the I spawns in (columns 3 to 6): a held I
    // cannot enter, while the three-wide pieces (columns 3 to 5) still do.
    let rules = Rules::preset(Preset::Guideline);
    let pieces = PieceSet::srs();
    let id = |name: &str| PieceId((0..7).find(|&i| pieces.kind(PieceId(i)).name() == name).unwrap());
    let (i, t) = (id("I"), id("T"));
    let mut board = Board::new(10, 40);
    for y in 19..40 {
        board.fill(6, y);
    }
    // A T falls, the I in hold.
    let current = Falling {
        piece: t,
        pos: rules.enter(&board, pieces.kind(t)),
    };
    assert!(board.fits(pieces.kind(t).orientation(0), current.pos.x, current.pos.y));
    // The bot holds and names a place for the I, as if it could enter.
    let open = Board::new(10, 40);
    let somewhere = reachable(&rules, &open, pieces.kind(i), rules.enter(&open, pieces.kind(i)))[0].pos;
    let suggested = Move {
        location: to_tbp(&pieces, i, somewhere, 40).unwrap(),
        spin: Spin::None,
    };
    let (path, played) = legal(
        &rules,
        &pieces,
        &board,
        current,
        Some(i),
        &suggested,
        &mut Reach::default(),
    )
    .expect("a hold into a blocked spawn is no illegal move");
    assert_eq!(path, [tetrad_plugin_api::Actions::HOLD]);
    assert_eq!(played.pos, None);
    // As the engine plays it, the hold is the block out: the I does not fit where it enters.
    let entry = rules.enter(&board, pieces.kind(i));
    assert!(!board.fits(pieces.kind(i).orientation(entry.orientation), entry.x, entry.y));
    // A place the falling T does not reach is still refused.
    let t_nowhere = Move {
        location: to_tbp(
            &pieces,
            t,
            PiecePos {
                orientation: 0,
                x: 6,
                y: 10,
            },
            40,
        )
        .unwrap(),
        spin: Spin::None,
    };
    assert!(legal(
        &rules,
        &pieces,
        &board,
        current,
        Some(i),
        &t_nowhere,
        &mut Reach::default()
    )
    .is_err());
}

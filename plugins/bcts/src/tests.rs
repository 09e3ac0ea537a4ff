//! The controller against hand-made boards, the reference evaluation and the options.

use super::*;
use crate::surface::Surface;
use tetrad_plugin_api::{FallingPiece, PieceKind, PieceSet, Preset, Rules};

/// Surface weights of both signs, for tests of the paths that add them.
pub(crate) const SOME_SURFACE: [f64; SURFACE] = [-1.5, 3.25, -2.0, 0.5, -7.0, 11.0];

/// Dellacherie's and BCTS's weights, and BCTS's with weight on the surface features of a
/// board `width` x `rows`.
fn weight_sets(width: usize, rows: u32) -> [Weights; 3] {
    [
        Weights::new(DELLACHERIE),
        Weights::new(BCTS),
        Weights::new(BCTS).with_surface(SOME_SURFACE, width, rows),
    ]
}

fn controller(options: &str) -> Controller {
    let rules = Rules {
        preview: 1,
        ..Rules::preset(Preset::Simplified)
    };
    let setup = GameSetup {
        rules,
        pieces: PieceSet::tetrominoes(),
        seed: 1,
    };
    Controller::create(&setup, &mut Options::parse(options).unwrap()).unwrap()
}

#[test]
fn options_choose_the_weights() {
    assert_eq!(controller("").weights.real(), &BCTS);
    assert_eq!(controller("controller=dellacherie").weights.real(), &DELLACHERIE);
    assert_eq!(controller("controller=tuned").weights.real(), &TUNED);
    assert_eq!(
        controller("controller=tuned").weights.surface().map(Surface::weights),
        Some(&TUNED_SURFACE)
    );
    assert_eq!(controller("w5=-2").weights.real()[4], -2.0);
    assert_eq!(
        controller("").weights.surface(),
        None,
        "the published controllers weigh no surface feature"
    );
    let surface = controller("w9=1.5,w14=-2").weights;
    assert_eq!(
        surface.surface().map(Surface::weights),
        Some(&[1.5, 0.0, 0.0, 0.0, 0.0, -2.0])
    );
    assert!(
        Bound::new(&surface, &PieceSet::tetrominoes()).is_none(),
        "the bound knows eight features"
    );
    let setup = GameSetup {
        rules: Rules::preset(Preset::Simplified),
        pieces: PieceSet::tetrominoes(),
        seed: 1,
    };
    let err = Controller::create(&setup, &mut Options::parse("lookahead=2").unwrap())
        .err()
        .unwrap();
    assert!(err.contains("needs the preview"));
}

#[test]
fn an_i_goes_into_the_well_that_clears_four_rows() {
    let board = Board::from_text(10, 20, "#########.\n#########.\n#########.\n#########.");
    for options in ["", "controller=dellacherie", "lookahead=2", "order=mdptetris"] {
        let mut c = controller(options);
        let i = PieceId(0);
        let start = c.setup.rules.spawn(c.setup.pieces.kind(i));
        let next = (options == "lookahead=2").then_some(PieceId(1));
        let best = c.choose(&board, i, start, next).unwrap();
        assert_eq!((best.pos.orientation, best.pos.x + 2), (1, 9), "{options}");
    }
}

/// A board `width` wide and 20 high whose lowest `stack` rows are filled where the
/// bits of `cells` say, full rows cleared.
pub(crate) fn stacked_board(width: usize, cells: &[u16], stack: usize) -> Board {
    let mut board = Board::new(width, 20);
    for (y, &row) in cells.iter().enumerate().skip(20 - stack) {
        for x in (0..width).filter(|x| row >> x & 1 == 1) {
            board.fill(x, y);
        }
    }
    board.clear_full_rows();
    board
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(100))]

    /// The rater's value of every placement, incremental or not, is bit for bit the
    /// value [`evaluate()`] computes from the whole board after it, under both weight
    /// sets (Dellacherie's skips the features it gives no weight), on boards as narrow
    /// as the widest piece.
    #[test]
    fn the_rater_gives_exactly_the_reference_value(
        cells in proptest::collection::vec(proptest::prelude::any::<u16>(), 20),
        stack in 0usize..20,
        classic in proptest::prelude::any::<bool>(),
        piece in 0u8..7,
        width in 4usize..=12,
    ) {
        let preset = if classic { Preset::Classic } else { Preset::Simplified };
        let rules = Rules { width, ..Rules::preset(preset) };
        let pieces = PieceSet::tetrominoes();
        let board = stacked_board(width, &cells, stack);
        let shapes = shapes(&pieces);
        let piece = PieceId(piece);
        let kind = pieces.kind(piece);
        for weights in weight_sets(width, board.height() as u32) {
            let mut columns = Columns::empty();
            columns.rebuild(&board);
            let rater = Rater::new(&rules, &pieces, &shapes, &weights, &board, &columns);
            for p in tetrad_plugin_api::placements(&rules, &board, kind, rules.spawn(kind)) {
                let reference = evaluate(&rules, &pieces, &board, piece, p.pos, &weights).map(|(_, v)| v.to_bits());
                proptest::prop_assert_eq!(rater.value(piece, p.pos).map(f64::to_bits), reference, "{:?}", p);
            }
        }
    }

    /// Under `simplified`, every drop rated on the columns is the placement the
    /// enumerator lands at that column, with exactly [`evaluate()`]'s value: on boards 4
    /// to 12 wide, under both weight sets, for tetrominoes and for pieces whose columns
    /// have gaps (a C) or that are wider than the specialised loops (a line of five).
    #[test]
    fn every_drop_has_the_reference_value(
        cells in proptest::collection::vec(proptest::prelude::any::<u16>(), 20),
        stack in 0usize..20,
        width in 4usize..=12,
        hollow in proptest::prelude::any::<bool>(),
    ) {
        let rules = Rules { width, ..Rules::preset(Preset::Simplified) };
        let pieces = if hollow {
            PieceSet::new(vec![
                PieceKind::from_cells("c", &[(0, 0), (1, 0), (0, 1), (0, 2), (1, 2)]),
                PieceKind::from_cells("u", &[(0, 0), (2, 0), (0, 1), (1, 1), (2, 1)]),
                PieceKind::from_cells("dot", &[(0, 0)]),
                PieceKind::from_cells("long", &[(0, 0), (1, 0), (2, 0), (3, 0), (4, 0)]),
            ])
        } else {
            PieceSet::tetrominoes()
        };
        let board = stacked_board(width, &cells, stack);
        let (shapes, drops) = (shapes(&pieces), Drops::new(&rules, &pieces).unwrap());
        for weights in weight_sets(width, board.height() as u32) {
            let mut columns = Columns::empty();
            columns.rebuild(&board);
            let rater = Rater::new(&rules, &pieces, &shapes, &weights, &board, &columns);
            for (index, kind) in pieces.kinds().iter().enumerate() {
                let (piece, start) = (PieceId(index as u8), rules.spawn(kind));
                for reach in drops.from(piece, start).unwrap() {
                    let mut rated = Vec::new();
                    rater.visit_all_drops(piece, reach, start, |value, placement| rated.push((value.to_bits(), placement)));
                    let reference: Vec<_> = reach
                        .xs()
                        .iter()
                        .map(|&x| {
                            let placement = reach.land(x, start, |x| columns.top(x));
                            let value = evaluate(&rules, &pieces, &board, piece, placement.pos, &weights)
                                .map_or(f64::NEG_INFINITY, |(_, v)| v);
                            (value.to_bits(), placement)
                        })
                        .collect();
                    proptest::prop_assert_eq!(rated, reference);
                }
            }
        }
    }

    /// Under `simplified`, rating the drops orientation by orientation keeps the same
    /// best placement, with the same value, as rating the SDK's list one by one.
    #[test]
    fn drops_keep_the_best_of_the_listed_placements(
        cells in proptest::collection::vec(proptest::prelude::any::<u16>(), 20),
        stack in 0usize..20,
        piece in 0u8..7,
    ) {
        let rules = Rules::preset(Preset::Simplified);
        let pieces = PieceSet::tetrominoes();
        let board = stacked_board(10, &cells, stack);
        let (shapes, drops) = (shapes(&pieces), Drops::new(&rules, &pieces).unwrap());
        let piece = PieceId(piece);
        let start = rules.spawn(pieces.kind(piece));
        for weights in weight_sets(10, board.height() as u32) {
            let mut columns = Columns::empty();
            columns.rebuild(&board);
            let rater = Rater::new(&rules, &pieces, &shapes, &weights, &board, &columns);
            let mut listed = None;
            for p in tetrad_plugin_api::placements(&rules, &board, pieces.kind(piece), start) {
                keep_best(&mut listed, rater.value(piece, p.pos).unwrap_or(f64::NEG_INFINITY), p);
            }
            let bits = |best: Option<(f64, Placement)>| best.map(|(v, p)| (v.to_bits(), p));
            // Every drop rated, and the drops the bound leaves rated: the same choice.
            let bound = crate::Bound::new(&weights, &pieces);
            for bound in [None, bound.as_ref()] {
                let mut by_drops = None;
                for reach in drops.from(piece, start).unwrap() {
                    rater.rate_drops(piece, reach, start, &mut by_drops, bound);
                }
                proptest::prop_assert_eq!(bits(by_drops), bits(listed));
            }
        }
    }

    /// With `order=mdptetris` the controller chooses the first strict maximum of
    /// [`evaluate()`] over the SDK's placements sorted in the simulator's order, under
    /// `simplified` (by the drops) and `classic` (by the list) alike.
    #[test]
    fn mdptetris_order_keeps_its_first_strict_maximum(
        cells in proptest::collection::vec(proptest::prelude::any::<u16>(), 20),
        stack in 0usize..20,
        piece in 0u8..7,
        classic in proptest::prelude::any::<bool>(),
        dellacherie in proptest::prelude::any::<bool>(),
    ) {
        let preset = if classic { Preset::Classic } else { Preset::Simplified };
        let rules = Rules::preset(preset);
        let setup = GameSetup { rules, pieces: PieceSet::tetrominoes(), seed: 1 };
        let options = if dellacherie { "order=mdptetris,controller=dellacherie" } else { "order=mdptetris" };
        let mut controller = Controller::create(&setup, &mut Options::parse(options).unwrap()).unwrap();
        let board = stacked_board(10, &cells, stack);
        let (piece, kind) = (PieceId(piece), setup.pieces.kind(PieceId(piece)));
        let start = rules.spawn(kind);
        let mut listed = tetrad_plugin_api::placements(&rules, &board, kind, start);
        Order::parse("mdptetris", &setup.pieces).unwrap().unwrap().sort(piece, &mut listed);
        let mut expected = None;
        for p in listed {
            let value = evaluate(&rules, &setup.pieces, &board, piece, p.pos, &controller.weights);
            keep_best(&mut expected, value.map_or(f64::NEG_INFINITY, |(_, v)| v), p);
        }
        proptest::prop_assert_eq!(controller.choose(&board, piece, start, None), expected.map(|(_, p)| p));
    }
}

#[test]
fn value_of_a_placement_worked_by_hand() {
    // An O on an empty 10x20 board at columns 0-1: bottom row 0, height 2, landing
    // height 0.5; no lines. Row transitions: rows 18-19 "##........": wall-filled 0,
    // filled-empty 1, empty-wall 1 = 2 each, 18 empty rows x 2: 40 in all. Column
    // transitions: columns 0-1 change once at their top (row 18), columns 2-9 once at
    // the floor: 10. No holes, wells, hole depth or rows with holes.
    let c = controller("controller=dellacherie");
    let pos = PiecePos {
        orientation: 0,
        x: 0,
        y: 18,
    };
    let (_, value) = evaluate(
        &c.setup.rules,
        &c.setup.pieces,
        &Board::new(10, 20),
        PieceId(1),
        pos,
        &Weights::new(DELLACHERIE),
    )
    .unwrap();
    assert_eq!(value, -0.5 - 40.0 - 10.0);
}

#[test]
fn with_hold_it_holds_for_the_piece_that_clears_four_rows() {
    let rules = Rules::preset(Preset::Guideline);
    let pieces = PieceSet::srs();
    let setup = GameSetup {
        rules,
        pieces: pieces.clone(),
        seed: 1,
    };
    let make = |options: &str| Controller::create(&setup, &mut Options::parse(options).unwrap()).unwrap();
    // Four rows full but for the right column: the I in hold clears them all; the S
    // falling can only cover the well or leave holes.
    let board = Board::from_text(10, 40, "#########.\n#########.\n#########.\n#########.");
    let (i, s, o) = (PieceId(0), PieceId(3), PieceId(1));
    let falling = |id: PieceId| FallingPiece {
        id,
        pos: rules.spawn(pieces.kind(id)),
    };
    let tick = |hold: Option<PieceId>, available: bool| {
        Tick::new(board.clone(), Some(falling(s)), Some(o), true)
            .with_queue(&[o, i, o])
            .with_hold(hold, available)
    };
    assert_eq!(make("hold=true").update(&tick(Some(i), true)), Actions::HOLD);
    // From the queue under `lookahead=2`: the O comes in, and the I follows it, so the
    // two-piece search sees the four rows cleared only if it holds.
    assert_eq!(make("hold=true,lookahead=2").update(&tick(None, true)), Actions::HOLD);
    // No hold to make, or not asked to weigh one: the S is placed.
    assert_ne!(make("hold=true").update(&tick(Some(i), false)), Actions::HOLD);
    assert_ne!(make("").update(&tick(Some(i), true)), Actions::HOLD);
    // The piece out of the hold goes into the well.
    let mut controller = make("hold=true");
    let chosen = controller.choose_or_hold(&board, falling(i), None, s, None);
    let Held::Keep(Some(placement)) = chosen else {
        panic!("keeps the I: {chosen:?}")
    };
    let columns: Vec<i8> = pieces
        .kind(i)
        .orientation(placement.pos.orientation)
        .cells()
        .iter()
        .map(|&(x, _)| placement.pos.x + x)
        .collect();
    assert_eq!(columns, [9; 4]);
    // Asked under rules without hold, it says so.
    let classic = GameSetup {
        rules: Rules::preset(Preset::Classic),
        pieces: PieceSet::tetrominoes(),
        seed: 1,
    };
    let refused = Controller::create(&classic, &mut Options::parse("hold=true").unwrap()).err();
    assert_eq!(
        refused.as_deref(),
        Some("option `hold=true` needs rules with hold (--preset guideline), not `classic`")
    );
}

#[test]
fn under_attack_a_t_spins_into_its_slot_and_the_options_are_checked() {
    let rules = Rules::preset(Preset::Guideline);
    let pieces = PieceSet::srs();
    let setup = GameSetup {
        rules,
        pieces: pieces.clone(),
        seed: 1,
    };
    let make = |options: &str| Controller::create(&setup, &mut Options::parse(options).unwrap());
    // A T-spin double slot at columns 3..5, covered at column 3: a T dropped straight
    // cannot fill it, a T turned in clears both rows and sends four.
    let board = Board::from_text(10, 40, "...#......\n###...####\n####.#####");
    let t = PieceId(2);
    assert_eq!(pieces.kind(t).name(), "T");
    let start = rules.enter(&board, pieces.kind(t));
    let tick = Tick::new(board.clone(), Some(FallingPiece { id: t, pos: start }), None, true);
    let play = |controller: &mut Controller| {
        // Plays the controller's path through the model's own tick, as the host does,
        // keeping the kick of a turn that neither a shift nor a fall followed.
        let (mut pos, mut kick) = (start, None);
        let mut first = true;
        loop {
            let seen = Tick::new(board.clone(), Some(FallingPiece { id: t, pos }), None, first);
            first = false;
            let actions = controller.update(&seen);
            let step = tetrad_plugin_api::step(&rules, &board, pieces.kind(t), &mut pos, actions);
            if step.turned {
                kick = Some(step.kick);
            }
            if step.shifted || step.fell {
                kick = None;
            }
            if step.locked {
                return (pos, tetrad_plugin_api::t_spin(&board, pos, kick));
            }
        }
    };
    let mut attacking = make("attack=20").unwrap();
    assert_ne!(attacking.update(&tick), Actions::HOLD);
    let (_, spin) = play(&mut make("attack=20").unwrap());
    assert_eq!(spin, tetrad_plugin_api::Spin::Full, "it turns the T into the slot");
    let (_, spin) = play(&mut make("").unwrap());
    assert_eq!(spin, tetrad_plugin_api::Spin::None, "the published controller drops it");
    assert!(make("attack=-1")
        .err()
        .unwrap()
        .contains("is not a weight of 0 or more"));
    assert!(make("slots=5").err().unwrap().contains("give `attack` too"));
    assert!(make("attack=5,lookahead=2")
        .err()
        .unwrap()
        .contains("does not go with `lookahead=2`"));
    let classic = GameSetup {
        rules: Rules::preset(Preset::Classic),
        pieces: PieceSet::tetrominoes(),
        seed: 1,
    };
    let refused = Controller::create(&classic, &mut Options::parse("attack=5").unwrap()).err();
    assert!(refused.unwrap().contains("it needs --preset guideline, not `classic`"));
}

//! The column terms against a rebuild and the plain feature pass.

use super::*;
use crate::features::board_features;
use proptest::prelude::*;
use tetrad_plugin_api::{placements, PieceKind, PieceSet, Preset, Rules};

fn board(width: usize, height: usize, columns: &[(usize, u64)]) -> Board {
    let mut board = Board::new(width, height);
    for (x, &(stack, bits)) in columns.iter().take(width).enumerate() {
        let stack = stack % height;
        for y in height - stack..height {
            if bits >> y & 1 == 1 || y == height - stack {
                board.fill(x, y);
            }
        }
    }
    board.clear_full_rows();
    board
}

/// Pieces whose columns are not one run in some orientation (a U, a C, a ring), so
/// the surface shortcut must step aside for them.
fn hollow_pieces() -> PieceSet {
    PieceSet::new(vec![
        PieceKind::from_cells("u", &[(0, 0), (2, 0), (0, 1), (1, 1), (2, 1)]),
        PieceKind::from_cells("c", &[(0, 0), (1, 0), (0, 1), (0, 2), (1, 2)]),
        PieceKind::from_cells(
            "ring",
            &[(0, 0), (1, 0), (2, 0), (0, 1), (2, 1), (0, 2), (1, 2), (2, 2)],
        ),
        PieceKind::from_cells("o", &[(0, 0), (1, 0), (0, 1), (1, 1)]),
    ])
}

#[test]
fn piece_columns_know_their_runs() {
    // The U: columns 0 and 2 are two cells in one run, column 1 one cell at the bottom.
    let u = PieceColumns::new(&[0b101, 0b111], 3);
    assert_eq!(&u.cells[..3], &[0b11, 0b10, 0b11]);
    assert_eq!(&u.count[..3], &[2, 1, 2]);
    assert_eq!(&u.solid[..3], &[true, true, true]);
    // Turned upside down its middle column is still one cell; a C's middle column is
    // two cells with a gap.
    let c = PieceColumns::new(&[0b11, 0b01, 0b11], 2);
    assert_eq!(&c.cells[..2], &[0b111, 0b101]);
    assert_eq!(&c.solid[..2], &[true, false]);
}

#[test]
fn piece_columns_know_the_cells_beside_their_runs() {
    // An upside-down U: rows `XXX` and `X.X`. Index 0 is the column left of the box: both
    // rows end there; the right wall side likewise; the middle cell of the lower row lies
    // between two runs.
    let u = PieceColumns::new(&[0b111, 0b101], 3);
    assert_eq!(u.runs, 3);
    assert_eq!(&u.ends[..5], &[0b11, 0b00, 0b10, 0b00, 0b11]);
    assert_eq!(&u.ends_twice[..5], &[0b00, 0b00, 0b10, 0b00, 0b00]);
    assert!(!u.plain);
    // An S (`.XX` over `XX.`): every run's ends, no cell between two runs.
    let s = PieceColumns::new(&[0b110, 0b011], 3);
    assert_eq!(&s.ends[..5], &[0b10, 0b01, 0b00, 0b10, 0b01]);
    assert!(s.ends_twice.iter().all(|&twice| twice == 0));
    assert!(s.plain);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// The split features add up to the full pass, on the board and after every
    /// placement that clears no row.
    #[test]
    fn incremental_features_equal_the_full_pass(
        width in 4usize..=32,
        height in 4usize..=64,
        columns in prop::collection::vec((0usize..64, any::<u64>()), 32),
        classic in any::<bool>(),
        hollow in any::<bool>(),
        piece in 0u8..7,
    ) {
        let board = board(width, height, &columns);
        let split = Columns::new(&board);
        prop_assert_eq!(split.totals(), board_features(&board));
        let preset = if classic { Preset::Classic } else { Preset::Simplified };
        let rules = Rules { width, height, ..Rules::preset(preset) };
        let set = if hollow { hollow_pieces() } else { PieceSet::tetrominoes() };
        let piece = piece % set.len() as u8;
        let kind = set.kind(tetrad_plugin_api::PieceId(piece));
        let shapes = crate::shapes(&set);
        for p in placements(&rules, &board, kind, rules.spawn(kind)) {
            let shape = kind.orientation(p.pos.orientation);
            let top = i32::from(p.pos.y) + i32::from(shape.top());
            let left = (i32::from(p.pos.x) + i32::from(shape.left())) as usize;
            let mut after = board.clone();
            if top < 0 || !after.place(shape, p.pos.x, p.pos.y) || after.clone().clear_full_rows() > 0 {
                continue;
            }
            let cells = &shapes[usize::from(piece)][usize::from(p.pos.orientation)].columns;
            prop_assert_eq!(split.with_piece(cells, left, top as u32, true), board_features(&after), "{:?}", p);
            let mut placed = Columns::new(&board);
            placed.place(cells, left, top as u32);
            let rebuilt = Columns::new(&after);
            let reach = width + WINDOW;
            prop_assert_eq!(&placed.slots[..reach], &rebuilt.slots[..reach], "{:?}", p);
            prop_assert_eq!(placed.totals, rebuilt.totals, "{:?}", p);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]

    /// Columns used again, for a board of another size or of the same, by a rebuild or a
    /// copy (which write the walls only when the size changes), are a fresh rebuild's.
    #[test]
    fn columns_used_again_are_a_fresh_rebuild(
        sizes in prop::collection::vec((4usize..=32, 4usize..=64), 4),
        columns in prop::collection::vec((0usize..64, any::<u64>()), 32),
        copy in prop::collection::vec(any::<bool>(), 4),
    ) {
        let mut reused = Columns::empty();
        let mut source = Columns::empty();
        // Each size twice in a row: once after another size, once after itself.
        let steps = sizes.iter().flat_map(|size| [size, size]).zip(copy.iter().cycle());
        for (step, (&(width, height), &copy)) in steps.enumerate() {
            // Another board at each step.
            let mut stacks = columns.clone();
            stacks.rotate_left(step);
            let board = board(width, height, &stacks);
            if copy {
                source.rebuild(&board);
                reused.copy_from(&source);
            } else {
                reused.rebuild(&board);
            }
            let fresh = Columns::new(&board);
            let reach = width + WINDOW;
            prop_assert_eq!(&reused.slots[..reach], &fresh.slots[..reach]);
            prop_assert_eq!(reused.totals, fresh.totals);
            prop_assert_eq!((reused.width, reused.height, reused.rows), (fresh.width, fresh.height, fresh.rows));
        }
    }
}

/// `piece`, `W` columns wide, dropped at every column of `board`: the floor `early` is
/// given is at most the exact features (all but the row transitions and the wells equal
/// to them when every column of the piece is one run), and a drop that fills no row has
/// the full pass's features.
fn check_drops<const W: usize>(board: &Board, split: &Columns, piece: &PieceColumns) -> Result<(), TestCaseError> {
    for left in 0..=board.width() - W {
        let mut floor = None;
        let dropped = split.drop_bounded::<W, true>(
            piece,
            left,
            |_| false,
            |_, f| {
                floor = Some(*f);
                false
            },
            |_, _| false,
        );
        let Some(Dropped::Open { top, features }) = dropped else {
            continue;
        };
        let mut after = board.clone();
        for (j, &column) in piece.cells[..W].iter().enumerate() {
            for i in (0..64).filter(|i| column >> i & 1 == 1) {
                prop_assert!(!after.filled(left + j, (top + i) as usize), "the drop lands on a cell");
                after.fill(left + j, (top + i) as usize);
            }
        }
        let exact = board_features(&after);
        prop_assert_eq!(features, exact, "left {}", left);
        let floor = floor.expect("a drop that fills no row is bounded first");
        let solid = piece.solid[..W].iter().all(|&s| s);
        prop_assert!(floor.holes <= exact.holes && (!solid || floor.holes == exact.holes));
        prop_assert!(floor.column_transitions <= exact.column_transitions);
        prop_assert!(!solid || floor.column_transitions == exact.column_transitions);
        prop_assert!(floor.row_transitions <= exact.row_transitions);
        prop_assert!(floor.cumulative_wells <= exact.cumulative_wells);
        prop_assert!(floor.hole_depth <= exact.hole_depth && (!solid || floor.hole_depth == exact.hole_depth));
        prop_assert!(floor.rows_with_holes <= exact.rows_with_holes);
        prop_assert!(!solid || floor.rows_with_holes == exact.rows_with_holes);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Every drop's floor bounds its features, and its features are the full pass's.
    #[test]
    fn a_drops_floor_is_at_most_its_features(
        width in 4usize..=32,
        height in 4usize..=64,
        columns in prop::collection::vec((0usize..64, any::<u64>()), 32),
        hollow in any::<bool>(),
    ) {
        let board = board(width, height, &columns);
        let split = Columns::new(&board);
        let set = if hollow { hollow_pieces() } else { PieceSet::tetrominoes() };
        for kind in set.kinds() {
            for orientation in kind.orientations() {
                let piece = PieceColumns::new(orientation.row_masks(), usize::from(orientation.width()));
                match piece.width {
                    1 => check_drops::<1>(&board, &split, &piece)?,
                    2 => check_drops::<2>(&board, &split, &piece)?,
                    3 => check_drops::<3>(&board, &split, &piece)?,
                    _ => check_drops::<4>(&board, &split, &piece)?,
                }
            }
        }
    }
}

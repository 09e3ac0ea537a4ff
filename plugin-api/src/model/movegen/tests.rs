//! The move generator against playing every path, on hand-drawn and random boards.

use super::*;
use crate::model::piece::{PieceId, PieceSet};
use crate::model::rules::Preset;

/// A board of `rules`' size whose column `x` holds a stack `heights[x].0` high (at
/// most the board's height), its top cell filled and the cells below it where the
/// bits of `heights[x].1` are set: ragged stacks with holes, for the property tests.
pub(super) fn stacked(rules: &Rules, heights: &[(usize, u64)]) -> Board {
    let (width, height) = (rules.width, rules.height);
    let mut board = Board::new(width, height);
    for (x, &(column, bits)) in heights.iter().take(width).enumerate() {
        let column = column.min(height);
        for y in height - column..height {
            if bits >> y & 1 == 1 || y == height - column {
                board.fill(x, y);
            }
        }
    }
    board
}

/// Where a tetromino enters `rules`' board in orientation `orientation` (taken modulo
/// its count), `shift` columns from its spawn.
pub(super) fn shifted_start(rules: &Rules, kind: &PieceKind, orientation: u8, shift: i8) -> PiecePos {
    let orientation = orientation % kind.orientations().len() as u8;
    PiecePos {
        orientation,
        x: rules.spawn(kind).x + shift,
        y: rules.entry_row(kind, orientation),
    }
}

fn count(rules: &Rules, board: &Board, kind: &PieceKind) -> usize {
    placements(rules, board, kind, rules.spawn(kind)).len()
}

#[test]
fn empty_ten_wide_board_perft() {
    // Distinct resting positions on an empty 10-wide board: O 9, I/S/Z 17, T/J/L 34.
    let set = PieceSet::tetrominoes();
    for preset in Preset::ALL {
        let rules = Rules::preset(preset);
        let board = Board::new(rules.width, rules.height);
        let counts: Vec<usize> = set.kinds().iter().map(|k| count(&rules, &board, k)).collect();
        assert_eq!(counts, vec![17, 9, 34, 17, 17, 34, 34], "{preset}");
    }
}

#[test]
fn leiden_counts_follow_the_width() {
    // w-1 for O, 2w-3 for I/S/Z, 4w-6 for T/J/L.
    let set = PieceSet::tetrominoes();
    for width in [4, 6, 15, 20] {
        let rules = Rules {
            width,
            height: 12,
            ..Rules::preset(Preset::Leiden)
        };
        let board = Board::new(width, 12);
        let counts: Vec<usize> = set.kinds().iter().map(|k| count(&rules, &board, k)).collect();
        let w = width;
        assert_eq!(
            counts,
            vec![2 * w - 3, w - 1, 4 * w - 6, 2 * w - 3, 2 * w - 3, 4 * w - 6, 4 * w - 6]
        );
    }
}

#[test]
fn classic_slide_tucks_under_an_overhang() {
    // Columns 4-9 overhang two empty rows. An O dropped at columns 2-3 reaches the
    // floor and slides right under the overhang; dropped at columns 3-4 directly it
    // would stop on top of the overhang instead.
    let set = PieceSet::tetrominoes();
    let rules = Rules::preset(Preset::Classic);
    let board = Board::from_text(
        10,
        20,
        "
        ....######
        ..........
        ..........
        ",
    );
    let o = set.kind(PieceId(1));
    let found = placements(&rules, &board, o, rules.spawn(o));
    let tucked = found
        .iter()
        .find(|p| {
            p.pos
                == PiecePos {
                    orientation: 0,
                    x: 3,
                    y: 18,
                }
        })
        .expect("tuck under the overhang");
    assert_eq!((tucked.shifts, tucked.slide), (-2, 1));
    let path: Vec<Actions> = tucked.path(Movement::Gravity).collect();
    assert_eq!(
        path,
        vec![
            Actions::LEFT,
            Actions::LEFT | Actions::DROP,
            Actions::RIGHT | Actions::DROP
        ]
    );
    let on_top = found.iter().find(|p| p.pos.x == 3 && p.slide == 0).unwrap();
    assert_eq!(on_top.pos.y, 15);
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(256))]

    /// The fast path gives exactly the placements, order and paths of playing every
    /// candidate with `step`, wherever it applies.
    #[test]
    fn open_sky_drops_match_playing_every_path(
        leiden in proptest::bool::ANY,
        width in 4usize..=20,
        heights in proptest::collection::vec((0usize..16, proptest::num::u64::ANY), 20),
        piece in 0u8..7,
        start_orientation in 0u8..4,
        start_shift in -3i8..=3,
    ) {
        let preset = if leiden { Preset::Leiden } else { Preset::Simplified };
        let rules = Rules { width, height: 15, ..Rules::preset(preset) };
        let board = stacked(&rules, &heights);
        let set = PieceSet::tetrominoes();
        let kind = set.kind(PieceId(piece));
        let start = shifted_start(&rules, kind, start_orientation, start_shift);
        proptest::prop_assume!(board.fits(kind.orientation(start.orientation), start.x, start.y));
        let mut played = Vec::new();
        play_every_path(&rules, &board, kind, start, &mut played);
        let mut found = Vec::new();
        placements_into(&rules, &board, kind, start, &mut found);
        proptest::prop_assert_eq!(found, played);
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2048))]

    /// Under gravity, landing the paths that stay in open sky and checking slides where
    /// they end gives exactly the placements, order and paths of playing every path.
    #[test]
    fn gravity_placements_match_playing_every_path(
        width in 4usize..=20,
        height in 8usize..=24,
        heights in proptest::collection::vec((0usize..24, proptest::num::u64::ANY), 20),
        piece in 0u8..7,
        start_orientation in 0u8..4,
        start_shift in -3i8..=3,
        start_drop in 0i8..6,
    ) {
        let rules = Rules { width, height, ..Rules::preset(Preset::Classic) };
        // Stacks up to three rows under the top, so that most starts fit.
        let heights: Vec<_> = heights.iter().map(|&(h, bits)| (h % (height - 2), bits)).collect();
        let set = PieceSet::tetrominoes();
        // The buffer holds a placement already: it is cleared.
        let full = vec![Placement { pos: PiecePos { orientation: 0, x: 0, y: 0 }, turns: 9, shifts: 9, slide: 9 }];
        under_gravity_as_every_path(&rules, &heights, set.kind(PieceId(piece)), (start_orientation, start_shift, start_drop), full)?;
    }
}

/// Pentominoes of `pieces/pentominoes.toml` whose shapes the tetrominoes lack: a 5-wide
/// box (I), a column with a gap once turned (U), four distinct orientations in a 3-box
/// (F, W), one (X), and a 4-box (N).
fn pentominoes() -> Vec<PieceKind> {
    let drawn: [(&str, &[(i8, i8)]); 6] = [
        ("F", &[(1, 0), (2, 0), (0, 1), (1, 1), (1, 2)]),
        ("I", &[(0, 0), (1, 0), (2, 0), (3, 0), (4, 0)]),
        ("N", &[(1, 0), (1, 1), (0, 2), (1, 2), (0, 3)]),
        ("U", &[(0, 0), (2, 0), (0, 1), (1, 1), (2, 1)]),
        ("W", &[(0, 0), (0, 1), (1, 1), (1, 2), (2, 2)]),
        ("X", &[(1, 0), (0, 1), (1, 1), (2, 1), (1, 2)]),
    ];
    drawn
        .iter()
        .map(|&(name, cells)| PieceKind::from_cells(name, cells))
        .collect()
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(1024))]

    /// As above with pentominoes: their landing rows, sweeps and slides come from the
    /// same tables as a tetromino's.
    #[test]
    fn gravity_placements_of_pentominoes_match_playing_every_path(
        width in 5usize..=20,
        height in 10usize..=24,
        heights in proptest::collection::vec((0usize..24, proptest::num::u64::ANY), 20),
        piece in 0usize..6,
        start_orientation in 0u8..4,
        start_shift in -3i8..=3,
        start_drop in 0i8..4,
    ) {
        let rules = Rules { width, height, ..Rules::preset(Preset::Classic) };
        let heights: Vec<_> = heights.iter().map(|&(h, bits)| (h % (height - 3), bits)).collect();
        let kinds = pentominoes();
        under_gravity_as_every_path(&rules, &heights, &kinds[piece], (start_orientation, start_shift, start_drop), Vec::new())?;
    }
}

/// The placements found under gravity on the board `stacked` from `heights`, for `kind`
/// starting turned, shifted and dropped by `start` (where it fits), into the buffer
/// `found`, are those of playing every path.
fn under_gravity_as_every_path(
    rules: &Rules,
    heights: &[(usize, u64)],
    kind: &PieceKind,
    start: (u8, i8, i8),
    mut found: Vec<Placement>,
) -> Result<(), proptest::test_runner::TestCaseError> {
    let board = stacked(rules, heights);
    let (orientation, shift, drop) = start;
    let start = shifted_start(rules, kind, orientation, shift);
    let start = PiecePos {
        y: start.y + drop,
        ..start
    };
    proptest::prop_assume!(board.fits(kind.orientation(start.orientation), start.x, start.y));
    let mut played = Vec::new();
    play_every_path(rules, &board, kind, start, &mut played);
    placements_into(rules, &board, kind, start, &mut found);
    proptest::prop_assert_eq!(found, played);
    Ok(())
}

#[test]
fn high_stack_blocks_long_shifts_under_gravity() {
    // A wall of height 18 in column 8 stops an I from reaching the right edge
    // horizontally; the enumeration must not pretend otherwise.
    let set = PieceSet::tetrominoes();
    let rules = Rules::preset(Preset::Classic);
    let mut board = Board::new(10, 20);
    for y in 2..20 {
        board.fill(8, y);
    }
    let i = set.kind(PieceId(0));
    let found = placements(&rules, &board, i, rules.spawn(i));
    assert!(found.iter().all(|p| p.pos.orientation != 0 || p.pos.x + 3 < 8));
    assert!(found.iter().any(|p| p.pos.orientation == 0 && p.pos.x == 4));
}

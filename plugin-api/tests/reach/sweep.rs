//! The column sweep checked against `reachable`: the same placements, each a resting
//! position and how it was entered (a drop or shift, a turn, a turn through the fifth
//! kick), each once, on seeded boards of every size the guideline allows, from where the
//! piece spawns, where it enters, and from anywhere it fits.

use super::engine::play_from;
use super::oracle::seeded_board;
use std::collections::BTreeSet;
use tetrad_plugin_api::{
    derive_seed, reachable, sweep_into, Actions, Board, Entry, Landing, PieceKind, PiecePos, PieceSet, Preset, Rules,
    SeededRng,
};

/// Asserts that the sweep from `start` finds exactly `reachable`'s placements, each once;
/// returns how many.
pub fn agrees(rules: &Rules, board: &Board, kind: &PieceKind, start: PiecePos, out: &mut Vec<Landing>) -> usize {
    let expected: BTreeSet<Landing> = reachable(rules, board, kind, start)
        .into_iter()
        .map(|r| Landing {
            pos: r.pos,
            entry: Entry::from_last_kick(r.last_kick),
        })
        .collect();
    sweep_into(rules, board, kind, start, out);
    let found: BTreeSet<Landing> = out.iter().copied().collect();
    assert_eq!(
        found.len(),
        out.len(),
        "a placement twice: {}, {start:?}\n{board:?}",
        kind.name()
    );
    if found != expected {
        let missed: Vec<_> = expected.difference(&found).collect();
        let extra: Vec<_> = found.difference(&expected).collect();
        panic!(
            "{} from {start:?}: missed {missed:?}, extra {extra:?}\n{board:?}",
            kind.name()
        );
    }
    out.len()
}

/// A position of `kind` on `board` where it fits, if one of a few drawn at random does.
fn somewhere(rng: &mut SeededRng, board: &Board, kind: &PieceKind) -> Option<PiecePos> {
    (0..20).find_map(|_| {
        let orientation = rng.below(kind.orientations().len() as u32) as u8;
        let x = rng.below(board.width() as u32 + 3) as i8 - 3;
        let y = rng.below(board.height() as u32 + 2) as i8 - 2;
        board
            .fits(kind.orientation(orientation), x, y)
            .then_some(PiecePos { orientation, x, y })
    })
}

/// Every piece from its spawn, its entry and a random position that fits, on `board`.
fn agrees_everywhere(rules: &Rules, board: &Board, rng: &mut SeededRng, out: &mut Vec<Landing>) -> usize {
    let mut count = 0;
    for kind in PieceSet::srs().kinds() {
        let starts = [
            Some(rules.spawn(kind)),
            Some(rules.enter(board, kind)),
            somewhere(rng, board, kind),
        ];
        for start in starts.into_iter().flatten() {
            count += agrees(rules, board, kind, start, out);
        }
    }
    count
}

/// The seeded guideline boards of the oracle's tests, `first..first + count`.
fn seeded(first: u64, count: u64) {
    let rules = Rules::preset(Preset::Guideline);
    let mut out = Vec::new();
    let mut found = 0;
    for index in first..first + count {
        let board = seeded_board(&mut SeededRng::new(derive_seed(0x7e7a_d5ee_d000, index)));
        let mut rng = SeededRng::new(derive_seed(0x5eed_5bee_9000, index));
        found += agrees_everywhere(&rules, &board, &mut rng, &mut out);
    }
    assert!(found as u64 > count * 7 * 3 * 10, "{found}");
}

#[test]
fn the_sweep_finds_what_reachable_finds_on_boards_0_to_2499() {
    seeded(0, 2_500);
}

#[test]
fn the_sweep_finds_what_reachable_finds_on_boards_2500_to_4999() {
    seeded(2_500, 2_500);
}

/// A guideline board of any size: cells filled at random below a random height, denser
/// lower down, and now and then a tall well or tower reaching the top.
fn sized_board(rng: &mut SeededRng) -> Board {
    let width = 4 + rng.below(29) as usize;
    let height = Rules::GUIDELINE_BUFFER_ROWS + 4 + rng.below(41) as usize;
    let stack = rng.below(height as u32 + 1) as usize;
    let full = u32::MAX >> (32 - width);
    let mut rows = vec![0u32; height];
    for (y, row) in rows.iter_mut().enumerate().skip(height - stack) {
        let depth = (y + stack + 1 - height) as u32;
        for x in 0..width {
            if rng.below(stack as u32 + 2) < depth + 1 && rng.below(3) != 0 {
                *row |= 1 << x;
            }
        }
        if *row == full {
            *row &= !(1 << rng.below(width as u32));
        }
    }
    if rng.below(4) == 0 {
        // A column filled from the top down some way: pieces climb around it by kicks.
        let x = rng.below(width as u32);
        for row in rows.iter_mut().take(rng.below(height as u32) as usize) {
            *row |= 1 << x;
        }
    }
    Board::from_rows(width, height, &rows)
}

#[test]
fn the_sweep_finds_what_reachable_finds_on_boards_of_every_size() {
    let mut out = Vec::new();
    for index in 0..3_000 {
        let mut rng = SeededRng::new(derive_seed(0x512e_d000, index));
        let board = sized_board(&mut rng);
        let rules = Rules {
            width: board.width(),
            height: board.height(),
            ..Rules::preset(Preset::Guideline)
        };
        agrees_everywhere(&rules, &board, &mut rng, &mut out);
    }
}

#[test]
fn under_the_other_presets_the_sweep_is_reachables_set() {
    let mut out = Vec::new();
    for preset in [Preset::Classic, Preset::Leiden, Preset::Simplified] {
        let rules = Rules::preset(preset);
        for index in 0..200 {
            let mut rng = SeededRng::new(derive_seed(0x07e2_d000, index));
            let drawn = seeded_board(&mut rng);
            let board = Board::from_rows(rules.width, rules.height, &drawn.rows()[40 - rules.height..]);
            for kind in PieceSet::tetrominoes().kinds() {
                agrees(&rules, &board, kind, rules.spawn(kind), &mut out);
            }
        }
    }
}

/// Plays `path` from `start` as the host does; where the piece locked and how its last
/// movement entered there.
fn played(rules: &Rules, board: &Board, kind: &PieceKind, start: PiecePos, path: &[Actions]) -> Landing {
    let (pos, kick) = play_from(rules, board, kind, start, path);
    Landing {
        pos,
        entry: Entry::from_last_kick(kick),
    }
}

#[test]
fn the_path_to_each_placement_plays_into_it_entered_that_way() {
    let rules = Rules::preset(Preset::Guideline);
    let mut out = Vec::new();
    for index in 0..40 {
        let board = seeded_board(&mut SeededRng::new(derive_seed(0x7e7a_d5ee_d000, index)));
        for kind in PieceSet::srs().kinds() {
            let start = rules.enter(&board, kind);
            sweep_into(&rules, &board, kind, start, &mut out);
            for landing in &out {
                let path = landing.path(&rules, &board, kind, start).expect("a path");
                assert_eq!(played(&rules, &board, kind, start, &path), *landing, "{path:?}");
            }
            let elsewhere = Landing {
                pos: PiecePos { y: 0, ..start },
                entry: Entry::Drop,
            };
            assert_eq!(elsewhere.path(&rules, &board, kind, start), None);
        }
    }
}

//! The column sweep's own checks: where it answers, and where it hands over.

use super::*;
use crate::model::piece::PieceSet;
use crate::model::rules::Preset;

/// The column sweep's own answer, or `None` where it hands over to `reachable`.
fn swept(rules: &Rules, board: &Board, kind: &PieceKind, start: PiecePos) -> Option<Vec<Landing>> {
    let mut out = Vec::new();
    by_columns(rules, board, kind, start, &mut out).then_some(out)
}

fn reachable_set(rules: &Rules, board: &Board, kind: &PieceKind, start: PiecePos) -> Vec<Landing> {
    let mut set: Vec<Landing> = reachable(rules, board, kind, start)
        .into_iter()
        .map(|r| Landing {
            pos: r.pos,
            entry: Entry::from_last_kick(r.last_kick),
        })
        .collect();
    set.sort_unstable();
    set
}

#[test]
fn on_a_guideline_board_the_columns_answer_for_every_piece() {
    let rules = Rules::preset(Preset::Guideline);
    let board = Board::from_text(10, 40, "###.......\n##........\n##.#######\n##..######\n##.#######");
    for kind in PieceSet::srs().kinds() {
        let mut found = swept(&rules, &board, kind, rules.spawn(kind)).expect("no fallback");
        found.sort_unstable();
        assert_eq!(
            found,
            reachable_set(&rules, &board, kind, rules.spawn(kind)),
            "{}",
            kind.name()
        );
    }
}

#[test]
fn a_piece_in_the_top_rows_of_a_64_row_board_is_left_to_reachable() {
    let rules = Rules {
        height: 64,
        ..Rules::preset(Preset::Guideline)
    };
    let board = Board::new(10, 64);
    let kind = PieceSet::srs().kind(crate::model::piece::PieceId(2)).clone();
    let high = PiecePos {
        orientation: 0,
        x: 3,
        y: 0,
    };
    assert!(swept(&rules, &board, &kind, high).is_none());
    let mut found = sweep(&rules, &board, &kind, high);
    found.sort_unstable();
    assert_eq!(found, reachable_set(&rules, &board, &kind, high));
    // From its spawn, far below, the columns answer.
    assert!(swept(&rules, &board, &kind, rules.spawn(&kind)).is_some());
}

#[test]
fn a_start_that_does_not_fit_or_does_not_exist_finds_nothing() {
    let rules = Rules::preset(Preset::Guideline);
    let board = Board::new(10, 40);
    let kind = PieceSet::srs().kind(crate::model::piece::PieceId(1)).clone();
    let outside = PiecePos {
        orientation: 0,
        x: 9,
        y: 10,
    };
    assert!(sweep(&rules, &board, &kind, outside).is_empty());
    let no_such = PiecePos {
        orientation: 3,
        ..rules.spawn(&kind)
    };
    assert!(sweep(&rules, &board, &kind, no_such).is_empty());
}

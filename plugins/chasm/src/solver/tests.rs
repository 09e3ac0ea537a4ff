//! The split, the sum over two pieces, and the placer.

use super::*;
use crate::rate::measure;
use tetrad_plugin_api::Preset;

const I: PieceId = PieceId(0);
const O: PieceId = PieceId(1);
const T: PieceId = PieceId(2);

fn planner(split: usize) -> Planner {
    Planner::new(
        Rules::preset(Preset::Classic),
        PieceSet::tetrominoes(),
        Constants::SEED,
        split,
    )
}

fn midgame() -> Board {
    Board::from_text(
        10,
        20,
        "
        ....#.....
        #...##...#
        ##.###..##
        ###.##.###
        ####.#####
        ##.#######
        ",
    )
}

fn spawn(id: PieceId) -> FallingPiece {
    FallingPiece {
        id,
        pos: Rules::default().spawn(PieceSet::tetrominoes().kind(id)),
    }
}

#[test]
fn split_returns_nothing_for_three_ticks_then_moves_as_an_unsplit_rating_would() {
    let board = midgame();
    let mut whole = planner(1);
    let first = whole.update(&board, spawn(T), Some(I), true);
    assert_ne!(first, Actions::NONE);
    let mut split = planner(4);
    let mut piece = spawn(T);
    for tick in 0..3 {
        assert_eq!(split.update(&board, piece, Some(I), tick == 0), Actions::NONE);
        assert_eq!(split.decision(), None);
        piece.pos.y += 1; // gravity
    }
    let fourth = split.update(&board, piece, Some(I), false);
    assert_eq!(split.decision(), whole.decision());
    assert_eq!(fourth, move_piece(piece.pos, &split.decision().unwrap().1));
}

#[test]
fn a_move_scores_its_own_rating_plus_the_best_of_the_next_piece() {
    // Recompute the sum plainly for every entry of the list and compare the winner.
    let board = midgame();
    let set = PieceSet::tetrominoes();
    let mut p = planner(1);
    p.update(&board, spawn(T), Some(O), true);
    let (score, chosen) = p.decision().unwrap();
    let mut list = Vec::new();
    create_list(&mut list, &board, set.kind(T), spawn(T).pos);
    let mut best: Option<(i64, Block)> = None;
    for block in &list {
        let (rating, after) = measure(&board, set.kind(T), block).unwrap();
        let mut next = Vec::new();
        create_list(&mut next, &after, set.kind(O), spawn(O).pos);
        let second = next
            .iter()
            .map(|n| Constants::SEED.score(&measure(&after, set.kind(O), n).unwrap().0))
            .max()
            .unwrap();
        let sum = Constants::SEED.score(&rating) + second;
        if best.is_none_or(|(b, _)| sum > b) {
            best = Some((sum, *block));
        }
    }
    assert_eq!(Some((score, chosen)), best);
    // Without a preview only the current piece counts.
    let mut alone = planner(1);
    alone.update(&board, spawn(T), None, true);
    let (own, block) = alone.decision().unwrap();
    assert_eq!(
        own,
        Constants::SEED.score(&measure(&board, set.kind(T), &block).unwrap().0)
    );
}

#[test]
fn the_placer_turns_clockwise_shifts_and_drops_once_both_match() {
    let target = Block {
        rotation: 3,
        pos: PiecePos {
            orientation: 3,
            x: 2,
            y: 17,
        },
    };
    let at = |orientation, x| PiecePos { orientation, x, y: 4 };
    assert_eq!(move_piece(at(0, 4), &target), Actions::CW | Actions::LEFT);
    assert_eq!(move_piece(at(2, 2), &target), Actions::CW);
    assert_eq!(move_piece(at(3, 1), &target), Actions::RIGHT);
    assert_eq!(move_piece(at(3, 2), &target), Actions::DROP);
}

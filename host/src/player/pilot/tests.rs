use super::*;
use crate::engine::Game;
use crate::player::{Failure, FailureKind};
use std::sync::Arc;
use tetrad_plugin_api::abi::{ACTION_MASK, ACTION_MASK_V2};
use tetrad_plugin_api::{PieceSet, Preset, Rules};

fn reply(decision: Decision) -> Reply {
    Reply {
        decision: Ok(decision),
        elapsed_ns: 7,
    }
}

/// A seeded game a few pieces in, so the board has a stack to land on.
fn mid_game(preset: Preset, seed: u64) -> Game {
    let rules = Rules::preset(preset);
    let mut game = Game::new(rules, Arc::new(PieceSet::tetrominoes()), seed);
    let mut tick = 0u32;
    while game.stats().pieces < 6 && !game.is_over() {
        // Shifts that vary with the tick spread the pieces over the board.
        let shift = match tick % 3 {
            0 => Actions::LEFT,
            1 => Actions::NONE,
            _ => Actions::RIGHT,
        };
        game.tick(shift | Actions::DROP);
        tick += 1;
    }
    game
}

#[test]
fn every_placement_the_move_generator_finds_is_flown_to_exactly_where_it_locks() {
    let mut flown = 0;
    for preset in [Preset::Classic, Preset::Leiden, Preset::Simplified] {
        for seed in 1..=8 {
            let game = mid_game(preset, seed);
            let Some(falling) = game.current() else { continue };
            let kind = game.pieces().kind(falling.piece);
            for placement in placements(game.rules(), game.board(), kind, falling.pos) {
                let mut expected = game.board().clone();
                expected.lock(
                    kind.orientation(placement.pos.orientation),
                    placement.pos.x,
                    placement.pos.y,
                );
                let target = Target {
                    orientation: placement.pos.orientation,
                    column: placement.pos.x - placement.slide,
                    slide: placement.slide,
                };
                let mut game = game.clone();
                let mut pilot = Pilot::default();
                let first = pilot.steer(reply(Decision::Placement(target)), &game, ACTION_MASK);
                assert_eq!(first.violation, None);
                assert_eq!(first.elapsed_ns, 7);
                game.tick(first.actions.expect("actions"));
                let mut ticks = 1;
                while game.stats().pieces == 6 {
                    let answer = pilot.next(&game).expect("the path goes on until the piece locks");
                    assert_eq!(answer.elapsed_ns, 0);
                    game.tick(answer.actions.expect("actions"));
                    ticks += 1;
                    assert!(ticks < 200, "{preset:?} seed {seed}: {target:?} never locks");
                }
                assert_eq!(game.board(), &expected, "{preset:?} seed {seed}: {target:?}");
                assert!(pilot.next(&game).is_none(), "a path ends with its piece");
                flown += 1;
            }
        }
    }
    assert!(flown > 200, "only {flown} placements flown");
}

#[test]
fn an_unreachable_placement_and_bad_bits_are_violations_with_nothing_applied() {
    let game = mid_game(Preset::Classic, 1);
    let mut pilot = Pilot::default();
    let target = Target {
        orientation: 0,
        column: 40,
        slide: 0,
    };
    let answer = pilot.steer(reply(Decision::Placement(target)), &game, ACTION_MASK);
    assert_eq!(answer.actions, Ok(Actions::NONE));
    assert_eq!(answer.violation, Some(Violation::Unreachable(target)));
    assert!(pilot.next(&game).is_none());
    let both = Actions::LEFT | Actions::RIGHT;
    let answer = pilot.steer(reply(Decision::Actions(both)), &game, ACTION_MASK);
    assert_eq!(answer.actions, Ok(Actions::NONE));
    assert_eq!(answer.violation, Some(Violation::Bits(both.0)));
    assert_eq!(
        answer.violation.map(|v| v.to_string()).as_deref(),
        Some("update returned LEFT|RIGHT")
    );
    // Hold and soft drop are version 2's: a violation from a version 1 player only.
    let hold = Actions::HOLD | Actions::SOFT_DROP;
    let answer = pilot.steer(reply(Decision::Actions(hold)), &game, ACTION_MASK);
    assert_eq!(answer.violation, Some(Violation::Bits(hold.0)));
    let answer = pilot.steer(reply(Decision::Actions(hold)), &game, ACTION_MASK_V2);
    assert_eq!((answer.actions, answer.violation), (Ok(hold), None));
}

#[test]
fn actions_pass_through_and_a_failure_stays_a_failure() {
    let game = mid_game(Preset::Simplified, 2);
    let mut pilot = Pilot::default();
    let answer = pilot.steer(reply(Decision::Actions(Actions::DROP)), &game, ACTION_MASK);
    assert_eq!((answer.actions, answer.violation), (Ok(Actions::DROP), None));
    let failed = pilot.steer(
        Reply {
            decision: Err(Box::new(Failure::new(FailureKind::Error, "boom"))),
            elapsed_ns: 3,
        },
        &game,
        ACTION_MASK,
    );
    let failure = Failure::new(FailureKind::Error, "boom");
    assert_eq!((failed.actions, failed.elapsed_ns), (Err(Box::new(failure)), 3));
}

/// Flies `target` from `game` until the piece locks and returns the board then, or the
/// violation the placement earned.
fn fly(game: &Game, target: Target) -> Result<tetrad_plugin_api::Board, Option<Violation>> {
    let mut game = game.clone();
    let pieces = game.stats().pieces;
    let mut pilot = Pilot::default();
    let first = pilot.steer(reply(Decision::Placement(target)), &game, ACTION_MASK);
    if first.violation.is_some() {
        return Err(first.violation);
    }
    game.tick(first.actions.expect("actions"));
    let mut ticks = 1;
    while game.stats().pieces == pieces {
        let answer = pilot.next(&game).ok_or(None)?;
        game.tick(answer.actions.expect("actions"));
        ticks += 1;
        assert!(ticks < 200, "{target:?} never locks");
    }
    Ok(game.board().clone())
}

#[test]
fn a_slide_that_ends_where_a_straight_drop_ends_is_accepted() {
    // On the empty board every slide ends where the straight drop in the next column
    // ends: the move generator lists the drop, and the slide reaches the same place.
    let mut slid = 0;
    for seed in 1..=7 {
        let game = Game::new(Rules::preset(Preset::Classic), Arc::new(PieceSet::tetrominoes()), seed);
        let falling = game.current().expect("a falling piece");
        let kind = game.pieces().kind(falling.piece);
        let found = placements(game.rules(), game.board(), kind, falling.pos);
        for drop in found.iter().filter(|p| p.slide == 0) {
            for slide in [-1i8, 1] {
                let Some(next) = found.iter().find(|q| {
                    q.slide == 0 && q.pos.orientation == drop.pos.orientation && q.pos.x == drop.pos.x + slide
                }) else {
                    continue;
                };
                let target = Target {
                    orientation: drop.pos.orientation,
                    column: drop.pos.x,
                    slide,
                };
                let mut expected = game.board().clone();
                expected.lock(kind.orientation(next.pos.orientation), next.pos.x, next.pos.y);
                assert_eq!(fly(&game, target), Ok(expected), "seed {seed}: {target:?}");
                slid += 1;
            }
        }
    }
    assert!(slid > 100, "only {slid} slides flown");
}

#[test]
fn a_slide_into_a_wall_or_off_a_ledge_is_still_refused() {
    let game = Game::new(Rules::preset(Preset::Classic), Arc::new(PieceSet::tetrominoes()), 1);
    let falling = game.current().expect("a falling piece");
    let kind = game.pieces().kind(falling.piece);
    let shape = kind.orientation(0);
    // Dropped against the left wall and slid into it.
    let target = Target {
        orientation: 0,
        column: -shape.left(),
        slide: -1,
    };
    assert_eq!(fly(&game, target), Err(Some(Violation::Unreachable(target))));
}

//! Gravity, lock delay and move reset at hand-checked times.

use super::position;
use crate::engine::{Game, Gravity, Timing, TimingError};
use std::sync::Arc;
use tetrad_plugin_api::{Actions, Board, PieceId, PieceSet, Preset, Rules};

const O: PieceId = PieceId(1);

/// A guideline game on `board` (its bottom rows, drawn from the top), an O falling, under
/// `gravity` with the guideline's lock delay and move reset.
fn timed(board: &str, gravity: f64) -> Game {
    let rules = Rules::preset(Preset::Guideline);
    let board = Board::from_text(rules.width, rules.height, board);
    let mut game = Game::with_board(rules, Arc::new(PieceSet::srs()), 1, Some(board));
    game.set_current(O);
    let timing = Timing {
        gravity: Gravity::Fixed(gravity),
        ..Timing::guideline()
    };
    game.enable_timing(timing).unwrap();
    game
}

fn y(game: &Game) -> i8 {
    position(game).unwrap().y
}

/// Plays `actions` at `time_us`: the time first, then the tick.
fn at(game: &mut Game, time_us: u64, actions: Actions) {
    assert_eq!(game.advance(time_us), None, "nothing locks before {time_us} µs");
    let report = game.tick(actions);
    assert_eq!(report.locked, None, "{actions:?} at {time_us} µs");
}

#[test]
fn a_piece_falls_one_row_every_one_over_g_frames() {
    // 1/60 G: a row every 60 frames, one second. The O enters with its bottom on the
    // field's top row (y 19) and rests on the floor at y 38.
    let mut game = timed("", 1.0 / 60.0);
    assert_eq!((y(&game), game.next_event_us()), (19, Some(1_000_000)));
    assert_eq!(game.advance(999_999), None);
    assert_eq!(y(&game), 19);
    game.advance(1_000_000);
    assert_eq!(y(&game), 20);
    game.advance(5_500_000);
    assert_eq!((y(&game), game.now_us()), (24, Some(5_500_000)));
    // Advancing in many small steps plays the same rows at the same times.
    let mut stepped = timed("", 1.0 / 60.0);
    for t in (0..=5_500_000).step_by(1_000) {
        stepped.advance(t);
    }
    assert_eq!(
        (position(&stepped), stepped.next_event_us()),
        (position(&game), Some(6_000_000))
    );
}

#[test]
fn a_resting_piece_locks_after_the_lock_delay() {
    let mut game = timed("", 1.0 / 60.0);
    at(&mut game, 0, Actions::SOFT_DROP);
    assert_eq!((y(&game), game.next_event_us()), (38, Some(500_000)));
    assert_eq!(game.advance(499_999), None);
    let report = game.advance(500_000).expect("locks at 500 ms");
    assert_eq!(report.locked.map(|l| l.pos.y), Some(38));
    assert_eq!((game.stats().pieces, game.now_us()), (1, Some(500_000)));
    // The next piece entered at the lock, and falls from there.
    assert_eq!(game.next_event_us(), Some(1_500_000));
}

#[test]
fn gravity_brings_a_piece_to_rest_and_the_delay_counts_from_its_landing() {
    // 1G: a row every 16 667 µs; the O falls 19 rows, landing at 19 x 16 667 µs.
    let mut game = timed("", 1.0);
    assert_eq!(game.advance(316_672), None);
    assert_eq!(y(&game), 37);
    assert_eq!(game.advance(316_673), None);
    assert_eq!((y(&game), game.next_event_us()), (38, Some(816_673)));
    assert!(game.advance(816_673).is_some_and(|r| r.locked.is_some()));
}

#[test]
fn fifteen_move_resets_then_the_delay_runs_on() {
    let mut game = timed("", 1.0 / 60.0);
    at(&mut game, 0, Actions::SOFT_DROP);
    // Sixteen shifts 100 ms apart while resting: the first fifteen each restart the
    // delay, the sixteenth does not, so the piece locks 500 ms after the fifteenth.
    for k in 1..=16u64 {
        let shift = if k % 2 == 1 { Actions::LEFT } else { Actions::RIGHT };
        at(&mut game, k * 100_000, shift);
    }
    assert_eq!(game.next_event_us(), Some(2_000_000));
    assert_eq!(game.advance(1_999_999), None);
    assert!(game.advance(2_000_000).is_some_and(|r| r.locked.is_some()));
}

#[test]
fn a_new_lowest_row_gives_the_resets_back() {
    // A ledge under columns 0-4: the O (columns 4 and 5) rests on it, one row above the
    // floor beside it.
    let mut game = timed("#####.....", 20.0);
    at(&mut game, 0, Actions::SOFT_DROP);
    assert_eq!(y(&game), 37);
    for k in 1..=15u64 {
        let shift = if k % 2 == 1 { Actions::LEFT } else { Actions::RIGHT };
        at(&mut game, k * 100_000, shift);
    }
    // Resets spent: a shift along the ledge no longer restarts the delay.
    at(&mut game, 1_600_000, Actions::RIGHT);
    assert_eq!(game.next_event_us(), Some(2_000_000));
    // Off the ledge it falls a row at 20G (833 µs) to a new lowest row, which gives the
    // resets back: a full delay from the landing, and a move restarts it.
    at(&mut game, 1_700_000, Actions::RIGHT);
    assert_eq!(game.advance(1_700_833), None);
    assert_eq!((y(&game), game.next_event_us()), (38, Some(2_200_833)));
    at(&mut game, 2_000_000, Actions::RIGHT);
    assert_eq!(game.next_event_us(), Some(2_500_000));
}

#[test]
fn a_held_piece_leaves_its_spent_resets_behind() {
    let mut game = timed("", 1.0 / 60.0);
    at(&mut game, 0, Actions::SOFT_DROP);
    for k in 1..=15u64 {
        let shift = if k % 2 == 1 { Actions::LEFT } else { Actions::RIGHT };
        at(&mut game, k * 100_000, shift);
    }
    // The piece a hold brings in enters afresh: in the air, a row due a second later.
    at(&mut game, 1_550_000, Actions::HOLD);
    assert_eq!((y(&game), game.next_event_us()), (19, Some(2_550_000)));
}

#[test]
fn a_hard_drop_locks_at_once_and_a_soft_drop_speeds_gravity() {
    let mut game = timed("", 1.0 / 60.0);
    let report = game.tick(Actions::DROP);
    assert_eq!(report.locked.map(|l| l.pos.y), Some(38));
    // The next piece: a soft drop 20 times gravity falls a row every 50 ms, from when it
    // is pressed; released, gravity's second counts from the release.
    game.set_soft_drop(Some(20));
    assert_eq!(game.next_event_us(), Some(50_000));
    game.advance(100_000);
    let after_two = y(&game);
    game.set_soft_drop(None);
    assert_eq!(game.next_event_us(), Some(1_100_000));
    game.advance(1_099_999);
    assert_eq!(y(&game), after_two);
}

#[test]
fn timing_is_refused_outside_guideline_and_without_it_nothing_moves() {
    let mut classic = Game::new(Rules::preset(Preset::Classic), Arc::new(PieceSet::tetrominoes()), 1);
    assert_eq!(
        classic.enable_timing(Timing::guideline()),
        Err(TimingError::Preset("classic".into()))
    );
    let mut plain = Game::new(Rules::preset(Preset::Guideline), Arc::new(PieceSet::srs()), 1);
    let before = plain.current();
    assert_eq!(plain.advance(10_000_000), None);
    assert_eq!(
        (plain.current(), plain.next_event_us(), plain.now_us()),
        (before, None, None)
    );
}

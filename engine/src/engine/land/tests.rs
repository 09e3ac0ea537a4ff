//! Games played by landing placements against the same games played tick by tick.

use super::super::*;
use proptest::prelude::*;
use tetrad_plugin_api::{placements_into, PieceSet, Placement, Preset};

/// What a game shows: everything but the falling piece's last kick, which only a T-spin
/// under SRS reads.
fn seen(game: &Game) -> impl PartialEq + std::fmt::Debug {
    (
        game.board().clone(),
        game.stats(),
        game.current(),
        game.preview(),
        game.held(),
        game.queue().collect::<Vec<_>>(),
        game.bag_left(),
        (game.is_over(), game.is_exhausted(), game.is_new_piece()),
        (game.piece_ticks(), game.combo(), game.back_to_back()),
    )
}

/// Plays `placement` along its path, as the host's pilot does, and returns the report of
/// the tick that locks it.
fn fly(game: &mut Game, placement: &Placement) -> Option<TickReport> {
    for actions in placement.path(game.rules().movement()) {
        let report = game.tick(actions);
        if report.locked.is_some() {
            return Some(report);
        }
    }
    None
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(384))]

    /// Seeded games, each placement chosen at random among the move generator's: landed
    /// at once, every step leaves the same game (board, lines, points, pieces, ticks,
    /// queue, end) and reports the same lock as playing its path.
    #[test]
    fn landing_is_playing_the_path(
        preset in prop::sample::select(vec![Preset::Classic, Preset::Classic, Preset::Simplified, Preset::Leiden]),
        width in 6usize..=12,
        height in 12usize..=24,
        seed in any::<u64>(),
        choices in prop::collection::vec(any::<u32>(), 400),
    ) {
        let rules = Rules { width, height, ..Rules::preset(preset) };
        let pieces = Arc::new(PieceSet::tetrominoes());
        prop_assume!(rules.validate(&pieces).is_ok());
        let mut ticked = Game::new(rules, pieces.clone(), seed);
        let mut landed = ticked.clone();
        let mut found = Vec::new();
        for (step, &choice) in choices.iter().enumerate() {
            let Some(falling) = ticked.current().filter(|_| !ticked.is_over()) else {
                break;
            };
            placements_into(&rules, ticked.board(), pieces.kind(falling.piece), falling.pos, &mut found);
            if found.is_empty() {
                break;
            }
            let placement = found[choice as usize % found.len()];
            let by_ticks = fly(&mut ticked, &placement);
            let at_once = landed.land(&placement);
            prop_assert!(by_ticks.is_some(), "step {}: the path of {:?} did not lock", step, placement);
            prop_assert_eq!(at_once, by_ticks, "step {}: {:?}", step, placement);
            prop_assert_eq!(seen(&landed), seen(&ticked), "step {}: {:?}", step, placement);
        }
    }
}

#[test]
fn no_landing_under_kicks() {
    let rules = Rules::preset(Preset::Guideline);
    let mut game = Game::new(rules, Arc::new(PieceSet::tetrominoes()), 1);
    let falling = game.current().unwrap();
    let mut found = Vec::new();
    placements_into(
        &rules,
        game.board(),
        game.pieces().kind(falling.piece),
        falling.pos,
        &mut found,
    );
    assert!(game.land(&found[0]).is_none());
    assert_eq!(game.stats().ticks, 0);
}

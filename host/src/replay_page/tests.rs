//! Replay pages: drawn from the engine's re-simulation, and refused for a replay that does
//! not verify.

use super::trace::decode;
use super::*;
use crate::engine::Game;
use crate::referee::ended;
use crate::replay::{Outcome, PlayerRecord};
use crate::setup::Setup;
use std::sync::Arc;
use tetrad_plugin_api::{Actions, PieceSet, Rules};

/// A classic game played with a fixed pattern of actions to its end, recorded.
fn recorded() -> Replay {
    let rules = Rules::default();
    let setup = Setup::new(rules, Arc::new(PieceSet::tetrominoes())).unwrap();
    let mut game = Game::new(rules, setup.pieces.clone(), 5);
    let mut replay = Replay::new(&setup, 5);
    replay.seats[0].players.push(PlayerRecord::human(0));
    let pattern = [
        Actions::LEFT,
        Actions::CW | Actions::DROP,
        Actions::RIGHT,
        Actions::DROP,
    ];
    let mut tick = 0;
    let end = loop {
        if let Some(end) = ended(&game, None) {
            break end;
        }
        let actions = pattern[tick % pattern.len()];
        tick += 1;
        replay.seats[0].actions.push(actions.0);
        game.tick(actions);
    };
    replay.seats[0].result = Outcome::new(game.stats(), end.into());
    replay
}

#[test]
fn the_page_carries_the_engines_game() {
    let replay = recorded();
    let result = replay.seats[0].result;
    let data = data(&replay, "game.json").unwrap();
    let seat = &data["seats"][0];
    assert_eq!(seat["tickCount"], result.ticks);
    assert_eq!(seat["lockCount"], result.pieces);
    assert_eq!(seat["result"]["score"], result.score);
    // Each lock's record ends with the board's sum, and the sums of the engine's boards
    // differ as the game goes on.
    let locks = decode(seat["locks"].as_str().unwrap());
    assert!(locks.len() as u64 >= 5 * result.pieces);
    assert_eq!(data["pieces"][0]["colour"], crate::palette::PIECES[0].hex());
    assert_eq!(
        data["pieces"][2]["shapes"].as_array().unwrap().len(),
        4,
        "T turns four ways"
    );
}

#[test]
fn a_page_is_self_contained_and_escapes_its_data() {
    let mut replay = recorded();
    replay.seats[0].players[0].name = "</script><b>".to_string();
    let html = page(&replay, "a <game>.json", None).unwrap();
    assert!(html.starts_with("<!DOCTYPE html>"));
    assert_eq!(
        html.matches("</script>").count(),
        2,
        "the data cannot close its element"
    );
    assert!(html.contains("a &lt;game&gt;.json"));
    for outside in ["http://", "https://", "src=", "@import", "url("] {
        assert!(!html.contains(outside), "the page refers to {outside}");
    }
}

#[test]
fn a_replay_that_does_not_verify_has_no_page() {
    let mut replay = recorded();
    replay.seats[0].result.score += 1;
    match page(&replay, "game.json", None) {
        Err(PageError::Replay(ReplayError::Mismatch(message))) => assert!(message.contains("points")),
        other => panic!("expected a mismatch, got {:?}", other.map(|p| p.len())),
    }
}

//! What the page needs to show the person's own key presses in the next frame, before the
//! server's state for them comes back: the rules of movement once a game (every piece's
//! orientations, turns with their kicks, and spawn), and with each state where the
//! person's falling piece is, what is held and what comes next. The page replays the
//! presses the server has not yet played on the last state it sent (see `predict.js`);
//! the server stays the referee, and its next state replaces the page's guess.

use crate::engine::Game;
use crate::handling::Hands;
use serde_json::{json, Value};
use tetrad_plugin_api::{Preset, RotationSystem};

/// The movement rules of `game`, for the page's prediction; `None` (nothing predicted)
/// under a preset whose turns are not the guideline's, which the page does not play.
pub fn rules(game: &Game) -> Option<Value> {
    let rules = game.rules();
    if rules.preset != Preset::Guideline || rules.rotation() != RotationSystem::Srs {
        return None;
    }
    let pieces: Vec<Value> = game
        .pieces()
        .kinds()
        .iter()
        .map(|kind| {
            let count = kind.orientations().len() as u8;
            let spawn = rules.spawn(kind);
            json!({
                "name": kind.name(),
                "orientations": kind.orientations().iter().map(|o| o.cells()).collect::<Vec<_>>(),
                // For each orientation, the offsets a clockwise and a counter-clockwise turn
                // try, in order.
                "kicks": (0..count)
                    .map(|from| [1, -1].map(|turn| rules.rotation().kicks(kind.box_size(), from, turn)))
                    .collect::<Vec<_>>(),
                "spawn": [spawn.orientation, spawn.x, spawn.y],
            })
        })
        .collect();
    Some(json!({
        "width": rules.width,
        "height": rules.height,
        // A piece enters one row below its spawn where it fits there too.
        "enter_lowers": true,
        "hold": rules.has_hold(),
        "pieces": pieces,
    }))
}

/// The person's seat beyond what is drawn: the rows above those shown (`top` of them),
/// the falling piece as `[piece, orientation, x, y]` in board rows, the held piece and
/// the previewed ones by number, whether a hold is allowed now, and where their handler
/// is (the keys held, the shift in progress and when it repeats next).
pub fn seat(game: &Game, hands: &Hands, top: usize) -> Value {
    let falling = game.current().filter(|_| !game.is_over()).map(|f| {
        [
            i64::from(f.piece.0),
            i64::from(f.pos.orientation),
            i64::from(f.pos.x),
            i64::from(f.pos.y),
        ]
    });
    json!({
        "above": &game.board().rows()[..top],
        "falling": falling,
        "hold_id": game.held().map(|piece| piece.0),
        "can_hold": game.hold_available(),
        "queue_ids": game.queue().map(|piece| piece.0).collect::<Vec<_>>(),
        "hands": hands.handler(),
    })
}

//! One call into a plugin: the game marshalled into the ABI's structs, the call timed on
//! the clock, and the answer checked against the protocol.

use super::watch::{clock, Watch};
use crate::engine::Game;
use crate::plugin::Instance;
use tetrad_plugin_api::abi::{TetradField, TetradPiece};
use tetrad_plugin_api::Actions;

/// A plugin's answer for one tick.
#[derive(Debug)]
pub struct Answer {
    /// The actions to apply (none after a violation), or the plugin's error.
    pub actions: Result<Actions, String>,
    /// The bits the plugin returned, as returned.
    pub raw: u32,
    /// The plugin's bits broke the protocol and are not applied.
    pub violation: bool,
    /// Time spent in `update`, in nanoseconds.
    pub elapsed_ns: u64,
}

/// Asks `instance` for its actions at this tick of `game`, timing the call. `fresh` tells
/// the plugin it sees this piece for the first time even if the game does not (an instance
/// that takes over a game in progress). `watch`, if given, shows the running call to a
/// watchdog on another thread.
pub fn ask(instance: &mut Instance, game: &Game, fresh: bool, watch: Option<&Watch>) -> Answer {
    ask_timed(instance, game, fresh, watch, clock())
}

/// [`ask`], reading `clock` (the [`clock`], fetched once per game by the caller). Always
/// inlined: in the game loop the [`Answer`] then stays in registers instead of going
/// through memory, which measurably shortens every tick.
#[inline(always)]
pub(super) fn ask_timed(
    instance: &mut Instance,
    game: &Game,
    fresh: bool,
    watch: Option<&Watch>,
    clock: &quanta::Clock,
) -> Answer {
    let rules = game.rules();
    let rows = game.board().rows();
    let field = TetradField {
        width: rules.width as u32,
        height: rules.height as u32,
        rows: rows.as_ptr(),
    };
    let current = game.current().map_or(TetradPiece::NONE, |falling| {
        TetradPiece::falling(falling.piece, falling.pos)
    });
    let next = TetradPiece::next(game.preview());
    let started = clock.raw();
    // The watch shows the same start as the timing: one clock read, not two.
    if let Some(watch) = watch {
        watch.set_update_started(Some(started));
    }
    let answer = instance.update(&field, &current, &next, game.is_new_piece() || fresh);
    let elapsed_ns = clock.delta_as_nanos(started, clock.raw());
    if let Some(watch) = watch {
        watch.set_update_started(None);
    }
    let (actions, raw, violation) = match answer {
        Ok(bits) if Actions(bits).is_violation() => (Ok(Actions::NONE), bits, true),
        Ok(bits) => (Ok(Actions(bits)), bits, false),
        Err(message) => (Err(message), 0, false),
    };
    Answer {
        actions,
        raw,
        violation,
        elapsed_ns,
    }
}

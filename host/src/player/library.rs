//! The library flavour: an instance of a plugin loaded from a shared library, asked once
//! per tick through the ABI, the observation marshalled into the ABI's structs.

use super::{CreateError, Decision, Failure, FailureKind, Observation, Reply};
use crate::plugin::{Instance, Plugin};
use crate::watch::Watch;
use tetrad_plugin_api::abi::{GameInfoBuf, TetradField, TetradPiece, TetradState};
use tetrad_plugin_api::{Actions, PieceSet, Rules};

/// A plugin instance playing one game.
pub struct Library {
    instance: Instance,
    /// The instance reads the version 2 state.
    wants_state: bool,
    /// The state shown, kept from the piece's first tick: only the pending garbage
    /// changes during a piece. Left empty for an instance that does not read it.
    state: TetradState,
    /// The action bits its ABI version defines.
    accepted: u32,
    /// The think budget to tell the plugin before its next piece, in microseconds.
    think_budget: Option<u64>,
}

impl Library {
    /// Creates an instance of `plugin` for a game under these rules, its own randomness
    /// seeded with `plugin_seed`.
    pub fn create(
        plugin: &Plugin,
        rules: &Rules,
        pieces: &PieceSet,
        plugin_seed: u64,
        options: &str,
    ) -> Result<Library, CreateError> {
        let info = GameInfoBuf::new(rules, pieces, plugin_seed, plugin.abi_version());
        let instance = plugin.create(&info, options).map_err(|message| CreateError {
            plugin: plugin.info().name.clone(),
            path: plugin.path().display().to_string(),
            message,
            forfeit: None,
        })?;
        Ok(Library {
            wants_state: instance.wants_state(),
            state: TetradState::EMPTY,
            accepted: plugin.accepted_actions(),
            think_budget: None,
            instance,
        })
    }

    /// The action bits the plugin's ABI version defines.
    #[inline]
    pub(crate) fn accepted_actions(&self) -> u32 {
        self.accepted
    }

    /// Whether the plugin is told each piece's think budget under a time control.
    pub(crate) fn takes_budget(&self) -> bool {
        self.instance.takes_think_budget()
    }

    /// The next piece's think budget: the piece's share of the clock.
    pub(crate) fn set_budget(&mut self, budget: crate::referee::Budget) {
        self.think_budget = Some(budget.share.as_micros().clamp(1, u128::from(u64::MAX)) as u64);
    }

    /// Calls `update` with the observation and times it. Always inlined: in the game loop
    /// the reply then stays in registers instead of going through memory, which measurably
    /// shortens every tick.
    #[inline(always)]
    pub(crate) fn decide(&mut self, seen: &Observation<'_>, clock: &quanta::Clock, watch: Option<&Watch>) -> Reply {
        let rows = seen.board.rows();
        let field = TetradField {
            width: seen.rules.width as u32,
            height: seen.rules.height as u32,
            rows: rows.as_ptr(),
        };
        let current = seen.current.map_or(TetradPiece::NONE, |falling| {
            TetradPiece::falling(falling.piece, falling.pos)
        });
        let next = TetradPiece::next(seen.next);
        if self.wants_state {
            if seen.new_piece {
                self.state = seen.state();
            } else {
                self.state.pending_garbage = seen.pending_garbage();
            }
        }
        if seen.new_piece {
            if let Some(micros) = self.think_budget.take() {
                self.instance.set_think_budget(micros);
            }
        }
        let started = clock.raw();
        // The watch shows the same start as the timing: one clock read, not two.
        if let Some(watch) = watch {
            watch.set_update_started(Some(started));
        }
        let bits = self
            .instance
            .update(&field, &current, &next, &self.state, seen.new_piece);
        let elapsed_ns = clock.delta_as_nanos(started, clock.raw());
        if let Some(watch) = watch {
            watch.set_update_started(None);
        }
        Reply {
            decision: match bits {
                Ok(bits) => Ok(Decision::Actions(Actions(bits))),
                Err(message) => Err(Box::new(Failure::new(FailureKind::Error, message))),
            },
            elapsed_ns,
        }
    }
}

//! `beam`: a guideline bot for versus. A beam search over the placements [`sweep`] finds
//! for the falling piece, the held one and every previewed piece (see `search`), scored
//! by a reward for each clear by its kind and an evaluation of the board it leaves (see
//! `eval`, its terms named in [`Weights`]). The chosen placement's path is
//! the shared model's ([`Landing::path`]); a hold is played as [`Actions::HOLD`] and
//! the piece it brings in is placed where the search planned it.
//!
//! [`sweep`]: tetrad_plugin_api::sweep

mod attack;
mod eval;
mod search;
mod weights;

use std::time::Duration;

pub use attack::{Clear, Streak};
pub use eval::{fill_tslot, shape_value, value, Shape, MAX_COVER};
pub use search::{Choice, Limits, Outcome, Position, Scratch, Searcher};
pub use weights::Weights;

use tetrad_plugin_api::{Actions, GameSetup, Info, Landing, Options, PieceId, Preset, Solver, Tick};

/// The beam's width by default.
pub const DEFAULT_WIDTH: usize = 48;
/// Placements looked ahead by default: the falling piece and five more.
pub const DEFAULT_DEPTH: usize = 6;
/// The part of the host's think budget a search takes by default: the rest is for the
/// path's ticks and for a busy machine, which can hold a thread back for many
/// milliseconds past its deadline.
pub const DEFAULT_CLOCK_SHARE: f64 = 0.6;

/// The bot: one per game.
pub struct Beam {
    setup: GameSetup,
    weights: Weights,
    limits: Limits,
    /// The part of the host's think budget a search takes.
    clock_share: f64,
    t: Option<PieceId>,
    /// The falling piece's path, tick by tick.
    path: Option<std::vec::IntoIter<Actions>>,
    /// After a hold: the piece it brings in, and where the search placed it.
    after_hold: Option<(PieceId, Landing)>,
    /// The last search's outcome.
    last: Option<Outcome>,
    /// The search's buffers, kept from one decision to the next.
    scratch: Scratch,
}

impl Solver for Beam {
    const INFO: Info = Info {
        name: "beam",
        version: env!("CARGO_PKG_VERSION"),
        author: "tetrad",
        description: "beam search over the guideline's placements, hold and previews, rated for versus",
    };

    fn create(setup: &GameSetup, options: &mut Options) -> Result<Self, String> {
        if setup.rules.preset != Preset::Guideline {
            return Err(format!(
                "beam plays the `guideline` preset only (got `{}`)",
                setup.rules.preset.name()
            ));
        }
        let mut weights = Weights::default();
        for ((name, weight), &key) in weights.named_mut().into_iter().zip(Weights::KEYS) {
            *weight = options.get(key, *weight)?;
            if !weight.is_finite() {
                return Err(format!("option `w_{name}`: {weight} is not a finite number"));
            }
        }
        let width: usize = options.get("width", DEFAULT_WIDTH)?;
        let depth: usize = options.get("depth", DEFAULT_DEPTH)?;
        if width == 0 || depth == 0 {
            return Err(format!(
                "options `width` and `depth` must be 1 or more (got {width} and {depth})"
            ));
        }
        let nodes: u64 = options.get("nodes", 0)?;
        let think_ms: u64 = options.get("think_ms", 0)?;
        let clock_share: f64 = options.get("clock_share", DEFAULT_CLOCK_SHARE)?;
        if !(clock_share > 0.0 && clock_share <= 1.0) {
            return Err(format!("option `clock_share` must be in (0, 1] (got {clock_share})"));
        }
        let t = setup.pieces.ids().find(|&id| setup.pieces.kind(id).name() == "T");
        Ok(Beam {
            setup: setup.clone(),
            weights,
            limits: Limits {
                width,
                depth,
                nodes,
                think: (think_ms > 0).then(|| Duration::from_millis(think_ms)),
            },
            t,
            clock_share,
            path: None,
            after_hold: None,
            last: None,
            scratch: Scratch::default(),
        })
    }

    fn update(&mut self, tick: &Tick) -> Actions {
        let Some(current) = tick.current else {
            return Actions::NONE;
        };
        if tick.new_piece {
            self.path = self.planned(tick);
            if self.path.is_none() {
                let outcome = self.search(tick);
                self.last = Some(outcome);
                match outcome.choice {
                    Some(choice) if choice.hold => {
                        self.after_hold = Some((choice.piece, choice.landing));
                        return Actions::HOLD;
                    }
                    Some(choice) => {
                        let kind = self.setup.pieces.kind(current.id);
                        self.path = choice
                            .landing
                            .path(&self.setup.rules, &tick.board, kind, current.pos)
                            .map(Vec::into_iter);
                    }
                    None => {}
                }
            }
        }
        self.path.as_mut().and_then(Iterator::next).unwrap_or(Actions::DROP)
    }
}

impl Beam {
    /// The search from the game `tick` shows.
    pub fn search(&mut self, tick: &Tick) -> Outcome {
        let Some(current) = tick.current else {
            return Outcome {
                choice: None,
                nodes: 0,
                depth: 0,
            };
        };
        let rules = &self.setup.rules;
        let searcher = Searcher {
            rules,
            pieces: &self.setup.pieces,
            weights: &self.weights,
            t: self.t,
            visible: rules.height - rules.buffer_rows(),
        };
        let position = Position {
            board: &tick.board,
            current,
            hold: tick.hold,
            hold_available: tick.hold_available,
            queue: &tick.queue,
            streak: Streak {
                back_to_back: tick.back_to_back,
                combo: tick.combo,
            },
            incoming: tick.pending_garbage,
        };
        searcher.search_with(&position, self.limits_for(tick), &mut self.scratch)
    }

    /// The limits of the search at `tick`: the options', the think time cut to the part
    /// of the host's think budget the bot takes, when the host gives one.
    fn limits_for(&self, tick: &Tick) -> Limits {
        let Some(budget) = tick.think_budget else {
            return self.limits;
        };
        let share = budget.mul_f64(self.clock_share);
        Limits {
            think: Some(self.limits.think.map_or(share, |think| think.min(share))),
            ..self.limits
        }
    }

    /// The last search's outcome (`None` before the first).
    pub fn last(&self) -> Option<Outcome> {
        self.last
    }

    /// The path to where the search placed the piece a hold just brought in, when this
    /// is that piece and the path still exists.
    fn planned(&mut self, tick: &Tick) -> Option<std::vec::IntoIter<Actions>> {
        let (piece, landing) = self.after_hold.take()?;
        let current = tick.current.filter(|c| c.id == piece)?;
        let kind = self.setup.pieces.kind(piece);
        landing
            .path(&self.setup.rules, &tick.board, kind, current.pos)
            .map(Vec::into_iter)
    }
}

tetrad_plugin_api::export_solver!(Beam);

#[cfg(test)]
mod tests;

//! The falling piece's placements, worked out once per piece and kept until the game moves.

use crate::game::PyGame;
use crate::play::{Cand, Play};
use std::sync::{Arc, OnceLock};
use tetrad_plugin_api::{Placement, Preset};

/// The falling piece's placements, and per action slot the index of the first placement
/// in it (`NO_PLACEMENT` for none), worked out once per piece. Outside `guideline` the
/// move generator's placements are kept as they come (`plans`), and made `Cand`s only if
/// asked: an environment step needs no more than the plans.
pub(crate) struct Choices {
    pub(crate) plans: Vec<Placement>,
    cands: OnceLock<Vec<Cand>>,
    pub slot_first: Vec<u32>,
}

impl Choices {
    /// The placements as `Cand`s, in the host's order.
    pub fn list(&self, play: &Play) -> &[Cand] {
        self.cands.get_or_init(|| {
            let mut list = Vec::new();
            play.candidates_into(&mut Vec::new(), &mut list);
            list
        })
    }

    /// How many placements there are.
    pub fn len(&self, play: &Play) -> usize {
        match play.game.rules().preset {
            Preset::Guideline => self.list(play).len(),
            _ => self.plans.len(),
        }
    }
}

/// A slot without a placement (in `Choices::slot_first` and the batch's slot table).
pub(crate) const NO_PLACEMENT: u32 = u32::MAX;

impl PyGame {
    /// The falling piece's placements (enumerated once per piece, or looked up where a
    /// table of the setup's holds them).
    pub(crate) fn choices(&mut self) -> Arc<Choices> {
        if let Some(choices) = &self.choices {
            return choices.clone();
        }
        if let Some((_, table)) = self.drops.table(&self.play) {
            let mut plans = Vec::new();
            table.drops.land_into(self.play.game.board(), &mut plans);
            let choices = Arc::new(Choices {
                plans,
                cands: OnceLock::new(),
                slot_first: table.slot_first.clone(),
            });
            self.choices = Some(choices.clone());
            return choices;
        }
        let mut slot_first = vec![NO_PLACEMENT; self.slots.count()];
        let mut mark = |slot: usize, index: usize| {
            let first = &mut slot_first[slot];
            if *first == NO_PLACEMENT {
                *first = index as u32;
            }
        };
        let choices = if self.setup.rules.preset == Preset::Guideline {
            let mut list = Vec::new();
            self.play.candidates_into(&mut Vec::new(), &mut list);
            for (index, cand) in list.iter().enumerate() {
                mark(self.slots.of(cand), index);
            }
            Choices {
                plans: Vec::new(),
                cands: OnceLock::from(list),
                slot_first,
            }
        } else {
            let mut plans = Vec::new();
            self.play.plans_into(&mut plans);
            for (index, placement) in plans.iter().enumerate() {
                mark(self.slots.of_plan(placement), index);
            }
            Choices {
                plans,
                cands: OnceLock::new(),
                slot_first,
            }
        };
        let choices = Arc::new(choices);
        self.choices = Some(choices.clone());
        choices
    }

    /// Forgets the placements: the falling piece moved or the game changed.
    pub(crate) fn moved(&mut self) {
        self.choices = None;
    }
}

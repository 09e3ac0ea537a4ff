//! The falling piece's placements, worked out once per piece and kept until the game moves.

use crate::drops::Drops;
use crate::game::PyGame;
use crate::play::{Cand, Play};
use std::sync::{Arc, OnceLock};
use tetrad_plugin_api::{PieceId, Placement, Preset};

/// The falling piece's placements, and per action slot the index of the first placement
/// in it (`NO_PLACEMENT` for none), worked out once per piece. Outside `guideline` the
/// move generator's placements are kept as they come, as paths to play, or looked up in
/// the setup's table for the piece where one holds them; they are made `Cand`s only if
/// asked: an environment step needs no more than the paths.
#[derive(Clone, Default)]
pub(crate) struct Choices {
    /// The setup's table that holds the piece's placements (their rows those of an empty
    /// board, which playing a path does not need), if one does; else `own`.
    table: Option<(Arc<Drops>, PieceId)>,
    /// The placements worked out for this piece (no paths under `guideline`).
    own: Buffers,
    cands: OnceLock<Vec<Cand>>,
}

/// The placements worked out for one piece: kept from piece to piece, so that a step
/// allocates none of them.
#[derive(Clone, Default)]
pub(crate) struct Buffers {
    plans: Vec<Placement>,
    slot_first: Vec<u32>,
    mask: Vec<i8>,
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
        match (&self.table, play.game.rules().preset) {
            (_, Preset::Guideline) => self.list(play).len(),
            (Some((drops, piece)), _) => drops.paths(*piece).len(),
            (None, _) => self.own.plans.len(),
        }
    }

    /// The path of placement `index` (outside `guideline`).
    pub fn path(&self, index: usize) -> Option<&Placement> {
        match &self.table {
            Some((drops, piece)) => drops.paths(*piece).get(index),
            None => self.own.plans.get(index),
        }
    }

    /// Whether the placements are a table's, their rows the empty board's.
    pub fn is_table(&self) -> bool {
        self.table.is_some()
    }

    /// Per action slot, the index of the first placement in it.
    pub fn slot_first(&self) -> &[u32] {
        match &self.table {
            Some((drops, piece)) => drops.slot_first(*piece),
            None => &self.own.slot_first,
        }
    }

    /// Per action slot, 1 where a placement is, 0 elsewhere.
    pub fn mask(&self) -> &[i8] {
        match &self.table {
            Some((drops, piece)) => drops.mask(*piece),
            None => &self.own.mask,
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
        // The last piece's, written over: neither it nor its buffers are allocated again
        // (`make_mut` copies only what a clone of the game still shares).
        let mut choices = self.spare.take().unwrap_or_default();
        let next = Arc::make_mut(&mut choices);
        next.cands = OnceLock::new();
        next.table = self
            .drops
            .table(&self.play)
            .map(|(piece, _)| (self.drops.clone(), piece));
        if next.table.is_none() {
            self.enumerate(next);
        }
        self.choices = Some(choices.clone());
        choices
    }

    /// The placements of the falling piece by the move generator (or the guideline's
    /// search), and their slots, written into `choices`' own buffers.
    fn enumerate(&self, choices: &mut Choices) {
        let count = self.slots.count();
        let Buffers {
            plans,
            slot_first,
            mask,
        } = &mut choices.own;
        slot_first.clear();
        slot_first.resize(count, NO_PLACEMENT);
        mask.clear();
        mask.resize(count, 0);
        let mut mark = |slot: usize, index: usize| {
            if slot_first[slot] == NO_PLACEMENT {
                slot_first[slot] = index as u32;
                mask[slot] = 1;
            }
        };
        if self.setup.rules.preset == Preset::Guideline {
            plans.clear();
            let mut list = Vec::new();
            self.play.candidates_into(&mut Vec::new(), &mut list);
            for (index, cand) in list.iter().enumerate() {
                mark(self.slots.of(cand), index);
            }
            choices.cands = OnceLock::from(list);
        } else {
            self.play.plans_into(plans);
            for (index, placement) in plans.iter().enumerate() {
                mark(self.slots.of_plan(placement), index);
            }
        }
    }

    /// Forgets the placements: the falling piece moved or the game changed.
    pub(crate) fn moved(&mut self) {
        // Placements no one else holds serve the next piece.
        if let Some(choices) = self.choices.take() {
            if Arc::strong_count(&choices) == 1 {
                self.spare = Some(choices);
            }
        }
    }
}

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
pub(crate) struct Choices {
    source: Source,
    cands: OnceLock<Vec<Cand>>,
}

/// Where the paths and the slot table come from.
enum Source {
    /// A table of the setup's: its placements are the move generator's, in its order,
    /// but for their rows (those of an empty board), which playing a path does not need.
    Table(Arc<Drops>, PieceId),
    /// Worked out for this piece (no paths under `guideline`).
    Own(Buffers),
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
        match (&self.source, play.game.rules().preset) {
            (_, Preset::Guideline) => self.list(play).len(),
            (Source::Table(drops, piece), _) => drops.paths(*piece).len(),
            (Source::Own(own), _) => own.plans.len(),
        }
    }

    /// The path of placement `index` (outside `guideline`).
    pub fn path(&self, index: usize) -> Option<&Placement> {
        match &self.source {
            Source::Table(drops, piece) => drops.paths(*piece).get(index),
            Source::Own(own) => own.plans.get(index),
        }
    }

    /// Whether the placements are a table's, their rows the empty board's.
    pub fn is_table(&self) -> bool {
        matches!(self.source, Source::Table(..))
    }

    /// Per action slot, the index of the first placement in it.
    pub fn slot_first(&self) -> &[u32] {
        match &self.source {
            Source::Table(drops, piece) => drops.slot_first(*piece),
            Source::Own(own) => &own.slot_first,
        }
    }

    /// Per action slot, 1 where a placement is, 0 elsewhere.
    pub fn mask(&self) -> &[i8] {
        match &self.source {
            Source::Table(drops, piece) => drops.mask(*piece),
            Source::Own(own) => &own.mask,
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
        let choices = match self.drops.table(&self.play) {
            Some((piece, _)) => Choices {
                source: Source::Table(self.drops.clone(), piece),
                cands: OnceLock::new(),
            },
            None => {
                let buffers = std::mem::take(&mut self.spare);
                self.enumerate(buffers)
            }
        };
        let choices = Arc::new(choices);
        self.choices = Some(choices.clone());
        choices
    }

    /// The placements of the falling piece by the move generator (or the guideline's
    /// search), and their slots, written into `buffers`.
    fn enumerate(&self, mut buffers: Buffers) -> Choices {
        let count = self.slots.count();
        buffers.slot_first.clear();
        buffers.slot_first.resize(count, NO_PLACEMENT);
        buffers.mask.clear();
        buffers.mask.resize(count, 0);
        let Buffers {
            plans,
            slot_first,
            mask,
        } = &mut buffers;
        let mut mark = |slot: usize, index: usize| {
            if slot_first[slot] == NO_PLACEMENT {
                slot_first[slot] = index as u32;
                mask[slot] = 1;
            }
        };
        let cands = if self.setup.rules.preset == Preset::Guideline {
            plans.clear();
            let mut list = Vec::new();
            self.play.candidates_into(&mut Vec::new(), &mut list);
            for (index, cand) in list.iter().enumerate() {
                mark(self.slots.of(cand), index);
            }
            OnceLock::from(list)
        } else {
            self.play.plans_into(plans);
            for (index, placement) in plans.iter().enumerate() {
                mark(self.slots.of_plan(placement), index);
            }
            OnceLock::new()
        };
        Choices {
            source: Source::Own(buffers),
            cands,
        }
    }

    /// Forgets the placements: the falling piece moved or the game changed.
    pub(crate) fn moved(&mut self) {
        // The buffers of placements no one else holds serve the next piece.
        if let Some(Ok(Choices {
            source: Source::Own(buffers),
            ..
        })) = self.choices.take().map(Arc::try_unwrap)
        {
            self.spare = buffers;
        }
    }
}

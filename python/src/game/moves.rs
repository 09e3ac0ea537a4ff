//! Moves by placement: whether the game still takes one, a placement played by its index
//! or action slot, which slots hold one, and the pieces (their names and indices).

use super::PyGame;
use crate::choices::NO_PLACEMENT;
use crate::play::Cand;
use crate::setup::refused;
use crate::GameOver;
use pyo3::exceptions::PyIndexError;
use pyo3::prelude::*;
use tetrad_plugin_api::{PieceId, Placement};

/// A placement chosen, taken out of the placements before they are let go.
enum Chosen {
    /// A table's: its path is played (its row is the empty board's).
    Path(Placement),
    /// The move generator's for this board.
    Plan(Placement),
    /// The guideline search's.
    Cand(Cand),
}

impl PyGame {
    /// A piece's name in the game's set.
    pub(super) fn name(&self, piece: PieceId) -> String {
        self.setup.pieces.kind(piece).name().to_string()
    }

    /// `GameOver` once the game has ended: no move is played then.
    pub(super) fn live(&self) -> PyResult<()> {
        match self.play.end() {
            Some(end) => Err(GameOver::new_err(format!("the game is over ({})", end.name()))),
            None => Ok(()),
        }
    }

    /// Plays placement `index`; the rows it cleared.
    pub(crate) fn place_index(&mut self, index: i64) -> PyResult<u32> {
        self.live()?;
        let choices = self.choices();
        let count = choices.len(&self.play);
        // A negative index is out of range too (not counted from the end: a placement's
        // index names it, as `Placement.index` does).
        let Some(index) = usize::try_from(index).ok().filter(|&index| index < count) else {
            return Err(PyIndexError::new_err(format!(
                "placement {index} is out of range: the piece has {count} placements"
            )));
        };
        let chosen = match choices.path(index) {
            Some(&placement) if choices.is_table() => Chosen::Path(placement),
            Some(&placement) => Chosen::Plan(placement),
            None => Chosen::Cand(choices.list(&self.play)[index].clone()),
        };
        // Let go of the placements first, so that their buffers serve the next piece.
        drop(choices);
        self.moved();
        let lines = match &chosen {
            Chosen::Path(placement) => self.play.place_path(placement),
            Chosen::Plan(placement) => self.play.place_plan(placement),
            Chosen::Cand(cand) => self.play.place(cand),
        };
        match lines {
            Some(lines) => Ok(lines),
            None if self.play.end().is_some() => Ok(0),
            None => Err(refused(format!("placement {index}: its path did not lock the piece"))),
        }
    }

    /// The placement index of action slot `slot`, if a placement has it.
    pub(crate) fn slot_index(&mut self, slot: usize) -> Option<usize> {
        let first = *self.choices().slot_first().get(slot)?;
        (first != NO_PLACEMENT).then_some(first as usize)
    }

    /// Current, hold, then the previewed pieces, as indices; the number of pieces for none.
    pub(crate) fn piece_vec(&self) -> Vec<i64> {
        let none = self.setup.pieces.len() as i64;
        let game = &self.play.game;
        let id = |p: Option<PieceId>| p.map_or(none, |p| i64::from(p.0));
        let mut out = vec![id(game.current().map(|f| f.piece)), id(game.held())];
        let mut queue = game.queue();
        out.extend((0..self.setup.rules.preview).map(|_| id(queue.next())));
        out
    }
}
